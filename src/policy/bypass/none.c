/* none.c - no bypassing: every read miss allocates (the default; the cache skips all hooks). */
#include "policy/bypass.h"

static size_t none_state_size(uint32_t nsets, uint32_t assoc)
{
    (void)nsets, (void)assoc;
    return 1;
}

static void none_init(void *st, uint32_t nsets, uint32_t assoc) { (void)st, (void)nsets, (void)assoc; }

static int none_should_bypass(void *st, const struct bypass_access *a, sim_cycle now)
{
    (void)st, (void)a, (void)now;
    return 0;
}

const struct bypass_ops bypass_none_ops = {
    .name = "none",
    .doc = "never bypass: every read miss allocates a line (default)",
    .state_size = none_state_size,
    .init = none_init,
    .should_bypass = none_should_bypass,
};
