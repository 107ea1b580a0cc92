/*
 * ptx_liveness.c - which registers of a function some thread may read before
 * it writes them (the registers live at the function's entry).
 *
 * Only those registers need a defined start value; every other register is
 * written on each path before it is read, so its start value cannot be
 * observed.  The CTA buffers use this to clear a handful of register slots
 * per warp instead of the whole register file (ptx_cta_reuse).
 *
 * Backward may-liveness over the instructions:
 *   live_in(i) = use(i) | (live_out(i) & ~def(i)),  live_out(i) = OR of live_in over i's successors,
 * iterated to the fixed point, with the successors of ptx_insn_succs (ptx_cfg.c): a
 * branch goes to its target (and falls through when guarded), ret/exit/trap end
 * the path (guarded ones fall through), a call falls through.
 *
 * Every thread follows one such path through the code, whatever the SIMT stack
 * does with its warp, so the per-thread analysis holds per lane.  The analysis
 * errs towards "live":
 *   - a destination counts as written only for instructions known to write it
 *     in every lane that executes them (moves, loads, atom, tex, the ALU,
 *     cvta, isspacep, activemask, shfl, vote, match) and only when the
 *     instruction has no guard; every register operand of any other
 *     instruction (red, suld, bar.red, calls' results, ...) counts as read;
 *   - the hidden carry flag is always live (addc reads it);
 *   - shfl reads its source from another lane, which may not have executed the
 *     definition its own path had (or may be past the CTA's last thread): the
 *     register a shfl takes its value from is live.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_exec.h"

static bool writes_every_lane(uint16_t op)
{
    switch (op) {
    case PO_MOV: case PO_LD: case PO_LDU: case PO_CVTA: case PO_ISSPACEP: case PO_ACTIVEMASK:
    case PO_SETP: case PO_SELP: case PO_SET: case PO_SLCT: case PO_CVT:
    case PO_ATOM: case PO_TEX: case PO_SHFL: case PO_VOTE: case PO_MATCH:
        return true;
    default:
        /* the ALU: add .. testp in the opcode list (exec_alu writes d, and d2 when present) */
        return op >= PO_ADD && op <= PO_TESTP;
    }
}

static inline void live_set(const struct ptx_func *f, uint64_t *s, int32_t r)
{
    if (r >= 0 && (uint32_t)r < f->nregs)
        s[r >> 6] |= 1ull << (r & 63);
}

static inline void live_clr(const struct ptx_func *f, uint64_t *s, int32_t r)
{
    if (r >= 0 && (uint32_t)r < f->nregs)
        s[r >> 6] &= ~(1ull << (r & 63));
}

/* registers operand o reads (its base register for an address) */
static unsigned opnd_regs(const struct ptx_opnd *o, int32_t out[PTX_MAX_VEC])
{
    unsigned n = 0;
    if ((o->kind == POK_REG || o->kind == POK_ADDR) && o->reg >= 0)
        out[n++] = o->reg;
    else if (o->kind == POK_VEC)
        for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++)
            if (o->vregs[k] >= 0)
                out[n++] = o->vregs[k];
    return n;
}

/* registers destination o of in receives: a register, or the elements of a vector (ld.v2 into
   {a,b,c,d} fills only the first two) */
static unsigned written_regs(const struct ptx_insn *in, const struct ptx_opnd *o, int32_t out[PTX_MAX_VEC])
{
    if (o->kind == POK_REG)
        return o->reg >= 0 ? (out[0] = o->reg, 1u) : 0u;
    if (o->kind != POK_VEC)
        return 0;
    unsigned lim = o->nvec < PTX_MAX_VEC ? o->nvec : PTX_MAX_VEC, n = 0;
    if ((in->op == PO_LD || in->op == PO_LDU) && lim > (in->vec > 1 ? in->vec : 1u))
        lim = in->vec > 1 ? in->vec : 1u;
    for (unsigned k = 0; k < lim; k++)
        if (o->vregs[k] >= 0)
            out[n++] = o->vregs[k];
    return n;
}

/* number of leading operands the instruction writes in every lane that executes it (0: none) */
static unsigned defined_opnds(const struct ptx_insn *in)
{
    if (in->guard >= 0 || !writes_every_lane(in->op))
        return 0;
    unsigned nd = in->has_d2 ? 2u : 1u;
    return nd < in->nopnd ? nd : in->nopnd;
}

/* live = use(in) | (live & ~def(in)) for the function's registers */
static void transfer(const struct ptx_func *f, const struct ptx_insn *in, uint64_t *live)
{
    unsigned nd = defined_opnds(in);
    int32_t r[PTX_MAX_VEC];
    for (unsigned i = 0; i < nd; i++)
        for (unsigned k = 0, n = written_regs(in, &in->o[i], r); k < n; k++)
            live_clr(f, live, r[k]);
    /* then the reads, so that a register both read and written stays live; an address among the
       leading operands is read too */
    for (unsigned i = 0; i < in->nopnd; i++)
        if (i >= nd || in->o[i].kind == POK_ADDR)
            for (unsigned k = 0, n = opnd_regs(&in->o[i], r); k < n; k++)
                live_set(f, live, r[k]);
    live_set(f, live, in->guard);
    if (in->op == PO_CALL && in->call >= 0 && (uint32_t)in->call < f->ncalls) {
        const struct ptx_call *c = &f->calls[in->call];
        for (unsigned a = 0; a < c->nargs; a++)
            if (c->arg_is_reg && c->arg_is_reg[a])
                live_set(f, live, c->args[a]);
        for (unsigned a = 0; a < c->nrets; a++)
            if (c->ret_is_reg && c->ret_is_reg[a])
                live_set(f, live, c->rets[a]);
    }
}

int ptx_entry_live_regs(const struct ptx_func *f, uint32_t **regs, uint32_t *nlive)
{
    *regs = NULL;
    *nlive = 0;
    size_t words = (f->nregs + 63) / 64, n = f->ninsns;
    uint64_t *in_sets = calloc((n ? n : 1) * (words ? words : 1), sizeof *in_sets);
    uint64_t *cur = calloc(words ? words : 1, sizeof *cur);
    uint64_t *entry = calloc(words ? words : 1, sizeof *entry);
    if (!in_sets || !cur || !entry)
        goto oom;
    for (bool changed = n > 0; changed;) {
        changed = false;
        for (size_t i = n; i-- > 0;) {
            uint32_t s[2];
            unsigned ns = ptx_insn_succs(f, (uint32_t)i, s);
            memset(cur, 0, words * sizeof *cur);
            for (unsigned k = 0; k < ns; k++)
                for (size_t w = 0; w < words; w++)
                    cur[w] |= in_sets[s[k] * words + w];
            transfer(f, &f->insns[i], cur);
            if (memcmp(cur, &in_sets[i * words], words * sizeof *cur)) {
                memcpy(&in_sets[i * words], cur, words * sizeof *cur);
                changed = true;
            }
        }
    }
    if (n)
        memcpy(entry, in_sets, words * sizeof *entry);
    live_set(f, entry, f->cc_reg);
    int32_t r[PTX_MAX_VEC];
    for (size_t i = 0; i < n; i++)
        if (f->insns[i].op == PO_SHFL) {
            unsigned a = f->insns[i].has_d2 ? 2u : 1u;  /* the value operand; b and c are the lane's own */
            for (unsigned k = 0, c = a < f->insns[i].nopnd ? opnd_regs(&f->insns[i].o[a], r) : 0; k < c; k++)
                live_set(f, entry, r[k]);
        }
    uint32_t count = 0;
    for (uint32_t q = 0; q < f->nregs; q++)
        count += (uint32_t)((entry[q >> 6] >> (q & 63)) & 1u);
    *regs = malloc((count ? count : 1) * sizeof **regs);
    if (!*regs)
        goto oom;
    for (uint32_t q = 0; q < f->nregs; q++)
        if ((entry[q >> 6] >> (q & 63)) & 1)
            (*regs)[(*nlive)++] = q;
    free(in_sets);
    free(cur);
    free(entry);
    return 0;
oom:
    free(in_sets);
    free(cur);
    free(entry);
    return -1;
}
