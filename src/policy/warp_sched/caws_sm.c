/*
 * caws_sm.c - SM based CAWS (seed 000 sec. 3.4.1 item 3): the top N
 * critical warps of the SM (longest oracle execution times among every warp
 * of the CTAs resident on the SM; N = those CTAs) get boost% more issue
 * slots through a smaller priority-counter reset value (caws.h).
 */
#include "policy/warp_sched/caws.h"

static const struct cfg_opt caws_sm_params[] = {
    CAWS_COMMON_PARAMS,
};

static int caws_sm_init(void *st, const struct sm_view *sm) { return caws_init(st, sm, CAWS_SM); }

const struct warp_sched_ops warp_sched_caws_sm_ops = {
    .name = "caws_sm",
    .doc = "CAWS-SM (oracle): priority counters, the SM's N most critical warps (N = its CTAs) get more slots",
    .state_size = sizeof(struct caws_state),
    .params = caws_sm_params,
    .nparams = sizeof caws_sm_params / sizeof caws_sm_params[0],
    .init = caws_sm_init,
    .order = caws_order,
    .on_issue = caws_on_issue,
    .on_stall = NULL,
    .needs_ready = 0,
    .sample_max = 1,
    .sample_name = "crit_time",
    .sample = caws_sample,
    .fini = caws_fini,
};
