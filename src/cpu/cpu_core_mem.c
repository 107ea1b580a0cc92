/*
 * cpu_core_mem.c - the memory side of the CPU core (cpu/cpu_core.h): the
 * private L1D and L2 (mem/cache.c tag arrays with MSHRs), the store buffer
 * and the outgoing memory queue.
 *
 *   load issue (t)     L1 lookup; hit: data at t + l1_lat.  miss: an L2 read
 *                      is queued, ready at t + l1_lat (a merge into a pending
 *                      line waits for that line's fill).
 *   L2 stage           one queued access per cycle once ready: a hit fills
 *                      the L1 l2_lat later; a miss is a memory read leaving
 *                      l2_lat later.  An L1 write-back is an L2 write (lazy
 *                      fetch: a whole line, installed without a fetch).
 *   memory reply (R)   fills the L2 and the L1 at R; the waiting loads
 *                      complete at R.
 *   store buffer       a retired store writes the L1 (write-allocate: a miss
 *                      fetches the line like a load, and the line is dirty
 *                      after its fill); it leaves the buffer once the L1
 *                      accepted it.
 * Room is checked before an access that may need it: an L1 access needs two
 * L1 -> L2 queue slots (a miss and a dirty victim), an L2 access two outgoing
 * slots.  The outgoing queue can grow past outq_size by what fills may add,
 * so a reply is never refused.
 */
#include <stdio.h>
#include <string.h>

#include "cpu/cpu_core_int.h"

static struct cache *cpu_new_cache(struct arena *a, const char *str, const char *name, struct cache_config *cfg,
                                   char *msg, size_t n)
{
    char m[256];
    unsigned col = 0;
    if (cache_config_parse(str, cfg, m, sizeof m, &col) != 0) {
        snprintf(msg, n, "cpu %s cache string '%s': column %u: %s", name, str, col, m);
        return NULL;
    }
    if (cfg->wr != CW_WRITE_BACK) {
        snprintf(msg, n, "cpu %s cache string '%s': the CPU caches must be write-back (B)", name, str);
        return NULL;
    }
    return cache_new(a, cfg, name);
}

int cpu_core_mem_init(struct cpu_core *c, struct arena *a, char *msg, size_t n)
{
    struct cache_config c1, c2;
    snprintf(c->l1_name, sizeof c->l1_name, "cpu%u.l1d", (unsigned)c->p.id);
    snprintf(c->l2_name, sizeof c->l2_name, "cpu%u.l2", (unsigned)c->p.id);
    c->l1 = cpu_new_cache(a, c->p.l1d, "l1d", &c1, msg, n);
    if (!c->l1)
        return -1;
    c->l2 = cpu_new_cache(a, c->p.l2, "l2", &c2, msg, n);
    if (!c->l2)
        return -1;
    if (c1.line_size != c2.line_size) {
        snprintf(msg, n, "cpu caches: the L1D line (%u B) and the L2 line (%u B) must be equal", c1.line_size,
                 c2.line_size);
        return -1;
    }
    c->l2q = arena_alloc(a, sizeof *c->l2q * c->p.l2q_size);
    c->fills_cap = c->p.l2_lat + 4;   /* one L2 access per cycle, each fill l2_lat later */
    c->fills = arena_alloc(a, sizeof *c->fills * c->fills_cap);
    c->sb = arena_alloc(a, sizeof *c->sb * c->p.sb_size);
    uint32_t ocap = c->p.outq_size + c2.mshr_entries + 4;
    c->outq = arena_alloc(a, sizeof *c->outq * ocap);
    c->outq_ready = arena_alloc(a, sizeof *c->outq_ready * ocap);
    c->waiters_cap = c1.mshr_max_merge > c2.mshr_max_merge ? c1.mshr_max_merge : c2.mshr_max_merge;
    c->waiters = arena_alloc(a, sizeof *c->waiters * c->waiters_cap);
    SIM_ASSERT(c->l2q && c->fills && c->sb && c->outq && c->outq_ready && c->waiters);
    c->l2_blocked_epoch = UINT64_MAX;
    c->sb_blocked_epoch = UINT64_MAX;
    return 0;
}

static uint32_t cpu_outq_cap(const struct cpu_core *c)
{
    return c->p.outq_size + cache_cfg(c->l2)->mshr_entries + 4;
}

static void cpu_l2q_push(struct cpu_core *c, uint64_t addr, bool is_write, sim_cycle ready)
{
    SIM_ASSERT(c->l2q_count < c->p.l2q_size);
    uint32_t t = c->l2q_head + c->l2q_count++;
    if (t >= c->p.l2q_size)
        t -= c->p.l2q_size;
    c->l2q[t] = (struct l2q_ent){addr, ready, is_write};
}

static void cpu_outq_push(struct cpu_core *c, uint64_t addr, bool is_write, sim_cycle ready)
{
    uint32_t cap = cpu_outq_cap(c);
    SIM_ASSERT(c->outq_count < cap);
    struct mem_req *r = mem_req_alloc(c->pool);
    SIM_ASSERT(r);
    r->addr = addr;
    r->size = cache_cfg(c->l2)->line_size;
    r->type = is_write ? MRT_WRITE : MRT_READ;
    r->source = is_write ? MRS_WRITEBACK : MRS_L1D;
    r->sm = c->p.id;
    r->t_issue = ready;
    uint32_t t = c->outq_head + c->outq_count++;
    if (t >= cap)
        t -= cap;
    /* a fill's write-back may be pushed at `now` behind requests that leave later: keep the
       queue ordered by ready cycle so the head is always the first to leave */
    c->outq[t] = r;
    c->outq_ready[t] = ready;
    for (uint32_t k = c->outq_count - 1; k > 0; k--) {
        uint32_t i = c->outq_head + k, j = i - 1;
        i = i >= cap ? i - cap : i;
        j = j >= cap ? j - cap : j;
        if (c->outq_ready[j] <= c->outq_ready[i])
            break;
        struct mem_req *tr = c->outq[i];
        sim_cycle tt = c->outq_ready[i];
        c->outq[i] = c->outq[j];
        c->outq_ready[i] = c->outq_ready[j];
        c->outq[j] = tr;
        c->outq_ready[j] = tt;
    }
    if (is_write)
        c->st.mem_writes++;
    else
        c->st.mem_reads++;
}

struct mem_req *cpu_core_mem_peek(const struct cpu_core *c, sim_cycle now)
{
    if (!c->outq_count || c->outq_ready[c->outq_head] > now)
        return NULL;
    return c->outq[c->outq_head];
}

sim_cycle cpu_core_mem_next(const struct cpu_core *c)
{
    return c->outq_count ? c->outq_ready[c->outq_head] : SIM_NEVER;
}

void cpu_core_mem_pop(struct cpu_core *c)
{
    SIM_ASSERT(c->outq_count);
    c->outq_head = c->outq_head + 1 == cpu_outq_cap(c) ? 0 : c->outq_head + 1;
    c->outq_count--;
    c->l2_epoch++;
}

/* Data of block `addr` reaches the L1 at `now`: wake the loads waiting for it. */
static void cpu_l1_fill(struct cpu_core *c, uint64_t addr, sim_cycle now)
{
    uint64_t wb = UINT64_MAX;
    unsigned nw = cache_fill(c->l1, addr, now, c->waiters, c->waiters_cap, &wb);
    SIM_ASSERT(nw <= c->waiters_cap);
    c->l1_fill_epoch++;
    if (wb != UINT64_MAX) {
        /* only an allocate-on-fill L1 evicts here; the queue may briefly exceed its size */
        if (c->l2q_count < c->p.l2q_size)
            cpu_l2q_push(c, wb, true, now + c->p.l1_lat);
        else
            cpu_outq_push(c, wb, true, now);   /* no room: straight to memory (the L2 is non-inclusive) */
    }
    for (unsigned i = 0; i < nw; i++) {
        if (c->waiters[i] == CPU_WAIT_STORE)
            continue;
        uint32_t idx = (uint32_t)c->waiters[i];
        struct rob_ent *e = &c->rob[idx];
        SIM_ASSERT(e->ld_wait > 0 && e->done_at == SIM_NEVER);
        e->ld_wait--;
        e->mem_done = sim_max(e->mem_done, now);
        if (!e->ld_wait && e->ld_next == e->nld)
            cpu_core_complete(c, idx, e->mem_done);
    }
}

bool cpu_core_load_access(struct cpu_core *c, uint32_t idx, sim_cycle now)
{
    struct rob_ent *e = &c->rob[idx];
    SIM_ASSERT(e->ld_next < e->nld);
    if (c->p.l2q_size - c->l2q_count < 2)
        return false;   /* no room for a miss: retried next cycle (the L2 stage drains the queue) */
    c->l1_port_used = true;
    uint64_t wb = UINT64_MAX;
    enum cache_result r =
        cache_access(c->l1, e->ld[e->ld_next], false, (uint32_t)e->ip, idx, now, &wb, NULL);
    if (r == CACHE_RESERVATION_FAIL) {
        e->blocked = 1;
        e->retry_epoch = c->l1_fill_epoch;
        return false;
    }
    e->blocked = 0;
    SIM_ASSERT(r != CACHE_MISS_NO_ALLOC);   /* LRU, no bypass policy: a read miss always allocates */
    if (wb != UINT64_MAX)
        cpu_l2q_push(c, wb, true, now + c->p.l1_lat);
    if (r == CACHE_HIT) {
        e->mem_done = sim_max(e->mem_done, now + c->p.l1_lat);
    } else {
        if (r == CACHE_MISS)
            cpu_l2q_push(c, e->ld[e->ld_next], false, now + c->p.l1_lat);
        e->ld_wait++;
        e->ld_pending = 1;
    }
    e->ld_next++;
    if (e->ld_next < e->nld)
        return false;
    if (!e->ld_wait)
        cpu_core_complete(c, idx, e->mem_done);
    return true;
}

bool cpu_core_sb_drain(struct cpu_core *c, sim_cycle now)
{
    if (!c->sb_count || c->p.l2q_size - c->l2q_count < 2)
        return false;
    if (c->sb_blocked_epoch == c->l1_fill_epoch)
        return false;
    struct sb_ent *s = &c->sb[c->sb_head];
    c->l1_port_used = true;
    uint64_t wb = UINT64_MAX;
    enum cache_result r = cache_access(c->l1, s->addr, true, (uint32_t)s->ip, CPU_WAIT_STORE, now, &wb, NULL);
    if (r == CACHE_RESERVATION_FAIL) {
        c->sb_blocked_epoch = c->l1_fill_epoch;
        return false;
    }
    c->sb_blocked_epoch = UINT64_MAX;
    if (wb != UINT64_MAX)
        cpu_l2q_push(c, wb, true, now + c->p.l1_lat);
    if (r == CACHE_MISS)
        cpu_l2q_push(c, s->addr, false, now + c->p.l1_lat);   /* write-allocate: fetch the line */
    else if (r == CACHE_MISS_NO_ALLOC)
        cpu_l2q_push(c, s->addr, true, now + c->p.l1_lat);    /* no write-allocate: the write goes below */
    c->sb_head = c->sb_head + 1 == c->p.sb_size ? 0 : c->sb_head + 1;
    c->sb_count--;
    return true;
}

/* The L2 received the line of an L1 read miss: schedule the L1 fill. */
static void cpu_fill_push(struct cpu_core *c, uint64_t addr, sim_cycle at)
{
    SIM_ASSERT(c->fills_count < c->fills_cap);
    uint32_t t = c->fills_head + c->fills_count++;
    if (t >= c->fills_cap)
        t -= c->fills_cap;
    c->fills[t] = (struct fill_ev){addr, at};
}

/* One L2 access from the head of the L1 -> L2 queue. */
static void cpu_l2_stage(struct cpu_core *c, sim_cycle now)
{
    if (!c->l2q_count)
        return;
    struct l2q_ent *q = &c->l2q[c->l2q_head];
    if (q->ready > now || c->l2_blocked_epoch == c->l2_epoch)
        return;
    if (c->outq_count + 2 > c->p.outq_size) {
        c->l2_blocked_epoch = c->l2_epoch;   /* until the owner takes a request */
        return;
    }
    uint64_t wb = UINT64_MAX;
    enum cache_result r = cache_access(c->l2, q->addr, q->is_write != 0, 0,
                                       q->is_write ? CPU_L2W_WB : CPU_L2W_READ, now, &wb, NULL);
    if (r == CACHE_RESERVATION_FAIL) {
        c->l2_blocked_epoch = c->l2_epoch;   /* until an L2 fill */
        return;
    }
    c->l2_blocked_epoch = UINT64_MAX;
    sim_cycle out = now + c->p.l2_lat;
    if (wb != UINT64_MAX)
        cpu_outq_push(c, wb, true, out);
    if (!q->is_write) {
        if (r == CACHE_HIT)
            cpu_fill_push(c, q->addr, out);
        else if (r == CACHE_MISS)
            cpu_outq_push(c, q->addr, false, out);
        else
            SIM_ASSERT(r == CACHE_HIT_RESERVED);   /* the pending line's fill wakes the L1 */
    } else if (r == CACHE_MISS) {
        cpu_outq_push(c, q->addr, false, out);    /* a fetch-on-write L2: the line comes from memory */
    } else if (r == CACHE_MISS_NO_ALLOC) {
        cpu_outq_push(c, q->addr, true, out);     /* no write-allocate: the write goes on */
    }
    c->l2q_head = c->l2q_head + 1 == c->p.l2q_size ? 0 : c->l2q_head + 1;
    c->l2q_count--;
}

void cpu_core_mem_tick(struct cpu_core *c, sim_cycle now)
{
    while (c->fills_count && c->fills[c->fills_head].at <= now) {
        struct fill_ev f = c->fills[c->fills_head];
        c->fills_head = c->fills_head + 1 == c->fills_cap ? 0 : c->fills_head + 1;
        c->fills_count--;
        cpu_l1_fill(c, f.addr, f.at);
    }
    cpu_l2_stage(c, now);
}

void cpu_core_mem_reply(struct cpu_core *c, struct mem_req *r, sim_cycle now)
{
    SIM_ASSERT(r->type == MRT_READ);
    cpu_core_catch_up(c, now);
    uint64_t addr = r->addr, wb = UINT64_MAX;
    mem_req_free(c->pool, r);
    unsigned nw = cache_fill(c->l2, addr, now, c->waiters, c->waiters_cap, &wb);
    SIM_ASSERT(nw <= c->waiters_cap);
    c->l2_epoch++;
    if (wb != UINT64_MAX)
        cpu_outq_push(c, wb, true, now);
    bool l1_waits = false;
    for (unsigned i = 0; i < nw; i++)
        l1_waits |= c->waiters[i] == CPU_L2W_READ;
    if (l1_waits)
        cpu_l1_fill(c, addr, now);
    c->progress = true;
}

sim_cycle cpu_core_mem_next_event(const struct cpu_core *c, sim_cycle now)
{
    sim_cycle t = SIM_NEVER;
    if (c->fills_count)
        t = sim_min(t, sim_max(c->fills[c->fills_head].at, now + 1));
    if (c->l2q_count && c->l2_blocked_epoch != c->l2_epoch)
        t = sim_min(t, sim_max(c->l2q[c->l2q_head].ready, now + 1));
    if (c->sb_count && c->sb_blocked_epoch != c->l1_fill_epoch)
        t = now + 1;
    return t;
}
