/*
 * addr_map.c - GPGPU-Sim style address mapping (see addr_map.h).
 *
 * Decoding has two steps.  First the channel: either the D bits of the mask,
 * or, for "dramid@N", the address is split at bit N and the part above is
 * divided by the channel count (quotient = the address bits that shift down
 * into the channel-local address, remainder = channel).  For a power-of-two
 * count this equals taking log2(n) bits out at bit N; for 6 channels (GTX480)
 * it spreads consecutive 2^N-byte chunks round-robin over all channels, which
 * a bit field cannot.  Second, row/bank/column/burst are gathered (bit by bit,
 * packed from the lowest mask bit up) from the channel-local address.
 */
#include "mem/addr_map.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sim.h"

/* GTX480 (GPGPU-Sim's Fermi preset): 256-byte chunks interleave over the
   channels; inside a channel 32-byte bursts (S), 16 banks (B, lowest bank bit
   = address bit 7, so the two 128-byte lines of a chunk go to different
   sub-partitions when a channel has two), 2 KB rows of 64 columns (C), 13 row
   bits (R). */
static const char addr_map_default[] =
    "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS";

static int am_err(char *msg, size_t n, unsigned *col, unsigned c, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int am_err(char *msg, size_t n, unsigned *col, unsigned c, const char *fmt, ...)
{
    if (msg && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    if (col)
        *col = c;
    return -1;
}

static unsigned am_popcount(uint64_t x)
{
    unsigned c = 0;
    while (x) {
        x &= x - 1;
        c++;
    }
    return c;
}

static int am_is_pow2(unsigned x) { return x && !(x & (x - 1)); }

static unsigned am_ceil_log2(unsigned x)
{
    unsigned b = 0;
    while (b < 32 && (1u << b) < x)
        b++;
    return b;
}

/* Gather the bits of `a` selected by `mask` into a packed value (bit-serial
   PEXT; the lowest selected bit becomes bit 0). */
static uint64_t am_extract(uint64_t a, uint64_t mask)
{
    uint64_t v = 0;
    unsigned out = 0;
    while (mask) {
        uint64_t low = mask & (~mask + 1);
        if (a & low)
            v |= (uint64_t)1 << out;
        out++;
        mask &= mask - 1;
    }
    return v;
}

int addr_map_parse(struct addr_map *m, const char *s, unsigned n_chan, unsigned n_sub_per_chan,
                   unsigned n_banks, char *msg, size_t n, unsigned *col)
{
    memset(m, 0, sizeof *m);
    m->dramid_bit = -1;
    if (!s || !*s)
        s = addr_map_default;
    if (n_chan == 0)
        return am_err(msg, n, col, 1, "address mapping: the channel count must be at least 1");
    if (!am_is_pow2(n_sub_per_chan))
        return am_err(msg, n, col, 1,
                      "address mapping: sub-partitions per channel (%u) must be a power of two",
                      n_sub_per_chan);
    m->n_chan = n_chan;
    m->n_sub_per_chan = n_sub_per_chan;

    const char *p = s;
    const char *pfx = "dramid@";
    size_t pl = strlen(pfx);
    if (strncmp(p, pfx, pl) == 0) {
        const char *q = p + pl;
        unsigned v = 0, nd = 0;
        while (*q >= '0' && *q <= '9' && nd < 3) {
            v = v * 10 + (unsigned)(*q - '0');
            q++;
            nd++;
        }
        if (nd == 0 || v > 63)
            return am_err(msg, n, col, (unsigned)(p + pl - s) + 1,
                          "address mapping: 'dramid@' needs a bit position 0..63");
        if (*q != ';')
            return am_err(msg, n, col, (unsigned)(q - s) + 1, "address mapping: expected ';' after 'dramid@%u'",
                          v);
        m->dramid_bit = (int)v;
        p = q + 1;
    }

    /* 64 bit characters, bit 63 first; dots are only visual separators. */
    int bit = 63;
    for (const char *c = p; *c; c++) {
        if (*c == '.')
            continue;
        unsigned cc = (unsigned)(c - s) + 1;
        if (bit < 0)
            return am_err(msg, n, col, cc, "address mapping: more than 64 bit characters");
        uint64_t b = (uint64_t)1 << bit;
        switch (*c) {
        case 'R': m->mask_row |= b; break;
        case 'B': m->mask_bank |= b; break;
        case 'C': m->mask_col |= b; break;
        case 'S': m->mask_burst |= b; break;
        case 'D': m->mask_chan |= b; break;
        case '0': break;
        default:
            return am_err(msg, n, col, cc,
                          "address mapping: unknown bit character '%c' (use R B C S D 0 and dots)", *c);
        }
        bit--;
    }
    if (bit >= 0)
        return am_err(msg, n, col, (unsigned)strlen(s) + 1,
                      "address mapping: %d bit characters given, 64 needed (bit 63 first)", 63 - bit);

    m->nbits_bank = am_popcount(m->mask_bank);
    if (m->mask_chan) {
        if (m->dramid_bit >= 0)
            return am_err(msg, n, col, 1, "address mapping: both 'dramid@' and D bits given; use one");
        m->nbits_chan = am_popcount(m->mask_chan);
        if (!am_is_pow2(n_chan) || ((uint64_t)1 << m->nbits_chan) != n_chan)
            return am_err(msg, n, col, 1,
                          "address mapping: %u D bits address %llu channels but there are %u "
                          "(for a non-power-of-two count use 'dramid@N;')",
                          m->nbits_chan, 1ull << m->nbits_chan, n_chan);
    } else if (m->dramid_bit >= 0) {
        m->nbits_chan = am_ceil_log2(n_chan);
    } else if (n_chan > 1) {
        return am_err(msg, n, col, 1, "address mapping: %u channels but neither D bits nor 'dramid@N;' given",
                      n_chan);
    }
    if (n_banks && ((uint64_t)1 << m->nbits_bank) != n_banks)
        return am_err(msg, n, col, 1, "address mapping: %u B bits address %llu banks but the DRAM has %u",
                      m->nbits_bank, 1ull << m->nbits_bank, n_banks);
    if (((uint64_t)1 << m->nbits_bank) < n_sub_per_chan)
        return am_err(msg, n, col, 1,
                      "address mapping: %u sub-partitions per channel need at least %u B bits (have %u)",
                      n_sub_per_chan, am_ceil_log2(n_sub_per_chan), m->nbits_bank);
    uint64_t all[5] = {m->mask_row, m->mask_bank, m->mask_col, m->mask_burst, m->mask_chan};
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            SIM_ASSERT((all[i] & all[j]) == 0);   /* one character per bit */
    return 0;
}

void addr_map_decode(const struct addr_map *m, uint64_t addr, struct dram_loc *out)
{
    uint64_t a = addr;
    uint32_t chan = 0;
    if (m->dramid_bit >= 0) {
        unsigned sh = (unsigned)m->dramid_bit;
        uint64_t lo = sh ? (a & (((uint64_t)1 << sh) - 1)) : 0;
        uint64_t hi = a >> sh;
        chan = (uint32_t)(hi % m->n_chan);
        hi /= m->n_chan;
        /* the channel-local address: quotient bits shifted back down to bit sh
           (bits lost off the top cannot be addressed by a 64-bit mask anyway) */
        a = (hi << sh) | lo;
    } else if (m->mask_chan) {
        chan = (uint32_t)am_extract(a, m->mask_chan);
    }
    out->chan = chan;
    out->row = (uint32_t)am_extract(a, m->mask_row);
    out->bank = (uint32_t)am_extract(a, m->mask_bank);
    out->col = (uint32_t)am_extract(a, m->mask_col);
    out->sub = out->bank & (m->n_sub_per_chan - 1);
}

/* remove bit `bit` from a, shifting the bits above it down by one */
static uint64_t squeeze_bit(uint64_t a, unsigned bit)
{
    uint64_t low = bit ? (a & (((uint64_t)1 << bit) - 1)) : 0;
    return low | ((a >> (bit + 1)) << bit);
}

/* insert bit value v at position `bit`, shifting the bits above it up by one */
static uint64_t insert_bit(uint64_t a, unsigned bit, unsigned v)
{
    uint64_t low = bit ? (a & (((uint64_t)1 << bit) - 1)) : 0;
    return low | ((uint64_t)(v & 1) << bit) | ((a >> bit) << (bit + 1));
}

static unsigned sub_bit_positions(const struct addr_map *m, unsigned *pos)
{
    unsigned nsub = 0, k = 0;
    while ((1u << nsub) < m->n_sub_per_chan)
        nsub++;
    for (unsigned b = 0; b < 64 && k < nsub && k < 8; b++)
        if (m->mask_bank >> b & 1)
            pos[k++] = b;
    return k;
}

uint64_t addr_map_global_addr(const struct addr_map *m, uint64_t local, unsigned chan, unsigned sub)
{
    uint64_t a = local;
    unsigned pos[8], k = sub_bit_positions(m, pos);
    for (unsigned i = 0; i < k; i++)              /* lowest first: positions refer to the full address */
        a = insert_bit(a, pos[i], sub >> i);
    if (m->dramid_bit >= 0) {
        unsigned sh = (unsigned)m->dramid_bit;
        uint64_t lo = sh ? (a & (((uint64_t)1 << sh) - 1)) : 0;
        a = (((a >> sh) * m->n_chan + chan) << sh) | lo;
    } else if (m->mask_chan) {
        unsigned i = 0;
        for (unsigned b = 0; b < 64; b++)
            if (m->mask_chan >> b & 1)
                a = insert_bit(a, b, chan >> i++);
    }
    return a;
}

uint64_t addr_map_local_addr(const struct addr_map *m, uint64_t addr)
{
    uint64_t a = addr;
    if (m->dramid_bit >= 0) {
        unsigned sh = (unsigned)m->dramid_bit;
        uint64_t lo = sh ? (a & (((uint64_t)1 << sh) - 1)) : 0;
        a = ((a >> sh) / m->n_chan << sh) | lo;
    } else if (m->mask_chan) {
        for (int b = 63; b >= 0; b--)
            if (m->mask_chan >> b & 1)
                a = squeeze_bit(a, (unsigned)b);
    }
    /* the sub-partition is the lowest bank bit(s): drop them too (highest first) */
    unsigned pos[8], k = sub_bit_positions(m, pos);
    while (k > 0)
        a = squeeze_bit(a, pos[--k]);
    return a;
}
