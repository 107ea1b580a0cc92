/*
 * diverge_host.c - driver for diverge.cu: core cycles per loop iteration of
 * a warp whose lanes take 1, 2, 4, 8, 16 or 32 distinct paths.
 *
 * Inputs: a random 32-bit start value per lane.  Lane l of CTA c runs the
 * body of path l mod 2^c once per iteration, warm-up included: DIVERGE_CHAIN
 * times x = x * 1664525 + path (32-bit wrap-around), which the CPU replays
 * for an exact check.  Each CTA records clock64 around its timed iterations
 * and its %smid.  In functional mode %clock64 counts issued instructions.
 */
#include <string.h>

#include "common/wl_util.h"
#include "diverge/diverge.h"

unsigned diverge_iters(enum wl_size size) { return size == WL_TINY ? 2u : size == WL_SMALL ? 8u : 32u; }

ws_status diverge_measure(ws_ctx *ctx, ws_module *mod, unsigned iters, uint64_t seed, struct wl_result *r,
                          struct diverge_meas *m)
{
    memset(m, 0, sizeof *m);
    if (iters == 0)
        return WS_ERROR_INVALID_VALUE;
    enum { N = DIVERGE_NCTAS * 32u };
    uint32_t x0[N], got[N], want[N];
    uint64_t clk[3u * DIVERGE_NCTAS];
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < N; i++)
        x0[i] = wl_rng_u32(&rng);
    ws_devptr d_x = 0, d_out = 0, d_clk = 0;
    ws_status st = wl_upload(ctx, &d_x, x0, sizeof x0);
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &d_out, NULL, sizeof got);
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &d_clk, NULL, sizeof clk);
    if (st == WS_SUCCESS) {
        void *args[] = {&d_x, &iters, &d_out, &d_clk};
        st = wsLaunchKernel(ctx, mod, "diverge", ws_dim(DIVERGE_NCTAS, 1, 1), ws_dim(32, 1, 1), 0, args);
    }
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, got, d_out, sizeof got);
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, clk, d_clk, sizeof clk);
    if (st == WS_SUCCESS) {
        for (unsigned c = 0; c < DIVERGE_NCTAS; c++) {
            for (unsigned l = 0; l < 32u; l++) {
                uint32_t path = l & ((1u << c) - 1u), x = x0[c * 32u + l];
                for (unsigned it = 0; it < 1u + iters; it++)   /* warm-up iteration + timed ones */
                    for (unsigned k = 0; k < DIVERGE_CHAIN; k++)
                        x = x * 1664525u + path;
                want[c * 32u + l] = x;
            }
            m->paths[c] = 1u << c;
            m->cycles[c] = clk[3u * c + 1] >= clk[3u * c] ? clk[3u * c + 1] - clk[3u * c] : 0;
            m->sm[c] = (unsigned)clk[3u * c + 2];
            m->per_iter[c] = (double)m->cycles[c] / (double)iters;
        }
        wl_check_u32(r, "final values", got, want, N);
    }
    if (d_x) wsFree(ctx, d_x);
    if (d_out) wsFree(ctx, d_out);
    if (d_clk) wsFree(ctx, d_clk);
    return st;
}

static ws_status diverge_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct diverge_meas m;
    WL_TRY(diverge_measure(ctx, mod, diverge_iters(o->size), o->seed, r, &m));
    r->launches++;
    if (o->verbose)
        for (unsigned c = 0; c < DIVERGE_NCTAS; c++)
            fprintf(o->log, "diverge %u paths: %llu cycles on SM %u\n", m.paths[c], (unsigned long long)m.cycles[c],
                    m.sm[c]);
    if (r->verified) {
        ws_stats s;
        int timing = wsGetStats(ctx, &s) == WS_SUCCESS && s.gpu_cycles > 0;
        int n = snprintf(r->detail, sizeof r->detail, "final values match the CPU; %s per iteration by paths:",
                         timing ? "core cycles" : "clock64 ticks");
        for (unsigned c = 0; c < DIVERGE_NCTAS && n > 0 && (size_t)n < sizeof r->detail; c++)
            n += snprintf(r->detail + n, sizeof r->detail - (size_t)n, "%s %u: %.1f", c ? "," : "", m.paths[c],
                          m.per_iter[c]);
        if (!timing && n > 0 && (size_t)n < sizeof r->detail)
            snprintf(r->detail + n, sizeof r->detail - (size_t)n, " (functional mode: clock64 counts issued instructions)");
    }
    return WS_SUCCESS;
}

const struct workload wl_diverge = {
    .name = "diverge",
    .summary = "one warp whose lanes take 1, 2, 4, ..., 32 distinct paths of a dependent chain: cycles per iteration",
    .tolerance = "exact (every lane's 32-bit recurrence vs the CPU)",
    .run = diverge_run,
    .micro = 1,
};
