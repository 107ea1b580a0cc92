/*
 * stream_host.c - driver for stream.cu: the STREAM triad a = b + s * c over
 * float4s, a DRAM bandwidth microbenchmark.
 *
 * The arrays are many times the L2 (2 MiB each at tiny, 32 MiB at small,
 * 128 MiB at paper, against a 768 KiB GTX480 L2), so the kernel streams
 * from and to DRAM.  It reports the bytes it must move (STREAM's count: two
 * arrays read, one written, 12 bytes per element) and, in timing mode, the
 * core cycles of the launch and the bytes per core cycle; the calibration
 * test turns that into GB/s with the configured clock and compares it with
 * the DRAM peak.  The check is exact: the kernel uses an explicit fused
 * multiply-add and the reference calls fmaf on the same floats.
 */
#include <string.h>

#include "common/wl_util.h"
#include "stream/stream.h"

void stream_size(enum wl_size size, size_t *n, unsigned *grid)
{
    /* floats per array; grid = 90 CTAs of 256 = 15 SMs x 6 CTAs (1536 threads
       per SM), the GTX480's full occupancy: every thread runs a few to a few
       hundred grid-stride iterations */
    *n = size == WL_TINY ? (size_t)1 << 19 : size == WL_SMALL ? (size_t)1 << 23 : (size_t)1 << 25;
    *grid = 90;
}

static ws_status stream_device(ws_ctx *ctx, ws_module *mod, size_t n, unsigned grid, float s, const float *b,
                               const float *c, float *a, ws_devptr d[3], uint64_t *cycles)
{
    size_t bytes = n * sizeof(float);
    WL_TRY(wl_upload(ctx, &d[0], NULL, bytes));
    WL_TRY(wl_upload(ctx, &d[1], b, bytes));
    WL_TRY(wl_upload(ctx, &d[2], c, bytes));
    int n4 = (int)(n / 4);
    void *args[] = {&d[0], &d[1], &d[2], &s, &n4};
    ws_stats before, after;
    WL_TRY(wsGetStats(ctx, &before));
    WL_TRY(wsLaunchKernel(ctx, mod, "stream_triad", ws_dim(grid, 1, 1), ws_dim(STREAM_BLOCK, 1, 1), 0, args));
    WL_TRY(wsGetStats(ctx, &after));
    *cycles = after.gpu_cycles - before.gpu_cycles;
    return wsMemcpyDtoH(ctx, a, d[0], bytes);
}

ws_status stream_measure(ws_ctx *ctx, ws_module *mod, size_t n, unsigned grid, uint64_t seed, struct wl_result *r,
                         struct stream_meas *m)
{
    memset(m, 0, sizeof *m);
    if (n == 0 || n % 4 || n / 4 > (size_t)INT32_MAX || grid == 0)
        return WS_ERROR_INVALID_VALUE;
    m->n = n;
    m->grid = grid;
    m->bytes = 3ull * n * sizeof(float);
    float *a = wl_alloc(n * sizeof(float));
    float *b = wl_alloc(n * sizeof(float));
    float *c = wl_alloc(n * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    float s = wl_rng_float(&rng, 0.5f, 4.0f);
    for (size_t i = 0; i < n; i++) {
        b[i] = wl_rng_float(&rng, -1000.0f, 1000.0f);
        c[i] = wl_rng_float(&rng, -1000.0f, 1000.0f);
    }
    ws_devptr d[3] = {0, 0, 0};
    ws_status st = stream_device(ctx, mod, n, grid, s, b, c, a, d, &m->cycles);
    if (st == WS_SUCCESS) {
        /* reuse b for the reference: fmaf rounds once, as fma.rn.f32 does */
        for (size_t i = 0; i < n; i++)
            b[i] = fmaf(s, c[i], b[i]);
        wl_check_f32(r, "a", a, b, n, 0.0, 0.0);
    }
    for (int i = 0; i < 3; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(a);
    free(b);
    free(c);
    return st;
}

static ws_status stream_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    size_t n;
    unsigned grid;
    stream_size(o->size, &n, &grid);
    if (o->verbose)
        fprintf(o->log, "stream: triad over %zu floats per array (%zu KiB), grid %u x %u\n", n,
                n * sizeof(float) >> 10, grid, STREAM_BLOCK);
    struct stream_meas m;
    WL_TRY(stream_measure(ctx, mod, n, grid, o->seed, r, &m));
    r->launches++;
    if (r->verified) {
        size_t used = strlen(r->detail);
        if (m.cycles)
            snprintf(r->detail + used, sizeof r->detail - used,
                     "; moved %llu bytes in %llu core cycles: %.2f bytes/core cycle", (unsigned long long)m.bytes,
                     (unsigned long long)m.cycles, (double)m.bytes / (double)m.cycles);
        else
            snprintf(r->detail + used, sizeof r->detail - used, "; moved %llu bytes (bandwidth needs timing mode)",
                     (unsigned long long)m.bytes);
    }
    return WS_SUCCESS;
}

const struct workload wl_stream = {
    .name = "stream",
    .summary = "STREAM triad a = b + s*c over float4s, arrays >> L2: coalesced DRAM bandwidth",
    .tolerance = "exact (one fused multiply-add per element, fmaf reference)",
    .run = stream_run,
    .micro = 1,
};
