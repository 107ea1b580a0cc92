/*
 * gpu_cm.c - the concurrency manager's place in the GPU (policy/cm.h, seed
 * 004 sec. 4): at kernel start the manager's state is made afresh (004
 * invalidates CM-BAL's tables at kernel start and end) and sets the first
 * warp limits; then, at the end of every `interval`-th core cycle of the
 * kernel, it gets the interval's metrics and sets the limits again, which the
 * SMs hand to their warp scheduler (sm_set_warp_limit, swl).
 *
 * Metrics of an interval (differences of cumulative counters):
 *   stall_gpu per core  the SM's stall_gpu (sm_metrics): scheduler cycles
 *                       with live warps that issued nothing, skipped cycles
 *                       included;
 *   stall_MC, stall_net the memory partitions' dram_stall and reply_stall
 *                       (partition_stats: L2 cycles in which a request
 *                       waited for a full DRAM queue / a full reply queue),
 *                       summed over partitions and divided by the L2 cycles
 *                       of the interval: stalled requests per cycle, 0 ..
 *                       partitions, as 004 sec. 3.2.1 defines them.
 * The decision runs after the SMs' cycle, like the CTA policy's update; idle
 * skipping stops at its cycle (gpu_cm_next).  Determinism: integer counters,
 * the manager's arithmetic in a fixed order.
 */
#include <string.h>

#include "policy/cm.h"
#include "sys/gpu_int.h"

/* once per GPU, at its first kernel: the manager and the arrays it needs */
static int gpu_cm_setup(struct gpu *g, char *msg, size_t n)
{
    g->cm_ops = cm_find(g->cfg.cm ? g->cfg.cm : "none");
    if (!g->cm_ops) {
        snprintf(msg, n, "-warpsim_cm: unknown concurrency manager '%s'", g->cfg.cm);
        return -1;
    }
    g->cm_next = SIM_NEVER;
    g->cm_ready = true;
    if (!g->cm_ops->decide)
        return 0;
    g->cm_st_size = g->cm_ops->state_size(g->n_sms);
    g->cm_state = arena_alloc(g->arena, g->cm_st_size ? g->cm_st_size : 1);
    g->cm_core = arena_alloc(g->arena, sizeof *g->cm_core * g->n_sms);
    g->cm_limit = arena_alloc(g->arena, sizeof *g->cm_limit * g->n_sms);
    g->cm_stall0 = arena_alloc(g->arena, sizeof *g->cm_stall0 * g->n_sms);
    if (!g->cm_state || !g->cm_core || !g->cm_limit || !g->cm_stall0) {
        snprintf(msg, n, "out of host memory for the concurrency manager");
        return -1;
    }
    return 0;
}

/* counters at the start of an interval */
static void cm_mark(struct gpu *g)
{
    g->cm_mc0 = g->cm_net0 = 0;
    for (unsigned p = 0; p < g->n_parts; p++) {
        const struct partition_stats *ps = partition_get_stats(g->part[p]);
        g->cm_mc0 += ps->dram_stall;
        g->cm_net0 += ps->reply_stall;
    }
    g->cm_l2c0 = g->cyc[GD_L2];
    for (unsigned i = 0; i < g->n_sms; i++)
        g->cm_stall0[i] = sm_get_metrics(g->sm[i])->stall_gpu;
}

static void cm_apply(struct gpu *g)
{
    for (unsigned i = 0; i < g->n_sms; i++) {
        unsigned max = g->cm_core[i].max_warps;
        unsigned l = g->cm_limit[i];
        l = l < 1 ? 1 : l > max ? max : l;
        g->cm_core[i].limit = l;
        sm_set_warp_limit(g->sm[i], l);
    }
}

static struct cm_view cm_view_of(const struct gpu *g, uint64_t interval)
{
    return (struct cm_view){.n_cores = g->n_sms, .core = g->cm_core, .n_sched = g->cfg.num_sched_per_core,
                            .n_mem = g->n_parts, .interval = interval};
}

int gpu_cm_kernel_start(struct gpu *g, sim_cycle kstart, char *msg, size_t n)
{
    if (!g->cm_ready && gpu_cm_setup(g, msg, n) != 0)
        return -1;
    g->cm_next = SIM_NEVER;
    if (!g->cm_ops || !g->cm_ops->decide)
        return 0;
    memset(g->cm_state, 0, g->cm_st_size ? g->cm_st_size : 1);
    struct cfg_error perr;
    if (policy_params_apply(g->pparams.arena ? &g->pparams : NULL, "cm", g->cm_ops->name, g->cm_ops->params,
                            g->cm_ops->nparams, g->cm_state, &perr) != 0) {
        snprintf(msg, n, "%s", perr.msg);
        return -1;
    }
    for (unsigned i = 0; i < g->n_sms; i++)
        g->cm_core[i] = (struct cm_core_view){0, g->cfg.max_warps_per_core, g->cfg.max_warps_per_core};
    struct cm_view v = cm_view_of(g, 0);
    g->cm_ops->init(g->cm_state, &v, g->cm_limit);
    cm_apply(g);
    cm_mark(g);
    unsigned iv = ((const struct cm_head *)g->cm_state)->interval;
    g->cm_interval = iv ? iv : 1024;
    g->cm_next = kstart + g->cm_interval - 1;   /* the end of the interval's last cycle */
    return 0;
}

void gpu_cm_decide(struct gpu *g, sim_cycle now)
{
    for (unsigned i = 0; i < g->n_sms; i++)   /* SMs skipped in this cycle account it first */
        sm_settle(g->sm[i], now);
    uint64_t mc = 0, net = 0;
    for (unsigned p = 0; p < g->n_parts; p++) {
        const struct partition_stats *ps = partition_get_stats(g->part[p]);
        mc += ps->dram_stall;
        net += ps->reply_stall;
    }
    uint64_t l2c = g->cyc[GD_L2] - g->cm_l2c0;
    struct cm_view v = cm_view_of(g, g->cm_interval);
    v.stall_mc = l2c ? (double)(mc - g->cm_mc0) / (double)l2c : 0;
    v.stall_net = l2c ? (double)(net - g->cm_net0) / (double)l2c : 0;
    for (unsigned i = 0; i < g->n_sms; i++)
        g->cm_core[i].stall_gpu = sm_get_metrics(g->sm[i])->stall_gpu - g->cm_stall0[i];
    g->cm_last_mc = v.stall_mc;
    g->cm_last_net = v.stall_net;
    for (unsigned i = 0; i < g->n_sms; i++)
        g->cm_limit[i] = g->cm_core[i].limit;
    g->cm_ops->decide(g->cm_state, &v, g->cm_limit, now);
    cm_apply(g);
    g->cm_decisions++;
    for (unsigned i = 0; i < g->n_sms; i++)
        g->cm_limit_sum += g->cm_core[i].limit;
    cm_mark(g);
    g->cm_next = now + g->cm_interval;
}

unsigned gpu_cm_limit(const struct gpu *g, unsigned sm)
{
    return g->cm_ops && g->cm_ops->decide && g->grid ? g->cm_core[sm].limit : 0;
}

bool gpu_cm_active(const struct gpu *g) { return g->cm_ops && g->cm_ops->decide; }
