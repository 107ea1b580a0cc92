/*
 * cm_common.h - pieces the concurrency managers share: 004 sec. 4.1's
 * congestion test (Part 1 of both CM-CPU and CM-BAL) and the clamp of a
 * limit to what a core has.
 */
#ifndef WARPSIM_CM_COMMON_H
#define WARPSIM_CM_COMMON_H

#include "policy/cm.h"

/* Part 1: -1 lower the GPU's concurrency (stall_MC or stall_net above t_H), +1 raise it
   (both below t_L), 0 keep. */
static inline int cm_congestion_step(const struct cm_view *v, double t_h, double t_l)
{
    if (v->stall_mc > t_h || v->stall_net > t_h)
        return -1;
    if (v->stall_mc < t_l && v->stall_net < t_l)
        return +1;
    return 0;
}

static inline unsigned cm_clamp(unsigned l, unsigned max_warps)
{
    unsigned hi = max_warps ? max_warps : 1;
    return l < 1 ? 1 : l > hi ? hi : l;
}

#endif
