/*
 * model.c - HeteroPDP's regression models: shape, prediction, least-squares fit
 * (LAPACKE_dgelsd), K-fold cross validation, training-set selection, training from a
 * dataset, and the model file (model.h).
 */
#include "pdp/model.h"

#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"
#include "pdp/text.h"

/* ---- shape and prediction ------------------------------------------------------------ */

unsigned pdp_model_factors(enum pdp_target t, enum pdp_scen s, int *f)
{
    static const int cpu[] = {PDP_F_THREADS, PDP_F_CPU_SALU, PDP_F_CPU_SMEM, PDP_F_CPU_VALU,
                              PDP_F_CPU_VMEM, PDP_F_CPU_BRANCH, PDP_F_CPU_ATOMIC, PDP_F_BUFFER_BYTES};
    static const int gpu[] = {PDP_F_THREADS, PDP_F_GPU_MEM, PDP_F_GPU_INT, PDP_F_GPU_FP,
                              PDP_F_GPU_MATH, PDP_F_GPU_BRANCH, PDP_F_GPU_BARRIER, PDP_F_BUFFER_BYTES};
    unsigned n = 0;
    const int *base = t == PDP_CPU ? cpu : gpu;
    for (unsigned i = 0; i < 8; i++)
        f[n++] = base[i];
    if (s == PDP_COLOC) {
        if (t == PDP_CPU)
            f[n++] = PDP_F_LLC_MISSES;   /* Table A.3; Table A.4 (GPU) has DRAM bandwidth only */
        f[n++] = PDP_F_DRAM_UTIL;
    }
    return n;
}

static void stats_clear(struct pdp_fit_stats *st)
{
    memset(st, 0, sizeof *st);
    st->r2 = st->cv_r2 = st->cv_mape = st->cv_within20 = NAN;
}

int pdp_model_shape(struct pdp_model *m, const int *factors, unsigned nf, bool intercept)
{
    memset(m, 0, sizeof *m);
    stats_clear(&m->st);
    if (nf > PDP_F_COUNT || nf + nf * (nf - 1) / 2 + (intercept ? 1 : 0) > PDP_MAX_TERMS)
        return -1;
    for (unsigned i = 0; i < nf; i++)
        m->terms[m->nterms++] = (struct pdp_term){(int16_t)factors[i], PDP_ONE, 0.0};
    for (unsigned i = 0; i < nf; i++)
        for (unsigned j = i + 1; j < nf; j++)
            m->terms[m->nterms++] = (struct pdp_term){(int16_t)factors[i], (int16_t)factors[j], 0.0};
    if (intercept)
        m->terms[m->nterms++] = (struct pdp_term){PDP_ONE, PDP_ONE, 0.0};
    m->present = true;
    return 0;
}

void pdp_model_shape_default(struct pdp_model *m, enum pdp_target t, enum pdp_scen s, bool intercept)
{
    int f[PDP_F_COUNT];
    unsigned nf = pdp_model_factors(t, s, f);
    (void)pdp_model_shape(m, f, nf, intercept);   /* 10 factors at most: always fits */
}

double pdp_term_value(const struct pdp_term *t, const struct pdp_features *x)
{
    double a = t->f1 == PDP_ONE ? 1.0 : x->v[t->f1];
    double b = t->f2 == PDP_ONE ? 1.0 : x->v[t->f2];
    return a * b;
}

double pdp_model_predict(const struct pdp_model *m, const struct pdp_features *x)
{
    if (!m->present)
        return NAN;
    double y = 0;
    for (unsigned i = 0; i < m->nterms; i++)
        y += m->terms[i].coef * pdp_term_value(&m->terms[i], x);
    return y;
}

void pdp_model_uses(const struct pdp_model *m, bool used[PDP_F_COUNT])
{
    memset(used, 0, PDP_F_COUNT * sizeof used[0]);
    for (unsigned i = 0; m->present && i < m->nterms; i++) {
        if (m->terms[i].f1 != PDP_ONE)
            used[m->terms[i].f1] = true;
        if (m->terms[i].f2 != PDP_ONE)
            used[m->terms[i].f2] = true;
    }
}

/* ---- least squares -------------------------------------------------------------------- */

static size_t row_at(const size_t *rows, size_t i) { return rows ? rows[i] : i; }

int pdp_model_fit(struct pdp_model *m, const struct pdp_features *x, const double *y, const size_t *rows, size_t n,
                  char *msg, size_t len)
{
    unsigned p = m->nterms;
    if (n == 0 || p == 0)
        return pdp_err(msg, len, "pdp fit: %s", n == 0 ? "no rows" : "no terms");
    size_t ldb = n > p ? n : p;
    double *a = calloc(n * p, sizeof *a);      /* row major n x p */
    double *b = calloc(ldb, sizeof *b);
    double *scale = calloc(p, sizeof *scale);
    double *sv = calloc(n < p ? n : p, sizeof *sv);
    if (!a || !b || !scale || !sv) {
        free(a); free(b); free(scale); free(sv);
        return pdp_err(msg, len, "pdp fit: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        size_t r = row_at(rows, i);
        /* relative: minimise sum ((y - x.c) / y)^2, i.e. the row x / y against 1 */
        double w = 1;
        if (m->relative) {
            if (!(y[r] > 0) || !isfinite(y[r])) {
                free(a); free(b); free(scale); free(sv);
                return pdp_err(msg, len, "pdp fit: a relative fit needs positive times (row %zu: %g)", r + 1, y[r]);
            }
            w = 1 / y[r];
        }
        for (unsigned j = 0; j < p; j++) {
            double v = pdp_term_value(&m->terms[j], &x[r]) * w;
            a[i * p + j] = v;
            if (fabs(v) > scale[j])
                scale[j] = fabs(v);
        }
        b[i] = y[r] * w;
    }
    /* columns scaled to a largest magnitude of 1: counts, bytes and their products span
       some twenty orders of magnitude, and dgelsd's rank cut is relative to the largest
       singular value */
    for (unsigned j = 0; j < p; j++) {
        if (!(scale[j] > 0) || !isfinite(scale[j]))
            scale[j] = 1;
        for (size_t i = 0; i < n; i++)
            a[i * p + j] /= scale[j];
    }
    lapack_int rank = 0;
    lapack_int info = LAPACKE_dgelsd(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)p, 1, a, (lapack_int)p, b, 1, sv,
                                     1e-10, &rank);
    int rc = 0;
    if (info != 0) {
        rc = pdp_err(msg, len, "pdp fit: LAPACKE_dgelsd failed (info %d%s)", (int)info,
                     info > 0 ? ": the SVD did not converge" : ": a bad argument");
    } else {
        for (unsigned j = 0; j < p; j++)
            m->terms[j].coef = b[j] / scale[j];
        double mean = 0, ss_tot = 0, ss_res = 0;
        for (size_t i = 0; i < n; i++)
            mean += y[row_at(rows, i)];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++) {
            size_t r = row_at(rows, i);
            double e = y[r] - pdp_model_predict(m, &x[r]);
            ss_res += e * e;
            ss_tot += (y[r] - mean) * (y[r] - mean);
        }
        m->st.rows = n;
        m->st.rank = (unsigned)rank;
        m->st.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : NAN;
    }
    free(a); free(b); free(scale); free(sv);
    return rc;
}

/* ---- cross validation ------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void pdp_cv_folds(size_t n, unsigned k, uint64_t seed, unsigned *fold)
{
    if (n == 0)
        return;
    if (k == 0)
        k = 1;
    if (k > n)
        k = (unsigned)n;
    size_t *perm = malloc(n * sizeof *perm);
    if (!perm) {   /* no shuffle without memory: deal in order */
        for (size_t i = 0; i < n; i++)
            fold[i] = (unsigned)(i % k);
        return;
    }
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    uint64_t s = seed;
    for (size_t i = n - 1; i > 0; i--) {   /* Fisher-Yates */
        size_t j = (size_t)(splitmix64(&s) % (uint64_t)(i + 1));
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        fold[perm[i]] = (unsigned)(i % k);
    free(perm);
}

static void cv_metrics(const double *y, const size_t *rows, const double *pred, size_t n, struct pdp_cv *out)
{
    double mean = 0, ss_tot = 0, ss_res = 0, ape = 0;
    size_t nape = 0, within = 0;
    for (size_t i = 0; i < n; i++)
        mean += y[row_at(rows, i)];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) {
        double t = y[row_at(rows, i)], e = pred[i] - t;
        ss_res += e * e;
        ss_tot += (t - mean) * (t - mean);
        if (t != 0) {
            double r = fabs(e / t);
            ape += r;
            nape++;
            within += r <= 0.2;
        }
    }
    out->n = n;
    out->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : NAN;
    out->mape = nape ? ape / (double)nape : NAN;
    out->within20 = nape ? (double)within / (double)nape : NAN;
}

int pdp_cross_validate(const struct pdp_model *m, const struct pdp_features *x, const double *y, const size_t *rows,
                       size_t n, unsigned k, uint64_t seed, double *pred, struct pdp_cv *out, char *msg, size_t len)
{
    if (n < 2)
        return pdp_err(msg, len, "pdp cross validation: %zu row%s (at least 2 needed)", n, n == 1 ? "" : "s");
    if (k < 2)
        return pdp_err(msg, len, "pdp cross validation: %u fold%s (at least 2 needed)", k, k == 1 ? "" : "s");
    if (k > n)
        k = (unsigned)n;
    unsigned *fold = malloc(n * sizeof *fold);
    size_t *train = malloc(n * sizeof *train);
    double *pr = pred ? pred : malloc(n * sizeof *pr);
    struct pdp_model *w = malloc(sizeof *w);
    int rc = 0;
    if (!fold || !train || !pr || !w) {
        rc = pdp_err(msg, len, "pdp cross validation: out of memory");
        goto out;
    }
    pdp_cv_folds(n, k, seed, fold);
    for (unsigned f = 0; f < k && rc == 0; f++) {
        size_t nt = 0;
        for (size_t i = 0; i < n; i++)
            if (fold[i] != f)
                train[nt++] = row_at(rows, i);
        *w = *m;
        rc = pdp_model_fit(w, x, y, train, nt, msg, len);
        for (size_t i = 0; rc == 0 && i < n; i++)
            if (fold[i] == f)
                pr[i] = pdp_model_predict(w, &x[row_at(rows, i)]);
    }
    if (rc == 0) {
        cv_metrics(y, rows, pr, n, out);
        out->folds = k;
    }
out:
    free(fold);
    free(train);
    if (pr != pred)
        free(pr);
    free(w);
    return rc;
}

/* ---- training-set selection ------------------------------------------------------------ */

int pdp_select_groups(const struct pdp_model *m, const struct pdp_features *x, const double *y, const size_t *rows,
                      const uint32_t *group, size_t n, size_t ngroups, const struct pdp_select_opts *o,
                      uint8_t *keep, struct pdp_cv *before, struct pdp_cv *after, char *msg, size_t len)
{
    for (size_t g = 0; g < ngroups; g++)
        keep[g] = 0;
    for (size_t i = 0; i < n; i++)
        if (group[i] < ngroups)
            keep[group[i]] = 1;
    size_t present = 0;
    for (size_t g = 0; g < ngroups; g++)
        present += keep[g];
    double mk = o->min_keep > 0 && o->min_keep <= 1 ? o->min_keep : 1;
    size_t floor_groups = (size_t)ceil(mk * (double)present - 1e-9);
    if (floor_groups < 1)
        floor_groups = 1;
    size_t *sub = malloc(n * sizeof *sub), *trial = malloc(n * sizeof *trial);
    uint32_t *subg = malloc(n * sizeof *subg);
    double *pred = malloc(n * sizeof *pred), *share = calloc(ngroups ? ngroups : 1, sizeof *share);
    int rc = 0;
    if (!sub || !trial || !subg || !pred || !share) {
        rc = pdp_err(msg, len, "pdp training-set selection: out of memory");
        goto out;
    }
    struct pdp_cv cur;
    rc = pdp_cross_validate(m, x, y, rows, n, o->folds, o->seed, pred, &cur, msg, len);
    if (rc)
        goto out;
    *before = cur;
    for (size_t kept = present; kept > floor_groups;) {
        size_t ns = 0;
        for (size_t i = 0; i < n; i++)
            if (keep[group[i]]) {
                subg[ns] = group[i];
                sub[ns++] = row_at(rows, i);
            }
        /* cur and pred belong to the rows in sub (same order) */
        for (size_t g = 0; g < ngroups; g++)
            share[g] = 0;
        for (size_t i = 0; i < ns; i++) {
            double e = pred[i] - y[sub[i]];
            share[subg[i]] += e * e;
        }
        bool dropped = false;
        for (int attempt = 0; attempt < 3 && !dropped; attempt++) {
            size_t worst = SIZE_MAX;   /* the largest share not tried yet (ties: lowest index) */
            for (size_t g = 0; g < ngroups; g++)
                if (keep[g] == 1 && share[g] >= 0 && (worst == SIZE_MAX || share[g] > share[worst]))
                    worst = g;
            if (worst == SIZE_MAX)
                break;
            size_t nt = 0;
            for (size_t i = 0; i < ns; i++)
                if (subg[i] != worst)
                    trial[nt++] = sub[i];
            share[worst] = -1;   /* tried */
            if (nt < 2)
                continue;
            struct pdp_cv c;
            double *tpred = malloc(nt * sizeof *tpred);
            if (!tpred) {
                rc = pdp_err(msg, len, "pdp training-set selection: out of memory");
                goto out;
            }
            rc = pdp_cross_validate(m, x, y, trial, nt, o->folds, o->seed, tpred, &c, msg, len);
            if (rc) {
                free(tpred);
                goto out;
            }
            if (isfinite(c.r2) && (!isfinite(cur.r2) || c.r2 > cur.r2 + (o->min_gain > 0 ? o->min_gain : 1e-12))) {
                keep[worst] = 0;
                kept--;
                cur = c;
                memcpy(pred, tpred, nt * sizeof *pred);
                dropped = true;
            }
            free(tpred);
        }
        if (!dropped)
            break;
    }
    *after = cur;
out:
    free(sub);
    free(trial);
    free(subg);
    free(pred);
    free(share);
    return rc;
}

/* ---- training --------------------------------------------------------------------------- */

void pdp_train_opts_default(struct pdp_train_opts *o)
{
    o->folds = 32;
    o->seed = 1;
    o->intercept = false;
    o->relative = false;
    o->select = true;
    o->min_keep = 0.7;
    o->min_gain = 1e-3;
}

void pdp_modelset_init(struct pdp_modelset *ms)
{
    memset(ms, 0, sizeof *ms);
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++)
            stats_clear(&ms->m[t][s].st);
}

static int train_one(const struct pdp_dataset *d, const struct pdp_train_opts *o, enum pdp_target t,
                     enum pdp_scen s, struct pdp_model *m, struct pdp_train_report *rep, char *msg, size_t len)
{
    pdp_model_shape_default(m, t, s, o->intercept);
    m->relative = o->relative;
    bool used[PDP_F_COUNT];
    pdp_model_uses(m, used);
    char missing[256] = "";
    for (int f = 0; f < PDP_F_COUNT; f++)
        if (used[f] && !d->has_feat[f]) {
            size_t at = strlen(missing);
            snprintf(missing + at, sizeof missing - at, "%s%s", at ? ", " : "", pdp_feat_name((enum pdp_feat)f));
        }
    if (missing[0])
        return pdp_err(msg, len, "%s: error: column %s needs the feature column%s %s", d->path,
                       pdp_time_column(t, s), strchr(missing, ',') ? "s" : "", missing);
    size_t *rows = malloc((d->n ? d->n : 1) * sizeof *rows), n = 0;
    uint32_t *grp = malloc((d->n ? d->n : 1) * sizeof *grp);
    uint8_t *keep = calloc(d->ngroups ? d->ngroups : 1, 1);
    double *y = malloc((d->n ? d->n : 1) * sizeof *y);
    int rc = 0;
    if (!rows || !grp || !keep || !y) {
        rc = pdp_err(msg, len, "pdp train: out of memory");
        goto out;
    }
    for (size_t i = 0; i < d->n; i++) {
        y[i] = d->y[i][t][s];
        if (!isnan(y[i])) {
            grp[n] = d->group[i];
            rows[n++] = i;
        }
    }
    if (n < 2) {
        rc = pdp_err(msg, len, "%s: error: column %s: %zu measured row%s (cross validation needs at least 2)",
                     d->path, pdp_time_column(t, s), n, n == 1 ? "" : "s");
        goto out;
    }
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        keep[grp[i]] = 1;
    for (size_t g = 0; g < d->ngroups; g++)
        groups += keep[g];
    struct pdp_cv before, after;
    if (o->select && groups > 1) {
        struct pdp_select_opts so = {o->folds, o->seed, o->min_keep, o->min_gain};
        rc = pdp_select_groups(m, d->x, y, rows, grp, n, d->ngroups, &so, keep, &before, &after, msg, len);
        if (rc)
            goto out;
    } else {
        rc = pdp_cross_validate(m, d->x, y, rows, n, o->folds, o->seed, NULL, &before, msg, len);
        if (rc)
            goto out;
        after = before;
    }
    size_t nk = 0, kept_groups = 0;
    char *dl = rep ? rep->dropped[t][s] : NULL;
    if (dl)
        dl[0] = '\0';
    for (size_t g = 0; g < d->ngroups; g++) {
        bool in_data = false;
        for (size_t i = 0; i < n && !in_data; i++)
            in_data = grp[i] == g;
        if (!in_data)
            continue;
        if (keep[g]) {
            kept_groups++;
        } else if (dl) {
            size_t at = strlen(dl);
            if (at < sizeof rep->dropped[t][s] - 1)
                snprintf(dl + at, sizeof rep->dropped[t][s] - at, "%s%s", at ? ", " : "", d->group_names[g]);
        }
    }
    for (size_t i = 0; i < n; i++)
        if (keep[grp[i]])
            rows[nk++] = rows[i];
    rc = pdp_model_fit(m, d->x, y, rows, nk, msg, len);
    if (rc)
        goto out;
    m->st.folds = after.folds;
    m->st.cv_r2 = after.r2;
    m->st.cv_mape = after.mape;
    m->st.cv_within20 = after.within20;
    m->st.groups = groups;
    m->st.groups_kept = kept_groups;
    if (rep) {
        rep->trained[t][s] = true;
        rep->cv_all[t][s] = before;
        rep->cv_kept[t][s] = after;
        rep->groups[t][s] = groups;
        rep->groups_kept[t][s] = kept_groups;
    }
out:
    free(rows);
    free(grp);
    free(keep);
    free(y);
    return rc;
}

int pdp_train(const struct pdp_dataset *d, const struct pdp_train_opts *o, const char *name,
              struct pdp_modelset *ms, struct pdp_train_report *rep, char *msg, size_t len)
{
    pdp_modelset_init(ms);
    snprintf(ms->name, sizeof ms->name, "%s", name && *name ? name : "trained");
    if (rep)
        memset(rep, 0, sizeof *rep);
    if (o->folds < 2)
        return pdp_err(msg, len, "pdp train: %u folds (at least 2)", o->folds);
    int any = 0;
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++) {
            if (!d->has_time[t][s])
                continue;
            int rc = train_one(d, o, (enum pdp_target)t, (enum pdp_scen)s, &ms->m[t][s], rep, msg, len);
            if (rc) {
                ms->m[t][s].present = false;
                return rc;
            }
            any++;
        }
    if (!any)
        return pdp_err(msg, len, "%s: error: no time column (time_cpu_alone, time_gpu_alone, time_cpu_coloc, "
                                 "time_gpu_coloc): nothing to train",
                       d->path);
    snprintf(ms->notes, sizeof ms->notes,
             "trained by warpsim pdp train from %s: %zu rows, %u folds, seed %llu, selection %s, %s errors", d->path,
             d->n, o->folds, (unsigned long long)o->seed, o->select ? "on" : "off", o->relative ? "relative" : "absolute");
    return 0;
}

/* ---- model files ---------------------------------------------------------------------- */

static const char *const stat_keys[] = {"rows", "folds", "rank", "r2", "cv_r2", "cv_mape", "cv_within20",
                                        "groups", "groups_kept"};

/* a feature index, PDP_ONE for "1", or PDP_ONE - 1 when unknown */
static int factor_lookup(const char *s)
{
    if (strcmp(s, "1") == 0)
        return PDP_ONE;
    int f = pdp_feat_lookup(s);
    return f >= 0 ? f : PDP_ONE - 1;
}

/* split on blanks into at most max tokens; the rest of the line goes into the last one when
   rest_last; returns the count */
static int tokens(char *line, char **tok, int max, bool rest_last)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        tok[n++] = p;
        if (rest_last && n == max)
            break;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

/* carriage returns and blanks at the end of s removed */
static void trim_end(char *s)
{
    size_t l = strlen(s);
    while (l && (s[l - 1] == '\r' || s[l - 1] == ' ' || s[l - 1] == '\t'))
        s[--l] = '\0';
}

int pdp_modelset_parse(struct pdp_modelset *ms, const char *text, size_t len, const char *path, char *msg, size_t n)
{
    if (!path)
        path = "<model>";
    pdp_modelset_init(ms);
    char *buf = pdp_text_copy(text, len);
    if (!buf)
        return pdp_err(msg, n, "%s: out of memory", path);
    int rc = 0;
    bool magic = false;
    struct pdp_model *cur = NULL;
    uint32_t lineno = 0, model_line = 0;
    struct pdp_lines lines;
    pdp_lines_init(&lines, buf, len);
    char *line;
    bool nul;
    bool seen[PDP_NTARGETS][PDP_NSCENS] = {{false}};
#define FAIL_(...) do { rc = pdp_err(msg, n, __VA_ARGS__); goto out; } while (0)
    while ((line = pdp_lines_next(&lines, &nul))) {
        lineno = lines.lineno;
        if (nul)
            FAIL_("%s:%u: error: a NUL byte in the line (not a text model file?)", path, lineno);
        char *hash = strchr(line, '#');
        if (hash && strncmp(line, "note", 4) != 0)
            *hash = '\0';
        trim_end(line);
        char *tok[5];
        int nt = tokens(line, tok, 2, true);
        if (nt == 0)
            continue;
        if (!magic) {
            if (strcmp(tok[0], "heteropdp-model") != 0)
                FAIL_("%s:%u: error: not a HeteroPDP model file (the first line must be 'heteropdp-model 1')", path,
                      lineno);
            if (nt < 2 || strcmp(tok[1], "1") != 0)
                FAIL_("%s:%u: error: model file version '%s' (this warpsim reads version 1)", path, lineno,
                      nt < 2 ? "" : tok[1]);
            magic = true;
            continue;
        }
        if (strcmp(tok[0], "name") == 0) {
            if (nt < 2)
                FAIL_("%s:%u: error: 'name' needs a value", path, lineno);
            snprintf(ms->name, sizeof ms->name, "%s", tok[1]);
            trim_end(ms->name);   /* a name cut short may end in a blank, which would not read back */
            continue;
        }
        if (strcmp(tok[0], "note") == 0) {
            size_t at = strlen(ms->notes);
            snprintf(ms->notes + at, sizeof ms->notes - at, "%s%s", at ? "\n" : "", nt > 1 ? tok[1] : "");
            trim_end(ms->notes);   /* likewise the notes */
            continue;
        }
        if (strcmp(tok[0], "model") == 0) {
            if (cur)
                FAIL_("%s:%u: error: 'model' inside the model opened at line %u (missing 'end')", path, lineno,
                      model_line);
            char *a[3];
            int na = nt > 1 ? tokens(tok[1], a, 3, false) : 0;
            if (na != 2)
                FAIL_("%s:%u: error: expected 'model cpu|gpu alone|coloc'", path, lineno);
            int t = strcmp(a[0], "cpu") == 0 ? PDP_CPU : strcmp(a[0], "gpu") == 0 ? PDP_GPU : -1;
            int s = strcmp(a[1], "alone") == 0 ? PDP_ALONE : strcmp(a[1], "coloc") == 0 ? PDP_COLOC : -1;
            if (t < 0)
                FAIL_("%s:%u: error: target '%s' (expected cpu or gpu)", path, lineno, a[0]);
            if (s < 0)
                FAIL_("%s:%u: error: scenario '%s' (expected alone or coloc)", path, lineno, a[1]);
            if (seen[t][s])
                FAIL_("%s:%u: error: a second 'model %s %s'", path, lineno, a[0], a[1]);
            seen[t][s] = true;
            cur = &ms->m[t][s];
            memset(cur, 0, sizeof *cur);
            stats_clear(&cur->st);
            model_line = lineno;
            continue;
        }
        if (strcmp(tok[0], "end") == 0) {
            if (!cur)
                FAIL_("%s:%u: error: 'end' without 'model'", path, lineno);
            if (nt > 1)
                FAIL_("%s:%u: error: unexpected '%s' after 'end'", path, lineno, tok[1]);
            if (cur->nterms == 0)
                FAIL_("%s:%u: error: the model opened at line %u has no terms", path, lineno, model_line);
            cur->present = true;
            cur = NULL;
            continue;
        }
        if (strcmp(tok[0], "term") == 0 || strcmp(tok[0], "stat") == 0) {
            if (!cur)
                FAIL_("%s:%u: error: '%s' outside a 'model ... end' block", path, lineno, tok[0]);
            bool term = tok[0][0] == 't';
            char *a[4];
            int na = nt > 1 ? tokens(tok[1], a, 4, false) : 0;
            if (term) {
                if (na != 3)
                    FAIL_("%s:%u: error: expected 'term FACTOR1 FACTOR2 COEFFICIENT'", path, lineno);
                int f1 = factor_lookup(a[0]), f2 = factor_lookup(a[1]);
                char names[512];
                pdp_feat_names(names, sizeof names);
                if (f1 < PDP_ONE)
                    FAIL_("%s:%u: error: unknown factor '%s' (a feature: %s; or 1)", path, lineno, a[0], names);
                if (f2 < PDP_ONE)
                    FAIL_("%s:%u: error: unknown factor '%s' (a feature: %s; or 1)", path, lineno, a[1], names);
                double c;
                if (pdp_parse_double(a[2], &c))
                    FAIL_("%s:%u: error: coefficient '%s' is not a finite number", path, lineno, a[2]);
                for (unsigned i = 0; i < cur->nterms; i++) {
                    const struct pdp_term *o = &cur->terms[i];
                    if ((o->f1 == f1 && o->f2 == f2) || (o->f1 == f2 && o->f2 == f1))
                        FAIL_("%s:%u: error: term %s x %s appears twice", path, lineno, a[0], a[1]);
                }
                if (cur->nterms == PDP_MAX_TERMS)
                    FAIL_("%s:%u: error: more than %d terms in one model", path, lineno, PDP_MAX_TERMS);
                cur->terms[cur->nterms++] = (struct pdp_term){(int16_t)f1, (int16_t)f2, c};
            } else {
                if (na != 2)
                    FAIL_("%s:%u: error: expected 'stat KEY VALUE'", path, lineno);
                int key = -1;
                for (int k = 0; k < (int)(sizeof stat_keys / sizeof stat_keys[0]); k++)
                    if (strcmp(a[0], stat_keys[k]) == 0)
                        key = k;
                double v;
                bool nanval = strcmp(a[1], "nan") == 0;
                if (key < 0)
                    FAIL_("%s:%u: error: unknown stat '%s' (rows, folds, rank, r2, cv_r2, cv_mape, cv_within20, "
                          "groups, groups_kept)",
                          path, lineno, a[0]);
                if (nanval)
                    v = NAN;
                else if (pdp_parse_double(a[1], &v))
                    FAIL_("%s:%u: error: stat %s: '%s' is not a number", path, lineno, a[0], a[1]);
                if (key <= 2 || key >= 7) {
                    /* folds and rank are unsigned: a larger count would not convert */
                    double most = key == 1 || key == 2 ? (double)UINT_MAX : 1e15;
                    if (nanval || v < 0 || v != floor(v) || v > most)
                        FAIL_("%s:%u: error: stat %s: '%s' is not a count", path, lineno, a[0], a[1]);
                }
                switch (key) {
                case 0: cur->st.rows = (size_t)v; break;
                case 1: cur->st.folds = (unsigned)v; break;
                case 2: cur->st.rank = (unsigned)v; break;
                case 3: cur->st.r2 = v; break;
                case 4: cur->st.cv_r2 = v; break;
                case 5: cur->st.cv_mape = v; break;
                case 6: cur->st.cv_within20 = v; break;
                case 7: cur->st.groups = (size_t)v; break;
                default: cur->st.groups_kept = (size_t)v; break;
                }
            }
            continue;
        }
        FAIL_("%s:%u: error: unknown keyword '%s' (expected name, note, model, stat, term or end)", path, lineno,
              tok[0]);
    }
    if (!magic)
        FAIL_("%s: error: empty model file (the first line must be 'heteropdp-model 1')", path);
    if (cur)
        FAIL_("%s:%u: error: the model opened at line %u has no 'end'", path, lineno, model_line);
    bool anym = false;
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++)
            anym = anym || ms->m[t][s].present;
    if (!anym)
        FAIL_("%s:%u: error: no 'model ... end' block", path, lineno);
#undef FAIL_
out:
    free(buf);
    return rc;
}

static int parse_model(void *ms, const char *text, size_t len, const char *path, char *msg, size_t n)
{
    return pdp_modelset_parse(ms, text, len, path, msg, n);
}

int pdp_modelset_load(struct pdp_modelset *ms, const char *path, char *msg, size_t n)
{
    return pdp_load_file(path, FILE_LIMIT_CONFIG, parse_model, ms, msg, n);
}

static const char *factor_name(int f) { return f == PDP_ONE ? "1" : pdp_feat_name((enum pdp_feat)f); }

int pdp_modelset_write(const struct pdp_modelset *ms, FILE *f)
{
    fputs("heteropdp-model 1\n", f);
    fprintf(f, "name %s\n", ms->name[0] ? ms->name : "unnamed");
    /* a note line per '\n'-separated part, empty ones at the end included (they read back) */
    const char *nt = ms->notes, *e = NULL;
    for (; *ms->notes; nt = e + 1) {
        e = strchr(nt, '\n');
        fprintf(f, "note %.*s\n", (int)(e ? (size_t)(e - nt) : strlen(nt)), nt);
        if (!e)
            break;
    }
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++) {
            const struct pdp_model *m = &ms->m[t][s];
            if (!m->present)
                continue;
            fprintf(f, "\nmodel %s %s\n", pdp_target_name((enum pdp_target)t), pdp_scen_name((enum pdp_scen)s));
            const struct pdp_fit_stats *st = &m->st;
            if (st->rows) {
                fprintf(f, "stat rows %zu\nstat rank %u\n", st->rows, st->rank);
                if (st->folds)
                    fprintf(f, "stat folds %u\n", st->folds);
                const char *k[4] = {"r2", "cv_r2", "cv_mape", "cv_within20"};
                double v[4] = {st->r2, st->cv_r2, st->cv_mape, st->cv_within20};
                for (int i = 0; i < 4; i++) {
                    if (isnan(v[i]))
                        fprintf(f, "stat %s nan\n", k[i]);
                    else
                        fprintf(f, "stat %s %.6g\n", k[i], v[i]);
                }
                if (st->groups)
                    fprintf(f, "stat groups %zu\nstat groups_kept %zu\n", st->groups, st->groups_kept);
            }
            for (unsigned i = 0; i < m->nterms; i++)
                fprintf(f, "term %s %s %.17g\n", factor_name(m->terms[i].f1), factor_name(m->terms[i].f2),
                        m->terms[i].coef);
            fputs("end\n", f);
        }
    return ferror(f) ? -1 : 0;
}
