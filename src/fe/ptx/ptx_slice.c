/*
 * ptx_slice.c - address pre-computation: backward slices of global load and
 * store addresses, their evaluation for chosen threads, and access ranges in
 * cache-line coordinates (ptx_slice.h explains the model).
 *
 * Building: a small CFG of the kernel (leaders at instruction 0, branch
 * targets and after bra/ret/exit/trap) with predecessor lists; the reaching
 * definitions of one register at one use are found by walking backwards from
 * the use, block by block, until an unguarded definition ends each path.  A
 * slice is built depth-first from the address register, so its steps come out
 * in an order where every source is computed before it is read.  Each step
 * writes its own slots (two: setp p|q has two destinations), so a register
 * redefined elsewhere in the kernel never clobbers a value the slice needs.
 */
#include "ptx_slice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_alu.h"
#include "ptx_exec.h"

enum step_kind { SK_ALU = 0, SK_MOV, SK_CVTA, SK_LDPARAM };
enum src_kind { SRC_NONE = 0, SRC_SLOT, SRC_IMM, SRC_SREG, SRC_CONST };

struct ptx_slice_src {
    uint8_t kind;            /* enum src_kind */
    uint8_t neg;             /* !%p */
    uint8_t sreg, comp;
    int32_t slot;
    const uint64_t *lanes;   /* SRC_IMM with pre-broadcast lanes */
    uint64_t val;            /* SRC_IMM without lanes, SRC_CONST (a global variable's address) */
};

struct ptx_slice_step {
    const struct ptx_insn *in;
    uint8_t kind;            /* enum step_kind */
    uint8_t nsrc;
    uint8_t sext_bits;       /* cvt.s8/.s16: sign-extend the result to the register's width */
    uint8_t reg_bits;
    int32_t slot;            /* first destination slot (the second is slot + 1) */
    uint32_t param_off, param_len;   /* SK_LDPARAM */
    struct ptx_slice_src src[4];
};

const char *ptx_slice_status_name(enum ptx_slice_status s)
{
    switch (s) {
    case PTX_SLICE_OK: return "sliced";
    case PTX_SLICE_MEMORY: return "loaded from memory";
    case PTX_SLICE_MULTIDEF: return "several reaching definitions";
    case PTX_SLICE_PREDICATED: return "predicated definition";
    case PTX_SLICE_UNDEFINED: return "undefined register";
    case PTX_SLICE_SREG: return "special register";
    case PTX_SLICE_UNSUPPORTED: return "unsupported instruction";
    case PTX_SLICE_NOBASE: return "no base pointer";
    case PTX_SLICE_TOOLONG: return "slice too long";
    }
    return "?";
}

static const char *sreg_name(unsigned s)
{
    static const char *const names[PSR_COUNT] = {
        [PSR_TID] = "%tid", [PSR_NTID] = "%ntid", [PSR_CTAID] = "%ctaid", [PSR_NCTAID] = "%nctaid",
        [PSR_LANEID] = "%laneid", [PSR_WARPID] = "%warpid", [PSR_NWARPID] = "%nwarpid", [PSR_SMID] = "%smid",
        [PSR_NSMID] = "%nsmid", [PSR_GRIDID] = "%gridid", [PSR_CLOCK] = "%clock", [PSR_CLOCK_HI] = "%clock_hi",
        [PSR_CLOCK64] = "%clock64", [PSR_GLOBALTIMER] = "%globaltimer", [PSR_GLOBALTIMER_LO] = "%globaltimer_lo",
        [PSR_GLOBALTIMER_HI] = "%globaltimer_hi", [PSR_LANEMASK_EQ] = "%lanemask_eq",
        [PSR_LANEMASK_LT] = "%lanemask_lt", [PSR_LANEMASK_LE] = "%lanemask_le", [PSR_LANEMASK_GT] = "%lanemask_gt",
        [PSR_LANEMASK_GE] = "%lanemask_ge", [PSR_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
        [PSR_TOTAL_SMEM_SIZE] = "%total_smem_size", [PSR_PM0] = "%pm0", [PSR_ENVREG] = "%envreg",
    };
    return s < PSR_COUNT && names[s] ? names[s] : "%?";
}

/* the special registers a launch determines (per thread: from its block and thread index) */
static int sreg_known(unsigned s)
{
    return s == PSR_TID || s == PSR_NTID || s == PSR_CTAID || s == PSR_NCTAID || s == PSR_LANEID ||
           s == PSR_WARPID || s == PSR_NWARPID;
}

/* ---- builder ------------------------------------------------------------------------------ */

struct sb {
    const struct ptx_module *m;
    const struct ptx_func *f;
    unsigned flags;              /* PTX_SLICE_* build flags */
    uint32_t nblk;
    uint32_t *blk_of;            /* [ninsns] block of each instruction */
    uint32_t *blk_start;         /* [nblk + 1] */
    uint32_t *pred_off, *preds;  /* CSR predecessor lists */
    uint32_t *mark, gen;         /* [nblk] visit marks of the reaching-definition walk */
    uint32_t *work;              /* [nblk] worklist */
    uint8_t *visiting;           /* [ninsns] on the current DFS path (cycle check) */
    /* the access being sliced */
    struct ptx_slice_access *a;
    struct ptx_slice_step *steps;   /* this access's steps (room for PTX_SLICE_MAX_STEPS) */
    uint32_t nst;
    uint32_t memo_insn[PTX_SLICE_MAX_STEPS];
    int32_t tag[2 * PTX_SLICE_MAX_STEPS];   /* base pointer of each slot: -1, param index, or -2 - sym */
};

static int ends_block(const struct ptx_insn *in)
{
    return in->op == PO_BRA || in->op == PO_RET || in->op == PO_EXIT || in->op == PO_TRAP;
}

static int sb_cfg(struct sb *b)
{
    const struct ptx_func *f = b->f;
    uint32_t n = f->ninsns;
    uint8_t *lead = calloc(n + 1, 1);
    b->blk_of = calloc(n + 1, sizeof(uint32_t));
    b->blk_start = calloc(n + 2, sizeof(uint32_t));
    if (!lead || !b->blk_of || !b->blk_start) {
        free(lead);
        return -1;
    }
    lead[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const struct ptx_insn *in = &f->insns[i];
        if (in->op == PO_BRA && in->nopnd && in->o[0].kind == POK_LABEL && in->o[0].imm >= 0 &&
            (uint64_t)in->o[0].imm < n)
            lead[in->o[0].imm] = 1;
        if (ends_block(in))
            lead[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (lead[i])
            b->blk_start[nb++] = i;
        b->blk_of[i] = nb - 1;
    }
    b->blk_start[nb] = n;
    b->nblk = nb;
    free(lead);
    /* predecessors: count, then fill */
    uint32_t *cnt = calloc(nb + 1, sizeof(uint32_t));
    b->pred_off = calloc(nb + 1, sizeof(uint32_t));
    b->mark = calloc(nb ? nb : 1, sizeof(uint32_t));
    b->work = calloc(nb ? nb : 1, sizeof(uint32_t));
    b->visiting = calloc(n ? n : 1, 1);
    if (!cnt || !b->pred_off || !b->mark || !b->work || !b->visiting) {
        free(cnt);
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t k = 0; k < nb; k++) {
            uint32_t succ[2];
            unsigned ns = ptx_insn_succs(f, b->blk_start[k + 1] - 1, succ);
            for (unsigned s = 0; s < ns; s++)
                succ[s] = b->blk_of[succ[s]];
            for (unsigned s = 0; s < ns; s++) {
                if (pass == 0)
                    cnt[succ[s]]++;
                else
                    b->preds[b->pred_off[succ[s]] + cnt[succ[s]]++] = k;
            }
        }
        if (pass == 0) {
            uint32_t tot = 0;
            for (uint32_t k = 0; k < nb; k++) {
                b->pred_off[k] = tot;
                tot += cnt[k];
                cnt[k] = 0;
            }
            b->pred_off[nb] = tot;
            b->preds = calloc(tot ? tot : 1, sizeof(uint32_t));
            if (!b->preds) {
                free(cnt);
                return -1;
            }
        }
    }
    free(cnt);
    return 0;
}

static void sb_free(struct sb *b)
{
    free(b->blk_of);
    free(b->blk_start);
    free(b->pred_off);
    free(b->preds);
    free(b->mark);
    free(b->work);
    free(b->visiting);
}

static int opnd_has_reg(const struct ptx_opnd *o, int32_t r)
{
    if (o->kind == POK_REG)
        return o->reg == r;
    if (o->kind == POK_VEC)
        for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++)
            if (o->vregs[k] == r)
                return 1;
    return 0;
}

/* Does instruction in (of f) write register r? */
static int insn_writes(const struct ptx_func *f, const struct ptx_insn *in, int32_t r)
{
    if ((in->flags & PF_CC) && r == f->cc_reg)
        return 1;
    switch (in->op) {
    case PO_ST: case PO_RED: case PO_BRA: case PO_MEMBAR: case PO_FENCE: case PO_RET: case PO_EXIT:
    case PO_TRAP: case PO_PREFETCH: case PO_NANOSLEEP: case PO_PMEVENT: case PO_SUST:
        return 0;
    case PO_BAR: case PO_BARRIER:
        if (in->subop != PBM_RED_POPC && in->subop != PBM_RED_AND && in->subop != PBM_RED_OR)
            return 0;
        break;
    case PO_CALL:
        if (in->call >= 0 && (uint32_t)in->call < f->ncalls) {
            const struct ptx_call *c = &f->calls[in->call];
            for (unsigned k = 0; k < c->nrets; k++)
                if (c->ret_is_reg && c->ret_is_reg[k] && c->rets[k] == r)
                    return 1;
        }
        return 0;
    default:
        break;
    }
    if (in->nopnd && opnd_has_reg(&in->o[0], r))
        return 1;
    return in->has_d2 && in->nopnd > 1 && opnd_has_reg(&in->o[1], r);
}

static void reg_label(const struct ptx_func *f, int32_t r, char *buf, size_t n)
{
    snprintf(buf, n, "%s", r >= 0 && (uint32_t)r < f->nregs && f->regs[r].name ? f->regs[r].name : "%?");
}

static int sb_fail(struct sb *b, enum ptx_slice_status st, const char *fmt, const char *s1, unsigned line)
{
    if (b->a->status == PTX_SLICE_OK) {
        b->a->status = (uint8_t)st;
        snprintf(b->a->why, sizeof b->a->why, fmt, s1, line);
    }
    return -1;
}

/* Definitions of r reaching instruction i (up to max in defs, sorted, no
   duplicates); *undef when some path from the kernel entry reaches i without
   an unguarded definition.  Returns how many were found. */
static unsigned reach_defs(struct sb *b, uint32_t i, int32_t r, uint32_t *defs, unsigned max, int *undef)
{
    const struct ptx_func *f = b->f;
    unsigned nd = 0;
    *undef = 0;
#define ADD_DEF(j)                                          \
    do {                                                    \
        unsigned q_ = 0;                                    \
        while (q_ < nd && defs[q_] != (j))                  \
            q_++;                                           \
        if (q_ == nd && nd < max)                           \
            defs[nd++] = (j);                               \
    } while (0)
    uint32_t blk = b->blk_of[i];
    for (uint32_t j = i; j-- > b->blk_start[blk];)
        if (insn_writes(f, &f->insns[j], r)) {
            ADD_DEF(j);
            if (f->insns[j].guard < 0)
                return nd;
        }
    if (blk == 0)
        *undef = 1;
    b->gen++;
    unsigned nw = 0;
    /* blocks are marked when queued, so each is searched once and the queue never exceeds nblk */
    for (uint32_t p = b->pred_off[blk]; p < b->pred_off[blk + 1]; p++)
        if (b->mark[b->preds[p]] != b->gen) {
            b->mark[b->preds[p]] = b->gen;
            b->work[nw++] = b->preds[p];
        }
    while (nw) {
        uint32_t k = b->work[--nw];
        int killed = 0;
        for (uint32_t j = b->blk_start[k + 1]; j-- > b->blk_start[k];)
            if (insn_writes(f, &f->insns[j], r)) {
                ADD_DEF(j);
                if (f->insns[j].guard < 0) {
                    killed = 1;
                    break;
                }
            }
        if (killed)
            continue;
        if (k == 0)
            *undef = 1;
        for (uint32_t p = b->pred_off[k]; p < b->pred_off[k + 1]; p++)
            if (b->mark[b->preds[p]] != b->gen) {
                b->mark[b->preds[p]] = b->gen;
                b->work[nw++] = b->preds[p];
            }
    }
#undef ADD_DEF
    /* sorted, for stable messages */
    for (unsigned x = 1; x < nd; x++)
        for (unsigned y = x; y > 0 && defs[y - 1] > defs[y]; y--) {
            uint32_t t = defs[y];
            defs[y] = defs[y - 1];
            defs[y - 1] = t;
        }
    return nd;
}

static int slot_of_def(struct sb *b, uint32_t d, unsigned which);

/* The slot that holds register r as instruction i reads it. */
static int slot_of_use(struct sb *b, uint32_t i, int32_t r)
{
    const struct ptx_func *f = b->f;
    uint32_t defs[4];
    int undef = 0;
    unsigned nd = reach_defs(b, i, r, defs, 4, &undef);
    char rn[32];
    reg_label(f, r, rn, sizeof rn);
    if (nd == 0)
        return sb_fail(b, PTX_SLICE_UNDEFINED, "%s read before any definition (line %u)", rn, f->insns[i].line);
    for (unsigned k = 0; k < nd; k++)
        if (f->insns[defs[k]].guard >= 0)
            return sb_fail(b, PTX_SLICE_PREDICATED, "%s defined under a predicate (line %u)", rn,
                           f->insns[defs[k]].line);
    if (nd > 1) {
        if (b->a->status != PTX_SLICE_OK)
            return -1;
        char lines[48] = "";
        size_t used = 0;
        for (unsigned k = 0; k < nd && used < sizeof lines; k++)
            used += (size_t)snprintf(lines + used, sizeof lines - used, "%s%u", k ? ", " : "", f->insns[defs[k]].line);
        /* a definition at or after the use in program order reaches it around a back edge */
        int loop = 0;
        unsigned nbefore = 0;
        uint32_t entry = 0;
        for (unsigned k = 0; k < nd; k++) {
            loop |= defs[k] >= i;
            if (defs[k] < i) {
                nbefore++;
                entry = defs[k];
            }
        }
        if ((b->flags & PTX_SLICE_LOOP_ENTRY) && loop && nbefore == 1 && nd < 4 && !undef) {
            /* the value on loop entry: the access of the first iteration */
            if (!b->a->loop_entry)
                snprintf(b->a->why, sizeof b->a->why, "first iteration: loop-carried %s (defined at lines %s)", rn,
                         lines);
            b->a->loop_entry = 1;
            defs[0] = entry;
        } else {
            b->a->status = PTX_SLICE_MULTIDEF;
            snprintf(b->a->why, sizeof b->a->why, "%s %s (defined at lines %s%s)", loop ? "loop-carried" : "merged",
                     rn, lines, nd >= 4 ? ", ..." : "");
            return -1;
        }
    } else if (undef) {
        return sb_fail(b, PTX_SLICE_UNDEFINED, "%s undefined on some path to line %u", rn, f->insns[i].line);
    }
    const struct ptx_insn *din = &f->insns[defs[0]];
    unsigned which = (din->has_d2 && din->nopnd > 1 && opnd_has_reg(&din->o[1], r) && !opnd_has_reg(&din->o[0], r))
                         ? 1u : 0u;
    return slot_of_def(b, defs[0], which);
}

/* Fill a step source from operand o of instruction i. */
static int sb_src(struct sb *b, uint32_t i, const struct ptx_opnd *o, struct ptx_slice_src *s, int32_t *tag)
{
    const struct ptx_insn *in = &b->f->insns[i];
    memset(s, 0, sizeof *s);
    s->slot = -1;
    *tag = -1;
    switch (o->kind) {
    case POK_REG: {
        int sl = slot_of_use(b, i, o->reg);
        if (sl < 0)
            return -1;
        s->kind = SRC_SLOT;
        s->slot = sl;
        s->neg = o->neg;
        *tag = b->tag[sl];
        return 0;
    }
    case POK_IMM:
        s->kind = SRC_IMM;
        s->lanes = o->lanes;
        s->val = (uint64_t)o->imm;
        return 0;
    case POK_SREG:
        if (!sreg_known(o->sreg))
            return sb_fail(b, PTX_SLICE_SREG, "depends on %s (line %u)", sreg_name(o->sreg), in->line);
        s->kind = SRC_SREG;
        s->sreg = o->sreg;
        s->comp = o->comp < 3 ? o->comp : 0;
        return 0;
    case POK_SYM: {
        if (o->sym < 0 || (uint32_t)o->sym >= b->m->nsyms || b->m->syms[o->sym].space != PS_GLOBAL)
            return sb_fail(b, PTX_SLICE_UNSUPPORTED, "address of a non-global variable %s (line %u)",
                           o->sym >= 0 && (uint32_t)o->sym < b->m->nsyms ? b->m->syms[o->sym].name : "?", in->line);
        s->kind = SRC_CONST;
        s->val = b->m->syms[o->sym].addr + (uint64_t)o->imm;
        *tag = -2 - o->sym;
        return 0;
    }
    default:
        return sb_fail(b, PTX_SLICE_UNSUPPORTED, "vector or unsupported operand of %s (line %u)",
                       ptx_opcode_name((enum ptx_opcode)in->op), in->line);
    }
}

/* kernel parameter index of a .param symbol, -1 if none */
static int32_t param_of_sym(const struct ptx_func *f, int32_t sym)
{
    for (uint32_t k = 0; k < f->nparams; k++)
        if (f->params[k].sym == sym)
            return (int32_t)k;
    return -1;
}

static int slot_of_def(struct sb *b, uint32_t d, unsigned which)
{
    const struct ptx_func *f = b->f;
    const struct ptx_insn *in = &f->insns[d];
    for (uint32_t k = 0; k < b->nst; k++)
        if (b->memo_insn[k] == d)
            return b->steps[k].slot + (int32_t)which;
    if (b->visiting[d])
        return sb_fail(b, PTX_SLICE_MULTIDEF, "cyclic definition of %s (line %u)", "a register", in->line);
    const char *opn = ptx_opcode_name((enum ptx_opcode)in->op);
    struct ptx_slice_step st;
    memset(&st, 0, sizeof st);
    st.in = in;
    int32_t tags[4] = {-1, -1, -1, -1}, tag = -1;
    b->visiting[d] = 1;
    int rc = 0;
    if (in->op == PO_MOV) {
        if (in->o[0].kind != POK_REG || in->nopnd < 2)
            rc = sb_fail(b, PTX_SLICE_UNSUPPORTED, "vector %s (line %u)", opn, in->line);
        else {
            st.kind = SK_MOV;
            st.nsrc = 1;
            rc = sb_src(b, d, &in->o[1], &st.src[0], &tags[0]);
            tag = tags[0];
        }
    } else if (in->op == PO_CVTA) {
        if (in->space != PS_GLOBAL)
            rc = sb_fail(b, PTX_SLICE_UNSUPPORTED, "%s of a non-global address (line %u)", opn, in->line);
        else {
            st.kind = SK_CVTA;
            st.nsrc = 1;
            rc = sb_src(b, d, &in->o[1], &st.src[0], &tags[0]);
            tag = tags[0];
        }
    } else if (in->op == PO_LD && in->space == PS_PARAM && in->vec <= 1 && in->nopnd >= 2 &&
               in->o[1].kind == POK_ADDR && in->o[1].reg < 0 && in->o[1].sym >= 0 &&
               b->m->syms[in->o[1].sym].space == PS_PARAM && f->is_entry) {
        int32_t p = param_of_sym(f, in->o[1].sym);
        unsigned bits = ptx_type_bits((enum ptx_type)in->type);
        st.kind = SK_LDPARAM;
        st.param_off = (uint32_t)(b->m->syms[in->o[1].sym].addr + (uint64_t)in->o[1].imm);
        st.param_len = bits ? bits / 8 : 8;
        if (st.param_len == 0)
            st.param_len = 1;
        tag = bits == 64 ? p : -1;
    } else if (in->op == PO_SULD) {
        rc = sb_fail(b, PTX_SLICE_MEMORY, "value loaded from a surface by %s (line %u)", "suld", in->line);
    } else if (in->op == PO_LD || in->op == PO_LDU || in->op == PO_ATOM || in->op == PO_TEX) {
        char what[48];
        snprintf(what, sizeof what, "%s.%s", opn,
                 in->space == PS_GLOBAL ? "global" : in->space == PS_SHARED ? "shared" : in->space == PS_LOCAL ? "local"
                 : in->space == PS_CONST ? "const" : in->space == PS_PARAM || in->space == PS_PARAM_FUNC ? "param"
                 : "generic");
        rc = sb_fail(b, PTX_SLICE_MEMORY, "value loaded from memory by %s (line %u)", what, in->line);
    } else if (ptx_alu_handles((enum ptx_opcode)in->op)) {
        if ((in->flags & PF_CC) || in->op == PO_ADDC || in->op == PO_SUBC || in->op == PO_MADC)
            rc = sb_fail(b, PTX_SLICE_UNSUPPORTED, "carry arithmetic %s (line %u)", opn, in->line);
        else if (in->o[0].kind != POK_REG && in->o[0].kind != POK_SINK)
            rc = sb_fail(b, PTX_SLICE_UNSUPPORTED, "vector result of %s (line %u)", opn, in->line);
        else {
            unsigned nd = in->has_d2 ? 2u : 1u;
            st.kind = SK_ALU;
            for (unsigned k = 0; k < 4 && nd + k < in->nopnd && rc == 0; k++) {
                rc = sb_src(b, d, &in->o[nd + k], &st.src[k], &tags[k]);
                st.nsrc = (uint8_t)(k + 1);
            }
            /* pointer provenance: base + offset keeps the base */
            if (in->op == PO_ADD)
                tag = tags[0] != -1 ? tags[0] : tags[1];
            else if (in->op == PO_SUB)
                tag = tags[0];
            else if (in->op == PO_MAD)
                tag = tags[2];
            if (in->op == PO_CVT && (in->type == PT_S8 || in->type == PT_S16) && in->o[0].kind == POK_REG) {
                st.sext_bits = (uint8_t)ptx_type_bits((enum ptx_type)in->type);
                st.reg_bits = (uint8_t)ptx_type_bits((enum ptx_type)f->regs[in->o[0].reg].type);
            }
        }
    } else {
        rc = sb_fail(b, PTX_SLICE_UNSUPPORTED, "depends on %s (line %u)", opn, in->line);
    }
    b->visiting[d] = 0;
    if (rc != 0)
        return -1;
    if (b->nst >= PTX_SLICE_MAX_STEPS)
        return sb_fail(b, PTX_SLICE_TOOLONG, "more than %s instructions (line %u)", "128", in->line);
    st.slot = (int32_t)(2 * b->nst);
    b->tag[st.slot] = tag;
    b->tag[st.slot + 1] = -1;
    b->memo_insn[b->nst] = d;
    b->steps[b->nst++] = st;
    return st.slot + (int32_t)which;
}

static int is_access(const struct ptx_insn *in)
{
    if (in->op != PO_LD && in->op != PO_LDU && in->op != PO_ST)
        return 0;
    return in->space == PS_GLOBAL || in->space == PS_NONE;
}

/* Slice access a (instruction i) into b->steps. */
static void sb_access(struct sb *b, struct ptx_slice_access *a, uint32_t i)
{
    const struct ptx_func *f = b->f;
    const struct ptx_insn *in = &f->insns[i];
    b->a = a;
    b->nst = 0;
    a->addr_slot = -1;
    a->addr_off = 0;
    const struct ptx_opnd *o = &in->o[in->op == PO_ST ? 0 : 1];
    int32_t tag = -1;
    if (o->kind == POK_ADDR || o->kind == POK_REG) {
        uint64_t off = o->kind == POK_ADDR ? (uint64_t)o->imm : 0;
        if (o->kind == POK_ADDR && o->sym >= 0) {
            const struct ptx_sym *s = &b->m->syms[o->sym];
            if (s->space != PS_GLOBAL) {
                sb_fail(b, PTX_SLICE_UNSUPPORTED, "address of non-global variable %s (line %u)", s->name, in->line);
                return;
            }
            off += s->addr;
            tag = -2 - o->sym;
        }
        if (o->reg >= 0) {
            int sl = slot_of_use(b, i, o->reg);
            if (sl < 0)
                return;
            a->addr_slot = sl;
            a->addr32 = ptx_type_bits((enum ptx_type)f->regs[o->reg].type) <= 32;
            if (tag == -1)
                tag = b->tag[sl];
        }
        a->addr_off = off;
    } else {
        sb_fail(b, PTX_SLICE_NOBASE, "absolute %s address (line %u)", "immediate", in->line);
        return;
    }
    if (tag == -1) {
        sb_fail(b, PTX_SLICE_NOBASE, "address does not derive from a pointer parameter or global variable%s (line %u)",
                "", in->line);
        return;
    }
    a->array = tag;   /* resolved to an array index by the caller */
}

struct ptx_slice_set *ptx_slice_build(const struct ptx_module *m, int func, unsigned flags, char *msg, size_t n)
{
    if (n)
        msg[0] = '\0';
    if (!m || func < 0 || (uint32_t)func >= m->nfuncs || !m->funcs[func].is_entry) {
        snprintf(msg, n, "not a kernel");
        return NULL;
    }
    const struct ptx_func *f = &m->funcs[func];
    struct ptx_slice_set *s = calloc(1, sizeof *s);
    struct sb b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.f = f;
    b.flags = flags;
    if (!s)
        goto oom;
    s->mod = m;
    s->f = f;
    for (uint32_t i = 0; i < f->ninsns; i++) {
        s->naccess += (uint32_t)is_access(&f->insns[i]);
        s->ncalls += f->insns[i].op == PO_CALL;
    }
    s->acc = calloc(s->naccess ? s->naccess : 1, sizeof *s->acc);
    s->arrays = calloc(s->naccess ? s->naccess : 1, sizeof *s->arrays);
    s->steps = calloc((size_t)(s->naccess ? s->naccess : 1) * PTX_SLICE_MAX_STEPS, sizeof *s->steps);
    if (!s->acc || !s->arrays || !s->steps || sb_cfg(&b) != 0)
        goto oom;
    uint32_t k = 0, longest = 1;
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const struct ptx_insn *in = &f->insns[i];
        if (!is_access(in))
            continue;
        struct ptx_slice_access *a = &s->acc[k++];
        a->insn = i;
        a->line = in->line;
        a->is_store = in->op == PO_ST;
        a->generic = in->space == PS_NONE;
        a->bytes = (ptx_type_bits((enum ptx_type)in->type) / 8u) * (in->vec ? in->vec : 1u);
        a->array = -1;
        a->step0 = s->nsteps;
        b.steps = s->steps + s->nsteps;
        sb_access(&b, a, i);
        if (a->status != PTX_SLICE_OK) {
            a->array = -1;
            a->addr_slot = -1;
            continue;
        }
        a->nsteps = b.nst;
        s->nsteps += b.nst;
        longest = b.nst > longest ? b.nst : longest;
        /* group by base pointer */
        int32_t tag = a->array, param = tag >= 0 ? tag : -1, sym = tag <= -2 ? -2 - tag : -1;
        uint32_t ar = 0;
        while (ar < s->narrays && !(s->arrays[ar].param == param && s->arrays[ar].sym == sym))
            ar++;
        if (ar == s->narrays) {
            s->arrays[ar].param = param;
            s->arrays[ar].sym = sym;
            s->arrays[ar].name = param >= 0 ? f->params[param].name : m->syms[sym].name;
            s->narrays++;
        }
        s->arrays[ar].naccess++;
        a->array = (int32_t)ar;
    }
    s->nslots = 2 * longest;
    s->slots = calloc((size_t)s->nslots * PTX_WARP_SIZE, sizeof(uint64_t));
    if (!s->slots)
        goto oom;
    sb_free(&b);
    return s;
oom:
    sb_free(&b);
    ptx_slice_free(s);
    snprintf(msg, n, "out of host memory while slicing kernel '%s'", f->name);
    return NULL;
}

void ptx_slice_free(struct ptx_slice_set *s)
{
    if (!s)
        return;
    free(s->acc);
    free(s->arrays);
    free(s->steps);
    free(s->slots);
    free(s);
}

/* ---- evaluation ------------------------------------------------------------------------------ */

static const uint64_t *eval_src(struct ptx_slice_set *s, const struct ptx_slice_src *src, const struct ptx_slice_env *env,
                                const uint32_t (*ctaid)[3], const uint32_t (*tid)[3], unsigned nl, uint64_t *tmp)
{
    switch (src->kind) {
    case SRC_SLOT: {
        const uint64_t *r = s->slots + (size_t)src->slot * PTX_WARP_SIZE;
        if (!src->neg)
            return r;
        for (unsigned l = 0; l < nl; l++)
            tmp[l] = !(r[l] & 1);
        return tmp;
    }
    case SRC_IMM:
        if (src->lanes)
            return src->lanes;
        for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
            tmp[l] = src->val;
        return tmp;
    case SRC_CONST:
        for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
            tmp[l] = src->val;
        return tmp;
    case SRC_SREG:
        for (unsigned l = 0; l < nl; l++) {
            uint64_t lin = tid[l][0] + (uint64_t)env->ntid[0] * (tid[l][1] + (uint64_t)env->ntid[1] * tid[l][2]);
            uint64_t v = 0;
            switch (src->sreg) {
            case PSR_TID: v = tid[l][src->comp]; break;
            case PSR_NTID: v = env->ntid[src->comp]; break;
            case PSR_CTAID: v = ctaid[l][src->comp]; break;
            case PSR_NCTAID: v = env->nctaid[src->comp]; break;
            case PSR_LANEID: v = lin % PTX_WARP_SIZE; break;
            case PSR_WARPID: v = lin / PTX_WARP_SIZE; break;
            case PSR_NWARPID: v = PTX_NWARPID; break;
            default: break;
            }
            tmp[l] = v;
        }
        return tmp;
    default:
        return NULL;
    }
}

static uint64_t type_mask(unsigned bits)
{
    return bits == 0 || bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

int ptx_slice_eval(struct ptx_slice_set *s, uint32_t k, const struct ptx_slice_env *env, const uint32_t (*ctaid)[3],
                   const uint32_t (*tid)[3], unsigned nlanes, uint64_t *addr)
{
    if (!s || k >= s->naccess || s->acc[k].status != PTX_SLICE_OK || nlanes == 0 || nlanes > PTX_WARP_SIZE)
        return -1;
    const struct ptx_slice_access *a = &s->acc[k];
    uint32_t mask = nlanes >= 32 ? 0xffffffffu : (1u << nlanes) - 1;
    uint64_t tmp[4][PTX_WARP_SIZE];
    for (uint32_t q = 0; q < a->nsteps; q++) {
        const struct ptx_slice_step *st = &s->steps[a->step0 + q];
        uint64_t *d = s->slots + (size_t)st->slot * PTX_WARP_SIZE;
        const uint64_t *src[4] = {NULL, NULL, NULL, NULL};
        for (unsigned i = 0; i < st->nsrc; i++)
            src[i] = eval_src(s, &st->src[i], env, ctaid, tid, nlanes, tmp[i]);
        switch (st->kind) {
        case SK_ALU: {
            struct ptx_alu_args args;
            memset(&args, 0, sizeof args);
            args.mask = mask;
            args.d = st->in->o[0].kind == POK_REG ? d : NULL;
            args.d2 = st->in->has_d2 ? d + PTX_WARP_SIZE : NULL;
            for (unsigned i = 0; i < 4; i++)
                args.s[i] = src[i];
            if (ptx_alu_exec(st->in, &args) != 0)
                return -1;
            if (st->sext_bits && st->reg_bits > st->sext_bits) {
                uint64_t sign = 1ull << (st->sext_bits - 1), rm = type_mask(st->reg_bits);
                for (unsigned l = 0; l < nlanes; l++)
                    d[l] = ((d[l] ^ sign) - sign) & rm;
            }
            break;
        }
        case SK_MOV: {
            uint64_t tm = type_mask(ptx_type_bits((enum ptx_type)st->in->type));
            for (unsigned l = 0; l < nlanes; l++)
                d[l] = src[0][l] & tm;
            break;
        }
        case SK_CVTA:
            for (unsigned l = 0; l < nlanes; l++)
                d[l] = src[0][l];
            break;
        case SK_LDPARAM: {
            if (!env->params || (uint64_t)st->param_off + st->param_len > env->param_bytes)
                return -1;
            uint64_t v = 0;
            for (unsigned b = 0; b < st->param_len && b < 8; b++)
                v |= (uint64_t)env->params[st->param_off + b] << (8 * b);
            for (unsigned l = 0; l < nlanes; l++)
                d[l] = v;
            break;
        }
        default:
            return -1;
        }
    }
    for (unsigned l = 0; l < nlanes; l++) {
        uint64_t v = a->addr_slot >= 0 ? s->slots[(size_t)a->addr_slot * PTX_WARP_SIZE + l] : 0;
        v += a->addr_off;
        addr[l] = a->addr32 ? v & 0xffffffffull : v;
    }
    return 0;
}

/* ---- access ranges ------------------------------------------------------------------------------ */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

void ptx_slice_line_xy(const struct ptx_slice_layout *lay, uint64_t addr, int64_t *x, int64_t *y)
{
    int64_t off = (int64_t)(addr - lay->base);
    int64_t line = lay->line ? (int64_t)lay->line : 128;
    if (lay->pitch == 0) {
        *x = floor_div(off, line);
        *y = 0;
        return;
    }
    int64_t p = (int64_t)lay->pitch;
    *y = floor_div(off, p);
    *x = (off - *y * p) / line;
}

static void cta_index(const struct ptx_slice_env *env, uint64_t lin, uint32_t c[3])
{
    uint64_t gx = env->nctaid[0] ? env->nctaid[0] : 1, gy = env->nctaid[1] ? env->nctaid[1] : 1;
    c[0] = (uint32_t)(lin % gx);
    c[1] = (uint32_t)(lin / gx % gy);
    c[2] = (uint32_t)(lin / (gx * gy));
}

static void thread_index(const struct ptx_slice_env *env, uint64_t lin, uint32_t t[3])
{
    uint64_t nx = env->ntid[0] ? env->ntid[0] : 1, ny = env->ntid[1] ? env->ntid[1] : 1;
    t[0] = (uint32_t)(lin % nx);
    t[1] = (uint32_t)(lin / nx % ny);
    t[2] = (uint32_t)(lin / (nx * ny));
}

static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

int ptx_slice_layout(struct ptx_slice_set *s, const struct ptx_slice_env *env, uint32_t line,
                     struct ptx_slice_layout *lay)
{
    for (uint32_t ar = 0; ar < s->narrays; ar++) {
        struct ptx_slice_layout *L = &lay[ar];
        const struct ptx_slice_array *A = &s->arrays[ar];
        L->line = line ? line : 128;
        L->pitch = 0;
        L->base = 0;
        if (A->param >= 0) {
            const struct ptx_param *p = &s->f->params[A->param];
            if (!env->params || (uint64_t)p->offset + 8 > env->param_bytes)
                return -1;
            for (unsigned b = 0; b < 8; b++)
                L->base |= (uint64_t)env->params[p->offset + b] << (8 * b);
        } else if (A->sym >= 0) {
            L->base = s->mod->syms[A->sym].addr;
        }
        uint32_t k = 0;
        while (k < s->naccess && s->acc[k].array != (int32_t)ar)
            k++;
        if (k == s->naccess)
            continue;
        /* lane 0: thread 0 of block 0; lane 1 one step in x; lane 2 one step in y */
        uint32_t cta[3][3], tid[3][3];
        memset(cta, 0, sizeof cta);
        memset(tid, 0, sizeof tid);
        if (env->ntid[0] > 1)
            tid[1][0] = 1;
        else if (env->nctaid[0] > 1)
            cta[1][0] = 1;
        if (env->ntid[1] > 1)
            tid[2][1] = 1;
        else if (env->nctaid[1] > 1)
            cta[2][1] = 1;
        uint64_t ad[3];
        if (ptx_slice_eval(s, k, env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, 3, ad) != 0)
            return -1;
        uint64_t sx = absdiff(ad[1], ad[0]), sy = absdiff(ad[2], ad[0]);
        uint64_t pitch = sx && sy ? (sx > sy ? sx : sy) : 0;
        L->pitch = pitch >= L->line ? pitch : 0;
    }
    return 0;
}

static void rect_add(struct ptx_slice_rect *r, int64_t x, int64_t y)
{
    if (r->w == 0) {
        r->x = x;
        r->y = y;
        r->w = r->h = 1;
        return;
    }
    int64_t x1 = r->x + r->w - 1, y1 = r->y + r->h - 1;
    if (x < r->x)
        r->x = x;
    if (y < r->y)
        r->y = y;
    if (x > x1)
        x1 = x;
    if (y > y1)
        y1 = y;
    r->w = x1 - r->x + 1;
    r->h = y1 - r->y + 1;
}

/* The lines access k's first and last threads of block cta_linear touch, widening *r. */
static int access_corners(struct ptx_slice_set *s, uint32_t k, const struct ptx_slice_env *env,
                          const struct ptx_slice_layout *lay, uint64_t cta_linear, struct ptx_slice_rect *r)
{
    uint32_t cta[2][3], tid[2][3];
    cta_index(env, cta_linear, cta[0]);
    memcpy(cta[1], cta[0], sizeof cta[0]);
    memset(tid, 0, sizeof tid);
    for (int d = 0; d < 3; d++)
        tid[1][d] = env->ntid[d] ? env->ntid[d] - 1 : 0;
    uint64_t ad[2];
    if (ptx_slice_eval(s, k, env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, 2, ad) != 0)
        return -1;
    for (int l = 0; l < 2; l++) {
        int64_t x, y;
        ptx_slice_line_xy(&lay[s->acc[k].array], ad[l], &x, &y);
        rect_add(r, x, y);
    }
    return 0;
}

int ptx_slice_cta_rects(struct ptx_slice_set *s, const struct ptx_slice_env *env,
                        const struct ptx_slice_layout *lay, uint64_t cta_linear, struct ptx_slice_rect *rect)
{
    for (uint32_t ar = 0; ar < s->narrays; ar++)
        memset(&rect[ar], 0, sizeof rect[ar]);
    for (uint32_t k = 0; k < s->naccess; k++)
        if (s->acc[k].status == PTX_SLICE_OK && access_corners(s, k, env, lay, cta_linear, &rect[s->acc[k].array]) != 0)
            return -1;
    return 0;
}

int ptx_slice_cta_access_rects(struct ptx_slice_set *s, const struct ptx_slice_env *env,
                               const struct ptx_slice_layout *lay, uint64_t cta_linear, struct ptx_slice_rect *rect)
{
    for (uint32_t k = 0; k < s->naccess; k++) {
        memset(&rect[k], 0, sizeof rect[k]);
        if (s->acc[k].status == PTX_SLICE_OK && access_corners(s, k, env, lay, cta_linear, &rect[k]) != 0)
            return -1;
    }
    return 0;
}

int ptx_slice_warp_points(struct ptx_slice_set *s, const struct ptx_slice_env *env,
                          const struct ptx_slice_layout *lay, uint64_t cta_linear, unsigned warp, uint32_t ar,
                          int64_t *xs, int64_t *ys, unsigned max)
{
    if (ar >= s->narrays)
        return -1;
    uint64_t threads = (uint64_t)env->ntid[0] * env->ntid[1] * env->ntid[2];
    uint64_t first = (uint64_t)warp * PTX_WARP_SIZE;
    if (first >= threads)
        return 0;
    unsigned nl = (unsigned)(threads - first < PTX_WARP_SIZE ? threads - first : PTX_WARP_SIZE);
    uint32_t cta[PTX_WARP_SIZE][3], tid[PTX_WARP_SIZE][3];
    cta_index(env, cta_linear, cta[0]);
    for (unsigned l = 0; l < nl; l++) {
        memcpy(cta[l], cta[0], sizeof cta[0]);
        thread_index(env, first + l, tid[l]);
    }
    unsigned np = 0;
    for (uint32_t k = 0; k < s->naccess; k++) {
        const struct ptx_slice_access *a = &s->acc[k];
        if (a->status != PTX_SLICE_OK || a->array != (int32_t)ar)
            continue;
        uint64_t ad[PTX_WARP_SIZE];
        if (ptx_slice_eval(s, k, env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, nl, ad) != 0)
            return -1;
        for (unsigned l = 0; l < nl; l++) {
            int64_t x, y;
            ptx_slice_line_xy(&lay[ar], ad[l], &x, &y);
            /* sorted insert by (y, x) without duplicates */
            unsigned p = 0;
            while (p < np && (ys[p] < y || (ys[p] == y && xs[p] < x)))
                p++;
            if (p < np && ys[p] == y && xs[p] == x)
                continue;
            if (np == max) {
                if (p == np)
                    continue;
                np--;   /* drop the largest to keep the smallest `max` points */
            }
            for (unsigned q = np; q > p; q--) {
                xs[q] = xs[q - 1];
                ys[q] = ys[q - 1];
            }
            xs[p] = x;
            ys[p] = y;
            np++;
        }
    }
    return (int)np;
}

void ptx_slice_describe(const struct ptx_slice_set *s, uint32_t k, char *buf, size_t n)
{
    const struct ptx_slice_access *a = &s->acc[k];
    const struct ptx_insn *in = &s->f->insns[a->insn];
    char op[64];
    snprintf(op, sizeof op, "%s%s%s%s.%s", ptx_opcode_name((enum ptx_opcode)in->op),
             in->space == PS_GLOBAL ? ".global" : "", (in->flags & PF_NC) ? ".nc" : "",
             in->vec > 1 ? (in->vec == 2 ? ".v2" : ".v4") : "", ptx_type_name((enum ptx_type)in->type));
    if (a->status == PTX_SLICE_OK)
        snprintf(buf, n, "line %u: %-18s array %s: sliced (%u instruction%s)%s%s", a->line, op,
                 s->arrays[a->array].name, a->nsteps, a->nsteps == 1 ? "" : "s", a->loop_entry ? "; " : "",
                 a->loop_entry ? a->why : "");
    else
        snprintf(buf, n, "line %u: %-18s not sliced: %s", a->line, op, a->why);
}
