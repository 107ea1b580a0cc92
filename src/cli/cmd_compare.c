/*
 * cmd_compare.c - `warpsim compare A.json B.json [...]`: what differs between
 * runs.  The statistics (every number of the result file's timing totals,
 * counters and CPU-GPU metrics; host timings left out) with the absolute and
 * relative difference to the first run and the speedup where the statistic is
 * the run's time or rate; the configuration options and the policy
 * parameters that differ (from NAME.config, the effective configuration
 * beside each result, else what the result file records).  Plain C: the
 * table needs no Python; --html hands the same files to the Python package
 * (python -m warpsim.compare, cmd_report.c) for a page with plots.
 * docs/report.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "study.h"

#define CMP_MAX_RUNS 8
#define CMP_KEY 160

struct cmp_kv {
    char key[CMP_KEY];
    char *str;      /* string value (options), or NULL */
    double num;     /* number value (statistics) */
};

struct cmp_list {
    struct cmp_kv *v;
    size_t n, cap;
};

static struct cmp_kv *cmp_add(struct cmp_list *l, const char *key)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        struct cmp_kv *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return NULL;
        l->v = nv;
        l->cap = cap;
    }
    struct cmp_kv *e = &l->v[l->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    return e;
}

static void cmp_free(struct cmp_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].str);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static const struct cmp_kv *cmp_get(const struct cmp_list *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].key, key) == 0)
            return &l->v[i];
    return NULL;
}

/* ---- a walk over a JSON document: every number under an object path ---- */

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* a string at p ('"'): its text (escapes kept but for \" and \\) into buf; returns the end, NULL if bad */
static const char *str_at(const char *p, char *buf, size_t n)
{
    size_t k = 0;
    if (*p != '"')
        return NULL;
    for (p++; *p && *p != '"'; p++) {
        char c = *p;
        if (c == '\\' && p[1]) {
            p++;
            c = *p == 'n' ? ' ' : *p == 't' ? ' ' : *p;
            if (*p == 'u' && p[1] && p[2] && p[3] && p[4]) {
                c = '?';
                p += 4;
            }
        }
        if (k + 1 < n)
            buf[k++] = c;
    }
    if (n)
        buf[k] = '\0';
    return *p == '"' ? p + 1 : NULL;
}

/* statistics whose difference says nothing about the simulated machine */
static int host_key(const char *k)
{
    return strncmp(k, "host.", 5) == 0 || strstr(k, "seconds") || strstr(k, "simulation_rate") ||
           strstr(k, "simulation_time") ||
           strstr(k, "_per_sec") || strstr(k, "engine_") || strcmp(k, "max_abs_err") == 0;
}

/* Walk the value at p under path; numbers go to nums (paths with "timing.totals." and "stats." cut to the
   statistic's name, the first of a name wins), top-level strings to strs.  Arrays are skipped (per-SM
   lists, kernels: the per-kernel tables are for the HTML page).  Returns the end, NULL if bad. */
static const char *walk(const char *p, const char *path, int depth, struct cmp_list *nums, struct cmp_list *strs)
{
    p = ws(p);
    if (depth > 32)
        return NULL;
    if (*p == '{') {
        p = ws(p + 1);
        if (*p == '}')
            return p + 1;
        for (;;) {
            char key[CMP_KEY], sub[CMP_KEY * 2];
            p = str_at(ws(p), key, sizeof key);
            if (!p)
                return NULL;
            p = ws(p);
            if (*p != ':')
                return NULL;
            snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
            p = walk(p + 1, sub, depth + 1, nums, strs);
            if (!p)
                return NULL;
            p = ws(p);
            if (*p == ',') {
                p++;
                continue;
            }
            return *p == '}' ? p + 1 : NULL;
        }
    }
    if (*p == '[') {
        int d = 0;
        for (; *p; p++) {
            if (*p == '"') {
                char skip[8];
                p = str_at(p, skip, sizeof skip);
                if (!p)
                    return NULL;
                p--;
            } else if (*p == '[' || *p == '{') {
                d++;
            } else if (*p == ']' || *p == '}') {
                if (--d == 0)
                    return p + 1;
            }
        }
        return NULL;
    }
    if (*p == '"') {
        char val[2048];
        const char *e = str_at(p, val, sizeof val);
        if (e && depth == 1 && !cmp_get(strs, path)) {
            struct cmp_kv *kv = cmp_add(strs, path);
            if (kv)
                kv->str = strdup(val);
        }
        return e;
    }
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
        return p + 4;
    if (strncmp(p, "false", 5) == 0)
        return p + 5;
    char *end;
    double v = strtod(p, &end);   /* also nan, inf as printf writes them */
    if (end == p)
        return NULL;
    const char *name = path;
    if (strncmp(name, "timing.totals.", 14) == 0)
        name += 14;
    else if (strncmp(name, "stats.", 6) == 0)
        name += 6;
    else if (strncmp(name, "timing.", 7) == 0)
        name += 7;
    if (!host_key(name) && !cmp_get(nums, name)) {
        struct cmp_kv *kv = cmp_add(nums, name);
        if (kv)
            kv->num = v;
    }
    return end;
}

/* the effective configuration NAME.config beside NAME.json: `-option value` lines */
static int read_config(const char *json_path, struct cmp_list *opts)
{
    char path[4096];
    size_t l = strlen(json_path);
    if (l > 5 && strcmp(json_path + l - 5, ".json") == 0)
        l -= 5;
    snprintf(path, sizeof path, "%.*s.config", (int)l, json_path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '-')
            continue;
        char *name = p + 1, *e = name;
        while (*e && *e != ' ' && *e != '\t' && *e != '\n')
            e++;
        char *val = e;
        if (*val)
            *val++ = '\0';
        while (*val == ' ' || *val == '\t')
            val++;
        char *nl = strpbrk(val, "\r\n");
        if (nl)
            *nl = '\0';
        size_t vl = strlen(val);
        while (vl && (val[vl - 1] == ' ' || val[vl - 1] == '\t'))
            val[--vl] = '\0';
        if (vl >= 2 && val[0] == '"' && val[vl - 1] == '"') {
            val[vl - 1] = '\0';
            val++;
        }
        if (!cmp_get(opts, name)) {
            struct cmp_kv *kv = cmp_add(opts, name);
            if (kv)
                kv->str = strdup(val);
        }
    }
    fclose(f);
    return 0;
}

static int policy_option(const char *k)
{
    return strchr(k, '.') || strstr(k, "sched") || strstr(k, "_repl") || strstr(k, "bypass") ||
           strstr(k, "warpsim_cm");
}

static int speedup_kind(const char *k)   /* 1: fewer is faster, 2: more is faster, 0: no speedup */
{
    if (strcmp(k, "gpu_sim_cycle") == 0 || strcmp(k, "gpu_tot_sim_cycle") == 0)
        return 1;
    if (strcmp(k, "gpu_ipc") == 0 || strcmp(k, "gpu_warp_ipc") == 0 || strcmp(k, "gpu_tot_ipc") == 0)
        return 2;
    return 0;
}

static void fmt_num(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.6g", v);
}

static void compare_usage(FILE *f)
{
    fputs("usage: warpsim compare A.json B.json [...] [--all] [--html FILE]\n"
          "\n"
          "What differs between runs (`warpsim run -o`), the first (A) being the reference:\n"
          "  statistics     every number of the result files (timing totals, counters, CPU-GPU metrics;\n"
          "                 host timings left out) that differs: each run's value, the difference to A\n"
          "                 (absolute and relative), and for the run's time and rate (gpu_sim_cycle,\n"
          "                 gpu_ipc) the speedup over A\n"
          "  configuration  the options that differ (NAME.config beside each result: the effective\n"
          "                 configuration; else the preset and --set options the result records)\n"
          "  policies       the policies and their parameters that differ (dotted options such as\n"
          "                 cta_sched.static.n, and the scheduler, replacement, bypass and CM choices)\n"
          "\n"
          "options:\n"
          "  --all          list every statistic, equal ones too\n"
          "  --html FILE    also write an HTML page with plots (needs Python 3 with pandas and\n"
          "                 matplotlib: see warpsim report --help)\n"
          "\n"
          "exit status: 0 compared, 2 bad input (an unreadable or malformed result file)\n",
          f);
}

static void print_rows(char *(*cells)[CMP_MAX_RUNS * 3 + 1], size_t rows, unsigned cols)
{
    size_t w[CMP_MAX_RUNS * 3 + 1] = {0};
    for (size_t r = 0; r < rows; r++)
        for (unsigned c = 0; c < cols; c++)
            if (cells[r][c] && strlen(cells[r][c]) > w[c])
                w[c] = strlen(cells[r][c]);
    for (size_t r = 0; r < rows; r++) {
        for (unsigned c = 0; c < cols; c++)
            printf(c == 0 ? "%-*s" : "  %*s", (int)w[c], cells[r][c] ? cells[r][c] : "");
        putchar('\n');
    }
}

int cmd_compare(int argc, char **argv)
{
    const char *paths[CMP_MAX_RUNS], *html = NULL;
    int n = 0, all = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            compare_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--all") == 0) {
            all = 1;
        } else if (strcmp(a, "--html") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim compare: --html needs a file\n");
                return EXIT_USAGE;
            }
            html = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim compare: unknown option '%s' (see warpsim compare --help)\n", a);
            return EXIT_USAGE;
        } else if (n == CMP_MAX_RUNS) {
            fprintf(stderr, "warpsim compare: at most %d runs\n", CMP_MAX_RUNS);
            return EXIT_USAGE;
        } else {
            paths[n++] = a;
        }
    }
    if (n < 2) {
        fprintf(stderr, "warpsim compare: give two or more result files (warpsim run -o NAME.json)\n");
        return EXIT_USAGE;
    }
    struct cmp_list nums[CMP_MAX_RUNS], strs[CMP_MAX_RUNS], opts[CMP_MAX_RUNS];
    memset(nums, 0, sizeof nums);
    memset(strs, 0, sizeof strs);
    memset(opts, 0, sizeof opts);
    int rc = EXIT_OK;
    for (int r = 0; r < n; r++) {
        char *text = sw_read_file(paths[r], NULL);
        if (!text) {
            fprintf(stderr, "warpsim compare: cannot read %s\n", paths[r]);
            rc = EXIT_USAGE;
            break;
        }
        const char *end = walk(text, "", 0, &nums[r], &strs[r]);
        int complete = end && !*ws(end);
        free(text);
        if (!complete) {
            fprintf(stderr, "warpsim compare: %s is not a complete result file (JSON)\n", paths[r]);
            rc = EXIT_USAGE;
            break;
        }
        if (read_config(paths[r], &opts[r]) != 0) {
            /* no effective configuration beside it: what the result records */
            static const char *const keys[] = {"config", "warp_sched", "cta_sched", "cm", "cpu_apps", "size",
                                               "input"};
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                const struct cmp_kv *kv = cmp_get(&strs[r], keys[k]);
                struct cmp_kv *o = kv ? cmp_add(&opts[r], keys[k]) : NULL;
                if (o)
                    o->str = strdup(kv->str);
            }
            for (size_t k = 0; k < strs[r].n; k++)
                if (strncmp(strs[r].v[k].key, "set_", 4) == 0) {
                    struct cmp_kv *o = cmp_add(&opts[r], strs[r].v[k].key + 4);
                    if (o)
                        o->str = strdup(strs[r].v[k].str);
                }
        }
    }
    if (rc == EXIT_OK) {
        for (int r = 0; r < n; r++)
            printf("%c = %s\n", 'A' + r, paths[r]);
        /* the run's speedup first */
        const struct cmp_kv *ca = cmp_get(&nums[0], "gpu_sim_cycle");
        for (int r = 1; r < n && ca; r++) {
            const struct cmp_kv *cb = cmp_get(&nums[r], "gpu_sim_cycle");
            if (cb && cb->num > 0 && ca->num > 0)
                printf("speedup of %c over A: %.4fx (gpu_sim_cycle %.0f -> %.0f)\n", 'A' + r, ca->num / cb->num,
                       ca->num, cb->num);
        }
        /* statistics: the union of the names, in the order of A, then of the others */
        struct cmp_list names = {0};
        for (int r = 0; r < n; r++)
            for (size_t i = 0; i < nums[r].n; i++)
                if (!cmp_get(&names, nums[r].v[i].key))
                    cmp_add(&names, nums[r].v[i].key);
        unsigned cols = 1 + (unsigned)n + 3 * (unsigned)(n - 1);
        char *(*cells)[CMP_MAX_RUNS * 3 + 1] = calloc(names.n + 1, sizeof *cells);
        char hdr[CMP_MAX_RUNS * 4][32];
        size_t rows = 0, differ = 0;
        if (cells) {
            unsigned c = 0;
            cells[0][c++] = "statistic";
            for (int r = 0; r < n; r++) {
                snprintf(hdr[r], sizeof hdr[r], "%c", 'A' + r);
                cells[0][c++] = hdr[r];
            }
            for (int r = 1; r < n; r++) {
                snprintf(hdr[n + 3 * (r - 1)], 32, "%c-A", 'A' + r);
                snprintf(hdr[n + 3 * (r - 1) + 1], 32, "%c/A-1", 'A' + r);
                snprintf(hdr[n + 3 * (r - 1) + 2], 32, "speedup %c", 'A' + r);
                for (int k = 0; k < 3; k++)
                    cells[0][c++] = hdr[n + 3 * (r - 1) + k];
            }
            rows = 1;
        }
        for (size_t i = 0; cells && i < names.n; i++) {
            const char *k = names.v[i].key;
            double v[CMP_MAX_RUNS];
            int same = 1;
            for (int r = 0; r < n; r++) {
                const struct cmp_kv *kv = cmp_get(&nums[r], k);
                v[r] = kv ? kv->num : NAN;
                if (r && !(v[r] == v[0] || (isnan(v[r]) && isnan(v[0]))))
                    same = 0;
            }
            differ += !same;
            if (same && !all)
                continue;
            unsigned c = 0;
            char buf[64];
            cells[rows][c++] = strdup(k);
            for (int r = 0; r < n; r++) {
                fmt_num(buf, sizeof buf, v[r]);
                cells[rows][c++] = strdup(buf);
            }
            for (int r = 1; r < n; r++) {
                fmt_num(buf, sizeof buf, v[r] - v[0]);
                cells[rows][c++] = strdup(buf);
                if (v[0] != 0 && !isnan(v[0]) && !isnan(v[r]))
                    snprintf(buf, sizeof buf, "%+.2f%%", 100.0 * (v[r] - v[0]) / fabs(v[0]));
                else
                    snprintf(buf, sizeof buf, "-");
                cells[rows][c++] = strdup(buf);
                int sk = speedup_kind(k);
                double s = sk == 1 && v[r] > 0 && v[0] > 0 ? v[0] / v[r] : sk == 2 && v[0] > 0 ? v[r] / v[0] : NAN;
                if (isnan(s))
                    snprintf(buf, sizeof buf, "-");
                else
                    snprintf(buf, sizeof buf, "%.4fx", s);
                cells[rows][c++] = strdup(buf);
            }
            rows++;
        }
        printf("\nstatistics that differ: %zu of %zu%s\n", differ, names.n, all ? " (--all: every one listed)" : "");
        if (rows > 1)
            print_rows(cells, rows, cols);
        for (size_t r = 1; cells && r < rows; r++)
            for (unsigned c = 0; c < cols; c++)
                free(cells[r][c]);
        free(cells);
        cmp_free(&names);

        /* options: configuration, then policies */
        struct cmp_list onames = {0};
        for (int r = 0; r < n; r++)
            for (size_t i = 0; i < opts[r].n; i++)
                if (!cmp_get(&onames, opts[r].v[i].key))
                    cmp_add(&onames, opts[r].v[i].key);
        for (int pol = 0; pol < 2; pol++) {
            char *(*oc)[CMP_MAX_RUNS * 3 + 1] = calloc(onames.n + 1, sizeof *oc);
            size_t orows = 1;
            if (!oc)
                break;
            oc[0][0] = "option";
            for (int r = 0; r < n; r++)
                oc[0][1 + r] = hdr[r];
            for (size_t i = 0; i < onames.n; i++) {
                const char *k = onames.v[i].key;
                if (policy_option(k) != pol)
                    continue;
                const char *v[CMP_MAX_RUNS];
                int same = 1;
                for (int r = 0; r < n; r++) {
                    const struct cmp_kv *kv = cmp_get(&opts[r], k);
                    v[r] = kv && kv->str ? kv->str : "(unset)";
                    same &= strcmp(v[r], v[0]) == 0;
                }
                if (same)
                    continue;
                oc[orows][0] = (char *)k;
                for (int r = 0; r < n; r++)
                    oc[orows][1 + r] = (char *)v[r];
                orows++;
            }
            printf("\n%s that differ: %zu\n", pol ? "policies and policy parameters" : "configuration options",
                   orows - 1);
            if (orows > 1)
                print_rows(oc, orows, 1 + (unsigned)n);
            free(oc);
        }
        cmp_free(&onames);
        fflush(stdout);
    }
    for (int r = 0; r < n; r++) {
        cmp_free(&nums[r]);
        cmp_free(&strs[r]);
        cmp_free(&opts[r]);
    }
    if (rc != EXIT_OK || !html)
        return rc;
    char *av[CMP_MAX_RUNS + 3];
    int ac = 0;
    for (int r = 0; r < n; r++)
        av[ac++] = (char *)paths[r];
    av[ac++] = "--html";
    av[ac++] = (char *)html;
    av[ac] = NULL;
    return cli_python_run("compare", "warpsim.compare", ac, av);
}
