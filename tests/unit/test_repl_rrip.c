/*
 * test_repl_rrip.c - the replacement-policy extension point (policy/repl.h):
 * every registered policy against the contract (iterating the registry, so a
 * policy added to registry.def is covered without touching this file), lookup
 * by name, parameters and their bounds, and SRRIP / BRRIP on textbook
 * sequences, both directly on the policy and through the cache (mem/cache.h).
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "core/arena.h"
#include "core/config.h"
#include "mem/cache.h"
#include "policy/params.h"
#include "policy/repl.h"
#include "policy/repl/rrip.h"

/* ---- helpers ---- */

static struct cache *mk(struct arena *a, const char *s, const char *repl)
{
    struct cache_config cfg;
    char msg[256];
    unsigned col = 0;
    if (cache_config_parse(s, &cfg, msg, sizeof msg, &col) != 0)
        return NULL;
    struct cache *c = cache_new(a, &cfg, "t");
    if (c && repl && cache_set_repl_name(c, repl, NULL, msg, sizeof msg) != 0) {
        fprintf(stderr, "  %s\n", msg);
        return NULL;
    }
    return c;
}

/* One read of a line: a hit, or a miss that is filled at once. Returns 1 on a hit. */
static int touch(struct cache *c, uint64_t addr)
{
    uint64_t wb, w[8];
    enum cache_result r = cache_access(c, addr, false, 0, 0, 0, &wb, NULL);
    if (r == CACHE_HIT)
        return 1;
    if (r == CACHE_MISS)
        cache_fill(c, addr, 0, w, 8, &wb);
    return 0;
}

/* A policy instance outside a cache: state with the table's defaults (and pp's values), initialised. */
static void *pol_new(const struct repl_ops *o, uint32_t nsets, uint32_t assoc, const struct policy_params *pp)
{
    void *st = calloc(1, o->state_size(nsets, assoc));
    struct cfg_error err;
    if (st && policy_params_apply(pp, "repl", o->name, o->params, o->nparams, st, &err) != 0) {
        T_FAIL_("repl.%s: parameters do not apply: %s", o->name, err.msg);
        free(st);
        return NULL;
    }
    if (st)
        o->init(st, nsets, assoc);
    return st;
}

/* 1 set x 4 ways, 64-byte lines, write-back, allocate on miss: line i is at i * 64 */
#define C1x4 "1:64:4,L:B:m:N:L,A:8:4,4"

/* ---- the registry ---- */

TEST(repl_registry_contract)
{
    size_t n = 0;
    for (size_t i = 0; repl_at(i); i++, n++) {
        const struct repl_ops *o = repl_at(i);
        REQUIRE(o->name && o->name[0]);
        CHECK(repl_find(o->name) == o);
        CHECK(o->doc && o->state_size && o->init && o->victim && o->on_hit && o->on_fill);
        CHECK(o->nparams == 0 || o->params != NULL);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(repl_at(j)->name, o->name) != 0);
        /* defaults apply; invalid ways first (lowest); a set with every way pending: -2 */
        void *st = pol_new(o, 4, 8, NULL);
        REQUIRE(st);
        uint8_t valid[8] = {1, 1, 1, 0, 1, 0, 1, 1}, res[8] = {0};
        struct repl_set_view v = {2, 8, valid, res};
        /* a policy that partitions the ways (way_critical: CACP) takes an invalid way of the
           partition it picks, not necessarily the lowest */
        int inv = o->victim(st, &v, 0, 0, 0);
        if (o->way_critical)
            CHECK(inv == 3 || inv == 5);
        else
            CHECK_EQ_INT(inv, 3);
        memset(res, 1, sizeof res);
        CHECK_EQ_INT(o->victim(st, &v, 0, 0, 0), -2);
        /* a long pseudo-random run: victims are valid ways and never pending; two instances agree */
        void *st2 = pol_new(o, 4, 8, NULL);
        REQUIRE(st2);
        uint64_t seed = 12345;
        for (int k = 0; k < 5000; k++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            uint32_t set = (uint32_t)(seed % 4), way = (uint32_t)((seed >> 8) % 8);
            memset(valid, 1, sizeof valid);
            for (uint32_t w = 0; w < 8; w++)
                res[w] = (uint8_t)((seed >> (16 + w)) & (w == 0 ? 0 : 1));   /* way 0 never pending */
            struct repl_set_view vv = {set, 8, valid, res};
            if ((seed >> 30) & 1) {
                o->on_hit(st, set, way, 0, (sim_cycle)k);
                o->on_hit(st2, set, way, 0, (sim_cycle)k);
            } else {
                int a = o->victim(st, &vv, 0, 0, (sim_cycle)k), b = o->victim(st2, &vv, 0, 0, (sim_cycle)k);
                CHECK_EQ_INT(a, b);
                if (a == REPL_BYPASS || (a == -2 && o->way_critical))
                    continue;   /* (a partitioning policy: every way of its partition pending) */
                REQUIRE(a >= 0 && a < 8 && !res[a]);
                if (o->on_evict)
                    o->on_evict(st, set, (uint32_t)a, (sim_cycle)k), o->on_evict(st2, set, (uint32_t)a, (sim_cycle)k);
                o->on_fill(st, set, (uint32_t)a, 0, (sim_cycle)k);
                o->on_fill(st2, set, (uint32_t)a, 0, (sim_cycle)k);
            }
        }
        free(st);
        free(st2);
    }
    CHECK(n >= 4);
    CHECK(repl_find("srrip") != NULL);
    CHECK(repl_find("brrip") != NULL);
}

TEST(repl_lookup_by_name)
{
    CHECK(repl_find("lru") != NULL);
    CHECK(repl_find("fifo") != NULL);
    CHECK(repl_find("SRRIP") == NULL);   /* exact names */
    CHECK(repl_find("nosuch") == NULL);
    CHECK(repl_find(NULL) == NULL);
    char names[256];
    repl_names(names, sizeof names);
    CHECK(strstr(names, "lru, fifo") == names);
    CHECK(strstr(names, "srrip") && strstr(names, "brrip"));

    struct arena *a = arena_new(0);
    struct cache *c = mk(a, C1x4, NULL);
    REQUIRE(c);
    CHECK_EQ_STR(cache_repl_name(c), "lru");   /* the letter */
    char msg[256] = "";
    CHECK_EQ_INT(cache_set_repl_name(c, "nosuch", NULL, msg, sizeof msg), -1);
    CHECK(strstr(msg, "unknown replacement policy 'nosuch'") != NULL);
    CHECK(strstr(msg, "lru, fifo, srrip, brrip") != NULL);
    CHECK_EQ_STR(cache_repl_name(c), "lru");   /* unchanged */
    CHECK_EQ_INT(cache_set_repl_name(c, "srrip", NULL, msg, sizeof msg), 0);
    CHECK_EQ_STR(cache_repl_name(c), "srrip");
    CHECK_EQ_INT(cache_set_repl_name(c, "", NULL, msg, sizeof msg), 0);   /* back to the letter */
    CHECK_EQ_STR(cache_repl_name(c), "lru");
    struct cache *f = mk(a, "1:64:4,F:B:m:N:L,A:8:4,4", NULL);
    REQUIRE(f);
    CHECK_EQ_STR(cache_repl_name(f), "fifo");
    arena_free(a);
}

/* ---- parameters ---- */

static int check_param(const char *name, const char *value, const char *repl, char *msg, size_t n)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    cfg_init(&c, a);
    cfg_set(&c, name, value, "test");
    struct cfg_error err;
    memset(&err, 0, sizeof err);
    const char *sel[2] = {repl, "lru"};
    int rc = policy_params_check_all(&c, "lrr", "rr", sel, 2, NULL, 0, NULL, NULL, NULL, &err);
    snprintf(msg, n, "%s", err.msg);
    arena_free(a);
    return rc;
}

TEST(repl_params_bounds)
{
    char msg[512];
    CHECK_EQ_INT(check_param("repl.brrip.long_prob_log2", "16", "brrip", msg, sizeof msg), 0);
    CHECK_EQ_INT(check_param("repl.brrip.long_prob_log2", "0", "brrip", msg, sizeof msg), 0);
    CHECK_EQ_INT(check_param("repl.brrip.long_prob_log2", "17", "brrip", msg, sizeof msg), -1);
    CHECK(strstr(msg, "-repl.brrip.long_prob_log2") != NULL);
    CHECK_EQ_INT(check_param("repl.srrip.rrpv_bits", "8", "srrip", msg, sizeof msg), 0);
    CHECK_EQ_INT(check_param("repl.srrip.rrpv_bits", "1", "srrip", msg, sizeof msg), 0);
    CHECK_EQ_INT(check_param("repl.srrip.rrpv_bits", "0", "srrip", msg, sizeof msg), -1);
    CHECK_EQ_INT(check_param("repl.srrip.rrpv_bits", "9", "srrip", msg, sizeof msg), -1);
    /* a policy that is not in use is still checked for names, not values */
    CHECK_EQ_INT(check_param("repl.srrip.nope", "1", "brrip", msg, sizeof msg), -1);
    CHECK(strstr(msg, "its parameters: rrpv_bits") != NULL);
    CHECK_EQ_INT(check_param("repl.nosuch.x", "1", "lru", msg, sizeof msg), -1);
    CHECK(strstr(msg, "lru, fifo, srrip, brrip") != NULL);
    CHECK_EQ_INT(check_param("repl.lru.x", "1", "lru", msg, sizeof msg), -1);
    CHECK(strstr(msg, "none") != NULL);
}

TEST(repl_params_reach_the_cache)
{
    /* rrpv_bits = 3 through collected dotted options: insertion at 6, a hit at 0 */
    struct arena *a = arena_new(0);
    struct cfg c;
    cfg_init(&c, a);
    cfg_set(&c, "repl.srrip.rrpv_bits", "3", "test");
    struct policy_params pp = {.arena = arena_new(0)};
    struct cfg_error err;
    REQUIRE(policy_params_collect(&pp, &c, &err) == 0);
    const struct repl_ops *o = repl_find("srrip");
    void *st = pol_new(o, 1, 4, &pp);
    REQUIRE(st);
    CHECK_EQ_INT(((struct rrip_state *)st)->rrpv_bits, 3);
    o->on_fill(st, 0, 1, 0, 0);
    CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 1), 6);
    CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 0), 7);   /* invalid lines start distant */
    o->on_hit(st, 0, 1, 0, 0);
    CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 1), 0);
    free(st);
    struct cache *ca = mk(a, C1x4, NULL);
    REQUIRE(ca);
    char msg[256];
    CHECK_EQ_INT(cache_set_repl_name(ca, "srrip", &pp, msg, sizeof msg), 0);
    CHECK_EQ_STR(cache_repl_name(ca), "srrip");
    arena_free(pp.arena);
    /* an out-of-bounds value is refused and leaves the cache's policy as it was, working */
    struct cfg c2;
    cfg_init(&c2, a);
    cfg_set(&c2, "repl.brrip.rrpv_bits", "9", "test");
    struct policy_params pp2 = {.arena = arena_new(0)};
    REQUIRE(policy_params_collect(&pp2, &c2, &err) == 0);
    CHECK_EQ_INT(cache_set_repl_name(ca, "brrip", &pp2, msg, sizeof msg), -1);
    CHECK(strstr(msg, "rrpv_bits") != NULL);
    CHECK_EQ_STR(cache_repl_name(ca), "srrip");
    for (unsigned r = 0; r < 3; r++)
        for (uint64_t i = 0; i < 4; i++)
            CHECK_EQ_INT(touch(ca, i * 64), r > 0);
    arena_free(pp2.arena);
    arena_free(a);
}

/* ---- SRRIP / BRRIP victims ---- */

TEST(srrip_textbook_victims)
{
    const struct repl_ops *o = repl_find("srrip");
    REQUIRE(o);
    void *st = pol_new(o, 1, 4, NULL);
    REQUIRE(st);
    uint8_t valid[4] = {1, 1, 1, 1}, res[4] = {0};
    struct repl_set_view v = {0, 4, valid, res};
    for (uint32_t w = 0; w < 4; w++)
        o->on_fill(st, 0, w, 0, 0);   /* all at 2 (long) */
    o->on_hit(st, 0, 2, 0, 0);        /* way 2 at 0 */
    /* no line at 3: all age by one (2,2,0,2 -> 3,3,1,3); the first at 3 is way 0 */
    CHECK_EQ_INT(o->victim(st, &v, 0, 0, 0), 0);
    CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 1), 3);
    CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 2), 1);
    o->on_fill(st, 0, 0, 0, 0);       /* 2,3,1,3 */
    CHECK_EQ_INT(o->victim(st, &v, 0, 0, 0), 1);   /* already at 3: no aging */
    CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 0), 2);
    res[1] = 1;                       /* way 1 pending: the next at 3 is way 3 */
    CHECK_EQ_INT(o->victim(st, &v, 0, 0, 0), 3);
    res[3] = 1;                       /* 2,p,1,p: age once to 3,.,2,.: way 0 */
    CHECK_EQ_INT(o->victim(st, &v, 0, 0, 0), 0);
    CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 2), 2);
    free(st);
}

TEST(brrip_inserts_distant_mostly_and_long_sometimes)
{
    const struct repl_ops *o = repl_find("brrip");
    REQUIRE(o);
    void *st = pol_new(o, 1, 4, NULL);
    REQUIRE(st);
    unsigned lng = 0, dist = 0;
    for (int k = 0; k < 32000; k++) {
        o->on_fill(st, 0, 0, 0, 0);
        unsigned r = repl_rrip_rrpv(st, 0, 0);
        lng += r == 2;
        dist += r == 3;
    }
    CHECK_EQ_INT(lng + dist, 32000);
    CHECK(lng > 700 && lng < 1300);   /* about 1/32 */
    free(st);
    /* long_prob_log2 = 0: always long (SRRIP's insertion) */
    struct arena *a = arena_new(0);
    struct cfg c;
    cfg_init(&c, a);
    cfg_set(&c, "repl.brrip.long_prob_log2", "0", "test");
    struct policy_params pp = {.arena = arena_new(0)};
    struct cfg_error err;
    REQUIRE(policy_params_collect(&pp, &c, &err) == 0);
    st = pol_new(o, 1, 4, &pp);
    REQUIRE(st);
    for (int k = 0; k < 100; k++) {
        o->on_fill(st, 0, 0, 0, 0);
        CHECK_EQ_INT(repl_rrip_rrpv(st, 0, 0), 2);
    }
    free(st);
    arena_free(pp.arena);
    arena_free(a);
}

/* Hits of `rounds` passes over lines 0..n-1 (each one line of the single set). */
static unsigned cyclic(const char *repl, unsigned n, unsigned rounds)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, C1x4, repl);
    unsigned hits = 0;
    for (unsigned r = 0; c && r < rounds; r++)
        for (unsigned i = 0; i < n; i++)
            hits += (unsigned)touch(c, (uint64_t)i * 64);
    arena_free(a);
    return hits;
}

TEST(repl_cyclic_scan_of_ways_plus_one)
{
    /* 5 lines cycled through 4 ways: LRU (and FIFO) always evict the next line needed */
    CHECK_EQ_INT(cyclic("lru", 5, 200), 0);
    CHECK_EQ_INT(cyclic("fifo", 5, 200), 0);
    /* BRRIP keeps most of the working set (a long-inserted line stays while the distant ones churn) */
    unsigned b = cyclic("brrip", 5, 200);
    CHECK(b > 400);
    /* SRRIP is scan-resistant, not thrash-resistant: every line is inserted long and none is
       re-used before it ages out, so on a pure cycle it evicts in insertion order like FIFO
       (Jaleel et al. 2010, sec. 3; BRRIP is the thrash-resistant variant) */
    CHECK_EQ_INT(cyclic("srrip", 5, 200), 0);
    /* a working set that fits: every policy hits after the first pass */
    for (size_t i = 0; repl_at(i); i++) {
        if (repl_at(i)->way_critical) {
            /* a partitioning policy (CACP): without critical warps a line only gets the
               non-critical partition (2 of the 4 ways), so the working set must fit that */
            CHECK_EQ_INT(cyclic(repl_at(i)->name, 2, 10), 18);
            continue;
        }
        CHECK_EQ_INT(cyclic(repl_at(i)->name, 4, 10), 36);
    }
}

/* A hot line used between pairs of streaming lines, in a 2-way set. */
static unsigned hot_and_scan(const char *repl, unsigned *hot_hits)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:B:m:N:L,A:8:4,4", repl);
    unsigned hits = 0;
    *hot_hits = 0;
    if (c) {
        touch(c, 0);
        touch(c, 0);   /* the hot line is re-used once before the scan starts */
        uint64_t next = 1;
        for (int k = 0; k < 100; k++) {
            hits += (unsigned)touch(c, next++ * 64);
            hits += (unsigned)touch(c, next++ * 64);
            unsigned h = (unsigned)touch(c, 0);
            hits += h;
            *hot_hits += h;
        }
    }
    arena_free(a);
    return hits;
}

TEST(srrip_keeps_the_hot_line_through_a_scan)
{
    unsigned hot;
    hot_and_scan("lru", &hot);
    CHECK_EQ_INT(hot, 0);     /* two streaming lines push it out of a 2-way LRU set every time */
    hot_and_scan("srrip", &hot);
    CHECK_EQ_INT(hot, 100);   /* RRPV 0 after each hit: the streaming lines (inserted at 2) go first */
}

TEST(brrip_statistics_are_reproducible)
{
    /* same accesses, two caches: identical statistics (the PRNG is per cache, fixed seed) */
    struct arena *a = arena_new(0);
    struct cache *x = mk(a, "8:64:4,L:B:m:N:L,A:8:4,4", "brrip");
    struct cache *y = mk(a, "8:64:4,L:B:m:N:L,A:8:4,4", "brrip");
    REQUIRE(x && y);
    uint64_t s = 7;
    for (int k = 0; k < 20000; k++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint64_t addr = (s % 96) * 64;
        CHECK_EQ_INT(touch(x, addr), touch(y, addr));
    }
    CHECK(memcmp(cache_stats(x), cache_stats(y), sizeof(struct cache_stats)) == 0);
    CHECK(cache_stats(x)->hits > 0 && cache_stats(x)->evictions > 0);
    arena_free(a);
}

TEST_MAIN()
