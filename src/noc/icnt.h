/*
 * icnt.h - the interconnect between SMs and memory sub-partitions: a crossbar
 * (one instance per direction: requests SM -> memory, replies memory -> SM).
 *
 * Packets (a mem_req plus its size in bytes) are split into flits of
 * icnt_flit_size bytes.  Each source has an input buffer of icnt_in_buffer
 * flits (a packet enters only if all its flits fit: backpressure); each cycle
 * every output port accepts up to icnt_flits_per_cycle flits from one input
 * at a time (round-robin arbitration among inputs with a packet for it, a
 * packet's flits stay together), and a packet is delivered to the output
 * buffer (icnt_out_buffer flits) icnt_latency cycles after its last flit
 * crossed.  A full output buffer blocks the crossing (so a slow consumer
 * fills the network back to the sources).  Clocked in interconnect cycles.
 */
#ifndef WARPSIM_ICNT_H
#define WARPSIM_ICNT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/stats.h"
#include "mem/mem_req.h"
#include "sys/gpu_config.h"

struct icnt_stats {
    uint64_t packets, flits;
    uint64_t lat_sum, lat_max;    /* icnt cycles from push to delivery, summed */
    uint64_t input_full_stalls;   /* icnt_can_push returned false */
    uint64_t output_blocked;      /* flit-cycles blocked by a full output buffer */
};

struct icnt;   /* opaque */

struct icnt *icnt_new(struct arena *a, const struct gpu_config *g, unsigned n_src, unsigned n_dst,
                      const char *name);
void icnt_reg_stats(struct icnt *n, struct stats *s, const char *prefix);
const struct icnt_stats *icnt_get_stats(const struct icnt *n);

bool icnt_can_push(const struct icnt *n, unsigned src, uint32_t bytes);
void icnt_push(struct icnt *n, unsigned src, unsigned dst, struct mem_req *r, uint32_t bytes, sim_cycle now);
void icnt_cycle(struct icnt *n, sim_cycle now);
/* Delivered packet at output dst, or NULL; pop after the consumer accepted it. */
struct mem_req *icnt_peek(const struct icnt *n, unsigned dst);
void icnt_pop(struct icnt *n, unsigned dst);
bool icnt_busy(const struct icnt *n);
sim_cycle icnt_next_event(const struct icnt *n, sim_cycle now);

#endif
