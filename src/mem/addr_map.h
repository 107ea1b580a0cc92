/*
 * addr_map.h - physical address -> (channel, sub-partition, bank, row, column),
 * from GPGPU-Sim's -gpgpu_mem_addr_mapping string, e.g.
 *   "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS"
 * The 64 characters after ';' name each address bit from bit 63 (left) to bit 0
 * (right), dots ignored: R row, B bank, C column, S byte within a burst, D
 * channel (dram id), 0 unused.  "dramid@N" instead places the channel id at
 * bit N using ceil(log2(n_channels)) bits taken out of the address (the bits
 * above shift up), as GPGPU-Sim does for non-power-of-two channel counts:
 * channel = (addr >> N) % n_channels style division is used when n_channels
 * is not a power of two.  The sub-partition inside a channel comes from the
 * lowest bank bit(s).
 */
#ifndef WARPSIM_ADDR_MAP_H
#define WARPSIM_ADDR_MAP_H

#include <stddef.h>
#include <stdint.h>

struct dram_loc {
    uint32_t chan, sub, bank, row, col;
};

struct addr_map {
    unsigned n_chan, n_sub_per_chan;
    int dramid_bit;            /* -1 when D bits are given in the mask */
    uint64_t mask_row, mask_bank, mask_col, mask_burst, mask_chan;
    unsigned nbits_bank, nbits_chan;
};

/* Returns 0, or -1 with a message and the 1-based column in the string. */
int addr_map_parse(struct addr_map *m, const char *s, unsigned n_chan, unsigned n_sub_per_chan,
                   unsigned n_banks, char *msg, size_t n, unsigned *col);
void addr_map_decode(const struct addr_map *m, uint64_t addr, struct dram_loc *out);
/* The address as seen inside one sub-partition: the channel bits and the
   sub-partition (lowest bank) bits squeezed out, so that an L2 slice indexes
   its sets with bits that vary among the addresses it actually receives
   (indexing with the raw address would leave the sets that alias the channel
   and sub-partition bits unused). A bijection per sub-partition. */
uint64_t addr_map_local_addr(const struct addr_map *m, uint64_t addr);
/* Inverse of addr_map_local_addr for the sub-partition (chan, sub). */
uint64_t addr_map_global_addr(const struct addr_map *m, uint64_t local, unsigned chan, unsigned sub);

/* Global sub-partition index (chan * n_sub_per_chan + sub). */
static inline unsigned addr_map_subpart(const struct addr_map *m, uint64_t addr)
{
    struct dram_loc l;
    addr_map_decode(m, addr, &l);
    return l.chan * m->n_sub_per_chan + l.sub;
}

#endif
