/* stamp.c - stamp-ordered victim selection shared by LRU and FIFO (stamp.h). */
#include "policy/repl/stamp.h"

struct stamp_state {
    uint64_t clock;            /* bumped on every stamp */
    uint32_t assoc;
    uint64_t stamp[];          /* [nsets * assoc] */
};

size_t repl_stamp_state_size(uint32_t nsets, uint32_t assoc)
{
    return sizeof(struct stamp_state) + (size_t)nsets * assoc * sizeof(uint64_t);
}

void repl_stamp_init(void *st, uint32_t nsets, uint32_t assoc)
{
    struct stamp_state *s = st;
    s->clock = 0;
    s->assoc = assoc;
    for (size_t i = 0; i < (size_t)nsets * assoc; i++)
        s->stamp[i] = 0;
}

int repl_stamp_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now)
{
    (void)pc, (void)addr, (void)now;
    const struct stamp_state *s = st;
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

void repl_stamp_touch(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct stamp_state *s = st;
    s->stamp[(size_t)set * s->assoc + way] = ++s->clock;
}
