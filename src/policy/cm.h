/*
 * cm.h - concurrency managers (seed 004 sec. 4): policies that watch the
 * memory system's congestion and the GPU cores' latency tolerance and set
 * each GPU core's active warp limit, which the core's warp scheduler enforces
 * (warp_sched_ops.set_limit: swl, "SWL with GTO" in 004).  A new manager =
 * one file in policy/cm/ + one line X(cm, name) in policy/registry.def.
 *
 * Life of a manager (sys/gpu_cm.c):
 *   kernel start  state_size(n_cores) bytes from the GPU's arena, zeroed; the
 *                 parameter table applied (defaults, then cm.<name>.<param>);
 *                 init(st, view) writes the first limits into limit[] (the
 *                 view's metrics are zero).  004 invalidates CM-BAL's tables
 *                 at kernel start and end: a fresh state per kernel does it.
 *   every interval core cycles (the parameter `interval` every manager has,
 *                 004: 1024), decide(st, view, limit, now) at the end of the
 *                 interval's last cycle with that interval's metrics; it writes
 *                 limit[i] for every core (the GPU clamps to 1..max_warps).
 * The manager sees numbers, never the SMs.  No allocation, no I/O, no globals.
 */
#ifndef WARPSIM_CM_H
#define WARPSIM_CM_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/sim.h"

/* One GPU core's metrics over the interval just ended. */
struct cm_core_view {
    uint64_t stall_gpu;        /* scheduler cycles with live warps that issued nothing (004's stall_GPU:
                                  0 .. schedulers x interval) */
    unsigned limit;            /* the active warp limit in force during the interval */
    unsigned max_warps;        /* warp slots of the core (the highest limit) */
};

struct cm_view {
    unsigned n_cores;
    const struct cm_core_view *core;   /* [n_cores] */
    unsigned n_sched;          /* warp schedulers per core */
    unsigned n_mem;            /* memory partitions the congestion metrics are summed over */
    uint64_t interval;         /* core cycles in the interval */
    /* 004 sec. 3.2.1: requests stalled per cycle, summed over the memory partitions
       (0 .. n_mem): stall_MC because a memory controller's queue was full, stall_net
       because the reply network was full */
    double stall_mc, stall_net;
};

struct cm_ops {
    const char *name;
    const char *doc;
    size_t (*state_size)(unsigned n_cores);
    const struct cfg_opt *params;
    size_t nparams;
    /* interval in core cycles: every manager's state starts with it (struct cm_head) */
    void (*init)(void *st, const struct cm_view *v, unsigned *limit);
    void (*decide)(void *st, const struct cm_view *v, unsigned *limit, sim_cycle now);   /* NULL: never */
};

/* The head of every manager's state: what the GPU reads. */
struct cm_head {
    unsigned interval;         /* core cycles between decisions */
};

/* CM-BAL's view of its last decision for core 0 (004 Fig. 14): diff_low = avg(lower level) -
   avg(current), diff_up = avg(current) - avg(upper); 0 where the neighbour had no sample. */
void cm_bal_last_diffs(const void *st, double *diff_low, double *diff_up);

const struct cm_ops *cm_find(const char *name);
void cm_names(char *buf, size_t n);
const struct cm_ops *cm_at(size_t i);

#endif
