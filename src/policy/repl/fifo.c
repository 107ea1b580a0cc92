/*
 * fifo.c - first-in-first-out replacement: the victim is the line allocated
 * longest ago; only a fill stamps a line, hits do not refresh it (stamp.h).
 */
#include "policy/repl/stamp.h"

static void fifo_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)st, (void)set, (void)way, (void)pc, (void)now;
}

const struct repl_ops repl_fifo_ops = {
    .name = "fifo",
    .doc = "first in first out (allocation order; hits do not refresh), invalid ways first",
    .state_size = repl_stamp_state_size,
    .init = repl_stamp_init,
    .victim = repl_stamp_victim,
    .on_hit = fifo_on_hit,
    .on_fill = repl_stamp_touch,
    .on_evict = NULL,
    .victim_pure = 1,
};
