/*
 * features.c - HeteroPDP's static kernel features from PTX (features.h has the
 * classification rules; docs/heteropdp.md the table).
 */
#include "pdp/features.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdp/text.h"

static const char *const feat_names[PDP_F_COUNT] = {
#define PDP_X_NAME(e, n, d) n,
    PDP_FEATURES(PDP_X_NAME)
#undef PDP_X_NAME
};
static const char *const feat_descs[PDP_F_COUNT] = {
#define PDP_X_DESC(e, n, d) d,
    PDP_FEATURES(PDP_X_DESC)
#undef PDP_X_DESC
};

const char *pdp_feat_name(enum pdp_feat f) { return (unsigned)f < PDP_F_COUNT ? feat_names[f] : "?"; }
const char *pdp_feat_desc(enum pdp_feat f) { return (unsigned)f < PDP_F_COUNT ? feat_descs[f] : "?"; }

int pdp_feat_lookup(const char *name)
{
    for (int i = 0; i < PDP_F_COUNT; i++)
        if (strcmp(name, feat_names[i]) == 0)
            return i;
    return -1;
}

void pdp_feat_names(char *buf, size_t n)
{
    size_t at = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < PDP_F_COUNT && at < n; i++) {
        int w = snprintf(buf + at, n - at, "%s%s", i ? ", " : "", feat_names[i]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

const char *pdp_cpu_class_name(enum pdp_cpu_class c)
{
    static const char *const nm[] = {"salu", "smem", "valu", "vmem", "branch", "atomic", "-"};
    return (unsigned)c <= PDP_CPU_NONE ? nm[c] : "?";
}

const char *pdp_gpu_class_name(enum pdp_gpu_class c)
{
    static const char *const nm[] = {"mem", "int", "fp", "math", "branch", "barrier", "-"};
    return (unsigned)c <= PDP_GPU_NONE ? nm[c] : "?";
}

/* ---- the GPU view: by opcode and type ------------------------------------------------ */

static enum pdp_gpu_class gpu_class(const struct ptx_insn *in)
{
    bool fl = ptx_type_is_float((enum ptx_type)in->type);
    switch ((enum ptx_opcode)in->op) {
    case PO_LD: case PO_LDU: case PO_ST: case PO_PREFETCH: case PO_TEX: case PO_TLD4: case PO_ATOM: case PO_RED:
    case PO_SULD: case PO_SUST:
        return PDP_GPU_MEM;
    case PO_BRA: case PO_CALL: case PO_RET:
        return PDP_GPU_BRANCH;
    case PO_BAR: case PO_BARRIER:
        return in->subop == PBM_WARP_SYNC ? PDP_GPU_NONE : PDP_GPU_BARRIER;
    case PO_EXIT: case PO_TRAP: case PO_MEMBAR: case PO_FENCE: case PO_NANOSLEEP: case PO_PMEVENT:
        return PDP_GPU_NONE;
    case PO_RCP: case PO_SQRT: case PO_RSQRT: case PO_SIN: case PO_COS: case PO_LG2: case PO_EX2: case PO_TANH:
        return PDP_GPU_MATH;
    case PO_DIV:
        return fl ? PDP_GPU_MATH : PDP_GPU_INT;
    case PO_CVT:
        return fl || ptx_type_is_float((enum ptx_type)in->stype) ? PDP_GPU_FP : PDP_GPU_INT;
    case PO_MOV: case PO_CVTA: case PO_SHFL: case PO_VOTE: case PO_MATCH: case PO_ACTIVEMASK: case PO_ISSPACEP:
        return PDP_GPU_INT;
    default:
        return fl ? PDP_GPU_FP : PDP_GPU_INT;
    }
}

/* ---- varying (thread-dependent) values ----------------------------------------------- */

static bool sreg_varying(uint8_t s)
{
    switch ((enum ptx_sreg)s) {
    case PSR_NTID: case PSR_CTAID: case PSR_NCTAID: case PSR_NWARPID: case PSR_SMID: case PSR_NSMID:
    case PSR_GRIDID: case PSR_DYNAMIC_SMEM_SIZE: case PSR_TOTAL_SMEM_SIZE:
        return false;
    default:
        return true;
    }
}

/* destinations: the leading operands of an instruction that writes (as the executor's peek) */
static unsigned n_dst(const struct ptx_insn *in)
{
    switch ((enum ptx_opcode)in->op) {
    case PO_ST: case PO_RED: case PO_PREFETCH: case PO_BRA: case PO_CALL: case PO_RET: case PO_EXIT:
    case PO_TRAP: case PO_MEMBAR: case PO_FENCE: case PO_NANOSLEEP: case PO_PMEVENT: case PO_SUST:
        return 0;
    case PO_BAR: case PO_BARRIER:
        return in->subop == PBM_RED_POPC || in->subop == PBM_RED_AND || in->subop == PBM_RED_OR ? 1u : 0u;
    default:
        return in->has_d2 ? 2u : 1u;
    }
}

/* a symbol whose storage (or address) is per thread: .local, .func parameters and returns */
static bool sym_per_thread(const struct ptx_module *m, int32_t sym)
{
    if (sym < 0 || (uint32_t)sym >= m->nsyms)
        return false;
    uint8_t sp = m->syms[sym].space;
    return sp == PS_LOCAL || sp == PS_PARAM_FUNC;
}

static bool reg_var(const uint8_t *var, uint32_t nregs, int32_t r)
{
    return r >= 0 && (uint32_t)r < nregs && var[r];
}

/* Does instruction i produce or consume a varying value (ignoring sync dependence)? */
static bool insn_varying(const struct ptx_module *m, const struct ptx_func *f, const struct ptx_insn *in,
                         const uint8_t *var)
{
    switch ((enum ptx_opcode)in->op) {
    case PO_ATOM: case PO_SHFL: case PO_VOTE: case PO_MATCH: case PO_ACTIVEMASK:
        return true;
    case PO_LD: case PO_LDU: case PO_ST: case PO_PREFETCH:
        if (in->space == PS_LOCAL)
            return true;
        break;
    default:
        break;
    }
    if (reg_var(var, f->nregs, in->guard))
        return true;
    if (in->op == PO_CALL) {
        if (in->call >= 0 && (uint32_t)in->call < f->ncalls) {
            const struct ptx_call *c = &f->calls[in->call];
            for (unsigned k = 0; k < c->nargs; k++)
                if (c->arg_is_reg && c->arg_is_reg[k] && reg_var(var, f->nregs, c->args[k]))
                    return true;
        }
        return false;
    }
    unsigned nd = n_dst(in);
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_opnd *o = &in->o[i];
        if (o->kind == POK_ADDR || o->kind == POK_SYM) {
            if (sym_per_thread(m, o->sym) || reg_var(var, f->nregs, o->kind == POK_ADDR ? o->reg : -1))
                return true;
            continue;
        }
        if (i < nd)
            continue;
        if (o->kind == POK_REG && reg_var(var, f->nregs, o->reg))
            return true;
        if (o->kind == POK_SREG && sreg_varying(o->sreg))
            return true;
        if (o->kind == POK_VEC)
            for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++)
                if (reg_var(var, f->nregs, o->vregs[k]))
                    return true;
    }
    if ((in->op == PO_ADDC || in->op == PO_SUBC || in->op == PO_MADC) && reg_var(var, f->nregs, f->cc_reg))
        return true;
    return false;
}

/* mark the registers instruction in writes; returns how many became varying */
static unsigned mark_dsts(const struct ptx_func *f, const struct ptx_insn *in, uint8_t *var)
{
    unsigned newly = 0;
#define MARK_(r)                                                          \
    do {                                                                  \
        int32_t r_ = (r);                                                 \
        if (r_ >= 0 && (uint32_t)r_ < f->nregs && !var[r_]) {             \
            var[r_] = 1;                                                  \
            newly++;                                                      \
        }                                                                 \
    } while (0)
    if (in->op == PO_CALL) {
        /* the callee is not analysed per call site: its results are taken as varying */
        if (in->call >= 0 && (uint32_t)in->call < f->ncalls) {
            const struct ptx_call *c = &f->calls[in->call];
            for (unsigned k = 0; k < c->nrets; k++)
                if (c->ret_is_reg && c->ret_is_reg[k])
                    MARK_(c->rets[k]);
        }
        return newly;
    }
    unsigned nd = n_dst(in);
    for (unsigned i = 0; i < nd && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_opnd *o = &in->o[i];
        if (o->kind == POK_REG)
            MARK_(o->reg);
        else if (o->kind == POK_VEC)
            for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++)
                MARK_(o->vregs[k]);
    }
    if (in->flags & PF_CC)
        MARK_(f->cc_reg);
#undef MARK_
    return newly;
}

static bool writes_varying(const struct ptx_func *f, const struct ptx_insn *in, const uint8_t *var)
{
    unsigned nd = n_dst(in);
    for (unsigned i = 0; i < nd && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_opnd *o = &in->o[i];
        if (o->kind == POK_REG && reg_var(var, f->nregs, o->reg))
            return true;
        if (o->kind == POK_VEC)
            for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++)
                if (reg_var(var, f->nregs, o->vregs[k]))
                    return true;
    }
    return false;
}

/* registers an instruction writes / reads, into a bitmap */
static void set_bit(uint8_t *b, int32_t r, uint32_t n)
{
    if (r >= 0 && (uint32_t)r < n)
        b[r] = 1;
}

static void insn_dsts(const struct ptx_func *f, const struct ptx_insn *in, uint8_t *b)
{
    if (in->op == PO_CALL) {
        if (in->call >= 0 && (uint32_t)in->call < f->ncalls) {
            const struct ptx_call *c = &f->calls[in->call];
            for (unsigned k = 0; k < c->nrets; k++)
                if (c->ret_is_reg && c->ret_is_reg[k])
                    set_bit(b, c->rets[k], f->nregs);
        }
        return;
    }
    unsigned nd = n_dst(in);
    for (unsigned i = 0; i < nd && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_opnd *o = &in->o[i];
        if (o->kind == POK_REG)
            set_bit(b, o->reg, f->nregs);
        else if (o->kind == POK_VEC)
            for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++)
                set_bit(b, o->vregs[k], f->nregs);
    }
    if (in->flags & PF_CC)
        set_bit(b, f->cc_reg, f->nregs);
}

/* registers an instruction reads (guard, sources, address bases, call arguments, the carry
   flag); returns the count (at most cap) */
#define PDP_MAX_SRCS 64
static unsigned insn_srcs(const struct ptx_func *f, const struct ptx_insn *in, int32_t *out, unsigned cap)
{
    unsigned k = 0;
#define ADD_(r) do { int32_t r_ = (r); if (r_ >= 0 && (uint32_t)r_ < f->nregs && k < cap) out[k++] = r_; } while (0)
    ADD_(in->guard);
    if (in->op == PO_CALL) {
        if (in->call >= 0 && (uint32_t)in->call < f->ncalls) {
            const struct ptx_call *c = &f->calls[in->call];
            for (unsigned a = 0; a < c->nargs; a++)
                if (c->arg_is_reg && c->arg_is_reg[a])
                    ADD_(c->args[a]);
        }
        return k;
    }
    unsigned nd = n_dst(in);
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_opnd *o = &in->o[i];
        if (o->kind == POK_ADDR)
            ADD_(o->reg);
        if (i < nd)
            continue;
        if (o->kind == POK_REG)
            ADD_(o->reg);
        else if (o->kind == POK_VEC)
            for (unsigned v = 0; v < o->nvec && v < PTX_MAX_VEC; v++)
                ADD_(o->vregs[v]);
    }
    if (in->op == PO_ADDC || in->op == PO_SUBC || in->op == PO_MADC)
        ADD_(f->cc_reg);
#undef ADD_
    return k;
}

/* instruction successors in the function (n = ninsns stands for the exit); returns the count */
static unsigned succs(const struct ptx_func *f, uint32_t i, uint32_t out[2])
{
    const struct ptx_insn *in = &f->insns[i];
    unsigned k = 0;
    bool guarded = in->guard >= 0;
    if (in->op == PO_BRA) {
        int64_t t = in->nopnd && in->o[0].kind == POK_LABEL ? in->o[0].imm : (int64_t)f->ninsns;
        out[k++] = t < 0 || t > (int64_t)f->ninsns ? f->ninsns : (uint32_t)t;
        if (guarded)
            out[k++] = i + 1;
    } else if (in->op == PO_RET || in->op == PO_EXIT || in->op == PO_TRAP) {
        if (guarded)
            out[k++] = i + 1;
    } else {
        out[k++] = i + 1;
    }
    return k;
}

/* Mark in `region` the instructions reachable from branch b before its post-dominator. */
static void divergent_region(const struct ptx_func *f, uint32_t b, uint8_t *region, uint32_t *stack)
{
    uint32_t n = f->ninsns, stop = (uint32_t)f->ipdom[b], sp = 0;
    memset(region, 0, n);
    uint32_t s[2];
    unsigned ns = succs(f, b, s);
    for (unsigned k = 0; k < ns; k++)
        if (s[k] < n && s[k] != stop && !region[s[k]]) {
            region[s[k]] = 1;
            stack[sp++] = s[k];
        }
    while (sp) {
        uint32_t j = stack[--sp];
        ns = succs(f, j, s);
        for (unsigned k = 0; k < ns; k++)
            if (s[k] < n && s[k] != stop && !region[s[k]]) {
                region[s[k]] = 1;
                stack[sp++] = s[k];
            }
    }
}

int pdp_classify_func(const struct ptx_module *m, uint32_t fi, uint8_t *cpu, uint8_t *gpu, char *msg, size_t n)
{
    if (fi >= m->nfuncs)
        return pdp_err(msg, n, "%s: function %u: no such function", m->path ? m->path : "<ptx>", fi);
    const struct ptx_func *f = &m->funcs[fi];
    uint32_t ni = f->ninsns;
    if (ni == 0)
        return 0;
    if (!f->ipdom)
        return pdp_err(msg, n, "%s: function %s has no control-flow analysis (ptx_cfg_analyze)",
                       m->path ? m->path : "<ptx>", f->name);
    size_t nr = f->nregs ? f->nregs : 1;
    uint8_t *var = calloc(nr, 1), *ivar = calloc(ni, 1), *done = calloc(ni, 1), *region = calloc(ni, 1);
    uint8_t *defd = calloc(nr, 1);
    uint32_t *stack = calloc(ni, sizeof *stack);
    if (!var || !ivar || !done || !region || !defd || !stack) {
        free(var); free(ivar); free(done); free(region); free(defd); free(stack);
        return pdp_err(msg, n, "pdp features: out of memory");
    }
    /* fixpoint: data dependence, then sync dependence of the varying branches found so far;
       both only add marks, so it ends within nregs + ninsns rounds */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < ni; i++) {
            const struct ptx_insn *in = &f->insns[i];
            if (!ivar[i] && insn_varying(m, f, in, var)) {
                ivar[i] = 1;
                changed = true;
            }
            if (ivar[i] && mark_dsts(f, in, var))
                changed = true;
        }
        if (changed)
            continue;
        for (uint32_t b = 0; b < ni; b++) {
            const struct ptx_insn *in = &f->insns[b];
            if (done[b] || in->op != PO_BRA || !reg_var(var, f->nregs, in->guard))
                continue;
            done[b] = 1;
            if (f->ipdom[b] < 0 || (uint32_t)f->ipdom[b] >= ni)
                continue;   /* reconverges at the exit: no value survives the join */
            divergent_region(f, b, region, stack);
            memset(defd, 0, nr);
            for (uint32_t j = 0; j < ni; j++)
                if (region[j])
                    insn_dsts(f, &f->insns[j], defd);
            for (uint32_t r = 0; r < f->nregs; r++)
                if (var[r])
                    defd[r] = 0;   /* already varying */
            /* a register set inside the region and read outside it carries the
               branch's divergence (which lanes took which path) */
            for (uint32_t j = 0; j < ni; j++) {
                if (region[j])
                    continue;
                int32_t src[PDP_MAX_SRCS];
                unsigned k = insn_srcs(f, &f->insns[j], src, PDP_MAX_SRCS);
                for (unsigned q = 0; q < k; q++)
                    if (defd[src[q]] && !var[src[q]]) {
                        var[src[q]] = 1;
                        changed = true;
                    }
            }
        }
    }
    for (uint32_t i = 0; i < ni; i++) {
        const struct ptx_insn *in = &f->insns[i];
        enum pdp_gpu_class g = gpu_class(in);
        enum pdp_cpu_class c;
        switch ((enum ptx_opcode)in->op) {
        case PO_ATOM: case PO_RED:
            c = PDP_CPU_ATOMIC;
            break;
        case PO_BRA: case PO_CALL: case PO_RET:
            c = PDP_CPU_BRANCH;
            break;
        case PO_LD: case PO_LDU: case PO_ST: case PO_PREFETCH: case PO_TEX: case PO_TLD4: case PO_SULD:
        case PO_SUST:
            c = ivar[i] ? PDP_CPU_VMEM : PDP_CPU_SMEM;
            break;
        default:
            /* a computing instruction is vector when it reads a varying value or writes a varying
               register (a per-lane register: under divergence, a masked write) */
            if (g == PDP_GPU_NONE || g == PDP_GPU_BARRIER)
                c = PDP_CPU_NONE;
            else
                c = ivar[i] || writes_varying(f, in, var) ? PDP_CPU_VALU : PDP_CPU_SALU;
            break;
        }
        if (cpu)
            cpu[i] = (uint8_t)c;
        if (gpu)
            gpu[i] = (uint8_t)g;
    }
    free(var); free(ivar); free(done); free(region); free(defd); free(stack);
    return 0;
}

/* ---- a kernel's counts ------------------------------------------------------------------ */

/* mark fi and every function it calls, transitively */
static void reach(const struct ptx_module *m, uint32_t fi, uint8_t *seen)
{
    if (seen[fi])
        return;
    seen[fi] = 1;
    const struct ptx_func *f = &m->funcs[fi];
    for (uint32_t c = 0; c < f->ncalls; c++) {
        int32_t callee = f->calls[c].callee;
        if (callee >= 0 && (uint32_t)callee < m->nfuncs)
            reach(m, (uint32_t)callee, seen);
    }
}

int pdp_features_from_ptx(const struct ptx_module *m, int fi, struct pdp_features *out, char *msg, size_t n)
{
    const char *path = m->path ? m->path : "<ptx>";
    if (fi >= 0 && ((uint32_t)fi >= m->nfuncs || !m->funcs[fi].is_entry))
        return pdp_err(msg, n, "%s: function %d is not a kernel (.entry)", path, fi);
    uint8_t *seen = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    if (!seen)
        return pdp_err(msg, n, "%s: out of memory", path);
    unsigned nentries = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (fi >= 0 ? i == (uint32_t)fi : m->funcs[i].is_entry) {
            reach(m, i, seen);
            nentries++;
        }
    if (nentries == 0) {
        free(seen);
        return pdp_err(msg, n, "%s: no kernel (.entry) in the module", path);
    }
    uint64_t cpu[PDP_CPU_NONE + 1] = {0}, gpu[PDP_GPU_NONE + 1] = {0};
    int rc = 0;
    for (uint32_t i = 0; i < m->nfuncs && rc == 0; i++) {
        const struct ptx_func *f = &m->funcs[i];
        if (!seen[i] || f->ninsns == 0)
            continue;
        uint8_t *cc = malloc(f->ninsns), *gc = malloc(f->ninsns);
        if (!cc || !gc)
            rc = pdp_err(msg, n, "%s: out of memory", path);
        else
            rc = pdp_classify_func(m, i, cc, gc, msg, n);
        for (uint32_t k = 0; rc == 0 && k < f->ninsns; k++) {
            cpu[cc[k] <= PDP_CPU_NONE ? cc[k] : PDP_CPU_NONE]++;
            gpu[gc[k] <= PDP_GPU_NONE ? gc[k] : PDP_GPU_NONE]++;
        }
        free(cc);
        free(gc);
    }
    free(seen);
    if (rc)
        return rc;
    out->v[PDP_F_CPU_SALU] = (double)cpu[PDP_CPU_SALU];
    out->v[PDP_F_CPU_SMEM] = (double)cpu[PDP_CPU_SMEM];
    out->v[PDP_F_CPU_VALU] = (double)cpu[PDP_CPU_VALU];
    out->v[PDP_F_CPU_VMEM] = (double)cpu[PDP_CPU_VMEM];
    out->v[PDP_F_CPU_BRANCH] = (double)cpu[PDP_CPU_BRANCH];
    out->v[PDP_F_CPU_ATOMIC] = (double)cpu[PDP_CPU_ATOMIC];
    out->v[PDP_F_GPU_MEM] = (double)gpu[PDP_GPU_MEM];
    out->v[PDP_F_GPU_INT] = (double)gpu[PDP_GPU_INT];
    out->v[PDP_F_GPU_FP] = (double)gpu[PDP_GPU_FP];
    out->v[PDP_F_GPU_MATH] = (double)gpu[PDP_GPU_MATH];
    out->v[PDP_F_GPU_BRANCH] = (double)gpu[PDP_GPU_BRANCH];
    out->v[PDP_F_GPU_BARRIER] = (double)gpu[PDP_GPU_BARRIER];
    return 0;
}
