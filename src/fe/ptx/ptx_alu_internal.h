/*
 * ptx_alu_internal.h - helpers shared by the ptx_alu*.c files (not part of the
 * executor contract; include ptx_alu.h from outside).
 *
 * Layout of the ALU:
 *   ptx_alu.c        dispatch, load-time validation, mov/selp/setp/set/slct/logic
 *   ptx_alu_int.c    integer arithmetic and bit manipulation
 *   ptx_alu_float.c  f32/f64/f16/bf16 arithmetic, special functions, testp
 *   ptx_alu_cvt.c    cvt and the bit-exact narrowing/rounding used by f16/bf16
 *
 * Every executor switches once per warp instruction on (opcode, type, modifiers)
 * and then runs a lane loop from PTX_ALU_LANES: a plain 0..31 loop the compiler
 * can vectorise when all lanes are active, a set-bit walk otherwise.
 */
#ifndef WARPSIM_PTX_ALU_INTERNAL_H
#define WARPSIM_PTX_ALU_INTERNAL_H

#include "ptx_alu.h"

#include <string.h>

#define PTX_ALU_ALL 0xFFFFFFFFu

/* Run the statement(s) for each lane `i` set in `mask`.  Must not be nested
   (the loop variables would shadow each other). */
#define PTX_ALU_LANES(mask, ...)                                             \
    do {                                                                     \
        uint32_t lm_ = (mask);                                               \
        if (lm_ == PTX_ALU_ALL) {                                            \
            for (unsigned i = 0; i < PTX_WARP_SIZE; i++) {                   \
                __VA_ARGS__;                                                 \
            }                                                                \
        } else {                                                             \
            while (lm_) {                                                    \
                unsigned i = (unsigned)__builtin_ctz(lm_);                   \
                lm_ &= lm_ - 1u;                                             \
                __VA_ARGS__;                                                 \
            }                                                                \
        }                                                                    \
    } while (0)

/* dst[i] = expression of lane i, for side-effect-free expressions.  With all
   lanes active the expression is computed into a local array first, which the
   compiler knows cannot alias the sources, so the loop vectorises even at -O2,
   then copied to dst; otherwise the active lanes are walked (measured: a
   compute-all-and-blend variant was slower for partial masks).  A dst that
   aliases a source is fine either way: each lane reads its operands before its
   result lands. */
#define PTX_ALU_MAP(mask, dst, ...)                                          \
    do {                                                                     \
        uint64_t *md_ = (dst);                                               \
        uint32_t mm_ = (mask);                                               \
        if (mm_ == PTX_ALU_ALL) {                                            \
            uint64_t mt_[PTX_WARP_SIZE];                                     \
            for (unsigned i = 0; i < PTX_WARP_SIZE; i++)                     \
                mt_[i] = (__VA_ARGS__);                                      \
            memcpy(md_, mt_, sizeof mt_);                                    \
        } else {                                                             \
            while (mm_) {                                                    \
                unsigned i = (unsigned)__builtin_ctz(mm_);                   \
                mm_ &= mm_ - 1u;                                             \
                md_[i] = (__VA_ARGS__);                                      \
            }                                                                \
        }                                                                    \
    } while (0)

/* ---- type helpers (own copies so the ALU does not depend on the parser) --- */
static inline unsigned ptx_alu_tbits(unsigned t)
{
    switch (t) {
    case PT_B8: case PT_U8: case PT_S8: return 8;
    case PT_B16: case PT_U16: case PT_S16: case PT_F16: case PT_BF16: return 16;
    case PT_B32: case PT_U32: case PT_S32: case PT_F32: case PT_F16X2: return 32;
    case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 64;
    case PT_PRED: return 1;
    default: return 0;
    }
}
static inline bool ptx_alu_is_sint(unsigned t)
{
    return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64;
}
static inline bool ptx_alu_is_uint(unsigned t)
{
    return t == PT_U8 || t == PT_U16 || t == PT_U32 || t == PT_U64;
}
static inline bool ptx_alu_is_bits(unsigned t)
{
    return t == PT_B8 || t == PT_B16 || t == PT_B32 || t == PT_B64;
}
/* any integer-like type: bN, uN, sN */
static inline bool ptx_alu_is_intlike(unsigned t)
{
    return ptx_alu_is_sint(t) || ptx_alu_is_uint(t) || ptx_alu_is_bits(t);
}
static inline bool ptx_alu_is_flt(unsigned t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_F32 || t == PT_F64;
}

/* ---- bit helpers ---------------------------------------------------------- */
static inline uint64_t ptx_alu_wmask(unsigned bits)
{
    return bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
}
/* sign-extend the low `bits` (1..64) of v */
static inline int64_t ptx_alu_sext(uint64_t v, unsigned bits)
{
    unsigned sh = 64u - bits;
    return (int64_t)(v << sh) >> sh;
}
static inline float ptx_alu_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint64_t ptx_alu_b32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline double ptx_alu_f64(uint64_t v)
{
    double f;
    memcpy(&f, &v, sizeof f);
    return f;
}
static inline uint64_t ptx_alu_b64(double f)
{
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Canonical NaNs the GPU produces for arithmetic results (all-ones payload,
   positive); used everywhere so results do not depend on the host FPU. */
#define PTX_ALU_NAN32 0x7FFFFFFFu
#define PTX_ALU_NAN64 UINT64_C(0x7FFFFFFFFFFFFFFF)
#define PTX_ALU_NAN16 0x7FFFu

/* f32 denormal flush on bits (.ftz): subnormal -> zero of the same sign */
static inline uint32_t ptx_alu_ftz32(uint32_t u)
{
    return (u & 0x7F800000u) ? u : (u & 0x80000000u);
}
static inline uint64_t ptx_alu_ftz64(uint64_t u)
{
    return (u & UINT64_C(0x7FF0000000000000)) ? u : (u & UINT64_C(0x8000000000000000));
}
/* IEEE bits of a float result with NaN made canonical */
static inline uint64_t ptx_alu_res32(float f)
{
    return f != f ? PTX_ALU_NAN32 : ptx_alu_b32(f);
}
static inline uint64_t ptx_alu_res64(double f)
{
    return f != f ? PTX_ALU_NAN64 : ptx_alu_b64(f);
}

/* ---- small-float formats (ptx_alu_cvt.c) ---------------------------------- */
/* A binary floating-point format narrower than double: f16 (5, 10), bf16
   (8, 7), f32 (8, 23). */
struct ptx_alu_fmt {
    unsigned ebits, mbits;
};
#define PTX_ALU_FMT_F16 ((struct ptx_alu_fmt){5, 10})
#define PTX_ALU_FMT_BF16 ((struct ptx_alu_fmt){8, 7})
#define PTX_ALU_FMT_F32 ((struct ptx_alu_fmt){8, 23})

/* Exact value of an f16 (or bf16) bit pattern in the low 16 bits of h. */
float ptx_alu_h2f(uint64_t h, bool bf16);
/* Round x to format f with rounding mode rnd (PR_RN/RZ/RM/RP; PR_NONE = RN),
   handling subnormals, overflow and NaN (canonical).  Single rounding: exact
   for any double input. */
uint64_t ptx_alu_round_double(double x, struct ptx_alu_fmt f, unsigned rnd);
/* Same for an integer magnitude with sign: value = (neg ? -1 : 1) * m.
   f may also be the double format {11, 52}. */
uint64_t ptx_alu_round_int(bool neg, uint64_t m, struct ptx_alu_fmt f, unsigned rnd);
/* Adjust an RN double sum s (with exact error e, s + e = exact) so that
   rounding it again to a format of <= 51 significand bits is correct in every
   mode ("round to odd"). */
double ptx_alu_odd(double s, double e);
/* correctly rounded fma of floats in double arithmetic (host in round to
   nearest); ptx_alu_float.c uses it when the host has no FMA instruction */
float ptx_alu_fma32_rn(float a, float b, float c);
/* flush a subnormal f16/bf16 (16-bit) pattern to signed zero */
uint64_t ptx_alu_ftz_half(uint64_t h, struct ptx_alu_fmt f);

/* ---- per-file executors: return 0, or -1 when the combination is not
   implemented (nothing written then) ---------------------------------------- */
int ptx_alu_exec_int(const struct ptx_insn *in, const struct ptx_alu_args *a);
int ptx_alu_exec_float(const struct ptx_insn *in, const struct ptx_alu_args *a);
int ptx_alu_exec_cvt(const struct ptx_insn *in, const struct ptx_alu_args *a);

#endif
