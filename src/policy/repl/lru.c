/*
 * lru.c - least-recently-used replacement.  Each line carries a stamp from a
 * per-cache monotonic counter (not the cycle: several accesses may happen in
 * one cycle and must still be ordered); the victim is the non-reserved line
 * with the smallest stamp, an invalid line first, lowest way on ties.
 */
#include "policy/repl.h"

struct lru_state {
    uint64_t clock;            /* bumped on every touch */
    uint32_t assoc;
    uint64_t stamp[];          /* [nsets * assoc] */
};

static size_t lru_state_size(uint32_t nsets, uint32_t assoc)
{
    return sizeof(struct lru_state) + (size_t)nsets * assoc * sizeof(uint64_t);
}

static void lru_init(void *st, uint32_t nsets, uint32_t assoc)
{
    struct lru_state *s = st;
    s->clock = 0;
    s->assoc = assoc;
    for (size_t i = 0; i < (size_t)nsets * assoc; i++)
        s->stamp[i] = 0;
}

static int lru_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now)
{
    (void)pc, (void)addr, (void)now;
    const struct lru_state *s = st;
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

static void lru_touch(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct lru_state *s = st;
    s->stamp[(size_t)set * s->assoc + way] = ++s->clock;
}

const struct repl_ops repl_lru_ops = {
    .name = "lru",
    .doc = "least recently used (hit or fill), invalid ways first",
    .state_size = lru_state_size,
    .init = lru_init,
    .victim = lru_victim,
    .on_hit = lru_touch,
    .on_fill = lru_touch,
    .on_evict = NULL,
};
