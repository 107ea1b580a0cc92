/*
 * sm_fetch.c - instruction fetch: one warp per cycle (round-robin over the
 * warps whose instruction buffer has room) reads its next PC through the L1
 * instruction cache.  A hit delivers the instructions from that PC to the end
 * of the I-cache line (at most the free ibuffer entries) fetch_latency cycles
 * later; a miss sends a read for the line and the warp waits for the fill,
 * which then delivers the same way.  The ibuffer holds consecutive
 * instructions starting at the warp's next instruction; when the warp
 * continues anywhere else (taken or divergent branch, reconvergence, call,
 * return) it is flushed and fetch of the new PC waits branch_latency cycles.
 */
#include "gpu/sm_int.h"

static uint16_t sm_fetch_count(const struct sm *s, const struct sm_warp *w, uint64_t addr)
{
    unsigned ibsz = s->g->ibuffer_size ? s->g->ibuffer_size : 1;
    uint64_t line = s->l1i_line ? s->l1i_line : 128;
    uint64_t in_line = (line - (addr & (line - 1))) / SM_INSN_BYTES;
    uint32_t ninsns = s->grid->mod->funcs[w->fetch_func].ninsns;
    uint64_t n = ibsz > w->ib_count ? ibsz - w->ib_count : 0;
    if (in_line < n)
        n = in_line;
    if (ninsns - w->fetch_pc < n)
        n = ninsns - w->fetch_pc;
    return (uint16_t)n;
}

/* instructions of the line at the fetch PC enter the ibuffer fetch_latency from now */
static void sm_fetch_deliver(struct sm *s, struct sm_warp *w, uint64_t addr, sim_cycle now)
{
    uint16_t n = sm_fetch_count(s, w, addr);
    w->ib_pending = n;
    w->fetch_pc += n;
    w->fetch_state = SMF_DECODE;
    w->ib_ready_at = now + s->g->fetch_latency;
    if (w->rep_reason == STALL_FETCH)
        sm_warp_wake(s, (unsigned)(w - s->warp), w->ib_ready_at);
    sm_fetch_update(w, now);
}

void sm_warp_redirect(struct sm *s, struct sm_warp *w, sim_cycle now)
{
    w->ib_count = 0;
    w->ib_pending = 0;
    w->fetch_state = SMF_IDLE;
    w->fetch_gen = ++s->gen_counter;
    w->fetch_func = w->nx.func;
    w->fetch_pc = w->nx.pc;
    w->redirect_until = now + s->g->branch_latency;
    sm_warp_wake(s, (unsigned)(w - s->warp), 0);
    sm_fetch_wake(s, (unsigned)(w - s->warp));
}

void sm_fetch_filled(struct sm *s, uint64_t token, sim_cycle now)
{
    unsigned slot = (unsigned)((token >> 32) & 0xffffu);
    uint32_t gen = (uint32_t)token;
    if (slot >= s->max_warps)
        return;
    struct sm_warp *w = &s->warp[slot];
    if (w->state != SMW_ACTIVE || w->fetch_state != SMF_IMISS || w->fetch_gen != gen)
        return;   /* the warp was redirected (or left) since: a stale fill */
    sm_fetch_deliver(s, w, sm_code_addr(s, w->fetch_func, w->fetch_pc), now);
    sm_warp_wake(s, slot, 0);
    sm_fetch_wake(s, slot);
}

/* 1: the warp's fetch started (hit or miss); 0: blocked (no queue space, reservation failure) */
static int sm_fetch_one(struct sm *s, unsigned slot, struct sm_warp *w, sim_cycle now)
{
    if (fifo_full(&s->out))
        return 0;
    uint64_t addr = sm_code_addr(s, w->fetch_func, w->fetch_pc);
    uint64_t token = SM_TOK_FETCH | (uint64_t)slot << 32 | w->fetch_gen;
    uint64_t wb = UINT64_MAX;
    enum cache_fail why = CF_NONE;
    enum cache_result res = cache_access(s->l1i, addr, false, w->fetch_pc, token, now, &wb, &why);
    switch (res) {
    case CACHE_HIT:
        sm_fetch_deliver(s, w, addr, now);
        return 1;
    case CACHE_HIT_RESERVED:
        w->fetch_state = SMF_IMISS;
        return 1;
    case CACHE_MISS:
    case CACHE_MISS_NO_ALLOC: {
        struct mem_req *r = sm_new_req(s, cache_block(s->l1i, addr), s->l1i_line, MRT_READ,
                                       res == CACHE_MISS ? MRS_L1I : MRS_UNCACHED, slot, w->fetch_pc, now);
        if (res == CACHE_MISS_NO_ALLOC)   /* nothing in the cache will hand the waiter back */
            r->cookie = (void *)(uintptr_t)token;
        (void)sm_out_push(s, r, now);
        w->fetch_state = SMF_IMISS;
        return 1;
    }
    default:
        return 0;
    }
}

/* Debug builds (WARPSIM_SLOW_CHECKS): a quiet fetch stage's candidates all wait for a decode or
   a redirect, and fetch_next is the earliest of those times (what a scan would find). */
static void sm_fetch_check_quiet(const struct sm *s, sim_cycle now)
{
#ifdef WARPSIM_SLOW_CHECKS
    unsigned ibsz = s->g->ibuffer_size ? s->g->ibuffer_size : 1;
    sim_cycle t = SIM_NEVER;
    for (uint64_t m = s->live & s->fetch_cand; m; m &= m - 1) {
        const struct sm_warp *w = &s->warp[__builtin_ctzll(m)];
        if (w->fetch_state == SMF_DECODE) {
            SIM_ASSERT(w->ib_ready_at > now);
            t = sim_min(t, w->ib_ready_at);
        } else {
            SIM_ASSERT(w->fetch_state == SMF_IDLE && w->ib_count < ibsz &&
                       w->fetch_pc < s->grid->mod->funcs[w->fetch_func].ninsns && now < w->redirect_until);
            t = sim_min(t, w->redirect_until);
        }
    }
    SIM_ASSERT(t == s->fetch_next && !s->fetch_blocked);
#else
    (void)s;
    (void)now;
#endif
}

void sm_fetch_cycle(struct sm *s, sim_cycle now)
{
    /* nothing changed since a scan that found nothing to start before fetch_next: it would find
       the same again */
    if (s->fetch_quiet && now < s->fetch_next) {
        sm_fetch_check_quiet(s, now);
        return;
    }
    s->fetch_quiet = false;   /* until this scan ends without starting a fetch or being blocked */
    s->fetch_blocked = false;
    s->fetch_next = SIM_NEVER;
    unsigned ibsz = s->g->ibuffer_size ? s->g->ibuffer_size : 1;
    const struct ptx_func *funcs = s->grid->mod->funcs;
    /* round-robin: slots from fetch_rr upward, then the ones below */
    uint64_t live = s->live & s->fetch_cand;
    uint64_t upper = s->fetch_rr < 64 ? live & (~0ull << s->fetch_rr) : 0;
    uint64_t parts[2] = {upper, live & ~upper};
    for (unsigned p = 0; p < 2; p++) {
        for (uint64_t m = parts[p]; m; m &= m - 1) {
            unsigned slot = (unsigned)__builtin_ctzll(m);
            struct sm_warp *w = &s->warp[slot];
            sm_fetch_update(w, now);
            if (w->fetch_state == SMF_DECODE) {
                s->fetch_next = sim_min(s->fetch_next, w->ib_ready_at);
                continue;
            }
            if (w->fetch_state != SMF_IDLE || w->ib_count >= ibsz || w->fetch_pc >= funcs[w->fetch_func].ninsns) {
                s->fetch_cand &= ~(1ull << slot);   /* until it issues, is redirected or its miss fills */
                continue;
            }
            if (now < w->redirect_until) {
                s->fetch_next = sim_min(s->fetch_next, w->redirect_until);
                continue;
            }
            if (sm_fetch_one(s, slot, w, now)) {
                s->fetch_rr = slot + 1;
                s->fetch_next = now + 1;
            } else {
                s->fetch_blocked = true;
            }
            return;   /* one I-cache access per cycle */
        }
    }
    s->fetch_quiet = true;
}
