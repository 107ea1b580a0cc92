/*
 * test_cache.c - cache string parser, tag array, MSHRs, write/allocation
 * policies, index functions and the LRU/FIFO replacement policies.
 */
#include "mem/cache.h"
#include "policy/repl.h"
#include "test.h"

extern const struct repl_ops repl_lru_ops;
extern const struct repl_ops repl_fifo_ops;

#define NONE UINT64_MAX

/* ---- helpers ---- */

static struct cache *mk(struct arena *a, const char *s)
{
    struct cache_config cfg;
    char msg[160];
    unsigned col = 0;
    if (cache_config_parse(s, &cfg, msg, sizeof msg, &col) != 0) {
        fprintf(stderr, "  bad cache string in test: %s (col %u)\n", msg, col);
        return NULL;
    }
    return cache_new(a, &cfg, "t");
}

static enum cache_result rd(struct cache *c, uint64_t addr, uint64_t waiter)
{
    uint64_t wb;
    return cache_access(c, addr, false, 0, waiter, 0, &wb, NULL);
}

/* Read miss + fill: the line is then valid. Returns the fill's *wb_addr. */
static uint64_t load(struct cache *c, uint64_t addr)
{
    uint64_t wb = 0, w[4];
    enum cache_result r = cache_access(c, addr, false, 0, 0, 0, &wb, NULL);
    if (r != CACHE_MISS) {
        fprintf(stderr, "  load(0x%" PRIx64 "): result %d, expected CACHE_MISS\n", addr, (int)r);
        test_failed_now_ = 1;
        return wb;
    }
    uint64_t wb2 = 0;
    cache_fill(c, addr, 0, w, 4, &wb2);
    return wb != NONE ? wb : wb2;
}

/* ---- parser ---- */

TEST(cache_parse_fermi_l1d)
{
    struct cache_config c;
    char msg[128] = "x";
    unsigned col = 99;
    CHECK_EQ_INT(cache_config_parse("32:128:4,L:L:m:N:H,A:32:8,8", &c, msg, sizeof msg, &col), 0);
    CHECK_EQ_STR(msg, "");
    CHECK_EQ_INT(c.nsets, 32);
    CHECK_EQ_INT(c.line_size, 128);
    CHECK_EQ_INT(c.assoc, 4);
    CHECK_EQ_INT(c.rep, 'L');
    CHECK_EQ_INT(c.wr, CW_LOCAL_WB_GLOBAL_WT);
    CHECK_EQ_INT(c.alloc, CA_ON_MISS);
    CHECK_EQ_INT(c.wralloc, CWA_NONE);
    CHECK_EQ_INT(c.index, CI_FERMI_HASH);
    CHECK_EQ_INT(c.mshr_kind, CM_ASSOC);
    CHECK_EQ_INT(c.mshr_entries, 32);
    CHECK_EQ_INT(c.mshr_max_merge, 8);
    CHECK_EQ_INT(c.miss_queue, 8);
    CHECK_EQ_U64(cache_config_bytes(&c), 16384);
}

TEST(cache_parse_other_forms)
{
    struct cache_config c;
    char msg[128];
    unsigned col;
    /* L2 with trailing result-fifo and port fields (ignored) */
    CHECK_EQ_INT(cache_config_parse("64:128:8,L:B:m:W:L,A:32:4,4:0,32", &c, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(c.wr, CW_WRITE_BACK);
    CHECK_EQ_INT(c.wralloc, CWA_WRITE);
    CHECK_EQ_INT(c.index, CI_LINEAR);
    CHECK_EQ_INT(c.miss_queue, 4);
    /* older form without the index letter: linear; R = read-only */
    CHECK_EQ_INT(cache_config_parse("4:128:4,L:R:f:N,A:2:32,4", &c, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(c.wr, CW_READ_ONLY);
    CHECK_EQ_INT(c.alloc, CA_ON_FILL);
    CHECK_EQ_INT(c.index, CI_LINEAR);
    CHECK_EQ_INT(c.mshr_entries, 2);
    CHECK_EQ_INT(c.mshr_max_merge, 32);
    /* texture: FIFO MSHR, FIFO replacement, every remaining letter */
    CHECK_EQ_INT(cache_config_parse("4:128:24,F:E:s:F:P,F:128:4,128:2", &c, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(c.rep, 'F');
    CHECK_EQ_INT(c.wr, CW_WRITE_EVICT);
    CHECK_EQ_INT(c.alloc, CA_STREAMING);
    CHECK_EQ_INT(c.wralloc, CWA_FETCH_ON_WRITE);
    CHECK_EQ_INT(c.index, CI_IPOLY);
    CHECK_EQ_INT(c.mshr_kind, CM_FIFO);
    CHECK_EQ_INT(cache_config_parse("48:64:2,L:T:m:L:L,A:8:4,8", &c, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(c.wr, CW_WRITE_THROUGH);
    CHECK_EQ_INT(c.wralloc, CWA_LAZY_FETCH);
    CHECK_EQ_INT(c.nsets, 48);   /* linear indexing takes any number of sets */
    CHECK_EQ_INT(cache_config_parse("8:32:1,L:B:m:N:X,A:8:4,8", &c, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(c.index, CI_XOR);
}

static void bad(const char *s, const char *want, unsigned want_col)
{
    struct cache_config c;
    char msg[160] = "";
    unsigned col = 0;
    int rc = cache_config_parse(s, &c, msg, sizeof msg, &col);
    if (rc != -1 || strcmp(msg, want) != 0 || col != want_col) {
        fprintf(stderr, "  \"%s\": rc %d msg \"%s\" col %u; want \"%s\" col %u\n", s, rc, msg, col, want, want_col);
        test_failed_now_ = 1;
    }
}

TEST(cache_parse_errors)
{
    bad("3x:128:4,L:L:m:N:H,A:32:8,8", "number of sets: expected a number, got \"3x\"", 1);
    bad("32:-128:4,L:L:m:N:H,A:32:8,8", "line size: expected a number, got \"-128\"", 4);
    bad("32:128:4,L:L:m:N:H,A:3 2:8,8", "MSHR entries: expected a number, got \"3 2\"", 22);
    bad("32:96:4,L:B:m:N:L,A:32:8,8", "line size 96 is not a power of two", 4);
    bad("0:128:4,L:B:m:N:L,A:32:8,8", "number of sets must be at least 1", 1);
    bad("32:128:0,L:B:m:N:L,A:32:8,8", "associativity must be at least 1", 8);
    bad("32:128:4,L:B:m:N:L,A:32:0,8", "MSHR max merge must be at least 1", 25);
    bad("32:128:4,L:B:m:N:L,A:32:8,0", "miss queue size must be at least 1", 27);
    bad("32:128:4,Q:B:m:N:L,A:32:8,8", "replacement policy: unknown letter 'Q' (expected L or F)", 10);
    bad("32:128:4,L:X:m:N:L,A:32:8,8", "write policy: unknown letter 'X' (expected T, B, E, L or R)", 12);
    bad("32:128:4,L:B:M:N:L,A:32:8,8", "allocation policy: unknown letter 'M' (expected m, f or s)", 14);
    bad("32:128:4,L:B:m:n:L,A:32:8,8", "write-allocate policy: unknown letter 'n' (expected N, W, F or L)", 16);
    bad("32:128:4,L:B:m:N:Z,A:32:8,8", "set index function: unknown letter 'Z' (expected L, H, P or X)", 18);
    bad("32:128:4,L:B:m:N:L,B:32:8,8", "MSHR type: unknown letter 'B' (expected A or F)", 20);
    bad("32:128:4,LR:B:m:N:L,A:32:8,8", "replacement policy: expected one letter, got \"LR\"", 10);
    bad("48:128:4,L:B:m:N:H,A:32:8,8", "set index function 'H' needs a power-of-two number of sets, got 48", 18);
    bad("131072:32:1,L:B:m:N:P,A:32:8,8", "set index function 'P' supports at most 65536 sets, got 131072", 21);
    bad("32:128:4:L:B:m:N:L,A:32:8,8", "expected ',' after the associativity, got ':'", 9);
    bad("32:128:4,L:B:m:N:L:A:32:8,8", "expected ',' after the set index function, got ':'", 19);
    bad("32:128:4,L:B:m:N:L,A:32:8", "missing miss queue size", 26);
    bad("32:128:4,L:B:m:N:L,A:32:8,", "missing miss queue size", 27);
    bad("32:128:4,L:B::N:L,A:32:8,8", "missing allocation policy", 14);
    bad("32:128:4", "missing replacement policy", 9);
    bad("", "missing number of sets", 1);
    bad("99999999999:128:4,L:B:m:N:L,A:32:8,8", "number of sets: number too large \"99999999999\"", 1);
}

/* ---- hits, misses, MSHR ---- */

TEST(cache_hit_after_fill)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "4:64:2,L:B:m:N:L,A:4:2,4");
    REQUIRE(c);
    CHECK_EQ_U64(cache_block(c, 0x1234), 0x1200);
    CHECK_EQ_INT(cache_probe(c, 0x1234), 0);
    uint64_t wb = 0;
    enum cache_fail f = CF_MSHR_FULL;
    CHECK_EQ_INT(cache_access(c, 0x1234, false, 0, 7, 0, &wb, &f), CACHE_MISS);
    CHECK_EQ_U64(wb, NONE);
    CHECK_EQ_INT(f, CF_NONE);
    CHECK_EQ_INT(cache_mshr_used(c), 1);
    CHECK_EQ_INT(cache_probe(c, 0x1234), 0);   /* pending is not present */
    uint64_t w[4] = {0};
    CHECK_EQ_INT(cache_fill(c, 0x1200, 5, w, 4, &wb), 1);
    CHECK_EQ_U64(w[0], 7);
    CHECK_EQ_U64(wb, NONE);
    CHECK_EQ_INT(cache_mshr_used(c), 0);
    CHECK_EQ_INT(cache_probe(c, 0x1200), 1);
    CHECK_EQ_INT(cache_probe(c, 0x123f), 1);
    CHECK_EQ_INT(cache_probe(c, 0x1240), 0);
    CHECK_EQ_INT(rd(c, 0x1238, 8), CACHE_HIT);
    arena_free(a);
}

TEST(cache_mshr_merge_and_fill_order)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "4:64:2,L:B:m:N:L,A:4:4,4");
    REQUIRE(c);
    CHECK_EQ_INT(rd(c, 0x1000, 11), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x1008, 12), CACHE_HIT_RESERVED);
    CHECK_EQ_INT(rd(c, 0x1030, 13), CACHE_HIT_RESERVED);
    CHECK_EQ_INT(rd(c, 0x2000, 21), CACHE_MISS);   /* other line, own entry */
    CHECK_EQ_INT(rd(c, 0x103c, 14), CACHE_HIT_RESERVED);
    CHECK_EQ_INT(cache_mshr_used(c), 2);
    uint64_t w[8] = {0}, wb;
    /* all four are released even though only two fit */
    CHECK_EQ_INT(cache_fill(c, 0x1000, 0, w, 2, &wb), 4);
    CHECK_EQ_U64(w[0], 11);
    CHECK_EQ_U64(w[1], 12);
    CHECK_EQ_U64(w[2], 0);
    CHECK_EQ_INT(cache_mshr_used(c), 1);
    CHECK_EQ_INT(cache_fill(c, 0x2010, 0, w, 8, &wb), 1);
    CHECK_EQ_U64(w[0], 21);
    /* a reused entry starts with an empty list */
    CHECK_EQ_INT(rd(c, 0x3000, 31), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x3004, 32), CACHE_HIT_RESERVED);
    CHECK_EQ_INT(rd(c, 0x3008, 33), CACHE_HIT_RESERVED);
    CHECK_EQ_INT(cache_fill(c, 0x3000, 0, w, 8, &wb), 3);
    CHECK_EQ_U64(w[0], 31);
    CHECK_EQ_U64(w[1], 32);
    CHECK_EQ_U64(w[2], 33);
    const struct cache_stats *s = cache_stats(c);
    CHECK_EQ_U64(s->hit_reserved, 5);
    CHECK_EQ_U64(s->misses, 3);
    CHECK_EQ_U64(s->fills, 3);
    arena_free(a);
}

TEST(cache_mshr_full)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "4:64:2,L:B:m:N:L,A:2:4,4");
    REQUIRE(c);
    enum cache_fail f;
    uint64_t wb;
    CHECK_EQ_INT(rd(c, 0x000, 1), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x040, 2), CACHE_MISS);
    CHECK_EQ_INT(cache_access(c, 0x080, false, 0, 3, 0, &wb, &f), CACHE_RESERVATION_FAIL);
    CHECK_EQ_INT(f, CF_MSHR_FULL);
    CHECK_EQ_INT(cache_probe(c, 0x080), 0);
    /* merging into an existing entry still works while the table is full */
    CHECK_EQ_INT(rd(c, 0x044, 4), CACHE_HIT_RESERVED);
    uint64_t w[4];
    CHECK_EQ_INT(cache_fill(c, 0x000, 0, w, 4, &wb), 1);
    CHECK_EQ_INT(cache_access(c, 0x080, false, 0, 3, 0, &wb, &f), CACHE_MISS);   /* retry gets in */
    CHECK_EQ_INT(f, CF_NONE);
    const struct cache_stats *s = cache_stats(c);
    CHECK_EQ_U64(s->res_fail, 1);
    CHECK_EQ_U64(s->res_fail_mshr, 1);
    CHECK_EQ_U64(s->res_fail_merge, 0);
    CHECK_EQ_U64(s->res_fail_line, 0);
    CHECK_EQ_U64(s->accesses, 4);   /* the refused attempt is not an access */
    arena_free(a);
}

TEST(cache_merge_full)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "4:64:2,L:B:m:N:L,A:8:2,4");
    REQUIRE(c);
    enum cache_fail f;
    uint64_t wb;
    CHECK_EQ_INT(rd(c, 0x100, 1), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x104, 2), CACHE_HIT_RESERVED);
    CHECK_EQ_INT(cache_access(c, 0x108, false, 0, 3, 0, &wb, &f), CACHE_RESERVATION_FAIL);
    CHECK_EQ_INT(f, CF_MERGE_FULL);
    CHECK_EQ_U64(cache_stats(c)->res_fail_merge, 1);
    uint64_t w[4];
    CHECK_EQ_INT(cache_fill(c, 0x100, 0, w, 4, &wb), 2);   /* the refused one is not a waiter */
    CHECK_EQ_U64(w[1], 2);
    arena_free(a);
}

TEST(cache_every_way_reserved)
{
    struct arena *a = arena_new(0);
    /* 4 sets x 64 B: blocks 0x000, 0x100, 0x200 all map to set 0 */
    struct cache *c = mk(a, "4:64:2,L:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    enum cache_fail f;
    uint64_t wb;
    CHECK_EQ_INT(rd(c, 0x000, 1), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x100, 2), CACHE_MISS);
    CHECK_EQ_INT(cache_access(c, 0x200, false, 0, 3, 0, &wb, &f), CACHE_RESERVATION_FAIL);
    CHECK_EQ_INT(f, CF_NO_LINE);
    CHECK_EQ_INT(rd(c, 0x040, 4), CACHE_MISS);   /* another set is unaffected */
    CHECK_EQ_INT(cache_mshr_used(c), 3);
    uint64_t w[4];
    cache_fill(c, 0x100, 0, w, 4, &wb);
    CHECK_EQ_INT(cache_access(c, 0x200, false, 0, 3, 0, &wb, &f), CACHE_MISS);   /* evicts 0x100 */
    CHECK_EQ_INT(cache_probe(c, 0x100), 0);
    CHECK_EQ_U64(cache_stats(c)->res_fail_line, 1);
    CHECK_EQ_U64(cache_stats(c)->evictions, 1);
    arena_free(a);
}

/* A refusal that called no state-changing policy hook repeats: the same access is refused the
   same way until a fill, so a caller may count the retries it leaves out (cache_count_refusals).
   LRU's victim() is pure; SRRIP's ages the set's lines when it looks for a victim, so a refusal
   that asked it (on-miss allocation, MSHRs full) does not repeat, while one decided before the
   victim is asked (on-fill allocation) does. */
TEST(cache_refusal_repeats_only_without_hooks)
{
    struct arena *a = arena_new(0);
    const char *specs[3] = {"4:64:2,L:B:m:N:L,A:1:4,4", "4:64:2,L:B:m:N:L,A:1:4,4", "4:64:2,L:B:f:N:L,A:1:4,4"};
    const char *repl[3] = {"lru", "srrip", "srrip"};
    const bool repeats[3] = {true, false, true};
    for (int i = 0; i < 3; i++) {
        struct cache *c = mk(a, specs[i]);
        REQUIRE(c);
        char msg[160];
        REQUIRE(cache_set_repl_name(c, repl[i], NULL, msg, sizeof msg) == 0);
        enum cache_fail f;
        uint64_t wb;
        CHECK_EQ_INT(rd(c, 0x000, 1), CACHE_MISS);
        CHECK_EQ_INT(cache_access(c, 0x040, false, 0, 2, 0, &wb, &f), CACHE_RESERVATION_FAIL);
        CHECK_EQ_INT(f, CF_MSHR_FULL);
        CHECK_EQ_INT(cache_refusal_repeats(c), repeats[i]);
        /* the merge refusal is decided before any hook */
        cache_count_refusals(c, CF_MERGE_FULL, 5);
        const struct cache_stats *st = cache_stats(c);
        CHECK_EQ_U64(st->res_fail, 6);
        CHECK_EQ_U64(st->res_fail_mshr, 1);
        CHECK_EQ_U64(st->res_fail_merge, 5);
    }
    /* the pending line's merge slots full: no hook before it, with any policy */
    struct cache *c = mk(a, "4:64:2,L:B:m:N:L,A:8:1,4");
    REQUIRE(c);
    char msg[160];
    REQUIRE(cache_set_repl_name(c, "srrip", NULL, msg, sizeof msg) == 0);
    enum cache_fail f;
    uint64_t wb;
    CHECK_EQ_INT(rd(c, 0x100, 1), CACHE_MISS);
    CHECK_EQ_INT(cache_access(c, 0x104, false, 0, 2, 0, &wb, &f), CACHE_RESERVATION_FAIL);
    CHECK_EQ_INT(f, CF_MERGE_FULL);
    CHECK_EQ_INT(cache_refusal_repeats(c), 1);
    arena_free(a);
}

/* ---- replacement ---- */

TEST(cache_lru_victim_order)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:4,L:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    load(c, 0x000);   /* A */
    load(c, 0x040);   /* B */
    load(c, 0x080);   /* C */
    load(c, 0x0c0);   /* D */
    CHECK_EQ_INT(rd(c, 0x000, 0), CACHE_HIT);   /* A most recent: order B C D A */
    load(c, 0x100);                              /* E evicts B */
    CHECK_EQ_INT(cache_probe(c, 0x040), 0);
    CHECK_EQ_INT(cache_probe(c, 0x000), 1);
    CHECK_EQ_INT(rd(c, 0x080, 0), CACHE_HIT);   /* C refreshed: D A E C */
    load(c, 0x140);                              /* F evicts D */
    CHECK_EQ_INT(cache_probe(c, 0x0c0), 0);
    load(c, 0x180);                              /* G evicts A */
    CHECK_EQ_INT(cache_probe(c, 0x000), 0);
    CHECK_EQ_INT(cache_probe(c, 0x080), 1);
    CHECK_EQ_INT(cache_probe(c, 0x100), 1);
    CHECK_EQ_INT(cache_probe(c, 0x140), 1);
    CHECK_EQ_INT(cache_probe(c, 0x180), 1);
    CHECK_EQ_U64(cache_stats(c)->evictions, 3);
    arena_free(a);
}

static void fifo_pattern(struct cache *c)
{
    load(c, 0x000);   /* A */
    load(c, 0x040);   /* B */
    load(c, 0x080);   /* C */
    load(c, 0x0c0);   /* D */
    CHECK_EQ_INT(rd(c, 0x000, 0), CACHE_HIT);   /* a hit does not save A */
    load(c, 0x100);                              /* E evicts A */
    CHECK_EQ_INT(cache_probe(c, 0x000), 0);
    CHECK_EQ_INT(cache_probe(c, 0x040), 1);
    CHECK_EQ_INT(rd(c, 0x040, 0), CACHE_HIT);
    load(c, 0x140);                              /* F evicts B */
    CHECK_EQ_INT(cache_probe(c, 0x040), 0);
    CHECK_EQ_INT(cache_probe(c, 0x080), 1);
}

TEST(cache_fifo_victim_order)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:4,F:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    fifo_pattern(c);
    arena_free(a);
}

TEST(cache_set_repl_switches_policy)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:4,L:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    cache_set_repl(c, &repl_fifo_ops);
    fifo_pattern(c);
    arena_free(a);
}

/* a policy that never allocates */
static size_t byp_size(uint32_t s, uint32_t w) { (void)s, (void)w; return 1; }
static void byp_init(void *st, uint32_t s, uint32_t w) { (void)st, (void)s, (void)w; }
static int byp_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now)
{
    (void)st, (void)v, (void)pc, (void)addr, (void)now;
    return REPL_BYPASS;
}
static void byp_touch(void *st, uint32_t s, uint32_t w, uint32_t pc, sim_cycle now)
{
    (void)st, (void)s, (void)w, (void)pc, (void)now;
}
static const struct repl_ops byp_ops = {.name = "bypass-all", .doc = "test", .state_size = byp_size,
                                        .init = byp_init, .victim = byp_victim, .on_hit = byp_touch,
                                        .on_fill = byp_touch, .on_evict = NULL};

TEST(cache_policy_bypass)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:4,L:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    cache_set_repl(c, &byp_ops);
    CHECK_EQ_INT(rd(c, 0x000, 1), CACHE_MISS_NO_ALLOC);
    CHECK_EQ_INT(cache_mshr_used(c), 0);
    CHECK_EQ_INT(cache_probe(c, 0x000), 0);
    CHECK_EQ_U64(cache_stats(c)->bypasses, 1);
    CHECK_EQ_U64(cache_stats(c)->read_misses, 1);
    /* allocate on fill: the MSHR tracks the miss, the fill does not allocate */
    struct cache *f = mk(a, "1:64:4,L:B:f:N:L,A:8:4,4");
    REQUIRE(f);
    cache_set_repl(f, &byp_ops);
    CHECK_EQ_INT(rd(f, 0x000, 1), CACHE_MISS);
    CHECK_EQ_INT(rd(f, 0x004, 2), CACHE_HIT_RESERVED);
    uint64_t w[4], wb;
    CHECK_EQ_INT(cache_fill(f, 0x000, 0, w, 4, &wb), 2);
    CHECK_EQ_INT(cache_probe(f, 0x000), 0);
    CHECK_EQ_U64(cache_stats(f)->bypasses, 1);
    arena_free(a);
}

/* ---- write policies ---- */

TEST(cache_write_back_dirty_eviction)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "2:128:2,L:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0;
    CHECK_EQ_U64(load(c, 0x1100), NONE);                                   /* set 0 */
    CHECK_EQ_INT(cache_access(c, 0x1144, true, 0, 0, 0, &wb, NULL), CACHE_HIT);   /* dirty, nothing sent */
    CHECK_EQ_U64(wb, NONE);
    CHECK_EQ_U64(load(c, 0x2100), NONE);
    CHECK_EQ_U64(load(c, 0x3100), 0x1100);   /* LRU victim is the dirty line: its block address */
    CHECK_EQ_U64(load(c, 0x4100), NONE);     /* 0x2100 was clean */
    const struct cache_stats *s = cache_stats(c);
    CHECK_EQ_U64(s->evictions, 2);
    CHECK_EQ_U64(s->dirty_evictions, 1);
    CHECK_EQ_U64(s->writes, 1);
    CHECK_EQ_U64(s->hits, 1);
    arena_free(a);
}

TEST(cache_write_through_never_dirty)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:T:m:W:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0;
    load(c, 0x000);
    CHECK_EQ_INT(cache_access(c, 0x010, true, 0, 0, 0, &wb, NULL), CACHE_HIT);   /* present, updated */
    CHECK_EQ_INT(cache_probe(c, 0x000), 1);
    /* a miss allocates nothing even with W: the write just goes below */
    CHECK_EQ_INT(cache_access(c, 0x400, true, 0, 0, 0, &wb, NULL), CACHE_MISS_NO_ALLOC);
    CHECK_EQ_INT(cache_probe(c, 0x400), 0);
    CHECK_EQ_INT(cache_mshr_used(c), 0);
    load(c, 0x040);
    CHECK_EQ_U64(load(c, 0x080), NONE);   /* evicts the written line: nothing to write back */
    CHECK_EQ_INT(cache_probe(c, 0x000), 0);
    CHECK_EQ_U64(cache_stats(c)->dirty_evictions, 0);
    CHECK_EQ_U64(cache_stats(c)->write_misses, 1);
    arena_free(a);
}

TEST(cache_write_evict_invalidates)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:E:m:N:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0;
    load(c, 0x000);
    CHECK_EQ_INT(cache_access(c, 0x008, true, 0, 0, 0, &wb, NULL), CACHE_HIT);
    CHECK_EQ_U64(wb, NONE);
    CHECK_EQ_INT(cache_probe(c, 0x000), 0);
    CHECK_EQ_INT(cache_access(c, 0x008, true, 0, 0, 0, &wb, NULL), CACHE_MISS_NO_ALLOC);
    CHECK_EQ_INT(rd(c, 0x000, 0), CACHE_MISS);
    CHECK_EQ_U64(cache_stats(c)->evictions, 0);
    arena_free(a);
}

TEST(cache_write_miss_no_allocate)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0;
    CHECK_EQ_INT(cache_access(c, 0x200, true, 0, 0, 0, &wb, NULL), CACHE_MISS_NO_ALLOC);
    CHECK_EQ_INT(cache_probe(c, 0x200), 0);
    CHECK_EQ_INT(cache_mshr_used(c), 0);
    /* a write to a pending line without write-allocate also goes below */
    CHECK_EQ_INT(rd(c, 0x300, 1), CACHE_MISS);
    CHECK_EQ_INT(cache_access(c, 0x300, true, 0, 2, 0, &wb, NULL), CACHE_MISS_NO_ALLOC);
    uint64_t w[4];
    CHECK_EQ_INT(cache_fill(c, 0x300, 0, w, 4, &wb), 1);
    const struct cache_stats *s = cache_stats(c);
    CHECK_EQ_U64(s->write_misses, 2);
    CHECK_EQ_U64(s->writes, 2);
    CHECK_EQ_U64(s->misses, 3);
    arena_free(a);
}

TEST(cache_write_allocate_fetch)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:B:m:W:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0, w[4];
    CHECK_EQ_INT(cache_access(c, 0x200, true, 0, 5, 0, &wb, NULL), CACHE_MISS);   /* fetch the line */
    CHECK_EQ_INT(rd(c, 0x204, 6), CACHE_HIT_RESERVED);
    CHECK_EQ_INT(cache_fill(c, 0x200, 0, w, 4, &wb), 2);
    CHECK_EQ_U64(w[0], 5);
    CHECK_EQ_U64(w[1], 6);
    load(c, 0x000);
    CHECK_EQ_U64(load(c, 0x040), 0x200);   /* the written line is dirty after its fill */
    /* a write merging into a pending read makes the line dirty too */
    CHECK_EQ_INT(rd(c, 0x400, 7), CACHE_MISS);
    CHECK_EQ_INT(cache_access(c, 0x408, true, 0, 8, 0, &wb, NULL), CACHE_HIT_RESERVED);
    cache_fill(c, 0x400, 0, w, 4, &wb);
    load(c, 0x800);
    CHECK_EQ_U64(load(c, 0xc00), 0x400);
    arena_free(a);
}

TEST(cache_write_lazy_fetch)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:B:m:L:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0;
    CHECK_EQ_INT(cache_access(c, 0x200, true, 0, 5, 0, &wb, NULL), CACHE_HIT);   /* installed, nothing sent */
    CHECK_EQ_INT(cache_probe(c, 0x200), 1);
    CHECK_EQ_INT(cache_mshr_used(c), 0);
    CHECK_EQ_U64(cache_stats(c)->write_misses, 1);
    load(c, 0x000);
    CHECK_EQ_U64(load(c, 0x040), 0x200);
    arena_free(a);
}

TEST(cache_fermi_local_write_back_global_write_through)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:128:2,L:L:m:N:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0;
    load(c, 0x000);
    load(c, 0x080);
    /* global write hit: write-through, line stays clean */
    CHECK_EQ_INT(cache_access_ex(c, 0x000, true, false, 0, 0, 0, &wb, NULL), CACHE_HIT);
    /* local write hit: write-back, line dirty */
    CHECK_EQ_INT(cache_access_ex(c, 0x080, true, true, 0, 0, 0, &wb, NULL), CACHE_HIT);
    /* global write miss: no allocation */
    CHECK_EQ_INT(cache_access_ex(c, 0x800, true, false, 0, 0, 0, &wb, NULL), CACHE_MISS_NO_ALLOC);
    CHECK_EQ_U64(load(c, 0x100), NONE);   /* evicts 0x000 (LRU), clean */
    CHECK_EQ_U64(load(c, 0x180), 0x080);  /* evicts the local line, dirty */
    arena_free(a);
}

/* ---- allocation on fill ---- */

TEST(cache_allocate_on_fill_victim_at_fill)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:B:f:N:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0, w[4];
    load(c, 0x000);   /* A */
    load(c, 0x040);   /* B */
    CHECK_EQ_INT(cache_access(c, 0x040, true, 0, 0, 0, &wb, NULL), CACHE_HIT);   /* B dirty, B MRU */
    CHECK_EQ_INT(rd(c, 0x080, 1), CACHE_MISS);   /* C: nothing evicted yet */
    CHECK_EQ_U64(cache_stats(c)->evictions, 0);
    CHECK_EQ_INT(cache_probe(c, 0x000), 1);
    CHECK_EQ_INT(cache_probe(c, 0x040), 1);
    CHECK_EQ_INT(rd(c, 0x084, 2), CACHE_HIT_RESERVED);   /* merges through the MSHR alone */
    CHECK_EQ_INT(rd(c, 0x000, 3), CACHE_HIT);            /* A MRU now: B becomes LRU */
    CHECK_EQ_INT(cache_fill(c, 0x080, 0, w, 4, &wb), 2);
    CHECK_EQ_U64(wb, 0x040);                             /* B, dirty, chosen at fill time */
    CHECK_EQ_INT(cache_probe(c, 0x040), 0);
    CHECK_EQ_INT(cache_probe(c, 0x000), 1);
    CHECK_EQ_INT(cache_probe(c, 0x080), 1);
    /* with allocation on miss the victim would have been A (LRU at miss time) */
    struct cache *m = mk(a, "1:64:2,L:B:m:N:L,A:8:4,4");
    REQUIRE(m);
    load(m, 0x000);
    load(m, 0x040);
    CHECK_EQ_INT(rd(m, 0x080, 1), CACHE_MISS);
    CHECK_EQ_INT(cache_probe(m, 0x000), 0);
    CHECK_EQ_INT(rd(m, 0x040, 3), CACHE_HIT);
    arena_free(a);
}

TEST(cache_streaming_mshr_per_line)
{
    struct arena *a = arena_new(0);
    /* 1 configured MSHR entry, but 4 lines: streaming takes 4 misses */
    struct cache *c = mk(a, "2:64:2,L:B:s:N:L,A:1:2,4");
    REQUIRE(c);
    CHECK_EQ_INT(rd(c, 0x000, 1), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x040, 2), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x080, 3), CACHE_MISS);
    CHECK_EQ_INT(rd(c, 0x0c0, 4), CACHE_MISS);
    enum cache_fail f;
    uint64_t wb, w[2];
    CHECK_EQ_INT(cache_access(c, 0x100, false, 0, 5, 0, &wb, &f), CACHE_RESERVATION_FAIL);
    CHECK_EQ_INT(f, CF_MSHR_FULL);
    CHECK_EQ_INT(cache_fill(c, 0x080, 0, w, 2, &wb), 1);
    CHECK_EQ_U64(w[0], 3);
    CHECK_EQ_INT(cache_probe(c, 0x080), 1);
    arena_free(a);
}

/* ---- index functions ---- */

/* Touch n blocks at `stride` twice over; return the hits of the second pass. */
static uint64_t strided_hits(const char *s, unsigned n, uint64_t stride)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, s);
    if (!c) {
        arena_free(a);
        return UINT64_MAX;
    }
    for (unsigned i = 0; i < n; i++)
        load(c, 0x10000000 + i * stride);
    uint64_t h0 = cache_stats(c)->hits;
    for (unsigned i = 0; i < n; i++) {
        uint64_t wb;
        if (cache_access(c, 0x10000000 + i * stride, false, 0, 0, 0, &wb, NULL) == CACHE_MISS) {
            uint64_t w[2];
            cache_fill(c, 0x10000000 + i * stride, 0, w, 2, &wb);
        }
    }
    uint64_t h = cache_stats(c)->hits - h0;
    arena_free(a);
    return h;
}

TEST(cache_hash_spreads_strided)
{
    /* Fermi L1D geometry: a 4 KiB stride (32 sets x 128 B) maps every block to one set under linear indexing */
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:L,A:32:8,8", 16, 4096), 0);
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:H,A:32:8,8", 16, 4096), 16);
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:P,A:32:8,8", 16, 4096), 16);
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:X,A:32:8,8", 16, 4096), 16);
    /* 128 blocks (the capacity) at stride 4 KiB: linear keeps 4, hashes keep every one */
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:L,A:32:8,8", 128, 4096), 0);
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:H,A:32:8,8", 128, 4096), 128);
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:P,A:32:8,8", 128, 4096), 128);
    /* sequential lines fill every set once under every function */
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:L,A:32:8,8", 128, 128), 128);
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:H,A:32:8,8", 128, 128), 128);
    CHECK_EQ_U64(strided_hits("32:128:4,L:B:m:N:P,A:32:8,8", 128, 128), 128);
    /* a non-power-of-two number of sets (linear) */
    CHECK_EQ_U64(strided_hits("48:64:1,L:B:m:N:L,A:8:8,8", 48, 64), 48);
    CHECK_EQ_U64(strided_hits("48:64:1,L:B:m:N:L,A:8:8,8", 2, 48 * 64), 0);
}

TEST(cache_fermi_hash_folds_every_group)
{
    /* H: the set is the XOR of every set_bits-bit group of the block number, for any number of
       sets (a power of two) and any address, up to the top bits of 64-bit addresses */
    const char *geo[] = {"2:128:4,L:B:m:N:H,A:8:8,8",   "32:128:4,L:B:m:N:H,A:8:8,8",
                         "64:128:16,L:B:m:N:H,A:8:8,8", "128:64:2,L:B:m:N:H,A:8:8,8",
                         "4096:32:1,L:B:m:N:H,A:8:8,8", "1:128:4,L:B:m:N:H,A:8:8,8"};
    struct arena *a = arena_new(0);
    for (unsigned g = 0; g < sizeof geo / sizeof geo[0]; g++) {
        struct cache *c = mk(a, geo[g]);
        REQUIRE(c);
        const struct cache_config *cfg = cache_cfg(c);
        unsigned bits = 0, line = 0;
        while ((1u << bits) < cfg->nsets)
            bits++;
        while ((1u << line) < cfg->line_size)
            line++;
        uint64_t x = 0x9e3779b97f4a7c15ull;
        for (unsigned i = 0; i < 2000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint64_t addr = i < 64 ? 1ull << i : i < 128 ? ~0ull >> (i - 64) : x;
            uint64_t want = 0;
            for (uint64_t bn = addr >> line; bits && bn; bn >>= bits)
                want ^= bn & ((1ull << bits) - 1);
            if (cache_set_of(c, addr) != want) {
                fprintf(stderr, "  %s: address 0x%" PRIx64 " -> set %u, want %" PRIu64 "\n", geo[g], addr,
                        cache_set_of(c, addr), want);
                CHECK(0);
                break;
            }
        }
    }
    arena_free(a);
}

/* ---- invalidation, stats ---- */

TEST(cache_invalidate_all)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "4:64:2,L:B:m:N:L,A:8:4,4");
    REQUIRE(c);
    uint64_t wb = 0, w[4];
    load(c, 0x000);
    load(c, 0x040);
    CHECK_EQ_INT(cache_access(c, 0x040, true, 0, 0, 0, &wb, NULL), CACHE_HIT);
    CHECK_EQ_INT(rd(c, 0x080, 9), CACHE_MISS);   /* in flight across the invalidation */
    cache_invalidate_all(c);
    CHECK_EQ_INT(cache_probe(c, 0x000), 0);
    CHECK_EQ_INT(cache_probe(c, 0x040), 0);
    CHECK_EQ_INT(cache_mshr_used(c), 1);
    CHECK_EQ_INT(cache_fill(c, 0x080, 0, w, 4, &wb), 1);
    CHECK_EQ_U64(w[0], 9);
    CHECK_EQ_INT(cache_probe(c, 0x080), 1);
    CHECK_EQ_INT(rd(c, 0x000, 0), CACHE_MISS);
    CHECK_EQ_U64(cache_stats(c)->dirty_evictions, 0);   /* dropped, not written back */
    arena_free(a);
}

TEST(cache_stats_counts_and_names)
{
    struct arena *a = arena_new(0);
    struct cache *c = mk(a, "1:64:2,L:B:m:N:L,A:1:1,4");
    REQUIRE(c);
    struct stats st;
    stats_init(&st, a);
    cache_reg_stats(c, &st, "sm3.l1d");
    CHECK_EQ_INT(st.n, 24);
    CHECK_EQ_STR(st.e[0].name, "sm3.l1d.accesses");
    CHECK_EQ_STR(st.e[15].name, "sm3.l1d.bypasses");
    CHECK_EQ_STR(st.e[16].name, "sm3.l1d.bypassed");
    CHECK_EQ_STR(st.e[17].name, "sm3.l1d.evicted_never_reused");
    CHECK_EQ_STR(st.e[18].name, "sm3.l1d.crit_accesses");
    CHECK_EQ_STR(st.e[23].name, "sm3.l1d.nc_part_hits");
    uint64_t wb, w[2];
    rd(c, 0x000, 1);                                     /* read miss */
    rd(c, 0x000, 2);                                     /* merge full: fail */
    rd(c, 0x040, 3);                                     /* MSHR full: fail */
    cache_fill(c, 0x000, 0, w, 2, &wb);
    rd(c, 0x000, 4);                                     /* hit */
    cache_access(c, 0x000, true, 0, 0, 0, &wb, NULL);    /* write hit */
    cache_access(c, 0x100, true, 0, 0, 0, &wb, NULL);    /* write miss, no allocate */
    load(c, 0x040);                                      /* read miss */
    load(c, 0x080);                                      /* read miss, evicts dirty 0x000 */
    const struct cache_stats *s = cache_stats(c);
    CHECK_EQ_U64(s->accesses, 6);
    CHECK_EQ_U64(s->hits, 2);
    CHECK_EQ_U64(s->hit_reserved, 0);
    CHECK_EQ_U64(s->misses, 4);
    CHECK_EQ_U64(s->res_fail, 2);
    CHECK_EQ_U64(s->res_fail_mshr, 1);
    CHECK_EQ_U64(s->res_fail_merge, 1);
    CHECK_EQ_U64(s->res_fail_line, 0);
    CHECK_EQ_U64(s->reads, 4);
    CHECK_EQ_U64(s->writes, 2);
    CHECK_EQ_U64(s->read_misses, 3);
    CHECK_EQ_U64(s->write_misses, 1);
    CHECK_EQ_U64(s->evictions, 1);
    CHECK_EQ_U64(s->dirty_evictions, 1);
    CHECK_EQ_U64(s->fills, 3);
    CHECK_EQ_U64(s->bypasses, 0);
    CHECK_EQ_U64(s->bypassed, 0);
    CHECK_EQ_U64(s->evicted_never_reused, 0);   /* 0x000 was hit before it left */
    CHECK_EQ_U64(stats_sum(&st, "sm3", ".l1d.misses"), 4);
    CHECK_EQ_U64(stats_sum(&st, "sm3", ".l1d.res_fail_merge"), 1);
    arena_free(a);
}

TEST(repl_policies_direct)
{
    /* the ops on their own: invalid ways first, reserved ways never, -2 when all reserved */
    const struct repl_ops *ops[2] = {&repl_lru_ops, &repl_fifo_ops};
    for (int k = 0; k < 2; k++) {
        const struct repl_ops *o = ops[k];
        uint64_t buf[64];
        REQUIRE(o->state_size(2, 4) <= sizeof buf);
        o->init(buf, 2, 4);
        uint8_t valid[4] = {1, 1, 0, 1}, resv[4] = {0, 0, 0, 0};
        struct repl_set_view v = {1, 4, valid, resv};
        CHECK_EQ_INT(o->victim(buf, &v, 0, 0, 0), 2);
        valid[2] = 1;
        o->on_fill(buf, 1, 3, 0, 0);
        o->on_fill(buf, 1, 0, 0, 0);
        o->on_fill(buf, 1, 1, 0, 0);
        o->on_fill(buf, 1, 2, 0, 0);
        o->on_hit(buf, 1, 3, 0, 0);
        /* LRU: 0 oldest (3 was touched again); FIFO: 3 first in */
        CHECK_EQ_INT(o->victim(buf, &v, 0, 0, 0), k == 0 ? 0 : 3);
        resv[0] = resv[3] = 1;
        CHECK_EQ_INT(o->victim(buf, &v, 0, 0, 0), 1);
        resv[1] = resv[2] = 1;
        CHECK_EQ_INT(o->victim(buf, &v, 0, 0, 0), -2);
        /* set 0 is untouched by set 1's history */
        uint8_t v0[4] = {1, 1, 1, 1}, r0[4] = {0, 0, 0, 0};
        struct repl_set_view s0 = {0, 4, v0, r0};
        CHECK_EQ_INT(o->victim(buf, &s0, 0, 0, 0), 0);
    }
}

TEST_MAIN()
