/*
 * ptx_exec_grid.c - per-kernel analysis (call graph limits, shared memory
 * layout), CTA storage and reset, and the functional runner.
 */
#include "ptx_exec_int.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/host_clock.h"

/* A warp runs at most this many instructions before the runner moves on, so
   warps spinning on a flag another warp sets still make progress. */
#define RUN_SLICE 65536u

/* ---- kernel analysis -------------------------------------------------------------- */

struct kwalk {
    const struct ptx_module *m;
    uint8_t *state;        /* 0 new, 1 on the DFS stack, 2 done */
    uint32_t *depth;
    uint64_t *regs, *local, *param, *simt;
    struct ptx_error *err;
};

static void kerr(struct kwalk *k, const struct ptx_func *f, const struct ptx_insn *in, const char *msg)
{
    struct ptx_error *e = k->err;
    snprintf(e->file, sizeof e->file, "%s", k->m->path ? k->m->path : "<ptx>");
    e->line = in ? in->line : f->line;
    e->col = in ? in->col : f->col;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
}

static const struct ptx_insn *call_insn(const struct ptx_func *f, uint32_t ci)
{
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (f->insns[i].op == PO_CALL && f->insns[i].call == (int32_t)ci)
            return &f->insns[i];
    return NULL;
}

static int kwalk(struct kwalk *k, uint32_t fi)
{
    const struct ptx_func *f = &k->m->funcs[fi];
    k->state[fi] = 1;
    uint32_t depth = 0;
    uint64_t regs = 0, local = 0, param = 0, simt = 0;
    for (uint32_t c = 0; c < f->ncalls; c++) {
        int32_t callee = f->calls[c].callee;
        char msg[400];
        if (callee < 0 || (uint32_t)callee >= k->m->nfuncs) {
            kerr(k, f, call_insn(f, c), "indirect calls are not supported");
            return -1;
        }
        if (k->state[callee] == 1) {
            snprintf(msg, sizeof msg, "recursion is not supported: call from '%s' to '%s' closes a call-graph cycle",
                     f->name, k->m->funcs[callee].name);
            kerr(k, f, call_insn(f, c), msg);
            return -1;
        }
        if (k->state[callee] == 0 && kwalk(k, (uint32_t)callee))
            return -1;
        if (k->depth[callee] > depth) depth = k->depth[callee];
        if (k->regs[callee] > regs) regs = k->regs[callee];
        if (k->local[callee] > local) local = k->local[callee];
        if (k->param[callee] > param) param = k->param[callee];
        if (k->simt[callee] > simt) simt = k->simt[callee];
    }
    uint64_t nbra = 0;
    for (uint32_t i = 0; i < f->ninsns; i++)
        nbra += f->insns[i].op == PO_BRA;
    k->depth[fi] = depth + 1;
    k->regs[fi] = regs + f->nregs;
    k->local[fi] = local + ptx_frame_local_size(f);
    k->param[fi] = param + ptx_frame_param_size(f);
    /* each divergent branch adds at most two entries; +4 for the frame's own entry and slack */
    k->simt[fi] = simt + 2 * nbra + 4;
    k->state[fi] = 2;
    return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    if (a < 2)
        return v;
    return (v + a - 1) / a * a;
}

static int shared_layout(const struct ptx_module *m, const uint8_t *reach, struct ptx_kinfo *ki)
{
    uint8_t *used = calloc(m->nsyms ? m->nsyms : 1, 1);
    ki->shared_off = malloc((m->nsyms ? m->nsyms : 1) * sizeof *ki->shared_off);
    if (!used || !ki->shared_off) {
        free(used);
        return -1;
    }
    for (uint32_t s = 0; s < m->nsyms; s++) {
        ki->shared_off[s] = UINT64_MAX;
        const struct ptx_sym *y = &m->syms[s];
        if (y->space == PS_SHARED && y->func >= 0 && (uint32_t)y->func < m->nfuncs && reach[y->func])
            used[s] = 1;
    }
    /* module-scope shared variables count for this kernel when its code names them */
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        if (!reach[fi])
            continue;
        const struct ptx_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->ninsns; i++)
            for (unsigned o = 0; o < f->insns[i].nopnd; o++) {
                int32_t s = f->insns[i].o[o].sym;
                uint8_t kd = f->insns[i].o[o].kind;
                if ((kd == POK_ADDR || kd == POK_SYM) && s >= 0 && (uint32_t)s < m->nsyms &&
                    m->syms[s].space == PS_SHARED)
                    used[s] = 1;
            }
    }
    uint64_t off = 0, ext_align = 16;
    for (uint32_t s = 0; s < m->nsyms; s++) {
        const struct ptx_sym *y = &m->syms[s];
        if (!used[s])
            continue;
        if (y->is_extern) {
            if (y->align > ext_align)
                ext_align = y->align;
            continue;
        }
        off = align_up(off, y->align);
        ki->shared_off[s] = off;
        off += y->size;
    }
    ki->shared_static = off;
    ki->shared_dyn_off = align_up(off, ext_align);
    for (uint32_t s = 0; s < m->nsyms; s++)
        if (used[s] && m->syms[s].is_extern)
            ki->shared_off[s] = ki->shared_dyn_off;
    free(used);
    return 0;
}

int ptx_kinfo_build(const struct ptx_module *m, int func, struct ptx_kinfo *ki, struct ptx_error *err)
{
    memset(ki, 0, sizeof *ki);
    ki->func = func;
    size_t n = m->nfuncs ? m->nfuncs : 1;
    struct kwalk k = {m, calloc(n, 1), calloc(n, sizeof(uint32_t)), calloc(n, 8), calloc(n, 8), calloc(n, 8),
                      calloc(n, 8), err};
    int rc = -1;
    if (!k.state || !k.depth || !k.regs || !k.local || !k.param || !k.simt) {
        snprintf(err->msg, sizeof err->msg, "out of host memory");
        goto out;
    }
    if (func < 0 || (uint32_t)func >= m->nfuncs) {
        snprintf(err->msg, sizeof err->msg, "no such function");
        goto out;
    }
    if (kwalk(&k, (uint32_t)func))
        goto out;
    ki->max_depth = k.depth[func];
    ki->reg_lanes = k.regs[func];
    ki->local_bytes = k.local[func];
    ki->param_bytes = k.param[func];
    ki->simt_cap = (uint32_t)k.simt[func];
    /* state == 2 marks exactly the functions reachable from the kernel */
    for (size_t i = 0; i < n; i++)
        k.state[i] = k.state[i] == 2;
    if (shared_layout(m, k.state, ki) || ptx_entry_live_regs(&m->funcs[func], &ki->live_regs, &ki->nlive_regs)) {
        snprintf(err->msg, sizeof err->msg, "out of host memory");
        goto out;
    }
    rc = 0;
out:
    free(k.state);
    free(k.depth);
    free(k.regs);
    free(k.local);
    free(k.param);
    free(k.simt);
    return rc;
}

int ptx_exec_check_calls(const struct ptx_module *m, struct ptx_error *err)
{
    size_t n = m->nfuncs ? m->nfuncs : 1;
    struct kwalk k = {m, calloc(n, 1), calloc(n, sizeof(uint32_t)), calloc(n, 8), calloc(n, 8), calloc(n, 8),
                      calloc(n, 8), err};
    int rc = 0;
    if (!k.state || !k.depth || !k.regs || !k.local || !k.param || !k.simt) {
        snprintf(err->msg, sizeof err->msg, "out of host memory");
        rc = -1;
    }
    /* one DFS over the whole module, so a cycle among functions no kernel
       reaches is reported too */
    for (uint32_t f = 0; !rc && f < m->nfuncs; f++)
        if (k.state[f] == 0 && kwalk(&k, f))
            rc = -1;
    free(k.state);
    free(k.depth);
    free(k.regs);
    free(k.local);
    free(k.param);
    free(k.simt);
    return rc;
}

void ptx_kinfo_free(struct ptx_kinfo *ki)
{
    free(ki->shared_off);
    ki->shared_off = NULL;
    free(ki->live_regs);
    ki->live_regs = NULL;
    ki->nlive_regs = 0;
}

/* ---- CTAs -------------------------------------------------------------------------------- */

/* buffer *p holds at least n x size bytes.  Without keep its first n x size bytes are zero.  With
   keep the caller clears what is read before it is written, so the contents are left as they are,
   a new buffer's too (clearing one the size of a whole register file costs more than the kernel
   at small inputs).  Returns 1 for contents left as they are, 0 for zero ones, -1 when out of
   memory. */
static int cta_buf(void **p, size_t *cap, uint64_t n, uint64_t size, bool keep)
{
    if (n == 0 || size == 0)
        n = size = 1;
    if (n > SIZE_MAX / size)
        return -1;
    size_t bytes = (size_t)(n * size);
    if (*p && *cap >= bytes) {
        if (keep)
            return 1;
        memset(*p, 0, bytes);
        return 0;
    }
    free(*p);
    *cap = 0;
    *p = keep ? malloc(bytes) : calloc(1, bytes);
    if (!*p)
        return -1;
    *cap = bytes;
    return keep ? 1 : 0;
}

/* Clear the register slots a kernel's threads may read before writing (ki->live_regs) and the
   callees' part of each warp's register stack; the rest of the kernel's own registers is written
   before it is read on every path, so what an earlier kernel or CTA left there is never seen. */
static void cta_clear_regs(uint64_t *regmem, uint64_t nwarps, const struct ptx_kinfo *ki, uint32_t nregs)
{
    const size_t slot = PTX_WARP_SIZE;
    for (uint64_t w = 0; w < nwarps; w++) {
        uint64_t *base = regmem + (size_t)w * ki->reg_lanes * slot;
        for (uint32_t i = 0; i < ki->nlive_regs; i++)
            memset(base + ki->live_regs[i] * slot, 0, slot * sizeof *base);
        if (ki->reg_lanes > nregs)
            memset(base + nregs * slot, 0, (size_t)(ki->reg_lanes - nregs) * slot * sizeof *base);
    }
}

int ptx_cta_reuse(struct ptx_cta *c, struct ptx_grid *g)
{
    c->g = g;
    c->cnt = &g->cnt;
    c->key = 0;
    const struct ptx_kinfo *ki = g->ki;
    uint64_t nw = g->cta_warps;
    c->nwarps = g->cta_warps;
    c->smem_size = g->smem_bytes;
    /* the warps: warp_start sets what a warp reads; its per-lane arrays (from tid on) are written
       before they are read, so only the rest is cleared here */
    int kept = cta_buf((void **)&c->warps, &c->cap[0], nw, sizeof *c->warps, true);
    bool rc = kept < 0;
    if (kept == 1)
        for (uint64_t w = 0; w < nw; w++)
            memset(&c->warps[w], 0, offsetof(struct ptx_warp, tid));
    /* registers: the whole file unless the kernel's live registers are known */
    bool selective = ki->live_regs && g->kfunc && g->kfunc->nregs <= ki->reg_lanes;
    kept = cta_buf((void **)&c->regmem, &c->cap[1], nw * ki->reg_lanes, PTX_WARP_SIZE * sizeof(uint64_t), selective);
    rc |= kept < 0;
    if (kept == 1)
        cta_clear_regs(c->regmem, nw, ki, g->kfunc->nregs);
    rc |= cta_buf((void **)&c->localmem, &c->cap[2], nw * PTX_WARP_SIZE, ki->local_bytes, false) < 0;
    rc |= cta_buf((void **)&c->parammem, &c->cap[3], nw * PTX_WARP_SIZE, ki->param_bytes, false) < 0;
    /* the SIMT and call stacks are read only below their tops, which warp_start sets; shared
       memory is cleared by ptx_cta_start for every CTA */
    rc |= cta_buf((void **)&c->simtmem, &c->cap[4], nw * ki->simt_cap, sizeof *c->simtmem, true) < 0;
    rc |= cta_buf((void **)&c->framemem, &c->cap[5], nw * ki->max_depth, sizeof *c->framemem, true) < 0;
    rc |= cta_buf((void **)&c->smem, &c->cap[6], g->smem_bytes, 1, true) < 0;
    if (rc) {
        ptx_cta_free(c);
        return -1;
    }
    return 0;
}

int ptx_cta_alloc(struct ptx_cta *c, struct ptx_grid *g)
{
    memset(c, 0, sizeof *c);
    return ptx_cta_reuse(c, g);
}

void ptx_cta_free(struct ptx_cta *c)
{
    free(c->warps);
    free(c->regmem);
    free(c->localmem);
    free(c->parammem);
    free(c->simtmem);
    free(c->framemem);
    free(c->smem);
    memset(c, 0, sizeof *c);
}

static void warp_start(struct ptx_cta *c, struct ptx_warp *w, uint32_t wid)
{
    struct ptx_grid *g = c->g;
    const struct ptx_kinfo *ki = g->ki;
    const struct ptx_func *kf = g->kfunc;
    w->cta = c;
    w->g = g;
    w->wid = wid;
    w->status = PTX_WARP_READY;
    uint32_t lanes = g->cta_threads - wid * PTX_WARP_SIZE;
    w->valid = lanes >= PTX_WARP_SIZE ? EXEC_FULL : (1u << lanes) - 1;
    w->exited = ~w->valid;
    w->simt_cap = ki->simt_cap;
    w->simt = c->simtmem + (size_t)wid * ki->simt_cap;
    w->frame_cap = ki->max_depth;
    w->frames = c->framemem + (size_t)wid * ki->max_depth;
    w->regstack = c->regmem + (size_t)wid * ki->reg_lanes * PTX_WARP_SIZE;
    w->local_stride = ki->local_bytes;
    w->local = c->localmem + (size_t)wid * PTX_WARP_SIZE * ki->local_bytes;
    w->param_stride = ki->param_bytes;
    w->pstack = c->parammem + (size_t)wid * PTX_WARP_SIZE * ki->param_bytes;
    w->local_top = kf->local_bytes;
    w->param_top = kf->frame_param_bytes;
    w->issued = 0;
    w->bar_waiting = 0;
    w->bar_dst = -1;
    w->sp = 1;
    w->simt[0] = (struct ptx_simt_ent){0, kf->ninsns, w->valid, 0};
    w->fp = 1;
    w->frames[0] = (struct ptx_frame){.f = kf, .regs = w->regstack, .local_base = 0, .param_base = 0,
                                      .simt_base = 0, .call_mask = w->valid, .call_pc = 0,
                                      .fidx = (uint16_t)ki->func, .call = NULL};
    uint32_t bx = g->block[0], by = g->block[1];
    for (uint32_t l = 0; l < PTX_WARP_SIZE; l++) {
        uint32_t t = wid * PTX_WARP_SIZE + l;
        w->tid[0][l] = t % bx;
        w->tid[1][l] = (t / bx) % by;
        w->tid[2][l] = t / (bx * by);
        w->bc_warpid[l] = wid;
    }
}

void ptx_cta_start(struct ptx_cta *c, const uint32_t ctaid[3])
{
    struct ptx_grid *g = c->g;
    for (unsigned i = 0; i < 3; i++)
        c->ctaid[i] = ctaid[i];
    c->linear = ctaid[0] + (uint64_t)ctaid[1] * g->grid[0] + (uint64_t)ctaid[2] * g->grid[0] * g->grid[1];
    uint32_t nsms = g->num_sms ? g->num_sms : 1;
    for (unsigned l = 0; l < PTX_WARP_SIZE; l++) {
        for (unsigned i = 0; i < 3; i++)
            c->bc_ctaid[i][l] = ctaid[i];
        c->bc_smid[l] = c->linear % nsms;
    }
    memset(c->smem, 0, c->smem_size);
    for (unsigned i = 0; i < PTX_MAX_BARRIERS; i++) {
        memset(&c->bars[i], 0, sizeof c->bars[i]);
        c->bars[i].red_and = 1;
    }
    c->live_threads = g->cta_threads;
    c->warps_done = 0;
    for (uint32_t wi = 0; wi < c->nwarps; wi++)
        warp_start(c, &c->warps[wi], wi);
}

static int deadlock(struct ptx_cta *c)
{
    struct ptx_grid *g = c->g;
    const struct ptx_warp *w = NULL;
    uint32_t waiting = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].status == PTX_WARP_BARRIER) {
            if (!w)
                w = &c->warps[i];
            waiting++;
        }
    g->err = PTX_EXEC_DEADLOCK;
    if (!w) {
        snprintf(g->msg, sizeof g->msg, "========= Deadlock in kernel '%s' block (%u,%u,%u): no warp can run",
                 g->kfunc->name, c->ctaid[0], c->ctaid[1], c->ctaid[2]);
        return -1;
    }
    const struct ptx_bar *b = &c->bars[w->bar_id];
    const struct ptx_insn *in = &w->bar_func->insns[w->bar_pc];
    char fn[300] = "";
    if (w->bar_func != g->kfunc)
        snprintf(fn, sizeof fn, " in function '%s'", w->bar_func->name);
    snprintf(g->msg, sizeof g->msg,
             "========= Deadlock: barrier %u can never complete\n"
             "=========     at kernel '%s'%s %s:%u:%u (%s)\n"
             "=========     in block (%u,%u,%u): %u of %u threads arrived, %u warps waiting, %u of %u threads exited",
             w->bar_id, g->kfunc->name, fn, g->mod->path ? g->mod->path : "<ptx>", in->line, in->col,
             ptx_opcode_name((enum ptx_opcode)in->op), c->ctaid[0], c->ctaid[1], c->ctaid[2], b->arrived,
             b->expected ? b->expected : c->live_threads, waiting, g->cta_threads - c->live_threads,
             g->cta_threads);
    return -1;
}

static int stop_at_limit(struct ptx_grid *g, const char *limit, uint64_t ctas_done, uint64_t cycle)
{
    char at[64] = "";
    if (cycle != UINT64_MAX)
        snprintf(at, sizeof at, ", %" PRIu64 " core cycles", cycle);
    g->err = PTX_EXEC_LIMIT;
    snprintf(g->msg, sizeof g->msg,
             "Limit: kernel '%s' stopped at %s: %" PRIu64 " warp instructions issued, %" PRIu64 " of %" PRIu64
             " CTAs completed%s",
             g->kfunc->name, limit, g->cnt.warp_insns, ctas_done,
             (uint64_t)g->grid[0] * g->grid[1] * g->grid[2], at);
    return -1;
}

int ptx_grid_check_limits(struct ptx_grid *g, uint64_t ctas_done, uint64_t cycle, int force)
{
    char what[96];
    if (g->insn_limit && g->cnt.warp_insns >= g->insn_limit) {
        snprintf(what, sizeof what, "the limit of %" PRIu64 " warp instructions per launch", g->insn_limit);
        return stop_at_limit(g, what, ctas_done, cycle);
    }
    if (g->deadline > 0 && (force || g->cnt.warp_insns >= g->deadline_next_check)) {
        g->deadline_next_check = g->cnt.warp_insns + 65536;
        if (host_clock_seconds() >= g->deadline)
            return stop_at_limit(g, "the host time limit", ctas_done, cycle);
    }
    return 0;
}

int ptx_grid_stop_cycles(struct ptx_grid *g, uint64_t ctas_done, uint64_t cycle)
{
    char what[96];
    snprintf(what, sizeof what, "the limit of %" PRIu64 " core cycles per launch", g->cycle_limit);
    return stop_at_limit(g, what, ctas_done, cycle);
}

int ptx_cta_run(struct ptx_cta *c)
{
    struct ptx_grid *g = c->g;
    for (;;) {
        bool progress = false;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            struct ptx_warp *w = &c->warps[i];
            if (w->status != PTX_WARP_READY)
                continue;
            if (ptx_grid_check_limits(g, g->ctas_done, UINT64_MAX, 0))
                return -1;
            progress = true;
            uint64_t budget = RUN_SLICE;   /* so that the instruction limit stops exactly at the limit */
            if (g->insn_limit && g->insn_limit - g->cnt.warp_insns < budget)
                budget = g->insn_limit - g->cnt.warp_insns;
            if (ptx_warp_run(w, budget) == PTX_WARP_FAULT || g->err)
                return -1;
        }
        if (c->warps_done == c->nwarps)
            return 0;
        if (!progress)
            return deadlock(c);
    }
}

int ptx_grid_run(struct ptx_grid *g)
{
    struct ptx_cta c;
    if (ptx_cta_alloc(&c, g)) {
        g->err = PTX_EXEC_NOMEM;
        snprintf(g->msg, sizeof g->msg, "out of host memory for a CTA of kernel '%s'", g->kfunc->name);
        return -1;
    }
    int rc = 0;
    uint32_t id[3];
    for (id[2] = 0; id[2] < g->grid[2] && !rc; id[2]++)
        for (id[1] = 0; id[1] < g->grid[1] && !rc; id[1]++)
            for (id[0] = 0; id[0] < g->grid[0] && !rc; id[0]++) {
                ptx_cta_start(&c, id);
                rc = ptx_cta_run(&c);
                if (!rc)
                    g->ctas_done++;
            }
    ptx_cta_free(&c);
    return rc;
}
