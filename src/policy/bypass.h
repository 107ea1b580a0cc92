/*
 * bypass.h - cache bypass (no-allocate) policies behind one ops struct.  The
 * cache keeps the mechanism (tags, MSHRs, the request that goes below); a
 * policy only answers, on a read miss and before anything is allocated,
 * whether the block is to be allocated or sent to the next level without a
 * line.  A new policy = one file in policy/bypass/ + one line
 * X(bypass, name) in policy/registry.def (docs/extending.md has the recipe).
 *
 * Life of a policy instance (one per cache, mem/cache.c), as repl.h:
 *   setup   state_size(nsets, assoc) bytes from the cache's arena, zeroed;
 *           the parameter table applied (defaults, then the dotted options
 *           bypass.<name>.<param>), then init(st, nsets, assoc).  Parameters
 *           live in the fixed head of the state struct, per-line arrays
 *           (reuse bits, insertion PCs) after it.  Nothing is allocated later.
 *   access  should_bypass() on every read miss that would fetch the block
 *           (not on a merge into a pending miss, not for writes: writes keep
 *           the cache's write policy).  Nonzero = bypass: no line, no
 *           replacement call; the cache counts it.  Zero = allocate as usual.
 *           on_fill() for the way that receives a block (whatever allocated
 *           it: read miss, write-allocate, lazy-fetch write), on_hit() on every
 *           access that finds its block valid or pending, on_evict() when a
 *           valid line is replaced or invalidated by a write-evict write.
 *           The observers may be NULL.  A kernel-boundary invalidation of the
 *           whole cache calls no hook (as repl.h).
 * The policy sees the access (PC, warp, block address, set), never the SM.
 * Hooks run on the access path: no allocation, no I/O, no global state; a
 * PRNG, if any, lives in the state (determinism).
 */
#ifndef WARPSIM_BYPASS_H
#define WARPSIM_BYPASS_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/sim.h"

#define BYPASS_NO_WARP UINT32_MAX

/* What a policy sees of one access (read only). */
struct bypass_access {
    uint64_t addr;             /* block address */
    uint32_t pc;               /* the memory instruction's PC (byte address) */
    uint32_t warp;             /* the warp's slot in its SM, BYPASS_NO_WARP below the L1 (L2) */
    uint32_t set;
    uint8_t is_write;
    uint8_t local;             /* local-memory access (the L1D's local/global distinction) */
};

/* A policy's per-PC view for the reports (bypass_ops.pc_info). */
struct bypass_pc_info {
    int level;                 /* bypass aggressiveness (Ctrl-C: AGG), -1 when the policy has none */
    double insert_ratio;       /* fraction of this PC's misses the policy lets allocate */
};

struct bypass_ops {
    const char *name;
    const char *doc;
    size_t (*state_size)(uint32_t nsets, uint32_t assoc);
    void (*init)(void *st, uint32_t nsets, uint32_t assoc);
    /* decision on a read miss (before allocating): nonzero = do not allocate */
    int (*should_bypass)(void *st, const struct bypass_access *a, sim_cycle now);
    void (*on_hit)(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);      /* may be NULL */
    void (*on_fill)(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);     /* may be NULL */
    void (*on_evict)(void *st, uint32_t set, uint32_t way, sim_cycle now);                 /* may be NULL */
    /* per-PC state for the reports; may be NULL */
    void (*pc_info)(const void *st, uint32_t pc, struct bypass_pc_info *out);
    /* parameters ("bypass.<name>.<param>", policy/params.h) over the head of the state block; may be NULL */
    const struct cfg_opt *params;
    size_t nparams;
};

const struct bypass_ops *bypass_find(const char *name);   /* NULL if unknown */
void bypass_names(char *buf, size_t n);                     /* "none, all, ..." */
const struct bypass_ops *bypass_at(size_t i);               /* registry order, NULL past the end */

#endif
