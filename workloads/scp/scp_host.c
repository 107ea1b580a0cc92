/*
 * scp_host.c - driver for scp.cu: the scalar products of many pairs of float
 * vectors, the CUDA SDK scalarProd workload (001's SCP, a Type-M application).
 *
 * Inputs: nvec pairs of len floats, uniform in [-1, 1).  Check: the reference
 * replays the kernel's order per pair (SCP_ACCUM strided partial sums with
 * fma, then the shared-memory halving tree), so under IEEE round-to-nearest
 * every product must match bit for bit.  The tiny size uses a length that is
 * not a multiple of SCP_ACCUM, so accumulators get unequal element counts and
 * some stay zero.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define SCP_ACCUM 1024 /* must match scp.cu */
#define SCP_BLOCK 256

/* The kernel's summation order for one pair, written out on the host. */
static float scp_cpu_dot(const float *x, const float *y, int len, float *acc)
{
    for (int k = 0; k < SCP_ACCUM; k++) {
        float s = 0.0f;
        for (int p = k; p < len; p += SCP_ACCUM)
            s = fmaf(x[p], y[p], s);
        acc[k] = s;
    }
    for (int half = SCP_ACCUM / 2; half > 0; half >>= 1)
        for (int k = 0; k < half; k++)
            acc[k] += acc[k + half];
    return acc[0];
}

static ws_status scp_device(ws_ctx *ctx, ws_module *mod, const float *a, const float *b, float *c, int nvec,
                            int len, unsigned grid, struct wl_result *r, ws_devptr *d)
{
    size_t n = (size_t)nvec * (size_t)len;
    WL_TRY(wl_upload(ctx, &d[0], a, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d[1], b, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d[2], NULL, (size_t)nvec * sizeof(float)));
    void *args[] = {&d[0], &d[1], &d[2], &nvec, &len};
    WL_TRY(wsLaunchKernel(ctx, mod, "scp_dot", ws_dim(grid, 1, 1), ws_dim(SCP_BLOCK, 1, 1), 0, args));
    r->launches++;
    WL_TRY(wsMemcpyDtoH(ctx, c, d[2], (size_t)nvec * sizeof(float)));
    return WS_SUCCESS;
}

static ws_status scp_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: the SDK sample's input (256 pairs of 4096 floats, 128 CTAs of 256 threads) */
    int nvec = WL_BY_SIZE(o, 48, 512, 256);
    int len = WL_BY_SIZE(o, 1500, 16384, 4096);
    unsigned grid = WL_BY_SIZE(o, 16u, 256u, 128u);
    size_t n = (size_t)nvec * (size_t)len;
    float *a = wl_alloc(n * sizeof(float)), *b = wl_alloc(n * sizeof(float));
    float *c = wl_alloc((size_t)nvec * sizeof(float)), *want = wl_alloc((size_t)nvec * sizeof(float));
    float *acc = wl_alloc(SCP_ACCUM * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (size_t i = 0; i < n; i++) {
        a[i] = wl_rng_float(&rng, -1.0f, 1.0f);
        b[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    }
    if (o->verbose)
        fprintf(o->log, "scp: %d vector pairs of %d floats, %u CTAs of %d threads\n", nvec, len, grid, SCP_BLOCK);

    ws_devptr d[3] = {0, 0, 0};
    ws_status st = scp_device(ctx, mod, a, b, c, nvec, len, grid, r, d);
    if (st == WS_SUCCESS) {
        for (int v = 0; v < nvec; v++)
            want[v] = scp_cpu_dot(a + (size_t)v * (size_t)len, b + (size_t)v * (size_t)len, len, acc);
        wl_check_f32(r, "scalar products", c, want, (size_t)nvec, 0.0, 0.0);
    }
    for (int i = 0; i < 3; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(a);
    free(b);
    free(c);
    free(want);
    free(acc);
    return st;
}

const struct workload wl_scp = {
    .name = "scp",
    .summary = "scalar products of vector pairs (CUDA SDK scalarProd; 001 SCP, expected Type-M): streamed "
               "coalesced loads, per-CTA shared-memory tree reduction with barriers",
    .tolerance = "exact (the reference replays the kernel's fma and tree order)",
    .run = scp_run,
};
