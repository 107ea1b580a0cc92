/*
 * ptx_alu.c - entry points of the per-lane ALU (see ptx_alu.h): which opcodes
 * it owns, load-time validation with a reason, and dispatch to the integer,
 * float and cvt executors.  Also implements the small ops that are neither
 * integer nor float arithmetic: mov, selp, slct, setp/set, and/or/xor/not/
 * cnot/lop3.
 *
 * Conventions beyond ptx_ir.h that the parser must follow:
 *   slct.dtype.ctype: type = dtype, stype = ctype (s32 or f32);
 *   dp4a/dp2a.atype.btype: type = atype, stype = btype;
 *   setp.f16x2 p|q: p gets the low-half comparison, q the high half.
 */
#include "ptx_alu_internal.h"

#include <stdarg.h>
#include <stdio.h>

static const uint64_t alu_zero_lanes[PTX_WARP_SIZE];

static const char *const alu_op_names[PO_COUNT] = {
    [PO_INVALID] = "?",
#define PTX_X_NAME(e, s) [PO_##e] = s,
    PTX_OPCODES(PTX_X_NAME)
#undef PTX_X_NAME
};

static const char *const alu_type_names[PT_COUNT] = {
    [PT_NONE] = "none", [PT_B8] = "b8", [PT_B16] = "b16", [PT_B32] = "b32", [PT_B64] = "b64",
    [PT_U8] = "u8", [PT_U16] = "u16", [PT_U32] = "u32", [PT_U64] = "u64",
    [PT_S8] = "s8", [PT_S16] = "s16", [PT_S32] = "s32", [PT_S64] = "s64",
    [PT_F16] = "f16", [PT_F16X2] = "f16x2", [PT_BF16] = "bf16", [PT_F32] = "f32", [PT_F64] = "f64",
    [PT_PRED] = "pred",
};

static const char *alu_opname(unsigned op)
{
    return op < PO_COUNT && alu_op_names[op] ? alu_op_names[op] : "?";
}

static const char *alu_tname(unsigned t)
{
    return t < PT_COUNT && alu_type_names[t] ? alu_type_names[t] : "?";
}

bool ptx_alu_handles(enum ptx_opcode op)
{
    switch (op) {
    case PO_ADD: case PO_SUB: case PO_MUL: case PO_MAD: case PO_MUL24: case PO_MAD24:
    case PO_SAD: case PO_DIV: case PO_REM: case PO_ABS: case PO_NEG: case PO_MIN: case PO_MAX:
    case PO_POPC: case PO_CLZ: case PO_BFIND: case PO_FNS: case PO_BREV: case PO_BFE:
    case PO_BFI: case PO_PRMT: case PO_SHL: case PO_SHR: case PO_SHF: case PO_AND: case PO_OR:
    case PO_XOR: case PO_NOT: case PO_CNOT: case PO_LOP3: case PO_ADDC: case PO_SUBC:
    case PO_MADC: case PO_DP4A: case PO_DP2A: case PO_FMA: case PO_RCP: case PO_SQRT:
    case PO_RSQRT: case PO_SIN: case PO_COS: case PO_LG2: case PO_EX2: case PO_TANH:
    case PO_COPYSIGN: case PO_TESTP: case PO_SETP: case PO_SELP: case PO_SET: case PO_SLCT:
    case PO_CVT: case PO_MOV:
        return true;
    default:
        return false;
    }
}

/* number of source operands an instruction reads (s[0..n-1]) */
static unsigned alu_nsrc(const struct ptx_insn *in)
{
    switch (in->op) {
    case PO_MOV: case PO_ABS: case PO_NEG: case PO_POPC: case PO_CLZ: case PO_BFIND:
    case PO_BREV: case PO_NOT: case PO_CNOT: case PO_RCP: case PO_SQRT: case PO_RSQRT:
    case PO_SIN: case PO_COS: case PO_LG2: case PO_EX2: case PO_TANH: case PO_TESTP:
    case PO_FNS:
        return 1;
    case PO_CVT:
        return in->type == PT_F16X2 ? 2 : 1;
    case PO_SETP: case PO_SET:
        return in->boolop != PB_NONE ? 3 : 2;
    case PO_MAD: case PO_MAD24: case PO_SAD: case PO_FMA: case PO_MADC: case PO_BFE:
    case PO_PRMT: case PO_SHF: case PO_SELP: case PO_SLCT: case PO_DP4A: case PO_DP2A:
        return 3;
    case PO_BFI: case PO_LOP3:
        return 4;
    default:
        return 2;
    }
}

/* ---- mov / selp / slct / logic ---------------------------------------------------- */

static int alu_mov(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned bits = ptx_alu_tbits(in->type);
    uint64_t wm = ptx_alu_wmask(bits ? bits : 64u);
    const uint64_t *x = a->s[0];
    uint64_t *d = a->d;
    PTX_ALU_MAP(a->mask, d, x[i] & wm);
    return 0;
}

static int alu_selp(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned bits = ptx_alu_tbits(in->type);
    uint64_t wm = ptx_alu_wmask(bits ? bits : 64u);
    const uint64_t *x = a->s[0], *y = a->s[1], *c = a->s[2];
    uint64_t *d = a->d;
    /* branch-free select so the loop vectorises */
    PTX_ALU_MAP(a->mask, d, (y[i] ^ ((x[i] ^ y[i]) & ((uint64_t)0 - (c[i] & 1u)))) & wm);
    return 0;
}

/* slct d, a, b, c: d = c >= 0 ? a : b; c is s32 or f32 (-0.0 counts as >= 0,
   NaN selects b) */
static int alu_slct(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned bits = ptx_alu_tbits(in->type);
    uint64_t wm = ptx_alu_wmask(bits ? bits : 64u);
    const uint64_t *x = a->s[0], *y = a->s[1], *c = a->s[2];
    uint64_t *d = a->d;
    unsigned ct = in->stype != PT_NONE ? in->stype : PT_S32;
    if (ct == PT_F32) {
        bool ftz = (in->flags & PF_FTZ) != 0;
        PTX_ALU_LANES(a->mask, {
            uint32_t cb = (uint32_t)c[i];
            float cf = ptx_alu_f32(ftz ? ptx_alu_ftz32(cb) : cb);
            d[i] = (cf >= 0.0f ? x[i] : y[i]) & wm;
        });
    } else if (ct == PT_S32) {
        PTX_ALU_MAP(a->mask, d, (((uint32_t)c[i] & 0x80000000u) ? y[i] : x[i]) & wm);
    } else {
        return -1;
    }
    return 0;
}

static int alu_logic(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    unsigned bits = ptx_alu_tbits(in->type);
    uint64_t wm = ptx_alu_wmask(bits);
    const uint64_t *x = a->s[0], *y = a->s[1];
    uint64_t *d = a->d;
    if (bits == 0)
        return -1;
    switch (in->op) {
    case PO_AND: PTX_ALU_MAP(a->mask, d, (x[i] & y[i]) & wm); break;
    case PO_OR: PTX_ALU_MAP(a->mask, d, (x[i] | y[i]) & wm); break;
    case PO_XOR: PTX_ALU_MAP(a->mask, d, (x[i] ^ y[i]) & wm); break;
    case PO_NOT: PTX_ALU_MAP(a->mask, d, ~x[i] & wm); break;
    case PO_CNOT: PTX_ALU_MAP(a->mask, d, (x[i] & wm) == 0 ? 1u : 0u); break;
    case PO_LOP3: {
        /* immLut = F(0xF0, 0xCC, 0xAA): bit (a<<2 | b<<1 | c) of the table is the
           result for those input bits; build it as a sum of minterms */
        const uint64_t *c = a->s[2], *lutp = a->s[3];
        if (a->mask == 0)
            return 0;
        unsigned lut = (unsigned)(lutp[__builtin_ctz(a->mask)] & 0xFFu);
        PTX_ALU_LANES(a->mask, {
            uint64_t av = x[i], bv = y[i], cv = c[i], r = 0;
            for (unsigned k = 0; k < 8; k++) {
                uint64_t on = (uint64_t)0 - (uint64_t)((lut >> k) & 1u);
                uint64_t t = ((k & 4u) ? av : ~av) & ((k & 2u) ? bv : ~bv) & ((k & 1u) ? cv : ~cv);
                r |= on & t;
            }
            d[i] = r & wm;
        });
        break;
    }
    default:
        return -1;
    }
    return 0;
}

/* ---- setp / set ------------------------------------------------------------------- */

static bool alu_cmp_is_float_only(unsigned cmp)
{
    return cmp >= PC_EQU && cmp <= PC_NAN;
}

/* out[i] = (LX cmp LY) as 0/1 for the float comparisons: ordered ones are
   false with a NaN (ne too), the ...u forms true */
#define ALU_CMP_FLT(LX, LY)                                                              \
    do {                                                                                 \
        switch (cmp) {                                                                   \
        case PC_EQ: PTX_ALU_MAP(mask, out, (uint64_t)((LX) == (LY))); break;             \
        case PC_NE: PTX_ALU_MAP(mask, out, (uint64_t)((LX) < (LY) || (LX) > (LY))); break; \
        case PC_LT: PTX_ALU_MAP(mask, out, (uint64_t)((LX) < (LY))); break;              \
        case PC_LE: PTX_ALU_MAP(mask, out, (uint64_t)((LX) <= (LY))); break;             \
        case PC_GT: PTX_ALU_MAP(mask, out, (uint64_t)((LX) > (LY))); break;              \
        case PC_GE: PTX_ALU_MAP(mask, out, (uint64_t)((LX) >= (LY))); break;             \
        case PC_EQU: PTX_ALU_MAP(mask, out, (uint64_t)!((LX) < (LY) || (LX) > (LY))); break; \
        case PC_NEU: PTX_ALU_MAP(mask, out, (uint64_t)!((LX) == (LY))); break;           \
        case PC_LTU: PTX_ALU_MAP(mask, out, (uint64_t)!((LX) >= (LY))); break;           \
        case PC_LEU: PTX_ALU_MAP(mask, out, (uint64_t)!((LX) > (LY))); break;            \
        case PC_GTU: PTX_ALU_MAP(mask, out, (uint64_t)!((LX) <= (LY))); break;           \
        case PC_GEU: PTX_ALU_MAP(mask, out, (uint64_t)!((LX) < (LY))); break;            \
        case PC_NUM: PTX_ALU_MAP(mask, out, (uint64_t)((LX) == (LX) && (LY) == (LY))); break; \
        case PC_NAN: PTX_ALU_MAP(mask, out, (uint64_t)((LX) != (LX) || (LY) != (LY))); break; \
        default: return -1;                                                              \
        }                                                                                \
    } while (0)

/* lanes of a float operand (f32 with .ftz, f16, bf16 or one half of f16x2 at
   bit `shift`) as exact doubles */
static void alu_load_f(unsigned t, bool ftz, unsigned shift, uint32_t mask, const uint64_t *x, double *v)
{
    if (t == PT_F32) {
        PTX_ALU_LANES(mask, v[i] = (double)ptx_alu_f32(ftz ? ptx_alu_ftz32((uint32_t)x[i]) : x[i]));
        return;
    }
    bool bf = t == PT_BF16;
    struct ptx_alu_fmt f = bf ? PTX_ALU_FMT_BF16 : PTX_ALU_FMT_F16;
    PTX_ALU_LANES(mask, {
        uint64_t h = (x[i] >> shift) & 0xFFFFu;
        v[i] = (double)ptx_alu_h2f(ftz ? ptx_alu_ftz_half(h, f) : h, bf);
    });
}

/* out[i] = 0/1 result of comparing (one half of) the operands; out may be the
   destination (every lane reads its sources before its result is stored) */
static int alu_compare(const struct ptx_insn *in, const struct ptx_alu_args *a, unsigned shift, uint64_t *out)
{
    unsigned ty = in->type, cmp = in->cmp;
    uint32_t mask = a->mask;
    const uint64_t *x = a->s[0], *y = a->s[1];
    bool ftz = (in->flags & PF_FTZ) != 0;
    if (ty == PT_F32 && !ftz) {
        ALU_CMP_FLT(ptx_alu_f32(x[i]), ptx_alu_f32(y[i]));
        return 0;
    }
    if (ty == PT_F64) {
        ALU_CMP_FLT(ptx_alu_f64(x[i]), ptx_alu_f64(y[i]));
        return 0;
    }
    if (ptx_alu_is_flt(ty)) {
        double xv[PTX_WARP_SIZE], yv[PTX_WARP_SIZE];
        alu_load_f(ty, ftz, shift, mask, x, xv);
        alu_load_f(ty, ftz, shift, mask, y, yv);
        ALU_CMP_FLT(xv[i], yv[i]);
        return 0;
    }
    if (!ptx_alu_is_intlike(ty) || alu_cmp_is_float_only(cmp))
        return -1;
    /* signed order = unsigned order after flipping the sign bit; lo/ls/hi/hs
       are unsigned whatever the type */
    unsigned bits = ptx_alu_tbits(ty);
    uint64_t wm = ptx_alu_wmask(bits);
    bool uns = cmp == PC_LO || cmp == PC_LS || cmp == PC_HI || cmp == PC_HS;
    uint64_t flip = (ptx_alu_is_sint(ty) && !uns) ? (uint64_t)1 << (bits - 1u) : 0u;
#define LX ((x[i] & wm) ^ flip)
#define LY ((y[i] & wm) ^ flip)
    switch (cmp) {
    case PC_EQ: PTX_ALU_MAP(mask, out, (uint64_t)(LX == LY)); break;
    case PC_NE: PTX_ALU_MAP(mask, out, (uint64_t)(LX != LY)); break;
    case PC_LT: case PC_LO: PTX_ALU_MAP(mask, out, (uint64_t)(LX < LY)); break;
    case PC_LE: case PC_LS: PTX_ALU_MAP(mask, out, (uint64_t)(LX <= LY)); break;
    case PC_GT: case PC_HI: PTX_ALU_MAP(mask, out, (uint64_t)(LX > LY)); break;
    case PC_GE: case PC_HS: PTX_ALU_MAP(mask, out, (uint64_t)(LX >= LY)); break;
    default: return -1;
    }
#undef LX
#undef LY
    return 0;
}
#undef ALU_CMP_FLT

/* r = (t ^ neg) BOOL c */
static void alu_combine(unsigned boolop, uint64_t neg, uint32_t mask, const uint64_t *t, const uint64_t *c,
                        uint64_t *r)
{
    switch (boolop) {
    case PB_AND: PTX_ALU_MAP(mask, r, (t[i] ^ neg) & (c[i] & 1u)); break;
    case PB_OR: PTX_ALU_MAP(mask, r, (t[i] ^ neg) | (c[i] & 1u)); break;
    case PB_XOR: PTX_ALU_MAP(mask, r, (t[i] ^ neg) ^ (c[i] & 1u)); break;
    default: PTX_ALU_MAP(mask, r, t[i] ^ neg); break;
    }
}

/* p = (a cmp b) BOOL c, q = !(a cmp b) BOOL c; both from locals so that
   destinations aliasing sources or c cannot disturb each other */
static int alu_setp(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    uint64_t t[PTX_WARP_SIZE], r[PTX_WARP_SIZE], q[PTX_WARP_SIZE];
    uint32_t mask = a->mask;
    const uint64_t *c = a->s[2] ? a->s[2] : alu_zero_lanes;
    uint64_t *d = a->d, *d2 = a->d2;
    if (in->cmp == PC_NONE || in->cmp > PC_NAN)
        return -1;
    if (in->type == PT_F16X2) {
        /* setp.f16x2 p|q: p = low-half compare, q = high half, each BOOL c */
        if (alu_compare(in, a, 0, t) != 0 || alu_compare(in, a, 16, q) != 0)
            return -1;
        alu_combine(in->boolop, 0, mask, t, c, r);
        if (d2)
            alu_combine(in->boolop, 0, mask, q, c, q);
        PTX_ALU_MAP(mask, d, r[i]);
        if (d2)
            PTX_ALU_MAP(mask, d2, q[i]);
        return 0;
    }
    if (in->boolop == PB_NONE && !d2) /* the common case: straight into d */
        return alu_compare(in, a, 0, d);
    if (alu_compare(in, a, 0, t) != 0)
        return -1;
    alu_combine(in->boolop, 0, mask, t, c, r);
    if (d2)
        alu_combine(in->boolop, 1, mask, t, c, q);
    PTX_ALU_MAP(mask, d, r[i]);
    if (d2)
        PTX_ALU_MAP(mask, d2, q[i]);
    return 0;
}

/* set.cmp.dtype.ctype: true -> 0xFFFFFFFF (u32/s32) or 1.0f (f32); the parser
   gives the compare type in `type` and the destination type in `stype`. */
static int alu_set(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    uint64_t t[PTX_WARP_SIZE], r[PTX_WARP_SIZE], r2[PTX_WARP_SIZE];
    uint32_t mask = a->mask;
    const uint64_t *c = a->s[2] ? a->s[2] : alu_zero_lanes;
    uint64_t *d = a->d;
    unsigned dt = in->stype;
    if (in->cmp == PC_NONE || in->cmp > PC_NAN)
        return -1;
    if (in->type == PT_F16X2) {
        uint64_t one = dt == PT_F16X2 ? 0x3C00u : 0xFFFFu;
        if (dt != PT_F16X2 && dt != PT_U32 && dt != PT_S32)
            return -1;
        if (alu_compare(in, a, 0, t) != 0)
            return -1;
        alu_combine(in->boolop, 0, mask, t, c, r);
        alu_compare(in, a, 16, t);
        alu_combine(in->boolop, 0, mask, t, c, r2);
        PTX_ALU_MAP(mask, d, (r[i] ? one : 0u) | (r2[i] ? one << 16 : 0u));
        return 0;
    }
    uint64_t one;
    switch (dt) {
    case PT_U32: case PT_S32: case PT_B32: one = 0xFFFFFFFFu; break;
    case PT_U16: case PT_S16: case PT_B16: one = 0xFFFFu; break;
    case PT_F32: one = 0x3F800000u; break;
    case PT_F16: one = 0x3C00u; break;
    case PT_BF16: one = 0x3F80u; break;
    default: return -1;
    }
    if (alu_compare(in, a, 0, t) != 0)
        return -1;
    alu_combine(in->boolop, 0, mask, t, c, r);
    PTX_ALU_MAP(mask, d, r[i] ? one : 0u);
    return 0;
}

/* ---- execution --------------------------------------------------------------------- */

int ptx_alu_exec(const struct ptx_insn *in, const struct ptx_alu_args *a)
{
    uint64_t sink[PTX_WARP_SIZE];
    struct ptx_alu_args copy;
    unsigned ns = alu_nsrc(in);
    for (unsigned k = 0; k < ns; k++)
        if (!a->s[k])
            return -1;
    if (!a->d) {
        /* `_` destination: compute into scratch (carry-out may still matter) */
        copy = *a;
        copy.d = sink;
        a = &copy;
    }
    switch (in->op) {
    case PO_MOV: return alu_mov(in, a);
    case PO_SELP: return alu_selp(in, a);
    case PO_SLCT: return alu_slct(in, a);
    case PO_SETP: return alu_setp(in, a);
    case PO_SET: return alu_set(in, a);
    case PO_AND: case PO_OR: case PO_XOR: case PO_NOT: case PO_CNOT: case PO_LOP3:
        return alu_logic(in, a);
    case PO_CVT: return ptx_alu_exec_cvt(in, a);
    case PO_FNS: return -1;
    case PO_FMA: case PO_RCP: case PO_SQRT: case PO_RSQRT: case PO_SIN: case PO_COS:
    case PO_LG2: case PO_EX2: case PO_TANH: case PO_COPYSIGN: case PO_TESTP:
        return ptx_alu_exec_float(in, a);
    default:
        if (!ptx_alu_handles((enum ptx_opcode)in->op))
            return -1;
        return ptx_alu_is_flt(in->type) ? ptx_alu_exec_float(in, a) : ptx_alu_exec_int(in, a);
    }
}

/* ---- load-time validation ---------------------------------------------------------- */

#define TM(t) (1u << (t))
#define TS_INT (TM(PT_U16) | TM(PT_U32) | TM(PT_U64) | TM(PT_S16) | TM(PT_S32) | TM(PT_S64))
#define TS_SINT (TM(PT_S16) | TM(PT_S32) | TM(PT_S64))
#define TS_I3264 (TM(PT_U32) | TM(PT_U64) | TM(PT_S32) | TM(PT_S64))
#define TS_BITS (TM(PT_B16) | TM(PT_B32) | TM(PT_B64))
#define TS_B3264 (TM(PT_B32) | TM(PT_B64))
#define TS_F3264 (TM(PT_F32) | TM(PT_F64))
#define TS_HALF (TM(PT_F16) | TM(PT_F16X2) | TM(PT_BF16))
#define TS_FLT (TS_F3264 | TS_HALF)
#define TS_ALL16 (TS_INT | TS_BITS | TS_FLT)

struct alu_chk {
    char *buf;
    size_t n;
    const struct ptx_insn *in;
};

static int alu_fail(struct alu_chk *c, const char *fmt, ...)
{
    if (c->buf && c->n) {
        int k = snprintf(c->buf, c->n, "%s.%s: ", alu_opname(c->in->op), alu_tname(c->in->type));
        if (k >= 0 && (size_t)k < c->n) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(c->buf + k, c->n - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static bool alu_rnd_is_float(unsigned r) { return r >= PR_RN && r <= PR_RP; }
static bool alu_rnd_is_int(unsigned r) { return r >= PR_RNI && r <= PR_RPI; }

/* every flag that is not a modifier of ALU instructions is ignored by the check */
#define PF_ALU_ALL (PF_FTZ | PF_SAT | PF_APPROX | PF_FULL | PF_HI | PF_LO | PF_WIDE | PF_CC | \
                    PF_SHIFTAMT | PF_RELU | PF_NAN)

/* the modifier bits allowed for (op, type); any other ALU modifier is rejected */
static int alu_check_flags(struct alu_chk *c, uint32_t allowed)
{
    uint32_t extra = c->in->flags & PF_ALU_ALL & ~allowed;
    static const struct { uint32_t f; const char *name; } names[] = {
        {PF_FTZ, ".ftz"}, {PF_SAT, ".sat"}, {PF_APPROX, ".approx"}, {PF_FULL, ".full"},
        {PF_HI, ".hi"}, {PF_LO, ".lo"}, {PF_WIDE, ".wide"}, {PF_CC, ".cc"},
        {PF_SHIFTAMT, ".shiftamt"}, {PF_RELU, ".relu"}, {PF_NAN, ".NaN"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (extra & names[k].f)
            return alu_fail(c, "modifier %s is not allowed here", names[k].name);
    return 0;
}

static int alu_need_type(struct alu_chk *c, uint32_t set, const char *what)
{
    unsigned t = c->in->type;
    if (t >= 32 || !(set & TM(t)))
        return alu_fail(c, "type must be %s", what);
    return 0;
}

static int alu_no_rnd(struct alu_chk *c)
{
    if (c->in->rnd != PR_NONE)
        return alu_fail(c, "rounding modifier is not allowed on this instruction");
    return 0;
}

/* float arithmetic: rounding .rn/.rz/.rm/.rp only; half types only .rn */
static int alu_float_rnd(struct alu_chk *c)
{
    unsigned r = c->in->rnd, t = c->in->type;
    if (r == PR_NONE)
        return 0;
    if (!alu_rnd_is_float(r))
        return alu_fail(c, "integer rounding modifier on float arithmetic");
    if ((TS_HALF & TM(t)) && r != PR_RN)
        return alu_fail(c, "only .rn is supported for %s", alu_tname(t));
    return 0;
}

static int alu_check_arith(struct alu_chk *c)
{
    const struct ptx_insn *in = c->in;
    unsigned op = in->op, t = in->type;
    bool flt = t < 32 && (TS_FLT & TM(t));
    if (flt) {
        uint32_t ok = PF_FTZ;
        if (t != PT_F64)
            ok |= PF_SAT;
        if (alu_check_flags(c, ok) || alu_float_rnd(c))
            return -1;
        if (t == PT_F64 && (in->flags & PF_FTZ))
            return alu_fail(c, ".ftz is only for f32/f16");
        return 0;
    }
    if (alu_need_type(c, TS_INT, "an integer (u/s 16/32/64) or float type") || alu_no_rnd(c))
        return -1;
    uint32_t ok = 0;
    if (op == PO_ADD || op == PO_SUB) {
        ok = PF_SAT | PF_CC;
        if ((in->flags & PF_SAT) && t != PT_S32)
            return alu_fail(c, ".sat is only allowed with s32");
        if ((in->flags & PF_CC) && !(TS_I3264 & TM(t)))
            return alu_fail(c, ".cc needs a 32- or 64-bit integer type");
        if ((in->flags & PF_CC) && (in->flags & PF_SAT))
            return alu_fail(c, ".cc and .sat cannot be combined");
    }
    return alu_check_flags(c, ok);
}

static int alu_check_mul(struct alu_chk *c, bool mad)
{
    const struct ptx_insn *in = c->in;
    unsigned t = in->type;
    bool wide = (in->flags & PF_WIDE) != 0, hi = (in->flags & PF_HI) != 0;
    if (wide && !(t < 32 && (TM(t) & (TM(PT_U16) | TM(PT_U32) | TM(PT_S16) | TM(PT_S32)))))
        return alu_fail(c, "%s.wide requires a 16- or 32-bit integer type", alu_opname(in->op));
    if (t < 32 && (TS_FLT & TM(t))) {
        if (in->flags & (PF_HI | PF_LO | PF_WIDE | PF_CC))
            return alu_fail(c, ".hi/.lo/.wide/.cc are integer-only modifiers");
        return alu_check_arith(c);
    }
    if (alu_need_type(c, TS_INT, "an integer (u/s 16/32/64) or float type") || alu_no_rnd(c))
        return -1;
    if ((hi && wide) || (hi && (in->flags & PF_LO)) || (wide && (in->flags & PF_LO)))
        return alu_fail(c, "only one of .hi/.lo/.wide");
    uint32_t ok = PF_HI | PF_LO | PF_WIDE;
    if (mad) {
        ok |= PF_SAT | PF_CC;
        if ((in->flags & PF_SAT) && !(t == PT_S32 && hi))
            return alu_fail(c, ".sat is only allowed with mad.hi.s32");
        if ((in->flags & PF_CC) && (wide || !(TS_I3264 & TM(t))))
            return alu_fail(c, "mad.cc needs .lo/.hi and a 32- or 64-bit integer type");
    }
    return alu_check_flags(c, ok);
}

static int alu_check_cvt(struct alu_chk *c)
{
    const struct ptx_insn *in = c->in;
    unsigned dt = in->type, st = in->stype, r = in->rnd;
    uint32_t ints = TS_INT | TS_BITS | TM(PT_U8) | TM(PT_S8) | TM(PT_B8);
    uint32_t flts = TM(PT_F16) | TM(PT_BF16) | TS_F3264;
    if (dt == PT_F16X2 && st == PT_F32) {
        if (r != PR_RN)
            return alu_fail(c, "cvt.f16x2.f32 needs .rn");
        return alu_check_flags(c, PF_RELU | PF_SAT);
    }
    if (dt >= 32 || st >= 32 || !((ints | flts) & TM(dt)) || !((ints | flts) & TM(st)))
        return alu_fail(c, "unsupported conversion %s <- %s", alu_tname(dt), alu_tname(st));
    bool di = (ints & TM(dt)) != 0, si = (ints & TM(st)) != 0;
    if (di && si) {
        if (r != PR_NONE)
            return alu_fail(c, "rounding modifier on an integer-to-integer cvt");
        return alu_check_flags(c, PF_SAT);
    }
    if (di) {
        if (!alu_rnd_is_int(r))
            return alu_fail(c, "float-to-integer cvt needs .rni/.rzi/.rmi/.rpi");
        return alu_check_flags(c, PF_SAT | PF_FTZ);
    }
    if (si) {
        if (r != PR_NONE && !alu_rnd_is_float(r))
            return alu_fail(c, "integer-to-float cvt takes .rn/.rz/.rm/.rp");
        return alu_check_flags(c, PF_SAT | PF_FTZ);
    }
    unsigned db = ptx_alu_tbits(dt), sb = ptx_alu_tbits(st);
    if (alu_rnd_is_int(r) && db != sb)
        return alu_fail(c, "integer rounding in a float cvt needs equal sizes");
    if (db < sb && r == PR_NONE)
        return alu_fail(c, "narrowing float cvt needs a rounding modifier");
    if (db > sb && r != PR_NONE)
        return alu_fail(c, "widening float cvt takes no rounding modifier");
    if (r != PR_NONE && !alu_rnd_is_float(r) && !alu_rnd_is_int(r))
        return alu_fail(c, "bad rounding modifier");
    return alu_check_flags(c, PF_SAT | PF_FTZ | PF_RELU);
}

static int alu_check_cmp(struct alu_chk *c)
{
    const struct ptx_insn *in = c->in;
    unsigned t = in->type, cmp = in->cmp;
    if (cmp == PC_NONE || cmp > PC_NAN)
        return alu_fail(c, "missing comparison operator");
    if (alu_no_rnd(c) || alu_need_type(c, TS_INT | TS_BITS | TS_FLT, "an integer, bit or float type"))
        return -1;
    if ((TS_BITS & TM(t)) && cmp != PC_EQ && cmp != PC_NE)
        return alu_fail(c, "only eq/ne compare bit types");
    if (!(TS_FLT & TM(t)) && alu_cmp_is_float_only(cmp))
        return alu_fail(c, "unordered comparisons are for float types");
    if ((TS_FLT & TM(t)) && cmp >= PC_LO && cmp <= PC_HS)
        return alu_fail(c, "lo/ls/hi/hs compare unsigned integers");
    if (in->op == PO_SETP && t == PT_F16X2 && !in->has_d2)
        return alu_fail(c, "setp.f16x2 needs two destination predicates p|q");
    if ((in->flags & PF_FTZ) && !(t == PT_F32 || t == PT_F16 || t == PT_F16X2))
        return alu_fail(c, ".ftz is only for f32/f16 compares");
    if (in->op == PO_SET) {
        unsigned dt = in->stype;
        uint32_t ok = TM(PT_U32) | TM(PT_S32) | TM(PT_B32) | TM(PT_F32) | TM(PT_U16) |
                      TM(PT_S16) | TM(PT_B16) | TM(PT_F16) | TM(PT_BF16);
        if (t == PT_F16X2)
            ok = TM(PT_U32) | TM(PT_S32) | TM(PT_F16X2);
        if (dt >= 32 || !(ok & TM(dt)))
            return alu_fail(c, "bad set destination type %s", alu_tname(dt));
    }
    return alu_check_flags(c, PF_FTZ);
}

static int alu_check(struct alu_chk *c)
{
    const struct ptx_insn *in = c->in;
    unsigned op = in->op, t = in->type;
    bool approx = (in->flags & PF_APPROX) != 0;
    switch (op) {
    case PO_FNS:
        return alu_fail(c, "fns is not supported");
    case PO_ADD: case PO_SUB:
        return alu_check_arith(c);
    case PO_MUL: return alu_check_mul(c, false);
    case PO_MAD: return alu_check_mul(c, true);
    case PO_MADC:
        if (alu_need_type(c, TS_I3264, "u32/s32/u64/s64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, PF_HI | PF_LO | PF_CC);
    case PO_ADDC: case PO_SUBC:
        if (alu_need_type(c, TS_I3264, "u32/s32/u64/s64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, PF_CC);
    case PO_MUL24: case PO_MAD24:
        if (alu_need_type(c, TM(PT_U32) | TM(PT_S32), "u32 or s32") || alu_no_rnd(c))
            return -1;
        if ((in->flags & PF_SAT) && !(op == PO_MAD24 && t == PT_S32 && (in->flags & PF_HI)))
            return alu_fail(c, ".sat is only allowed with mad24.hi.s32");
        return alu_check_flags(c, PF_HI | PF_LO | PF_SAT);
    case PO_SAD: case PO_REM:
        if (alu_need_type(c, TS_INT, "an integer type (u/s 16/32/64)") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_DIV:
        if (t < 32 && (TS_INT & TM(t))) {
            if (in->rnd != PR_NONE)
                return alu_fail(c, "div.%s takes no rounding modifier (integer division)", alu_tname(t));
            return alu_check_flags(c, 0);
        }
        if (t == PT_F32) {
            if (alu_float_rnd(c) || alu_check_flags(c, PF_FTZ | PF_APPROX | PF_FULL))
                return -1;
            if ((approx || (in->flags & PF_FULL)) && in->rnd != PR_NONE)
                return alu_fail(c, ".approx/.full exclude a rounding modifier");
            return 0;
        }
        if (t == PT_F64) {
            if (alu_float_rnd(c) || alu_check_flags(c, 0))
                return -1;
            return 0;
        }
        return alu_fail(c, "type must be an integer type, f32 or f64");
    case PO_ABS: case PO_NEG:
        if (alu_need_type(c, TS_SINT | TS_FLT, "a signed integer or float type") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, (TS_FLT & TM(t)) && t != PT_F64 ? PF_FTZ : 0);
    case PO_MIN: case PO_MAX:
        if (alu_need_type(c, TS_INT | TS_FLT, "an integer or float type") || alu_no_rnd(c))
            return -1;
        if ((in->flags & PF_RELU) && !(TS_SINT & TM(t)))
            return alu_fail(c, ".relu needs a signed integer type");
        if (TS_FLT & TM(t))
            return alu_check_flags(c, t == PT_F64 ? 0 : (PF_FTZ | PF_NAN));
        return alu_check_flags(c, PF_RELU);
    case PO_POPC: case PO_CLZ: case PO_BREV:
        if (alu_need_type(c, TS_B3264, "b32 or b64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_BFIND:
        if (alu_need_type(c, TS_I3264, "u32/s32/u64/s64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, PF_SHIFTAMT);
    case PO_BFE:
        if (alu_need_type(c, TS_I3264, "u32/s32/u64/s64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_BFI:
        if (alu_need_type(c, TS_B3264, "b32 or b64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_PRMT:
        if (alu_need_type(c, TM(PT_B32), "b32") || alu_no_rnd(c))
            return -1;
        if (in->subop > PPM_RC16)
            return alu_fail(c, "bad prmt mode");
        return alu_check_flags(c, 0);
    case PO_SHF:
        if (alu_need_type(c, TM(PT_B32), "b32") || alu_no_rnd(c))
            return -1;
        if (in->subop > PSF_R_CLAMP)
            return alu_fail(c, "bad shf mode");
        return alu_check_flags(c, 0);
    case PO_SHL:
        if (alu_need_type(c, TS_BITS, "b16/b32/b64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_SHR:
        if (alu_need_type(c, TS_BITS | TS_INT, "a 16/32/64-bit integer or bit type") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_AND: case PO_OR: case PO_XOR: case PO_NOT:
        if (alu_need_type(c, TS_BITS | TM(PT_PRED), "pred or b16/b32/b64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_CNOT:
        if (alu_need_type(c, TS_BITS, "b16/b32/b64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_LOP3:
        if (alu_need_type(c, TM(PT_B32), "b32") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_DP4A: case PO_DP2A: {
        unsigned st = in->stype == PT_NONE ? t : in->stype;
        if (alu_need_type(c, TM(PT_U32) | TM(PT_S32), "u32 or s32") || alu_no_rnd(c))
            return -1;
        if (st != PT_U32 && st != PT_S32)
            return alu_fail(c, "second type must be u32 or s32");
        return alu_check_flags(c, op == PO_DP2A ? (PF_HI | PF_LO) : 0);
    }
    case PO_FMA:
        if (alu_need_type(c, TS_FLT, "a float type"))
            return -1;
        return alu_check_arith(c);
    case PO_RCP: case PO_SQRT:
        if (alu_need_type(c, TS_F3264, "f32 or f64") || alu_float_rnd(c))
            return -1;
        if (approx && in->rnd != PR_NONE)
            return alu_fail(c, ".approx excludes a rounding modifier");
        if (t == PT_F64 && approx && op == PO_SQRT)
            return alu_fail(c, "sqrt.approx is f32 only");
        if (t == PT_F64 && (in->flags & PF_FTZ) && !approx)
            return alu_fail(c, ".ftz with f64 needs .approx");
        return alu_check_flags(c, PF_FTZ | PF_APPROX);
    case PO_RSQRT:
        if (alu_need_type(c, TS_F3264, "f32 or f64") || alu_no_rnd(c))
            return -1;
        if (!approx)
            return alu_fail(c, "rsqrt needs .approx");
        return alu_check_flags(c, PF_FTZ | PF_APPROX);
    case PO_SIN: case PO_COS: case PO_LG2: case PO_EX2: case PO_TANH: {
        uint32_t ok = TM(PT_F32);
        if (op == PO_EX2 || op == PO_TANH)
            ok |= TS_HALF;
        if (alu_need_type(c, ok, op == PO_EX2 || op == PO_TANH ? "f32, f16, f16x2 or bf16" : "f32") ||
            alu_no_rnd(c))
            return -1;
        if (!approx)
            return alu_fail(c, "%s needs .approx", alu_opname(op));
        return alu_check_flags(c, PF_FTZ | PF_APPROX);
    }
    case PO_COPYSIGN:
        if (alu_need_type(c, TS_F3264, "f32 or f64") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_TESTP:
        if (alu_need_type(c, TS_F3264, "f32 or f64") || alu_no_rnd(c))
            return -1;
        if (in->subop < PTP_FINITE || in->subop > PTP_SUBNORMAL)
            return alu_fail(c, "missing testp operation");
        return alu_check_flags(c, 0);
    case PO_SETP: case PO_SET:
        return alu_check_cmp(c);
    case PO_SELP:
        if (alu_need_type(c, TS_ALL16, "a 16/32/64-bit type") || alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_SLCT:
        if (alu_need_type(c, TS_ALL16, "a 16/32/64-bit type") || alu_no_rnd(c))
            return -1;
        if (in->stype != PT_S32 && in->stype != PT_F32)
            return alu_fail(c, "slct selector type must be s32 or f32");
        return alu_check_flags(c, in->stype == PT_F32 ? PF_FTZ : 0);
    case PO_MOV:
        if (t == PT_NONE || t >= PT_COUNT)
            return alu_fail(c, "missing type");
        if (alu_no_rnd(c))
            return -1;
        return alu_check_flags(c, 0);
    case PO_CVT:
        return alu_check_cvt(c);
    default:
        return alu_fail(c, "not an ALU instruction");
    }
}

int ptx_alu_supported(const struct ptx_insn *in, char *buf, size_t n)
{
    struct alu_chk c = {buf, n, in};
    if (buf && n)
        buf[0] = '\0';
    if (!ptx_alu_handles((enum ptx_opcode)in->op))
        return alu_fail(&c, "not an ALU instruction");
    if (alu_check(&c) != 0)
        return -1;
    /* the executor must agree: run it with no lanes active */
    uint64_t scratch[3][PTX_WARP_SIZE];
    struct ptx_alu_args a = {
        .mask = 0, .d = scratch[0], .d2 = in->has_d2 ? scratch[1] : NULL,
        .s = {alu_zero_lanes, alu_zero_lanes, alu_zero_lanes, alu_zero_lanes},
        .cc = scratch[2],
    };
    if (ptx_alu_exec(in, &a) != 0)
        return alu_fail(&c, "modifier combination is not implemented");
    return 0;
}
