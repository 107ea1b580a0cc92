/*
 * sm.c - the SM timing model's frame: construction, kernel boundaries, CTA
 * residency and launch, warp retirement, per-cycle metrics, the cycle driver
 * and the next-event query used by the GPU to skip idle stretches.  The
 * pipeline stages live in sm_fetch.c, sm_issue.c and sm_ldst.c
 * (docs/timing_sm.md).
 */
#include <stdlib.h>
#include <string.h>

#include "gpu/sm_int.h"
#include "policy/params.h"

static void sm_publish(struct sm *s);

/* ---- construction ------------------------------------------------------------------ */

static struct cache *sm_make_cache(struct arena *a, const struct gpu_config *g, const char *spec, const char *name,
                                   unsigned which, unsigned *line)
{
    struct cache_config cc;
    char msg[256];
    unsigned col = 0;
    if (!spec || cache_config_parse(spec, &cc, msg, sizeof msg, &col) != 0)
        return NULL;
    *line = cc.line_size;
    struct cache *c = cache_new(a, &cc, name);
    /* the configured replacement and bypass policies by name (gpu_config_load resolved and
       checked them; NULL: the letter / none) */
    const char *repl = g->repl_name[which], *byp = g->bypass_name[which];
    if (c && repl && cache_set_repl_name(c, repl, NULL, msg, sizeof msg) != 0)
        return NULL;
    if (c && byp && cache_set_bypass_name(c, byp, NULL, msg, sizeof msg) != 0)
        return NULL;
    if (c)
        cache_set_bypass_mshr(c, g->bypass_mshr != 0);
    return c;
}

struct sm *sm_new(struct arena *a, const struct gpu_config *g, unsigned id, const struct addr_map *map,
                  struct mem_req_pool *pool)
{
    struct sm *s = arena_alloc(a, sizeof *s);
    if (!s)
        return NULL;
    s->g = g;
    s->id = id;
    s->map = map;
    s->pool = pool;
    s->arena = a;
    s->max_warps = g->max_warps_per_core;
    if (s->max_warps < 1 || s->max_warps > SM_MAX_WARPS)
        return NULL;   /* warp masks are one 64-bit word (docs/timing_sm.md) */
    s->n_sched = g->num_sched_per_core ? g->num_sched_per_core : 1;
    if (s->n_sched > s->max_warps)
        s->n_sched = s->max_warps;
    s->n_sp = g->num_sp_units ? g->num_sp_units : 1;
    s->n_sfu = g->num_sfu_units ? g->num_sfu_units : 1;
    s->n_dp = g->num_dp_units;
    unsigned simd = g->simd_width ? g->simd_width : 32;
    s->warp_passes = (32 + simd - 1) / simd;
    /* C_idle's warps (sm_count): at a barrier; by default (-warpsim_c_idle_fetch 1) also waiting for
       fetch or a branch redirect */
    _Static_assert(STALL_COUNT <= 32, "idle_reasons has a bit per stall reason");
    s->idle_reasons = 1u << STALL_SYNC;
    if (g->c_idle_fetch)
        s->idle_reasons |= 1u << STALL_FETCH | 1u << STALL_CTRL;

    s->l1d = sm_make_cache(a, g, g->cache_dl1, "l1d", GPU_CACHE_L1D, &s->l1d_line);
    s->l1i = sm_make_cache(a, g, g->cache_il1, "l1i", GPU_CACHE_L1I, &s->l1i_line);
    s->l1c = sm_make_cache(a, g, g->cache_const, "l1c", GPU_CACHE_CONST, &s->const_line);
    s->l1t = sm_make_cache(a, g, g->cache_tex, "l1t", GPU_CACHE_TEX, &s->tex_line);
    if (!s->l1d || !s->l1i || !s->l1c || !s->l1t)
        return NULL;
    s->blk_unit = g->coalesce_sector ? g->coalesce_sector : s->l1d_line;
    s->max_waiters = 0;
    const struct cache *cs[4] = {s->l1d, s->l1i, s->l1c, s->l1t};
    for (unsigned i = 0; i < 4; i++)
        if (cache_cfg(cs[i])->mshr_max_merge > s->max_waiters)
            s->max_waiters = cache_cfg(cs[i])->mshr_max_merge;
    s->max_waiters += 64;
    s->waiters = arena_alloc(a, sizeof(uint64_t) * s->max_waiters);

    /* the outgoing queue always has room for a miss and the dirty line it evicts */
    if (fifo_init(&s->out, a, g->ldst_queue > 2 ? g->ldst_queue : 2) ||
        fifo_init(&s->reply, a, g->reply_queue ? g->reply_queue : 1))
        return NULL;
    s->sp_free = arena_alloc(a, sizeof(sim_cycle) * s->n_sp);
    s->sfu_free = arena_alloc(a, sizeof(sim_cycle) * s->n_sfu);
    s->dp_free = arena_alloc(a, sizeof(sim_cycle) * (s->n_dp ? s->n_dp : 1));
    s->wb_tag = arena_alloc(a, sizeof(sim_cycle) * SM_WB_RING);
    s->wb_cnt = arena_alloc(a, SM_WB_RING);
    s->cta = arena_alloc(a, sizeof(struct sm_cta_slot) * (g->max_cta_per_core ? g->max_cta_per_core : 1));
    /* on cache-line boundaries: the scheduler's visit reads the first two lines of each warp */
    char *wmem = arena_alloc(a, sizeof(struct sm_warp) * s->max_warps + 63);
    s->warp = wmem ? (struct sm_warp *)(((uintptr_t)wmem + 63) & ~(uintptr_t)63) : NULL;
    s->sched = arena_alloc(a, sizeof(struct sm_sched) * s->n_sched);
    if (!s->waiters || !s->sp_free || !s->sfu_free || !s->dp_free || !s->wb_tag || !s->wb_cnt || !s->cta ||
        !s->warp || !s->sched)
        return NULL;
    for (unsigned i = 0; i < SM_WB_RING; i++)
        s->wb_tag[i] = SIM_NEVER;
    for (unsigned k = 0; k < s->n_sched; k++) {
        struct sm_sched *sc = &s->sched[k];
        sc->id = k;
        sc->nslots = (s->max_warps - k + s->n_sched - 1) / s->n_sched;
        sc->view = arena_alloc(a, sizeof(struct warp_view) * sc->nslots);
        sc->order = arena_alloc(a, sizeof(int) * sc->nslots);
        sc->reason = arena_alloc(a, sc->nslots);
        if (!sc->view || !sc->order || !sc->reason)
            return NULL;
        for (unsigned j = 0; j < sc->nslots; j++) {
            sc->view[j].slot = (uint16_t)(j * s->n_sched + k);
            s->slot_j[j * s->n_sched + k] = (uint8_t)j;
        }
    }
    if (sm_ldst_init(s) != 0)
        return NULL;
    s->next_evt = SIM_NEVER;
    s->times = &s->times_own;
    sm_publish(s);
    return s;
}

void sm_reg_stats(struct sm *s, struct stats *st, const char *prefix)
{
    struct sm_metrics *m = &s->m;
    stats_reg(st, &m->cycles, "core cycles ticked", "%s.cycles", prefix);
    stats_reg(st, &m->n_act, "cycles with resident warps in which an instruction issued", "%s.n_act", prefix);
    stats_reg(st, &m->n_inact, "cycles with resident warps in which every warp was blocked", "%s.n_inact", prefix);
    stats_reg(st, &m->c_idle, "cycles with nothing to issue and no pipeline stall", "%s.c_idle", prefix);
    stats_reg(st, &m->c_mem, "cycles every resident warp waited for memory", "%s.c_mem", prefix);
    stats_reg(st, &m->util_cycles, "cycles with at least one CTA resident", "%s.util_cycles", prefix);
    stats_reg(st, &m->issued_warp_insns, "warp instructions issued", "%s.warp_insns", prefix);
    stats_reg(st, &m->issued_thread_insns, "thread instructions issued", "%s.thread_insns", prefix);
    stats_reg(st, &m->paused_warp_insns, "warp instructions issued by paused CTAs", "%s.paused_warp_insns", prefix);
    stats_reg(st, &m->lat_rt_sum, "sum of request round trips (core cycles)", "%s.lat_rt_sum", prefix);
    stats_reg(st, &m->lat_rt_count, "replies received", "%s.lat_rt_count", prefix);
    stats_reg(st, &m->lat_rt_max, "longest round trip", "%s.lat_rt_max", prefix);
    for (unsigned r = 0; r < STALL_COUNT; r++)
        stats_reg(st, &m->stall[r], "latency attribution (probes)", "%s.stall.%s", prefix,
                  stall_reason_name((enum stall_reason)r));
    stats_reg(st, &m->scheduling, "latency attribution: scheduling delay", "%s.stall.scheduling", prefix);
    stats_reg(st, &m->stall_gpu, "scheduler cycles with live warps that issued nothing (004's stall_GPU)",
              "%s.stall_gpu", prefix);
    stats_reg(st, &m->l1d_res_fail_cycles, "cycles the LD/ST unit hit a reservation failure",
              "%s.l1d_res_fail_cycles", prefix);
    stats_reg(st, &m->shmem_bank_conflicts, "extra shared-memory passes from bank conflicts",
              "%s.shmem_bank_conflicts", prefix);
    stats_reg(st, &m->coalesced_requests, "blocks accessed by global/local/atomic instructions",
              "%s.coalesced_requests", prefix);
    stats_reg(st, &m->mem_insns, "memory warp instructions", "%s.mem_insns", prefix);
    stats_reg(st, &m->ctas_done, "CTAs completed", "%s.ctas_done", prefix);
    stats_reg(st, &m->warps_done, "warps completed", "%s.warps_done", prefix);
    for (unsigned i = 0; i < SM_LAT_HIST_BUCKETS; i++)
        stats_reg(st, &m->lat_rt_hist[i], "lat_rt histogram bucket", "%s.lat_rt_hist.%u", prefix, i);
    char p[256];
    snprintf(p, sizeof p, "%s.l1d", prefix);
    cache_reg_stats(s->l1d, st, p);
    snprintf(p, sizeof p, "%s.l1i", prefix);
    cache_reg_stats(s->l1i, st, p);
    snprintf(p, sizeof p, "%s.l1c", prefix);
    cache_reg_stats(s->l1c, st, p);
    snprintf(p, sizeof p, "%s.l1t", prefix);
    cache_reg_stats(s->l1t, st, p);
}

const struct sm_metrics *sm_get_metrics(const struct sm *s) { return &s->m; }

void sm_set_warp_done_hook(struct sm *s, sm_warp_done_fn fn, void *user)
{
    s->done_fn = fn;
    s->done_user = user;
}

/* ---- kernels ------------------------------------------------------------------------ */

/* Registers per thread for residency: ptxas's count when the workload recorded
   it, else the PTX-declared registers capped at 63 (what the Fermi ISA can
   address).  Rounded up to a multiple of 4 per thread, the allocation unit
   GPGPU-Sim's CTA limit uses. */
static uint32_t sm_regs_per_thread(const struct ptx_func *f)
{
    uint32_t r = f->ptxas_regs ? f->ptxas_regs : (f->nregs < 63 ? f->nregs : 63);
    return (r + 3u) & ~3u;
}

static unsigned sm_compute_max_ctas(struct sm *s, const struct ptx_grid *grid)
{
    const struct gpu_config *g = s->g;
    unsigned ws = g->warp_size ? g->warp_size : 32;
    uint64_t padded = (uint64_t)grid->cta_warps * ws;
    uint64_t n = g->max_cta_per_core;
    if (padded == 0 || padded > g->max_threads_per_core || grid->cta_warps > s->max_warps)
        return 0;
    n = n < g->max_threads_per_core / padded ? n : g->max_threads_per_core / padded;
    n = n < s->max_warps / grid->cta_warps ? n : s->max_warps / grid->cta_warps;
    uint64_t regs = (uint64_t)sm_regs_per_thread(grid->kfunc) * padded;
    s->regs_per_cta = (uint32_t)regs;
    if (regs)
        n = n < g->registers_per_core / regs ? n : g->registers_per_core / regs;
    if (grid->smem_bytes)
        n = n < g->shmem_size / grid->smem_bytes ? n : g->shmem_size / grid->smem_bytes;
    return (unsigned)n;
}

/* The kernel's state goes; the CTA slots' and the scoreboard's buffers stay for the next kernel
   (sm_release frees them). */
static void sm_kernel_free(struct sm *s)
{
    for (unsigned i = 0; i < s->g->max_cta_per_core; i++)
        s->cta[i].allocated = 0;
    for (unsigned k = 0; k < s->n_sched; k++) {
        if (s->sched[k].st && s->ops && s->ops->fini)
            s->ops->fini(s->sched[k].st);
        free(s->sched[k].st);
        s->sched[k].st = NULL;
    }
    free(s->func_base);
    free(s->bb_len);
    free(s->bb_ninsns);
    free(s->bb_mem);
    s->bb_len = NULL;
    s->bb_ninsns = NULL;
    s->bb_mem = NULL;
    s->func_base = NULL;
    s->grid = NULL;
}

/* the scoreboard's and the load pool's buffers, sized for keys registers.  Nothing is cleared:
   sm_launch_cta clears a warp slot's scoreboard when it places a warp there, and sm_load_alloc
   initialises a load when it hands it out. */
static int sm_keys_reserve(struct sm *s, size_t keys)
{
    if (keys > s->keys_cap) {
        free(s->relmem);
        free(s->tagmem);
        free(s->loads);
        s->relmem = malloc(keys * sizeof *s->relmem);
        s->tagmem = malloc(keys * sizeof *s->tagmem);
        s->loads = malloc(keys * sizeof *s->loads);
        s->keys_cap = s->relmem && s->tagmem && s->loads ? keys : 0;
        if (!s->keys_cap)
            return -1;
    }
    return 0;
}

static void sm_keys_release(struct sm *s)
{
    free(s->relmem);
    free(s->tagmem);
    free(s->loads);
    s->relmem = NULL;
    s->tagmem = NULL;
    s->loads = NULL;
    s->keys_cap = 0;
}

void sm_set_policy_params(struct sm *s, const struct policy_params *pp) { s->pparams = pp; }

struct cache *sm_cache(struct sm *s, unsigned i)
{
    switch (i) {
    case GPU_CACHE_L1D: return s->l1d;
    case GPU_CACHE_L1I: return s->l1i;
    case GPU_CACHE_CONST: return s->l1c;
    case GPU_CACHE_TEX: return s->l1t;
    default: return NULL;
    }
}
void sm_set_locality(struct sm *s, const struct cta_locality *loc) { s->loc = loc; }

/* Basic-block lengths for the warp policies (sm_view.bb_len): per function,
   leaders as in the CFG analysis (instruction 0, branch targets, the
   instruction after a bra/ret/exit/trap); for each pc the instructions from
   it to the next leader.  -1 when out of host memory. */
static int sm_bb_build(struct sm *s, const struct ptx_module *mod)
{
    uint32_t nf = mod->nfuncs ? mod->nfuncs : 1;
    size_t total = 1;
    for (uint32_t f = 0; f < mod->nfuncs; f++)
        total += mod->funcs[f].ninsns;
    s->bb_len = calloc(nf, sizeof *s->bb_len);
    s->bb_ninsns = calloc(nf, sizeof *s->bb_ninsns);
    s->bb_mem = calloc(total, sizeof *s->bb_mem);
    if (!s->bb_len || !s->bb_ninsns || !s->bb_mem)
        return -1;
    uint32_t *len = s->bb_mem;
    for (uint32_t f = 0; f < mod->nfuncs; f++) {
        const struct ptx_func *fn = &mod->funcs[f];
        uint32_t n = fn->ninsns;
        s->bb_len[f] = len;
        s->bb_ninsns[f] = n;
        /* mark leaders in len[] first (1 = leader), then count backwards */
        for (uint32_t i = 0; i < n; i++) {
            const struct ptx_insn *in = &fn->insns[i];
            if (i == 0)
                len[i] = 1;
            if (in->op == PO_BRA && in->o[0].kind == POK_LABEL && in->o[0].imm >= 0 && in->o[0].imm < (int64_t)n)
                len[in->o[0].imm] = 1;
            if ((in->op == PO_BRA || in->op == PO_RET || in->op == PO_EXIT || in->op == PO_TRAP) && i + 1 < n)
                len[i + 1] = 1;
        }
        uint32_t run = 0;
        bool next_leads = true;   /* the end of the function closes the last block */
        for (uint32_t i = n; i-- > 0;) {
            bool leads = len[i] != 0;
            run = next_leads ? 1 : run + 1;
            len[i] = run;
            next_leads = leads;
        }
        len += n;
    }
    return 0;
}

int sm_kernel_begin(struct sm *s, struct ptx_grid *grid, unsigned kernel_id, const char *warp_sched, char *msg,
                    size_t n)
{
    if (s->grid)
        sm_kernel_end(s);
    const struct warp_sched_ops *ops = warp_sched_find(warp_sched);
    if (!ops) {
        char names[512];
        warp_sched_names(names, sizeof names);
        snprintf(msg, n, "unknown warp scheduler '%s' (choose one of: %s)", warp_sched ? warp_sched : "(null)",
                 names);
        return -1;
    }
    s->ops = ops;
    s->grid = grid;
    s->kernel_id = kernel_id;
    s->max_ctas = sm_compute_max_ctas(s, grid);
    s->resident = 0;
    s->live = s->drain = s->fetch_cand = 0;
    s->fetch_quiet = false;
    s->ldst_asleep = false;
    s->fetch_rr = 0;
    s->faulted = false;
    s->any_paused = false;
    s->cycled = false;   /* no catch-up across kernels: each kernel's counters start at its first tick */
    s->kick = false;
    s->warp_limit = 0;
    s->last_stalled = 0;
    memset(&s->counts, 0, sizeof s->counts);
    /* CPL's accuracy samples are taken at the first tick after each period: an SM skipped while
       another ticks would take them later than a whole-GPU tick does */
    s->always_tick = ops->is_critical != NULL || s->no_freeze;
    s->next_evt = SIM_NEVER;
    s->next_age = 0;
    s->cpl_next_sample = 0;

    const struct ptx_module *mod = grid->mod;
    s->nfuncs = mod->nfuncs;
    s->func_base = calloc(mod->nfuncs ? mod->nfuncs : 1, sizeof(uint64_t));
    /* functions one after another, each starting on an I-cache line */
    uint64_t at = SM_CODE_BASE, line = s->l1i_line ? s->l1i_line : 128;
    for (uint32_t f = 0; s->func_base && f < mod->nfuncs; f++) {
        s->func_base[f] = at;
        uint64_t bytes = (uint64_t)mod->funcs[f].ninsns * SM_INSN_BYTES;
        at += (bytes + line - 1) / line * line + line;
    }
    if (sm_bb_build(s, mod) != 0) {
        sm_kernel_free(s);
        snprintf(msg, n, "out of host memory for the SM timing state");
        return -1;
    }
    s->reg_lanes = (uint32_t)(grid->ki->reg_lanes ? grid->ki->reg_lanes : 1);
    size_t keys = (size_t)s->max_warps * s->reg_lanes;
    /* every outstanding load holds at least one register of its warp reserved
       (no two writes to one register are in flight), so this bounds them */
    s->nloads = (uint32_t)keys;
    if (!s->func_base || sm_keys_reserve(s, keys) != 0) {
        sm_kernel_free(s);
        snprintf(msg, n, "out of host memory for the SM timing state");
        return -1;
    }
    s->free_load = SM_NONE;
    s->loads_used = 0;
    /* local memory: 4-byte words interleaved over the 32 lanes of a warp slot */
    uint64_t lb = (grid->ki->local_bytes + 3) & ~3ull;
    s->local_per_warp = ((lb * 32 + 127) & ~127ull) + 128;

    unsigned nct = s->max_ctas < s->g->max_cta_per_core ? s->max_ctas : s->g->max_cta_per_core;
    for (unsigned i = 0; i < s->g->max_cta_per_core; i++) {
        struct ptx_cta keep = s->cta[i].cta;   /* buffers of an earlier kernel, reused when large enough */
        memset(&s->cta[i], 0, sizeof s->cta[i]);
        s->cta[i].cta = keep;
        if (i < nct) {
            if (ptx_cta_reuse(&s->cta[i].cta, grid) != 0) {
                sm_kernel_free(s);
                snprintf(msg, n, "out of host memory for resident CTAs");
                return -1;
            }
            s->cta[i].allocated = 1;
            s->cta[i].cta.key = s->id;
            if (s->own_counts)
                s->cta[i].cta.cnt = &s->counts;
        }
    }
    for (unsigned w = 0; w < s->max_warps; w++) {
        memset(&s->warp[w], 0, sizeof s->warp[w]);
        s->warp[w].rel = s->relmem + (size_t)w * s->reg_lanes;
        s->warp[w].tag = s->tagmem + (size_t)w * s->reg_lanes;
    }
    for (unsigned k = 0; k < s->n_sched; k++) {
        struct sm_sched *sc = &s->sched[k];
        sc->live = sc->live_j = 0;
        sc->frozen = sc->dirty = 0;
        sc->views_gen++;
        for (unsigned j = 0; j < sc->nslots; j++) {
            uint16_t slot = sc->view[j].slot;
            memset(&sc->view[j], 0, sizeof sc->view[j]);
            sc->view[j].slot = slot;
        }
        sc->st = calloc(1, ops->state_size ? ops->state_size : 1);
        struct sm_view v = {.sm_id = s->id, .sched_id = k, .n_sched = s->n_sched, .max_warps = s->max_warps,
                            .bb_len = s->bb_len, .bb_ninsns = s->bb_ninsns, .nfuncs = s->nfuncs};
        char why[512] = "";
        v.kernel_id = kernel_id;
        v.err = why;
        v.err_len = sizeof why;
        v.loc = s->loc;
        v.views_gen = &sc->views_gen;
        v.max_ctas = s->max_ctas < s->g->max_cta_per_core ? s->max_ctas : s->g->max_cta_per_core;
        v.cta_warps = grid->cta_warps;
        struct cfg_error perr;
        if (sc->st && policy_params_apply(s->pparams, "warp_sched", ops->name, ops->params, ops->nparams, sc->st,
                                          &perr) != 0) {
            sm_kernel_free(s);
            snprintf(msg, n, "%s", perr.msg);
            return -1;
        }
        if (!sc->st || (ops->init && ops->init(sc->st, &v) != 0)) {
            sm_kernel_free(s);
            if (why[0])
                snprintf(msg, n, "warp scheduler '%s': %s", ops->name, why);
            else
                snprintf(msg, n, "warp scheduler '%s' failed to initialise", ops->name);
            return -1;
        }
    }
    for (unsigned i = 0; i < s->n_sp; i++)
        s->sp_free[i] = 0;
    for (unsigned i = 0; i < s->n_sfu; i++)
        s->sfu_free[i] = 0;
    for (unsigned i = 0; i < (s->n_dp ? s->n_dp : 1); i++)
        s->dp_free[i] = 0;
    s->ldst_free = 0;
    s->ldst.active = 0;
    s->ldst_wait = 0;
    /* L1 caches start cold at every kernel, as GPGPU-Sim invalidates them */
    cache_invalidate_all(s->l1d);
    cache_invalidate_all(s->l1i);
    cache_invalidate_all(s->l1c);
    cache_invalidate_all(s->l1t);
    sm_publish(s);
    return 0;
}

void sm_count_own(struct sm *s, bool own) { s->own_counts = own; }

void sm_fold_counts(struct sm *s, struct ptx_counts *to)
{
    if (!s->own_counts || s->counts.warp_insns == 0)
        return;
    to->thread_insns += s->counts.thread_insns;
    to->warp_insns += s->counts.warp_insns;
    for (unsigned i = 0; i < PIC_COUNT; i++) {
        to->iclass_warp[i] += s->counts.iclass_warp[i];
        to->iclass_thread[i] += s->counts.iclass_thread[i];
    }
    memset(&s->counts, 0, sizeof s->counts);
}

void sm_release(struct sm *s)
{
    if (!s)
        return;
    sm_kernel_end(s);
    for (unsigned i = 0; i < s->g->max_cta_per_core; i++)
        ptx_cta_free(&s->cta[i].cta);
    sm_keys_release(s);
}

void sm_kernel_end(struct sm *s)
{
    sm_kernel_free(s);
    s->next_evt = SIM_NEVER;
    s->live = s->drain = 0;
    s->resident = 0;
    s->ldst.active = 0;
    sm_publish(s);
}

unsigned sm_max_ctas(const struct sm *s) { return s->grid ? s->max_ctas : 0; }
unsigned sm_resident_ctas(const struct sm *s) { return s->resident; }

bool sm_can_take_cta(const struct sm *s)
{
    return s->grid && !s->faulted && s->resident < s->max_ctas && s->resident < s->g->max_cta_per_core;
}

static void sm_view_refresh(struct sm *s, unsigned slot)
{
    struct sm_sched *sc = &s->sched[slot % s->n_sched];
    struct warp_view *v = &sc->view[slot / s->n_sched];
    const struct sm_warp *w = &s->warp[slot];
    v->valid = w->state == SMW_ACTIVE;
    sc->views_gen++;
    v->cta_slot = w->cta_slot;
    v->cta_linear = (uint32_t)s->cta[w->cta_slot].linear;
    v->age = w->age;
    v->cta_paused = s->cta[w->cta_slot].paused;
    v->issued = w->insns;
    v->pc = w->nx.pc;
    v->start = w->start;
    v->warp_in_cta = w->warp_in_cta;
    v->ready = v->waiting_mem = v->at_barrier = 0;
}

void sm_launch_cta(struct sm *s, uint64_t cta_linear, sim_cycle now)
{
    SIM_ASSERT(sm_can_take_cta(s));
    s->kick = true;
    unsigned ci = 0;
    while (ci < s->g->max_cta_per_core && s->cta[ci].used)
        ci++;
    SIM_ASSERT(ci < s->g->max_cta_per_core && s->cta[ci].allocated);
    struct sm_cta_slot *c = &s->cta[ci];
    const struct ptx_grid *g = s->grid;
    uint32_t ctaid[3];
    ctaid[0] = (uint32_t)(cta_linear % g->grid[0]);
    ctaid[1] = (uint32_t)(cta_linear / g->grid[0] % g->grid[1]);
    ctaid[2] = (uint32_t)(cta_linear / ((uint64_t)g->grid[0] * g->grid[1]));
    ptx_cta_start(&c->cta, ctaid);
    for (unsigned l = 0; l < PTX_WARP_SIZE; l++)   /* %smid is the SM that runs it */
        c->cta.bc_smid[l] = s->id;
    c->used = 1;
    c->paused = 0;
    c->linear = cta_linear;
    c->launch = now;
    c->warps_left = c->cta.nwarps;
    c->slow_end = 0;
    c->slow_samples = c->slow_hits = 0;
    s->resident++;
    unsigned slot = 0;
    for (uint32_t wi = 0; wi < c->cta.nwarps; wi++) {
        while (slot < s->max_warps && s->warp[slot].state != SMW_FREE)
            slot++;
        SIM_ASSERT(slot < s->max_warps);
        struct sm_sched *sc = &s->sched[slot % s->n_sched];
        if (sc->frozen)   /* its skipped cycles belong to the warps it had, not to this one */
            sm_thaw(s, sc, s->cycled && s->acct_cycle + 1 > sc->frozen_since ? s->acct_cycle + 1 : sc->frozen_since);
        struct sm_warp *w = &s->warp[slot];
        sim_cycle *rel = w->rel;
        uint32_t *tag = w->tag;
        memset(w, 0, sizeof *w);
        w->rel = rel;
        w->tag = tag;
        memset(rel, 0, sizeof(sim_cycle) * s->reg_lanes);
        memset(tag, 0, sizeof(uint32_t) * s->reg_lanes);
        w->pw = &c->cta.warps[wi];
        w->state = SMW_ACTIVE;
        w->cta_slot = (uint16_t)ci;
        w->warp_in_cta = (uint16_t)wi;
        w->age = s->next_age++;
        w->start = now;
        w->prev_probe = now;
        w->fetch_func = (uint16_t)g->ki->func;
        w->exp_func = w->fetch_func;
        s->live |= 1ull << slot;
        sm_fetch_wake(s, slot);
        s->sched[slot % s->n_sched].live |= 1ull << slot;
        s->sched[slot % s->n_sched].live_j |= 1ull << s->slot_j[slot];
        s->sched[slot % s->n_sched].dirty = 1;
        if (!sm_warp_peek(s, w, slot, now))
            w->nx.pc = 0;
        sm_view_refresh(s, slot);
    }
    sm_publish(s);
}

static void sm_update_paused(struct sm *s)
{
    s->any_paused = false;
    for (unsigned c = 0; c < s->g->max_cta_per_core; c++)
        s->any_paused |= s->cta[c].used && s->cta[c].paused;
}

void sm_set_cta_paused(struct sm *s, unsigned cta_slot, bool paused)
{
    if (cta_slot >= s->g->max_cta_per_core)
        return;
    s->cta[cta_slot].paused = paused;
    s->kick = true;
    sm_publish(s);
    sm_update_paused(s);
    for (uint64_t m = s->live; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        if (s->warp[slot].cta_slot == cta_slot)
            s->sched[slot % s->n_sched].view[slot / s->n_sched].cta_paused = paused;
    }
}

void sm_set_warp_limit(struct sm *s, unsigned limit)
{
    s->warp_limit = limit;
    if (!s->grid || !s->ops || !s->ops->set_limit)
        return;
    for (unsigned k = 0; k < s->n_sched; k++) {
        s->ops->set_limit(s->sched[k].st, limit);
        s->sched[k].dirty = 1;   /* the visiting window changed: a frozen scheduler looks again */
    }
    s->kick = true;
    sm_publish(s);
}

unsigned sm_warp_limit(const struct sm *s) { return s->warp_limit; }

bool sm_policy_sample(const struct sm *s, double *v)
{
    if (!s->grid || !s->ops || !s->ops->sample)
        return false;
    double acc = 0;
    bool first = true;
    for (unsigned k = 0; k < s->n_sched; k++) {
        if (!s->sched[k].live)
            continue;   /* no warps: its state may still describe departed ones */
        double x = s->ops->sample(s->sched[k].st);
        acc = first ? x : s->ops->sample_max ? (x > acc ? x : acc) : acc + x;
        first = false;
    }
    *v = acc;
    return true;
}

int sm_cta_slot(const struct sm *s, uint64_t cta_linear)
{
    for (unsigned c = 0; s->grid && c < s->g->max_cta_per_core; c++)
        if (s->cta[c].used && s->cta[c].linear == cta_linear)
            return (int)c;
    return -1;
}

/* A warp that exited and whose pending writes are done leaves the SM; the
   last warp of a CTA completes the CTA. */
void sm_warp_free_slot(struct sm *s, unsigned slot)
{
    struct sm_warp *w = &s->warp[slot];
    struct sm_cta_slot *c = &s->cta[w->cta_slot];
    if (s->done_fn) {
        struct warp_record r;
        memset(&r, 0, sizeof r);
        r.kernel_id = s->kernel_id;
        r.sm = s->id;
        r.cta_linear = c->linear;
        r.warp_in_cta = w->warp_in_cta;
        r.start = c->launch;
        r.end = w->exit_at;   /* its exit, not the later slot release */
        r.insns = w->insns;
        r.scheduling = w->sched;
        memcpy(r.stall, w->stall, sizeof r.stall);
        s->done_fn(s->done_user, &r);
    }
    if (w->exit_at >= c->slow_end) {   /* the slowest warp so far (all of a CTA start together) */
        c->slow_end = w->exit_at;
        c->slow_samples = w->cpl_samples;
        c->slow_hits = w->cpl_slow;
    }
    s->m.warps_done++;
    w->state = SMW_FREE;
    w->pw = NULL;
    uint64_t bit = 1ull << slot;
    s->live &= ~bit;
    s->drain &= ~bit;
    s->sched[slot % s->n_sched].live &= ~bit;
    s->sched[slot % s->n_sched].live_j &= ~(1ull << s->slot_j[slot]);
    s->sched[slot % s->n_sched].view[slot / s->n_sched].valid = 0;
    s->sched[slot % s->n_sched].views_gen++;
    SIM_ASSERT(c->warps_left > 0);
    if (--c->warps_left == 0) {
        c->used = 0;
        c->paused = 0;
        sm_update_paused(s);
        s->resident--;
        s->m.ctas_done++;
        s->grid->ctas_done++;
        s->m.cpl_samples += c->slow_samples;
        s->m.cpl_slow += c->slow_hits;
    }
}

/* ---- requests ------------------------------------------------------------------------ */

struct mem_req *sm_new_req(struct sm *s, uint64_t addr, uint32_t size, unsigned type, unsigned source,
                           unsigned slot, uint32_t pc, sim_cycle now)
{
    struct mem_req *r = mem_req_alloc(s->pool);
    SIM_ASSERT(r != NULL);
    r->addr = addr;
    r->size = size;
    r->type = (uint8_t)type;
    r->source = (uint8_t)source;
    r->sm = (uint16_t)s->id;
    r->warp = (uint16_t)slot;
    r->pc = pc;
    r->partition = (uint16_t)addr_map_subpart(s->map, addr);
    r->t_issue = now;
    return r;
}

bool sm_out_push(struct sm *s, struct mem_req *r, sim_cycle now)
{
    if (fifo_full(&s->out))
        return false;
    fifo_push(&s->out, r, now);
    return true;
}

struct mem_req *sm_peek_request(struct sm *s, sim_cycle now) { return fifo_peek(&s->out, now); }

void sm_pop_request(struct sm *s)
{
    (void)fifo_pop(&s->out);
    if (s->ldst_asleep && s->ldst.repeat == SML_REPEAT_QUEUE)
        s->ldst_asleep = false;   /* room: it retries from the next cycle */
    sm_publish(s);
}

bool sm_can_take_reply(const struct sm *s) { return !fifo_full(&s->reply); }

void sm_push_reply(struct sm *s, struct mem_req *r, sim_cycle now)
{
    SIM_ASSERT(!fifo_full(&s->reply));
    fifo_push(&s->reply, r, now);
    sm_publish(s);
}

/* ---- the cycle ------------------------------------------------------------------------ */

/* Cycles the GPU skipped (sm_next_event said nothing could happen): every
   counter moves exactly as if they had been ticked, so results do not depend
   on skipping. */
static void sm_catch_up(struct sm *s, sim_cycle gap)
{
    struct sm_metrics *m = &s->m;
    m->cycles += gap;
    if (s->last_class != SMC_NOWARPS)
        m->util_cycles += gap;
    switch (s->last_class) {
    case SMC_NOWARPS: m->c_idle += gap; break;
    case SMC_ACT: m->n_act += gap; break;
    case SMC_INACT_IDLE: m->n_inact += gap; m->c_idle += gap; break;
    case SMC_INACT_MEM: m->n_inact += gap; m->c_mem += gap; break;
    default: m->n_inact += gap; break;
    }
    if (s->ldst.active && s->ldst.failed) {
        m->l1d_res_fail_cycles += gap;
        if (s->ldst_asleep && s->ldst.repeat == SML_REPEAT_CACHE)   /* the retries left out, each refused as
                                                                       the last one */
            cache_count_refusals(sm_ldst_cache(s), (enum cache_fail)s->ldst.why, gap);
    }
    m->stall_gpu += (uint64_t)s->last_stalled * gap;
    sm_catch_up_warps(s, gap);
}

/* An exited warp leaves once its writes are done and the LD/ST unit no longer works for it. */
static bool sm_warp_may_leave(const struct sm *s, unsigned slot, sim_cycle now)
{
    const struct sm_warp *w = &s->warp[slot];
    return w->pending_loads == 0 && w->busy_until <= now && !(s->ldst.active && s->ldst.slot == slot);
}

static void sm_drain(struct sm *s, sim_cycle now)
{
    for (uint64_t m = s->drain; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        if (sm_warp_may_leave(s, slot, now))
            sm_warp_free_slot(s, slot);
    }
}

/* Would the drain step free a warp this cycle? (Freeing one calls the GPU's warp-done hook.) */
static bool sm_drain_frees(const struct sm *s, sim_cycle now)
{
    for (uint64_t m = s->drain; m; m &= m - 1)
        if (sm_warp_may_leave(s, (unsigned)__builtin_ctzll(m), now))
            return true;
    return false;
}

/* Every scheduler with live warps is frozen through cycle `now` (its cycle only adds its frozen
   counts). */
static bool sm_issue_frozen(const struct sm *s, sim_cycle now)
{
    for (unsigned k = 0; k < s->n_sched; k++) {
        const struct sm_sched *sc = &s->sched[k];
        if (sc->live && (!sc->frozen || sc->dirty || now >= sc->frozen_until))
            return false;
    }
    return true;
}

/* After a tick: may the failed unit's retries be left out until something else is due?  Only
   while every scheduler is frozen (the rest of such a cycle repeats the last one), and when the
   same access would fail again the same way:
   - the cache refused it with no hook that may change a policy's state (SML_REPEAT_CACHE) and
     the outgoing queue had room: the cache's state changes only in a tick of the SM or by a
     reply it ticks for, and pops only add room the access does not need.  sm_catch_up counts
     a refusal per cycle left out;
   - the outgoing queue lacked room (SML_REPEAT_QUEUE): only a pop adds room, and
     sm_pop_request wakes the unit.  Nothing is accessed meanwhile. */
static bool sm_ldst_may_sleep(const struct sm *s, sim_cycle now)
{
    if (!s->ldst.active || !s->ldst.failed || !sm_issue_frozen(s, now + 1))
        return false;
    return (s->ldst.repeat == SML_REPEAT_CACHE && fifo_free(&s->out) >= 2) || s->ldst.repeat == SML_REPEAT_QUEUE;
}

/* The steps of a cycle from s->stage on.  In a parallel round (s->par) it stops before anything
   that touches state other SMs share - a warp leaving (the GPU's hook), an instruction reading or
   writing global memory - and returns SM_YIELDED; sm_cycle_resume finishes it in SM order. */
static int sm_cycle_steps(struct sm *s, sim_cycle now)
{
    switch (s->stage) {
    case SMS_REPLY: {
        /* 1. one reply per cycle (the L1 fill port).  Only an L1D fill that may evict a dirty line
           waits for room in the outgoing queue (for the writeback): a reply that waited on the
           request path without need could close the cycle request network -> partition -> reply
           network -> this SM's full reply queue, a deadlock once bypassed reads (no MSHR) leave
           the number of outstanding requests unbounded */
        struct mem_req *r = fifo_peek(&s->reply, now);
        if (r && (!fifo_full(&s->out) || !sm_reply_may_write_back(s, r))) {
            (void)fifo_pop(&s->reply);
            sm_handle_reply(s, r, now);
        }
        s->stage = SMS_DRAIN;
    }
    /* fall through */
    case SMS_DRAIN:
        /* 2. warps that exited leave once their writes are done */
        if (s->drain) {
            if (s->par && sm_drain_frees(s, now))
                return SM_YIELDED;
            sm_drain(s, now);
        }
        /* 3. LD/ST: the next block of the memory instruction in flight */
        if (s->ldst.active)
            sm_ldst_cycle(s, now);
        s->stage = SMS_ISSUE;
        sm_issue_begin(s, now);
    /* fall through */
    case SMS_ISSUE:
        /* 4. issue (sets last_class and next_evt's warp part) */
        if (sm_issue_cycle(s, now) == SM_YIELDED)
            return SM_YIELDED;
        break;
    default:
        SIM_ASSERT(0);
    }
    /* 5. fetch */
    if (s->live)
        sm_fetch_cycle(s, now);

    /* 6. when could this SM next do something without new input? */
    sim_cycle t = s->live ? sim_min(s->issue_next, s->fetch_next) : SIM_NEVER;
    if (s->woken)   /* the fetch stage changed a warp's answer */
        t = now + 1;
    if (s->ldst.active && !s->ldst.failed)
        t = now + 1;
    for (uint64_t m = s->drain; m; m &= m - 1) {
        const struct sm_warp *w = &s->warp[__builtin_ctzll(m)];
        if (w->pending_loads == 0)
            t = sim_min(t, w->busy_until > now ? w->busy_until : now + 1);
    }
    if (s->ldst_free > now)
        t = sim_min(t, s->ldst_free);
    s->next_evt = t;
    s->last_cycle = s->acct_cycle = now;
    s->cycled = true;
    uint64_t after = s->m.issued_warp_insns + s->m.ctas_done + s->m.lat_rt_count + s->m.coalesced_requests;
    s->last_prog = after != s->prog_before || (s->ldst.active && !s->ldst.failed);
    s->ldst_asleep = sm_ldst_may_sleep(s, now);
    sm_publish(s);
    return s->last_prog ? SM_PROGRESS : SM_QUIET;
}

/* Is the failed LD/ST unit's retry all this cycle has to do?  Then the rest of the cycle is
   one the SM would skip: no reply is ready, no warp can leave, fetch has nothing to start, and
   every scheduler is frozen (its cycle only adds its frozen counts, and the cycle's class is
   the last one's).  Such a cycle is charged as a skipped one (sm_catch_up, which counts the
   unit's failure too) after the retry's own access. */
static bool sm_only_retry_due(const struct sm *s, sim_cycle now)
{
    if (!s->ldst.active || !s->ldst.failed || s->ldst_asleep || !s->cycled || s->kick || s->always_tick || s->last_prog ||
        s->fetch_blocked || s->next_evt <= now || (!fifo_empty(&s->reply) && fifo_next_ready(&s->reply) <= now))
        return false;
    return sm_issue_frozen(s, now);
}

int sm_cycle_part(struct sm *s, sim_cycle now, bool parallel)
{
    if (s->faulted)
        return SM_QUIET;
    /* a unit that keeps failing (MSHRs full, a set's lines all reserved) retries every cycle
       until a reply frees something: those cycles only repeat the access */
    if (sm_only_retry_due(s, now) && !sm_ldst_retry(s, now))
        return SM_QUIET;
    sm_settle(s, now - 1);   /* the cycles it was not ticked in */
    s->kick = false;
    s->prog_before = s->m.issued_warp_insns + s->m.ctas_done + s->m.lat_rt_count + s->m.coalesced_requests;
    s->m.cycles++;
    s->stage = SMS_REPLY;
    s->par = parallel;
    int rc = sm_cycle_steps(s, now);
    s->par = false;
    return rc;
}

bool sm_cycle_resume(struct sm *s, sim_cycle now)
{
    return sm_cycle_steps(s, now) == SM_PROGRESS;
}

bool sm_cycle(struct sm *s, sim_cycle now) { return sm_cycle_part(s, now, false) == SM_PROGRESS; }

bool sm_busy(const struct sm *s)
{
    return s->resident || s->drain || !fifo_empty(&s->out) || !fifo_empty(&s->reply) || s->ldst.active;
}

void sm_settle(struct sm *s, sim_cycle upto)
{
    if (s->cycled && upto > s->acct_cycle) {
        sm_catch_up(s, upto - s->acct_cycle);
        s->acct_cycle = upto;
    }
}

/* the failed LD/ST unit retries in the next cycle (it is not asleep) */
static inline bool sm_ldst_retries(const struct sm *s)
{
    return s->ldst.active && s->ldst.failed && !s->ldst_asleep;
}

/* sm_due and sm_next_event in the form of struct sm_times, for the run loop's reads */
static void sm_publish(struct sm *s)
{
    struct sm_times *t = s->times;
    sim_cycle e = s->faulted ? SIM_NEVER : s->next_evt;
    if (!s->faulted && !fifo_empty(&s->reply))
        e = sim_min(e, fifo_next_ready(&s->reply));
    if (!s->faulted && (s->fetch_blocked || sm_ldst_retries(s)) && !fifo_full(&s->out))
        e = 0;   /* at the next cycle, whichever it is */
    t->evt = e;
    t->due = s->kick || s->always_tick || !s->cycled || s->last_prog || s->faulted ? 0 : e;
    t->out = fifo_next_ready(&s->out);
}

void sm_set_times_slot(struct sm *s, struct sm_times *slot)
{
    s->times = slot ? slot : &s->times_own;
    sm_publish(s);
}

bool sm_due(const struct sm *s, sim_cycle now)
{
    /* after a tick that made progress the next one is real too (as for the whole GPU's idle
       skipping): its metrics class, which skipped cycles repeat, must be one of a quiet cycle */
    return s->kick || s->always_tick || !s->cycled || s->last_prog || s->faulted ||
           sm_next_event(s, now - 1) <= now;
}

sim_cycle sm_next_event(const struct sm *s, sim_cycle now)
{
    if (s->faulted)
        return SIM_NEVER;
    sim_cycle t = s->next_evt;
    if (!fifo_empty(&s->reply))
        t = sim_min(t, fifo_next_ready(&s->reply));
    /* blocked on queue space that the interconnect may have freed since */
    if ((s->fetch_blocked || sm_ldst_retries(s)) && !fifo_full(&s->out))
        t = now + 1;
    return t == SIM_NEVER ? t : sim_max(t, now + 1);
}

bool sm_faulted(const struct sm *s) { return s->faulted; }

void sm_dump(const struct sm *s, FILE *f)
{
    unsigned n[STALL_COUNT] = {0};
    unsigned live = 0, drain = 0, fetch_wait = 0;
    for (unsigned i = 0; i < s->max_warps; i++) {
        const struct sm_warp *w = &s->warp[i];
        if (w->state == SMW_ACTIVE) {
            live++;
            n[w->rep_reason < STALL_COUNT ? w->rep_reason : 0]++;
            fetch_wait += w->fetch_state == SMF_IMISS;
        } else if (w->state == SMW_DRAIN) {
            drain++;
        }
    }
    fprintf(f, "sm%u: cycle %llu ctas %u/%u warps %u (+%u draining) last-reason", s->id,
            (unsigned long long)s->last_cycle, s->resident, s->max_ctas, live, drain);
    for (unsigned r = 1; r < STALL_COUNT; r++)
        if (n[r])
            fprintf(f, " %s=%u", stall_reason_name((enum stall_reason)r), n[r]);
    fprintf(f, " imiss=%u out=%u reply=%u ldst=%s%s l1d_mshr=%u\n", fetch_wait, fifo_count(&s->out),
            fifo_count(&s->reply), s->ldst.active ? "busy" : "idle", s->ldst.failed ? "(res-fail)" : "",
            cache_mshr_used(s->l1d));
}
