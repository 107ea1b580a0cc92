/*
 * fuzz_graph.c - libFuzzer harness: the bfs workload's reader of Rodinia's
 * graph text format (workloads/bfs/bfs_graph.h).  A graph that parses is
 * checked for the reader's promises (every node's edge range inside the edge
 * list, destinations and source in range) and run through the CPU reference
 * BFS, whose levels are checked too (source at 0, an edge from a reached node
 * reaches its target at most one level later).  A rejected graph must leave
 * the struct empty and a terminated "NAME:LINE:COL: error: ..." message; the
 * message buffer is deliberately short, to exercise truncation.  Inputs over
 * 64 KiB are ignored.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs_graph.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what)
{
    fprintf(stderr, "fuzz_graph: %s\n", what);
    abort();
}

static void fz_check_graph(const struct bfs_graph *g)
{
    if (g->num_nodes < 1 || g->num_edges < 0 || !g->nodes || (g->num_edges && !g->edges))
        fz_fail("accepted graph with bad counts or arrays");
    if (g->source < 0 || g->source >= g->num_nodes)
        fz_fail("accepted graph with the source out of range");
    for (int32_t i = 0; i < g->num_nodes; i++) {
        int64_t start = g->nodes[2 * i], deg = g->nodes[2 * i + 1];
        if (start < 0 || deg < 0 || start + deg > g->num_edges)
            fz_fail("accepted graph with a node's edges outside the edge list");
    }
    for (int32_t e = 0; e < g->num_edges; e++)
        if (g->edges[e] < 0 || g->edges[e] >= g->num_nodes)
            fz_fail("accepted graph with an edge destination out of range");

    int32_t *cost = malloc((size_t)g->num_nodes * sizeof *cost);
    if (!cost)
        return;
    int32_t levels = bfs_graph_levels(g, cost);
    int32_t maxc = -1;
    for (int32_t i = 0; i < g->num_nodes; i++)
        if (cost[i] > maxc)
            maxc = cost[i];
    if (cost[g->source] != 0)
        fz_fail("CPU BFS: the source is not at level 0");
    if (levels != maxc + 1)
        fz_fail("CPU BFS: the level count is not the largest level + 1");
    for (int32_t u = 0; u < g->num_nodes; u++) {
        if (cost[u] < 0)
            continue;
        for (int32_t k = 0; k < g->nodes[2 * u + 1]; k++) {
            int32_t v = g->edges[g->nodes[2 * u] + k];
            if (cost[v] < 0 || cost[v] > cost[u] + 1)
                fz_fail("CPU BFS: an edge from a reached node skips a level");
        }
    }
    free(cost);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    struct bfs_graph g;
    char err[96];
    memset(err, 'x', sizeof err);
    int rc = bfs_graph_parse(&g, (const char *)data, size, "fuzz.graph", err, sizeof err);
    if (rc == BFS_GRAPH_OK) {
        fz_check_graph(&g);
    } else {
        if (rc != BFS_GRAPH_FORMAT)
            fz_fail("parse returned neither OK nor FORMAT");
        if (g.nodes || g.edges || g.num_nodes || g.num_edges)
            fz_fail("a rejected graph is not left empty");
        if (!memchr(err, '\0', sizeof err) || strncmp(err, "fuzz.graph:", 11) != 0)
            fz_fail("the error message is not terminated or does not name the input");
    }
    bfs_graph_free(&g);
    return 0;
}
