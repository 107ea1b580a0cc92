/* rrip.c - RRPV-based victim selection shared by SRRIP and BRRIP (rrip.h). */
#include "policy/repl/rrip.h"

size_t repl_rrip_state_size(uint32_t nsets, uint32_t assoc)
{
    return sizeof(struct rrip_state) + (size_t)nsets * assoc;
}

void repl_rrip_init_mode(void *st, uint32_t nsets, uint32_t assoc, int bimodal)
{
    struct rrip_state *s = st;
    unsigned bits = s->rrpv_bits >= 1 && s->rrpv_bits <= 8 ? s->rrpv_bits : 2;
    s->assoc = assoc;
    s->max = (uint8_t)((1u << bits) - 1);
    s->bimodal = (uint8_t)(bimodal != 0);
    s->rng = 0x9E3779B97F4A7C15ull;   /* fixed seed: every cache draws the same sequence */
    for (size_t i = 0; i < (size_t)nsets * assoc; i++)
        s->rrpv[i] = s->max;          /* invalid lines are distant */
}

int repl_rrip_victim(void *st, const struct repl_set_view *v, uint32_t pc, uint64_t addr, sim_cycle now)
{
    (void)pc, (void)addr, (void)now;
    struct rrip_state *s = st;
    uint8_t *r = s->rrpv + (size_t)v->set * s->assoc;
    int any = 0;
    for (uint32_t w = 0; w < v->assoc; w++) {
        if (v->reserved[w])
            continue;
        if (!v->valid[w])
            return (int)w;
        any = 1;
    }
    if (!any)
        return -2;
    /* Age every line of the set by one until an evictable line is distant:
       the rounds that find none are done at once (age = max - the largest
       evictable RRPV); pending lines age too, saturating at max. */
    uint8_t top = 0;
    for (uint32_t w = 0; w < v->assoc; w++)
        if (!v->reserved[w] && r[w] > top)
            top = r[w];
    unsigned age = (unsigned)(s->max - top);
    int victim = -2;
    for (uint32_t w = 0; w < v->assoc; w++) {
        unsigned x = r[w] + age;
        r[w] = (uint8_t)(x < s->max ? x : s->max);
        if (victim < 0 && !v->reserved[w] && r[w] == s->max)
            victim = (int)w;
    }
    return victim;
}

void repl_rrip_on_hit(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct rrip_state *s = st;
    s->rrpv[(size_t)set * s->assoc + way] = 0;
}

void repl_rrip_on_fill(void *st, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    (void)pc, (void)now;
    struct rrip_state *s = st;
    uint8_t ins = (uint8_t)(s->max - 1);   /* long (1-bit RRPV: 0) */
    if (s->bimodal) {
        s->rng ^= s->rng << 13;
        s->rng ^= s->rng >> 7;
        s->rng ^= s->rng << 17;
        uint64_t mask = ((uint64_t)1 << s->long_prob_log2) - 1;
        if ((s->rng >> 20) & mask)
            ins = s->max;                  /* distant, except 1 in 2^k */
    }
    s->rrpv[(size_t)set * s->assoc + way] = ins;
}

unsigned repl_rrip_rrpv(const void *st, uint32_t set, uint32_t way)
{
    const struct rrip_state *s = st;
    return s->rrpv[(size_t)set * s->assoc + way];
}
