/*
 * diverge.h - the branch-divergence microbenchmark's measuring function,
 * shared by its driver (diverge_host.c) and the calibration test
 * (tests/unit/test_microbench.c).
 *
 * One launch of DIVERGE_NCTAS one-warp CTAs; CTA c's warp takes 2^c distinct
 * paths (1, 2, 4, 8, 16, 32).  The figure is core cycles per iteration of the
 * loop over the 32 possible paths, each path a dependent chain of
 * DIVERGE_CHAIN multiply-adds.
 */
#ifndef WARPSIM_WL_DIVERGE_H
#define WARPSIM_WL_DIVERGE_H

#include <stdint.h>

#include "workload.h"

#define DIVERGE_NCTAS 6u
#define DIVERGE_CHAIN 16u        /* multiply-adds per path body (diverge.cu) */
#define DIVERGE_PATHS_MAX 32u    /* the loop over paths (diverge.cu) */

struct diverge_meas {
    unsigned paths[DIVERGE_NCTAS];          /* distinct paths of CTA c's warp */
    uint64_t cycles[DIVERGE_NCTAS];         /* timed window (clock64) */
    unsigned sm[DIVERGE_NCTAS];             /* %smid */
    double per_iter[DIVERGE_NCTAS];         /* cycles / iters */
};

unsigned diverge_iters(enum wl_size size);

/* Make the seeds, launch once with `iters` timed iterations, check every
   lane's final value exactly (into r: the caller sets r->verified = 1
   first).  Device memory is freed before returning. */
ws_status diverge_measure(ws_ctx *ctx, ws_module *mod, unsigned iters, uint64_t seed, struct wl_result *r,
                          struct diverge_meas *m);

#endif
