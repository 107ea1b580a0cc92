/*
 * gpu_cpu.h - CPU cores on the GPU's memory system: seed 004's heterogeneous
 * chip (docs/hetero.md).  -warpsim_cpu_cores trace-driven out-of-order cores
 * (cpu/cpu_core.h) sit on the request and reply networks beside the SMs;
 * their private L2 misses go to the shared L2 slices (004's LLC), which sit
 * in front of the DRAM channels (004's memory controllers).
 *
 * What each core runs (-warpsim_cpu_apps): a synthetic profile
 * (cpu/tracegen.h), or a ChampSim trace file, one per core in order; a mix
 * name (L1, L2, M1, M2, H1, H2) stands for its 14 profiles, "-" (or "idle")
 * leaves a core idle.  Each core's
 * addresses are moved into a region of their own (core i: + (i + 1) << 44)
 * so that applications share the LLC and DRAM but no data, with each other or
 * with the GPU.  Traces loop at their end.
 *
 * Protocol (004 sec. 5, scaled by the options): before the first GPU kernel
 * the cores run alone until every one has retired -warpsim_cpu_warmup
 * instructions; from the GPU's start each core is measured over its next
 * -warpsim_cpu_quota instructions (IPC = quota / cycles), and every core keeps
 * running until the slowest has its quota (after the GPU's last kernel the
 * cores finish alone: gpu_cpu_finish).
 */
#ifndef WARPSIM_GPU_CPU_H
#define WARPSIM_GPU_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu_core.h"
#include "sys/gpu_config.h"

struct gpu;

/* The core parameters of the config (core `core`'s id). 0, or -1 when the machine has none. */
int gpu_cpu_core_params(const struct gpu_config *g, unsigned core, struct cpu_core_params *p);
/* Check -warpsim_cpu_apps: 0 with *n = the applications it names (mixes expanded), or -1 with the
   item at fault in msg. */
int gpu_cpu_apps_check(const char *apps, unsigned *n, char *msg, size_t len);

/* One CPU core's results (IPC over its measured quota; -1 fields when not measured). */
struct gpu_cpu_result {
    const char *app;           /* profile name or trace path; NULL: the core idled */
    uint64_t insns, cycles;    /* retired and CPU cycles over the measured quota */
    uint64_t start_insns;      /* retired before the measurement started (warm-up and the wait for the GPU) */
    double ipc;
    double l2_mpki;            /* private L2 read misses per kilo-instruction over the quota */
    double avg_mem_latency;    /* core cycles (GPU core clock) from leaving the core to the reply */
};
unsigned gpu_cpu_count(const struct gpu *g);
/* Instructions every CPU core retired in the whole run (warm-up and all). */
uint64_t gpu_cpu_total_insns(const struct gpu *g);
/* false when core i idled or was not measured (yet). */
bool gpu_cpu_result(const struct gpu *g, unsigned i, struct gpu_cpu_result *out);
/* Run the CPU cores (and the memory system, no GPU kernel) until every busy core has its quota,
   warming them up first if no kernel ran.  0, or -1 with msg (a trace error, the watchdog). */
int gpu_cpu_finish(struct gpu *g, char *msg, size_t n);

#endif
