/*
 * sm_int.h - private state of the SM timing model (sm.h), shared by its files:
 *   sm.c        construction, kernels and CTAs, metrics, the cycle driver, next event
 *   sm_fetch.c  fetch through the L1I into the per-warp instruction buffers
 *   sm_issue.c  schedulers, probe (latency attribution), scoreboard, units, issue
 *   sm_ldst.c   LD/ST unit: coalescing, shared-memory banks, L1D/const/texture, replies
 * Not part of any interface.  docs/timing_sm.md explains the model.
 */
#ifndef WARPSIM_SM_INT_H
#define WARPSIM_SM_INT_H

#include "core/fifo.h"
#include "gpu/sm.h"
#include "mem/cache.h"

#define SM_MAX_WARPS 64                 /* warp-slot masks are one uint64_t */
#define SM_INSN_BYTES 16u               /* instruction address = function base + pc * 16 */
/* Device addresses the timing model invents for traffic the functional memory
   does not address globally; all lie above the global heap (ptx_mem.h) so
   they never alias data in the L2: */
#define SM_CODE_BASE 0x7f0000000000ull  /* instructions (functions laid out one after another) */
#define SM_LOCAL_BASE 0x7e0000000000ull /* local memory, interleaved per thread (sm_ldst.c) */
#define SM_MAX_BLOCKS 256u              /* blocks one warp instruction can touch (32 lanes x 8 words) */
#define SM_WB_RING 4096u                /* writeback-port reservations this far ahead (power of two) */
#define SM_NONE UINT32_MAX

enum sm_warp_state { SMW_FREE = 0, SMW_ACTIVE, SMW_DRAIN /* exited, waiting for its pending writes */ };
enum sm_fetch_state { SMF_IDLE = 0, SMF_DECODE /* instructions arrive at ib_ready_at */, SMF_IMISS };
enum sm_unit { SMU_SP = 0, SMU_SFU, SMU_DP, SMU_LDST };

/* waiter tokens kept in cache MSHRs and uncached requests: kind in the top bits */
#define SM_TOK_LOAD (1ull << 62)        /* | load index */
#define SM_TOK_FETCH (2ull << 62)       /* | slot << 32 | fetch generation */
#define SM_TOK_KIND (3ull << 62)

struct sm_warp {
    /* hot: the probe's fast path and Algorithm 2's counters (first two cache lines; the SM
       allocates the warps on line boundaries) */
    _Alignas(64) sim_cycle wake_at;     /* the probe's answer cannot change before this cycle */
    uint8_t rep_reason;                 /* ...and is this reason until then (enum stall_reason) */
    uint8_t state;                      /* enum sm_warp_state */
    uint8_t rep_mem;                    /* ...and it waits for memory (c_mem) */
    uint8_t nx_valid;                   /* nx describes the next instruction (peeked) */
    uint8_t fetch_state;                /* enum sm_fetch_state */
    uint8_t unit;                       /* enum sm_unit of nx */
    uint16_t ib_count;                  /* decoded instructions in the ibuffer, the first is nx */
    uint8_t at_bar;                     /* the executor holds it at a barrier (pw->status, cached) */
    uint8_t rep_view[4];                /* ...and its view's ready, waiting_mem, at_barrier, waiting_miss */
    uint8_t unit_stage;                 /* its last check reached the functional unit, and it has not
                                           issued since (sm_check) */
    uint8_t pad_[2];
    sim_cycle busy_until;               /* every register write scheduled so far is done by then */
    uint32_t pending_loads;             /* loads not yet written back (their registers: SIM_NEVER) */
    uint32_t chk_seq;                   /* this cycle's probe: load sequence of a missed-load dependency */
    sim_cycle prev_probe;
    uint64_t sched;                     /* Algorithm 2's Scheduling */
    uint64_t stall[STALL_COUNT];
    uint16_t ib_pending;                /* instructions of the fetch in flight */
    uint16_t cta_slot, warp_in_cta;
    struct ptx_warp *pw;
    sim_cycle *rel;                     /* [reg keys] cycle from which the register may be read/written */
    uint32_t *tag;                      /* [reg keys] load sequence << 1 | missed, of the load that reserved it */
    sim_cycle redirect_until;           /* control hazard: no fetch of the new PC before this */
    sim_cycle ib_ready_at;              /* SMF_DECODE: when ib_pending instructions arrive */
    struct ptx_peek nx;
    /* fetch */
    uint16_t fetch_func, exp_func;      /* next to fetch; expected successor of the last issued */
    uint32_t fetch_pc, exp_pc;
    uint32_t fetch_gen;                 /* bumped at every redirect: stale I-cache fills are ignored */
    uint32_t prev_pending;              /* Algorithm 2's PrevPendingAddr (load sequence) */
    /* identity */
    uint64_t age;
    sim_cycle start, exit_at;           /* exit_at: when the executor finished it */
    uint64_t cpl_samples, cpl_slow;     /* CPL accuracy (000 sec. 4.3.3): samples, and those the scheduler
                                           called it critical (warp_sched_ops.is_critical) */
    uint64_t insns;
};

struct sm_cta_slot {
    struct ptx_cta cta;
    uint8_t allocated, used, paused, pad_;
    uint32_t warps_left;                /* warps not yet freed */
    uint64_t linear;
    sim_cycle launch;
    /* CPL accuracy: the warp of the CTA that exited last so far (the slowest) and its samples */
    sim_cycle slow_end;
    uint64_t slow_samples, slow_hits;
};

struct sm_sched {
    void *st;                           /* policy state */
    unsigned id, nslots;                /* slots owned: id, id + n_sched, ... (view[j] is slot id + j * n_sched) */
    struct warp_view *view;             /* [nslots] */
    int *order;                         /* [nslots] */
    uint8_t *reason;                    /* [nslots] this cycle's pre-probe answer */
    uint64_t views_gen;                 /* changed with any view's valid or age (sm_view.views_gen) */
    uint64_t live;                      /* mask over SM slots of its live warps */
    uint64_t live_j;                    /* the same over its own slots j (SM slot id + j * n_sched) */
    /* frozen: the last cycle visited every warp, none could issue and none
       can before frozen_until; cycles are skipped with these answers until
       then or until an event touches one of its warps (dirty) */
    uint8_t frozen, dirty;
    sim_cycle frozen_since, frozen_until;
    sim_cycle min_wake;                 /* of the last real cycle that did not issue */
    unsigned cnt_live, cnt_idle, cnt_mem;   /* that cycle's metrics counts */
};

/* one block (line or sector) of a warp instruction's memory access */
struct sm_blk {
    uint64_t addr;                      /* block address */
    uint32_t bytes;                     /* bytes the active lanes touch in it */
    uint32_t sector_mask;
};

enum sm_ldst_kind { SML_L1D_READ = 0, SML_L1D_WRITE, SML_ATOMIC, SML_CONST, SML_TEX };

/* A failed LD/ST access, tried again with nothing changed: */
enum sm_ldst_repeat {
    SML_REPEAT_ANY = 0,      /* may do something else (a policy hook ran): retried every cycle */
    SML_REPEAT_QUEUE,        /* fails again without an access while the outgoing queue is short */
    SML_REPEAT_CACHE,        /* the cache refuses it again the same way (cache_refusal_repeats) */
};

/* the memory instruction the LD/ST unit is working on: one block per cycle */
struct sm_ldst_op {
    uint8_t active, kind, local, failed;   /* failed: the last attempt was a reservation failure */
    uint8_t attempted;                  /* this cycle's access went through before the cycle's steps
                                           (sm_cycle_part's retry): the LD/ST step only finishes it */
    uint8_t repeat;                     /* after a failure: what the same access would do again
                                           (enum sm_ldst_repeat) */
    uint8_t why;                        /* SML_REPEAT_CACHE: the cache's refusal (enum cache_fail) */
    uint8_t pad0_[3];
    uint16_t slot;
    uint32_t load;                      /* load record, SM_NONE when nothing waits for data */
    uint32_t pc, n, next;
    struct sm_blk blk[SM_MAX_BLOCKS];
};

/* a load waiting for its data */
struct sm_load {
    uint32_t pending;                   /* requests / merged misses not yet back */
    uint32_t next_free;
    uint16_t slot;
    uint8_t nkeys, issued_all;          /* issued_all: every block was accessed */
    uint32_t seq;                       /* Algorithm 2's pending address (unique per load) */
    sim_cycle done_at;                  /* latest hit completion */
    uint32_t keys[PTX_PEEK_MAX_DST];
};

struct policy_params;

struct sm_cycle_count {
    unsigned live, idle, mem;           /* warps probed, of them fetch/ctrl/sync, of them memory waits */
    unsigned stalled;                   /* schedulers with live warps that issued nothing (stall_GPU) */
};

enum sm_stage { SMS_REPLY = 0, SMS_DRAIN, SMS_ISSUE };
#define SM_ISSUED 1                     /* a scheduler issued (sm_sched_cycle) */

struct sm {
    const struct gpu_config *g;
    const struct policy_params *pparams;   /* dotted policy parameters, may be NULL */
    const struct cta_locality *loc;     /* access ranges for the warp policy (sm_set_locality), may be NULL */
    unsigned id;
    const struct addr_map *map;
    struct mem_req_pool *pool;
    struct arena *arena;
    struct cache *l1d, *l1i, *l1c, *l1t;
    /* the queues the interconnect side reads every cycle, away from what the SM writes every cycle
       (its metrics): with several threads the two sides run on different cores */
    char queue_gap0_[64];
    struct fifo out;                    /* requests to the interconnect */
    struct fifo reply;                  /* replies from it, one processed per cycle */
    char queue_gap1_[64];
    struct sm_metrics m;
    sm_warp_done_fn done_fn;
    void *done_user;

    /* machine shape */
    unsigned max_warps, n_sched, n_sp, n_sfu, n_dp, warp_passes;
    uint32_t idle_reasons;              /* stall reasons that make a warp idle in C_idle (bit per reason) */
    unsigned l1d_line, l1i_line, const_line, tex_line, blk_unit;
    uint64_t *waiters;                  /* cache_fill output */
    unsigned max_waiters;

    /* the kernel */
    struct ptx_grid *grid;
    unsigned kernel_id;
    const struct warp_sched_ops *ops;
    unsigned max_ctas, resident;
    uint32_t regs_per_cta, reg_lanes;
    uint64_t *func_base;                /* [module nfuncs] code address of each function */
    uint32_t nfuncs;
    const uint32_t **bb_len;            /* [nfuncs] basic-block lengths per pc (sm_view.bb_len) */
    uint32_t *bb_ninsns;                /* [nfuncs] */
    uint32_t *bb_mem;                   /* the lengths of every function, one after another */
    sim_cycle *relmem;                  /* relmem, tagmem, loads: keys_cap entries, kept from one kernel */
    uint32_t *tagmem;                   /* to the next (sm_release frees them) */
    struct sm_load *loads;
    size_t keys_cap;
    uint32_t nloads, free_load, load_seq;
    uint32_t loads_used;                /* loads[loads_used..nloads) were never handed out this kernel */
    uint64_t local_per_warp;            /* bytes of the interleaved local region per warp slot */
    uint64_t next_age;
    sim_cycle cpl_next_sample;          /* next CPL accuracy sample (sm_issue_cycle) */

    struct sm_cta_slot *cta;            /* [max_cta_per_core] */
    struct sm_warp *warp;               /* [max_warps] */
    struct sm_sched *sched;             /* [n_sched] */
    uint64_t live;                      /* ACTIVE warps */
    uint64_t drain;                     /* DRAIN warps */
    uint64_t fetch_cand;                /* warps that may want to fetch (a superset) */
    uint8_t slot_j[SM_MAX_WARPS];       /* slot -> index in its scheduler's views */
    unsigned fetch_rr;                  /* fetch: the slot after the last fetched */

    /* units */
    sim_cycle *sp_free, *sfu_free, *dp_free;
    sim_cycle ldst_free;                /* LD/ST accepts a new instruction from this cycle */
    uint64_t ldst_wait;                 /* warps whose next instruction waits for the LD/ST unit */
    struct sm_ldst_op ldst;
    sim_cycle *wb_tag;                  /* [SM_WB_RING] writeback-port reservations */
    uint8_t *wb_cnt;

    /* cycle bookkeeping */
    sim_cycle last_cycle;               /* the last cycle sm_cycle ran */
    sim_cycle acct_cycle;               /* counters account for every cycle up to this one (>= last_cycle:
                                           sm_settle catches up cycles the SM was not ticked in) */
    bool cycled;                        /* last_cycle is valid */
    bool own_counts;                    /* its warps count instructions in `counts`, not in the grid */
    struct ptx_counts counts;           /* since the last sm_fold_counts */
    /* where a cycle stands (sm_cycle_part / sm_cycle_resume) */
    uint8_t stage;                      /* enum sm_stage */
    bool par;                           /* in a parallel round: stop before shared state */
    uint64_t prog_before;               /* progress counters at the cycle's start */
    struct sm_cycle_count iss_cnt;      /* the issue stage's counts so far */
    bool iss_issued, iss_pending;       /* something issued; an issue waits for the resume */
    unsigned iss_k, iss_slot, iss_x;    /* scheduler, warp and dual-issue index of that issue */
    bool last_prog;                     /* the last tick made progress (sm_cycle's result) */
    bool kick;                          /* something outside changed the SM: tick it next cycle */
    bool always_tick;                   /* the kernel's warp policy samples per tick (CPL), or no_freeze */
    bool faulted;
    bool last_issued;                   /* something issued in last_cycle */
    uint8_t last_class;                 /* metrics class of last_cycle (for skipped cycles) */
    uint8_t last_stalled;               /* ...and its schedulers that stalled (stall_GPU of skipped cycles) */
    unsigned warp_limit;                /* active warp limit a concurrency manager set (0: none) */
    bool fetch_blocked;                 /* the fetch stage waited for queue space / a reservation */
    sim_cycle fetch_next;               /* earliest cycle the fetch stage has something to do */
    bool ldst_asleep;                   /* the failed LD/ST unit's retries are left out until something
                                           else is due (sm_ldst_may_sleep); sm_catch_up counts them */
    bool fetch_quiet;                   /* the last fetch scan started nothing and no warp's fetch state
                                           changed since (sm_fetch_wake): nothing to scan before fetch_next */
    sim_cycle issue_next;               /* earliest cycle a warp's probe answer can change */
    sim_cycle lanes_busy_until;         /* SIMT width < 32: the lanes still stream the last issued warp */
    sim_cycle next_evt;                 /* computed by the last sm_cycle */
    struct sm_times *times;             /* where sm_publish writes (sm_set_times_slot) */
    struct sm_times times_own;          /* ...until a caller gives a slot */
    bool any_paused;                    /* some resident CTA is paused */
    bool woken;                         /* a warp's answer was invalidated since the issue stage */
    bool no_freeze;                     /* tests: probe every cycle (freezing must not change results) */
    uint32_t gen_counter;               /* fetch generations, unique per SM */
    /* warp_view.age_rank (policies with needs_rank): the live warps in age
       order, rebuilt when the live set or next_age differ from the ones it
       was built from (a launch always moves next_age) */
    uint8_t age_list[SM_MAX_WARPS];
    unsigned n_age;
    uint64_t age_live, age_next;
};

/* metrics classes of a cycle (for skipped-cycle catch-up) */
enum { SMC_NOWARPS = 0, SMC_ACT, SMC_INACT_IDLE, SMC_INACT_MEM, SMC_INACT_OTHER };

/* sm.c */
void sm_warp_free_slot(struct sm *s, unsigned slot);
static inline uint64_t sm_code_addr(const struct sm *s, unsigned func, uint32_t pc)
{
    return s->func_base[func] + (uint64_t)pc * SM_INSN_BYTES;
}
bool sm_out_push(struct sm *s, struct mem_req *r, sim_cycle now);
struct mem_req *sm_new_req(struct sm *s, uint64_t addr, uint32_t size, unsigned type, unsigned source,
                           unsigned slot, uint32_t pc, sim_cycle now);

/* An event changed what a probe of the warp would answer (before wake_at). */
static inline void sm_warp_wake(struct sm *s, unsigned slot, sim_cycle t)
{
    s->warp[slot].wake_at = t;
    s->sched[slot % s->n_sched].dirty = 1;
    s->woken = true;
}

/* sm_fetch.c */
void sm_fetch_cycle(struct sm *s, sim_cycle now);
void sm_fetch_filled(struct sm *s, uint64_t token, sim_cycle now);
void sm_warp_redirect(struct sm *s, struct sm_warp *w, sim_cycle now);
/* a warp's fetch state changed (or it may want to fetch again): the next fetch stage scans */
static inline void sm_fetch_wake(struct sm *s, unsigned slot)
{
    s->fetch_cand |= 1ull << slot;
    s->fetch_quiet = false;
}
static inline void sm_fetch_update(struct sm_warp *w, sim_cycle now)
{
    if (w->fetch_state == SMF_DECODE && now >= w->ib_ready_at) {
        w->ib_count = (uint16_t)(w->ib_count + w->ib_pending);
        w->ib_pending = 0;
        w->fetch_state = SMF_IDLE;
    }
}

/* sm_issue.c */
void sm_issue_begin(struct sm *s, sim_cycle now);
/* SM_QUIET, or SM_YIELDED when a parallel round stopped it (called again to resume) */
int sm_issue_cycle(struct sm *s, sim_cycle now);
bool sm_warp_peek(struct sm *s, struct sm_warp *w, unsigned slot, sim_cycle now);
sim_cycle sm_wb_slot(struct sm *s, sim_cycle t);
void sm_catch_up_warps(struct sm *s, sim_cycle gap);
/* Charge a frozen scheduler's skipped cycles up to (not including) `now` and unfreeze it. */
void sm_thaw(struct sm *s, struct sm_sched *sc, sim_cycle now);

/* sm_ldst.c */
bool sm_ldst_busy(const struct sm *s, sim_cycle now);
void sm_ldst_cycle(struct sm *s, sim_cycle now);
/* The failed unit's access of its current block again, and nothing else: true when it went
   through (the cycle's LD/ST step then finishes it, ldst.attempted), false when it failed again. */
bool sm_ldst_retry(struct sm *s, sim_cycle now);
/* the cache the unit's current access goes to (NULL: none, an atomic) */
struct cache *sm_ldst_cache(const struct sm *s);
void sm_ldst_issue(struct sm *s, unsigned slot, const struct warp_inst *wi, const struct ptx_peek *nx,
                   sim_cycle now);
void sm_handle_reply(struct sm *s, struct mem_req *r, sim_cycle now);
/* Whether handling reply r may need room in the outgoing queue (an L1D fill that may write back). */
bool sm_reply_may_write_back(const struct sm *s, const struct mem_req *r);
int sm_ldst_init(struct sm *s);

#endif
