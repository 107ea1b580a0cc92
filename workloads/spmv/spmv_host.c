/*
 * spmv_host.c - driver for spmv.cu: repeated y = A * x with a square CSR
 * matrix, one thread per row, the output of one launch being the input of
 * the next (the inner loop of an iterative solver / power iteration).
 *
 * The matrix has skewed row lengths (a power-law-like tail up to a few
 * thousand entries, 5% empty rows), and its columns are half near the
 * diagonal (a band, for locality) and half anywhere (random gathers).
 * Entries are scaled by 1/sqrt(row length) so the vector stays O(1).
 * Check: the textbook CSR loop on the CPU using fmaf in the same column
 * order, so bit-identical results are expected; the tolerance only allows
 * for rounding noise.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define SPMV_BLOCK 256

struct spmv_state {
    int32_t nrows;
    int32_t nnz;
    int32_t *rowptr, *cols;
    float *vals, *x, *y;
    ws_devptr d_rowptr, d_cols, d_vals, d_x, d_y;
};

static int spmv_cmp_i32(const void *pa, const void *pb)
{
    int32_t a, b;
    memcpy(&a, pa, sizeof a);
    memcpy(&b, pb, sizeof b);
    return (a > b) - (a < b);
}

static void spmv_generate(struct spmv_state *s, int32_t nrows, int32_t avg, struct wl_rng *rng)
{
    size_t n = (size_t)nrows;
    int64_t cap = nrows / 8 < 4096 ? nrows / 8 : 4096;
    /* target row lengths from capped Pareto(1.5) weights scaled to avg */
    double *w = wl_alloc(n * sizeof(double));
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (wl_rng_below(rng, 20) == 0) {
            w[i] = 0.0;   /* empty row */
            continue;
        }
        double u = ((double)(wl_rng_u64(rng) >> 11) + 1.0) / 9007199254740993.0;
        double x = pow(u, -1.0 / 1.5);
        w[i] = x < (double)cap ? x : (double)cap;
        sum += w[i];
    }
    double scale = (double)avg * (double)nrows / sum;

    s->nrows = nrows;
    s->rowptr = wl_alloc((n + 1) * sizeof(int32_t));
    size_t cap_nnz = (size_t)((double)avg * (double)nrows * 1.05) + n + 16, nnz = 0;
    s->cols = wl_alloc(cap_nnz * sizeof(int32_t));
    s->vals = wl_alloc(cap_nnz * sizeof(float));
    for (size_t i = 0; i < n; i++) {
        s->rowptr[i] = (int32_t)nnz;
        int64_t len = w[i] == 0.0 ? 0 : (int64_t)lround(w[i] * scale);
        if (w[i] != 0.0 && len < 1)
            len = 1;
        if (len > cap)
            len = cap;
        if (nnz + (size_t)len > cap_nnz)
            len = (int64_t)(cap_nnz - nnz);
        int32_t *c = s->cols + nnz;
        for (int64_t j = 0; j < len; j++) {
            int64_t col;
            if (wl_rng_below(rng, 2) == 0) {
                col = (int64_t)i + (int64_t)wl_rng_below(rng, 513) - 256;   /* band around the diagonal */
                col = (col % nrows + nrows) % nrows;
            } else {
                col = wl_rng_below(rng, (uint32_t)nrows);
            }
            c[j] = (int32_t)col;
        }
        /* CSR convention: sorted, no duplicates */
        qsort(c, (size_t)len, sizeof(int32_t), spmv_cmp_i32);
        size_t kept = 0;
        for (int64_t j = 0; j < len; j++)
            if (kept == 0 || c[j] != c[kept - 1])
                c[kept++] = c[j];
        float norm = kept ? 1.0f / sqrtf((float)kept) : 0.0f;
        for (size_t j = 0; j < kept; j++)
            s->vals[nnz + j] = wl_rng_float(rng, -1.0f, 1.0f) * norm;
        nnz += kept;
    }
    s->rowptr[n] = (int32_t)nnz;
    s->nnz = (int32_t)nnz;
    free(w);
}

static ws_status spmv_device(ws_ctx *ctx, ws_module *mod, struct spmv_state *s, int iters, struct wl_result *r)
{
    size_t n = (size_t)s->nrows, nnz = (size_t)(s->nnz ? s->nnz : 1);
    WL_TRY(wl_upload(ctx, &s->d_rowptr, s->rowptr, (n + 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_cols, s->cols, nnz * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_vals, s->vals, nnz * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_x, s->x, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_y, NULL, n * sizeof(float)));
    ws_dim3 grid = ws_dim((unsigned)((n + SPMV_BLOCK - 1) / SPMV_BLOCK), 1, 1);
    ws_devptr in = s->d_x, out = s->d_y;
    for (int it = 0; it < iters; it++) {
        void *args[] = {&s->nrows, &s->d_rowptr, &s->d_cols, &s->d_vals, &in, &out};
        WL_TRY(wsLaunchKernel(ctx, mod, "spmv_csr_scalar", grid, ws_dim(SPMV_BLOCK, 1, 1), 0, args));
        r->launches++;
        ws_devptr t = in;
        in = out;
        out = t;
    }
    return wsMemcpyDtoH(ctx, s->y, in, n * sizeof(float));   /* the last output */
}

static ws_status spmv_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct spmv_state s;
    memset(&s, 0, sizeof s);
    int32_t nrows = WL_BY_SIZE(o, 4096, 131072, 1048576);
    int32_t avg = WL_BY_SIZE(o, 12, 24, 16);
    int iters = WL_BY_SIZE(o, 3, 4, 4);
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    spmv_generate(&s, nrows, avg, &rng);
    size_t n = (size_t)nrows;
    s.x = wl_alloc(n * sizeof(float));
    s.y = wl_alloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        s.x[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    if (o->verbose) {
        int32_t longest = 0;
        for (size_t i = 0; i < n; i++)
            if (s.rowptr[i + 1] - s.rowptr[i] > longest)
                longest = s.rowptr[i + 1] - s.rowptr[i];
        fprintf(o->log, "spmv: %d x %d, %d nonzeros (longest row %d), %d iterations\n", nrows, nrows, s.nnz,
                longest, iters);
    }

    ws_status st = spmv_device(ctx, mod, &s, iters, r);
    if (st == WS_SUCCESS) {
        float *cur = wl_alloc(n * sizeof(float)), *next = wl_alloc(n * sizeof(float));
        memcpy(cur, s.x, n * sizeof(float));
        for (int it = 0; it < iters; it++) {
            for (size_t i = 0; i < n; i++) {
                float acc = 0.0f;
                for (int32_t j = s.rowptr[i]; j < s.rowptr[i + 1]; j++)
                    acc = fmaf(s.vals[j], cur[s.cols[j]], acc);
                next[i] = acc;
            }
            float *t = cur;
            cur = next;
            next = t;
        }
        wl_check_f32(r, "y", s.y, cur, n, 1e-5, 1e-6);
        free(cur);
        free(next);
    }
    ws_devptr *bufs[] = {&s.d_rowptr, &s.d_cols, &s.d_vals, &s.d_x, &s.d_y};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    free(s.rowptr);
    free(s.cols);
    free(s.vals);
    free(s.x);
    free(s.y);
    return st;
}

const struct workload wl_spmv = {
    .name = "spmv",
    .summary = "scalar CSR sparse matrix-vector multiply, one thread per row, repeated: skewed row lengths "
               "(loop divergence), indirect x gathers",
    .tolerance = "rel 1e-5 + abs 1e-6 (CPU uses fmaf in the same column order: bit-identical expected)",
    .run = spmv_run,
};
