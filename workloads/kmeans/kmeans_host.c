/*
 * kmeans_host.c - driver for kmeans.cu: Lloyd's k-means the way Rodinia's
 * CUDA kmeans splits it: the GPU assigns every point to its nearest centroid,
 * the host recomputes the centroids from the memberships and uploads them to
 * __constant__ memory for the next launch.
 *
 * Input: points scattered around k random centres (so the clustering means
 * something and memberships change over the first iterations).  Check: at
 * every iteration the GPU memberships must equal a CPU assignment done from
 * the same centroids.  The kernel computes each distance with an explicit
 * fused multiply-add per feature in feature order, and the CPU does the same
 * with fmaf, so the distances are bit-identical and ties resolve alike (lowest
 * cluster index wins): the comparison is exact.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define KMEANS_BLOCK 256
#define KMEANS_MAX_CENTROID_FLOATS 4096   /* size of kmeans_centroids in kmeans.cu */

struct kmeans_state {
    int np, nf, k;
    float *features;      /* point-major: features[p*nf + f] */
    float *inv;           /* feature-major copy made by the GPU, read back to check */
    float *centroids;     /* k * nf */
    int32_t *member, *want, *prev;
    double *sums;         /* centroid accumulation */
    int32_t *counts;
    ws_devptr d_features, d_inv, d_member;
    int iters;            /* assignment launches made */
};

/* CPU reference assignment: nearest centroid, first one on ties. */
static void kmeans_cpu_assign(const struct kmeans_state *s, int32_t *out)
{
    for (int p = 0; p < s->np; p++) {
        const float *x = s->features + (size_t)p * (size_t)s->nf;
        float best = FLT_MAX;
        int32_t best_c = 0;
        for (int c = 0; c < s->k; c++) {
            const float *y = s->centroids + (size_t)c * (size_t)s->nf;
            float d = 0.0f;
            for (int f = 0; f < s->nf; f++) {
                float diff = x[f] - y[f];
                d = fmaf(diff, diff, d);
            }
            if (d < best) {
                best = d;
                best_c = c;
            }
        }
        out[p] = best_c;
    }
}

/* New centroids = mean of their members (an empty cluster keeps its centroid). */
static void kmeans_update(struct kmeans_state *s)
{
    memset(s->sums, 0, (size_t)s->k * (size_t)s->nf * sizeof(double));
    memset(s->counts, 0, (size_t)s->k * sizeof(int32_t));
    for (int p = 0; p < s->np; p++) {
        int32_t c = s->member[p];
        s->counts[c]++;
        for (int f = 0; f < s->nf; f++)
            s->sums[(size_t)c * (size_t)s->nf + (size_t)f] += s->features[(size_t)p * (size_t)s->nf + (size_t)f];
    }
    for (int c = 0; c < s->k; c++)
        if (s->counts[c])
            for (int f = 0; f < s->nf; f++) {
                size_t i = (size_t)c * (size_t)s->nf + (size_t)f;
                s->centroids[i] = (float)(s->sums[i] / s->counts[c]);
            }
}

static ws_status kmeans_device(ws_ctx *ctx, ws_module *mod, struct kmeans_state *s, int max_iters,
                               const struct wl_opts *o, struct wl_result *r)
{
    size_t nvals = (size_t)s->np * (size_t)s->nf;
    WL_TRY(wl_upload(ctx, &s->d_features, s->features, nvals * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_inv, NULL, nvals * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_member, NULL, (size_t)s->np * sizeof(int32_t)));
    ws_dim3 grid = ws_dim((unsigned)((s->np + KMEANS_BLOCK - 1) / KMEANS_BLOCK), 1, 1);
    ws_dim3 block = ws_dim(KMEANS_BLOCK, 1, 1);

    void *inv_args[] = {&s->d_features, &s->d_inv, &s->np, &s->nf};
    WL_TRY(wsLaunchKernel(ctx, mod, "kmeans_invert", grid, block, 0, inv_args));
    r->launches++;
    WL_TRY(wsMemcpyDtoH(ctx, s->inv, s->d_inv, nvals * sizeof(float)));
    /* the transpose is a pure copy: check it exactly against the host's */
    float *want_inv = wl_alloc(nvals * sizeof(float));
    for (int p = 0; p < s->np; p++)
        for (int f = 0; f < s->nf; f++)
            want_inv[(size_t)f * (size_t)s->np + (size_t)p] = s->features[(size_t)p * (size_t)s->nf + (size_t)f];
    wl_check_f32(r, "inverted features", s->inv, want_inv, nvals, 0.0, 0.0);
    free(want_inv);

    void *assign_args[] = {&s->d_inv, &s->d_member, &s->np, &s->k, &s->nf};
    size_t cbytes = (size_t)s->k * (size_t)s->nf * sizeof(float);
    for (int it = 0; it < max_iters; it++) {
        WL_TRY(wsMemcpyToSymbol(ctx, mod, "kmeans_centroids", s->centroids, cbytes, 0));
        WL_TRY(wsLaunchKernel(ctx, mod, "kmeans_assign", grid, block, 0, assign_args));
        r->launches++;
        s->iters++;
        WL_TRY(wsMemcpyDtoH(ctx, s->member, s->d_member, (size_t)s->np * sizeof(int32_t)));

        kmeans_cpu_assign(s, s->want);
        char what[64];
        snprintf(what, sizeof what, "membership (iteration %d)", it + 1);
        int32_t delta = 0, bad = 0;
        for (int p = 0; p < s->np; p++) {
            delta += s->member[p] != s->prev[p];
            bad += s->member[p] != s->want[p] || s->member[p] < 0 || s->member[p] >= s->k;
        }
        if (bad) {
            wl_check_i32(r, what, s->member, s->want, (size_t)s->np);   /* records the first mismatch */
            break;
        }
        if (o->verbose)
            fprintf(o->log, "kmeans: iteration %d: %d memberships changed\n", it + 1, delta);
        memcpy(s->prev, s->member, (size_t)s->np * sizeof(int32_t));
        kmeans_update(s);
        if (delta == 0 || it + 1 == max_iters) {
            wl_check_i32(r, what, s->member, s->want, (size_t)s->np);   /* notes the final exact match */
            break;
        }
    }
    return WS_SUCCESS;
}

static ws_status kmeans_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct kmeans_state s;
    memset(&s, 0, sizeof s);
    /* paper: Rodinia's kdd_cup input shape (494020 points, 34 features, 5 clusters) */
    s.np = WL_BY_SIZE(o, 2048, 32768, 494020);
    s.nf = WL_BY_SIZE(o, 10, 34, 34);
    s.k = 5;
    int max_iters = WL_BY_SIZE(o, 3, 5, 10);
    if (s.k * s.nf > KMEANS_MAX_CENTROID_FLOATS)
        return WS_ERROR_INVALID_VALUE;

    size_t nvals = (size_t)s.np * (size_t)s.nf, ncen = (size_t)s.k * (size_t)s.nf;
    s.features = wl_alloc(nvals * sizeof(float));
    s.inv = wl_alloc(nvals * sizeof(float));
    s.centroids = wl_alloc(ncen * sizeof(float));
    s.member = wl_alloc((size_t)s.np * sizeof(int32_t));
    s.want = wl_alloc((size_t)s.np * sizeof(int32_t));
    s.prev = wl_alloc((size_t)s.np * sizeof(int32_t));
    s.sums = wl_alloc(ncen * sizeof(double));
    s.counts = wl_alloc((size_t)s.k * sizeof(int32_t));

    /* points: a random true centre each plus noise (sum of two uniforms, so
       the blobs overlap a little and the first iterations move points) */
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    float *centres = wl_alloc(ncen * sizeof(float));
    for (size_t i = 0; i < ncen; i++)
        centres[i] = wl_rng_float(&rng, 0.0f, 1.0f);
    for (int p = 0; p < s.np; p++) {
        uint32_t c = wl_rng_below(&rng, (uint32_t)s.k);
        for (int f = 0; f < s.nf; f++)
            s.features[(size_t)p * (size_t)s.nf + (size_t)f] =
                centres[c * (size_t)s.nf + (size_t)f] + wl_rng_float(&rng, -0.2f, 0.2f) +
                wl_rng_float(&rng, -0.2f, 0.2f);
    }
    free(centres);
    /* initial centroids: k points picked at random (as Rodinia does) */
    for (int c = 0; c < s.k; c++) {
        uint32_t p = wl_rng_below(&rng, (uint32_t)s.np);
        memcpy(s.centroids + (size_t)c * (size_t)s.nf, s.features + (size_t)p * (size_t)s.nf,
               (size_t)s.nf * sizeof(float));
    }
    for (int p = 0; p < s.np; p++)
        s.prev[p] = -1;
    if (o->verbose)
        fprintf(o->log, "kmeans: %d points, %d features, %d clusters, up to %d iterations\n", s.np, s.nf, s.k,
                max_iters);

    ws_status st = kmeans_device(ctx, mod, &s, max_iters, o, r);

    ws_devptr *bufs[] = {&s.d_features, &s.d_inv, &s.d_member};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    free(s.features);
    free(s.inv);
    free(s.centroids);
    free(s.member);
    free(s.want);
    free(s.prev);
    free(s.sums);
    free(s.counts);
    return st;
}

const struct workload wl_kmeans = {
    .name = "kmeans",
    .summary = "k-means assignment (Rodinia style): feature-major strided reads, centroids in __constant__ "
               "(broadcast), host centroid update between launches",
    .tolerance = "exact (memberships; distances use fma in the same order on both sides)",
    .run = kmeans_run,
};
