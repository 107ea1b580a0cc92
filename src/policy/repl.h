/*
 * repl.h - cache replacement policies behind one ops struct.  The cache keeps
 * the mechanism (tags, valid/dirty/reserved bits, MSHRs); a policy keeps its
 * own per-line state (recency stamps, RRPVs, signatures) in its state block
 * and only answers which way to evict.  A new policy = one file in
 * policy/repl/ + one line X(repl, name) in policy/registry.def
 * (docs/extending.md has the recipe).
 *
 * Life of a policy instance (one per cache, mem/cache.c):
 *   setup   state_size(nsets, assoc) bytes are taken from the cache's arena
 *           and zeroed; the parameter table (params) is applied to them
 *           (defaults, then the dotted options repl.<name>.<param>); then
 *           init(st, nsets, assoc) sizes/clears the per-line metadata.  The
 *           parameters must live in the fixed head of the state struct (the
 *           table's offsets), the per-line arrays after it; init must not
 *           overwrite the parameters.  Nothing is allocated later.
 *   access  victim() when a line must be allocated (a miss that allocates
 *           on miss, a fill that allocates on fill, a lazy-fetch write);
 *           then on_evict() for the victim if it was valid, then on_fill()
 *           for the way that receives the new block.  on_hit() on every
 *           access that finds its block valid or pending (merged miss), and
 *           on a write-through write hit.  on_evict() also when a write-evict
 *           write invalidates a line.  A kernel-boundary invalidation of the
 *           whole cache calls no hook (the policy sees the ways invalid).
 * Hooks run on the access path: no allocation, no I/O, no global state;
 * same calls in the same order must give the same victims (determinism:
 * a PRNG lives in the state, seeded in init).
 */
#ifndef WARPSIM_REPL_H
#define WARPSIM_REPL_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/sim.h"

#define REPL_BYPASS (-1)

/* What a policy may see of a set when choosing a victim (read only). */
struct repl_set_view {
    uint32_t set, assoc;
    const uint8_t *valid;      /* [assoc] */
    const uint8_t *reserved;   /* [assoc]: pending fill, may not be evicted */
};

/* addition: what the cache tells a policy about one access (on_access) */
struct repl_access {
    uint64_t addr;             /* the block address (as victim() sees it) */
    uint32_t pc;
    uint32_t warp;             /* SM warp slot, CACHE_NO_WARP (mem/cache.h) when none (L2, fetch) */
    uint8_t critical;          /* the requesting warp is predicted critical */
    uint8_t is_write;
    uint8_t pad_[6];
};

struct repl_ops {
    const char *name;
    const char *doc;
    /* bytes of state for a cache of nsets x assoc lines */
    size_t (*state_size)(uint32_t nsets, uint32_t assoc);
    void (*init)(void *st, uint32_t nsets, uint32_t assoc);
    /* victim way in the set, or REPL_BYPASS; only among ways with !reserved
       (invalid ways first); -2 when every way is reserved (a policy that
       partitions the ways, way_critical below, looks only at the partition
       it picks: its invalid ways first, -2 when all of those are reserved) */
    int (*victim)(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now);
    void (*on_hit)(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);
    void (*on_fill)(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);   /* line (re)allocated */
    void (*on_evict)(void *st, uint32_t set, uint32_t way, sim_cycle now);               /* may be NULL */
    /* addition: parameters ("repl.<name>.<param>", policy/params.h) over the
       head of the state block; may be NULL */
    const struct cfg_opt *params;
    size_t nparams;
    /* addition (may be NULL): the access about to be handled, called by the
       cache at the start of every cache_access_*() (before victim() and
       on_hit() of that access; not for cache_fill()), with who makes it:
       the requesting warp and whether the warp scheduler predicts it
       critical (policy/warp_sched.h is_critical; CACP, repl/cacp.c).  Every
       other policy leaves it NULL and ignores the access record. */
    void (*on_access)(void *st, const struct repl_access *a);
    /* addition (may be NULL): 1 when `way` of `set` belongs to a critical
       partition (CACP), else 0; the cache's partition hit counters use it */
    int (*way_critical)(const void *st, uint32_t set, uint32_t way);
    /* addition: victim() changes no state, so a refused access that asked it can be repeated
       without calling it (mem/cache.h cache_refusal_repeats) */
    uint8_t victim_pure;
};

const struct repl_ops *repl_find(const char *name);   /* NULL if unknown */
/* "lru, fifo, ..." for error messages */
void repl_names(char *buf, size_t n);
/* addition: the i-th registered policy (registry.def order), NULL past the end */
const struct repl_ops *repl_at(size_t i);

#endif
