/*
 * ptx_alu_int.c - integer arithmetic and bit manipulation of the PTX ALU:
 * add/sub (.sat, .cc), addc/subc, mul/mad (.lo/.hi/.wide, .cc, madc), mul24/
 * mad24, sad, div/rem, abs/neg, min/max, popc/clz/bfind/brev, bfe/bfi, prmt,
 * shl/shr/shf, dp4a/dp2a.
 *
 * Values arrive zero-extended in their type width; results are written the
 * same way.  Width-generic loops mask with wm = 2^bits - 1 so one loop serves
 * 16, 32 and 64 bits; signed views sign-extend from `bits`.  All arithmetic is
 * on uint64_t (or unsigned __int128) so nothing overflows in the C sense.
 */
#include "ptx_alu_internal.h"

#define WM(bits) ptx_alu_wmask(bits)
#define SX(v, bits) ptx_alu_sext((v), (bits))

static inline int64_t int_max2(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t int_min2(int64_t a, int64_t b) { return a < b ? a : b; }
#define MIN2(a, b) int_min2((a), (b))
#define MAX3(a, b, c) int_max2(int_max2((a), (b)), (c))

/* ---- add / sub / addc / subc ---------------------------------------------------- */

static int int_addsub(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits,
                      bool sub, bool carry_in)
{
    const uint64_t *x = a->s[0], *y = a->s[1];
    uint64_t *d = a->d, *cc = a->cc;
    uint64_t wm = WM(bits);
    uint32_t mask = a->mask;
    bool cc_out = (in->flags & PF_CC) != 0;

    if (!cc_out && !carry_in) {
        if (in->flags & PF_SAT) {
            /* .sat.s32: exact in int64, then clamp */
            PTX_ALU_LANES(mask, {
                int64_t xv = SX(x[i], 32), yv = SX(y[i], 32);
                int64_t r = sub ? xv - yv : xv + yv;
                r = r > INT32_MAX ? INT32_MAX : (r < INT32_MIN ? INT32_MIN : r);
                d[i] = (uint64_t)r & 0xFFFFFFFFu;
            });
        } else if (sub) {
            PTX_ALU_MAP(mask, d, (x[i] - y[i]) & wm);
        } else {
            PTX_ALU_MAP(mask, d, (x[i] + y[i]) & wm);
        }
        return 0;
    }
    /* carry chains: CC.CF is a carry for add and a borrow for sub (PTX:
       subc computes a - (b + CF)).  A missing carry register reads as 0. */
    PTX_ALU_LANES(mask, {
        uint64_t xv = x[i] & wm, yv = y[i] & wm;
        uint64_t cin = (carry_in && cc) ? (cc[i] & 1u) : 0u;
        uint64_t r, cout;
        if (sub) {
            r = (xv - yv - cin) & wm;
            cout = (xv < yv || (xv - yv) < cin) ? 1u : 0u;
        } else {
            r = (xv + yv + cin) & wm;
            cout = (r < xv || (r == xv && (yv | cin) != 0)) ? 1u : 0u;
        }
        d[i] = r;
        if (cc_out && cc)
            cc[i] = cout;
    });
    return 0;
}

/* ---- mul / mad ---------------------------------------------------------------- */

enum { MUL_LO, MUL_HI, MUL_WIDE };

/* one product part, for the rare paths (.cc, madc, .sat) */
static uint64_t int_mul_part(uint64_t x, uint64_t y, int mode, unsigned bits, bool sgn)
{
    uint64_t wm = WM(bits);
    if (mode == MUL_LO)
        return (x * y) & wm;
    if (bits == 64) {
        /* .hi only (no 128-bit .wide) */
        if (sgn)
            return (uint64_t)(((__int128)(int64_t)x * (__int128)(int64_t)y) >> 64);
        return (uint64_t)(((unsigned __int128)x * (unsigned __int128)y) >> 64);
    }
    uint64_t p = sgn ? (uint64_t)(SX(x, bits) * SX(y, bits)) : (x & wm) * (y & wm);
    if (mode == MUL_WIDE)
        return p & WM(2 * bits);
    return sgn ? (uint64_t)(((int64_t)p) >> bits) & wm : (p >> bits) & wm;
}

static int int_mul(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits,
                   bool mad, bool carry_in)
{
    const uint64_t *x = a->s[0], *y = a->s[1], *c = mad ? a->s[2] : NULL;
    uint64_t *d = a->d, *cc = a->cc;
    uint32_t mask = a->mask;
    bool sgn = ptx_alu_is_sint(in->type);
    int mode = (in->flags & PF_HI) ? MUL_HI : (in->flags & PF_WIDE) ? MUL_WIDE : MUL_LO;
    unsigned dbits = mode == MUL_WIDE ? 2 * bits : bits;
    uint64_t wm = WM(bits), dwm = WM(dbits);
    bool cc_out = (in->flags & PF_CC) != 0;

    if (mad && !c)
        return -1;
    if (mode == MUL_WIDE && bits > 32)
        return -1;
    if (mad && (cc_out || carry_in)) {
        PTX_ALU_LANES(mask, {
            uint64_t p = int_mul_part(x[i], y[i], mode, bits, sgn);
            uint64_t cin = (carry_in && cc) ? (cc[i] & 1u) : 0u;
            unsigned __int128 s = (unsigned __int128)p + (c[i] & dwm) + cin;
            d[i] = (uint64_t)s & dwm;
            if (cc_out && cc)
                cc[i] = (uint64_t)(s >> dbits) & 1u;
        });
        return 0;
    }
    if (mad && (in->flags & PF_SAT)) {
        /* mad.hi.sat.s32 (and .lo for leniency): clamp the signed sum */
        PTX_ALU_LANES(mask, {
            int64_t p = SX(int_mul_part(x[i], y[i], mode, bits, true), dbits);
            int64_t r = p + SX(c[i], dbits);
            r = r > INT32_MAX ? INT32_MAX : (r < INT32_MIN ? INT32_MIN : r);
            d[i] = (uint64_t)r & dwm;
        });
        return 0;
    }

#define MUL_LOOP(PEXPR)                                                       \
    do {                                                                      \
        if (c)                                                                \
            PTX_ALU_MAP(mask, d, ((PEXPR) + c[i]) & dwm);               \
        else                                                                  \
            PTX_ALU_MAP(mask, d, (PEXPR) & dwm);                        \
    } while (0)

    if (mode == MUL_LO) {
        MUL_LOOP(x[i] * y[i]);
    } else if (mode == MUL_WIDE) {
        if (sgn)
            MUL_LOOP((uint64_t)(SX(x[i], bits) * SX(y[i], bits)));
        else
            MUL_LOOP((x[i] & wm) * (y[i] & wm));
    } else if (bits == 64) {
        if (sgn)
            MUL_LOOP((uint64_t)(((__int128)(int64_t)x[i] * (__int128)(int64_t)y[i]) >> 64));
        else
            MUL_LOOP((uint64_t)(((unsigned __int128)x[i] * (unsigned __int128)y[i]) >> 64));
    } else {
        if (sgn)
            MUL_LOOP((uint64_t)((SX(x[i], bits) * SX(y[i], bits)) >> bits));
        else
            MUL_LOOP(((x[i] & wm) * (y[i] & wm)) >> bits);
    }
#undef MUL_LOOP
    return 0;
}

/* mul24/mad24: 24x24-bit product; .lo = bits 31..0, .hi = bits 47..16 */
static int int_mul24(const struct ptx_insn *in, const struct ptx_alu_args *a, bool mad)
{
    const uint64_t *x = a->s[0], *y = a->s[1], *c = mad ? a->s[2] : NULL;
    uint64_t *d = a->d;
    bool sgn = ptx_alu_is_sint(in->type), hi = (in->flags & PF_HI) != 0;
    bool sat = mad && (in->flags & PF_SAT);
    if (mad && !c)
        return -1;
    PTX_ALU_LANES(a->mask, {
        int64_t p = sgn ? SX(x[i], 24) * SX(y[i], 24)
                        : (int64_t)((x[i] & 0xFFFFFFu) * (y[i] & 0xFFFFFFu));
        uint64_t part = hi ? (uint64_t)(p >> 16) : (uint64_t)p;
        if (sat) {
            int64_t r = SX(part, 32) + SX(c[i], 32);
            r = r > INT32_MAX ? INT32_MAX : (r < INT32_MIN ? INT32_MIN : r);
            d[i] = (uint64_t)r & 0xFFFFFFFFu;
        } else {
            d[i] = (part + (c ? c[i] : 0u)) & 0xFFFFFFFFu;
        }
    });
    return 0;
}

/* ---- sad / div / rem / abs / neg / min / max ------------------------------------- */

static int int_sad(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits)
{
    const uint64_t *x = a->s[0], *y = a->s[1], *c = a->s[2];
    uint64_t *d = a->d, wm = WM(bits);
    if (!c)
        return -1;
    if (ptx_alu_is_sint(in->type)) {
        PTX_ALU_LANES(a->mask, {
            int64_t xv = SX(x[i], bits), yv = SX(y[i], bits);
            uint64_t diff = xv > yv ? (uint64_t)xv - (uint64_t)yv : (uint64_t)yv - (uint64_t)xv;
            d[i] = (c[i] + diff) & wm;
        });
    } else {
        PTX_ALU_LANES(a->mask, {
            uint64_t xv = x[i] & wm, yv = y[i] & wm;
            d[i] = (c[i] + (xv > yv ? xv - yv : yv - xv)) & wm;
        });
    }
    return 0;
}

/* Division never traps: x/0 -> all ones, x%0 -> x, MIN/-1 -> MIN, MIN%-1 -> 0. */
static int int_divrem(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits, bool rem)
{
    const uint64_t *x = a->s[0], *y = a->s[1];
    uint64_t *d = a->d, wm = WM(bits);
    if (ptx_alu_is_sint(in->type)) {
        PTX_ALU_LANES(a->mask, {
            int64_t xv = SX(x[i], bits), yv = SX(y[i], bits);
            uint64_t r;
            if (yv == 0)
                r = rem ? (uint64_t)xv : wm;
            else if (yv == -1) /* the only overflowing case, for 64 bits */
                r = rem ? 0u : (uint64_t)0 - (uint64_t)xv;
            else
                r = rem ? (uint64_t)(xv % yv) : (uint64_t)(xv / yv);
            d[i] = r & wm;
        });
    } else {
        PTX_ALU_LANES(a->mask, {
            uint64_t xv = x[i] & wm, yv = y[i] & wm;
            d[i] = yv == 0 ? (rem ? xv : wm) : (rem ? xv % yv : xv / yv);
        });
    }
    return 0;
}

static int int_absneg(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits, bool neg)
{
    const uint64_t *x = a->s[0];
    uint64_t *d = a->d, wm = WM(bits);
    (void)in;
    if (neg) {
        PTX_ALU_MAP(a->mask, d, ((uint64_t)0 - x[i]) & wm);
    } else {
        /* abs of MIN wraps to MIN */
        PTX_ALU_LANES(a->mask, {
            int64_t v = SX(x[i], bits);
            d[i] = (v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v) & wm;
        });
    }
    return 0;
}

static int int_minmax(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits, bool max)
{
    const uint64_t *x = a->s[0], *y = a->s[1];
    uint64_t *d = a->d, wm = WM(bits);
    if (ptx_alu_is_sint(in->type)) {
        bool relu = (in->flags & PF_RELU) != 0;
        int64_t lo = relu ? 0 : INT64_MIN; /* .relu clamps negative results to 0 */
        if (max)
            PTX_ALU_MAP(a->mask, d, (uint64_t)MAX3(SX(x[i], bits), SX(y[i], bits), lo) & wm);
        else
            PTX_ALU_MAP(a->mask, d, (uint64_t)MAX3(MIN2(SX(x[i], bits), SX(y[i], bits)), lo, lo) & wm);
    } else if (max) {
        PTX_ALU_MAP(a->mask, d, (x[i] & wm) > (y[i] & wm) ? x[i] & wm : y[i] & wm);
    } else {
        PTX_ALU_MAP(a->mask, d, (x[i] & wm) < (y[i] & wm) ? x[i] & wm : y[i] & wm);
    }
    return 0;
}

/* ---- bit counting / reversal ------------------------------------------------------ */

static uint64_t int_brev64(uint64_t v)
{
    v = ((v >> 1) & UINT64_C(0x5555555555555555)) | ((v & UINT64_C(0x5555555555555555)) << 1);
    v = ((v >> 2) & UINT64_C(0x3333333333333333)) | ((v & UINT64_C(0x3333333333333333)) << 2);
    v = ((v >> 4) & UINT64_C(0x0F0F0F0F0F0F0F0F)) | ((v & UINT64_C(0x0F0F0F0F0F0F0F0F)) << 4);
    return __builtin_bswap64(v);
}

static int int_bitcount(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits)
{
    const uint64_t *x = a->s[0];
    uint64_t *d = a->d, wm = WM(bits);
    switch (in->op) {
    case PO_POPC:
        PTX_ALU_MAP(a->mask, d, (uint64_t)__builtin_popcountll(x[i] & wm));
        break;
    case PO_CLZ:
        /* count within the type width: the value sits in the low `bits` */
        PTX_ALU_LANES(a->mask, {
            uint64_t v = x[i] & wm;
            d[i] = v ? (uint64_t)(__builtin_clzll(v) - (int)(64u - bits)) : bits;
        });
        break;
    case PO_BREV:
        PTX_ALU_MAP(a->mask, d, int_brev64(x[i]) >> (64u - bits));
        break;
    case PO_BFIND: {
        /* most significant non-sign bit; 0xFFFFFFFF when there is none */
        bool sgn = ptx_alu_is_sint(in->type), shamt = (in->flags & PF_SHIFTAMT) != 0;
        uint64_t top = (uint64_t)1 << (bits - 1u);
        PTX_ALU_LANES(a->mask, {
            uint64_t v = x[i] & wm;
            if (sgn && (v & top))
                v = ~v & wm;
            uint64_t r = 0xFFFFFFFFu;
            if (v) {
                unsigned pos = 63u - (unsigned)__builtin_clzll(v);
                r = shamt ? (uint64_t)(bits - 1u - pos) : pos;
            }
            d[i] = r;
        });
        break;
    }
    default:
        return -1;
    }
    return 0;
}

/* ---- bfe / bfi / prmt -------------------------------------------------------------- */

static int int_bfe(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits)
{
    const uint64_t *x = a->s[0], *pb = a->s[1], *lb = a->s[2];
    uint64_t *d = a->d, wm = WM(bits);
    bool sgn = ptx_alu_is_sint(in->type);
    if (!lb)
        return -1;
    PTX_ALU_LANES(a->mask, {
        unsigned pos = (unsigned)(pb[i] & 0xFFu), len = (unsigned)(lb[i] & 0xFFu);
        uint64_t v = x[i] & wm, r = 0;
        if (len != 0) {
            unsigned msb = bits - 1u;
            unsigned sbit_pos = pos + len - 1u < msb ? pos + len - 1u : msb;
            uint64_t sbit = sgn ? (v >> sbit_pos) & 1u : 0u;
            unsigned avail = pos <= msb ? bits - pos : 0u; /* bits present above pos */
            unsigned n = len < avail ? len : avail;
            r = n ? (v >> pos) & WM(n) : 0u;
            if (sbit && n < bits)
                r |= ~WM(n) & wm;
        }
        d[i] = r;
    });
    return 0;
}

static int int_bfi(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits)
{
    const uint64_t *x = a->s[0], *y = a->s[1], *pb = a->s[2], *lb = a->s[3];
    uint64_t *d = a->d, wm = WM(bits);
    (void)in;
    if (!lb)
        return -1;
    PTX_ALU_LANES(a->mask, {
        unsigned pos = (unsigned)(pb[i] & 0xFFu), len = (unsigned)(lb[i] & 0xFFu);
        uint64_t r = y[i] & wm;
        if (len != 0 && pos < bits) {
            unsigned n = len < bits - pos ? len : bits - pos;
            uint64_t fm = WM(n) << pos;
            r = (r & ~fm) | ((x[i] << pos) & fm);
        }
        d[i] = r;
    });
    return 0;
}

/* prmt modes: for selector c[1:0], source byte index of d.b0..d.b3 */
static const uint8_t int_prmt_tab[7][4][4] = {
    [PPM_F4E] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    [PPM_B4E] = {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    [PPM_RC8] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    [PPM_ECL] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    [PPM_ECR] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    [PPM_RC16] = {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

static int int_prmt(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    const uint64_t *x = a->s[0], *y = a->s[1], *c = a->s[2];
    uint64_t *d = a->d;
    unsigned mode = in->subop;
    if (!c || mode > PPM_RC16)
        return -1;
    if (mode == PPM_NONE) {
        /* generic: 4 nibbles; low 3 bits pick one of the 8 bytes {b, a}, bit 3
           replicates that byte's sign bit */
        PTX_ALU_LANES(a->mask, {
            uint64_t src = ((y[i] & 0xFFFFFFFFu) << 32) | (x[i] & 0xFFFFFFFFu);
            uint32_t sel = (uint32_t)c[i], r = 0;
            for (unsigned k = 0; k < 4; k++) {
                uint32_t s = (sel >> (4 * k)) & 0xFu;
                uint32_t byte = (uint32_t)(src >> (8 * (s & 7u))) & 0xFFu;
                if (s & 8u)
                    byte = (byte & 0x80u) ? 0xFFu : 0u;
                r |= byte << (8 * k);
            }
            d[i] = r;
        });
    } else {
        PTX_ALU_LANES(a->mask, {
            uint64_t src = ((y[i] & 0xFFFFFFFFu) << 32) | (x[i] & 0xFFFFFFFFu);
            const uint8_t *t = int_prmt_tab[mode][c[i] & 3u];
            uint32_t r = 0;
            for (unsigned k = 0; k < 4; k++)
                r |= ((uint32_t)(src >> (8 * t[k])) & 0xFFu) << (8 * k);
            d[i] = r;
        });
    }
    return 0;
}

/* ---- shifts ------------------------------------------------------------------------ */

static int int_shift(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned bits)
{
    const uint64_t *x = a->s[0], *y = a->s[1];
    uint64_t *d = a->d, wm = WM(bits);
    /* the shift amount is u32: amounts >= width give 0 (or the sign fill) */
    if (in->op == PO_SHL) {
        PTX_ALU_MAP(a->mask, d, (uint32_t)y[i] < bits ? (x[i] << ((uint32_t)y[i] & 63u)) & wm : 0u);
    } else if (ptx_alu_is_sint(in->type)) {
        PTX_ALU_MAP(a->mask, d,
                    (uint64_t)(SX(x[i], bits) >> ((uint32_t)y[i] < bits ? (uint32_t)y[i] & 63u : bits - 1u)) & wm);
    } else {
        PTX_ALU_MAP(a->mask, d, (uint32_t)y[i] < bits ? (x[i] & wm) >> ((uint32_t)y[i] & 63u) : 0u);
    }
    return 0;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b:a} (b high) */
static int int_shf(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    const uint64_t *x = a->s[0], *y = a->s[1], *c = a->s[2];
    uint64_t *d = a->d;
    unsigned mode = in->subop;
    bool left = mode == PSF_L_WRAP || mode == PSF_L_CLAMP;
    bool wrap = mode == PSF_L_WRAP || mode == PSF_R_WRAP;
    if (!c || mode > PSF_R_CLAMP)
        return -1;
    PTX_ALU_LANES(a->mask, {
        uint64_t v = ((y[i] & 0xFFFFFFFFu) << 32) | (x[i] & 0xFFFFFFFFu);
        uint32_t n = (uint32_t)c[i];
        n = wrap ? (n & 31u) : (n < 32u ? n : 32u);
        d[i] = left ? (v << n) >> 32 : (v >> n) & 0xFFFFFFFFu;
    });
    return 0;
}

/* ---- dp4a / dp2a ------------------------------------------------------------------- */

/* The parser gives dp4a.atype.btype as type = atype, stype = btype. */
static int int_dp(const struct ptx_insn *in, const struct ptx_alu_args *a, bool four)
{
    const uint64_t *x = a->s[0], *y = a->s[1], *c = a->s[2];
    uint64_t *d = a->d;
    bool as = ptx_alu_is_sint(in->type);
    bool bs = ptx_alu_is_sint(in->stype == PT_NONE ? in->type : in->stype);
    unsigned base = (in->flags & PF_HI) ? 2u : 0u; /* dp2a.hi uses bytes 2, 3 of b */
    if (!c)
        return -1;
    PTX_ALU_LANES(a->mask, {
        uint64_t acc = c[i];
        if (four) {
            for (unsigned k = 0; k < 4; k++) {
                uint64_t ab = (x[i] >> (8 * k)) & 0xFFu, bb = (y[i] >> (8 * k)) & 0xFFu;
                int64_t av = as ? SX(ab, 8) : (int64_t)ab, bv = bs ? SX(bb, 8) : (int64_t)bb;
                acc += (uint64_t)(av * bv);
            }
        } else {
            for (unsigned k = 0; k < 2; k++) {
                uint64_t ah = (x[i] >> (16 * k)) & 0xFFFFu, bb = (y[i] >> (8 * (base + k))) & 0xFFu;
                int64_t av = as ? SX(ah, 16) : (int64_t)ah, bv = bs ? SX(bb, 8) : (int64_t)bb;
                acc += (uint64_t)(av * bv);
            }
        }
        d[i] = acc & 0xFFFFFFFFu;
    });
    return 0;
}

/* ---- dispatch ------------------------------------------------------------------------ */

int ptx_alu_exec_int(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned bits = ptx_alu_tbits(in->type);
    if (bits < 8 || !ptx_alu_is_intlike(in->type))
        return -1;
    switch (in->op) {
    case PO_ADD: return int_addsub(in, a, bits, false, false);
    case PO_SUB: return int_addsub(in, a, bits, true, false);
    case PO_ADDC: return int_addsub(in, a, bits, false, true);
    case PO_SUBC: return int_addsub(in, a, bits, true, true);
    case PO_MUL: return int_mul(in, a, bits, false, false);
    case PO_MAD: return int_mul(in, a, bits, true, false);
    case PO_MADC: return int_mul(in, a, bits, true, true);
    case PO_MUL24: return int_mul24(in, a, false);
    case PO_MAD24: return int_mul24(in, a, true);
    case PO_SAD: return int_sad(in, a, bits);
    case PO_DIV: return int_divrem(in, a, bits, false);
    case PO_REM: return int_divrem(in, a, bits, true);
    case PO_ABS: return int_absneg(in, a, bits, false);
    case PO_NEG: return int_absneg(in, a, bits, true);
    case PO_MIN: return int_minmax(in, a, bits, false);
    case PO_MAX: return int_minmax(in, a, bits, true);
    case PO_POPC: case PO_CLZ: case PO_BREV: case PO_BFIND: return int_bitcount(in, a, bits);
    case PO_BFE: return int_bfe(in, a, bits);
    case PO_BFI: return int_bfi(in, a, bits);
    case PO_PRMT: return int_prmt(in, a);
    case PO_SHL: case PO_SHR: return int_shift(in, a, bits);
    case PO_SHF: return int_shf(in, a);
    case PO_DP4A: return int_dp(in, a, true);
    case PO_DP2A: return int_dp(in, a, false);
    default: return -1;
    }
}
