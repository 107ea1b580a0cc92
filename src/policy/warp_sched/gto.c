/*
 * gto.c - greedy then oldest: the warp that issued last is visited first as
 * long as it exists (so it keeps issuing while it can); the others follow by
 * age (dispatch order on the SM; lower slot first on equal age, and the SM
 * gives a CTA's warps ages in warp order).  Paused CTAs are moved last by
 * the SM.
 *
 * The age order only changes when warps arrive or leave, so it is kept
 * between cycles and rebuilt when the views' valid/age pairs differ from the
 * ones it was built from.
 */
#include <stdbool.h>
#include <string.h>

#include "policy/warp_sched.h"

#define GTO_MAX 64

struct gto_state {
    int last_slot;             /* slot of the last issued warp, -1 before any */
    int n;                     /* views the cache was built from */
    int nsorted;
    int sorted[GTO_MAX];       /* valid view indices, oldest first */
    uint64_t age[GTO_MAX];     /* per view index: age when valid, UINT64_MAX when not */
};

static int gto_init(void *st, const struct sm_view *sm)
{
    (void)sm;
    struct gto_state *s = st;
    memset(s, 0, sizeof *s);
    s->last_slot = -1;
    s->n = -1;
    return 0;
}

static int gto_older(const struct warp_view *a, const struct warp_view *b)
{
    return a->age != b->age ? a->age < b->age : a->slot < b->slot;
}

static void gto_rebuild(struct gto_state *s, const struct warp_view *w, int n)
{
    s->n = n;
    s->nsorted = 0;
    for (int i = 0; i < n; i++) {
        s->age[i] = w[i].valid ? w[i].age : UINT64_MAX;
        if (!w[i].valid)
            continue;
        int j = s->nsorted++;
        while (j > 0 && gto_older(&w[i], &w[s->sorted[j - 1]])) {
            s->sorted[j] = s->sorted[j - 1];
            j--;
        }
        s->sorted[j] = i;
    }
}

static int gto_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now)
{
    struct gto_state *s = st;
    (void)now;
    if (n > GTO_MAX)
        n = GTO_MAX;
    bool same = s->n == n;
    for (int i = 0; same && i < n; i++)
        same = s->age[i] == (w[i].valid ? w[i].age : UINT64_MAX);
    if (!same)
        gto_rebuild(s, w, n);
    /* the last issued warp's view, by bisection (w[] is in ascending slot order) */
    int k = 0, greedy = -1, lo = 0, hi = n;
    while (s->last_slot >= 0 && lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((int)w[mid].slot < s->last_slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (s->last_slot >= 0 && lo < n && (int)w[lo].slot == s->last_slot && w[lo].valid)
        greedy = lo;
    if (greedy >= 0)
        order[k++] = greedy;
    for (int i = 0; i < s->nsorted; i++)
        if (s->sorted[i] != greedy)
            order[k++] = s->sorted[i];
    return k;
}

static void gto_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now)
{
    (void)in;
    (void)now;
    ((struct gto_state *)st)->last_slot = w->slot;
}

const struct warp_sched_ops warp_sched_gto_ops = {
    .name = "gto",
    .doc = "greedy then oldest: the last issued warp first, then the others by age",
    .state_size = sizeof(struct gto_state),
    .params = NULL,
    .nparams = 0,
    .init = gto_init,
    .order = gto_order,
    .on_issue = gto_on_issue,
    .on_stall = NULL,
    .order_pure = 1,
};
