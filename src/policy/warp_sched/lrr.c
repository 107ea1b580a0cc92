/*
 * lrr.c - loose round robin: visit the scheduler's warps in slot order,
 * starting just after the warp that issued last, so every warp gets first
 * place in turn.  Paused CTAs are moved last by the SM (common to all
 * policies), so the policy itself ignores cta_paused.
 */
#include "policy/warp_sched.h"

struct lrr_state {
    int last_slot;             /* slot of the last issued warp, -1 before any */
    uintptr_t last_view;       /* where on_issue found its view (0 before any) */
};

static int lrr_init(void *st, const struct sm_view *sm)
{
    (void)sm;
    ((struct lrr_state *)st)->last_slot = -1;
    ((struct lrr_state *)st)->last_view = 0;
    return 0;
}

/* The SM hands w[] in ascending slot order: start at the first slot greater
   than the last issued. */
static int lrr_rotation(void *st, const struct warp_view *w, int n, sim_cycle now)
{
    const struct lrr_state *s = st;
    (void)now;
    int i = warp_view_lower_bound(w, n, s->last_slot, s->last_view);
    if (i < n && (int)w[i].slot == s->last_slot)
        i++;
    return i >= n ? 0 : i;
}

static int lrr_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now)
{
    int start = lrr_rotation(st, w, n, now);
    int k = 0;
    for (int i = start; i < n; i++)
        order[k++] = i;
    for (int i = 0; i < start; i++)
        order[k++] = i;
    return k;
}

static void lrr_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now)
{
    (void)in;
    (void)now;
    ((struct lrr_state *)st)->last_slot = w->slot;
    ((struct lrr_state *)st)->last_view = (uintptr_t)w;
}

const struct warp_sched_ops warp_sched_lrr_ops = {
    .name = "lrr",
    .doc = "loose round robin: slot order starting after the last issued warp",
    .state_size = sizeof(struct lrr_state),
    .params = NULL,
    .nparams = 0,
    .init = lrr_init,
    .order = lrr_order,
    .on_issue = lrr_on_issue,
    .on_stall = NULL,
    .rotation = lrr_rotation,
    .order_pure = 1,
};
