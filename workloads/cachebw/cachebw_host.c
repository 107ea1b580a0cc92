/*
 * cachebw_host.c - driver for cachebw.cu: load bandwidth of the L1D (per SM)
 * and of the L2 (whole GPU), in bytes per core cycle.
 *
 * Each level is one timed launch of cachebw_read (the L2 level after a
 * one-CTA launch that brings the buffer into the L2); thread 0 of every CTA
 * records clock64 around its timed passes and its %smid.  Per SM, the
 * window is the earliest start to the latest end of the CTAs it ran; the L2
 * figure takes the window over all CTAs.  Every thread's two sums (the first
 * and the last word of each uint4 it read, 32-bit wrap-around adds) are
 * checked exactly against the CPU.  In functional mode %clock64 counts issued instructions, so only
 * the sums mean anything there.
 */
#include <string.h>

#include "common/wl_util.h"
#include "cachebw/cachebw.h"

void cachebw_level_params(enum cachebw_level lv, enum wl_size size, struct cachebw_params *out)
{
    memset(out, 0, sizeof *out);
    out->block = 512;   /* 16 warps: enough loads in flight to keep the LD/ST unit busy */
    if (lv == CACHEBW_L1) {
        /* 8 KiB = 512 uint4s: 16 loads per lane per pass, every warp the whole buffer */
        out->name = "L1D";
        out->bytes = 8u << 10;
        out->grid = size == WL_TINY ? 4u : 15u;
        out->warp_stride = 0;
        out->loads = out->bytes / (32u * CACHEBW_VEC);
        out->warm = 1;
        out->passes = size == WL_TINY ? 4u : size == WL_SMALL ? 16u : 64u;
    } else {
        /* 128 KiB: each of 16 warps reads an 8 KiB chunk, 16 loads per lane; the grid's
           15 CTAs each read the whole buffer once (1.9 MiB over the L2) */
        out->name = "L2";
        out->bytes = 128u << 10;
        out->grid = 15;
        out->warp_stride = out->bytes / CACHEBW_VEC / (out->block / 32u);
        out->loads = out->warp_stride / 32u;
        out->warm = 0;
        out->passes = 1;
        out->prewarm = 1;
    }
}

/* The sums thread t of CTA c must store (first and last word of each uint4): every pass
   reads the same words. */
static void cachebw_reference(const struct cachebw_params *pp, unsigned grid, unsigned passes, const uint32_t *buf,
                              uint32_t *want)
{
    unsigned nwarps = pp->block / 32u;
    for (unsigned c = 0; c < grid; c++)
        for (unsigned t = 0; t < pp->block; t++) {
            unsigned w = t / 32u, lane = t % 32u;
            size_t base = (size_t)((w + c) % nwarps) * pp->warp_stride + lane;
            uint32_t sx = 0, sw = 0;
            for (unsigned j = 0; j < pp->loads; j++) {
                sx += buf[(base + (size_t)j * 32u) * 4u];
                sw += buf[(base + (size_t)j * 32u) * 4u + 3u];
            }
            uint32_t *o = want + ((size_t)c * pp->block + t) * 2u;
            o[0] = sx * passes;
            o[1] = sw * passes;
        }
}

/* One launch over `grid` CTAs and its check; clk gets 3 words per CTA. */
static ws_status cachebw_launch(ws_ctx *ctx, ws_module *mod, const struct cachebw_params *pp, unsigned grid,
                                unsigned warm, unsigned passes, ws_devptr d_buf, const uint32_t *buf,
                                struct wl_result *r, uint64_t *clk)
{
    size_t nthr = (size_t)grid * pp->block;
    ws_devptr d_sums = 0, d_clk = 0;
    uint32_t *got = wl_alloc(nthr * 2u * sizeof(uint32_t));
    uint32_t *want = wl_alloc(nthr * 2u * sizeof(uint32_t));
    ws_status st = wl_upload(ctx, &d_sums, NULL, nthr * 2u * sizeof(uint32_t));
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &d_clk, NULL, (size_t)grid * 3u * sizeof(uint64_t));
    if (st == WS_SUCCESS) {
        unsigned ws = pp->warp_stride, loads = pp->loads;
        void *args[] = {&d_buf, &ws, &loads, &warm, &passes, &d_sums, &d_clk};
        st = wsLaunchKernel(ctx, mod, "cachebw_read", ws_dim(grid, 1, 1), ws_dim(pp->block, 1, 1), 0, args);
    }
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, got, d_sums, nthr * 2u * sizeof(uint32_t));
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, clk, d_clk, (size_t)grid * 3u * sizeof(uint64_t));
    if (st == WS_SUCCESS) {
        cachebw_reference(pp, grid, warm + passes, buf, want);
        char what[48];
        snprintf(what, sizeof what, "%s sums", pp->name);
        wl_check_u32(r, what, got, want, nthr * 2u);
    }
    if (d_sums) wsFree(ctx, d_sums);
    if (d_clk) wsFree(ctx, d_clk);
    free(got);
    free(want);
    return st;
}

ws_status cachebw_measure(ws_ctx *ctx, ws_module *mod, const struct cachebw_params *pp, uint64_t seed,
                          struct wl_result *r, struct cachebw_meas *m)
{
    memset(m, 0, sizeof *m);
    unsigned nwarps = pp->block / 32u;
    if (pp->block == 0 || pp->block % 32u || pp->grid == 0 || pp->loads == 0 || pp->loads % CACHEBW_UNROLL ||
        (uint64_t)((nwarps - 1u) * pp->warp_stride + pp->loads * 32u) * CACHEBW_VEC > pp->bytes)
        return WS_ERROR_INVALID_VALUE;
    size_t nwords = pp->bytes / sizeof(uint32_t);
    uint32_t *buf = wl_alloc(nwords * sizeof *buf);
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < nwords; i++)
        buf[i] = wl_rng_u32(&rng);
    uint64_t *clk = wl_alloc((size_t)pp->grid * 3u * sizeof *clk);
    ws_devptr d_buf = 0;
    ws_status st = wl_upload(ctx, &d_buf, buf, pp->bytes);
    /* the one-CTA pass: its 16 warps read the 16 chunks once, so every line is in the L2 */
    if (st == WS_SUCCESS && pp->prewarm)
        st = cachebw_launch(ctx, mod, pp, 1, 1, 0, d_buf, buf, r, clk);
    if (st == WS_SUCCESS)
        st = cachebw_launch(ctx, mod, pp, pp->grid, pp->warm, pp->passes, d_buf, buf, r, clk);
    if (st == WS_SUCCESS) {
        uint64_t cta_bytes = (uint64_t)pp->block * pp->loads * pp->passes * CACHEBW_VEC;
        m->bytes = cta_bytes * pp->grid;
        uint64_t lo = UINT64_MAX, hi = 0;
        double sum = 0, wsum = 0;
        /* per SM: its CTAs' bytes over its window (CTAs are grouped by %smid) */
        for (unsigned c = 0; c < pp->grid; c++) {
            const uint64_t *k = clk + 3u * c;
            lo = k[0] < lo ? k[0] : lo;
            hi = k[1] > hi ? k[1] : hi;
            unsigned first = 1;
            for (unsigned d = 0; d < c; d++)
                if (clk[3u * d + 2] == k[2])
                    first = 0;
            if (!first)
                continue;
            uint64_t slo = UINT64_MAX, shi = 0, sb = 0;
            for (unsigned d = c; d < pp->grid; d++)
                if (clk[3u * d + 2] == k[2]) {
                    slo = clk[3u * d] < slo ? clk[3u * d] : slo;
                    shi = clk[3u * d + 1] > shi ? clk[3u * d + 1] : shi;
                    sb += cta_bytes;
                }
            m->sms++;
            sum += shi > slo ? (double)sb / (double)(shi - slo) : 0.0;
            wsum += shi > slo ? (double)(shi - slo) : 0.0;
        }
        m->per_sm = m->sms ? sum / m->sms : 0.0;
        m->sm_window = m->sms ? wsum / m->sms : 0.0;
        m->window = hi > lo ? hi - lo : 0;
        m->total = m->window ? (double)m->bytes / (double)m->window : 0.0;
    }
    if (d_buf) wsFree(ctx, d_buf);
    free(buf);
    free(clk);
    return st;
}

static ws_status cachebw_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct cachebw_meas m[CACHEBW_NLEVELS];
    for (int lv = 0; lv < CACHEBW_NLEVELS; lv++) {
        struct cachebw_params pp;
        cachebw_level_params((enum cachebw_level)lv, o->size, &pp);
        WL_TRY(cachebw_measure(ctx, mod, &pp, o->seed * 2u + (uint64_t)lv, r, &m[lv]));
        r->launches += pp.prewarm ? 2u : 1u;
        if (o->verbose)
            fprintf(o->log, "cachebw %s: %u KiB, %u CTAs x %u threads, %u loads x %u+%u passes: %llu bytes, window %llu\n",
                    pp.name, pp.bytes >> 10, pp.grid, pp.block, pp.loads, pp.warm, pp.passes,
                    (unsigned long long)m[lv].bytes, (unsigned long long)m[lv].window);
    }
    if (r->verified) {
        ws_stats s;
        int timing = wsGetStats(ctx, &s) == WS_SUCCESS && s.gpu_cycles > 0;
        snprintf(r->detail, sizeof r->detail,
                 "sums match the CPU; L1D %.2f bytes/%s per SM (%u SMs), L2 %.2f bytes/%s (%u SMs)%s",
                 m[0].per_sm, timing ? "core cycle" : "tick", m[0].sms, m[1].total,
                 timing ? "core cycle" : "tick", m[1].sms,
                 timing ? "" : " (functional mode: clock64 counts issued instructions)");
    }
    return WS_SUCCESS;
}

const struct workload wl_cachebw = {
    .name = "cachebw",
    .summary = "coalesced uint4 loads over an L1D-sized and an L2-sized buffer: L1D bytes/cycle per SM, L2 bytes/cycle",
    .tolerance = "exact (every thread's 32-bit sums vs the CPU)",
    .run = cachebw_run,
    .micro = 1,
};
