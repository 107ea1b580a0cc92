/*
 * atomics_host.c - driver for atomics.cu: global atomicAdd throughput with
 * every thread on one address, on its own word, and on its own word with a
 * warp's lanes on different lines.
 *
 * The inputs are the counters, zeroed, so the outputs are fixed by the
 * counts alone: a counter that took n increments ends at n and has handed out
 * the old values 0..n-1 once each, in whatever order the L2 served them.  So
 * the check is exact: every counter's final value, and the sums of the old
 * values (per thread when a thread owns its counter, over the grid for the
 * shared one).  Each CTA records clock64 around its timed atomics; the figure
 * is the grid's atomics over the window from the earliest start to the
 * latest end.  In functional mode %clock64 counts issued instructions.
 */
#include <string.h>

#include "common/wl_util.h"
#include "atomics/atomics.h"

unsigned atomics_iters(enum atomics_mode mode, enum wl_size size)
{
    /* one address: a warp's 32 atomics are one request to one L2 slice; own words: the same
       requests spread over every slice, so more of them for a comparable window; a line per
       lane: 32 requests per warp access */
    static const unsigned base[ATOMICS_NMODES] = {8, 32, 8};
    unsigned mul = size == WL_TINY ? 1u : size == WL_SMALL ? 4u : 16u;
    return base[mode] * mul;
}

const char *atomics_mode_name(enum atomics_mode mode)
{
    return mode == ATOMICS_ONE ? "one address" : mode == ATOMICS_WORDS ? "a word per thread" : "a line per lane";
}

ws_status atomics_measure(ws_ctx *ctx, ws_module *mod, enum atomics_mode mode, unsigned iters, struct wl_result *r,
                          struct atomics_meas *m)
{
    memset(m, 0, sizeof *m);
    if (mode >= ATOMICS_NMODES || iters == 0 || iters % ATOMICS_STEP)
        return WS_ERROR_INVALID_VALUE;
    const size_t nthr = (size_t)ATOMICS_GRID * ATOMICS_BLOCK;
    /* a line per lane: each CTA's 1024-word region (ATOMICS_BLOCK <= 1024 threads) */
    const size_t nctr = mode == ATOMICS_ONE ? 1u : mode == ATOMICS_WORDS ? nthr : (size_t)ATOMICS_GRID * 1024u;
    uint32_t *ctr = wl_alloc(nctr * sizeof *ctr);
    uint64_t *sums = wl_alloc(nthr * sizeof *sums);
    uint64_t clk[3u * ATOMICS_GRID];
    ws_devptr d_ctr = 0, d_sums = 0, d_clk = 0;
    ws_status st = wl_upload(ctx, &d_ctr, NULL, nctr * sizeof *ctr);
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &d_sums, NULL, nthr * sizeof *sums);
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &d_clk, NULL, sizeof clk);
    if (st == WS_SUCCESS) {
        unsigned mo = (unsigned)mode;
        void *args[] = {&d_ctr, &mo, &iters, &d_sums, &d_clk};
        st = wsLaunchKernel(ctx, mod, "atomics", ws_dim(ATOMICS_GRID, 1, 1), ws_dim(ATOMICS_BLOCK, 1, 1), 0, args);
    }
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, ctr, d_ctr, nctr * sizeof *ctr);
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, sums, d_sums, nthr * sizeof *sums);
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, clk, d_clk, sizeof clk);
    if (st == WS_SUCCESS) {
        const uint64_t per = ATOMICS_WARM + iters;   /* atomics per thread */
        char what[96];
        if (mode == ATOMICS_ONE) {
            uint64_t n = per * nthr, total = 0;
            for (size_t i = 0; i < nthr; i++)
                total += sums[i];
            uint32_t got[2] = {ctr[0], (uint32_t)(total != n * (n - 1) / 2)}, want[2] = {(uint32_t)n, 0};
            snprintf(what, sizeof what, "%s: counter, sum of old values != n(n-1)/2", atomics_mode_name(mode));
            wl_check_u32(r, what, got, want, 2);
        } else {
            /* each thread's counter: per increments, old values 0..per-1 */
            uint32_t *want = wl_alloc(nctr * sizeof *want);
            memset(want, 0, nctr * sizeof *want);
            for (size_t i = 0; i < nthr; i++) {
                size_t t = i % ATOMICS_BLOCK, lane = t % 32u, warp = t / 32u;
                want[mode == ATOMICS_WORDS ? i : (i / ATOMICS_BLOCK) * 1024u + lane * 32u + warp % 32u] = (uint32_t)per;
            }
            snprintf(what, sizeof what, "%s: counters", atomics_mode_name(mode));
            wl_check_u32(r, what, ctr, want, nctr);
            size_t bad = 0;
            while (bad < nthr && sums[bad] == per * (per - 1) / 2)
                bad++;
            uint32_t got1 = (uint32_t)(bad < nthr ? bad : nthr), want1 = (uint32_t)nthr;
            snprintf(what, sizeof what, "%s: first thread whose old values do not sum to n(n-1)/2",
                     atomics_mode_name(mode));
            wl_check_u32(r, what, &got1, &want1, 1);
            free(want);
        }
        uint64_t lo = UINT64_MAX, hi = 0;
        for (unsigned c = 0; c < ATOMICS_GRID; c++) {
            lo = clk[3u * c] < lo ? clk[3u * c] : lo;
            hi = clk[3u * c + 1] > hi ? clk[3u * c + 1] : hi;
        }
        m->ops = (uint64_t)iters * nthr;
        m->window = hi > lo ? hi - lo : 0;
        m->per_cycle = m->window ? (double)m->ops / (double)m->window : 0.0;
    }
    if (d_ctr) wsFree(ctx, d_ctr);
    if (d_sums) wsFree(ctx, d_sums);
    if (d_clk) wsFree(ctx, d_clk);
    free(ctr);
    free(sums);
    return st;
}

static ws_status atomics_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct atomics_meas m[ATOMICS_NMODES];
    for (int k = 0; k < ATOMICS_NMODES; k++) {
        unsigned iters = atomics_iters((enum atomics_mode)k, o->size);
        WL_TRY(atomics_measure(ctx, mod, (enum atomics_mode)k, iters, r, &m[k]));
        r->launches++;
        if (o->verbose)
            fprintf(o->log, "atomics %s: %u x %u threads, %u+%u atomics each: %llu timed in %llu cycles\n",
                    atomics_mode_name((enum atomics_mode)k), ATOMICS_GRID, ATOMICS_BLOCK, ATOMICS_WARM, iters,
                    (unsigned long long)m[k].ops, (unsigned long long)m[k].window);
    }
    if (r->verified) {
        ws_stats s;
        int timing = wsGetStats(ctx, &s) == WS_SUCCESS && s.gpu_cycles > 0;
        snprintf(r->detail, sizeof r->detail,
                 "counters and old-value sums match; atomics per %s: one address %.2f, a word per thread %.2f, "
                 "a line per lane %.2f%s",
                 timing ? "core cycle" : "clock64 tick", m[0].per_cycle, m[1].per_cycle, m[2].per_cycle,
                 timing ? "" : " (functional mode: clock64 counts issued instructions)");
    }
    return WS_SUCCESS;
}

const struct workload wl_atomics = {
    .name = "atomics",
    .summary = "global atomicAdd by every thread to one address, a word each, a line per lane: atomics per cycle",
    .tolerance = "exact (final counters; old values handed out are 0..n-1 once each)",
    .run = atomics_run,
    .micro = 1,
};
