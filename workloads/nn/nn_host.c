/*
 * nn_host.c - driver for nn.cu: nearest neighbour (Rodinia nn; 003's NN, a
 * Type-III workload without inter-CTA locality).
 *
 * Input: n records of (latitude, longitude) floats, uniform over the ranges
 * of Rodinia's hurricane record generator (latitude 7-70, longitude 1-359),
 * and the target point of Rodinia's default run (lat 30, lng 90).  One launch
 * of nn_euclid with 256-thread CTAs (Rodinia's block size) computes every
 * distance; the host then picks the k = 10 nearest records (ties broken by
 * the lower record index), as Rodinia's host code does.
 * Sizes: 10,000 / 1,000,000 / 1,310,700 records = 40 / 3907 / 5120 CTAs (paper:
 * 003 Table 4.2's NN, 1 kernel, 5,120 CTAs).
 * Check: exact.  The reference computes sqrtf(fmaf(dlat, dlat, dlng * dlng))
 * with the same float operations the kernel writes with round-to-nearest
 * intrinsics, so every distance is bit-identical; the k records chosen from
 * the device's distances must be the reference's, in the same order.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define NN_BLOCK 256
#define NN_K 10
#define NN_TARGET_LAT 30.0f
#define NN_TARGET_LNG 90.0f

struct nn_rec {
    float lat, lng; /* the layout of struct latlong in nn.cu */
};

/* The k smallest distances, ties to the lower index, by insertion into a sorted list of k. */
static void nn_pick(const float *dist, size_t n, int32_t *idx, float *best)
{
    size_t have = 0;
    for (size_t i = 0; i < n; i++) {
        float d = dist[i];
        if (have == NN_K && !(d < best[NN_K - 1]))
            continue; /* equal to the k-th: the earlier index stays */
        size_t j = have < NN_K ? have++ : NN_K - 1;
        while (j > 0 && d < best[j - 1]) {
            best[j] = best[j - 1];
            idx[j] = idx[j - 1];
            j--;
        }
        best[j] = d;
        idx[j] = (int32_t)i;
    }
    for (size_t j = have; j < NN_K; j++) {
        best[j] = 0.0f;
        idx[j] = -1;
    }
}

static ws_status nn_device(ws_ctx *ctx, ws_module *mod, const struct nn_rec *recs, float *dist, int n,
                           struct wl_result *r, ws_devptr *d)
{
    WL_TRY(wl_upload(ctx, &d[0], recs, (size_t)n * sizeof *recs));
    WL_TRY(wl_upload(ctx, &d[1], NULL, (size_t)n * sizeof(float)));
    float lat = NN_TARGET_LAT, lng = NN_TARGET_LNG;
    void *args[] = {&d[0], &d[1], &n, &lat, &lng};
    unsigned ctas = (unsigned)((n + NN_BLOCK - 1) / NN_BLOCK);
    WL_TRY(wsLaunchKernel(ctx, mod, "nn_euclid", ws_dim(ctas, 1, 1), ws_dim(NN_BLOCK, 1, 1), 0, args));
    r->launches++;
    WL_TRY(wsMemcpyDtoH(ctx, dist, d[1], (size_t)n * sizeof(float)));
    return WS_SUCCESS;
}

static ws_status nn_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    int n = WL_BY_SIZE(o, 10000, 1000000, 1310700);
    struct nn_rec *recs = wl_alloc((size_t)n * sizeof *recs);
    float *dist = wl_alloc((size_t)n * sizeof(float)), *want = wl_alloc((size_t)n * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (int i = 0; i < n; i++) {
        recs[i].lat = wl_rng_float(&rng, 7.0f, 70.0f);
        recs[i].lng = wl_rng_float(&rng, 1.0f, 359.0f);
    }
    if (o->verbose)
        fprintf(o->log, "nn: %d records, target (%.1f, %.1f), k = %d, %d CTAs of %d\n", n, (double)NN_TARGET_LAT,
                (double)NN_TARGET_LNG, NN_K, (n + NN_BLOCK - 1) / NN_BLOCK, NN_BLOCK);

    ws_devptr d[2] = {0, 0};
    ws_status st = nn_device(ctx, mod, recs, dist, n, r, d);
    if (st == WS_SUCCESS) {
        for (int i = 0; i < n; i++) {
            float dlat = NN_TARGET_LAT - recs[i].lat, dlng = NN_TARGET_LNG - recs[i].lng;
            float sq = dlng * dlng;
            want[i] = sqrtf(fmaf(dlat, dlat, sq));
        }
        int32_t got_idx[NN_K], want_idx[NN_K];
        float got_best[NN_K], want_best[NN_K];
        nn_pick(dist, (size_t)n, got_idx, got_best);
        nn_pick(want, (size_t)n, want_idx, want_best);
        wl_check_f32(r, "distances", dist, want, (size_t)n, 0.0, 0.0);
        wl_check_i32(r, "k nearest records", got_idx, want_idx, NN_K);
        wl_check_f32(r, "k nearest distances", got_best, want_best, NN_K, 0.0, 0.0);
        if (o->verbose)
            fprintf(o->log, "nn: nearest record %d at distance %.6f, %d-th at %.6f\n", (int)got_idx[0],
                    (double)got_best[0], NN_K, (double)got_best[NN_K - 1]);
    }
    for (int i = 0; i < 2; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(recs);
    free(dist);
    free(want);
    return st;
}

const struct workload wl_nn = {
    .name = "nn",
    .summary = "nearest neighbour (Rodinia nn; 003 NN, Type-III: no inter-CTA locality): one thread per "
               "(lat, lng) record computes its distance to a target, the host picks the 10 nearest",
    .tolerance = "exact (the reference replays the kernel's round-to-nearest float operations)",
    .run = nn_run,
};
