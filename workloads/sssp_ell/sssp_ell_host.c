/*
 * sssp_ell_host.c - driver for sssp_ell.cu: the sssp_csr workload (Bellman-Ford
 * style rounds with atomicMin until no distance changes) on the same
 * road-network-like graphs, stored in ELLPACK form: width = the largest degree,
 * slot k of node v at k * n + v (column-major, so a warp's lanes read
 * consecutive words), unused slots -1 (Pannotia SSSP's ELL variant; 000 Tables
 * 4.2 / 5.3).
 *
 * Input (wg_grid, weights in [1, 16], source at the centre):
 *   tiny  48 x 48     (2304 nodes)    + 8 shortcuts
 *   small 256 x 256   (65536 nodes)   + 128 shortcuts
 *   paper 512 x 512   (262144 nodes: the scale of DIMACS USA-road-d.NY) + 512 shortcuts
 * Check: every distance against a CPU Dijkstra on the CSR form, exactly.
 */
#include <string.h>

#include "common/wl_util.h"
#include "graphgen/wg_graph.h"

#define SSSP_BLOCK 256
#define SSSP_INF 0x3fffffff   /* unreached: INF + weight cannot overflow */

struct sssp_ell_state {
    struct wg_csr g;
    int32_t src, rounds, width;
    int32_t *ell_col, *ell_w, *dist;
    unsigned char *mask;
    ws_devptr d_col, d_w, d_dist, d_active, d_updated, d_more;
};

static void sssp_ell_build(struct sssp_ell_state *s)
{
    size_t n = (size_t)s->g.n;
    s->width = wg_max_degree(&s->g);
    size_t slots = (size_t)(s->width ? s->width : 1) * n;
    s->ell_col = wl_alloc(slots * sizeof(int32_t));
    s->ell_w = wl_alloc(slots * sizeof(int32_t));
    for (size_t i = 0; i < slots; i++) {
        s->ell_col[i] = -1;
        s->ell_w[i] = 0;
    }
    for (size_t v = 0; v < n; v++)
        for (int32_t e = s->g.rowptr[v], k = 0; e < s->g.rowptr[v + 1]; e++, k++) {
            s->ell_col[(size_t)k * n + v] = s->g.col[e];
            s->ell_w[(size_t)k * n + v] = s->g.w[e];
        }
}

static ws_status sssp_ell_device(ws_ctx *ctx, ws_module *mod, struct sssp_ell_state *s, struct wl_result *r)
{
    size_t n = (size_t)s->g.n, slots = (size_t)(s->width ? s->width : 1) * n;
    WL_TRY(wl_upload(ctx, &s->d_col, s->ell_col, slots * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_w, s->ell_w, slots * sizeof(int32_t)));
    for (size_t i = 0; i < n; i++)
        s->dist[i] = SSSP_INF;
    s->dist[s->src] = 0;
    WL_TRY(wl_upload(ctx, &s->d_dist, s->dist, n * sizeof(int32_t)));
    memset(s->mask, 0, n);
    s->mask[s->src] = 1;
    WL_TRY(wl_upload(ctx, &s->d_active, s->mask, n));
    WL_TRY(wl_upload(ctx, &s->d_updated, NULL, n));
    WL_TRY(wl_upload(ctx, &s->d_more, NULL, sizeof(int32_t)));

    int32_t num_nodes = s->g.n, width = s->width;
    void *relax_args[] = {&s->d_col, &s->d_w, &width, &s->d_dist, &s->d_active, &s->d_updated, &num_nodes};
    void *advance_args[] = {&s->d_active, &s->d_updated, &s->d_more, &num_nodes};
    ws_dim3 grid = ws_dim((unsigned)((n + SSSP_BLOCK - 1) / SSSP_BLOCK), 1, 1), block = ws_dim(SSSP_BLOCK, 1, 1);
    WL_TRY(wl_rounds_until_done(ctx, mod, s->d_more, "sssp_ell_relax", relax_args,
                                "sssp_ell_advance", advance_args, grid, block, n, &s->rounds, r));
    return wsMemcpyDtoH(ctx, s->dist, s->d_dist, n * sizeof(int32_t));
}

static ws_status sssp_ell_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct sssp_ell_state s;
    memset(&s, 0, sizeof s);
    int32_t side = WL_BY_SIZE(o, 48, 256, 512);
    wg_grid(&s.g, side, side, 16, WL_BY_SIZE(o, 8, 128, 512), o->seed);
    s.src = (side / 2) * side + side / 2;
    sssp_ell_build(&s);
    size_t n = (size_t)s.g.n;
    s.dist = wl_alloc(n * sizeof(int32_t));
    s.mask = wl_alloc(n);

    ws_status st = sssp_ell_device(ctx, mod, &s, r);
    if (st == WS_SUCCESS) {
        int32_t *want = wl_alloc(n * sizeof(int32_t));
        wg_dijkstra(&s.g, s.src, SSSP_INF, want);
        if (o->verbose)
            fprintf(o->log, "sssp_ell: %d nodes, %d edges, ELL width %d (%.0f%% of the slots used), %d rounds\n",
                    s.g.n, s.g.m, s.width, 100.0 * s.g.m / ((double)s.width * (double)n), s.rounds);
        wl_check_i32(r, "dist", s.dist, want, n);
        free(want);
    }
    ws_devptr *bufs[] = {&s.d_col, &s.d_w, &s.d_dist, &s.d_active, &s.d_updated, &s.d_more};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    wg_free(&s.g);
    free(s.ell_col);
    free(s.ell_w);
    free(s.dist);
    free(s.mask);
    return st;
}

const struct workload wl_sssp_ell = {
    .name = "sssp_ell",
    .summary = "Bellman-Ford SSSP over a column-major ELLPACK graph (road-like weighted grid with shortcuts), "
               "atomicMin relaxation until no change (Pannotia SSSP ELL; 000 cache studies): coalesced padded lists",
    .tolerance = "exact",
    .run = sssp_ell_run,
};
