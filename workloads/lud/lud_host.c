/*
 * lud_host.c - driver for lud.cu: blocked LU decomposition without pivoting
 * (Rodinia lud; 001 classes LUD Type-X, 003 puts it among the column-major /
 * mixed-access workloads).
 *
 * Input: a random n x n matrix made strictly diagonally dominant (diagonal =
 * 1 + the row's off-diagonal magnitudes, as Rodinia's generated inputs are),
 * so LU without pivoting is stable (growth factor <= 2).
 *
 * Check, in double on the host, from the factors the GPU returned:
 *  1. backward error, element by element: |A - L*U|_ij <= gamma_n (|L||U|)_ij
 *     with gamma_n = n u / (1 - n u), u = 2^-24.  This is the classical bound
 *     for LU computed in floating point with the inner products summed in any
 *     order (Higham, Accuracy and Stability, Thm 9.3 and its proof), so it
 *     holds for the blocked order and fused multiply-adds; the check stores
 *     each element's error divided by its bound and requires <= 1.
 *  2. forward error against an unblocked Doolittle LU in double:
 *     |got - want| <= 1e-4 |want| + 1e-6.  With a diagonally dominant matrix the
 *     factors are well conditioned and the measured float errors are ~1e-6
 *     relative; the tolerance leaves a wide margin for the blocked order yet a
 *     wrong update (a missed or doubled term) is off by O(1e-2) or more.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define LUD_BS 16 /* must match lud.cu */

/* Unblocked Doolittle LU in double, in place: the textbook reference. */
static void lud_cpu_doolittle(double *a, int n)
{
    for (int k = 0; k < n; k++) {
        double *rk = a + (size_t)k * (size_t)n;
        for (int i = k + 1; i < n; i++) {
            double *ri = a + (size_t)i * (size_t)n;
            double l = ri[k] / rk[k];
            ri[k] = l;
            for (int j = k + 1; j < n; j++)
                ri[j] -= l * rk[j];
        }
    }
}

/* Backward error of the GPU's factors, normalised by the bound (see top). */
static void lud_backward(const float *a, const float *lu, int n, double *ratio)
{
    double u = ldexp(1.0, -24), gamma = (double)n * u / (1.0 - (double)n * u);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int kmax = i < j ? i : j;
            double s = 0.0, b = 0.0;
            for (int k = 0; k <= kmax; k++) {
                double l = k == i ? 1.0 : (double)lu[(size_t)i * (size_t)n + (size_t)k];
                double p = l * (double)lu[(size_t)k * (size_t)n + (size_t)j];
                s += p;
                b += fabs(p);
            }
            double err = fabs(s - (double)a[(size_t)i * (size_t)n + (size_t)j]);
            ratio[(size_t)i * (size_t)n + (size_t)j] = b > 0.0 ? err / (gamma * b) : err;
        }
}

static ws_status lud_device(ws_ctx *ctx, ws_module *mod, const float *a, float *lu, int n, struct wl_result *r,
                            ws_devptr *d_m)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(float);
    WL_TRY(wl_upload(ctx, d_m, a, bytes));
    int off = 0;
    void *args[] = {d_m, &n, &off};
    for (off = 0; off < n - LUD_BS; off += LUD_BS) {
        unsigned rest = (unsigned)((n - off) / LUD_BS - 1);
        WL_TRY(wsLaunchKernel(ctx, mod, "lud_diagonal", ws_dim(1, 1, 1), ws_dim(LUD_BS, 1, 1), 0, args));
        WL_TRY(wsLaunchKernel(ctx, mod, "lud_perimeter", ws_dim(rest, 1, 1), ws_dim(2 * LUD_BS, 1, 1), 0, args));
        WL_TRY(wsLaunchKernel(ctx, mod, "lud_internal", ws_dim(rest, rest, 1), ws_dim(LUD_BS, LUD_BS, 1), 0, args));
        r->launches += 3;
    }
    WL_TRY(wsLaunchKernel(ctx, mod, "lud_diagonal", ws_dim(1, 1, 1), ws_dim(LUD_BS, 1, 1), 0, args));
    r->launches++;
    WL_TRY(wsMemcpyDtoH(ctx, lu, *d_m, bytes));
    return WS_SUCCESS;
}

static ws_status lud_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: 000's LUD input, 2048 x 2048 */
    int n = WL_BY_SIZE(o, 96, 384, 2048);
    size_t nn = (size_t)n * (size_t)n;
    float *a = wl_alloc(nn * sizeof(float)), *lu = wl_alloc(nn * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (int i = 0; i < n; i++) {
        float *row = a + (size_t)i * (size_t)n;
        double mag = 0.0;
        for (int j = 0; j < n; j++) {
            row[j] = wl_rng_float(&rng, -1.0f, 1.0f);
            if (j != i)
                mag += fabs((double)row[j]);
        }
        row[i] = (float)(1.0 + mag);
    }
    if (o->verbose)
        fprintf(o->log, "lud: %d x %d matrix, %d block steps of %d\n", n, n, n / LUD_BS, LUD_BS);

    ws_devptr d_m = 0;
    ws_status st = lud_device(ctx, mod, a, lu, n, r, &d_m);
    if (st == WS_SUCCESS) {
        double *ratio = wl_alloc(nn * sizeof(double)), *zero = wl_alloc(nn * sizeof(double));
        lud_backward(a, lu, n, ratio);
        memset(zero, 0, nn * sizeof(double));
        wl_check_f64(r, "backward error / gamma_n bound", ratio, zero, nn, 0.0, 1.0);
        /* forward: the double factors rounded to float */
        double *ref = ratio;
        float *want = wl_alloc(nn * sizeof(float));
        for (size_t i = 0; i < nn; i++)
            ref[i] = (double)a[i];
        lud_cpu_doolittle(ref, n);
        for (size_t i = 0; i < nn; i++)
            want[i] = (float)ref[i];
        wl_check_f32(r, "L and U factors", lu, want, nn, 1e-4, 1e-6);
        double worst = 0.0;
        for (size_t i = 0; i < nn; i++)
            worst = fmax(worst, fabs((double)lu[i] - ref[i]));
        r->max_abs_err = worst;
        free(want);
        free(ratio);
        free(zero);
    }
    if (d_m)
        wsFree(ctx, d_m);
    free(a);
    free(lu);
    return st;
}

const struct workload wl_lud = {
    .name = "lud",
    .summary = "blocked LU decomposition (Rodinia lud; 001 LUD, expected Type-X): diagonal/perimeter/internal "
               "kernels per 16-wide step, shared tiles, shrinking grids, many dependent launches",
    .tolerance = "backward error <= gamma_n |L||U| per element; factors rel 1e-4 + abs 1e-6 vs double LU",
    .run = lud_run,
};
