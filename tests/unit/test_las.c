/* test_las.c - the locality-aware schedulers of 003 ch. 3 against mock views:
   overlap areas of known rectangles, the CTA scheduler's choices, the warp
   scheduler's locality degree table (issue order after a short stall,
   promotion after a long one) and its starvation timeout. */
#include <stdio.h>
#include <string.h>

#include "core/arena.h"
#include "core/config.h"
#include "policy/cta_sched.h"
#include "policy/params.h"
#include "policy/warp_sched.h"
#include "test.h"

/* Apply a policy's parameters as the GPU does: defaults, then dotted options
   (kind.policy.param, given as name/value pairs ending with NULL). */
static int apply_params(const char *kind, const char *policy, const struct cfg_opt *opts, size_t nopts, void *st,
                        const char *const *kv)
{
    struct arena *a = arena_new(0);
    struct policy_params pp = {arena_new(0), {0}};
    struct cfg c;
    struct cfg_error err;
    int rc = a && pp.arena ? 0 : -1;
    if (rc == 0) {
        cfg_init(&c, a);
        for (; kv && kv[0]; kv += 2)
            rc |= cfg_set(&c, kv[0], kv[1], "test");
        rc = rc ? rc : policy_params_collect(&pp, &c, &err);
        rc = rc ? rc : policy_params_apply(&pp, kind, policy, opts, nopts, st, &err);
    }
    if (a)
        arena_free(a);
    if (pp.arena)
        arena_free(pp.arena);
    return rc;
}

/* ---- overlap (003 sec. 3.3.2, fig. 3.9) ----------------------------------------------- */

TEST(overlap_of_known_rectangles)
{
    struct loc_rect a = {0, 0, 4, 4};
    struct loc_rect b = {2, 1, 4, 4};    /* distance (2,1): (4-2) x (4-1) */
    struct loc_rect c = {4, 0, 4, 4};    /* distance x = width: nothing shared */
    struct loc_rect d = {-3, 3, 4, 4};   /* distance (3,3) the other way: 1 x 1 */
    struct loc_rect e = {1, 1, 2, 3};    /* other size, inside a in x, rows 1..3 */
    struct loc_rect none = {0, 0, 0, 0};
    CHECK_EQ_INT(loc_overlap(&a, &b), 6);
    CHECK_EQ_INT(loc_overlap(&b, &a), 6);
    CHECK_EQ_INT(loc_overlap(&a, &c), 0);
    CHECK_EQ_INT(loc_overlap(&a, &d), 1);
    CHECK_EQ_INT(loc_overlap(&a, &e), 6);
    CHECK_EQ_INT(loc_overlap(&a, &a), 16);
    CHECK_EQ_INT(loc_overlap(&a, &none), 0);
    /* summed over arrays: CTA 0 = {a, c}, CTA 1 = {b, c} -> 6 + 16 */
    struct loc_rect rect[4] = {a, c, b, c};
    struct cta_locality l = {.narrays = 2, .cta_warps = 1, .n_ctas = 2, .rect = rect};
    CHECK_EQ_INT(loc_cta_locality(&l, 0, 1), 22);
}

/* ---- CTA scheduler ----------------------------------------------------------------------- */

/* 8 CTAs of a column-major kernel on one array: CTA c reads column c % 4 (a
   1-line-wide, 8-row strip), so c and c + 4 share 8 lines and nothing else. */
static struct loc_rect col_rects[8];
static struct cta_locality col_loc(void)
{
    for (int c = 0; c < 8; c++)
        col_rects[c] = (struct loc_rect){c % 4, 0, 1, 8};
    struct cta_locality l = {.narrays = 1, .cta_warps = 1, .n_ctas = 8, .rect = col_rects};
    return l;
}

struct cta_mock {
    const struct cta_sched_ops *ops;
    void *st;
    struct sm_cta_view sm[3];
    uint8_t dispatched[8];
    struct cta_locality loc;
    struct gpu_view g;
};

static int cta_mock_init(struct cta_mock *m, unsigned n_sms, unsigned window)
{
    memset(m, 0, sizeof *m);
    m->ops = cta_sched_find("las");
    if (!m->ops)
        return -1;
    m->st = calloc(1, m->ops->state_size);
    char wtext[16];
    snprintf(wtext, sizeof wtext, "%u", window);
    const char *kv[] = {"cta_sched.las.window", wtext, NULL};
    if (!m->st || apply_params("cta_sched", "las", m->ops->params, m->ops->nparams, m->st, kv) != 0)
        return -1;
    m->loc = col_loc();
    for (unsigned i = 0; i < n_sms; i++)
        m->sm[i] = (struct sm_cta_view){.resident = 0, .max_fit = 4, .can_take = 0, .limit = 4, .room = 4};
    m->g = (struct gpu_view){n_sms, m->sm, 0, 8, 1, m->dispatched, &m->loc};
    return m->ops->init(m->st, &m->g);
}

/* Dispatch cta to sm as the GPU would. */
static void cta_mock_dispatch(struct cta_mock *m, unsigned sm, uint64_t cta)
{
    m->dispatched[cta] = 1;
    while (m->g.next_cta < m->g.n_ctas && m->dispatched[m->g.next_cta])
        m->g.next_cta++;
    m->sm[sm].resident++;
    m->ops->on_dispatch(m->st, sm, cta, 0);
}

/* The SM and CTA the policy picks now (only `sm` can take one). */
static int64_t cta_mock_pick(struct cta_mock *m, unsigned sm)
{
    for (unsigned i = 0; i < m->g.n_sms; i++)
        m->sm[i].can_take = i == sm;
    int s = m->ops->pick_sm(m->st, &m->g, 5);
    if (s != (int)sm)
        return -100 - s;
    return m->ops->pick_cta(m->st, &m->g, (unsigned)s, 5);
}

TEST(las_cta_prefers_the_cta_sharing_lines_with_the_sm)
{
    struct cta_mock m;
    REQUIRE(cta_mock_init(&m, 2, 0) == 0);
    /* the first round: nothing runs anywhere, so every candidate has no locality
       with SM 0 nor with the others: the head of the queue */
    CHECK_EQ_INT(cta_mock_pick(&m, 0), 0);
    cta_mock_dispatch(&m, 0, 0);
    /* SM 1: no locality with it; the least with SM 0 (CTA 0, column 0) is CTA 1 */
    CHECK_EQ_INT(cta_mock_pick(&m, 1), 1);
    cta_mock_dispatch(&m, 1, 1);
    /* SM 0 again: CTA 4 reads CTA 0's column (8 lines), ahead of CTAs 2 and 3 in the queue */
    CHECK_EQ_INT(cta_mock_pick(&m, 0), 4);
    cta_mock_dispatch(&m, 0, 4);
    CHECK_EQ_INT(cta_mock_pick(&m, 1), 5);
    cta_mock_dispatch(&m, 1, 5);
    CHECK_EQ_INT(m.g.next_cta, 2);
    /* CTA 0 ends; SM 0 still runs CTA 4 (column 0): the waiting 2, 3, 6, 7 share nothing with it,
       and nothing with SM 1 (column 1) either: the head of the queue, 2 */
    m.ops->on_cta_done(m.st, 0, 0, 9);
    CHECK_EQ_INT(cta_mock_pick(&m, 0), 2);
    cta_mock_dispatch(&m, 0, 2);
    /* SM 1 (columns 1): 3 and 7 share nothing with it; 3 is the least shared with SM 0 (columns 0, 2)
       and 6 would share CTA 2's column: 3 */
    CHECK_EQ_INT(cta_mock_pick(&m, 1), 3);
    cta_mock_dispatch(&m, 1, 3);
    /* SM 1 again: 7 shares column 3 with CTA 3 */
    CHECK_EQ_INT(cta_mock_pick(&m, 1), 7);
    cta_mock_dispatch(&m, 1, 7);
    CHECK_EQ_INT(cta_mock_pick(&m, 0), 6);
    free(m.st);
}

/* The `tiles` extension (struct cta_locality.box): CTA c's bounding rectangle runs from column 0 to
   its own column c % 4 (a kernel reading a tile at the origin and one of its own, as lud_internal),
   its boxes hold only its own column.  With CTA 1 on SM 0, the bounding rectangles make every CTA
   but 0 and 4 share 16 lines with it (the head of the queue, 2, wins); the boxes find CTA 5, the
   only one reading CTA 1's column. */
static struct loc_rect box_rects[8], box_boxes[8];
static uint32_t box_off[9];
TEST(las_cta_tiles_rank_by_shared_boxes_not_bounding_rectangles)
{
    for (int tiles = 0; tiles <= 1; tiles++) {
        struct cta_mock m;
        REQUIRE(cta_mock_init(&m, 2, 0) == 0);
        for (int c = 0; c < 8; c++) {
            box_rects[c] = (struct loc_rect){0, 0, c % 4 + 1, 8};
            box_boxes[c] = (struct loc_rect){c % 4, 0, 1, 8};
            box_off[c + 1] = (uint32_t)c + 1;
        }
        m.loc.rect = box_rects;
        m.loc.box = tiles ? box_boxes : NULL;
        m.loc.box_off = tiles ? box_off : NULL;
        CHECK_EQ_U64(loc_cta_locality(&m.loc, 1, 3), tiles ? 0 : 16);
        CHECK_EQ_U64(loc_cta_locality(&m.loc, 1, 5), tiles ? 8 : 16);
        cta_mock_dispatch(&m, 0, 1);
        CHECK_EQ_INT(cta_mock_pick(&m, 0), tiles ? 5 : 2);
        free(m.st);
    }
}

TEST(las_cta_spreads_by_least_locality_with_other_sms)
{
    struct cta_mock m;
    REQUIRE(cta_mock_init(&m, 3, 0) == 0);
    cta_mock_dispatch(&m, 0, 0);   /* column 0 on SM 0 */
    cta_mock_dispatch(&m, 1, 1);   /* column 1 on SM 1 */
    cta_mock_dispatch(&m, 1, 2);   /* column 2 on SM 1 */
    /* SM 2 is empty: every candidate (3..7) has no locality with it; 4, 5, 6 share a column with
       another SM, 3 and 7 do not: the first of them */
    CHECK_EQ_INT(cta_mock_pick(&m, 2), 3);
    cta_mock_dispatch(&m, 2, 3);
    /* SM 2 again: 7 joins CTA 3's column */
    CHECK_EQ_INT(cta_mock_pick(&m, 2), 7);
    free(m.st);
}

TEST(las_cta_window_bounds_the_candidates)
{
    struct cta_mock m;
    REQUIRE(cta_mock_init(&m, 2, 2) == 0);   /* the first two waiting CTAs only */
    cta_mock_dispatch(&m, 0, 0);
    cta_mock_dispatch(&m, 1, 1);
    /* candidates 2 and 3: neither shares with SM 0 nor with SM 1; CTA 4 (column 0) is out of reach */
    CHECK_EQ_INT(cta_mock_pick(&m, 0), 2);
    free(m.st);
}

TEST(las_cta_without_locality_goes_in_order)
{
    struct cta_mock m;
    REQUIRE(cta_mock_init(&m, 2, 0) == 0);
    m.loc.narrays = 0;
    cta_mock_dispatch(&m, 0, 0);
    CHECK_EQ_INT(cta_mock_pick(&m, 0), 1);
    m.g.loc = NULL;
    CHECK_EQ_INT(cta_mock_pick(&m, 1), 1);
    /* round robin over the SMs that can take a CTA */
    for (unsigned i = 0; i < 2; i++)
        m.sm[i].can_take = 1;
    CHECK_EQ_INT(m.ops->pick_sm(m.st, &m.g, 7), 1);   /* after SM 0, which got CTA 0 */
    free(m.st);
}

/* ---- warp scheduler ---------------------------------------------------------------------- */

/* One 1D array 64 lines wide.  region_bits 2 -> 4 regions of 16 lines; subregion_bits 4 -> 4
   subregions of 4 lines.  CTA 0 reads lines 0..7 (region 0), CTA 1 lines 16..23 (region 1).
   Warp footprints (lines): c0w0 {0,1} -> sub 0001; c0w1 {4} -> 0010; c0w2 {1,5} -> 0011;
   c1w0 {16} -> region 1, 0001.  Locality: (c0w0,c0w2) = 1, (c0w1,c0w2) = 1, (c0w0,c0w1) = 0,
   anything with c1w0 = 0 (other region, although c0w0 shares its subregion bit). */
static struct loc_rect w_rects[2] = {{0, 0, 8, 1}, {16, 0, 8, 1}};
static uint32_t w_off[2 * 3 + 1] = {0, 2, 3, 5, 6, 6, 6};
static struct loc_point w_pts[6] = {{0, 0}, {1, 0}, {4, 0}, {1, 0}, {5, 0}, {16, 0}};

struct warp_mock {
    const struct warp_sched_ops *ops;
    void *st;
    struct cta_locality loc;
    struct warp_view v[8];
    int order[8];
    int n;
};

static int warp_mock_init(struct warp_mock *m, unsigned active, unsigned cta_warps, unsigned max_ctas)
{
    memset(m, 0, sizeof *m);
    m->ops = warp_sched_find("las");
    if (!m->ops)
        return -1;
    m->st = calloc(1, m->ops->state_size);
    char atext[16];
    snprintf(atext, sizeof atext, "%u", active);
    const char *kv[] = {"warp_sched.las.active_size", atext, "warp_sched.las.region_bits", "2",
                        "warp_sched.las.subregion_bits", "4", NULL};
    if (!m->st || apply_params("warp_sched", "las", m->ops->params, m->ops->nparams, m->st, kv) != 0)
        return -1;
    m->loc = (struct cta_locality){.narrays = 1, .cta_warps = 3, .n_ctas = 2, .rect = w_rects, .wpt_off = w_off,
                                   .pts = w_pts};
    m->loc.extent[0] = (struct loc_rect){0, 0, 64, 1};
    struct sm_view sv = {.sm_id = 0, .sched_id = 0, .n_sched = 1, .max_warps = 8};
    sv.loc = &m->loc;
    sv.cta_warps = cta_warps;
    sv.max_ctas = max_ctas;
    return m->ops->init(m->st, &sv);
}

static void warp_mock_add(struct warp_mock *m, uint32_t cta, uint16_t w, uint64_t age)
{
    struct warp_view *v = &m->v[m->n];
    memset(v, 0, sizeof *v);
    v->slot = (uint16_t)m->n;
    v->cta_linear = cta;
    v->cta_slot = (uint16_t)cta;
    v->warp_in_cta = w;
    v->age = age;
    v->valid = 1;
    v->ready = 1;
    m->n++;
}

static int warp_mock_order(struct warp_mock *m) { return m->ops->order(m->st, m->v, m->n, m->order, 1); }

static void warp_mock_issue(struct warp_mock *m, int i)
{
    struct warp_inst wi;
    memset(&wi, 0, sizeof wi);
    m->ops->on_issue(m->st, &m->v[i], &wi, 1);
}

#define CHECK_ORDER(m, k, ...)                                     \
    do {                                                           \
        static const int want_[] = {__VA_ARGS__};                  \
        int nw_ = (int)(sizeof want_ / sizeof want_[0]);           \
        CHECK_EQ_INT(k, nw_);                                      \
        for (int i_ = 0; i_ < nw_ && i_ < (k); i_++)               \
            CHECK_EQ_INT((m).order[i_], want_[i_]);                \
    } while (0)

TEST(las_warp_short_stall_goes_to_the_closest_warp)
{
    struct warp_mock m;
    REQUIRE(warp_mock_init(&m, 4, 3, 8) == 0);
    warp_mock_add(&m, 0, 0, 0);   /* view 0: c0w0 */
    warp_mock_add(&m, 0, 1, 1);   /* view 1: c0w1 */
    warp_mock_add(&m, 0, 2, 2);   /* view 2: c0w2 */
    warp_mock_add(&m, 1, 0, 3);   /* view 3: c1w0 */
    /* all four fit in the active group; nothing issued yet: oldest first */
    int k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 0, 1, 2, 3);
    CHECK_EQ_INT(m.ops->sample(m.st), 4);
    /* after c0w1 issued: greedy c0w1, then by locality with it: c0w2 (1), then c0w0 and c1w0 (0, by age) */
    warp_mock_issue(&m, 1);
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 1, 2, 0, 3);
    /* after c0w0: c0w0, c0w2 (1), c0w1 (0, older than c1w0), c1w0 (0: another region) */
    warp_mock_issue(&m, 0);
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 0, 2, 1, 3);
    /* a short stall (not ready, no long wait) keeps c0w0 first in the visiting order */
    m.v[0].ready = 0;
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 0, 2, 1, 3);
    free(m.st);
}

TEST(las_warp_long_stall_demotes_and_promotes_by_locality)
{
    struct warp_mock m;
    REQUIRE(warp_mock_init(&m, 2, 3, 8) == 0);
    warp_mock_add(&m, 0, 0, 0);   /* view 0: c0w0 */
    warp_mock_add(&m, 1, 0, 1);   /* view 1: c1w0 */
    warp_mock_add(&m, 0, 1, 2);   /* view 2: c0w1 */
    warp_mock_add(&m, 0, 2, 3);   /* view 3: c0w2 */
    /* group of 2: the oldest (c0w0), then the warp closest to it - c0w2 (1) over the older c1w0, c0w1 (0) */
    int k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 0, 3);
    /* the same views again: nothing changes */
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 0, 3);
    /* c0w0 misses in the L1: demoted; of the ready pending warps c0w1 shares a subregion with c0w2 */
    m.v[0].waiting_miss = 1;
    m.v[0].waiting_mem = 1;
    m.v[0].ready = 0;
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 2, 3);
    /* c0w1 waits at a barrier: demoted too; c1w0 is the only ready pending warp */
    m.v[2].at_barrier = 1;
    m.v[2].ready = 0;
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 1, 3);
    /* the data returns: c0w0 stays pending while the group is full */
    m.v[0].waiting_miss = m.v[0].waiting_mem = 0;
    m.v[0].ready = 1;
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 1, 3);
    /* c1w0 exits: the ready c0w0 is promoted, not the barrier-bound c0w1 */
    m.v[1].valid = 0;
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 0, 3);
    free(m.st);
}

TEST(las_warp_starvation_timeout)
{
    struct warp_mock m;
    /* one warp per CTA, N = 2 CTAs per SM: a CTA starves when the newest is more than 2N = 4 younger */
    REQUIRE(warp_mock_init(&m, 1, 1, 2) == 0);
    m.loc.narrays = 0;   /* no locality: ordering by age only */
    warp_mock_add(&m, 0, 0, 0);   /* view 0: CTA age 0, short-stalled */
    warp_mock_add(&m, 1, 0, 4);   /* view 1: CTA age 4 */
    m.v[0].ready = 0;
    /* newest - 0 = 4: not starved; the ready warp is promoted, the old one waits pending */
    int k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 1);
    /* a CTA of age 5 arrives: 5 - 0 > 4, the old CTA's warp goes first although pending */
    warp_mock_add(&m, 2, 0, 5);
    k = warp_mock_order(&m);
    CHECK_ORDER(m, k, 0, 1);
    free(m.st);
}

TEST_MAIN()
