/*
 * caws.c - the priority-counter core of the CAWS warp schedulers (caws.h):
 * pool bookkeeping, oracle classification per variant, the counters.
 *
 * Choices where seed 000 sec. 3.4 is silent (docs/policies.md):
 *   - The pool is the scheduler's live warps (each scheduler has its own
 *     counters); P changes as warps come and go and the reset values follow.
 *   - Initial counters: the seed starts 48 warps at 0..47; a warp arriving
 *     later gets the number of warps already in the pool (it joins the end of
 *     the round), so a kernel's first warps get 0, 1, 2, ... in age order.
 *   - Ties between equal counters (possible once reset values differ) go to
 *     the older warp, then the lower slot.
 *   - A warp that cannot issue keeps counting down (to CAWS_FLOOR), so it is
 *     first as soon as it is ready again: the RR baseline's "its turn came".
 *   - The SM's pool for CAWS-SM and CAWS-avg is every oracle warp of the
 *     CTAs resident on the SM (the CTAs among the scheduler's warps): the
 *     oracle knows all warps of a CTA, including those of the other
 *     schedulers, so all schedulers of an SM agree on the N critical warps.
 *   - A second instruction of the same warp in the same cycle (dual issue)
 *     is the same selection: the counters move once.
 */
#include "policy/warp_sched/caws.h"

#include <math.h>
#include <string.h>

int caws_init(struct caws_state *s, const struct sm_view *sm, int variant)
{
    /* keep the parameters (applied before init), reset everything else */
    const char *oracle = s->oracle;
    double boost = s->boost, threshold = s->threshold, slowdown = s->slowdown;
    memset(s, 0, sizeof *s);
    s->oracle = oracle;
    s->boost = boost;
    s->threshold = threshold;
    s->slowdown = slowdown;
    s->variant = variant;
    s->kernel_id = sm->kernel_id;
    s->last_slot = -1;
    for (int i = 0; i < CAWS_MAX; i++) {
        s->age[i] = UINT64_MAX;
        s->view_of_slot[i] = -1;
        s->otime[i] = -1;
    }
    static const char *const names[] = {"caws_blk", "caws_sm", "caws_avg"};
    const char *name = names[variant >= 0 && variant <= CAWS_AVG ? variant : 0];
    if (!oracle || !*oracle) {
        if (sm->err && sm->err_len)
            snprintf(sm->err, sm->err_len,
                     "needs an oracle: set -warp_sched.%s.oracle FILE.csv (or --set warp_sched.%s.oracle=FILE.csv), "
                     "the per-warp file of an earlier run: warpsim run WORKLOAD --warp-sched lrr --warps FILE.csv",
                     name, name);
        return -1;
    }
    char why[512];
    if (oracle_load(&s->orc, oracle, sm->kernel_id, why, sizeof why) != 0) {
        if (sm->err && sm->err_len)
            snprintf(sm->err, sm->err_len, "oracle: %s", why);
        return -1;
    }
    if (sm->kernel_id && s->orc.n == 0) {
        if (sm->err && sm->err_len)
            snprintf(sm->err, sm->err_len,
                     "oracle: %s has no warps of kernel %u (a per-warp file of another workload or size?); produce "
                     "it with: warpsim run WORKLOAD --warp-sched lrr --warps FILE.csv",
                     oracle, sm->kernel_id);
        oracle_free(&s->orc);
        return -1;
    }
    return 0;
}

void caws_fini(void *st) { oracle_free(&((struct caws_state *)st)->orc); }

int32_t caws_reset_value(const struct caws_state *s, int cls)
{
    double p = s->npool > 0 ? s->npool : 1;
    double period = p;
    if (cls == CAWS_CRIT)
        period = p * 100.0 / (100.0 + s->boost);
    else if (cls == CAWS_FAST)
        period = p * 100.0 / (100.0 - s->slowdown);
    double r = floor(period + 0.5) - 1;
    return r < 0 ? 0 : r > 1e9 ? 1000000000 : (int32_t)r;
}

/* ---- classification ------------------------------------------------------------------ */

/* record a's (time, cta, warp) ranks before b's: longer first, then lower CTA, then lower warp */
static int caws_before(uint64_t ta, uint64_t ca, uint32_t wa, uint64_t tb, uint64_t cb, uint32_t wb)
{
    if (ta != tb)
        return ta > tb;
    return ca != cb ? ca < cb : wa < wb;
}

/* CAWS-blk: the most critical warp of each CTA (ties: the lower warp index). */
static int8_t caws_class_blk(const struct caws_state *s, const struct warp_view *v)
{
    size_t cnt, first = oracle_cta(&s->orc, s->kernel_id, v->cta_linear, &cnt);
    if (!cnt)
        return CAWS_NORMAL;
    size_t best = first;
    for (size_t i = first + 1; i < first + cnt; i++)
        if (caws_before(s->orc.w[i].time, s->orc.w[i].cta, s->orc.w[i].warp, s->orc.w[best].time,
                        s->orc.w[best].cta, s->orc.w[best].warp))
            best = i;
    return s->orc.w[best].warp == v->warp_in_cta ? CAWS_CRIT : CAWS_NORMAL;
}

/* The SM's pool: every oracle warp of the CTAs among the valid views.
   Returns how many CTAs (N). */
static unsigned caws_pool(struct caws_state *s, const struct warp_view *w, int n, unsigned *npool)
{
    uint64_t ctas[CAWS_MAX];
    unsigned nc = 0;
    for (int i = 0; i < n; i++) {
        if (!w[i].valid)
            continue;
        unsigned j = 0;
        while (j < nc && ctas[j] != w[i].cta_linear)
            j++;
        if (j == nc)
            ctas[nc++] = w[i].cta_linear;
    }
    unsigned np = 0;
    for (unsigned c = 0; c < nc; c++) {
        size_t cnt, first = oracle_cta(&s->orc, s->kernel_id, ctas[c], &cnt);
        for (size_t i = first; i < first + cnt && np < CAWS_POOL; i++, np++) {
            s->pool_time[np] = s->orc.w[i].time;
            s->pool_cta[np] = s->orc.w[i].cta;
            s->pool_warp[np] = s->orc.w[i].warp;
        }
    }
    *npool = np;
    return nc;
}

/* Classify every valid view (after the pool changed). */
static void caws_classify(struct caws_state *s, const struct warp_view *w, int n)
{
    unsigned np = 0, nctas = 0;
    double mean = 0;
    if (s->variant != CAWS_BLK) {
        nctas = caws_pool(s, w, n, &np);
        for (unsigned k = 0; k < np; k++)
            mean += (double)s->pool_time[k];
        mean = np ? mean / np : 0;
    }
    for (int i = 0; i < n; i++) {
        s->cls[i] = CAWS_NORMAL;
        s->otime[i] = -1;
        if (!w[i].valid)
            continue;
        int64_t t = oracle_time(&s->orc, s->kernel_id, w[i].cta_linear, w[i].warp_in_cta);
        s->otime[i] = t;
        if (t < 0)
            continue;
        switch (s->variant) {
        case CAWS_BLK:
            s->cls[i] = caws_class_blk(s, &w[i]);
            break;
        case CAWS_SM: {   /* top N of the pool, N = CTAs on the SM */
            unsigned rank = 0;
            for (unsigned k = 0; k < np; k++)
                rank += (unsigned)caws_before(s->pool_time[k], s->pool_cta[k], s->pool_warp[k], (uint64_t)t,
                                              w[i].cta_linear, w[i].warp_in_cta);
            s->cls[i] = rank < nctas ? CAWS_CRIT : CAWS_NORMAL;
            break;
        }
        default:   /* CAWS_AVG: more than threshold% above the mean: critical; below: fast */
            if ((double)t > mean * (1.0 + s->threshold / 100.0))
                s->cls[i] = CAWS_CRIT;
            else if ((double)t < mean * (1.0 - s->threshold / 100.0))
                s->cls[i] = CAWS_FAST;
            break;
        }
    }
}

/* ---- pool and order ------------------------------------------------------------------- */

static int caws_first(const struct caws_state *s, const struct warp_view *w, int a, int b)
{
    if (s->cnt[a] != s->cnt[b])
        return s->cnt[a] < s->cnt[b];
    return w[a].age != w[b].age ? w[a].age < w[b].age : w[a].slot < w[b].slot;
}

/* Follow arrivals and departures; new warps join the end of the round. */
static void caws_sync(struct caws_state *s, const struct warp_view *w, int n)
{
    int changed = n != s->n, stay = 0;
    int fresh[CAWS_MAX], nf = 0;
    for (int i = 0; i < n; i++) {
        uint64_t a = w[i].valid ? w[i].age : UINT64_MAX;
        if (a == s->age[i]) {
            stay += w[i].valid;
            continue;
        }
        changed = 1;
        s->age[i] = a;
        if (!w[i].valid)
            continue;
        int j = nf++;   /* arrivals in age order */
        while (j > 0 && w[fresh[j - 1]].age > w[i].age) {
            fresh[j] = fresh[j - 1];
            j--;
        }
        fresh[j] = i;
    }
    if (!changed)
        return;
    for (int k = 0; k < nf; k++)
        s->cnt[fresh[k]] = stay + k;
    s->n = n;
    s->npool = stay + nf;
    for (int i = 0; i < CAWS_MAX; i++)
        s->view_of_slot[i] = -1;
    s->nsorted = 0;
    for (int i = 0; i < n; i++) {
        if (w[i].slot < CAWS_MAX)
            s->view_of_slot[w[i].slot] = (int8_t)i;
        if (w[i].valid)
            s->sorted[s->nsorted++] = i;
    }
    caws_classify(s, w, n);
}

int caws_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now)
{
    struct caws_state *s = st;
    (void)now;
    if (n > CAWS_MAX)
        n = CAWS_MAX;
    caws_sync(s, w, n);
    /* insertion sort from the previous order: counters only move at issues, so it is nearly sorted */
    for (int k = 1; k < s->nsorted; k++) {
        int x = s->sorted[k], j = k;
        while (j > 0 && caws_first(s, w, x, s->sorted[j - 1])) {
            s->sorted[j] = s->sorted[j - 1];
            j--;
        }
        s->sorted[j] = x;
    }
    memcpy(order, s->sorted, sizeof(int) * (size_t)s->nsorted);
    return s->nsorted;
}

void caws_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now)
{
    struct caws_state *s = st;
    (void)in;
    if (s->issued_any && now == s->last_issue && (int)w->slot == s->last_slot)
        return;   /* dual issue: the same selection */
    s->issued_any = 1;
    s->last_issue = now;
    s->last_slot = w->slot;
    int sel = w->slot < CAWS_MAX ? s->view_of_slot[w->slot] : -1;
    for (int k = 0; k < s->nsorted; k++) {
        int i = s->sorted[k];
        if (i == sel)
            s->cnt[i] = caws_reset_value(s, s->cls[i]);
        else if (s->cnt[i] > CAWS_FLOOR)
            s->cnt[i]--;
    }
}

/* the most critical warp's oracle execution time (0 when none is known) */
double caws_sample(const void *st)
{
    const struct caws_state *s = st;
    int64_t best = 0;
    for (int k = 0; k < s->nsorted; k++)
        if (s->otime[s->sorted[k]] > best)
            best = s->otime[s->sorted[k]];
    return (double)best;
}
