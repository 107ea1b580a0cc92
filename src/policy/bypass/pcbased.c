/*
 * pcbased.c - PC-based adaptive bypassing, the baseline of 000 sec. 5.3.1
 * (Tian et al. [109]): a per-PC confidence counter predicts that the lines a
 * PC inserts are never reused; once it does, every request of that PC
 * bypasses.  The seed gives no widths: warpsim uses the Ctrl-C table shape
 * (2^table_bits = 128 entries, low PC bits, pcreuse.h) and per entry a
 * conf_bits (4) saturating counter:
 *   eviction of a line never reused  -> its inserting PC's counter + 1
 *   eviction of a reused line        -> counter = 0 (the PC shows reuse)
 *   miss                             -> bypass while counter >= threshold (8)
 * So a PC is bypassed after `threshold` consecutive zero-reuse evictions of
 * its lines.  As the seed says, a PC that bypasses everything inserts nothing
 * and never learns it was wrong; retry_log2 > 0 lets 1 in 2^k of a bypassed
 * PC's misses allocate anyway so that returning reuse resets the counter
 * (default 0: the seed's behaviour, bypass all).
 */
#include "policy/bypass/pcreuse.h"

struct pcb_ctl {
    uint8_t conf;
    uint8_t pad_;
    uint16_t skipped;          /* bypassed misses since the last retry */
};

struct pcb_state {
    /* parameters */
    unsigned table_bits, pc_shift, conf_bits, threshold, retry_log2;
    /* set by init */
    unsigned conf_max;
    struct pcreuse r;
    struct pcb_ctl ctl[1u << 10];
    uint8_t lines[];
};

static const struct cfg_opt pcb_params[] = {
    CFG_OPT("table_bits", CFG_UINT, struct pcb_state, table_bits, "7", 1, 10,
            "confidence table entries = 2^k, indexed by the low k bits of the PC"),
    CFG_OPT("pc_shift", CFG_UINT, struct pcb_state, pc_shift, "0", 0, 8, "alignment bits dropped from the PC"),
    CFG_OPT("conf_bits", CFG_UINT, struct pcb_state, conf_bits, "4", 1, 8, "bits of the saturating confidence counter"),
    CFG_OPT("threshold", CFG_UINT, struct pcb_state, threshold, "8", 1, 255,
            "bypass a PC once its counter (zero-reuse evictions in a row) reaches this"),
    CFG_OPT("retry_log2", CFG_UINT, struct pcb_state, retry_log2, "0", 0, 15,
            "0: a bypassed PC never allocates (seed); k: 1 in 2^k of its misses allocate to re-learn"),
};

static size_t pcb_state_size(uint32_t nsets, uint32_t assoc)
{
    return sizeof(struct pcb_state) + pcreuse_bytes(nsets, assoc);
}

static void pcb_init(void *st, uint32_t nsets, uint32_t assoc)
{
    struct pcb_state *s = st;
    unsigned tb = s->table_bits >= 1 && s->table_bits <= 10 ? s->table_bits : 7;
    s->conf_max = (1u << (s->conf_bits >= 1 && s->conf_bits <= 8 ? s->conf_bits : 4)) - 1;
    pcreuse_init(&s->r, s->lines, nsets, assoc, s->pc_shift, tb);
    for (size_t i = 0; i < sizeof s->ctl / sizeof s->ctl[0]; i++)
        s->ctl[i] = (struct pcb_ctl){0, 0, 0};
}

static int pcb_bypassing(const struct pcb_state *s, const struct pcb_ctl *c)
{
    unsigned thr = s->threshold < s->conf_max ? s->threshold : s->conf_max;
    return c->conf >= thr;
}

static int pcb_should_bypass(void *st, const struct bypass_access *a, sim_cycle now)
{
    (void)now;
    struct pcb_state *s = st;
    struct pcb_ctl *c = &s->ctl[pcreuse_index(&s->r, a->pc)];
    if (!pcb_bypassing(s, c))
        return 0;
    if (s->retry_log2 && ++c->skipped >= (1u << s->retry_log2)) {
        c->skipped = 0;
        return 0;   /* a probe insertion */
    }
    return 1;
}

static void pcb_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    pcreuse_hit(&((struct pcb_state *)st)->r, set, way);
}

static void pcb_on_fill(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)now;
    pcreuse_fill(&((struct pcb_state *)st)->r, set, way, pc);
}

static void pcb_on_evict(void *st, uint32_t set, uint32_t way, sim_cycle now)
{
    (void)now;
    struct pcb_state *s = st;
    size_t l = (size_t)set * s->r.assoc + way;
    struct pcb_ctl *c = &s->ctl[s->r.ins[l]];
    if (s->r.reused[l])
        c->conf = 0;
    else if (c->conf < s->conf_max)
        c->conf++;
}

static void pcb_pc_info(const void *st, uint32_t pc, struct bypass_pc_info *out)
{
    const struct pcb_state *s = st;
    const struct pcb_ctl *c = &s->ctl[pcreuse_index(&s->r, pc)];
    int byp = pcb_bypassing(s, c);
    out->level = byp;
    out->insert_ratio = !byp ? 1.0 : s->retry_log2 ? 1.0 / (double)(1u << s->retry_log2) : 0.0;
}

const struct bypass_ops bypass_pcbased_ops = {
    .name = "pcbased",
    .doc = "PC-based adaptive bypassing (000 sec. 5.3.1 baseline): bypass a PC after `threshold` zero-reuse evictions",
    .state_size = pcb_state_size,
    .init = pcb_init,
    .should_bypass = pcb_should_bypass,
    .on_hit = pcb_on_hit,
    .on_fill = pcb_on_fill,
    .on_evict = pcb_on_evict,
    .pc_info = pcb_pc_info,
    .params = pcb_params,
    .nparams = sizeof pcb_params / sizeof pcb_params[0],
};
