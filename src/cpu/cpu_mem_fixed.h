/*
 * cpu_mem_fixed.h - a fixed-latency, fixed-bandwidth memory below a CPU
 * core's L2, for standalone runs and tests (a chip puts its mesh, LLC and
 * DRAM there instead), and the loop that runs one core on it.
 *
 * Model: one channel that starts one request every `interval` cycles, in
 * arrival order (start = max(arrival, previous start + interval)); a read's
 * reply is due at start + latency; a write occupies the channel and is freed
 * at once (no reply).  Cycles are the core's.
 */
#ifndef WARPSIM_CPU_MEM_FIXED_H
#define WARPSIM_CPU_MEM_FIXED_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/cpu_core.h"

struct cpu_mem_fixed_params {
    uint32_t latency;        /* cycles from a read's start to its reply: 200 */
    uint32_t interval;       /* cycles between request starts (bandwidth): 4 */
    uint32_t max_inflight;   /* reads in flight before send refuses: 256 */
};
void cpu_mem_fixed_params_default(struct cpu_mem_fixed_params *p);

struct cpu_mem_fixed_stats {
    uint64_t reads, writes, queue_cycles;   /* queue_cycles: summed wait for the channel */
};

struct cpu_mem_fixed;
struct cpu_mem_fixed *cpu_mem_fixed_new(struct arena *a, const struct cpu_mem_fixed_params *p,
                                        struct mem_req_pool *pool);
/* Take a request (false: full, retry later). A write is freed into `pool`. */
bool cpu_mem_fixed_send(struct cpu_mem_fixed *m, struct mem_req *r, sim_cycle now);
/* The next read whose reply is due at or before now (NULL: none), in order. */
struct mem_req *cpu_mem_fixed_reply(struct cpu_mem_fixed *m, sim_cycle now);
sim_cycle cpu_mem_fixed_next(const struct cpu_mem_fixed *m);   /* next reply due, SIM_NEVER if none */
const struct cpu_mem_fixed_stats *cpu_mem_fixed_stats(const struct cpu_mem_fixed *m);

/* Run core c on m until it is done or max_cycles (0: no limit) passed,
   skipping idle cycles.  Statistics are measured from the cycle the core
   had retired `warmup` instructions (0: from the start) into *out.
   Returns 0, or -1 with a message (trace error, cycle limit, no progress). */
int cpu_run_fixed(struct cpu_core *c, struct cpu_mem_fixed *m, uint64_t warmup, sim_cycle max_cycles,
                  struct cpu_core_summary *out, char *err, size_t n);

#endif
