/*
 * rrip.h - the shared mechanism of SRRIP and BRRIP (Jaleel et al., "High
 * Performance Cache Replacement Using Re-Reference Interval Prediction",
 * ISCA 2010): every line carries an M-bit re-reference prediction value
 * (RRPV, 0 = near-immediate .. 2^M-1 = distant).  A hit sets the line's RRPV
 * to 0 (hit priority).  The victim is the first non-reserved way (in way
 * order) with RRPV 2^M-1, an invalid way first; if there is none, every
 * non-reserved line of the set ages by one and the scan repeats.  Only the
 * insertion RRPV differs: SRRIP inserts at 2^M-2 ("long"), BRRIP at 2^M-1
 * ("distant") except, with probability 2^-long_prob_log2, at 2^M-2; the coin
 * is a per-cache xorshift PRNG with a fixed seed, so runs are reproducible.
 *
 * The RRPVs are one byte per line, [nsets * assoc] set-major, after the
 * parameters in the state block (rrpv_bits <= 8).
 */
#ifndef WARPSIM_REPL_RRIP_H
#define WARPSIM_REPL_RRIP_H

#include "policy/repl.h"

struct rrip_state {
    /* parameters (the cfg_opt tables of srrip.c / brrip.c point here) */
    unsigned rrpv_bits;        /* M */
    unsigned long_prob_log2;   /* BRRIP: 1 in 2^k insertions is long (SRRIP: unused) */
    /* set by init */
    uint32_t assoc;
    uint8_t max;               /* 2^M - 1 */
    uint8_t bimodal;           /* BRRIP */
    uint8_t pad_[2];
    uint64_t rng;              /* xorshift64 state, fixed seed */
    uint8_t rrpv[];            /* [nsets * assoc] */
};

#define RRIP_BITS_PARAM(st_)                                                                                    \
    CFG_OPT("rrpv_bits", CFG_UINT, st_, rrpv_bits, "2", 1, 8, "bits of the re-reference prediction value (M)")

size_t repl_rrip_state_size(uint32_t nsets, uint32_t assoc);
void repl_rrip_init_mode(void *st, uint32_t nsets, uint32_t assoc, int bimodal);
int repl_rrip_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now);
void repl_rrip_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);
void repl_rrip_on_fill(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now);
/* RRPV of one line (tests) */
unsigned repl_rrip_rrpv(const void *st, uint32_t set, uint32_t way);

#endif
