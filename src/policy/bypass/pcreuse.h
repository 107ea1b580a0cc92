/*
 * pcreuse.h - the per-line reuse history shared by the PC-indexed bypass
 * policies (ctrlc.c, pcbased.c): each line carries a reuse bit (set by a hit,
 * including a merge into the pending line) and the table index of the PC that
 * inserted it (000 sec. 5.2.2: the low 7 bits of the PC).  Lives after the
 * policy's fixed head in its state block: [nsets * assoc] bytes each, set-major.
 *
 * PCs: warpsim's PCs are instruction indices (consecutive instructions differ
 * by one), so there are no alignment bits to drop: pc_shift defaults to 0
 * (a byte-addressed PC with 8-byte instructions, as GPGPU-Sim's, would use 3).
 */
#ifndef WARPSIM_BYPASS_PCREUSE_H
#define WARPSIM_BYPASS_PCREUSE_H

#include "policy/bypass.h"

struct pcreuse {
    uint32_t assoc, mask;      /* mask: table entries - 1 */
    unsigned shift;            /* alignment bits dropped from the PC */
    uint8_t *reused;           /* [nsets * assoc] */
    uint16_t *ins;             /* [nsets * assoc] inserting PC's table index */
};

static inline size_t pcreuse_bytes(uint32_t nsets, uint32_t assoc)
{
    return (size_t)nsets * assoc * (sizeof(uint8_t) + sizeof(uint16_t)) + 8;
}

/* Carve the arrays out of `mem` (pcreuse_bytes of them) and clear them. */
static inline void pcreuse_init(struct pcreuse *r, void *mem, uint32_t nsets, uint32_t assoc, unsigned shift,
                                unsigned table_bits)
{
    size_t n = (size_t)nsets * assoc;
    r->assoc = assoc;
    r->shift = shift;
    r->mask = (1u << table_bits) - 1;
    r->ins = (uint16_t *)(void *)(((uintptr_t)mem + 7) & ~(uintptr_t)7);
    r->reused = (uint8_t *)(r->ins + n);
    for (size_t i = 0; i < n; i++) {
        r->ins[i] = 0;
        r->reused[i] = 0;
    }
}

static inline uint32_t pcreuse_index(const struct pcreuse *r, uint32_t pc) { return (pc >> r->shift) & r->mask; }

static inline void pcreuse_fill(struct pcreuse *r, uint32_t set, uint32_t way, uint32_t pc)
{
    size_t l = (size_t)set * r->assoc + way;
    r->ins[l] = (uint16_t)pcreuse_index(r, pc);
    r->reused[l] = 0;
}

static inline void pcreuse_hit(struct pcreuse *r, uint32_t set, uint32_t way)
{
    r->reused[(size_t)set * r->assoc + way] = 1;
}

#endif
