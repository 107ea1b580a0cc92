/*
 * ptx_alu_cvt.c - cvt between every pair of u8..u64, s8..s64, f16, bf16, f32,
 * f64 (+ cvt.f16x2.f32), and the bit-exact rounding helpers the rest of the ALU
 * uses for formats the host has no arithmetic for (f16, bf16) and for directed
 * rounding of int->float and f64->f32 without touching the host FP mode.
 */
#include "ptx_alu_internal.h"

#include <math.h>

/* ---- exact rounding of sign * M * 2^E into a binary format ----------------- */

/* Round the value (neg ? -1 : 1) * M * 2^E to format f under rnd.  The ulp
   exponent q is fixed by the leading bit (or the subnormal floor); the kept
   integer significand R = M >> (q - E) is then rounded by the discarded
   remainder.  The encoding ((biased_exp - 1) << mbits) + R works for normals
   (R carries the hidden bit), subnormals (biased_exp 0 part vanishes) and a
   rounding carry into the next binade alike. */
static uint64_t alu_round_core(bool neg, uint64_t M, int E, struct ptx_alu_fmt f, unsigned rnd)
{
    unsigned tb = 1u + f.ebits + f.mbits;
    uint64_t sign = neg ? (uint64_t)1 << (tb - 1u) : 0;
    if (M == 0)
        return sign;
    int bias = (1 << (f.ebits - 1u)) - 1;
    int emin = 1 - bias;
    int l2 = E + 63 - __builtin_clzll(M);
    int q = (l2 > emin ? l2 : emin) - (int)f.mbits;
    int sh = q - E;
    uint64_t R;
    if (sh <= 0) {
        R = M << (unsigned)(-sh); /* exact: fewer significant bits than the format */
    } else {
        int cmp;           /* remainder vs half an ulp: -1 below, 0 tie, 1 above */
        bool inexact;
        if (sh > 64) {
            R = 0;
            cmp = -1;
            inexact = true;
        } else if (sh == 64) {
            R = 0;
            uint64_t half = (uint64_t)1 << 63;
            cmp = M > half ? 1 : (M == half ? 0 : -1);
            inexact = true;
        } else {
            R = M >> (unsigned)sh;
            uint64_t rem = M & (((uint64_t)1 << (unsigned)sh) - 1u);
            uint64_t half = (uint64_t)1 << (unsigned)(sh - 1);
            cmp = rem > half ? 1 : (rem == half ? 0 : -1);
            inexact = rem != 0;
        }
        bool up;
        switch (rnd) {
        case PR_RZ: case PR_RZI: up = false; break;
        case PR_RP: case PR_RPI: up = inexact && !neg; break;
        case PR_RM: case PR_RMI: up = inexact && neg; break;
        default: up = cmp > 0 || (cmp == 0 && (R & 1u)); break;
        }
        R += up ? 1u : 0u;
    }
    uint64_t be = (uint64_t)(int64_t)(q + (int)f.mbits + bias - 1);
    uint64_t inf = (((uint64_t)1 << f.ebits) - 1u) << f.mbits;
    uint64_t mag = be >= ((uint64_t)1 << f.ebits) ? inf : (be << f.mbits) + R;
    if (mag >= inf) {
        /* overflow: to infinity or to the largest finite value by direction */
        bool to_inf = (rnd != PR_RZ && rnd != PR_RM && rnd != PR_RP) || (rnd == PR_RP && !neg) ||
                      (rnd == PR_RM && neg);
        mag = to_inf ? inf : inf - 1u;
    }
    return sign | mag;
}

uint64_t ptx_alu_round_double(double x, struct ptx_alu_fmt f, unsigned rnd)
{
    uint64_t b = ptx_alu_b64(x);
    bool neg = (b >> 63) != 0;
    unsigned e = (unsigned)(b >> 52) & 0x7FFu;
    uint64_t fr = b & ((UINT64_C(1) << 52) - 1u);
    unsigned tb = 1u + f.ebits + f.mbits;
    uint64_t inf = (((uint64_t)1 << f.ebits) - 1u) << f.mbits;
    if (e == 0x7FFu) {
        if (fr)
            return ((uint64_t)1 << (tb - 1u)) - 1u; /* canonical NaN: all ones, positive */
        return (neg ? (uint64_t)1 << (tb - 1u) : 0) | inf;
    }
    if (e == 0)
        return alu_round_core(neg, fr, -1074, f, rnd);
    return alu_round_core(neg, fr | (UINT64_C(1) << 52), (int)e - 1075, f, rnd);
}

uint64_t ptx_alu_round_int(bool neg, uint64_t m, struct ptx_alu_fmt f, unsigned rnd)
{
    return alu_round_core(neg, m, 0, f, rnd);
}

double ptx_alu_odd(double s, double e)
{
    uint64_t b = ptx_alu_b64(s);
    if (e == 0 || (b & 1u) || s != s || s - s != 0)
        return s;
    /* the exact value lies strictly between s and its neighbour towards e:
       pick the odd one of the two (s is even) */
    bool away = (e > 0) == (s > 0);
    return ptx_alu_f64(away ? b + 1u : b - 1u);
}

float ptx_alu_h2f(uint64_t h, bool bf16)
{
    uint32_t u;
    if (bf16) {
        u = (uint32_t)(h & 0xFFFFu) << 16; /* bf16 is the top half of an f32 */
    } else {
        uint32_t s = (uint32_t)(h & 0x8000u) << 16;
        uint32_t e = (uint32_t)(h >> 10) & 0x1Fu;
        uint32_t m = (uint32_t)h & 0x3FFu;
        if (e == 0x1Fu) {
            u = s | 0x7F800000u | (m << 13);
        } else if (e == 0) {
            float v = (float)m * 0x1p-24f; /* subnormal: exact in f32 */
            u = (uint32_t)ptx_alu_b32(v) | s;
        } else {
            u = s | ((e + 112u) << 23) | (m << 13);
        }
    }
    return ptx_alu_f32(u);
}

uint64_t ptx_alu_ftz_half(uint64_t h, struct ptx_alu_fmt f)
{
    uint64_t emask = (((uint64_t)1 << f.ebits) - 1u) << f.mbits;
    return (h & emask) ? h : (h & 0x8000u);
}

/* ---- cvt --------------------------------------------------------------------- */

static bool cvt_int(unsigned t) { return ptx_alu_is_intlike(t); }
static bool cvt_flt(unsigned t)
{
    return t == PT_F16 || t == PT_BF16 || t == PT_F32 || t == PT_F64;
}

/* int -> int: truncate, or sign/zero-extend from the source width; .sat clamps
   to the destination range (via __int128 so no case overflows). */
static int cvt_int_int(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned sb = ptx_alu_tbits(in->stype), db = ptx_alu_tbits(in->type);
    bool ss = ptx_alu_is_sint(in->stype), ds = ptx_alu_is_sint(in->type);
    uint64_t dwm = ptx_alu_wmask(db), swm = ptx_alu_wmask(sb);
    const uint64_t *x = a->s[0];
    uint64_t *d = a->d;
    if (in->flags & PF_SAT) {
        __int128 lo = ds ? -((__int128)1 << (db - 1u)) : 0;
        __int128 hi = ds ? ((__int128)1 << (db - 1u)) - 1 : ((__int128)1 << db) - 1;
        PTX_ALU_LANES(a->mask, {
            __int128 v = ss ? (__int128)ptx_alu_sext(x[i], sb) : (__int128)(x[i] & swm);
            v = v < lo ? lo : (v > hi ? hi : v);
            d[i] = (uint64_t)v & dwm;
        });
    } else if (ss && sb < db) {
        unsigned sh = 64u - sb;
        PTX_ALU_MAP(a->mask, d, (uint64_t)((int64_t)(x[i] << sh) >> sh) & dwm);
    } else {
        uint64_t m = dwm & swm;
        PTX_ALU_MAP(a->mask, d, x[i] & m);
    }
    return 0;
}

/* source lanes -> exact double values (f16/bf16/f32 are exact in double);
   .ftz flushes subnormal f32 inputs */
static void cvt_src_double(unsigned st, bool ftz, uint32_t mask, const uint64_t *x, double *v)
{
    switch (st) {
    case PT_F32:
        if (ftz)
            PTX_ALU_LANES(mask, v[i] = (double)ptx_alu_f32(ptx_alu_ftz32((uint32_t)x[i])));
        else
            PTX_ALU_LANES(mask, v[i] = (double)ptx_alu_f32(x[i]));
        break;
    case PT_F64:
        PTX_ALU_LANES(mask, v[i] = ptx_alu_f64(x[i]));
        break;
    case PT_F16:
        PTX_ALU_LANES(mask, v[i] = (double)ptx_alu_h2f(x[i], false));
        break;
    default: /* PT_BF16 */
        PTX_ALU_LANES(mask, v[i] = (double)ptx_alu_h2f(x[i], true));
        break;
    }
}

/* round exact doubles to integral values in place for .rni/.rzi/.rmi/.rpi */
static void cvt_round_integral(unsigned rnd, uint32_t mask, double *v)
{
    switch (rnd) {
    case PR_RNI: PTX_ALU_LANES(mask, v[i] = nearbyint(v[i])); break;
    case PR_RZI: PTX_ALU_LANES(mask, v[i] = trunc(v[i])); break;
    case PR_RMI: PTX_ALU_LANES(mask, v[i] = floor(v[i])); break;
    case PR_RPI: PTX_ALU_LANES(mask, v[i] = ceil(v[i])); break;
    default: break;
    }
}

/* float -> int: round to integral, then saturate to the destination range
   (always, per PTX); NaN -> 0.  Clamping happens in double before the C
   conversion, which would be undefined out of range. */
static int cvt_flt_int(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    double v[PTX_WARP_SIZE];
    unsigned db = ptx_alu_tbits(in->type), rnd = in->rnd == PR_NONE ? PR_RZI : in->rnd;
    uint64_t dwm = ptx_alu_wmask(db);
    uint64_t *d = a->d;
    const uint64_t *x = a->s[0];
    uint32_t mask = a->mask;
    bool sgn = ptx_alu_is_sint(in->type);
    /* bounds: exclusive upper 2^(n-1) or 2^n, inclusive lower -2^(n-1) */
    double hi = ldexp(1.0, sgn ? (int)db - 1 : (int)db), lo = -hi;
    int64_t imax = (int64_t)(((uint64_t)1 << (db - 1u)) - 1u), imin = -imax - 1;
#define CVT_SAT_S(y) ((y) != (y) ? 0 : ((y) >= hi ? imax : ((y) < lo ? imin : (int64_t)(y))))
#define CVT_SAT_U(y) (!((y) > 0) ? 0 : ((y) >= hi ? dwm : (uint64_t)(y)))
    if (rnd == PR_RZI && in->stype == PT_F32 && !(in->flags & PF_FTZ)) {
        /* hot path (C casts truncate): one pass */
        if (sgn)
            PTX_ALU_MAP(mask, d, (uint64_t)CVT_SAT_S((double)ptx_alu_f32(x[i])) & dwm);
        else
            PTX_ALU_MAP(mask, d, CVT_SAT_U((double)ptx_alu_f32(x[i])));
        return 0;
    }
    cvt_src_double(in->stype, (in->flags & PF_FTZ) != 0, mask, x, v);
    cvt_round_integral(rnd, mask, v);
    if (sgn)
        PTX_ALU_MAP(mask, d, (uint64_t)CVT_SAT_S(v[i]) & dwm);
    else
        PTX_ALU_MAP(mask, d, CVT_SAT_U(v[i]));
#undef CVT_SAT_S
#undef CVT_SAT_U
    return 0;
}

/* f32/f64 result post-processing for cvt with a float destination */
static uint64_t cvt_sat_double(double y)
{
    return ptx_alu_b64(y > 0 ? (y < 1.0 ? y : 1.0) : 0.0);
}

/* int -> float */
static int cvt_int_flt(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned sb = ptx_alu_tbits(in->stype), dt = in->type;
    bool ss = ptx_alu_is_sint(in->stype);
    uint64_t swm = ptx_alu_wmask(sb);
    unsigned rnd = in->rnd;
    bool rn = rnd == PR_NONE || rnd == PR_RN;
    const uint64_t *x = a->s[0];
    uint64_t *d = a->d;
    uint32_t mask = a->mask;
    bool sat = (in->flags & PF_SAT) != 0;

    if (rn && !sat && dt == PT_F32) {
        /* hot path: the host conversion is correctly rounded to nearest */
        if (ss)
            PTX_ALU_MAP(mask, d, ptx_alu_b32((float)ptx_alu_sext(x[i], sb)));
        else
            PTX_ALU_MAP(mask, d, ptx_alu_b32((float)(x[i] & swm)));
        return 0;
    }
    if (rn && !sat && dt == PT_F64) {
        if (ss)
            PTX_ALU_MAP(mask, d, ptx_alu_b64((double)ptx_alu_sext(x[i], sb)));
        else
            PTX_ALU_MAP(mask, d, ptx_alu_b64((double)(x[i] & swm)));
        return 0;
    }
    struct ptx_alu_fmt f = dt == PT_F64 ? (struct ptx_alu_fmt){11, 52}
                         : dt == PT_F32 ? PTX_ALU_FMT_F32
                         : dt == PT_F16 ? PTX_ALU_FMT_F16 : PTX_ALU_FMT_BF16;
    PTX_ALU_LANES(mask, {
        bool neg = false;
        uint64_t m = x[i] & swm;
        if (ss) {
            int64_t sv = ptx_alu_sext(x[i], sb);
            neg = sv < 0;
            m = neg ? (uint64_t)0 - (uint64_t)sv : (uint64_t)sv;
        }
        uint64_t r = ptx_alu_round_int(neg, m, f, rnd);
        if (sat) {
            /* an integer is either <= 0 (-> 0) or >= 1 (-> 1.0) */
            uint64_t one = dt == PT_F64 ? UINT64_C(0x3FF0000000000000)
                         : dt == PT_F32 ? 0x3F800000u : dt == PT_F16 ? 0x3C00u : 0x3F80u;
            r = (neg || m == 0) ? 0 : one;
        }
        d[i] = r;
    });
    return 0;
}

/* double value -> destination float bits under rnd, with sat/ftz/relu */
static int cvt_flt_flt(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned dt = in->type, st = in->stype, rnd = in->rnd;
    uint32_t mask = a->mask;
    const uint64_t *x = a->s[0];
    uint64_t *d = a->d;
    bool ftz = (in->flags & PF_FTZ) != 0, sat = (in->flags & PF_SAT) != 0;
    bool relu = (in->flags & PF_RELU) != 0;
    bool rn = rnd == PR_NONE || rnd == PR_RN;

    /* hot paths: f32 <-> f64 without modifiers */
    if (!ftz && !sat && !relu && rn && st == PT_F32 && dt == PT_F64) {
        PTX_ALU_MAP(mask, d, ptx_alu_res64((double)ptx_alu_f32(x[i])));
        return 0;
    }
    if (!ftz && !sat && !relu && rn && st == PT_F64 && dt == PT_F32) {
        PTX_ALU_MAP(mask, d, ptx_alu_res32((float)ptx_alu_f64(x[i])));
        return 0;
    }

    double v[PTX_WARP_SIZE];
    cvt_src_double(st, ftz, mask, x, v);
    bool integral = rnd == PR_RNI || rnd == PR_RZI || rnd == PR_RMI || rnd == PR_RPI;
    if (integral)
        cvt_round_integral(rnd, mask, v);
    if (sat)
        PTX_ALU_LANES(mask, v[i] = ptx_alu_f64(cvt_sat_double(v[i])));
    if (relu)
        PTX_ALU_LANES(mask, v[i] = v[i] < 0 ? 0.0 : v[i]);
    unsigned r = integral ? PR_RN : rnd; /* already integral: exact below */
    switch (dt) {
    case PT_F64:
        PTX_ALU_MAP(mask, d, ptx_alu_res64(v[i]));
        break;
    case PT_F32:
        if (st == PT_F64 && !rn && !integral)
            PTX_ALU_MAP(mask, d, ptx_alu_round_double(v[i], PTX_ALU_FMT_F32, r));
        else
            PTX_ALU_MAP(mask, d, ptx_alu_res32((float)v[i]));
        if (ftz)
            PTX_ALU_MAP(mask, d, ptx_alu_ftz32((uint32_t)d[i]));
        break;
    case PT_F16:
        PTX_ALU_MAP(mask, d, ptx_alu_round_double(v[i], PTX_ALU_FMT_F16, r));
        break;
    default: /* PT_BF16 */
        PTX_ALU_MAP(mask, d, ptx_alu_round_double(v[i], PTX_ALU_FMT_BF16, r));
        break;
    }
    return 0;
}

/* cvt.rn{.relu}.f16x2.f32 d, a, b: a goes to the upper half, b to the lower */
static int cvt_f16x2(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned r = in->rnd;
    bool relu = (in->flags & PF_RELU) != 0;
    const uint64_t *x = a->s[0], *y = a->s[1];
    uint64_t *d = a->d;
    if (!x || !y)
        return -1;
    PTX_ALU_LANES(a->mask, {
        double hi = (double)ptx_alu_f32(x[i]), lo = (double)ptx_alu_f32(y[i]);
        if (relu) {
            hi = hi < 0 ? 0.0 : hi;
            lo = lo < 0 ? 0.0 : lo;
        }
        d[i] = (ptx_alu_round_double(hi, PTX_ALU_FMT_F16, r) << 16) |
               ptx_alu_round_double(lo, PTX_ALU_FMT_F16, r);
    });
    return 0;
}

int ptx_alu_exec_cvt(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned dt = in->type, st = in->stype;
    if (dt == PT_F16X2 && st == PT_F32)
        return cvt_f16x2(in, a);
    if (cvt_int(dt) && cvt_int(st))
        return cvt_int_int(in, a);
    if (cvt_int(dt) && cvt_flt(st))
        return cvt_flt_int(in, a);
    if (cvt_flt(dt) && cvt_int(st))
        return cvt_int_flt(in, a);
    if (cvt_flt(dt) && cvt_flt(st))
        return cvt_flt_flt(in, a);
    return -1;
}
