/* test_pdp.c - HeteroPDP (src/pdp/): features from PTX, regression and cross validation,
   training-set selection, fairness and the decision, model and CSV files. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fe/ptx/ptx_ir.h"
#include "cpu/trace.h"
#include "pdp/bubble.h"
#include "pdp/dataset.h"
#include "pdp/decide.h"
#include "pdp/features.h"
#include "pdp/model.h"
#include "sys/pcie.h"
#include "test.h"

/* ---- a seeded normal PRNG ------------------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0); }
static double rng_range(uint64_t *s, double lo, double hi) { return lo + (hi - lo) * rng_unit(s); }
static double rng_normal(uint64_t *s)   /* Box-Muller */
{
    double u = rng_unit(s), v = rng_unit(s);
    if (u < 1e-300)
        u = 1e-300;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* ---- reading model files and CSV, and what was written back ---------------------------------- */

typedef int (*parse_fn)(void *obj, const char *text, size_t len, const char *path, char *msg, size_t n);
static int parse_model(void *ms, const char *text, size_t len, const char *path, char *msg, size_t n)
{
    return pdp_modelset_parse(ms, text, len, path, msg, n);
}
static int parse_csv(void *d, const char *text, size_t len, const char *path, char *msg, size_t n)
{
    return pdp_dataset_parse_csv(d, text, len, path, msg, n);
}

/* text[0..len) parsed into obj: 0, or -1 with the failure reported */
static int parse_ok(parse_fn parse, void *obj, const char *text, size_t len, const char *path)
{
    char msg[512] = "";
    int rc = parse(obj, text, len, path, msg, sizeof msg);
    if (rc)
        T_FAIL_("%s", msg);
    return rc;
}

/* text parsed into obj as path must fail with a message that holds want_line and want_msg */
static void parse_error(parse_fn parse, void *obj, const char *path, const char *text, const char *want_line,
                        const char *want_msg)
{
    char msg[512] = "";
    if (parse(obj, text, strlen(text), path, msg, sizeof msg) == 0)
        T_FAIL_("accepted: %s", text);
    else if (!strstr(msg, want_line) || !strstr(msg, want_msg))
        T_FAIL_("message '%s' lacks '%s' / '%s'", msg, want_line, want_msg);
}

/* What a writer put in the temporary file f (write_rc: its result; f is closed here) parsed into obj:
   0, or -1 with the failure reported. */
static int read_back(FILE *f, int write_rc, parse_fn parse, void *obj)
{
    long l = ftell(f);
    rewind(f);
    char *text = write_rc == 0 && l >= 0 ? calloc((size_t)l + 1, 1) : NULL;
    int rc = text && fread(text, 1, (size_t)l, f) == (size_t)l ? parse_ok(parse, obj, text, (size_t)l, "back") : -1;
    if (!text)
        T_FAIL_("the written file cannot be read back (write: %d)", write_rc);
    free(text);
    fclose(f);
    return rc;
}

/* ---- regression ------------------------------------------------------------------------------- */

/* threads, cpu_salu, buffer_bytes: 3 linear terms + 3 pairs */
static void small_shape(struct pdp_model *m)
{
    int f[3] = {PDP_F_THREADS, PDP_F_CPU_SALU, PDP_F_BUFFER_BYTES};
    REQUIRE(pdp_model_shape(m, f, 3, false) == 0);
}

/* each term near 1 at typical values (threads 5e5, salu 100, bytes 5e7), one negative */
static const double small_true[6] = {2e-6, 0.01, 2e-8, 2e-8, -4e-14, 2e-10};

/* the true time of a row under small_true */
static double small_time(const struct pdp_model *m, const struct pdp_features *x)
{
    double t = 0;
    for (unsigned k = 0; k < m->nterms; k++)
        t += small_true[k] * pdp_term_value(&m->terms[k], x);
    return t;
}

static void small_row(uint64_t *s, struct pdp_features *x)
{
    memset(x, 0, sizeof *x);
    x->v[PDP_F_THREADS] = rng_range(s, 1e3, 1e6);
    x->v[PDP_F_CPU_SALU] = floor(rng_range(s, 5, 200));
    x->v[PDP_F_BUFFER_BYTES] = rng_range(s, 1e4, 1e8);
}

TEST(shape_follows_the_tables)
{
    struct pdp_model m;
    pdp_model_shape_default(&m, PDP_CPU, PDP_ALONE, false);
    CHECK_EQ_INT(m.nterms, 36);                       /* Table A.1 */
    CHECK_EQ_INT(m.terms[0].f1, PDP_F_THREADS);
    CHECK_EQ_INT(m.terms[0].f2, PDP_ONE);
    CHECK_EQ_INT(m.terms[8].f1, PDP_F_THREADS);       /* the first pair: threads x scalar ALU */
    CHECK_EQ_INT(m.terms[8].f2, PDP_F_CPU_SALU);
    CHECK_EQ_INT(m.terms[35].f1, PDP_F_CPU_ATOMIC);   /* the last: atomic x buffer size */
    CHECK_EQ_INT(m.terms[35].f2, PDP_F_BUFFER_BYTES);
    pdp_model_shape_default(&m, PDP_GPU, PDP_ALONE, false);
    CHECK_EQ_INT(m.nterms, 36);                       /* Table A.2 */
    pdp_model_shape_default(&m, PDP_CPU, PDP_COLOC, false);
    CHECK_EQ_INT(m.nterms, 55);                       /* Table A.3 */
    pdp_model_shape_default(&m, PDP_GPU, PDP_COLOC, true);
    CHECK_EQ_INT(m.nterms, 46);                       /* Table A.4's 45 + an intercept */
    CHECK_EQ_INT(m.terms[45].f1, PDP_ONE);
}

TEST(regression_recovers_coefficients_with_noise)
{
    struct pdp_model m;
    small_shape(&m);
    enum { N = 1000 };
    static struct pdp_features x[N];
    static double y[N];
    uint64_t s = 42;
    for (int i = 0; i < N; i++) {
        small_row(&s, &x[i]);
        double t = small_time(&m, &x[i]);
        y[i] = t * (1 + 0.01 * rng_normal(&s));   /* 1% multiplicative noise */
    }
    char msg[256] = "";
    REQUIRE(pdp_model_fit(&m, x, y, NULL, N, msg, sizeof msg) == 0);
    CHECK_EQ_INT(m.st.rank, 6);
    CHECK_EQ_INT(m.st.rows, N);
    for (unsigned k = 0; k < m.nterms; k++) {
        double rel = fabs(m.terms[k].coef - small_true[k]) / fabs(small_true[k]);
        if (!(rel < 0.02))
            T_FAIL_("term %u: fitted %.6g, true %.6g (%.2f%% off)", k, m.terms[k].coef, small_true[k], 100 * rel);
    }
    CHECK(m.st.r2 > 0.999);
    struct pdp_cv cv;
    REQUIRE(pdp_cross_validate(&m, x, y, NULL, N, 32, 1, NULL, &cv, msg, sizeof msg) == 0);
    CHECK_EQ_INT(cv.folds, 32);
    CHECK(cv.r2 > 0.999);
    CHECK(cv.mape > 0.002 && cv.mape < 0.02);   /* the noise's mean |e| is 0.8% */
    CHECK(cv.within20 == 1.0);
}

/* sums of squared relative and absolute residuals of m over the rows */
static void residuals(const struct pdp_model *m, const struct pdp_features *x, const double *y, int n, double *rel,
                      double *abs_)
{
    *rel = *abs_ = 0;
    for (int i = 0; i < n; i++) {
        double e = y[i] - pdp_model_predict(m, &x[i]);
        *rel += (e / y[i]) * (e / y[i]);
        *abs_ += e * e;
    }
}

TEST(regression_relative_errors)
{
    struct pdp_model m;
    enum { N = 400 };
    static struct pdp_features x[N];
    static double y[N];
    uint64_t s = 11;
    /* exact data: the weighted fit recovers the coefficients as the plain one does */
    small_shape(&m);
    for (int i = 0; i < N; i++) {
        small_row(&s, &x[i]);
        y[i] = small_time(&m, &x[i]);
    }
    m.relative = true;
    char msg[256] = "";
    REQUIRE(pdp_model_fit(&m, x, y, NULL, N, msg, sizeof msg) == 0);
    for (unsigned k = 0; k < m.nterms; k++)
        CHECK_NEAR(m.terms[k].coef / small_true[k], 1.0, 1e-6);
    /* a time that grows faster than the one-term shape (threads x 1) can follow, over seven orders
       of magnitude: each fit is best by its own measure, and the absolute one, led by the long
       rows, misses the short ones by far */
    int f[1] = {PDP_F_THREADS};
    struct pdp_model ab, re;
    REQUIRE(pdp_model_shape(&ab, f, 1, false) == 0);
    re = ab;
    re.relative = true;
    for (int i = 0; i < N; i++) {
        memset(&x[i], 0, sizeof x[i]);
        x[i].v[PDP_F_THREADS] = pow(10, rng_range(&s, 0, 6));
        y[i] = 1e-6 * pow(x[i].v[PDP_F_THREADS], 1.2) * (1 + 0.05 * rng_normal(&s));
    }
    REQUIRE(pdp_model_fit(&ab, x, y, NULL, N, msg, sizeof msg) == 0);
    REQUIRE(pdp_model_fit(&re, x, y, NULL, N, msg, sizeof msg) == 0);
    double ab_rel, ab_abs, re_rel, re_abs;
    residuals(&ab, x, y, N, &ab_rel, &ab_abs);
    residuals(&re, x, y, N, &re_rel, &re_abs);
    CHECK(ab_abs <= re_abs);
    CHECK(re_rel < 0.1 * ab_rel);
    /* a time that is not positive cannot be weighted */
    y[7] = 0;
    CHECK(pdp_model_fit(&re, x, y, NULL, N, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "positive") && strstr(msg, "row 8"));
}

TEST(regression_full_table_shape_exact_data)
{
    /* the 55-term co-located CPU shape over realistic magnitudes: noise-free data is recovered
       (the column scaling keeps 1e-15 and 1e+2 coefficients apart) */
    struct pdp_model m, truth;
    pdp_model_shape_default(&truth, PDP_CPU, PDP_COLOC, false);
    uint64_t s = 7;
    for (unsigned k = 0; k < truth.nterms; k++)
        truth.terms[k].coef = rng_range(&s, -1, 1) * pow(10, -(double)(k % 9));
    enum { N = 300 };
    static struct pdp_features x[N];
    static double y[N];
    for (int i = 0; i < N; i++) {
        memset(&x[i], 0, sizeof x[i]);
        x[i].v[PDP_F_THREADS] = rng_range(&s, 1e3, 1e6);
        x[i].v[PDP_F_BUFFER_BYTES] = rng_range(&s, 1e4, 1e9);
        for (int f = PDP_F_CPU_SALU; f <= PDP_F_CPU_ATOMIC; f++)
            x[i].v[f] = floor(rng_range(&s, 0, 300));
        x[i].v[PDP_F_LLC_MISSES] = rng_range(&s, 0, 1e7);
        x[i].v[PDP_F_DRAM_UTIL] = rng_range(&s, 0, 1);
        y[i] = pdp_model_predict(&truth, &x[i]);
    }
    m = truth;
    for (unsigned k = 0; k < m.nterms; k++)
        m.terms[k].coef = 0;
    char msg[256] = "";
    REQUIRE(pdp_model_fit(&m, x, y, NULL, N, msg, sizeof msg) == 0);
    CHECK_EQ_INT(m.st.rank, 55);
    for (int i = 0; i < N; i++) {
        double p = pdp_model_predict(&m, &x[i]);
        if (!(fabs(p - y[i]) <= 1e-6 * (fabs(y[i]) + 1))) {
            T_FAIL_("row %d: predicted %.10g, true %.10g", i, p, y[i]);
            break;
        }
    }
}

TEST(regression_rank_deficient_zero_feature)
{
    /* atomics never appear: their terms are all zero columns; the fit still succeeds and gives
       them zero coefficients (minimum norm), like the zeros of the published tables */
    struct pdp_model m;
    int f[3] = {PDP_F_THREADS, PDP_F_CPU_ATOMIC, PDP_F_CPU_SALU};
    REQUIRE(pdp_model_shape(&m, f, 3, false) == 0);
    enum { N = 50 };
    static struct pdp_features x[N];
    static double y[N];
    uint64_t s = 3;
    for (int i = 0; i < N; i++) {
        memset(&x[i], 0, sizeof x[i]);
        x[i].v[PDP_F_THREADS] = rng_range(&s, 1, 100);
        x[i].v[PDP_F_CPU_SALU] = rng_range(&s, 1, 100);
        y[i] = 2 * x[i].v[PDP_F_THREADS] + 0.5 * x[i].v[PDP_F_THREADS] * x[i].v[PDP_F_CPU_SALU];
    }
    char msg[256] = "";
    REQUIRE(pdp_model_fit(&m, x, y, NULL, N, msg, sizeof msg) == 0);
    CHECK_EQ_INT(m.st.rank, 3);   /* 6 terms, 3 of them zero columns */
    for (unsigned k = 0; k < m.nterms; k++) {
        const struct pdp_term *t = &m.terms[k];
        double want = 0;
        if (t->f1 == PDP_F_THREADS && t->f2 == PDP_ONE)
            want = 2;
        if (t->f1 == PDP_F_THREADS && t->f2 == PDP_F_CPU_SALU)
            want = 0.5;
        CHECK_NEAR(t->coef, want, 1e-9);
    }
}

TEST(cv_folds_disjoint_and_cover)
{
    enum { N = 103, K = 32 };
    unsigned fold[N], again[N], other[N];
    pdp_cv_folds(N, K, 5, fold);
    pdp_cv_folds(N, K, 5, again);
    pdp_cv_folds(N, K, 6, other);
    unsigned size[K] = {0};
    int differs = 0;
    for (int i = 0; i < N; i++) {
        REQUIRE(fold[i] < K);
        size[fold[i]]++;
        CHECK_EQ_INT(fold[i], again[i]);   /* deterministic */
        differs += fold[i] != other[i];
    }
    CHECK(differs > 0);                    /* the seed matters */
    /* every item is in exactly one test fold (cover + disjoint), and each fold's training set
       is everything else: sizes 3 or 4, summing to N */
    unsigned total = 0, lo = N, hi = 0;
    for (int k = 0; k < K; k++) {
        total += size[k];
        lo = size[k] < lo ? size[k] : lo;
        hi = size[k] > hi ? size[k] : hi;
        unsigned in_test = 0, in_train = 0;
        for (int i = 0; i < N; i++) {
            if (fold[i] == (unsigned)k)
                in_test++;
            else
                in_train++;
        }
        CHECK_EQ_INT(in_test + in_train, N);
        CHECK(in_test > 0);
    }
    CHECK_EQ_INT(total, N);
    CHECK(hi - lo <= 1);
    /* k > n: one item per fold (leave-one-out) */
    unsigned f5[5];
    pdp_cv_folds(5, 32, 1, f5);
    int seen[5] = {0};
    for (int i = 0; i < 5; i++) {
        REQUIRE(f5[i] < 5);
        seen[f5[i]]++;
    }
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(seen[i], 1);
}

TEST(cv_rejects_too_little)
{
    struct pdp_model m;
    small_shape(&m);
    struct pdp_features x[1];
    double y[1] = {1};
    memset(x, 0, sizeof x);
    struct pdp_cv cv;
    char msg[256] = "";
    CHECK(pdp_cross_validate(&m, x, y, NULL, 1, 32, 1, NULL, &cv, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "at least 2") != NULL);
}

TEST(selection_drops_the_bad_kernels)
{
    /* 20 kernels of 8 rows; kernels 3 and 11 were measured wrong (times x4): selection drops
       exactly those two, and the cross-validated R^2 rises */
    struct pdp_model m;
    small_shape(&m);
    enum { G = 20, R = 8, N = G * R };
    static struct pdp_features x[N];
    static double y[N];
    static uint32_t grp[N];
    static size_t rows[N];
    uint64_t s = 11;
    for (int i = 0; i < N; i++) {
        small_row(&s, &x[i]);
        double t = small_time(&m, &x[i]);
        grp[i] = (uint32_t)(i / R);
        y[i] = t * (1 + 0.02 * rng_normal(&s)) * (grp[i] == 3 || grp[i] == 11 ? 4 : 1);
        rows[i] = (size_t)i;
    }
    struct pdp_select_opts o = {32, 1, 0.7, 1e-3};
    uint8_t keep[G];
    struct pdp_cv before, after;
    char msg[256] = "";
    REQUIRE(pdp_select_groups(&m, x, y, rows, grp, N, G, &o, keep, &before, &after, msg, sizeof msg) == 0);
    for (int g = 0; g < G; g++)
        if (keep[g] != (g == 3 || g == 11 ? 0 : 1))
            T_FAIL_("kernel %d: keep %d", g, keep[g]);
    CHECK(after.r2 > before.r2);
    CHECK(after.r2 > 0.99);
    CHECK_EQ_INT(after.n, N - 2 * R);
    /* the floor: with min_keep 0.95, 19 of 20 must stay: one kernel dropped at most */
    o.min_keep = 0.95;
    REQUIRE(pdp_select_groups(&m, x, y, rows, grp, N, G, &o, keep, &before, &after, msg, sizeof msg) == 0);
    int dropped = 0;
    for (int g = 0; g < G; g++)
        dropped += !keep[g];
    CHECK_EQ_INT(dropped, 1);
}

TEST(train_from_dataset_fits_all_four)
{
    struct pdp_dataset d;
    pdp_dataset_init(&d);
    uint64_t s = 99;
    char msg[256] = "";
    for (int i = 0; i < 120; i++) {
        struct pdp_features x;
        memset(&x, 0, sizeof x);
        for (int f = 0; f < PDP_F_COUNT; f++)
            x.v[f] = floor(rng_range(&s, 1, 50));
        x.v[PDP_F_DRAM_UTIL] = rng_range(&s, 0, 1);
        double y[PDP_NTARGETS][PDP_NSCENS];
        y[PDP_CPU][PDP_ALONE] = 1 + 0.3 * x.v[PDP_F_CPU_VALU] + 0.01 * x.v[PDP_F_THREADS] * x.v[PDP_F_CPU_VMEM];
        y[PDP_GPU][PDP_ALONE] = 2 + 0.1 * x.v[PDP_F_GPU_FP] + 0.2 * x.v[PDP_F_BUFFER_BYTES];
        y[PDP_CPU][PDP_COLOC] = y[PDP_CPU][PDP_ALONE] + 0.05 * x.v[PDP_F_LLC_MISSES] * x.v[PDP_F_CPU_VMEM];
        y[PDP_GPU][PDP_COLOC] = i % 2 ? NAN : y[PDP_GPU][PDP_ALONE] * 1.1 + 3 * x.v[PDP_F_DRAM_UTIL];
        char k[16];
        snprintf(k, sizeof k, "k%d", i / 6);
        REQUIRE(pdp_dataset_add(&d, &x, y, k, msg, sizeof msg) == 0);
    }
    CHECK_EQ_INT(d.ngroups, 20);
    struct pdp_train_opts o;
    pdp_train_opts_default(&o);
    o.intercept = true;
    static struct pdp_modelset ms;
    static struct pdp_train_report rep;
    REQUIRE(pdp_train(&d, &o, "synthetic", &ms, &rep, msg, sizeof msg) == 0);
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int sc = 0; sc < PDP_NSCENS; sc++) {
            CHECK(rep.trained[t][sc]);
            CHECK(ms.m[t][sc].present);
            CHECK(ms.m[t][sc].st.cv_r2 > 0.999);
        }
    CHECK_EQ_INT(ms.m[PDP_GPU][PDP_COLOC].st.rows, 60);   /* only the measured rows */
    CHECK_EQ_STR(ms.name, "synthetic");
    pdp_dataset_free(&d);
}

/* ---- fairness and the decision ------------------------------------------------------------ */

TEST(fairness_arithmetic)
{
    double sd[3] = {1.2, 1.5, 3.0};
    CHECK_NEAR(pdp_fairness(sd, 3), 0.4, 1e-15);            /* 1.2 / 3.0 */
    double w[3] = {2, 1, 1};
    CHECK_NEAR(pdp_weighted_fairness(sd, w, 3), 0.5, 1e-15); /* {2.4, 1.5, 3.0}: 1.5 / 3.0 */
    double w2[3] = {1, 1, 0.5};
    CHECK_NEAR(pdp_weighted_fairness(sd, w2, 3), 0.8, 1e-15);   /* {1.2, 1.5, 1.5} */
    CHECK_NEAR(pdp_slowdown(12, 10), 1.2, 1e-15);
    CHECK(isnan(pdp_slowdown(12, -1)));
    CHECK(isnan(pdp_slowdown(0, 10)));
    CHECK(isnan(pdp_fairness(sd, 0)));
    double bad[2] = {1.1, NAN};
    CHECK(isnan(pdp_fairness(bad, 2)));
    double one[1] = {1.7};
    CHECK_NEAR(pdp_fairness(one, 1), 1.0, 0);
}

TEST(decision_alone_and_colocated)
{
    struct pdp_corunner mcf = {"mcf", {1.6, 1.1}, 1.0};
    struct pdp_schedule_in in = {{{10, 12}, {4, 6}}, 1.0, &mcf, 1, PDP_REF_TARGET};
    struct pdp_schedule_out out;
    int d = pdp_schedule(&in, &out);
    CHECK_EQ_INT(out.alone, PDP_GPU);                 /* 4 < 10 */
    CHECK_NEAR(out.kernel_slowdown[PDP_CPU], 1.2, 1e-15);
    CHECK_NEAR(out.kernel_slowdown[PDP_GPU], 1.5, 1e-15);
    CHECK_NEAR(out.fairness[PDP_CPU], 0.75, 1e-15);   /* 1.2 / 1.6 */
    CHECK_NEAR(out.fairness[PDP_GPU], 1.1 / 1.5, 1e-15);
    CHECK_EQ_INT(out.coloc, PDP_CPU);
    CHECK_EQ_INT(d, PDP_CPU);
    CHECK(!out.weighted);
    /* mcf twice as important: weighted slowdowns cpu {1.2, 3.2}, gpu {1.5, 2.2} */
    mcf.weight = 2;
    d = pdp_schedule(&in, &out);
    CHECK(out.weighted);
    CHECK_NEAR(out.wfairness[PDP_CPU], 1.2 / 3.2, 1e-15);
    CHECK_NEAR(out.wfairness[PDP_GPU], 1.5 / 2.2, 1e-15);
    CHECK_EQ_INT(out.coloc, PDP_CPU);                 /* unweighted still says cpu */
    CHECK_EQ_INT(out.coloc_weighted, PDP_GPU);
    CHECK_EQ_INT(d, PDP_GPU);
    /* --slowdown-ref best: both over the least alone time (4): cpu 12/4 = 3, gpu 6/4 = 1.5 */
    mcf.weight = 1;
    in.ref = PDP_REF_BEST;
    d = pdp_schedule(&in, &out);
    CHECK_NEAR(out.kernel_slowdown[PDP_CPU], 3.0, 1e-15);
    CHECK_NEAR(out.fairness[PDP_CPU], 1.6 / 3.0, 1e-15);
    CHECK_NEAR(out.fairness[PDP_GPU], 1.1 / 1.5, 1e-15);
    CHECK_EQ_INT(d, PDP_GPU);
    /* a negative predicted time makes a target ineligible */
    in.ref = PDP_REF_TARGET;
    in.time[PDP_GPU][PDP_ALONE] = -3;
    d = pdp_schedule(&in, &out);
    CHECK_EQ_INT(out.alone, PDP_CPU);
    CHECK(isnan(out.fairness[PDP_GPU]));
    CHECK_EQ_INT(d, PDP_CPU);
    /* no co-runner: fairness 1 both ways; the tie goes to the lower co-located time */
    in.time[PDP_GPU][PDP_ALONE] = 4;
    in.nco = 0;
    d = pdp_schedule(&in, &out);
    CHECK_NEAR(out.fairness[PDP_CPU], 1.0, 0);
    CHECK_EQ_INT(d, PDP_GPU);                         /* 6 < 12 */
}

/* ---- the published model ------------------------------------------------------------------ */

TEST(published_model_loads_and_predicts)
{
    static struct pdp_modelset ms;
    char msg[512] = "";
    int rc = pdp_modelset_load(&ms, WARPSIM_SOURCE_DIR "/models/heteropdp-i7-3770-s9150.model", msg, sizeof msg);
    if (rc)
        T_FAIL_("%s", msg);
    REQUIRE(rc == 0);
    CHECK_EQ_STR(ms.name, "heteropdp-i7-3770-s9150");
    CHECK_EQ_INT(ms.m[PDP_CPU][PDP_ALONE].nterms, 36);
    CHECK_EQ_INT(ms.m[PDP_GPU][PDP_ALONE].nterms, 36);
    CHECK_EQ_INT(ms.m[PDP_CPU][PDP_COLOC].nterms, 55);
    CHECK_EQ_INT(ms.m[PDP_GPU][PDP_COLOC].nterms, 45);
    /* Table A.1 by hand: threads 1000, scalar ALU 10, vector MEM 2, branch 3:
         9.173792e-9*1000 - 0.001291950266492*10 + 0.001527459744997*2 + 0.020511412895212*3
       - 8.58425e-10*1e4 + 2.98759e-9*2e3 + 0*3e3 (threads x branch)
       - 0.000291671393497*20 + 0*30 (salu x branch) + 0*6 (vmem x branch)
       = 0.04584279236277 */
    struct pdp_features x;
    memset(&x, 0, sizeof x);
    x.v[PDP_F_THREADS] = 1000;
    x.v[PDP_F_CPU_SALU] = 10;
    x.v[PDP_F_CPU_VMEM] = 2;
    x.v[PDP_F_CPU_BRANCH] = 3;
    CHECK_NEAR(pdp_model_predict(&ms.m[PDP_CPU][PDP_ALONE], &x), 0.04584279236277, 1e-14);
    /* Table A.2 by hand: threads 1000, MEM 4, FP 5:
         -4.61723788e-7*1000 - 4.96110967e-6*4 + 0.007097661815404*5
       - 1.62581e-10*4000 + 2.78928e-10*5000 + 0.000143796621602*20
       = 0.03788341759838 */
    memset(&x, 0, sizeof x);
    x.v[PDP_F_THREADS] = 1000;
    x.v[PDP_F_GPU_MEM] = 4;
    x.v[PDP_F_GPU_FP] = 5;
    CHECK_NEAR(pdp_model_predict(&ms.m[PDP_GPU][PDP_ALONE], &x), 0.03788341759838, 1e-14);
    /* Table A.4's last term (buffer size x DRAM bandwidth): 2e6 * 0.5 * 3.70901e-10 plus
       buffer x 1 4.301985e-9 * 2e6 and DRAM x 1 4e-10 * 0.5 */
    memset(&x, 0, sizeof x);
    x.v[PDP_F_BUFFER_BYTES] = 2e6;
    x.v[PDP_F_DRAM_UTIL] = 0.5;
    CHECK_NEAR(pdp_model_predict(&ms.m[PDP_GPU][PDP_COLOC], &x), 3.70901e-4 + 8.60397e-3 + 2e-10, 1e-15);
}

TEST(model_file_round_trip_is_exact)
{
    static struct pdp_modelset a, b;
    pdp_modelset_init(&a);
    snprintf(a.name, sizeof a.name, "rt");
    snprintf(a.notes, sizeof a.notes, "first note\nsecond # with a hash");
    pdp_model_shape_default(&a.m[PDP_GPU][PDP_COLOC], PDP_GPU, PDP_COLOC, true);
    uint64_t s = 1;
    for (unsigned k = 0; k < a.m[PDP_GPU][PDP_COLOC].nterms; k++)
        a.m[PDP_GPU][PDP_COLOC].terms[k].coef = rng_normal(&s) * 1e-7;
    a.m[PDP_GPU][PDP_COLOC].st.rows = 10;
    a.m[PDP_GPU][PDP_COLOC].st.cv_r2 = 0.5;
    FILE *f = tmpfile();
    REQUIRE(f);
    REQUIRE(read_back(f, pdp_modelset_write(&a, f), parse_model, &b) == 0);
    CHECK_EQ_STR(b.name, "rt");
    CHECK_EQ_STR(b.notes, a.notes);
    CHECK(!b.m[PDP_CPU][PDP_ALONE].present);
    REQUIRE(b.m[PDP_GPU][PDP_COLOC].present);
    REQUIRE(b.m[PDP_GPU][PDP_COLOC].nterms == a.m[PDP_GPU][PDP_COLOC].nterms);
    for (unsigned k = 0; k < b.m[PDP_GPU][PDP_COLOC].nterms; k++) {
        CHECK(b.m[PDP_GPU][PDP_COLOC].terms[k].coef == a.m[PDP_GPU][PDP_COLOC].terms[k].coef);
        CHECK_EQ_INT(b.m[PDP_GPU][PDP_COLOC].terms[k].f1, a.m[PDP_GPU][PDP_COLOC].terms[k].f1);
        CHECK_EQ_INT(b.m[PDP_GPU][PDP_COLOC].terms[k].f2, a.m[PDP_GPU][PDP_COLOC].terms[k].f2);
    }
    CHECK_EQ_INT(b.m[PDP_GPU][PDP_COLOC].st.rows, 10);
    CHECK_NEAR(b.m[PDP_GPU][PDP_COLOC].st.cv_r2, 0.5, 0);
}

/* a malformed model names its line */
static void model_error(const char *text, const char *want_line, const char *want_msg)
{
    static struct pdp_modelset ms;
    parse_error(parse_model, &ms, "bad.model", text, want_line, want_msg);
}

TEST(malformed_model_names_the_line)
{
    model_error("heteropdp-model 1\nmodel cpu alone\nterm threads 1 1e-3\nterm threads bogus 2\nend\n",
                "bad.model:4: error", "unknown factor 'bogus'");
    model_error("heteropdp-model 1\nmodel cpu alone\nterm threads 1 abc\nend\n", "bad.model:3: error",
                "not a finite number");
    model_error("heteropdp-model 1\nmodel cpu alone\nterm threads 1 1\n", "bad.model:3: error", "no 'end'");
    model_error("# c\nhello 1\n", "bad.model:2: error", "not a HeteroPDP model");
    model_error("heteropdp-model 2\n", "bad.model:1: error", "version");
    model_error("heteropdp-model 1\nmodel tpu alone\n", "bad.model:2: error", "target 'tpu'");
    model_error("heteropdp-model 1\nmodel cpu alone\nterm threads 1 1\nterm 1 threads 2\nend\n",
                "bad.model:4: error", "appears twice");
    model_error("heteropdp-model 1\nterm threads 1 1\n", "bad.model:2: error", "outside");
    model_error("heteropdp-model 1\nmodel gpu coloc\nstat rows -3\nterm threads 1 1\nend\n", "bad.model:3: error",
                "not a count");
    model_error("heteropdp-model 1\nname x\n", "bad.model:2: error", "no 'model");
    model_error("", "bad.model: error", "empty model file");
}

/* found by the fuzzer (tests/fuzz/regressions/pdp_model/crash-stat-folds-over-uint): a count beyond
   the range of the unsigned folds and rank was converted anyway (undefined behaviour) */
TEST(model_stat_counts_fit_their_fields)
{
    model_error("heteropdp-model 1\nmodel gpu coloc\nstat folds 32000000152601\nterm threads 1 1\nend\n",
                "bad.model:3: error", "stat folds: '32000000152601' is not a count");
    model_error("heteropdp-model 1\nmodel gpu coloc\nstat rank 4294967296\nterm threads 1 1\nend\n",
                "bad.model:3: error", "not a count");
    model_error("heteropdp-model 1\nmodel gpu coloc\nstat rows 2e15\nterm threads 1 1\nend\n",
                "bad.model:3: error", "not a count");
    const char *text = "heteropdp-model 1\nmodel gpu coloc\nstat rank 4294967295\nstat rows 1e15\n"
                       "term threads 1 1\nend\n";
    static struct pdp_modelset ms;
    REQUIRE(parse_ok(parse_model, &ms, text, strlen(text), "ok.model") == 0);
    CHECK_EQ_U64(ms.m[PDP_GPU][PDP_COLOC].st.rank, 4294967295u);
    CHECK_EQ_U64(ms.m[PDP_GPU][PDP_COLOC].st.rows, 1000000000000000u);
}

/* found by the fuzzer (tests/fuzz/regressions/pdp_model/crash-name-cut-before-blank): a name cut
   short to the name field could end in a blank, which the written file does not read back */
TEST(model_name_cut_short_reads_back)
{
    char text[512];
    /* "name " + 126 x 'n' + " tail": the field keeps 127 characters, the last one a blank */
    int k = snprintf(text, sizeof text, "heteropdp-model 1\nname %.126s tail\nmodel cpu alone\nterm threads 1 1\nend\n",
                     "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
                     "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn");
    REQUIRE(k > 0 && (size_t)k < sizeof text);
    static struct pdp_modelset a, b;
    REQUIRE(parse_ok(parse_model, &a, text, strlen(text), "long.model") == 0);
    CHECK_EQ_INT(strlen(a.name), 126);
    CHECK(a.name[125] == 'n');
    FILE *f = tmpfile();
    REQUIRE(f);
    REQUIRE(read_back(f, pdp_modelset_write(&a, f), parse_model, &b) == 0);
    CHECK_EQ_STR(b.name, a.name);
}

/* found by the fuzzer (tests/fuzz/regressions/pdp_model/crash-notes-empty-at-end): empty note lines
   at the end were dropped by the writer, so a file changed each time it was read and written */
TEST(model_empty_notes_at_the_end_are_kept)
{
    const char *text = "heteropdp-model 1\nnote first\nnote\nnote\nmodel cpu alone\nterm threads 1 1\nend\n";
    static struct pdp_modelset a, b;
    REQUIRE(parse_ok(parse_model, &a, text, strlen(text), "notes.model") == 0);
    CHECK_EQ_STR(a.notes, "first\n\n");
    FILE *f = tmpfile();
    REQUIRE(f);
    REQUIRE(read_back(f, pdp_modelset_write(&a, f), parse_model, &b) == 0);
    CHECK_EQ_STR(b.notes, a.notes);
}

/* ---- CSV ----------------------------------------------------------------------------------- */

TEST(csv_parses_quotes_blanks_and_missing_times)
{
    const char *text = "# measured on a test rig\n"
                       "kernel,threads,buffer_bytes,cpu_salu,time_cpu_alone,time_gpu_alone,comment\n"
                       "\n"
                       "\"vec,add\", 1024 ,4096,7,1.5,,\"a \"\"quoted\"\" note\"\r\n"
                       "bfs,2048,8192,9,,0.25,x\n";
    struct pdp_dataset d, e;
    pdp_dataset_init(&d);
    pdp_dataset_init(&e);
    REQUIRE(parse_ok(parse_csv, &d, text, strlen(text), "ok.csv") == 0);
    CHECK_EQ_INT(d.n, 2);
    CHECK_EQ_INT(d.ngroups, 2);
    CHECK_EQ_STR(d.group_names[d.group[0]], "vec,add");
    CHECK_NEAR(d.x[0].v[PDP_F_THREADS], 1024, 0);
    CHECK_NEAR(d.x[1].v[PDP_F_CPU_SALU], 9, 0);
    CHECK_NEAR(d.y[0][PDP_CPU][PDP_ALONE], 1.5, 0);
    CHECK(isnan(d.y[0][PDP_GPU][PDP_ALONE]));
    CHECK(isnan(d.y[1][PDP_CPU][PDP_ALONE]));
    CHECK_EQ_INT(d.line[1], 5);
    CHECK(d.has_time[PDP_CPU][PDP_ALONE] && d.has_time[PDP_GPU][PDP_ALONE] && !d.has_time[PDP_CPU][PDP_COLOC]);
    CHECK(d.has_feat[PDP_F_CPU_SALU] && !d.has_feat[PDP_F_CPU_VALU]);
    CHECK_EQ_STR(d.ignored, "comment");
    /* written and read back: the same rows */
    FILE *f = tmpfile();
    REQUIRE(f);
    REQUIRE(read_back(f, pdp_dataset_write_csv(&d, f), parse_csv, &e) == 0);
    CHECK_EQ_INT(e.n, 2);
    CHECK_EQ_STR(e.group_names[e.group[0]], "vec,add");
    CHECK_NEAR(e.x[1].v[PDP_F_BUFFER_BYTES], 8192, 0);
    CHECK(isnan(e.y[1][PDP_CPU][PDP_ALONE]));
    pdp_dataset_free(&e);
    pdp_dataset_free(&d);
}

/* found by the fuzzer (tests/fuzz/regressions/pdp_dataset/crash-kernel-trailing-blank): a kernel name
   that starts or ends with a blank was written unquoted, and read back trimmed */
TEST(csv_kernel_names_with_blanks_round_trip)
{
    static const char *const names[] = {"a ", "\tb", " c", "d\t", "#e", "f g"};
    const char *text = "kernel,threads\n\"a \",1\n\"\tb\",2\n\" c\",3\n\"d\t\",4\n\"#e\",5\nf g,6\n";
    struct pdp_dataset d, e;
    pdp_dataset_init(&d);
    pdp_dataset_init(&e);
    REQUIRE(parse_ok(parse_csv, &d, text, strlen(text), "blanks.csv") == 0);
    REQUIRE(d.n == 6);
    FILE *f = tmpfile();
    REQUIRE(f);
    REQUIRE(read_back(f, pdp_dataset_write_csv(&d, f), parse_csv, &e) == 0);
    REQUIRE(e.n == 6);
    for (size_t i = 0; i < 6; i++) {
        CHECK_EQ_STR(d.group_names[d.group[i]], names[i]);
        CHECK_EQ_STR(e.group_names[e.group[i]], names[i]);
    }
    pdp_dataset_free(&e);
    pdp_dataset_free(&d);
}

static void csv_error(const char *text, const char *want_line, const char *want_msg)
{
    struct pdp_dataset d;
    pdp_dataset_init(&d);
    parse_error(parse_csv, &d, "bad.csv", text, want_line, want_msg);
    pdp_dataset_free(&d);
}

TEST(malformed_csv_names_the_line)
{
    csv_error("threads,time_cpu_alone\n1,2\n3\n", "bad.csv:3: error", "1 field, the header has 2");
    csv_error("threads,time_cpu_alone\n1,2\n# c\nabc,4\n", "bad.csv:4: error", "column 1 'threads': 'abc' is not a number");
    csv_error("threads,time_cpu_alone\n1,-2\n", "bad.csv:2: error", "not a positive time");
    csv_error("threads,time_cpu_alone\n\"1,2\n", "bad.csv:2: error", "bad quoting");
    csv_error("threads,threads\n1,2\n", "bad.csv:1: error", "appears twice");
    csv_error("threads,,x\n1,2,3\n", "bad.csv:1: error", "header field 2 is empty");
    csv_error("threads,time_cpu_alone\n", "bad.csv:1: error", "no data rows");
    csv_error("\n# only comments\n", "bad.csv: error", "no header");
    csv_error("threads,time_cpu_alone\n1,inf\n", "bad.csv:2: error", "not a positive time");
    csv_error("threads,time_cpu_alone\n,2\n", "bad.csv:2: error", "'' is not a number");
}

TEST(train_needs_the_model_columns)
{
    const char *text = "kernel,threads,time_cpu_alone\na,1,2\nb,2,3\n";
    struct pdp_dataset d;
    pdp_dataset_init(&d);
    char msg[512] = "";
    REQUIRE(pdp_dataset_parse_csv(&d, text, strlen(text), "cols.csv", msg, sizeof msg) == 0);
    struct pdp_train_opts o;
    pdp_train_opts_default(&o);
    static struct pdp_modelset ms;
    CHECK(pdp_train(&d, &o, "x", &ms, NULL, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "cols.csv: error: column time_cpu_alone needs the feature columns") != NULL);
    CHECK(strstr(msg, "cpu_salu") != NULL && strstr(msg, "buffer_bytes") != NULL);
    pdp_dataset_free(&d);
}

/* ---- features from PTX --------------------------------------------------------------------- */

/* Hand classification (cpu view / gpu view) in the comments; see features.h for the rules. */
static const char small_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry k(\n"
    "  .param .u64 k_param_0,\n"
    "  .param .u32 k_param_1\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .f32 %f<6>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [k_param_0];\n"         /* smem / mem (a kernel parameter: uniform) */
    "  ld.param.u32 %r1, [k_param_1];\n"          /* smem / mem */
    "  cvta.to.global.u64 %rd2, %rd1;\n"          /* salu / int */
    "  mov.u32 %r2, %ctaid.x;\n"                  /* salu / int */
    "  mov.u32 %r3, %ntid.x;\n"                   /* salu / int */
    "  mov.u32 %r4, %tid.x;\n"                    /* valu / int (the thread index) */
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"          /* valu / int */
    "  mul.lo.s32 %r6, %r3, 2;\n"                 /* salu / int */
    "  ld.global.f32 %f2, [%rd2];\n"              /* smem / mem (uniform address) */
    "  bar.sync 0;\n"                             /* -    / barrier */
    "  mov.u32 %r8, 0;\n"                         /* valu / int (r8 varies: set under divergence below) */
    "  setp.ge.s32 %p1, %r5, %r1;\n"              /* valu / int */
    "  @%p1 bra $L_end;\n"                        /* branch / branch (divergent) */
    "  mul.wide.s32 %rd3, %r5, 4;\n"              /* valu / int */
    "  add.s64 %rd4, %rd2, %rd3;\n"               /* valu / int */
    "  ld.global.f32 %f1, [%rd4];\n"              /* vmem / mem */
    "  mul.f32 %f5, %f2, 0f40000000;\n"           /* salu / fp (uniform, used inside the branch only) */
    "  add.f32 %f3, %f1, %f5;\n"                  /* valu / fp */
    "  sqrt.rn.f32 %f4, %f3;\n"                   /* valu / math */
    "  st.global.f32 [%rd4], %f4;\n"              /* vmem / mem */
    "  atom.global.add.u32 %r7, [%rd2], 1;\n"     /* atomic / mem */
    "  mov.u32 %r8, 1;\n"                         /* valu / int (a masked write) */
    "$L_end:\n"
    "  add.s32 %r9, %r8, %r6;\n"                  /* valu / int */
    "  st.global.u32 [%rd2], %r9;\n"              /* vmem / mem (a varying value) */
    "  ret;\n"                                    /* branch / branch */
    "}\n";

/* PTX text parsed and its control flow analysed, or NULL (a failure reported) */
static struct ptx_module *parse_ptx(const char *text, size_t len, const char *name)
{
    struct ptx_error err;
    memset(&err, 0, sizeof err);
    struct ptx_module *m = ptx_parse(text, len, name, &err);
    if (m && ptx_cfg_analyze(m, &err) != 0) {
        ptx_module_free(m);
        m = NULL;
    }
    if (!m) {
        char line[1024];
        ptx_error_format(&err, line, sizeof line);
        T_FAIL_("%s", line);
    }
    return m;
}

/* instruction i of f classified as `got` in the CPU's (cpu) or the GPU's view: is it `want`? */
static void check_class(const struct ptx_func *f, int i, bool cpu, uint8_t got, uint8_t want)
{
    if (got == want)
        return;
    T_FAIL_("insn %d (line %u, %s): %s %s, want %s", i, f->insns[i].line,
            ptx_opcode_name((enum ptx_opcode)f->insns[i].op), cpu ? "cpu" : "gpu",
            cpu ? pdp_cpu_class_name((enum pdp_cpu_class)got) : pdp_gpu_class_name((enum pdp_gpu_class)got),
            cpu ? pdp_cpu_class_name((enum pdp_cpu_class)want) : pdp_gpu_class_name((enum pdp_gpu_class)want));
}

/* features expected to have exact values */
struct feat_want {
    enum pdp_feat f;
    double v;
};
static void check_features(const struct pdp_features *x, const struct feat_want *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x->v[want[i].f] != want[i].v)
            T_FAIL_("feature %s: %.17g, want %.17g", pdp_feat_name(want[i].f), x->v[want[i].f], want[i].v);
}

TEST(features_of_a_small_kernel_match_hand_counts)
{
    struct ptx_module *m = parse_ptx(small_ptx, sizeof small_ptx - 1, "small.ptx");
    if (!m)
        return;
    /* per instruction, in order */
    static const uint8_t cpu_want[25] = {
        PDP_CPU_SMEM, PDP_CPU_SMEM, PDP_CPU_SALU, PDP_CPU_SALU, PDP_CPU_SALU, PDP_CPU_VALU, PDP_CPU_VALU,
        PDP_CPU_SALU, PDP_CPU_SMEM, PDP_CPU_NONE, PDP_CPU_VALU, PDP_CPU_VALU, PDP_CPU_BRANCH, PDP_CPU_VALU,
        PDP_CPU_VALU, PDP_CPU_VMEM, PDP_CPU_SALU, PDP_CPU_VALU, PDP_CPU_VALU, PDP_CPU_VMEM, PDP_CPU_ATOMIC,
        PDP_CPU_VALU, PDP_CPU_VALU, PDP_CPU_VMEM, PDP_CPU_BRANCH};
    static const uint8_t gpu_want[25] = {
        PDP_GPU_MEM, PDP_GPU_MEM, PDP_GPU_INT, PDP_GPU_INT, PDP_GPU_INT, PDP_GPU_INT, PDP_GPU_INT,
        PDP_GPU_INT, PDP_GPU_MEM, PDP_GPU_BARRIER, PDP_GPU_INT, PDP_GPU_INT, PDP_GPU_BRANCH, PDP_GPU_INT,
        PDP_GPU_INT, PDP_GPU_MEM, PDP_GPU_FP, PDP_GPU_FP, PDP_GPU_MATH, PDP_GPU_MEM, PDP_GPU_MEM,
        PDP_GPU_INT, PDP_GPU_INT, PDP_GPU_MEM, PDP_GPU_BRANCH};
    REQUIRE(m->nfuncs == 1 && m->funcs[0].ninsns == 25);
    uint8_t cc[25], gc[25];
    char msg[256] = "";
    REQUIRE(pdp_classify_func(m, 0, cc, gc, msg, sizeof msg) == 0);
    for (int i = 0; i < 25; i++) {
        check_class(&m->funcs[0], i, true, cc[i], cpu_want[i]);
        check_class(&m->funcs[0], i, false, gc[i], gpu_want[i]);
    }
    struct pdp_features x;
    memset(&x, 0, sizeof x);
    x.v[PDP_F_THREADS] = 77;   /* left alone */
    REQUIRE(pdp_features_from_ptx(m, -1, &x, msg, sizeof msg) == 0);
    static const struct feat_want want[] = {
        {PDP_F_CPU_SALU, 5}, {PDP_F_CPU_SMEM, 3}, {PDP_F_CPU_VALU, 10},  {PDP_F_CPU_VMEM, 3},
        {PDP_F_CPU_BRANCH, 2}, {PDP_F_CPU_ATOMIC, 1}, {PDP_F_GPU_MEM, 7}, {PDP_F_GPU_INT, 12},
        {PDP_F_GPU_FP, 2}, {PDP_F_GPU_MATH, 1}, {PDP_F_GPU_BRANCH, 2}, {PDP_F_GPU_BARRIER, 1},
        {PDP_F_THREADS, 77}};
    check_features(&x, want, sizeof want / sizeof want[0]);
    CHECK(pdp_features_from_ptx(m, 5, &x, msg, sizeof msg) != 0);   /* not a kernel */
    ptx_module_free(m);
}

/* a loop whose trip count is uniform keeps its counter scalar; one whose exit depends on the
   thread makes what leaves the loop vector, and a called function's body is counted once */
static const char loop_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".func (.param .b32 r) twice(.param .b32 a)\n"
    "{\n"
    "  .reg .b32 %t<3>;\n"
    "  ld.param.b32 %t1, [a];\n"                 /* vmem (a .func parameter: per thread) / mem */
    "  add.s32 %t2, %t1, %t1;\n"                 /* valu / int */
    "  st.param.b32 [r], %t2;\n"                 /* vmem / mem */
    "  ret;\n"                                   /* branch / branch */
    "}\n"
    ".visible .entry loop(.param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<12>;\n"
    "  ld.param.u32 %r1, [n];\n"                 /* smem */
    "  mov.u32 %r2, 0;\n"                        /* salu: the uniform counter */
    "  mov.u32 %r3, %tid.x;\n"                   /* valu */
    "  mov.u32 %r5, 0;\n"                        /* valu (r5 leaves the divergent loop) */
    "$L_a:\n"
    "  add.s32 %r2, %r2, 1;\n"                   /* salu */
    "  setp.lt.u32 %p1, %r2, %r1;\n"             /* salu */
    "  @%p1 bra $L_a;\n"                         /* branch (uniform) */
    "$L_b:\n"
    "  add.s32 %r5, %r5, 1;\n"                   /* valu */
    "  add.s32 %r6, %r6, 3;\n"                   /* salu (r6 is used inside the loop only) */
    "  setp.lt.u32 %p2, %r5, %r3;\n"             /* valu */
    "  @%p2 bra $L_b;\n"                         /* branch (divergent) */
    "  {\n"
    "  .param .b32 pa;\n"
    "  .param .b32 pr;\n"
    "  st.param.b32 [pa], %r5;\n"                /* vmem (a call's parameter) */
    "  call.uni (pr), twice, (pa);\n"            /* branch */
    "  ld.param.b32 %r7, [pr];\n"                /* vmem */
    "  }\n"
    "  ret;\n"                                   /* branch */
    "}\n";

TEST(features_divergence_loops_and_calls)
{
    struct ptx_module *m = parse_ptx(loop_ptx, sizeof loop_ptx - 1, "loop.ptx");
    if (!m)
        return;
    int fi = ptx_find_func(m, "loop");
    REQUIRE(fi >= 0);
    const struct ptx_func *f = &m->funcs[fi];
    REQUIRE(f->ninsns == 15);
    static const uint8_t want[15] = {PDP_CPU_SMEM, PDP_CPU_SALU, PDP_CPU_VALU, PDP_CPU_VALU,
                                     PDP_CPU_SALU, PDP_CPU_SALU, PDP_CPU_BRANCH, PDP_CPU_VALU,
                                     PDP_CPU_SALU, PDP_CPU_VALU, PDP_CPU_BRANCH, PDP_CPU_VMEM,
                                     PDP_CPU_BRANCH, PDP_CPU_VMEM, PDP_CPU_BRANCH};
    uint8_t cc[15];
    char msg[256] = "";
    REQUIRE(pdp_classify_func(m, (uint32_t)fi, cc, NULL, msg, sizeof msg) == 0);
    for (int i = 0; i < 15; i++)
        check_class(f, i, true, cc[i], want[i]);
    struct pdp_features x;
    memset(&x, 0, sizeof x);
    REQUIRE(pdp_features_from_ptx(m, fi, &x, msg, sizeof msg) == 0);
    /* the kernel's 15 and the called function's 4 (vmem, valu, vmem, branch) */
    static const struct feat_want want_x[] = {{PDP_F_CPU_SMEM, 1}, {PDP_F_CPU_SALU, 4}, {PDP_F_CPU_VALU, 4 + 1},
                                              {PDP_F_CPU_VMEM, 2 + 2}, {PDP_F_CPU_BRANCH, 4 + 1},
                                              {PDP_F_CPU_ATOMIC, 0}};
    check_features(&x, want_x, sizeof want_x / sizeof want_x[0]);
    ptx_module_free(m);
}

/* ---- the Bubble-up table (pdp/bubble.h) and PCIe (sys/pcie.h) ------------------------------------ */

TEST(bubble_lookup_interpolates_and_clamps)
{
    static struct pdp_bubble_table t;
    memset(&t, 0, sizeof t);
    REQUIRE(pdp_bubble_add(&t, "mcf", 0, 3, 1 << 16, 1.1) == 0);
    REQUIRE(pdp_bubble_add(&t, "mcf", 0, 3, 1 << 20, 1.5) == 0);
    REQUIRE(pdp_bubble_add(&t, "mcf", 0, 3, 1 << 24, 2.5) == 0);
    REQUIRE(pdp_bubble_add(&t, "mcf", 0, 1, 1 << 20, 1.2) == 0);
    REQUIRE(pdp_bubble_add(&t, "mcf", 1, 1, 0, 1.2) == 0);
    CHECK(pdp_bubble_add(&t, "mcf", 0, 3, 1 << 10, -1) != 0);     /* not a slowdown */
    CHECK(pdp_bubble_add(&t, "a,b", 0, 3, 1 << 10, 1) != 0);      /* not a CSV field */
    CHECK(pdp_bubble_has(&t, "mcf") && !pdp_bubble_has(&t, "lbm"));
    /* exact points, log2 interpolation, clamping at both ends */
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 3, 1 << 20) - 1.5) < 1e-12);
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 3, 1 << 22) - 2.0) < 1e-12);     /* halfway 20 -> 24 */
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 3, 1 << 18) - 1.3) < 1e-12);     /* halfway 16 -> 20 */
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 3, 100) - 1.1) < 1e-12);
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 3, 1e12) - 2.5) < 1e-12);
    /* the nearest measured core count (ties: the larger) */
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 1, 1 << 20) - 1.2) < 1e-12);
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 2, 1 << 20) - 1.5) < 1e-12);
    CHECK(fabs(pdp_bubble_cpu(&t, "mcf", 4, 1 << 20) - 1.5) < 1e-12);
    CHECK(isnan(pdp_bubble_cpu(&t, "lbm", 3, 1 << 20)));
    /* GPU: 1 s of transfers at slowdown 1.2 in a 3 s run: 3 / (1 / 1.2 + 2) */
    CHECK(fabs(pdp_bubble_gpu(&t, "mcf", 1.0, 3.0) - 3.0 / (1.0 / 1.2 + 2.0)) < 1e-12);
    CHECK(fabs(pdp_bubble_gpu(&t, "mcf", 0, 3.0) - 1.0) < 1e-12);      /* no transfer, no slowdown */
    CHECK(fabs(pdp_bubble_gpu(&t, "mcf", 5.0, 3.0) - 1.2) < 1e-12);    /* all transfer (clamped) */
    CHECK(isnan(pdp_bubble_gpu(&t, "mcf", 1.0, -1.0)) && isnan(pdp_bubble_gpu(&t, "lbm", 1.0, 3.0)));
    /* the file reads back identical */
    char path[] = "/tmp/test_pdp_bubbleXXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    REQUIRE(f && pdp_bubble_write(&t, f) == 0);
    fclose(f);
    static struct pdp_bubble_table u;
    char msg[512] = "";
    REQUIRE(pdp_bubble_load(&u, path, msg, sizeof msg) == 0);
    CHECK(u.n == t.n);
    for (size_t i = 0; i < t.n && i < u.n; i++)
        CHECK(!strcmp(u.e[i].app, t.e[i].app) && u.e[i].dma == t.e[i].dma && u.e[i].cores == t.e[i].cores &&
              u.e[i].footprint == t.e[i].footprint && u.e[i].slowdown == t.e[i].slowdown);
    /* a bad row names its line */
    f = fopen(path, "w");
    REQUIRE(f);
    fprintf(f, "# a comment\napp,kind,cores,footprint,slowdown\nmcf,cpu,3,65536,1.1\nmcf,gpu,3,65536,1.1\n");
    fclose(f);
    CHECK(pdp_bubble_load(&u, path, msg, sizeof msg) != 0);
    CHECK(strstr(msg, ":4:5: error: expected cpu or dma") != NULL);
    remove(path);
}

TEST(bubble_and_dma_traces)
{
    char path[] = "/tmp/test_pdp_traceXXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    char err[256];
    /* a generator over 4 lines: loads cover all 4 lines, each followed by an ALU record */
    REQUIRE(pdp_bubble_trace(path, 4 * 128, 16, 1ull << 30, err, sizeof err) == 0);
    struct trace_reader *r = trace_open(path, err, sizeof err);
    REQUIRE(r);
    struct trace_rec rec;
    unsigned n = 0, loads = 0, seen = 0;
    while (trace_next(r, &rec) == 1) {
        if (rec.src_mem[0]) {
            loads++;
            uint64_t line = (rec.src_mem[0] - (1ull << 30)) / 128;
            CHECK(line < 4);
            seen |= 1u << line;
        }
        n++;
    }
    trace_close(r);
    CHECK(n == 16 && loads == 8 && seen == 0xf);
    /* the DMA stream: one load per 128-byte line and `pace` branches */
    REQUIRE(pcie_dma_trace(path, 1000, 4096, 3, err, sizeof err) == 8 * 4);
    r = trace_open(path, err, sizeof err);
    REQUIRE(r);
    n = loads = 0;
    unsigned br = 0;
    while (trace_next(r, &rec) == 1) {
        if (n % 4 == 0) {
            CHECK(rec.src_mem[0] == 4096 + (uint64_t)(n / 4) * 128 && !rec.is_branch);
            loads++;
        } else {
            CHECK(rec.src_mem[0] == 0);
        }
        br += rec.is_branch;
        n++;
    }
    trace_close(r);
    CHECK(n == 32 && loads == 8 && br == 24);
    remove(path);
}

TEST(pcie_transfer_time)
{
    struct pcie_params p;
    pcie_params_default(&p);
    /* PCIe 3.0 x16: 8 GT/s x 16 lanes x 128/130 / 8 bits = 15.75 GB/s raw, 80% of it moved */
    CHECK(fabs(pcie_bandwidth(&p) - 8e9 * 16 * 128.0 / 130.0 / 8 * 0.8) < 1);
    CHECK(pcie_transfer_seconds(&p, 0) == 0);
    CHECK(fabs(pcie_transfer_seconds(&p, 12600000) - (10e-6 + 12600000 / pcie_bandwidth(&p))) < 1e-15);
}

TEST_MAIN()
