/*
 * static_limit.c - "static": a fixed CTA limit n per core, the same on every
 * core for the whole kernel (001 sec. III: running every n = 1..N finds opt,
 * the best fixed level of thread-level parallelism).
 *
 * Which core gets the next CTA is the baseline's decision: the seed's
 * ISSUE_CTAs_TO_CORE(n) is "the default CTA scheduler with CTA limit n", so
 * this policy runs the registered rr policy on its own state and only sets the
 * limits; the GPU never dispatches to a core whose running CTAs reach n (its
 * views say can_take = 0 there).  n = 0, the default, stands for N (no
 * limit), since N depends on the kernel; an n above a kernel's N is N.  The
 * limit never changes during a kernel, so nothing is ever paused.
 */
#include <stdio.h>

#include "policy/cta_sched.h"
#include "policy/params.h"

#define STATIC_BASE_BYTES 64   /* room for the rr policy's state */

struct static_state {
    unsigned n;                               /* parameter: the limit, 0 = N */
    const struct cta_sched_ops *base;         /* rr */
    _Alignas(16) unsigned char base_st[STATIC_BASE_BYTES];
};

static const struct cfg_opt static_params[] = {
    CFG_OPT("n", CFG_UINT, struct static_state, n, "0", 0, 64,
            "CTAs per core at most (n of 001 sec. III); 0 = N, the most the resources allow"),
};

/* n above the machine's CTA limit could never bind (N <= -gpgpu_shader_cta): surely a typo */
static const char *static_check(const void *st, const struct policy_machine *m, char *msg, size_t n)
{
    const struct static_state *s = st;
    if (s->n > m->max_cta_per_core) {
        snprintf(msg, n, "%u exceeds the CTAs an SM may hold (-gpgpu_shader_cta %u); 0 = N, the most the "
                 "resources allow", s->n, m->max_cta_per_core);
        return "n";
    }
    return NULL;
}

static int static_init(void *st, const struct gpu_view *g)
{
    struct static_state *s = st;
    s->base = cta_sched_find("rr");
    if (!s->base || s->base->state_size > sizeof s->base_st)
        return -1;
    return s->base->init ? s->base->init(s->base_st, g) : 0;
}

static sim_cycle static_update(void *st, const struct gpu_view *g, unsigned *limit, sim_cycle now)
{
    const struct static_state *s = st;
    (void)now;
    for (unsigned i = 0; i < g->n_sms; i++)
        limit[i] = s->n && s->n < g->sm[i].max_fit ? s->n : g->sm[i].max_fit;
    return 0;   /* fixed for the whole kernel */
}

static int static_pick_sm(void *st, const struct gpu_view *g, sim_cycle now)
{
    struct static_state *s = st;
    return s->base->pick_sm(s->base_st, g, now);
}

static void static_on_dispatch(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct static_state *s = st;
    if (s->base->on_dispatch)
        s->base->on_dispatch(s->base_st, sm, cta, now);
}

static void static_on_cta_done(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct static_state *s = st;
    if (s->base->on_cta_done)
        s->base->on_cta_done(s->base_st, sm, cta, now);
}

const struct cta_sched_ops cta_sched_static_ops = {
    .name = "static",
    .doc = "fixed CTA limit n per core (001 sec. III sweep), round-robin dispatch under the limit",
    .state_size = sizeof(struct static_state),
    .params = static_params,
    .nparams = sizeof static_params / sizeof static_params[0],
    .check = static_check,
    .init = static_init,
    .pick_sm = static_pick_sm,
    .on_dispatch = static_on_dispatch,
    .on_cta_done = static_on_cta_done,
    .update = static_update,
    .max_per_cycle = 1,
};
