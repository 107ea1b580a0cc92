/*
 * wg_graph.h - graphs shared by the graph-analytics workloads (sssp_csr,
 * sssp_ell, pagerank, mis, color, bc): a CSR container, a road-network-like
 * weighted grid generator and an undirected power-law graph built from the bfs
 * workload's generator.  Every generator is deterministic in its seed.
 */
#ifndef WARPSIM_WG_GRAPH_H
#define WARPSIM_WG_GRAPH_H

#include <stdint.h>

/* CSR: the neighbours of v are col[rowptr[v] .. rowptr[v+1]), sorted by id,
   no duplicates, no self loops; w (may be NULL) holds one weight per edge. */
struct wg_csr {
    int32_t n, m;
    int32_t *rowptr;   /* n + 1 */
    int32_t *col;      /* m (at least one element, so a device copy is never empty) */
    int32_t *w;        /* m or NULL */
};

/* Road-network-like graph: a gw x gh 4-neighbour grid, undirected (both
   directions stored, same weight), weights uniform in [1, max_w], plus
   `shortcuts` random undirected long edges with weight in [max_w, 4*max_w]
   (highways).  About 4 * gw * gh + 2 * shortcuts directed edges. */
void wg_grid(struct wg_csr *g, int32_t gw, int32_t gh, int32_t max_w, int32_t shortcuts, uint64_t seed);

/* Undirected skewed-degree graph: bfs_graph_generate(num_nodes, avg_degree,
   seed) with every edge stored in both directions, then deduplicated, self
   loops dropped.  Unweighted (w = NULL). */
void wg_powerlaw_undirected(struct wg_csr *g, int32_t num_nodes, int32_t avg_degree, uint64_t seed);

/* Largest number of neighbours of any node. */
int32_t wg_max_degree(const struct wg_csr *g);

void wg_free(struct wg_csr *g);

/* 32-bit integer hash (lowbias32 finalizer), the same on host and device:
   the deterministic "random" priorities of mis and color. */
static inline uint32_t wg_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* CPU reference SSSP (Dijkstra with a binary heap) over a weighted CSR graph:
   dist[v] = shortest distance from src, `unreached` when there is no path. */
void wg_dijkstra(const struct wg_csr *g, int32_t src, int32_t unreached, int32_t *dist);

#endif
