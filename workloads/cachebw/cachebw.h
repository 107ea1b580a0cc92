/*
 * cachebw.h - the L1D / L2 load-bandwidth microbenchmark's measuring
 * function, shared by its driver (cachebw_host.c) and the calibration test
 * (tests/unit/test_microbench.c).
 *
 * Two levels (docs/microbench.md explains the choices):
 *   L1D  every warp of a CTA reads the same 8 KiB (64 lines: two per set of a
 *        32-set L1D) after one warm-up pass: the timed passes hit, and the
 *        figure is bytes per core cycle on each SM;
 *   L2   every CTA reads one 128 KiB buffer once, after a one-CTA launch has
 *        brought it into the L2: each SM touches each line once in the timed
 *        launch, so every load misses its cold L1D and hits the L2; the figure
 *        is bytes per core cycle of the whole GPU.
 */
#ifndef WARPSIM_WL_CACHEBW_H
#define WARPSIM_WL_CACHEBW_H

#include <stdint.h>

#include "workload.h"

#define CACHEBW_VEC 16u          /* bytes per lane per load (uint4) */
#define CACHEBW_UNROLL 8u        /* loads per unrolled step in cachebw.cu: `loads` is a multiple */

enum cachebw_level { CACHEBW_L1 = 0, CACHEBW_L2, CACHEBW_NLEVELS };

struct cachebw_params {
    const char *name;          /* "L1D", "L2" */
    uint32_t bytes;            /* buffer */
    unsigned block;            /* threads per CTA (whole warps) */
    unsigned grid;             /* CTAs of the timed launch */
    unsigned warp_stride;      /* uint4s between the chunks of two warps (0: every warp reads the same) */
    unsigned loads;            /* loads per lane per pass */
    unsigned warm;             /* untimed passes before the timed ones */
    unsigned passes;           /* timed passes */
    int prewarm;               /* 1 = a one-CTA launch reads the buffer first (brings it into the L2) */
};

struct cachebw_meas {
    uint64_t bytes;            /* bytes the timed passes loaded, whole grid */
    unsigned sms;              /* distinct SMs the CTAs ran on */
    double per_sm;             /* mean over SMs of (bytes the SM's CTAs loaded) / (its timed window) */
    double sm_window;          /* mean over SMs of the timed window (earliest start to latest end of its CTAs) */
    double total;              /* bytes / (latest end - earliest start over all CTAs) */
    uint64_t window;           /* latest end - earliest start, core cycles (clock64 ticks) */
};

void cachebw_level_params(enum cachebw_level lv, enum wl_size size, struct cachebw_params *out);

/* Make the buffer from the seed, run the level's launches, check every
   thread's sums exactly (into r: the caller sets r->verified = 1 first).
   Device memory is freed before returning. */
ws_status cachebw_measure(ws_ctx *ctx, ws_module *mod, const struct cachebw_params *pp, uint64_t seed,
                          struct wl_result *r, struct cachebw_meas *m);

#endif
