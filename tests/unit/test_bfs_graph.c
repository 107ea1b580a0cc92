/* test_bfs_graph.c - the bfs workload's Rodinia graph reader, generator and CPU BFS. */
#include "test.h"

#include "bfs/bfs_graph.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

/* Parse text as "bad.graph"; returns the status, message in err. */
static int parse(const char *text, char *err, size_t errlen)
{
    struct bfs_graph g;
    int rc = bfs_graph_parse(&g, text, strlen(text), "bad.graph", err, errlen);
    bfs_graph_free(&g);
    return rc;
}

#define CHECK_BAD(text, msg) do { char e_[256]; CHECK_EQ_INT(parse(text, e_, sizeof e_), BFS_GRAPH_FORMAT); \
    CHECK_EQ_STR(e_, msg); } while (0)

TEST(bfs_graph_sample_file)
{
    struct bfs_graph g;
    char err[256];
    int rc = bfs_graph_load(&g, WARPSIM_SOURCE_DIR "/workloads/bfs/data/sample.graph", err, sizeof err);
    REQUIRE(rc == BFS_GRAPH_OK);
    CHECK_EQ_INT(g.num_nodes, 10);
    CHECK_EQ_INT(g.num_edges, 13);
    CHECK_EQ_INT(g.source, 0);
    CHECK_EQ_INT(g.nodes[2 * 5], 7);
    CHECK_EQ_INT(g.nodes[2 * 5 + 1], 3);
    CHECK_EQ_INT(g.edges[9], 0);
    int32_t cost[10];
    static const int32_t want[10] = {0, 1, 1, 1, 2, 2, 3, 3, 4, -1};
    CHECK_EQ_INT(bfs_graph_levels(&g, cost), 5);
    for (int i = 0; i < 10; i++)
        CHECK_EQ_INT(cost[i], want[i]);
    bfs_graph_free(&g);
}

TEST(bfs_graph_crlf_and_blank_lines)
{
    const char *text = "2\r\n\r\n0 1\r\n1 1\r\n\r\n1\r\n\r\n2\r\n1 1\r\n0 1\r\n";
    struct bfs_graph g;
    char err[256];
    REQUIRE(bfs_graph_parse(&g, text, strlen(text), "ok.graph", err, sizeof err) == BFS_GRAPH_OK);
    CHECK_EQ_INT(g.source, 1);
    CHECK_EQ_INT(g.edges[0], 1);
    CHECK_EQ_INT(g.edges[1], 0);
    bfs_graph_free(&g);
}

TEST(bfs_graph_bad_files)
{
    CHECK_BAD("2\n0 1\n1 x\n0\n2\n1 1\n0 1\n", "bad.graph:3:3: error: expected an integer (node degree)");
    CHECK_BAD("2\n0 1\n1 1\n0\n2\n1 1\n5 1\n",
              "bad.graph:7:1: error: edge 1: destination 5 is out of range (the graph has 2 nodes)");
    CHECK_BAD("2\n0 1\n1 1\n0\n2\n1   1\n0\n",
              "bad.graph:8:1: error: expected an integer (edge weight), found end of file");
    CHECK_BAD("2\n0 1\n1 2\n0\n2\n1 1\n0 1\n",
              "bad.graph:5:1: error: edge count 2 is too small: node 1 (line 3) uses edges up to 3");
    CHECK_BAD("2\n0 1\n1 1\n0\n2\n1 1\n0 1\nx\n", "bad.graph:8:1: error: unexpected text after the last edge");
    CHECK_BAD("2\n0 1\n1 1\n2\n2\n1 1\n0 1\n",
              "bad.graph:4:1: error: source node 2 is out of range (the graph has 2 nodes)");
    CHECK_BAD("99999999999\n", "bad.graph:1:1: error: integer out of range (node count)");
    CHECK_BAD("0\n", "bad.graph:1:1: error: node count must be at least 1, got 0");
    CHECK_BAD("2\n0 1\n1 1\n0\n2\n1 1\n0 1x\n", "bad.graph:7:3: error: expected an integer (edge weight)");
    CHECK_BAD("2\n0 -1\n1 1\n0\n2\n1 1\n0 1\n", "bad.graph:2:3: error: node 0: degree -1 is negative");
    CHECK_BAD("1000000\n0 0\n", "bad.graph:1:1: error: node count 1000000 is more than the rest of the file can hold");
    CHECK_BAD("", "bad.graph:1:1: error: expected an integer (node count), found end of file");
    CHECK_BAD("2\n0 1\n1 1\n-\n", "bad.graph:4:1: error: expected an integer (source node)");
}

TEST(bfs_graph_missing_file)
{
    struct bfs_graph g;
    char err[256];
    CHECK_EQ_INT(bfs_graph_load(&g, "/nonexistent/x.graph", err, sizeof err), BFS_GRAPH_IO);
    CHECK_EQ_STR(err, "/nonexistent/x.graph: error: no such file");
    CHECK_EQ_INT(bfs_graph_load(&g, "/dev/zero", err, sizeof err), BFS_GRAPH_IO);
    CHECK_EQ_STR(err, "/dev/zero: error: larger than the limit of 1073741824 bytes for this kind of input");
    CHECK_EQ_INT(bfs_graph_load(&g, "/tmp", err, sizeof err), BFS_GRAPH_IO);
    CHECK_EQ_STR(err, "/tmp: error: is a directory, not a file");
}

TEST(bfs_graph_generator)
{
    struct bfs_graph a, b;
    bfs_graph_generate(&a, 4096, 8, 42);
    bfs_graph_generate(&b, 4096, 8, 42);
    REQUIRE(a.num_edges == 4096 * 8);
    CHECK(memcmp(a.nodes, b.nodes, 4096 * 2 * sizeof(int32_t)) == 0);
    CHECK(memcmp(a.edges, b.edges, (size_t)a.num_edges * sizeof(int32_t)) == 0);
    int32_t next = 0, max_deg = 0;
    for (int i = 0; i < a.num_nodes; i++) {
        CHECK_EQ_INT(a.nodes[2 * i], next);   /* contiguous edge ranges */
        next += a.nodes[2 * i + 1];
        if (a.nodes[2 * i + 1] > max_deg)
            max_deg = a.nodes[2 * i + 1];
    }
    CHECK_EQ_INT(next, a.num_edges);
    CHECK(max_deg >= 80);   /* skewed: hubs well above the average of 8 */
    int bad = 0;
    for (int e = 0; e < a.num_edges; e++)
        bad += a.edges[e] < 0 || a.edges[e] >= a.num_nodes;
    CHECK_EQ_INT(bad, 0);
    int32_t *cost = malloc(4096 * sizeof(int32_t));
    REQUIRE(cost);
    int32_t levels = bfs_graph_levels(&a, cost);
    CHECK(levels >= 4);
    free(cost);
    bfs_graph_free(&a);
    bfs_graph_free(&b);
}

TEST_MAIN()
