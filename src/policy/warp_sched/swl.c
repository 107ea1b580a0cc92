/*
 * swl.c - static wavefront limiting (Rogers et al., MICRO 2012, as used in
 * seed 004 sec. 2.1 and SPEC section 6): only the first `limit` warps of the
 * CORE in age order may issue, greedy-then-oldest among them.
 *
 * The limit is per core (004: "the active warp limit" of a core, 1..48 with
 * 48 warps per core), not per scheduler: the SM ranks its live warps by age
 * across all schedulers (warp_view.age_rank, needs_rank) and a scheduler
 * visits only its warps whose rank is below the limit.  Warps waiting at a
 * barrier hold no place in the window (they wait for younger warps of their
 * CTA, which a window full of barrier waiters would never let run); a
 * barrier waiter inside the window is still visited (charged as Sync).
 * Warps outside the window are not visited at all, so they are not probed
 * until they enter it.
 *
 * Default limit 48 = 004's maximum warps per core: no limit on the GTX480
 * configuration, i.e. plain GTO.
 * Time series: warps inside the window (summed over the SM's schedulers).
 */
#include <string.h>

#include "policy/warp_sched.h"

#define SWL_MAX 64

struct swl_state {
    unsigned limit;            /* parameter */
    int last_slot;             /* slot of the last issued warp, -1 before any */
    unsigned allowed;          /* warps of this scheduler inside the window at the last order() */
};

static const struct cfg_opt swl_params[] = {
    CFG_OPT("limit", CFG_UINT, struct swl_state, limit, "48", 1, 64,
            "warps of the core (oldest first, barrier waiters not counted) that may issue; 48 = no limit on GTX480"),
};

static int swl_init(void *st, const struct sm_view *sm)
{
    (void)sm;
    struct swl_state *s = st;
    s->last_slot = -1;
    s->allowed = 0;
    if (!s->limit)
        s->limit = 48;
    return 0;
}

static int swl_older(const struct warp_view *a, const struct warp_view *b)
{
    return a->age != b->age ? a->age < b->age : a->slot < b->slot;
}

static int swl_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now)
{
    struct swl_state *s = st;
    (void)now;
    if (n > SWL_MAX)
        n = SWL_MAX;
    int k = 0, greedy = -1;
    /* the window's warps, oldest first (insertion: at most 64, nearly always few) */
    for (int i = 0; i < n; i++) {
        if (!w[i].valid || w[i].age_rank >= s->limit)
            continue;
        if ((int)w[i].slot == s->last_slot)
            greedy = i;
        int j = k++;
        while (j > 0 && swl_older(&w[i], &w[order[j - 1]])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    s->allowed = (unsigned)k;
    if (greedy >= 0) {   /* greedy: the last issued warp first while it is in the window */
        int j = 0;
        while (order[j] != greedy)
            j++;
        memmove(&order[1], &order[0], sizeof(int) * (size_t)j);
        order[0] = greedy;
    }
    return k;
}

static void swl_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now)
{
    (void)in;
    (void)now;
    ((struct swl_state *)st)->last_slot = w->slot;
}

/* a concurrency manager's limit (004 sec. 4: "SWL with GTO" is the limiter CM-CPU and CM-BAL drive) */
static void swl_set_limit(void *st, unsigned limit)
{
    ((struct swl_state *)st)->limit = limit ? limit : 1;
}

static double swl_sample(const void *st) { return (double)((const struct swl_state *)st)->allowed; }

const struct warp_sched_ops warp_sched_swl_ops = {
    .name = "swl",
    .doc = "static wavefront limiting: only the core's oldest `limit` warps may issue, GTO among them",
    .state_size = sizeof(struct swl_state),
    .params = swl_params,
    .nparams = sizeof swl_params / sizeof swl_params[0],
    .init = swl_init,
    .order = swl_order,
    .on_issue = swl_on_issue,
    .on_stall = NULL,
    .needs_ready = 0,
    .sample_max = 0,
    .sample_name = "allowed_warps",
    .sample = swl_sample,
    .needs_rank = 1,
    .set_limit = swl_set_limit,
};
