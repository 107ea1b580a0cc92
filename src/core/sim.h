/*
 * sim.h - basic types and invariant checks shared by every timing component.
 */
#ifndef WARPSIM_SIM_H
#define WARPSIM_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t sim_cycle;   /* cycles of one clock domain */
typedef uint64_t sim_ps;      /* global time in integer picoseconds */

#define SIM_NEVER UINT64_MAX  /* "no event pending" for next-event queries */

/* Always-on invariant check: prints where and aborts (a simulator bug, not bad input). */
#define SIM_ASSERT(cond)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "warpsim: internal error: %s:%d: assertion '%s' failed\n",     \
                    __FILE__, __LINE__, #cond);                                            \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

#ifdef NDEBUG
#define SIM_DASSERT(cond) ((void)0)
#else
#define SIM_DASSERT(cond) SIM_ASSERT(cond)
#endif

static inline sim_cycle sim_max(sim_cycle a, sim_cycle b) { return a > b ? a : b; }
static inline sim_cycle sim_min(sim_cycle a, sim_cycle b) { return a < b ? a : b; }

#endif
