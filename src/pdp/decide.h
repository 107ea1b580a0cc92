/*
 * decide.h - HeteroPDP's slowdown and fairness arithmetic and its target decision
 * (seed 000 sec. 6.3-6.4):
 *   slowdown          = time co-located / time alone                          (Eq. 6.6)
 *   fairness          = min_i slowdown_i / max_i slowdown_i                   (Eq. 6.1)
 *   weighted slowdown = slowdown_i x weight_i                                 (Eq. 6.3)
 *   weighted fairness = min_i wslowdown_i / max_i wslowdown_i                 (Eq. 6.4)
 * over every co-located application: the OpenCL kernel and the native CPU applications.
 * Decision: alone, the target with the least predicted time; co-located, the target whose
 * (weighted) fairness is highest.  Ties: the lower predicted co-located time, then the CPU
 * (no transfer).  A target whose predicted times are not positive and finite (a linear model
 * can predict a negative time) has no slowdown and is never chosen while the other is valid.
 */
#ifndef WARPSIM_PDP_DECIDE_H
#define WARPSIM_PDP_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "pdp/dataset.h"

/* NaN unless both times are positive and finite */
double pdp_slowdown(double t_coloc, double t_alone);
/* min/max of n slowdowns; NaN when n == 0 or any is not a positive finite number */
double pdp_fairness(const double *slowdown, size_t n);
/* min/max of slowdown_i x weight_i; weights must be positive and finite (else NaN) */
double pdp_weighted_fairness(const double *slowdown, const double *weight, size_t n);

/* a native CPU application co-located with the kernel: its slowdown when the kernel runs on
   each target (from a Bubble-up style table, or measured), and its scheduling weight */
#define PDP_MAX_CORUN 16
struct pdp_corunner {
    char name[64];
    double slowdown[PDP_NTARGETS];
    double weight;
};

enum pdp_slowdown_ref {
    PDP_REF_TARGET = 0,  /* Eq. 6.6 as written: co-located time on a target / alone time on that target */
    PDP_REF_BEST         /* co-located time on a target / the least alone time of either target */
};

struct pdp_schedule_in {
    double time[PDP_NTARGETS][PDP_NSCENS];   /* predicted kernel times */
    double kernel_weight;                    /* 1 = equal priority */
    const struct pdp_corunner *co;
    size_t nco;
    enum pdp_slowdown_ref ref;
};

struct pdp_schedule_out {
    double kernel_slowdown[PDP_NTARGETS];
    double fairness[PDP_NTARGETS], wfairness[PDP_NTARGETS];   /* of each choice; NaN = invalid */
    int alone;            /* enum pdp_target, or -1 when neither prediction is valid */
    int coloc;            /* by fairness (Eq. 6.1), or -1 */
    int coloc_weighted;   /* by weighted fairness (Eq. 6.4), or -1 */
    bool weighted;        /* some weight differs from 1: coloc_weighted is the decision */
};

/* Always succeeds (invalid inputs give NaN / -1); returns the co-located decision in effect. */
int pdp_schedule(const struct pdp_schedule_in *in, struct pdp_schedule_out *out);

#endif
