/*
 * fifo.h - bounded FIFO of pointers whose entries carry a ready cycle.
 *
 * The connection between two components: the producer pushes with the cycle
 * at which the entry becomes visible (now + latency), the consumer only sees
 * entries whose ready cycle has come.  A full FIFO is backpressure: the
 * producer must check fifo_full() and stall.  Storage is allocated once by
 * fifo_init (from the caller's arena); push/pop never allocate.
 */
#ifndef WARPSIM_FIFO_H
#define WARPSIM_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "sim.h"

struct fifo {
    void **item;
    sim_cycle *ready;
    uint32_t cap, head, count;
};

/* capacity >= 1. Returns 0, -1 on out-of-memory. */
static inline int fifo_init(struct fifo *f, struct arena *a, uint32_t capacity)
{
    f->item = arena_alloc(a, sizeof(void *) * capacity);
    f->ready = arena_alloc(a, sizeof(sim_cycle) * capacity);
    f->cap = capacity;
    f->head = f->count = 0;
    return f->item && f->ready ? 0 : -1;
}
static inline bool fifo_full(const struct fifo *f) { return f->count >= f->cap; }
static inline bool fifo_empty(const struct fifo *f) { return f->count == 0; }
static inline uint32_t fifo_count(const struct fifo *f) { return f->count; }
static inline uint32_t fifo_free(const struct fifo *f) { return f->cap - f->count; }
/* Caller checks fifo_full first. */
static inline void fifo_push(struct fifo *f, void *p, sim_cycle ready)
{
    SIM_DASSERT(f->count < f->cap);
    uint32_t i = f->head + f->count;
    if (i >= f->cap)
        i -= f->cap;
    f->item[i] = p;
    f->ready[i] = ready;
    f->count++;
}
/* Head entry if it is ready at `now`, else NULL. */
static inline void *fifo_peek(const struct fifo *f, sim_cycle now)
{
    return f->count && f->ready[f->head] <= now ? f->item[f->head] : NULL;
}
static inline void *fifo_pop(struct fifo *f)
{
    SIM_DASSERT(f->count > 0);
    void *p = f->item[f->head];
    if (++f->head == f->cap)
        f->head = 0;
    f->count--;
    return p;
}
/* Ready cycle of the head entry, SIM_NEVER when empty (for idle skipping). */
static inline sim_cycle fifo_next_ready(const struct fifo *f)
{
    return f->count ? f->ready[f->head] : SIM_NEVER;
}

#endif
