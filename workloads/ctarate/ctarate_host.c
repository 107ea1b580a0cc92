/*
 * ctarate_host.c - driver for ctarate.cu: how many core cycles an SM needs
 * per CTA when the CTAs do (almost) nothing.
 *
 * For each kernel (empty, tiny): a 15-CTA launch that brings its code into
 * the L2, then launches of n and 2n CTAs; the figure is the difference of
 * their core cycles (wsGetStats) times the SMs over n.  The SM count is the
 * largest %smid in the tiny records + 1.  The records of the tiny 2n launch
 * are checked exactly: every CTA wrote its own index (there are no other
 * inputs).  In functional mode there are no core cycles: only the records
 * are checked.
 */
#include <string.h>

#include "common/wl_util.h"
#include "ctarate/ctarate.h"

/* 64 / 128 / 512 CTAs per SM of the GTX480's 15 in the n launch */
unsigned ctarate_ctas(enum wl_size size) { return size == WL_TINY ? 960u : size == WL_SMALL ? 1920u : 7680u; }

static ws_status ctarate_launch(ws_ctx *ctx, ws_module *mod, enum ctarate_kind k, unsigned n, ws_devptr d_rec,
                                uint64_t *cycles, uint64_t *insns)
{
    ws_stats a, b;
    void *args[] = {&d_rec};
    WL_TRY(wsGetStats(ctx, &a));
    if (k == CTARATE_EMPTY)
        WL_TRY(wsLaunchKernel(ctx, mod, "ctarate_empty", ws_dim(n, 1, 1), ws_dim(1, 1, 1), 0, NULL));
    else
        WL_TRY(wsLaunchKernel(ctx, mod, "ctarate_tiny", ws_dim(n, 1, 1), ws_dim(32, 1, 1), 0, args));
    WL_TRY(wsGetStats(ctx, &b));
    *cycles = b.gpu_cycles - a.gpu_cycles;
    *insns = b.warp_insns - a.warp_insns;
    return WS_SUCCESS;
}

ws_status ctarate_measure(ws_ctx *ctx, ws_module *mod, unsigned n, struct wl_result *r, struct ctarate_meas *m)
{
    memset(m, 0, sizeof *m);
    if (n == 0 || n > (1u << 20))
        return WS_ERROR_INVALID_VALUE;
    m->ctas = n;
    const size_t nrec = 2u * (size_t)n;
    uint32_t *rec = wl_alloc(nrec * 4u * sizeof *rec);
    ws_devptr d_rec = 0;
    uint64_t warm, wi, in_n[CTARATE_NKINDS] = {0, 0}, in_2n[CTARATE_NKINDS] = {0, 0};
    ws_status st = wl_upload(ctx, &d_rec, NULL, nrec * 4u * sizeof *rec);
    for (int k = 0; k < CTARATE_NKINDS && st == WS_SUCCESS; k++) {
        st = ctarate_launch(ctx, mod, (enum ctarate_kind)k, 15, d_rec, &warm, &wi);
        if (st == WS_SUCCESS)
            st = ctarate_launch(ctx, mod, (enum ctarate_kind)k, n, d_rec, &m->cycles_n[k], &in_n[k]);
        if (st == WS_SUCCESS)
            st = ctarate_launch(ctx, mod, (enum ctarate_kind)k, 2u * n, d_rec, &m->cycles_2n[k], &in_2n[k]);
    }
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, rec, d_rec, nrec * 4u * sizeof *rec);
    if (st == WS_SUCCESS) {
        uint32_t *got = wl_alloc(nrec * sizeof *got), *want = wl_alloc(nrec * sizeof *want);
        for (size_t c = 0; c < nrec; c++) {
            got[c] = rec[4u * c + 3];
            want[c] = (uint32_t)c;
            m->sms = rec[4u * c + 2] + 1u > m->sms ? rec[4u * c + 2] + 1u : m->sms;
        }
        wl_check_u32(r, "CTA index of each record", got, want, nrec);
        for (int k = 0; k < CTARATE_NKINDS; k++) {
            m->per_cta[k] = m->cycles_2n[k] > m->cycles_n[k]
                                ? (double)(m->cycles_2n[k] - m->cycles_n[k]) * m->sms / (double)n : 0.0;
            m->insns_per_cta[k] = (double)(in_2n[k] - in_n[k]) / (double)n;
        }
        free(got);
        free(want);
    }
    if (d_rec) wsFree(ctx, d_rec);
    free(rec);
    return st;
}

static ws_status ctarate_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct ctarate_meas m;
    WL_TRY(ctarate_measure(ctx, mod, ctarate_ctas(o->size), r, &m));
    r->launches += 3u * CTARATE_NKINDS;
    if (o->verbose)
        for (int k = 0; k < CTARATE_NKINDS; k++)
            fprintf(o->log, "ctarate %s: %u CTAs %llu cycles, %u CTAs %llu cycles (%u SMs)\n",
                    k == CTARATE_EMPTY ? "empty" : "tiny", m.ctas, (unsigned long long)m.cycles_n[k], 2u * m.ctas,
                    (unsigned long long)m.cycles_2n[k], m.sms);
    if (r->verified) {
        if (m.cycles_2n[CTARATE_TINY])
            snprintf(r->detail, sizeof r->detail,
                     "records match; core cycles per CTA per SM: empty %.2f, one warp %.2f (%u SMs)",
                     m.per_cta[CTARATE_EMPTY], m.per_cta[CTARATE_TINY], m.sms);
        else
            snprintf(r->detail, sizeof r->detail, "records match (launch rates need timing mode)");
    }
    return WS_SUCCESS;
}

const struct workload wl_ctarate = {
    .name = "ctarate",
    .summary = "grids of empty and of one-warp CTAs: core cycles per CTA per SM (dispatch and CTA turnaround)",
    .tolerance = "exact (each one-warp CTA's record carries its own index)",
    .run = ctarate_run,
    .micro = 1,
};
