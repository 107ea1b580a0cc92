/*
 * test_warp_policies.c - the two_level, swl and CAWS warp schedulers and the
 * CAWS oracle: each policy against hand-made views (two-level promotion and
 * demotion, the SWL window, CAWS counters after a scripted issue sequence and
 * each variant's classification), the oracle file parser including malformed
 * files, a conformance sweep over random views, and real runs through the
 * host API (the SWL window on a real SM, an lrr oracle driving CAWS, the
 * error without an oracle, the policies' time-series columns).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "wl_fixture.h"
#include "host/ws_internal.h"
#include "policy/oracle.h"
#include "policy/params.h"
#include "policy/warp_sched.h"
#include "policy/warp_sched/caws.h"
#include "sys/gpu.h"
#include "workload.h"

/* ---- helpers ------------------------------------------------------------------------------- */

/* n views of one scheduler: slots 0, 2, 4, ... (scheduler 0 of two), ages 0, 1, 2, ...,
   all valid, CTA 0, warp_in_cta = index */
static void views(struct warp_view *v, int n)
{
    memset(v, 0, sizeof *v * (size_t)n);
    for (int i = 0; i < n; i++) {
        v[i].slot = (uint16_t)(2 * i);
        v[i].valid = 1;
        v[i].age = (uint64_t)i;
        v[i].warp_in_cta = (uint16_t)i;
        v[i].age_rank = (uint16_t)i;
    }
}

static void *policy_new(const char *name, const struct warp_sched_ops **ops)
{
    *ops = warp_sched_find(name);
    return *ops ? calloc(1, (*ops)->state_size) : NULL;
}

/* a temporary file with the given text; path in buf */
static int tmp_file(char *buf, size_t n, const char *text)
{
    snprintf(buf, n, "/tmp/ws_test_wp_XXXXXX");
    int fd = mkstemp(buf);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    int ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    return ok ? 0 : -1;
}

#define HDR "kernel_id,kernel,sm,cta,warp,start,end,cycles,insns,scheduling\n"

/* ---- two_level ------------------------------------------------------------------------------ */

TEST(two_level_promotion_and_demotion_sequence)
{
    const struct warp_sched_ops *o;
    void *st = policy_new("two_level", &o);
    REQUIRE(st != NULL);
    CHECK(o->needs_ready);   /* it reads ready / waiting_miss / at_barrier of every warp */
    CHECK_EQ_STR(o->sample_name, "active_warps");
    struct sm_view sv = {0};
    ((unsigned *)st)[0] = 2;   /* active_size is the state's first field; params are applied before init */
    REQUIRE(o->init(st, &sv) == 0);
    struct warp_view w[4];
    views(w, 4);
    int ord[8];
    /* 1: nobody ready yet (waiting for the first fetch): the two oldest fill the group */
    int k = o->order(st, w, 4, ord, 1);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(ord[0], 0);
    CHECK_EQ_INT(ord[1], 1);
    CHECK_NEAR(o->sample(st), 2.0, 0);
    /* 2: warp 0 waits for a missed load: demoted; the oldest READY pending warp (2, not 3) promoted */
    w[0].waiting_miss = 1;
    w[0].waiting_mem = 1;
    w[2].ready = w[3].ready = 1;
    k = o->order(st, w, 4, ord, 2);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(ord[0], 1);
    CHECK_EQ_INT(ord[1], 2);
    /* a hit-or-shared-memory wait (waiting_mem without a miss) is not a long stall */
    w[1].waiting_mem = 1;
    k = o->order(st, w, 4, ord, 3);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(ord[0], 1);
    w[1].waiting_mem = 0;
    /* 3: round robin inside the group: after warp 1 (slot 2) issued, warp 2 comes first;
       the same views give the same order again (no hidden drift) */
    o->on_issue(st, &w[1], NULL, 4);
    k = o->order(st, w, 4, ord, 5);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(ord[0], 2);
    CHECK_EQ_INT(ord[1], 1);
    k = o->order(st, w, 4, ord, 6);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(ord[0], 2);
    CHECK_EQ_INT(ord[1], 1);
    /* 4: warp 0's load is back (ready), warp 1 waits at a barrier: 1 demoted, 0 (older than 3) promoted */
    w[0].waiting_miss = w[0].waiting_mem = 0;
    w[0].ready = 1;
    w[1].at_barrier = 1;
    k = o->order(st, w, 4, ord, 7);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(ord[0], 2);   /* still after slot 2 */
    CHECK_EQ_INT(ord[1], 0);
    /* 5: warp 0 exits: 3 (ready) fills the place, 1 (barrier) stays pending */
    w[0].valid = 0;
    k = o->order(st, w, 4, ord, 8);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(ord[0], 2);
    CHECK_EQ_INT(ord[1], 3);
    /* 6: a new warp in view 0 starts pending even though it is ready */
    w[0].valid = 1;
    w[0].age = 10;
    k = o->order(st, w, 4, ord, 9);
    CHECK_EQ_INT(k, 2);
    CHECK(ord[0] != 0 && ord[1] != 0);
    CHECK_NEAR(o->sample(st), 2.0, 0);
    free(st);
}

TEST(two_level_promotes_unpaused_ctas_first_and_never_long_stalled_warps)
{
    const struct warp_sched_ops *o;
    void *st = policy_new("two_level", &o);
    REQUIRE(st != NULL);
    struct sm_view sv = {0};
    ((unsigned *)st)[0] = 1;
    REQUIRE(o->init(st, &sv) == 0);
    struct warp_view w[4];
    views(w, 4);
    w[0].waiting_miss = 1;                  /* long stall: never promoted */
    w[1].ready = 1;
    w[1].cta_paused = 1;                    /* ready but paused (DYNCTA) */
    w[2].ready = 0;                         /* short stall */
    w[3].ready = 1;                         /* ready, unpaused, youngest */
    int ord[8];
    int k = o->order(st, w, 4, ord, 1);
    CHECK_EQ_INT(k, 1);
    CHECK_EQ_INT(ord[0], 3);
    /* every warp long-stalled: the group empties and nothing is visited */
    for (int i = 0; i < 4; i++) {
        w[i].ready = 0;
        w[i].waiting_miss = 1;
    }
    k = o->order(st, w, 4, ord, 2);
    CHECK_EQ_INT(k, 0);
    CHECK_NEAR(o->sample(st), 0.0, 0);
    /* the loads return: the oldest ready warp is promoted */
    w[2].waiting_miss = 0;
    w[2].ready = 1;
    w[1].waiting_miss = 0;
    w[1].ready = 0;
    k = o->order(st, w, 4, ord, 3);
    CHECK_EQ_INT(k, 1);
    CHECK_EQ_INT(ord[0], 2);
    free(st);
}

/* ---- swl ----------------------------------------------------------------------------------- */

TEST(swl_window_greedy_then_oldest)
{
    const struct warp_sched_ops *o;
    void *st = policy_new("swl", &o);
    REQUIRE(st != NULL);
    CHECK(o->needs_rank);
    struct sm_view sv = {0};
    ((unsigned *)st)[0] = 3;   /* limit */
    REQUIRE(o->init(st, &sv) == 0);
    struct warp_view w[6];
    views(w, 6);
    /* ages in reverse of view order: age order is 5, 4, 3, ...; ranks follow age */
    for (int i = 0; i < 6; i++) {
        w[i].age = (uint64_t)(10 - i);
        w[i].age_rank = (uint16_t)(5 - i);
    }
    int ord[8];
    int k = o->order(st, w, 6, ord, 1);
    CHECK_EQ_INT(k, 3);
    CHECK_EQ_INT(ord[0], 5);
    CHECK_EQ_INT(ord[1], 4);
    CHECK_EQ_INT(ord[2], 3);
    CHECK_NEAR(o->sample(st), 3.0, 0);
    /* greedy: the last issued warp first while it is inside the window */
    o->on_issue(st, &w[3], NULL, 1);
    k = o->order(st, w, 6, ord, 2);
    CHECK_EQ_INT(k, 3);
    CHECK_EQ_INT(ord[0], 3);
    CHECK_EQ_INT(ord[1], 5);
    CHECK_EQ_INT(ord[2], 4);
    /* the oldest warp exits: the window moves on to the next one (rank 3 -> 2) */
    w[5].valid = 0;
    for (int i = 0; i < 5; i++)
        w[i].age_rank = (uint16_t)(4 - i);
    k = o->order(st, w, 6, ord, 3);
    CHECK_EQ_INT(k, 3);
    CHECK_EQ_INT(ord[0], 3);
    CHECK_EQ_INT(ord[1], 4);
    CHECK_EQ_INT(ord[2], 2);
    /* the greedy warp leaves the window: no longer visited */
    w[3].age_rank = 3;
    k = o->order(st, w, 6, ord, 4);
    for (int i = 0; i < k; i++)
        CHECK(ord[i] != 3);
    free(st);
}

TEST(swl_never_visits_a_warp_beyond_the_limit)
{
    const struct warp_sched_ops *o;
    void *st = policy_new("swl", &o);
    REQUIRE(st != NULL);
    struct sm_view sv = {0};
    unsigned seed = 12345;
    for (int trial = 0; trial < 500; trial++) {
        unsigned limit = 1 + (unsigned)(trial % 7);
        memset(st, 0, o->state_size);
        ((unsigned *)st)[0] = limit;
        REQUIRE(o->init(st, &sv) == 0);
        struct warp_view w[24];
        views(w, 24);
        int n = 1 + trial % 24;
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            w[i].valid = (seed >> 16) % 4 != 0;
            w[i].age_rank = (uint16_t)((seed >> 8) % 12);
            w[i].age = (seed >> 4) % 100;
        }
        for (int rep = 0; rep < 3; rep++) {
            int ord[24];
            int k = o->order(st, w, n, ord, (sim_cycle)rep);
            int expect = 0;
            for (int i = 0; i < n; i++)
                expect += w[i].valid && w[i].age_rank < limit;
            CHECK_EQ_INT(k, expect);
            uint64_t seen = 0;
            for (int i = 0; i < k; i++) {
                REQUIRE(ord[i] >= 0 && ord[i] < n);
                CHECK(w[ord[i]].valid && w[ord[i]].age_rank < limit);
                CHECK(!(seen & (1ull << ord[i])));
                seen |= 1ull << ord[i];
            }
            if (k)
                o->on_issue(st, &w[ord[k - 1]], NULL, (sim_cycle)rep);
        }
    }
    free(st);
}

/* ---- the oracle ---------------------------------------------------------------------------- */

TEST(oracle_parses_per_warp_files)
{
    char path[64];
    /* columns reordered and extra ones: found by name; kernel 2 filtered out */
    REQUIRE(tmp_file(path, sizeof path,
                     "x,end,warp,kernel_id,cta,start,extra\n"
                     "a,150,1,1,7,50,z\n"
                     "a,130,0,1,7,50,z\n"
                     "a,900,0,2,7,0,z\n"
                     "a,40,3,1,2,10,z\n"
                     "\n") == 0);
    struct oracle o;
    char msg[512] = "";
    REQUIRE(oracle_load(&o, path, 1, msg, sizeof msg) == 0);
    CHECK_EQ_INT(o.n, 3);
    CHECK_EQ_INT(oracle_time(&o, 1, 7, 1), 100);
    CHECK_EQ_INT(oracle_time(&o, 1, 7, 0), 80);
    CHECK_EQ_INT(oracle_time(&o, 1, 2, 3), 30);
    CHECK_EQ_INT(oracle_time(&o, 1, 7, 2), -1);
    CHECK_EQ_INT(oracle_time(&o, 2, 7, 0), -1);   /* filtered */
    size_t cnt = 0, first = oracle_cta(&o, 1, 7, &cnt);
    CHECK_EQ_INT(cnt, 2);
    CHECK_EQ_INT(o.w[first].warp, 0);
    CHECK_EQ_INT(o.w[first + 1].warp, 1);
    (void)oracle_cta(&o, 1, 3, &cnt);
    CHECK_EQ_INT(cnt, 0);
    CHECK_EQ_INT(oracle_kernel_count(&o, 1), 3);
    oracle_free(&o);
    /* every kernel */
    REQUIRE(oracle_load(&o, path, 0, msg, sizeof msg) == 0);
    CHECK_EQ_INT(o.n, 4);
    CHECK_EQ_INT(oracle_time(&o, 2, 7, 0), 900);
    oracle_free(&o);
    unlink(path);
}

/* Load text as an oracle; expect failure with a message containing want (":LINE:" form). */
static void oracle_bad(const char *text, const char *want)
{
    char path[64];
    REQUIRE(tmp_file(path, sizeof path, text) == 0);
    struct oracle o;
    char msg[512] = "";
    CHECK(oracle_load(&o, path, 0, msg, sizeof msg) != 0);
    CHECK(o.n == 0 && o.w == NULL);
    CHECK(strncmp(msg, path, strlen(path)) == 0);
    if (!strstr(msg, want))
        T_FAIL_("message '%s' lacks '%s'", msg, want);
    unlink(path);
}

TEST(oracle_rejects_malformed_files_with_file_and_line)
{
    oracle_bad(HDR "1,k,0,0,0,0,10,10,5,1\n1,k,0,0,1,0,10\n", ":3: 7 fields, the header has 10");
    oracle_bad(HDR "1,k,0,0,0,0,1x0,10,5,1\n", ":2: column 'end': expected an unsigned integer, got '1x0'");
    oracle_bad(HDR "1,k,0,0,0,0,-4,10,5,1\n", ":2: column 'end'");
    oracle_bad(HDR "1,k,0,0,0,50,10,10,5,1\n", ":2: end is before start");
    oracle_bad(HDR "0,k,0,0,0,0,10,10,5,1\n", ":2: kernel_id or warp out of range");
    oracle_bad(HDR "1,k,0,3,0,0,10,10,5,1\n1,k,0,4,0,0,10,10,5,1\n1,k,0,3,0,0,12,12,5,1\n",
               ":4: warp 0 of CTA 3 of kernel 1 is already at line 2");
    oracle_bad("kernel_id,kernel,sm,cta,start,end\n1,k,0,0,0,10\n", ":1: the header has no 'warp' column");
    oracle_bad("", "empty file");
    struct oracle o;
    char msg[512] = "";
    CHECK(oracle_load(&o, "/nonexistent/dir/w.csv", 0, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "/nonexistent/dir/w.csv: cannot read the oracle file (no such file)") == msg);
    CHECK(strstr(msg, "--warp-sched lrr --warps") != NULL);
}

/* ---- CAWS ----------------------------------------------------------------------------------- */

/* a CAWS policy on the oracle text; boost/threshold/slowdown at their defaults */
static struct caws_state *caws_open(const char *name, const char *oracle_text, char *path, size_t pn,
                                    const struct warp_sched_ops **o, int *rc, char *err, size_t en)
{
    struct caws_state *s = policy_new(name, o);
    if (!s || tmp_file(path, pn, oracle_text) != 0) {
        free(s);
        return NULL;
    }
    s->oracle = path;
    s->boost = 20;
    s->threshold = 20;
    s->slowdown = 20;
    struct sm_view sv = {0};
    sv.kernel_id = 1;
    sv.err = err;
    sv.err_len = en;
    *rc = (*o)->init(s, &sv);
    return s;
}

static void caws_close(const struct warp_sched_ops *o, struct caws_state *s, const char *path)
{
    o->fini(s);
    free(s);
    unlink(path);
}

TEST(caws_reset_values)
{
    struct caws_state s;
    memset(&s, 0, sizeof s);
    s.boost = 20;
    s.slowdown = 20;
    s.npool = 48;
    CHECK_EQ_INT(caws_reset_value(&s, CAWS_NORMAL), 47);   /* the baseline: every warp once per 48 issues */
    CHECK_EQ_INT(caws_reset_value(&s, CAWS_CRIT), 39);     /* once per 40: 20% more issue slots */
    CHECK_EQ_INT(caws_reset_value(&s, CAWS_FAST), 59);     /* once per 60: 20% fewer */
    s.npool = 4;
    CHECK_EQ_INT(caws_reset_value(&s, CAWS_NORMAL), 3);
    CHECK_EQ_INT(caws_reset_value(&s, CAWS_CRIT), 2);      /* round(4 / 1.2) - 1 */
    s.npool = 1;
    CHECK_EQ_INT(caws_reset_value(&s, CAWS_CRIT), 0);
}

/* 48 warps always ready, one critical: over 4800 issues it gets 116 turns, the others 99 or 100
   (the seed's "20% more": reset 39 instead of 47; the others' turns come a little later) */
TEST(caws_critical_warp_gets_more_issue_slots)
{
    char text[8192] = HDR;
    for (int i = 0; i < 48; i++) {
        size_t l = strlen(text);
        snprintf(text + l, sizeof text - l, "1,k,0,0,%d,0,%d,0,1,1\n", i, i == 47 ? 500 : 100);
    }
    char path[64], err[512] = "";
    const struct warp_sched_ops *o;
    int rc = -1, ord[64];
    struct caws_state *s = caws_open("caws_blk", text, path, sizeof path, &o, &rc, err, sizeof err);
    REQUIRE(s != NULL && rc == 0);
    struct warp_view w[48];
    views(w, 48);
    for (int i = 0; i < 48; i++)
        w[i].slot = (uint16_t)i;   /* one scheduler owning 48 slots (slots stay below 64 on an SM) */
    int got[48];
    memset(got, 0, sizeof got);
    for (sim_cycle t = 0; t < 4800; t++) {
        REQUIRE(o->order(s, w, 48, ord, t) == 48);
        got[ord[0]]++;
        o->on_issue(s, &w[ord[0]], NULL, t);
    }
    CHECK_EQ_INT(s->cls[47], CAWS_CRIT);
    CHECK_EQ_INT(got[47], 116);
    int lo = 4800, hi = 0;
    for (int i = 0; i < 47; i++) {
        lo = got[i] < lo ? got[i] : lo;
        hi = got[i] > hi ? got[i] : hi;
    }
    CHECK_EQ_INT(lo, 99);
    CHECK_EQ_INT(hi, 100);
    caws_close(o, s, path);
}

TEST(caws_counters_after_a_scripted_issue_sequence)
{
    char path[64], err[512] = "";
    const struct warp_sched_ops *o;
    int rc = -1;
    /* CTA 0: warp 3 is the slowest (critical for caws_blk) */
    struct caws_state *s = caws_open("caws_blk",
                                     HDR "1,k,0,0,0,0,100,100,1,1\n1,k,0,0,1,0,100,100,1,1\n"
                                         "1,k,0,0,2,0,100,100,1,1\n1,k,0,0,3,0,200,200,1,1\n",
                                     path, sizeof path, &o, &rc, err, sizeof err);
    REQUIRE(s != NULL);
    REQUIRE(rc == 0);
    struct warp_view w[4];
    views(w, 4);
    int ord[8];
    /* the kernel's first warps start at 0, 1, 2, 3 (seed: 0..47 for 48 warps) */
    int k = o->order(s, w, 4, ord, 0);
    CHECK_EQ_INT(k, 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_INT(ord[i], i);
        CHECK_EQ_INT(s->cnt[i], i);
    }
    CHECK_EQ_INT(s->cls[3], CAWS_CRIT);
    CHECK_EQ_INT(s->cls[0], CAWS_NORMAL);
    CHECK_NEAR(o->sample(s), 200.0, 0);
    /* issue 0, 1, 2, 3 in turn: the issued warp resets (3, or 2 when critical), the others count down */
    static const int32_t after[4][4] = {{3, 0, 1, 2}, {2, 3, 0, 1}, {1, 2, 3, 0}, {0, 1, 2, 2}};
    for (int t = 0; t < 4; t++) {
        k = o->order(s, w, 4, ord, (sim_cycle)(t + 1));
        CHECK_EQ_INT(ord[0], t);
        o->on_issue(s, &w[t], NULL, (sim_cycle)(t + 1));
        for (int i = 0; i < 4; i++)
            CHECK_EQ_INT(s->cnt[i], after[t][i]);
    }
    /* tie between warps 2 and 3 (both 2): the older first */
    k = o->order(s, w, 4, ord, 5);
    CHECK_EQ_INT(ord[0], 0);
    CHECK_EQ_INT(ord[1], 1);
    CHECK_EQ_INT(ord[2], 2);
    CHECK_EQ_INT(ord[3], 3);
    /* warp 0 is not ready so warp 2 issues: 0 goes below zero and keeps its place */
    o->on_issue(s, &w[2], NULL, 6);
    CHECK_EQ_INT(s->cnt[0], -1);
    CHECK_EQ_INT(s->cnt[1], 0);
    CHECK_EQ_INT(s->cnt[2], 3);
    CHECK_EQ_INT(s->cnt[3], 1);
    /* dual issue of warp 2 in the same cycle is the same selection */
    o->on_issue(s, &w[2], NULL, 6);
    CHECK_EQ_INT(s->cnt[0], -1);
    CHECK_EQ_INT(s->cnt[2], 3);
    /* a warp arriving later joins the end of the round */
    w[1].valid = 0;
    k = o->order(s, w, 4, ord, 200);
    CHECK_EQ_INT(k, 3);
    w[1].valid = 1;
    w[1].age = 20;
    w[1].cta_linear = 9;   /* unknown to the oracle: default priority */
    k = o->order(s, w, 4, ord, 201);
    CHECK_EQ_INT(k, 4);
    CHECK_EQ_INT(s->cnt[1], 3);   /* three warps were already in the pool */
    CHECK_EQ_INT(ord[3], 1);
    CHECK_EQ_INT(s->cls[1], CAWS_NORMAL);
    CHECK_EQ_INT(s->otime[1], -1);
    caws_close(o, s, path);
}

static const char *const sm_oracle = HDR "1,k,0,0,0,0,10,10,1,1\n1,k,0,0,1,0,50,50,1,1\n1,k,0,0,2,0,40,40,1,1\n"
                                         "1,k,1,1,0,0,45,45,1,1\n1,k,1,1,1,0,5,5,1,1\n1,k,1,1,2,0,50,50,1,1\n";

/* views: CTA 0 warps 0, 1, 2 and CTA 1 warps 0, 1 (CTA 1's warp 2 is on the other scheduler) */
static void sm_views(struct warp_view *w)
{
    views(w, 5);
    w[3].cta_linear = w[4].cta_linear = 1;
    w[3].warp_in_cta = 0;
    w[4].warp_in_cta = 1;
}

TEST(caws_blk_and_sm_classification)
{
    char path[64], err[512] = "";
    const struct warp_sched_ops *o;
    int rc = -1, ord[8];
    struct warp_view w[5];
    sm_views(w);
    /* blk: the slowest warp of each CTA; CTA 1's (warp 2) is not among these views */
    struct caws_state *s = caws_open("caws_blk", sm_oracle, path, sizeof path, &o, &rc, err, sizeof err);
    REQUIRE(s != NULL && rc == 0);
    (void)o->order(s, w, 5, ord, 0);
    static const int8_t blk[5] = {CAWS_NORMAL, CAWS_CRIT, CAWS_NORMAL, CAWS_NORMAL, CAWS_NORMAL};
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(s->cls[i], blk[i]);
    caws_close(o, s, path);
    /* SM: top N = 2 (two CTAs) of all six oracle warps: the two 50s; 45 is third */
    s = caws_open("caws_sm", sm_oracle, path, sizeof path, &o, &rc, err, sizeof err);
    REQUIRE(s != NULL && rc == 0);
    (void)o->order(s, w, 5, ord, 0);
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(s->cls[i], blk[i]);
    /* CTA 1 leaves: N = 1 and the pool is CTA 0's warps: still its warp 1 */
    w[3].valid = w[4].valid = 0;
    (void)o->order(s, w, 5, ord, 1);
    CHECK_EQ_INT(s->cls[1], CAWS_CRIT);
    CHECK_EQ_INT(s->cls[2], CAWS_NORMAL);
    /* another CTA (2) arrives whose warps are all slower: N = 2, the top two are CTA 2's */
    caws_close(o, s, path);
    s = caws_open("caws_sm", HDR "1,k,0,0,0,0,10,10,1,1\n1,k,0,0,1,0,50,50,1,1\n1,k,0,2,0,0,60,60,1,1\n"
                                 "1,k,0,2,1,0,70,70,1,1\n",
                  path, sizeof path, &o, &rc, err, sizeof err);
    REQUIRE(s != NULL && rc == 0);
    views(w, 4);
    w[2].cta_linear = w[3].cta_linear = 2;
    w[2].warp_in_cta = 0;
    w[3].warp_in_cta = 1;
    (void)o->order(s, w, 4, ord, 0);
    CHECK_EQ_INT(s->cls[0], CAWS_NORMAL);
    CHECK_EQ_INT(s->cls[1], CAWS_NORMAL);
    CHECK_EQ_INT(s->cls[2], CAWS_CRIT);
    CHECK_EQ_INT(s->cls[3], CAWS_CRIT);
    CHECK_NEAR(o->sample(s), 70.0, 0);
    caws_close(o, s, path);
}

TEST(caws_avg_classification_of_a_known_time_list)
{
    /* ten warps, mean exactly 100: > 120 critical, < 80 fast, the bounds themselves default */
    static const unsigned t[10] = {100, 120, 121, 79, 80, 100, 100, 100, 100, 100};
    static const int8_t want[10] = {CAWS_NORMAL, CAWS_NORMAL, CAWS_CRIT, CAWS_FAST, CAWS_NORMAL,
                                    CAWS_NORMAL, CAWS_NORMAL, CAWS_NORMAL, CAWS_NORMAL, CAWS_NORMAL};
    char text[2048] = HDR;
    for (int i = 0; i < 10; i++) {
        size_t l = strlen(text);
        snprintf(text + l, sizeof text - l, "1,k,0,0,%d,5,%u,0,1,1\n", i, t[i] + 5);
    }
    char path[64], err[512] = "";
    const struct warp_sched_ops *o;
    int rc = -1, ord[16];
    struct caws_state *s = caws_open("caws_avg", text, path, sizeof path, &o, &rc, err, sizeof err);
    REQUIRE(s != NULL && rc == 0);
    struct warp_view w[10];
    views(w, 10);
    (void)o->order(s, w, 10, ord, 0);
    for (int i = 0; i < 10; i++)
        CHECK_EQ_INT(s->cls[i], want[i]);
    /* reset values with 10 warps: default 9, critical round(10 / 1.2) - 1 = 7, fast round(10 / 0.8) - 1 = 12 */
    o->on_issue(s, &w[2], NULL, 1);
    CHECK_EQ_INT(s->cnt[2], 7);
    o->on_issue(s, &w[3], NULL, 2);
    CHECK_EQ_INT(s->cnt[3], 12);
    o->on_issue(s, &w[0], NULL, 3);
    CHECK_EQ_INT(s->cnt[0], 9);
    /* a wider threshold: nobody is critical or fast */
    caws_close(o, s, path);
    s = caws_open("caws_avg", text, path, sizeof path, &o, &rc, err, sizeof err);
    REQUIRE(s != NULL && rc == 0);
    s->threshold = 25;
    (void)o->order(s, w, 10, ord, 0);
    for (int i = 0; i < 10; i++)
        CHECK_EQ_INT(s->cls[i], CAWS_NORMAL);
    caws_close(o, s, path);
}

TEST(caws_init_errors_say_how_to_make_the_oracle)
{
    char path[64], err[512] = "";
    const struct warp_sched_ops *o;
    int rc = 0;
    /* an oracle without kernel 1 */
    struct caws_state *s = caws_open("caws_sm", HDR "2,k,0,0,0,0,10,10,1,1\n", path, sizeof path, &o, &rc, err,
                                     sizeof err);
    REQUIRE(s != NULL);
    CHECK(rc != 0);
    CHECK(strstr(err, "has no warps of kernel 1") != NULL);
    CHECK(strstr(err, "--warp-sched lrr --warps") != NULL);
    caws_close(o, s, path);
    /* no oracle at all */
    o = warp_sched_find("caws_avg");
    REQUIRE(o != NULL);
    s = calloc(1, o->state_size);
    REQUIRE(s != NULL);
    struct sm_view sv = {0};
    sv.kernel_id = 1;
    sv.err = err;
    sv.err_len = sizeof err;
    err[0] = '\0';
    s->oracle = "";
    CHECK(o->init(s, &sv) != 0);
    CHECK(strstr(err, "warp_sched.caws_avg.oracle") != NULL);
    CHECK(strstr(err, "--warp-sched lrr --warps") != NULL);
    o->fini(s);
    free(s);
}

/* ---- conformance over random views -------------------------------------------------------------- */

TEST(conformance_of_the_new_policies)
{
    static const char *const names[] = {"two_level", "swl", "caws_blk", "caws_sm", "caws_avg"};
    char path[64];
    char text[8192] = HDR;
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 12; i++) {
            size_t l = strlen(text);
            snprintf(text + l, sizeof text - l, "1,k,0,%d,%d,0,%d,0,1,1\n", c, i, 100 + (c * 37 + i * 11) % 50);
        }
    REQUIRE(tmp_file(path, sizeof path, text) == 0);
    for (size_t p = 0; p < sizeof names / sizeof names[0]; p++) {
        const struct warp_sched_ops *o = warp_sched_find(names[p]);
        REQUIRE(o != NULL);
        CHECK(o->order != NULL && o->init != NULL && o->doc != NULL && o->sample != NULL);
        void *st = calloc(1, o->state_size);
        REQUIRE(st != NULL);
        struct cfg_error ce;   /* defaults as the SM applies them */
        REQUIRE(policy_params_apply(NULL, "warp_sched", o->name, o->params, o->nparams, st, &ce) == 0);
        if (strncmp(names[p], "caws", 4) == 0)
            ((struct caws_state *)st)->oracle = path;
        char err[256] = "";
        struct sm_view sv = {0};
        sv.kernel_id = 1;
        sv.err = err;
        sv.err_len = sizeof err;
        REQUIRE(o->init(st, &sv) == 0);
        unsigned seed = 777;
        struct warp_view w[24];
        views(w, 24);
        uint64_t next_age = 24;
        for (int cyc = 0; cyc < 3000; cyc++) {
            int n = 24;
            for (int i = 0; i < n; i++) {
                seed = seed * 1103515245u + 12345u;
                unsigned r = seed >> 16;
                if (r % 97 == 0) {   /* a warp leaves or arrives */
                    w[i].valid = !w[i].valid;
                    if (w[i].valid) {
                        w[i].age = next_age++;
                        w[i].cta_linear = (uint32_t)(r % 4);
                    }
                }
                w[i].ready = (r >> 3) % 3 == 0;
                w[i].waiting_miss = !w[i].ready && (r >> 5) % 4 == 0;
                w[i].waiting_mem = w[i].waiting_miss;
                w[i].at_barrier = !w[i].ready && (r >> 7) % 9 == 0;
                w[i].age_rank = (uint16_t)((r >> 9) % 30);
            }
            int ord[64];
            int k = o->order(st, w, n, ord, (sim_cycle)cyc);
            CHECK(k >= 0 && k <= n);
            uint64_t seen = 0;
            int first_ready = -1;
            for (int i = 0; i < k; i++) {
                if (ord[i] < 0 || ord[i] >= n || !w[ord[i]].valid || (seen >> ord[i] & 1)) {
                    T_FAIL_("%s: bad order entry %d at cycle %d", names[p], ord[i], cyc);
                    break;
                }
                seen |= 1ull << ord[i];
                if (first_ready < 0 && w[ord[i]].ready)
                    first_ready = ord[i];
            }
            if (first_ready >= 0 && o->on_issue)
                o->on_issue(st, &w[first_ready], NULL, (sim_cycle)cyc);
            double v = o->sample(st);
            CHECK(v >= 0 && v <= 1e9);
        }
        if (o->fini)
            o->fini(st);
        free(st);
    }
    unlink(path);
}

/* ---- real runs ------------------------------------------------------------------------------------- */

struct run {
    ws_ctx *ctx;
    ws_status st;
    struct wl_result res;
    char err[16384];
};

/* Run bundled workload wl at tiny size in timing mode with config overrides (name, value pairs). */
static void run_wl(struct run *r, const char *wl, unsigned n, const char *const *kv, const char *ts,
                   const char *warps)
{
    memset(r, 0, sizeof *r);
    ws_ctx_opts opts = {WS_MODE_TIMING, 0, NULL};
    r->st = ws_create_ex(&r->ctx, &opts, r->err, sizeof r->err);
    if (r->st != WS_SUCCESS)
        return;
    const char *names[8], *values[8];
    for (unsigned i = 0; i < n && i < 8; i++) {
        names[i] = kv[2 * i];
        values[i] = kv[2 * i + 1];
    }
    if (n && (r->st = ws_set_config_overrides(r->ctx, n, names, values)) != WS_SUCCESS)
        goto out;
    if ((ts || warps) && (r->st = ws_set_timing_outputs(r->ctx, ts, warps)) != WS_SUCCESS)
        goto out;
    r->st = fx_run_workload(r->ctx, wl, 0, &r->res);
out:
    if (r->st != WS_SUCCESS)
        snprintf(r->err, sizeof r->err, "%s", wsGetErrorMessage(r->ctx));
    wsDestroy(r->ctx);
    r->ctx = NULL;
}

struct wrec {
    unsigned sm, warp;
    unsigned long long cta, start, end;
};

static int wrec_cmp(const void *pa, const void *pb)
{
    const struct wrec *a = pa, *b = pb;
    if (a->sm != b->sm)
        return a->sm < b->sm ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->cta != b->cta)
        return a->cta < b->cta ? -1 : 1;
    return a->warp < b->warp ? -1 : a->warp > b->warp;
}

/* per-warp file -> records; returns how many */
static size_t read_warps(const char *path, struct wrec *r, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    size_t n = 0;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return 0;
    }
    while (n < max && fgets(line, sizeof line, f)) {
        unsigned kid;
        char kn[128];
        if (sscanf(line, "%u,%127[^,],%u,%llu,%u,%llu,%llu", &kid, kn, &r[n].sm, &r[n].cta, &r[n].warp, &r[n].start,
                   &r[n].end) == 7)
            n++;
    }
    fclose(f);
    return n;
}

/* Warps of an SM that finish in age order, and how many SMs had more than one warp. */
static int in_age_order(struct wrec *r, size_t n, unsigned *multi)
{
    qsort(r, n, sizeof *r, wrec_cmp);
    int ok = 1;
    *multi = 0;
    for (size_t i = 1; i < n; i++) {
        if (r[i].sm != r[i - 1].sm)
            continue;
        if (i >= 2 && r[i - 2].sm != r[i].sm)
            (*multi)++;
        ok &= r[i].end > r[i - 1].end;
    }
    return ok;
}

TEST(swl_limit_one_runs_the_warps_of_an_sm_one_after_another)
{
    char wpath[64];
    snprintf(wpath, sizeof wpath, "/tmp/ws_test_wp_swl_%d.csv", (int)getpid());
    static struct wrec rec[4096];
    /* limit 1: each warp runs alone until it exits, so exits follow age (CTA dispatch, then warp) order */
    const char *kv1[] = {"gpgpu_scheduler", "swl", "warp_sched.swl.limit", "1"};
    struct run r;
    run_wl(&r, "vecadd", 2, kv1, NULL, wpath);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    size_t n = read_warps(wpath, rec, 4096);
    REQUIRE(n > 16);
    unsigned multi = 0;
    CHECK(in_age_order(rec, n, &multi));
    CHECK(multi > 0);
    /* without a limit (48) the warps overlap and finish out of age order somewhere */
    const char *kv48[] = {"gpgpu_scheduler", "swl", "warp_sched.swl.limit", "48"};
    run_wl(&r, "vecadd", 2, kv48, NULL, wpath);
    REQUIRE(r.st == WS_SUCCESS);
    n = read_warps(wpath, rec, 4096);
    REQUIRE(n > 16);
    CHECK(!in_age_order(rec, n, &multi));
    unlink(wpath);
    /* a barrier kernel with a window of one warp still completes (barrier waiters hold no place) */
    run_wl(&r, "mm", 2, kv1, NULL, NULL);
    CHECK(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
}

TEST(caws_runs_on_an_lrr_oracle_and_fails_clearly_without_one)
{
    char opath[64], ts[64];
    snprintf(opath, sizeof opath, "/tmp/ws_test_wp_oracle_%d.csv", (int)getpid());
    snprintf(ts, sizeof ts, "/tmp/ws_test_wp_ts_%d.csv", (int)getpid());
    const char *lrr[] = {"gpgpu_scheduler", "lrr"};
    struct run r;
    run_wl(&r, "bfs", 1, lrr, NULL, opath);
    REQUIRE(r.st == WS_SUCCESS);
    static const char *const names[] = {"caws_blk", "caws_sm", "caws_avg"};
    for (int v = 0; v < 3; v++) {
        char key[64];
        snprintf(key, sizeof key, "warp_sched.%s.oracle", names[v]);
        const char *kv[] = {"gpgpu_scheduler", names[v], key, opath, "warpsim_sample_interval", "500"};
        run_wl(&r, "bfs", 3, kv, ts, NULL);
        CHECK(r.st == WS_SUCCESS);
        CHECK(r.res.verified);
        /* the time series has the policy's column, with the oracle time of a warp somewhere */
        FILE *f = fopen(ts, "r");
        REQUIRE(f != NULL);
        char line[8192];
        int col = -1, c = 0, nonzero = 0;
        if (fgets(line, sizeof line, f))
            for (char *t = strtok(line, ",\n"); t; t = strtok(NULL, ",\n"), c++)
                if (strcmp(t, "sm0_crit_time") == 0)
                    col = c;
        CHECK(col >= 0);
        while (col >= 0 && fgets(line, sizeof line, f)) {
            c = 0;
            for (char *t = strtok(line, ",\n"); t; t = strtok(NULL, ",\n"), c++)
                if (c == col && atof(t) > 0)
                    nonzero = 1;
        }
        fclose(f);
        CHECK(nonzero);
    }
    unlink(opath);
    unlink(ts);
    /* no oracle: the launch fails and says how to make one */
    const char *none[] = {"gpgpu_scheduler", "caws_blk"};
    run_wl(&r, "vecadd", 1, none, NULL, NULL);
    CHECK(r.st != WS_SUCCESS);
    CHECK(strstr(r.err, "warp_sched.caws_blk.oracle") != NULL);
    CHECK(strstr(r.err, "--warp-sched lrr --warps") != NULL);
}

TEST(two_level_time_series_column_and_results)
{
    char ts[64];
    snprintf(ts, sizeof ts, "/tmp/ws_test_wp_ts2_%d.csv", (int)getpid());
    const char *kv[] = {"gpgpu_scheduler", "two_level", "warp_sched.two_level.active_size", "2",
                        "warpsim_sample_interval", "200"};
    struct run r;
    run_wl(&r, "mm", 3, kv, ts, NULL);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    FILE *f = fopen(ts, "r");
    REQUIRE(f != NULL);
    char line[8192];
    int col = -1, c = 0;
    double maxv = 0;
    if (fgets(line, sizeof line, f))
        for (char *t = strtok(line, ",\n"); t; t = strtok(NULL, ",\n"), c++)
            if (strcmp(t, "sm0_active_warps") == 0)
                col = c;
    CHECK(col >= 0);
    while (col >= 0 && fgets(line, sizeof line, f)) {
        c = 0;
        for (char *t = strtok(line, ",\n"); t; t = strtok(NULL, ",\n"), c++)
            if (c == col && atof(t) > maxv)
                maxv = atof(t);
    }
    fclose(f);
    unlink(ts);
    /* two schedulers x active_size 2: at most 4 active warps on a core, and some at some point */
    CHECK(maxv > 0);
    CHECK(maxv <= 4);
}

TEST_MAIN()
