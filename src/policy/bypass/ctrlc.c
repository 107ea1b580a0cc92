/*
 * ctrlc.c - Ctrl-C, instruction-aware control-loop-based adaptive bypassing
 * (000 ch. 5: sec. 5.2, Algorithms 11-12, Table 5.2).
 *
 * iReuse table of 2^table_bits (128) entries indexed by the low bits of the
 * PC (pcreuse.h); each entry a feedback controller: AGG (3 bits, saturating),
 * BYP (7 bits), ZERO and INSERT (10 bits).  Each line holds a reuse bit and
 * its inserting PC's index.
 *   miss (Alg. 11):     BYP < 2^AGG - 1 ? bypass, BYP++ : insert, BYP = 0
 *                       (so 1 in 2^AGG misses of a PC allocates)
 *   eviction (Alg. 12): of the inserting PC's entry: INSERT++, ZERO++ if the
 *                       line was never reused; once INSERT >= SAMPLE_PERIOD =
 *                       sample_base >> AGG: AGG++ if ZERO/INSERT > th_high,
 *                       AGG-- if < th_low; INSERT = ZERO = 0.
 * A 10-bit INSERT reaches the period 1024 (AGG = 0) when it overflows: the
 * counters are kept wider here and the comparison is exact.
 */
#include "policy/bypass/pcreuse.h"

struct ctrlc_ctl {
    uint8_t agg, byp;
    uint16_t zero, insert;
};

struct ctrlc_state {
    /* parameters */
    unsigned table_bits, pc_shift, agg_bits, byp_bits, sample_base, agg_init;
    double th_high, th_low;
    /* set by init */
    unsigned agg_max, byp_max;
    struct pcreuse r;
    struct ctrlc_ctl ctl[1u << 10];   /* [2^table_bits] used */
    uint8_t lines[];
};

static const struct cfg_opt ctrlc_params[] = {
    CFG_OPT("table_bits", CFG_UINT, struct ctrlc_state, table_bits, "7", 1, 10,
            "iReuse table entries = 2^k, indexed by the low k bits of the PC (Table 5.2: 128)"),
    CFG_OPT("pc_shift", CFG_UINT, struct ctrlc_state, pc_shift, "0", 0, 8,
            "alignment bits dropped from the PC before indexing (warpsim PCs are instruction indices: 0)"),
    CFG_OPT("agg_bits", CFG_UINT, struct ctrlc_state, agg_bits, "3", 1, 4, "bits of the AGG counter (Table 5.2: 3)"),
    CFG_OPT("byp_bits", CFG_UINT, struct ctrlc_state, byp_bits, "7", 1, 16,
            "bits of the BYP counter (Table 5.2: 7); bypass while BYP < min(2^AGG, 2^byp_bits) - 1"),
    CFG_OPT("sample_base", CFG_UINT, struct ctrlc_state, sample_base, "1024", 1, 65535,
            "SAMPLE_PERIOD = sample_base >> AGG evictions (Table 5.2: 1024)"),
    CFG_OPT("agg_init", CFG_UINT, struct ctrlc_state, agg_init, "0", 0, 15, "initial AGG of every entry (0: insert all)"),
    CFG_OPT("th_high", CFG_DOUBLE, struct ctrlc_state, th_high, "0.4", 0, 1,
            "AGG++ when ZERO/INSERT > th_high (Table 5.2 target range [0.1, 0.4])"),
    CFG_OPT("th_low", CFG_DOUBLE, struct ctrlc_state, th_low, "0.1", 0, 1, "AGG-- when ZERO/INSERT < th_low"),
};

static size_t ctrlc_state_size(uint32_t nsets, uint32_t assoc)
{
    return sizeof(struct ctrlc_state) + pcreuse_bytes(nsets, assoc);
}

static void ctrlc_init(void *st, uint32_t nsets, uint32_t assoc)
{
    struct ctrlc_state *s = st;
    unsigned tb = s->table_bits >= 1 && s->table_bits <= 10 ? s->table_bits : 7;
    s->agg_max = (1u << (s->agg_bits >= 1 && s->agg_bits <= 4 ? s->agg_bits : 3)) - 1;
    s->byp_max = (1u << (s->byp_bits >= 1 && s->byp_bits <= 16 ? s->byp_bits : 7)) - 1;
    pcreuse_init(&s->r, s->lines, nsets, assoc, s->pc_shift, tb);
    uint8_t a0 = (uint8_t)(s->agg_init < s->agg_max ? s->agg_init : s->agg_max);
    for (size_t i = 0; i < sizeof s->ctl / sizeof s->ctl[0]; i++)
        s->ctl[i] = (struct ctrlc_ctl){a0, 0, 0, 0};
}

/* Algorithm 11 */
static int ctrlc_should_bypass(void *st, const struct bypass_access *a, sim_cycle now)
{
    (void)now;
    struct ctrlc_state *s = st;
    struct ctrlc_ctl *c = &s->ctl[pcreuse_index(&s->r, a->pc)];
    unsigned lim = (1u << c->agg) - 1;
    if (lim > s->byp_max)
        lim = s->byp_max;
    if (c->byp < lim) {
        c->byp++;
        return 1;
    }
    c->byp = 0;
    return 0;
}

static void ctrlc_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    pcreuse_hit(&((struct ctrlc_state *)st)->r, set, way);
}

static void ctrlc_on_fill(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)now;
    pcreuse_fill(&((struct ctrlc_state *)st)->r, set, way, pc);
}

/* Algorithm 12 */
static void ctrlc_on_evict(void *st, uint32_t set, uint32_t way, sim_cycle now)
{
    (void)now;
    struct ctrlc_state *s = st;
    size_t l = (size_t)set * s->r.assoc + way;
    struct ctrlc_ctl *c = &s->ctl[s->r.ins[l]];
    c->insert++;
    if (!s->r.reused[l])
        c->zero++;
    unsigned period = s->sample_base >> c->agg;
    if (c->insert >= (period ? period : 1)) {
        double fract = (double)c->zero / (double)c->insert;
        if (fract > s->th_high && c->agg < s->agg_max)
            c->agg++;
        else if (fract < s->th_low && c->agg > 0)
            c->agg--;
        c->insert = 0;
        c->zero = 0;
    }
}

static void ctrlc_pc_info(const void *st, uint32_t pc, struct bypass_pc_info *out)
{
    const struct ctrlc_state *s = st;
    unsigned agg = s->ctl[pcreuse_index(&s->r, pc)].agg;
    out->level = (int)agg;
    out->insert_ratio = 1.0 / (double)(1u << agg);
}

const struct bypass_ops bypass_ctrlc_ops = {
    .name = "ctrlc",
    .doc = "Ctrl-C (000 Alg. 11-12): per-PC feedback loop, insert 1 in 2^AGG misses, AGG from the zero-reuse fraction",
    .state_size = ctrlc_state_size,
    .init = ctrlc_init,
    .should_bypass = ctrlc_should_bypass,
    .on_hit = ctrlc_on_hit,
    .on_fill = ctrlc_on_fill,
    .on_evict = ctrlc_on_evict,
    .pc_info = ctrlc_pc_info,
    .params = ctrlc_params,
    .nparams = sizeof ctrlc_params / sizeof ctrlc_params[0],
};
