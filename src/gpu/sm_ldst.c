/*
 * sm_ldst.c - the LD/ST unit and the SM's side of the memory system.
 *
 * A memory instruction is executed at issue (addresses are real), then:
 *   shared   bank conflicts: the access takes as many passes as the largest
 *            number of distinct 4-byte words any bank must deliver (one word
 *            read by many lanes is a broadcast, free); atomics serialise every
 *            lane on a bank.  Data after shmem_latency + passes - 1.
 *   param    kernel / call parameters: a constant-cache hit (const_latency).
 *   const    one constant-cache access per distinct address, one per cycle.
 *   global, local  coalesced: the active lanes' accesses grouped into blocks
 *            (L1D lines, or 32-byte sectors with -warpsim_coalesce_sector 32),
 *            one L1D access per block per cycle.  Loads (and ld.global.nc)
 *            are cached; stores go through per the L1D write policy (Fermi
 *            "L": global write-through, local write-back).  Local memory is
 *            placed in a per-SM region with 4-byte words interleaved over the
 *            32 lanes, so lanes reading the same local variable coalesce.
 *   atomics  bypass the L1: one MRT_ATOMIC request per block, answered by the L2.
 *   texture  one texture-cache access per distinct texture-cache line.
 * A reservation failure (MSHRs, merge slots, no line, or the outgoing queue
 * full) stops the unit; the same block is retried next cycle.  A load keeps
 * its destination registers reserved until every block hit (l1d_latency after
 * its access) or its last reply has been written back.
 */
#include <string.h>

#include "gpu/sm_int.h"

int sm_ldst_init(struct sm *s)
{
    /* room for a miss and the dirty line it evicts, always */
    SIM_ASSERT(s->out.cap >= 2);
    SIM_ASSERT(s->blk_unit >= 4 && (s->blk_unit & (s->blk_unit - 1)) == 0);
    return 0;
}

bool sm_ldst_busy(const struct sm *s, sim_cycle now) { return s->ldst.active || now < s->ldst_free; }

/* The LD/ST unit started failing, recovered or finished: the warps waiting
   for it get another look. */
static void sm_ldst_changed(struct sm *s)
{
    for (uint64_t m = s->ldst_wait; m; m &= m - 1)
        sm_warp_wake(s, (unsigned)__builtin_ctzll(m), 0);
    s->ldst_wait = 0;
}

/* ---- loads ------------------------------------------------------------------------------ */

static uint32_t sm_load_alloc(struct sm *s, unsigned slot, const struct ptx_peek *nx)
{
    /* a returned load first, else the next one never used: the order a list of all of them
       threaded in index order would give */
    uint32_t li = s->free_load;
    if (li != SM_NONE) {
        s->free_load = s->loads[li].next_free;
    } else {
        SIM_ASSERT(s->loads_used < s->nloads);
        li = s->loads_used++;
    }
    struct sm_load *ld = &s->loads[li];
    memset(ld, 0, sizeof *ld);
    ld->next_free = SM_NONE;
    ld->slot = (uint16_t)slot;
    ld->seq = ++s->load_seq;
    if (ld->seq >= (1u << 31))
        ld->seq = s->load_seq = 1;
    ld->nkeys = nx->ndst;
    struct sm_warp *w = &s->warp[slot];
    for (unsigned i = 0; i < nx->ndst; i++) {
        ld->keys[i] = nx->dst[i];
        w->rel[nx->dst[i]] = SIM_NEVER;
        w->tag[nx->dst[i]] = ld->seq << 1;
    }
    w->pending_loads++;
    return li;
}

static void sm_load_missed(struct sm *s, struct sm_load *ld)
{
    struct sm_warp *w = &s->warp[ld->slot];
    for (unsigned i = 0; i < ld->nkeys; i++)
        w->tag[ld->keys[i]] = ld->seq << 1 | 1;
    ld->pending++;
}

/* All blocks accessed and all replies back: write the registers back. */
static void sm_load_maybe_done(struct sm *s, uint32_t li, sim_cycle now)
{
    struct sm_load *ld = &s->loads[li];
    if (!ld->issued_all || ld->pending)
        return;
    struct sm_warp *w = &s->warp[ld->slot];
    bool missed = ld->nkeys && (w->tag[ld->keys[0]] & 1);
    sim_cycle t = sm_wb_slot(s, sim_max(ld->done_at, missed ? now + 1 : now));
    for (unsigned i = 0; i < ld->nkeys; i++)
        w->rel[ld->keys[i]] = t;
    w->busy_until = sim_max(w->busy_until, t);
    SIM_ASSERT(w->pending_loads > 0);
    w->pending_loads--;
    sm_warp_wake(s, ld->slot, 0);
    ld->next_free = s->free_load;
    s->free_load = li;
}

/* Registers of a load that completes at a known time (shared, param, no access). */
static void sm_reserve_until(struct sm *s, unsigned slot, const struct ptx_peek *nx, sim_cycle t)
{
    struct sm_warp *w = &s->warp[slot];
    if (!nx->ndst)
        return;
    t = sm_wb_slot(s, t);
    uint32_t seq = ++s->load_seq;
    for (unsigned i = 0; i < nx->ndst; i++) {
        w->rel[nx->dst[i]] = t;
        w->tag[nx->dst[i]] = seq << 1;   /* a memory wait, never a miss */
    }
    w->busy_until = sim_max(w->busy_until, t);
}

/* ---- address grouping --------------------------------------------------------------------- */

static inline uint64_t sm_local_addr(const struct sm *s, unsigned slot, unsigned lane, uint64_t off)
{
    return SM_LOCAL_BASE + ((uint64_t)s->id * s->max_warps + slot) * s->local_per_warp + (off >> 2) * 128 +
           lane * 4u + (off & 3);
}

struct sm_grouper {
    struct sm_blk *blk;
    unsigned n, last, line;
    uint64_t unit_mask;
};

static void sm_group_add(struct sm_grouper *gp, uint64_t a, uint32_t bytes, uint32_t unit)
{
    uint64_t b = a & ~gp->unit_mask;
    unsigned i = gp->last;
    if (i >= gp->n || gp->blk[i].addr != b) {
        for (i = 0; i < gp->n && gp->blk[i].addr != b; i++)
            ;
        if (i == gp->n) {
            if (gp->n >= SM_MAX_BLOCKS)
                return;
            gp->blk[gp->n++] = (struct sm_blk){b, 0, 0};
        }
        gp->last = i;
    }
    struct sm_blk *k = &gp->blk[i];
    k->bytes = k->bytes + bytes > unit ? unit : k->bytes + bytes;
    k->sector_mask |= 1u << ((a & (gp->line - 1)) >> 5);
}

/* Blocks of `unit` bytes touched by the active lanes, in first-touch order. */
static unsigned sm_group(struct sm *s, const struct warp_inst *wi, unsigned slot, bool local, uint32_t unit,
                         struct sm_blk *out)
{
    struct sm_grouper gp = {out, 0, 0, s->l1d_line ? s->l1d_line : 128, (uint64_t)unit - 1};
    uint32_t size = wi->access_size ? wi->access_size : 4;
    for (uint32_t m = wi->active_mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t a = wi->addr[l];
        if (!local) {
            sm_group_add(&gp, a, size, unit);
            continue;
        }
        uint64_t off = a & (PTX_WIN_SIZE - 1);
        for (uint32_t k = 0; k < size; k += 4)
            sm_group_add(&gp, sm_local_addr(s, slot, l, off + k), size < 4 ? size : 4, unit);
    }
    return gp.n;
}

/* distinct addresses, in first-use order (constant cache: one access each) */
static unsigned sm_distinct(const struct warp_inst *wi, uint64_t base, struct sm_blk *out)
{
    unsigned n = 0;
    for (uint32_t m = wi->active_mask; m; m &= m - 1) {
        uint64_t a = base + (wi->addr[__builtin_ctz(m)] & (PTX_WIN_SIZE - 1));
        unsigned i = 0;
        while (i < n && out[i].addr != a)
            i++;
        if (i == n)
            out[n++] = (struct sm_blk){a, wi->access_size, 1};
    }
    return n;
}

/* Shared-memory passes: the most distinct words one bank must deliver
   (atomics: the most lane-words on one bank, they serialise).  Each bank keeps a chain of the
   distinct words it was asked for, so that a repeated word (a broadcast) is found among its
   bank's words only. */
static unsigned sm_bank_passes(const struct sm *s, const struct warp_inst *wi, bool atomic)
{
    uint64_t words[SM_MAX_BLOCKS];
    uint16_t next[SM_MAX_BLOCKS];
    uint16_t head[SM_MAX_BLOCKS];   /* per bank: first word + 1, 0 = none */
    unsigned cnt[SM_MAX_BLOCKS];
    unsigned nb = s->g->shmem_num_banks ? s->g->shmem_num_banks : 32;
    unsigned banks = nb < SM_MAX_BLOCKS ? nb : SM_MAX_BLOCKS;
    bool pow2 = (nb & (nb - 1)) == 0;
    memset(head, 0, sizeof(uint16_t) * banks);
    memset(cnt, 0, sizeof(unsigned) * banks);
    uint32_t size = wi->access_size ? wi->access_size : 4;
    unsigned n = 0, seen = 0, passes = 1;   /* words kept; lane-words looked at (at most SM_MAX_BLOCKS) */
    for (uint32_t m = wi->active_mask; m; m &= m - 1) {
        uint64_t off = wi->addr[__builtin_ctz(m)] & (PTX_WIN_SIZE - 1);
        for (uint64_t w = off >> 2; w <= (off + size - 1) >> 2 && seen < SM_MAX_BLOCKS; w++, seen++) {
            unsigned b = (unsigned)(pow2 ? w & (nb - 1) : w % nb) % banks;
            if (!atomic) {
                unsigned k = head[b];
                while (k && words[k - 1] != w)
                    k = next[k - 1];
                if (k)
                    continue;   /* broadcast: the bank delivers the word once */
            }
            words[n] = w;
            next[n] = head[b];
            head[b] = (uint16_t)(n + 1);
            n++;
            if (++cnt[b] > passes)
                passes = cnt[b];
        }
    }
    return passes;
}

/* ---- issue ---------------------------------------------------------------------------------- */

void sm_ldst_issue(struct sm *s, unsigned slot, const struct warp_inst *wi, const struct ptx_peek *nx,
                   sim_cycle now)
{
    const struct gpu_config *g = s->g;
    struct sm_ldst_op *op = &s->ldst;
    s->m.mem_insns++;
    if (wi->active_mask == 0) {   /* guarded off everywhere: one pass, nothing written */
        s->ldst_free = now + 1;
        return;
    }
    bool atomic = wi->cls == WI_ATOM;
    switch (wi->space) {
    case WS_SPACE_SHARED: {
        unsigned p = sm_bank_passes(s, wi, atomic);
        s->m.shmem_bank_conflicts += p - 1;
        s->ldst_free = now + p;
        sm_reserve_until(s, slot, nx, now + g->shmem_latency + p - 1);
        return;
    }
    case WS_SPACE_PARAM:
        s->ldst_free = now + 1;
        sm_reserve_until(s, slot, nx, now + g->const_latency);
        return;
    case WS_SPACE_CONST:
        op->kind = SML_CONST;
        op->local = 0;
        op->n = sm_distinct(wi, PTX_WIN_CONST, op->blk);
        break;
    case WS_SPACE_TEX:
        op->kind = SML_TEX;
        op->local = 0;
        op->n = sm_group(s, wi, slot, false, s->tex_line ? s->tex_line : 128, op->blk);
        break;
    default: {
        bool local = wi->space == WS_SPACE_LOCAL;
        op->kind = atomic ? SML_ATOMIC : wi->is_write ? SML_L1D_WRITE : SML_L1D_READ;
        op->local = local;
        op->n = sm_group(s, wi, slot, local, s->blk_unit, op->blk);
        s->m.coalesced_requests += op->n;
        break;
    }
    }
    op->active = 1;
    op->failed = 0;
    op->slot = (uint16_t)slot;
    op->pc = wi->pc;
    op->next = 0;
    op->load = op->kind != SML_L1D_WRITE && nx->ndst ? sm_load_alloc(s, slot, nx) : SM_NONE;
    if (op->n == 0) {   /* nothing to access (cannot happen with active lanes) */
        op->active = 0;
        s->ldst_free = now + 1;
        if (op->load != SM_NONE) {
            s->loads[op->load].issued_all = 1;
            sm_load_maybe_done(s, op->load, now);
        }
        return;
    }
    sm_ldst_cycle(s, now);   /* the first block is accessed in the issue cycle */
}

/* ---- one block per cycle ------------------------------------------------------------------------ */

static void sm_send_writeback(struct sm *s, uint64_t wb, unsigned slot, uint32_t pc, sim_cycle now)
{
    if (wb == UINT64_MAX)
        return;
    struct mem_req *r = sm_new_req(s, wb, s->l1d_line, MRT_WRITE, MRS_WRITEBACK, slot, pc, now);
    r->sector_mask = (1u << (s->l1d_line / 32 ? s->l1d_line / 32 : 1)) - 1;
    SIM_ASSERT(sm_out_push(s, r, now));
}

static uint32_t sm_read_size(const struct sm *s, const struct sm_blk *b, unsigned line)
{
    if (!s->g->coalesce_sector)
        return line;
    uint32_t n = (uint32_t)__builtin_popcount(b->sector_mask);
    return (n ? n : 1) * 32u;
}

/* Whether the warp scheduler predicts the warp in `slot` critical (CAWA: for the L1D's
   replacement policy, which gets it with the access; warp_sched_ops.is_critical). */
static bool sm_warp_critical(const struct sm *s, unsigned slot)
{
    if (!s->ops || !s->ops->is_critical || slot >= s->max_warps)
        return false;
    const struct sm_sched *sc = &s->sched[slot % s->n_sched];
    return sc->st && s->ops->is_critical(sc->st, slot);
}

/* A reservation failure of the unit's access in cache c: whether the same access would be
   refused again the same way with nothing else happening. */
static bool sm_ldst_refused(struct sm_ldst_op *op, const struct cache *c, enum cache_fail why)
{
    op->repeat = cache_refusal_repeats(c) ? SML_REPEAT_CACHE : SML_REPEAT_ANY;
    op->why = (uint8_t)why;
    return false;
}

struct cache *sm_ldst_cache(const struct sm *s)
{
    switch (s->ldst.kind) {
    case SML_L1D_READ: case SML_L1D_WRITE: return s->l1d;
    case SML_ATOMIC: return NULL;
    case SML_CONST: return s->l1c;
    default: return s->l1t;
    }
}

/* A read through one of the SM's caches (L1D, const, texture). */
static bool sm_cached_read(struct sm *s, struct sm_ldst_op *op, struct cache *c, unsigned source, unsigned hit_lat,
                           unsigned line, sim_cycle now)
{
    const struct sm_blk *b = &op->blk[op->next];
    uint64_t token = op->load != SM_NONE ? SM_TOK_LOAD | op->load : 0;
    uint64_t wb = UINT64_MAX;
    enum cache_fail why = CF_NONE;
    bool crit = c == s->l1d && sm_warp_critical(s, op->slot);
    enum cache_result res =
        cache_access_wc(c, b->addr, false, op->local, op->pc, op->slot, crit, token, now, &wb, &why);
    struct sm_load *ld = op->load != SM_NONE ? &s->loads[op->load] : NULL;
    switch (res) {
    case CACHE_HIT:
        if (ld)
            ld->done_at = sim_max(ld->done_at, now + hit_lat);
        break;
    case CACHE_HIT_RESERVED:
        if (ld)
            sm_load_missed(s, ld);
        break;
    case CACHE_MISS:
    case CACHE_MISS_NO_ALLOC: {
        struct mem_req *r = sm_new_req(s, cache_block(c, b->addr), sm_read_size(s, b, line), MRT_READ,
                                       res == CACHE_MISS ? source : MRS_UNCACHED, op->slot, op->pc, now);
        r->sector_mask = b->sector_mask;
        if (res == CACHE_MISS_NO_ALLOC)
            r->cookie = (void *)(uintptr_t)token;
        SIM_ASSERT(sm_out_push(s, r, now));
        if (ld)
            sm_load_missed(s, ld);
        break;
    }
    default:
        return sm_ldst_refused(op, c, why);
    }
    sm_send_writeback(s, wb, op->slot, op->pc, now);
    return true;
}

static bool sm_l1d_write(struct sm *s, struct sm_ldst_op *op, sim_cycle now)
{
    const struct sm_blk *b = &op->blk[op->next];
    const struct cache_config *cc = cache_cfg(s->l1d);
    bool write_back = cc->wr == CW_WRITE_BACK || (cc->wr == CW_LOCAL_WB_GLOBAL_WT && op->local);
    uint64_t wb = UINT64_MAX;
    enum cache_fail why = CF_NONE;
    /* the warp and its criticality go to the replacement policy (bypass policies see only reads) */
    enum cache_result res = cache_access_wc(s->l1d, b->addr, true, op->local, op->pc, op->slot,
                                            sm_warp_critical(s, op->slot), 0, now, &wb, &why);
    if (res == CACHE_RESERVATION_FAIL)
        return sm_ldst_refused(op, s->l1d, why);
    bool send_write = !write_back || res == CACHE_MISS_NO_ALLOC;
    if (send_write) {
        struct mem_req *r = sm_new_req(s, b->addr, b->bytes, MRT_WRITE, MRS_L1D, op->slot, op->pc, now);
        r->sector_mask = b->sector_mask;
        SIM_ASSERT(sm_out_push(s, r, now));
    } else if (res == CACHE_MISS) {   /* write-allocate: fetch the line, nobody waits for it */
        struct mem_req *r = sm_new_req(s, cache_block(s->l1d, b->addr), s->l1d_line, MRT_READ, MRS_L1D, op->slot,
                                       op->pc, now);
        r->sector_mask = b->sector_mask;
        SIM_ASSERT(sm_out_push(s, r, now));
    }
    sm_send_writeback(s, wb, op->slot, op->pc, now);
    return true;
}

static bool sm_atomic(struct sm *s, struct sm_ldst_op *op, sim_cycle now)
{
    const struct sm_blk *b = &op->blk[op->next];
    uint64_t token = op->load != SM_NONE ? SM_TOK_LOAD | op->load : 0;
    struct mem_req *r = sm_new_req(s, b->addr, b->bytes, MRT_ATOMIC, MRS_UNCACHED, op->slot, op->pc, now);
    r->sector_mask = b->sector_mask;
    r->cookie = (void *)(uintptr_t)token;
    SIM_ASSERT(sm_out_push(s, r, now));
    if (op->load != SM_NONE)
        sm_load_missed(s, &s->loads[op->load]);
    return true;
}

/* The access of the current block: true when it went through, false on a reservation failure
   (which changes nothing but the caches' failure counts). */
static bool sm_ldst_access(struct sm *s, struct sm_ldst_op *op, sim_cycle now)
{
    if (fifo_free(&s->out) < 2) {
        op->repeat = SML_REPEAT_QUEUE;
        return false;   /* a miss and its eviction must both fit */
    }
    switch (op->kind) {
    case SML_L1D_READ:
        return sm_cached_read(s, op, s->l1d, MRS_L1D, s->g->l1d_latency, s->l1d_line, now);
    case SML_L1D_WRITE:
        return sm_l1d_write(s, op, now);
    case SML_ATOMIC:
        return sm_atomic(s, op, now);
    case SML_CONST:
        return sm_cached_read(s, op, s->l1c, MRS_L1C, s->g->const_latency, s->const_line, now);
    default:
        return sm_cached_read(s, op, s->l1t, MRS_L1T, s->g->l1d_latency, s->tex_line, now);
    }
}

bool sm_ldst_retry(struct sm *s, sim_cycle now)
{
    SIM_ASSERT(s->ldst.active && s->ldst.failed && !s->ldst.attempted);
    s->ldst.attempted = sm_ldst_access(s, &s->ldst, now);
    return s->ldst.attempted;
}

void sm_ldst_cycle(struct sm *s, sim_cycle now)
{
    struct sm_ldst_op *op = &s->ldst;
    if (!op->active)
        return;
    bool ok = op->attempted || sm_ldst_access(s, op, now);
    op->attempted = 0;
    if (!ok) {
        if (!op->failed)
            sm_ldst_changed(s);   /* StrlHazard turns into MSHR */
        op->failed = 1;
        s->m.l1d_res_fail_cycles++;
        return;
    }
    if (op->failed)
        sm_ldst_changed(s);
    op->failed = 0;
    if (++op->next < op->n)
        return;
    op->active = 0;
    sm_ldst_changed(s);
    s->ldst_free = now + 1;
    if (op->load != SM_NONE) {
        s->loads[op->load].issued_all = 1;
        sm_load_maybe_done(s, op->load, now);
    }
}

/* ---- replies ------------------------------------------------------------------------------------ */

static void sm_wake(struct sm *s, uint64_t token, sim_cycle now)
{
    switch (token & SM_TOK_KIND) {
    case SM_TOK_LOAD: {
        uint32_t li = (uint32_t)token;
        SIM_ASSERT(li < s->nloads && s->loads[li].pending > 0);
        s->loads[li].pending--;
        sm_load_maybe_done(s, li, now);
        break;
    }
    case SM_TOK_FETCH:
        sm_fetch_filled(s, token, now);
        break;
    default:
        break;   /* nobody waits (prefetch, write-allocate fetch) */
    }
}

static void sm_fill(struct sm *s, struct cache *c, const struct mem_req *r, sim_cycle now)
{
    uint64_t wb = UINT64_MAX;
    unsigned n = cache_fill(c, r->addr, now, s->waiters, s->max_waiters, &wb);
    SIM_ASSERT(n <= s->max_waiters);
    for (unsigned i = 0; i < n; i++)
        sm_wake(s, s->waiters[i], now);
    sm_send_writeback(s, wb, r->warp, r->pc, now);
}

bool sm_reply_may_write_back(const struct sm *s, const struct mem_req *r)
{
    /* the L1I, constant and texture caches are read-only; uncached replies fill nothing */
    return r->source == MRS_L1D && cache_fill_may_write_back(s->l1d, r->addr);
}

void sm_handle_reply(struct sm *s, struct mem_req *r, sim_cycle now)
{
    struct sm_metrics *m = &s->m;
    uint64_t lat = now >= r->t_issue ? now - r->t_issue : 0;
    m->lat_rt_sum += lat;
    m->lat_rt_count++;
    if (lat > m->lat_rt_max)
        m->lat_rt_max = lat;
    unsigned bw = s->g->lat_hist_bucket ? s->g->lat_hist_bucket : 50;
    uint64_t b = lat / bw;
    m->lat_rt_hist[b < SM_LAT_HIST_BUCKETS ? b : SM_LAT_HIST_BUCKETS - 1]++;
    switch (r->source) {
    case MRS_L1D: sm_fill(s, s->l1d, r, now); break;
    case MRS_L1I: sm_fill(s, s->l1i, r, now); break;
    case MRS_L1C: sm_fill(s, s->l1c, r, now); break;
    case MRS_L1T: sm_fill(s, s->l1t, r, now); break;
    default: sm_wake(s, (uint64_t)(uintptr_t)r->cookie, now); break;
    }
    mem_req_free(s->pool, r);
}
