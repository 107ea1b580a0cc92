/*
 * fw_host.c - driver for fw.cu: Floyd-Warshall all-pairs shortest paths, one
 * launch of a 2D grid (16 x 16 threads per CTA) per intermediate node k
 * (Pannotia FW; 000 Tables 4.2 / 5.3).
 *
 * Input: a random directed graph with each ordered pair an edge with
 * probability 1/4 (Pannotia's 256_16384 input has this density), integer
 * weights in [1, 100], dist[i][i] = 0, no edge = FW_INF.
 *   tiny  48 nodes  (48 launches of 3 x 3 CTAs)
 *   small 192 nodes (192 launches of 12 x 12 CTAs)
 *   paper 256 nodes, ~16K edges (Pannotia's 256_16384; 256 launches of 16 x 16 CTAs)
 * Check: the same triple loop on the CPU, every entry exactly.
 */
#include <string.h>

#include "common/wl_util.h"

#define FW_TILE 16
#define FW_INF (1 << 29)   /* "no path": FW_INF + FW_INF still fits an int */

static ws_status fw_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    int32_t n = WL_BY_SIZE(o, 48, 192, 256);
    size_t nn = (size_t)n * (size_t)n;
    int32_t *dist = wl_alloc(nn * sizeof(int32_t));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    size_t edges = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            int32_t d = FW_INF;
            if (wl_rng_below(&rng, 4) == 0) {
                d = 1 + (int32_t)wl_rng_below(&rng, 100);
                edges += i != j;
            }
            dist[(size_t)i * (size_t)n + (size_t)j] = i == j ? 0 : d;
        }

    ws_devptr d_dist = 0;
    ws_status st = wl_upload(ctx, &d_dist, dist, nn * sizeof(int32_t));
    unsigned tiles = (unsigned)((n + FW_TILE - 1) / FW_TILE);
    for (int32_t k = 0; st == WS_SUCCESS && k < n; k++) {
        void *args[] = {&d_dist, &n, &k};
        st = wsLaunchKernel(ctx, mod, "fw_step", ws_dim(tiles, tiles, 1), ws_dim(FW_TILE, FW_TILE, 1), 0, args);
        r->launches++;
    }
    int32_t *got = wl_alloc(nn * sizeof(int32_t));
    if (st == WS_SUCCESS)
        st = wsMemcpyDtoH(ctx, got, d_dist, nn * sizeof(int32_t));
    if (st == WS_SUCCESS) {
        for (size_t k = 0; k < (size_t)n; k++)
            for (size_t i = 0; i < (size_t)n; i++) {
                int32_t dik = dist[i * (size_t)n + k];
                for (size_t j = 0; j < (size_t)n; j++) {
                    int32_t via = dik + dist[k * (size_t)n + j];
                    if (via < dist[i * (size_t)n + j])
                        dist[i * (size_t)n + j] = via;
                }
            }
        if (o->verbose) {
            size_t unreachable = 0;
            for (size_t i = 0; i < nn; i++)
                unreachable += dist[i] >= FW_INF;
            fprintf(o->log, "fw: %d nodes, %zu edges, %zu unreachable pairs after %d steps\n", n, edges,
                    unreachable, n);
        }
        wl_check_i32(r, "dist", got, dist, nn);
    }
    if (d_dist)
        wsFree(ctx, d_dist);
    free(dist);
    free(got);
    return st;
}

const struct workload wl_fw = {
    .name = "fw",
    .summary = "Floyd-Warshall all-pairs shortest paths on a dense integer matrix, one 2D launch per k "
               "(Pannotia FW; 000 cache studies): row k and column k reused by every CTA, n thin launches",
    .tolerance = "exact",
    .run = fw_run,
};
