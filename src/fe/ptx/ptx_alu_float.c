/*
 * ptx_alu_float.c - floating-point arithmetic of the PTX ALU: add/sub/mul/fma/
 * mad/div/rcp/sqrt/rsqrt, the .approx special functions, abs/neg/min/max/
 * copysign/testp, for f32 and f64, plus f16/f16x2/bf16 arithmetic.
 *
 * f32/f64: the host's IEEE operations are correctly rounded to nearest, which
 * is PTX's .rn (and the default).  .rz/.rm/.rp switch the host rounding mode
 * with fesetround() around the lane loop (slow path only) and restore it.
 * .approx functions are computed in double with libm and rounded once to the
 * result type (at least as accurate as the hardware).  NaN results are the
 * canonical all-ones NaN, so results never depend on the host's NaN rules.
 *
 * f16/bf16 have no host arithmetic: operands are widened exactly to double, the
 * operation is done in double with its exact error (TwoSum), folded into a
 * round-to-odd value, then rounded once to the half format in any mode; this
 * gives the correctly rounded result (53 >= 11 + 2 bits).
 */
#include "ptx_alu_internal.h"

#include <fenv.h>
#include <math.h>

static const uint64_t flt_zeros[PTX_WARP_SIZE];

static bool flt_directed(unsigned rnd)
{
    return rnd == PR_RZ || rnd == PR_RM || rnd == PR_RP;
}

static int flt_fe_mode(unsigned rnd)
{
    switch (rnd) {
    case PR_RZ: return FE_TOWARDZERO;
    case PR_RM: return FE_DOWNWARD;
    case PR_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static inline float flt_sat32(float r)
{
    return r > 0.0f ? (r < 1.0f ? r : 1.0f) : 0.0f; /* NaN -> +0 */
}

/* div.approx.f32: a * (1/b); for 2^126 < |b| < 2^128 the reciprocal flushes,
   giving 0 (NaN for infinite a), as documented for the hardware. */
static inline float flt_div_approx(float x, float y)
{
    float ay = fabsf(y);
    if (ay > 0x1p126f && ay < INFINITY)
        return x * copysignf(0.0f, y);
    return (float)((double)x / (double)y);
}

/* ---- f32 ------------------------------------------------------------------------- */

enum flt_kind {
    FK_ADD, FK_SUB, FK_MUL, FK_FMA, FK_DIV, FK_DIV_APPROX, FK_RCP, FK_RCP_APPROX, FK_SQRT,
    FK_SQRT_APPROX, FK_RSQRT, FK_SIN, FK_COS, FK_LG2, FK_EX2, FK_TANH
};

static int flt_kind_of(const struct ptx_insn *in)
{
    bool approx = (in->flags & PF_APPROX) != 0;
    switch (in->op) {
    case PO_ADD: return FK_ADD;
    case PO_SUB: return FK_SUB;
    case PO_MUL: return FK_MUL;
    case PO_FMA: case PO_MAD: return FK_FMA;
    case PO_DIV: return approx ? FK_DIV_APPROX : FK_DIV;
    case PO_RCP: return approx ? FK_RCP_APPROX : FK_RCP;
    case PO_SQRT: return approx ? FK_SQRT_APPROX : FK_SQRT;
    case PO_RSQRT: return FK_RSQRT;
    case PO_SIN: return FK_SIN;
    case PO_COS: return FK_COS;
    case PO_LG2: return FK_LG2;
    case PO_EX2: return FK_EX2;
    case PO_TANH: return FK_TANH;
    default: return -1;
    }
}

/* f32 result post-processing for .sat and .ftz (NaN made canonical) */
static inline uint64_t flt_post32(float r, bool sat, bool ftz)
{
    if (sat)
        r = flt_sat32(r);
    uint32_t b = (uint32_t)ptx_alu_res32(r);
    return ftz ? ptx_alu_ftz32(b) : b;
}

/* Operands of lane i as floats; the lane loop reads them through x, y, z,
   which point at .ftz-flushed copies when needed. */
#define X ptx_alu_f32(x[i])
#define Y ptx_alu_f32(y[i])
#define Z ptx_alu_f32(z[i])
#define XD ptx_alu_f64(x[i])
#define YD ptx_alu_f64(y[i])
#define ZD ptx_alu_f64(z[i])

#define F32_OP(EXPR)                                                   \
    do {                                                               \
        if (!ftz && !sat)                                              \
            PTX_ALU_MAP(mask, d, ptx_alu_res32(EXPR));                 \
        else                                                           \
            PTX_ALU_MAP(mask, d, flt_post32((EXPR), sat, ftz));        \
    } while (0)

#define F64_OP(EXPR)                                                   \
    do {                                                               \
        if (!ftz)                                                      \
            PTX_ALU_MAP(mask, d, ptx_alu_res64(EXPR));                 \
        else                                                           \
            PTX_ALU_MAP(mask, d, ptx_alu_ftz64(ptx_alu_res64(EXPR)));  \
    } while (0)

/* fma.rn.f32 without a host fma: a*b is exact in double; a*b + c is rounded
   to double as "round to odd" (TwoSum gives the exact error; an inexact even
   result moves to its odd neighbour towards the error), and rounding that to
   float is then the correctly rounded fma (53 >= 24 + 2).  Needs the host in
   round-to-nearest. */
float ptx_alu_fma32_rn(float a, float b, float c)
{
    double p = (double)a * (double)b, cd = (double)c;
    double s = p + cd;
    double bp = s - p;
    double e = (p - (s - bp)) + (cd - bp);
    uint64_t sb = ptx_alu_b64(s);
    bool inexact = e < 0 || e > 0; /* false for NaN (inf operands) */
    /* truncate towards zero when the error points inwards, then force odd */
    sb -= (inexact && ((e < 0) != (s < 0))) ? 1u : 0u;
    sb |= inexact ? 1u : 0u;
    return (float)ptx_alu_f64(sb);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* x86-64 hosts with FMA: one vectorised vfmadd loop (it honours the host
   rounding mode, so it also serves .rz/.rm/.rp); chosen at run time because
   the baseline target has no FMA. */
#define FLT_HW_FMA 1
__attribute__((target("fma"))) static void flt_fma32_hw(bool ftz, bool sat, uint32_t mask, uint64_t *d,
                                                      const uint64_t *x, const uint64_t *y,
                                                      const uint64_t *z)
{
    if (!ftz && !sat)
        PTX_ALU_MAP(mask, d, ptx_alu_res32(__builtin_fmaf(X, Y, Z)));
    else
        PTX_ALU_MAP(mask, d, flt_post32(__builtin_fmaf(X, Y, Z), sat, ftz));
}

__attribute__((target("fma"))) static void flt_fma64_hw(bool ftz, uint32_t mask, uint64_t *d,
                                                      const uint64_t *x, const uint64_t *y,
                                                      const uint64_t *z)
{
    if (!ftz)
        PTX_ALU_MAP(mask, d, ptx_alu_res64(__builtin_fma(XD, YD, ZD)));
    else
        PTX_ALU_MAP(mask, d, ptx_alu_ftz64(ptx_alu_res64(__builtin_fma(XD, YD, ZD))));
}

static bool flt_have_hw_fma(void)
{
    return __builtin_cpu_supports("fma") != 0;
}
#endif

/* flush subnormal inputs of the lanes in mask into local copies */
static const uint64_t *flt_ftz_copy(bool f64, uint32_t mask, const uint64_t *x, uint64_t *buf)
{
    if (f64)
        PTX_ALU_MAP(mask, buf, ptx_alu_ftz64(x[i]));
    else
        PTX_ALU_MAP(mask, buf, ptx_alu_ftz32((uint32_t)x[i]));
    return buf;
}

/* noinline keeps the loop between the fesetround() calls of the caller */
__attribute__((noinline)) static int flt_f32_run(int kind, bool ftz, bool sat, bool rn, uint32_t mask,
                                                 uint64_t *d, const uint64_t *x,
                                                 const uint64_t *y, const uint64_t *z)
{
    uint64_t bx[PTX_WARP_SIZE], by[PTX_WARP_SIZE], bz[PTX_WARP_SIZE];
    if (ftz) {
        x = flt_ftz_copy(false, mask, x, bx);
        y = flt_ftz_copy(false, mask, y, by);
        z = flt_ftz_copy(false, mask, z, bz);
    }
    switch (kind) {
    case FK_ADD: F32_OP(X + Y); break;
    case FK_SUB: F32_OP(X - Y); break;
    case FK_MUL: F32_OP(X * Y); break;
    case FK_FMA:
#ifdef FLT_HW_FMA
        if (flt_have_hw_fma()) {
            flt_fma32_hw(ftz, sat, mask, d, x, y, z);
            break;
        }
#endif
        /* the double trick needs round-to-nearest host arithmetic */
        if (rn)
            F32_OP(ptx_alu_fma32_rn(X, Y, Z));
        else
            F32_OP(fmaf(X, Y, Z));
        break;
    case FK_DIV: F32_OP(X / Y); break;
    case FK_DIV_APPROX: F32_OP(flt_div_approx(X, Y)); break;
    case FK_RCP: F32_OP(1.0f / X); break;
    case FK_RCP_APPROX: F32_OP((float)(1.0 / (double)X)); break;
    case FK_SQRT: F32_OP(sqrtf(X)); break;
    case FK_SQRT_APPROX: F32_OP((float)sqrt((double)X)); break;
    case FK_RSQRT: F32_OP((float)(1.0 / sqrt((double)X))); break;
    case FK_SIN: F32_OP((float)sin((double)X)); break;
    case FK_COS: F32_OP((float)cos((double)X)); break;
    case FK_LG2: F32_OP((float)log2((double)X)); break;
    case FK_EX2: F32_OP((float)exp2((double)X)); break;
    case FK_TANH: F32_OP((float)tanh((double)X)); break;
    default: return -1;
    }
    return 0;
}

__attribute__((noinline)) static int flt_f64_run(int kind, bool ftz, uint32_t mask, uint64_t *d,
                                                 const uint64_t *x, const uint64_t *y,
                                                 const uint64_t *z)
{
    uint64_t bx[PTX_WARP_SIZE], by[PTX_WARP_SIZE], bz[PTX_WARP_SIZE];
    if (ftz) {
        x = flt_ftz_copy(true, mask, x, bx);
        y = flt_ftz_copy(true, mask, y, by);
        z = flt_ftz_copy(true, mask, z, bz);
    }
    switch (kind) {
    case FK_ADD: F64_OP(XD + YD); break;
    case FK_SUB: F64_OP(XD - YD); break;
    case FK_MUL: F64_OP(XD * YD); break;
    case FK_FMA:
#ifdef FLT_HW_FMA
        if (flt_have_hw_fma()) {
            flt_fma64_hw(ftz, mask, d, x, y, z);
            break;
        }
#endif
        F64_OP(fma(XD, YD, ZD));
        break;
    case FK_DIV: case FK_DIV_APPROX: F64_OP(XD / YD); break;
    case FK_RCP: case FK_RCP_APPROX: F64_OP(1.0 / XD); break;
    case FK_SQRT: case FK_SQRT_APPROX: F64_OP(sqrt(XD)); break;
    case FK_RSQRT: F64_OP(1.0 / sqrt(XD)); break;
    default: return -1;
    }
    return 0;
}

#undef X
#undef Y
#undef Z
#undef XD
#undef YD
#undef ZD

/* f32/f64 arithmetic through the tables above, under the requested rounding */
static int flt_arith(const struct ptx_insn *in, const struct ptx_alu_args *a, bool f64)
{
    int kind = flt_kind_of(in);
    if (kind < 0)
        return -1;
    if (f64 && kind >= FK_SIN)
        return -1;
    const uint64_t *x = a->s[0];
    const uint64_t *y = a->s[1] ? a->s[1] : flt_zeros;
    const uint64_t *z = a->s[2] ? a->s[2] : flt_zeros;
    bool ftz = (in->flags & PF_FTZ) != 0, sat = (in->flags & PF_SAT) != 0;
    int rc, old = -1;
    if (flt_directed(in->rnd)) {
        old = fegetround();
        fesetround(flt_fe_mode(in->rnd));
    }
    if (f64)
        rc = flt_f64_run(kind, ftz, a->mask, a->d, x, y, z);
    else
        rc = flt_f32_run(kind, ftz, sat, old == -1, a->mask, a->d, x, y, z);
    if (old != -1)
        fesetround(old);
    return rc;
}

/* ---- sign / compare-free ops, on bits ---------------------------------------------- */

/* abs/neg/min/max/copysign/testp for f32 (w = 32) and f64 (w = 64) */
static int flt_bitops(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned w)
{
    const uint64_t *x = a->s[0], *y = a->s[1];
    uint64_t *d = a->d;
    uint32_t mask = a->mask;
    bool ftz = (in->flags & PF_FTZ) != 0;
    uint64_t sign = (uint64_t)1 << (w - 1u);
    uint64_t nan = w == 32 ? PTX_ALU_NAN32 : PTX_ALU_NAN64;
    uint64_t einf = w == 32 ? 0x7F800000u : UINT64_C(0x7FF0000000000000);
    uint64_t mmask = w == 32 ? 0x007FFFFFu : UINT64_C(0x000FFFFFFFFFFFFF);
#define FTZB(v) (!ftz ? (v) : (w == 32 ? ptx_alu_ftz32((uint32_t)(v)) : ptx_alu_ftz64(v)))

    switch (in->op) {
    case PO_ABS:
        PTX_ALU_MAP(mask, d, FTZB(x[i]) & (sign - 1u));
        return 0;
    case PO_NEG:
        PTX_ALU_MAP(mask, d, FTZB(x[i]) ^ sign);
        return 0;
    case PO_COPYSIGN:
        /* copysign d, a, b: the sign of a on the magnitude of b */
        if (!y)
            return -1;
        PTX_ALU_MAP(mask, d, (y[i] & (sign - 1u)) | (x[i] & sign));
        return 0;
    case PO_MIN:
    case PO_MAX: {
        bool max = in->op == PO_MAX, nanprop = (in->flags & PF_NAN) != 0;
        if (!y)
            return -1;
        PTX_ALU_LANES(mask, {
            uint64_t xb = FTZB(x[i]), yb = FTZB(y[i]);
            bool xn = (xb & (sign - 1u)) > einf, yn = (yb & (sign - 1u)) > einf;
            double xv = w == 32 ? (double)ptx_alu_f32(xb) : ptx_alu_f64(xb);
            double yv = w == 32 ? (double)ptx_alu_f32(yb) : ptx_alu_f64(yb);
            uint64_t r;
            if (xn || yn)
                r = ((xn && yn) || nanprop) ? nan : (xn ? yb : xb);
            else if (xv == yv) /* +0 vs -0: min takes -0, max +0 */
                r = max ? (xb & yb) : (xb | yb);
            else
                r = (max ? xv > yv : xv < yv) ? xb : yb;
            d[i] = r;
        });
        return 0;
    }
    case PO_TESTP: {
        unsigned t = in->subop;
        PTX_ALU_LANES(mask, {
            uint64_t v = x[i] & (sign - 1u);
            uint64_t e = v & einf;
            bool r;
            switch (t) {
            case PTP_FINITE: r = e != einf; break;
            case PTP_INFINITE: r = v == einf; break;
            case PTP_NUMBER: r = v <= einf; break;
            case PTP_NOTANUMBER: r = v > einf; break;
            case PTP_NORMAL: r = e != 0 && e != einf; break;
            case PTP_SUBNORMAL: r = e == 0 && (v & mmask) != 0; break;
            default: r = false; break;
            }
            d[i] = r;
        });
        return t >= PTP_FINITE && t <= PTP_SUBNORMAL ? 0 : -1;
    }
    default:
        return -1;
    }
#undef FTZB
}

/* ---- f16 / f16x2 / bf16 ----------------------------------------------------------- */

struct flt_half_ctx {
    unsigned op, rnd;
    bool bf, ftz, sat, nanprop;
    struct ptx_alu_fmt f;
};

static inline double flt_hval(const struct flt_half_ctx *c, uint64_t h)
{
    if (c->ftz)
        h = ptx_alu_ftz_half(h, c->f);
    return (double)ptx_alu_h2f(h, c->bf);
}

/* exact sum folded to round-to-odd (TwoSum: s + e == x + y exactly) */
static inline double flt_sum_odd(double x, double y)
{
    double s = x + y;
    double bp = s - x;
    double e = (x - (s - bp)) + (y - bp);
    return ptx_alu_odd(s, e);
}

/* one 16-bit element */
static uint64_t flt_half_op(const struct flt_half_ctx *c, uint64_t xh, uint64_t yh, uint64_t zh)
{
    uint64_t r;
    xh &= 0xFFFFu;
    yh &= 0xFFFFu;
    zh &= 0xFFFFu;
    switch (c->op) {
    case PO_NEG:
        return (c->ftz ? ptx_alu_ftz_half(xh, c->f) : xh) ^ 0x8000u;
    case PO_ABS:
        return (c->ftz ? ptx_alu_ftz_half(xh, c->f) : xh) & 0x7FFFu;
    case PO_MIN:
    case PO_MAX: {
        double xv = flt_hval(c, xh), yv = flt_hval(c, yh);
        bool xn = xv != xv, yn = yv != yv;
        uint64_t xb = c->ftz ? ptx_alu_ftz_half(xh, c->f) : xh;
        uint64_t yb = c->ftz ? ptx_alu_ftz_half(yh, c->f) : yh;
        if (xn || yn)
            return ((xn && yn) || c->nanprop) ? PTX_ALU_NAN16 : (xn ? yb : xb);
        if (xv == yv)
            return c->op == PO_MAX ? (xb & yb) : (xb | yb);
        return ((c->op == PO_MAX) ? xv > yv : xv < yv) ? xb : yb;
    }
    case PO_ADD: r = ptx_alu_round_double(flt_sum_odd(flt_hval(c, xh), flt_hval(c, yh)), c->f, c->rnd); break;
    case PO_SUB: r = ptx_alu_round_double(flt_sum_odd(flt_hval(c, xh), -flt_hval(c, yh)), c->f, c->rnd); break;
    case PO_MUL: /* the product of two halves is exact in double */
        r = ptx_alu_round_double(flt_hval(c, xh) * flt_hval(c, yh), c->f, c->rnd);
        break;
    case PO_FMA: case PO_MAD:
        r = ptx_alu_round_double(flt_sum_odd(flt_hval(c, xh) * flt_hval(c, yh), flt_hval(c, zh)),
                                 c->f, c->rnd);
        break;
    case PO_EX2:
        r = ptx_alu_round_double(exp2(flt_hval(c, xh)), c->f, PR_RN);
        break;
    case PO_TANH:
        r = ptx_alu_round_double(tanh(flt_hval(c, xh)), c->f, PR_RN);
        break;
    default:
        return 0;
    }
    if (c->sat) {
        double v = (double)ptx_alu_h2f(r, c->bf);
        r = v > 0 ? (v < 1.0 ? r : (c->bf ? 0x3F80u : 0x3C00u)) : 0u; /* NaN -> +0 */
    }
    if (c->ftz)
        r = ptx_alu_ftz_half(r, c->f);
    return r;
}

static int flt_half(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    struct flt_half_ctx c = {
        .op = in->op, .rnd = in->rnd, .bf = in->type == PT_BF16,
        .ftz = (in->flags & PF_FTZ) != 0, .sat = (in->flags & PF_SAT) != 0,
        .nanprop = (in->flags & PF_NAN) != 0,
    };
    c.f = c.bf ? PTX_ALU_FMT_BF16 : PTX_ALU_FMT_F16;
    switch (in->op) {
    case PO_NEG: case PO_ABS: case PO_MIN: case PO_MAX: case PO_ADD: case PO_SUB:
    case PO_MUL: case PO_FMA: case PO_MAD: case PO_EX2: case PO_TANH:
        break;
    default:
        return -1;
    }
    const uint64_t *x = a->s[0];
    const uint64_t *y = a->s[1] ? a->s[1] : flt_zeros;
    const uint64_t *z = a->s[2] ? a->s[2] : flt_zeros;
    uint64_t *d = a->d;
    if (in->type == PT_F16X2) {
        PTX_ALU_LANES(a->mask, {
            uint64_t lo = flt_half_op(&c, x[i], y[i], z[i]);
            uint64_t hi = flt_half_op(&c, x[i] >> 16, y[i] >> 16, z[i] >> 16);
            d[i] = (hi << 16) | lo;
        });
    } else {
        PTX_ALU_MAP(a->mask, d, flt_half_op(&c, x[i], y[i], z[i]));
    }
    return 0;
}

/* ---- dispatch ----------------------------------------------------------------------- */

int ptx_alu_exec_float(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned t = in->type;
    if (t == PT_F16 || t == PT_F16X2 || t == PT_BF16)
        return flt_half(in, a);
    if (t != PT_F32 && t != PT_F64)
        return -1;
    switch (in->op) {
    case PO_ABS: case PO_NEG: case PO_COPYSIGN: case PO_MIN: case PO_MAX: case PO_TESTP:
        return flt_bitops(in, a, t == PT_F32 ? 32u : 64u);
    default:
        return flt_arith(in, a, t == PT_F64);
    }
}
