/*
 * ptx_exec.c - the executor's core: one switch per warp instruction, operand
 * views for the ALU (ptx_alu.h), mov forms, failure messages and grid setup.
 * Memory instructions live in ptx_exec_mem.c, control flow, barriers and
 * warp-level ops in ptx_exec_ctrl.c.
 */
#include "ptx_exec_int.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/sim.h"
#include "ptx_alu.h"

static const uint64_t lane_ids[PTX_WARP_SIZE] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};



/* ---- messages ----------------------------------------------------------------- */

void exec_insn_name(const struct ptx_insn *in, char *buf, size_t n)
{
    static const char *const space_names[PS_COUNT] = {
        [PS_NONE] = NULL, [PS_GLOBAL] = "global", [PS_SHARED] = "shared", [PS_LOCAL] = "local",
        [PS_CONST] = "const", [PS_PARAM] = "param", [PS_PARAM_FUNC] = "param", [PS_TEX] = "tex",
    };
    static const char *const atom_names[] = {"", "add", "min", "max", "inc", "dec", "cas", "exch",
                                             "and", "or", "xor"};
    size_t w = 0;
    int k = snprintf(buf, n, "%s", ptx_opcode_name((enum ptx_opcode)in->op));
    if (k < 0 || (size_t)k >= n)
        return;
    w = (size_t)k;
    bool mem = in->op == PO_LD || in->op == PO_LDU || in->op == PO_ST || in->op == PO_ATOM || in->op == PO_RED ||
               in->op == PO_CVTA || in->op == PO_PREFETCH || in->op == PO_ISSPACEP;
    if (in->op == PO_CVTA && (in->flags & PF_TO))
        w += (size_t)snprintf(buf + w, n - w, ".to");
    if (mem && in->space < PS_COUNT && space_names[in->space] && w < n)
        w += (size_t)snprintf(buf + w, n - w, ".%s", space_names[in->space]);
    if ((in->op == PO_ATOM || in->op == PO_RED) && in->subop < sizeof atom_names / sizeof atom_names[0] &&
        in->subop && w < n)
        w += (size_t)snprintf(buf + w, n - w, ".%s", atom_names[in->subop]);
    if ((in->op == PO_SULD || in->op == PO_SUST) && w < n)
        w += (size_t)snprintf(buf + w, n - w, ".b.%s", in->subop == PTG_2D ? "2d" : in->subop == PTG_3D ? "3d" : "1d");
    if (in->vec > 1 && w < n)
        w += (size_t)snprintf(buf + w, n - w, ".v%u", in->vec);
    if (in->type != PT_NONE && w < n)
        snprintf(buf + w, n - w, ".%s", ptx_type_name((enum ptx_type)in->type));
}

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

int exec_fail(struct ptx_warp *w, const struct ptx_insn *in, int lane, int err, const char *what,
              const char *detail)
{
    struct ptx_grid *g = w->g;
    w->status = PTX_WARP_FAULT;
    /* keep the first failure: in a cycle whose SMs run on several threads, the one of the
       lowest SM, which a single thread would have met first */
    pthread_mutex_lock(&fail_lock);
    if (g->err && g->err_key <= w->cta->key) {
        pthread_mutex_unlock(&fail_lock);
        return PTX_WARP_FAULT;
    }
    g->err = err;
    g->err_key = w->cta->key;
    const struct ptx_frame *fr = w->fp ? &w->frames[w->fp - 1] : NULL;
    if (lane < 0) {
        uint32_t m = w->sp ? w->simt[w->sp - 1].mask : 0;
        lane = m ? __builtin_ctz(m) : 0;
    }
    char iname[64] = "";
    if (in)
        exec_insn_name(in, iname, sizeof iname);
    char fn[300] = "";
    if (fr && fr->f != g->kfunc)
        snprintf(fn, sizeof fn, " in function '%s'", fr->f->name);
    const char *path = g->mod->path ? g->mod->path : "<ptx>";
    const struct ptx_cta *c = w->cta;
    int k = snprintf(g->msg, sizeof g->msg,
                     "========= %s\n"
                     "=========     at kernel '%s'%s %s:%u:%u (%s)\n"
                     "=========     by thread (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") in block (%u,%u,%u)",
                     what, g->kfunc->name, fn, path, in ? in->line : 0, in ? in->col : 0, iname,
                     w->tid[0][lane], w->tid[1][lane], w->tid[2][lane], c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    if (detail && k > 0 && (size_t)k < sizeof g->msg)
        snprintf(g->msg + k, sizeof g->msg - (size_t)k, "\n%s", detail);
    pthread_mutex_unlock(&fail_lock);
    return PTX_WARP_FAULT;
}

/* ---- operands ---------------------------------------------------------------------- */

uint64_t exec_sym_addr(const struct ptx_warp *w, const struct ptx_frame *fr, int32_t sym, bool generic)
{
    const struct ptx_grid *g = w->g;
    const struct ptx_sym *s = &g->mod->syms[sym];
    switch (s->space) {
    case PS_GLOBAL:
        return s->addr;
    case PS_CONST:
        return (generic ? PTX_WIN_CONST : 0) + s->addr;
    case PS_SHARED: {
        uint64_t off = g->ki->shared_off[sym];
        if (off == UINT64_MAX) /* not laid out (unused by this kernel): point past the end */
            off = g->smem_bytes;
        return (generic ? PTX_WIN_SHARED : 0) + off;
    }
    case PS_LOCAL:
        return (generic ? PTX_WIN_LOCAL : 0) + fr->local_base + s->addr;
    case PS_PARAM:
        return (generic ? PTX_WIN_PARAM : 0) + s->addr;
    case PS_PARAM_FUNC:
        return fr->param_base + s->addr;
    default:
        return s->addr;
    }
}

static const uint64_t *sreg_lanes(struct ptx_warp *w, const struct ptx_opnd *o, unsigned slot)
{
    struct ptx_grid *g = w->g;
    unsigned c = o->comp < 3 ? o->comp : 0;
    uint64_t *s = w->scratch[slot];
    uint64_t v;
    switch (o->sreg) {
    case PSR_TID: return w->tid[c];
    case PSR_NTID: return g->bc_ntid[c];
    case PSR_CTAID: return w->cta->bc_ctaid[c];
    case PSR_NCTAID: return g->bc_nctaid[c];
    case PSR_LANEID: return lane_ids;
    case PSR_WARPID: return w->bc_warpid;
    case PSR_NWARPID: return g->bc_nwarpid;
    case PSR_SMID: return w->cta->bc_smid;
    case PSR_NSMID: return g->bc_nsmid;
    case PSR_GRIDID: return g->bc_gridid;
    case PSR_LANEMASK_EQ: return g->lanemask[0];
    case PSR_LANEMASK_LT: return g->lanemask[1];
    case PSR_LANEMASK_LE: return g->lanemask[2];
    case PSR_LANEMASK_GT: return g->lanemask[3];
    case PSR_LANEMASK_GE: return g->lanemask[4];
    case PSR_DYNAMIC_SMEM_SIZE: return g->bc_dsmem;
    case PSR_TOTAL_SMEM_SIZE: return g->bc_tsmem;
    /* timing mode: the SM's core cycle; functional mode has no cycles, so
       the clocks count the warp's issued instructions */
    case PSR_CLOCK: case PSR_GLOBALTIMER_LO: v = (g->clock ? *g->clock : w->issued) & 0xffffffffu; break;
    case PSR_CLOCK_HI: case PSR_GLOBALTIMER_HI: v = (g->clock ? *g->clock : w->issued) >> 32; break;
    case PSR_CLOCK64: case PSR_GLOBALTIMER: v = g->clock ? *g->clock : w->issued; break;
    default: return g->bc_zero;
    }
    for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
        s[l] = v;
    return s;
}

const uint64_t *exec_src(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_opnd *o, unsigned slot)
{
    uint64_t *s = w->scratch[slot];
    switch (o->kind) {
    case POK_REG: {
        const uint64_t *r = fr->regs + (size_t)o->reg * PTX_WARP_SIZE;
        if (!o->neg)
            return r;
        for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
            s[l] = !(r[l] & 1);
        return s;
    }
    case POK_IMM:
        if (o->lanes)
            return o->lanes;
        for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
            s[l] = (uint64_t)o->imm;
        return s;
    case POK_SREG:
        return sreg_lanes(w, o, slot);
    case POK_SYM: {
        uint64_t v = exec_sym_addr(w, fr, o->sym, false) + (uint64_t)o->imm;
        for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
            s[l] = v;
        return s;
    }
    default:
        return NULL;
    }
}

static uint64_t *dst_lanes(struct ptx_frame *fr, const struct ptx_opnd *o)
{
    return o->kind == POK_REG ? fr->regs + (size_t)o->reg * PTX_WARP_SIZE : NULL;
}

/* ---- mov ----------------------------------------------------------------------------- */

static int exec_mov(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    const struct ptx_opnd *d = &in->o[0], *s = &in->o[1];
    unsigned bits = ptx_type_bits((enum ptx_type)in->type);
    if (bits == 0)
        bits = 64;
    if (d->kind == POK_VEC) {
        /* unpack: mov.b64 {%r1,%r2}, %rd1 - element 0 is the low part */
        const uint64_t *src = exec_src(w, fr, s, 0);
        if (!src || d->nvec == 0)
            return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported mov operands", NULL);
        unsigned esz = bits / d->nvec;
        uint64_t em = exec_type_mask(esz);
        FOR_LANES(m, l) {
            uint64_t v = src[l];
            for (unsigned k = 0; k < d->nvec; k++)
                if (d->vregs[k] >= 0)
                    fr->regs[(size_t)d->vregs[k] * PTX_WARP_SIZE + l] = (v >> (k * esz)) & em;
        }
        return PTX_WARP_READY;
    }
    uint64_t *dst = dst_lanes(fr, d);
    if (s->kind == POK_VEC) {
        /* pack: mov.b64 %rd1, {%r1,%r2} */
        if (s->nvec == 0)
            return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported mov operands", NULL);
        unsigned esz = bits / s->nvec;
        uint64_t em = exec_type_mask(esz);
        const uint64_t *el[PTX_MAX_VEC] = {NULL, NULL, NULL, NULL};
        for (unsigned k = 0; k < s->nvec && k < PTX_MAX_VEC; k++)
            el[k] = s->vregs[k] >= 0 ? fr->regs + (size_t)s->vregs[k] * PTX_WARP_SIZE
                  : s->vimm && s->vimm[k] ? s->vimm[k] : w->g->bc_zero;   /* immediate element, or `_` = 0 */
        FOR_LANES(m, l) {
            uint64_t v = 0;
            for (unsigned k = 0; k < s->nvec && k < PTX_MAX_VEC; k++)
                v |= (el[k][l] & em) << (k * esz);
            if (dst)
                dst[l] = v;
        }
        return PTX_WARP_READY;
    }
    const uint64_t *src = exec_src(w, fr, s, 0);
    if (!src)
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported mov source operand", NULL);
    if (!dst)
        return PTX_WARP_READY;
    uint64_t tm = exec_type_mask(bits);
    if (m == EXEC_FULL) {
        for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
            dst[l] = src[l] & tm;
    } else {
        FOR_LANES(m, l) dst[l] = src[l] & tm;
    }
    return PTX_WARP_READY;
}

/* PTX relaxed type checking: a signed result narrower than its destination
   register (cvt.s8.s32 into a .b16/.b32 register) is sign-extended to the
   register's width.  The ALU writes it zero-extended in the type's width. */
static void sext_to_register(struct ptx_frame *fr, const struct ptx_opnd *o, uint32_t m, unsigned bits)
{
    if (o->kind != POK_REG || o->reg < 0)
        return;
    unsigned rbits = ptx_type_bits((enum ptx_type)fr->f->regs[o->reg].type);
    if (rbits <= bits)
        return;
    uint64_t *d = fr->regs + (size_t)o->reg * PTX_WARP_SIZE;
    uint64_t sign = 1ull << (bits - 1), rmask = rbits >= 64 ? ~0ull : (1ull << rbits) - 1;
    FOR_LANES(m, l) d[l] = ((d[l] ^ sign) - sign) & rmask;
}

static int exec_alu(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m)
{
    struct ptx_alu_args a;
    unsigned nd = in->has_d2 ? 2u : 1u;
    a.mask = m;
    a.d = dst_lanes(fr, &in->o[0]);
    a.d2 = in->has_d2 ? dst_lanes(fr, &in->o[1]) : NULL;
    a.s[0] = a.s[1] = a.s[2] = a.s[3] = NULL;
    for (unsigned i = 0; i < 4 && nd + i < in->nopnd; i++) {
        a.s[i] = exec_src(w, fr, &in->o[nd + i], i);
        if (!a.s[i])
            return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, "unsupported operand kind", NULL);
    }
    a.cc = fr->f->cc_reg >= 0 ? fr->regs + (size_t)fr->f->cc_reg * PTX_WARP_SIZE : NULL;
    if (ptx_alu_exec(in, &a) != 0) {
        char name[64], what[160];
        exec_insn_name(in, name, sizeof name);
        snprintf(what, sizeof what, "Unsupported instruction '%s'", name);
        return exec_fail(w, in, -1, PTX_EXEC_UNSUPPORTED, what, NULL);
    }
    if (in->op == PO_CVT && (in->type == PT_S8 || in->type == PT_S16) && a.d)
        sext_to_register(fr, &in->o[0], m, ptx_type_bits((enum ptx_type)in->type));
    return PTX_WARP_READY;
}

/* ---- warp_inst ---------------------------------------------------------------------- */

enum wi_class ptx_exec_wi_class(enum ptx_iclass c)
{
    switch (c) {
    case PIC_FP32: return WI_FP32;
    case PIC_FP64: return WI_FP64;
    case PIC_SFU: return WI_SFU;
    case PIC_LD_GLOBAL: case PIC_LD_SHARED: case PIC_LD_LOCAL: case PIC_LD_CONST: case PIC_LD_PARAM:
        return WI_LD;
    case PIC_ST_GLOBAL: case PIC_ST_SHARED: case PIC_ST_LOCAL: case PIC_ST_PARAM:
        return WI_ST;
    case PIC_ATOM_GLOBAL: case PIC_ATOM_SHARED: return WI_ATOM;
    case PIC_TEX: return WI_TEX;
    case PIC_BRANCH: return WI_BRANCH;
    case PIC_CALL: return WI_CALL;
    case PIC_RET: return WI_RET;
    case PIC_EXIT: return WI_EXIT;
    case PIC_BARRIER: return WI_BARRIER;
    case PIC_MEMBAR: return WI_MEMBAR;
    case PIC_WARP: return WI_WARP;
    case PIC_NOP: return WI_NOP;
    default: return WI_ALU;
    }
}

enum wi_space ptx_exec_wi_space(enum ptx_iclass c)
{
    switch (c) {
    case PIC_LD_GLOBAL: case PIC_ST_GLOBAL: case PIC_ATOM_GLOBAL: return WS_SPACE_GLOBAL;
    case PIC_LD_SHARED: case PIC_ST_SHARED: case PIC_ATOM_SHARED: return WS_SPACE_SHARED;
    case PIC_LD_LOCAL: case PIC_ST_LOCAL: return WS_SPACE_LOCAL;
    case PIC_LD_CONST: return WS_SPACE_CONST;
    case PIC_LD_PARAM: case PIC_ST_PARAM: return WS_SPACE_PARAM;
    case PIC_TEX: return WS_SPACE_TEX;
    default: return WS_SPACE_NONE;
    }
}

static bool op_has_dst(enum ptx_opcode op)
{
    switch (op) {
    case PO_ST: case PO_RED: case PO_PREFETCH: case PO_BRA: case PO_CALL: case PO_RET: case PO_EXIT:
    case PO_TRAP: case PO_MEMBAR: case PO_FENCE: case PO_NANOSLEEP: case PO_PMEVENT: case PO_SUST:
        return false;
    default:
        return true;
    }
}

static void wi_add(int32_t *arr, uint8_t *n, unsigned cap, int32_t r)
{
    if (r >= 0 && *n < cap)
        arr[(*n)++] = r;
}

static void wi_begin(struct warp_inst *wi, const struct ptx_frame *fr, const struct ptx_insn *in, uint32_t pc,
                     uint32_t issue, uint32_t m)
{
    wi->pc = pc;
    wi->func = fr->fidx;
    wi->cls = (uint8_t)ptx_exec_wi_class((enum ptx_iclass)in->iclass);
    wi->space = (uint8_t)ptx_exec_wi_space((enum ptx_iclass)in->iclass);
    wi->active_mask = m;
    wi->issue_mask = issue;
    wi->ndst = wi->nsrc = 0;
    wi->access_size = 0;
    wi->is_write = 0;
    wi->is_branch = wi->taken_any = wi->diverged = 0;
    wi->taken_mask = 0;
    wi->target_pc = wi->reconv_pc = 0;
    wi->next_pc = pc + 1;
    wi->ptx_line = in->line;
    /* registers for the scoreboard: destinations first, then every register read */
    unsigned nd = 0;
    if (in->op == PO_BAR || in->op == PO_BARRIER)
        nd = in->subop == PBM_RED_POPC || in->subop == PBM_RED_AND || in->subop == PBM_RED_OR ? 1u : 0u;
    else if (op_has_dst((enum ptx_opcode)in->op))
        nd = in->has_d2 ? 2u : 1u;
    for (unsigned i = 0; i < in->nopnd; i++) {
        const struct ptx_opnd *o = &in->o[i];
        bool dst = i < nd;
        if (o->kind == POK_REG) {
            if (dst)
                wi_add(wi->dst, &wi->ndst, WI_MAX_DST, o->reg);
            else
                wi_add(wi->src, &wi->nsrc, WI_MAX_SRC, o->reg);
        } else if (o->kind == POK_VEC) {
            for (unsigned k = 0; k < o->nvec && k < PTX_MAX_VEC; k++) {
                if (dst)
                    wi_add(wi->dst, &wi->ndst, WI_MAX_DST, o->vregs[k]);
                else
                    wi_add(wi->src, &wi->nsrc, WI_MAX_SRC, o->vregs[k]);
            }
        } else if (o->kind == POK_ADDR) {
            wi_add(wi->src, &wi->nsrc, WI_MAX_SRC, o->reg);
        }
    }
    wi_add(wi->src, &wi->nsrc, WI_MAX_SRC, in->guard);
}

/* ---- the step ------------------------------------------------------------------------ */

static inline int exec_one(struct ptx_warp *w, struct warp_inst *wi)
{
    struct ptx_frame *fr = exec_frame(w);
    struct ptx_simt_ent *top = &w->simt[w->sp - 1];
    /* anything to pop (reconvergence, finished frame, empty path)? */
    if (__builtin_expect(w->sp <= fr->simt_base || top->mask == 0 || top->pc == top->rpc ||
                             top->pc >= fr->f->ninsns, 0)) {
        int st = exec_settle(w);
        if (st != PTX_WARP_READY)
            return st;
        fr = exec_frame(w);
        top = &w->simt[w->sp - 1];
    }
    uint32_t pc = top->pc;
    const struct ptx_insn *in = &fr->f->insns[pc];
    uint32_t issue = top->mask;
    uint32_t m = issue;
    if (in->guard >= 0)
        m &= exec_pred_mask(fr->regs + (size_t)in->guard * PTX_WARP_SIZE, in->guard_neg);

    /* thread_insns: lanes whose guard predicate holds (GPGPU-Sim's gpu_sim_insn); the per-class
       counts take every lane active at issue (their sum is warpsim_active_lane_insn) */
    struct ptx_counts *k = w->cta->cnt;
    unsigned pop = sim_popcount32(issue);
    k->warp_insns++;
    k->thread_insns += sim_popcount32(m);
    k->iclass_warp[in->iclass]++;
    k->iclass_thread[in->iclass] += pop;
    w->issued++;
    if (wi)
        wi_begin(wi, fr, in, pc, issue, m);

    int st;
    switch ((enum ptx_opcode)in->op) {
    case PO_MOV:
        st = m ? exec_mov(w, fr, in, m) : PTX_WARP_READY;
        break;
    case PO_LD: case PO_LDU:
        st = m ? exec_ld(w, fr, in, m, wi) : PTX_WARP_READY;
        break;
    case PO_ST:
        st = m ? exec_st(w, fr, in, m, wi) : PTX_WARP_READY;
        break;
    case PO_ATOM: case PO_RED:
        st = m ? exec_atom(w, fr, in, m, wi) : PTX_WARP_READY;
        break;
    case PO_PREFETCH:
        st = m ? exec_prefetch(w, fr, in, m, wi) : PTX_WARP_READY;
        break;
    case PO_TEX:
        st = m ? exec_tex(w, fr, in, m, wi) : PTX_WARP_READY;
        break;
    case PO_SULD: case PO_SUST:
        st = m ? exec_surf(w, fr, in, m, wi) : PTX_WARP_READY;
        break;
    case PO_CVTA:
        st = m ? exec_cvta(w, fr, in, m) : PTX_WARP_READY;
        break;
    case PO_ISSPACEP:
        st = m ? exec_isspacep(w, fr, in, m) : PTX_WARP_READY;
        break;
    case PO_ACTIVEMASK: {
        uint64_t *d = dst_lanes(fr, &in->o[0]);
        if (d)
            FOR_LANES(m, l) d[l] = m;
        st = PTX_WARP_READY;
        break;
    }
    case PO_SHFL:
        st = exec_shfl(w, fr, in, m);
        break;
    case PO_VOTE:
        st = exec_vote(w, fr, in, m);
        break;
    case PO_MATCH:
        st = exec_match(w, fr, in, m);
        break;
    case PO_MEMBAR: case PO_FENCE: case PO_NANOSLEEP: case PO_PMEVENT:
        st = PTX_WARP_READY;
        break;
    case PO_TRAP:
        if (m)
            return exec_fail(w, in, __builtin_ctz(m), PTX_EXEC_TRAP, "trap instruction executed", NULL);
        st = PTX_WARP_READY;
        break;
    /* control flow: these set the pc themselves */
    case PO_BRA:
        st = exec_bra(w, fr, in, m, wi);
        goto done;
    case PO_CALL:
        st = exec_call(w, fr, in, m, wi);
        goto done;
    case PO_RET:
        st = exec_ret(w, fr, in, m);
        goto done;
    case PO_EXIT:
        top->pc = pc + 1;
        st = m ? exec_exit(w, m) : PTX_WARP_READY;
        goto done;
    case PO_BAR: case PO_BARRIER:
        st = exec_bar(w, fr, in, m);
        goto done;
    default:
        st = m ? exec_alu(w, fr, in, m) : PTX_WARP_READY;
        break;
    }
    if (st == PTX_WARP_READY)
        top->pc = pc + 1;
done:
    if (wi && st == PTX_WARP_READY) {
        st = exec_settle(w);
        if (st == PTX_WARP_READY)
            wi->next_pc = w->simt[w->sp - 1].pc;
    }
    return st;
}

int ptx_warp_step(struct ptx_warp *w, struct warp_inst *wi)
{
    if (w->status != PTX_WARP_READY)
        return (int)w->status;
    int st = exec_one(w, wi);
    return st;
}

int ptx_warp_run(struct ptx_warp *w, uint64_t budget)
{
    if (w->status != PTX_WARP_READY)
        return (int)w->status;
    for (uint64_t i = 0; i < budget; i++) {
        int st = exec_one(w, NULL);
        if (st != PTX_WARP_READY)
            return st;
    }
    return PTX_WARP_READY;
}

/* ---- grid setup ---------------------------------------------------------------------------- */

static void bc_fill(uint64_t *a, uint64_t v)
{
    for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
        a[l] = v;
}

int ptx_grid_init(struct ptx_grid *g)
{
    g->err = PTX_EXEC_OK;
    g->err_key = 0;
    g->msg[0] = '\0';
    memset(&g->cnt, 0, sizeof g->cnt);
    g->ctas_done = 0;
    if (!g->mod || !g->ki || g->ki->func < 0 || (uint32_t)g->ki->func >= g->mod->nfuncs || !g->mem) {
        g->err = PTX_EXEC_FAILED;
        snprintf(g->msg, sizeof g->msg, "internal error: incomplete launch description");
        return -1;
    }
    g->kfunc = &g->mod->funcs[g->ki->func];
    uint64_t threads = (uint64_t)g->block[0] * g->block[1] * g->block[2];
    if (threads == 0 || threads > PTX_MAX_CTA_THREADS || g->grid[0] == 0 || g->grid[1] == 0 || g->grid[2] == 0) {
        g->err = PTX_EXEC_FAILED;
        snprintf(g->msg, sizeof g->msg, "invalid launch dimensions");
        return -1;
    }
    g->cta_threads = (uint32_t)threads;
    g->cta_warps = (g->cta_threads + PTX_WARP_SIZE - 1) / PTX_WARP_SIZE;
    g->dyn_smem_off = g->ki->shared_dyn_off;
    g->smem_bytes = g->dyn_smem ? g->dyn_smem_off + g->dyn_smem : g->ki->shared_static;
    for (unsigned c = 0; c < 3; c++) {
        bc_fill(g->bc_ntid[c], g->block[c]);
        bc_fill(g->bc_nctaid[c], g->grid[c]);
    }
    bc_fill(g->bc_nsmid, g->num_sms ? g->num_sms : 1);
    bc_fill(g->bc_gridid, g->gridid);
    bc_fill(g->bc_nwarpid, PTX_NWARPID);
    bc_fill(g->bc_dsmem, g->dyn_smem);
    bc_fill(g->bc_tsmem, g->smem_bytes);
    bc_fill(g->bc_zero, 0);
    for (unsigned l = 0; l < PTX_WARP_SIZE; l++) {
        uint64_t bit = 1ull << l;
        g->lanemask[0][l] = bit;
        g->lanemask[1][l] = bit - 1;
        g->lanemask[2][l] = (bit << 1) - 1;
        g->lanemask[3][l] = 0xffffffffull & ~((bit << 1) - 1);
        g->lanemask[4][l] = 0xffffffffull & ~(bit - 1);
    }
    return 0;
}
