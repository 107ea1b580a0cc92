/*
 * cpl.h - Criticality Prediction Logic (seed 000 sec. 4.2.1, Algorithms 5-6,
 * Eq. 4.1): one criticality counter per warp of a scheduler, driven by the
 * warp scheduler's hooks, for gCAWS (warp_sched/gcaws.c) and CACP.
 *
 *   nCriticality = nInst x CPI_avg + nStall                     (Eq. 4.1)
 *
 * nInst (Alg. 5): at a branch the sizes of the basic blocks the warp will run
 *   next are added (sm_view.bb_len): a uniformly taken branch adds the target
 *   block, a uniformly not-taken one the fall-through block, a divergent one
 *   both (the warp runs both paths); every issued (committed) instruction
 *   subtracts one.  The entry block of the kernel and of a called function
 *   are added at the first instruction issued there.
 * nStall (Alg. 6): at each issue, the cycles since the warp's previous issue
 *   in which it did not issue (now - prev - 1); before its first issue the
 *   cycles since it was dispatched.
 * CPI_avg: the warp's own average ("w.CPI_avg"): core cycles since its
 *   dispatch, up to and including this issue, per instruction it issued.
 * The counter is recomputed at every issue of the warp (the events that move
 * its terms) and kept in fixed point, CPL_ONE per cycle.
 *
 * State is indexed by SM warp slot; a slot's entry restarts when the view
 * shows a different warp there (cpl_sync).  No allocation: the struct is part
 * of the policy state.
 */
#ifndef WARPSIM_POLICY_CPL_H
#define WARPSIM_POLICY_CPL_H

#include <stdint.h>

#include "policy/warp_sched.h"

#define CPL_MAX_WARPS 64
#define CPL_FRAC_BITS 8
#define CPL_ONE (1 << CPL_FRAC_BITS)   /* one cycle of criticality */

struct cpl_warp {
    uint64_t age;              /* the warp this entry describes (warp_view.age) */
    uint8_t live;              /* entry in use */
    uint8_t entry_pending;     /* add the block of the next issued instruction (kernel start, call) */
    uint8_t issued_any;
    uint8_t pad_[5];
    int64_t n_inst;            /* Alg. 5 */
    uint64_t n_stall;          /* Alg. 6 */
    uint64_t issued;           /* instructions issued (committed) */
    sim_cycle start;           /* dispatch cycle */
    sim_cycle last_issue;
    uint64_t cpi;              /* CPI_avg in 1/CPL_ONE cycles, as of the last issue */
    int64_t crit;              /* nCriticality in 1/CPL_ONE cycles (Eq. 4.1) */
};

struct cpl {
    const uint32_t *const *bb_len;   /* from sm_view; NULL: no block information */
    const uint32_t *bb_ninsns;
    uint32_t nfuncs;
    struct cpl_warp w[CPL_MAX_WARPS];
};

void cpl_init(struct cpl *c, const struct sm_view *sm);
/* Instructions from pc to the end of its basic block in function func (0 when unknown). */
uint32_t cpl_block_len(const struct cpl *c, unsigned func, uint32_t pc);
/* Bring the entry of v's slot in step with the view: a new warp restarts it,
   an invalid view retires it.  Returns the entry (NULL for a slot out of range). */
struct cpl_warp *cpl_sync(struct cpl *c, const struct warp_view *v);
/* Alg. 5 and 6 for one issued instruction of warp v at `now`; recomputes Eq. 4.1. */
void cpl_on_issue(struct cpl *c, const struct warp_view *v, const struct warp_inst *in, sim_cycle now);
/* nCriticality of the warp in slot (1/CPL_ONE cycles); 0 for an unused slot. */
int64_t cpl_criticality(const struct cpl *c, unsigned slot);

#endif
