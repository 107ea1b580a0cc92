/*
 * bankconf.h - the shared-memory bank-conflict microbenchmark's measuring
 * function, shared by its driver (bankconf_host.c) and the calibration test
 * (tests/unit/test_microbench.c).
 *
 * One launch of BANKCONF_NSTRIDES CTAs: CTA 0 reads with stride 0 (every lane
 * the same word: a broadcast), CTA c > 0 with a stride of 2^(c-1) words
 * (1, 2, 4, 8, 16, 32).  Each CTA is BANKCONF_WARPS warps doing sixteen
 * independent shared loads per round; the figure is core cycles per warp
 * access on the CTA's SM.
 */
#ifndef WARPSIM_WL_BANKCONF_H
#define WARPSIM_WL_BANKCONF_H

#include <stdint.h>

#include "workload.h"

#define BANKCONF_NSTRIDES 7u
#define BANKCONF_WARPS 8u
#define BANKCONF_LOADS 16u                   /* loads per round (bankconf.cu) */
#define BANKCONF_WORDS (32u * 32u + 16u)     /* shared words (bankconf.cu) */

struct bankconf_meas {
    unsigned stride[BANKCONF_NSTRIDES];      /* words between two lanes' words (0: broadcast) */
    uint64_t accesses[BANKCONF_NSTRIDES];    /* timed warp accesses of the CTA */
    uint64_t cycles[BANKCONF_NSTRIDES];      /* its timed window (clock64) */
    unsigned sm[BANKCONF_NSTRIDES];          /* %smid */
    double per_access[BANKCONF_NSTRIDES];    /* cycles / accesses */
};

/* Stride of CTA c. */
static inline unsigned bankconf_stride(unsigned c) { return c == 0 ? 0u : 1u << (c - 1u); }

/* Timed rounds of CTA c for a rounds_unit (bankconf.cu: rounds_unit at stride 32, 32x at stride 1
   and for the broadcast). */
static inline unsigned bankconf_rounds(unsigned c, unsigned rounds_unit)
{
    unsigned s = bankconf_stride(c);
    return rounds_unit * (s ? 32u / s : 32u);
}

/* The rounds_unit of a size. */
unsigned bankconf_rounds_unit(enum wl_size size);

/* Make the shared data from the seed, launch once, check every thread's sum
   exactly (into r: the caller sets r->verified = 1 first).  Device memory is
   freed before returning. */
ws_status bankconf_measure(ws_ctx *ctx, ws_module *mod, unsigned rounds_unit, uint64_t seed, struct wl_result *r,
                           struct bankconf_meas *m);

#endif
