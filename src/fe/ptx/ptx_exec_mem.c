/*
 * ptx_exec_mem.c - memory instructions of the executor: ld/ldu/st in every
 * space (generic resolved per lane), atom/red, prefetch, tex, suld/sust, cvta and
 * isspacep, with the memory checker.
 *
 * Every access is resolved and checked for all active lanes before anything
 * is read or written, so a faulting instruction has no effect; the first
 * faulting lane (in lane order) is the one reported.
 */
#include "ptx_exec_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum access_kind { ACC_READ = 0, ACC_WRITE, ACC_ATOMIC };
enum fault_why { FW_NONE = 0, FW_BOUNDS, FW_MISALIGNED, FW_READONLY, FW_NOSPACE };

struct fault {
    uint8_t space;       /* resolved space */
    uint8_t why;
    uint32_t lane;
    uint64_t addr;       /* address as the instruction computed it */
    uint64_t off;        /* offset in the resolved space */
    uint64_t limit;      /* size of the window, for shared/local/const/param */
};

/* ---- address resolution ----------------------------------------------------------- */

/* The space an ld/st/atom really addresses: ld.param reads the kernel's
   buffer or the thread's param frame depending on the symbol (or, for a
   register address, on whether we are in the kernel). */
static enum ptx_space eff_space(const struct ptx_warp *w, const struct ptx_frame *fr, const struct ptx_insn *in,
                                const struct ptx_opnd *a)
{
    enum ptx_space sp = (enum ptx_space)in->space;
    if (sp == PS_PARAM || sp == PS_PARAM_FUNC) {
        int32_t sym = a->kind == POK_ADDR || a->kind == POK_SYM ? a->sym : -1;
        if (sym >= 0) {
            uint8_t ss = w->g->mod->syms[sym].space;
            if (ss == PS_PARAM || ss == PS_PARAM_FUNC)
                return (enum ptx_space)ss;
        }
        return fr->f->is_entry ? PS_PARAM : PS_PARAM_FUNC;
    }
    return sp;
}

/* Fill w->addr for the lanes of m from an address operand ([reg+sym+imm]). */
static int addr_lanes(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_opnd *a, enum ptx_space sp,
                      uint32_t m)
{
    uint64_t base = (uint64_t)a->imm;
    if (a->kind != POK_ADDR && a->kind != POK_SYM && a->kind != POK_REG && a->kind != POK_IMM)
        return -1;
    if (a->kind == POK_IMM) {
        FOR_LANES(m, l) w->addr[l] = base;
        return 0;
    }
    if (a->sym >= 0 && a->kind != POK_REG)
        base += exec_sym_addr(w, fr, a->sym, sp == PS_NONE);
    int32_t reg = a->reg;
    if (reg >= 0) {
        const uint64_t *r = fr->regs + (size_t)reg * PTX_WARP_SIZE;
        uint64_t add = a->kind == POK_REG ? 0 : base;
        /* a 32-bit address register ([%r5+-4] into shared memory) computes in 32 bits */
        uint64_t am = exec_reg_bits(fr, reg) <= 32 ? 0xffffffffull : ~0ull;
        FOR_LANES(m, l) w->addr[l] = (r[l] + add) & am;
    } else {
        FOR_LANES(m, l) w->addr[l] = base;
    }
    return 0;
}

/* The window of a non-global space for lane l: its host base and size.  false for a space
   that has none (global memory is looked up by address; an unsupported space). */
static bool space_window(const struct ptx_warp *w, enum ptx_space sp, uint32_t lane, uint8_t **base,
                         uint64_t *limit)
{
    const struct ptx_grid *g = w->g;
    switch (sp) {
    case PS_SHARED:
        *limit = w->cta->smem_size;
        *base = w->cta->smem;
        return true;
    case PS_LOCAL:
        *limit = w->local_top;
        *base = w->local + lane * w->local_stride;
        return true;
    case PS_CONST:
        *limit = g->cbank_size;
        *base = (uint8_t *)(uintptr_t)g->cbank;   /* written only after the read-only check in resolve */
        return true;
    case PS_PARAM:
        *limit = g->param_bytes;
        *base = (uint8_t *)(uintptr_t)g->params;
        return true;
    case PS_PARAM_FUNC:
        *limit = w->param_top;
        *base = w->pstack + lane * w->param_stride;
        return true;
    default:
        return false;
    }
}

/* Host pointer for lane l's access of `size` bytes at addr in space sp. */
static uint8_t *resolve(struct ptx_warp *w, enum ptx_space sp, uint64_t addr, uint32_t size, int kind,
                        uint32_t lane, struct fault *f)
{
    uint64_t off = addr;
    f->addr = addr;
    f->lane = lane;
    f->why = FW_NONE;
    if (sp == PS_NONE)
        sp = ptx_mem_generic_space(addr, &off);
    f->space = (uint8_t)sp;
    f->off = off;
    if (addr & (uint64_t)(size - 1)) {
        f->why = FW_MISALIGNED;
        return NULL;
    }
    if (sp == PS_GLOBAL) {
        uint8_t *p = ptx_mem_ptr(w->g->mem, off, size);
        if (!p)
            f->why = FW_BOUNDS;
        return p;
    }
    uint64_t limit;
    uint8_t *base;
    if (!space_window(w, sp, lane, &base, &limit)) {
        f->why = FW_NOSPACE;
        return NULL;
    }
    f->limit = limit;
    if (off > limit || size > limit - off) {
        f->why = FW_BOUNDS;
        return NULL;
    }
    if (kind != ACC_READ && (sp == PS_CONST || sp == PS_PARAM)) {
        f->why = FW_READONLY;
        return NULL;
    }
    return base + off;
}

static const char *space_label(uint8_t sp)
{
    switch (sp) {
    case PS_GLOBAL: return "__global__";
    case PS_SHARED: return "__shared__";
    case PS_LOCAL: return "__local__";
    case PS_CONST: return "__constant__";
    case PS_PARAM: case PS_PARAM_FUNC: return "__param__";
    default: return "__generic__";
    }
}

static const char *space_what(uint8_t sp)
{
    switch (sp) {
    case PS_SHARED: return "the block's shared memory";
    case PS_LOCAL: return "the thread's local memory";
    case PS_CONST: return "the module's constant memory";
    case PS_PARAM: return "the kernel's parameters";
    case PS_PARAM_FUNC: return "the thread's parameter frame";
    default: return "the space";
    }
}

static int report(struct ptx_warp *w, const struct ptx_insn *in, const struct fault *f, uint32_t size, int kind)
{
    static const char *const kinds[] = {"read", "write", "atomic"};
    char what[160], detail[1024];
    const char *pre = "=========     ";
    snprintf(what, sizeof what, "Invalid %s %s of size %u bytes", space_label(f->space), kinds[kind], size);
    switch (f->why) {
    case FW_MISALIGNED:
        snprintf(detail, sizeof detail, "%sAddress 0x%" PRIx64 " is misaligned", pre, f->addr);
        break;
    case FW_READONLY:
        snprintf(detail, sizeof detail, "%sAddress 0x%" PRIx64 " is in read-only %s", pre, f->addr,
                 space_what(f->space));
        break;
    case FW_NOSPACE:
        snprintf(detail, sizeof detail, "%sAddress 0x%" PRIx64 " is in an unsupported state space", pre,
                 f->addr);
        break;
    default:
        if (f->space == PS_GLOBAL) {
            ptx_mem_describe(w->g->mem, f->off, pre, detail, sizeof detail);
        } else {
            char where[64] = "";
            if (f->addr != f->off)
                snprintf(where, sizeof where, " (offset 0x%" PRIx64 ")", f->off);
            uint64_t past = f->off >= f->limit ? f->off - f->limit : 0;
            snprintf(detail, sizeof detail,
                     "%sAddress 0x%" PRIx64 "%s is out of bounds\n"
                     "%sand is %" PRIu64 " bytes after the end of %s (%" PRIu64 " bytes)",
                     pre, f->addr, where, pre, past, space_what(f->space), f->limit);
        }
        break;
    }
    return exec_fail(w, in, (int)f->lane, PTX_EXEC_ILLEGAL_ADDRESS, what, detail);
}

/* Resolve every lane of m into w->hp; report the first bad lane. */
static int resolve_all(struct ptx_warp *w, const struct ptx_insn *in, enum ptx_space sp, uint32_t m,
                       uint32_t size, int kind, uint8_t *space_out)
{
    struct fault f;
    bool first = true;
    if (sp == PS_GLOBAL || sp == PS_NONE) {
        /* fast path: every lane aligned and inside one allocation (the usual
           coalesced access) needs one lookup for the whole warp; generic
           addresses qualify when all are above the windows, i.e. global */
        uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
        FOR_LANES(m, l) {
            uint64_t a = w->addr[l];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            bits |= a;
        }
        uint8_t *base;
        bool global = sp == PS_GLOBAL || lo >= PTX_GLOBAL_BASE;
        if (global && !(bits & (uint64_t)(size - 1)) && hi - lo < (1ull << 40) &&
            (base = ptx_mem_ptr(w->g->mem, lo, hi - lo + size)) != NULL) {
            FOR_LANES(m, l) w->hp[l] = base + (w->addr[l] - lo);
            *space_out = PS_GLOBAL;
            return PTX_WARP_READY;
        }
    }
    if ((sp == PS_SHARED || ((sp == PS_PARAM || sp == PS_CONST) && kind == ACC_READ)) && m) {
        /* fast path: one window for every lane (shared memory, the kernel's parameters, constant
           memory), every lane aligned and inside it: one bounds check for the warp */
        uint64_t hi = 0, bits = 0;
        FOR_LANES(m, l) {
            uint64_t a = w->addr[l];
            hi = a > hi ? a : hi;
            bits |= a;
        }
        uint64_t limit;
        uint8_t *base;
        if (space_window(w, sp, 0, &base, &limit) && !(bits & (uint64_t)(size - 1)) && size <= limit &&
            hi <= limit - size) {
            FOR_LANES(m, l) w->hp[l] = base + w->addr[l];
            *space_out = (uint8_t)sp;
            return PTX_WARP_READY;
        }
    }
    FOR_LANES(m, l) {
        uint8_t *p = resolve(w, sp, w->addr[l], size, kind, l, &f);
        if (!p)
            return report(w, in, &f, size, kind);
        w->hp[l] = p;
        if (first) {
            *space_out = f.space;
            first = false;
        }
    }
    return PTX_WARP_READY;
}

static uint8_t wi_space(uint8_t sp)
{
    switch (sp) {
    case PS_GLOBAL: return WS_SPACE_GLOBAL;
    case PS_SHARED: return WS_SPACE_SHARED;
    case PS_LOCAL: return WS_SPACE_LOCAL;
    case PS_CONST: return WS_SPACE_CONST;
    case PS_PARAM: case PS_PARAM_FUNC: return WS_SPACE_PARAM;
    default: return WS_SPACE_NONE;
    }
}

static void wi_mem(struct warp_inst *wi, const struct ptx_warp *w, uint32_t m, uint8_t space, uint32_t size,
                   int write)
{
    if (!wi)
        return;
    wi->space = wi_space(space);
    wi->access_size = (uint8_t)(size > 255 ? 255 : size);
    wi->is_write = (uint8_t)write;
    FOR_LANES(m, l) wi->addr[l] = w->addr[l];
}

static inline uint64_t load_le(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline void store_le(uint8_t *p, uint64_t v, unsigned n)
{
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static inline uint64_t sext(uint64_t v, unsigned from_bits)
{
    uint64_t sign = 1ull << (from_bits - 1);
    return (v ^ sign) - sign;
}

/* element bytes of a memory instruction's type (b8 = 1 ... b64 = 8) */
static unsigned elem_bytes(const struct ptx_insn *in)
{
    unsigned b = ptx_type_bits((enum ptx_type)in->type);
    return b >= 8 ? b / 8 : (b ? 1 : 0);
}

/* ---- ld / st ---------------------------------------------------------------------- */

static void load_into(struct ptx_frame *fr, int32_t reg, const struct ptx_warp *w, uint32_t m, unsigned esz,
                      unsigned k, bool is_signed)
{
    uint64_t *d = fr->regs + (size_t)reg * PTX_WARP_SIZE;
    unsigned rb = exec_reg_bits(fr, reg);
    uint64_t rm = exec_type_mask(rb);
    bool ext = is_signed && esz * 8 < rb;
    FOR_LANES(m, l) {
        uint64_t v = load_le(w->hp[l] + k * esz, esz);
        if (ext)
            v = sext(v, esz * 8);
        d[l] = v & rm;
    }
}

int exec_ld(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi)
{
    const struct ptx_opnd *d = &in->o[0], *a = &in->o[1];
    unsigned esz = elem_bytes(in);
    unsigned vec = in->vec > 1 ? in->vec : 1;
    if (esz == 0 || esz > 8 || in->nopnd < 2)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported ld form", NULL);
    uint32_t size = esz * vec;
    enum ptx_space sp = eff_space(w, fr, in, a);
    if (addr_lanes(w, fr, a, sp, m))
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported ld address operand", NULL);
    uint8_t rsp = 0;
    int st = resolve_all(w, in, sp, m, size, ACC_READ, &rsp);
    if (st != PTX_WARP_READY)
        return st;
    wi_mem(wi, w, m, rsp, size, 0);
    bool sg = ptx_type_is_signed((enum ptx_type)in->type);
    if (d->kind == POK_REG) {
        load_into(fr, d->reg, w, m, esz, 0, sg);
    } else if (d->kind == POK_VEC) {
        for (unsigned k = 0; k < d->nvec && k < vec; k++)
            if (d->vregs[k] >= 0)
                load_into(fr, d->vregs[k], w, m, esz, k, sg);
    }
    return PTX_WARP_READY;
}

int exec_st(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi)
{
    const struct ptx_opnd *a = &in->o[0], *s = &in->o[1];
    unsigned esz = elem_bytes(in);
    unsigned vec = in->vec > 1 ? in->vec : 1;
    if (esz == 0 || esz > 8 || in->nopnd < 2)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported st form", NULL);
    uint32_t size = esz * vec;
    enum ptx_space sp = eff_space(w, fr, in, a);
    if (addr_lanes(w, fr, a, sp, m))
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported st address operand", NULL);
    /* the values first (they may be materialised into scratch) */
    const uint64_t *src[PTX_MAX_VEC] = {NULL, NULL, NULL, NULL};
    if (s->kind == POK_VEC) {
        for (unsigned k = 0; k < s->nvec && k < vec; k++)
            src[k] = s->vregs[k] >= 0 ? fr->regs + (size_t)s->vregs[k] * PTX_WARP_SIZE
                   : s->vimm && s->vimm[k] ? s->vimm[k] : w->g->bc_zero;   /* immediate element, or `_` = 0 */
    } else {
        src[0] = exec_src(w, fr, s, 0);
    }
    for (unsigned k = 0; k < vec; k++)
        if (!src[k])
            return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported st value operand", NULL);
    uint8_t rsp = 0;
    int st = resolve_all(w, in, sp, m, size, ACC_WRITE, &rsp);
    if (st != PTX_WARP_READY)
        return st;
    wi_mem(wi, w, m, rsp, size, 1);
    for (unsigned k = 0; k < vec; k++) {
        const uint64_t *v = src[k];
        FOR_LANES(m, l) store_le(w->hp[l] + k * esz, v[l], esz);
    }
    return PTX_WARP_READY;
}

int exec_prefetch(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
                  struct warp_inst *wi)
{
    /* a prefetch never faults on hardware: compute the addresses for the
       timing model and touch nothing */
    enum ptx_space sp = eff_space(w, fr, in, &in->o[0]);
    if (in->nopnd < 1 || addr_lanes(w, fr, &in->o[0], sp, m))
        return PTX_WARP_READY;
    if (wi) {
        uint64_t off;
        enum ptx_space rs = sp == PS_NONE ? ptx_mem_generic_space(w->addr[__builtin_ctz(m)], &off) : sp;
        wi_mem(wi, w, m, (uint8_t)rs, 0, 0);
    }
    return PTX_WARP_READY;
}

/* ---- atomics -------------------------------------------------------------------------- */

static float f32_of(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static double f64_of(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static uint64_t bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* atom.add.f32 flushes subnormal inputs and results to sign-preserving zero */
static float ftz(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* new value of an atomic; returns -1 for an unsupported op/type */
static int atom_apply(unsigned op, enum ptx_type t, uint64_t old, uint64_t b, uint64_t c, uint64_t *out)
{
    unsigned bits = ptx_type_bits(t);
    uint64_t tm = exec_type_mask(bits);
    bool sg = ptx_type_is_signed(t);
    if (t == PT_F32 || t == PT_F64) {
        if (op == PA_ADD) {
            *out = t == PT_F32 ? bits_f32(ftz(ftz(f32_of(old)) + ftz(f32_of(b)))) : bits_f64(f64_of(old) + f64_of(b));
            return 0;
        }
        if (op == PA_EXCH) {
            *out = b;
            return 0;
        }
        if (op == PA_CAS) {
            *out = old == b ? c : old;
            return 0;
        }
        if (t == PT_F32 && (op == PA_MIN || op == PA_MAX)) {
            float x = f32_of(old), y = f32_of(b);
            *out = bits_f32(op == PA_MIN ? fminf(x, y) : fmaxf(x, y));
            return 0;
        }
        return -1;
    }
    old &= tm;
    b &= tm;
    c &= tm;
    switch (op) {
    case PA_ADD: *out = (old + b) & tm; return 0;
    case PA_AND: *out = old & b; return 0;
    case PA_OR: *out = old | b; return 0;
    case PA_XOR: *out = old ^ b; return 0;
    case PA_EXCH: *out = b; return 0;
    case PA_CAS: *out = old == b ? c : old; return 0;
    case PA_INC: *out = old >= b ? 0 : old + 1; return 0;
    case PA_DEC: *out = (old == 0 || old > b) ? b : old - 1; return 0;
    case PA_MIN: case PA_MAX: {
        bool less;
        if (sg)
            less = (int64_t)sext(old, bits) < (int64_t)sext(b, bits);
        else
            less = old < b;
        *out = (op == PA_MIN) == less ? old : b;
        return 0;
    }
    default:
        return -1;
    }
}

int exec_atom(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
              struct warp_inst *wi)
{
    bool is_red = in->op == PO_RED;
    unsigned ai = is_red ? 0u : 1u;   /* address operand */
    if (in->nopnd < ai + 2)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported atomic form", NULL);
    const struct ptx_opnd *a = &in->o[ai];
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned esz = elem_bytes(in);
    if ((esz != 4 && esz != 8) || in->vec > 1)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported atomic type", NULL);
    const uint64_t *b = exec_src(w, fr, &in->o[ai + 1], 0);
    const uint64_t *c = in->nopnd > ai + 2 ? exec_src(w, fr, &in->o[ai + 2], 1) : w->g->bc_zero;
    if (!b || !c)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported atomic operand", NULL);
    uint64_t probe;
    if (atom_apply(in->subop, t, 0, 0, 0, &probe))
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported atomic operation/type", NULL);
    enum ptx_space sp = eff_space(w, fr, in, a);
    if (addr_lanes(w, fr, a, sp, m))
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported atomic address operand", NULL);
    uint8_t rsp = 0;
    int st = resolve_all(w, in, sp, m, esz, ACC_ATOMIC, &rsp);
    if (st != PTX_WARP_READY)
        return st;
    wi_mem(wi, w, m, rsp, esz, 1);
    uint64_t *d = !is_red && in->o[0].kind == POK_REG ? fr->regs + (size_t)in->o[0].reg * PTX_WARP_SIZE : NULL;
    /* b/c may alias d (atom.add %r1, [a], %r1): read them before writing d */
    FOR_LANES(m, l) {
        uint64_t old = load_le(w->hp[l], esz);
        uint64_t nv = 0;
        atom_apply(in->subop, t, old, b[l], c[l], &nv);
        store_le(w->hp[l], nv, esz);
        w->scratch[2][l] = old;
    }
    if (d)
        FOR_LANES(m, l) d[l] = w->scratch[2][l];
    return PTX_WARP_READY;
}

/* ---- cvta / isspacep --------------------------------------------------------------- */

int exec_cvta(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    uint64_t base = ptx_mem_window_base((enum ptx_space)in->space);
    if (base == UINT64_MAX || in->nopnd < 2)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "cvta on a space without a generic window", NULL);
    const uint64_t *a = exec_src(w, fr, &in->o[1], 0);
    if (!a)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported cvta operand", NULL);
    if (in->o[0].kind != POK_REG)
        return PTX_WARP_READY;
    uint64_t *d = fr->regs + (size_t)in->o[0].reg * PTX_WARP_SIZE;
    uint64_t tm = exec_type_mask(ptx_type_bits((enum ptx_type)in->type));
    bool to = (in->flags & PF_TO) != 0;
    FOR_LANES(m, l) d[l] = (to ? a[l] - base : a[l] + base) & tm;
    return PTX_WARP_READY;
}

int exec_isspacep(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    const uint64_t *a = in->nopnd >= 2 ? exec_src(w, fr, &in->o[1], 0) : NULL;
    if (!a)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported isspacep operand", NULL);
    if (in->o[0].kind != POK_REG)
        return PTX_WARP_READY;
    uint64_t *d = fr->regs + (size_t)in->o[0].reg * PTX_WARP_SIZE;
    enum ptx_space want = (enum ptx_space)in->space;
    if (want == PS_PARAM_FUNC)
        want = PS_PARAM;
    FOR_LANES(m, l) {
        uint64_t off;
        d[l] = ptx_mem_generic_space(a[l], &off) == want;
    }
    return PTX_WARP_READY;
}

/* ---- textures ------------------------------------------------------------------------ */

static int64_t coord_of(uint64_t v, bool is_float)
{
    if (!is_float)
        return (int64_t)(int32_t)(uint32_t)v;
    float f = f32_of(v);
    if (isnan(f))
        return 0;
    /* unnormalised point sampling: texel i covers [i, i+1) */
    f = floorf(f);
    if (f < -2147483648.0f)
        return INT32_MIN;
    if (f > 2147483520.0f)
        return INT32_MAX;
    return (int64_t)f;
}

int exec_tex(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi)
{
    /* tex.geom.v4.dtype.ctype {d0..d3}, [tex, {c0, c1..}] with the texture
       object in a register (o[1]) and the coordinates as a vector (o[2]) */
    if (in->nopnd < 3 || in->o[0].kind != POK_VEC || in->o[2].kind != POK_VEC)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported tex operands", NULL);
    const struct ptx_opnd *to = &in->o[1];
    const uint64_t *h;
    if (to->kind == POK_ADDR && to->reg >= 0 && to->sym < 0)
        h = fr->regs + (size_t)to->reg * PTX_WARP_SIZE;
    else if (to->kind == POK_REG || to->kind == POK_IMM)
        h = exec_src(w, fr, to, 0);
    else
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED,
                         "only texture objects are supported (no texture references)", NULL);
    const struct ptx_opnd *co = &in->o[2];
    enum ptx_type ct = in->stype ? (enum ptx_type)in->stype : PT_S32;
    bool cfloat = ct == PT_F32;
    bool to_float = in->type == PT_F32;
    bool two_d = in->subop == PTG_2D;
    if (in->subop != PTG_1D && in->subop != PTG_2D && in->subop != PTG_NONE)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "only tex.1d and tex.2d are supported", NULL);
    if (co->nvec < (two_d ? 2 : 1) || co->vregs[0] < 0 || (two_d && co->vregs[1] < 0))
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported tex coordinates", NULL);
    const uint64_t *cx = fr->regs + (size_t)co->vregs[0] * PTX_WARP_SIZE;
    const uint64_t *cy = two_d ? fr->regs + (size_t)co->vregs[1] * PTX_WARP_SIZE : w->g->bc_zero;
    uint32_t out[PTX_WARP_SIZE][4];
    uint32_t esize = 0;
    FOR_LANES(m, l) {
        const struct ptx_tex_desc *t = ptx_mem_tex_get(w->g->mem, h[l]);
        if (!t) {
            char detail[160];
            snprintf(detail, sizeof detail, "=========     Texture object 0x%" PRIx64 " does not exist", h[l]);
            return exec_fail(w, in, (int)l, PTX_EXEC_ILLEGAL_ADDRESS, "Invalid texture fetch", detail);
        }
        uint64_t bad = 0;
        int64_t x = coord_of(cx[l], cfloat), y = two_d ? coord_of(cy[l], cfloat) : 0;
        esize = (uint32_t)t->channels * t->bits / 8u;
        w->addr[l] = t->base + (uint64_t)(y < 0 ? 0 : y) * t->pitch + (uint64_t)(x < 0 ? 0 : x) * esize;
        if (ptx_mem_tex_fetch(w->g->mem, t, x, y, to_float, out[l], &bad)) {
            struct fault f = {PS_GLOBAL, FW_BOUNDS, l, bad, bad, 0};
            return report(w, in, &f, esize, ACC_READ);
        }
    }
    if (wi) {
        wi_mem(wi, w, m, PS_GLOBAL, esize, 0);
        wi->space = WS_SPACE_TEX;
    }
    for (unsigned k = 0; k < in->o[0].nvec && k < 4; k++) {
        int32_t r = in->o[0].vregs[k];
        if (r < 0)
            continue;
        uint64_t *d = fr->regs + (size_t)r * PTX_WARP_SIZE;
        FOR_LANES(m, l) d[l] = out[l][k];
    }
    return PTX_WARP_READY;
}

/* ---- surfaces ------------------------------------------------------------------------ */

/* suld.b.{1d,2d}{.v2,.v4}.bN.mode d, [surf, {x(, y)}] and sust.b.... [surf, {x(, y)}], s.
   x counts BYTES, y rows; a lane accesses vec * N/8 bytes at base + y * pitch + x.  Out of
   range: .trap faults like the memory checker, .clamp moves the access to the nearest element
   at the edge, .zero reads 0 and drops the store.  A misaligned x faults in every mode. */
int exec_surf(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi)
{
    bool store = in->op == PO_SUST;
    const char *opn = store ? "sust" : "suld";
    if (in->nopnd < 3)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported surface instruction operands", NULL);
    const struct ptx_opnd *ho = &in->o[store ? 0 : 1], *co = &in->o[store ? 1 : 2], *vo = &in->o[store ? 2 : 0];
    unsigned esz = elem_bytes(in);
    unsigned vec = in->vec > 1 ? in->vec : 1;
    bool two_d = in->subop == PTG_2D;
    if (in->subop != PTG_1D && !two_d)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "only 1d and 2d surfaces are supported", NULL);
    if (esz == 0 || esz > 8 || co->kind != POK_VEC || co->nvec < (two_d ? 2 : 1) || co->vregs[0] < 0 ||
        (two_d && co->vregs[1] < 0))
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported surface instruction operands", NULL);
    if (ho->kind != POK_REG && ho->kind != POK_IMM)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED,
                         "only surface objects are supported (no surface references)", NULL);
    const uint64_t *h = exec_src(w, fr, ho, 0);
    const uint64_t *cx = fr->regs + (size_t)co->vregs[0] * PTX_WARP_SIZE;
    const uint64_t *cy = two_d ? fr->regs + (size_t)co->vregs[1] * PTX_WARP_SIZE : w->g->bc_zero;
    /* store values first (immediates are materialised into scratch) */
    const uint64_t *src[PTX_MAX_VEC] = {NULL, NULL, NULL, NULL};
    if (store) {
        if (vo->kind == POK_VEC) {
            for (unsigned k = 0; k < vo->nvec && k < vec; k++)
                src[k] = vo->vregs[k] >= 0 ? fr->regs + (size_t)vo->vregs[k] * PTX_WARP_SIZE
                       : vo->vimm && vo->vimm[k] ? vo->vimm[k] : w->g->bc_zero;
        } else {
            src[0] = exec_src(w, fr, vo, 1);
        }
        for (unsigned k = 0; k < vec; k++)
            if (!src[k])
                return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported sust value operand", NULL);
    }
    uint32_t size = esz * vec;
    uint32_t drop = 0;   /* .zero lanes out of range */
    FOR_LANES(m, l) {
        const struct ptx_tex_desc *t = ptx_mem_surf_get(w->g->mem, h[l]);
        char what[96], detail[320];
        if (!t) {
            snprintf(what, sizeof what, "Invalid surface %s of size %u bytes", store ? "write" : "read", size);
            snprintf(detail, sizeof detail, "=========     Surface object 0x%" PRIx64 " does not exist", h[l]);
            return exec_fail(w, in, (int)l, PTX_EXEC_ILLEGAL_ADDRESS, what, detail);
        }
        int64_t x = (int32_t)(uint32_t)cx[l], y = two_d ? (int32_t)(uint32_t)cy[l] : 0;
        uint64_t row = t->width * t->channels * t->bits / 8u;
        if (x % (int64_t)size) {
            snprintf(what, sizeof what, "Invalid surface %s of size %u bytes", store ? "write" : "read", size);
            snprintf(detail, sizeof detail,
                     "=========     %s x coordinate %" PRId64 " (bytes) is not a multiple of the access size", opn,
                     x);
            return exec_fail(w, in, (int)l, PTX_EXEC_ILLEGAL_ADDRESS, what, detail);
        }
        bool out = size > row || x < 0 || (uint64_t)x > row - size || y < 0 || (uint64_t)y >= t->height;
        if (out && (in->boolop == PSC_TRAP || size > row)) {
            snprintf(what, sizeof what, "Invalid surface %s of size %u bytes", store ? "write" : "read", size);
            snprintf(detail, sizeof detail,
                     "=========     Coordinate (%" PRId64 " bytes, %" PRId64 ") is out of bounds of the surface "
                     "of %" PRIu64 " x %" PRIu64 " elements (%" PRIu64 " bytes per row) at 0x%" PRIx64,
                     x, y, t->width, t->height, row, t->base);
            return exec_fail(w, in, (int)l, PTX_EXEC_ILLEGAL_ADDRESS, what, detail);
        }
        if (out) {
            if (in->boolop == PSC_ZERO)
                drop |= 1u << l;
            /* clamp (and the address a dropped lane is timed at): the nearest edge element */
            x = x < 0 ? 0 : (uint64_t)x > row - size ? (int64_t)((row - size) / size * size) : x;
            y = y < 0 ? 0 : (uint64_t)y >= t->height ? (int64_t)t->height - 1 : y;
        }
        uint64_t addr = t->base + (uint64_t)y * t->pitch + (uint64_t)x;
        w->addr[l] = addr;
        uint8_t *p = ptx_mem_ptr(w->g->mem, addr, size);
        if (!p) {
            struct fault f = {PS_GLOBAL, FW_BOUNDS, l, addr, addr, 0};
            return report(w, in, &f, size, store ? ACC_WRITE : ACC_READ);
        }
        w->hp[l] = p;
    }
    wi_mem(wi, w, m, PS_GLOBAL, size, store);
    uint32_t live = m & ~drop;
    if (store) {
        for (unsigned k = 0; k < vec; k++) {
            const uint64_t *v = src[k];
            FOR_LANES(live, l) store_le(w->hp[l] + k * esz, v[l], esz);
        }
        return PTX_WARP_READY;
    }
    for (unsigned k = 0; k < vec; k++) {
        int32_t r = vo->kind == POK_VEC ? (k < vo->nvec ? vo->vregs[k] : -1)
                  : vo->kind == POK_REG && k == 0 ? vo->reg : -1;
        if (r < 0)
            continue;
        uint64_t *d = fr->regs + (size_t)r * PTX_WARP_SIZE;
        uint64_t rm = exec_type_mask(exec_reg_bits(fr, r));
        FOR_LANES(m, l) d[l] = (drop >> l & 1u) ? 0 : load_le(w->hp[l] + k * esz, esz) & rm;
    }
    return PTX_WARP_READY;
}
