/*
 * caws_blk.c - thread-block based CAWS (seed 000 sec. 3.4.1 item 2): the
 * most critical warp of each CTA (the longest oracle execution time in its
 * CTA; ties: the lower warp index) gets boost% more issue slots through a
 * smaller priority-counter reset value (caws.h); every other warp resets to
 * the baseline P - 1.
 */
#include "policy/warp_sched/caws.h"

static const struct cfg_opt caws_blk_params[] = {
    CAWS_COMMON_PARAMS,
};

static int caws_blk_init(void *st, const struct sm_view *sm) { return caws_init(st, sm, CAWS_BLK); }

const struct warp_sched_ops warp_sched_caws_blk_ops = {
    .name = "caws_blk",
    .doc = "CAWS-blk (oracle): priority counters, the most critical warp of each CTA gets more issue slots",
    .state_size = sizeof(struct caws_state),
    .params = caws_blk_params,
    .nparams = sizeof caws_blk_params / sizeof caws_blk_params[0],
    .init = caws_blk_init,
    .order = caws_order,
    .on_issue = caws_on_issue,
    .on_stall = NULL,
    .needs_ready = 0,
    .sample_max = 1,
    .sample_name = "crit_time",
    .sample = caws_sample,
    .fini = caws_fini,
};
