/*
 * stamp.h - the shared mechanism of LRU and FIFO: each line carries a stamp
 * from a per-cache monotonic counter (not the cycle: several accesses may
 * happen in one cycle and must still be ordered); the victim is the
 * non-reserved line with the smallest stamp, an invalid line first, lowest way
 * on ties.  LRU stamps on hit and fill, FIFO on fill only.
 */
#ifndef WARPSIM_REPL_STAMP_H
#define WARPSIM_REPL_STAMP_H

#include "policy/repl.h"

size_t repl_stamp_state_size(uint32_t nsets, uint32_t assoc);
void repl_stamp_init(void *st, uint32_t nsets, uint32_t assoc);
int repl_stamp_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now);
void repl_stamp_touch(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);

#endif
