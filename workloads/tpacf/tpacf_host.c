/*
 * tpacf_host.c - driver for two-point angular correlation (workloads/tpacf/tpacf.cu, Parboil TPACF;
 * 000 Tables 4.2/5.3).
 *
 * Input: a "data" catalogue of N points on the sky, half of them in 24
 * compact clusters (a galaxy-like excess of close pairs) and half uniform, and
 * R random catalogues of N uniform points, as unit vectors in float.  The bin
 * edges are log-spaced as in Parboil, 5 bins per decade of angle from 1 to
 * 10000 arc minutes (21 edges, 22 bins counting the two open ends), stored as
 * the float cosine of the angle, descending (the first few edges lie within a
 * few ulps of 1, so float resolution merges the smallest bins).  Histograms: DD (pairs i < j of the data), and for
 * every random set DR (all data x random pairs) and RR (its pairs i < j): 1 +
 * 2R launches of a (N/128) x (N/512) grid.
 * Check: the CPU computes every pair's dot product with the same fmaf chain
 * and the same binary search over the same float edges, so each histogram is
 * compared exactly (64-bit counts summed over the CTAs' rows).
 */
#include <string.h>

#include "common/wl_util.h"

#define TPACF_BLOCK 128
#define TPACF_CHUNK 512
#define TPACF_EDGES 21

struct tpacf_set {
    float *x, *y, *z;
    ws_devptr dx, dy, dz;
};

static void tpacf_point(struct wl_rng *rng, double cra, double cdec, double spread, float *x, float *y, float *z)
{
    double ra = cra + spread * (wl_rng_float(rng, -1.0f, 1.0f)), u = wl_rng_float(rng, -1.0f, 1.0f);
    double dec = spread > 0 ? cdec + spread * u : asin(u);
    *x = (float)(cos(dec) * cos(ra));
    *y = (float)(cos(dec) * sin(ra));
    *z = (float)sin(dec);
}

static int tpacf_bin(const float *edges, float d)
{
    int lo = 0, hi = TPACF_EDGES;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (edges[mid] >= d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void tpacf_ref(const struct tpacf_set *a, const struct tpacf_set *b, int n, int self, const float *edges,
                      uint64_t *h)
{
    for (int i = 0; i < n; i++)
        for (int j = self ? i + 1 : 0; j < n; j++)
            h[tpacf_bin(edges, fmaf(a->x[i], b->x[j], fmaf(a->y[i], b->y[j], a->z[i] * b->z[j])))]++;
}

static ws_status tpacf_launch(ws_ctx *ctx, ws_module *mod, struct tpacf_set *a, struct tpacf_set *b, int n, int self,
                              ws_devptr edges, ws_devptr rows, uint32_t *hrows, uint64_t *h, unsigned *launches)
{
    unsigned gx = (unsigned)((n + TPACF_BLOCK - 1) / TPACF_BLOCK), gy = (unsigned)((n + TPACF_CHUNK - 1) / TPACF_CHUNK);
    int n_edges = TPACF_EDGES;
    void *args[] = {&a->dx, &a->dy, &a->dz, &n, &b->dx, &b->dy, &b->dz, &n, &self, &edges, &n_edges, &rows};
    WL_TRY(wsLaunchKernel(ctx, mod, "tpacf_hist", ws_dim(gx, gy, 1), ws_dim(TPACF_BLOCK, 1, 1), 0, args));
    (*launches)++;
    size_t nr = (size_t)gx * gy * (TPACF_EDGES + 1);
    WL_TRY(wsMemcpyDtoH(ctx, hrows, rows, nr * sizeof(uint32_t)));
    memset(h, 0, (TPACF_EDGES + 1) * sizeof(uint64_t));
    for (size_t i = 0; i < nr; i++)
        h[i % (TPACF_EDGES + 1)] += hrows[i];
    return WS_SUCCESS;
}

static int tpacf_check(struct wl_result *r, const char *what, const uint64_t *got, const uint64_t *want)
{
    for (int b = 0; b <= TPACF_EDGES; b++)
        if (got[b] != want[b]) {
            if (r->verified) {
                r->verified = 0;
                snprintf(r->detail, sizeof r->detail, "%s bin %d: got %llu, want %llu", what, b,
                         (unsigned long long)got[b], (unsigned long long)want[b]);
            }
            return 0;
        }
    return 1;
}

static ws_status tpacf_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: 8192 points and 4 random sets (Parboil's inputs reach 97178 points x 100 sets) */
    int n = WL_BY_SIZE(o, 200, 2048, 8192), n_rand = WL_BY_SIZE(o, 1, 1, 4);
    int n_sets = 1 + n_rand;
    struct tpacf_set *sets = wl_alloc((size_t)n_sets * sizeof *sets);
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    double cra[24], cdec[24];
    for (int c = 0; c < 24; c++) {
        cra[c] = wl_rng_float(&rng, 0.0f, 6.2831853f);
        cdec[c] = asin(wl_rng_float(&rng, -0.9f, 0.9f));
    }
    for (int s = 0; s < n_sets; s++) {
        sets[s].x = wl_alloc((size_t)n * sizeof(float));
        sets[s].y = wl_alloc((size_t)n * sizeof(float));
        sets[s].z = wl_alloc((size_t)n * sizeof(float));
        sets[s].dx = sets[s].dy = sets[s].dz = 0;
        for (int i = 0; i < n; i++) {
            int c = (int)wl_rng_below(&rng, 48);
            if (s == 0 && c < 24)   /* clusters of about 0.5 degree (30 arc minutes) */
                tpacf_point(&rng, cra[c], cdec[c], 0.0087, &sets[s].x[i], &sets[s].y[i], &sets[s].z[i]);
            else
                tpacf_point(&rng, wl_rng_float(&rng, 0.0f, 6.2831853f), 0, 0, &sets[s].x[i], &sets[s].y[i],
                            &sets[s].z[i]);
        }
    }
    float edges[TPACF_EDGES];
    for (int k = 0; k < TPACF_EDGES; k++)   /* 10^(k/5) arc minutes, k = 0..20 */
        edges[k] = (float)cos(pow(10.0, k / 5.0) / 60.0 * M_PI / 180.0);

    ws_status st = WS_SUCCESS;
    ws_devptr d_edges = 0, d_rows = 0;
    size_t max_rows = (size_t)((n + TPACF_BLOCK - 1) / TPACF_BLOCK) * (size_t)((n + TPACF_CHUNK - 1) / TPACF_CHUNK) *
                      (TPACF_EDGES + 1);
    uint32_t *hrows = wl_alloc(max_rows * sizeof(uint32_t));
    uint64_t got[TPACF_EDGES + 1], want[TPACF_EDGES + 1], pairs = 0;
    for (int s = 0; s < n_sets && st == WS_SUCCESS; s++) {
        if ((st = wl_upload(ctx, &sets[s].dx, sets[s].x, (size_t)n * sizeof(float))) == WS_SUCCESS &&
            (st = wl_upload(ctx, &sets[s].dy, sets[s].y, (size_t)n * sizeof(float))) == WS_SUCCESS)
            st = wl_upload(ctx, &sets[s].dz, sets[s].z, (size_t)n * sizeof(float));
    }
    if (st == WS_SUCCESS && (st = wl_upload(ctx, &d_edges, edges, sizeof edges)) == WS_SUCCESS)
        st = wl_upload(ctx, &d_rows, NULL, max_rows * sizeof(uint32_t));
    /* DD, then DR and RR for every random set */
    for (int k = 0; k < 2 * n_rand + 1 && st == WS_SUCCESS; k++) {
        int ra = k == 0 ? 0 : (k + 1) / 2, self = k == 0 || k % 2 == 0;
        struct tpacf_set *a = &sets[self ? ra : 0], *b = &sets[ra];
        st = tpacf_launch(ctx, mod, a, b, n, self, d_edges, d_rows, hrows, got, &r->launches);
        if (st != WS_SUCCESS)
            break;
        memset(want, 0, sizeof want);
        tpacf_ref(a, b, n, self, edges, want);
        char what[32];
        if (k == 0)
            snprintf(what, sizeof what, "DD");
        else
            snprintf(what, sizeof what, "%s[%d]", self ? "RR" : "DR", ra - 1);
        tpacf_check(r, what, got, want);
        for (int i = 0; i <= TPACF_EDGES; i++)
            pairs += want[i];
        if (o->verbose && k < 2) {
            fprintf(o->log, "tpacf %s:", what);
            for (int i = 0; i <= TPACF_EDGES; i++)
                fprintf(o->log, " %llu", (unsigned long long)want[i]);
            fprintf(o->log, "\n");
        }
    }
    if (st == WS_SUCCESS && r->verified)
        snprintf(r->detail, sizeof r->detail, "%d histograms of %d bins exact (%llu pairs)", 2 * n_rand + 1,
                 TPACF_EDGES + 1, (unsigned long long)pairs);
    for (int s = 0; s < n_sets; s++) {
        ws_devptr p[3] = {sets[s].dx, sets[s].dy, sets[s].dz};
        for (int i = 0; i < 3; i++)
            if (p[i])
                wsFree(ctx, p[i]);
        free(sets[s].x);
        free(sets[s].y);
        free(sets[s].z);
    }
    if (d_edges)
        wsFree(ctx, d_edges);
    if (d_rows)
        wsFree(ctx, d_rows);
    free(sets);
    free(hrows);
    return st;
}

const struct workload wl_tpacf = {
    .name = "tpacf",
    .summary = "two-point angular correlation histograms (Parboil TPACF; 000 Tables 4.2/5.3): all-pairs dot "
               "products over shared-memory tiles, binary search over bin edges, per-warp shared histograms",
    .tolerance = "exact (the CPU bins every pair with the same float dot product and search)",
    .run = tpacf_run,
};
