/*
 * bankconf_host.c - driver for bankconf.cu: shared-memory bank conflicts,
 * core cycles per warp access at strides 0 (broadcast), 1, 2, 4, ..., 32
 * words.
 *
 * One launch, one CTA of BANKCONF_WARPS warps per stride; each CTA records
 * clock64 around its timed rounds and its %smid.  The sixteen words of a
 * thread's last round are summed and checked exactly against the CPU.  In
 * functional mode %clock64 counts issued instructions, so only the sums mean
 * anything there.
 */
#include <string.h>

#include "common/wl_util.h"
#include "bankconf/bankconf.h"

unsigned bankconf_rounds_unit(enum wl_size size) { return size == WL_TINY ? 2u : size == WL_SMALL ? 8u : 32u; }

ws_status bankconf_measure(ws_ctx *ctx, ws_module *mod, unsigned rounds_unit, uint64_t seed, struct wl_result *r,
                           struct bankconf_meas *m)
{
    memset(m, 0, sizeof *m);
    if (rounds_unit == 0)
        return WS_ERROR_INVALID_VALUE;
    const unsigned block = BANKCONF_WARPS * 32u, grid = BANKCONF_NSTRIDES;
    const size_t nthr = (size_t)grid * block;
    uint32_t in[BANKCONF_WORDS];
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < BANKCONF_WORDS; i++)
        in[i] = wl_rng_u32(&rng);
    uint32_t *got = wl_alloc(nthr * sizeof *got), *want = wl_alloc(nthr * sizeof *want);
    uint64_t clk[3u * BANKCONF_NSTRIDES];
    ws_devptr d_in = 0, d_out = 0, d_clk = 0;
    ws_status st = wl_upload(ctx, &d_in, in, sizeof in);
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &d_out, NULL, nthr * sizeof *got);
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &d_clk, NULL, sizeof clk);
    if (st == WS_SUCCESS) {
        void *args[] = {&d_in, &rounds_unit, &d_out, &d_clk};
        st = wsLaunchKernel(ctx, mod, "bankconf", ws_dim(grid, 1, 1), ws_dim(block, 1, 1), 0, args);
    }
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, got, d_out, nthr * sizeof *got);
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, clk, d_clk, sizeof clk);
    if (st == WS_SUCCESS) {
        for (unsigned c = 0; c < grid; c++) {
            unsigned s = bankconf_stride(c);
            for (unsigned t = 0; t < block; t++) {
                uint32_t sum = 0;
                for (unsigned k = 0; k < BANKCONF_LOADS; k++)
                    sum += in[(t % 32u) * s + k];
                want[(size_t)c * block + t] = sum;
            }
            m->stride[c] = s;
            m->accesses[c] = (uint64_t)BANKCONF_WARPS * bankconf_rounds(c, rounds_unit) * BANKCONF_LOADS;
            m->cycles[c] = clk[3u * c + 1] >= clk[3u * c] ? clk[3u * c + 1] - clk[3u * c] : 0;
            m->sm[c] = (unsigned)clk[3u * c + 2];
            m->per_access[c] = (double)m->cycles[c] / (double)m->accesses[c];
        }
        wl_check_u32(r, "sums of the shared words", got, want, nthr);
    }
    if (d_in) wsFree(ctx, d_in);
    if (d_out) wsFree(ctx, d_out);
    if (d_clk) wsFree(ctx, d_clk);
    free(got);
    free(want);
    return st;
}

static ws_status bankconf_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct bankconf_meas m;
    WL_TRY(bankconf_measure(ctx, mod, bankconf_rounds_unit(o->size), o->seed, r, &m));
    r->launches++;
    if (o->verbose)
        for (unsigned c = 0; c < BANKCONF_NSTRIDES; c++)
            fprintf(o->log, "bankconf stride %u: %llu warp accesses in %llu cycles on SM %u\n", m.stride[c],
                    (unsigned long long)m.accesses[c], (unsigned long long)m.cycles[c], m.sm[c]);
    if (r->verified) {
        ws_stats s;
        int timing = wsGetStats(ctx, &s) == WS_SUCCESS && s.gpu_cycles > 0;
        int n = snprintf(r->detail, sizeof r->detail, "sums match the CPU; %s per warp access by stride: broadcast %.2f",
                         timing ? "core cycles" : "clock64 ticks", m.per_access[0]);
        for (unsigned c = 1; c < BANKCONF_NSTRIDES && n > 0 && (size_t)n < sizeof r->detail; c++)
            n += snprintf(r->detail + n, sizeof r->detail - (size_t)n, ", %u: %.2f", m.stride[c], m.per_access[c]);
        if (!timing && n > 0 && (size_t)n < sizeof r->detail)
            snprintf(r->detail + n, sizeof r->detail - (size_t)n, " (functional mode: clock64 counts issued instructions)");
    }
    return WS_SUCCESS;
}

const struct workload wl_bankconf = {
    .name = "bankconf",
    .summary = "shared-memory loads at word strides 0 (broadcast), 1, 2, ..., 32: cycles per warp access",
    .tolerance = "exact (every thread's sum of the words it read vs the CPU)",
    .run = bankconf_run,
    .micro = 1,
};
