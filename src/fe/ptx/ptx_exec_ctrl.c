/*
 * ptx_exec_ctrl.c - SIMT control flow (branch divergence and reconvergence,
 * calls and returns, exit), CTA barriers, and the cross-lane instructions
 * shfl / vote / match.  See ptx_exec.h for the stack discipline.
 */
#include "ptx_exec_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>



/* ---- barriers ----------------------------------------------------------------- */

static void bar_reset(struct ptx_bar *b)
{
    memset(b, 0, sizeof *b);
    b->red_and = 1;
}

/* Release barrier id when enough threads have arrived: wake the waiting warps
   and hand them the bar.red result. */
static void bar_try_release(struct ptx_cta *c, unsigned id)
{
    struct ptx_bar *b = &c->bars[id];
    if (b->arrived == 0)
        return;
    uint32_t need = b->expected ? b->expected : c->live_threads;
    if (b->arrived < need)
        return;
    for (uint64_t wm = b->waiting; wm; wm &= wm - 1) {
        struct ptx_warp *w = &c->warps[__builtin_ctzll(wm)];
        if (w->bar_dst >= 0) {
            uint64_t *d = exec_frame(w)->regs + (size_t)w->bar_dst * PTX_WARP_SIZE;
            uint64_t v = w->bar_red == PBM_RED_POPC ? b->red_popc
                       : w->bar_red == PBM_RED_AND ? b->red_and : b->red_or;
            FOR_LANES(w->bar_mask, l) d[l] = v;
        }
        w->bar_waiting = 0;
        if (w->status == PTX_WARP_BARRIER)
            w->status = PTX_WARP_READY;
    }
    bar_reset(b);
}

static void bar_recheck_all(struct ptx_cta *c)
{
    for (unsigned i = 0; i < PTX_MAX_BARRIERS; i++)
        if (c->bars[i].arrived)
            bar_try_release(c, i);
}

/* first active lane's value of a barrier operand */
static uint64_t bar_operand(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_opnd *o, uint32_t m)
{
    const uint64_t *v = exec_src(w, fr, o, 5);
    if (!v)
        return UINT64_MAX;
    return v[m ? __builtin_ctz(m) : 0];
}

int exec_bar(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    struct ptx_simt_ent *top = &w->simt[w->sp - 1];
    uint32_t pc = top->pc;
    top->pc = pc + 1;
    if (m == 0) /* guarded off entirely: no arrival */
        return PTX_WARP_READY;
    unsigned mode = in->subop;
    if (mode == PBM_WARP_SYNC) /* __syncwarp: lanes already run in lockstep here */
        return PTX_WARP_READY;
    bool red = mode == PBM_RED_POPC || mode == PBM_RED_AND || mode == PBM_RED_OR;
    /* operands: [d,] a [, b] [, c]: d and c only for bar.red */
    unsigned first = red ? 1u : 0u;
    unsigned last = red ? (unsigned)in->nopnd - 1u : (unsigned)in->nopnd;
    uint64_t id = first < last ? bar_operand(w, fr, &in->o[first], m) : 0;
    uint64_t count = first + 1 < last ? bar_operand(w, fr, &in->o[first + 1], m) : 0;
    if (id >= PTX_MAX_BARRIERS)
        return exec_fail(w, in, -1, PTX_EXEC_FAILED, "Invalid barrier id", NULL);
    if (count > PTX_MAX_CTA_THREADS || (first + 1 < last && count == 0))
        return exec_fail(w, in, -1, PTX_EXEC_FAILED, "Invalid barrier thread count", NULL);
    struct ptx_cta *c = w->cta;
    struct ptx_bar *b = &c->bars[id];
    if (count)
        b->expected = (uint32_t)count;
    if (red) {
        const struct ptx_opnd *po = &in->o[in->nopnd - 1];
        const uint64_t *p = exec_src(w, fr, po, 4);
        if (!p)
            return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported bar.red operand", NULL);
        uint32_t set = exec_pred_mask(p, 0) & m;
        b->red_popc += (uint32_t)__builtin_popcount(set);
        if (set != m)
            b->red_and = 0;
        if (set)
            b->red_or = 1;
    }
    if (mode != PBM_ARRIVE) {
        w->status = PTX_WARP_BARRIER;
        w->bar_waiting = 1;
        w->bar_id = (uint8_t)id;
        w->bar_red = (uint8_t)mode;
        w->bar_dst = red && in->o[0].kind == POK_REG ? in->o[0].reg : -1;
        w->bar_mask = m;
        w->bar_pc = pc;
        w->bar_func = fr->f;
        b->waiting |= 1ull << w->wid;
    }
    /* warp-granular arrival: every thread of the warp that has not exited counts */
    b->arrived += (uint32_t)__builtin_popcount(~w->exited);
    bar_try_release(c, (unsigned)id);
    return (int)w->status;
}

/* ---- exit, ret, call, branch ------------------------------------------------------ */

int exec_exit(struct ptx_warp *w, uint32_t m)
{
    m &= ~w->exited;
    for (uint32_t i = 0; i < w->sp; i++)
        w->simt[i].mask &= ~m;
    w->exited |= m;
    struct ptx_cta *c = w->cta;
    c->live_threads -= (uint32_t)__builtin_popcount(m);
    if (w->exited == EXEC_FULL && w->status != PTX_WARP_EXITED) {
        w->status = PTX_WARP_EXITED;
        c->warps_done++;
    }
    if (m)
        bar_recheck_all(c);
    return (int)w->status;
}

static void frame_set_tops(struct ptx_warp *w, const struct ptx_frame *fr)
{
    w->local_top = fr->local_base + fr->f->local_bytes;
    w->param_top = fr->param_base + fr->f->frame_param_bytes;
}

/* Pop the finished frame at the top: copy its return values to the caller. */
static void frame_return(struct ptx_warp *w)
{
    const struct ptx_frame *fr = &w->frames[w->fp - 1];
    const struct ptx_frame *cf = &w->frames[w->fp - 2];
    const struct ptx_call *call = fr->call;
    const struct ptx_func *f = fr->f;
    const struct ptx_module *mod = w->g->mod;
    uint32_t lanes = fr->call_mask & ~w->exited;
    for (unsigned i = 0; call && i < call->nrets && i < f->nrets; i++) {
        uint64_t src_off = fr->param_base + f->rets[i].offset;
        uint64_t size = f->rets[i].size;
        if (call->ret_is_reg && call->ret_is_reg[i]) {
            uint64_t *d = cf->regs + (size_t)call->rets[i] * PTX_WARP_SIZE;
            uint64_t n = size < 8 ? size : 8;
            uint64_t mk = exec_type_mask(exec_reg_bits(cf, call->rets[i]));
            FOR_LANES(lanes, l) {
                uint64_t v = 0;
                memcpy(&v, w->pstack + l * w->param_stride + src_off, n);
                d[l] = v & mk;
            }
        } else {
            const struct ptx_sym *s = &mod->syms[call->rets[i]];
            uint64_t n = size < s->size || s->size == 0 ? size : s->size;
            uint64_t dst_off = cf->param_base + s->addr;
            FOR_LANES(lanes, l) {
                uint8_t *base = w->pstack + l * w->param_stride;
                memmove(base + dst_off, base + src_off, n);
            }
        }
    }
    w->fp--;
    frame_set_tops(w, cf);
}

int exec_settle(struct ptx_warp *w)
{
    for (;;) {
        if (w->status != PTX_WARP_READY)
            return (int)w->status;
        struct ptx_frame *fr = exec_frame(w);
        if (w->sp <= fr->simt_base) {
            if (w->fp == 1) {
                /* the kernel's stack is empty: lanes still alive ran off its end */
                exec_exit(w, ~w->exited);
                if (w->status == PTX_WARP_READY) { /* cannot happen: every lane is gone */
                    w->status = PTX_WARP_EXITED;
                    w->cta->warps_done++;
                }
                return (int)w->status;
            }
            frame_return(w);
            continue;
        }
        struct ptx_simt_ent *top = &w->simt[w->sp - 1];
        if (top->mask == 0 || top->pc == top->rpc) {
            w->sp--;
            continue;
        }
        if (top->pc >= fr->f->ninsns) {
            /* ran off the end of the function without ret: return implicitly */
            uint32_t m = top->mask;
            if (w->fp == 1) {
                exec_exit(w, m);
            } else {
                for (uint32_t i = fr->simt_base; i < w->sp; i++)
                    w->simt[i].mask &= ~m;
            }
            continue;
        }
        return PTX_WARP_READY;
    }
}

int exec_ret(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    (void)in;
    struct ptx_simt_ent *top = &w->simt[w->sp - 1];
    top->pc = top->pc + 1;   /* lanes guarded off continue after the ret */
    if (m == 0)
        return PTX_WARP_READY;
    if (w->fp == 1)          /* ret from the kernel is exit */
        return exec_exit(w, m);
    for (uint32_t i = fr->simt_base; i < w->sp; i++)
        w->simt[i].mask &= ~m;
    return PTX_WARP_READY;
}

int exec_call(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
              struct warp_inst *wi)
{
    struct ptx_simt_ent *top = &w->simt[w->sp - 1];
    uint32_t pc = top->pc;
    top->pc = pc + 1;
    if (m == 0)
        return PTX_WARP_READY;
    const struct ptx_module *mod = w->g->mod;
    if (in->call < 0 || (uint32_t)in->call >= fr->f->ncalls)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "call without a call-table entry", NULL);
    const struct ptx_call *call = &fr->f->calls[in->call];
    if (call->callee < 0 || (uint32_t)call->callee >= mod->nfuncs)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "indirect call is not supported", NULL);
    const struct ptx_func *f = &mod->funcs[call->callee];
    if (f->ninsns == 0) {
        /* the device library: printf, malloc/free, assert (ptx_devlib.h) */
        int st = exec_devlib_call(w, fr, in, call, f, m);
        if (st >= 0)
            return st;
        char what[300];
        snprintf(what, sizeof what, "Call to external function '%s' is not supported", f->name ? f->name : "?");
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, what, NULL);
    }
    if (w->fp >= w->frame_cap || w->sp >= w->simt_cap)
        return exec_fail(w, in, -1, PTX_EXEC_FAILED, "Call stack overflow", NULL);

    struct ptx_frame *nf = &w->frames[w->fp];
    nf->f = f;
    nf->fidx = (uint16_t)call->callee;
    nf->regs = fr->regs + (size_t)fr->f->nregs * PTX_WARP_SIZE;
    nf->local_base = fr->local_base + ptx_frame_local_size(fr->f);
    nf->param_base = fr->param_base + ptx_frame_param_size(fr->f);
    nf->simt_base = w->sp;
    nf->call_mask = m;
    nf->call_pc = pc;
    nf->call = call;

    /* arguments into the callee's formal params, lane by lane */
    for (unsigned i = 0; i < call->nargs && i < f->nparams; i++) {
        uint64_t size = f->params[i].size;
        uint64_t dst_off = nf->param_base + f->params[i].offset;
        if (call->arg_is_reg && call->arg_is_reg[i]) {
            const uint64_t *r = fr->regs + (size_t)call->args[i] * PTX_WARP_SIZE;
            uint64_t n = size < 8 ? size : 8;
            FOR_LANES(m, l) memcpy(w->pstack + l * w->param_stride + dst_off, &r[l], n);
        } else {
            const struct ptx_sym *s = &mod->syms[call->args[i]];
            uint64_t n = size < s->size || s->size == 0 ? size : s->size;
            if (s->space == PS_PARAM) {
                if (s->addr + n > w->g->param_bytes)
                    n = s->addr < w->g->param_bytes ? w->g->param_bytes - s->addr : 0;
                FOR_LANES(m, l) memcpy(w->pstack + l * w->param_stride + dst_off, w->g->params + s->addr, n);
            } else {
                uint64_t src_off = fr->param_base + s->addr;
                FOR_LANES(m, l) {
                    uint8_t *base = w->pstack + l * w->param_stride;
                    memmove(base + dst_off, base + src_off, n);
                }
            }
        }
    }
    w->fp++;
    w->simt[w->sp++] = (struct ptx_simt_ent){0, f->ninsns, m, 0};
    frame_set_tops(w, nf);
    if (wi) {
        wi->is_branch = 1;
        wi->taken_mask = m;
        wi->taken_any = 1;
        wi->target_pc = 0;
    }
    return PTX_WARP_READY;
}

int exec_bra(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
             struct warp_inst *wi)
{
    struct ptx_simt_ent *top = &w->simt[w->sp - 1];
    uint32_t pc = top->pc;
    if (in->o[0].kind != POK_LABEL)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "indirect branch is not supported", NULL);
    uint32_t target = (uint32_t)in->o[0].imm;
    uint32_t all = top->mask, taken = m, not_taken = all & ~m;
    if (wi) {
        wi->is_branch = 1;
        wi->taken_mask = taken;
        wi->taken_any = taken != 0;
        wi->target_pc = target;
        wi->reconv_pc = pc + 1;
    }
    if (not_taken == 0) {
        top->pc = target;
        return PTX_WARP_READY;
    }
    if (taken == 0) {
        top->pc = pc + 1;
        return PTX_WARP_READY;
    }
    uint32_t r = fr->f->ipdom ? (uint32_t)fr->f->ipdom[pc] : fr->f->ninsns;
    if (wi) {
        wi->diverged = 1;
        wi->reconv_pc = r;
    }
    /* a path that starts at the reconvergence point is empty: its lanes
       simply wait in the reconvergence entry, so it is not pushed (this keeps
       loops from growing the stack by one entry per divergent iteration) */
    bool push_nt = pc + 1 != r, push_tk = target != r;
    uint32_t n = (uint32_t)push_nt + (uint32_t)push_tk;
    if (r == top->rpc) {
        /* both paths reconverge where this entry already does: replace it */
        if (n == 0) {
            top->pc = r;
            return PTX_WARP_READY;
        }
        if (w->sp - 1 + n > w->simt_cap)
            return exec_fail(w, in, -1, PTX_EXEC_FAILED, "SIMT stack overflow", NULL);
        w->sp--;
    } else {
        if (w->sp + n > w->simt_cap)
            return exec_fail(w, in, -1, PTX_EXEC_FAILED, "SIMT stack overflow", NULL);
        top->pc = r;
    }
    if (push_nt)
        w->simt[w->sp++] = (struct ptx_simt_ent){pc + 1, r, not_taken, 0};
    if (push_tk)
        w->simt[w->sp++] = (struct ptx_simt_ent){target, r, taken, 0};
    return PTX_WARP_READY;
}

/* ---- warp-level: shfl, vote, match ------------------------------------------------- */

int exec_shfl(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    if (m == 0)
        return PTX_WARP_READY;
    unsigned n = in->has_d2 ? 2u : 1u;
    if (in->nopnd < n + 3)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "shfl needs a, b and c operands", NULL);
    const uint64_t *a = exec_src(w, fr, &in->o[n], 0);
    const uint64_t *b = exec_src(w, fr, &in->o[n + 1], 1);
    const uint64_t *c = exec_src(w, fr, &in->o[n + 2], 2);
    if (!a || !b || !c)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported shfl operand", NULL);
    uint64_t *res = w->scratch[3], *pv = w->scratch[4];
    FOR_LANES(m, l) {
        int lane = (int)l;
        int bval = (int)(b[l] & 0x1f);
        int cval = (int)(c[l] & 0x1f);
        int seg = (int)((c[l] >> 8) & 0x1f);
        int max_lane = (lane & seg) | (cval & ~seg);
        int min_lane = lane & seg;
        int j;
        bool ok;
        switch (in->subop) {
        case PSH_UP: j = lane - bval; ok = j >= max_lane; break;
        case PSH_DOWN: j = lane + bval; ok = j <= max_lane; break;
        case PSH_BFLY: j = lane ^ bval; ok = j <= max_lane; break;
        case PSH_IDX: j = min_lane | (bval & ~seg); ok = j <= max_lane; break;
        default:
            return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unknown shfl mode", NULL);
        }
        if (!ok)
            j = lane;
        /* a source lane outside the active set is undefined in PTX: read its register anyway */
        res[l] = a[j] & 0xffffffffu;
        pv[l] = ok;
    }
    uint64_t *d = in->o[0].kind == POK_REG ? fr->regs + (size_t)in->o[0].reg * PTX_WARP_SIZE : NULL;
    uint64_t *p = in->has_d2 && in->o[1].kind == POK_REG ? fr->regs + (size_t)in->o[1].reg * PTX_WARP_SIZE : NULL;
    FOR_LANES(m, l) {
        if (d)
            d[l] = res[l];
        if (p)
            p[l] = pv[l];
    }
    return PTX_WARP_READY;
}

static uint32_t member_mask(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, unsigned idx,
                            uint32_t m)
{
    if (idx >= in->nopnd)
        return EXEC_FULL;
    const uint64_t *v = exec_src(w, fr, &in->o[idx], 5);
    return v ? (uint32_t)v[m ? __builtin_ctz(m) : 0] : EXEC_FULL;
}

int exec_vote(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    if (m == 0)
        return PTX_WARP_READY;
    const uint64_t *a = in->nopnd > 1 ? exec_src(w, fr, &in->o[1], 0) : NULL;
    if (!a)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported vote operand", NULL);
    uint32_t members = m & member_mask(w, fr, in, 2, m);
    uint32_t set = exec_pred_mask(a, 0) & members;
    uint64_t v;
    switch (in->subop) {
    case PV_ALL: v = set == members; break;
    case PV_ANY: v = set != 0; break;
    case PV_UNI: v = set == 0 || set == members; break;
    case PV_BALLOT: v = set; break;
    default: return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unknown vote mode", NULL);
    }
    if (in->o[0].kind == POK_REG) {
        uint64_t *d = fr->regs + (size_t)in->o[0].reg * PTX_WARP_SIZE;
        FOR_LANES(m, l) d[l] = v;
    }
    return PTX_WARP_READY;
}

int exec_match(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    if (m == 0)
        return PTX_WARP_READY;
    unsigned n = in->has_d2 ? 2u : 1u;
    const uint64_t *a = n < in->nopnd ? exec_src(w, fr, &in->o[n], 0) : NULL;
    if (!a)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported match operand", NULL);
    uint32_t members = m & member_mask(w, fr, in, n + 1, m);
    uint64_t tm = exec_type_mask(ptx_type_bits((enum ptx_type)in->type));
    uint64_t *d = in->o[0].kind == POK_REG ? fr->regs + (size_t)in->o[0].reg * PTX_WARP_SIZE : NULL;
    uint64_t *p = in->has_d2 && in->o[1].kind == POK_REG ? fr->regs + (size_t)in->o[1].reg * PTX_WARP_SIZE : NULL;
    /* match.all is subop PV_ALL; anything else is match.any */
    if (in->subop == PV_ALL) {
        bool same = true;
        uint64_t v0 = members ? a[__builtin_ctz(members)] & tm : 0;
        FOR_LANES(members, l) if ((a[l] & tm) != v0) same = false;
        FOR_LANES(m, l) {
            if (d)
                d[l] = same ? members : 0;
            if (p)
                p[l] = same;
        }
        return PTX_WARP_READY;
    }
    uint64_t *res = w->scratch[3];
    FOR_LANES(m, l) {
        uint32_t eq = 0;
        FOR_LANES(members, j) if ((a[j] & tm) == (a[l] & tm)) eq |= 1u << j;
        res[l] = eq;
    }
    if (d)
        FOR_LANES(m, l) d[l] = res[l];
    return PTX_WARP_READY;
}
