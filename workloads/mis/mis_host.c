/*
 * mis_host.c - driver for mis.cu: maximal independent set, Luby style with
 * fixed hashed priorities, two kernels per round until no node is undecided
 * (Pannotia MIS; 000 Tables 4.2 / 5.3).
 *
 * Input: an undirected skewed-degree graph (wg_powerlaw_undirected: the bfs
 * generator's graph with every edge in both directions, deduplicated).
 *   tiny  4096 nodes, 4 generated edges per node (~8 neighbours on average)
 *   small 131072 nodes, 4 per node
 *   paper 1000000 nodes, 3 per node (~6M directed edges: the scale of ecology1)
 * Priority of v: wg_hash(v ^ seed), ties broken by the id.
 * Check: the result is independent and maximal, and equal to a CPU replay of
 * the same rounds (exact).
 */
#include <string.h>

#include "common/wl_util.h"
#include "graphgen/wg_graph.h"

#define MIS_BLOCK 256

struct mis_state {
    struct wg_csr g;
    uint32_t seed;
    int32_t rounds;
    unsigned char *status;
    ws_devptr d_rowptr, d_col, d_prio, d_status, d_cand, d_more;
};

static ws_status mis_device(ws_ctx *ctx, ws_module *mod, struct mis_state *s, struct wl_result *r)
{
    size_t n = (size_t)s->g.n;
    WL_TRY(wl_upload(ctx, &s->d_rowptr, s->g.rowptr, (n + 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_col, s->g.col, (size_t)(s->g.m ? s->g.m : 1) * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_prio, NULL, n * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &s->d_status, NULL, n));
    WL_TRY(wl_upload(ctx, &s->d_cand, NULL, n));
    WL_TRY(wl_upload(ctx, &s->d_more, NULL, sizeof(int32_t)));
    int32_t num_nodes = s->g.n;
    ws_dim3 grid = ws_dim((unsigned)((n + MIS_BLOCK - 1) / MIS_BLOCK), 1, 1), block = ws_dim(MIS_BLOCK, 1, 1);
    void *init_args[] = {&s->d_prio, &s->d_status, &s->seed, &num_nodes};
    void *select_args[] = {&s->d_rowptr, &s->d_col, &s->d_prio, &s->d_status, &s->d_cand, &num_nodes};
    void *update_args[] = {&s->d_rowptr, &s->d_col, &s->d_cand, &s->d_status, &s->d_more, &num_nodes};
    WL_TRY(wsLaunchKernel(ctx, mod, "mis_init", grid, block, 0, init_args));
    r->launches++;
    /* every round decides at least the undecided node of highest priority */
    WL_TRY(wl_rounds_until_done(ctx, mod, s->d_more, "mis_select", select_args,
                                "mis_update", update_args, grid, block, n, &s->rounds, r));
    return wsMemcpyDtoH(ctx, s->status, s->d_status, n);
}

/* CPU replay of the same rounds; returns the number of rounds */
static int32_t mis_replay(const struct wg_csr *g, uint32_t seed, unsigned char *status)
{
    size_t n = (size_t)g->n;
    uint32_t *prio = wl_alloc(n * sizeof(uint32_t));
    unsigned char *cand = wl_alloc(n);
    for (size_t v = 0; v < n; v++) {
        prio[v] = wg_hash((uint32_t)v ^ seed);
        status[v] = 0;
    }
    int32_t rounds = 0;
    for (int more = 1; more; rounds++) {
        more = 0;
        for (int32_t v = 0; v < g->n; v++) {
            cand[v] = status[v] == 0;
            for (int32_t e = g->rowptr[v]; cand[v] && e < g->rowptr[v + 1]; e++) {
                int32_t u = g->col[e];
                if (status[u] == 0 && (prio[u] > prio[v] || (prio[u] == prio[v] && u > v)))
                    cand[v] = 0;
            }
        }
        for (int32_t v = 0; v < g->n; v++) {
            if (status[v] != 0)
                continue;
            if (cand[v]) {
                status[v] = 1;
                continue;
            }
            for (int32_t e = g->rowptr[v]; status[v] == 0 && e < g->rowptr[v + 1]; e++)
                if (cand[g->col[e]])
                    status[v] = 2;
            more |= status[v] == 0;
        }
    }
    free(prio);
    free(cand);
    return rounds;
}

static ws_status mis_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct mis_state s;
    memset(&s, 0, sizeof s);
    wg_powerlaw_undirected(&s.g, WL_BY_SIZE(o, 4096, 131072, 1000000), WL_BY_SIZE(o, 4, 4, 3), o->seed);
    s.seed = (uint32_t)(o->seed * 0x9E3779B9u);
    size_t n = (size_t)s.g.n;
    s.status = wl_alloc(n);

    ws_status st = mis_device(ctx, mod, &s, r);
    if (st == WS_SUCCESS) {
        /* independent: no edge inside the set; maximal: every node out of the set has a neighbour in it */
        int32_t bad = -1;
        const char *why = "";
        size_t in_set = 0;
        for (int32_t v = 0; v < s.g.n && bad < 0; v++) {
            int has_in = 0;
            for (int32_t e = s.g.rowptr[v]; e < s.g.rowptr[v + 1]; e++)
                has_in |= s.status[s.g.col[e]] == 1;
            in_set += s.status[v] == 1;
            if (s.status[v] == 1 && has_in)
                bad = v, why = "is in the set with a neighbour in the set (not independent)";
            else if (s.status[v] != 1 && !has_in)
                bad = v, why = "is out of the set with no neighbour in it (not maximal)";
        }
        if (bad >= 0) {
            r->verified = 0;
            snprintf(r->detail, sizeof r->detail, "node %d (status %d) %s", bad, s.status[bad], why);
        }
        unsigned char *want = wl_alloc(n);
        int32_t rounds = mis_replay(&s.g, s.seed, want);
        if (o->verbose)
            fprintf(o->log, "mis: %d nodes, %d directed edges, max degree %d: %zu in the set, %d rounds (CPU %d)\n",
                    s.g.n, s.g.m, wg_max_degree(&s.g), in_set, s.rounds, rounds);
        int32_t *got32 = wl_alloc(n * sizeof(int32_t)), *want32 = wl_alloc(n * sizeof(int32_t));
        for (size_t i = 0; i < n; i++) {
            got32[i] = s.status[i];
            want32[i] = want[i];
        }
        wl_check_i32(r, "status", got32, want32, n);
        if (r->verified)
            snprintf(r->detail, sizeof r->detail,
                     "independent and maximal (%zu of %zu nodes), status: %zu values exact", in_set, n, n);
        free(want);
        free(got32);
        free(want32);
    }
    ws_devptr *bufs[] = {&s.d_rowptr, &s.d_col, &s.d_prio, &s.d_status, &s.d_cand, &s.d_more};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    wg_free(&s.g);
    free(s.status);
    return st;
}

const struct workload wl_mis = {
    .name = "mis",
    .summary = "maximal independent set, Luby style with hashed priorities on an undirected skewed-degree graph "
               "(Pannotia MIS; 000 cache studies): neighbour-status gathers, shrinking active set",
    .tolerance = "exact",
    .run = mis_run,
};
