/*
 * ship.c - SHiP, signature-based hit predictor (Wu et al., MICRO 2011; the
 * SHiP of 000 sec. 4.2.3 / SPEC section 4) over RRIP (rrip.h):
 *   signature  low 8 bits of the PC XOR low 8 bits of the line address
 *              (the block number: the byte address >> addr_shift, 7 for
 *              128-byte lines)
 *   SHCT       256 saturating counters of ctr_bits (2) bits, all ctr_init (1)
 *   insertion  RRPV 2^M-1 (distant) when SHCT[sig] == 0, else 2^M-2 (long);
 *              M = rrpv_bits (3)
 *   hit        RRPV 0; SHCT[line's stored signature]++ (every hit)
 *   eviction   SHCT[sig]-- if the line was never reused
 * Victims as SRRIP (repl_rrip_victim).  The signature of a fill is the one
 * computed by the victim() call that precedes every on_fill (the repl.h
 * protocol), since on_fill sees only the PC.
 */
#include "policy/repl/rrip.h"

#define SHIP_SIGS 256u

struct ship_state {
    /* parameters */
    unsigned rrpv_bits, ctr_bits, ctr_init, addr_shift;
    /* set by init */
    uint32_t assoc;
    uint8_t ctr_max, next_sig;
    uint8_t pad_[2];
    struct rrip_state *rr;     /* the RRPVs, after the per-line arrays below */
    uint8_t *sig, *reused;     /* [nsets * assoc] */
    uint8_t shct[SHIP_SIGS];
    uint8_t mem[];
};

static const struct cfg_opt ship_params[] = {
    CFG_OPT("rrpv_bits", CFG_UINT, struct ship_state, rrpv_bits, "3", 1, 8, "bits of the RRPV (M)"),
    CFG_OPT("ctr_bits", CFG_UINT, struct ship_state, ctr_bits, "2", 1, 8, "bits of each SHCT counter"),
    CFG_OPT("ctr_init", CFG_UINT, struct ship_state, ctr_init, "1", 0, 255,
            "initial SHCT value (clamped to the counter's maximum)"),
    CFG_OPT("addr_shift", CFG_UINT, struct ship_state, addr_shift, "7", 0, 12,
            "the line address is the byte address >> addr_shift (log2 of the line size)"),
};

static size_t ship_state_size(uint32_t nsets, uint32_t assoc)
{
    size_t n = (size_t)nsets * assoc;
    return sizeof(struct ship_state) + 2 * n + 8 + repl_rrip_state_size(nsets, assoc);
}

static void ship_init(void *st, uint32_t nsets, uint32_t assoc)
{
    struct ship_state *s = st;
    size_t n = (size_t)nsets * assoc;
    s->assoc = assoc;
    unsigned cb = s->ctr_bits >= 1 && s->ctr_bits <= 8 ? s->ctr_bits : 2;
    s->ctr_max = (uint8_t)((1u << cb) - 1);
    s->sig = s->mem;
    s->reused = s->mem + n;
    s->rr = (struct rrip_state *)(void *)(((uintptr_t)(s->mem + 2 * n) + 7) & ~(uintptr_t)7);
    for (size_t i = 0; i < n; i++) {
        s->sig[i] = 0;
        s->reused[i] = 0;
    }
    uint8_t init = (uint8_t)(s->ctr_init < s->ctr_max ? s->ctr_init : s->ctr_max);
    for (unsigned i = 0; i < SHIP_SIGS; i++)
        s->shct[i] = init;
    s->next_sig = 0;
    s->rr->rrpv_bits = s->rrpv_bits;
    s->rr->long_prob_log2 = 0;
    repl_rrip_init_mode(s->rr, nsets, assoc, 0);
}

static int ship_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now)
{
    struct ship_state *s = st;
    s->next_sig = (uint8_t)((pc ^ (addr >> s->addr_shift)) & 0xff);
    return repl_rrip_victim(s->rr, v, pc, addr, now);
}

static void ship_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    struct ship_state *s = st;
    size_t l = (size_t)set * s->assoc + way;
    uint8_t *c = &s->shct[s->sig[l]];
    if (*c < s->ctr_max)
        (*c)++;
    s->reused[l] = 1;
    repl_rrip_on_hit(s->rr, set, way, pc, now);
}

static void ship_on_fill(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct ship_state *s = st;
    size_t l = (size_t)set * s->assoc + way;
    s->sig[l] = s->next_sig;
    s->reused[l] = 0;
    s->rr->rrpv[l] = s->shct[s->next_sig] == 0 ? s->rr->max : (uint8_t)(s->rr->max - 1);
}

static void ship_on_evict(void *st, uint32_t set, uint32_t way, sim_cycle now)
{
    (void)now;
    struct ship_state *s = st;
    size_t l = (size_t)set * s->assoc + way;
    if (!s->reused[l] && s->shct[s->sig[l]] > 0)
        s->shct[s->sig[l]]--;
    s->reused[l] = 1;   /* counted once (a write-evict then a replacement cannot decrement twice) */
}

const struct repl_ops repl_ship_ops = {
    .name = "ship",
    .doc = "SHiP: RRIP (3-bit) inserting distant when the PC^address signature's SHCT counter is 0, else long",
    .state_size = ship_state_size,
    .init = ship_init,
    .victim = ship_victim,
    .on_hit = ship_on_hit,
    .on_fill = ship_on_fill,
    .on_evict = ship_on_evict,
    .params = ship_params,
    .nparams = sizeof ship_params / sizeof ship_params[0],
};
