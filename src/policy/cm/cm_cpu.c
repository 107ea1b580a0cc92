/*
 * cm_cpu.c - CM-CPU, CPU-centric concurrency management (004 sec. 4.1,
 * SPEC section 6): every `interval` core cycles a central unit compares the
 * system's congestion with two thresholds and moves the active warp limit of
 * EVERY GPU core the same way:
 *
 *   stall_MC > t_H or stall_net > t_H      -> lower the limit
 *   stall_MC < t_L and stall_net < t_L     -> raise the limit
 *   otherwise                              -> keep it
 *
 * Steps (SPEC: "step 2 warps in 8..48, step 1 in 1..8"): lowering takes 2
 * warps off a limit above 8 and 1 off a limit of 8 or less; raising adds 1
 * below 8 and 2 from 8 on, so the limits visited are 1..8 and then the even
 * numbers up to the core's maximum (48 on 004's cores).  Every core starts at
 * its maximum (the uncontrolled baseline), and the limit stays in 1..max.
 * Defaults: interval 1024, t_H 1, t_L 0.25 (004 sec. 5, "Mechanism
 * Thresholds").
 */
#include "policy/cm/cm_common.h"

struct cm_cpu_state {
    struct cm_head h;
    double t_h, t_l;
};

static const struct cfg_opt cm_cpu_params[] = {
    CFG_OPT("interval", CFG_UINT, struct cm_cpu_state, h.interval, "1024", 1, 1 << 24,
            "core cycles between decisions (004: 1024)"),
    CFG_OPT("t_h", CFG_DOUBLE, struct cm_cpu_state, t_h, "1", 0, 1e6,
            "stall_MC or stall_net above this lowers the warp limit (004: 1)"),
    CFG_OPT("t_l", CFG_DOUBLE, struct cm_cpu_state, t_l, "0.25", 0, 1e6,
            "stall_MC and stall_net both below this raise it (004: 0.25)"),
};

static size_t cm_cpu_size(unsigned n_cores)
{
    (void)n_cores;
    return sizeof(struct cm_cpu_state);
}

static void cm_cpu_init(void *st, const struct cm_view *v, unsigned *limit)
{
    (void)st;
    for (unsigned i = 0; i < v->n_cores; i++)
        limit[i] = v->core[i].max_warps;
}

/* one CM-CPU step from limit l in direction dir */
static unsigned cm_cpu_next(unsigned l, int dir, unsigned max_warps)
{
    if (dir < 0)
        l = l > 8 ? l - 2 : l > 1 ? l - 1 : 1;
    else if (dir > 0)
        l = l >= 8 ? l + 2 : l + 1;
    return cm_clamp(l, max_warps);
}

static void cm_cpu_decide(void *st, const struct cm_view *v, unsigned *limit, sim_cycle now)
{
    const struct cm_cpu_state *s = st;
    (void)now;
    int dir = cm_congestion_step(v, s->t_h, s->t_l);
    for (unsigned i = 0; i < v->n_cores; i++)
        limit[i] = cm_cpu_next(v->core[i].limit, dir, v->core[i].max_warps);
}

const struct cm_ops cm_cm_cpu_ops = {
    .name = "cm_cpu",
    .doc = "CM-CPU (004 sec. 4.1): lower every core's warp limit while stall_MC or stall_net > t_H, raise it "
           "while both < t_L",
    .state_size = cm_cpu_size,
    .params = cm_cpu_params,
    .nparams = sizeof cm_cpu_params / sizeof cm_cpu_params[0],
    .init = cm_cpu_init,
    .decide = cm_cpu_decide,
};
