/*
 * pchase.h - the pointer-chase latency microbenchmark's measuring function,
 * shared by its driver (pchase_host.c) and the timing-model calibration test
 * (tests/unit/test_latency.c).
 *
 * Three working sets select the level of the memory hierarchy a hop is served
 * from (docs/microbench.md explains the choices):
 *   L1    8 KiB, one pointer per 128-byte line (64 lines): fits the 16 KiB L1D;
 *   L2  256 KiB, one pointer per line (2048 lines): misses a 16 KiB L1 on
 *       every hop, fits the 768 KiB L2;
 *   DRAM 64 MiB, one pointer per 4 KiB (16384 elements): the timed hops visit
 *       elements never touched before in the launch, so every hop misses L1
 *       and L2 by construction; 4 KiB apart they also fall in different DRAM
 *       rows, so every hop is a row miss.
 * The elements are linked in one random cycle (from the seed), so there is
 * no sequential pattern for anything to exploit.
 */
#ifndef WARPSIM_WL_PCHASE_H
#define WARPSIM_WL_PCHASE_H

#include <stdint.h>

#include "workload.h"

#define PCHASE_HOPS_PER_ROUND 32u   /* PCHASE_UNROLL in pchase.cu */

enum pchase_level { PCHASE_L1 = 0, PCHASE_L2, PCHASE_DRAM, PCHASE_NLEVELS };

struct pchase_params {
    const char *name;          /* "L1", "L2", "DRAM" */
    uint64_t bytes;            /* working set (allocation) */
    uint64_t stride;           /* bytes between two chain elements */
    unsigned warm_rounds;      /* untimed rounds of 32 hops first */
    unsigned rounds;           /* timed rounds of 32 hops */
};

struct pchase_meas {
    uint64_t t0, t1;           /* clock64 at the start / end of the timed hops */
    uint64_t hops;             /* timed hops */
    double cycles_per_hop;     /* (t1 - t0) / hops: core cycles in timing mode,
                                  issued instructions in functional mode */
    uint32_t got_elem, want_elem;   /* final element index: kernel vs CPU walk
                                       (UINT32_MAX when the kernel's pointer is not an element) */
};

/* The default parameters of a level at a size. */
void pchase_level_params(enum pchase_level lv, enum wl_size size, struct pchase_params *out);

/* Build the chain on the device, launch the kernel once (<<<1, 1>>>), walk the
   same chain on the CPU.  Device memory is freed before returning. */
ws_status pchase_measure(ws_ctx *ctx, ws_module *mod, const struct pchase_params *pp, uint64_t seed,
                         struct pchase_meas *m);

#endif
