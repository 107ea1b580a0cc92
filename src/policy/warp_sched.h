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
    uint8_t ready;             /* would issue if visited now */
    uint8_t waiting_mem;       /* blocked on a pending load */
    uint8_t at_barrier;
    uint8_t cta_paused;        /* its CTA is paused by the CTA policy (deprioritise, never starve) */
    uint8_t pad_[3];
    uint32_t pc;               /* next instruction */
    uint64_t issued;           /* warp instructions issued so far */
};

struct sm_view {
    unsigned sm_id;
    unsigned sched_id, n_sched;
    unsigned max_warps;        /* warp slots on the SM */
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
};

const struct warp_sched_ops *warp_sched_find(const char *name);
void warp_sched_names(char *buf, size_t n);

#endif
