/*
 * sssp_csr_host.c - driver for sssp_csr.cu: single-source shortest paths on a
 * road-network-like graph, Bellman-Ford style rounds (relax the active nodes'
 * edges with atomicMin, then advance the active set) until a round changes no
 * distance (Pannotia SSSP; 000 Tables 4.2 / 5.3).
 *
 * Input: a gw x gh grid with random integer weights in [1, 16] and a few
 * random long "highway" edges (wg_grid), source at the centre.
 *   tiny  48 x 48     (2304 nodes)    + 8 shortcuts
 *   small 256 x 256   (65536 nodes)   + 128 shortcuts
 *   paper 512 x 512   (262144 nodes, 1M edges: the scale of DIMACS USA-road-d.NY) + 512 shortcuts
 * Check: every distance against a CPU Dijkstra, exactly.
 */
#include <string.h>

#include "common/wl_util.h"
#include "graphgen/wg_graph.h"

#define SSSP_BLOCK 256
#define SSSP_INF 0x3fffffff   /* unreached: INF + weight cannot overflow */

struct sssp_state {
    struct wg_csr g;
    int32_t src, rounds;
    int32_t *dist;
    unsigned char *mask;
    ws_devptr d_rowptr, d_col, d_w, d_dist, d_active, d_updated, d_more;
};

static ws_status sssp_device(ws_ctx *ctx, ws_module *mod, struct sssp_state *s, struct wl_result *r)
{
    const struct wg_csr *g = &s->g;
    size_t n = (size_t)g->n, m = (size_t)(g->m ? g->m : 1);
    WL_TRY(wl_upload(ctx, &s->d_rowptr, g->rowptr, (n + 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_col, g->col, m * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_w, g->w, m * sizeof(int32_t)));
    for (size_t i = 0; i < n; i++)
        s->dist[i] = SSSP_INF;
    s->dist[s->src] = 0;
    WL_TRY(wl_upload(ctx, &s->d_dist, s->dist, n * sizeof(int32_t)));
    memset(s->mask, 0, n);
    s->mask[s->src] = 1;
    WL_TRY(wl_upload(ctx, &s->d_active, s->mask, n));
    WL_TRY(wl_upload(ctx, &s->d_updated, NULL, n));
    WL_TRY(wl_upload(ctx, &s->d_more, NULL, sizeof(int32_t)));

    int32_t num_nodes = g->n;
    void *relax_args[] = {&s->d_rowptr, &s->d_col, &s->d_w, &s->d_dist, &s->d_active, &s->d_updated, &num_nodes};
    void *advance_args[] = {&s->d_active, &s->d_updated, &s->d_more, &num_nodes};
    ws_dim3 grid = ws_dim((unsigned)((n + SSSP_BLOCK - 1) / SSSP_BLOCK), 1, 1), block = ws_dim(SSSP_BLOCK, 1, 1);
    /* Bellman-Ford: a correct run needs at most n rounds */
    WL_TRY(wl_rounds_until_done(ctx, mod, s->d_more, "sssp_relax", relax_args,
                                "sssp_advance", advance_args, grid, block, n, &s->rounds, r));
    return wsMemcpyDtoH(ctx, s->dist, s->d_dist, n * sizeof(int32_t));
}

static ws_status sssp_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct sssp_state s;
    memset(&s, 0, sizeof s);
    int32_t side = WL_BY_SIZE(o, 48, 256, 512);
    wg_grid(&s.g, side, side, 16, WL_BY_SIZE(o, 8, 128, 512), o->seed);
    s.src = (side / 2) * side + side / 2;
    size_t n = (size_t)s.g.n;
    s.dist = wl_alloc(n * sizeof(int32_t));
    s.mask = wl_alloc(n);

    ws_status st = sssp_device(ctx, mod, &s, r);
    if (st == WS_SUCCESS) {
        int32_t *want = wl_alloc(n * sizeof(int32_t));
        wg_dijkstra(&s.g, s.src, SSSP_INF, want);
        if (o->verbose) {
            int32_t far = 0;
            for (size_t i = 0; i < n; i++)
                if (want[i] != SSSP_INF && want[i] > far)
                    far = want[i];
            fprintf(o->log, "sssp_csr: %d nodes, %d edges, source %d, farthest node at %d, %d rounds\n", s.g.n,
                    s.g.m, s.src, far, s.rounds);
        }
        wl_check_i32(r, "dist", s.dist, want, n);
        free(want);
    }
    ws_devptr *bufs[] = {&s.d_rowptr, &s.d_col, &s.d_w, &s.d_dist, &s.d_active, &s.d_updated, &s.d_more};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    wg_free(&s.g);
    free(s.dist);
    free(s.mask);
    return st;
}

const struct workload wl_sssp_csr = {
    .name = "sssp_csr",
    .summary = "Bellman-Ford SSSP over CSR on a weighted road-like grid with shortcuts, atomicMin relaxation "
               "until no change (Pannotia SSSP; 000 cache studies): many thin rounds, scattered atomics",
    .tolerance = "exact",
    .run = sssp_run,
};
