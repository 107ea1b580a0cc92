/* test_ptx_alu_float.c - float arithmetic, special functions, f16/bf16 and
   cvt semantics of the PTX ALU. */
#include "test_ptx_alu_util.h"
#include "fe/ptx/ptx_alu_internal.h"

#include <fenv.h>
#include <float.h>

#define NAN32 UINT64_C(0x7FFFFFFF)
#define NAN64 UINT64_C(0x7FFFFFFFFFFFFFFF)

static struct ptx_insn mkr(unsigned op, unsigned type, unsigned rnd, uint32_t flags)
{
    struct ptx_insn in = mk(op, type);
    in.rnd = (uint8_t)rnd;
    in.flags = flags;
    return in;
}

static struct ptx_insn mkcvt(unsigned dt, unsigned st, unsigned rnd, uint32_t flags)
{
    struct ptx_insn in = mkr(PO_CVT, dt, rnd, flags);
    in.stype = (uint8_t)st;
    return in;
}

/* ---- f32 / f64 arithmetic ------------------------------------------------------------- */

TEST(flt_basic_and_nan)
{
    struct ptx_insn in = mk(PO_ADD, PT_F32);
    CHECK_EQ_U64(EV2(in, fb(1.5f), fb(2.25f)), fb(3.75f));
    CHECK_EQ_U64(EV2(in, fb(INFINITY), fb(-INFINITY)), NAN32);
    CHECK_EQ_U64(EV2(in, 0xFFC00001, fb(1.0f)), NAN32); /* payload not propagated */
    in.op = PO_SUB;
    CHECK_EQ_U64(EV2(in, fb(1.0f), fb(1.0f)), fb(0.0f));
    in.op = PO_MUL;
    CHECK_EQ_U64(EV2(in, fb(0.0f), fb(INFINITY)), NAN32);
    CHECK_EQ_U64(EV2(in, fb(-2.0f), fb(3.0f)), fb(-6.0f));
    in = mk(PO_ADD, PT_F64);
    CHECK_EQ_U64(EV2(in, db(0.1), db(0.2)), db(0.1 + 0.2));
    CHECK_EQ_U64(EV2(in, db(INFINITY), db(-INFINITY)), NAN64);
    in = mkr(PO_FMA, PT_F64, PR_RN, 0);
    CHECK_EQ_U64(EV3(in, db(2.0), db(3.0), db(1.0)), db(7.0));
}

TEST(flt_rounding_modes)
{
    float one = 1.0f, tiny = 0x1p-30f;
    struct ptx_insn in = mkr(PO_ADD, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV2(in, fb(one), fb(tiny)), fb(1.0f));
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV2(in, fb(one), fb(tiny)), fb(1.0f));
    CHECK_EQ_U64(EV2(in, fb(-one), fb(-tiny)), fb(-1.0f));
    in.rnd = PR_RP;
    CHECK_EQ_U64(EV2(in, fb(one), fb(tiny)), fb(nextafterf(1.0f, 2.0f)));
    CHECK_EQ_U64(EV2(in, fb(-one), fb(-tiny)), fb(-1.0f));
    in.rnd = PR_RM;
    CHECK_EQ_U64(EV2(in, fb(one), fb(tiny)), fb(1.0f));
    CHECK_EQ_U64(EV2(in, fb(-one), fb(-tiny)), fb(-nextafterf(1.0f, 2.0f)));
    /* division and sqrt */
    struct ptx_insn dv = mkr(PO_DIV, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV2(dv, fb(1.0f), fb(3.0f)), 0x3EAAAAABu);
    dv.rnd = PR_RZ;
    CHECK_EQ_U64(EV2(dv, fb(1.0f), fb(3.0f)), 0x3EAAAAAAu);
    dv.rnd = PR_RM;
    CHECK_EQ_U64(EV2(dv, fb(1.0f), fb(3.0f)), 0x3EAAAAAAu);
    CHECK_EQ_U64(EV2(dv, fb(-1.0f), fb(3.0f)), 0xBEAAAAABu);
    dv.rnd = PR_RP;
    CHECK_EQ_U64(EV2(dv, fb(1.0f), fb(3.0f)), 0x3EAAAAABu);
    struct ptx_insn sq = mkr(PO_SQRT, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV1(sq, fb(2.0f)), 0x3FB504F3u);
    sq.rnd = PR_RP;
    CHECK_EQ_U64(EV1(sq, fb(2.0f)), 0x3FB504F4u);
    sq.rnd = PR_RZ;
    CHECK_EQ_U64(EV1(sq, fb(2.0f)), 0x3FB504F3u);
    /* f64 */
    struct ptx_insn d = mkr(PO_ADD, PT_F64, PR_RP, 0);
    CHECK_EQ_U64(EV2(d, db(1.0), db(0x1p-60)), db(nextafter(1.0, 2.0)));
    d.rnd = PR_RZ;
    CHECK_EQ_U64(EV2(d, db(1.0), db(0x1p-60)), db(1.0));
    d = mkr(PO_MUL, PT_F64, PR_RM, 0);
    CHECK_EQ_U64(EV2(d, db(-1.0 / 3.0), db(3.0)), db(-1.0)); /* RN(-1/3)*3 is exactly -1 */
    d = mkr(PO_RCP, PT_F64, PR_RZ, 0);
    CHECK_EQ_U64(EV1(d, db(3.0)), db(1.0 / 3.0)); /* 1/3 rounds down anyway */
    d.rnd = PR_RP;
    CHECK_EQ_U64(EV1(d, db(3.0)), db(nextafter(1.0 / 3.0, 1.0)));
    /* overflow under RZ stays finite */
    in.op = PO_MUL;
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV2(in, fb(FLT_MAX), fb(2.0f)), fb(FLT_MAX));
    in.rnd = PR_RN;
    CHECK_EQ_U64(EV2(in, fb(FLT_MAX), fb(2.0f)), fb(INFINITY));
    /* the host rounding mode is left as it was */
    CHECK_EQ_INT(fegetround(), FE_TONEAREST);
}

TEST(flt_fma_single_rounding)
{
    float a = 1.0f + 0x1p-23f, c = -(1.0f + 0x1p-22f);
    struct ptx_insn in = mkr(PO_FMA, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV3(in, fb(a), fb(a), fb(c)), fb(0x1p-46f)); /* mul+add would give 0 */
    in.op = PO_MAD;
    CHECK_EQ_U64(EV3(in, fb(a), fb(a), fb(c)), fb(0x1p-46f));
    in.rnd = PR_NONE; /* mad.f32 without rounding is fused too */
    CHECK_EQ_U64(EV3(in, fb(a), fb(a), fb(c)), fb(0x1p-46f));
    in = mkr(PO_FMA, PT_F32, PR_RZ, 0);
    CHECK_EQ_U64(EV3(in, fb(1.0f), fb(1.0f), fb(0x1p-30f)), fb(1.0f));
    in.rnd = PR_RP;
    CHECK_EQ_U64(EV3(in, fb(1.0f), fb(1.0f), fb(0x1p-30f)), fb(nextafterf(1.0f, 2.0f)));
    double ad = 1.0 + 0x1p-52, cd = -(1.0 + 0x1p-51);
    in = mkr(PO_FMA, PT_F64, PR_RN, 0);
    CHECK_EQ_U64(EV3(in, db(ad), db(ad), db(cd)), db(0x1p-104));
}

/* fma.rn.f32 (computed without a host fma) against the C library's fmaf on
   random operands, cancellations, ties and subnormal/overflowing results */
TEST(flt_fma_random_vs_fmaf)
{
    uint64_t st = 2024, a[W], b[W], c[W];
    struct ptx_insn in = mkr(PO_FMA, PT_F32, PR_RN, 0);
    const uint64_t *s[4] = {a, b, c, NULL};
    for (int it = 0; it < 4000; it++) {
        for (int i = 0; i < W; i++) {
            uint64_t r = rnd64(&st);
            uint32_t ea = 64u + (uint32_t)(r % 128u), eb = 64u + (uint32_t)((r >> 8) % 128u);
            if (it % 7 == 0) { ea = 1u + (uint32_t)(r % 60u); eb = 1u + (uint32_t)((r >> 8) % 70u); }
            if (it % 11 == 0) { ea = 190u + (uint32_t)(r % 60u); eb = 127u; }
            a[i] = ((r >> 16) & 0x807FFFFFu) | (ea << 23);
            b[i] = ((r >> 40) & 0x7FFFFFu) | ((r >> 32) & 0x80000000u) | (eb << 23);
            float p = bf(a[i]) * bf(b[i]);
            switch (it % 4) {
            case 0: c[i] = fb(-p); break;                                       /* cancellation */
            case 1: c[i] = fb(-p) ^ (rnd64(&st) & 0xFFu); break;                /* near-cancellation */
            case 2: {
                /* a*b = half an ulp of c minus 2^-46 of that: a double sum
                   rounds to the midpoint, then ties-to-even would go up */
                uint32_t ec = 40u + (uint32_t)(r % 170u), sa = (uint32_t)((r >> 20) % 21u);
                uint32_t sg = (uint32_t)(r >> 63) << 31;
                c[i] = sg | (ec << 23) | ((uint32_t)(r >> 24) & 0x7FFFFFu) | 1u;
                a[i] = ((117u + sa) << 23) | 1u;                           /* (1 + 2^-23) 2^(sa-10) */
                b[i] = sg | ((ec - 25u - (sa - 10u)) << 23) | 0x7FFFFEu;    /* (1 - 2^-23) ... */
                if (it & 8)
                    c[i] &= ~1u; /* even: must stay */
                if (it & 16)
                    b[i] ^= 0x80000000u; /* just above the midpoint below c */
                break;
            }
            default: c[i] = (uint32_t)rnd64(&st); break;                        /* anything, incl. NaN */
            }
            if (i == 0 && it == 0) { a[i] = fb(INFINITY); b[i] = fb(0.0f); }
            if (i == 1 && it == 0) { a[i] = fb(INFINITY); c[i] = fb(-INFINITY); b[i] = fb(1.0f); }
            if (i == 2 && it == 0) { a[i] = fb(FLT_MAX); b[i] = fb(2.0f); c[i] = fb(-FLT_MAX); }
        }
        struct alu_run r = alu_run_lanes(&in, 0xFFFFFFFFu, s, NULL);
        for (int i = 0; i < W; i++) {
            float want = fmaf(bf(a[i]), bf(b[i]), bf(c[i]));
            uint64_t wb = isnan(want) ? NAN32 : fb(want);
            /* the portable path too (the executor may use a host FMA) */
            float soft = ptx_alu_fma32_rn(bf(a[i]), bf(b[i]), bf(c[i]));
            if ((isnan(want) ? !isnan(soft) : fb(soft) != wb))
                T_FAIL_("soft fma(%a, %a, %a) = %a, want %a", (double)bf(a[i]), (double)bf(b[i]),
                        (double)bf(c[i]), (double)soft, (double)want);
            if (r.d[i] != wb) {
                T_FAIL_("fma(%a, %a, %a) = 0x%08" PRIx64 ", want 0x%08" PRIx64, (double)bf(a[i]),
                        (double)bf(b[i]), (double)bf(c[i]), r.d[i], wb);
                return;
            }
        }
    }
}

TEST(flt_ftz_sat)
{
    uint64_t den = 0x00000001; /* smallest f32 denormal */
    struct ptx_insn in = mk(PO_ADD, PT_F32);
    CHECK_EQ_U64(EV2(in, den, fb(0.0f)), den);
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV2(in, den, fb(0.0f)), 0);
    CHECK_EQ_U64(EV2(in, den | 0x80000000u, fb(-0.0f)), 0x80000000u); /* signed zero */
    CHECK_EQ_U64(EV2(in, 0x00800000u, 0x80000001u), 0x00800000u);   /* denormal input ignored */
    in.op = PO_MUL;
    in.flags = 0;
    uint64_t r = EV2(in, fb(1e-20f), fb(1e-20f));
    CHECK(r != 0 && r < 0x00800000u); /* a denormal result */
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV2(in, fb(1e-20f), fb(1e-20f)), 0);
    CHECK_EQ_U64(EV2(in, fb(-1e-20f), fb(1e-20f)), 0x80000000u);
    in = mkr(PO_ADD, PT_F32, PR_RN, PF_SAT);
    CHECK_EQ_U64(EV2(in, fb(0.5f), fb(0.7f)), fb(1.0f));
    CHECK_EQ_U64(EV2(in, fb(-3.0f), fb(1.0f)), fb(0.0f));
    CHECK_EQ_U64(EV2(in, fb(-0.0f), fb(-0.0f)), fb(0.0f));
    CHECK_EQ_U64(EV2(in, fb(INFINITY), fb(-INFINITY)), fb(0.0f)); /* NaN -> +0 */
    CHECK_EQ_U64(EV2(in, fb(0.25f), fb(0.25f)), fb(0.5f));
    in = mkr(PO_FMA, PT_F32, PR_RN, PF_SAT | PF_FTZ);
    CHECK_EQ_U64(EV3(in, fb(2.0f), fb(2.0f), fb(-3.5f)), fb(0.5f));
    CHECK_EQ_U64(EV3(in, fb(2.0f), fb(2.0f), fb(1.0f)), fb(1.0f));
}

TEST(flt_min_max)
{
    struct ptx_insn in = mk(PO_MIN, PT_F32);
    CHECK_EQ_U64(EV2(in, 0x7FC00000, fb(1.0f)), fb(1.0f));
    CHECK_EQ_U64(EV2(in, fb(1.0f), 0xFFC00000), fb(1.0f));
    CHECK_EQ_U64(EV2(in, 0x7FC00000, 0xFF800001), NAN32);
    CHECK_EQ_U64(EV2(in, fb(-0.0f), fb(0.0f)), fb(-0.0f));
    CHECK_EQ_U64(EV2(in, fb(0.0f), fb(-0.0f)), fb(-0.0f));
    CHECK_EQ_U64(EV2(in, fb(-INFINITY), fb(3.0f)), fb(-INFINITY));
    in.flags = PF_NAN;
    CHECK_EQ_U64(EV2(in, 0x7FC00000, fb(1.0f)), NAN32);
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV2(in, 0x80000001u, fb(0.0f)), fb(-0.0f));
    in = mk(PO_MAX, PT_F32);
    CHECK_EQ_U64(EV2(in, fb(-0.0f), fb(0.0f)), fb(0.0f));
    CHECK_EQ_U64(EV2(in, fb(-1.0f), fb(-2.0f)), fb(-1.0f));
    CHECK_EQ_U64(EV2(in, 0x7FC00000, fb(-1.0f)), fb(-1.0f));
    in = mk(PO_MAX, PT_F64);
    CHECK_EQ_U64(EV2(in, db(NAN), db(-1.0)), db(-1.0));
    CHECK_EQ_U64(EV2(in, db(NAN), db(NAN)), NAN64);
    CHECK_EQ_U64(EV2(in, db(2.0), db(3.0)), db(3.0));
    in.op = PO_MIN;
    CHECK_EQ_U64(EV2(in, db(0.0), db(-0.0)), db(-0.0));
}

TEST(flt_div_approx_full)
{
    struct ptx_insn in = mkr(PO_DIV, PT_F32, PR_NONE, PF_FULL);
    CHECK_EQ_U64(EV2(in, fb(6.0f), fb(3.0f)), fb(2.0f));
    in.flags = PF_APPROX;
    CHECK_NEAR(bf(EV2(in, fb(1.0f), fb(3.0f))), 1.0 / 3.0, 1e-7);
    CHECK_EQ_U64(EV2(in, fb(1.0f), fb(0x1p127f)), 0);              /* huge divisor */
    CHECK_EQ_U64(EV2(in, fb(INFINITY), fb(0x1p127f)), NAN32);
    CHECK_EQ_U64(EV2(in, fb(1.0f), fb(0.0f)), fb(INFINITY));
    in.flags = PF_APPROX | PF_FTZ;
    CHECK_EQ_U64(EV2(in, fb(1e-30f), fb(1e10f)), 0);                 /* denormal result flushed */
    in = mkr(PO_DIV, PT_F64, PR_RN, 0);
    CHECK_EQ_U64(EV2(in, db(1.0), db(3.0)), db(1.0 / 3.0));
    CHECK_EQ_U64(EV2(in, db(0.0), db(0.0)), NAN64);
}

TEST(flt_special_functions)
{
    struct ptx_insn in = mkr(PO_LG2, PT_F32, PR_NONE, PF_APPROX);
    CHECK_EQ_U64(EV1(in, fb(8.0f)), fb(3.0f));
    CHECK_EQ_U64(EV1(in, fb(0.0f)), fb(-INFINITY));
    CHECK_EQ_U64(EV1(in, fb(-1.0f)), NAN32);
    CHECK_EQ_U64(EV1(in, fb(INFINITY)), fb(INFINITY));
    in.op = PO_EX2;
    CHECK_EQ_U64(EV1(in, fb(3.0f)), fb(8.0f));
    CHECK_EQ_U64(EV1(in, fb(-INFINITY)), fb(0.0f));
    CHECK_EQ_U64(EV1(in, fb(-0.5f)), fb((float)exp2(-0.5)));
    in.flags = PF_APPROX | PF_FTZ;
    CHECK_EQ_U64(EV1(in, fb(-130.0f)), 0); /* denormal result flushed */
    in.op = PO_SIN;
    in.flags = PF_APPROX;
    CHECK_EQ_U64(EV1(in, fb(0.0f)), fb(0.0f));
    CHECK_NEAR(bf(EV1(in, fb(1.0f))), sin(1.0), 1e-7);
    CHECK_EQ_U64(EV1(in, fb(INFINITY)), NAN32);
    in.op = PO_COS;
    CHECK_EQ_U64(EV1(in, fb(0.0f)), fb(1.0f));
    in.op = PO_TANH;
    CHECK_EQ_U64(EV1(in, fb(INFINITY)), fb(1.0f));
    CHECK_EQ_U64(EV1(in, fb(-0.0f)), fb(-0.0f));
    in.op = PO_RSQRT;
    CHECK_EQ_U64(EV1(in, fb(4.0f)), fb(0.5f));
    CHECK_EQ_U64(EV1(in, fb(0.0f)), fb(INFINITY));
    CHECK_EQ_U64(EV1(in, fb(-0.0f)), fb(-INFINITY));
    CHECK_EQ_U64(EV1(in, fb(-4.0f)), NAN32);
    in.op = PO_SQRT;
    CHECK_EQ_U64(EV1(in, fb(9.0f)), fb(3.0f));
    in.op = PO_RCP;
    CHECK_EQ_U64(EV1(in, fb(4.0f)), fb(0.25f));
    CHECK_EQ_U64(EV1(in, fb(-0.0f)), fb(-INFINITY));
    in = mkr(PO_RCP, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, fb(3.0f)), fb(1.0f / 3.0f));
    in = mkr(PO_RCP, PT_F64, PR_NONE, PF_APPROX | PF_FTZ);
    CHECK_EQ_U64(EV1(in, db(4.0)), db(0.25));
    in = mkr(PO_RSQRT, PT_F64, PR_NONE, PF_APPROX);
    CHECK_EQ_U64(EV1(in, db(16.0)), db(0.25));
    in = mkr(PO_SQRT, PT_F64, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, db(2.0)), db(sqrt(2.0)));
    CHECK_EQ_U64(EV1(in, db(-2.0)), NAN64);
}

TEST(flt_sign_ops_testp)
{
    struct ptx_insn in = mk(PO_COPYSIGN, PT_F32);
    /* copysign d, a, b: magnitude of b, sign of a */
    CHECK_EQ_U64(EV2(in, fb(-1.0f), fb(2.0f)), fb(-2.0f));
    CHECK_EQ_U64(EV2(in, fb(1.0f), fb(-2.0f)), fb(2.0f));
    in.type = PT_F64;
    CHECK_EQ_U64(EV2(in, db(-0.0), db(5.0)), db(-5.0));
    in = mk(PO_NEG, PT_F32);
    CHECK_EQ_U64(EV1(in, fb(0.0f)), fb(-0.0f));
    CHECK_EQ_U64(EV1(in, 0x7FC00001), 0xFFC00001u); /* sign flip only */
    in.op = PO_ABS;
    CHECK_EQ_U64(EV1(in, 0xFFC00001), 0x7FC00001u);
    CHECK_EQ_U64(EV1(in, 0x80000001), 0x00000001u);
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV1(in, 0x80000001), 0);
    in = mk(PO_NEG, PT_F64);
    CHECK_EQ_U64(EV1(in, db(1.5)), db(-1.5));

    const float fv[] = {1.0f, 0.0f, 1e-45f, INFINITY, -INFINITY, NAN};
    /* finite infinite number notanumber normal subnormal */
    const int want[6][6] = {
        {1, 0, 1, 0, 1, 0}, {1, 0, 1, 0, 0, 0}, {1, 0, 1, 0, 0, 1},
        {0, 1, 1, 0, 0, 0}, {0, 1, 1, 0, 0, 0}, {0, 0, 0, 1, 0, 0},
    };
    for (int t = 0; t < 2; t++)
        for (int v = 0; v < 6; v++)
            for (int op = 0; op < 6; op++) {
                struct ptx_insn tp = mk(PO_TESTP, t ? PT_F64 : PT_F32);
                tp.subop = (uint8_t)(PTP_FINITE + op);
                uint64_t x = t ? db(v == 2 ? 5e-324 : (double)fv[v]) : fb(fv[v]);
                if ((int)EV1(tp, x) != want[v][op])
                    T_FAIL_("testp t%d value %d op %d", t, v, op);
            }
}

/* ---- f16 / bf16 arithmetic --------------------------------------------------------------- */

#ifdef __FLT16_MAX__
static uint64_t h16(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 f16v(uint64_t v) { uint16_t u = (uint16_t)v; _Float16 h; memcpy(&h, &u, 2); return h; }
#endif

/* exact a*b + c for f16 operands, rounded to nearest even f16 by search
   (independent of the ALU's rounding code) */
static uint64_t ref_fma_f16(uint64_t a, uint64_t b, uint64_t c)
{
    /* every f16 is an integer multiple of 2^-24 */
    __int128 ia, ib, ic;
    __int128 *dst[3] = {&ia, &ib, &ic};
    uint64_t src[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        uint64_t h = src[k];
        int e = (int)((h >> 10) & 0x1F);
        __int128 m = (__int128)(h & 0x3FF);
        if (e)
            m = (m | 0x400) << (e - 1);
        *dst[k] = (h & 0x8000) ? -m : m;
    }
    __int128 exact = ia * ib + ic * ((__int128)1 << 24); /* units of 2^-48 */
    bool neg = exact < 0;
    __int128 mag = neg ? -exact : exact;
    if (mag == 0)
        return 0; /* the caller ignores the sign of zero */
    /* value of positive f16 pattern h in units of 2^-48 */
#define HV(h) ((((h) >> 10) ? (__int128)(((h) & 0x3FF) | 0x400) << ((((h) >> 10)) - 1) : (__int128)(h)) << 24)
    uint64_t lo = 0, hi = 0x7BFF;
    if (mag >= HV(0x7BFF) + (HV(0x7BFF) - HV(0x7BFE)) / 2)
        return (neg ? 0x8000u : 0) | 0x7C00u; /* rounds to infinity (tie at 65520 too) */
    while (lo < hi) { /* largest h with HV(h) <= mag */
        uint64_t mid = (lo + hi + 1) / 2;
        if (HV(mid) <= mag)
            lo = mid;
        else
            hi = mid - 1;
    }
    uint64_t r = lo;
    if (HV(lo) != mag) {
        __int128 dlo = mag - HV(lo), dhi = HV(lo + 1) - mag;
        if (dhi < dlo || (dhi == dlo && (lo & 1)))
            r = lo + 1;
    }
#undef HV
    return (neg ? 0x8000u : 0) | r;
}

TEST(flt_half_arith)
{
    uint64_t st = 99;
    struct ptx_insn fma = mkr(PO_FMA, PT_F16, PR_RN, 0);
    for (int k = 0; k < 3000; k++) {
        uint64_t a = rnd64(&st) & 0xFFFF, b = rnd64(&st) & 0xFFFF, c = rnd64(&st) & 0xFFFF;
        /* keep finite operands; make many products land near c */
        if (((a >> 10) & 0x1F) == 0x1F || ((b >> 10) & 0x1F) == 0x1F || ((c >> 10) & 0x1F) == 0x1F)
            continue;
        if (k & 1) {
            a = (a & 0x83FF) | 0x3800;
            b = (b & 0x83FF) | 0x3C00;
        }
        uint64_t got = EV3(fma, a, b, c), want = ref_fma_f16(a, b, c);
        if (got != want && !((got & 0x7FFF) == 0 && (want & 0x7FFF) == 0))
            T_FAIL_("fma.f16 %04" PRIx64 " %04" PRIx64 " %04" PRIx64 ": %04" PRIx64 " vs %04" PRIx64, a, b, c, got, want);
#ifdef __FLT16_MAX__
        _Float16 fa = f16v(a), fbv = f16v(b);
        struct ptx_insn add = mkr(PO_ADD, PT_F16, PR_RN, 0), mul = mkr(PO_MUL, PT_F16, PR_RN, 0);
        struct ptx_insn sub = mkr(PO_SUB, PT_F16, PR_RN, 0);
        /* float has enough bits (24 >= 2*11+2) that float-then-half is exact */
        CHECK_EQ_U64(EV2(add, a, b), h16((_Float16)((float)fa + (float)fbv)));
        CHECK_EQ_U64(EV2(sub, a, b), h16((_Float16)((float)fa - (float)fbv)));
        CHECK_EQ_U64(EV2(mul, a, b), h16((_Float16)((float)fa * (float)fbv)));
#endif
    }
    /* specials */
    struct ptx_insn in = mkr(PO_ADD, PT_F16, PR_RN, 0);
    CHECK_EQ_U64(EV2(in, 0x7C00, 0xFC00), 0x7FFF);                /* inf - inf */
    CHECK_EQ_U64(EV2(in, 0x7BFF, 0x7BFF), 0x7C00);                /* overflow */
    CHECK_EQ_U64(EV2(in, 0x0001, 0x0001), 0x0002);                /* denormals */
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV2(in, 0x0001, 0x0001), 0);
    in.flags = PF_SAT;
    CHECK_EQ_U64(EV2(in, 0x3C00, 0x3C00), 0x3C00);                /* 2 -> 1 */
    CHECK_EQ_U64(EV2(in, 0xBC00, 0x3800), 0);                     /* -0.5 -> 0 */
    /* f16x2: each half independently */
    in = mkr(PO_ADD, PT_F16X2, PR_RN, 0);
    CHECK_EQ_U64(EV2(in, 0x3C004000, 0x3C00BC00), 0x40003C00u);   /* {1+1, 2-1} */
    in = mkr(PO_FMA, PT_F16X2, PR_RN, 0);
    CHECK_EQ_U64(EV3(in, 0x40004000, 0x40004200, 0x3C00BC00) >> 16, 0x4500); /* 2*2+1 = 5 */
    CHECK_EQ_U64(EV3(in, 0x40004000, 0x40004200, 0x3C00BC00) & 0xFFFF, 0x4500); /* 2*3-1 = 5 */
    in = mk(PO_NEG, PT_F16X2);
    CHECK_EQ_U64(EV1(in, 0x3C00BC00), 0xBC003C00u);
    in = mk(PO_ABS, PT_F16);
    CHECK_EQ_U64(EV1(in, 0xBC00), 0x3C00);
    in = mk(PO_MIN, PT_F16);
    CHECK_EQ_U64(EV2(in, 0x7E00, 0x3C00), 0x3C00);
    CHECK_EQ_U64(EV2(in, 0x7E00, 0x7E00), 0x7FFF);
    CHECK_EQ_U64(EV2(in, 0xBC00, 0x3C00), 0xBC00);
    in = mk(PO_MAX, PT_F16X2);
    CHECK_EQ_U64(EV2(in, 0xBC003C00, 0x3C00BC00), 0x3C003C00u);
    in = mkr(PO_EX2, PT_F16, PR_NONE, PF_APPROX);
    CHECK_EQ_U64(EV1(in, 0x4000), 0x4400);                        /* 2^2 = 4 */
    /* bf16 add vs float-then-round-nearest-even */
    in = mkr(PO_ADD, PT_BF16, PR_RN, 0);
    for (int k = 0; k < 2000; k++) {
        uint64_t a = rnd64(&st) & 0xFFFF, b = rnd64(&st) & 0xFFFF;
        if (((a >> 7) & 0xFF) == 0xFF || ((b >> 7) & 0xFF) == 0xFF)
            continue;
        float s = bf(a << 16) + bf(b << 16);
        uint32_t u = (uint32_t)fb(s);
        uint64_t want = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
        if (isnan(s))
            want = 0x7FFF;
        CHECK_EQ_U64(EV2(in, a, b), want);
    }
    in = mkr(PO_MUL, PT_BF16, PR_RN, 0);
    CHECK_EQ_U64(EV2(in, 0x4040, 0x4040), 0x4110); /* 3 * 3 = 9 */
}

/* ---- cvt ---------------------------------------------------------------------------------- */

TEST(cvt_int_int)
{
    struct ptx_insn in = mkcvt(PT_U32, PT_U64, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0x123456789ull), 0x23456789u);
    in = mkcvt(PT_S64, PT_S32, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFF), UINT64_MAX);
    CHECK_EQ_U64(EV1(in, 0x7FFFFFFF), 0x7FFFFFFFu);
    in = mkcvt(PT_U64, PT_U32, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFF), 0xFFFFFFFFu);
    in = mkcvt(PT_U64, PT_S32, PR_NONE, 0); /* sign-extends (source signed) */
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFF), UINT64_MAX);
    in = mkcvt(PT_S32, PT_S8, PR_NONE, 0);  /* wide register, 8-bit source */
    CHECK_EQ_U64(EV1(in, 0x12345680), 0xFFFFFF80u);
    in = mkcvt(PT_U32, PT_U8, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0x12345680), 0x80);
    in = mkcvt(PT_S16, PT_S32, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0xFFFF8001), 0x8001);
    in = mkcvt(PT_U8, PT_S32, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, (uint32_t)-5), 0);
    CHECK_EQ_U64(EV1(in, 300), 255);
    CHECK_EQ_U64(EV1(in, 77), 77);
    in = mkcvt(PT_S8, PT_S32, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, (uint32_t)-300), 0x80);
    CHECK_EQ_U64(EV1(in, 300), 0x7F);
    in = mkcvt(PT_S32, PT_U64, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, UINT64_MAX), 0x7FFFFFFFu);
    in = mkcvt(PT_U32, PT_S64, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, (uint64_t)-1), 0);
    CHECK_EQ_U64(EV1(in, 0x100000000ull), 0xFFFFFFFFu);
    in = mkcvt(PT_U64, PT_S64, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, (uint64_t)INT64_MIN), 0);
    in = mkcvt(PT_S64, PT_U64, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, UINT64_MAX), (uint64_t)INT64_MAX);
    in = mkcvt(PT_U16, PT_U32, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, 0x10000), 0xFFFF);
}

TEST(cvt_float_to_int)
{
    struct { float x; int32_t rni, rzi, rmi, rpi; } t[] = {
        {2.5f, 2, 2, 2, 3}, {3.5f, 4, 3, 3, 4}, {-2.5f, -2, -2, -3, -2}, {-0.5f, 0, 0, -1, 0},
        {0.5f, 0, 0, 0, 1}, {-0.7f, -1, 0, -1, 0}, {1.5f, 2, 1, 1, 2}, {-1.5f, -2, -1, -2, -1},
        {1e-45f, 0, 0, 0, 1}, {-2.7f, -3, -2, -3, -2},
    };
    unsigned modes[] = {PR_RNI, PR_RZI, PR_RMI, PR_RPI};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        int32_t w[4] = {t[k].rni, t[k].rzi, t[k].rmi, t[k].rpi};
        for (int m = 0; m < 4; m++) {
            struct ptx_insn in = mkcvt(PT_S32, PT_F32, modes[m], 0);
            uint64_t got = EV1(in, fb(t[k].x));
            if (got != (uint32_t)w[m])
                T_FAIL_("cvt mode %d of %g: 0x%" PRIx64, m, (double)t[k].x, got);
            in = mkcvt(PT_S64, PT_F64, modes[m], 0);
            got = EV1(in, db((double)t[k].x));
            if (got != (uint64_t)(int64_t)w[m])
                T_FAIL_("cvt.s64.f64 mode %d of %g: 0x%" PRIx64, m, (double)t[k].x, got);
        }
    }
    /* saturation, NaN, negative to unsigned */
    struct ptx_insn in = mkcvt(PT_S32, PT_F32, PR_RZI, 0);
    CHECK_EQ_U64(EV1(in, fb(3e9f)), 0x7FFFFFFFu);
    CHECK_EQ_U64(EV1(in, fb(-3e9f)), 0x80000000u);
    CHECK_EQ_U64(EV1(in, fb(INFINITY)), 0x7FFFFFFFu);
    CHECK_EQ_U64(EV1(in, fb(-INFINITY)), 0x80000000u);
    CHECK_EQ_U64(EV1(in, fb(NAN)), 0);
    CHECK_EQ_U64(EV1(in, fb(2147483520.0f)), 2147483520u);
    CHECK_EQ_U64(EV1(in, fb(-2147483648.0f)), 0x80000000u);
    in.flags = PF_FTZ;
    in.rnd = PR_RPI;
    CHECK_EQ_U64(EV1(in, 1), 0); /* denormal flushed before rounding up */
    in = mkcvt(PT_U32, PT_F32, PR_RZI, 0);
    CHECK_EQ_U64(EV1(in, fb(-5.0f)), 0);
    CHECK_EQ_U64(EV1(in, fb(-0.9f)), 0);
    CHECK_EQ_U64(EV1(in, fb(5e9f)), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV1(in, fb(4294967040.0f)), 4294967040u);
    CHECK_EQ_U64(EV1(in, fb(NAN)), 0);
    in = mkcvt(PT_U64, PT_F64, PR_RNI, 0);
    CHECK_EQ_U64(EV1(in, db(1e30)), UINT64_MAX);
    CHECK_EQ_U64(EV1(in, db(18446744073709549568.0)), 18446744073709549568ull);
    in = mkcvt(PT_S64, PT_F64, PR_RZI, 0);
    CHECK_EQ_U64(EV1(in, db(9.3e18)), (uint64_t)INT64_MAX);
    CHECK_EQ_U64(EV1(in, db(-9.3e18)), (uint64_t)INT64_MIN);
    CHECK_EQ_U64(EV1(in, db(-9223372036854775808.0)), (uint64_t)INT64_MIN);
    in = mkcvt(PT_U8, PT_F32, PR_RNI, 0);
    CHECK_EQ_U64(EV1(in, fb(300.0f)), 255);
    CHECK_EQ_U64(EV1(in, fb(-3.0f)), 0);
    in = mkcvt(PT_S16, PT_F32, PR_RNI, 0);
    CHECK_EQ_U64(EV1(in, fb(-40000.0f)), 0x8000);
    CHECK_EQ_U64(EV1(in, fb(-2.0f)), 0xFFFE);
    in = mkcvt(PT_S32, PT_F16, PR_RZI, 0);
    CHECK_EQ_U64(EV1(in, 0xC500), (uint32_t)-5);        /* -5.0 */
    CHECK_EQ_U64(EV1(in, 0x7C00), 0x7FFFFFFFu);          /* inf */
    in = mkcvt(PT_S32, PT_BF16, PR_RNI, 0);
    CHECK_EQ_U64(EV1(in, 0x4020), 2);                    /* 2.5 -> 2 */
}

TEST(cvt_int_to_float)
{
    struct ptx_insn in = mkcvt(PT_F32, PT_S32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 16777217), fb(16777216.0f));
    CHECK_EQ_U64(EV1(in, 16777219), fb(16777220.0f)); /* tie to even */
    CHECK_EQ_U64(EV1(in, (uint32_t)-16777217), fb(-16777216.0f));
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV1(in, 16777217), fb(16777216.0f));
    CHECK_EQ_U64(EV1(in, (uint32_t)-16777217), fb(-16777216.0f));
    in.rnd = PR_RP;
    CHECK_EQ_U64(EV1(in, 16777217), fb(16777218.0f));
    CHECK_EQ_U64(EV1(in, (uint32_t)-16777217), fb(-16777216.0f));
    in.rnd = PR_RM;
    CHECK_EQ_U64(EV1(in, 16777217), fb(16777216.0f));
    CHECK_EQ_U64(EV1(in, (uint32_t)-16777217), fb(-16777218.0f));
    CHECK_EQ_U64(EV1(in, 0x80000000), fb(-2147483648.0f));
    in = mkcvt(PT_F32, PT_U64, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, UINT64_MAX), fb(0x1p64f));
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV1(in, UINT64_MAX), 0x5F7FFFFFu);
    in = mkcvt(PT_F32, PT_U32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFF), fb(4294967296.0f));
    in = mkcvt(PT_F64, PT_S64, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, (uint64_t)INT64_MIN), db(-0x1p63));
    in = mkcvt(PT_F64, PT_U64, PR_RZ, 0);
    CHECK_EQ_U64(EV1(in, UINT64_MAX), UINT64_C(0x43EFFFFFFFFFFFFF));
    in.rnd = PR_RN;
    CHECK_EQ_U64(EV1(in, UINT64_MAX), db(0x1p64));
    in = mkcvt(PT_F64, PT_S32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFF), db(-1.0));
    in = mkcvt(PT_F64, PT_U16, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 0xFFFF), db(65535.0));
    in = mkcvt(PT_F32, PT_S8, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 0x80), fb(-128.0f));
    /* to f16 / bf16 */
    in = mkcvt(PT_F16, PT_S32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 2049), 0x6800);
    CHECK_EQ_U64(EV1(in, 2051), 0x6802);
    CHECK_EQ_U64(EV1(in, 65519), 0x7BFF);
    CHECK_EQ_U64(EV1(in, 65520), 0x7C00);
    CHECK_EQ_U64(EV1(in, (uint32_t)-65520), 0xFC00);
    CHECK_EQ_U64(EV1(in, 0), 0);
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV1(in, 1000000), 0x7BFF);
    in.rnd = PR_RM;
    CHECK_EQ_U64(EV1(in, (uint32_t)-1000000), 0xFC00);
    in.rnd = PR_RP;
    CHECK_EQ_U64(EV1(in, (uint32_t)-1000000), 0xFBFF);
    CHECK_EQ_U64(EV1(in, 2049), 0x6801);
    in = mkcvt(PT_BF16, PT_S32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 257), 0x4380);
    CHECK_EQ_U64(EV1(in, 259), 0x4382);
    in = mkcvt(PT_F32, PT_S32, PR_RN, PF_SAT);
    CHECK_EQ_U64(EV1(in, 5), fb(1.0f));
    CHECK_EQ_U64(EV1(in, (uint32_t)-5), fb(0.0f));
}

TEST(cvt_float_float)
{
    double third = 1.0 / 3.0;
    struct ptx_insn in = mkcvt(PT_F32, PT_F64, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, db(third)), 0x3EAAAAABu);
    CHECK_EQ_U64(EV1(in, db(1e300)), fb(INFINITY));
    CHECK_EQ_U64(EV1(in, db(1e-46)), 0);
    CHECK_EQ_U64(EV1(in, db(NAN)), NAN32);
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV1(in, db(third)), 0x3EAAAAAAu);
    CHECK_EQ_U64(EV1(in, db(-third)), 0xBEAAAAAAu);
    CHECK_EQ_U64(EV1(in, db(1e300)), 0x7F7FFFFFu);
    in.rnd = PR_RM;
    CHECK_EQ_U64(EV1(in, db(-third)), 0xBEAAAAABu);
    CHECK_EQ_U64(EV1(in, db(-1e300)), fb(-INFINITY));
    in.rnd = PR_RP;
    CHECK_EQ_U64(EV1(in, db(third)), 0x3EAAAAABu);
    CHECK_EQ_U64(EV1(in, db(1e-46)), 1);
    CHECK_EQ_U64(EV1(in, db(-1e300)), 0xFF7FFFFFu);
    in = mkcvt(PT_F32, PT_F64, PR_RN, PF_FTZ);
    CHECK_EQ_U64(EV1(in, db(1e-40)), 0);
    CHECK_EQ_U64(EV1(in, db(-1e-40)), 0x80000000u);
    in = mkcvt(PT_F64, PT_F32, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, fb(0.1f)), db((double)0.1f));
    CHECK_EQ_U64(EV1(in, 0x7FC00001), NAN64);
    CHECK_EQ_U64(EV1(in, 1), db(0x1p-149));
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV1(in, 0x80000001), db(-0.0));
    /* round to integral in the same type */
    in = mkcvt(PT_F32, PT_F32, PR_RNI, 0);
    CHECK_EQ_U64(EV1(in, fb(2.5f)), fb(2.0f));
    CHECK_EQ_U64(EV1(in, fb(3.5f)), fb(4.0f));
    CHECK_EQ_U64(EV1(in, fb(-2.5f)), fb(-2.0f));
    CHECK_EQ_U64(EV1(in, fb(-0.4f)), fb(-0.0f));
    CHECK_EQ_U64(EV1(in, fb(INFINITY)), fb(INFINITY));
    in.rnd = PR_RZI;
    CHECK_EQ_U64(EV1(in, fb(-2.7f)), fb(-2.0f));
    in.rnd = PR_RMI;
    CHECK_EQ_U64(EV1(in, fb(-2.1f)), fb(-3.0f));
    in.rnd = PR_RPI;
    CHECK_EQ_U64(EV1(in, fb(2.1f)), fb(3.0f));
    CHECK_EQ_U64(EV1(in, fb(1e20f)), fb(1e20f));
    in = mkcvt(PT_F64, PT_F64, PR_RMI, 0);
    CHECK_EQ_U64(EV1(in, db(-0.5)), db(-1.0));
    in = mkcvt(PT_F32, PT_F32, PR_NONE, PF_SAT);
    CHECK_EQ_U64(EV1(in, fb(1.5f)), fb(1.0f));
    CHECK_EQ_U64(EV1(in, fb(-0.5f)), fb(0.0f));
    CHECK_EQ_U64(EV1(in, fb(NAN)), fb(0.0f));
    CHECK_EQ_U64(EV1(in, fb(0.25f)), fb(0.25f));
    in = mkcvt(PT_F32, PT_F32, PR_NONE, PF_FTZ);
    CHECK_EQ_U64(EV1(in, 5), 0);
    /* f16 <-> f32/f64 */
    in = mkcvt(PT_F16, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, fb(1.0f)), 0x3C00);
    CHECK_EQ_U64(EV1(in, fb(65504.0f)), 0x7BFF);
    CHECK_EQ_U64(EV1(in, fb(65519.9f)), 0x7BFF);
    CHECK_EQ_U64(EV1(in, fb(65520.0f)), 0x7C00);
    CHECK_EQ_U64(EV1(in, fb(0x1p-24f)), 0x0001);
    CHECK_EQ_U64(EV1(in, fb(0x1p-25f)), 0x0000);        /* tie to even (0) */
    CHECK_EQ_U64(EV1(in, fb(0x1.8p-24f)), 0x0002);      /* tie to even (2) */
    CHECK_EQ_U64(EV1(in, fb(-0.0f)), 0x8000);
    CHECK_EQ_U64(EV1(in, fb(NAN)), 0x7FFF);
    CHECK_EQ_U64(EV1(in, fb(-INFINITY)), 0xFC00);
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV1(in, fb(1e6f)), 0x7BFF);
    CHECK_EQ_U64(EV1(in, fb(1.0f + 0x1p-11f)), 0x3C00);
    in.rnd = PR_RP;
    CHECK_EQ_U64(EV1(in, fb(1.0f + 0x1p-20f)), 0x3C01);
    CHECK_EQ_U64(EV1(in, fb(0x1p-40f)), 0x0001);
    in.rnd = PR_RM;
    CHECK_EQ_U64(EV1(in, fb(-0x1p-40f)), 0x8001);
    CHECK_EQ_U64(EV1(in, fb(0x1p-40f)), 0x0000);
    in = mkcvt(PT_F16, PT_F32, PR_RN, PF_RELU);
    CHECK_EQ_U64(EV1(in, fb(-3.0f)), 0);
    in = mkcvt(PT_F32, PT_F16, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0x3555), fb(0.333251953125f));
    CHECK_EQ_U64(EV1(in, 0x0001), fb(0x1p-24f));
    CHECK_EQ_U64(EV1(in, 0x7E01), NAN32);
    CHECK_EQ_U64(EV1(in, 0xFC00), fb(-INFINITY));
    in = mkcvt(PT_F64, PT_F16, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0xC000), db(-2.0));
    /* bf16 */
    in = mkcvt(PT_BF16, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 0x3F808000), 0x3F80);          /* tie to even */
    CHECK_EQ_U64(EV1(in, 0x3F818000), 0x3F82);
    CHECK_EQ_U64(EV1(in, 0x3F808001), 0x3F81);
    CHECK_EQ_U64(EV1(in, fb(FLT_MAX)), 0x7F80);
    in.rnd = PR_RZ;
    CHECK_EQ_U64(EV1(in, fb(FLT_MAX)), 0x7F7F);
    in = mkcvt(PT_F32, PT_BF16, PR_NONE, 0);
    CHECK_EQ_U64(EV1(in, 0xC0A0), fb(-5.0f));
    in = mkcvt(PT_BF16, PT_F16, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 0x3C00), 0x3F80);
    in = mkcvt(PT_F16, PT_BF16, PR_RN, 0);
    CHECK_EQ_U64(EV1(in, 0x4780), 0x7C00); /* 65536 overflows f16 */
    /* cvt.rn.f16x2.f32 d, a, b: a -> upper half */
    in = mkcvt(PT_F16X2, PT_F32, PR_RN, 0);
    CHECK_EQ_U64(EV2(in, fb(1.0f), fb(2.0f)), 0x3C004000u);
}

/* every f16 pattern survives f16 -> f32 -> f16; f16 -> f32 agrees with the
   compiler's _Float16, and so does f32/f64 -> f16 on random inputs */
TEST(cvt_f16_exhaustive)
{
    uint64_t x[W];
    struct ptx_insn up = mkcvt(PT_F32, PT_F16, PR_NONE, 0), down = mkcvt(PT_F16, PT_F32, PR_RN, 0);
    for (uint32_t base = 0; base < 0x10000u; base += W) {
        for (int i = 0; i < W; i++)
            x[i] = base + (uint32_t)i;
        const uint64_t *s1[4] = {x, NULL, NULL, NULL};
        struct alu_run r1 = alu_run_lanes(&up, 0xFFFFFFFFu, s1, NULL);
        const uint64_t *s2[4] = {r1.d, NULL, NULL, NULL};
        struct alu_run r2 = alu_run_lanes(&down, 0xFFFFFFFFu, s2, NULL);
        for (int i = 0; i < W; i++) {
            bool nan = ((x[i] >> 10) & 0x1F) == 0x1F && (x[i] & 0x3FF);
            uint64_t want = nan ? 0x7FFF : x[i];
            if (r2.d[i] != want) {
                T_FAIL_("f16 0x%04" PRIx64 " -> 0x%08" PRIx64 " -> 0x%04" PRIx64, x[i], r1.d[i], r2.d[i]);
                return;
            }
#ifdef __FLT16_MAX__
            if (!nan && r1.d[i] != fb((float)f16v(x[i]))) {
                T_FAIL_("f16 0x%04" PRIx64 " -> f32 0x%08" PRIx64, x[i], r1.d[i]);
                return;
            }
#endif
        }
    }
#ifdef __FLT16_MAX__
    uint64_t st = 1234;
    struct ptx_insn d64 = mkcvt(PT_F16, PT_F64, PR_RN, 0);
    for (int k = 0; k < 20000; k++) {
        uint32_t u = (uint32_t)rnd64(&st);
        /* concentrate on the f16 range: exponents around 2^-26 .. 2^17 */
        u = (u & 0x807FFFFFu) | ((uint32_t)(100 + (k % 45)) << 23);
        float f = bf(u);
        CHECK_EQ_U64(EV1(down, u), h16((_Float16)f));
        double dd = (double)f * (1.0 + 0x1p-40);
        CHECK_EQ_U64(EV1(d64, db(dd)), h16((_Float16)dd));
    }
#endif
}

TEST_MAIN()
