/*
 * warp_sched.h - warp scheduling policies behind one ops struct (GPGPU-Sim's
 * order_warps() split): each cycle each scheduler of an SM asks its policy to
 * ORDER the warps it owns; the SM then visits them in that order, probes each
 * (latency attribution) and issues the first that is ready.  Policies see
 * read-only views, never the SM.  A new policy = one file in
 * policy/warp_sched/ + one line X(warp_sched, name) in policy/registry.def.
 */
#ifndef WARPSIM_WARP_SCHED_H
#define WARPSIM_WARP_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/sim.h"
#include "fe/warp_inst.h"

struct policy_machine;   /* policy/params.h */

/* Why a visited warp could not issue (the first reason found, in the order of
   the latency-attribution probe, SPEC section 5). */
enum stall_reason {
    STALL_NONE = 0,            /* issued (Exec) */
    STALL_SYNC,                /* waiting at a barrier */
    STALL_FETCH,               /* instruction buffer empty / I-cache miss */
    STALL_CTRL,                /* taken branch not yet resolved */
    STALL_DATA,                /* register dependency (first cycle of a load-miss dependency too) */
    STALL_DATA_CACHE_MISS,     /* later cycles of a dependency on a load that missed */
    STALL_STRUCT,              /* functional unit or writeback port busy */
    STALL_MSHR,                /* memory pipeline full: MSHR / miss queue reservation failure */
    STALL_COUNT
};
const char *stall_reason_name(enum stall_reason r);

struct warp_view {
    uint16_t slot;             /* warp slot on the SM (0 .. max_warps_per_core-1) */
    uint16_t cta_slot;         /* CTA slot on the SM */
    uint32_t cta_linear;       /* the CTA's linear id in the grid */
    uint64_t age;              /* dispatch order on this SM (smaller = older) */
    uint8_t valid;             /* has a live warp */
    /* the answer of the warp's last probe (ready .. waiting_miss: written together) */
    uint8_t ready;             /* would issue if visited now */
    uint8_t waiting_mem;       /* blocked on a pending load */
    uint8_t at_barrier;
    uint8_t waiting_miss;      /* blocked on a load that missed the L1 (a long-latency wait; a
                                  subset of waiting_mem, which also covers hits and shared memory) */
    uint8_t cta_paused;        /* its CTA is paused by the CTA policy (deprioritise, never starve) */
    uint8_t pad_[2];
    uint32_t pc;               /* next instruction */
    uint64_t issued;           /* warp instructions issued so far */
    sim_cycle start;           /* addition: core cycle the warp was dispatched to the SM */
    /* additions (policy/warp_sched/{two_level,swl,caws}.c): */
    uint16_t warp_in_cta;      /* the warp's index in its CTA (the per-warp file's "warp") */
    uint16_t age_rank;         /* needs_rank: live warps on the whole SM (every scheduler) that are
                                  older and not waiting at a barrier (refreshed each cycle) */
    uint8_t pad2_[4];
};

struct cta_locality;   /* policy/cta_sched.h */

struct sm_view {
    unsigned sm_id;
    unsigned sched_id, n_sched;
    unsigned max_warps;        /* warp slots on the SM */
    /* additions: basic-block lengths of the kernel's module (criticality
       prediction, policy/cpl.h): bb_len[f][pc] = instructions from pc to the
       end of its basic block in function f (leaders: instruction 0, branch
       targets, the instruction after a bra/ret/exit/trap), for pc <
       bb_ninsns[f].  Valid from init to the end of the kernel (keep the
       pointers, not copies); NULL when unknown (mock views). */
    const uint32_t *const *bb_len;     /* [nfuncs] */
    const uint32_t *bb_ninsns;         /* [nfuncs] */
    uint32_t nfuncs;
    /* additions: the kernel's 1-based id (the per-warp file's kernel_id), and
       where init may write why it failed (shown to the user; err_len 0 = no
       room, e.g. mock views) */
    unsigned kernel_id;
    char *err;
    size_t err_len;
    /* additions (locality-aware warp scheduling, 003 sec. 3.4): the kernel's
       access ranges (policy/cta_sched.h) when the policy sets needs_locality,
       else NULL; N = CTAs of this kernel the SM holds at most; warps per CTA */
    const struct cta_locality *loc;
    unsigned max_ctas;
    unsigned cta_warps;
    /* addition: a counter the SM changes whenever the valid or age field of one of this
       scheduler's views changes (a warp arrives or leaves), valid from init to the end of the
       kernel; a policy that keeps something derived from them rebuilds it when the counter
       moved instead of comparing every view.  NULL when unknown (mock views). */
    const uint64_t *views_gen;
};

struct warp_sched_ops {
    const char *name;
    const char *doc;
    size_t state_size;
    const struct cfg_opt *params;   /* parameters ("warp_sched.<name>.<param>"), may be NULL */
    size_t nparams;
    int (*init)(void *st, const struct sm_view *sm);
    /* Write a visiting order into order[] (indices into w[0..n-1]); return how many. */
    int (*order)(void *st, const struct warp_view *w, int n, int *order, sim_cycle now);
    void (*on_issue)(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now); /* may be NULL */
    void (*on_stall)(void *st, const struct warp_view *w, enum stall_reason why, sim_cycle now);      /* may be NULL */
    /* addition: set when order() reads warp_view.ready / at_barrier / waiting_mem.
       The SM then probes every warp before ordering (costs a pass over the
       warps each cycle); otherwise those fields hold the warp's state at its
       last probe and only the visited warps are probed. */
    uint8_t needs_ready;
    /* addition: optional policy state for the time series.  When sample is
       set, the GPU writes a column sm<i>_<sample_name> per core at every
       sample (docs/policies.md); a core with several schedulers reports the sum
       of their values, or the maximum when sample_max is set. */
    uint8_t sample_max;
    const char *sample_name;
    double (*sample)(const void *st);
    /* additions: fini (may be NULL) releases what init allocated, at kernel
       end, also after a failed init (the state is zeroed before init).
       needs_rank: the SM fills warp_view.age_rank every cycle (a pass over
       the SM's warps in age order). */
    void (*fini)(void *st);
    uint8_t needs_rank;
    /* addition: the GPU computes the kernel's access ranges with the warps'
       line footprints at kernel start (sm_view.loc) */
    uint8_t needs_locality;
    /* addition (may be NULL): cross-checks of the parameters beyond the
       table's bounds, run when the configuration is loaded (policy/params.h,
       policy_params_check) on a state holding the parameters only.  Returns
       NULL when they hold, else the name of the parameter to blame with the
       reason in msg (written after "-warp_sched.<name>.<param>: "). */
    const char *(*check)(const void *st, const struct policy_machine *m, char *msg, size_t n);
    /* addition (may be NULL = never critical): whether the warp in SM slot
       `slot` (one this scheduler owns) is predicted critical now; the SM's
       LD/ST unit asks it for every L1D access and hands the answer to the
       cache (mem/cache.h cache_access_wc) for criticality-aware replacement
       (CACP, policy/repl/cacp.c).  Must not change the policy's state. */
    int (*is_critical)(const void *st, unsigned slot);
    /* addition (may be NULL = the policy takes no limit): the core's active warp limit from a
       concurrency manager (policy/cm.h, 004 sec. 4), replacing the policy's own limit parameter
       until the next call or the kernel's end.  Called between cycles. */
    void (*set_limit)(void *st, unsigned limit);
    /* addition (may be NULL): for a policy whose order is always a rotation of w[] (every index
       0..n-1 once, in index order, starting somewhere): the index to start at.  The SM then
       visits w[start..n-1], w[0..start-1] without building an order array; it calls order()
       instead when it has to reorder (paused CTAs go last).  Both must agree. */
    int (*rotation)(void *st, const struct warp_view *w, int n, sim_cycle now);
    /* addition: order() changes no policy state that a later order() or hook reads (a cache it
       rebuilds from the views is fine), so the SM may leave it out in a cycle where it knows
       that no warp can issue (sm_issue.c, sm_refreeze) */
    uint8_t order_pure;
};

/* The first index in w[0..n-1] (ascending slots, as the SM hands them) whose slot is not below
   `slot` (n when none).  hint: the address of a view on_issue was handed for that slot (the SM
   hands its own views), tried first so that no other view is read (views are a cache line
   each, and order() runs every scheduler cycle); 0 when unknown. */
int warp_view_lower_bound(const struct warp_view *w, int n, int slot, uintptr_t hint);
const struct warp_sched_ops *warp_sched_find(const char *name);
void warp_sched_names(char *buf, size_t n);
/* addition: the i-th registered policy (registry.def order), NULL past the end */
const struct warp_sched_ops *warp_sched_at(size_t i);

#endif
