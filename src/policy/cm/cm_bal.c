/*
 * cm_bal.c - CM-BAL, balanced concurrency management (004 sec. 4.2, SPEC
 * section 6).  The warp limit of each core moves between the levels
 * 1, 2, 3, 4, 6, 8, 16, 24, 48 (levels above the core's maximum are replaced
 * by the maximum).  At the end of every interval, per core:
 *
 *   0. the moving average of stall_GPU of the level used in the interval is
 *      updated: the first sample at a level sets it, later ones
 *      new = old x 0.25 + sample x 0.75;
 *   1. Part 1 is CM-CPU's congestion test, one level down or up;
 *   2. Part 2 overrides it from the table: if avg(current) - avg(upper) > k,
 *      go up one level (more warps would stall the core less by more than
 *      k); otherwise, if Part 1 goes down and avg(lower) - avg(current) > k,
 *      stay (fewer warps would stall it more by more than k).  A comparison
 *      with a neighbour whose entry is not valid yet is skipped (footnote 11);
 *   3. after 4 consecutive intervals at one level the core moves anyway,
 *      down from a level >= 6 and up from a lower one, so that the
 *      neighbours' averages stay current (004 sec. 4.2; Fig. 14's point C:
 *      the move happens even where Part 2 had kept the level).
 *
 * k is the user's knob of GPU priority: CM-BAL1..4 = k 32, 64, 96, 128 for
 * 1024-cycle intervals (004 sec. 5); k is taken as given, so a different
 * interval needs k scaled by the user (004: k proportional to the interval).
 * Every core starts at the highest level; a fresh state per kernel
 * invalidates the table at kernel start and end as 004 does.
 */
#include <stdbool.h>

#include "policy/cm/cm_common.h"

#define CM_BAL_MAX_LEVELS 9
#define CM_BAL_STAY 4              /* intervals at one level before a refreshing move */

static const unsigned cm_bal_levels[CM_BAL_MAX_LEVELS] = {1, 2, 3, 4, 6, 8, 16, 24, 48};

struct cm_bal_core {
    unsigned cur;                  /* level index in force */
    unsigned stay;                 /* intervals spent at it so far */
    unsigned nlev;                 /* levels of this core */
    unsigned level[CM_BAL_MAX_LEVELS];
    uint16_t valid;                /* bit i: avg[i] holds a sample */
    double avg[CM_BAL_MAX_LEVELS];
};

struct cm_bal_state {
    struct cm_head h;
    double t_h, t_l, k;
    unsigned n_cores;
    /* diagnostics of the last decision of core 0 (tests, 004 Fig. 14) */
    double diff_low, diff_up;
    struct cm_bal_core core[];     /* [n_cores] */
};

#define CM_BAL_PARAMS(name, kdef)                                                                         \
    static const struct cfg_opt name[] = {                                                                \
        CFG_OPT("interval", CFG_UINT, struct cm_bal_state, h.interval, "1024", 1, 1 << 24,                 \
                "core cycles between decisions (004: 1024)"),                                             \
        CFG_OPT("t_h", CFG_DOUBLE, struct cm_bal_state, t_h, "1", 0, 1e6,                                  \
                "Part 1: stall_MC or stall_net above this goes one level down (004: 1)"),                  \
        CFG_OPT("t_l", CFG_DOUBLE, struct cm_bal_state, t_l, "0.25", 0, 1e6,                               \
                "Part 1: stall_MC and stall_net both below this go one level up (004: 0.25)"),             \
        CFG_OPT("k", CFG_DOUBLE, struct cm_bal_state, k, kdef, 0, 1e9,                                     \
                "Part 2's margin in stall_GPU cycles per interval: higher k, less GPU priority "          \
                "(004: 32, 64, 96, 128 = CM-BAL1..4)"),                                                   \
    }

static size_t cm_bal_size(unsigned n_cores)
{
    return sizeof(struct cm_bal_state) + sizeof(struct cm_bal_core) * n_cores;
}

static void cm_bal_init(void *st, const struct cm_view *v, unsigned *limit)
{
    struct cm_bal_state *s = st;
    s->n_cores = v->n_cores;
    for (unsigned i = 0; i < v->n_cores; i++) {
        struct cm_bal_core *c = &s->core[i];
        unsigned max = v->core[i].max_warps ? v->core[i].max_warps : 1;
        c->nlev = 0;
        for (unsigned j = 0; j < CM_BAL_MAX_LEVELS && cm_bal_levels[j] < max; j++)
            c->level[c->nlev++] = cm_bal_levels[j];
        c->level[c->nlev++] = max;
        c->cur = c->nlev - 1;
        c->stay = 0;
        c->valid = 0;
        limit[i] = c->level[c->cur];
    }
}

/* One core's decision: the level index for the next interval. */
static unsigned cm_bal_core_decide(struct cm_bal_state *s, struct cm_bal_core *c, int part1, double sample,
                                   bool diag)
{
    unsigned cur = c->cur;
    uint16_t bit = (uint16_t)(1u << cur);
    c->avg[cur] = (c->valid & bit) ? c->avg[cur] * 0.25 + sample * 0.75 : sample;
    c->valid |= bit;
    c->stay++;

    bool has_up = cur + 1 < c->nlev && (c->valid & (1u << (cur + 1)));
    bool has_low = cur > 0 && (c->valid & (1u << (cur - 1)));
    double diff_up = has_up ? c->avg[cur] - c->avg[cur + 1] : 0;
    double diff_low = has_low ? c->avg[cur - 1] - c->avg[cur] : 0;
    if (diag) {
        s->diff_up = diff_up;
        s->diff_low = diff_low;
    }
    int dir = part1;
    if (has_up && diff_up > s->k)
        dir = +1;
    else if (dir < 0 && has_low && diff_low > s->k)
        dir = 0;
    if (dir == 0 && c->stay >= CM_BAL_STAY)
        dir = c->level[cur] >= 6 ? -1 : +1;

    unsigned next = cur;
    if (dir < 0 && cur > 0)
        next = cur - 1;
    else if (dir > 0 && cur + 1 < c->nlev)
        next = cur + 1;
    if (next != cur)
        c->stay = 0;
    c->cur = next;
    return next;
}

static void cm_bal_decide(void *st, const struct cm_view *v, unsigned *limit, sim_cycle now)
{
    struct cm_bal_state *s = st;
    (void)now;
    int part1 = cm_congestion_step(v, s->t_h, s->t_l);
    for (unsigned i = 0; i < v->n_cores && i < s->n_cores; i++) {
        struct cm_bal_core *c = &s->core[i];
        unsigned next = cm_bal_core_decide(s, c, part1, (double)v->core[i].stall_gpu, i == 0);
        limit[i] = c->level[next];
    }
}

void cm_bal_last_diffs(const void *st, double *diff_low, double *diff_up)
{
    const struct cm_bal_state *s = st;
    *diff_low = s->diff_low;
    *diff_up = s->diff_up;
}

#define CM_BAL_OPS(id, label, kdef, what)                                                                 \
    CM_BAL_PARAMS(id##_params, kdef);                                                                     \
    const struct cm_ops cm_##id##_ops = {                                                                 \
        .name = label,                                                                                    \
        .doc = what,                                                                                      \
        .state_size = cm_bal_size,                                                                        \
        .params = id##_params,                                                                            \
        .nparams = sizeof id##_params / sizeof id##_params[0],                                            \
        .init = cm_bal_init,                                                                              \
        .decide = cm_bal_decide,                                                                          \
    };

CM_BAL_OPS(cm_bal, "cm_bal", "32",
           "CM-BAL (004 sec. 4.2): CM-CPU over the levels 1..48, overridden per core by a table of stall_GPU "
           "moving averages (margin k, default 32 = CM-BAL1)")
CM_BAL_OPS(cm_bal1, "cm_bal1", "32", "CM-BAL with k = 32 (004's CM-BAL1: the highest GPU priority)")
CM_BAL_OPS(cm_bal2, "cm_bal2", "64", "CM-BAL with k = 64 (004's CM-BAL2)")
CM_BAL_OPS(cm_bal3, "cm_bal3", "96", "CM-BAL with k = 96 (004's CM-BAL3)")
CM_BAL_OPS(cm_bal4, "cm_bal4", "128", "CM-BAL with k = 128 (004's CM-BAL4: the lowest GPU priority)")
