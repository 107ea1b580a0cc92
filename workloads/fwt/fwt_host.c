/*
 * fwt_host.c - driver for the fast Walsh transform (workloads/fwt/fwt.cu, CUDA SDK
 * fastWalshTransform; 000 Tables 4.2/5.3).
 *
 * Input: a data vector of N = 2^L floats uniform in [-1, 1) and a 128-tap
 * kernel (uniform in [-1, 1), zero-padded to N), as the SDK sample.  The GPU
 * computes the dyadic convolution: FWT(data), FWT(kernel), data *= kernel / N,
 * FWT(data).  Each transform is one global radix-4 launch per two levels above
 * the 2048-element tile, then one shared-memory launch for the last 10 or 11
 * levels.  Check: the textbook radix-2 transform on the CPU, levels in the same
 * decreasing-stride order, the same element-wise product: every float rounds
 * identically, so the check is exact (tolerance 0) for the transformed kernel
 * and for the convolution.
 */
#include <string.h>

#include "common/wl_util.h"

#define FWT_BLOCK 256
#define FWT_LOG2_ELEM 11
#define FWT_KERNEL_N 128

static void fwt_reference(float *x, int log2n)
{
    size_t n = (size_t)1 << log2n;
    for (size_t s = n >> 1; s > 0; s >>= 1)
        for (size_t i = 0; i < n; i++)
            if (!(i & s)) {
                float a = x[i], b = x[i + s];
                x[i] = a + b;
                x[i + s] = a - b;
            }
}

static ws_status fwt_transform(ws_ctx *ctx, ws_module *mod, ws_devptr d, int log2n, unsigned *launches)
{
    int rem = log2n;
    int quarter = 1 << (log2n - 2);
    unsigned ctas = (unsigned)((quarter + FWT_BLOCK - 1) / FWT_BLOCK);
    while (rem > FWT_LOG2_ELEM) {
        int log2s = rem - 2;
        void *args[] = {&d, &log2s, &quarter};
        WL_TRY(wsLaunchKernel(ctx, mod, "fwt_global4", ws_dim(ctas, 1, 1), ws_dim(FWT_BLOCK, 1, 1), 0, args));
        (*launches)++;
        rem -= 2;
    }
    void *args[] = {&d, &rem};
    unsigned segs = 1u << (log2n - rem);
    WL_TRY(wsLaunchKernel(ctx, mod, "fwt_shared", ws_dim(segs, 1, 1), ws_dim(FWT_BLOCK, 1, 1), 0, args));
    (*launches)++;
    return WS_SUCCESS;
}

static ws_status fwt_device(ws_ctx *ctx, ws_module *mod, ws_devptr *dd, ws_devptr *dk, const float *data,
                            const float *kern, float *out, float *kout, int log2n, unsigned *launches)
{
    int n = 1 << log2n;
    size_t bytes = (size_t)n * sizeof(float);
    WL_TRY(wl_upload(ctx, dd, data, bytes));
    WL_TRY(wl_upload(ctx, dk, kern, bytes));
    WL_TRY(fwt_transform(ctx, mod, *dd, log2n, launches));
    WL_TRY(fwt_transform(ctx, mod, *dk, log2n, launches));
    unsigned ctas = (unsigned)(n / (4 * FWT_BLOCK));
    if (ctas > 240)
        ctas = 240;
    void *args[] = {dd, dk, &n};
    WL_TRY(wsLaunchKernel(ctx, mod, "fwt_modulate", ws_dim(ctas ? ctas : 1, 1, 1), ws_dim(FWT_BLOCK, 1, 1), 0,
                          args));
    (*launches)++;
    WL_TRY(fwt_transform(ctx, mod, *dd, log2n, launches));
    WL_TRY(wsMemcpyDtoH(ctx, kout, *dk, bytes));
    return wsMemcpyDtoH(ctx, out, *dd, bytes);
}

static ws_status fwt_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: the SDK sample's 2^23 data points and a 128-point kernel */
    int log2n = WL_BY_SIZE(o, 14, 20, 23);
    size_t n = (size_t)1 << log2n, bytes = n * sizeof(float);
    float *data = wl_alloc(bytes), *kern = wl_alloc(bytes), *out = wl_alloc(bytes), *kout = wl_alloc(bytes);
    float *ref = wl_alloc(bytes), *kref = wl_alloc(bytes);
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (size_t i = 0; i < n; i++)
        data[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    memset(kern, 0, bytes);
    for (size_t i = 0; i < FWT_KERNEL_N; i++)
        kern[i] = wl_rng_float(&rng, -1.0f, 1.0f);

    ws_devptr dd = 0, dk = 0;
    ws_status st = fwt_device(ctx, mod, &dd, &dk, data, kern, out, kout, log2n, &r->launches);
    if (st == WS_SUCCESS) {
        memcpy(ref, data, bytes);
        memcpy(kref, kern, bytes);
        fwt_reference(ref, log2n);
        fwt_reference(kref, log2n);
        float rcp_n = 1.0f / (float)n;
        for (size_t i = 0; i < n; i++)
            ref[i] *= kref[i] * rcp_n;
        fwt_reference(ref, log2n);
        wl_check_f32(r, "transformed kernel", kout, kref, n, 0.0, 0.0);
        wl_check_f32(r, "dyadic convolution", out, ref, n, 0.0, 0.0);
        if (o->verbose)
            fprintf(o->log, "fwt: N = 2^%d, %u launches\n", log2n, r->launches);
    }
    if (dd)
        wsFree(ctx, dd);
    if (dk)
        wsFree(ctx, dk);
    free(data);
    free(kern);
    free(out);
    free(kout);
    free(ref);
    free(kref);
    return st;
}

const struct workload wl_fwt = {
    .name = "fwt",
    .summary = "fast Walsh transform / dyadic convolution (CUDA SDK fastWalshTransform; 000 Tables 4.2/5.3): "
               "global radix-4 passes at large strides, 2048-element shared-memory tiles for the last levels",
    .tolerance = "exact (the CPU applies the same butterfly levels in the same order)",
    .run = fwt_run,
};
