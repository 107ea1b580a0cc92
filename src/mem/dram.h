/*
 * dram.h - one DRAM channel: banks with open rows, the command timing of
 * -gpgpu_dram_timing_opt, a bounded scheduler queue (FR-FCFS or FIFO), and the
 * data bus.  Clocked in DRAM command cycles (the DRAM clock domain).
 *
 * Each cycle at most one command issues on the command bus: ACT, PRE, RD or
 * WR (column commands), respecting per bank tRCD, tRAS, tRP, tRC, tWR,
 * (read-to-precharge tRTPL), per channel tRRD, tCCD/tCCDL, tCL/tWL, tCDLR
 * (write-to-read turnaround) and data-bus occupancy of
 * burst_length / data_command_freq_ratio cycles per access.  FR-FCFS: among
 * queued requests, a row hit to an open row first (oldest among them), else
 * the oldest request; FIFO: strictly the oldest.  Open-row policy.
 * A request completes when its last data beat has transferred; reads then
 * wait dram_return_latency more cycles (return path) before dram_pop_done hands
 * them back.  Writes complete too (the partition decides whether to reply).
 */
#ifndef WARPSIM_DRAM_H
#define WARPSIM_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/fifo.h"
#include "core/stats.h"
#include "mem/addr_map.h"
#include "mem/mem_req.h"
#include "sys/gpu_config.h"

/* Parse "nbk=16:CCD=2:..." into t. Unknown keys or bad numbers: -1 + message + column. */
int dram_timing_parse(const char *s, struct dram_timing *t, char *msg, size_t n, unsigned *col);

enum dram_cmd { DC_NONE = 0, DC_ACT, DC_PRE, DC_RD, DC_WR };

struct dram_stats {
    uint64_t reads, writes, row_hits, row_misses, activates, precharges;
    uint64_t queue_lat_sum;      /* DRAM cycles from enqueue to column command, summed */
    uint64_t queue_lat_max;
    uint64_t data_busy_cycles;   /* cycles the data bus transferred data */
    uint64_t cycles;             /* DRAM cycles simulated while the channel had work */
    uint64_t total_cycles;       /* every DRAM cycle of the run (for bandwidth utilisation) */
    uint64_t queue_full_stalls;  /* cycles a request could not enter because the queue was full */
};

struct dram_channel;   /* opaque */

struct dram_channel *dram_new(struct arena *a, const struct gpu_config *g, unsigned id);
void dram_reg_stats(struct dram_channel *d, struct stats *s, const char *prefix);
const struct dram_stats *dram_get_stats(const struct dram_channel *d);

bool dram_full(const struct dram_channel *d);
/* Enqueue (caller checked !dram_full). loc from addr_map_decode. */
void dram_push(struct dram_channel *d, struct mem_req *r, const struct dram_loc *loc, sim_cycle now);
/* Advance one DRAM cycle. */
void dram_cycle(struct dram_channel *d, sim_cycle now);
/* dram_cycle of n channels that hold no request (queued or done): only the cycle's bookkeeping. */
void dram_cycle_idle(struct dram_channel *const *d, unsigned n, sim_cycle now);
/* A finished request whose return delay has elapsed, or NULL. */
struct mem_req *dram_pop_done(struct dram_channel *d, sim_cycle now);
/* Earliest DRAM cycle at which something can happen (SIM_NEVER when idle). */
sim_cycle dram_next_event(const struct dram_channel *d, sim_cycle now);
unsigned dram_queue_len(const struct dram_channel *d);

/* Additions (partition support):
   Count one cycle in which a request waited because the queue was full
   (queue_full_stalls; dram_full is const, so the waiting producer reports it). */
void dram_note_full(struct dram_channel *d);
/* Like dram_pop_done, restricted to the requests of one sub-partition of the
   channel (sub = r->partition % n_sub_partition_per_mchannel), so sub-partitions
   sharing a channel each collect their own. */
struct mem_req *dram_pop_done_sub(struct dram_channel *d, unsigned sub, sim_cycle now);

/* Test hook: called for every command issued (bank -1 for none). */
typedef void (*dram_cmd_hook)(void *user, sim_cycle now, enum dram_cmd cmd, unsigned bank, unsigned row,
                              const struct mem_req *r);
void dram_set_cmd_hook(struct dram_channel *d, dram_cmd_hook fn, void *user);

#endif
