/*
 * fifo.c - first-in-first-out replacement: the victim is the non-reserved
 * line allocated longest ago (hits do not refresh it), an invalid line first,
 * lowest way on ties.  Order comes from a per-cache allocation counter, not
 * the cycle, so allocations within one cycle are still ordered.
 */
#include "policy/repl.h"

struct fifo_state {
    uint64_t clock;            /* bumped on every allocation */
    uint32_t assoc;
    uint64_t stamp[];          /* [nsets * assoc] allocation order */
};

static size_t fifo_state_size(uint32_t nsets, uint32_t assoc)
{
    return sizeof(struct fifo_state) + (size_t)nsets * assoc * sizeof(uint64_t);
}

static void fifo_init(void *st, uint32_t nsets, uint32_t assoc)
{
    struct fifo_state *s = st;
    s->clock = 0;
    s->assoc = assoc;
    for (size_t i = 0; i < (size_t)nsets * assoc; i++)
        s->stamp[i] = 0;
}

static int fifo_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now)
{
    (void)pc, (void)addr, (void)now;
    const struct fifo_state *s = st;
    const uint64_t *stamp = s->stamp + (size_t)v->set * s->assoc;
    int best = -2;
    for (uint32_t w = 0; w < v->assoc; w++) {
        if (v->reserved[w])
            continue;
        if (!v->valid[w])
            return (int)w;
        if (best < 0 || stamp[w] < stamp[best])
            best = (int)w;
    }
    return best;
}

static void fifo_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)st, (void)set, (void)way, (void)pc, (void)now;   /* a hit does not change arrival order */
}

static void fifo_on_fill(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct fifo_state *s = st;
    s->stamp[(size_t)set * s->assoc + way] = ++s->clock;
}

const struct repl_ops repl_fifo_ops = {
    .name = "fifo",
    .doc = "first in first out (allocation order; hits do not refresh), invalid ways first",
    .state_size = fifo_state_size,
    .init = fifo_init,
    .victim = fifo_victim,
    .on_hit = fifo_on_hit,
    .on_fill = fifo_on_fill,
    .on_evict = NULL,
};
