/*
 * bfs_graph.h - graphs for the bfs workload: a reader for Rodinia's BFS text
 * format, a deterministic skewed-degree generator, and the CPU reference BFS.
 *
 * Rodinia's format, whitespace separated (blank lines are allowed anywhere):
 *     <node count>
 *     <start> <degree>            one line per node: its edges are edges[start .. start+degree)
 *     <source node>
 *     <edge count>
 *     <destination> <weight>      one line per edge (the weight is read and ignored)
 */
#ifndef WARPSIM_BFS_GRAPH_H
#define WARPSIM_BFS_GRAPH_H

#include <stddef.h>
#include <stdint.h>

struct bfs_graph {
    int32_t num_nodes;
    int32_t num_edges;
    int32_t source;
    int32_t *nodes;     /* 2 * num_nodes: (start, degree) per node, the kernel's struct bfs_node layout */
    int32_t *edges;     /* num_edges destination node ids */
};

enum bfs_graph_err { BFS_GRAPH_OK = 0, BFS_GRAPH_IO = 1, BFS_GRAPH_FORMAT = 2 };

/* Parse graph text.  On failure returns BFS_GRAPH_FORMAT, leaves g empty and
   writes "NAME:LINE:COL: error: WHAT" into err (never more than errlen bytes). */
int bfs_graph_parse(struct bfs_graph *g, const char *text, size_t len, const char *name, char *err,
                    size_t errlen);

/* Read and parse a file; BFS_GRAPH_IO (with "PATH: error: ...") when it cannot be read. */
int bfs_graph_load(struct bfs_graph *g, const char *path, char *err, size_t errlen);

/* Random directed graph with a power-law-like out-degree distribution (a few
   hubs with thousands of edges, most nodes with a handful) and exactly
   num_nodes * avg_degree edges; a quarter of the edges go to nearby node ids,
   the rest anywhere.  Deterministic in seed.  Source is node 0. */
void bfs_graph_generate(struct bfs_graph *g, int32_t num_nodes, int32_t avg_degree, uint64_t seed);

void bfs_graph_free(struct bfs_graph *g);

/* CPU reference: cost[v] = BFS level of v from g->source, -1 when unreachable.
   Returns the number of levels (the largest cost + 1). */
int32_t bfs_graph_levels(const struct bfs_graph *g, int32_t *cost);

#endif
