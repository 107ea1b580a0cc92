/*
 * mesh_place.c - endpoint placement on the 2D mesh (see mesh_place.h).
 * Runs at configuration time only: allocation here is fine.
 */
#include "noc/mesh_place.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mesh_place_size(unsigned cols_opt, unsigned rows_opt, unsigned n_endpoints, unsigned *cols, unsigned *rows)
{
    unsigned n = n_endpoints ? n_endpoints : 1;
    unsigned c = cols_opt, r = rows_opt;
    if (!c && !r) {
        c = 1;
        while (c * c < n)
            c++;
    } else if (!c) {
        c = (n + r - 1) / r;
    }
    if (!r)
        r = (n + c - 1) / c;
    *cols = c;
    *rows = r;
}

static unsigned mp_gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Memory nodes spread over rows and columns (the rule in mesh_place.h); taken[] marks them. */
static int mp_spread_mem(unsigned cols, unsigned rows, unsigned n_mem, uint32_t *mem_node, unsigned char *taken)
{
    unsigned nodes = cols * rows;
    if (n_mem > nodes)
        return -1;
    unsigned m = 1;
    if (n_mem > 2)
        for (m = 3; mp_gcd(m, n_mem) != 1; m += 2)
            ;
    for (unsigned k = 0; k < n_mem; k++) {
        unsigned j = (unsigned)(((uint64_t)k * m) % n_mem);
        unsigned r = (unsigned)(((uint64_t)2 * k + 1) * rows / (2 * (uint64_t)n_mem));
        unsigned c = (unsigned)(((uint64_t)2 * j + 1) * cols / (2 * (uint64_t)n_mem));
        unsigned node = r * cols + c;
        while (taken[node])   /* more memory nodes than rows and columns: the next free node */
            node = node + 1 == nodes ? 0 : node + 1;
        taken[node] = 1;
        mem_node[k] = node;
    }
    return 0;
}

/* Cores fill the nodes not marked in taken[], row-major, wrapping round. */
static void mp_fill_cores(unsigned nodes, unsigned n_core, uint32_t *core_node, const unsigned char *taken)
{
    unsigned free_n = 0;
    for (unsigned v = 0; v < nodes; v++)
        free_n += !taken[v];
    unsigned k = 0;
    for (unsigned i = 0; i < n_core; i++) {
        if (free_n == 0) {   /* every node holds memory: cores share them */
            core_node[i] = i % nodes;
            continue;
        }
        unsigned want = i % free_n, seen = 0;
        for (k = 0; k < nodes; k++)
            if (!taken[k] && seen++ == want)
                break;
        core_node[i] = k;
    }
}

int mesh_place_default(unsigned cols, unsigned rows, unsigned n_core, unsigned n_mem, uint32_t *core_node,
                       uint32_t *mem_node)
{
    unsigned nodes = cols * rows;
    unsigned char *taken = calloc(nodes ? nodes : 1, 1);
    if (!taken)
        return -1;
    int rc = mp_spread_mem(cols, rows, n_mem, mem_node, taken);
    if (rc == 0)
        mp_fill_cores(nodes, n_core, core_node, taken);
    free(taken);
    return rc;
}

int mesh_place_parse(const char *s, unsigned n, unsigned n_nodes, uint32_t *out, char *msg, size_t msz)
{
    unsigned k = 0;
    const char *p = s ? s : "";
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char *end;
        errno = 0;
        if (!isdigit((unsigned char)*p)) {
            snprintf(msg, msz, "expected comma-separated node numbers or ranges a-b, got '%s'", s);
            return -1;
        }
        unsigned long a = strtoul(p, &end, 10), b = a;
        p = end;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '-') {
            p++;
            while (isspace((unsigned char)*p))
                p++;
            if (!isdigit((unsigned char)*p)) {
                snprintf(msg, msz, "expected comma-separated node numbers or ranges a-b, got '%s'", s);
                return -1;
            }
            b = strtoul(p, &end, 10);
            p = end;
            if (b < a) {
                snprintf(msg, msz, "range %lu-%lu runs backwards", a, b);
                return -1;
            }
        }
        if (errno || a >= n_nodes || b >= n_nodes) {
            snprintf(msg, msz, "node %lu is outside the mesh (nodes 0..%u)", b >= n_nodes ? b : a, n_nodes - 1);
            return -1;
        }
        for (unsigned long v = a; v <= b; v++) {
            if (k == n) {
                snprintf(msg, msz, "expected %u nodes, got more", n);
                return -1;
            }
            out[k++] = (uint32_t)v;
        }
        while (isspace((unsigned char)*p))
            p++;
        if (*p == ',')
            p++;
        else if (*p) {
            snprintf(msg, msz, "expected comma-separated node numbers or ranges a-b, got '%s'", s);
            return -1;
        }
    }
    if (k != n) {
        snprintf(msg, msz, "expected %u nodes, got %u", n, k);
        return -1;
    }
    return 0;
}

int mesh_place_gpu(const struct gpu_config *g, uint32_t *sm_node, uint32_t *mem_node, const char **opt, char *msg,
                   size_t msz)
{
    unsigned n_core = g->n_cores, n_mem = g->n_sub_partitions, cols, rows;
    mesh_place_size(g->mesh_cols, g->mesh_rows, n_core + n_mem, &cols, &rows);   /* as resolved by the loader */
    unsigned nodes = cols * rows;
    int sm_given = g->mesh_sm_nodes && g->mesh_sm_nodes[0];
    int mem_given = g->mesh_mem_nodes && g->mesh_mem_nodes[0];
    char sub[200];
    if (sm_given && mesh_place_parse(g->mesh_sm_nodes, n_core, nodes, sm_node, sub, sizeof sub)) {
        *opt = "warpsim_mesh_sm_nodes";
        snprintf(msg, msz, "-warpsim_mesh_sm_nodes: %s (one node per SM, %u SMs, on the %ux%u mesh)", sub, n_core,
                 cols, rows);
        return -1;
    }
    if (mem_given && mesh_place_parse(g->mesh_mem_nodes, n_mem, nodes, mem_node, sub, sizeof sub)) {
        *opt = "warpsim_mesh_mem_nodes";
        snprintf(msg, msz,
                 "-warpsim_mesh_mem_nodes: %s (one node per memory sub-partition, %u of them, on the %ux%u mesh)", sub,
                 n_mem, cols, rows);
        return -1;
    }
    unsigned char *taken = calloc(nodes ? nodes : 1, 1);
    if (!taken) {
        *opt = "warpsim_mesh_cols";
        snprintf(msg, msz, "out of host memory");
        return -1;
    }
    int rc = 0;
    if (mem_given) {
        for (unsigned k = 0; k < n_mem; k++)
            taken[mem_node[k]] = 1;
    } else if (mp_spread_mem(cols, rows, n_mem, mem_node, taken)) {
        *opt = "warpsim_mesh_cols";
        snprintf(msg, msz, "-warpsim_mesh_cols x -warpsim_mesh_rows: the %ux%u mesh (%u nodes) cannot hold %u memory "
                 "sub-partitions one per node", cols, rows, nodes, n_mem);
        rc = -1;
    }
    if (rc == 0 && !sm_given)
        mp_fill_cores(nodes, n_core, sm_node, taken);
    free(taken);
    return rc;
}
