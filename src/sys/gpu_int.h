/*
 * gpu_int.h - the struct behind struct gpu, shared by gpu.c (assembly),
 * gpu_run.c (clock engine, CTA dispatch, watchdog) and gpu_report.c
 * (summaries, text/JSON reports, time series, per-warp file).  Private to
 * src/sys/.
 *
 * The reports are computed from "summary vectors": flat uint64_t arrays that
 * gpu_gather() fills from the components' counters (a fixed block of
 * whole-GPU values, one block per SM, then the lat_rt histogram).  A kernel's
 * numbers are the difference of the vectors gathered at its start and end; a
 * time-series row the difference between two samples.  Every entry is a
 * counter that only grows, so differences are always meaningful.
 */
#ifndef WARPSIM_GPU_INT_H
#define WARPSIM_GPU_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "core/stats.h"
#include "cpu/cpu_core.h"
#include "gpu/sm.h"
#include "mem/addr_map.h"
#include "mem/dram.h"
#include "mem/mem_req.h"
#include "mem/partition.h"
#include "policy/params.h"
#include "noc/icnt.h"
#include "policy/cm.h"
#include "policy/cta_sched.h"
#include "sys/gpu.h"
#include "policy/params.h"

/* clock domains, in the order they tick at a shared edge (reverse pipeline order) */
enum gpu_dom { GD_DRAM = 0, GD_L2, GD_ICNT, GD_CORE, GD_CPU, GD_COUNT };   /* GD_CPU: only with CPU cores */

/* fixed block of a summary vector */
enum gsum {
    GS_CORE_CYCLES = 0,        /* core clock edges elapsed (skipped ones included) */
    GS_ICNT_CYCLES, GS_L2_CYCLES, GS_DRAM_CYCLES,
    GS_THREAD_INSNS, GS_WARP_INSNS,   /* issued, summed over SMs */
    GS_RES_WARP_CYCLES,        /* sum over core cycles and SMs of active warps (occupancy) */
    GS_CTAS_DONE, GS_WARPS_DONE,
    GS_L1D_ACC, GS_L1D_MISS, GS_L1D_HITRES, GS_L1D_RESFAIL,
    GS_L2_ACC, GS_L2_MISS, GS_L2_HITRES, GS_L2_RESFAIL,
    /* reservation failures by cause (cache_stats.res_fail_mshr, _merge, _line), L1D then L2 */
    GS_L1D_RF_MSHR, GS_L1D_RF_MERGE, GS_L1D_RF_LINE, GS_L2_RF_MSHR, GS_L2_RF_MERGE, GS_L2_RF_LINE,
    /* GPGPU-Sim's access/outcome tables (gpu_report.c): reads and read misses of the L1D and the L2,
       the L2's read hits, and the L1I, constant and texture caches (read-only) at GS_L1X + 5 * c + k,
       c = 0..2 in that order, k: hits, pending hits, misses, reservation failures, accesses */
    GS_L1D_READS, GS_L1D_RMISS, GS_L2_READS, GS_L2_RHIT, GS_L2_RMISS,
    GS_L1X, GS_L1X_END = GS_L1X + 3 * 5 - 1,
    GS_STALL_DRAMFULL,                   /* requests waiting for a full sub-partition (gpu_stall_dramfull) */
    /* bypass and reuse (mem/cache.h cache_stats.bypassed, evictions, evicted_never_reused) */
    GS_L1D_BYP, GS_L1D_EVICT, GS_L1D_EVICT0, GS_L2_BYP, GS_L2_EVICT, GS_L2_EVICT0,
    /* reads by critical / other warps at the L1D (cache_stats.crit_*, nc_*; CAWA) */
    GS_L1D_CACC, GS_L1D_CHIT, GS_L1D_CPHIT, GS_L1D_NACC, GS_L1D_NHIT, GS_L1D_NPHIT,
    GS_CPL_SAMPLES, GS_CPL_SLOW,         /* CPL accuracy (sm_metrics.cpl_samples, cpl_slow) */
    GS_STALL_GPU,                        /* 004's stall_GPU (sm_metrics.stall_gpu), summed over SMs */
    GS_PAUSED_WINSN,                     /* warp instructions of paused CTAs (sm_metrics.paused_warp_insns) */
    GS_CM_DECISIONS, GS_CM_LIMIT_SUM,    /* concurrency manager: decisions, and the limits they set summed */
    GS_P_REQS, GS_P_REPLIES, GS_P_STALL_MC, GS_P_STALL_NET, GS_P_L2_RES_FAIL,
    GS_IREQ_PKTS, GS_IREQ_FLITS, GS_IREQ_LAT, GS_IREQ_STALL,
    GS_IREP_PKTS, GS_IREP_FLITS, GS_IREP_LAT, GS_IREP_STALL,
    GS_D_READS, GS_D_WRITES, GS_D_ROWHIT, GS_D_ROWMISS, GS_D_ACT, GS_D_QLAT, GS_D_BUSY,
    GS_LATRT_SUM, GS_LATRT_CNT,          /* measured by the GPU when a reply reaches its SM */
    GS_SCHED,                             /* latency attribution: Scheduling, summed */
    GS_STALL0,                            /* + enum stall_reason */
    GS_FIXED = GS_STALL0 + STALL_COUNT
};
/* per-SM block (at GS_FIXED + sm * PC_COUNT) */
enum gsum_core {
    PC_CYCLES = 0, PC_NACT, PC_NINACT, PC_CIDLE, PC_CMEM, PC_UTIL, PC_WINSN, PC_TINSN, PC_CTAS, PC_L1D_ACC,
    PC_L1D_MISS, PC_RES_WARP_CYCLES, PC_STALL_GPU, PC_COUNT
};

/* per-sub-partition block (at GS_FIXED + n_sms * PC_COUNT + GPU_HIST_BUCKETS + p * PP_COUNT) */
enum gsum_part {
    PP_REQS = 0,      /* requests the sub-partition took from the request network */
    PP_L2_ACC, PP_L2_MISS,
    PP_IREQ_PKTS,     /* request-network packets delivered to it, and their latency summed */
    PP_IREQ_LAT,
    PP_STALL_MC, PP_STALL_NET,
    PP_COUNT
};

#define GPU_HIST_BUCKETS 64   /* lat_rt histogram: 63 buckets of lat_hist_bucket cycles + overflow */

struct gpu_kernel_rec {
    struct gpu_kernel_result res;
    uint64_t start_cycle, end_cycle;   /* global core cycles of its first and last tick */
    uint64_t n_ctas;
    uint32_t grid[3], block[3];
    uint64_t lat_rt_max;               /* core cycles */
    double host_seconds;
    uint64_t *sum;                     /* end - start summary vector [g->nsum] */
    int failed;                        /* stopped by a fault, the watchdog or max_cycle */
};

/* per-SM state of the CTA limit mechanism */
struct gpu_cta_sm {
    unsigned limit;                    /* n (1..max_fit) */
    unsigned running, paused;          /* CTAs in flight on the SM, by state */
    unsigned got;                      /* CTAs received in the dispatch round under way (0 outside it) */
};

/* one CPU core of the chip (gpu_cpu.c) */
struct gpu_cpu_slot {
    struct cpu_core *core;             /* NULL: the core idles (no application) */
    const char *app;
    struct cpu_src *file;              /* a trace file's source (closed by gpu_free), else NULL */
    sim_cycle next;                    /* next CPU cycle it needs a tick (0: the next edge) */
    /* measurement over the quota: samples at its start and its end (CPU cycles) */
    struct cpu_core_sample s0, s1;
    sim_cycle start_cycle, done_cycle; /* done_cycle SIM_NEVER until the quota is reached */
    uint64_t lat_sum, lat_cnt;         /* memory round trips (core cycles), all run */
    uint64_t lat_sum0, lat_cnt0, lat_sum1, lat_cnt1;   /* ...at the measurement's start and end */
    uint64_t ts_insns;                 /* retired at the last time-series sample */
};
enum gpu_cpu_phase { GPU_CPU_WARMUP = 0, GPU_CPU_MEASURING, GPU_CPU_DONE };

struct gpu {
    struct gpu_config cfg;             /* deep copy: strings live in the arena */
    struct arena *arena;
    struct stats stats;
    struct mem_req_pool pool;          /* the partitions' requests (L2 write-backs) */
    struct mem_req_pool *sm_pool;      /* [n_sms] each SM's own (mem_req.h) */
    struct arena **sm_arena;           /* [n_sms] behind each SM's pool */
    /* SMs ticked by several host threads (-warpsim_threads; docs/timing.md) */
    struct workers *team;              /* NULL: one thread */
    unsigned *due;                     /* [n_sms] SMs due in the core cycle being ticked */
    unsigned ndue;
    uint8_t *due_rc;                   /* [n_sms] sm_cycle_part's answer per SM */
    sim_cycle par_now;
    sim_cycle par_off_until;           /* until then the SMs tick on the main thread (other load) */
    unsigned par_rounds, par_slow_rounds;
    struct addr_map map;               /* the SMs' (every channel, or the GPU's with -warpsim_mc_partition) */
    struct addr_map map_cpu;           /* the CPU cores' (= map when the channels are shared) */
    unsigned cpu_part0;                /* first sub-partition of the CPU cores' channels (0 when shared) */
    unsigned n_sms, n_parts, n_chan;
    struct sm **sm;
    struct sm_times *smt;              /* [n_sms] what each SM publishes for the run loop (sm_set_times_slot) */
    sim_cycle out_min;                 /* at most every smt[i].out: only an SM's tick queues a request */
    const struct mem_req **inj_refused;   /* [n_sms] the head the request network refused, or NULL
                                          (out_min leaves those SMs out) */
    uint32_t *inj_version;             /* [n_sms] ...at this icnt_room_version of the SM's input */
    unsigned n_refused;                /* SMs with a refused head */
    uint32_t refused_any;              /* icnt_room_version_any at the last look at them */
    struct dram_channel **dram;        /* [n_chan] */
    struct mem_partition **part;       /* [n_parts] */
    uint8_t *part_busy;                /* [n_parts, zeros to a multiple of 8] what each partition
                                          publishes (PART_BUSY_*) */
    struct icnt *req_net, *rep_net;

    /* clocks: cyc[d] = number of the next edge of domain d, at time cyc[d] * per[d] */
    sim_ps per[GD_COUNT];
    sim_cycle cyc[GD_COUNT];
    sim_cycle last_tick[GD_COUNT];     /* last cycle ticked (SIM_NEVER before the first) */
    sim_ps edge[GD_COUNT];             /* time of edge cyc[d] (gpu_set_edge) */
    bool idle_skip;
    uint64_t skips, skipped_core_cycles;   /* how often / how far time jumped */

    /* CTA dispatch */
    const struct cta_sched_ops *cta_ops;
    void *cta_state;
    struct policy_params pparams;      /* dotted policy parameters (own arena) */
    struct sm_cta_view *views;         /* [n_sms] */
    uint64_t next_cta, n_ctas;
    uint64_t ctas_before_launch;        /* CTAs of the run's earlier launches (-gpgpu_max_cta counts them) */
    uint64_t ctas_issued;               /* CTAs of this launch dispatched so far (-gpgpu_max_cta; time series) */
    unsigned cur_cta_warps;            /* warps per CTA of the running kernel */
    /* CTAs in flight per SM (UINT64_MAX = free entry); seq = dispatch order on
       the GPU (most recently assigned = largest), slot = the SM's CTA slot */
    struct { uint64_t cta; unsigned warps_done; uint64_t seq; int slot; uint8_t paused; } *cta_track;
    unsigned cta_track_per_sm;
    /* CTA limits (policy update hook, docs/policies.md) */
    struct gpu_cta_sm *cta_sm;         /* [n_sms], arena, allocated at the first kernel */
    bool cta_blocked;                  /* no SM had room for a CTA after the last dispatch round: the next
                                          round waits for a warp to leave or a limit or pause to change */
    bool cta_enforce_due;              /* a limit or a running/paused count changed since the SMs were
                                          last brought to their limits (tick_core) */
    unsigned *cta_limit_buf;           /* [n_sms] the limits handed to the policy's update */
    sim_cycle cta_next_update;         /* core cycle at whose end update runs next, SIM_NEVER = none */
    uint64_t cta_seq;                  /* dispatches so far (the seq of the next) */
    gpu_cta_event_fn cta_event;
    void *cta_event_user;
    /* locality-aware dispatch (gpu_locality.c): the kernel's access ranges when
       a policy needs them, and which CTAs left already when the CTA policy
       picks CTAs out of order (pick_cta); both per kernel, NULL otherwise */
    struct cta_locality *loc;
    uint8_t *cta_dispatched;           /* [n_ctas] */
    struct ptx_grid *grid;             /* the running kernel */
    unsigned kernel_id;                /* 1-based id of the running / last kernel */

    /* whole-GPU counters (registered as gpu.*) */
    uint64_t ctr_lat_rt_sum, ctr_lat_rt_cnt, ctr_res_warp_cycles;   /* the last: active warps x cycles */
    uint64_t ctr_stall_dramfull;       /* icnt cycles x sub-partitions: a delivered request waited, partition full */
    uint64_t *ctr_res_warp_cycles_sm;  /* [n_sms], up to res_since (res_flush) */
    sim_cycle *res_since;              /* [n_sms] first core cycle not yet in ctr_res_warp_cycles_sm */
    unsigned *active_warps;            /* [n_sms] warps dispatched and not yet finished (slot held) */
    uint64_t active_warps_total;       /* their sum */
    uint64_t *hist;                    /* [GPU_HIST_BUCKETS] lat_rt histogram */
    uint64_t ctr_mem_req_alloc, ctr_mem_req_retired;   /* mirrors of the pool at kernel ends */
    uint64_t kernel_lat_rt_max;

    /* registry indices of counters only reachable by name (-1 = absent) */

    /* summaries */
    unsigned nsum;                     /* GS_FIXED + n_sms * PC_COUNT + GPU_HIST_BUCKETS */
    uint64_t *sum_start, *sum_now, *sum_prev_sample;   /* scratch vectors */
    struct gpu_kernel_rec *kernels;
    unsigned nkernels, cap_kernels;
    uint64_t tot_cycles;               /* gpu_tot_sim_cycle */
    double tot_host_seconds;

    /* outputs */
    char *ts_path, *warps_path;
    FILE *ts, *warps;
    int ts_header_done, warps_header_done;
    /* time series with a bypass policy: the L1D PCs followed (GPU_TS_BYP_PCS columns, given to PCs
       in the order their first bypassed request shows in a sample) */
#define GPU_TS_BYP_PCS 8
    uint32_t ts_byp_pc[GPU_TS_BYP_PCS];
    unsigned ts_byp_n;
    uint64_t sample_prev_cycle;        /* global core cycle of the last sample boundary */
    uint8_t progress;                  /* enum gpu_progress */
    bool progress_shown;               /* a TTY line is on the terminal (cleared at the kernel's end) */
    double progress_next;              /* host time of the next progress line */
    double progress_t_run;             /* host time the first kernel started */
    uint64_t progress_expect;          /* the run's warp instructions when known (ETA), else 0 */
    uint64_t progress_warp_before;     /* warp instructions of the kernels already finished */

    /* CPU cores of the chip (gpu_cpu.c; -warpsim_cpu_cores) */
    unsigned n_cpus, cpu_active;       /* cores, and those with an application */
    struct gpu_cpu_slot *cpu;          /* [n_cpus] */
    struct mem_req_pool cpu_pool;      /* their requests (touched by the main thread only) */
    uint8_t cpu_phase;                 /* enum gpu_cpu_phase */
    unsigned cpu_pending;              /* measured cores that have not reached their quota */
    sim_cycle ts_cpu_cycle;            /* CPU cycle of the last time-series sample */

    /* concurrency manager (gpu_cm.c, policy/cm.h): set up at the first kernel */
    bool cm_ready;
    const struct cm_ops *cm_ops;
    void *cm_state;
    size_t cm_st_size;
    struct cm_core_view *cm_core;      /* [n_sms] the interval's metrics and the limit in force */
    unsigned *cm_limit;                /* [n_sms] the manager's answer */
    uint64_t *cm_stall0;               /* [n_sms] stall_gpu at the interval's start */
    uint64_t cm_mc0, cm_net0, cm_l2c0; /* partition stall sums and L2 cycles at the interval's start */
    unsigned cm_interval;
    sim_cycle cm_next;                 /* core cycle at whose end the next decision runs, SIM_NEVER = none */
    uint64_t cm_decisions, cm_limit_sum;   /* for the average limit over decisions */
    double cm_last_mc, cm_last_net;

    uint64_t clock_now;                /* the core cycle being ticked (grid->clock: %clock) */
    bool broken;                       /* a kernel failed: the machine state is undefined */
    char broken_msg[256];
};

/* gpu_locality.c: access ranges of the grid's CTAs (and, with warps, the
   lines each warp touches; with tiles, each CTA's boxes per array: struct
   cta_locality.box) from the kernel's address slices (flags:
   PTX_SLICE_* of fe/ptx/ptx_slice.h); NULL with msg
   when the host runs out of memory (a kernel whose accesses cannot be sliced
   gets a table with no arrays).  Free with gpu_locality_free. */
struct cta_locality *gpu_locality_build(const struct ptx_grid *grid, unsigned line_bytes, bool warps, bool tiles,
                                        unsigned flags, char *msg, size_t n);
void gpu_locality_free(struct cta_locality *l);
/* Kernel start: what the policies of g need for this grid (the access ranges,
   handed to the SMs for a warp policy; the dispatched-CTA record for a CTA
   policy with pick_cta).  -1 with msg when out of memory.  _end releases
   them (kernel end, gpu_free). */
int gpu_locality_begin(struct gpu *g, const struct ptx_grid *grid, char *msg, size_t n);
void gpu_locality_end(struct gpu *g);

/* gpu_cm.c: the concurrency manager.  kernel_start after the SMs began the kernel (sets the first
   limits; -1 with msg on a parameter error); decide at the end of core cycle g->cm_next. */
int gpu_cm_kernel_start(struct gpu *g, sim_cycle kstart, char *msg, size_t n);
void gpu_cm_decide(struct gpu *g, sim_cycle now);
bool gpu_cm_active(const struct gpu *g);
unsigned gpu_cm_limit(const struct gpu *g, unsigned sm);   /* in force now; 0 without a manager */

/* gpu_cpu.c: creation (gpu_new), the protocol's steps (the engine calls them) */
int gpu_cpus_new(struct gpu *g, char *msg, size_t n);
void gpu_cpus_start_measure(struct gpu *g, sim_cycle cpu_now);
void gpu_cpus_note(struct gpu *g, unsigned i, sim_cycle c);
void gpu_cpus_end_window(struct gpu *g, sim_cycle c);
bool gpu_cpus_warm(const struct gpu *g);

/* gpu_report.c */
/* Summary vector of the run so far; `boundary` = the first core cycle not yet
   run (domain cycle counts are the edges before that core cycle's edge). */
void gpu_gather(const struct gpu *g, uint64_t *v, sim_cycle boundary);
/* Time-series row for the cycles since the last sample, up to `boundary`. */
void gpu_ts_sample(struct gpu *g, sim_cycle boundary, int final);
void gpu_warp_done(void *user, const struct warp_record *r);

/* The time of domain d's next edge, cyc[d] * per[d], kept beside cyc[d] (the run loop asks for it
   several times per edge); the CPU domain has no edges without CPU cores. */
static inline void gpu_set_edge(struct gpu *g, int d)
{
    g->edge[d] = d == GD_CPU && !g->cpu_active ? SIM_NEVER : g->cyc[d] * g->per[d];
}

#endif
