/*
 * atomics.h - the global-atomic throughput microbenchmark's measuring
 * function, shared by its driver (atomics_host.c) and the calibration test
 * (tests/unit/test_microbench.c).
 *
 * Three launches of the same grid, one per mode (atomics.cu): every thread
 * on one address, on a word of its own (a warp's 32 words are one 128-byte
 * block), on a word of its own with the 32 lanes of a warp on 32 different
 * lines.  The figure is thread atomics per core cycle of the whole GPU.
 */
#ifndef WARPSIM_WL_ATOMICS_H
#define WARPSIM_WL_ATOMICS_H

#include <stdint.h>

#include "workload.h"

enum atomics_mode { ATOMICS_ONE = 0, ATOMICS_WORDS, ATOMICS_LINES, ATOMICS_NMODES };

#define ATOMICS_WARM 1u      /* untimed atomics per thread first (atomics.cu) */
#define ATOMICS_STEP 8u      /* atomics per step in flight per warp (atomics.cu): iters is a multiple */
#define ATOMICS_BLOCK 256u   /* 8 warps per CTA x 8 atomics: 64 in flight per SM */
#define ATOMICS_GRID 15u

struct atomics_meas {
    uint64_t ops;            /* timed thread atomics of the grid */
    uint64_t window;         /* latest end - earliest start over the CTAs (clock64) */
    double per_cycle;        /* ops / window */
};

/* Timed atomics per thread in a mode at a size (a multiple of ATOMICS_STEP). */
unsigned atomics_iters(enum atomics_mode mode, enum wl_size size);

const char *atomics_mode_name(enum atomics_mode mode);

/* Launch one mode over ATOMICS_GRID x ATOMICS_BLOCK threads with `iters`
   timed atomics each, check the counters and the sums of the old values
   exactly (into r: the caller sets r->verified = 1 first).  Device memory is
   freed before returning. */
ws_status atomics_measure(ws_ctx *ctx, ws_module *mod, enum atomics_mode mode, unsigned iters, struct wl_result *r,
                          struct atomics_meas *m);

#endif
