/*
 * mesh.h - what only the 2D mesh has (src/noc/mesh.c): its own statistics and
 * per-link counters, and where its endpoints sit.  Everything else goes
 * through icnt.h.  Each function answers 0 / NULL for a crossbar.
 */
#ifndef WARPSIM_MESH_H
#define WARPSIM_MESH_H

#include "noc/icnt.h"

/* output ports of a router; MESH_LOCAL is ejection (and, as an input port, injection) */
enum mesh_dir { MESH_LOCAL = 0, MESH_N, MESH_E, MESH_S, MESH_W, MESH_PORTS };

struct mesh_stats {
    uint64_t hops_sum;        /* router-to-router links crossed by the delivered packets */
    uint64_t va_stalls;       /* head-flit cycles without a free VC at the next router (or the local input port) */
    uint64_t credit_stalls;   /* flit cycles with a VC but no credit (the next router's buffer is full) */
    uint64_t sw_stalls;       /* flit cycles ready to go that lost switch (or injection) allocation */
    uint64_t link_flits;      /* flits over router-to-router links (utilisation: / (links x cycles)) */
    uint64_t cpu_packets;     /* delivered packets of the CPU class */
};

const struct mesh_stats *mesh_get_stats(const struct icnt *n);
/* Flits that left `node` towards direction dir (MESH_N..MESH_W) since creation. */
uint64_t mesh_link_flits(const struct icnt *n, unsigned node, unsigned dir);
void mesh_size(const struct icnt *n, unsigned *cols, unsigned *rows);
/* Directed router-to-router links: 2 (rows (cols-1) + cols (rows-1)). */
unsigned mesh_links(const struct icnt *n);
unsigned mesh_src_node(const struct icnt *n, unsigned src);
unsigned mesh_dst_node(const struct icnt *n, unsigned dst);

#endif
