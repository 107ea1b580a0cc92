/*
 * caws_avg.c - average based CAWS (seed 000 sec. 3.4.1 item 4, sec. 3.4.2):
 * three priority levels from the mean oracle execution time of the SM's
 * warps (every warp of the CTAs resident on the SM): more than threshold%
 * above the mean = critical (boost% more issue slots), more than threshold%
 * below = fast (slowdown% fewer), the rest the baseline (caws.h).
 */
#include "policy/warp_sched/caws.h"

static const struct cfg_opt caws_avg_params[] = {
    CAWS_COMMON_PARAMS,
    CFG_OPT("threshold", CFG_DOUBLE, struct caws_state, threshold, "20", 0, 100,
            "percent above / below the mean execution time that makes a warp critical / fast"),
    CFG_OPT("slowdown", CFG_DOUBLE, struct caws_state, slowdown, "20", 0, 90,
            "percent fewer issue slots for fast warps (20: reset 59 instead of 47 with 48 warps)"),
};

static int caws_avg_init(void *st, const struct sm_view *sm) { return caws_init(st, sm, CAWS_AVG); }

const struct warp_sched_ops warp_sched_caws_avg_ops = {
    .name = "caws_avg",
    .doc = "CAWS-avg (oracle): priority counters; slow warps (> mean + 20%) more slots, fast (< mean - 20%) fewer",
    .state_size = sizeof(struct caws_state),
    .params = caws_avg_params,
    .nparams = sizeof caws_avg_params / sizeof caws_avg_params[0],
    .init = caws_avg_init,
    .order = caws_order,
    .on_issue = caws_on_issue,
    .on_stall = NULL,
    .needs_ready = 0,
    .sample_max = 1,
    .sample_name = "crit_time",
    .sample = caws_sample,
    .fini = caws_fini,
};
