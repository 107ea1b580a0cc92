/*
 * all.c - every global read miss goes below without allocating, as
 * GPGPU-Sim's -gpgpu_gmem_skip_L1D: global loads never allocate in the L1D
 * (local-memory reads still do).  In an L2 (no local/global distinction
 * there) every read miss bypasses.
 */
#include "policy/bypass.h"

static size_t all_state_size(uint32_t nsets, uint32_t assoc)
{
    (void)nsets, (void)assoc;
    return 1;
}

static void all_init(void *st, uint32_t nsets, uint32_t assoc) { (void)st, (void)nsets, (void)assoc; }

static int all_should_bypass(void *st, const struct bypass_access *a, sim_cycle now)
{
    (void)st, (void)now;
    return !a->local;
}

static void all_pc_info(const void *st, uint32_t pc, struct bypass_pc_info *out)
{
    (void)st, (void)pc;
    out->level = -1;
    out->insert_ratio = 0.0;
}

const struct bypass_ops bypass_all_ops = {
    .name = "all",
    .doc = "bypass every global read miss (GPGPU-Sim -gpgpu_gmem_skip_L1D); local reads allocate",
    .state_size = all_state_size,
    .init = all_init,
    .should_bypass = all_should_bypass,
    .pc_info = all_pc_info,
};
