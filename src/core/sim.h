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

/* Lanes set in a 32-bit mask.  Without the popcnt instruction in the target (the portable x86-64
   baseline) __builtin_popcount is a library call, and the executor counts lanes for every warp
   instruction. */
static inline unsigned sim_popcount32(uint32_t x)
{
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    return (unsigned)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
#endif
}

#endif
