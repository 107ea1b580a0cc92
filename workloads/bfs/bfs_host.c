/*
 * bfs_host.c - driver for bfs.cu: level-synchronous BFS with two kernels per
 * level, the host looping until no node joined the next frontier.
 *
 * Input: a generated skewed-degree graph (bfs_graph_generate), or a Rodinia
 * BFS text file given with --input.  Output check: the cost (level) of every
 * node against a CPU queue-based BFS, exactly.
 */
#include <string.h>

#include "common/wl_util.h"
#include "bfs/bfs_graph.h"

#define BFS_BLOCK 512   /* threads per CTA, as Rodinia's BFS */

struct bfs_state {
    struct bfs_graph g;
    int32_t *cost;          /* result copied back */
    unsigned char *mask;    /* host staging for the initial frontier / visited masks */
    ws_devptr d_nodes, d_edges, d_frontier, d_updating, d_visited, d_cost, d_more;
    int32_t levels;         /* levels the GPU run took */
};

static ws_status bfs_device(ws_ctx *ctx, ws_module *mod, struct bfs_state *s, struct wl_result *r)
{
    const struct bfs_graph *g = &s->g;
    size_t n = (size_t)g->num_nodes;
    WL_TRY(wl_upload(ctx, &s->d_nodes, g->nodes, n * 2 * sizeof(int32_t)));
    /* an edgeless graph still gets a (zeroed dummy) buffer so the pointer is valid; its host
       array is empty, so nothing is copied from it */
    WL_TRY(wl_upload(ctx, &s->d_edges, g->num_edges ? g->edges : NULL,
                     (size_t)(g->num_edges ? g->num_edges : 1) * sizeof(int32_t)));

    /* frontier and visited both start as {source} */
    memset(s->mask, 0, n);
    s->mask[g->source] = 1;
    WL_TRY(wl_upload(ctx, &s->d_frontier, s->mask, n));
    WL_TRY(wl_upload(ctx, &s->d_visited, s->mask, n));
    WL_TRY(wl_upload(ctx, &s->d_updating, NULL, n));
    for (size_t i = 0; i < n; i++)
        s->cost[i] = -1;
    s->cost[g->source] = 0;
    WL_TRY(wl_upload(ctx, &s->d_cost, s->cost, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_more, NULL, sizeof(int32_t)));

    int num_nodes = g->num_nodes;
    void *expand_args[] = {&s->d_nodes, &s->d_edges, &s->d_frontier, &s->d_updating, &s->d_visited, &s->d_cost,
                           &num_nodes};
    void *advance_args[] = {&s->d_frontier, &s->d_updating, &s->d_visited, &s->d_more, &num_nodes};
    ws_dim3 grid = ws_dim((unsigned)((n + BFS_BLOCK - 1) / BFS_BLOCK), 1, 1);
    ws_dim3 block = ws_dim(BFS_BLOCK, 1, 1);

    /* each level adds at least one node, so n+1 rounds bound any correct run */
    WL_TRY(wl_rounds_until_done(ctx, mod, s->d_more, "bfs_expand", expand_args,
                                "bfs_advance", advance_args, grid, block, n, &s->levels, r));
    return wsMemcpyDtoH(ctx, s->cost, s->d_cost, n * sizeof(int32_t));
}

static ws_status bfs_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct bfs_state s;
    memset(&s, 0, sizeof s);
    if (o->input) {
        char err[512];
        int rc = bfs_graph_load(&s.g, o->input, err, sizeof err);
        if (rc != BFS_GRAPH_OK) {
            snprintf(r->detail, sizeof r->detail, "%s", err);
            r->verified = 0;
            r->bad_input = 1;
            return rc == BFS_GRAPH_IO ? WS_ERROR_IO : WS_ERROR_INVALID_VALUE;
        }
    } else {
        /* tiny: 4K nodes; small: 64K nodes, 512K edges; paper: 1M nodes, avg
           degree 6 (the scale of Rodinia's graph1MW_6) */
        int32_t nodes = WL_BY_SIZE(o, 4096, 65536, 1000000);
        int32_t degree = WL_BY_SIZE(o, 8, 8, 6);
        bfs_graph_generate(&s.g, nodes, degree, o->seed);
    }
    size_t n = (size_t)s.g.num_nodes;
    s.cost = wl_alloc(n * sizeof(int32_t));
    s.mask = wl_alloc(n);

    ws_status st = bfs_device(ctx, mod, &s, r);
    if (st == WS_SUCCESS) {
        int32_t *want = wl_alloc(n * sizeof(int32_t));
        int32_t levels = bfs_graph_levels(&s.g, want);
        if (o->verbose) {
            size_t reached = 0;
            for (size_t i = 0; i < n; i++)
                reached += want[i] >= 0;
            fprintf(o->log, "bfs: %d nodes, %d edges, source %d: %zu reachable, %d levels (GPU loop ran %d)\n",
                    s.g.num_nodes, s.g.num_edges, s.g.source, reached, levels, s.levels);
        }
        wl_check_i32(r, "cost", s.cost, want, n);
        free(want);
    }
    ws_devptr *bufs[] = {&s.d_nodes, &s.d_edges, &s.d_frontier, &s.d_updating, &s.d_visited, &s.d_cost, &s.d_more};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    bfs_graph_free(&s.g);
    free(s.cost);
    free(s.mask);
    return st;
}

const struct workload wl_bfs = {
    .name = "bfs",
    .summary = "frontier BFS, two kernels per level (Rodinia style): skewed-degree loop divergence, byte masks, "
               "data-dependent gathers",
    .tolerance = "exact",
    .input_format = "a graph in Rodinia's BFS text format",
    .run = bfs_run,
};
