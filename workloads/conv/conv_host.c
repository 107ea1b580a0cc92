/*
 * conv_host.c - driver for conv.cu: separable convolution (CUDA SDK
 * convolutionSeparable; 003's CONV, a row-major Type-I workload).
 *
 * Input: a w x h image of uniform values in [0, 1) and a normalised 17-tap
 * bell-shaped filter with random jitter, uploaded to __constant__ memory.
 * The pass pair runs `iters` times on the same image as the SDK's benchmark
 * loop does (one warm-up + 16 timed pairs = 003's 34 kernels at the paper
 * size); every pair writes the same result, which is checked.
 * Check: exact.  The reference convolves rows then columns with zero
 * padding, each output summing the taps with fmaf from -R to +R as the kernel
 * does, so every value is bit-identical under IEEE round-to-nearest.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define CONV_R 8 /* these must match conv.cu */
#define CONV_TAPS (2 * CONV_R + 1)
#define CONV_STEPS 8
#define CONV_ROW_BX 16
#define CONV_ROW_BY 4
#define CONV_COL_BX 16
#define CONV_COL_BY 8

/* One 1-D pass on the host: along rows (dx = 1) or columns (dx = 0). */
static void conv_cpu_pass(float *dst, const float *src, const float *c, int w, int h, int along_rows)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = -CONV_R; j <= CONV_R; j++) {
                int xs = along_rows ? x + j : x, ys = along_rows ? y : y + j;
                float v = (xs >= 0 && xs < w && ys >= 0 && ys < h) ? src[(size_t)ys * (size_t)w + (size_t)xs] : 0.0f;
                sum = fmaf(c[CONV_R - j], v, sum);
            }
            dst[(size_t)y * (size_t)w + (size_t)x] = sum;
        }
}

static ws_status conv_device(ws_ctx *ctx, ws_module *mod, const float *img, const float *filt, float *out, int w,
                             int h, int iters, struct wl_result *r, ws_devptr *d)
{
    size_t bytes = (size_t)w * (size_t)h * sizeof(float);
    WL_TRY(wl_upload(ctx, &d[0], img, bytes));
    WL_TRY(wl_upload(ctx, &d[1], NULL, bytes));
    WL_TRY(wl_upload(ctx, &d[2], NULL, bytes));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "conv_filter", filt, CONV_TAPS * sizeof(float), 0));
    void *row_args[] = {&d[1], &d[0], &w, &h};
    void *col_args[] = {&d[2], &d[1], &w, &h};
    ws_dim3 rgrid = ws_dim((unsigned)(w / (CONV_STEPS * CONV_ROW_BX)), (unsigned)(h / CONV_ROW_BY), 1);
    ws_dim3 cgrid = ws_dim((unsigned)(w / CONV_COL_BX), (unsigned)(h / (CONV_STEPS * CONV_COL_BY)), 1);
    for (int it = 0; it < iters; it++) {
        WL_TRY(wsLaunchKernel(ctx, mod, "conv_rows", rgrid, ws_dim(CONV_ROW_BX, CONV_ROW_BY, 1), 0, row_args));
        WL_TRY(wsLaunchKernel(ctx, mod, "conv_cols", cgrid, ws_dim(CONV_COL_BX, CONV_COL_BY, 1), 0, col_args));
        r->launches += 2;
    }
    WL_TRY(wsMemcpyDtoH(ctx, out, d[2], bytes));
    return WS_SUCCESS;
}

static ws_status conv_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: 003's CONV (1024 x 1024, 17 pass pairs: 34 kernels, 52224 CTAs) */
    int w = WL_BY_SIZE(o, 256, 1024, 1024);
    int h = WL_BY_SIZE(o, 64, 1024, 1024);
    int iters = WL_BY_SIZE(o, 1, 1, 17);
    size_t n = (size_t)w * (size_t)h;
    float *img = wl_alloc(n * sizeof(float)), *out = wl_alloc(n * sizeof(float));
    float *tmp = wl_alloc(n * sizeof(float)), *want = wl_alloc(n * sizeof(float));
    float filt[CONV_TAPS];
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    double fsum = 0.0;
    for (int j = 0; j < CONV_TAPS; j++) {
        /* a bell (squared triangle) with 10% jitter; no libm, same on every platform */
        double t = (double)(CONV_R + 1 - abs(j - CONV_R));
        filt[j] = (float)(t * t * (1.0 + 0.1 * (double)wl_rng_float(&rng, -1.0f, 1.0f)));
        fsum += filt[j];
    }
    for (int j = 0; j < CONV_TAPS; j++)
        filt[j] = (float)(filt[j] / fsum);
    for (size_t i = 0; i < n; i++)
        img[i] = wl_rng_float(&rng, 0.0f, 1.0f);
    if (o->verbose)
        fprintf(o->log, "conv: %d x %d image, %d-tap filter, %d pass pairs\n", w, h, CONV_TAPS, iters);

    ws_devptr d[3] = {0, 0, 0};
    ws_status st = conv_device(ctx, mod, img, filt, out, w, h, iters, r, d);
    if (st == WS_SUCCESS) {
        conv_cpu_pass(tmp, img, filt, w, h, 1);
        conv_cpu_pass(want, tmp, filt, w, h, 0);
        wl_check_f32(r, "convolved image", out, want, n, 0.0, 0.0);
    }
    for (int i = 0; i < 3; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(img);
    free(out);
    free(tmp);
    free(want);
    return st;
}

const struct workload wl_conv = {
    .name = "conv",
    .summary = "separable convolution (CUDA SDK convolutionSeparable; 003 CONV, row-major; expected Type-C): "
               "row and column passes, shared tiles with halos, filter taps broadcast from __constant__",
    .tolerance = "exact (the reference replays the kernel's fma order, zero padding)",
    .run = conv_run,
};
