/*
 * tracegen.h - synthetic CPU instruction traces (ChampSim format, cpu/trace.h)
 * standing in for the CPU applications of 004 Table III, and the 14-application
 * mixes of 004 Table IV.  docs/cpu.md describes the generator and lists the
 * L2 MPKI each profile achieves on the modelled core.
 *
 * A profile is a target L2 MPKI (Table III), an access pattern for the data
 * that misses the L2 (stream, stride, random, pointer chase), the footprint
 * of that data (larger than the L2) and a share of unpredictable branches.
 * The rest of the instructions are ALU work, branches and loads/stores to
 * data that stays in the L1 (hot) or the L2 (warm).  The generator is
 * deterministic: a profile, a seed and a length give the same records.
 */
#ifndef WARPSIM_CPU_TRACEGEN_H
#define WARPSIM_CPU_TRACEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "cpu/cpu_core.h"
#include "cpu/trace.h"

enum tracegen_pattern {
    TG_STREAM = 0,   /* consecutive lines, a few accesses each (streaming FP codes) */
    TG_STRIDE,       /* a fixed stride of several lines */
    TG_RANDOM,       /* independent random lines */
    TG_CHASE         /* random lines, each address depending on the previous load (pointer chasing) */
};
const char *tracegen_pattern_name(enum tracegen_pattern p);

struct tracegen_profile {
    const char *name;        /* 004 Table III spelling */
    double mpki;             /* 004 Table III L2 MPKI: the target */
    char cls;                /* 004 Table III type: 'L', 'M', 'H' (MPKI class) */
    uint8_t pattern;         /* enum tracegen_pattern */
    uint16_t footprint_mb;   /* data that misses the L2 */
    uint8_t branch_random;   /* percent of static branches with a data-dependent (coin) outcome */
    double cal;              /* calibration: misses-region accesses per target miss (docs/cpu.md) */
};
/* The 34 profiles in Table III order. */
const struct tracegen_profile *tracegen_profiles(size_t *n);
/* By name (exact, or 004 Table IV's spelling, e.g. "cactusADM"); NULL if none. */
const struct tracegen_profile *tracegen_find(const char *name);

#define TRACEGEN_MIX_APPS 14
struct tracegen_mix {
    const char *name;                            /* L1, L2, M1, M2, H1, H2 */
    const char *apps[TRACEGEN_MIX_APPS];         /* as listed in 004 Table IV */
};
const struct tracegen_mix *tracegen_mixes(size_t *n);
const struct tracegen_mix *tracegen_find_mix(const char *name);

/* A generator: an endless stream of records. */
struct tracegen;
struct tracegen *tracegen_new(struct arena *a, const struct tracegen_profile *p, uint64_t seed);
void tracegen_next(struct tracegen *g, struct trace_rec *r);
void tracegen_reset(struct tracegen *g);   /* back to the first record */
/* The number of records of the prologue that touches the hot and warm data once. */
uint64_t tracegen_prologue(const struct tracegen *g);

/* The first n records of a generator as an instruction source (rewind restarts it). */
struct cpu_src *tracegen_src(struct arena *a, struct tracegen *g, uint64_t n);

/* Write the first n records to path (.gz/.xz compress).  0, or -1 with "PATH: reason". */
int tracegen_write(const struct tracegen_profile *p, uint64_t seed, uint64_t n, const char *path, char *err,
                   size_t errn);

/* Run the first n records on the default core (cpu_core_params_default) over the
   default fixed-latency memory, measuring after `warmup` instructions (the
   default when warmup is UINT64_MAX: tracegen_default_warmup).  0 or -1 + err. */
uint64_t tracegen_default_warmup(uint64_t n);
int tracegen_measure(const struct tracegen_profile *p, uint64_t seed, uint64_t n, uint64_t warmup,
                     struct cpu_core_summary *out, char *err, size_t errn);

#endif
