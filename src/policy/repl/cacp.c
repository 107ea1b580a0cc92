/*
 * cacp.c - Criticality-Aware Cache Prioritization (seed 000 sec. 4.2.3,
 * Algorithms 7-9; the cache half of CAWA = CPL + gCAWS + CACP).
 *
 *   partitions  ways [0, crit_ways) hold critical lines, [crit_ways, assoc)
 *               the others (8 of 16 in the seed; default: half the ways,
 *               rounded up; a 1-way cache has one shared partition)
 *   signature   low 8 bits of the PC XOR low 8 bits of the line address
 *               (byte address >> addr_shift), for both predictors
 *   CCBP        256 2-bit saturating counters, all ccbp_init (1)
 *   SHiP SHCT   256 2-bit saturating counters, all shct_init (1)
 *   miss (7)    CCBP[sig] > threshold (1): the line goes to the critical
 *               partition, else to the non-critical one; the victim is chosen
 *               by 2-bit RRIP among that partition's ways only (invalid ways
 *               first, aging only that partition); the insertion position is
 *               SHiP's: RRPV 3 (distant) when SHCT[sig] == 0, else 2 (long)
 *   hit (8)     RRPV 0 (hit promotion, either partition); by a critical warp:
 *               c_reuse, CCBP[sig]++, SHCT[sig]++; by another: nc_reuse,
 *               SHCT[sig]++
 *   evict (9)   in the critical partition, !c_reuse and nc_reuse: CCBP[sig]--;
 *               else with no reuse at all: SHCT[sig]--
 * Whether the requesting warp is critical comes with the access record
 * (repl_ops.on_access, from the SM's warp scheduler: gCAWS answers from CPL,
 * policy/warp_sched.h is_critical).  Without a criticality-aware scheduler
 * (or in the L2, where no warp is known) nothing is critical: CCBP never
 * rises above its initial value, every line goes to the non-critical
 * partition and the critical ways stay empty (the seed's fixed reservation;
 * docs/policies.md).  The signature and partition of a fill are those of the
 * victim() call that precedes every on_fill (the repl.h protocol).
 */
#include "policy/repl.h"

#define CACP_SIGS 256u
#define CACP_CTR_MAX 3u    /* 2-bit counters */
#define CACP_RRPV_MAX 3u   /* 2-bit RRPV */
#define CACP_C_REUSE 1u
#define CACP_NC_REUSE 2u
#define CACP_DONE 4u       /* eviction already trained */

struct cacp_state {
    /* parameters */
    unsigned crit_ways, threshold, ccbp_init, shct_init, addr_shift;
    /* set by init */
    uint32_t assoc, ncrit;     /* ncrit = ways of the critical partition (0: one partition) */
    uint8_t critical;          /* the current access's warp is critical (on_access) */
    uint8_t next_sig;          /* signature of the next fill (victim) */
    uint8_t pad_[6];
    uint8_t *rrpv, *sig, *flags;   /* [nsets * assoc] */
    uint8_t ccbp[CACP_SIGS];
    uint8_t shct[CACP_SIGS];
    uint8_t mem[];
};

static const struct cfg_opt cacp_params[] = {
    CFG_OPT("crit_ways", CFG_UINT, struct cacp_state, crit_ways, "0", 0, 1024,
            "ways of the critical partition (0: half the ways, rounded up; 8 of 16 as the seed); at most assoc-1"),
    CFG_OPT("threshold", CFG_UINT, struct cacp_state, threshold, "1", 0, 3,
            "a fill goes to the critical partition when CCBP[signature] > threshold"),
    CFG_OPT("ccbp_init", CFG_UINT, struct cacp_state, ccbp_init, "1", 0, 3, "initial CCBP counter value"),
    CFG_OPT("shct_init", CFG_UINT, struct cacp_state, shct_init, "1", 0, 3, "initial SHiP SHCT counter value"),
    CFG_OPT("addr_shift", CFG_UINT, struct cacp_state, addr_shift, "7", 0, 12,
            "the line address is the byte address >> addr_shift (log2 of the line size)"),
};

static size_t cacp_state_size(uint32_t nsets, uint32_t assoc)
{
    return sizeof(struct cacp_state) + 3 * (size_t)nsets * assoc;
}

static void cacp_init(void *st, uint32_t nsets, uint32_t assoc)
{
    struct cacp_state *s = st;
    size_t n = (size_t)nsets * assoc;
    s->assoc = assoc;
    if (assoc < 2)
        s->ncrit = 0;
    else if (s->crit_ways == 0)
        s->ncrit = (assoc + 1) / 2;
    else
        s->ncrit = s->crit_ways < assoc ? s->crit_ways : assoc - 1;
    s->critical = 0;
    s->next_sig = 0;
    s->rrpv = s->mem;
    s->sig = s->mem + n;
    s->flags = s->mem + 2 * n;
    for (size_t i = 0; i < n; i++) {
        s->rrpv[i] = CACP_RRPV_MAX;   /* invalid lines are distant */
        s->sig[i] = 0;
        s->flags[i] = CACP_DONE;
    }
    uint8_t ci = (uint8_t)(s->ccbp_init < CACP_CTR_MAX ? s->ccbp_init : CACP_CTR_MAX);
    uint8_t si = (uint8_t)(s->shct_init < CACP_CTR_MAX ? s->shct_init : CACP_CTR_MAX);
    for (unsigned i = 0; i < CACP_SIGS; i++) {
        s->ccbp[i] = ci;
        s->shct[i] = si;
    }
}

static void cacp_on_access(void *st, const struct repl_access *a)
{
    struct cacp_state *s = st;
    s->critical = a->critical != 0;
}

/* Alg. 7: pick the partition by CCBP, then the victim by RRIP within it. */
static int cacp_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now)
{
    (void)now;
    struct cacp_state *s = st;
    uint8_t sig = (uint8_t)((pc ^ (addr >> s->addr_shift)) & 0xff);
    s->next_sig = sig;
    uint32_t lo = 0, hi = v->assoc;
    if (s->ncrit) {
        if (s->ccbp[sig] > s->threshold)
            hi = s->ncrit;
        else
            lo = s->ncrit;
    }
    uint8_t *r = s->rrpv + (size_t)v->set * s->assoc;
    int any = 0;
    for (uint32_t w = lo; w < hi; w++) {
        if (v->reserved[w])
            continue;
        if (!v->valid[w])
            return (int)w;
        any = 1;
    }
    if (!any)
        return -2;   /* every way of the partition is pending: retry later */
    /* age the partition's lines until an evictable one is distant (all rounds at once) */
    uint8_t top = 0;
    for (uint32_t w = lo; w < hi; w++)
        if (!v->reserved[w] && r[w] > top)
            top = r[w];
    unsigned age = CACP_RRPV_MAX - top;
    int victim = -2;
    for (uint32_t w = lo; w < hi; w++) {
        unsigned x = r[w] + age;
        r[w] = (uint8_t)(x < CACP_RRPV_MAX ? x : CACP_RRPV_MAX);
        if (victim < 0 && !v->reserved[w] && r[w] == CACP_RRPV_MAX)
            victim = (int)w;
    }
    return victim;
}

/* Alg. 7, insertion position from SHiP */
static void cacp_on_fill(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct cacp_state *s = st;
    size_t l = (size_t)set * s->assoc + way;
    s->sig[l] = s->next_sig;
    s->flags[l] = 0;
    s->rrpv[l] = (uint8_t)(s->shct[s->next_sig] == 0 ? CACP_RRPV_MAX : CACP_RRPV_MAX - 1);
}

/* Alg. 8 */
static void cacp_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct cacp_state *s = st;
    size_t l = (size_t)set * s->assoc + way;
    uint8_t g = s->sig[l];
    s->rrpv[l] = 0;
    if (s->critical) {
        s->flags[l] |= CACP_C_REUSE;
        if (s->ccbp[g] < CACP_CTR_MAX)
            s->ccbp[g]++;
    } else {
        s->flags[l] |= CACP_NC_REUSE;
    }
    if (s->shct[g] < CACP_CTR_MAX)
        s->shct[g]++;
}

/* Alg. 9 */
static void cacp_on_evict(void *st, uint32_t set, uint32_t way, sim_cycle now)
{
    (void)now;
    struct cacp_state *s = st;
    size_t l = (size_t)set * s->assoc + way;
    uint8_t f = s->flags[l], g = s->sig[l];
    if (f & CACP_DONE)
        return;
    if (!(f & CACP_C_REUSE) && (f & CACP_NC_REUSE) && way < s->ncrit) {
        if (s->ccbp[g] > 0)
            s->ccbp[g]--;   /* predicted critical, reused only by non-critical warps */
    } else if (!(f & (CACP_C_REUSE | CACP_NC_REUSE))) {
        if (s->shct[g] > 0)
            s->shct[g]--;   /* no reuse */
    }
    s->flags[l] = (uint8_t)(f | CACP_DONE);   /* once (a write-evict then a replacement) */
}

static int cacp_way_critical(const void *st, uint32_t set, uint32_t way)
{
    (void)set;
    const struct cacp_state *s = st;
    return way < s->ncrit;
}

const struct repl_ops repl_cacp_ops = {
    .name = "cacp",
    .doc = "CACP (CAWA): ways split into critical / non-critical partitions; CCBP on the PC^address signature "
           "picks the partition, SHiP the 2-bit RRIP insertion; trained by hits of critical warps",
    .state_size = cacp_state_size,
    .init = cacp_init,
    .victim = cacp_victim,
    .on_hit = cacp_on_hit,
    .on_fill = cacp_on_fill,
    .on_evict = cacp_on_evict,
    .params = cacp_params,
    .nparams = sizeof cacp_params / sizeof cacp_params[0],
    .on_access = cacp_on_access,
    .way_critical = cacp_way_critical,
};
