/*
 * bc_host.c - driver for bc.cu: betweenness centrality from a few sources
 * (Brandes: a forward BFS counting shortest paths, then a backward sweep
 * accumulating dependencies), one launch per BFS level in each direction
 * (Pannotia BC; 000 Tables 4.2 / 5.3).
 *
 * Input: an undirected skewed-degree graph (wg_powerlaw_undirected); sources
 * are hashed node ids, moved forward to the next node with a neighbour.
 *   tiny  2048 nodes, 4 generated edges per node (~8 neighbours), 2 sources
 *   small 65536 nodes, 4 per node, 2 sources
 *   paper 262144 nodes, 4 per node, 8 sources
 * Check: (1) a CPU replay of the same level-synchronous float operations in
 * the same order (bit-identical expected; rel 1e-5 allowed); (2) classic
 * queue-based Brandes in double precision, rel 1e-3 + abs 1e-3 (float path
 * counts and a different summation order).
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"
#include "graphgen/wg_graph.h"

#define BC_BLOCK 256

struct bc_state {
    struct wg_csr g;
    int32_t nsrc, *src, levels;
    float *bc;
    ws_devptr d_rowptr, d_col, d_depth, d_sigma, d_delta, d_bc, d_more;
};

static ws_status bc_device(ws_ctx *ctx, ws_module *mod, struct bc_state *s, struct wl_result *r)
{
    size_t n = (size_t)s->g.n;
    WL_TRY(wl_upload(ctx, &s->d_rowptr, s->g.rowptr, (n + 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_col, s->g.col, (size_t)(s->g.m ? s->g.m : 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_depth, NULL, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_sigma, NULL, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_delta, NULL, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_bc, NULL, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_more, NULL, sizeof(int32_t)));
    int32_t num_nodes = s->g.n, level = 0, source = 0;
    ws_dim3 grid = ws_dim((unsigned)((n + BC_BLOCK - 1) / BC_BLOCK), 1, 1), block = ws_dim(BC_BLOCK, 1, 1);
    void *init_args[] = {&s->d_depth, &s->d_sigma, &s->d_delta, &source, &num_nodes};
    void *fwd_args[] = {&s->d_rowptr, &s->d_col, &s->d_depth, &s->d_sigma, &level, &s->d_more, &num_nodes};
    void *bwd_args[] = {&s->d_rowptr, &s->d_col, &s->d_depth, &s->d_sigma, &s->d_delta, &s->d_bc,
                        &level,       &source,   &num_nodes};
    s->levels = 0;
    for (int32_t i = 0; i < s->nsrc; i++) {
        source = s->src[i];
        WL_TRY(wsLaunchKernel(ctx, mod, "bc_init", grid, block, 0, init_args));
        r->launches++;
        /* forward: after the launch for level L, the nodes at depth L+1 are known */
        int32_t more = 1;
        for (level = 0; (size_t)level < n; level++) {
            more = 0;
            WL_TRY(wsMemcpyHtoD(ctx, s->d_more, &more, sizeof more));
            WL_TRY(wsLaunchKernel(ctx, mod, "bc_forward", grid, block, 0, fwd_args));
            r->launches++;
            WL_TRY(wsMemcpyDtoH(ctx, &more, s->d_more, sizeof more));
            if (!more)
                break;
        }
        s->levels += level + 1;
        /* backward: the deepest level has no successors (delta 0), so start one above it */
        for (level = level - 1; level >= 0; level--) {
            WL_TRY(wsLaunchKernel(ctx, mod, "bc_backward", grid, block, 0, bwd_args));
            r->launches++;
        }
    }
    return wsMemcpyDtoH(ctx, s->bc, s->d_bc, n * sizeof(float));
}

/* CPU replay of the kernels' float operations, level by level, in the same order */
static void bc_replay(const struct wg_csr *g, const int32_t *srcs, int32_t nsrc, float *bc)
{
    size_t n = (size_t)g->n;
    int32_t *depth = wl_alloc(n * sizeof(int32_t));
    float *sigma = wl_alloc(n * sizeof(float)), *delta = wl_alloc(n * sizeof(float));
    memset(bc, 0, n * sizeof(float));
    for (int32_t i = 0; i < nsrc; i++) {
        for (size_t v = 0; v < n; v++) {
            depth[v] = -1;
            sigma[v] = delta[v] = 0.0f;
        }
        depth[srcs[i]] = 0;
        sigma[srcs[i]] = 1.0f;
        int32_t level = 0;
        for (int more = 1; more; level++) {
            more = 0;
            for (int32_t v = 0; v < g->n; v++) {
                if (depth[v] >= 0)
                    continue;
                float paths = 0.0f;
                int found = 0;
                for (int32_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++)
                    if (depth[g->col[e]] == level) {
                        paths += sigma[g->col[e]];
                        found = 1;
                    }
                if (found) {
                    depth[v] = level + 1;
                    sigma[v] = paths;
                    more = 1;
                }
            }
        }
        for (level -= 2; level >= 0; level--)
            for (int32_t v = 0; v < g->n; v++) {
                if (depth[v] != level)
                    continue;
                float acc = 0.0f;
                for (int32_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++) {
                    int32_t w = g->col[e];
                    if (depth[w] == level + 1)
                        acc = fmaf(sigma[v] / sigma[w], 1.0f + delta[w], acc);
                }
                delta[v] = acc;
                if (v != srcs[i])
                    bc[v] += acc;
            }
    }
    free(depth);
    free(sigma);
    free(delta);
}

/* classic Brandes with a queue, double precision: an independent check of the algorithm */
static void bc_brandes(const struct wg_csr *g, const int32_t *srcs, int32_t nsrc, float *bc)
{
    size_t n = (size_t)g->n;
    int32_t *depth = wl_alloc(n * sizeof(int32_t)), *order = wl_alloc(n * sizeof(int32_t));
    double *sigma = wl_alloc(n * sizeof(double)), *delta = wl_alloc(n * sizeof(double));
    double *acc = wl_alloc(n * sizeof(double));
    memset(acc, 0, n * sizeof(double));
    for (int32_t i = 0; i < nsrc; i++) {
        for (size_t v = 0; v < n; v++) {
            depth[v] = -1;
            sigma[v] = delta[v] = 0.0;
        }
        size_t head = 0, tail = 0;
        depth[srcs[i]] = 0;
        sigma[srcs[i]] = 1.0;
        order[tail++] = srcs[i];
        while (head < tail) {
            int32_t v = order[head++];
            for (int32_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++) {
                int32_t w = g->col[e];
                if (depth[w] < 0) {
                    depth[w] = depth[v] + 1;
                    order[tail++] = w;
                }
                if (depth[w] == depth[v] + 1)
                    sigma[w] += sigma[v];
            }
        }
        while (tail > 0) {
            int32_t w = order[--tail];
            for (int32_t e = g->rowptr[w]; e < g->rowptr[w + 1]; e++) {
                int32_t v = g->col[e];
                if (depth[v] == depth[w] - 1)
                    delta[v] += sigma[v] / sigma[w] * (1.0 + delta[w]);
            }
            if (w != srcs[i])
                acc[w] += delta[w];
        }
    }
    for (size_t v = 0; v < n; v++)
        bc[v] = (float)acc[v];
    free(depth);
    free(order);
    free(sigma);
    free(delta);
    free(acc);
}

static ws_status bc_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct bc_state s;
    memset(&s, 0, sizeof s);
    wg_powerlaw_undirected(&s.g, WL_BY_SIZE(o, 2048, 65536, 262144), 4, o->seed);
    size_t n = (size_t)s.g.n;
    s.nsrc = WL_BY_SIZE(o, 2, 2, 8);
    s.src = wl_alloc((size_t)s.nsrc * sizeof(int32_t));
    for (int32_t i = 0; i < s.nsrc; i++) {
        int32_t v = (int32_t)(wg_hash((uint32_t)i ^ (uint32_t)(o->seed * 0xC2B2AE35u)) % (uint32_t)s.g.n);
        for (int32_t k = 0; k < s.g.n && s.g.rowptr[v + 1] == s.g.rowptr[v]; k++)
            v = (v + 1) % s.g.n;
        s.src[i] = v;
    }
    s.bc = wl_alloc(n * sizeof(float));

    ws_status st = bc_device(ctx, mod, &s, r);
    if (st == WS_SUCCESS) {
        float *want = wl_alloc(n * sizeof(float)), *ref = wl_alloc(n * sizeof(float));
        bc_replay(&s.g, s.src, s.nsrc, want);
        bc_brandes(&s.g, s.src, s.nsrc, ref);
        if (o->verbose) {
            size_t best = 0;
            for (size_t v = 0; v < n; v++)
                if (want[v] > want[best])
                    best = v;
            fprintf(o->log, "bc: %d nodes, %d directed edges, %d sources, %d BFS levels in all; top node %zu (%.4g)\n",
                    s.g.n, s.g.m, s.nsrc, s.levels, best, (double)want[best]);
        }
        wl_check_f32(r, "bc (replay)", s.bc, want, n, 1e-5, 0.0);
        wl_check_f32(r, "bc (double Brandes)", s.bc, ref, n, 1e-3, 1e-3);
        free(want);
        free(ref);
    }
    ws_devptr *bufs[] = {&s.d_rowptr, &s.d_col, &s.d_depth, &s.d_sigma, &s.d_delta, &s.d_bc, &s.d_more};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    wg_free(&s.g);
    free(s.src);
    free(s.bc);
    return st;
}

const struct workload wl_bc = {
    .name = "bc",
    .summary = "betweenness centrality (Brandes) from a few sources on an undirected skewed-degree graph, "
               "pull-based level-synchronous forward and backward sweeps (Pannotia BC; 000 cache studies)",
    .tolerance = "rel 1e-5 vs a same-order CPU replay (bit-identical expected); rel 1e-3 + abs 1e-3 vs double Brandes",
    .run = bc_run,
};
