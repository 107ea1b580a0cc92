/*
 * gcaws.c - greedy Criticality-Aware Warp Scheduler (seed 000 sec. 4.2.2).
 *
 * The warp criticality comes from the Criticality Prediction Logic
 * (policy/cpl.h, Eq. 4.1), updated at every issue.  Each cycle the warps are
 * visited most critical first (equal criticality: the older first, then the
 * lower slot, as GTO); the warp that issued last is visited before all of
 * them while it exists, so once selected a warp keeps issuing until it has no
 * ready instruction ("greedily executes instructions from the selected
 * critical warp until this particular warp has no further available
 * instructions").  The SM issues the first ready warp of the order, so a
 * stalled greedy warp hands over to the most critical ready one.  Paused CTAs
 * are moved last by the SM.
 *
 * Parameter greedy (default 1): 0 drops the greedy first place and issues
 * the most critical ready warp every cycle (an ablation, not in the seed).
 *
 * The order is kept between cycles and re-sorted by insertion (one warp's
 * criticality changes per issue, so this is about one pass); it is rebuilt
 * when the views' valid/age pairs change.
 */
#include <string.h>

#include "policy/cpl.h"
#include "policy/warp_sched.h"

#define GCAWS_MAX CPL_MAX_WARPS

struct gcaws_state {
    int greedy;                /* parameter */
    int last_slot;             /* SM slot of the last issued warp, -1 before any */
    uint64_t last_age;         /* ...and its age (the slot may be reused) */
    int n;                     /* views the order was built from, -1 = none */
    int nsorted;
    int dirty;                 /* a key changed since the last sort */
    int sorted[GCAWS_MAX];     /* valid view indices, most critical first */
    uint64_t age[GCAWS_MAX];   /* per view index: age when valid, UINT64_MAX when not */
    int64_t key[GCAWS_MAX];    /* per view index: the warp's criticality */
    uint16_t cta[GCAWS_MAX];   /* per view index: the warp's CTA slot (is_critical) */
    int8_t idx_of_slot[CPL_MAX_WARPS];   /* SM slot -> view index, -1 = not ours */
    struct cpl cpl;
};

static int gcaws_init(void *st, const struct sm_view *sm)
{
    struct gcaws_state *s = st;
    int greedy = s->greedy;    /* parameters are applied before init */
    memset(s, 0, sizeof *s);
    s->greedy = greedy;
    s->last_slot = -1;
    s->n = -1;
    memset(s->idx_of_slot, -1, sizeof s->idx_of_slot);
    cpl_init(&s->cpl, sm);
    return 0;
}

/* view index a before b in the visiting order */
static inline int gcaws_before(const struct gcaws_state *s, const struct warp_view *w, int a, int b)
{
    if (s->key[a] != s->key[b])
        return s->key[a] > s->key[b];
    return s->age[a] != s->age[b] ? s->age[a] < s->age[b] : w[a].slot < w[b].slot;
}

static void gcaws_rebuild(struct gcaws_state *s, const struct warp_view *w, int n)
{
    s->n = n;
    s->nsorted = 0;
    s->dirty = 1;
    memset(s->idx_of_slot, -1, sizeof s->idx_of_slot);
    for (int i = 0; i < n; i++) {
        s->age[i] = w[i].valid ? w[i].age : UINT64_MAX;
        s->cta[i] = w[i].cta_slot;
        (void)cpl_sync(&s->cpl, &w[i]);   /* retire departed warps, start new ones */
        if (w[i].slot < CPL_MAX_WARPS)
            s->idx_of_slot[w[i].slot] = (int8_t)i;
        s->key[i] = cpl_criticality(&s->cpl, w[i].slot);
        if (w[i].valid)
            s->sorted[s->nsorted++] = i;
    }
}

static int gcaws_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now)
{
    struct gcaws_state *s = st;
    (void)now;
    if (n > GCAWS_MAX)
        n = GCAWS_MAX;
    int same = s->n == n;
    for (int i = 0; same && i < n; i++)
        same = s->age[i] == (w[i].valid ? w[i].age : UINT64_MAX);
    if (!same)
        gcaws_rebuild(s, w, n);
    if (s->dirty) {
        /* insertion sort: adaptive, the list is nearly sorted from the last
           cycle (one key changes per issue) */
        for (int i = 1; i < s->nsorted; i++) {
            int x = s->sorted[i], j = i;
            while (j > 0 && gcaws_before(s, w, x, s->sorted[j - 1])) {
                s->sorted[j] = s->sorted[j - 1];
                j--;
            }
            s->sorted[j] = x;
        }
        s->dirty = 0;
    }
    int k = 0, greedy = s->greedy && s->last_slot >= 0 ? s->idx_of_slot[s->last_slot] : -1;
    if (greedy >= 0 && !(greedy < n && w[greedy].valid && w[greedy].age == s->last_age))
        greedy = -1;   /* it left (maybe another warp has its slot) */
    if (greedy >= 0)
        order[k++] = greedy;
    for (int i = 0; i < s->nsorted; i++)
        if (s->sorted[i] != greedy)
            order[k++] = s->sorted[i];
    return k;
}

static void gcaws_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now)
{
    struct gcaws_state *s = st;
    cpl_on_issue(&s->cpl, w, in, now);
    int j = w->slot < CPL_MAX_WARPS ? s->idx_of_slot[w->slot] : -1;
    if (j >= 0 && j < s->n && s->age[j] == w->age) {
        s->key[j] = cpl_criticality(&s->cpl, w->slot);
        s->dirty = 1;
    } else {
        s->n = -1;   /* a warp order() has not seen yet: rebuild at the next order */
    }
    s->last_slot = w->slot < CPL_MAX_WARPS ? w->slot : -1;
    s->last_age = w->age;
}

/* time series: the criticality of the scheduler's most critical warp, in cycles */
static double gcaws_sample(const void *st)
{
    const struct gcaws_state *s = st;
    int64_t best = 0;
    int any = 0;
    for (unsigned i = 0; i < CPL_MAX_WARPS; i++)
        if (s->cpl.w[i].live && (!any || s->cpl.w[i].crit > best)) {
            best = s->cpl.w[i].crit;
            any = 1;
        }
    return (double)best / CPL_ONE;
}

/* CACP's critical warps (policy/repl/cacp.c): the seed (000 sec. 4.2.3) takes them from CPL
   without saying where the line is drawn; this takes its "slow warp" of sec. 4.3.3: a warp is
   critical when its CPL criticality is larger than that of more than half of the other warps
   of its CTA (those this scheduler holds; a warp alone in its CTA is not critical). */
static int gcaws_is_critical(const void *st, unsigned slot)
{
    const struct gcaws_state *s = st;
    if (slot >= CPL_MAX_WARPS)
        return 0;
    int j = s->idx_of_slot[slot];
    if (j < 0 || j >= s->n || s->age[j] == UINT64_MAX)
        return 0;
    int64_t mine = cpl_criticality(&s->cpl, slot);
    int others = 0, below = 0;
    for (int i = 0; i < s->n; i++) {
        if (i == j || s->age[i] == UINT64_MAX || s->cta[i] != s->cta[j])
            continue;
        others++;
        below += s->key[i] < mine;
    }
    return others > 0 && 2 * below > others;
}

static const struct cfg_opt gcaws_params[] = {
    CFG_OPT("greedy", CFG_BOOL, struct gcaws_state, greedy, "1", 0, 1,
            "keep issuing the selected warp while it is ready (seed); 0 = most critical ready warp every cycle"),
};

#define GCAWS_OPS_BODY                                                                                 \
    .state_size = sizeof(struct gcaws_state), .params = gcaws_params,                                       \
    .nparams = sizeof gcaws_params / sizeof gcaws_params[0], .init = gcaws_init, .order = gcaws_order,      \
    .on_issue = gcaws_on_issue, .on_stall = NULL, .needs_ready = 0, .sample_max = 1, .sample_name = "max_crit", \
    .sample = gcaws_sample, .is_critical = gcaws_is_critical

const struct warp_sched_ops warp_sched_gcaws_ops = {
    .name = "gcaws",
    .doc = "greedy criticality-aware (CAWA, CPL criticality nInst x CPI + nStall): the last issued warp while "
           "ready, then the most critical (ties: oldest)",
    GCAWS_OPS_BODY,
};

/* CAWA = CPL + gCAWS + CACP (seed 000 ch. 4): the same scheduler under its own name; the
   configuration layer (sys/gpu_config.c) selects the cacp replacement policy for the L1D when
   -gpgpu_scheduler is cawa and -warpsim_l1d_repl is not set. */
const struct warp_sched_ops warp_sched_cawa_ops = {
    .name = "cawa",
    .doc = "CAWA: gcaws warp scheduling with CACP L1D replacement (-warpsim_l1d_repl cacp unless set); CPL's "
           "critical warps (above half of their CTA) reach the cache",
    GCAWS_OPS_BODY,
};
#undef GCAWS_OPS_BODY
