/*
 * cli_config.c - `--config`: a config file, or a built-in preset by name.
 *
 * The presets of configs/ are embedded into the binary at build time
 * (CMakeLists.txt generates cli_presets[] in the build tree), so
 * `warpsim run mm --config dyncta-30core` works wherever the binary is
 * installed.  A path that exists on disk wins over a preset of the same name
 * (a directory does not: it cannot be a config file).
 *
 * Presets include each other (`-config gtx480.config`).  Includes inside an
 * embedded preset are resolved among the embedded presets: the text is loaded
 * in segments around each include, every segment with the rest of the text
 * blanked out (newlines kept), so error positions still name the preset's
 * real line and column.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "core/config.h"

struct cli_preset {
    const char *name;
    const unsigned char *text;
    const size_t *len;
};
/* generated: build/embed/cfg_presets.c */
extern const struct cli_preset cli_presets[];
extern const size_t cli_npresets;
extern const struct cli_preset cli_wl_ptxas[];   /* the workloads' ptxas -v reports */
extern const size_t cli_n_wl_ptxas;

const char *cli_wl_ptxas_text(const char *workload, size_t *len)
{
    for (size_t i = 0; i < cli_n_wl_ptxas; i++)
        if (strcmp(cli_wl_ptxas[i].name, workload) == 0) {
            *len = *cli_wl_ptxas[i].len;
            return (const char *)cli_wl_ptxas[i].text;
        }
    return NULL;
}

static const struct cli_preset *find_preset(const char *name)
{
    size_t n = strlen(name);
    if (n > 7 && strcmp(name + n - 7, ".config") == 0)
        n -= 7;
    for (size_t i = 0; i < cli_npresets; i++)
        if (strlen(cli_presets[i].name) == n && strncmp(cli_presets[i].name, name, n) == 0)
            return &cli_presets[i];
    return NULL;
}

const char *cli_preset_text(const char *name, size_t *len)
{
    const struct cli_preset *p = find_preset(name);
    if (!p)
        return NULL;
    if (len)
        *len = *p->len;
    return (const char *)p->text;
}

void cli_preset_names(char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (size_t i = 0; i < cli_npresets && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", cli_presets[i].name);
}

/* The description of a preset: its opening comment "# NAME.config - what it is ..." from the dash to
   the end of the first sentence, its lines joined (at most n - 1 characters). */
static void preset_description(const char *t, size_t len, char *out, size_t n)
{
    size_t o = 0;
    const char *end = t + len, *p = t;
    int started = 0;
    out[0] = '\0';
    while (p < end && *p == '#' && o + 1 < n) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *le = eol ? eol : end, *q = p + 1;
        while (q < le && *q == ' ')
            q++;
        if (q == le)   /* an empty comment line ends the paragraph */
            break;
        if (!started) {
            const char *dash = strstr(q, " - ");
            if (!dash || dash >= le)
                break;
            q = dash + 3;
            started = 1;
        } else if (o + 1 < n) {
            out[o++] = ' ';
        }
        for (; q < le && o + 1 < n; q++) {
            out[o++] = *q;
            /* the first sentence ends at a full stop before a line end or a capital ("sec. 6.4" goes on) */
            if (*q == '.' && (q + 1 == le || (q[1] == ' ' && q + 2 < le && q[2] >= 'A' && q[2] <= 'Z'))) {
                out[o] = '\0';
                return;
            }
        }
        out[o] = '\0';
        if (!eol)
            break;
        p = eol + 1;
    }
}

void cli_preset_list(FILE *f)
{
    for (size_t i = 0; i < cli_npresets; i++) {
        char d[512];
        preset_description((const char *)cli_presets[i].text, *cli_presets[i].len, d, sizeof d);
        /* one line of a terminal: longer descriptions are cut at a word */
        if (strlen(d) > 96) {
            char *cut = d + 93;
            while (cut > d + 60 && *cut != ' ')
                cut--;
            strcpy(cut, "...");
        }
        fprintf(f, "%-20s %s\n", cli_presets[i].name, d);
    }
    fprintf(f, "\n%zu built-in presets (configs/*.config; docs/config.md gives where each one's values come from).\n"
               "Use one with: warpsim run WORKLOAD --config NAME\n",
            cli_npresets);
}

/* Position of the next `-config VALUE` pair at or after *pos: start of the
   option, start and end of its value.  Comments and quotes are respected. */
static int next_include(const char *t, size_t len, size_t *pos, size_t *opt, size_t *vb, size_t *ve)
{
    size_t i = *pos;
    while (i < len) {
        char ch = t[i];
        if (ch == '#') {
            while (i < len && t[i] != '\n')
                i++;
            continue;
        }
        if (ch == '"') {
            i++;
            while (i < len && t[i] != '"' && t[i] != '\n')
                i++;
            i++;
            continue;
        }
        if (isspace((unsigned char)ch)) {
            i++;
            continue;
        }
        size_t b = i;
        while (i < len && !isspace((unsigned char)t[i]) && t[i] != '#')
            i++;
        if (i - b == 7 && strncmp(t + b, "-config", 7) == 0) {
            size_t j = i;
            while (j < len && (t[j] == ' ' || t[j] == '\t'))
                j++;
            size_t v0 = j;
            if (j < len && t[j] == '"') {
                v0 = ++j;
                while (j < len && t[j] != '"' && t[j] != '\n')
                    j++;
            } else {
                while (j < len && !isspace((unsigned char)t[j]) && t[j] != '#')
                    j++;
            }
            *opt = b;
            *vb = v0;
            *ve = j;
            *pos = j < len && t[j] == '"' ? j + 1 : j;
            return 1;
        }
    }
    *pos = len;
    return 0;
}

static int load_preset(struct cfg *c, const struct cli_preset *p, int depth, char *msg, size_t n)
{
    if (depth > 16) {
        snprintf(msg, n, "preset '%s': includes nested too deeply (a cycle?)", p->name);
        return -1;
    }
    const char *t = (const char *)p->text;
    size_t len = *p->len;
    char *copy = malloc(len + 1);
    if (!copy) {
        snprintf(msg, n, "out of host memory");
        return -1;
    }
    char name[256];
    snprintf(name, sizeof name, "configs/%s.config (built in)", p->name);
    size_t pos = 0, seg = 0;
    int rc = 0;
    for (;;) {
        size_t opt = len, vb = 0, ve = 0;
        int inc = next_include(t, len, &pos, &opt, &vb, &ve);
        /* the segment [seg, opt): everything else blanked, newlines kept */
        for (size_t i = 0; i < len; i++)
            copy[i] = (i >= seg && i < opt) || t[i] == '\n' ? t[i] : ' ';
        copy[len] = '\0';
        struct cfg_error e;
        memset(&e, 0, sizeof e);
        if (cfg_load_text(c, copy, len, name, &e) != 0) {
            cfg_error_format(&e, msg, n);
            rc = -1;
            break;
        }
        if (!inc)
            break;
        char want[256];
        snprintf(want, sizeof want, "%.*s", (int)(ve - vb), t + vb);
        const char *base = strrchr(want, '/');
        const struct cli_preset *q = find_preset(base ? base + 1 : want);
        if (!q) {
            snprintf(msg, n, "%s: includes '%s', which is not a built-in preset", name, want);
            rc = -1;
            break;
        }
        if (load_preset(c, q, depth + 1, msg, n) != 0) {
            rc = -1;
            break;
        }
        seg = pos;
    }
    free(copy);
    return rc;
}

int cli_config_load(struct cfg *c, const char *spec, char *msg, size_t n)
{
    if (!spec)
        return 0;
    struct stat st;
    const struct cli_preset *p = strchr(spec, '/') ? NULL : find_preset(spec);
    /* whatever exists on disk is read as a file (a directory that shadows a preset's name
       aside): a directory, a device or a file past the size limit gets the loader's error */
    if (stat(spec, &st) == 0 && !(S_ISDIR(st.st_mode) && p)) {
        struct cfg_error e;
        memset(&e, 0, sizeof e);
        if (cfg_load_file(c, spec, &e) != 0) {
            cfg_error_format(&e, msg, n);
            return -1;
        }
        return 0;
    }
    if (!p) {
        char names[512];
        cli_preset_names(names, sizeof names);
        snprintf(msg, n, "--config '%s': no such file and no built-in preset of that name (presets: %s)", spec, names);
        return -1;
    }
    return load_preset(c, p, 0, msg, n);
}
