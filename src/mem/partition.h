/*
 * partition.h - a memory sub-partition: one L2 slice with its MSHRs and a
 * hit pipeline, in front of (a share of) a DRAM channel.
 *
 *   icnt --> [ROP latency] --> [in queue] --> L2 tags --hit--> [hit latency] --> [reply queue] --> icnt
 *                                               |miss (MSHR, merge)                   ^
 *                                               v                                     |
 *        [L2->DRAM queue] --> [DRAM latency] --> DRAM channel --> fill L2, wake merged requests
 *
 * ROP latency = -gpgpu_l2_rop_latency and DRAM latency = -dram_latency, core
 * cycles, both as GPGPU-Sim means them (every request entering the
 * sub-partition; every request the L2 sends to DRAM); hit latency =
 * -warpsim_l2_hit_latency, L2 cycles, reads and atomics that hit.
 *
 * Reads reply with line data; writes are absorbed by the L2 per its write
 * policy (write-back at the Fermi L2: a write miss allocates per the cache
 * string, dirty evictions go to DRAM as writes) and get no reply; atomics are
 * treated as a read that also dirties the line, and reply.  Requests from the
 * interconnect arrive in core cycles; the L2 runs in the L2 clock, the DRAM in
 * its own clock: the owner (sys/gpu.c) calls the two cycle functions at their
 * domain's edges.  Ownership: requests that need no reply are freed here
 * (mem_req_free), replies are handed to the interconnect.
 */
#ifndef WARPSIM_PARTITION_H
#define WARPSIM_PARTITION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/stats.h"
#include "mem/addr_map.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/mem_req.h"
#include "sys/gpu_config.h"

struct partition_stats {
    uint64_t l2_reads, l2_writes, l2_atomics, l2_read_hits, l2_read_misses, l2_write_misses;
    uint64_t l2_res_fail;        /* cycles the head request could not be served (MSHR/queue full) */
    uint64_t reply_stall;        /* cycles the reply queue was full (reply network backpressure) */
    uint64_t dram_stall;         /* cycles a miss waited because the DRAM queue was full (stall_MC) */
    uint64_t requests, replies;
};

struct mem_partition;   /* opaque */

/* id = global sub-partition index; dram = the channel it shares (one channel may
   serve n_sub_partition_per_mchannel sub-partitions: the first sub-partition of a
   channel creates it with dram_new and passes it to the others). */
struct mem_partition *partition_new(struct arena *a, const struct gpu_config *g, unsigned id,
                                    struct dram_channel *dram, const struct addr_map *map,
                                    struct mem_req_pool *pool);
void partition_reg_stats(struct mem_partition *p, struct stats *s, const char *prefix);
const struct partition_stats *partition_get_stats(const struct mem_partition *p);
struct cache *partition_l2(struct mem_partition *p);

bool partition_full(const struct mem_partition *p);                   /* input queue */
void partition_push(struct mem_partition *p, struct mem_req *r, sim_cycle now_core);
void partition_cycle_l2(struct mem_partition *p, sim_cycle now_l2);
/* Moves DRAM traffic of THIS sub-partition; call dram_cycle() once per DRAM cycle per channel separately. */
void partition_cycle_dram(struct mem_partition *p, sim_cycle now_dram);
/* Next reply ready for the interconnect at core cycle `now_core`, or NULL. */
struct mem_req *partition_peek_reply(struct mem_partition *p, sim_cycle now_core);
void partition_pop_reply(struct mem_partition *p);
bool partition_busy(const struct mem_partition *p);   /* anything queued or in flight */

/* Additions (idle skipping).  Earliest cycle of each domain at which the
   partition's own cycle function could act (or count a stall) without new
   input, SIM_NEVER when it only waits: for the DRAM channel (dram_next_event
   covers completions), for the interconnect to take a reply, or for a push.
   A reply waiting in a non-full reply queue does not count (the owner sees it
   with partition_peek_reply); a full one does (reply_stall counts every L2 cycle). */
sim_cycle partition_next_event_l2(const struct mem_partition *p, sim_cycle now_l2);
sim_cycle partition_next_event_dram(const struct mem_partition *p, sim_cycle now_dram);

/* Addition (per-component idle skipping).  What the partition has to do, kept up to date in a byte
   the owner gives it (partition_publish_busy; until then a byte of its own): PART_BUSY_DRAM while a
   request of this sub-partition is in its DRAM queue, the DRAM latency queue or the channel
   (partition_cycle_dram, and dram_cycle of its channel, have work), PART_BUSY_L2 while
   partition_cycle_l2 has (a request in the input, ROP, return or reply-stage queues, or a full
   reply queue, which it counts as a stall every L2 cycle), PART_BUSY_REPLY while its reply queue
   holds a reply for the interconnect.  Calling the cycle functions of a
   partition whose flag is clear does nothing but what dram_cycle_idle does for the channel. */
#define PART_BUSY_DRAM 1u
#define PART_BUSY_L2 2u
#define PART_BUSY_REPLY 4u   /* a reply for the interconnect (partition_peek_reply) */
void partition_publish_busy(struct mem_partition *p, uint8_t *flags);
/* Debug builds (WARPSIM_SLOW_CHECKS): the flags match the queues. */
void partition_check_busy(const struct mem_partition *p);

#endif
