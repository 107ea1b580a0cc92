/*
 * color_host.c - driver for color.cu: graph colouring, Jones-Plassmann style
 * with hashed priorities, two kernels per round until every node has a colour
 * (Pannotia colouring; 000 Tables 4.2 / 5.3).
 *
 * Input: an undirected skewed-degree graph (wg_powerlaw_undirected).
 *   tiny  2048 nodes, 4 generated edges per node (~8 neighbours on average)
 *   small 65536 nodes, 4 per node
 *   paper 1000000 nodes, 3 per node (~6M directed edges: the scale of ecology1)
 * Priority of v: wg_hash(v ^ seed), ties broken by the id.
 * Check: the colouring is valid (no edge joins two equal colours, every node
 * coloured) and equal to a CPU replay of the same rounds (exact).
 */
#include <string.h>

#include "common/wl_util.h"
#include "graphgen/wg_graph.h"

#define COLOR_BLOCK 256

struct color_state {
    struct wg_csr g;
    uint32_t seed;
    int32_t rounds;
    int32_t *color;
    ws_devptr d_rowptr, d_col, d_prio, d_color, d_scan, d_cand, d_more;
};

static ws_status color_device(ws_ctx *ctx, ws_module *mod, struct color_state *s, struct wl_result *r)
{
    size_t n = (size_t)s->g.n;
    WL_TRY(wl_upload(ctx, &s->d_rowptr, s->g.rowptr, (n + 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_col, s->g.col, (size_t)(s->g.m ? s->g.m : 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_prio, NULL, n * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &s->d_color, NULL, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_scan, NULL, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_cand, NULL, n));
    WL_TRY(wl_upload(ctx, &s->d_more, NULL, sizeof(int32_t)));
    int32_t num_nodes = s->g.n;
    ws_dim3 grid = ws_dim((unsigned)((n + COLOR_BLOCK - 1) / COLOR_BLOCK), 1, 1), block = ws_dim(COLOR_BLOCK, 1, 1);
    void *init_args[] = {&s->d_rowptr, &s->d_prio, &s->d_color, &s->d_scan, &s->seed, &num_nodes};
    void *select_args[] = {&s->d_rowptr, &s->d_col,  &s->d_prio, &s->d_color,
                           &s->d_scan,   &s->d_cand, &s->d_more, &num_nodes};
    void *assign_args[] = {&s->d_rowptr, &s->d_col, &s->d_cand, &s->d_color, &num_nodes};
    WL_TRY(wsLaunchKernel(ctx, mod, "color_init", grid, block, 0, init_args));
    r->launches++;
    /* every round colours at least the uncoloured node of highest priority */
    WL_TRY(wl_rounds_until_done(ctx, mod, s->d_more, "color_select", select_args,
                                "color_assign", assign_args, grid, block, n, &s->rounds, r));
    return wsMemcpyDtoH(ctx, s->color, s->d_color, n * sizeof(int32_t));
}

/* CPU replay of the same rounds; returns the number of rounds that found an uncoloured node */
static int32_t color_replay(const struct wg_csr *g, uint32_t seed, int32_t *color)
{
    size_t n = (size_t)g->n;
    uint32_t *prio = wl_alloc(n * sizeof(uint32_t));
    unsigned char *cand = wl_alloc(n);
    unsigned char *used = wl_alloc(n + 1);
    for (size_t v = 0; v < n; v++) {
        prio[v] = wg_hash((uint32_t)v ^ seed);
        color[v] = -1;
    }
    int32_t rounds = 0;
    for (int more = 1; more; rounds++) {
        more = 0;
        for (int32_t v = 0; v < g->n; v++) {
            cand[v] = color[v] < 0;
            more |= color[v] < 0;
            for (int32_t e = g->rowptr[v]; cand[v] && e < g->rowptr[v + 1]; e++) {
                int32_t u = g->col[e];
                if (color[u] < 0 && (prio[u] > prio[v] || (prio[u] == prio[v] && u > v)))
                    cand[v] = 0;
            }
        }
        for (int32_t v = 0; v < g->n; v++) {
            if (!cand[v])
                continue;
            int32_t deg = g->rowptr[v + 1] - g->rowptr[v];   /* first fit never needs a colour above deg */
            memset(used, 0, (size_t)deg + 1);
            for (int32_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++)
                if (color[g->col[e]] >= 0 && color[g->col[e]] <= deg)
                    used[color[g->col[e]]] = 1;
            int32_t c = 0;
            while (used[c])
                c++;
            color[v] = c;
        }
    }
    free(prio);
    free(cand);
    free(used);
    return rounds;
}

static ws_status color_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct color_state s;
    memset(&s, 0, sizeof s);
    wg_powerlaw_undirected(&s.g, WL_BY_SIZE(o, 2048, 65536, 1000000), WL_BY_SIZE(o, 4, 4, 3), o->seed);
    s.seed = (uint32_t)(o->seed * 0x85EBCA6Bu);
    size_t n = (size_t)s.g.n;
    s.color = wl_alloc(n * sizeof(int32_t));

    ws_status st = color_device(ctx, mod, &s, r);
    if (st == WS_SUCCESS) {
        int32_t colors = 0;
        for (int32_t v = 0; v < s.g.n && r->verified; v++) {
            if (s.color[v] + 1 > colors)
                colors = s.color[v] + 1;
            if (s.color[v] < 0) {
                r->verified = 0;
                snprintf(r->detail, sizeof r->detail, "node %d has no colour", v);
            }
            for (int32_t e = s.g.rowptr[v]; e < s.g.rowptr[v + 1] && r->verified; e++)
                if (s.color[s.g.col[e]] == s.color[v]) {
                    r->verified = 0;
                    snprintf(r->detail, sizeof r->detail, "invalid colouring: edge %d-%d, both colour %d", v,
                             s.g.col[e], s.color[v]);
                }
        }
        int32_t *want = wl_alloc(n * sizeof(int32_t));
        int32_t rounds = color_replay(&s.g, s.seed, want);
        if (o->verbose)
            fprintf(o->log, "color: %d nodes, %d directed edges, max degree %d: %d colours, %d rounds (CPU %d)\n",
                    s.g.n, s.g.m, wg_max_degree(&s.g), colors, s.rounds, rounds);
        wl_check_i32(r, "color", s.color, want, n);
        if (r->verified)
            snprintf(r->detail, sizeof r->detail, "valid colouring with %d colours, color: %zu values exact", colors,
                     n);
        free(want);
    }
    ws_devptr *bufs[] = {&s.d_rowptr, &s.d_col, &s.d_prio, &s.d_color, &s.d_scan, &s.d_cand, &s.d_more};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    wg_free(&s.g);
    free(s.color);
    return st;
}

const struct workload wl_color = {
    .name = "color",
    .summary = "graph colouring, Jones-Plassmann with hashed priorities and first-fit colours on an undirected "
               "skewed-degree graph (Pannotia colour; 000 cache studies): neighbour gathers, many shrinking rounds",
    .tolerance = "exact",
    .run = color_run,
};
