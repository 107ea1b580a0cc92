/* test_ptx_alu.c - integer, bit, logic, compare/select ALU semantics and the
   load-time check (float and cvt are in test_ptx_alu_float.c). */
#include "test_ptx_alu_util.h"

#include <limits.h>

/* ---- add / sub ------------------------------------------------------------------- */

TEST(alu_add_sub_wrap)
{
    struct ptx_insn in = mk(PO_ADD, PT_S32);
    CHECK_EQ_U64(EV2(in, 5, 7), 12);
    CHECK_EQ_U64(EV2(in, 0x7FFFFFFF, 1), 0x80000000u);
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 0), 0xFFFFFFFFu); /* -1 stays zero-extended */
    in = mk(PO_SUB, PT_S32);
    CHECK_EQ_U64(EV2(in, 3, 5), 0xFFFFFFFEu);
    in = mk(PO_ADD, PT_U16);
    CHECK_EQ_U64(EV2(in, 0xFFFF, 2), 1);
    in = mk(PO_SUB, PT_U64);
    CHECK_EQ_U64(EV2(in, 0, 1), UINT64_MAX);
    in = mk(PO_ADD, PT_S64);
    CHECK_EQ_U64(EV2(in, (uint64_t)INT64_MAX, 1), (uint64_t)INT64_MIN);
}

TEST(alu_add_sat)
{
    struct ptx_insn in = mk(PO_ADD, PT_S32);
    in.flags = PF_SAT;
    CHECK_EQ_U64(EV2(in, 0x7FFFFFFF, 1), 0x7FFFFFFFu);
    CHECK_EQ_U64(EV2(in, 0x80000000, 0xFFFFFFFF), 0x80000000u);
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 0xFFFFFFFF), 0xFFFFFFFEu);
    in.op = PO_SUB;
    CHECK_EQ_U64(EV2(in, 0x80000000, 1), 0x80000000u);
    CHECK_EQ_U64(EV2(in, 0x7FFFFFFF, 0xFFFFFFFF), 0x7FFFFFFFu);
    CHECK_EQ_U64(EV2(in, 10, 3), 7);
}

/* 64-bit add and sub built from 32-bit add.cc + addc (and a 96-bit chain with
   addc.cc), with different values in every lane */
TEST(alu_carry_chains)
{
    uint64_t st = 1, A[W], B[W], alo[W], ahi[W], blo[W], bhi[W];
    for (int i = 0; i < W; i++) {
        A[i] = rnd64(&st);
        B[i] = rnd64(&st);
        if (i == 3) { A[i] = 0xFFFFFFFFu; B[i] = 1; }          /* carry from low word */
        if (i == 4) { A[i] = UINT64_MAX; B[i] = 1; }            /* carry out of everything */
        if (i == 5) { A[i] = 0x100000000ull; B[i] = 1; }        /* borrow for sub */
        alo[i] = A[i] & 0xFFFFFFFFu; ahi[i] = A[i] >> 32;
        blo[i] = B[i] & 0xFFFFFFFFu; bhi[i] = B[i] >> 32;
    }
    for (int sub = 0; sub < 2; sub++) {
        struct ptx_insn lo = mk(sub ? PO_SUB : PO_ADD, PT_U32), hi = mk(sub ? PO_SUBC : PO_ADDC, PT_U32);
        lo.flags = PF_CC;
        const uint64_t *s1[4] = {alo, blo, NULL, NULL}, *s2[4] = {ahi, bhi, NULL, NULL};
        struct alu_run r1 = alu_run_lanes(&lo, 0xFFFFFFFFu, s1, NULL);
        struct alu_run r2 = alu_run_lanes(&hi, 0xFFFFFFFFu, s2, r1.cc);
        REQUIRE(r1.rc == 0 && r2.rc == 0);
        for (int i = 0; i < W; i++) {
            uint64_t want = sub ? A[i] - B[i] : A[i] + B[i];
            CHECK_EQ_U64(r1.d[i] | (r2.d[i] << 32), want);
        }
    }
    /* 96-bit: add.cc, addc.cc, addc; lane 4 carries through both upper words */
    struct ptx_insn l0 = mk(PO_ADD, PT_U32), l1 = mk(PO_ADDC, PT_U32), l2 = mk(PO_ADDC, PT_U32);
    l0.flags = PF_CC;
    l1.flags = PF_CC;
    uint64_t zero[W] = {0}, one[W];
    for (int i = 0; i < W; i++)
        one[i] = i == 4 ? 0 : 1;
    const uint64_t *sa[4] = {alo, blo, NULL, NULL}, *sb[4] = {ahi, bhi, NULL, NULL};
    const uint64_t *sc[4] = {one, zero, NULL, NULL};
    struct alu_run r0 = alu_run_lanes(&l0, 0xFFFFFFFFu, sa, NULL);
    struct alu_run r1 = alu_run_lanes(&l1, 0xFFFFFFFFu, sb, r0.cc);
    struct alu_run r2 = alu_run_lanes(&l2, 0xFFFFFFFFu, sc, r1.cc);
    for (int i = 0; i < W; i++) {
        unsigned __int128 want = (unsigned __int128)A[i] + B[i] + ((unsigned __int128)one[i] << 64);
        CHECK_EQ_U64(r0.d[i] | (r1.d[i] << 32), (uint64_t)want);
        CHECK_EQ_U64(r2.d[i], (uint64_t)(want >> 64) & 0xFFFFFFFFu);
    }
    /* 128-bit from 64-bit pieces: add.cc.u64 + addc.u64 */
    struct ptx_insn q0 = mk(PO_ADD, PT_U64), q1 = mk(PO_ADDC, PT_U64);
    q0.flags = PF_CC;
    const uint64_t *sq0[4] = {A, B, NULL, NULL}, *sq1[4] = {one, zero, NULL, NULL};
    struct alu_run t0 = alu_run_lanes(&q0, 0xFFFFFFFFu, sq0, NULL);
    struct alu_run t1 = alu_run_lanes(&q1, 0xFFFFFFFFu, sq1, t0.cc);
    for (int i = 0; i < W; i++) {
        unsigned __int128 want = (unsigned __int128)A[i] + B[i] + ((unsigned __int128)one[i] << 64);
        CHECK_EQ_U64(t0.d[i], (uint64_t)want);
        CHECK_EQ_U64(t1.d[i], (uint64_t)(want >> 64));
    }
}

/* ---- mul / mad ------------------------------------------------------------------------ */

TEST(alu_mul_hi_lo_wide)
{
    uint64_t st = 7;
    for (int k = 0; k < 200; k++) {
        uint64_t x = rnd64(&st), y = rnd64(&st), c = rnd64(&st);
        if (k == 0) { x = 0x80000000u; y = 0x80000000u; }
        if (k == 1) { x = 0xFFFFFFFFu; y = 0xFFFFFFFFu; }
        if (k == 2) { x = (uint64_t)INT64_MIN; y = (uint64_t)INT64_MIN; }
        uint32_t x32 = (uint32_t)x, y32 = (uint32_t)y;
        int32_t sx = (int32_t)x32, sy = (int32_t)y32;
        struct ptx_insn in = mk(PO_MUL, PT_S32);
        in.flags = PF_LO;
        CHECK_EQ_U64(EV2(in, x32, y32), (uint32_t)(x32 * y32));
        in.flags = PF_HI;
        CHECK_EQ_U64(EV2(in, x32, y32), (uint32_t)(((int64_t)sx * sy) >> 32));
        in.flags = PF_WIDE;
        CHECK_EQ_U64(EV2(in, x32, y32), (uint64_t)((int64_t)sx * sy));
        in.type = PT_U32;
        CHECK_EQ_U64(EV2(in, x32, y32), (uint64_t)x32 * y32);
        in.flags = PF_HI;
        CHECK_EQ_U64(EV2(in, x32, y32), ((uint64_t)x32 * y32) >> 32);
        in.type = PT_U64;
        CHECK_EQ_U64(EV2(in, x, y), (uint64_t)(((unsigned __int128)x * y) >> 64));
        in.type = PT_S64;
        CHECK_EQ_U64(EV2(in, x, y), (uint64_t)(((__int128)(int64_t)x * (int64_t)y) >> 64));
        in.flags = PF_LO;
        CHECK_EQ_U64(EV2(in, x, y), x * y);
        in.type = PT_S16;
        in.flags = PF_WIDE;
        CHECK_EQ_U64(EV2(in, x & 0xFFFF, y & 0xFFFF),
                     (uint32_t)((int32_t)(int16_t)(uint16_t)x * (int16_t)(uint16_t)y));
        in.flags = PF_HI;
        CHECK_EQ_U64(EV2(in, x & 0xFFFF, y & 0xFFFF),
                     (uint16_t)(((int32_t)(int16_t)(uint16_t)x * (int16_t)(uint16_t)y) >> 16));
        /* mad variants */
        struct ptx_insn m = mk(PO_MAD, PT_S32);
        m.flags = PF_LO;
        CHECK_EQ_U64(EV3(m, x32, y32, (uint32_t)c), (uint32_t)(x32 * y32 + (uint32_t)c));
        m.flags = PF_HI;
        CHECK_EQ_U64(EV3(m, x32, y32, (uint32_t)c),
                     (uint32_t)((uint32_t)(((int64_t)sx * sy) >> 32) + (uint32_t)c));
        m.flags = PF_WIDE; /* the addend is 64-bit */
        CHECK_EQ_U64(EV3(m, x32, y32, c), (uint64_t)((int64_t)sx * sy) + c);
        m.type = PT_U32;
        CHECK_EQ_U64(EV3(m, x32, y32, c), (uint64_t)x32 * y32 + c);
        m.type = PT_U64;
        m.flags = PF_HI;
        CHECK_EQ_U64(EV3(m, x, y, c), (uint64_t)(((unsigned __int128)x * y) >> 64) + c);
    }
}

TEST(alu_mad_sat_cc)
{
    struct ptx_insn m = mk(PO_MAD, PT_S32);
    m.flags = PF_HI | PF_SAT;
    /* hi(0x7FFFFFFF * 0x7FFFFFFF) = 0x3FFFFFFF; + 0x7FFFFFFF saturates */
    CHECK_EQ_U64(EV3(m, 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF), 0x7FFFFFFFu);
    CHECK_EQ_U64(EV3(m, 0x7FFFFFFF, 0x80000000, 0x80000000), 0x80000000u);
    CHECK_EQ_U64(EV3(m, 0x10000, 0x10000, 5), 6);
    /* mad.lo.cc.u32 + madc.hi.u32: 64-bit a*b + c from 32-bit halves */
    struct ptx_insn lo = mk(PO_MAD, PT_U32), hi = mk(PO_MADC, PT_U32);
    lo.flags = PF_LO | PF_CC;
    hi.flags = PF_HI;
    uint64_t x[W], y[W], c[W], ch[W], st = 3;
    for (int i = 0; i < W; i++) {
        x[i] = rnd64(&st) & 0xFFFFFFFFu;
        y[i] = rnd64(&st) & 0xFFFFFFFFu;
        c[i] = rnd64(&st) & 0xFFFFFFFFu;
        ch[i] = rnd64(&st) & 0xFFFFFFFFu;
    }
    const uint64_t *s1[4] = {x, y, c, NULL}, *s2[4] = {x, y, ch, NULL};
    struct alu_run r1 = alu_run_lanes(&lo, 0xFFFFFFFFu, s1, NULL);
    struct alu_run r2 = alu_run_lanes(&hi, 0xFFFFFFFFu, s2, r1.cc);
    for (int i = 0; i < W; i++) {
        uint64_t want = x[i] * y[i] + c[i] + (ch[i] << 32);
        CHECK_EQ_U64(r1.d[i] | ((r2.d[i] & 0xFFFFFFFFu) << 32), want);
    }
}

TEST(alu_mul24_sad)
{
    struct ptx_insn in = mk(PO_MUL24, PT_S32);
    in.flags = PF_LO;
    CHECK_EQ_U64(EV2(in, 0x00FFFFFF, 2), 0xFFFFFFFEu); /* -1 * 2 in 24-bit signed */
    CHECK_EQ_U64(EV2(in, 0xFF000003, 5), 15);         /* upper bits ignored */
    in.flags = PF_HI;
    CHECK_EQ_U64(EV2(in, 0x00800000, 0x00800000), 0x40000000u); /* (-2^23)^2 = 2^46, >> 16 */
    in.type = PT_U32;
    CHECK_EQ_U64(EV2(in, 0x00FFFFFF, 0x00FFFFFF), (uint32_t)((0xFFFFFFull * 0xFFFFFFull) >> 16));
    in.flags = PF_LO;
    CHECK_EQ_U64(EV2(in, 0x00FFFFFF, 0x00FFFFFF), (uint32_t)(0xFFFFFFull * 0xFFFFFFull));
    struct ptx_insn m = mk(PO_MAD24, PT_U32);
    m.flags = PF_LO;
    CHECK_EQ_U64(EV3(m, 1000, 1000, 7), 1000007);
    m.type = PT_S32;
    m.flags = PF_HI | PF_SAT;
    CHECK_EQ_U64(EV3(m, 0x00800000, 0x00800000, 0x7FFFFFFF), 0x7FFFFFFFu);

    struct ptx_insn s = mk(PO_SAD, PT_S32);
    CHECK_EQ_U64(EV3(s, (uint32_t)-5, 7, 100), 112);
    CHECK_EQ_U64(EV3(s, 0x80000000, 0x7FFFFFFF, 0), 0xFFFFFFFFu);
    s.type = PT_U32;
    CHECK_EQ_U64(EV3(s, 3, 0xFFFFFFFF, 1), 0xFFFFFFFDu);
    s.type = PT_S64;
    CHECK_EQ_U64(EV3(s, (uint64_t)INT64_MIN, (uint64_t)INT64_MAX, 0), UINT64_MAX);
}

/* ---- div / rem ---------------------------------------------------------------------- */

TEST(alu_div_rem_edges)
{
    struct ptx_insn d = mk(PO_DIV, PT_U32), r = mk(PO_REM, PT_U32);
    CHECK_EQ_U64(EV2(d, 7, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV2(r, 7, 0), 7);
    CHECK_EQ_U64(EV2(d, 0xFFFFFFFF, 16), 0x0FFFFFFFu);
    d.type = r.type = PT_S32;
    CHECK_EQ_U64(EV2(d, 7, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV2(d, (uint32_t)-7, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV2(r, (uint32_t)-7, 0), (uint32_t)-7);
    CHECK_EQ_U64(EV2(d, 0x80000000, 0xFFFFFFFF), 0x80000000u);
    CHECK_EQ_U64(EV2(r, 0x80000000, 0xFFFFFFFF), 0);
    CHECK_EQ_U64(EV2(d, (uint32_t)-7, 2), (uint32_t)-3); /* truncates toward zero */
    CHECK_EQ_U64(EV2(r, (uint32_t)-7, 2), (uint32_t)-1);
    d.type = r.type = PT_S64;
    CHECK_EQ_U64(EV2(d, (uint64_t)INT64_MIN, UINT64_MAX), (uint64_t)INT64_MIN);
    CHECK_EQ_U64(EV2(r, (uint64_t)INT64_MIN, UINT64_MAX), 0);
    CHECK_EQ_U64(EV2(d, 5, 0), UINT64_MAX);
    CHECK_EQ_U64(EV2(r, 5, 0), 5);
    d.type = r.type = PT_U64;
    CHECK_EQ_U64(EV2(d, 5, 0), UINT64_MAX);
    CHECK_EQ_U64(EV2(r, UINT64_MAX, 10), UINT64_MAX % 10);
    d.type = r.type = PT_S16;
    CHECK_EQ_U64(EV2(d, 0x8000, 0xFFFF), 0x8000);
    uint64_t st = 11;
    for (int k = 0; k < 100; k++) {
        int32_t x = (int32_t)rnd64(&st), y = (int32_t)(rnd64(&st) >> 40);
        if (y == 0)
            continue;
        d.type = r.type = PT_S32;
        CHECK_EQ_U64(EV2(d, (uint32_t)x, (uint32_t)y), (uint32_t)(x / y));
        CHECK_EQ_U64(EV2(r, (uint32_t)x, (uint32_t)y), (uint32_t)(x % y));
    }
}

TEST(alu_abs_neg_min_max)
{
    struct ptx_insn in = mk(PO_ABS, PT_S32);
    CHECK_EQ_U64(EV1(in, 0x80000000), 0x80000000u);
    CHECK_EQ_U64(EV1(in, (uint32_t)-5), 5);
    in.type = PT_S64;
    CHECK_EQ_U64(EV1(in, (uint64_t)INT64_MIN), (uint64_t)INT64_MIN);
    in.type = PT_S16;
    CHECK_EQ_U64(EV1(in, 0xFFFF), 1);
    in = mk(PO_NEG, PT_S32);
    CHECK_EQ_U64(EV1(in, 0x80000000), 0x80000000u);
    CHECK_EQ_U64(EV1(in, 1), 0xFFFFFFFFu);
    in = mk(PO_MIN, PT_S32);
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 1), 0xFFFFFFFFu);
    in.type = PT_U32;
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 1), 1);
    in = mk(PO_MAX, PT_S32);
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 1), 1);
    in.type = PT_U32;
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 1), 0xFFFFFFFFu);
    in.type = PT_S64;
    CHECK_EQ_U64(EV2(in, (uint64_t)INT64_MIN, 0), 0);
    in.type = PT_S16;
    CHECK_EQ_U64(EV2(in, 0x8000, 0x7FFF), 0x7FFF);
    in.type = PT_S32;
    in.flags = PF_RELU;
    CHECK_EQ_U64(EV2(in, (uint32_t)-3, (uint32_t)-9), 0);
}

/* ---- bit counting ------------------------------------------------------------------ */

TEST(alu_popc_clz_bfind_brev)
{
    struct ptx_insn in = mk(PO_POPC, PT_B32);
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFF), 32);
    CHECK_EQ_U64(EV1(in, 0), 0);
    in.type = PT_B64;
    CHECK_EQ_U64(EV1(in, UINT64_MAX), 64);
    in = mk(PO_CLZ, PT_B32);
    CHECK_EQ_U64(EV1(in, 0), 32);
    CHECK_EQ_U64(EV1(in, 1), 31);
    CHECK_EQ_U64(EV1(in, 0x80000000), 0);
    in.type = PT_B64;
    CHECK_EQ_U64(EV1(in, 0), 64);
    CHECK_EQ_U64(EV1(in, 0x100000000ull), 31);
    in = mk(PO_BFIND, PT_U32);
    CHECK_EQ_U64(EV1(in, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV1(in, 1), 0);
    CHECK_EQ_U64(EV1(in, 0x80000000), 31);
    in.flags = PF_SHIFTAMT;
    CHECK_EQ_U64(EV1(in, 0x80000000), 0);
    CHECK_EQ_U64(EV1(in, 1), 31);
    CHECK_EQ_U64(EV1(in, 0), 0xFFFFFFFFu);
    in = mk(PO_BFIND, PT_S32);
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFF), 0xFFFFFFFFu); /* -1: no non-sign bit */
    CHECK_EQ_U64(EV1(in, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV1(in, 0xFFFFFFFE), 0);          /* -2 */
    CHECK_EQ_U64(EV1(in, 0x80000000), 30);
    CHECK_EQ_U64(EV1(in, 0x40000000), 30);
    in.flags = PF_SHIFTAMT;
    CHECK_EQ_U64(EV1(in, 0x40000000), 1);
    in = mk(PO_BFIND, PT_S64);
    CHECK_EQ_U64(EV1(in, (uint64_t)INT64_MIN), 62);
    in = mk(PO_BFIND, PT_U64);
    CHECK_EQ_U64(EV1(in, UINT64_MAX), 63);
    in = mk(PO_BREV, PT_B32);
    CHECK_EQ_U64(EV1(in, 1), 0x80000000u);
    CHECK_EQ_U64(EV1(in, 0x12345678), 0x1E6A2C48u);
    in.type = PT_B64;
    CHECK_EQ_U64(EV1(in, 1), 0x8000000000000000ull);
    CHECK_EQ_U64(EV1(in, 0x00000000000000F0ull), 0x0F00000000000000ull);
}

TEST(alu_bfe_bfi)
{
    struct ptx_insn in = mk(PO_BFE, PT_U32);
    CHECK_EQ_U64(EV3(in, 0x12345678, 8, 8), 0x56);
    CHECK_EQ_U64(EV3(in, 0x12345678, 28, 8), 0x1);   /* field runs past msb */
    CHECK_EQ_U64(EV3(in, 0x12345678, 40, 8), 0);     /* start beyond msb */
    CHECK_EQ_U64(EV3(in, 0x12345678, 8, 0), 0);      /* len 0 */
    CHECK_EQ_U64(EV3(in, 0xFFFFFFFF, 0, 32), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV3(in, 0xFFFFFFFF, 0x104, 0x204), 0xF); /* only 8 bits of b, c */
    in.type = PT_S32;
    CHECK_EQ_U64(EV3(in, 0x0000F000, 12, 4), 0xFFFFFFFFu); /* sign-extended */
    CHECK_EQ_U64(EV3(in, 0x00007000, 12, 4), 7);
    CHECK_EQ_U64(EV3(in, 0x80000000, 40, 3), 0xFFFFFFFFu); /* beyond msb: sign of a[31] */
    CHECK_EQ_U64(EV3(in, 0x70000000, 40, 3), 0);
    CHECK_EQ_U64(EV3(in, 0x80000000, 30, 10), 0xFFFFFFFEu); /* a[31:30] = 10b, sign 1 */
    CHECK_EQ_U64(EV3(in, 0xFFFFFFFF, 4, 0), 0);
    in.type = PT_S64;
    CHECK_EQ_U64(EV3(in, 0x8000000000000000ull, 63, 1), UINT64_MAX);
    in.type = PT_U64;
    CHECK_EQ_U64(EV3(in, 0xABCD000000000000ull, 48, 16), 0xABCD);

    in = mk(PO_BFI, PT_B32);
    CHECK_EQ_U64(EV4(in, 0xAB, 0x12345678, 8, 8), 0x1234AB78u);
    CHECK_EQ_U64(EV4(in, 0xFFFF, 0, 28, 8), 0xF0000000u);   /* clipped at msb */
    CHECK_EQ_U64(EV4(in, 0xFFFF, 0x5, 32, 8), 0x5);          /* pos beyond msb */
    CHECK_EQ_U64(EV4(in, 0xFFFF, 0x5, 0, 0), 0x5);           /* len 0 */
    CHECK_EQ_U64(EV4(in, 0xFFFFFFFF, 0, 0, 32), 0xFFFFFFFFu);
    in.type = PT_B64;
    CHECK_EQ_U64(EV4(in, 0x3, 0, 62, 2), 0xC000000000000000ull);
}

TEST(alu_prmt)
{
    struct ptx_insn in = mk(PO_PRMT, PT_B32);
    uint64_t a = 0x33221100, b = 0x77665544;
    CHECK_EQ_U64(EV3(in, a, b, 0x3210), a);
    CHECK_EQ_U64(EV3(in, a, b, 0x7654), b);
    CHECK_EQ_U64(EV3(in, a, b, 0x0123), 0x00112233u);
    CHECK_EQ_U64(EV3(in, a, b, 0x4040), 0x44004400u);
    CHECK_EQ_U64(EV3(in, 0x80, 0, 0x8880), 0xFFFFFF80u); /* sign replicate of byte 0 */
    CHECK_EQ_U64(EV3(in, 0x7F, 0, 0x0008), 0x7F7F7F00u);
    in.subop = PPM_F4E;
    CHECK_EQ_U64(EV3(in, a, b, 1), 0x44332211u);
    in.subop = PPM_B4E;
    CHECK_EQ_U64(EV3(in, a, b, 0), 0x55667700u);
    CHECK_EQ_U64(EV3(in, a, b, 3), 0x00112233u);
    in.subop = PPM_RC8;
    CHECK_EQ_U64(EV3(in, a, b, 2), 0x22222222u);
    in.subop = PPM_ECL;
    CHECK_EQ_U64(EV3(in, a, b, 1), 0x33221111u);
    in.subop = PPM_ECR;
    CHECK_EQ_U64(EV3(in, a, b, 2), 0x22221100u);
    in.subop = PPM_RC16;
    CHECK_EQ_U64(EV3(in, a, b, 1), 0x33223322u);
    CHECK_EQ_U64(EV3(in, a, b, 0x10), 0x11001100u); /* only c[1:0] */
}

/* ---- shifts --------------------------------------------------------------------------- */

TEST(alu_shifts)
{
    struct ptx_insn in = mk(PO_SHL, PT_B32);
    CHECK_EQ_U64(EV2(in, 1, 31), 0x80000000u);
    CHECK_EQ_U64(EV2(in, 1, 32), 0);
    CHECK_EQ_U64(EV2(in, 1, 0xFFFFFFFF), 0);
    CHECK_EQ_U64(EV2(in, 3, 31), 0x80000000u);
    in.type = PT_B64;
    CHECK_EQ_U64(EV2(in, 1, 63), 0x8000000000000000ull);
    CHECK_EQ_U64(EV2(in, 1, 64), 0);
    in.type = PT_B16;
    CHECK_EQ_U64(EV2(in, 0xFFFF, 4), 0xFFF0);
    CHECK_EQ_U64(EV2(in, 0xFFFF, 16), 0);
    in = mk(PO_SHR, PT_U32);
    CHECK_EQ_U64(EV2(in, 0x80000000, 31), 1);
    CHECK_EQ_U64(EV2(in, 0x80000000, 32), 0);
    in.type = PT_S32;
    CHECK_EQ_U64(EV2(in, 0x80000000, 4), 0xF8000000u);
    CHECK_EQ_U64(EV2(in, 0x80000000, 32), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV2(in, 0x80000000, 1000), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV2(in, 0x40000000, 1000), 0);
    in.type = PT_B32;
    CHECK_EQ_U64(EV2(in, 0x80000000, 4), 0x08000000u);
    in.type = PT_S64;
    CHECK_EQ_U64(EV2(in, (uint64_t)INT64_MIN, 63), UINT64_MAX);
    in.type = PT_S16;
    CHECK_EQ_U64(EV2(in, 0x8000, 15), 0xFFFF);

    in = mk(PO_SHF, PT_B32);
    in.subop = PSF_L_WRAP;
    CHECK_EQ_U64(EV3(in, 0x80000000, 0x00000001, 1), 0x00000003u);
    CHECK_EQ_U64(EV3(in, 0x80000000, 0x00000001, 33), 0x00000003u); /* wraps to 1 */
    CHECK_EQ_U64(EV3(in, 0xAAAAAAAA, 0x12345678, 0), 0x12345678u);
    in.subop = PSF_L_CLAMP;
    CHECK_EQ_U64(EV3(in, 0x80000000, 0x00000001, 33), 0x80000000u); /* clamps to 32: a */
    CHECK_EQ_U64(EV3(in, 0x12345678, 0x9ABCDEF0, 8), 0xBCDEF012u);
    in.subop = PSF_R_WRAP;
    CHECK_EQ_U64(EV3(in, 0x12345678, 0x9ABCDEF0, 8), 0xF0123456u);
    CHECK_EQ_U64(EV3(in, 0x12345678, 0x9ABCDEF0, 40), 0xF0123456u);
    in.subop = PSF_R_CLAMP;
    CHECK_EQ_U64(EV3(in, 0x12345678, 0x9ABCDEF0, 40), 0x9ABCDEF0u);
    CHECK_EQ_U64(EV3(in, 0x12345678, 0x9ABCDEF0, 0), 0x12345678u);
}

/* ---- logic --------------------------------------------------------------------------------- */

TEST(alu_logic_lop3)
{
    struct ptx_insn in = mk(PO_AND, PT_PRED);
    CHECK_EQ_U64(EV2(in, 1, 0), 0);
    CHECK_EQ_U64(EV2(in, 1, 1), 1);
    in.op = PO_OR;
    CHECK_EQ_U64(EV2(in, 0, 1), 1);
    in.op = PO_XOR;
    CHECK_EQ_U64(EV2(in, 1, 1), 0);
    in.op = PO_NOT;
    CHECK_EQ_U64(EV1(in, 1), 0);
    CHECK_EQ_U64(EV1(in, 0), 1);
    in = mk(PO_NOT, PT_B32);
    CHECK_EQ_U64(EV1(in, 0), 0xFFFFFFFFu);
    in.type = PT_B16;
    CHECK_EQ_U64(EV1(in, 0x00FF), 0xFF00);
    in = mk(PO_CNOT, PT_B32);
    CHECK_EQ_U64(EV1(in, 0), 1);
    CHECK_EQ_U64(EV1(in, 0x100), 0);
    in = mk(PO_XOR, PT_B64);
    CHECK_EQ_U64(EV2(in, UINT64_MAX, 1), UINT64_MAX - 1);

    in = mk(PO_LOP3, PT_B32);
    uint64_t st = 5;
    static const unsigned luts[] = {0x96, 0xE8, 0x80, 0xFE, 0xF0, 0xCC, 0xAA, 0x00, 0xFF, 0x1E, 0x6A};
    for (int k = 0; k < 20; k++) {
        uint32_t a = (uint32_t)rnd64(&st), b = (uint32_t)rnd64(&st), c = (uint32_t)rnd64(&st);
        for (size_t j = 0; j < sizeof luts / sizeof luts[0]; j++) {
            unsigned lut = luts[j];
            uint32_t want = 0;
            for (int bit = 0; bit < 32; bit++) {
                unsigned idx = (((a >> bit) & 1u) << 2) | (((b >> bit) & 1u) << 1) | ((c >> bit) & 1u);
                want |= ((lut >> idx) & 1u) << bit;
            }
            CHECK_EQ_U64(EV4(in, a, b, c, lut), want);
        }
        CHECK_EQ_U64(EV4(in, a, b, c, 0x96), a ^ b ^ c);
        CHECK_EQ_U64(EV4(in, a, b, c, 0xE8), (a & b) | (a & c) | (b & c));
    }
}

TEST(alu_dp4a_dp2a)
{
    struct ptx_insn in = mk(PO_DP4A, PT_S32);
    in.stype = PT_S32;
    /* bytes a = {1, -1, 2, -2}, b = {3, 4, -5, 6} */
    uint64_t a = 0xFE02FF01u, b = 0x06FB0403u;
    CHECK_EQ_U64(EV3(in, a, b, 10), (uint32_t)(10 + 3 - 4 - 10 - 12));
    in.type = PT_U32;
    in.stype = PT_U32;
    CHECK_EQ_U64(EV3(in, a, b, 0), (uint32_t)(1 * 3 + 255 * 4 + 2 * 251 + 254 * 6));
    in.stype = PT_S32; /* a unsigned, b signed */
    CHECK_EQ_U64(EV3(in, a, b, 0), (uint32_t)(1 * 3 + 255 * 4 + 2 * -5 + 254 * 6));
    in = mk(PO_DP2A, PT_S32);
    in.stype = PT_S32;
    in.flags = PF_LO;
    /* a halves = {-2, 3} */
    uint64_t ah = 0x0003FFFEu;
    CHECK_EQ_U64(EV3(in, ah, b, 1), (uint32_t)(1 + -2 * 3 + 3 * 4));
    in.flags = PF_HI;
    CHECK_EQ_U64(EV3(in, ah, b, 1), (uint32_t)(1 + -2 * -5 + 3 * 6));
}

/* ---- mov / selp / slct ----------------------------------------------------------------- */

TEST(alu_mov_selp_slct)
{
    struct ptx_insn in = mk(PO_MOV, PT_U32);
    CHECK_EQ_U64(EV1(in, 0x1234567890ull), 0x34567890u);
    in.type = PT_F64;
    CHECK_EQ_U64(EV1(in, db(-1.5)), db(-1.5));
    in.type = PT_PRED;
    CHECK_EQ_U64(EV1(in, 1), 1);
    in = mk(PO_SELP, PT_S32);
    CHECK_EQ_U64(EV3(in, 11, 22, 1), 11);
    CHECK_EQ_U64(EV3(in, 11, 22, 0), 22);
    in.type = PT_F64;
    CHECK_EQ_U64(EV3(in, db(1.0), db(2.0), 1), db(1.0));
    in = mk(PO_SLCT, PT_S32);
    in.stype = PT_S32;
    CHECK_EQ_U64(EV3(in, 1, 2, 0), 1);
    CHECK_EQ_U64(EV3(in, 1, 2, 0xFFFFFFFF), 2);
    in.stype = PT_F32;
    CHECK_EQ_U64(EV3(in, 1, 2, fb(-0.0f)), 1);
    CHECK_EQ_U64(EV3(in, 1, 2, fb(-1e-30f)), 2);
    CHECK_EQ_U64(EV3(in, 1, 2, 0x7FC00000), 2); /* NaN picks b */
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV3(in, 1, 2, 0x80000001), 1); /* -denormal flushes to -0 */
}

/* a partial mask with different operands per lane: only active lanes change */
TEST(alu_partial_mask_lanes)
{
    uint64_t x[W], y[W];
    for (int i = 0; i < W; i++) {
        x[i] = (uint64_t)i * 1000u;
        y[i] = (uint64_t)i;
    }
    struct ptx_insn in = mk(PO_ADD, PT_U32);
    const uint64_t *s[4] = {x, y, NULL, NULL};
    uint32_t masks[] = {0u, 1u, 0x80000000u, 0x55555555u, 0xFFFFFFFEu};
    for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
        struct alu_run r = alu_run_lanes(&in, masks[k], s, NULL);
        REQUIRE(r.rc == 0);
        for (int i = 0; i < W; i++)
            CHECK_EQ_U64(r.d[i], ((masks[k] >> i) & 1u) ? x[i] + y[i] : SENTINEL);
    }
    /* in-place update: d aliases a source */
    uint64_t acc[W];
    for (int i = 0; i < W; i++)
        acc[i] = (uint64_t)i;
    struct ptx_alu_args a = {.mask = 0x0000FFFFu, .d = acc, .s = {acc, y, NULL, NULL}};
    REQUIRE(ptx_alu_exec(&in, &a) == 0);
    for (int i = 0; i < W; i++)
        CHECK_EQ_U64(acc[i], i < 16 ? 2u * (uint64_t)i : (uint64_t)i);
    /* `_` destination is allowed (carry-out only) */
    uint64_t cc[W] = {0}, big[W];
    for (int i = 0; i < W; i++)
        big[i] = 0xFFFFFFFFu;
    struct ptx_insn ac = mk(PO_ADD, PT_U32);
    ac.flags = PF_CC;
    struct ptx_alu_args b = {.mask = 0xFFFFFFFFu, .d = NULL, .s = {big, y, NULL, NULL}, .cc = cc};
    REQUIRE(ptx_alu_exec(&ac, &b) == 0);
    CHECK_EQ_U64(cc[0], 0);
    CHECK_EQ_U64(cc[1], 1);
}

/* ---- setp / set ---------------------------------------------------------------------- */

TEST(alu_setp_int)
{
    struct { unsigned cmp; uint64_t a, b; unsigned type; uint64_t want; } cases[] = {
        {PC_LT, 0xFFFFFFFF, 1, PT_S32, 1}, {PC_LT, 0xFFFFFFFF, 1, PT_U32, 0},
        {PC_LO, 0xFFFFFFFF, 1, PT_U32, 0}, {PC_HI, 0xFFFFFFFF, 1, PT_U32, 1},
        {PC_HS, 5, 5, PT_U32, 1}, {PC_LS, 6, 5, PT_U32, 0},
        {PC_GE, 0x80000000, 0x7FFFFFFF, PT_S32, 0}, {PC_GT, 0x7FFFFFFF, 0x80000000, PT_S32, 1},
        {PC_LE, 3, 3, PT_S32, 1}, {PC_EQ, 3, 3, PT_B32, 1}, {PC_NE, 3, 3, PT_B32, 0},
        {PC_LT, (uint64_t)INT64_MIN, 0, PT_S64, 1}, {PC_LT, (uint64_t)INT64_MIN, 0, PT_U64, 0},
        {PC_LT, 0x8000, 0x7FFF, PT_S16, 1}, {PC_GT, 0x8000, 0x7FFF, PT_U16, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct ptx_insn in = mk(PO_SETP, cases[k].type);
        in.cmp = (uint8_t)cases[k].cmp;
        uint64_t got = EV2(in, cases[k].a, cases[k].b);
        if (got != cases[k].want)
            T_FAIL_("case %zu: got %" PRIu64, k, got);
    }
}

TEST(alu_setp_d2_boolop)
{
    struct ptx_insn in = mk(PO_SETP, PT_S32);
    in.cmp = PC_LT;
    in.has_d2 = 1;
    uint64_t q;
    CHECK_EQ_U64(ev_(&in, 2, 1, 2, 0, 0, &q, __LINE__), 1);
    CHECK_EQ_U64(q, 0);
    CHECK_EQ_U64(ev_(&in, 2, 3, 2, 0, 0, &q, __LINE__), 0);
    CHECK_EQ_U64(q, 1);
    /* p = (a<b) BOOL c, q = !(a<b) BOOL c */
    unsigned ops[] = {PB_AND, PB_OR, PB_XOR};
    for (int o = 0; o < 3; o++) {
        for (int t = 0; t < 2; t++) {
            for (int c = 0; c < 2; c++) {
                in.boolop = (uint8_t)ops[o];
                uint64_t p = ev_(&in, 3, t ? 1 : 3, 2, (uint64_t)c, 0, &q, __LINE__);
                int nt = !t;
                int wp = ops[o] == PB_AND ? (t & c) : ops[o] == PB_OR ? (t | c) : (t ^ c);
                int wq = ops[o] == PB_AND ? (nt & c) : ops[o] == PB_OR ? (nt | c) : (nt ^ c);
                CHECK_EQ_U64(p, (uint64_t)wp);
                CHECK_EQ_U64(q, (uint64_t)wq);
            }
        }
    }
    /* the compare reads sources before d is written: d aliases c */
    uint64_t pc[W], a[W], b[W];
    for (int i = 0; i < W; i++) {
        pc[i] = (uint64_t)(i & 1);
        a[i] = 1;
        b[i] = 2;
    }
    struct ptx_insn ia = mk(PO_SETP, PT_S32);
    ia.cmp = PC_LT;
    ia.boolop = PB_AND;
    struct ptx_alu_args args = {.mask = 0xFFFFFFFFu, .d = pc, .s = {a, b, pc, NULL}};
    REQUIRE(ptx_alu_exec(&ia, &args) == 0);
    for (int i = 0; i < W; i++)
        CHECK_EQ_U64(pc[i], (uint64_t)(i & 1));
}

/* every float compare against every interesting operand pair, vs a C model */
TEST(alu_setp_float_all_cmps)
{
    const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 1e-45f};
    const unsigned cmps[] = {PC_EQ, PC_NE, PC_LT, PC_LE, PC_GT, PC_GE, PC_EQU, PC_NEU,
                             PC_LTU, PC_LEU, PC_GTU, PC_GEU, PC_NUM, PC_NAN};
    for (int ty = 0; ty < 2; ty++) {
        for (size_t c = 0; c < sizeof cmps / sizeof cmps[0]; c++) {
            for (size_t i = 0; i < 8; i++) {
                for (size_t j = 0; j < 8; j++) {
                    float x = vals[i], y = vals[j];
                    bool un = isnan(x) || isnan(y), want;
                    switch (cmps[c]) {
                    case PC_EQ: want = !un && x == y; break;
                    case PC_NE: want = !un && x != y; break;
                    case PC_LT: want = !un && x < y; break;
                    case PC_LE: want = !un && x <= y; break;
                    case PC_GT: want = !un && x > y; break;
                    case PC_GE: want = !un && x >= y; break;
                    case PC_EQU: want = un || x == y; break;
                    case PC_NEU: want = un || x != y; break;
                    case PC_LTU: want = un || x < y; break;
                    case PC_LEU: want = un || x <= y; break;
                    case PC_GTU: want = un || x > y; break;
                    case PC_GEU: want = un || x >= y; break;
                    case PC_NUM: want = !un; break;
                    default: want = un; break;
                    }
                    struct ptx_insn in = mk(PO_SETP, ty ? PT_F64 : PT_F32);
                    in.cmp = (uint8_t)cmps[c];
                    uint64_t got = ty ? EV2(in, db((double)x), db((double)y)) : EV2(in, fb(x), fb(y));
                    if (got != (uint64_t)want)
                        T_FAIL_("ty %d cmp %u: %g vs %g -> %" PRIu64, ty, cmps[c], (double)x, (double)y, got);
                }
            }
        }
    }
    /* .ftz: a denormal equals zero */
    struct ptx_insn in = mk(PO_SETP, PT_F32);
    in.cmp = PC_EQ;
    CHECK_EQ_U64(EV2(in, 1, 0), 0);
    in.flags = PF_FTZ;
    CHECK_EQ_U64(EV2(in, 1, 0), 1);
}

TEST(alu_set_and_half_compares)
{
    struct ptx_insn in = mk(PO_SET, PT_S32);
    in.cmp = PC_LT;
    in.stype = PT_U32;
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(EV2(in, 0, 0), 0);
    in.stype = PT_F32;
    CHECK_EQ_U64(EV2(in, 0xFFFFFFFF, 0), 0x3F800000u);
    in = mk(PO_SET, PT_F32);
    in.cmp = PC_NEU;
    in.stype = PT_S32;
    CHECK_EQ_U64(EV2(in, 0x7FC00000, fb(1.0f)), 0xFFFFFFFFu);
    in.boolop = PB_AND;
    CHECK_EQ_U64(EV3(in, 0x7FC00000, fb(1.0f), 0), 0);
    /* f16 and f16x2 compares */
    in = mk(PO_SETP, PT_F16);
    in.cmp = PC_LT;
    CHECK_EQ_U64(EV2(in, 0x3C00, 0x4000), 1);    /* 1 < 2 */
    CHECK_EQ_U64(EV2(in, 0xBC00, 0x3C00), 1);    /* -1 < 1 */
    CHECK_EQ_U64(EV2(in, 0x7E00, 0x3C00), 0);    /* NaN */
    in = mk(PO_SETP, PT_F16X2);
    in.cmp = PC_GT;
    in.has_d2 = 1;
    uint64_t q;
    /* low halves: 2 > 1 true; high halves: 1 > 2 false */
    CHECK_EQ_U64(ev_(&in, 2, 0x3C004000, 0x40003C00, 0, 0, &q, __LINE__), 1);
    CHECK_EQ_U64(q, 0);
    in = mk(PO_SET, PT_F16X2);
    in.cmp = PC_GT;
    in.stype = PT_F16X2;
    CHECK_EQ_U64(EV2(in, 0x3C004000, 0x40003C00), 0x00003C00u);
    in = mk(PO_SETP, PT_BF16);
    in.cmp = PC_GE;
    CHECK_EQ_U64(EV2(in, 0x3F80, 0x3F80), 1);
}

/* ---- load-time checks ---------------------------------------------------------------------- */

TEST(alu_supported_rejects)
{
    struct ptx_insn in = mk(PO_MUL, PT_F32);
    in.flags = PF_WIDE;
    CHECK_REJECT(in); /* mul.wide.f32 */
    in = mk(PO_MUL, PT_S64);
    in.flags = PF_WIDE;
    CHECK_REJECT(in); /* no 128-bit results */
    in = mk(PO_DIV, PT_S32);
    in.rnd = PR_RN;
    CHECK_REJECT(in); /* div.rn.s32 */
    in = mk(PO_ADD, PT_U32);
    in.flags = PF_SAT;
    CHECK_REJECT(in);
    in = mk(PO_ADD, PT_F32);
    in.flags = PF_CC;
    CHECK_REJECT(in);
    in = mk(PO_ADD, PT_F32);
    in.rnd = PR_RNI;
    CHECK_REJECT(in);
    in = mk(PO_SETP, PT_S32);
    in.cmp = PC_LTU;
    CHECK_REJECT(in);
    in = mk(PO_SETP, PT_S32);
    CHECK_REJECT(in); /* no comparison */
    in = mk(PO_SETP, PT_B32);
    in.cmp = PC_LT;
    CHECK_REJECT(in);
    in = mk(PO_CVT, PT_S32);
    in.stype = PT_F32;
    CHECK_REJECT(in); /* float->int needs .rzi etc */
    in.rnd = PR_RN;
    CHECK_REJECT(in);
    in = mk(PO_CVT, PT_S32);
    in.stype = PT_S16;
    in.rnd = PR_RZ;
    CHECK_REJECT(in);
    in = mk(PO_CVT, PT_F32);
    in.stype = PT_F64;
    CHECK_REJECT(in); /* narrowing needs rounding */
    in = mk(PO_CVT, PT_PRED);
    in.stype = PT_S32;
    CHECK_REJECT(in);
    in = mk(PO_FNS, PT_B32);
    CHECK_REJECT(in);
    in = mk(PO_SHL, PT_F32);
    CHECK_REJECT(in);
    in = mk(PO_ABS, PT_U32);
    CHECK_REJECT(in);
    in = mk(PO_SIN, PT_F32);
    CHECK_REJECT(in); /* sin needs .approx */
    in = mk(PO_SIN, PT_F64);
    in.flags = PF_APPROX;
    CHECK_REJECT(in);
    in = mk(PO_TESTP, PT_F32);
    CHECK_REJECT(in);
    in = mk(PO_POPC, PT_U32);
    CHECK_REJECT(in);
    in = mk(PO_BFE, PT_B32);
    CHECK_REJECT(in);
    in = mk(PO_MAD, PT_U32);
    in.flags = PF_HI | PF_SAT;
    CHECK_REJECT(in);
    in = mk(PO_LD, PT_U32);
    CHECK_REJECT(in);
    in = mk(PO_ADD, PT_NONE);
    CHECK_REJECT(in);
    in = mk(PO_SLCT, PT_S32);
    in.stype = PT_U32;
    CHECK_REJECT(in);
    /* the reason names the instruction */
    char why[128];
    in = mk(PO_MUL, PT_F32);
    in.flags = PF_WIDE;
    REQUIRE(ptx_alu_supported(&in, why, sizeof why) == -1);
    CHECK(strstr(why, "mul") != NULL && strstr(why, "wide") != NULL);
    /* tiny buffers are fine */
    CHECK_EQ_INT(ptx_alu_supported(&in, why, 4), -1);
    CHECK_EQ_INT((int)strlen(why), 3);
    CHECK_EQ_INT(ptx_alu_supported(&in, NULL, 0), -1);
    /* ...and valid ones pass */
    in = mk(PO_MUL, PT_S32);
    in.flags = PF_WIDE;
    CHECK_EQ_INT(ptx_alu_supported(&in, why, sizeof why), 0);
    in = mk(PO_FMA, PT_F32);
    in.rnd = PR_RN;
    CHECK_EQ_INT(ptx_alu_supported(&in, why, sizeof why), 0);
    CHECK(ptx_alu_handles(PO_ADD) && ptx_alu_handles(PO_CVT) && ptx_alu_handles(PO_MOV));
    CHECK(!ptx_alu_handles(PO_LD) && !ptx_alu_handles(PO_SHFL) && !ptx_alu_handles(PO_CVTA));
}

TEST_MAIN()
