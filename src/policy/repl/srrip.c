/*
 * srrip.c - static re-reference interval prediction (SRRIP-HP): insert at
 * RRPV 2^M-2 (long), a hit sets 0, the victim is the first line at 2^M-1
 * after aging (rrip.h).  Scan-resistant: a line reused once outlives a stream
 * of lines that are never reused.
 */
#include "policy/repl/rrip.h"

static const struct cfg_opt srrip_params[] = {
    RRIP_BITS_PARAM(struct rrip_state),
};

static void srrip_init(void *st, uint32_t nsets, uint32_t assoc) { repl_rrip_init_mode(st, nsets, assoc, 0); }

const struct repl_ops repl_srrip_ops = {
    .name = "srrip",
    .doc = "static RRIP, hit priority: insert at RRPV max-1, hit -> 0, evict the first way at max (aging)",
    .state_size = repl_rrip_state_size,
    .init = srrip_init,
    .victim = repl_rrip_victim,
    .on_hit = repl_rrip_on_hit,
    .on_fill = repl_rrip_on_fill,
    .on_evict = NULL,
    .params = srrip_params,
    .nparams = sizeof srrip_params / sizeof srrip_params[0],
};
