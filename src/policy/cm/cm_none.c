/*
 * cm_none.c - no concurrency management: every core keeps its whole warp
 * window (limit = max warps), and no decision is ever taken.
 */
#include "policy/cm.h"

static size_t none_size(unsigned n_cores)
{
    (void)n_cores;
    return sizeof(struct cm_head);
}

static void none_init(void *st, const struct cm_view *v, unsigned *limit)
{
    (void)st;
    for (unsigned i = 0; i < v->n_cores; i++)
        limit[i] = v->core[i].max_warps;
}

const struct cm_ops cm_none_ops = {
    .name = "none",
    .doc = "no concurrency management: the warp scheduler's own limit (the default)",
    .state_size = none_size,
    .params = NULL,
    .nparams = 0,
    .init = none_init,
    .decide = NULL,
};
