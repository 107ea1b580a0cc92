/*
 * bfs_graph.c - Rodinia BFS graph reader, skewed-degree generator and CPU BFS.
 *
 * The reader never trusts the file: every count is checked against what the
 * rest of the file could possibly hold before anything is allocated, every
 * node's edge range must lie inside the edge list and every destination must
 * name a node, so a bad file gives a message with line and column instead of
 * an out-of-bounds access in the simulated kernel.
 */
#include "bfs_graph.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/wl_util.h"
#include "core/file_read.h"

/* ---- tokenizer with line/column tracking ---------------------------------- */

struct bg_lex {
    const char *p, *end;
    long line, col;           /* 1-based position of p */
    const char *name;
    char *err;
    size_t errlen;
};

static void bg_error(struct bg_lex *lx, long line, long col, const char *fmt, ...)
{
    if (!lx->err || lx->errlen == 0)
        return;
    int used = snprintf(lx->err, lx->errlen, "%s:%ld:%ld: error: ", lx->name, line, col);
    if (used < 0 || (size_t)used >= lx->errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lx->err + used, lx->errlen - (size_t)used, fmt, ap);
    va_end(ap);
}

static int bg_is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

static void bg_skip_space(struct bg_lex *lx)
{
    while (lx->p < lx->end && bg_is_space(*lx->p)) {
        if (*lx->p == '\n') {
            lx->line++;
            lx->col = 1;
        } else {
            lx->col++;
        }
        lx->p++;
    }
}

/* Read one integer token (optional '-', then digits, then whitespace or end).
   line and col receive the token's position for later range messages. */
static int bg_int(struct bg_lex *lx, const char *what, int32_t *out, long *line, long *col)
{
    bg_skip_space(lx);
    *line = lx->line;
    *col = lx->col;
    if (lx->p == lx->end) {
        bg_error(lx, lx->line, lx->col, "expected an integer (%s), found end of file", what);
        return 0;
    }
    const char *q = lx->p;
    int neg = 0;
    if (*q == '-') {
        neg = 1;
        q++;
    }
    int64_t v = 0;
    const char *digits = q;
    while (q < lx->end && *q >= '0' && *q <= '9') {
        v = v * 10 + (*q - '0');
        if (v > (int64_t)INT32_MAX + 1) {
            bg_error(lx, *line, *col, "integer out of range (%s)", what);
            return 0;
        }
        q++;
    }
    if (q == digits || (q < lx->end && !bg_is_space(*q))) {
        bg_error(lx, *line, *col, "expected an integer (%s)", what);
        return 0;
    }
    if (neg)
        v = -v;
    if (v > INT32_MAX || v < INT32_MIN) {
        bg_error(lx, *line, *col, "integer out of range (%s)", what);
        return 0;
    }
    lx->col += (long)(q - lx->p);
    lx->p = q;
    *out = (int32_t)v;
    return 1;
}

/* A list of count entries of two integers each needs at least 4*count-1 more
   bytes ("d d\n" per entry); a larger count cannot be right, and checking it
   first keeps a corrupt count from causing a huge allocation. */
static int bg_count_fits(const struct bg_lex *lx, int32_t count)
{
    return (int64_t)count * 4 - 1 <= (int64_t)(lx->end - lx->p);
}

/* ---- parser ---------------------------------------------------------------- */

void bfs_graph_free(struct bfs_graph *g)
{
    free(g->nodes);
    free(g->edges);
    memset(g, 0, sizeof *g);
}

int bfs_graph_parse(struct bfs_graph *g, const char *text, size_t len, const char *name, char *err,
                    size_t errlen)
{
    struct bg_lex lx = {text, text + len, 1, 1, name, err, errlen};
    long line, col;
    memset(g, 0, sizeof *g);
    if (err && errlen)
        err[0] = '\0';

    int32_t n;
    if (!bg_int(&lx, "node count", &n, &line, &col))
        goto bad;
    if (n < 1) {
        bg_error(&lx, line, col, "node count must be at least 1, got %d", n);
        goto bad;
    }
    if (!bg_count_fits(&lx, n)) {
        bg_error(&lx, line, col, "node count %d is more than the rest of the file can hold", n);
        goto bad;
    }
    g->num_nodes = n;
    g->nodes = wl_alloc((size_t)n * 2 * sizeof(int32_t));

    /* remember the node whose edge range reaches furthest, to check it
       against the edge count once that is known */
    int64_t max_end = 0;
    int32_t max_node = -1;
    long max_line = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t start, degree;
        long dline, dcol;
        if (!bg_int(&lx, "node start", &start, &line, &col))
            goto bad;
        if (start < 0) {
            bg_error(&lx, line, col, "node %d: start %d is negative", i, start);
            goto bad;
        }
        if (!bg_int(&lx, "node degree", &degree, &dline, &dcol))
            goto bad;
        if (degree < 0) {
            bg_error(&lx, dline, dcol, "node %d: degree %d is negative", i, degree);
            goto bad;
        }
        g->nodes[2 * i] = start;
        g->nodes[2 * i + 1] = degree;
        if ((int64_t)start + degree > max_end) {
            max_end = (int64_t)start + degree;
            max_node = i;
            max_line = line;
        }
    }

    int32_t src;
    if (!bg_int(&lx, "source node", &src, &line, &col))
        goto bad;
    if (src < 0 || src >= n) {
        bg_error(&lx, line, col, "source node %d is out of range (the graph has %d nodes)", src, n);
        goto bad;
    }
    g->source = src;

    int32_t m;
    if (!bg_int(&lx, "edge count", &m, &line, &col))
        goto bad;
    if (m < 0) {
        bg_error(&lx, line, col, "edge count %d is negative", m);
        goto bad;
    }
    if (m < max_end) {
        bg_error(&lx, line, col, "edge count %d is too small: node %d (line %ld) uses edges up to %lld", m,
                 max_node, max_line, (long long)max_end);
        goto bad;
    }
    if (!bg_count_fits(&lx, m)) {
        bg_error(&lx, line, col, "edge count %d is more than the rest of the file can hold", m);
        goto bad;
    }
    g->num_edges = m;
    g->edges = wl_alloc((size_t)m * sizeof(int32_t));
    for (int32_t e = 0; e < m; e++) {
        int32_t dst, weight;
        if (!bg_int(&lx, "edge destination", &dst, &line, &col))
            goto bad;
        if (dst < 0 || dst >= n) {
            bg_error(&lx, line, col, "edge %d: destination %d is out of range (the graph has %d nodes)", e, dst,
                     n);
            goto bad;
        }
        if (!bg_int(&lx, "edge weight", &weight, &line, &col))
            goto bad;
        g->edges[e] = dst;
    }
    bg_skip_space(&lx);
    if (lx.p != lx.end) {
        bg_error(&lx, lx.line, lx.col, "unexpected text after the last edge");
        goto bad;
    }
    return BFS_GRAPH_OK;

bad:
    bfs_graph_free(g);
    return BFS_GRAPH_FORMAT;
}

int bfs_graph_load(struct bfs_graph *g, const char *path, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    size_t len = 0;
    char why[1024];
    char *buf = file_read_all(path, FILE_LIMIT_INPUT, &len, NULL, why, sizeof why);
    if (!buf) {
        snprintf(err, errlen, "%s: error: %s", path, why + strlen(path) + 2);
        return BFS_GRAPH_IO;
    }
    int rc = bfs_graph_parse(g, buf, len, path, err, errlen);
    free(buf);
    return rc;
}

/* ---- generator ------------------------------------------------------------- */

void bfs_graph_generate(struct bfs_graph *g, int32_t num_nodes, int32_t avg_degree, uint64_t seed)
{
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    memset(g, 0, sizeof *g);
    size_t n = (size_t)num_nodes;
    g->num_nodes = num_nodes;
    g->source = 0;
    g->nodes = wl_alloc(n * 2 * sizeof(int32_t));

    /* Pareto weights (alpha 1.5: heavy tail, most nodes near the minimum),
       capped so one hub cannot take a large part of all edges. */
    double cap = (double)num_nodes / 16.0;
    if (cap > 8192.0)
        cap = 8192.0;
    if (cap < 1.0)
        cap = 1.0;
    double *w = wl_alloc(n * sizeof(double));
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        double u = ((double)(wl_rng_u64(&rng) >> 11) + 1.0) / 9007199254740993.0;   /* (0, 1] */
        double x = pow(u, -1.0 / 1.5);
        w[i] = x < cap ? x : cap;
        sum += w[i];
    }
    /* Scale to exactly num_nodes * avg_degree edges: degrees are differences
       of the floored running sum, so they add up without drift. */
    int64_t total = (int64_t)num_nodes * avg_degree;
    double scale = (double)total / sum, run = 0.0;
    int64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        run += w[i] * scale;
        int64_t upto = i + 1 == n ? total : (int64_t)floor(run);
        if (upto > total)
            upto = total;
        if (upto < prev)
            upto = prev;
        g->nodes[2 * i] = (int32_t)prev;
        g->nodes[2 * i + 1] = (int32_t)(upto - prev);
        prev = upto;
    }
    free(w);

    g->num_edges = (int32_t)total;
    g->edges = wl_alloc((size_t)total * sizeof(int32_t));
    for (size_t i = 0; i < n; i++) {
        int32_t start = g->nodes[2 * i], deg = g->nodes[2 * i + 1];
        for (int32_t e = 0; e < deg; e++) {
            int64_t dst;
            if (wl_rng_below(&rng, 4) == 0) {
                /* nearby id: some locality, and long chains that add BFS levels */
                dst = (int64_t)i + (int64_t)wl_rng_below(&rng, 129) - 64;
                dst = (dst % num_nodes + num_nodes) % num_nodes;
            } else {
                dst = wl_rng_below(&rng, (uint32_t)num_nodes);
            }
            g->edges[start + e] = (int32_t)dst;
        }
    }
}

/* ---- CPU reference ---------------------------------------------------------- */

int32_t bfs_graph_levels(const struct bfs_graph *g, int32_t *cost)
{
    size_t n = (size_t)g->num_nodes;
    int32_t *queue = wl_alloc(n * sizeof(int32_t));
    for (size_t i = 0; i < n; i++)
        cost[i] = -1;
    size_t head = 0, tail = 0;
    cost[g->source] = 0;
    queue[tail++] = g->source;
    int32_t levels = 1;
    while (head < tail) {
        int32_t v = queue[head++];
        int32_t start = g->nodes[2 * v], deg = g->nodes[2 * v + 1];
        for (int32_t e = start; e < start + deg; e++) {
            int32_t u = g->edges[e];
            if (cost[u] < 0) {
                cost[u] = cost[v] + 1;
                if (cost[u] + 1 > levels)
                    levels = cost[u] + 1;
                queue[tail++] = u;
            }
        }
    }
    free(queue);
    return levels;
}
