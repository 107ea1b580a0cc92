/*
 * cli_args.c - what every subcommand's option parsing shares: `--name=value` spelled as `--name value`,
 * and the nearest valid option suggested for an unknown one.
 *
 * The valid options are read from the command's own --help text (every line whose first word starts with
 * '-'), so a new option documented in --help is suggested without a second list to keep in step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "--name=value" (not "--" itself, not "--=x") */
static char *long_option_eq(char *a)
{
    return strncmp(a, "--", 2) == 0 && a[2] && a[2] != '=' ? strchr(a, '=') : NULL;
}

int cli_split_long_options(int *argc, char ***argv)
{
    int n = *argc, extra = 0;
    for (int i = 1; i < n && strcmp((*argv)[i], "--") != 0; i++)
        extra += long_option_eq((*argv)[i]) != NULL;
    if (!extra)
        return 0;
    /* lives as long as the process: the commands keep pointers into argv */
    char **out = malloc(sizeof *out * (size_t)(n + extra + 1));
    if (!out)
        return -1;
    int m = 0, rest = 0;
    for (int i = 0; i < n; i++) {
        char *a = (*argv)[i];
        if (!rest && strcmp(a, "--") == 0)
            rest = 1;
        char *eq = !rest && i > 0 ? long_option_eq(a) : NULL;
        if (!eq) {
            out[m++] = a;
            continue;
        }
        char *name = strdup(a);
        if (!name) {
            free(out);
            return -1;
        }
        name[eq - a] = '\0';
        out[m++] = name;
        out[m++] = eq + 1;
    }
    out[m] = NULL;
    *argc = m;
    *argv = out;
    return 0;
}

/* Levenshtein distance, for short strings (options); longer ones count as far apart */
static unsigned edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    unsigned row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

int cli_nearest_option(void (*usage)(FILE *), const char *given, char *best, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    usage(f);
    fclose(f);
    unsigned best_d = 99;
    const char *g = given;
    while (*g == '-')
        g++;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        while (*line == ' ')
            line++;
        /* "-o, --output FILE  ...": every option word before the description */
        for (char *w = line; *w == '-';) {
            size_t k = strcspn(w, " ,=[");
            char opt[64];
            if (k > 1 && k < sizeof opt) {
                memcpy(opt, w, k);
                opt[k] = '\0';
                const char *o = opt;
                while (*o == '-')
                    o++;
                unsigned d = edit_distance(g, o);
                if (d < best_d) {
                    best_d = d;
                    snprintf(best, n, "%s", opt);
                }
            }
            w += k;
            while (*w == ',' || *w == ' ')
                w++;
        }
    }
    free(text);
    size_t gl = strlen(g);
    unsigned limit = gl <= 4 ? 1 : gl <= 8 ? 2 : 3;
    return best_d <= limit ? 0 : -1;
}

void cli_unknown_option(const char *cmd, const char *given, void (*usage)(FILE *))
{
    char best[64];
    if (usage && cli_nearest_option(usage, given, best, sizeof best) == 0)
        fprintf(stderr, "warpsim %s: unknown option '%s'; did you mean '%s'? (see warpsim %s --help)\n", cmd, given,
                best, cmd);
    else
        fprintf(stderr, "warpsim %s: unknown option '%s' (see warpsim %s --help)\n", cmd, given, cmd);
}
