/*
 * wg_graph.c - generators for the graph-analytics workloads (wg_graph.h).
 */
#include "graphgen/wg_graph.h"

#include <stdlib.h>
#include <string.h>

#include "bfs/bfs_graph.h"
#include "common/wl_util.h"

void wg_free(struct wg_csr *g)
{
    free(g->rowptr);
    free(g->col);
    free(g->w);
    memset(g, 0, sizeof *g);
}

int32_t wg_max_degree(const struct wg_csr *g)
{
    int32_t best = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (g->rowptr[v + 1] - g->rowptr[v] > best)
            best = g->rowptr[v + 1] - g->rowptr[v];
    return best;
}

/* An edge list (src, dst, weight) turned into CSR: sorted by (source,
   destination), parallel edges merged (the lightest weight kept), self loops
   dropped. */
struct wg_edge { int32_t s, d, w; };

static int wg_cmp_edge(const void *pa, const void *pb)
{
    const struct wg_edge *a = pa, *b = pb;
    if (a->s != b->s)
        return (a->s > b->s) - (a->s < b->s);
    return (a->d > b->d) - (a->d < b->d);
}

static void wg_from_edges(struct wg_csr *g, int32_t n, struct wg_edge *e, size_t ne, int weighted)
{
    /* equal (s, d) pairs may come out of qsort in any order: keeping the lightest weight makes the
       result independent of it */
    for (size_t i = 0; i < ne; i++)
        if (!weighted)
            e[i].w = 0;
    qsort(e, ne, sizeof *e, wg_cmp_edge);
    g->n = n;
    g->rowptr = wl_alloc(((size_t)n + 1) * sizeof(int32_t));
    g->col = wl_alloc((ne ? ne : 1) * sizeof(int32_t));
    g->w = weighted ? wl_alloc((ne ? ne : 1) * sizeof(int32_t)) : NULL;
    g->col[0] = 0;
    if (g->w)
        g->w[0] = 0;
    size_t m = 0, i = 0;
    for (int32_t v = 0; v < n; v++) {
        g->rowptr[v] = (int32_t)m;
        for (; i < ne && e[i].s == v; i++) {
            if (e[i].d == v)
                continue;
            if (m > (size_t)g->rowptr[v] && g->col[m - 1] == e[i].d) {
                if (g->w && e[i].w < g->w[m - 1])
                    g->w[m - 1] = e[i].w;   /* parallel edges: keep the lightest */
                continue;
            }
            g->col[m] = e[i].d;
            if (g->w)
                g->w[m] = e[i].w;
            m++;
        }
    }
    g->rowptr[n] = (int32_t)m;
    g->m = (int32_t)m;
}

void wg_grid(struct wg_csr *g, int32_t gw, int32_t gh, int32_t max_w, int32_t shortcuts, uint64_t seed)
{
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    int32_t n = gw * gh;
    size_t cap = 4 * (size_t)n + 2 * (size_t)shortcuts, ne = 0;
    struct wg_edge *e = wl_alloc(cap * sizeof *e);
    for (int32_t y = 0; y < gh; y++)
        for (int32_t x = 0; x < gw; x++) {
            int32_t v = y * gw + x;
            if (x + 1 < gw) {
                int32_t w = 1 + (int32_t)wl_rng_below(&rng, (uint32_t)max_w);
                e[ne++] = (struct wg_edge){v, v + 1, w};
                e[ne++] = (struct wg_edge){v + 1, v, w};
            }
            if (y + 1 < gh) {
                int32_t w = 1 + (int32_t)wl_rng_below(&rng, (uint32_t)max_w);
                e[ne++] = (struct wg_edge){v, v + gw, w};
                e[ne++] = (struct wg_edge){v + gw, v, w};
            }
        }
    for (int32_t k = 0; k < shortcuts; k++) {
        int32_t a = (int32_t)wl_rng_below(&rng, (uint32_t)n), b = (int32_t)wl_rng_below(&rng, (uint32_t)n);
        int32_t w = max_w + (int32_t)wl_rng_below(&rng, (uint32_t)(3 * max_w + 1));
        e[ne++] = (struct wg_edge){a, b, w};
        e[ne++] = (struct wg_edge){b, a, w};
    }
    wg_from_edges(g, n, e, ne, 1);
    free(e);
}

void wg_powerlaw_undirected(struct wg_csr *g, int32_t num_nodes, int32_t avg_degree, uint64_t seed)
{
    struct bfs_graph bg;
    bfs_graph_generate(&bg, num_nodes, avg_degree, seed);
    size_t ne = 0, cap = 2 * (size_t)bg.num_edges + 1;
    struct wg_edge *e = wl_alloc(cap * sizeof *e);
    for (int32_t v = 0; v < bg.num_nodes; v++) {
        int32_t start = bg.nodes[2 * v], deg = bg.nodes[2 * v + 1];
        for (int32_t k = start; k < start + deg; k++) {
            e[ne++] = (struct wg_edge){v, bg.edges[k], 0};
            e[ne++] = (struct wg_edge){bg.edges[k], v, 0};
        }
    }
    wg_from_edges(g, bg.num_nodes, e, ne, 0);
    free(e);
    bfs_graph_free(&bg);
}

/* ---- CPU Dijkstra: lazy binary heap of (distance, node) ------------------- */

struct wg_heap_item { int64_t d; int32_t v; };

static void wg_heap_push(struct wg_heap_item *h, size_t *len, struct wg_heap_item it)
{
    size_t i = (*len)++;
    while (i > 0 && h[(i - 1) / 2].d > it.d) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = it;
}

static struct wg_heap_item wg_heap_pop(struct wg_heap_item *h, size_t *len)
{
    struct wg_heap_item top = h[0], last = h[--*len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *len)
            break;
        if (c + 1 < *len && h[c + 1].d < h[c].d)
            c++;
        if (h[c].d >= last.d)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*len > 0)
        h[i] = last;
    return top;
}

void wg_dijkstra(const struct wg_csr *g, int32_t src, int32_t unreached, int32_t *dist)
{
    size_t n = (size_t)g->n, len = 0;
    /* every successful relaxation pushes once: at most m + 1 items */
    struct wg_heap_item *h = wl_alloc(((size_t)g->m + 1) * sizeof *h);
    for (size_t i = 0; i < n; i++)
        dist[i] = unreached;
    dist[src] = 0;
    wg_heap_push(h, &len, (struct wg_heap_item){0, src});
    while (len > 0) {
        struct wg_heap_item it = wg_heap_pop(h, &len);
        if (it.d != dist[it.v])
            continue;   /* stale entry */
        for (int32_t e = g->rowptr[it.v]; e < g->rowptr[it.v + 1]; e++) {
            int32_t u = g->col[e];
            int64_t nd = it.d + g->w[e];
            if (nd < dist[u]) {
                dist[u] = (int32_t)nd;
                wg_heap_push(h, &len, (struct wg_heap_item){nd, u});
            }
        }
    }
    free(h);
}
