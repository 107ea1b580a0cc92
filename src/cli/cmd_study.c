/*
 * cmd_study.c - `warpsim study NAME`: the seeds' studies as recipes on top of
 * the sweep machinery (study_sweep.c), and what the recipes share: tables
 * printed as text and written as CSV, means, policy availability, time-series
 * and per-warp file readers.  The recipes: study_dyncta.c, study_las.c,
 * study_caws.c, study_l1size.c, study_ctrlc.c, study_cawa.c, study_hetero.c; docs/studies.md
 * describes them and what they measured.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "policy/bypass.h"
#include "policy/cta_sched.h"
#include "policy/repl.h"
#include "policy/warp_sched.h"
#include "study.h"

/* ---------------------------------------------------------------- tables */

void st_table_init(struct st_table *t, const char *title)
{
    memset(t, 0, sizeof *t);
    snprintf(t->title, sizeof t->title, "%s", title);
}

unsigned st_col(struct st_table *t, const char *head)
{
    if (t->ncols == ST_MAX_COLS)
        return ST_MAX_COLS - 1;
    snprintf(t->head[t->ncols], ST_CELL, "%s", head);
    return t->ncols++;
}

unsigned st_row(struct st_table *t, const char *first)
{
    if (t->nrows == ST_MAX_ROWS)
        return ST_MAX_ROWS - 1;
    snprintf(t->cell[t->nrows][0], ST_CELL, "%s", first);
    return t->nrows++;
}

void st_setf(struct st_table *t, unsigned row, unsigned col, const char *fmt, ...)
{
    if (row >= ST_MAX_ROWS || col >= ST_MAX_COLS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cell[row][col], ST_CELL, fmt, ap);
    va_end(ap);
}

void st_setnum(struct st_table *t, unsigned row, unsigned col, double v, int prec, const char *missing)
{
    if (isfinite(v))
        st_setf(t, row, col, "%.*f", prec, v);
    else
        st_setf(t, row, col, "%s", missing);
}

void st_print(const struct st_table *t, FILE *f)
{
    unsigned w[ST_MAX_COLS];
    size_t total = 0;
    for (unsigned c = 0; c < t->ncols; c++) {
        w[c] = (unsigned)strlen(t->head[c]);
        for (unsigned r = 0; r < t->nrows; r++)
            if (strlen(t->cell[r][c]) > w[c])
                w[c] = (unsigned)strlen(t->cell[r][c]);
        total += w[c] + 2;
    }
    fprintf(f, "%s\n", t->title);
    for (unsigned c = 0; c < t->ncols; c++)
        fprintf(f, c == 0 ? "%-*s" : "  %*s", (int)w[c], t->head[c]);
    fputc('\n', f);
    for (size_t i = 0; i + 2 < total; i++)
        fputc('-', f);
    fputc('\n', f);
    for (unsigned r = 0; r < t->nrows; r++) {
        if (t->rule_before[r]) {
            for (size_t i = 0; i + 2 < total; i++)
                fputc('-', f);
            fputc('\n', f);
        }
        for (unsigned c = 0; c < t->ncols; c++)
            fprintf(f, c == 0 ? "%-*s" : "  %*s", (int)w[c], t->cell[r][c]);
        fputc('\n', f);
    }
}

static void st_csv_cell(FILE *f, const char *s, int first)
{
    if (!first)
        fputc(',', f);
    if (strpbrk(s, ",\"")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

int st_write_csv(const struct st_table *t, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warpsim study: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (unsigned c = 0; c < t->ncols; c++)
        st_csv_cell(f, t->head[c], c == 0);
    fputc('\n', f);
    for (unsigned r = 0; r < t->nrows; r++) {
        for (unsigned c = 0; c < t->ncols; c++)
            st_csv_cell(f, t->cell[r][c], c == 0);
        fputc('\n', f);
    }
    int err = ferror(f);
    if (fclose(f) != 0 || err)
        return -1;
    return 0;
}

/* ---------------------------------------------------------------- means */

double st_amean(const double *v, size_t n)
{
    double s = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i])) {
            s += v[i];
            k++;
        }
    return k ? s / (double)k : NAN;
}

double st_gmean(const double *v, size_t n)
{
    double s = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > 0) {
            s += log(v[i]);
            k++;
        }
    return k ? exp(s / (double)k) : NAN;
}

/* ---------------------------------------------------------------- availability */

void st_policy_check(const struct st_opts *o, const char *kind, const char *name, const char *param, char *why,
                     size_t n)
{
    char names[1024];
    const struct cfg_opt *params = NULL;
    size_t nparams = 0;
    why[0] = '\0';
    size_t len = strlen(name);
    for (const char *p = o && o->skip ? o->skip : ""; *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0) {
            snprintf(why, n, "left out by --skip-policy %s", o->skip);
            return;
        }
        p += l + (c != NULL);
    }
    if (strcmp(kind, "warp_sched") == 0) {
        const struct warp_sched_ops *ops = warp_sched_find(name);
        if (!ops) {
            warp_sched_names(names, sizeof names);
            snprintf(why, n, "warp scheduler '%s' is not registered in this build (registered: %s)", name, names);
            return;
        }
        params = ops->params, nparams = ops->nparams;
    } else if (strcmp(kind, "bypass") == 0) {
        const struct bypass_ops *ops = bypass_find(name);
        if (!ops) {
            bypass_names(names, sizeof names);
            snprintf(why, n, "bypass policy '%s' is not registered in this build (registered: %s)", name, names);
            return;
        }
        params = ops->params, nparams = ops->nparams;
    } else if (strcmp(kind, "repl") == 0) {
        const struct repl_ops *ops = repl_find(name);
        if (!ops) {
            repl_names(names, sizeof names);
            snprintf(why, n, "replacement policy '%s' is not registered in this build (registered: %s)", name,
                     names);
            return;
        }
        params = NULL, nparams = 0;
    } else {
        const struct cta_sched_ops *ops = cta_sched_find(name);
        if (!ops) {
            cta_sched_names(names, sizeof names);
            snprintf(why, n, "CTA scheduler '%s' is not registered in this build (registered: %s)", name, names);
            return;
        }
        params = ops->params, nparams = ops->nparams;
    }
    if (!param)
        return;
    size_t used = 0;
    names[0] = '\0';
    for (size_t i = 0; i < nparams; i++) {
        if (strcmp(params[i].name, param) == 0)
            return;
        used += (size_t)snprintf(names + used, used < sizeof names ? sizeof names - used : 0, "%s%s",
                                 i ? ", " : "", params[i].name);
    }
    snprintf(why, n, "%s '%s' has no parameter '%s' (parameters: %s)", kind, name, param,
             nparams ? names : "none");
}

size_t st_workloads(const struct st_opts *o, const char *defaults, const char **out, size_t max, char *skipped,
                    size_t nskipped)
{
    const char *list = o->workloads ? o->workloads : defaults;
    size_t n = 0, used = 0;
    skipped[0] = '\0';
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        const struct workload *w = len ? wl_find(name) : NULL;
        if (w && n < max)
            out[n++] = w->name;   /* registry strings live for the program */
        else if (len && !w)
            used += (size_t)snprintf(skipped + used, used < nskipped ? nskipped - used : 0, "%s%s",
                                     used ? ", " : "", name);
        p += len;
        if (*p == ',')
            p++;
    }
    return n;
}

/* ---------------------------------------------------------------- phases */

int st_phase(const struct st_opts *o, struct sw_list *l, size_t first, const char *label)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/runs", o->dir);
    struct sw_exec x = {.dir = dir, .jobs = o->jobs, .quiet = o->quiet, .label = label};
    for (size_t i = first; i < l->n; i++)
        if (l->r[i].state == SW_PENDING)
            sw_probe(&x, &l->r[i]);
    /* what another study (or sweep) beside this one already ran is copied, also before --emit, so that the
       jobs are only the runs nobody made and the next invocation finds the copies complete */
    size_t reused = o->no_reuse ? 0 : sw_reuse(&x, o->dir, l, first, l->n - first, SW_REUSE_COPY);
    if (o->emit_format) {
        if (reused) {
            char from[2048];
            sw_reuse_sources(l, first, l->n - first, from, sizeof from);
            printf("%s: %zu runs reused from %s (copied into %s/)\n", label, reused, from, dir);
        }
        size_t todo = 0;
        for (size_t i = 0; i < l->n; i++)
            todo += l->r[i].state == SW_PENDING;
        if (todo == 0)
            return 0;
        char exe[PATH_MAX];
        ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (el <= 0) {
            fprintf(stderr, "warpsim study: cannot find its own binary: %s\n", strerror(errno));
            return -1;
        }
        exe[el] = '\0';
        int k = sw_emit(&x, l, o->emit_format, o->emit_path, exe);
        if (k < 0)
            return -1;
        printf("%s: %d runs written to %s (%s).  Run them, then run this study command again: it\n"
               "collects the results (and writes the next phase's runs, if the study has one).\n",
               label, k, o->emit_path, o->emit_format);
        return 1;
    }
    if (sw_execute(&x, l, first, l->n - first) < 0)
        return -1;
    char csv[1100];
    snprintf(csv, sizeof csv, "%s/runs.csv", o->dir);
    sw_write_csv(&x, l, csv);
    return 0;
}

const struct sw_metrics *st_m(const struct sw_list *l, long idx)
{
    if (idx < 0 || (size_t)idx >= l->n)
        return NULL;
    const struct sw_run *r = &l->r[idx];
    return sw_result_ok(l, r) ? &r->m : NULL;   /* with a window, its statistics up to there */
}

void st_list_init(struct sw_list *l, const struct st_opts *o)
{
    memset(l, 0, sizeof *l);
    l->max_cycles = o->max_cycles;
}

void st_window_note(FILE *f, const struct st_opts *o)
{
    if (o->max_cycles)
        fprintf(f, "window: the first %" PRIu64 " core cycles of every run (--max-cycles; a run that reaches it stops "
                   "there, its outputs not checked, its statistics those of the window).\n",
                o->max_cycles);
}

const char *st_missing(const struct sw_list *l, long idx)
{
    if (idx < 0)
        return "n/a";
    return st_m(l, idx) ? "" : "fail";
}

double st_norm(const struct sw_list *l, long idx, long base)
{
    const struct sw_metrics *m = st_m(l, idx), *b = st_m(l, base);
    return m && b && b->ipc > 0 ? m->ipc / b->ipc : NAN;
}

void st_cell(struct st_table *t, unsigned row, unsigned col, const struct sw_list *l, long idx, double v)
{
    const char *miss = st_missing(l, idx);
    st_setnum(t, row, col, v, 2, miss[0] ? miss : "n/a");
}

/* Length of a number printf wrote for a NaN or an infinity at s + i (a sign, "nan" or "inf", a unit x or %
   right after it), 0 when there is none. */
static size_t st_nan_at(const char *s, size_t i)
{
    if (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '.'))
        return 0;
    size_t j = i + (s[i] == '+' || s[i] == '-');
    if (strncmp(s + j, "nan", 3) != 0 && strncmp(s + j, "inf", 3) != 0)
        return 0;
    j += 3;
    if (s[j] == 'x' || s[j] == '%')
        j++;
    return isalnum((unsigned char)s[j]) ? 0 : j - i;
}

/* The measured text with those numbers (a group without workloads, a ratio of nothing) as "n/a". */
static void st_no_nan(const char *in, char *out, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; in[i] && o + 1 < n;) {
        size_t k = st_nan_at(in, i);
        if (k) {
            for (const char *r = "n/a"; *r && o + 1 < n; r++)
                out[o++] = *r;
            i += k;
        } else {
            out[o++] = in[i++];
        }
    }
    out[o] = '\0';
}

void st_check(FILE *f, unsigned score[3], int verdict, const char *claim, const char *paper, const char *measured)
{
    char m[1024];
    st_no_nan(measured, m, sizeof m);
    score[verdict < 0 ? 0 : verdict ? 2 : 1]++;
    fprintf(f, "[%-10s] %s\n             paper: %s\n             here:  %s\n",
            verdict > 0 ? "agrees" : verdict == 0 ? "differs" : "cannot tell", claim, paper, m);
}

int st_status(const struct st_opts *o, const struct sw_list *l)
{
    char from[2048];
    size_t reused = sw_reuse_sources(l, 0, l->n, from, sizeof from);
    if (reused)
        printf("%zu of %zu runs reused from %s (copied into %s/runs/; --no-reuse runs them here instead)\n", reused,
               l->n, from, o->dir);
    size_t bad = 0;
    for (size_t i = 0; i < l->n; i++)
        bad += st_m(l, (long)i) == NULL;
    if (!bad)
        return EXIT_OK;
    printf("%zu of %zu runs have no verified result (shown as fail); their logs: %s/runs/NAME.log\n", bad, l->n,
           o->dir);
    return EXIT_VERIFY_FAILED;
}

void st_score(FILE *f, const unsigned score[3])
{
    fprintf(f, "agreement with the seed: %u of %u comparisons agree, %u differ, %u cannot tell\n", score[2],
            score[0] + score[1] + score[2], score[1], score[0]);
}

void st_report_out(const struct st_opts *o, const char *name, const char *text)
{
    fputs(text, stdout);
    char path[1100];
    snprintf(path, sizeof path, "%s/%s.txt", o->dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warpsim study: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fputs(text, f);
    fclose(f);
    printf("report written to %s\n", path);
}

void st_run_path(const struct st_opts *o, const struct sw_list *l, long idx, const char *suffix, char *buf,
                 size_t n)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/runs", o->dir);
    struct sw_exec x = {.dir = dir};
    if (idx < 0) {
        buf[0] = '\0';
        return;
    }
    sw_path(&x, &l->r[idx], suffix, buf, n);
}

void st_run_stats(const struct st_opts *o, const struct sw_list *l, long idx, const char *const *names, int n,
                  double *x)
{
    for (int k = 0; k < n; k++)
        x[k] = NAN;
    if (!st_m(l, idx))
        return;
    char path[1200];
    st_run_path(o, l, idx, ".json", path, sizeof path);
    char *text = sw_read_file(path, NULL);
    if (!text)
        return;
    for (int k = 0; k < n; k++)
        if (jr_number(text, names[k], &x[k]) != 0)
            x[k] = NAN;
    free(text);
}

/* ---------------------------------------------------------------- file readers */

/* split a CSV line (no quoting: the simulator's CSV files have none) in place */
static size_t st_split(char *line, char **f, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    char *nl = strpbrk(f[n - 1], "\r\n");
    if (nl)
        *nl = '\0';
    return n;
}

int st_ts_column(const char *tspath, const char *col, double *max, double *mean)
{
    return st_ts_column_while(tspath, col, NULL, max, mean);
}

int st_ts_column_while(const char *tspath, const char *col, const char *gate, double *max, double *mean)
{
    FILE *f = fopen(tspath, "r");
    if (!f)
        return -1;
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    char **fld = malloc(4096 * sizeof *fld);
    int *pick = malloc(4096 * sizeof *pick);
    int rc = -1;
    if (!line || !fld || !pick || !fgets(line, (int)cap, f))
        goto out;
    size_t nf = st_split(line, fld, 4096), npick = 0;
    long interval = -1, gcol = -1;
    size_t clen = strlen(col);
    for (size_t i = 0; i < nf; i++) {
        const char *h = fld[i];
        if (strcmp(h, "interval_cycles") == 0)
            interval = (long)i;
        if (gate && strcmp(h, gate) == 0)
            gcol = (long)i;
        if (strncmp(h, "sm", 2) != 0)
            continue;
        const char *p = h + 2;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p > h + 2 && *p == '_' && strncmp(p + 1, col, clen) == 0 && p[1 + clen] == '\0')
            pick[npick++] = (int)i;
    }
    if (npick == 0 || interval < 0 || (gate && gcol < 0))
        goto out;
    double mx = 0, wsum = 0, vsum = 0;
    while (fgets(line, (int)cap, f)) {
        size_t k = st_split(line, fld, 4096);
        if (k != nf || (gate && !(strtod(fld[gcol], NULL) > 0)))
            continue;
        double s = 0, rmax = 0;
        for (size_t i = 0; i < npick; i++) {
            double v = strtod(fld[pick[i]], NULL);
            s += v;
            rmax = v > rmax ? v : rmax;
        }
        if (rmax <= 0)
            continue;   /* no kernel running at this sample */
        double w = strtod(fld[interval], NULL);
        mx = rmax > mx ? rmax : mx;
        wsum += w;
        vsum += w * s / (double)npick;
    }
    *max = mx;
    *mean = wsum > 0 ? vsum / wsum : NAN;
    rc = 0;
out:
    free(line);
    free(fld);
    free(pick);
    fclose(f);
    return rc;
}

struct st_warp {
    uint64_t kernel, cta, warp;
    double time;
    uint64_t insns;                     /* UINT64_MAX when the file has no insns column */
};

static int st_warp_cmp(const void *a, const void *b)
{
    const struct st_warp *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    if (x->cta != y->cta)
        return x->cta < y->cta ? -1 : 1;
    if (x->warp != y->warp)
        return x->warp < y->warp ? -1 : 1;
    return 0;
}

/* the per-warp file, sorted by (kernel, CTA, warp) */
static struct st_warp *st_warps_load(const char *path, size_t *count)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char line[4096];
    char *fld[64];
    struct st_warp *w = NULL;
    size_t n = 0, cap = 0;
    int ik = -1, ic = -1, iw = -1, is = -1, ie = -1, ii = -1;
    if (fgets(line, sizeof line, f)) {
        size_t nf = st_split(line, fld, 64);
        for (size_t i = 0; i < nf; i++) {
            int *dst = strcmp(fld[i], "kernel_id") == 0 ? &ik
                       : strcmp(fld[i], "cta") == 0     ? &ic
                       : strcmp(fld[i], "warp") == 0    ? &iw
                       : strcmp(fld[i], "start") == 0   ? &is
                       : strcmp(fld[i], "end") == 0     ? &ie
                       : strcmp(fld[i], "insns") == 0   ? &ii
                                                        : NULL;
            if (dst)
                *dst = (int)i;
        }
    }
    if (ik < 0 || ic < 0 || iw < 0 || is < 0 || ie < 0) {
        fclose(f);
        return NULL;
    }
    while (fgets(line, sizeof line, f)) {
        size_t nf = st_split(line, fld, 64);
        int need = ik > ic ? ik : ic;
        need = iw > need ? iw : need;
        need = is > need ? is : need;
        need = ie > need ? ie : need;
        if ((int)nf <= need)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            struct st_warp *nw = realloc(w, cap * sizeof *nw);
            if (!nw) {
                free(w);
                fclose(f);
                return NULL;
            }
            w = nw;
        }
        w[n].kernel = strtoull(fld[ik], NULL, 10);
        w[n].cta = strtoull(fld[ic], NULL, 10);
        w[n].warp = strtoull(fld[iw], NULL, 10);
        w[n].time = strtod(fld[ie], NULL) - strtod(fld[is], NULL);
        w[n].insns = ii >= 0 && ii < (int)nf ? strtoull(fld[ii], NULL, 10) : UINT64_MAX;
        n++;
    }
    fclose(f);
    if (n)
        qsort(w, n, sizeof *w, st_warp_cmp);
    *count = n;
    if (!w)
        w = malloc(sizeof *w);   /* an empty but readable file */
    return w;
}

/* [i, j) = the warps of the CTA starting at i */
static size_t st_cta_end(const struct st_warp *w, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n && w[j].kernel == w[i].kernel && w[j].cta == w[i].cta)
        j++;
    return j;
}

int st_warp_spread(const char *path, const char *ref_path, double *spread, double *inversion, double *spread_equal)
{
    size_t n = 0, nr = 0;
    struct st_warp *w = st_warps_load(path, &n);
    if (!w)
        return -1;
    struct st_warp *ref = ref_path ? st_warps_load(ref_path, &nr) : NULL;
    double ssum = 0, esum = 0;
    size_t scount = 0, ecount = 0, inv = 0, compared = 0;
    size_t ri = 0;
    for (size_t i = 0; i < n;) {
        size_t j = st_cta_end(w, n, i);
        double lo = w[i].time, hi = w[i].time;
        int equal = w[i].insns != UINT64_MAX;   /* every warp of the CTA executed as many instructions */
        for (size_t k = i; k < j; k++) {
            lo = w[k].time < lo ? w[k].time : lo;
            hi = w[k].time > hi ? w[k].time : hi;
            equal &= w[k].insns == w[i].insns;
        }
        if (j - i >= 2 && lo > 0) {
            ssum += (hi - lo) / lo;
            scount++;
            if (equal) {
                esum += (hi - lo) / lo;
                ecount++;
            }
        }
        /* criticality inversion: the reference's slowest warp of this CTA
           finished in the faster half of the CTA here (docs/studies.md) */
        while (ref && ri < nr && st_warp_cmp(&ref[ri], &w[i]) < 0 &&
               !(ref[ri].kernel == w[i].kernel && ref[ri].cta == w[i].cta))
            ri = st_cta_end(ref, nr, ri);
        if (ref && ri < nr && ref[ri].kernel == w[i].kernel && ref[ri].cta == w[i].cta && j - i >= 2) {
            size_t rj = st_cta_end(ref, nr, ri), crit = ri;
            for (size_t k = ri; k < rj; k++)
                if (ref[k].time > ref[crit].time)
                    crit = k;
            double ct = -1;
            size_t slower = 0;
            for (size_t k = i; k < j; k++)
                if (w[k].warp == ref[crit].warp)
                    ct = w[k].time;
            if (ct >= 0) {
                for (size_t k = i; k < j; k++)
                    slower += w[k].time > ct;   /* warps now slower than the old critical warp */
                compared++;
                if (2 * slower >= j - i)
                    inv++;
            }
        }
        i = j;
    }
    *spread = scount ? ssum / (double)scount : NAN;
    *inversion = compared ? (double)inv / (double)compared : NAN;
    if (spread_equal)
        *spread_equal = ecount ? esum / (double)ecount : NAN;
    free(w);
    free(ref);
    return 0;
}

int st_crit_gain(const char *path, const char *ref_path, struct st_crit_gain *out)
{
    size_t n = 0, nr = 0;
    struct st_warp *w = st_warps_load(path, &n);
    struct st_warp *ref = w ? st_warps_load(ref_path, &nr) : NULL;
    if (!w || !ref) {
        free(w);
        return -1;
    }
    double csum = 0, tsum = 0;
    size_t m = 0, big = 0, ri = 0;
    for (size_t i = 0; i < n;) {
        size_t j = st_cta_end(w, n, i);
        /* both files are sorted by (kernel, CTA, warp): walk the reference up to this CTA */
        while (ri < nr && st_warp_cmp(&ref[ri], &w[i]) < 0 &&
               !(ref[ri].kernel == w[i].kernel && ref[ri].cta == w[i].cta))
            ri = st_cta_end(ref, nr, ri);
        if (ri < nr && ref[ri].kernel == w[i].kernel && ref[ri].cta == w[i].cta) {
            size_t rj = st_cta_end(ref, nr, ri), crit = ri;
            double rt = 0, t = 0, ct = -1;
            for (size_t k = ri; k < rj; k++) {
                crit = ref[k].time > ref[crit].time ? k : crit;
                rt = ref[k].time > rt ? ref[k].time : rt;
            }
            for (size_t k = i; k < j; k++) {
                t = w[k].time > t ? w[k].time : t;
                if (w[k].warp == ref[crit].warp)
                    ct = w[k].time;
            }
            if (ct >= 0 && ref[crit].time > 0 && rt > 0) {
                double g = 1 - ct / ref[crit].time;
                csum += g;
                tsum += 1 - t / rt;
                big += g >= 0.2;
                m++;
            }
        }
        i = j;
    }
    out->ctas = m;
    out->crit = m ? csum / (double)m : NAN;
    out->cta = m ? tsum / (double)m : NAN;
    out->share20 = m ? (double)big / (double)m : NAN;
    free(w);
    free(ref);
    return 0;
}

/* ---------------------------------------------------------------- command */

static void study_usage(FILE *f)
{
    fputs("usage: warpsim study NAME [options]\n"
          "\n"
          "Reproduce a study of the seed documents on the bundled workloads (docs/studies.md):\n"
          "  dyncta   001 (Kayiran, PACT'13) Fig. 1, 9, 10, 11: IPC for static CTA limits n = 1..N, the\n"
          "           optimal n, DYNCTA, two-level and DYNCTA + two-level against the max-CTA baseline;\n"
          "           N, opt and DYNCTA's average n; lat_rt and util change; L1D miss rate\n"
          "  las      003 (Chen) Fig. 5.1, 5.2, Table 5.1: RR, BCS, locality-aware CTA scheduling and\n"
          "           locality-aware CTA + warp scheduling (GTO baseline): IPC and L1D miss rate by\n"
          "           row-major / column-major / no inter-CTA locality\n"
          "  caws     000 (Lee) Fig. 3.5, Table 3.3: LRR, GTO, two-level, CAWS-blk/SM/avg (oracle from\n"
          "           the LRR run), gCAWS: IPC and per-warp execution-time spread, BFS first\n"
          "  l1-size  000 (Lee) Fig. 5.1, Table 5.3: speedup of a 32 KB and a 64 KB L1D and of no L1D\n"
          "           (loads bypass it) over the 16 KB GTX480 L1D; cache-sensitive when 64 KB > 1.2x\n"
          "  ctrlc    000 (Lee) Fig. 5.7-5.10: PC-based bypassing, Ctrl-C, SRRIP, SHiP and a 32 KB L1D on\n"
          "           the cache-sensitive workloads: speedup, L1D MPKI, L1-to-L2 traffic, zero-reuse lines\n"
          "  cawa     000 (Lee) sec. 4.3, Fig. 4.10-4.16: LRR, GTO, two-level, gCAWS, CAWA (gCAWS + CACP)\n"
          "           and CACP under LRR and GTO on the seed's Sens applications: speedup over LRR, L1D\n"
          "           MPKI, critical-warp L1D hit rate, CPL accuracy\n"
          "  hetero   004 (Kayiran, MICRO'14) Fig. 3, 15-20 on the CPU-GPU chip (hetero-7tile): GPU\n"
          "           workloads beside 004's CPU mixes under GTO, DYNCTA, CM-CPU, CM-BAL1..4, static\n"
          "           warp limits 4-16 and partitioned networks: GPU and CPU speedups per workload\n"
          "           type, congestion, warp limits, OSS over alpha (default: mm, bfs, kmeans x\n"
          "           L1, H1; --full: 8 workloads x 6 mixes)\n"
          "  heteropdp  000 (Lee, ASU 2017) Fig. 6.7-6.14: HeteroPDP's target selection on the simulated\n"
          "           i7-3770 + FirePro S9150 (runs `pdp collect` in DIR/collect): accuracy alone and\n"
          "           co-located, error CDFs, speedups, fairness, the weight-ratio sweep\n"
          "  all      the eight, one after the other\n"
          "Each prints its tables and how close the result is to the seed's, and writes CSV files and\n"
          "the printed report into DIR (default results/study-NAME/; the runs under DIR/runs/).\n"
          "Runs are cached like `warpsim sweep`'s: running a study again only runs what is missing.\n"
          "A run missing in DIR/runs/ but complete under the same name in a sibling directory,\n"
          "DIR/../study-*/runs/ or DIR/../sweep-*/ (e.g. ctrlc's 16 KB, 64 KB and 32 KB runs from\n"
          "l1-size), is copied from there instead of being run (state `reused` in runs.csv; a result\n"
          "of an older simulator build is taken like a cached one: --no-reuse avoids it).\n"
          "\n"
          "options:\n"
          "  --size tiny|small|paper  input size (default: small)\n"
          "  -j, --jobs N             runs at a time (default: the number of CPUs)\n"
          "  --workloads A,B          the workloads to use instead of the study's own selection\n"
          "  --config X               machine preset or file instead of the study's (see docs/studies.md)\n"
          "  -o, --out DIR            output directory (default: results/study-NAME)\n"
          "  --emit parallel|slurm FILE\n"
          "                           write the runs still to do as jobs instead of running them (a\n"
          "                           study with phases writes one phase at a time)\n"
          "  --skip-policy A,B        leave out the columns of these policies (to save time, or to\n"
          "                           see how the study reads without them)\n"
          "  --no-reuse               never copy runs from sibling directories (run them here)\n"
          "  --mixes A,B              hetero: the CPU mixes of 004 Table IV to use (L1, L2, M1, M2,\n"
          "                           H1, H2) instead of the study's selection; heteropdp: the\n"
          "                           co-runner sets (mcf, mcf+perlbench, ...)\n"
          "  --full                   hetero: the whole matrix (all six mixes x 004's workloads)\n"
          "  --grid-scales F,F        heteropdp: factors on the CTA count of the kernels that take one\n"
          "                           (the campaign's thread axis, as pdp collect; default 1,0.25)\n"
          "  --intercept              heteropdp: give the time models a constant term (pdp train\n"
          "                           --intercept; the seed's Eq. A.2 has none)\n"
          "  --relative               heteropdp: fit the time models to relative errors (pdp train\n"
          "                           --relative) instead of absolute ones\n"
          "  --max-cycles N           las, dyncta: a window, the first N core cycles of every run (for\n"
          "                           paper inputs too long to run whole; IPC over the window; runs\n"
          "                           stopped there count as results, their outputs are not checked)\n"
          "  --tiles                  las: the locality-aware CTA scheduler's columns with a box per tile\n"
          "                           a CTA touches instead of one rectangle per array (extension,\n"
          "                           cta_sched.las.tiles=1; the seed's rectangles without it)\n"
          "  -q, --quiet              no progress output\n"
          "\n"
          "exit status: 0 every run verified (with --max-cycles: or stopped at the window), 1 some run\n"
          "has no result (the tables are still printed, its cells say fail), 2 usage error\n",
          f);
}

int cmd_study(int argc, char **argv)
{
    struct st_opts o;
    memset(&o, 0, sizeof o);
    o.size = "small";
    const char *which = NULL, *out = NULL;
    uint64_t jobs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(a)) {
            study_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o.quiet = 1;
        } else if (strcmp(a, "--no-reuse") == 0) {
            o.no_reuse = 1;
        } else if (strcmp(a, "--full") == 0) {
            o.full = 1;
        } else if (strcmp(a, "--intercept") == 0) {
            o.intercept = 1;
        } else if (strcmp(a, "--relative") == 0) {
            o.relative = 1;
        } else if (strcmp(a, "--tiles") == 0) {
            o.tiles = 1;
        } else if (strcmp(a, "--emit") == 0) {
            if (!v || i + 2 >= argc || (strcmp(v, "parallel") != 0 && strcmp(v, "slurm") != 0)) {
                fprintf(stderr, "warpsim study: --emit needs a format (parallel or slurm) and a file\n");
                return EXIT_USAGE;
            }
            o.emit_format = v;
            o.emit_path = argv[i + 2];
            i += 2;
        } else if (strcmp(a, "--size") == 0 || strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 ||
                   strcmp(a, "--workloads") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "-o") == 0 ||
                   strcmp(a, "--out") == 0 || strcmp(a, "--skip-policy") == 0 || strcmp(a, "--mixes") == 0 ||
                   strcmp(a, "--grid-scales") == 0 || strcmp(a, "--max-cycles") == 0) {
            if (!v) {
                fprintf(stderr, "warpsim study: option %s needs a value\n", a);
                return EXIT_USAGE;
            }
            i++;
            if (strcmp(a, "--size") == 0) {
                enum wl_size sz;
                if (wl_size_parse(v, &sz) != 0) {
                    fprintf(stderr, "warpsim study: --size must be tiny, small or paper, got '%s'\n", v);
                    return EXIT_USAGE;
                }
                o.size = v;
            } else if (strcmp(a, "--workloads") == 0) {
                char tmp[1024];
                snprintf(tmp, sizeof tmp, "%s", v);
                for (char *p = strtok(tmp, ","); p; p = strtok(NULL, ","))
                    if (!wl_find(p)) {
                        fprintf(stderr, "warpsim study: unknown workload '%s' (see warpsim list)\n", p);
                        return EXIT_USAGE;
                    }
                o.workloads = v;
            } else if (strcmp(a, "--config") == 0) {
                o.config = v;
            } else if (strcmp(a, "--skip-policy") == 0) {
                o.skip = v;
            } else if (strcmp(a, "--mixes") == 0) {
                o.mixes = v;
            } else if (strcmp(a, "--grid-scales") == 0) {
                o.grid_scales = v;
            } else if (strcmp(a, "--max-cycles") == 0) {
                if (cli_parse_u64("study", a, v, &o.max_cycles) != 0)
                    return EXIT_USAGE;
                if (o.max_cycles == 0) {
                    fprintf(stderr, "warpsim study: --max-cycles must be at least 1\n");
                    return EXIT_USAGE;
                }
            } else if (strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0) {
                out = v;
            } else {
                if (cli_parse_u64("study", a, v, &jobs) != 0)
                    return EXIT_USAGE;
                if (jobs == 0 || jobs > 256) {
                    fprintf(stderr, "warpsim study: %s must be 1..256\n", a);
                    return EXIT_USAGE;
                }
            }
        } else if (a[0] == '-') {
            cli_unknown_option("study", a, study_usage);
            return EXIT_USAGE;
        } else if (!which) {
            which = a;
        } else {
            fprintf(stderr, "warpsim study: unexpected argument '%s'\n", a);
            return EXIT_USAGE;
        }
    }
    static const struct { const char *name; int (*fn)(const struct st_opts *); } studies[] = {
        {"dyncta", study_dyncta},
        {"las", study_las},
        {"caws", study_caws},
        {"l1-size", study_l1size},
        {"ctrlc", study_ctrlc},
        {"cawa", study_cawa},
        {"hetero", study_hetero},
        {"heteropdp", study_heteropdp},
    };
    const size_t nstudies = sizeof studies / sizeof studies[0];
    if (!which) {
        fprintf(stderr, "warpsim study: which study? (dyncta, las, caws, l1-size, ctrlc, cawa, hetero, heteropdp or all; see "
                        "warpsim study --help)\n");
        return EXIT_USAGE;
    }
    /* options of one study given to another: say so rather than ignore them */
    static const struct { const char *opt, *study, *also; } own[] = {
        {"--tiles", "las", NULL},           {"--intercept", "heteropdp", NULL}, {"--relative", "heteropdp", NULL},
        {"--grid-scales", "heteropdp", NULL}, {"--full", "hetero", NULL},       {"--mixes", "hetero", "heteropdp"},
    };
    const int given[] = {o.tiles, o.intercept, o.relative, o.grid_scales != NULL, o.full, o.mixes != NULL};
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
        if (given[k] && strcmp(which, "all") != 0 && strcmp(which, own[k].study) != 0 &&
            !(own[k].also && strcmp(which, own[k].also) == 0)) {
            fprintf(stderr, "warpsim study %s: %s applies to study %s%s%s only\n", which, own[k].opt, own[k].study,
                    own[k].also ? " and " : "", own[k].also ? own[k].also : "");
            return EXIT_USAGE;
        }
    /* a window: the studies whose tables are rates (IPC) over the run; l1-size and ctrlc compare cycle
       counts, which a window makes equal, caws and cawa every warp's whole execution time, hetero and
       heteropdp run lengths of their own */
    if (o.max_cycles && strcmp(which, "las") != 0 && strcmp(which, "dyncta") != 0) {
        fprintf(stderr, "warpsim study %s: --max-cycles applies to studies las and dyncta only\n", which);
        return EXIT_USAGE;
    }
    int all = strcmp(which, "all") == 0;
    size_t k = 0;
    while (k < nstudies && strcmp(studies[k].name, which) != 0)
        k++;
    if (!all && k == nstudies) {
        fprintf(stderr, "warpsim study: unknown study '%s' (dyncta, las, caws, l1-size, ctrlc, cawa, hetero, "
                        "heteropdp or all)\n",
                which);
        return EXIT_USAGE;
    }
    if (all && o.emit_format) {
        fprintf(stderr, "warpsim study: --emit writes one study's jobs; name the study (dyncta, las, caws, "
                        "l1-size, ctrlc, cawa or hetero)\n");
        return EXIT_USAGE;
    }
    if (all && out) {
        fprintf(stderr, "warpsim study: -o takes one study's directory; with 'all' each study uses "
                        "results/study-NAME\n");
        return EXIT_USAGE;
    }
    if (jobs == 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = nc > 0 ? (uint64_t)nc : 1;
    }
    o.jobs = (unsigned)jobs;
    int rc = EXIT_OK;
    for (size_t i = 0; i < nstudies; i++) {
        if (!all && i != k)
            continue;
        char dir[1024];
        if (out)
            snprintf(dir, sizeof dir, "%s", out);
        else
            snprintf(dir, sizeof dir, "results/study-%s", studies[i].name);
        o.dir = dir;
        if (sw_mkdirs(dir) != 0) {
            fprintf(stderr, "warpsim study: cannot create %s: %s\n", dir, strerror(errno));
            return EXIT_SIM_ERROR;
        }
        int r = studies[i].fn(&o);
        if (!o.emit_format && r != EXIT_USAGE)
            cli_study_report(dir);   /* DIR/report.html (cmd_report.c; needs Python with pandas, matplotlib) */
        if (r > rc)
            rc = r;
    }
    return rc;
}
