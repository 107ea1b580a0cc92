/*
 * transpose_host.c - driver for the naive transpose (workloads/transpose/transpose.cu).
 *
 * A rows x cols matrix of random 32-bit words is transposed with one thread
 * per element in 16 x 16 CTAs; the CPU reference is the obvious double loop.
 * The sizes are not multiples of 16 in one dimension, so the edge CTAs have
 * inactive threads.
 */
#include "common/wl_util.h"

#define TR_BLOCK 16

static ws_status tr_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d_in, ws_devptr *d_out, const uint32_t *in,
                           uint32_t *out, int rows, int cols, unsigned *launches)
{
    size_t bytes = (size_t)rows * (size_t)cols * sizeof(uint32_t);
    WL_TRY(wl_upload(ctx, d_in, in, bytes));
    /* poison the output so an element that is never written cannot match */
    WL_TRY(wsMalloc(ctx, d_out, bytes));
    WL_TRY(wsMemset(ctx, *d_out, 0xA5, bytes));

    ws_dim3 grid = ws_dim((unsigned)((cols + TR_BLOCK - 1) / TR_BLOCK), (unsigned)((rows + TR_BLOCK - 1) / TR_BLOCK), 1);
    void *args[] = {d_out, d_in, &rows, &cols};
    WL_TRY(wsLaunchKernel(ctx, mod, "transpose_naive", grid, ws_dim(TR_BLOCK, TR_BLOCK, 1), 0, args));
    (*launches)++;
    return wsMemcpyDtoH(ctx, out, *d_out, bytes);
}

static ws_status tr_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    int rows = WL_BY_SIZE(o, 200, 2000, 4096);
    int cols = WL_BY_SIZE(o, 136, 3000, 4096);
    size_t n = (size_t)rows * (size_t)cols;

    uint32_t *in = wl_alloc(n * sizeof(uint32_t));
    uint32_t *out = wl_alloc(n * sizeof(uint32_t));
    uint32_t *ref = wl_alloc(n * sizeof(uint32_t));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (size_t i = 0; i < n; i++)
        in[i] = wl_rng_u32(&rng);

    ws_devptr d_in = 0, d_out = 0;
    ws_status st = tr_device(ctx, mod, &d_in, &d_out, in, out, rows, cols, &r->launches);
    if (st == WS_SUCCESS) {
        for (size_t y = 0; y < (size_t)rows; y++)
            for (size_t x = 0; x < (size_t)cols; x++)
                ref[x * (size_t)rows + y] = in[y * (size_t)cols + x];
        wl_check_u32(r, "transposed matrix", out, ref, n);
        if (o->verbose)
            fprintf(o->log, "transpose: %d x %d\n", rows, cols);
    }
    if (d_in) wsFree(ctx, d_in);
    if (d_out) wsFree(ctx, d_out);
    free(in);
    free(out);
    free(ref);
    return st;
}

const struct workload wl_transpose = {
    .name = "transpose",
    .summary = "naive matrix transpose, one element per thread: coalesced loads, stride-rows stores",
    .tolerance = "exact",
    .run = tr_run,
};
