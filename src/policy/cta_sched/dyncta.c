/*
 * dyncta.c - DYNCTA, dynamic CTA modulation with CTA pausing (Kayiran et al.,
 * PACT'13, 001 sec. IV, Algorithm 1, Table III).
 *
 * Every core starts at n = floor(N/2) (N = CTAs its resources allow for this
 * kernel) and receives CTAs round robin under that limit: the dispatch order
 * is the registered rr policy's (the seed's ISSUE_CTAs_TO_CORE(n), "the
 * default CTA scheduler with CTA limit n"), so with fewer than C x floor(N/2)
 * CTAs no two cores differ by more than one.  Then, every sampling period,
 * each core decides locally from its own C_idle and C_mem counted IN THAT
 * PERIOD (the seed resets them after each decision; here they are differences
 * of the cores' cumulative counters):
 *
 *   C_idle >= t_idle            -> n + 1 if n < N     (a paused CTA resumes first)
 *   else C_mem <  t_mem_l       -> n + 1 if n < N     (a paused CTA resumes first)
 *   else C_mem >= t_mem_h       -> n - 1 if n > 1     (the newest running CTA pauses)
 *   otherwise                   -> n unchanged
 *
 * The GPU applies n (sys/gpu_run.c, docs/policies.md): more than n running
 * CTAs -> the most recently assigned ones pause; paused CTAs and room under n
 * -> the least recently assigned paused CTA (= the most recently paused one,
 * the seed's example: CTA2 resumes before CTA3) resumes instead of a new CTA
 * being dispatched.
 *
 * Choices where the text leaves room (each written down in docs/policies.md):
 *  - comparisons as in Algorithm 1: C_idle >= t_idle, C_mem < t_mem_l,
 *    C_mem >= t_mem_h (the prose says "> t_idle"; the pseudo-code rules).
 *  - Algorithm 1's "if nCTA > n: unpause the least recently assigned CTA,
 *    else if n < N: n++" is read as n + 1 in both cases: its last loop pauses
 *    nCTA - n CTAs, which would pause the resumed CTA again if n stayed, and
 *    the prose says "if n is incremented ... the most recently paused CTA
 *    resumes".  With nCTA > n, n < N holds, so the two branches collapse.
 *  - 1 <= n <= N always (Algorithm 1's bounds), also after the last CTA has
 *    been dispatched: pausing still reorders the remaining work.
 *  - N = 1 starts at n = 1 (floor(1/2) = 0 would run nothing).
 *  - periods count core cycles from the kernel's first cycle; the first
 *    decision is after `period` cycles.
 *  - C_idle and C_mem are the SM's (docs/timing.md): C_idle counts cycles
 *    with no warp to issue (none resident, or all at barriers / waiting for
 *    fetch), C_mem cycles in which every resident warp waits for memory.
 */
#include <stdio.h>

#include "policy/cta_sched.h"
#include "policy/params.h"

#define DYNCTA_MAX_SMS 4096    /* the configuration's bound on SMs */
#define DYNCTA_BASE_BYTES 64   /* room for the rr policy's state */

struct dyncta_state {
    /* parameters (Table III, sec. IV "Parameters") */
    unsigned t_idle, t_mem_l, t_mem_h, period, n_init;
    int started;                              /* the kernel-start call has run */
    const struct cta_sched_ops *base;         /* rr */
    _Alignas(16) unsigned char base_st[DYNCTA_BASE_BYTES];
    uint64_t c_idle0[DYNCTA_MAX_SMS];         /* counters at the start of the period */
    uint64_t c_mem0[DYNCTA_MAX_SMS];
};

static const struct cfg_opt dyncta_params[] = {
    CFG_OPT("t_idle", CFG_UINT, struct dyncta_state, t_idle, "16", 0, 4e9,
            "C_idle in a period at or above which n grows (the core is underused)"),
    CFG_OPT("t_mem_l", CFG_UINT, struct dyncta_state, t_mem_l, "128", 0, 4e9,
            "C_mem in a period below which n grows (memory latency is well hidden)"),
    CFG_OPT("t_mem_h", CFG_UINT, struct dyncta_state, t_mem_h, "384", 0, 4e9,
            "C_mem in a period at or above which n shrinks (too much memory contention)"),
    CFG_OPT("period", CFG_UINT, struct dyncta_state, period, "2048", 1, 4e9,
            "sampling period in core cycles"),
    CFG_OPT("n_init", CFG_UINT, struct dyncta_state, n_init, "0", 0, 64,
            "initial n per core; 0 = floor(N/2) (the seed's choice; it also tried 1 and N)"),
};

static const char *dyncta_check(const void *st, const struct policy_machine *m, char *msg, size_t n)
{
    const struct dyncta_state *s = st;
    if (s->t_mem_l > s->t_mem_h) {
        snprintf(msg, n, "%u exceeds t_mem_h (%u): C_mem below t_mem_l grows n, at or above t_mem_h shrinks it "
                 "(Algorithm 1), so t_mem_l <= t_mem_h", s->t_mem_l, s->t_mem_h);
        return "t_mem_l";
    }
    if (s->n_init > m->max_cta_per_core) {
        snprintf(msg, n, "%u exceeds the CTAs an SM may hold (-gpgpu_shader_cta %u); 0 = floor(N/2)", s->n_init,
                 m->max_cta_per_core);
        return "n_init";
    }
    return NULL;
}

static int dyncta_init(void *st, const struct gpu_view *g)
{
    struct dyncta_state *s = st;
    s->started = 0;
    if (g->n_sms > DYNCTA_MAX_SMS || s->t_mem_l > s->t_mem_h || s->period == 0)
        return -1;
    s->base = cta_sched_find("rr");
    if (!s->base || s->base->state_size > sizeof s->base_st)
        return -1;
    return s->base->init ? s->base->init(s->base_st, g) : 0;
}

/* One core's decision for a period (Algorithm 1's loop body). */
static unsigned dyncta_decide(const struct dyncta_state *s, unsigned n, unsigned N, uint64_t c_idle, uint64_t c_mem)
{
    if (c_idle >= s->t_idle || c_mem < s->t_mem_l)
        return n < N ? n + 1 : n;
    if (c_mem >= s->t_mem_h)
        return n > 1 ? n - 1 : n;
    return n;
}

static sim_cycle dyncta_update(void *st, const struct gpu_view *g, unsigned *limit, sim_cycle now)
{
    struct dyncta_state *s = st;
    (void)now;
    for (unsigned i = 0; i < g->n_sms && i < DYNCTA_MAX_SMS; i++) {
        const struct sm_cta_view *v = &g->sm[i];
        unsigned N = v->max_fit ? v->max_fit : 1;
        if (!s->started) {
            unsigned n0 = s->n_init ? s->n_init : N / 2;
            limit[i] = n0 < 1 ? 1 : n0 > N ? N : n0;
        } else {
            limit[i] = dyncta_decide(s, limit[i], N, v->c_idle - s->c_idle0[i], v->c_mem - s->c_mem0[i]);
        }
        /* the counters restart for the next window */
        s->c_idle0[i] = v->c_idle;
        s->c_mem0[i] = v->c_mem;
    }
    s->started = 1;
    return s->period;
}

static int dyncta_pick_sm(void *st, const struct gpu_view *g, sim_cycle now)
{
    struct dyncta_state *s = st;
    return s->base->pick_sm(s->base_st, g, now);
}

static void dyncta_on_dispatch(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct dyncta_state *s = st;
    if (s->base->on_dispatch)
        s->base->on_dispatch(s->base_st, sm, cta, now);
}

static void dyncta_on_cta_done(void *st, unsigned sm, uint64_t cta, sim_cycle now)
{
    struct dyncta_state *s = st;
    if (s->base->on_cta_done)
        s->base->on_cta_done(s->base_st, sm, cta, now);
}

const struct cta_sched_ops cta_sched_dyncta_ops = {
    .name = "dyncta",
    .doc = "DYNCTA (001 sec. IV): per-core CTA limit n from C_idle/C_mem every period, CTA pausing",
    .state_size = sizeof(struct dyncta_state),
    .params = dyncta_params,
    .nparams = sizeof dyncta_params / sizeof dyncta_params[0],
    .check = dyncta_check,
    .init = dyncta_init,
    .pick_sm = dyncta_pick_sm,
    .on_dispatch = dyncta_on_dispatch,
    .on_cta_done = dyncta_on_cta_done,
    .update = dyncta_update,
    .max_per_cycle = 1,
};
