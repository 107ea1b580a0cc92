/*
 * cpu_core.c - the pipeline of the trace-driven CPU core (cpu/cpu_core.h):
 * fetch with branch prediction, dispatch with register renaming into the
 * ROB, oldest-first issue, in-order retirement.  The caches, the store
 * buffer and the memory seam are in cpu_core_mem.c.
 *
 * Dependences: each ROB entry lists the entries that wait for it (edges
 * threaded through the consumers' edge_next[] slots, so no allocation).
 * When a producer's completion cycle becomes known (at issue for ALU
 * instructions and L1 hits, at the L2 lookup or the memory reply for
 * misses) its consumers learn it; a consumer with no unknown producer left
 * may issue from the latest producer's completion cycle on.  A producer that
 * retired before its consumer was dispatched imposes nothing.
 */
#include <stdio.h>
#include <string.h>

#include "cpu/cpu_core_int.h"

void cpu_core_params_default(struct cpu_core_params *p)
{
    memset(p, 0, sizeof *p);
    p->width = 3;
    p->rob_size = 128;
    p->mem_per_cycle = 1;
    p->alu_lat = 1;
    p->l1_lat = 2;
    p->l2_lat = 8;
    /* 64 sets x 128 B x 4 ways = 32 KB; 256 sets x 128 B x 8 ways = 256 KB; LRU, write-back.
       L1: write-allocate (a store miss fetches its line); L2: lazy fetch-on-read, so a
       write-back from the L1 (a whole line) installs without fetching */
    p->l1d = "64:128:4,L:B:m:W:L,A:16:8,16";
    p->l2 = "256:128:8,L:B:m:L:L,A:32:8,16";
    p->sb_size = 32;
    p->l2q_size = 16;
    p->outq_size = 16;
    p->bp_log2 = 14;
    p->mispredict_penalty = 12;
    p->quota = 0;
    p->loop = false;
    p->id = 0;
}

static int cpu_bound(const char *name, uint64_t v, uint64_t lo, uint64_t hi, char *msg, size_t n)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(msg, n, "cpu parameter %s = %llu out of range [%llu, %llu]", name, (unsigned long long)v,
             (unsigned long long)lo, (unsigned long long)hi);
    return -1;
}

int cpu_core_params_check(const struct cpu_core_params *p, char *msg, size_t n)
{
#define CPU_BOUND(f, lo, hi)                              \
    if (cpu_bound(#f, p->f, lo, hi, msg, n) != 0)         \
        return -1;
    CPU_BOUND(width, 1, 16)
    CPU_BOUND(rob_size, 1, 4096)
    CPU_BOUND(mem_per_cycle, 1, 16)
    CPU_BOUND(alu_lat, 1, 1000)
    CPU_BOUND(l1_lat, 1, 1000)
    CPU_BOUND(l2_lat, 1, 1000)
    CPU_BOUND(sb_size, 2, 4096)
    CPU_BOUND(l2q_size, 2, 4096)
    CPU_BOUND(outq_size, 2, 4096)
    CPU_BOUND(bp_log2, 1, 24)
    CPU_BOUND(mispredict_penalty, 0, 100000)
#undef CPU_BOUND
    if (p->loop && !p->quota) {
        snprintf(msg, n, "cpu parameter loop needs a quota (the core would never finish)");
        return -1;
    }
    if (!p->l1d || !p->l2) {
        snprintf(msg, n, "cpu parameter l1d/l2: cache string missing");
        return -1;
    }
    return 0;
}

struct cpu_core *cpu_core_new(struct arena *a, const struct cpu_core_params *p, struct cpu_src *src,
                              struct mem_req_pool *pool, char *msg, size_t n)
{
    if (cpu_core_params_check(p, msg, n) != 0)
        return NULL;
    struct cpu_core *c = arena_alloc(a, sizeof *c);
    SIM_ASSERT(c);
    c->p = *p;
    c->src = src;
    c->pool = pool;
    if (cpu_core_mem_init(c, a, msg, n) != 0)
        return NULL;
    c->rob = arena_alloc(a, sizeof *c->rob * p->rob_size);
    c->bp = arena_alloc(a, (size_t)1 << p->bp_log2);
    SIM_ASSERT(c->rob && c->bp);
    c->bp_mask = ((uint32_t)1 << p->bp_log2) - 1;
    memset(c->bp, 2, (size_t)1 << p->bp_log2);   /* weakly taken */
    for (uint32_t i = 0; i < CPU_NREGS; i++)
        c->reg_ent[i] = CPU_NO_ENT;
    c->fetch_wait_ent = CPU_NO_ENT;
    c->last_tick = SIM_NEVER;
    c->progress = true;
    return c;
}

void cpu_core_reg_stats(struct cpu_core *c, struct stats *s)
{
    static const struct {
        const char *name;
        size_t off;
        const char *doc;
    } tab[] = {
#define CS(f, d) {#f, offsetof(struct cpu_core_stats, f), d}
        CS(cycles, "CPU cycles simulated (idle cycles skipped included)"),
        CS(insns, "instructions retired"),
        CS(fetched, "instructions fetched"),
        CS(loads, "retired instructions with a load"),
        CS(stores, "retired instructions with a store"),
        CS(branches, "retired branches"),
        CS(mispredicts, "branches the predictor got wrong"),
        CS(rob_full_cycles, "cycles fetch was held up by a full ROB"),
        CS(mem_stall_cycles, "cycles nothing retired while the oldest instruction waited for the L2 or memory"),
        CS(sb_full_cycles, "cycles retirement was held up by a full store buffer"),
        CS(mem_reads, "read requests sent below the L2"),
        CS(mem_writes, "write-backs sent below the L2"),
        CS(loops, "times the trace was restarted"),
#undef CS
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        stats_reg(s, (const uint64_t *)(const void *)((const char *)&c->st + tab[i].off), tab[i].doc, "cpu%u.%s",
                  (unsigned)c->p.id, tab[i].name);
    cache_reg_stats(c->l1, s, c->l1_name);
    cache_reg_stats(c->l2, s, c->l2_name);
}

const struct cpu_core_stats *cpu_core_stats(const struct cpu_core *c) { return &c->st; }
const struct cpu_core_params *cpu_core_params(const struct cpu_core *c) { return &c->p; }
struct cache *cpu_core_l1d(const struct cpu_core *c) { return c->l1; }
struct cache *cpu_core_l2(const struct cpu_core *c) { return c->l2; }
const char *cpu_core_error(const struct cpu_core *c) { return c->err; }

bool cpu_core_done(const struct cpu_core *c)
{
    return c->src_done && c->rob_count == 0 && c->sb_count == 0 && c->l2q_count == 0 && c->fills_count == 0 &&
           c->outq_count == 0;
}

/* Entry idx completes (its result is available) at cycle `at`. */
void cpu_core_complete(struct cpu_core *c, uint32_t idx, sim_cycle at)
{
    struct rob_ent *e = &c->rob[idx];
    SIM_DASSERT(e->done_at == SIM_NEVER);
    e->done_at = at;
    e->state = RS_DONE;
    e->ld_pending = 0;
    for (uint32_t edge = e->cons_head; edge != CPU_NO_ENT;) {
        uint32_t ci = edge / CPU_SRC_SLOTS, slot = edge % CPU_SRC_SLOTS;
        struct rob_ent *ce = &c->rob[ci];
        edge = ce->edge_next[slot];
        ce->ready_at = sim_max(ce->ready_at, at);
        SIM_DASSERT(ce->n_wait > 0);
        ce->n_wait--;
    }
    e->cons_head = CPU_NO_ENT;
    if (c->fetch_wait_ent == idx && c->fetch_wait_seq == e->seq) {
        c->fetch_resume = at + c->p.mispredict_penalty;
        c->fetch_wait_ent = CPU_NO_ENT;
    }
}

/* gshare: predict, then train with the trace's outcome (trace-driven: the
   outcome is known at fetch, so the tables are updated in program order). */
static bool cpu_bp_mispredicts(struct cpu_core *c, uint64_t ip, bool taken)
{
    uint32_t i = ((uint32_t)(ip >> 2) ^ (uint32_t)(ip >> 16) ^ c->ghr) & c->bp_mask;
    uint8_t *ctr = &c->bp[i];
    bool pred = *ctr >= 2;
    if (taken && *ctr < 3)
        (*ctr)++;
    else if (!taken && *ctr > 0)
        (*ctr)--;
    c->ghr = ((c->ghr << 1) | (taken ? 1u : 0u)) & c->bp_mask;
    return pred != taken;
}

static void cpu_add_block(uint64_t *v, uint8_t *n, uint64_t b)
{
    for (uint8_t i = 0; i < *n; i++)
        if (v[i] == b)
            return;
    v[(*n)++] = b;
}

/* Put record r into the ROB. Returns false when fetch must stop (mispredicted branch). */
static bool cpu_dispatch(struct cpu_core *c, const struct trace_rec *r)
{
    uint32_t idx = cpu_rob_idx(c, c->rob_count);
    struct rob_ent *e = &c->rob[idx];
    memset(e, 0, sizeof *e);
    e->seq = ++c->next_seq;
    e->ip = r->ip;
    e->done_at = SIM_NEVER;
    e->cons_head = CPU_NO_ENT;
    e->state = RS_WAIT;
    uint64_t line_mask = ~(uint64_t)(cache_cfg(c->l1)->line_size - 1);
    for (int i = 0; i < TRACE_NUM_SRC_MEM; i++)
        if (r->src_mem[i])
            cpu_add_block(e->ld, &e->nld, r->src_mem[i] & line_mask);
    for (int i = 0; i < TRACE_NUM_DST_MEM; i++)
        if (r->dst_mem[i])
            cpu_add_block(e->st, &e->nst, r->dst_mem[i] & line_mask);
    for (uint32_t s = 0; s < CPU_SRC_SLOTS; s++) {
        e->edge_next[s] = CPU_NO_ENT;
        uint8_t reg = r->src_regs[s];
        if (!reg)
            continue;
        bool dup = false;
        for (uint32_t t = 0; t < s; t++)
            dup |= r->src_regs[t] == reg;
        uint16_t pe = c->reg_ent[reg];
        if (dup || pe == CPU_NO_ENT || c->rob[pe].seq != c->reg_seq[reg])
            continue;   /* producer retired: its value is in the register file */
        struct rob_ent *p = &c->rob[pe];
        if (p->done_at != SIM_NEVER) {
            e->ready_at = sim_max(e->ready_at, p->done_at);
        } else {
            e->edge_next[s] = p->cons_head;
            p->cons_head = (uint16_t)(idx * CPU_SRC_SLOTS + s);
            e->n_wait++;
        }
    }
    for (int d = 0; d < TRACE_NUM_DST_REGS; d++)
        if (r->dst_regs[d]) {
            c->reg_ent[r->dst_regs[d]] = (uint16_t)idx;
            c->reg_seq[r->dst_regs[d]] = e->seq;
        }
    c->rob_count++;
    c->n_unissued++;
    c->st.fetched++;
    if (r->is_branch) {
        e->is_branch = 1;
        if (cpu_bp_mispredicts(c, r->ip, r->branch_taken != 0)) {
            e->mispred = 1;
            c->fetch_wait_ent = (uint16_t)idx;
            c->fetch_wait_seq = e->seq;
            return false;
        }
    }
    return true;
}

static void cpu_fetch_stop(struct cpu_core *c, const char *why)
{
    c->src_done = true;
    if (why) {
        c->src_failed = true;
        snprintf(c->err, sizeof c->err, "%s", why);
    }
}

static bool cpu_fetch_enabled(const struct cpu_core *c, sim_cycle now)
{
    return !c->src_done && c->fetch_wait_ent == CPU_NO_ENT && c->fetch_resume <= now;
}

/* Fetch and dispatch up to width instructions. Returns how many. */
static uint32_t cpu_fetch(struct cpu_core *c, sim_cycle now)
{
    uint32_t n = 0;
    while (n < c->p.width && cpu_fetch_enabled(c, now) && c->rob_count < c->p.rob_size) {
        if (c->p.quota && c->st.fetched >= c->p.quota) {
            cpu_fetch_stop(c, NULL);
            break;
        }
        struct trace_rec r;
        int rc = c->src->next(c->src->ctx, &r);
        if (rc == 0 && c->p.loop && c->src->rewind) {
            if (c->src->rewind(c->src->ctx) != 0) {
                cpu_fetch_stop(c, c->src->error(c->src->ctx));
                break;
            }
            c->st.loops++;
            rc = c->src->next(c->src->ctx, &r);
        }
        if (rc <= 0) {
            cpu_fetch_stop(c, rc < 0 ? c->src->error(c->src->ctx) : NULL);
            break;
        }
        n++;
        if (!cpu_dispatch(c, &r))
            break;
    }
    return n;
}

/* Issue up to width ready instructions, oldest first. Returns how many made progress. */
static uint32_t cpu_issue(struct cpu_core *c, sim_cycle now)
{
    uint32_t n = 0, mem = 0, left = c->n_unissued;
    for (uint32_t k = 0; k < c->rob_count && left && n < c->p.width; k++) {
        uint32_t idx = cpu_rob_idx(c, k);
        struct rob_ent *e = &c->rob[idx];
        if (e->state != RS_WAIT)
            continue;
        left--;
        if (e->n_wait || e->ready_at > now)
            continue;
        if (e->nld || e->nst) {
            if (mem >= c->p.mem_per_cycle)
                continue;
            if (e->nld) {
                if (e->blocked && e->retry_epoch == c->l1_fill_epoch)
                    continue;   /* refused by the L1: nothing changes before its next fill */
                if (c->l1_port_used)
                    continue;
                mem++;
                n++;
                if (cpu_core_load_access(c, idx, now)) {
                    e->state = e->state == RS_DONE ? RS_DONE : RS_ISSUED;
                    c->n_unissued--;
                }
                continue;
            }
            mem++;   /* a store: address generation now, the L1 write after retirement */
        }
        n++;
        c->n_unissued--;
        cpu_core_complete(c, idx, now + c->p.alu_lat);
    }
    return n;
}

/* Retire up to width completed instructions. */
static uint32_t cpu_retire(struct cpu_core *c, sim_cycle now)
{
    uint32_t n = 0;
    while (n < c->p.width && c->rob_count) {
        struct rob_ent *e = &c->rob[c->rob_head];
        if (e->done_at > now)
            break;
        if (e->nst > c->p.sb_size - c->sb_count) {
            c->st.sb_full_cycles += n == 0;
            break;
        }
        for (uint8_t i = 0; i < e->nst; i++) {
            uint32_t t = c->sb_head + c->sb_count++;
            if (t >= c->p.sb_size)
                t -= c->p.sb_size;
            c->sb[t].addr = e->st[i];
            c->sb[t].ip = e->ip;
        }
        c->st.insns++;
        c->st.loads += e->nld != 0;
        c->st.stores += e->nst != 0;
        c->st.branches += e->is_branch;
        c->st.mispredicts += e->mispred;
        e->seq = 0;   /* the rename table's pointers to it go stale */
        c->rob_head = c->rob_head + 1 == c->p.rob_size ? 0 : c->rob_head + 1;
        c->rob_count--;
        n++;
    }
    return n;
}

static bool cpu_head_waits_memory(const struct cpu_core *c)
{
    if (!c->rob_count)
        return false;
    /* a load whose data comes from the L2 or memory, or that waits for an L1 MSHR */
    const struct rob_ent *e = &c->rob[c->rob_head];
    return e->nld && e->done_at == SIM_NEVER && (e->ld_pending || e->blocked);
}

/* Count the cycles before `now` that were skipped (no tick): the state did not
   change during them.  Called before anything changes the state at `now` (a
   tick, a memory reply). */
void cpu_core_catch_up(struct cpu_core *c, sim_cycle now)
{
    if (c->last_tick == SIM_NEVER || now <= c->acct_next)
        return;
    uint64_t gap = now - c->acct_next;
    c->st.cycles += gap;
    if (c->rob_count == c->p.rob_size && cpu_fetch_enabled(c, c->acct_next))
        c->st.rob_full_cycles += gap;
    if (cpu_head_waits_memory(c))
        c->st.mem_stall_cycles += gap;
    c->acct_next = now;
}

bool cpu_core_tick(struct cpu_core *c, sim_cycle now)
{
    SIM_DASSERT(c->last_tick == SIM_NEVER || now > c->last_tick);
    cpu_core_catch_up(c, now);
    c->last_tick = now;
    c->acct_next = now + 1;
    c->st.cycles++;
    uint64_t before_fills = c->l1_fill_epoch, before_l2 = c->l2_epoch;
    uint64_t before_out = c->st.mem_reads + c->st.mem_writes;
    c->l1_port_used = false;

    cpu_core_mem_tick(c, now);
    uint32_t retired = cpu_retire(c, now);
    bool drained = false;
    if (c->sb_count == c->p.sb_size)
        drained = cpu_core_sb_drain(c, now);
    uint32_t issued = cpu_issue(c, now);
    if (!drained && c->sb_count && !c->l1_port_used)
        drained = cpu_core_sb_drain(c, now);
    bool rob_full = c->rob_count == c->p.rob_size && cpu_fetch_enabled(c, now);
    bool was_done = c->src_done;
    uint32_t fetched = cpu_fetch(c, now);

    c->st.rob_full_cycles += rob_full;
    if (!retired && cpu_head_waits_memory(c))
        c->st.mem_stall_cycles++;
    c->progress = retired || issued || fetched || drained || was_done != c->src_done ||
                  before_fills != c->l1_fill_epoch || before_l2 != c->l2_epoch ||
                  before_out != c->st.mem_reads + c->st.mem_writes;
    return c->progress;
}

sim_cycle cpu_core_next_event(const struct cpu_core *c, sim_cycle now)
{
    if (c->progress)
        return now + 1;
    sim_cycle t = cpu_core_mem_next_event(c, now);
    if (!c->src_done && c->fetch_wait_ent == CPU_NO_ENT && c->rob_count < c->p.rob_size)
        t = sim_min(t, sim_max(c->fetch_resume, now + 1));
    if (c->rob_count && c->rob[c->rob_head].done_at != SIM_NEVER)
        t = sim_min(t, sim_max(c->rob[c->rob_head].done_at, now + 1));
    if (c->n_unissued)
        for (uint32_t k = 0, left = c->n_unissued; k < c->rob_count && left; k++) {
            const struct rob_ent *e = &c->rob[cpu_rob_idx(c, k)];
            if (e->state != RS_WAIT)
                continue;
            left--;
            if (e->n_wait || (e->nld && e->blocked && e->retry_epoch == c->l1_fill_epoch))
                continue;
            t = sim_min(t, sim_max(e->ready_at, now + 1));
        }
    return t;
}

void cpu_core_sample(const struct cpu_core *c, struct cpu_core_sample *out)
{
    const struct cache_stats *l1 = cache_stats(c->l1), *l2 = cache_stats(c->l2);
    out->core = c->st;
    out->l1_accesses = l1->accesses;
    out->l1_misses = l1->misses;
    out->l2_accesses = l2->reads;
    out->l2_misses = l2->read_misses;
}

void cpu_core_summarize(const struct cpu_core_sample *a, const struct cpu_core_sample *b,
                        struct cpu_core_summary *out)
{
    memset(out, 0, sizeof *out);
    out->insns = b->core.insns - a->core.insns;
    out->cycles = b->core.cycles - a->core.cycles;
    out->mispredicts = b->core.mispredicts - a->core.mispredicts;
    out->l1_accesses = b->l1_accesses - a->l1_accesses;
    out->l1_misses = b->l1_misses - a->l1_misses;
    out->l2_accesses = b->l2_accesses - a->l2_accesses;
    out->l2_misses = b->l2_misses - a->l2_misses;
    out->rob_full_cycles = b->core.rob_full_cycles - a->core.rob_full_cycles;
    out->mem_stall_cycles = b->core.mem_stall_cycles - a->core.mem_stall_cycles;
    double ki = (double)out->insns / 1000.0;
    out->ipc = out->cycles ? (double)out->insns / (double)out->cycles : 0.0;
    out->l1_mpki = ki > 0 ? (double)out->l1_misses / ki : 0.0;
    out->l2_mpki = ki > 0 ? (double)out->l2_misses / ki : 0.0;
    out->mispredicts_pki = ki > 0 ? (double)out->mispredicts / ki : 0.0;
}
