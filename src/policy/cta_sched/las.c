/*
 * las.c - locality-aware CTA (thread-block) scheduler (003 sec. 3.3, fig.
 * 3.8-3.9).  Every CTA carries the rectangles of cache lines it accesses on
 * each data array (struct cta_locality, computed by the GPU at kernel start
 * from the kernel's pre-computed addresses).  The locality of two CTAs is
 * the sum over arrays of the area their rectangles share.  When SM x has a
 * free slot, it receives the waiting CTA with the highest total locality
 * with the CTAs running on x; if every waiting CTA has zero locality with x,
 * the waiting CTA with the least total locality with the CTAs running on
 * the other SMs (taking it elsewhere would cost them reuse).
 *
 * Choices the seed leaves open (docs/policies.md):
 *   - Which SM: the SMs with a free slot are served round robin from the one
 *     after the SM that got the previous CTA (the baseline's load balance);
 *     the seed triggers the decision per freed SM, which this is.
 *   - Search window: the candidates are the first `window` waiting CTAs in
 *     linear order (the head of the block queue); 0 means 2 x C x N (C SMs,
 *     N CTAs per SM), so the queue the decision sees is twice what the GPU
 *     holds.  It bounds the cost of a decision and keeps CTAs from waiting
 *     for ever: the oldest waiting CTA is always a candidate.
 *   - Ties: the candidate earliest in the queue (lowest linear id).
 *   - No locality information (no sliceable accesses, more than
 *     LAS_MAX_SMS SMs): CTAs in linear order, as the baseline.
 * Extension `tiles` (off by default): a kernel that reads several separate
 * tiles of one array (lud_internal) gets one box per tile instead of their
 * bounding box, whose overlaps follow the box sizes rather than the shared
 * tiles (docs/studies.md, las ablation a).
 * Pairs with any warp scheduler; the seed's baseline is GTO, its full
 * proposal `--warp-sched las`.
 */
#include <string.h>

#include "policy/cta_sched.h"

#define LAS_MAX_SMS 128
#define LAS_MAX_RES 64          /* resident CTAs tracked per SM (-gpgpu_shader_cta allows 64) */
#define LAS_MAX_WINDOW 4096

struct las_state {
    unsigned window;            /* parameter: candidates considered (0 = 2 x C x N) */
    int loop_entry;             /* parameter, read by the GPU when it slices the kernel (sys/gpu_locality.c) */
    int tiles;                  /* parameter, likewise: the GPU then hands each CTA's boxes (cta_locality.box) */
    unsigned last;              /* SM that got the most recent CTA */
    int chosen_sm;              /* the SM pick_sm named and the CTA chosen for it */
    int64_t chosen;
    uint8_t nres[LAS_MAX_SMS];
    uint64_t res[LAS_MAX_SMS][LAS_MAX_RES];   /* CTAs running on each SM */
    uint64_t cand[LAS_MAX_WINDOW];
};

static const struct cfg_opt las_params[] = {
    CFG_OPT("window", CFG_UINT, struct las_state, window, "0", 0, LAS_MAX_WINDOW,
            "waiting CTAs (head of the queue) a dispatch decision considers; 0 = 2 x SMs x CTAs per SM"),
    CFG_OPT("loop_entry", CFG_BOOL, struct las_state, loop_entry, "0", 0, 1,
            "also slice loop-carried addresses, with their first iteration's range (extension; 0 = the seed's "
            "straight-line address code only)"),
    CFG_OPT("tiles", CFG_BOOL, struct las_state, tiles, "0", 0, 1,
            "a CTA's lines on an array as the separate boxes its accesses touch, merged where they share lines "
            "(at most 4; extension for kernels reading several tiles of one array; 0 = the seed's one "
            "bounding rectangle per array)"),
};

static int las_init(void *st, const struct gpu_view *g)
{
    struct las_state *s = st;
    unsigned w = s->window;   /* the parameters are applied before init */
    int le = s->loop_entry, t = s->tiles;
    memset(s, 0, sizeof *s);
    s->window = w;
    s->loop_entry = le;
    s->tiles = t;
    s->last = g->n_sms ? g->n_sms - 1 : 0;
    s->chosen_sm = -1;
    return 0;
}

/* Locality of candidate c with the CTAs running on SM x. */
static uint64_t las_local(const struct las_state *s, const struct cta_locality *l, unsigned x, uint64_t c)
{
    uint64_t sum = 0;
    for (unsigned k = 0; k < s->nres[x]; k++)
        sum += loc_cta_locality(l, c, s->res[x][k]);
    return sum;
}

/* The CTA SM x should receive (003 fig. 3.8). */
static int64_t las_choose(struct las_state *s, const struct gpu_view *g, unsigned x)
{
    const struct cta_locality *l = g->loc;
    if (!l || l->narrays == 0 || !g->dispatched || g->n_sms > LAS_MAX_SMS || l->n_ctas != g->n_ctas)
        return (int64_t)g->next_cta;
    unsigned n = g->sm[x].max_fit ? g->sm[x].max_fit : 1;
    uint64_t w = s->window ? s->window : 2ull * g->n_sms * n;
    if (w > LAS_MAX_WINDOW)
        w = LAS_MAX_WINDOW;
    unsigned nc = 0;
    for (uint64_t c = g->next_cta; c < g->n_ctas && nc < w; c++)
        if (!g->dispatched[c])
            s->cand[nc++] = c;
    if (nc == 0)
        return -1;
    /* highest locality with SM x */
    uint64_t best_l = 0;
    int64_t best = -1;
    for (unsigned i = 0; i < nc; i++) {
        uint64_t v = las_local(s, l, x, s->cand[i]);
        if (v > best_l) {
            best_l = v;
            best = (int64_t)s->cand[i];
        }
    }
    if (best >= 0)
        return best;
    /* none: the least locality with the other SMs (stop at the first with none) */
    uint64_t min_l = UINT64_MAX;
    for (unsigned i = 0; i < nc && min_l > 0; i++) {
        uint64_t v = 0;
        for (unsigned y = 0; y < g->n_sms && v < min_l; y++)
            if (y != x)
                v += las_local(s, l, y, s->cand[i]);
        if (v < min_l) {
            min_l = v;
            best = (int64_t)s->cand[i];
        }
    }
    return best;
}

static int las_pick_sm(void *st, const struct gpu_view *g, sim_cycle now)
{
    struct las_state *s = st;
    (void)now;
    s->chosen_sm = -1;
    if (g->n_sms == 0 || g->next_cta >= g->n_ctas)
        return -1;
    for (unsigned k = 1; k <= g->n_sms; k++) {
        unsigned x = (s->last + k) % g->n_sms;
        if (g->sm[x].can_take) {
            s->chosen_sm = (int)x;
            s->chosen = las_choose(s, g, x);
            return (int)x;
        }
    }
    return -1;
}

static int64_t las_pick_cta(void *st, const struct gpu_view *g, unsigned sm, sim_cycle now)
{
    struct las_state *s = st;
    (void)now;
    if (s->chosen_sm == (int)sm)
        return s->chosen;
    return las_choose(s, g, sm);
}

static void las_on_dispatch(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct las_state *s = st;
    (void)now;
    s->last = sm;
    s->chosen_sm = -1;
    if (sm < LAS_MAX_SMS && s->nres[sm] < LAS_MAX_RES)
        s->res[sm][s->nres[sm]++] = cta;
}

static void las_on_cta_done(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct las_state *s = st;
    (void)now;
    if (sm >= LAS_MAX_SMS)
        return;
    for (unsigned k = 0; k < s->nres[sm]; k++)
        if (s->res[sm][k] == cta) {
            s->res[sm][k] = s->res[sm][--s->nres[sm]];
            return;
        }
}

const struct cta_sched_ops cta_sched_las_ops = {
    .name = "las",
    .doc = "locality-aware (003 sec. 3.3): the waiting CTA sharing the most cache lines with the SM's CTAs, "
           "from pre-computed address ranges",
    .state_size = sizeof(struct las_state),
    .params = las_params,
    .nparams = sizeof las_params / sizeof las_params[0],
    .init = las_init,
    .pick_sm = las_pick_sm,
    .on_dispatch = las_on_dispatch,
    .on_cta_done = las_on_cta_done,
    .update = NULL,
    .max_per_cycle = 0,
    .pick_cta = las_pick_cta,
    .needs_locality = 1,
};
