/*
 * pagerank_host.c - driver for pagerank.cu: a fixed number of PageRank power
 * iterations (damping 0.85), each a contribution kernel and a pull-based CSR
 * SpMV over the in-edges (Pannotia PageRank; 000 Tables 4.2 / 5.3).
 *
 * Input: the bfs workload's skewed-degree directed graph (bfs_graph_generate:
 * power-law out-degrees, a quarter of the edges to nearby ids), transposed to
 * in-edge CSR; ranks start at 1/n.
 *   tiny  4096 nodes, 8 edges per node, 5 iterations
 *   small 131072 nodes, 8 edges per node, 5 iterations
 *   paper 300000 nodes, 6 edges per node, 10 iterations (the scale of coAuthorsDBLP)
 * Check: the same float operations on the CPU in the same order (a division,
 * in-order sums, one fmaf), so the ranks are expected bit-identical; the
 * check allows rel 1e-5.
 */
#include <math.h>
#include <string.h>

#include "bfs/bfs_graph.h"
#include "common/wl_util.h"

#define PR_BLOCK 256
#define PR_DAMPING 0.85f

struct pr_state {
    int32_t n, m;
    int32_t *in_rowptr, *in_col, *outdeg;
    float *rank;
    ws_devptr d_rowptr, d_col, d_outdeg, d_rank, d_next, d_contrib;
};

/* transpose the generator's out-edge lists: in_col of v lists its sources in increasing id order */
static void pr_build(struct pr_state *s, const struct bfs_graph *g)
{
    size_t n = (size_t)g->num_nodes;
    s->n = g->num_nodes;
    s->m = g->num_edges;
    s->outdeg = wl_alloc(n * sizeof(int32_t));
    s->in_rowptr = wl_alloc((n + 1) * sizeof(int32_t));
    s->in_col = wl_alloc((size_t)(s->m ? s->m : 1) * sizeof(int32_t));
    memset(s->in_rowptr, 0, (n + 1) * sizeof(int32_t));
    for (size_t u = 0; u < n; u++) {
        s->outdeg[u] = g->nodes[2 * u + 1];
        for (int32_t e = g->nodes[2 * u]; e < g->nodes[2 * u] + g->nodes[2 * u + 1]; e++)
            s->in_rowptr[g->edges[e] + 1]++;
    }
    for (size_t v = 0; v < n; v++)
        s->in_rowptr[v + 1] += s->in_rowptr[v];
    int32_t *fill = wl_alloc(n * sizeof(int32_t));
    memcpy(fill, s->in_rowptr, n * sizeof(int32_t));
    for (size_t u = 0; u < n; u++)
        for (int32_t e = g->nodes[2 * u]; e < g->nodes[2 * u] + g->nodes[2 * u + 1]; e++)
            s->in_col[fill[g->edges[e]]++] = (int32_t)u;
    free(fill);
}

static ws_status pr_device(ws_ctx *ctx, ws_module *mod, struct pr_state *s, int iters, float base,
                           struct wl_result *r)
{
    size_t n = (size_t)s->n;
    WL_TRY(wl_upload(ctx, &s->d_rowptr, s->in_rowptr, (n + 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_col, s->in_col, (size_t)(s->m ? s->m : 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_outdeg, s->outdeg, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_rank, s->rank, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_next, NULL, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_contrib, NULL, n * sizeof(float)));
    ws_dim3 grid = ws_dim((unsigned)((n + PR_BLOCK - 1) / PR_BLOCK), 1, 1), block = ws_dim(PR_BLOCK, 1, 1);
    float damping = PR_DAMPING;
    int32_t num_nodes = s->n;
    ws_devptr in = s->d_rank, out = s->d_next;
    for (int it = 0; it < iters; it++) {
        void *contrib_args[] = {&in, &s->d_outdeg, &s->d_contrib, &num_nodes};
        void *pull_args[] = {&s->d_rowptr, &s->d_col, &s->d_contrib, &base, &damping, &out, &num_nodes};
        WL_TRY(wsLaunchKernel(ctx, mod, "pr_contrib", grid, block, 0, contrib_args));
        WL_TRY(wsLaunchKernel(ctx, mod, "pr_pull", grid, block, 0, pull_args));
        r->launches += 2;
        ws_devptr t = in;
        in = out;
        out = t;
    }
    return wsMemcpyDtoH(ctx, s->rank, in, n * sizeof(float));
}

static ws_status pr_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct pr_state s;
    memset(&s, 0, sizeof s);
    struct bfs_graph g;
    bfs_graph_generate(&g, WL_BY_SIZE(o, 4096, 131072, 300000), WL_BY_SIZE(o, 8, 8, 6), o->seed);
    pr_build(&s, &g);
    bfs_graph_free(&g);
    int iters = WL_BY_SIZE(o, 5, 5, 10);
    size_t n = (size_t)s.n;
    float base = (1.0f - PR_DAMPING) / (float)s.n;
    s.rank = wl_alloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        s.rank[i] = 1.0f / (float)s.n;

    ws_status st = pr_device(ctx, mod, &s, iters, base, r);
    if (st == WS_SUCCESS) {
        float *cur = wl_alloc(n * sizeof(float)), *next = wl_alloc(n * sizeof(float));
        float *contrib = wl_alloc(n * sizeof(float));
        for (size_t i = 0; i < n; i++)
            cur[i] = 1.0f / (float)s.n;
        for (int it = 0; it < iters; it++) {
            for (size_t u = 0; u < n; u++)
                contrib[u] = s.outdeg[u] > 0 ? cur[u] / (float)s.outdeg[u] : 0.0f;
            for (size_t v = 0; v < n; v++) {
                float sum = 0.0f;
                for (int32_t e = s.in_rowptr[v]; e < s.in_rowptr[v + 1]; e++)
                    sum += contrib[s.in_col[e]];
                next[v] = fmaf(PR_DAMPING, sum, base);
            }
            float *t = cur;
            cur = next;
            next = t;
        }
        if (o->verbose) {
            double total = 0.0;
            size_t best = 0;
            for (size_t i = 0; i < n; i++) {
                total += cur[i];
                if (cur[i] > cur[best])
                    best = i;
            }
            fprintf(o->log, "pagerank: %d nodes, %d edges, %d iterations: rank sum %.4f, top node %zu (%.3g)\n",
                    s.n, s.m, iters, total, best, (double)cur[best]);
        }
        wl_check_f32(r, "rank", s.rank, cur, n, 1e-5, 0.0);
        free(cur);
        free(next);
        free(contrib);
    }
    ws_devptr *bufs[] = {&s.d_rowptr, &s.d_col, &s.d_outdeg, &s.d_rank, &s.d_next, &s.d_contrib};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    free(s.in_rowptr);
    free(s.in_col);
    free(s.outdeg);
    free(s.rank);
    return st;
}

const struct workload wl_pagerank = {
    .name = "pagerank",
    .summary = "PageRank power iterations as pull-based CSR SpMV over in-edges of a skewed-degree graph "
               "(Pannotia PageRank; 000 cache studies): gathers of the contribution vector, loop divergence",
    .tolerance = "rel 1e-5 (CPU replays the same float operations in the same order: bit-identical expected)",
    .run = pr_run,
};
