/*
 * ptx_cfg.c - control-flow analysis of decoded PTX: basic blocks and
 * immediate post-dominators, the reconvergence points of the SIMT stack.
 *
 * Per function:
 *   - leaders: instruction 0, every branch target, and the instruction after
 *     a bra/ret/exit/trap;
 *   - successors of a block by its last instruction: a guarded bra has its
 *     target and the fall-through, an unguarded bra (uni or not) only its
 *     target; ret/exit/trap go to a virtual exit node (guarded ones also fall
 *     through); anything else, calls included, falls through.  Falling off the
 *     end and a branch to a label after the last instruction reach the exit;
 *   - post-dominators with Cooper-Harvey-Kennedy ("A Simple, Fast Dominance
 *     Algorithm") on the reverse CFG rooted at the virtual exit.  Blocks from
 *     which the exit cannot be reached (infinite loops) have no
 *     post-dominator; they get the exit, and an edge into one of them counts
 *     as an edge to the exit, so a branch between an infinite loop and a
 *     path that terminates reconverges at the function exit (the lanes that
 *     leave are not made to wait for lanes that never come).  Blocks
 *     unreachable from the entry are analysed like any other.
 *
 * func->ipdom[i] for instruction i is the instruction where control
 * reconverges after i: i+1 inside a block, and for the last instruction of a
 * block the first instruction of the block's immediate post-dominator;
 * ninsns stands for the function exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "ptx_exec.h"
#include "ptx_ir.h"

struct cfg {
    uint32_t n;        /* instructions */
    uint32_t nb;       /* blocks; node nb is the virtual exit */
    uint32_t *start;   /* block -> first instruction (nb+1 entries, start[nb] = n) */
    uint32_t *blk;     /* instruction -> block */
    uint32_t *nsucc;   /* block -> number of successors (0..2) */
    uint32_t *succs;   /* block -> 2 successor slots */
    uint32_t *pred_off, *preds; /* CSR predecessor lists over nb+1 nodes */
    int32_t *po;       /* node -> postorder number in the reverse CFG, -1 unreached */
    uint32_t *order;   /* postorder -> node */
    int32_t *idom;     /* node -> immediate post-dominator node, -1 unknown */
};

static int cfg_error(struct ptx_error *err, const struct ptx_module *m, const struct ptx_insn *in,
                     const char *msg)
{
    snprintf(err->file, sizeof err->file, "%s", m->path ? m->path : "<ptx>");
    err->line = in ? in->line : 0;
    err->col = in ? in->col : 0;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return -1;
}

static bool cfg_is_exit_op(uint16_t op) { return op == PO_RET || op == PO_EXIT || op == PO_TRAP; }

unsigned ptx_insn_succs(const struct ptx_func *f, uint32_t i, uint32_t s[2])
{
    const struct ptx_insn *in = &f->insns[i];
    unsigned k = 0;
    if (in->op == PO_BRA && in->nopnd && in->o[0].kind == POK_LABEL && in->o[0].imm >= 0 &&
        (uint64_t)in->o[0].imm < f->ninsns)
        s[k++] = (uint32_t)in->o[0].imm;
    bool ends = in->op == PO_BRA || cfg_is_exit_op(in->op);
    if ((!ends || in->guard >= 0) && i + 1 < f->ninsns)
        s[k++] = i + 1;
    return k;
}

static void cfg_free(struct cfg *g)
{
    free(g->start);
    free(g->blk);
    free(g->nsucc);
    free(g->succs);
    free(g->pred_off);
    free(g->preds);
    free(g->po);
    free(g->order);
    free(g->idom);
}

static int32_t cfg_intersect(const struct cfg *g, int32_t a, int32_t b)
{
    while (a != b) {
        while (g->po[a] < g->po[b])
            a = g->idom[a];
        while (g->po[b] < g->po[a])
            b = g->idom[b];
    }
    return a;
}

static int cfg_func(struct ptx_module *m, struct ptx_func *f, struct ptx_error *err)
{
    uint32_t n = f->ninsns;
    f->ipdom = arena_alloc(m->arena, (n ? n : 1) * sizeof *f->ipdom);
    if (!f->ipdom)
        return cfg_error(err, m, NULL, "out of memory");
    if (n == 0)
        return 0;
    struct cfg g = {.n = n};
    uint8_t *leader = calloc(n + 1, 1);
    g.blk = malloc(n * sizeof *g.blk);
    g.start = malloc((n + 1) * sizeof *g.start);
    if (!leader || !g.blk || !g.start)
        goto oom;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const struct ptx_insn *in = &f->insns[i];
        if (in->op == PO_BRA) {
            int64_t t = in->o[0].imm;
            if (in->o[0].kind != POK_LABEL || t < 0 || t > (int64_t)n) {
                free(leader);
                cfg_free(&g);
                return cfg_error(err, m, in, "branch target out of range");
            }
            leader[t] = 1;
        }
        if (in->op == PO_BRA || cfg_is_exit_op(in->op))
            leader[i + 1] = 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            g.start[g.nb++] = i;
        g.blk[i] = g.nb - 1;
    }
    free(leader);
    leader = NULL;
    g.start[g.nb] = n;
    uint32_t nb = g.nb, exit_node = nb, nodes = nb + 1;
    g.nsucc = calloc(nodes, sizeof *g.nsucc);
    g.succs = malloc(2 * (size_t)nodes * sizeof *g.succs);
    g.pred_off = calloc(nodes + 1, sizeof *g.pred_off);
    g.po = malloc(nodes * sizeof *g.po);
    g.order = malloc(nodes * sizeof *g.order);
    g.idom = malloc(nodes * sizeof *g.idom);
    if (!g.nsucc || !g.succs || !g.pred_off || !g.po || !g.order || !g.idom)
        goto oom;
    /* successors */
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t last = g.start[b + 1] - 1;
        const struct ptx_insn *in = &f->insns[last];
        uint32_t fall = last + 1 < n ? g.blk[last + 1] : exit_node;
        uint32_t *s = &g.succs[2 * b];
        if (in->op == PO_BRA) {
            uint32_t t = (uint32_t)in->o[0].imm;
            s[g.nsucc[b]++] = t < n ? g.blk[t] : exit_node;
            if (in->guard >= 0 && s[0] != fall)
                s[g.nsucc[b]++] = fall;
        } else if (cfg_is_exit_op(in->op)) {
            s[g.nsucc[b]++] = exit_node;
            if (in->guard >= 0 && fall != exit_node)
                s[g.nsucc[b]++] = fall;
        } else {
            s[g.nsucc[b]++] = fall;
        }
    }
    /* predecessor lists (CSR) */
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < g.nsucc[b]; k++)
            g.pred_off[g.succs[2 * b + k] + 1]++;
    for (uint32_t v = 0; v < nodes; v++)
        g.pred_off[v + 1] += g.pred_off[v];
    g.preds = malloc((g.pred_off[nodes] ? g.pred_off[nodes] : 1) * sizeof *g.preds);
    uint32_t *fill = calloc(nodes, sizeof *fill);
    uint32_t *stack = malloc(nodes * sizeof *stack), *next = calloc(nodes, sizeof *next);
    if (!g.preds || !fill || !stack || !next) {
        free(fill);
        free(stack);
        free(next);
        goto oom;
    }
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < g.nsucc[b]; k++) {
            uint32_t v = g.succs[2 * b + k];
            g.preds[g.pred_off[v] + fill[v]++] = b;
        }
    free(fill);
    /* postorder of the reverse CFG from the exit (iterative DFS) */
    for (uint32_t v = 0; v < nodes; v++) {
        g.po[v] = -1;
        g.idom[v] = -1;
    }
    uint8_t *seen = calloc(nodes, 1);
    if (!seen) {
        free(stack);
        free(next);
        goto oom;
    }
    uint32_t sp = 0, npo = 0;
    stack[sp++] = exit_node;
    seen[exit_node] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (g.pred_off[v] + next[v] < g.pred_off[v + 1]) {
            uint32_t w = g.preds[g.pred_off[v] + next[v]++];
            if (!seen[w]) {
                seen[w] = 1;
                stack[sp++] = w;
            }
        } else {
            g.po[v] = (int32_t)npo;
            g.order[npo++] = v;
            sp--;
        }
    }
    free(seen);
    free(stack);
    free(next);
    /* Cooper-Harvey-Kennedy: reverse postorder, "predecessors" in the reverse
       CFG are the CFG successors */
    g.idom[exit_node] = (int32_t)exit_node;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t k = npo; k-- > 0;) {
            uint32_t b = g.order[k];
            if (b == exit_node)
                continue;
            int32_t nid = -1;
            for (uint32_t s = 0; s < g.nsucc[b]; s++) {
                uint32_t w = g.succs[2 * b + s];
                if (g.po[w] < 0)
                    w = exit_node; /* a successor that never exits: as if it did */
                if (g.idom[w] < 0)
                    continue;
                nid = nid < 0 ? (int32_t)w : cfg_intersect(&g, (int32_t)w, nid);
            }
            if (nid >= 0 && g.idom[b] != nid) {
                g.idom[b] = nid;
                changed = true;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = g.blk[i];
        if (i + 1 < g.start[b + 1]) {
            f->ipdom[i] = (int32_t)(i + 1);
            continue;
        }
        int32_t pd = g.idom[b];
        f->ipdom[i] = (pd < 0 || (uint32_t)pd == exit_node) ? (int32_t)n : (int32_t)g.start[pd];
    }
    cfg_free(&g);
    return 0;
oom:
    free(leader);
    cfg_free(&g);
    return cfg_error(err, m, NULL, "out of memory");
}

int ptx_cfg_analyze(struct ptx_module *m, struct ptx_error *err)
{
    memset(err, 0, sizeof *err);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (cfg_func(m, &m->funcs[i], err))
            return -1;
    /* the per-instruction part of the timing model's peeks, made once here for every warp */
    if (ptx_peek_prepare(m) != 0)
        return cfg_error(err, m, NULL, "out of memory");
    return 0;
}
