/*
 * bcs.c - BCS, block CTA scheduling (M. Lee et al., HPCA 2014, as 003
 * sec. 2.2 and 5.1 describe it): consecutive CTAs often touch the same cache
 * lines, so CTAs go to the SMs in pairs, 2k and 2k+1 to the same SM in the
 * same cycle, and a pair waits until one SM has resources for both ("it could
 * not dispatch thread block until SM has enough hardware resource for
 * supporting the requirement of two thread blocks", 003 sec. 5.1) - the
 * delay that throttles blocks as a side effect.
 *
 * Choices: the SM for a pair is found round robin, scanning from the SM after
 * the one that got the previous pair (the baseline's load balancing); the
 * last CTA of an odd grid goes alone to the first SM with room for one; on an
 * SM where two CTAs of the kernel can never fit (N = 1) CTAs go singly, or
 * the kernel would never run.  The GPU lets one SM receive two CTAs per cycle
 * under this policy (max_per_cycle = 2), so the pair arrives together.
 */
#include "policy/cta_sched.h"

struct bcs_state {
    unsigned last;             /* SM that got the previous pair (or single) */
    int pend_sm;               /* SM owed the second CTA of the pair, -1 for none */
    uint64_t pend_cta;         /* ...which is this CTA */
    int picking_pair;          /* the last pick was for a pair */
};

static int bcs_init(void *st, const struct gpu_view *g)
{
    struct bcs_state *s = st;
    s->last = g->n_sms ? g->n_sms - 1 : 0;
    s->pend_sm = -1;
    s->pend_cta = 0;
    s->picking_pair = 0;
    return 0;
}

static int bcs_pick_sm(void *st, const struct gpu_view *g, sim_cycle now)
{
    struct bcs_state *s = st;
    (void)now;
    if (g->n_sms == 0 || g->next_cta >= g->n_ctas)
        return -1;
    if (s->pend_sm >= 0 && g->next_cta == s->pend_cta && (unsigned)s->pend_sm < g->n_sms)
        return g->sm[s->pend_sm].can_take ? s->pend_sm : -1;
    s->pend_sm = -1;
    int pair = g->next_cta + 1 < g->n_ctas;
    for (unsigned k = 1; k <= g->n_sms; k++) {
        unsigned c = (s->last + k) % g->n_sms;
        const struct sm_cta_view *v = &g->sm[c];
        unsigned need = pair && v->max_fit >= 2 ? 2u : 1u;
        if (v->can_take && v->room >= need) {
            s->picking_pair = need == 2;
            return (int)c;
        }
    }
    return -1;
}

static void bcs_on_dispatch(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct bcs_state *s = st;
    (void)now;
    if (s->pend_sm >= 0 && cta == s->pend_cta) {
        s->pend_sm = -1;   /* the pair is complete */
    } else if (s->picking_pair) {
        s->pend_sm = (int)sm;
        s->pend_cta = cta + 1;
    }
    s->picking_pair = 0;
    s->last = sm;
}

const struct cta_sched_ops cta_sched_bcs_ops = {
    .name = "bcs",
    .doc = "block CTA scheduling (003 sec. 2.2/5.1): CTAs 2k and 2k+1 together to an SM with room for both",
    .state_size = sizeof(struct bcs_state),
    .params = NULL,
    .nparams = 0,
    .init = bcs_init,
    .pick_sm = bcs_pick_sm,
    .on_dispatch = bcs_on_dispatch,
    .on_cta_done = NULL,
    .update = NULL,
    .max_per_cycle = 2,
};
