/*
 * pchase_host.c - driver for pchase.cu, the pointer-chase latency
 * microbenchmark: three launches of the same one-thread kernel over an
 * L1-, an L2- and a DRAM-sized chain (pchase.h), each reporting the cycles
 * between two dependent loads, and each checked by walking the same chain on
 * the CPU: the kernel's final pointer must be the element the CPU reaches
 * after the same number of hops.
 *
 * In timing mode %clock64 counts core cycles, so cycles/hop is the load-to-use
 * latency of the level.  In functional mode %clock64 counts the warp's issued
 * instructions, so the same number is instructions per hop (just over 1): only
 * the final pointers mean anything there.
 */
#include <string.h>

#include "common/wl_util.h"
#include "pchase/pchase.h"

void pchase_level_params(enum pchase_level lv, enum wl_size size, struct pchase_params *out)
{
    /* timed rounds of 32 hops: 256 / 2048 / 8192 hops per level */
    unsigned rounds = size == WL_TINY ? 8u : size == WL_SMALL ? 64u : 256u;
    memset(out, 0, sizeof *out);
    out->rounds = rounds;
    switch (lv) {
    case PCHASE_L1:
        /* 64 lines: the two warm-up rounds walk the whole cycle once */
        out->name = "L1";
        out->bytes = 8u << 10;
        out->stride = 128;
        out->warm_rounds = 2;
        break;
    case PCHASE_L2:
        /* 2048 lines: 64 warm-up rounds walk the whole cycle once, so every
           line is in the L2 before the timed hops (and none can stay in the L1:
           a random cycle over 128x the L1's lines evicts each line before its
           next visit under LRU) */
        out->name = "L2";
        out->bytes = 256u << 10;
        out->stride = 128;
        out->warm_rounds = 64;
        break;
    default:
        /* 16384 elements, 4 KiB apart: warm-up 1024 hops (leaves every DRAM
           bank with some row open, so the timed hops are row misses, not
           accesses to closed banks), then at most 8192 timed hops: together
           fewer than the cycle length, so no timed hop revisits a line */
        out->name = "DRAM";
        out->bytes = 64u << 20;
        out->stride = 4096;
        out->warm_rounds = 32;
        break;
    }
}

/* A random cycle through elements 0..n-1 starting at 0: next[k] is the element
   after k. */
static void pchase_make_cycle(uint32_t *next, uint32_t n, uint64_t seed)
{
    uint32_t *order = wl_alloc((size_t)n * sizeof *order);
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    /* Fisher-Yates over order[1..n-1]; element 0 stays first (the kernel starts there) */
    for (uint32_t i = n - 1; i > 1; i--) {
        uint32_t j = 1 + wl_rng_below(&rng, i);   /* 1..i */
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint32_t i = 0; i < n; i++)
        next[order[i]] = order[i + 1 < n ? i + 1 : 0];
    free(order);
}

static ws_status pchase_device(ws_ctx *ctx, ws_module *mod, const struct pchase_params *pp, const uint32_t *next,
                               uint32_t n, ws_devptr chain, ws_devptr out, uint64_t res[3])
{
    /* only the first 8 bytes of each element are ever read: write just those */
    for (uint32_t k = 0; k < n; k++) {
        uint64_t target = chain + (uint64_t)next[k] * pp->stride;
        WL_TRY(wsMemcpyHtoD(ctx, chain + (uint64_t)k * pp->stride, &target, sizeof target));
    }
    unsigned warm = pp->warm_rounds, rounds = pp->rounds;
    void *args[] = {&chain, &warm, &rounds, &out};
    WL_TRY(wsLaunchKernel(ctx, mod, "pchase", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args));
    return wsMemcpyDtoH(ctx, res, out, 3 * sizeof(uint64_t));
}

ws_status pchase_measure(ws_ctx *ctx, ws_module *mod, const struct pchase_params *pp, uint64_t seed,
                         struct pchase_meas *m)
{
    memset(m, 0, sizeof *m);
    if (pp->stride < 8 || pp->stride % 8 || pp->bytes / pp->stride < 2 || pp->bytes / pp->stride > UINT32_MAX ||
        pp->rounds == 0)
        return WS_ERROR_INVALID_VALUE;
    uint32_t n = (uint32_t)(pp->bytes / pp->stride);
    uint32_t *next = wl_alloc((size_t)n * sizeof *next);
    pchase_make_cycle(next, n, seed);

    ws_devptr chain = 0, out = 0;
    uint64_t res[3] = {0, 0, 0};
    ws_status st = wsMalloc(ctx, &chain, pp->bytes);
    if (st == WS_SUCCESS)
        st = wl_upload(ctx, &out, NULL, sizeof res);
    if (st == WS_SUCCESS)
        st = pchase_device(ctx, mod, pp, next, n, chain, out, res);
    if (st == WS_SUCCESS) {
        uint64_t total = ((uint64_t)pp->warm_rounds + pp->rounds) * PCHASE_HOPS_PER_ROUND;
        uint32_t cur = 0;
        for (uint64_t h = 0; h < total; h++)
            cur = next[cur];
        m->want_elem = cur;
        uint64_t off = res[2] - chain;   /* wraps to huge when below the chain */
        m->got_elem = res[2] >= chain && off < (uint64_t)n * pp->stride && off % pp->stride == 0
                          ? (uint32_t)(off / pp->stride) : UINT32_MAX;
        m->t0 = res[0];
        m->t1 = res[1];
        m->hops = (uint64_t)pp->rounds * PCHASE_HOPS_PER_ROUND;
        m->cycles_per_hop = res[1] >= res[0] ? (double)(res[1] - res[0]) / (double)m->hops : -1.0;
    }
    if (chain) wsFree(ctx, chain);
    if (out) wsFree(ctx, out);
    free(next);
    return st;
}

static ws_status pchase_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct pchase_meas m[PCHASE_NLEVELS];
    struct pchase_params pp[PCHASE_NLEVELS];
    for (int lv = 0; lv < PCHASE_NLEVELS; lv++) {
        pchase_level_params((enum pchase_level)lv, o->size, &pp[lv]);
        /* a different chain per level, all from the one seed */
        WL_TRY(pchase_measure(ctx, mod, &pp[lv], o->seed * 3u + (uint64_t)lv, &m[lv]));
        r->launches++;
        if (o->verbose)
            fprintf(o->log, "pchase %s: %llu KiB, stride %llu, %u+%u rounds of %u hops: clock %llu..%llu\n",
                    pp[lv].name, (unsigned long long)(pp[lv].bytes >> 10), (unsigned long long)pp[lv].stride,
                    pp[lv].warm_rounds, pp[lv].rounds, PCHASE_HOPS_PER_ROUND, (unsigned long long)m[lv].t0,
                    (unsigned long long)m[lv].t1);
    }
    for (int lv = 0; lv < PCHASE_NLEVELS; lv++) {
        char what[64];
        snprintf(what, sizeof what, "%s final element", pp[lv].name);
        wl_check_u32(r, what, &m[lv].got_elem, &m[lv].want_elem, 1);
    }
    if (r->verified) {
        ws_stats s;
        int timing = wsGetStats(ctx, &s) == WS_SUCCESS && s.gpu_cycles > 0;
        snprintf(r->detail, sizeof r->detail,
                 "final pointers match the CPU walk; %s per hop: L1 %.2f, L2 %.2f, DRAM %.2f%s",
                 timing ? "core cycles" : "clock64 ticks", m[0].cycles_per_hop, m[1].cycles_per_hop,
                 m[2].cycles_per_hop, timing ? "" : " (functional mode: clock64 counts issued instructions)");
    }
    return WS_SUCCESS;
}

const struct workload wl_pchase = {
    .name = "pchase",
    .summary = "pointer chase by one thread over L1-, L2- and DRAM-sized chains: load-to-use latency per level",
    .tolerance = "exact (final pointer of each chain vs a CPU walk)",
    .run = pchase_run,
    .micro = 1,
};
