/* cpu_mem_fixed.c - fixed-latency memory and the standalone run loop (cpu/cpu_mem_fixed.h). */
#include <stdio.h>
#include <string.h>

#include "cpu/cpu_mem_fixed.h"

struct cpu_mem_fixed {
    struct cpu_mem_fixed_params p;
    struct mem_req_pool *pool;
    /* reads in flight, in start order = reply order (fixed latency) */
    struct mem_req **q;
    sim_cycle *due;
    uint32_t head, count;
    sim_cycle next_start;   /* the channel is free from this cycle */
    struct cpu_mem_fixed_stats st;
};

void cpu_mem_fixed_params_default(struct cpu_mem_fixed_params *p)
{
    p->latency = 200;   /* 100 ns at 2 GHz */
    p->interval = 4;    /* 128 B every 4 cycles: 64 GB/s at 2 GHz */
    p->max_inflight = 256;
}

struct cpu_mem_fixed *cpu_mem_fixed_new(struct arena *a, const struct cpu_mem_fixed_params *p,
                                        struct mem_req_pool *pool)
{
    SIM_ASSERT(p->max_inflight > 0);
    struct cpu_mem_fixed *m = arena_alloc(a, sizeof *m);
    SIM_ASSERT(m);
    m->p = *p;
    m->pool = pool;
    m->q = arena_alloc(a, sizeof *m->q * p->max_inflight);
    m->due = arena_alloc(a, sizeof *m->due * p->max_inflight);
    SIM_ASSERT(m->q && m->due);
    return m;
}

bool cpu_mem_fixed_send(struct cpu_mem_fixed *m, struct mem_req *r, sim_cycle now)
{
    if (r->type != MRT_WRITE && m->count == m->p.max_inflight)
        return false;
    sim_cycle start = sim_max(now, m->next_start);
    m->st.queue_cycles += start - now;
    m->next_start = start + m->p.interval;
    if (r->type == MRT_WRITE) {
        m->st.writes++;
        mem_req_free(m->pool, r);
        return true;
    }
    m->st.reads++;
    uint32_t t = m->head + m->count++;
    if (t >= m->p.max_inflight)
        t -= m->p.max_inflight;
    m->q[t] = r;
    m->due[t] = start + m->p.latency;
    return true;
}

struct mem_req *cpu_mem_fixed_reply(struct cpu_mem_fixed *m, sim_cycle now)
{
    if (!m->count || m->due[m->head] > now)
        return NULL;
    struct mem_req *r = m->q[m->head];
    r->is_reply = 1;
    r->t_reply = m->due[m->head];
    m->head = m->head + 1 == m->p.max_inflight ? 0 : m->head + 1;
    m->count--;
    return r;
}

sim_cycle cpu_mem_fixed_next(const struct cpu_mem_fixed *m)
{
    return m->count ? m->due[m->head] : SIM_NEVER;
}

const struct cpu_mem_fixed_stats *cpu_mem_fixed_stats(const struct cpu_mem_fixed *m) { return &m->st; }

int cpu_run_fixed(struct cpu_core *c, struct cpu_mem_fixed *m, uint64_t warmup, sim_cycle max_cycles,
                  struct cpu_core_summary *out, char *err, size_t n)
{
    struct cpu_core_sample start, end;
    memset(&start, 0, sizeof start);
    bool measuring = warmup == 0;
    if (measuring)
        cpu_core_sample(c, &start);
    sim_cycle now = 0;
    int rc = 0;
    while (!cpu_core_done(c)) {
        if (max_cycles && now >= max_cycles) {
            snprintf(err, n, "cycle limit %llu reached", (unsigned long long)max_cycles);
            rc = -1;
            break;
        }
        struct mem_req *r;
        while ((r = cpu_mem_fixed_reply(m, now)) != NULL)
            cpu_core_mem_reply(c, r, now);
        cpu_core_tick(c, now);
        while ((r = cpu_core_mem_peek(c, now)) != NULL && cpu_mem_fixed_send(m, r, now))
            cpu_core_mem_pop(c);
        if (!measuring && cpu_core_stats(c)->insns >= warmup) {
            /* the warm-up ends with this cycle: measure from the next one */
            cpu_core_sample(c, &start);
            measuring = true;
        }
        sim_cycle next = cpu_core_next_event(c, now);
        next = sim_min(next, cpu_mem_fixed_next(m));
        sim_cycle out_next = cpu_core_mem_next(c);
        if (out_next != SIM_NEVER)
            next = sim_min(next, sim_max(out_next, now + 1));
        if (next == SIM_NEVER && !cpu_core_done(c)) {
            snprintf(err, n, "CPU core made no progress at cycle %llu (internal error)", (unsigned long long)now);
            rc = -1;
            break;
        }
        now = sim_max(next, now + 1);
    }
    if (cpu_core_error(c)[0]) {
        snprintf(err, n, "%s", cpu_core_error(c));
        rc = -1;
    }
    if (!measuring)
        cpu_core_sample(c, &start);   /* the trace ended inside the warm-up: nothing measured */
    cpu_core_sample(c, &end);
    cpu_core_summarize(&start, &end, out);
    return rc;
}
