/*
 * two_level.c - two-level warp scheduling (Narasiman et al., MICRO 2011, as
 * described in seed 003 sec. 2.1.3 and compared against in seed 001 sec.
 * V-A): the scheduler's warps are split into an ACTIVE group of at most
 * active_size warps and a PENDING group; only active warps may issue.
 *
 *   - Issue: round robin among the active warps (Narasiman's scheduler is
 *     round robin inside the prioritised group; 003 sec. 2.1.3 presents
 *     two-level as the fix for the RR scheduler's shortcomings - its greedy
 *     variant is 003's own locality-aware scheduler, not this baseline).
 *   - Demotion: an active warp that hits a long-latency stall - it waits for
 *     a load that missed the L1 (warp_view.waiting_miss) - moves to the
 *     pending group.  A warp waiting at a barrier is demoted too: it waits
 *     for the rest of its CTA, which may all be pending, so keeping it active
 *     could block the group for ever (a choice: the seeds do not say).
 *   - Promotion: whenever the active group has room (after demotions, when
 *     warps exit, at kernel start), the oldest READY pending warp is promoted
 *     (003: "one of ready warp ... is promoted"); when no pending warp is
 *     ready, the oldest one that only has a short stall (not waiting for a
 *     missed load nor at a barrier: e.g. a new warp waiting for its first
 *     fetch) is promoted so that the group does not run short.  Warps of
 *     paused CTAs (DYNCTA) are promoted only after all others.
 * Demotion and promotion happen in order() and reach a fixed point in one
 * call, so a repeated call on unchanged views changes nothing (the SM's
 * frozen scheduler cycles rely on that).  New warps start pending.
 * Time series: warps in the active group (summed over the SM's schedulers).
 */
#include <string.h>

#include "policy/warp_sched.h"

#define TL_MAX 64

struct tl_state {
    unsigned active_size;      /* parameter */
    int last_slot;             /* slot of the last issued warp, -1 before any */
    int nactive;
    uint64_t age[TL_MAX];      /* per view index: the warp the flags describe (UINT64_MAX = none) */
    uint8_t active[TL_MAX];    /* per view index: in the active group */
};

static const struct cfg_opt tl_params[] = {
    CFG_OPT("active_size", CFG_UINT, struct tl_state, active_size, "8", 1, 64,
            "warps in the active group of each scheduler (Narasiman's fetch groups of 8 warps)"),
};

static int tl_init(void *st, const struct sm_view *sm)
{
    (void)sm;
    struct tl_state *s = st;
    unsigned as = s->active_size ? s->active_size : 8;   /* params are applied before init */
    memset(s, 0, sizeof *s);
    s->active_size = as;
    s->last_slot = -1;
    for (int i = 0; i < TL_MAX; i++)
        s->age[i] = UINT64_MAX;
    return 0;
}

static int tl_long_stall(const struct warp_view *v) { return v->waiting_miss || v->at_barrier; }

/* promotion key: ready before short-stalled, unpaused before paused, then oldest (lower slot on equal age) */
static int tl_better(const struct warp_view *a, const struct warp_view *b)
{
    if (a->ready != b->ready)
        return a->ready > b->ready;
    if (a->cta_paused != b->cta_paused)
        return a->cta_paused < b->cta_paused;
    return a->age != b->age ? a->age < b->age : a->slot < b->slot;
}

/* Bring the groups up to date with the views: drop warps that left, demote
   long stalls, fill the active group. */
static void tl_update(struct tl_state *s, const struct warp_view *w, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t a = w[i].valid ? w[i].age : UINT64_MAX;
        if (a != s->age[i]) {   /* another warp (or none) in this slot: it starts pending */
            s->nactive -= s->active[i];
            s->active[i] = 0;
            s->age[i] = a;
        }
        if (s->active[i] && tl_long_stall(&w[i])) {
            s->active[i] = 0;
            s->nactive--;
        }
    }
    while (s->nactive < (int)s->active_size) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (w[i].valid && !s->active[i] && !tl_long_stall(&w[i]) && (best < 0 || tl_better(&w[i], &w[best])))
                best = i;
        if (best < 0)
            break;
        s->active[best] = 1;
        s->nactive++;
    }
}

/* The active warps in slot order (the SM hands w[] in ascending slot order),
   starting after the last issued one. */
static int tl_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now)
{
    struct tl_state *s = st;
    (void)now;
    if (n > TL_MAX)
        n = TL_MAX;
    tl_update(s, w, n);
    int start = 0;
    while (start < n && (int)w[start].slot <= s->last_slot)
        start++;
    int k = 0;
    for (int j = 0; j < n; j++) {
        int i = (start + j) % n;
        if (s->active[i])
            order[k++] = i;
    }
    return k;
}

static void tl_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now)
{
    (void)in;
    (void)now;
    ((struct tl_state *)st)->last_slot = w->slot;
}

static double tl_sample(const void *st) { return (double)((const struct tl_state *)st)->nactive; }

const struct warp_sched_ops warp_sched_two_level_ops = {
    .name = "two_level",
    .doc = "two-level (Narasiman): round robin in an active group; long stalls demoted, ready warps promoted",
    .state_size = sizeof(struct tl_state),
    .params = tl_params,
    .nparams = sizeof tl_params / sizeof tl_params[0],
    .init = tl_init,
    .order = tl_order,
    .on_issue = tl_on_issue,
    .on_stall = NULL,
    .needs_ready = 1,
    .sample_max = 0,
    .sample_name = "active_warps",
    .sample = tl_sample,
};
