/*
 * gto.c - greedy then oldest: the warp that issued last is visited first as
 * long as it exists (so it keeps issuing while it can); the others follow by
 * age (dispatch order on the SM; lower slot first on equal age, and the SM
 * gives a CTA's warps ages in warp order).  Paused CTAs are moved last by
 * the SM.
 *
 * The age order only changes when warps arrive or leave, so it is kept
 * between cycles and rebuilt when the SM's change counter of the views moved
 * (or, without one, when the views' valid/age pairs differ from the ones it
 * was built from).
 */
#include <stdbool.h>
#include <string.h>

#include "policy/warp_sched.h"

#define GTO_MAX 64

struct gto_state {
    int last_slot;             /* slot of the last issued warp, -1 before any */
    uintptr_t last_view;       /* the view on_issue was handed for it (0 before any) */
    const uint64_t *views_gen; /* the SM's change counter of the views (NULL: compare them) */
    uint64_t gen;              /* its value when the cache was built */
    int n;                     /* views the cache was built from */
    int nsorted;
    int sorted[GTO_MAX];       /* valid view indices, oldest first */
    uint64_t age[GTO_MAX];     /* per view index: age when valid, UINT64_MAX when not */
};

static int gto_init(void *st, const struct sm_view *sm)
{
    struct gto_state *s = st;
    memset(s, 0, sizeof *s);
    s->last_slot = -1;
    s->n = -1;
    s->views_gen = sm->views_gen;
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
    if (same && s->views_gen)
        same = *s->views_gen == s->gen;   /* no warp arrived or left since the cache was built */
    else
        for (int i = 0; same && i < n; i++)
            same = s->age[i] == (w[i].valid ? w[i].age : UINT64_MAX);
    if (!same) {
        gto_rebuild(s, w, n);
        if (s->views_gen)
            s->gen = *s->views_gen;
    }
    int k = 0, greedy = -1;
    if (s->last_slot >= 0) {
        int i = warp_view_lower_bound(w, n, s->last_slot, s->last_view);
        if (i < n && (int)w[i].slot == s->last_slot && w[i].valid)
            greedy = i;
    }
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
    ((struct gto_state *)st)->last_view = (uintptr_t)w;
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
