/*
 * brrip.c - bimodal re-reference interval prediction: as SRRIP (rrip.h), but a
 * new line is inserted at RRPV 2^M-1 (distant) except once in 2^long_prob_log2
 * fills (a deterministic per-cache PRNG) at 2^M-2.  Thrash-resistant: when
 * the working set exceeds the cache, part of it stays.
 */
#include "policy/repl/rrip.h"

static const struct cfg_opt brrip_params[] = {
    RRIP_BITS_PARAM(struct rrip_state),
    CFG_OPT("long_prob_log2", CFG_UINT, struct rrip_state, long_prob_log2, "5", 0, 16,
            "a fill is inserted long (RRPV max-1) with probability 1/2^k, else distant (max)"),
};

static void brrip_init(void *st, uint32_t nsets, uint32_t assoc) { repl_rrip_init_mode(st, nsets, assoc, 1); }

const struct repl_ops repl_brrip_ops = {
    .name = "brrip",
    .doc = "bimodal RRIP: as srrip, but insert at RRPV max except 1 in 2^long_prob_log2 fills at max-1",
    .state_size = repl_rrip_state_size,
    .init = brrip_init,
    .victim = repl_rrip_victim,
    .on_hit = repl_rrip_on_hit,
    .on_fill = repl_rrip_on_fill,
    .on_evict = NULL,
    .params = brrip_params,
    .nparams = sizeof brrip_params / sizeof brrip_params[0],
};
