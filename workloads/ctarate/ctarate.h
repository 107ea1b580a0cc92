/*
 * ctarate.h - the CTA launch-rate microbenchmark's measuring function,
 * shared by its driver (ctarate_host.c) and the calibration test
 * (tests/unit/test_microbench.c).
 *
 * Two kernels, each figure in core cycles per CTA per SM:
 *   empty  ctarate_empty: no body, one thread per CTA;
 *   tiny   ctarate_tiny: one warp per CTA, lane 0 writes a 16-byte record.
 * Each kernel runs a 15-CTA launch first (it brings the kernel's code into
 * the L2, so the launches measured start alike), then grids of n and 2n
 * CTAs: the figure is the difference of their core cycles times the SMs over
 * n, so the launch's start (the first instruction fetch) and end cancel.
 */
#ifndef WARPSIM_WL_CTARATE_H
#define WARPSIM_WL_CTARATE_H

#include <stdint.h>

#include "workload.h"

enum ctarate_kind { CTARATE_EMPTY = 0, CTARATE_TINY, CTARATE_NKINDS };

struct ctarate_meas {
    unsigned ctas;                              /* n */
    unsigned sms;                               /* SMs: the largest %smid in the tiny records + 1 */
    uint64_t cycles_n[CTARATE_NKINDS];          /* core cycles of the n-CTA launch (0 in functional mode) */
    uint64_t cycles_2n[CTARATE_NKINDS];         /* ... of the 2n-CTA launch */
    double per_cta[CTARATE_NKINDS];             /* (cycles_2n - cycles_n) * sms / n */
    double insns_per_cta[CTARATE_NKINDS];       /* warp instructions per CTA (difference of the two launches) */
};

unsigned ctarate_ctas(enum wl_size size);

/* The six launches; the tiny 2n launch's records are checked exactly (each
   CTA wrote its own index; into r: the caller sets r->verified = 1 first).
   Device memory is freed before returning. */
ws_status ctarate_measure(ws_ctx *ctx, ws_module *mod, unsigned n, struct wl_result *r, struct ctarate_meas *m);

#endif
