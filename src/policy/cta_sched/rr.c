/*
 * rr.c - baseline CTA scheduler: load-balanced round robin (001 sec. II).
 *
 * CTA i goes to core i mod C in the first round (every core starts empty, so
 * scanning from the core after the last one that got a CTA hands out 0, 1,
 * ..., C-1, 0, ...); afterwards, whenever CTAs remain, the next one goes to
 * the first core with free resources found scanning from the core after the
 * last one that got a CTA.  At most one CTA per core per cycle: within one
 * cycle the scan never wraps back to the first core served in that cycle.
 * The position is reset at every kernel start so the first-round mapping
 * holds per kernel.
 */
#include "policy/cta_sched.h"

struct rr_state {
    unsigned last;              /* core that got the most recent CTA */
    unsigned first_this_cycle;  /* first core served in cycle `cycle` */
    sim_cycle cycle;            /* cycle of the current dispatch round */
    int served;                 /* at least one CTA dispatched in `cycle` */
};

static int rr_init(void *st, const struct gpu_view *g)
{
    struct rr_state *s = st;
    s->last = g->n_sms ? g->n_sms - 1 : 0;
    s->first_this_cycle = 0;
    s->cycle = SIM_NEVER;
    s->served = 0;
    return 0;
}

static int rr_pick_sm(void *st, const struct gpu_view *g, sim_cycle now)
{
    struct rr_state *s = st;
    if (g->n_sms == 0 || g->next_cta >= g->n_ctas)
        return -1;
    if (s->cycle != now) {
        s->cycle = now;
        s->served = 0;
    }
    for (unsigned k = 1; k <= g->n_sms; k++) {
        unsigned c = (s->last + k) % g->n_sms;
        /* wrapped back to the first core of this cycle: every core had its chance */
        if (s->served && c == s->first_this_cycle)
            return -1;
        if (g->sm[c].can_take)
            return (int)c;
    }
    return -1;
}

static void rr_on_dispatch(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct rr_state *s = st;
    (void)cta;
    if (s->cycle != now || !s->served) {
        s->cycle = now;
        s->served = 1;
        s->first_this_cycle = sm;
    }
    s->last = sm;
}

const struct cta_sched_ops cta_sched_rr_ops = {
    .name = "rr",
    .doc = "load-balanced round robin: CTA i to core i mod C, then to the next core with free resources",
    .state_size = sizeof(struct rr_state),
    .params = NULL,
    .nparams = 0,
    .init = rr_init,
    .pick_sm = rr_pick_sm,
    .on_dispatch = rr_on_dispatch,
    .on_cta_done = NULL,
};
