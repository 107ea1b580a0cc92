/*
 * repl.h - cache replacement policies behind one ops struct.  The cache keeps
 * the mechanism (tags, valid/dirty/reserved bits); a policy keeps its own
 * per-line state (recency stamps, RRPVs, signatures) in its state block and
 * only answers which way to evict.  A new policy = one file in policy/repl/ +
 * one line in policy/registry.def.
 */
#ifndef WARPSIM_REPL_H
#define WARPSIM_REPL_H

#include <stddef.h>
#include <stdint.h>

#include "core/sim.h"

#define REPL_BYPASS (-1)

/* What a policy may see of a set when choosing a victim. */
struct repl_set_view {
    uint32_t set, assoc;
    const uint8_t *valid;      /* [assoc] */
    const uint8_t *reserved;   /* [assoc]: pending fill, may not be evicted */
};

struct repl_ops {
    const char *name;
    const char *doc;
    /* bytes of state for a cache of nsets x assoc lines */
    size_t (*state_size)(uint32_t nsets, uint32_t assoc);
    void (*init)(void *st, uint32_t nsets, uint32_t assoc);
    /* victim way in the set, or REPL_BYPASS; only among ways with !reserved
       (invalid ways first); -2 when every way is reserved */
    int (*victim)(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now);
    void (*on_hit)(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);
    void (*on_fill)(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);   /* line (re)allocated */
    void (*on_evict)(void *st, uint32_t set, uint32_t way, sim_cycle now);               /* may be NULL */
};

const struct repl_ops *repl_find(const char *name);   /* NULL if unknown */
/* "lru, fifo, ..." for error messages */
void repl_names(char *buf, size_t n);
/* addition: the i-th registered policy (registry.def order), NULL past the end */
const struct repl_ops *repl_at(size_t i);

#endif
