/*
 * test_bypass.c - the bypass extension point (policy/bypass.h) and SHiP
 * replacement: every registered bypass policy against the contract
 * (iterating the registry), lookup by name and parameters, and scripted
 * access streams through the cache (mem/cache.h):
 *   Ctrl-C's AGG rises on a stream whose lines are never reused and falls
 *   back when reuse returns; its insertion ratio is 1/2^AGG; on a cyclic
 *   loop longer than the associativity it turns LRU's zero hits into many;
 *   PC-based bypassing starts bypassing a streaming PC (only that PC) and,
 *   with probe insertions, stops once reuse returns; SHiP keeps a hot set
 *   through scans that evict it under LRU.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "core/arena.h"
#include "core/config.h"
#include "mem/cache.h"
#include "policy/bypass.h"
#include "policy/params.h"
#include "policy/repl.h"

/* 1 set x 4 ways, 128-byte lines, write-back, allocate on miss: line i is at i * 128 */
#define C1x4 "1:128:4,L:B:m:N:L,A:8:4,4"

struct env {
    struct arena *a;
    struct cfg c;
    struct policy_params pp;
};

static void env_init(struct env *e)
{
    e->a = arena_new(0);
    cfg_init(&e->c, e->a);
    e->pp.arena = arena_new(0);
}

static void env_free(struct env *e)
{
    arena_free(e->pp.arena);
    arena_free(e->a);
}

/* A cache of geometry s with replacement `repl` and bypass policy `byp`, the
   parameters "name=value" of sets[0..nset-1] applied. */
static struct cache *mk(struct env *e, const char *s, const char *repl, const char *byp, const char *const *sets,
                        size_t nset)
{
    struct cache_config cfg;
    char msg[256];
    unsigned col = 0;
    if (cache_config_parse(s, &cfg, msg, sizeof msg, &col) != 0)
        return NULL;
    for (size_t i = 0; i < nset; i++) {
        char nm[128];
        const char *eq = strchr(sets[i], '=');
        snprintf(nm, sizeof nm, "%.*s", (int)(eq - sets[i]), sets[i]);
        cfg_set(&e->c, nm, eq + 1, "test");
    }
    struct cfg_error err;
    if (policy_params_collect(&e->pp, &e->c, &err) != 0) {
        fprintf(stderr, "  %s\n", err.msg);
        return NULL;
    }
    struct cache *c = cache_new(e->a, &cfg, "t");
    if (c && repl && cache_set_repl_name(c, repl, &e->pp, msg, sizeof msg) != 0)
        c = NULL;
    if (c && byp && cache_set_bypass_name(c, byp, &e->pp, msg, sizeof msg) != 0)
        c = NULL;
    if (!c)
        fprintf(stderr, "  %s\n", msg);
    return c;
}

/* One read by `pc`: 1 on a hit; a miss is filled at once; a bypassed miss leaves nothing. */
static int rd(struct cache *c, uint64_t addr, uint32_t pc)
{
    uint64_t wb, w[8];
    enum cache_result r = cache_access_w(c, addr, false, false, pc, 0, 0, 0, &wb, NULL);
    if (r == CACHE_HIT)
        return 1;
    if (r == CACHE_MISS)
        cache_fill(c, addr, 0, w, 8, &wb);
    return 0;
}

static int agg_of(const struct cache *c, uint32_t pc)
{
    struct bypass_pc_info pi;
    return cache_bypass_pc_info(c, pc, &pi) == 0 ? pi.level : -100;
}

/* ---- the registry ---- */

TEST(bypass_registry_contract)
{
    size_t n = 0;
    for (size_t i = 0; bypass_at(i); i++, n++) {
        const struct bypass_ops *o = bypass_at(i);
        REQUIRE(o->name && o->name[0]);
        CHECK(bypass_find(o->name) == o);
        CHECK(o->doc && o->state_size && o->init && o->should_bypass);
        CHECK(o->nparams == 0 || o->params != NULL);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(bypass_at(j)->name, o->name) != 0);
        /* through two caches (8 sets x 4 ways, on miss; and on fill): a pseudo-random mix of
           reads and writes by a few PCs; the counters stay consistent and two instances agree */
        const char *geo[2] = {"8:128:4,L:B:m:W:L,A:8:4,4", "8:128:4,L:B:f:W:L,A:8:4,4"};
        for (int g = 0; g < 2; g++) {
            struct env e;
            env_init(&e);
            struct cache *x = mk(&e, geo[g], "lru", o->name, NULL, 0), *y = mk(&e, geo[g], "lru", o->name, NULL, 0);
            REQUIRE(x && y);
            CHECK_EQ_STR(cache_bypass_name(x), o->name);
            uint64_t s = 99;
            for (int k = 0; k < 20000; k++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                uint64_t addr = (s % 200) * 128;
                uint32_t pc = (uint32_t)((s >> 20) % 5);
                if ((s >> 40) % 8 == 0) {
                    uint64_t wb1, wb2, w[8];
                    enum cache_result r1 = cache_access_w(x, addr, true, false, pc, 1, 0, 0, &wb1, NULL);
                    enum cache_result r2 = cache_access_w(y, addr, true, false, pc, 1, 0, 0, &wb2, NULL);
                    CHECK_EQ_INT(r1, r2);
                    CHECK(r1 != CACHE_RESERVATION_FAIL);
                    if (r1 == CACHE_MISS) {
                        cache_fill(x, addr, 0, w, 8, &wb1);
                        cache_fill(y, addr, 0, w, 8, &wb2);
                    }
                } else {
                    CHECK_EQ_INT(rd(x, addr, pc), rd(y, addr, pc));
                }
            }
            const struct cache_stats *st = cache_stats(x);
            CHECK(memcmp(st, cache_stats(y), sizeof *st) == 0);
            CHECK_EQ_U64(st->accesses, st->hits + st->hit_reserved + st->misses);
            CHECK(st->bypassed <= st->read_misses);
            CHECK(st->evicted_never_reused <= st->evictions);
            CHECK(strcmp(o->name, "none") != 0 || st->bypassed == 0);
            CHECK(strcmp(o->name, "all") != 0 || st->bypassed == st->read_misses);
            CHECK_EQ_INT(cache_mshr_used(x), 0);
            env_free(&e);
        }
    }
    CHECK(n >= 4);
}

TEST(bypass_lookup_by_name)
{
    CHECK(bypass_find("none") && bypass_find("all") && bypass_find("pcbased") && bypass_find("ctrlc"));
    CHECK(bypass_find("CTRLC") == NULL);   /* exact names */
    CHECK(bypass_find(NULL) == NULL);
    char names[256];
    bypass_names(names, sizeof names);
    CHECK(strstr(names, "none, all") == names);
    struct env e;
    env_init(&e);
    struct cache *c = mk(&e, C1x4, NULL, NULL, NULL, 0);
    REQUIRE(c);
    CHECK_EQ_STR(cache_bypass_name(c), "none");   /* the default */
    char msg[256] = "";
    CHECK_EQ_INT(cache_set_bypass_name(c, "nosuch", NULL, msg, sizeof msg), -1);
    CHECK(strstr(msg, "unknown bypass policy 'nosuch'") != NULL);
    CHECK(strstr(msg, "none, all, pcbased, ctrlc") != NULL);
    CHECK_EQ_STR(cache_bypass_name(c), "none");   /* a refusal changes nothing */
    /* a parameter out of bounds is refused with the dotted name */
    cfg_set(&e.c, "bypass.ctrlc.agg_bits", "9", "test");
    struct cfg_error err;
    REQUIRE(policy_params_collect(&e.pp, &e.c, &err) == 0);
    CHECK_EQ_INT(cache_set_bypass_name(c, "ctrlc", &e.pp, msg, sizeof msg), -1);
    CHECK(strstr(msg, "bypass.ctrlc.agg_bits") != NULL);
    env_free(&e);
}

TEST(bypassed_reads_with_and_without_an_mshr_entry)
{
    /* on miss (write-allocate L2-like) and on fill */
    const char *geo[2] = {"4:128:4,L:B:m:W:L,A:8:4,4", "4:128:4,L:B:f:W:L,A:8:4,4"};
    for (int g = 0; g < 2; g++) {
        struct env e;
        env_init(&e);
        struct cache *c = mk(&e, geo[g], "lru", "all", NULL, 0);
        REQUIRE(c);
        uint64_t wb, w[8];
        /* default: no MSHR entry, each bypassed read goes below on its own */
        CHECK_EQ_INT(cache_access_w(c, 0, false, false, 1, 0, 11, 0, &wb, NULL), CACHE_MISS_NO_ALLOC);
        CHECK_EQ_INT(cache_access_w(c, 0, false, false, 1, 1, 12, 0, &wb, NULL), CACHE_MISS_NO_ALLOC);
        CHECK_EQ_INT(cache_mshr_used(c), 0);
        CHECK_EQ_U64(cache_stats(c)->bypassed, 2);
        /* bypass_mshr: the first takes an entry, the second merges, the fill wakes both and keeps nothing */
        cache_set_bypass_mshr(c, true);
        CHECK_EQ_INT(cache_access_w(c, 128, false, false, 1, 0, 21, 0, &wb, NULL), CACHE_MISS);
        CHECK_EQ_INT(cache_access_w(c, 128, false, false, 1, 1, 22, 0, &wb, NULL), CACHE_HIT_RESERVED);
        CHECK_EQ_INT(cache_mshr_used(c), 1);
        if (g == 0) {   /* allocate on miss: a write-allocating write of the block waits for the fill */
            enum cache_fail why = CF_NONE;
            CHECK_EQ_INT(cache_access_w(c, 128, true, false, 1, 2, 0, 0, &wb, &why), CACHE_RESERVATION_FAIL);
            CHECK_EQ_INT(why, CF_MSHR_FULL);
        }
        CHECK_EQ_INT(cache_fill(c, 128, 0, w, 8, &wb), 2);
        CHECK_EQ_U64(w[0], 21);
        CHECK_EQ_U64(w[1], 22);
        CHECK_EQ_U64(wb, UINT64_MAX);
        CHECK(!cache_probe(c, 128));
        CHECK_EQ_INT(cache_mshr_used(c), 0);
        CHECK_EQ_U64(cache_stats(c)->bypassed, 3);
        CHECK_EQ_U64(cache_stats(c)->hit_reserved, 1);
        /* writes keep the write policy: a write-allocating write miss allocates under "all" */
        CHECK_EQ_INT(cache_access_w(c, 256, true, false, 1, 2, 0, 0, &wb, NULL), CACHE_MISS);
        cache_fill(c, 256, 0, w, 8, &wb);
        CHECK(cache_probe(c, 256));
        env_free(&e);
    }
}

/* ---- Ctrl-C ---- */

TEST(ctrlc_agg_rises_on_a_stream_and_falls_when_reuse_returns)
{
    struct env e;
    env_init(&e);
    struct cache *c = mk(&e, C1x4, "lru", "ctrlc", NULL, 0);
    REQUIRE(c);
    const uint32_t pc = 5;
    CHECK_EQ_INT(agg_of(c, pc), 0);
    /* a stream: every line new, never reused (reuse distance infinite > 4 ways) */
    uint64_t next = 0;
    int seen_max = 0, last = 0, mono = 1;
    for (int k = 0; k < 20000; k++) {
        rd(c, next++ * 128, pc);
        int a = agg_of(c, pc);
        mono &= a >= last;
        last = a;
        seen_max = a > seen_max ? a : seen_max;
    }
    CHECK(mono);                  /* it only rises: ZERO/INSERT = 1 > 0.4 in every period */
    CHECK_EQ_INT(last, 7);        /* saturated (3-bit AGG) */
    /* reuse returns: every line is read 11 times in a row (reuse distance 0).  Ctrl-C inserts
       every 2^AGG-th miss deterministically, so with a line read twice the insertion could
       always fall on the second read (128 is even) and never be reused; 11 reads put it on
       every position in turn, 10 in 11 of them reused: ZERO/INSERT = 1/11 < 0.1 */
    int low = 7;
    for (int k = 0; k < 200000 && low > 0; k++) {
        uint64_t addr = next++ * 128;
        for (int r = 0; r < 11; r++)
            rd(c, addr, pc);
        int a = agg_of(c, pc);
        low = a < low ? a : low;
    }
    CHECK_EQ_INT(low, 0);         /* inserted lines are reused: ZERO/INSERT < 0.1, AGG back to 0 */
    /* another PC's entry was never touched */
    CHECK_EQ_INT(agg_of(c, pc + 1), 0);
    env_free(&e);
}

TEST(ctrlc_insertion_ratio_is_one_in_two_to_the_agg)
{
    for (unsigned agg = 0; agg <= 7; agg++) {
        struct env e;
        env_init(&e);
        char a0[64];
        snprintf(a0, sizeof a0, "bypass.ctrlc.agg_init=%u", agg);
        /* thresholds that never move AGG */
        const char *sets[] = {a0, "bypass.ctrlc.th_high=1", "bypass.ctrlc.th_low=0"};
        struct cache *c = mk(&e, C1x4, "lru", "ctrlc", sets, 3);
        REQUIRE(c);
        uint64_t next = 0;
        for (int k = 0; k < 1024; k++)
            rd(c, next++ * 128, 9);
        const struct cache_stats *st = cache_stats(c);
        CHECK_EQ_U64(st->read_misses, 1024);
        CHECK_EQ_U64(st->read_misses - st->bypassed, 1024u >> agg);   /* exactly 1 in 2^AGG allocates */
        struct bypass_pc_info pi;
        REQUIRE(cache_bypass_pc_info(c, 9, &pi) == 0);
        CHECK_EQ_INT(pi.level, agg);
        CHECK_NEAR(pi.insert_ratio, 1.0 / (double)(1u << agg), 1e-12);
        env_free(&e);
    }
}

/* Hits of `rounds` passes over lines 0..n-1 of one set, by one PC. */
static unsigned loop_hits(const char *byp, unsigned n, unsigned rounds, const char *const *sets, size_t nset)
{
    struct env e;
    env_init(&e);
    struct cache *c = mk(&e, C1x4, "lru", byp, sets, nset);
    unsigned hits = 0;
    for (unsigned r = 0; c && r < rounds; r++)
        for (unsigned i = 0; i < n; i++)
            hits += (unsigned)rd(c, (uint64_t)i * 128, 3);
    env_free(&e);
    return hits;
}

TEST(bypassing_raises_hits_on_a_thrashing_loop)
{
    /* 6 lines cycled through 4 LRU ways: every access misses without bypassing */
    CHECK_EQ_INT(loop_hits("none", 6, 2000, NULL, 0), 0);
    CHECK_EQ_INT(loop_hits("all", 6, 2000, NULL, 0), 0);
    /* Ctrl-C bypasses part of the loop, the lines it keeps are hit on the next pass */
    unsigned h = loop_hits("ctrlc", 6, 2000, NULL, 0);
    CHECK(h > 2000);   /* of 12000 accesses: LRU's 0 */
    /* a loop that fits: no bypassing learned, every policy hits after the first pass */
    for (size_t i = 0; bypass_at(i); i++)
        if (strcmp(bypass_at(i)->name, "all") != 0)
            CHECK_EQ_INT(loop_hits(bypass_at(i)->name, 4, 10, NULL, 0), 36);
}

/* ---- PC-based ---- */

TEST(pcbased_bypasses_a_streaming_pc_and_stops_when_reuse_returns)
{
    struct env e;
    env_init(&e);
    const char *sets[] = {"bypass.pcbased.retry_log2=2"};
    struct cache *c = mk(&e, "2:128:4,L:B:m:N:L,A:8:4,4", "lru", "pcbased", sets, 1);
    REQUIRE(c);
    /* PC 1 streams through set 0 (even lines), PC 2 reuses two lines of set 1 */
    uint64_t next = 0;
    for (int k = 0; k < 7; k++)
        rd(c, (next++ * 2) * 128, 1);
    CHECK_EQ_INT(agg_of(c, 1), 0);   /* 3 zero-reuse evictions so far: still below the threshold 8 */
    for (int k = 0; k < 200; k++) {
        rd(c, (next++ * 2) * 128, 1);
        rd(c, 1 * 128, 2);
        rd(c, 3 * 128, 2);
    }
    CHECK_EQ_INT(agg_of(c, 1), 1);   /* bypassing PC 1 */
    CHECK_EQ_INT(agg_of(c, 2), 0);   /* not PC 2 */
    uint64_t byp = cache_stats(c)->bypassed;
    CHECK(byp > 100);                /* 3 in 4 of PC 1's misses once bypassing (retry_log2 = 2) */
    /* reuse returns for PC 1: each line read twice; a probe insertion is reused, the counter resets */
    int stopped = 0;
    for (int k = 0; k < 400 && !stopped; k++) {
        uint64_t addr = (next++ * 2) * 128;
        rd(c, addr, 1);
        rd(c, addr, 1);
        stopped = agg_of(c, 1) == 0;
    }
    CHECK(stopped);
    /* without probes (the seed's design) it never stops */
    struct env e2;
    env_init(&e2);
    struct cache *d = mk(&e2, C1x4, "lru", "pcbased", NULL, 0);
    REQUIRE(d);
    for (int k = 0; k < 100; k++)
        rd(d, (uint64_t)k * 128, 1);
    CHECK_EQ_INT(agg_of(d, 1), 1);
    for (int k = 100; k < 1000; k++) {
        rd(d, (uint64_t)k * 128, 1);
        CHECK_EQ_INT(rd(d, (uint64_t)k * 128, 1), 0);   /* bypassed: never allocated, never hit */
    }
    CHECK_EQ_INT(agg_of(d, 1), 1);
    env_free(&e2);
    env_free(&e);
}

/* ---- SHiP ---- */

TEST(ship_keeps_a_hot_set_through_scans)
{
    /* hot set: 3 lines by PC 1, read twice before the scans start; between its rounds a scan
       of 4 new lines by PC 2 (never reused), in one 4-way set */
    const char *pols[] = {"lru", "srrip", "ship"};
    unsigned hot[3] = {0, 0, 0}, late[3] = {0, 0, 0};
    for (int p = 0; p < 3; p++) {
        struct env e;
        env_init(&e);
        struct cache *c = mk(&e, C1x4, pols[p], NULL, NULL, 0);
        REQUIRE(c);
        uint64_t next = 1000;
        for (int w = 0; w < 2; w++)
            for (uint64_t h = 0; h < 3; h++)
                rd(c, h * 128, 1);
        for (int r = 0; r < 3000; r++) {
            for (uint64_t h = 0; h < 3; h++) {
                int x = rd(c, h * 128, 1);
                hot[p] += (unsigned)x;
                late[p] += (unsigned)(r >= 2000 ? x : 0);
            }
            for (int s = 0; s < 4; s++)
                rd(c, next++ * 128, 2);
        }
        env_free(&e);
    }
    CHECK(hot[0] <= 3);    /* LRU: after the first round, 4 scan lines push the 3 hot lines out every round */
    /* SRRIP (2-bit): the 4th scan line finds every line at RRPV 2 and ages them all to 3: way 0,
       a hot line, is the victim */
    CHECK(hot[1] < 3000);
    /* SHiP (3-bit): untrained, 4 scan lines age the hot lines to at most 3 of 7; once the scan's
       signatures count 0, scan lines are inserted distant and are the victims at once */
    CHECK(late[2] >= 2900);
    CHECK(hot[2] > 2 * hot[1]);
}

TEST(ship_victims_are_the_scan_lines_once_trained)
{
    struct env e;
    env_init(&e);
    struct cache *c = mk(&e, C1x4, "ship", NULL, NULL, 0);
    REQUIRE(c);
    /* train: the hot lines 0..2 (PC 1) are reused, the scan lines (PC 2) are not */
    uint64_t next = 1000;
    for (int w = 0; w < 2; w++)
        for (uint64_t h = 0; h < 3; h++)
            rd(c, h * 128, 1);
    for (int r = 0; r < 3000; r++) {
        for (uint64_t h = 0; h < 3; h++)
            rd(c, h * 128, 1);
        for (int s = 0; s < 4; s++)
            rd(c, next++ * 128, 2);
    }
    /* now every scan line evicts the previous scan line: the hot lines stay resident throughout */
    for (int k = 0; k < 64; k++) {
        rd(c, next++ * 128, 2);
        for (uint64_t h = 0; h < 3; h++)
            CHECK(cache_probe(c, h * 128));
        CHECK(cache_probe(c, (next - 1) * 128));
        CHECK(!cache_probe(c, (next - 2) * 128));
    }
    env_free(&e);
}

TEST_MAIN()
