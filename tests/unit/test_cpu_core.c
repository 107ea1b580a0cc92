/*
 * test_cpu_core.c - the trace-driven CPU core (cpu/cpu_core.h) on synthetic
 * in-memory traces with the fixed-latency memory (cpu/cpu_mem_fixed.h):
 * IPC of independent and dependent ALU chains, loads that all miss (bounded
 * by the MSHRs, then by the ROB), exact miss counts of known footprints,
 * the mispredict penalty, store-buffer retirement, quota and looping, the
 * memory seam's request conservation, determinism, and idle skipping giving
 * the same statistics as ticking every cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "cpu/cpu_core.h"
#include "cpu/cpu_mem_fixed.h"
#include "mem/cache.h"

#define IP0 0x400000u

static struct trace_rec *recs_new(size_t n)
{
    struct trace_rec *r = calloc(n, sizeof *r);
    if (!r)
        abort();
    return r;
}

static void mk_alu(struct trace_rec *r, uint64_t i, uint8_t dst, uint8_t s1, uint8_t s2)
{
    memset(r, 0, sizeof *r);
    r->ip = IP0 + 4 * (i % 64);
    r->dst_regs[0] = dst;
    r->src_regs[0] = s1;
    r->src_regs[1] = s2;
}

static void mk_load(struct trace_rec *r, uint64_t i, uint8_t dst, uint8_t areg, uint64_t addr)
{
    mk_alu(r, i, dst, areg, 0);
    r->src_mem[0] = addr;
}

static void mk_store(struct trace_rec *r, uint64_t i, uint8_t dreg, uint64_t addr)
{
    mk_alu(r, i, 0, dreg, 0);
    r->dst_mem[0] = addr;
}

struct run {
    struct cpu_core_summary s;
    struct cpu_core_stats st;
    struct cache_stats l1, l2;
    uint64_t in_flight_after_drain;
    int rc;
};

/* Run n records on a core with parameters p (NULL: defaults) over memory mp (NULL: defaults). */
static struct run run_trace(const struct trace_rec *recs, uint64_t n, const struct cpu_core_params *p,
                            const struct cpu_mem_fixed_params *mp)
{
    struct run out;
    memset(&out, 0, sizeof out);
    struct arena *a = arena_new(0);
    struct cpu_core_params cp;
    struct cpu_mem_fixed_params fp;
    if (p)
        cp = *p;
    else
        cpu_core_params_default(&cp);
    if (mp)
        fp = *mp;
    else
        cpu_mem_fixed_params_default(&fp);
    struct mem_req_pool pool;
    mem_req_pool_init(&pool, a, 64);
    char msg[256];
    struct cpu_core *c = cpu_core_new(a, &cp, cpu_src_array(a, recs, n), &pool, msg, sizeof msg);
    if (!c) {
        fprintf(stderr, "cpu_core_new: %s\n", msg);
        out.rc = -2;
        arena_free(a);
        return out;
    }
    struct cpu_mem_fixed *m = cpu_mem_fixed_new(a, &fp, &pool);
    out.rc = cpu_run_fixed(c, m, 0, 100000000, &out.s, msg, sizeof msg);
    if (out.rc)
        fprintf(stderr, "cpu_run_fixed: %s\n", msg);
    out.st = *cpu_core_stats(c);
    out.l1 = *cache_stats(cpu_core_l1d(c));
    out.l2 = *cache_stats(cpu_core_l2(c));
    /* finish what is still in flight (store misses), then every request must be back */
    sim_cycle now = out.st.cycles + 1;
    for (int k = 0; k < 100000 && (mem_req_in_flight(&pool) || cpu_core_mem_next(c) != SIM_NEVER); k++, now++) {
        struct mem_req *r;
        while ((r = cpu_mem_fixed_reply(m, now)) != NULL)
            cpu_core_mem_reply(c, r, now);
        cpu_core_tick(c, now);
        while ((r = cpu_core_mem_peek(c, now)) != NULL && cpu_mem_fixed_send(m, r, now))
            cpu_core_mem_pop(c);
    }
    out.in_flight_after_drain = mem_req_in_flight(&pool);
    arena_free(a);
    return out;
}

TEST(independent_alu_ipc_3)
{
    uint64_t n = 30000;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_alu(&r[i], i, (uint8_t)(1 + i % 8), 0, 0);
    struct run x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_INT(x.rc, 0);
    CHECK_EQ_U64(x.s.insns, n);
    CHECK(x.s.ipc > 2.99 && x.s.ipc <= 3.0);
    /* a 2-wide core halves it */
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    p.width = 2;
    x = run_trace(r, n, &p, NULL);
    CHECK(x.s.ipc > 1.99 && x.s.ipc <= 2.0);
    free(r);
}

TEST(serial_chain_ipc_1)
{
    uint64_t n = 20000;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_alu(&r[i], i, 5, 5, 0);
    struct run x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_INT(x.rc, 0);
    CHECK(x.s.ipc > 0.99 && x.s.ipc <= 1.0);
    /* two interleaved chains: 2 per cycle */
    for (uint64_t i = 0; i < n; i++)
        mk_alu(&r[i], i, (uint8_t)(5 + i % 2), (uint8_t)(5 + i % 2), 0);
    x = run_trace(r, n, NULL, NULL);
    CHECK(x.s.ipc > 1.98 && x.s.ipc <= 2.0);
    /* an ALU latency of 3 makes the single chain 1/3 */
    for (uint64_t i = 0; i < n; i++)
        mk_alu(&r[i], i, 5, 5, 0);
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    p.alu_lat = 3;
    x = run_trace(r, n, &p, NULL);
    CHECK_NEAR(x.s.ipc, 1.0 / 3.0, 0.005);
    free(r);
}

TEST(l1_hit_load_chain)
{
    /* a pointer chase that hits the L1: one load every l1_lat cycles */
    uint64_t n = 20000;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_load(&r[i], i, 7, 7, 0x10000 + 8 * (i % 16));
    struct run x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_INT(x.rc, 0);
    CHECK_NEAR(x.s.ipc, 0.5, 0.01);
    CHECK_EQ_U64(x.l1.misses, 1);
    free(r);
}

/* n independent loads, each to a new line */
static struct trace_rec *all_miss_loads(uint64_t n)
{
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_load(&r[i], i, (uint8_t)(1 + i % 8), 0, 0x10000000 + 128 * i);
    return r;
}

TEST(all_miss_loads_bounded_by_mshrs_then_rob)
{
    uint64_t n = 20000;
    struct trace_rec *r = all_miss_loads(n);
    struct cpu_mem_fixed_params mp;
    cpu_mem_fixed_params_default(&mp);
    mp.interval = 1;
    mp.latency = 200;
    /* 16 L1 MSHRs: 16 lines per round trip of 2 + 8 + 200 cycles */
    struct run x = run_trace(r, n, NULL, &mp);
    CHECK_EQ_INT(x.rc, 0);
    CHECK_EQ_U64(x.l2.read_misses, n);
    CHECK_EQ_U64(x.st.mem_reads, n);
    double mshr_bound = 16.0 / 210.0;
    CHECK(x.s.ipc <= mshr_bound * 1.02 && x.s.ipc > mshr_bound * 0.9);
    CHECK(x.s.mem_stall_cycles > x.s.cycles / 2);
    CHECK_NEAR(x.s.l2_mpki, 1000.0, 1e-9);

    /* MSHRs larger than the ROB: the 128-entry window bounds it */
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    p.l1d = "64:128:4,L:B:m:W:L,A:256:8,16";
    p.l2 = "256:128:8,L:B:m:L:L,A:256:8,16";
    p.l2q_size = 64;
    p.outq_size = 64;
    x = run_trace(r, n, &p, &mp);
    CHECK_EQ_INT(x.rc, 0);
    double rob_bound = 128.0 / 210.0;
    CHECK(x.s.ipc <= rob_bound * 1.02 && x.s.ipc > rob_bound * 0.85);
    /* per round trip the 128 loads retire one a cycle (they issued one a cycle), then
       the window stays full for the remaining ~82 cycles */
    CHECK(x.s.rob_full_cycles > x.s.cycles / 3);
    uint64_t full128 = x.s.rob_full_cycles;
    double ipc128 = x.s.ipc;
    /* twice the window: the one-memory-instruction-per-cycle issue limit binds at 1 */
    p.rob_size = 256;
    x = run_trace(r, n, &p, &mp);
    CHECK(x.s.ipc > 1.5 * ipc128 && x.s.ipc <= 1.0);
    CHECK(x.s.rob_full_cycles < full128);
    /* the channel's bandwidth: one line every 8 cycles caps it at 1/8 */
    mp.interval = 8;
    x = run_trace(r, n, &p, &mp);
    CHECK(x.s.ipc <= 0.125 * 1.01 && x.s.ipc > 0.125 * 0.95);
    free(r);
}

TEST(known_miss_counts)
{
    /* 4 passes over 64 KB line by line: thrashes the 32 KB 4-way LRU L1 (every access
       misses), fits the 256 KB L2 (only the first pass misses there) */
    uint64_t lines = 512, passes = 4, n = lines * passes;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_load(&r[i], i, (uint8_t)(1 + i % 8), 0, 0x20000000 + 128 * (i % lines));
    struct run x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_INT(x.rc, 0);
    CHECK_EQ_U64(x.l1.misses, n);
    CHECK_EQ_U64(x.l2.read_misses, lines);
    CHECK_EQ_U64(x.l2.reads, n);
    /* 16 KB: compulsory misses only, everywhere */
    for (uint64_t i = 0; i < n; i++)
        mk_load(&r[i], i, (uint8_t)(1 + i % 8), 0, 0x20000000 + 128 * (i % 128));
    x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_U64(x.l1.misses, 128);
    CHECK_EQ_U64(x.l2.read_misses, 128);
    /* 512 KB: every access misses the L2 too (LRU, cyclic) */
    for (uint64_t i = 0; i < n; i++)
        mk_load(&r[i], i, (uint8_t)(1 + i % 8), 0, 0x20000000 + 128 * (i % 4096));
    x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_U64(x.l2.read_misses, n);
    free(r);
}

static uint64_t xs_state;
static uint64_t xs(void)
{
    xs_state ^= xs_state << 13;
    xs_state ^= xs_state >> 7;
    xs_state ^= xs_state << 17;
    return xs_state;
}

TEST(mispredict_penalty)
{
    /* independent ALU work with a branch every 8th instruction, outcome random */
    uint64_t n = 40000;
    struct trace_rec *r = recs_new(n);
    xs_state = 12345;
    for (uint64_t i = 0; i < n; i++) {
        mk_alu(&r[i], i, (uint8_t)(1 + i % 8), 0, 0);
        if (i % 8 == 7) {
            r[i].is_branch = 1;
            r[i].branch_taken = (uint8_t)(xs() >> 40 & 1);
        }
    }
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    p.mispredict_penalty = 0;
    struct run a = run_trace(r, n, &p, NULL);
    p.mispredict_penalty = 20;
    struct run b = run_trace(r, n, &p, NULL);
    CHECK_EQ_INT(b.rc, 0);
    CHECK_EQ_U64(a.s.mispredicts, b.s.mispredicts);
    CHECK(b.s.mispredicts > n / 8 / 3 && b.s.mispredicts < n / 8 * 2 / 3);   /* a coin: about half */
    /* each mispredict costs exactly the penalty more (nothing else overlaps it here) */
    CHECK_EQ_U64(b.s.cycles - a.s.cycles, 20 * b.s.mispredicts);
    CHECK_EQ_U64(b.st.branches, n / 8);

    /* always taken: learnt after a few */
    for (uint64_t i = 7; i < n; i += 8)
        r[i].branch_taken = 1;
    struct run c = run_trace(r, n, &p, NULL);
    CHECK(c.s.mispredicts < 20);
    CHECK(c.s.ipc > 2.9);
    /* a loop pattern (taken 3 of 4) is learnt by the global history */
    for (uint64_t i = 7, k = 0; i < n; i += 8, k++)
        r[i].branch_taken = (uint8_t)(k % 4 != 3);
    c = run_trace(r, n, &p, NULL);
    CHECK(c.s.mispredicts < 50);
    free(r);
}

TEST(stores_retire_before_writing)
{
    /* a store to a new line every 50 instructions: stores retire into the store buffer and
       write (and miss) after, so the core runs on; the same trace with loads waits for
       each miss at the ROB head */
    uint64_t n = 20000;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++) {
        if (i % 50 == 0)
            mk_store(&r[i], i, 1, 0x30000000 + 128 * (i / 50));
        else
            mk_alu(&r[i], i, (uint8_t)(1 + i % 8), 0, 0);
    }
    struct run x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_INT(x.rc, 0);
    CHECK_EQ_U64(x.st.stores, n / 50);
    CHECK_EQ_U64(x.l1.write_misses, n / 50);
    CHECK_EQ_U64(x.l2.read_misses, n / 50);   /* write-allocate fetches */
    CHECK(x.s.ipc > 2.5);
    CHECK_EQ_U64(x.s.mem_stall_cycles, 0);
    CHECK_EQ_U64(x.in_flight_after_drain, 0);
    for (uint64_t i = 0; i < n; i += 50)
        mk_load(&r[i], i, 9, 0, 0x30000000 + 128 * (i / 50));
    struct run l = run_trace(r, n, NULL, NULL);
    CHECK(l.s.ipc < x.s.ipc / 3);
    CHECK(l.s.mem_stall_cycles > l.s.cycles / 2);
    /* one L1 MSHR: the store buffer fills, retirement waits */
    for (uint64_t i = 0; i < n; i += 50)
        mk_store(&r[i], i, 1, 0x30000000 + 128 * (i / 50));
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    p.l1d = "64:128:4,L:B:m:W:L,A:1:8,16";
    p.sb_size = 2;
    struct run y = run_trace(r, n, &p, NULL);
    CHECK(y.s.ipc < x.s.ipc / 2);
    CHECK(y.st.sb_full_cycles > y.s.cycles / 2);
    CHECK_EQ_U64(y.in_flight_after_drain, 0);
    free(r);
}

TEST(dirty_lines_written_back)
{
    /* store to 4096 lines (512 KB) twice: the dirty lines overflow the L2 and go to memory */
    uint64_t n = 8192;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_store(&r[i], i, 1, 0x40000000 + 128 * (i % 4096));
    struct run x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_INT(x.rc, 0);
    CHECK(x.st.mem_writes > 4096);
    CHECK(x.l1.dirty_evictions > 4096);
    CHECK_EQ_U64(x.in_flight_after_drain, 0);
    free(r);
}

TEST(quota_and_loop)
{
    uint64_t n = 1000;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_load(&r[i], i, (uint8_t)(1 + i % 8), 0, 0x50000000 + 64 * i);
    struct run x = run_trace(r, n, NULL, NULL);
    CHECK_EQ_U64(x.st.insns, n);
    CHECK_EQ_U64(x.st.loops, 0);
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    p.quota = 500;
    x = run_trace(r, n, &p, NULL);
    CHECK_EQ_U64(x.st.insns, 500);
    p.quota = 5500;
    p.loop = true;
    x = run_trace(r, n, &p, NULL);
    CHECK_EQ_U64(x.st.insns, 5500);
    CHECK_EQ_U64(x.st.loops, 5);
    /* the second pass hits: 64 KB fits the L2 */
    CHECK_EQ_U64(x.l2.read_misses, 500);
    /* looping without a quota would never end */
    p.quota = 0;
    char msg[256];
    CHECK(cpu_core_params_check(&p, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "quota") != NULL);
    free(r);
}

TEST(bad_parameters)
{
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    char msg[256];
    CHECK_EQ_INT(cpu_core_params_check(&p, msg, sizeof msg), 0);
    p.rob_size = 0;
    CHECK(cpu_core_params_check(&p, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "rob_size") != NULL);
    cpu_core_params_default(&p);
    p.l2 = "256:64:8,L:B:m:L:L,A:32:8,16";
    struct arena *a = arena_new(0);
    struct mem_req_pool pool;
    mem_req_pool_init(&pool, a, 16);
    struct trace_rec rec;
    mk_alu(&rec, 0, 1, 0, 0);
    CHECK(cpu_core_new(a, &p, cpu_src_array(a, &rec, 1), &pool, msg, sizeof msg) == NULL);
    CHECK(strstr(msg, "must be equal") != NULL);
    p.l2 = "256:128:8,L:T:m:N:L,A:32:8,16";
    CHECK(cpu_core_new(a, &p, cpu_src_array(a, &rec, 1), &pool, msg, sizeof msg) == NULL);
    CHECK(strstr(msg, "write-back") != NULL);
    p.l2 = "256:128:8,Q:B:m:N:L,A:32:8,16";
    CHECK(cpu_core_new(a, &p, cpu_src_array(a, &rec, 1), &pool, msg, sizeof msg) == NULL);
    CHECK(strstr(msg, "l2 cache string") != NULL);
    arena_free(a);
}

/* a mix of everything: dependent loads, random addresses, stores, branches */
static struct trace_rec *mixed_trace(uint64_t n, uint64_t seed)
{
    struct trace_rec *r = recs_new(n);
    xs_state = seed;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = xs();
        uint8_t d = (uint8_t)(1 + v % 12), s = (uint8_t)(1 + (v >> 8) % 12);
        switch ((v >> 16) % 10) {
        case 0: case 1:
            mk_load(&r[i], i, d, s, 0x60000000 + ((v >> 24) % (1u << 22)) * 8);
            break;
        case 2:
            mk_load(&r[i], i, d, s, 0x70000000 + ((v >> 24) % 2048) * 8);
            break;
        case 3:
            mk_store(&r[i], i, s, 0x60000000 + ((v >> 24) % (1u << 20)) * 8);
            break;
        case 4:
            mk_alu(&r[i], i, d, s, 0);
            r[i].is_branch = 1;
            r[i].branch_taken = (uint8_t)((v >> 30) % 3 != 0);
            break;
        default:
            mk_alu(&r[i], i, d, s, (uint8_t)(1 + (v >> 40) % 12));
        }
    }
    return r;
}

TEST(deterministic)
{
    uint64_t n = 50000;
    struct trace_rec *r = mixed_trace(n, 99);
    struct run a = run_trace(r, n, NULL, NULL), b = run_trace(r, n, NULL, NULL);
    CHECK_EQ_INT(a.rc, 0);
    CHECK(memcmp(&a.st, &b.st, sizeof a.st) == 0);
    CHECK(memcmp(&a.l1, &b.l1, sizeof a.l1) == 0);
    CHECK(memcmp(&a.l2, &b.l2, sizeof a.l2) == 0);
    CHECK(a.st.mispredicts > 0 && a.l2.read_misses > 0 && a.st.mem_writes > 0);
    CHECK_EQ_U64(a.in_flight_after_drain, 0);
    free(r);
}

TEST(idle_skipping_matches_every_cycle)
{
    uint64_t n = 30000;
    struct trace_rec *r = mixed_trace(n, 7);
    struct run a = run_trace(r, n, NULL, NULL);
    /* the same run ticking every cycle */
    struct arena *ar = arena_new(0);
    struct cpu_core_params cp;
    cpu_core_params_default(&cp);
    struct cpu_mem_fixed_params fp;
    cpu_mem_fixed_params_default(&fp);
    struct mem_req_pool pool;
    mem_req_pool_init(&pool, ar, 64);
    char msg[256];
    struct cpu_core *c = cpu_core_new(ar, &cp, cpu_src_array(ar, r, n), &pool, msg, sizeof msg);
    REQUIRE(c);
    struct cpu_mem_fixed *m = cpu_mem_fixed_new(ar, &fp, &pool);
    uint64_t ticks = 0;
    for (sim_cycle now = 0; !cpu_core_done(c) && now < 10000000; now++) {
        struct mem_req *q;
        while ((q = cpu_mem_fixed_reply(m, now)) != NULL)
            cpu_core_mem_reply(c, q, now);
        cpu_core_tick(c, now);
        ticks++;
        while ((q = cpu_core_mem_peek(c, now)) != NULL && cpu_mem_fixed_send(m, q, now))
            cpu_core_mem_pop(c);
    }
    const struct cpu_core_stats *st = cpu_core_stats(c);
    CHECK_EQ_U64(st->cycles, a.st.cycles);
    CHECK_EQ_U64(ticks, a.st.cycles);
    CHECK(memcmp(st, &a.st, sizeof *st) == 0);
    CHECK(memcmp(cache_stats(cpu_core_l2(c)), &a.l2, sizeof a.l2) == 0);
    arena_free(ar);
    free(r);
}

TEST(stats_registered)
{
    struct arena *a = arena_new(0);
    struct stats s;
    stats_init(&s, a);
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    p.id = 3;
    struct mem_req_pool pool;
    mem_req_pool_init(&pool, a, 16);
    uint64_t n = 100;
    struct trace_rec *r = all_miss_loads(n);
    char msg[256];
    struct cpu_core *c = cpu_core_new(a, &p, cpu_src_array(a, r, n), &pool, msg, sizeof msg);
    REQUIRE(c);
    cpu_core_reg_stats(c, &s);
    struct cpu_mem_fixed_params fp;
    cpu_mem_fixed_params_default(&fp);
    struct cpu_core_summary sum;
    CHECK_EQ_INT(cpu_run_fixed(c, cpu_mem_fixed_new(a, &fp, &pool), 0, 0, &sum, msg, sizeof msg), 0);
    CHECK_EQ_U64(stats_sum(&s, "cpu3.", "insns"), n);
    CHECK_EQ_U64(stats_sum(&s, "cpu3.l2.", "read_misses"), n);
    CHECK_EQ_U64(stats_sum(&s, "cpu3.", "mem_reads"), n);
    CHECK_EQ_U64(stats_sum(&s, "cpu3.cycles", ""), sum.cycles);
    arena_free(a);
    free(r);
}

TEST(warmup_excluded)
{
    /* the first half misses, the second half hits: measured after the first half */
    uint64_t n = 4000;
    struct trace_rec *r = recs_new(n);
    for (uint64_t i = 0; i < n; i++)
        mk_load(&r[i], i, (uint8_t)(1 + i % 8), 0, 0x20000000 + 128 * (i % 1000));
    struct arena *a = arena_new(0);
    struct cpu_core_params p;
    cpu_core_params_default(&p);
    struct mem_req_pool pool;
    mem_req_pool_init(&pool, a, 16);
    char msg[256];
    struct cpu_core *c = cpu_core_new(a, &p, cpu_src_array(a, r, n), &pool, msg, sizeof msg);
    REQUIRE(c);
    struct cpu_mem_fixed_params fp;
    cpu_mem_fixed_params_default(&fp);
    struct cpu_core_summary s;
    CHECK_EQ_INT(cpu_run_fixed(c, cpu_mem_fixed_new(a, &fp, &pool), 2000, 0, &s, msg, sizeof msg), 0);
    CHECK(s.insns >= 2000 && s.insns <= 2003);
    CHECK_EQ_U64(s.l2_misses, 0);
    CHECK(s.l2_accesses > 0);
    arena_free(a);
    free(r);
}

TEST_MAIN()
