/*
 * stream.h - the triad bandwidth microbenchmark's measuring function, shared
 * by its driver (stream_host.c) and the timing-model calibration test
 * (tests/unit/test_latency.c).
 */
#ifndef WARPSIM_WL_STREAM_H
#define WARPSIM_WL_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "workload.h"

#define STREAM_BLOCK 256u

struct stream_meas {
    size_t n;                  /* floats per array */
    unsigned grid;             /* CTAs of STREAM_BLOCK threads */
    uint64_t bytes;            /* bytes the kernel must move: read b and c, write a (STREAM's count) */
    uint64_t cycles;           /* core cycles of the launch (timing mode; 0 in functional mode) */
};

/* Floats per array and grid at a size. */
void stream_size(enum wl_size size, size_t *n, unsigned *grid);

/* Make b, c and s from the seed, launch stream_triad once, check a against
   fmaf(s, c, b) exactly (into r: the caller sets r->verified = 1 first).
   Device memory is freed before returning. */
ws_status stream_measure(ws_ctx *ctx, ws_module *mod, size_t n, unsigned grid, uint64_t seed, struct wl_result *r,
                         struct stream_meas *m);

#endif
