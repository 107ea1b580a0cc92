/*
 * ssc_host.c - driver for the MapReduce similarity score (workloads/ssc/ssc.cu, Mars SSC).
 *
 * Input: document feature vectors like TF-IDF weights: every document
 * belongs to one of 8 topics; a term is present with probability 0.25
 * (0.6 for its topic's terms) with a weight in (0, 1], else 0.  So the
 * scores spread between unrelated and same-topic pairs.  A few documents are
 * all zeros (empty documents): their scores are defined as 0.
 *
 * Check: a CPU computes every score with the same float operations in the
 * same order (fmaf per term in feature order, IEEE sqrt and division), so
 * the results should be bit-identical; the tolerance allows a few ulp
 * (scores are in [0, 1]).
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define SSC_BLOCK 128
#define SSC_TOPICS 8

static void ssc_reference(const float *feat, int n, int dim, float *score)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const float *a = feat + (size_t)i * (size_t)dim, *b = feat + (size_t)j * (size_t)dim;
            float dot = 0.0f, na = 0.0f, nb = 0.0f;
            for (int k = 0; k < dim; k++) {
                dot = fmaf(a[k], b[k], dot);
                na = fmaf(a[k], a[k], na);
                nb = fmaf(b[k], b[k], nb);
            }
            float den = na * nb;
            score[(size_t)i * (size_t)n + (size_t)j] = den > 0.0f ? dot / sqrtf(den) : 0.0f;
        }
}

static ws_status ssc_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d_feat, ws_devptr *d_score, const float *feat,
                            int n, int dim, float *score, unsigned *launches)
{
    size_t nscore = (size_t)n * (size_t)n;
    WL_TRY(wl_upload(ctx, d_feat, feat, (size_t)n * (size_t)dim * sizeof(float)));
    WL_TRY(wl_upload(ctx, d_score, NULL, nscore * sizeof(float)));
    void *args[] = {d_feat, &n, &dim, d_score};
    ws_dim3 grid = ws_dim((unsigned)((n + SSC_BLOCK - 1) / SSC_BLOCK), (unsigned)n, 1);
    WL_TRY(wsLaunchKernel(ctx, mod, "ssc_score", grid, ws_dim(SSC_BLOCK, 1, 1), 0, args));
    (*launches)++;
    return wsMemcpyDtoH(ctx, score, *d_score, nscore * sizeof(float));
}

static ws_status ssc_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: 2048 documents x 256 terms (4M pairs) */
    int n = WL_BY_SIZE(o, 128, 256, 2048);
    int dim = WL_BY_SIZE(o, 20, 128, 256);
    size_t nfeat = (size_t)n * (size_t)dim, nscore = (size_t)n * (size_t)n;
    float *feat = wl_alloc(nfeat * sizeof(float));
    float *score = wl_alloc(nscore * sizeof(float)), *want = wl_alloc(nscore * sizeof(float));

    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (int i = 0; i < n; i++) {
        uint32_t topic = wl_rng_below(&rng, SSC_TOPICS);
        int empty = wl_rng_below(&rng, 64) == 0;
        for (int k = 0; k < dim; k++) {
            int on_topic = (uint32_t)k % SSC_TOPICS == topic;
            uint32_t p = wl_rng_below(&rng, 100);
            float w = 1.0f - wl_rng_float(&rng, 0.0f, 1.0f);   /* (0, 1] */
            feat[(size_t)i * (size_t)dim + (size_t)k] = (!empty && p < (on_topic ? 60u : 25u)) ? w : 0.0f;
        }
    }

    ws_devptr d_feat = 0, d_score = 0;
    ws_status st = ssc_device(ctx, mod, &d_feat, &d_score, feat, n, dim, score, &r->launches);
    if (st == WS_SUCCESS) {
        ssc_reference(feat, n, dim, want);
        wl_check_f32(r, "similarity scores", score, want, nscore, 1e-6, 1e-7);
        if (o->verbose) {
            size_t exact = 0;
            for (size_t i = 0; i < nscore; i++)
                exact += score[i] == want[i];
            fprintf(o->log, "ssc: %d documents x %d terms, %zu pairs, %zu bit-identical to the CPU\n", n, dim,
                    nscore, exact);
        }
    }
    if (d_feat) wsFree(ctx, d_feat);
    if (d_score) wsFree(ctx, d_score);
    free(feat);
    free(score);
    free(want);
    return st;
}

const struct workload wl_ssc = {
    .name = "ssc",
    .summary = "MapReduce similarity score (Mars SSC; 001 SSC, expected Type-M): one thread per document pair, "
               "cosine of dense feature vectors, uncoalesced row reads",
    .tolerance = "rel 1e-6 abs 1e-7 (same float operations and order as the CPU: bit-identical expected)",
    .run = ssc_run,
};
