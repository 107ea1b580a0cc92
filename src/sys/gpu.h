/*
 * gpu.h - the whole simulated GPU: SMs, request and reply crossbars, memory
 * sub-partitions (L2 slices) and DRAM channels, their clock domains, CTA
 * dispatch through the CTA scheduling policy, and the statistics of the run.
 *
 * Clocking: each domain has an integer period in picoseconds
 * (-gpgpu_clock_domains); the engine advances global time to the next edge of
 * any domain and ticks the components of every domain with an edge there, in
 * reverse pipeline order (DRAM, L2, interconnect, SMs).  When nothing can
 * happen before some later cycle (all warps wait for memory, queues hold
 * entries not yet ready) time jumps there instead of ticking idle cycles.
 * A watchdog stops the run with every component's state printed when nothing
 * made progress for -warpsim_deadlock_cycles core cycles.
 *
 * Statistics: every component registers its counters (core/stats.h); per
 * kernel the GPU snapshots them at start and end.  Outputs: the text summary in
 * GPGPU-Sim's `name = value` style, JSON, a time series CSV sampled every
 * -warpsim_sample_interval core cycles, and the per-warp file.
 */
#ifndef WARPSIM_GPU_H
#define WARPSIM_GPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/stats.h"
#include "fe/ptx/ptx_exec.h"
#include "sys/gpu_config.h"

struct gpu;   /* opaque */

/* Per-kernel results (also accumulated into totals). */
struct gpu_kernel_result {
    char name[128];
    unsigned kernel_id;
    uint64_t cycles;                 /* gpu_sim_cycle */
    uint64_t thread_insns, warp_insns;   /* thread insns: lanes whose guard predicate holds (GPGPU-Sim) */
    uint64_t active_lane_insns;       /* lanes active at issue whatever the guard (warpsim_active_lane_insn) */
    double ipc;                      /* thread instructions per core cycle (GPGPU-Sim's gpu_ipc) */
};

/* The number of host threads that tick the SMs for -warpsim_threads `option` (0: automatic) */
unsigned gpu_threads_for(unsigned option, unsigned n_sms);
/* cfg: loaded config (copied). Returns NULL with msg on failure. */
struct gpu *gpu_new(const struct gpu_config *cfg, char *msg, size_t n);
void gpu_free(struct gpu *g);
const struct gpu_config *gpu_config(const struct gpu *g);

/* Take the dotted policy parameters of c (-warp_sched.gto.x, -cta_sched.dyncta.t_idle ...):
   validated against the registered policies, marked used, copied; applied to
   each policy's state when a kernel starts.  -1 with *err (position of the entry).
   The replacement parameters (-repl.srrip.rrpv_bits ...) are applied here, to
   every cache whose policy has parameters (its policy state is rebuilt: call
   this before the first kernel, as ws_set_timing_config does). */
int gpu_set_policy_params(struct gpu *g, struct cfg *c, struct cfg_error *err);
/* The active policies' parameters as dotted options (for the effective config):
   the warp and CTA schedulers' and those of every replacement policy in use. */
void gpu_write_policy_params(const struct gpu *g, FILE *f);

/* Outputs (NULL = off).  The files are created (truncated) at once, so a bad
   path fails here, and rows are appended per kernel (docs/timing.md lists the
   columns). */
int gpu_set_outputs(struct gpu *g, const char *timeseries_csv, const char *warps_csv, char *msg, size_t n);
/* Progress on stderr once a run has taken GPU_PROGRESS_DELAY host seconds: kernel, CTAs done, cycle,
   warp instructions, IPC so far, host rate and, when the run's warp instruction count is known
   (gpu_set_progress_expect), an ETA.  GPU_PROGRESS_TTY rewrites one line about every second;
   GPU_PROGRESS_LINES prints a plain line every GPU_PROGRESS_EVERY seconds (logs, pipes). */
enum gpu_progress { GPU_PROGRESS_OFF, GPU_PROGRESS_TTY, GPU_PROGRESS_LINES };
#define GPU_PROGRESS_DELAY 2.0
#define GPU_PROGRESS_EVERY 10.0
void gpu_set_progress(struct gpu *g, enum gpu_progress mode);
/* The whole run's warp instructions (every kernel), 0 = unknown. */
void gpu_set_progress_expect(struct gpu *g, uint64_t warp_insns);

/* Run one launch (grid initialised by the caller, ptx_grid_init) to completion.
   Returns 0, or -1 with a message (executor fault with its memory-checker
   report, deadlock/watchdog with the state dump, unknown policy). */
int gpu_run_kernel(struct gpu *g, struct ptx_grid *grid, const char *kernel_name, struct gpu_kernel_result *res,
                   char *msg, size_t n);

/* Reports over every kernel run so far. */
void gpu_report_text(const struct gpu *g, FILE *f);
/* JSON object body (without surrounding braces) with "totals" and "kernels". */
void gpu_report_json(const struct gpu *g, FILE *f, int indent);
const struct stats *gpu_stats(const struct gpu *g);
uint64_t gpu_total_cycles(const struct gpu *g);

/* ---- additions (integration) ---- */
/* Idle skipping on (default) or off.  Results never depend on it: a component
   may be ticked with gaps in `now` (the skipped cycles are ones in which it
   had nothing to do, per its *_next_event); a component that counts per-cycle
   statistics accounts for the skipped cycles at its next tick.  At the end of
   every kernel each domain is ticked at its last edge inside the kernel, so
   such lazily accounted counters are complete when the kernel's statistics
   are taken. */
void gpu_set_idle_skip(struct gpu *g, bool on);
/* Text report with (per_kernel) or without each kernel's full section; the
   totals section and a one-line summary per kernel are always written. */
void gpu_report_text_ex(const struct gpu *g, FILE *f, int per_kernel);
/* Kernels run so far, and the result of kernel i (0-based, in launch order). */
unsigned gpu_kernel_count(const struct gpu *g);
const struct gpu_kernel_result *gpu_kernel_get(const struct gpu *g, unsigned i);

/* addition: CTA events of the dispatch mechanism (tests, tracing): a CTA
   dispatched to an SM, paused, resumed, finished; an SM's CTA limit set (cta =
   UINT64_MAX, value = the new limit n; also at every kernel start).  value is
   otherwise the SM's running (unpaused) CTAs after the event.  NULL = off. */
enum gpu_cta_event { GPU_CTA_DISPATCH = 0, GPU_CTA_PAUSE, GPU_CTA_UNPAUSE, GPU_CTA_DONE, GPU_CTA_LIMIT };
typedef void (*gpu_cta_event_fn)(void *user, enum gpu_cta_event ev, unsigned sm, uint64_t cta, unsigned value,
                                 uint64_t now);
void gpu_set_cta_event_hook(struct gpu *g, gpu_cta_event_fn fn, void *user);

#endif
