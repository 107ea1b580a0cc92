/* cpl.c - Criticality Prediction Logic (policy/cpl.h; seed 000 Alg. 5-6, Eq. 4.1). */
#include <string.h>

#include "policy/cpl.h"

void cpl_init(struct cpl *c, const struct sm_view *sm)
{
    memset(c, 0, sizeof *c);
    if (sm && sm->bb_len && sm->bb_ninsns) {
        c->bb_len = sm->bb_len;
        c->bb_ninsns = sm->bb_ninsns;
        c->nfuncs = sm->nfuncs;
    }
}

uint32_t cpl_block_len(const struct cpl *c, unsigned func, uint32_t pc)
{
    if (!c->bb_len || func >= c->nfuncs || pc >= c->bb_ninsns[func] || !c->bb_len[func])
        return 0;   /* a branch to the end of the function, or no block information */
    return c->bb_len[func][pc];
}

struct cpl_warp *cpl_sync(struct cpl *c, const struct warp_view *v)
{
    if (v->slot >= CPL_MAX_WARPS)
        return NULL;
    struct cpl_warp *e = &c->w[v->slot];
    if (!v->valid) {
        e->live = 0;
        return e;
    }
    if (!e->live || e->age != v->age) {
        memset(e, 0, sizeof *e);
        e->live = 1;
        e->age = v->age;
        e->start = v->start;
        e->entry_pending = 1;   /* its first instruction opens the kernel's entry block */
    }
    return e;
}

/* Alg. 5: the instructions the branch outcome puts ahead of the warp. */
static int64_t cpl_branch_delta(const struct cpl *c, const struct warp_inst *in)
{
    uint32_t fall = in->pc + 1;
    if (in->diverged)   /* both paths run, one after the other */
        return (int64_t)cpl_block_len(c, in->func, in->target_pc) + (int64_t)cpl_block_len(c, in->func, fall);
    return (int64_t)cpl_block_len(c, in->func, in->taken_any ? in->target_pc : fall);
}

static int64_t cpl_sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return (a < 0) != (b < 0) ? INT64_MIN / 2 : INT64_MAX / 2;
    return r;
}

void cpl_on_issue(struct cpl *c, const struct warp_view *v, const struct warp_inst *in, sim_cycle now)
{
    struct cpl_warp *e = cpl_sync(c, v);
    if (!e || !e->live)
        return;
    /* Alg. 6: cycles without an issue since the previous one (or since dispatch);
       a second instruction in the same cycle (dual issue) adds nothing */
    sim_cycle from = e->issued_any ? e->last_issue + 1 : e->start;
    if (now > from)
        e->n_stall += now - from;
    e->last_issue = now;
    e->issued_any = 1;
    /* Alg. 5 */
    if (e->entry_pending) {
        e->n_inst += cpl_block_len(c, in->func, in->pc);
        e->entry_pending = 0;
    }
    e->n_inst--;   /* committed */
    e->issued++;
    if (in->cls == WI_CALL)
        e->entry_pending = 1;   /* the callee's index is only known at its first instruction */
    else if (in->is_branch)
        e->n_inst += cpl_branch_delta(c, in);
    /* Eq. 4.1 with the warp's own average CPI */
    uint64_t cycles = now >= e->start ? now - e->start + 1 : 1;
    e->cpi = cycles * (uint64_t)CPL_ONE / e->issued;
    int64_t stall = e->n_stall > (uint64_t)(INT64_MAX / 2 / CPL_ONE) ? INT64_MAX / 2
                                                                     : (int64_t)e->n_stall * CPL_ONE;
    int64_t inst = cpl_sat_mul(e->n_inst, e->cpi > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)e->cpi);
    e->crit = inst + stall;   /* both within +-INT64_MAX/2 */
}

int64_t cpl_criticality(const struct cpl *c, unsigned slot)
{
    return slot < CPL_MAX_WARPS && c->w[slot].live ? c->w[slot].crit : 0;
}
