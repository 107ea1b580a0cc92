/*
 * dataset.c - HeteroPDP training data in memory and as CSV (dataset.h).
 */
#include "pdp/dataset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"
#include "pdp/text.h"

const char *pdp_target_name(enum pdp_target t) { return t == PDP_CPU ? "cpu" : t == PDP_GPU ? "gpu" : "?"; }
const char *pdp_scen_name(enum pdp_scen s) { return s == PDP_ALONE ? "alone" : s == PDP_COLOC ? "coloc" : "?"; }

const char *pdp_time_column(enum pdp_target t, enum pdp_scen s)
{
    static const char *const nm[PDP_NTARGETS][PDP_NSCENS] = {
        {"time_cpu_alone", "time_cpu_coloc"}, {"time_gpu_alone", "time_gpu_coloc"}};
    return (unsigned)t < PDP_NTARGETS && (unsigned)s < PDP_NSCENS ? nm[t][s] : "?";
}

void pdp_dataset_init(struct pdp_dataset *d) { memset(d, 0, sizeof *d); }

void pdp_dataset_free(struct pdp_dataset *d)
{
    free(d->x);
    free(d->y);
    free(d->group);
    free(d->line);
    for (size_t i = 0; i < d->ngroups; i++)
        free(d->group_names[i]);
    free(d->group_names);
    memset(d, 0, sizeof *d);
}

static int ds_grow(struct pdp_dataset *d)
{
    if (d->n < d->cap)
        return 0;
    size_t cap = d->cap ? d->cap * 2 : 64;
    struct pdp_features *x = realloc(d->x, cap * sizeof *x);
    if (x)
        d->x = x;
    double(*y)[PDP_NTARGETS][PDP_NSCENS] = realloc(d->y, cap * sizeof *y);
    if (y)
        d->y = y;
    uint32_t *g = realloc(d->group, cap * sizeof *g);
    if (g)
        d->group = g;
    uint32_t *l = realloc(d->line, cap * sizeof *l);
    if (l)
        d->line = l;
    if (!x || !y || !g || !l)
        return -1;
    d->cap = cap;
    return 0;
}

/* index of a group name, added when new; UINT32_MAX on out of memory */
static uint32_t ds_group(struct pdp_dataset *d, const char *name)
{
    for (size_t i = 0; i < d->ngroups; i++)   /* linear: training sets have tens of kernels */
        if (strcmp(d->group_names[i], name) == 0)
            return (uint32_t)i;
    if (d->ngroups == d->group_cap) {
        size_t cap = d->group_cap ? d->group_cap * 2 : 16;
        char **p = realloc(d->group_names, cap * sizeof *p);
        if (!p)
            return UINT32_MAX;
        d->group_names = p;
        d->group_cap = cap;
    }
    char *s = strdup(name);
    if (!s)
        return UINT32_MAX;
    d->group_names[d->ngroups] = s;
    return (uint32_t)d->ngroups++;
}

int pdp_dataset_add(struct pdp_dataset *d, const struct pdp_features *x,
                    const double y[PDP_NTARGETS][PDP_NSCENS], const char *group, char *msg, size_t n)
{
    if (ds_grow(d))
        return pdp_err(msg, n, "pdp dataset: out of memory");
    char rowname[32];
    if (!group) {
        snprintf(rowname, sizeof rowname, "row%zu", d->n + 1);
        group = rowname;
    } else {
        d->has_group = true;
    }
    uint32_t g = ds_group(d, group);
    if (g == UINT32_MAX)
        return pdp_err(msg, n, "pdp dataset: out of memory");
    d->x[d->n] = *x;
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++) {
            d->y[d->n][t][s] = y[t][s];
            if (!isnan(y[t][s]))
                d->has_time[t][s] = true;
        }
    d->group[d->n] = g;
    d->line[d->n] = 0;
    d->n++;
    for (int f = 0; f < PDP_F_COUNT; f++)
        d->has_feat[f] = true;
    return 0;
}

/* ---- CSV ------------------------------------------------------------------------------- */

#define DS_MAX_COLS 256

/* column roles */
enum { COL_IGNORED = -1, COL_GROUP = -2, COL_TIME0 = 1000 /* + t * PDP_NSCENS + s */ };

/* Split one line (no newline) into fields, in place: quotes removed, "" unescaped.
   Returns the field count, or -1 (bad quoting, *bad_col set) / -2 (too many fields). */
static int csv_split(char *line, char **field, int max, int *bad_col)
{
    int nf = 0;
    char *p = line;
    for (;;) {
        if (nf == max)
            return -2;
        while (*p == ' ' || *p == '\t')
            p++;
        char sep;
        if (*p == '"') {
            char *w = ++p;
            field[nf] = w;
            for (;;) {
                if (*p == '\0') {
                    *bad_col = nf + 1;
                    return -1;   /* unterminated quote */
                }
                if (*p == '"') {
                    if (p[1] == '"') {
                        *w++ = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                *w++ = *p++;
            }
            while (*p == ' ' || *p == '\t')
                p++;
            sep = *p;
            if (sep != ',' && sep != '\0') {
                *bad_col = nf + 1;
                return -1;   /* text after the closing quote */
            }
            *w = '\0';       /* w < p: the separator stays readable */
        } else {
            field[nf] = p;
            while (*p && *p != ',')
                p++;
            sep = *p;
            char *e = p;
            while (e > field[nf] && (e[-1] == ' ' || e[-1] == '\t'))
                e--;
            *e = '\0';
        }
        nf++;
        if (sep == '\0')
            return nf;
        p++;
    }
}

int pdp_dataset_parse_csv(struct pdp_dataset *d, const char *text, size_t len, const char *path, char *msg,
                          size_t n)
{
    if (!path)
        path = "<csv>";
    snprintf(d->path, sizeof d->path, "%s", path);
    char *buf = pdp_text_copy(text, len);
    if (!buf)
        return pdp_err(msg, n, "%s: out of memory", path);
    int col_role[DS_MAX_COLS];
    char *field[DS_MAX_COLS];
    char header_names[DS_MAX_COLS][64];
    int ncols = 0, rc = 0;
    struct pdp_lines lines;
    pdp_lines_init(&lines, buf, len);
    char *line;
    bool nul;
    while (rc == 0 && (line = pdp_lines_next(&lines, &nul))) {
        uint32_t lineno = lines.lineno;
        if (nul) {
            rc = pdp_err(msg, n, "%s:%u: error: a NUL byte in the line (not a text CSV file?)", path, lineno);
            break;
        }
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r')
            line[--ll] = '\0';
        const char *q = line;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '\0' || *q == '#')
            continue;
        int bad = 0;
        int nf = csv_split(line, field, DS_MAX_COLS, &bad);
        if (nf == -2) {
            rc = pdp_err(msg, n, "%s:%u: error: more than %d fields", path, lineno, DS_MAX_COLS);
            break;
        }
        if (nf < 0) {
            rc = pdp_err(msg, n, "%s:%u: error: field %d: bad quoting (an unterminated quote, or text after the closing quote)",
                         path, lineno, bad);
            break;
        }
        if (ncols == 0) {   /* the header */
            ncols = nf;
            for (int c = 0; c < nf && rc == 0; c++) {
                const char *h = field[c];
                if (!*h) {
                    rc = pdp_err(msg, n, "%s:%u: error: header field %d is empty (every column needs a name)", path,
                                 lineno, c + 1);
                    break;
                }
                snprintf(header_names[c], sizeof header_names[c], "%s", h);
                for (int k = 0; k < c; k++)
                    if (strcmp(header_names[k], header_names[c]) == 0)
                        rc = pdp_err(msg, n, "%s:%u: error: column '%s' appears twice in the header", path, lineno,
                                     header_names[c]);
                int f = pdp_feat_lookup(h);
                col_role[c] = COL_IGNORED;
                if (f >= 0) {
                    col_role[c] = f;
                    d->has_feat[f] = true;
                } else if (strcmp(h, "kernel") == 0) {
                    col_role[c] = COL_GROUP;
                    d->has_group = true;
                } else {
                    for (int t = 0; t < PDP_NTARGETS; t++)
                        for (int s = 0; s < PDP_NSCENS; s++)
                            if (strcmp(h, pdp_time_column((enum pdp_target)t, (enum pdp_scen)s)) == 0) {
                                col_role[c] = COL_TIME0 + t * PDP_NSCENS + s;
                                d->has_time[t][s] = true;
                            }
                }
                if (col_role[c] == COL_IGNORED) {
                    size_t at = strlen(d->ignored);
                    snprintf(d->ignored + at, sizeof d->ignored - at, "%s%s", at ? ", " : "", h);
                }
            }
            continue;
        }
        if (nf != ncols) {
            rc = pdp_err(msg, n, "%s:%u: error: %d field%s, the header has %d", path, lineno, nf, nf == 1 ? "" : "s",
                         ncols);
            break;
        }
        if (ds_grow(d)) {
            rc = pdp_err(msg, n, "%s: out of memory", path);
            break;
        }
        struct pdp_features *x = &d->x[d->n];
        memset(x, 0, sizeof *x);
        for (int t = 0; t < PDP_NTARGETS; t++)
            for (int s = 0; s < PDP_NSCENS; s++)
                d->y[d->n][t][s] = NAN;
        const char *gname = NULL;
        for (int c = 0; c < nf && rc == 0; c++) {
            int role = col_role[c];
            double v;
            if (role == COL_IGNORED)
                continue;
            if (role == COL_GROUP) {
                if (!*field[c])
                    rc = pdp_err(msg, n, "%s:%u: error: column %d 'kernel': empty kernel name", path, lineno, c + 1);
                gname = field[c];
                continue;
            }
            if (role >= COL_TIME0) {
                if (!*field[c])
                    continue;   /* not measured */
                if (pdp_parse_double(field[c], &v) || !(v > 0))
                    rc = pdp_err(msg, n, "%s:%u: error: column %d '%s': '%s' is not a positive time", path, lineno,
                                 c + 1, header_names[c], field[c]);
                else
                    d->y[d->n][(role - COL_TIME0) / PDP_NSCENS][(role - COL_TIME0) % PDP_NSCENS] = v;
                continue;
            }
            if (pdp_parse_double(field[c], &v))
                rc = pdp_err(msg, n, "%s:%u: error: column %d '%s': '%s' is not a number", path, lineno, c + 1,
                             header_names[c], field[c]);
            else
                x->v[role] = v;
        }
        if (rc)
            break;
        char rowname[32];
        if (!gname) {
            snprintf(rowname, sizeof rowname, "line%u", lineno);
            gname = rowname;
        }
        uint32_t g = ds_group(d, gname);
        if (g == UINT32_MAX) {
            rc = pdp_err(msg, n, "%s: out of memory", path);
            break;
        }
        d->group[d->n] = g;
        d->line[d->n] = lineno;
        d->n++;
    }
    if (rc == 0 && ncols == 0)
        rc = pdp_err(msg, n, "%s: error: no header line (an empty file?)", path);
    else if (rc == 0 && d->n == 0)
        rc = pdp_err(msg, n, "%s:%u: error: no data rows after the header", path, lines.lineno);
    free(buf);
    return rc;
}

static int parse_csv(void *d, const char *text, size_t len, const char *path, char *msg, size_t n)
{
    return pdp_dataset_parse_csv(d, text, len, path, msg, n);
}

int pdp_dataset_load_csv(struct pdp_dataset *d, const char *path, char *msg, size_t n)
{
    return pdp_load_file(path, FILE_LIMIT_INPUT, parse_csv, d, msg, n);
}

static bool csv_blank(char c) { return c == ' ' || c == '\t'; }

/* A field as it reads back: quoted when it holds a separator, quote or line end, starts with '#'
   or starts or ends with a blank (the reader trims blanks around an unquoted field). */
static void csv_field(FILE *f, const char *s)
{
    size_t l = strlen(s);
    if (!strpbrk(s, ",\"\n\r") && s[0] != '#' && !(l && (csv_blank(s[0]) || csv_blank(s[l - 1])))) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int pdp_dataset_write_csv(const struct pdp_dataset *d, FILE *f)
{
    fputs("kernel", f);
    for (int k = 0; k < PDP_F_COUNT; k++)
        fprintf(f, ",%s", pdp_feat_name((enum pdp_feat)k));
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++)
            fprintf(f, ",%s", pdp_time_column((enum pdp_target)t, (enum pdp_scen)s));
    fputc('\n', f);
    for (size_t i = 0; i < d->n; i++) {
        csv_field(f, d->group_names[d->group[i]]);
        for (int k = 0; k < PDP_F_COUNT; k++)
            fprintf(f, ",%.17g", d->x[i].v[k]);
        for (int t = 0; t < PDP_NTARGETS; t++)
            for (int s = 0; s < PDP_NSCENS; s++) {
                if (isnan(d->y[i][t][s]))
                    fputc(',', f);
                else
                    fprintf(f, ",%.17g", d->y[i][t][s]);
            }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
