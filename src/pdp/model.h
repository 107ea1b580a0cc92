/*
 * model.h - HeteroPDP's execution-time models (seed 000 sec. 6.4, Appendix A): linear
 * regression over a kernel's features and their pairwise products,
 *     time = sum_i c_i * factor1_i * factor2_i                      (Eq. A.1-A.2)
 * where a factor is a feature (features.h) or the constant 1.  The default shape follows
 * Tables A.1-A.4: every feature of the model times 1, then every pair of distinct features
 * (no squares, no intercept unless asked for).  Four models, (CPU, GPU) x (alone, co-located):
 *   cpu alone   threads, cpu_salu, cpu_smem, cpu_valu, cpu_vmem, cpu_branch, cpu_atomic, buffer_bytes
 *   gpu alone   threads, gpu_mem, gpu_int, gpu_fp, gpu_math, gpu_branch, gpu_barrier, buffer_bytes
 *   cpu coloc   cpu alone's + llc_misses, dram_util                                (Table A.3)
 *   gpu coloc   gpu alone's + dram_util                                            (Table A.4)
 *
 * Fitting is least squares by LAPACK's SVD solver (LAPACKE_dgelsd) on column-scaled data, so a
 * rank-deficient design (a feature that is zero in every row) gets the minimum-norm solution
 * (zero coefficients for what the data cannot tell apart) instead of a failure.
 *
 * Cross validation: K folds (default 32, "32 test passes" of sec. 6.4.4; K = n when there are
 * fewer rows) from a seeded shuffle; each fold is predicted by a model fitted on the others; R^2,
 * mean absolute percentage error and the share within 20% are computed over the pooled
 * out-of-fold predictions.  Training-set selection (sec. 6.4.4: 63 -> 45 kernels to maximise
 * R^2): backward elimination of whole kernels, see pdp_select_groups.
 *
 * Model file (text, docs/heteropdp.md):
 *     heteropdp-model 1
 *     name NAME
 *     note free text                      (any number)
 *     model cpu|gpu alone|coloc
 *     stat KEY VALUE                      (rows, folds, r2, cv_r2, cv_mape, cv_within20, groups,
 *                                          groups_kept, rank; optional)
 *     term FACTOR1 FACTOR2 COEFFICIENT    (a factor: a feature name or 1)
 *     end
 * '#' starts a comment.  Errors name "FILE:LINE".
 */
#ifndef WARPSIM_PDP_MODEL_H
#define WARPSIM_PDP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pdp/dataset.h"
#include "pdp/features.h"

#define PDP_ONE (-1)             /* the constant factor 1 */
#define PDP_MAX_TERMS 160        /* 16 features: 16 + 120 pairs + 1 */

struct pdp_term {
    int16_t f1, f2;              /* feature index or PDP_ONE */
    double coef;
};

struct pdp_fit_stats {
    size_t rows;                 /* rows fitted */
    unsigned folds, rank;
    double r2;                   /* in-sample */
    double cv_r2, cv_mape, cv_within20;   /* cross-validated (of the rows fitted); NaN = unknown */
    size_t groups, groups_kept;
};

struct pdp_model {
    bool present;
    bool relative;               /* pdp_model_fit minimises relative errors: each row divided by its
                                    time (weighted least squares), so that microsecond kernels weigh
                                    as much as second-long ones; not part of the model file */
    unsigned nterms;
    struct pdp_term terms[PDP_MAX_TERMS];
    struct pdp_fit_stats st;
};

struct pdp_modelset {
    char name[128];
    char notes[2048];            /* the note lines, '\n'-separated */
    struct pdp_model m[PDP_NTARGETS][PDP_NSCENS];
};

/* ---- shape and prediction ------------------------------------------------------------ */
/* The seed's factors of a model (Tables A.1-A.4), in table order; returns the count. */
unsigned pdp_model_factors(enum pdp_target t, enum pdp_scen s, int *f /* PDP_F_COUNT */);
/* Terms: each factor x 1, then each pair i < j in order, then 1 x 1 when intercept.
   Coefficients zero; fit statistics cleared.  -1 when too many factors. */
int pdp_model_shape(struct pdp_model *m, const int *factors, unsigned nf, bool intercept);
void pdp_model_shape_default(struct pdp_model *m, enum pdp_target t, enum pdp_scen s, bool intercept);
double pdp_term_value(const struct pdp_term *t, const struct pdp_features *x);
/* NaN when the model is not present */
double pdp_model_predict(const struct pdp_model *m, const struct pdp_features *x);
/* the features a model reads (bitmap by feature index) */
void pdp_model_uses(const struct pdp_model *m, bool used[PDP_F_COUNT]);

/* ---- fitting and validation ---------------------------------------------------------- */
/* Least-squares coefficients of m's terms over rows[0..n) of x/y (rows NULL = 0..n-1).
   Sets m->terms[].coef, st.rows, st.rank and st.r2.  0, or -1 with a message. */
int pdp_model_fit(struct pdp_model *m, const struct pdp_features *x, const double *y, const size_t *rows, size_t n,
                  char *msg, size_t len);

struct pdp_cv {
    unsigned folds;
    size_t n;
    double r2, mape, within20;   /* over the pooled out-of-fold predictions; NaN when undefined */
};
/* Fold of each of n items: a seeded shuffle dealt round-robin into k folds (k <= n), so fold
   sizes differ by at most one.  Deterministic for (n, k, seed). */
void pdp_cv_folds(size_t n, unsigned k, uint64_t seed, unsigned *fold);
/* K-fold cross validation of the shape of m (its coefficients are not used) over rows[0..n).
   k is clamped to n; n >= 2.  pred (optional, n entries) gets the out-of-fold predictions. */
int pdp_cross_validate(const struct pdp_model *m, const struct pdp_features *x, const double *y, const size_t *rows,
                       size_t n, unsigned k, uint64_t seed, double *pred, struct pdp_cv *out, char *msg, size_t len);

/* Training-set selection (000 sec. 6.4.4; our reading in docs/heteropdp.md): starting from
   every group (kernel), cross-validate; rank the kept groups by their share of the squared
   out-of-fold error; drop the first of the three worst whose removal raises the cross-validated
   R^2 by more than min_gain; repeat until no such group or until fewer than
   ceil(min_keep * groups) would stay.  (Without min_gain, dropping the kernels that carry the
   most noise always raises R^2 a little, and the selection would run down to the floor.)
   group[i] is the group of rows[i] (< ngroups).  keep (ngroups entries) gets 1 for kept groups.
   before/after: cross validation over all rows / the kept ones. */
struct pdp_select_opts {
    unsigned folds;
    uint64_t seed;
    double min_keep;             /* fraction of groups that always stays, (0, 1] */
    double min_gain;             /* least rise of the cross-validated R^2 that drops a group */
};
int pdp_select_groups(const struct pdp_model *m, const struct pdp_features *x, const double *y, const size_t *rows,
                      const uint32_t *group, size_t n, size_t ngroups, const struct pdp_select_opts *o,
                      uint8_t *keep, struct pdp_cv *before, struct pdp_cv *after, char *msg, size_t len);

/* ---- training the four models from a dataset ----------------------------------------- */
struct pdp_train_opts {
    unsigned folds;              /* default 32 */
    uint64_t seed;               /* default 1 */
    bool intercept;              /* add a 1 x 1 term (the seed's tables have none) */
    bool relative;               /* fit relative errors (pdp_model.relative); default: absolute, as Eq. A.2 */
    bool select;                 /* training-set selection (default on, as the seed) */
    double min_keep;             /* default 0.7 (the seed kept 45 of 63 kernels) */
    double min_gain;             /* default 0.001 */
};
void pdp_train_opts_default(struct pdp_train_opts *o);

struct pdp_train_report {
    bool trained[PDP_NTARGETS][PDP_NSCENS];
    struct pdp_cv cv_all[PDP_NTARGETS][PDP_NSCENS], cv_kept[PDP_NTARGETS][PDP_NSCENS];
    size_t groups[PDP_NTARGETS][PDP_NSCENS], groups_kept[PDP_NTARGETS][PDP_NSCENS];
    char dropped[PDP_NTARGETS][PDP_NSCENS][512];   /* dropped kernels, ", "-separated */
};
/* Fit every model whose time column the dataset has (its factor columns must be there too).
   ms is cleared first and named `name`.  0, or -1 with a message (nothing to train, a
   missing feature column, too few rows). */
int pdp_train(const struct pdp_dataset *d, const struct pdp_train_opts *o, const char *name,
              struct pdp_modelset *ms, struct pdp_train_report *rep, char *msg, size_t len);

/* ---- files ---------------------------------------------------------------------------- */
void pdp_modelset_init(struct pdp_modelset *ms);
int pdp_modelset_parse(struct pdp_modelset *ms, const char *text, size_t len, const char *path, char *msg,
                       size_t n);
int pdp_modelset_load(struct pdp_modelset *ms, const char *path, char *msg, size_t n);
/* %.17g coefficients: a written model reads back bit-identical.  0 or -1 on a write error. */
int pdp_modelset_write(const struct pdp_modelset *ms, FILE *f);

#endif
