/*
 * sm.h - one streaming multiprocessor (shader core), cycle by cycle.
 *
 * Pipeline (GPGPU-Sim's shader core, simplified where noted in docs/timing.md):
 *   fetch: one warp per cycle (round-robin over warps with ibuffer space)
 *          reads its next PC through the L1 instruction cache (misses go to
 *          memory like any read); after fetch_latency cycles the instruction
 *          enters the warp's ibuffer (ibuffer_size entries).
 *   issue: each of num_sched_per_core schedulers owns warps slot % n_sched;
 *          its policy (policy/warp_sched.h) orders them, the SM visits them in
 *          that order, probes each (latency attribution, SPEC section 5) and
 *          issues the first ready one (up to max_insn_issue_per_warp from one
 *          warp).  Ready = instruction in ibuffer, not at a barrier, no
 *          control hazard, scoreboard clear for its source and destination
 *          registers, its functional unit can accept.
 *   execute at issue: the PTX executor runs the instruction (ptx_warp_step)
 *          and describes it (struct warp_inst); the timing model then charges
 *          it: SP/SFU/DP units with latency and initiation interval per op
 *          class, writeback ports, the LD/ST unit (coalescing into line or
 *          sector requests, shared-memory bank conflicts, L1D with MSHRs and
 *          reservation failures, constant cache, texture), branches (ibuffer
 *          flushed; fetch resumes at the new PC after branch_latency), barriers.
 *   writeback: results release the scoreboard when their latency elapses;
 *          load results when the last of their requests has returned.
 * CTAs: resources (threads, registers from ptxas when known, else PTX
 * registers rounded, shared memory, CTA slots) limit residency; the GPU
 * dispatches CTAs (sm_can_take_cta / sm_launch_cta); a finished CTA frees its
 * slot.  Warps of paused CTAs (DYNCTA) are visited last.
 *
 * Memory side: requests leave through sm_pop_request (the GPU pushes them into
 * the request network), replies come back through sm_push_reply.
 * Ownership: the SM allocates requests from the shared pool and frees the
 * replies it consumes.  Everything is allocated in sm_new / at kernel start;
 * sm_cycle never allocates.
 */
#ifndef WARPSIM_SM_H
#define WARPSIM_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/stats.h"
#include "fe/ptx/ptx_exec.h"
#include "mem/addr_map.h"
#include "mem/mem_req.h"
#include "policy/warp_sched.h"
#include "sys/gpu_config.h"

/* The seeds' per-core metrics (SPEC section 0), accumulated over the run.
   Definitions (docs/timing.md):
     n_act      cycles with >= 1 resident warp in which the core issued or could
                issue an instruction (it can fetch new warps: not every warp blocked),
                or in which its lanes still stream the warp issued last (SIMT width
                below 32: 32 / width cycles from the issue)
     n_inact    cycles with >= 1 resident warp in which every warp was blocked
     c_idle     cycles the pipeline was not stalled but no warp had an instruction
                to issue (no warps, or all at barriers / waiting for fetch / done;
                -warpsim_c_idle_fetch 0: no warps, or all at barriers)
     c_mem      cycles every resident warp waited for memory (pending loads)
     util_cycles cycles with at least one CTA resident
   lat_rt: core cycles from a request leaving the SM to its reply returning. */
#define SM_LAT_HIST_BUCKETS 16
struct sm_metrics {
    uint64_t cycles, n_act, n_inact, c_idle, c_mem, util_cycles;
    uint64_t issued_warp_insns, issued_thread_insns;
    uint64_t lat_rt_sum, lat_rt_count, lat_rt_max;
    uint64_t stall[STALL_COUNT];       /* latency attribution, summed over warps */
    uint64_t scheduling;               /* Algorithm 2's scheduling delay, summed */
    uint64_t l1d_res_fail_cycles, shmem_bank_conflicts, coalesced_requests, mem_insns;
    uint64_t ctas_done, warps_done;
    /* additions: lat_rt histogram, -warpsim_lat_hist_bucket cycles per bucket,
       the last bucket open-ended */
    uint64_t lat_rt_hist[SM_LAT_HIST_BUCKETS];
    /* addition: CPL prediction accuracy (000 sec. 4.3.3; schedulers with is_critical): over
       completed CTAs, the periodic samples of each CTA's slowest warp (the last to exit) and
       those in which the scheduler called it critical */
    uint64_t cpl_samples, cpl_slow;
    /* addition: 004's stall_GPU, summed over cycles: schedulers that had live warps and issued
       nothing (0 .. schedulers per cycle) */
    uint64_t stall_gpu;
    /* addition: warp instructions issued by warps of paused CTAs (DYNCTA deprioritises a paused
       CTA, it does not stop it: 001 sec. IV) */
    uint64_t paused_warp_insns;
};

/* One finished warp (the per-warp file; CAWS reads it as its oracle). */
struct warp_record {
    unsigned kernel_id, sm;
    uint64_t cta_linear;
    unsigned warp_in_cta;
    sim_cycle start, end;
    uint64_t insns;
    uint64_t scheduling;
    uint64_t stall[STALL_COUNT];
};
typedef void (*sm_warp_done_fn)(void *user, const struct warp_record *r);

struct sm;   /* opaque */

struct sm *sm_new(struct arena *a, const struct gpu_config *g, unsigned id, const struct addr_map *map,
                  struct mem_req_pool *pool);
void sm_reg_stats(struct sm *s, struct stats *st, const char *prefix);
const struct sm_metrics *sm_get_metrics(const struct sm *s);
void sm_set_warp_done_hook(struct sm *s, sm_warp_done_fn fn, void *user);

/* Dotted policy parameters (policy/params.h) applied to the warp scheduler's
   state at each kernel start; NULL = the policy's defaults. */
struct policy_params;
void sm_set_policy_params(struct sm *s, const struct policy_params *pp);
struct cache;
/* addition: the SM's caches, i = 0 L1D, 1 L1I, 2 constant, 3 texture (the order of
   gpu_config's GPU_CACHE_*); NULL past them */
struct cache *sm_cache(struct sm *s, unsigned i);
/* addition: the running kernel's access ranges for a locality-aware warp
   policy (sm_view.loc), set before sm_kernel_begin; NULL = none.  The
   caller keeps it alive until sm_kernel_end. */
struct cta_locality;
void sm_set_locality(struct sm *s, const struct cta_locality *loc);

/* Kernel boundaries: bind the grid (CTAs allocate their executor state here,
   not in the tick loop) and choose the warp scheduler; -1 with a message on
   failure (e.g. unknown policy). */
int sm_kernel_begin(struct sm *s, struct ptx_grid *grid, unsigned kernel_id, const char *warp_sched,
                    char *msg, size_t n);
/* own: the SM's warps count executed instructions in a block of its own instead of the grid's
   (set before kernels start: SMs ticked by several threads must not share the grid's counters);
   sm_fold_counts adds that block to `to` (the grid's) and clears it. */
void sm_count_own(struct sm *s, bool own);
void sm_fold_counts(struct sm *s, struct ptx_counts *to);
/* Free what the SM holds outside its arena (CTA buffers kept across kernels). */
void sm_release(struct sm *s);
void sm_kernel_end(struct sm *s);

/* CTAs of the current kernel that fit on an empty SM (N of the seeds), given
   its resources; 0 when one CTA does not fit at all. */
unsigned sm_max_ctas(const struct sm *s);
unsigned sm_resident_ctas(const struct sm *s);
bool sm_can_take_cta(const struct sm *s);
void sm_launch_cta(struct sm *s, uint64_t cta_linear, sim_cycle now);
/* CTA pausing (DYNCTA): paused CTAs' warps are visited after all others. */
void sm_set_cta_paused(struct sm *s, unsigned cta_slot, bool paused);
/* A concurrency manager's active warp limit for the core (policy/cm.h), handed to the warp
   scheduler's set_limit between cycles; sm_warp_limit: the last one set (0: none this kernel). */
void sm_set_warp_limit(struct sm *s, unsigned limit);
unsigned sm_warp_limit(const struct sm *s);
/* addition: the CTA slot holding resident CTA cta_linear, -1 when it is not resident. */
int sm_cta_slot(const struct sm *s, uint64_t cta_linear);

/* addition: the warp policy's time-series value (warp_sched_ops.sample,
   combined over the SM's schedulers that have warps, 0 when none has);
   false when the policy has none or no kernel is bound. */
bool sm_policy_sample(const struct sm *s, double *v);

/* One core cycle. Returns true if anything happened (progress, for the watchdog). */
bool sm_cycle(struct sm *s, sim_cycle now);
/* What sm_cycle_part did: nothing that counts as progress, progress, or (parallel only) stopped
   before touching state that other SMs share. */
enum sm_step { SM_QUIET = 0, SM_PROGRESS = 1, SM_YIELDED = 2 };
/* sm_cycle, split for threads: with `parallel` the cycle stops before a warp leaves the SM or an
   instruction reads or writes global memory (or calls), which other SMs share; everything before
   that touches only this SM (its caches, its request pool, its own instruction counts), so SMs can
   run it at the same time.  sm_cycle_resume then finishes the stopped cycles, one SM after the
   other in SM order, which gives exactly what sm_cycle on each SM in order gives. */
int sm_cycle_part(struct sm *s, sim_cycle now, bool parallel);
bool sm_cycle_resume(struct sm *s, sim_cycle now);
/* Outgoing request ready to enter the interconnect at `now`, or NULL; pop when taken. */
struct mem_req *sm_peek_request(struct sm *s, sim_cycle now);
void sm_pop_request(struct sm *s);
/* Replies from the interconnect. */
bool sm_can_take_reply(const struct sm *s);
void sm_push_reply(struct sm *s, struct mem_req *r, sim_cycle now);

bool sm_busy(const struct sm *s);   /* any CTA resident or request/reply in flight */
/* Earliest core cycle at which sm_cycle could do something without new input
   (now+1 while warps can issue; SIM_NEVER when it only waits for replies). */
/* Whether sm_cycle(now) can do anything that skipping it would not: something is due by `now`,
   or a CTA was launched or paused since its last tick.  A skipped cycle is accounted as the
   previous tick (sm_cycle catches up), so ticking only due SMs leaves the statistics as they are. */
bool sm_due(const struct sm *s, sim_cycle now);
/* What the run loop asks of every SM at every edge, kept up to date by the SM (after each tick and
   at each call that changes it from outside) in a slot the caller owns: reading an array over the
   SMs costs less than a call per SM.
     due: sm_due(s, c) holds exactly when c >= due;
     evt: sm_next_event(s, now) is max(evt, now + 1), or SIM_NEVER when evt is;
     out: the ready cycle of the outgoing queue's head (sm_peek_request(s, c) is not NULL exactly
          when c >= out), SIM_NEVER when the queue is empty.
   Until sm_set_times_slot the SM keeps them in a slot of its own. */
struct sm_times {
    sim_cycle due, evt, out;
};
void sm_set_times_slot(struct sm *s, struct sm_times *slot);
/* Account the cycles up to `upto` that the SM was not ticked in, for readers of its counters. */
void sm_settle(struct sm *s, sim_cycle upto);
sim_cycle sm_next_event(const struct sm *s, sim_cycle now);
/* Fault in the executor (memory checker, trap): message in the grid. */
bool sm_faulted(const struct sm *s);
/* One line describing the SM's state (watchdog dump). */
void sm_dump(const struct sm *s, FILE *f);

#endif
