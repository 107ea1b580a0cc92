/*
 * test_repl_cacp.c - CACP (policy/repl/cacp.c; seed 000 sec. 4.2.3, Alg. 7-9)
 * against scripted accesses: partition placement by CCBP, SHiP insertion
 * positions, CCBP and SHCT training on hits and evictions, victims within
 * the partition; then through the cache (mem/cache.h cache_access_wc) with
 * the critical flag and the partition hit counters.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "core/arena.h"
#include "core/config.h"
#include "mem/cache.h"
#include "policy/params.h"
#include "policy/repl.h"

static const struct repl_ops *cacp(void) { return repl_find("cacp"); }

static void *pol_new(uint32_t nsets, uint32_t assoc)
{
    const struct repl_ops *o = cacp();
    void *st = calloc(1, o->state_size(nsets, assoc));
    struct cfg_error err;
    if (st && policy_params_apply(NULL, "repl", o->name, o->params, o->nparams, st, &err) != 0) {
        free(st);
        return NULL;
    }
    if (st)
        o->init(st, nsets, assoc);
    return st;
}

static void acc(void *st, uint32_t pc, uint64_t addr, int critical)
{
    struct repl_access a = {.addr = addr, .pc = pc, .warp = 0, .critical = (uint8_t)critical};
    cacp()->on_access(st, &a);
}

/* miss of (pc, addr) in set 0: victim, evict if valid, fill; returns the way */
static int miss(void *st, struct repl_set_view *v, uint8_t *valid, uint32_t pc, uint64_t addr)
{
    const struct repl_ops *o = cacp();
    acc(st, pc, addr, 0);
    int w = o->victim(st, v, pc, addr, 0);
    if (w < 0)
        return w;
    if (valid[w])
        o->on_evict(st, v->set, (uint32_t)w, 0);
    o->on_fill(st, v->set, (uint32_t)w, pc, 0);
    valid[w] = 1;
    return w;
}

static void hit(void *st, uint32_t way, int critical)
{
    acc(st, 0, 0, critical);
    cacp()->on_hit(st, 0, way, 0, 0);
}

/* signature of pc 0 and line address A(k) = k << 7 is k & 0xff */
#define A(k) ((uint64_t)(k) << 7)

TEST(cacp_registered_with_hooks)
{
    const struct repl_ops *o = cacp();
    REQUIRE(o);
    CHECK(o->on_access && o->way_critical && o->on_evict);
    /* 16 ways: 8 critical (the seed); 4 ways: 2; 1 way: no partition */
    void *st = pol_new(1, 16);
    REQUIRE(st);
    CHECK(o->way_critical(st, 0, 7) == 1 && o->way_critical(st, 0, 8) == 0);
    free(st);
    st = pol_new(1, 4);
    CHECK(o->way_critical(st, 0, 1) == 1 && o->way_critical(st, 0, 2) == 0);
    free(st);
    st = pol_new(1, 1);
    CHECK(o->way_critical(st, 0, 0) == 0);
    free(st);
}

TEST(cacp_placement_follows_ccbp)
{
    const struct repl_ops *o = cacp();
    void *st = pol_new(1, 16);
    REQUIRE(st);
    uint8_t valid[16] = {0}, res[16] = {0};
    struct repl_set_view v = {0, 16, valid, res};
    /* CCBP starts at 1 (not > threshold 1): non-critical partition, ways 8.. */
    int w = miss(st, &v, valid, 0, A(5));
    CHECK_EQ_INT(w, 8);
    /* one hit by a critical warp: CCBP[5] = 2 > 1, so signature 5 is now critical */
    hit(st, (uint32_t)w, 1);
    valid[8] = 0;   /* (the line leaves; no hook: as a kernel-boundary invalidation) */
    w = miss(st, &v, valid, 0, A(5));
    CHECK_EQ_INT(w, 0);
    CHECK(o->way_critical(st, 0, (uint32_t)w));
    /* another signature, never reused by a critical warp: non-critical */
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(6)), 8);
    /* the signature is PC ^ line address (low 8 bits): pc 3 with line 6 is signature 5 */
    CHECK_EQ_INT(miss(st, &v, valid, 3, A(6)), 1);
    /* a hit by a non-critical warp trains SHiP only: signature 6 stays non-critical */
    hit(st, 8, 0);
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(6 + 256)), 9);
    free(st);
}

TEST(cacp_victims_stay_in_the_partition)
{
    const struct repl_ops *o = cacp();
    void *st = pol_new(1, 8);   /* 4 critical + 4 non-critical ways */
    REQUIRE(st);
    uint8_t valid[8] = {0}, res[8] = {0};
    struct repl_set_view v = {0, 8, valid, res};
    /* fill the non-critical ways with signatures 10..13, then keep missing: the victims cycle
       among ways 4..7 while the critical ways stay empty */
    for (int k = 0; k < 40; k++) {
        int w = miss(st, &v, valid, 0, A(10 + k));
        REQUIRE(w >= 4 && w < 8);
    }
    for (int w = 0; w < 4; w++)
        CHECK(!valid[w]);
    /* every non-critical way pending: -2, although critical ways are free */
    memset(res + 4, 1, 4);
    acc(st, 0, A(99), 0);
    CHECK_EQ_INT(o->victim(st, &v, 0, A(99), 0), -2);
    memset(res + 4, 0, 4);
    /* a critical signature fills the critical ways, then replaces among them */
    hit(st, 4, 1);   /* way 4 holds some signature s: CCBP[s] = 2 */
    free(st);

    st = pol_new(1, 8);
    memset(valid, 0, sizeof valid);
    int w = miss(st, &v, valid, 0, A(1));
    hit(st, (uint32_t)w, 1);   /* CCBP[1] = 2: signature 1 is critical */
    /* same signature, other lines (PC 0x100: its low 8 bits are 0, so the signature is still 1) */
    for (int k = 0; k < 20; k++) {
        int x = miss(st, &v, valid, 0x100u * (uint32_t)(k + 1), A(1));
        REQUIRE(x >= 0 && x < 4);
    }
    free(st);
}

TEST(cacp_ship_insertion_and_rrip)
{
    void *st = pol_new(1, 4);   /* ways 0-1 critical, 2-3 non-critical */
    REQUIRE(st);
    uint8_t valid[4] = {0}, res[4] = {0};
    struct repl_set_view v = {0, 4, valid, res};
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(20)), 2);   /* long: RRPV 2 (SHCT[20] = 1) */
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(21)), 3);   /* long */
    /* both aged to 3, the first goes: A(20) evicted without reuse, SHCT[20] -> 0 */
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(22)), 2);   /* way 2 = A(22) at 2, way 3 = A(21) at 3 */
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(20)), 3);   /* A(21) goes; A(20) is inserted distant (3) */
    /* way 2 long (2), way 3 distant (3): the distant line is the next victim (had A(20) been
       inserted long, aging would make both 3 and way 2 would go) */
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(25)), 3);
    /* a hit promotes to 0: way 3 (A(25), long) is hit, so way 2 goes next */
    hit(st, 3, 0);
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(26)), 2);
    free(st);
}

TEST(cacp_ccbp_and_shct_training_on_evictions)
{
    const struct repl_ops *o = cacp();
    /* explicit parameters through the dotted options: threshold 0, so CCBP 1 is critical */
    struct arena *ar = arena_new(0);
    struct cfg c;
    cfg_init(&c, ar);
    struct cfg_error err;
    cfg_set(&c, "repl.cacp.threshold", "0", "test");
    struct policy_params pp = {.arena = arena_new(0)};
    REQUIRE(policy_params_collect(&pp, &c, &err) == 0);
    void *st = calloc(1, o->state_size(1, 4));
    REQUIRE(policy_params_apply(&pp, "repl", "cacp", o->params, o->nparams, st, &err) == 0);
    o->init(st, 1, 4);
    uint8_t valid[4] = {0}, res[4] = {0};
    struct repl_set_view v = {0, 4, valid, res};
    /* signature 30 (CCBP 1 > 0): critical partition */
    int w = miss(st, &v, valid, 0, A(30));
    CHECK_EQ_INT(w, 0);
    hit(st, 0, 0);   /* reused by a non-critical warp only */
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(30 + 256)), 1);   /* same signature, way 1 */
    /* evict way 0 (A(30), nc_reuse, in the critical partition): CCBP[30] -> 0; way 1 had no
       reuse: SHCT[30] -> 1 - 1 + 1 (the hit) ... */
    o->on_evict(st, 0, 0, 0);
    valid[0] = 0;
    /* CCBP[30] is 0 now: not > 0, non-critical */
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(30 + 512)), 2);
    /* evicting twice trains once */
    o->on_evict(st, 0, 0, 0);
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(30 + 768)), 3);
    /* a critical hit puts it back: CCBP 1 > 0 */
    hit(st, 3, 1);
    CHECK_EQ_INT(miss(st, &v, valid, 0, A(30 + 1024)), 0);
    free(st);
    arena_free(pp.arena);
    arena_free(ar);
}

/* Through the cache: critical flag in the access record, partition hit counters. */
TEST(cacp_through_the_cache)
{
    struct arena *a = arena_new(0);
    struct cache_config cfg;
    char msg[256];
    unsigned col = 0;
    REQUIRE(cache_config_parse("1:128:4,L:B:m:N:L,A:8:4,4", &cfg, msg, sizeof msg, &col) == 0);
    struct cache *c = cache_new(a, &cfg, "t");
    REQUIRE(c && cache_set_repl_name(c, "cacp", NULL, msg, sizeof msg) == 0);
    uint64_t wb, w[8];
    /* miss by a critical warp: non-critical partition (CCBP 1) */
    CHECK_EQ_INT(cache_access_wc(c, A(40), false, false, 0, 1, true, 0, 0, &wb, NULL), CACHE_MISS);
    cache_fill(c, A(40), 1, w, 8, &wb);
    /* hit by the critical warp (in the non-critical partition): CCBP[40] = 2 */
    CHECK_EQ_INT(cache_access_wc(c, A(40), false, false, 0, 1, true, 0, 2, &wb, NULL), CACHE_HIT);
    /* hit by a non-critical warp: its own partition */
    CHECK_EQ_INT(cache_access_wc(c, A(40), false, false, 0, 2, false, 0, 3, &wb, NULL), CACHE_HIT);
    /* the same signature from another line now goes to the critical partition; its hit by a
       critical warp counts as a critical-partition hit */
    CHECK_EQ_INT(cache_access_wc(c, A(40 + 256), false, false, 0, 1, true, 0, 4, &wb, NULL), CACHE_MISS);
    cache_fill(c, A(40 + 256), 5, w, 8, &wb);
    CHECK_EQ_INT(cache_access_wc(c, A(40 + 256), false, false, 0, 1, true, 0, 6, &wb, NULL), CACHE_HIT);
    /* no warp (L2-like): not counted */
    CHECK_EQ_INT(cache_access(c, A(40), false, 0, 0, 7, &wb, NULL), CACHE_HIT);
    const struct cache_stats *s = cache_stats(c);
    CHECK_EQ_U64(s->crit_accesses, 4);
    CHECK_EQ_U64(s->crit_hits, 2);
    CHECK_EQ_U64(s->crit_part_hits, 1);
    CHECK_EQ_U64(s->nc_accesses, 1);
    CHECK_EQ_U64(s->nc_hits, 1);
    CHECK_EQ_U64(s->nc_part_hits, 1);
    arena_free(a);
}

TEST_MAIN()
