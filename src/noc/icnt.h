/*
 * icnt.h - the interconnect between SMs and memory sub-partitions (and, later,
 * CPU cores and LLC slices): one instance per direction (requests SM ->
 * memory, replies memory -> SM), so request and reply traffic never wait on
 * each other (no protocol deadlock).  Two implementations, chosen by
 * -warpsim_icnt (g->icnt_kind):
 *
 *  - xbar (src/noc/xbar.c, the default): an input-buffered crossbar.
 *    Packets (a mem_req plus its size in bytes) are split into flits of
 *    icnt_flit_size bytes.  Each source has an input buffer of
 *    icnt_in_buffer flits (a packet enters only if all its flits fit:
 *    backpressure); each cycle every output port accepts up to
 *    icnt_flits_per_cycle flits from one input at a time (round-robin
 *    arbitration among inputs with a packet for it, a packet's flits stay
 *    together), and a packet is delivered to the output buffer
 *    (icnt_out_buffer flits) icnt_latency cycles after its last flit
 *    crossed.  A full output buffer blocks the crossing (so a slow consumer
 *    fills the network back to the sources).  -warpsim_icnt_vcs splits each
 *    input buffer into virtual channels whose head packets request their
 *    outputs independently (packets of one input for one output keep their
 *    order), and -warpsim_icnt_input_speedup lets that many VCs of an input
 *    send in one cycle; both default to 1, one FIFO per input.
 *  - mesh (src/noc/mesh.c): a 2D mesh of input-buffered, pipelined routers
 *    with virtual channels, credit-based flow control and XY routing; the
 *    sources and destinations sit on nodes (src/noc/mesh_place.c).  The
 *    injection and ejection queues reuse icnt_in_buffer / icnt_out_buffer.
 *
 * docs/timing_icnt.md gives the timing rules of both.  Clocked in
 * interconnect cycles.  The network owns no mem_req: it holds pointers from
 * icnt_push until the consumer's icnt_pop.
 */
#ifndef WARPSIM_ICNT_H
#define WARPSIM_ICNT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/stats.h"
#include "mem/mem_req.h"
#include "sys/gpu_config.h"

enum icnt_kind { ICNT_XBAR = 0, ICNT_MESH = 1 };

/* Traffic class of an endpoint.  A packet takes its source's class, or its
   destination's when the source serves every class (a memory partition or
   LLC slice answering both CPUs and GPUs); GPU when both are ANY.  Only a
   partitioned mesh (-warpsim_mesh_partition) treats the classes differently. */
enum icnt_class { ICNT_CLASS_GPU = 0, ICNT_CLASS_CPU = 1, ICNT_CLASS_ANY = 2 };

/* The sources or the destinations of a network. */
struct icnt_endpoints {
    unsigned n;
    const uint32_t *node;   /* mesh node of each endpoint; NULL: the default placement (ignored by the crossbar) */
    const uint8_t *cls;     /* enum icnt_class of each endpoint; NULL: all ICNT_CLASS_GPU */
};

struct icnt_stats {
    uint64_t packets, flits;      /* flits in -icnt_flit_size units: ceil(bytes / icnt_flit_size) */
    uint64_t lat_sum, lat_max;    /* icnt cycles from push to delivery, summed */
    uint64_t input_full_stalls;   /* icnt_can_push returned false */
    uint64_t output_blocked;      /* xbar: flit-cycles blocked by a full output buffer;
                                     mesh: head-flit cycles waiting for room in the ejection queue */
};

struct icnt;   /* opaque */

/* A network of g->icnt_kind with n_src sources and n_dst destinations.  On a
   mesh the destinations are placed like memory nodes and the sources fill
   the other nodes (mesh_place_default). */
struct icnt *icnt_new(struct arena *a, const struct gpu_config *g, unsigned n_src, unsigned n_dst,
                      const char *name);
/* The same with explicit endpoints (placement and classes). */
struct icnt *icnt_new_at(struct arena *a, const struct gpu_config *g, const struct icnt_endpoints *src,
                         const struct icnt_endpoints *dst, const char *name);
/* One of the GPU's two networks: requests SM -> sub-partition (reply false)
   or replies sub-partition -> SM, placed by -warpsim_mesh_sm_nodes and
   -warpsim_mesh_mem_nodes (or their defaults) on a mesh.  SMs are GPU class,
   sub-partitions ANY.  The chip's CPU cores (-warpsim_cpu_cores) are more
   core endpoints after the SMs (index n_cores + i), CPU class, placed by
   -warpsim_mesh_cpu_nodes or on the free nodes. */
struct icnt *icnt_new_gpu(struct arena *a, const struct gpu_config *g, bool reply, const char *name);
enum icnt_kind icnt_kind_of(const struct icnt *n);

void icnt_reg_stats(struct icnt *n, struct stats *s, const char *prefix);
const struct icnt_stats *icnt_get_stats(const struct icnt *n);

/* Packets delivered at destination dst and their latencies (icnt cycles from push to
   delivery) summed; dst < the network's destination count. */
uint64_t icnt_dst_packets(const struct icnt *n, unsigned dst);
uint64_t icnt_dst_lat_sum(const struct icnt *n, unsigned dst);

bool icnt_can_push(const struct icnt *n, unsigned src, uint32_t bytes);
void icnt_push(struct icnt *n, unsigned src, unsigned dst, struct mem_req *r, uint32_t bytes, sim_cycle now);
void icnt_cycle(struct icnt *n, sim_cycle now);
/* Delivered packet at output dst, or NULL; pop after the consumer accepted it. */
struct mem_req *icnt_peek(const struct icnt *n, unsigned dst);
void icnt_pop(struct icnt *n, unsigned dst);
bool icnt_busy(const struct icnt *n);
/* Has any destination a delivered packet (icnt_peek would return one for some dst)? */
bool icnt_any_delivered(const struct icnt *n);
/* Changes whenever room frees at source src's input (flits leave it); pushes only take room.  A
   packet icnt_can_push refused at one version is refused again while the version stays, so a
   source may leave out the calls meanwhile and count each as icnt_can_push would
   (icnt_count_refused_push: input_full_stalls). */
uint32_t icnt_room_version(const struct icnt *n, unsigned src);
/* changes whenever any source's room version changes */
uint32_t icnt_room_version_any(const struct icnt *n);
void icnt_count_refused_push(struct icnt *n, uint64_t calls);
sim_cycle icnt_next_event(const struct icnt *n, sim_cycle now);

#endif
