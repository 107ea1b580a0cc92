/*
 * mesh_place.h - where endpoints sit on the 2D mesh: the mesh size, the
 * default placement, and the node lists of -warpsim_mesh_sm_nodes /
 * -warpsim_mesh_mem_nodes.  Node n is column n % cols, row n / cols (row 0
 * at the top).  A node may hold several endpoints (concentration: they share
 * the node's injection and ejection ports).
 *
 * Default placement (a choice: the seeds' mesh figures are lost in their
 * text form): memory nodes spread so that each row and each column holds as
 * few of them as possible -- memory node k goes to row floor((2k+1) rows /
 * 2M) and column floor((2j+1) cols / 2M) with j = k*m mod M for the smallest
 * odd m >= 3 coprime with M (a permutation), which keeps XY routes from
 * piling onto one column; on 8x8 with 8 and 11x11 with 11 memory nodes that
 * is exactly one per row and one per column.  Cores then fill the nodes
 * without memory in row-major order (wrapping round when there are more
 * cores than such nodes).
 */
#ifndef WARPSIM_MESH_PLACE_H
#define WARPSIM_MESH_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "sys/gpu_config.h"

/* Mesh size: cols x rows as given, or, where 0, the smallest near-square
   holding n_endpoints nodes (cols = ceil(sqrt(n)), rows = ceil(n / cols)). */
void mesh_place_size(unsigned cols_opt, unsigned rows_opt, unsigned n_endpoints, unsigned *cols, unsigned *rows);

/* Default placement of n_core cores and n_mem memory nodes (arrays of those
   sizes).  Returns 0, or -1 when n_mem exceeds the nodes. */
int mesh_place_default(unsigned cols, unsigned rows, unsigned n_core, unsigned n_mem, uint32_t *core_node,
                       uint32_t *mem_node);

/* Parse a node list ("0,1,2", ranges "8-15", spaces allowed) of exactly n
   nodes, each below n_nodes.  Returns 0, or -1 with a message in msg. */
int mesh_place_parse(const char *s, unsigned n, unsigned n_nodes, uint32_t *out, char *msg, size_t msz);

/* The GPU's placement from the config: sm_node[g->n_cores] and
   mem_node[g->n_sub_partitions] (a list given for one kind only: the other
   follows the default rule around it).  Returns 0, or -1 with *opt = the
   option at fault (without '-') and a message.  The mesh size is
   g->mesh_cols x g->mesh_rows, each 0 resolved by mesh_place_size. */
int mesh_place_gpu(const struct gpu_config *g, uint32_t *sm_node, uint32_t *mem_node, const char **opt, char *msg,
                   size_t msz);

#endif
