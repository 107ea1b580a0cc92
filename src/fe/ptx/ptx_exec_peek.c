/*
 * ptx_exec_peek.c - what a cycle-level timing model needs to know about a
 * warp's next instruction before it executes it (ptx_exec.h, "peeking"):
 * where it is, its class and latency class, and the registers it reads and
 * writes as scoreboard keys that stay distinct across call frames.
 */
#include "ptx_exec_int.h"

#include "core/arena.h"

static bool peek_has_dst(enum ptx_opcode op)
{
    switch (op) {
    case PO_ST: case PO_RED: case PO_PREFETCH: case PO_BRA: case PO_CALL: case PO_RET: case PO_EXIT:
    case PO_TRAP: case PO_MEMBAR: case PO_FENCE: case PO_NANOSLEEP: case PO_PMEVENT: case PO_SUST:
        return false;
    default:
        return true;
    }
}

unsigned ptx_insn_lat_class(const struct ptx_insn *in)
{
    switch ((enum ptx_opcode)in->op) {
    case PO_MIN: case PO_MAX:
        return 1;
    case PO_MUL: case PO_MUL24:
        return 2;
    case PO_MAD: case PO_MAD24: case PO_MADC: case PO_FMA: case PO_SAD: case PO_DP4A: case PO_DP2A:
        return 3;
    case PO_DIV: case PO_REM:
        return 4;
    default:
        return 0;
    }
}

static void peek_add(uint32_t *arr, uint8_t *n, unsigned cap, int32_t r, uint32_t base)
{
    if (r < 0 || *n >= cap)
        return;
    uint32_t k = base + (uint32_t)r;
    for (unsigned i = 0; i < *n; i++)   /* a register read twice is one scoreboard check */
        if (arr[i] == k)
            return;
    arr[(*n)++] = k;
}

/* Same register lists as the executor's warp_inst (destinations: the leading
   operands that are written; sources: every other register, address bases
   and the guard), plus what the operands do not show: the carry flag of
   .cc / addc-style instructions and the argument / return registers of a
   call.  Keys are the function's register numbers plus `base`. */
static void peek_regs(const struct ptx_func *f, const struct ptx_insn *in, uint32_t base, struct ptx_peek_tmpl *p)
{
    p->ndst = p->nsrc = 0;
    if (in->op == PO_CALL) {
        if (in->call >= 0 && (uint32_t)in->call < f->ncalls) {
            const struct ptx_call *c = &f->calls[in->call];
            for (unsigned i = 0; i < c->nargs; i++)
                if (c->arg_is_reg && c->arg_is_reg[i])
                    peek_add(p->src, &p->nsrc, PTX_PEEK_MAX_SRC, c->args[i], base);
            for (unsigned i = 0; i < c->nrets; i++)
                if (c->ret_is_reg && c->ret_is_reg[i])
                    peek_add(p->dst, &p->ndst, PTX_PEEK_MAX_DST, c->rets[i], base);
        }
        peek_add(p->src, &p->nsrc, PTX_PEEK_MAX_SRC, in->guard, base);
        return;
    }
    unsigned nd = 0;
    if (in->op == PO_BAR || in->op == PO_BARRIER)
        nd = in->subop == PBM_RED_POPC || in->subop == PBM_RED_AND || in->subop == PBM_RED_OR ? 1u : 0u;
    else if (peek_has_dst((enum ptx_opcode)in->op))
        nd = in->has_d2 ? 2u : 1u;
    for (unsigned i = 0; i < in->nopnd; i++) {
        const struct ptx_opnd *o = &in->o[i];
        bool dst = i < nd;
        uint32_t *arr = dst ? p->dst : p->src;
        uint8_t *n = dst ? &p->ndst : &p->nsrc;
        unsigned cap = dst ? PTX_PEEK_MAX_DST : PTX_PEEK_MAX_SRC;
        if (o->kind == POK_REG) {
            peek_add(arr, n, cap, o->reg, base);
        } else if (o->kind == POK_VEC) {
            for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++)
                peek_add(arr, n, cap, o->vregs[k], base);
        } else if (o->kind == POK_ADDR) {
            peek_add(p->src, &p->nsrc, PTX_PEEK_MAX_SRC, o->reg, base);
        }
    }
    if (f->cc_reg >= 0) {
        if (in->op == PO_ADDC || in->op == PO_SUBC || in->op == PO_MADC)
            peek_add(p->src, &p->nsrc, PTX_PEEK_MAX_SRC, f->cc_reg, base);
        if (in->flags & PF_CC)
            peek_add(p->dst, &p->ndst, PTX_PEEK_MAX_DST, f->cc_reg, base);
    }
    peek_add(p->src, &p->nsrc, PTX_PEEK_MAX_SRC, in->guard, base);
}

static void peek_tmpl_fill(const struct ptx_func *f, const struct ptx_insn *in, struct ptx_peek_tmpl *t)
{
    t->cls = (uint8_t)ptx_exec_wi_class((enum ptx_iclass)in->iclass);
    t->lat_class = (uint8_t)ptx_insn_lat_class(in);
    t->space = (uint8_t)ptx_exec_wi_space((enum ptx_iclass)in->iclass);
    peek_regs(f, in, 0, t);
}

int ptx_peek_prepare(struct ptx_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        struct ptx_func *f = &m->funcs[i];
        f->peek = NULL;
        if (!f->ninsns)
            continue;
        f->peek = arena_alloc((struct arena *)m->arena, sizeof *f->peek * f->ninsns);
        if (!f->peek)
            return -1;
        for (uint32_t k = 0; k < f->ninsns; k++)
            peek_tmpl_fill(f, &f->insns[k], &f->peek[k]);
    }
    return 0;
}

int ptx_warp_peek(struct ptx_warp *w, struct ptx_peek *p)
{
    p->insn = NULL;
    if (w->status != PTX_WARP_READY)
        return (int)w->status;
    struct ptx_frame *fr = exec_frame(w);
    const struct ptx_simt_ent *top = &w->simt[w->sp - 1];
    if (w->sp <= fr->simt_base || top->mask == 0 || top->pc == top->rpc || top->pc >= fr->f->ninsns) {
        int st = exec_settle(w);
        if (st != PTX_WARP_READY)
            return st;
        fr = exec_frame(w);
        top = &w->simt[w->sp - 1];
    }
    const struct ptx_func *f = fr->f;
    const struct ptx_insn *in = &f->insns[top->pc];
    p->insn = in;
    p->pc = top->pc;
    p->func = fr->fidx;
    struct ptx_peek_tmpl own;
    const struct ptx_peek_tmpl *t = f->peek ? &f->peek[top->pc] : &own;
    if (!f->peek)   /* a module ptx_cfg_analyze did not see */
        peek_tmpl_fill(f, in, &own);
    p->cls = t->cls;
    p->lat_class = t->lat_class;
    p->space = t->space;
    p->ndst = t->ndst;
    p->nsrc = t->nsrc;
    uint32_t base = (uint32_t)((size_t)(fr->regs - w->regstack) / PTX_WARP_SIZE);
    for (unsigned i = 0; i < t->ndst; i++)
        p->dst[i] = base + t->dst[i];
    for (unsigned i = 0; i < t->nsrc; i++)
        p->src[i] = base + t->src[i];
    return PTX_WARP_READY;
}
