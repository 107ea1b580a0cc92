/*
 * sm_issue.c - the issue stage: per scheduler, the policy orders its warps,
 * the SM visits them in that order and probes each (latency attribution,
 * SPEC section 5 / seed 000 Algorithm 2), and issues the first ready one.
 * Issue executes the instruction (ptx_warp_step) and then charges its timing:
 * scoreboard reservations, functional-unit occupancy, writeback ports; the
 * LD/ST unit takes memory instructions (sm_ldst.c).
 *
 * Probing is split in two so that policies can see readiness: a pre-pass
 * answers "could this warp issue now, and if not why" for every live warp of
 * the scheduler (pure: it changes nothing but cached answers), then the
 * visiting pass charges the answers (Scheduling += now - prev_probe, then one
 * reason) in the policy's order until the first ready warp issues.  A warp's
 * answer is cached with the cycle before which it cannot change (wake_at),
 * which makes the pre-pass a comparison for warps that wait.
 */
#include <stddef.h>
#include <string.h>

#include "gpu/sm_int.h"

static uint8_t sm_unit_of(uint8_t cls)
{
    switch (cls) {
    case WI_FP64: return SMU_DP;
    case WI_SFU: return SMU_SFU;
    case WI_LD: case WI_ST: case WI_ATOM: case WI_TEX: return SMU_LDST;
    default: return SMU_SP;
    }
}

static void sm_warp_to_drain(struct sm *s, struct sm_warp *w, unsigned slot, sim_cycle now)
{
    uint64_t bit = 1ull << slot;
    w->exit_at = now;
    w->state = SMW_DRAIN;
    w->nx_valid = 0;
    s->live &= ~bit;
    s->sched[slot % s->n_sched].live &= ~bit;
    s->sched[slot % s->n_sched].live_j &= ~(1ull << s->slot_j[slot]);
    s->sched[slot % s->n_sched].view[slot / s->n_sched].valid = 0;
    s->sched[slot % s->n_sched].views_gen++;
    s->drain |= bit;
    s->fetch_quiet = false;   /* its fetch no longer bounds fetch_next */
}

/* Barrier arrivals and exits can release other warps of the CTA. */
static void sm_wake_cta(struct sm *s, unsigned cta_slot)
{
    for (uint64_t m = s->live; m; m &= m - 1) {
        struct sm_warp *o = &s->warp[__builtin_ctzll(m)];
        if (o->cta_slot == cta_slot && o->at_bar) {
            o->at_bar = o->pw->status == PTX_WARP_BARRIER;
            if (!o->at_bar)
                sm_warp_wake(s, (unsigned)(o - s->warp), 0);
        }
    }
}

/* Find the warp's next instruction.  A continuation other than the
   sequential successor of the last issued instruction flushes the ibuffer
   (control hazard).  false when the warp cannot issue (barrier, exited,
   fault). */
bool sm_warp_peek(struct sm *s, struct sm_warp *w, unsigned slot, sim_cycle now)
{
    uint32_t exited = w->pw->exited;
    int st = ptx_warp_peek(w->pw, &w->nx);
    if (w->pw->exited != exited && st == PTX_WARP_READY)
        sm_wake_cta(s, w->cta_slot);   /* lanes that ran off the end may complete a barrier */
    if (st != PTX_WARP_READY) {
        w->nx_valid = 0;
        if (st == PTX_WARP_EXITED) {
            sm_warp_to_drain(s, w, slot, now);
            sm_wake_cta(s, w->cta_slot);
        } else if (st == PTX_WARP_FAULT) {
            s->faulted = true;
        }
        return false;
    }
    w->nx_valid = 1;
    w->unit = sm_unit_of(w->nx.cls);
    s->sched[slot % s->n_sched].view[s->slot_j[slot]].pc = w->nx.pc;
    if (w->nx.func != w->exp_func || w->nx.pc != w->exp_pc) {
        sm_warp_redirect(s, w, now);
        w->exp_func = w->nx.func;
        w->exp_pc = w->nx.pc;
    }
    return true;
}

/* ---- the probe ------------------------------------------------------------------------ */

static sim_cycle sm_unit_free(const sim_cycle *u, unsigned n, sim_cycle now, int *idx)
{
    sim_cycle best = SIM_NEVER;
    for (unsigned i = 0; i < n; i++) {
        if (u[i] <= now) {
            *idx = (int)i;
            return u[i];
        }
        best = sim_min(best, u[i]);
    }
    *idx = -1;
    return best;
}

/* Debug builds: a warp whose check may start at the unit still passes the stages before it. */
static void sm_check_pre_unit(const struct sm_warp *w, sim_cycle now)
{
#ifdef WARPSIM_SLOW_CHECKS
    SIM_ASSERT(!w->at_bar && now >= w->redirect_until && w->ib_count > 0 && w->nx_valid);
    for (unsigned i = 0; i < (unsigned)w->nx.nsrc + w->nx.ndst; i++)
        SIM_ASSERT(w->rel[i < w->nx.nsrc ? w->nx.src[i] : w->nx.dst[i - w->nx.nsrc]] <= now);
#else
    (void)w;
    (void)now;
#endif
}

/* Could warp w issue now?  The first reason it cannot, in Algorithm 2's
   order: Sync, CtrlHazard (the ibuffer is empty because a branch redirected
   it), Fetch (ibuffer otherwise empty), data hazard (reason DATA; chk_seq
   names a missed load for Algorithm 2's DataHazard/DataCacheMiss split),
   then the functional unit (StrlHazard, or MSHR when the LD/ST unit is
   retrying a reservation failure).  Sets w->wake_at / rep_mem. */
static uint8_t sm_check(struct sm *s, struct sm_warp *w, unsigned slot, sim_cycle now)
{
    w->chk_seq = 0;
    w->rep_mem = 0;
    if (w->unit_stage) {
        /* what the stages before the unit check stays true until the warp issues: only its own
           issues hold a barrier, redirect it, take from its ibuffer or reserve its registers (a
           load's completion releases registers that were held, which the check did not pass).
           The warps waiting for a busy LD/ST unit are re-checked each time it changes. */
        sm_fetch_update(w, now);
        sm_check_pre_unit(w, now);
        goto unit;
    }
    if (w->at_bar) {
        w->wake_at = SIM_NEVER;   /* woken by the CTA's barrier and exit instructions */
        return STALL_SYNC;
    }
    if (now < w->redirect_until) {
        w->wake_at = w->redirect_until;
        return STALL_CTRL;
    }
    sm_fetch_update(w, now);
    if (w->ib_count == 0) {
        /* decoding: the instructions arrive at ib_ready_at; otherwise (a fetch not yet started or an
           I-cache miss) the fetch stage wakes the warp when it delivers (sm_fetch_deliver) */
        w->wake_at = w->fetch_state == SMF_DECODE ? w->ib_ready_at : SIM_NEVER;
        return STALL_FETCH;
    }
    if (!w->nx_valid) {
        if (!sm_warp_peek(s, w, slot, now)) {
            w->wake_at = 0;
            w->at_bar = w->pw->status == PTX_WARP_BARRIER;
            return w->at_bar ? STALL_SYNC : STALL_FETCH;
        }
        if (w->ib_count == 0) {   /* the peek redirected the warp */
            w->wake_at = w->redirect_until;
            return STALL_CTRL;
        }
    }
    /* scoreboard: every register read or written must be released (nothing
       to look at once every scheduled write is done) */
    sim_cycle until = 0;
    bool hazard = false;
    unsigned nk = w->pending_loads == 0 && now >= w->busy_until ? 0u : (unsigned)w->nx.nsrc + w->nx.ndst;
    for (unsigned i = 0; i < nk; i++) {
        uint32_t k = i < w->nx.nsrc ? w->nx.src[i] : w->nx.dst[i - w->nx.nsrc];
        if (w->rel[k] > now) {
            hazard = true;
            until = sim_max(until, w->rel[k]);
            uint32_t t = w->tag[k];
            if (t) {
                w->rep_mem = 1;
                if (t & 1)
                    w->chk_seq = t >> 1;
            }
        }
    }
    if (hazard) {
        w->wake_at = until;   /* SIM_NEVER while a load is outstanding: its completion wakes the warp */
        return STALL_DATA;
    }
    w->unit_stage = 1;
unit:;
    int idx;
    sim_cycle fr;
    switch (w->unit) {
    case SMU_SFU:
        fr = sm_unit_free(s->sfu_free, s->n_sfu, now, &idx);
        break;
    case SMU_DP:
        fr = s->n_dp ? sm_unit_free(s->dp_free, s->n_dp, now, &idx) : sm_unit_free(s->sp_free, s->n_sp, now, &idx);
        break;
    case SMU_LDST:
        if (sm_ldst_busy(s, now)) {
            if (!s->ldst.active) {   /* shared-memory passes: a known time */
                w->wake_at = s->ldst_free;
                return STALL_STRUCT;
            }
            /* woken when the unit starts or stops failing, or finishes */
            s->ldst_wait |= 1ull << slot;
            w->wake_at = SIM_NEVER;
            if (s->ldst.failed) {
                w->rep_mem = 1;
                return STALL_MSHR;
            }
            return STALL_STRUCT;
        }
        idx = 0;
        fr = now;
        break;
    default:
        fr = sm_unit_free(s->sp_free, s->n_sp, now, &idx);
        break;
    }
    if (idx < 0) {
        w->wake_at = fr;
        return STALL_STRUCT;
    }
    w->wake_at = 0;
    return STALL_NONE;
}

/* The pre-pass answer: cached while it cannot change. */
static inline uint8_t sm_probe(struct sm *s, struct sm_warp *w, unsigned slot, sim_cycle now)
{
    if (now < w->wake_at)
        return w->rep_reason;
    uint8_t r = sm_check(s, w, slot, now);
    /* what a repeated probe answers (a missed-load dependency turns into
       DataCacheMiss after its first cycle) */
    w->rep_reason = r == STALL_DATA && w->chk_seq && w->chk_seq == w->prev_pending ? STALL_DATA_CACHE_MISS : r;
    /* what the policies see of it (sm_view_probe; the DataCacheMiss turn does not change it) */
    w->rep_view[0] = r == STALL_NONE;
    w->rep_view[1] = w->rep_mem;
    w->rep_view[2] = r == STALL_SYNC;
    w->rep_view[3] = r == STALL_DATA && w->chk_seq != 0;   /* chk_seq names the missed load it waits for */
    return w->rep_reason;
}

/* The first cycle at which the warp's cached answer may change (the next one if it may now). */
static inline sim_cycle sm_answer_until(const struct sm_warp *w, sim_cycle now)
{
    return w->wake_at > now ? w->wake_at : now + 1;
}

/* Algorithm 2: charge one probe of the warp. */
static void sm_attribute(struct sm *s, struct sm_warp *w, uint8_t r, sim_cycle now)
{
    sim_cycle d = now - w->prev_probe;
    w->sched += d;
    s->m.scheduling += d;
    w->prev_probe = now;
    if (r == STALL_DATA && w->chk_seq) {
        /* first cycle of a dependency on a missed load: DataHazard; later ones DataCacheMiss */
        w->prev_pending = w->chk_seq;
        w->rep_reason = STALL_DATA_CACHE_MISS;
    }
    w->stall[r]++;
    s->m.stall[r]++;
}

void sm_catch_up_warps(struct sm *s, sim_cycle gap)
{
    for (unsigned k = 0; k < s->n_sched; k++) {
        const struct sm_sched *sc = &s->sched[k];
        if (sc->frozen)
            continue;   /* its warps are charged when it thaws */
        for (uint64_t m = sc->live; m; m &= m - 1) {
            struct sm_warp *w = &s->warp[__builtin_ctzll(m)];
            /* probed in the last tick, or accounted since (sm_settle, a thaw) */
            if (w->prev_probe >= s->last_cycle && w->prev_probe <= s->acct_cycle) {
                w->stall[w->rep_reason] += gap;
                s->m.stall[w->rep_reason] += gap;
            }
        }
    }
}

/* ---- issue ---------------------------------------------------------------------------- */

sim_cycle sm_wb_slot(struct sm *s, sim_cycle t)
{
    unsigned ports = s->g->wb_ports;
    if (ports == 0)
        return t;   /* unlimited */
    for (;;) {
        unsigned i = (unsigned)(t & (SM_WB_RING - 1));
        if (s->wb_tag[i] != t) {
            s->wb_tag[i] = t;
            s->wb_cnt[i] = 0;
        }
        if (s->wb_cnt[i] < ports) {
            s->wb_cnt[i]++;
            return t;
        }
        t++;
    }
}

/* SP / SFU / DP: occupy a pipeline for its initiation interval (times the
   passes a narrow SIMD needs for 32 lanes) and reserve the destinations until
   the result is written back. */
static void sm_alu_issue(struct sm *s, struct sm_warp *w, const struct ptx_peek *nx, sim_cycle now)
{
    const struct gpu_config *g = s->g;
    unsigned lc = nx->lat_class < OPL_COUNT ? nx->lat_class : 0;
    unsigned lat, ii;
    sim_cycle *units;
    unsigned nu;
    switch (w->unit) {
    case SMU_SFU:
        lat = g->sfu_latency;
        ii = g->sfu_initiation;
        units = s->sfu_free;
        nu = s->n_sfu;
        break;
    case SMU_DP:
        lat = g->lat_dp[lc];
        ii = g->ii_dp[lc];
        units = s->n_dp ? s->dp_free : s->sp_free;
        nu = s->n_dp ? s->n_dp : s->n_sp;
        break;
    default:
        if (nx->cls == WI_FP32) {
            lat = g->lat_fp[lc];
            ii = g->ii_fp[lc];
        } else if (nx->cls == WI_ALU) {
            lat = g->lat_int[lc];
            ii = g->ii_int[lc];
        } else {   /* control, barrier, shfl/vote, nop: a simple integer operation */
            lat = g->lat_int[OPL_ADD];
            ii = g->ii_int[OPL_ADD];
        }
        units = s->sp_free;
        nu = s->n_sp;
        break;
    }
    if (ii == 0)
        ii = 1;
    if (lat == 0)
        lat = 1;
    unsigned passes = s->warp_passes;
    int idx;
    (void)sm_unit_free(units, nu, now, &idx);
    SIM_ASSERT(idx >= 0);
    units[idx] = now + (sim_cycle)ii * passes;
    if (nx->ndst) {
        sim_cycle t = sm_wb_slot(s, now + lat + (sim_cycle)(passes - 1) * ii);
        for (unsigned i = 0; i < nx->ndst; i++) {
            w->rel[nx->dst[i]] = t;
            w->tag[nx->dst[i]] = 0;
        }
        w->busy_until = sim_max(w->busy_until, t);
    }
}

static void sm_issue_warp(struct sm *s, struct sm_sched *sc, unsigned slot, sim_cycle now)
{
    struct sm_warp *w = &s->warp[slot];
    struct warp_inst wi;
    struct ptx_peek nx = w->nx;
    int st = ptx_warp_step(w->pw, &wi);
    if (st == PTX_WARP_FAULT) {
        s->faulted = true;
        return;
    }
    w->ib_count--;
    w->unit_stage = 0;
    sm_fetch_wake(s, slot);
    s->lanes_busy_until = now + s->warp_passes;
    w->insns++;
    s->m.issued_warp_insns++;
    s->m.paused_warp_insns += s->cta[w->cta_slot].paused;
    s->m.issued_thread_insns += sim_popcount32(wi.active_mask);   /* guard true: gpu_sim_insn */
    w->nx_valid = 0;
    w->wake_at = 0;
    w->exp_func = nx.func;
    w->exp_pc = nx.pc + 1;
    if (w->unit == SMU_LDST)
        sm_ldst_issue(s, slot, &wi, &nx, now);
    else
        sm_alu_issue(s, w, &nx, now);
    if (s->ops->on_issue) {
        struct warp_view *v = &sc->view[s->slot_j[slot]];
        v->issued = w->insns;
        s->ops->on_issue(sc->st, v, &wi, now);
    }
    w->at_bar = st == PTX_WARP_BARRIER;
    if (nx.cls == WI_BARRIER || nx.cls == WI_EXIT || nx.cls == WI_RET || st == PTX_WARP_EXITED)
        sm_wake_cta(s, w->cta_slot);
    if (st == PTX_WARP_READY)
        (void)sm_warp_peek(s, w, slot, now);
    else if (st == PTX_WARP_EXITED)
        sm_warp_to_drain(s, w, slot, now);
    /* PTX_WARP_BARRIER: peeked once the barrier releases it */
}

/* policies may leave out warps or repeat one; paused CTAs go last (001 sec. IV), or are left out
   with -warpsim_cta_pause_stops (an ablation: they are neither issued nor charged) */
static int sm_visit_order(struct sm *s, struct sm_sched *sc, int n, int *tmp)
{
    if (!s->any_paused)
        return n;
    int k = 0;
    for (int pass = 0; pass < (s->g->cta_pause_stops ? 1 : 2); pass++)
        for (int i = 0; i < n; i++) {
            int j = sc->order[i];
            if (j >= 0 && (unsigned)j < sc->nslots && sc->view[j].cta_paused == (pass == 1))
                tmp[k++] = j;
        }
    memcpy(sc->order, tmp, sizeof(int) * (size_t)k);
    return k;
}

/* the view fields that come from a probe: those sm_probe made with answer r */
_Static_assert(offsetof(struct warp_view, waiting_mem) == offsetof(struct warp_view, ready) + 1 &&
                   offsetof(struct warp_view, at_barrier) == offsetof(struct warp_view, ready) + 2 &&
                   offsetof(struct warp_view, waiting_miss) == offsetof(struct warp_view, ready) + 3,
               "the probe's view fields are written as one");
static inline void sm_view_probe(struct warp_view *v, const struct sm_warp *w, uint8_t r)
{
#ifdef WARPSIM_SLOW_CHECKS
    SIM_ASSERT(w->rep_view[0] == (r == STALL_NONE) && w->rep_view[1] == w->rep_mem &&
               w->rep_view[2] == (r == STALL_SYNC) &&
               w->rep_view[3] == ((r == STALL_DATA || r == STALL_DATA_CACHE_MISS) && w->chk_seq != 0));
#else
    (void)r;
#endif
    memcpy(&v->ready, w->rep_view, sizeof w->rep_view);
}

/* warp_view.age_rank for policies with needs_rank: older live warps of the
   whole SM that are not at a barrier (barrier waiters hold no place: they
   wait for younger warps of their CTA).  Read at the start of the cycle, so a
   barrier reached or released by an earlier scheduler in this cycle shows
   from the next one. */
static void sm_rank_warps(struct sm *s)
{
    if (s->live != s->age_live || s->next_age != s->age_next) {
        s->n_age = 0;
        for (uint64_t m = s->live; m; m &= m - 1) {   /* insertion by age: at most 64 warps, on launch/exit only */
            uint8_t slot = (uint8_t)__builtin_ctzll(m);
            unsigned j = s->n_age++;
            while (j > 0 && s->warp[s->age_list[j - 1]].age > s->warp[slot].age) {
                s->age_list[j] = s->age_list[j - 1];
                j--;
            }
            s->age_list[j] = slot;
        }
        s->age_live = s->live;
        s->age_next = s->next_age;
    }
    unsigned rank = 0;
    for (unsigned i = 0; i < s->n_age; i++) {
        unsigned slot = s->age_list[i];
        s->sched[slot % s->n_sched].view[s->slot_j[slot]].age_rank = (uint16_t)rank;
        rank += !s->warp[slot].at_bar;
    }
}


/* A live warp's part in the cycle's class (N_act/N_inact/C_idle/C_mem).  "Idle" is a warp with
   no instruction it could issue, s->idle_reasons: at a barrier, and (-warpsim_c_idle_fetch 1, the
   default, as GPGPU-Sim's "no valid instruction") waiting for fetch or a branch's redirect; with 0
   only the barrier, the narrower "idle time" of 001 sec. III-A (an ablation). */
static inline void sm_count(const struct sm *s, struct sm_cycle_count *c, const struct sm_warp *w, uint8_t r)
{
    c->live++;
    c->idle += s->idle_reasons >> r & 1u;
    c->mem += w->rep_mem;
}

/* A warp of a frozen scheduler: charge the cycles after its last charged probe, up to (not
   including) now, with the answer it had. */
static void sm_charge_skipped(struct sm *s, struct sm_warp *w, sim_cycle now)
{
    if (w->prev_probe + 1 >= now)
        return;
    sim_cycle d = now - 1 - w->prev_probe;
    w->stall[w->rep_reason] += d;
    s->m.stall[w->rep_reason] += d;
    w->prev_probe = now - 1;
    w->sched += d;
    s->m.scheduling += d;
}

/* Charge the cycles a frozen scheduler skipped: every warp was probed in
   each of them with the answer it had at its last charged probe (at the
   cycle the scheduler froze, or a later one sm_refreeze charged). */
void sm_thaw(struct sm *s, struct sm_sched *sc, sim_cycle now)
{
    sc->frozen = 0;
    if (now <= sc->frozen_since)
        return;
    for (uint64_t m = sc->live; m; m &= m - 1)
        sm_charge_skipped(s, &s->warp[__builtin_ctzll(m)], now);
}

/* A frozen scheduler reached frozen_until or an event touched one of its warps.  Where the
   policy's order cannot matter (no warp issues, and order() may be skipped: order_pure), only
   the warps whose answer may have changed (wake_at <= now) need a probe: when none of them can
   issue, the cycle is the one a full visit would give (every warp charged one cycle of its
   answer, nothing issued), so they are charged here, the others stay charged by sm_thaw, and
   the scheduler stays frozen.  false when a full cycle is needed: a warp can issue, or a probe
   could have effects beyond its own answer (a warp without a peeked instruction: the peek may
   retire it and release a barrier), or a policy that must see every cycle. */
static bool sm_refreeze(struct sm *s, struct sm_sched *sc, sim_cycle now, struct sm_cycle_count *cnt)
{
    const struct warp_sched_ops *ops = s->ops;
    if (!ops->order_pure || ops->needs_ready || s->any_paused)
        return false;
    uint64_t due = 0;
    sim_cycle mw = SIM_NEVER;   /* the warps not due keep their answers until their wake_at (> now) */
    for (uint64_t m = sc->live; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        const struct sm_warp *w = &s->warp[slot];
        if (w->wake_at <= now) {
            if (!w->nx_valid && !w->at_bar)
                return false;
            due |= 1ull << slot;
        } else {
            mw = sim_min(mw, w->wake_at);
        }
    }
    /* what the probes change, restored when a full cycle has to run: a warp the full cycle does
       not visit must keep the answer of its last probe (a cached answer is exact only until an
       event the SM does not wake it for, such as the L1D reporting its load's miss) */
    struct { sim_cycle wake_at; uint32_t chk_seq; uint8_t rep_reason, rep_mem, rep_view[4]; } saved[SM_MAX_WARPS];
    uint64_t ldst_wait = s->ldst_wait;
    /* the frozen cycle's counts are every live warp's sm_count with its answer (no answer changes
       while frozen but by these probes): only the due warps' parts change */
    struct sm_cycle_count old = {0, 0, 0, 0}, c = {0, 0, 0, 0};
    for (uint64_t m = due; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        struct sm_warp *w = &s->warp[slot];
        sm_charge_skipped(s, w, now);   /* before the probe replaces the answer they had */
        saved[slot].wake_at = w->wake_at;
        saved[slot].chk_seq = w->chk_seq;
        saved[slot].rep_reason = w->rep_reason;
        saved[slot].rep_mem = w->rep_mem;
        memcpy(saved[slot].rep_view, w->rep_view, sizeof w->rep_view);
        sm_count(s, &old, w, w->rep_reason);
        if (sm_probe(s, w, slot, now) == STALL_NONE) {
            for (uint64_t b = due & ((2ull << slot) - 1); b; b &= b - 1) {
                unsigned k = (unsigned)__builtin_ctzll(b);
                struct sm_warp *o = &s->warp[k];
                o->wake_at = saved[k].wake_at;
                o->chk_seq = saved[k].chk_seq;
                o->rep_reason = saved[k].rep_reason;
                o->rep_mem = saved[k].rep_mem;
                memcpy(o->rep_view, saved[k].rep_view, sizeof o->rep_view);
            }
            s->ldst_wait = ldst_wait;
            return false;
        }
    }
    sc->dirty = 0;
    for (uint64_t m = due; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        struct sm_warp *w = &s->warp[slot];
        uint8_t r = w->rep_reason;
        sm_view_probe(&sc->view[s->slot_j[slot]], w, r);
        sm_attribute(s, w, r, now);
        sm_count(s, &c, w, r);
        mw = sim_min(mw, sm_answer_until(w, now));
    }
    sc->cnt_idle = sc->cnt_idle - old.idle + c.idle;
    sc->cnt_mem = sc->cnt_mem - old.mem + c.mem;
#ifdef WARPSIM_SLOW_CHECKS
    {   /* the counts kept are the ones a full count gives */
        struct sm_cycle_count f = {0, 0, 0, 0};
        for (uint64_t m = sc->live; m; m &= m - 1) {
            const struct sm_warp *w = &s->warp[__builtin_ctzll(m)];
            sm_count(s, &f, w, w->rep_reason);
        }
        SIM_ASSERT(f.live == sc->cnt_live && f.idle == sc->cnt_idle && f.mem == sc->cnt_mem);
    }
#endif
    cnt->live += sc->cnt_live;
    cnt->idle += sc->cnt_idle;
    cnt->mem += sc->cnt_mem;
    sc->frozen_until = mw;
    sc->min_wake = mw;
    return true;
}

/* Does the instruction read or write state that other SMs share (global memory through a load,
   store, atomic, texture fetch; a call, which may print)?  A parallel round stops before it. */
static bool sm_insn_shared(const struct ptx_peek *nx)
{
    switch (nx->cls) {
    case WI_LD: case WI_ST: case WI_ATOM:
        return nx->space != WS_SPACE_SHARED && nx->space != WS_SPACE_LOCAL && nx->space != WS_SPACE_PARAM &&
               nx->space != WS_SPACE_CONST;
    case WI_TEX: case WI_CALL:
        return true;
    default:
        return false;
    }
}

/* Issue warp `slot`, whose instruction number x of this cycle passed its probe, and more from it
   (dual issue), each to another kind of unit.  SM_ISSUED, or SM_YIELDED in a parallel round before
   an instruction that touches shared state (sm_issue_cycle resumes here with x). */
static int sm_sched_issue(struct sm *s, struct sm_sched *sc, unsigned slot, unsigned x, sim_cycle now)
{
    struct sm_warp *w = &s->warp[slot];
    for (;;) {
        if (s->par && sm_insn_shared(&w->nx)) {
            s->iss_slot = slot;
            s->iss_x = x;
            s->iss_pending = true;
            return SM_YIELDED;
        }
        uint8_t unit = w->unit;
        sm_issue_warp(s, sc, slot, now);
        if (++x >= s->g->max_insn_issue_per_warp || s->faulted)
            break;
        if (w->state != SMW_ACTIVE || sm_check(s, w, slot, now) != STALL_NONE || w->unit == unit)
            break;
    }
    if (w->state == SMW_ACTIVE) {   /* probed afresh next cycle */
        w->rep_reason = STALL_NONE;
        w->wake_at = 0;
    }
    return SM_ISSUED;
}

/* Visit warp `slot` (index j of scheduler sc): probe and charge it; true when it can issue. */
static inline bool sm_visit(struct sm *s, struct sm_sched *sc, unsigned j, unsigned slot, sim_cycle now,
                            struct sm_cycle_count *cnt)
{
    const struct warp_sched_ops *ops = s->ops;
    struct sm_warp *w = &s->warp[slot];
    uint8_t r = ops->needs_ready ? sc->reason[j] : sm_probe(s, w, slot, now);
    if (w->state != SMW_ACTIVE)
        return false;   /* the probe found it exited */
    sm_view_probe(&sc->view[j], w, r);
    sm_attribute(s, w, r, now);
    if (r == STALL_NONE)
        return true;
    sm_count(s, cnt, w, r);
    if (ops->on_stall)
        ops->on_stall(sc->st, &sc->view[j], (enum stall_reason)r, now);
    return false;
}

/* One scheduler's cycle: order, visit, probe and charge each visited warp,
   issue the first ready one.  Returns SM_ISSUED, SM_YIELDED (sm_sched_issue) or 0. */
static int sm_sched_cycle(struct sm *s, struct sm_sched *sc, sim_cycle now, struct sm_cycle_count *cnt, int *tmp)
{
    const struct warp_sched_ops *ops = s->ops;
    if (sc->frozen) {
        if (!sc->dirty && now < sc->frozen_until) {
            cnt->live += sc->cnt_live;
            cnt->idle += sc->cnt_idle;
            cnt->mem += sc->cnt_mem;
            return false;
        }
        if (sm_refreeze(s, sc, now, cnt))
            return false;
        sm_thaw(s, sc, now);
    }
    sc->dirty = 0;
    unsigned live0 = cnt->live, idle0 = cnt->idle, mem0 = cnt->mem;
    if (ops->needs_ready) {
        for (uint64_t m = sc->live; m; m &= m - 1) {
            unsigned slot = (unsigned)__builtin_ctzll(m);
            struct sm_warp *w = &s->warp[slot];
            uint8_t r = sm_probe(s, w, slot, now);
            sc->reason[s->slot_j[slot]] = r;
            if (w->state == SMW_ACTIVE)
                sm_view_probe(&sc->view[s->slot_j[slot]], w, r);
        }
        if (!sc->live)
            return false;
    }
    int n, rot = -1;
    if (ops->rotation && !s->any_paused) {
        n = (int)sc->nslots;
        rot = ops->rotation(sc->st, sc->view, n, now);
        if (rot < 0 || rot >= n)
            rot = 0;
    } else {
        n = ops->order(sc->st, sc->view, (int)sc->nslots, sc->order, now);
        n = sm_visit_order(s, sc, n, tmp);
    }
    uint64_t visited = 0;
    if (rot >= 0) {
        /* a rotation: the live warps from j = rot up, then those below rot (only a warp's own
           probe can take it out of the live mask, and none joins during the cycle, so both ranges
           can be taken first) */
        const uint64_t range[2] = {sc->live_j & (~0ull << rot), sc->live_j & ~(~0ull << rot)};
        for (int pass = 0; pass < 2 && !s->faulted; pass++) {
            for (uint64_t m = range[pass]; m && !s->faulted; m &= m - 1) {
                unsigned j = (unsigned)__builtin_ctzll(m);
                unsigned slot = sc->id + j * s->n_sched;
                visited |= 1ull << slot;
                if (sm_visit(s, sc, j, slot, now, cnt))
                    return sm_sched_issue(s, sc, slot, 0, now);
            }
        }
    } else {
        for (int i = 0; i < n && !s->faulted; i++) {
            int j = sc->order[i];
            if (j < 0 || (unsigned)j >= sc->nslots)
                continue;
            /* the live mask, not view[j].valid: the view's cache line is not needed for a warp left out */
            unsigned slot = sc->id + (unsigned)j * s->n_sched;
            uint64_t bit = 1ull << slot;
            if (!(sc->live & bit) || (visited & bit))
                continue;
            visited |= bit;
            if (sm_visit(s, sc, (unsigned)j, slot, now, cnt))
                return sm_sched_issue(s, sc, slot, 0, now);
        }
    }
    /* nothing issued: the warps the policy left out still count for the cycle's metrics, except
       those of CTAs that -warpsim_cta_pause_stops has stopped (as if not resident: a ready one would
       otherwise keep the cycle from counting as C_mem) */
    for (uint64_t m = sc->live & ~visited; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        struct sm_warp *w = &s->warp[slot];
        if (s->g->cta_pause_stops && s->cta[w->cta_slot].paused)
            continue;
        uint8_t r = sm_probe(s, w, slot, now);
        if (w->state == SMW_ACTIVE)
            sm_count(s, cnt, w, r);
    }
    sim_cycle mw = SIM_NEVER;
    for (uint64_t m = sc->live; m; m &= m - 1) {
        const struct sm_warp *w = &s->warp[__builtin_ctzll(m)];
        mw = sim_min(mw, sm_answer_until(w, now));
    }
    sc->min_wake = mw;
    /* freeze when the next cycle would repeat this one: every warp visited and
       charged, none can change its answer before min_wake (per-probe hooks
       need real probes) */
    if (sc->live && (sc->live & ~visited) == 0 && !sc->dirty && mw > now + 1 && !ops->on_stall && !s->no_freeze) {
        sc->frozen = 1;
        sc->frozen_since = now + 1;
        sc->frozen_until = mw;
        sc->cnt_live = cnt->live - live0;
        sc->cnt_idle = cnt->idle - idle0;
        sc->cnt_mem = cnt->mem - mem0;
    }
    return false;
}

/* CPL prediction accuracy (000 sec. 4.3.3): every SM_CPL_SAMPLE_PERIOD core cycles (at the first
   ticked cycle after, when idle stretches are skipped) ask the scheduler whether each live warp is
   critical ("slow"); sm_warp_free_slot keeps the samples of each CTA's slowest warp. */
#define SM_CPL_SAMPLE_PERIOD 128
static void sm_cpl_sample(struct sm *s, sim_cycle now)
{
    s->cpl_next_sample = now + SM_CPL_SAMPLE_PERIOD;
    for (uint64_t m = s->live; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        const struct sm_sched *sc = &s->sched[slot % s->n_sched];
        struct sm_warp *w = &s->warp[slot];
        w->cpl_samples++;
        w->cpl_slow += sc->st && s->ops->is_critical(sc->st, slot) ? 1u : 0u;
    }
}

void sm_issue_begin(struct sm *s, sim_cycle now)
{
    if (s->ops->is_critical && s->live && now >= s->cpl_next_sample)
        sm_cpl_sample(s, now);
    s->iss_cnt = (struct sm_cycle_count){0, 0, 0, 0};
    s->woken = false;
    s->iss_issued = false;
    s->iss_k = 0;
    s->iss_pending = false;
    if (s->live && s->ops->needs_rank)
        sm_rank_warps(s);
}

int sm_issue_cycle(struct sm *s, sim_cycle now)
{
    struct sm_cycle_count cnt = s->iss_cnt;
    bool issued = s->iss_issued;
    int tmp[SM_MAX_WARPS];
    unsigned k = s->iss_k;
    if (s->iss_pending) {   /* resumed after a parallel round stopped before this issue */
        s->iss_pending = false;
        (void)sm_sched_issue(s, &s->sched[k], s->iss_slot, s->iss_x, now);
        issued = true;
        k++;
    }
    for (; k < s->n_sched && !s->faulted; k++) {
        struct sm_sched *sc = &s->sched[k];
        if (!sc->live)   /* an idle scheduler costs nothing */
            continue;
        int r = sm_sched_cycle(s, sc, now, &cnt, tmp);
        if (r == SM_YIELDED) {
            s->iss_k = k;
            s->iss_cnt = cnt;
            s->iss_issued = issued;
            return SM_YIELDED;
        }
        issued |= r == SM_ISSUED;
        cnt.stalled += r != SM_ISSUED;
    }
    /* metrics of the cycle.  With a SIMT width below 32 an issued warp streams through the lanes
       for warp_passes cycles ("every 4 cycles, a ready warp is fed into these lanes", 001 sec. II):
       the pipeline is busy, not stalled, in those cycles, so they are active ones (N_act) */
    struct sm_metrics *m = &s->m;
    bool streaming = !issued && cnt.live > 0 && now < s->lanes_busy_until;
    if (issued || streaming)
        s->last_class = SMC_ACT;
    else if (cnt.live == 0)   /* warps that exited and wait for their last writes are still resident */
        s->last_class = s->drain ? SMC_INACT_OTHER : SMC_NOWARPS;
    else if (cnt.idle == cnt.live)
        s->last_class = SMC_INACT_IDLE;
    else if (cnt.mem == cnt.live)
        s->last_class = SMC_INACT_MEM;
    else
        s->last_class = SMC_INACT_OTHER;
    if (s->last_class != SMC_NOWARPS)
        m->util_cycles++;
    s->last_stalled = (uint8_t)cnt.stalled;
    m->stall_gpu += cnt.stalled;
    switch (s->last_class) {
    case SMC_NOWARPS: m->c_idle++; break;
    case SMC_ACT: m->n_act++; break;
    case SMC_INACT_IDLE: m->n_inact++; m->c_idle++; break;
    case SMC_INACT_MEM: m->n_inact++; m->c_mem++; break;
    default: m->n_inact++; break;
    }
    s->last_issued = issued;
    /* when can a probe answer change? */
    if (issued) {
        s->issue_next = now + 1;
        return SM_QUIET;
    }
    sim_cycle t = streaming ? s->lanes_busy_until : SIM_NEVER;   /* skipped cycles are charged last_class */
    for (unsigned j = 0; j < s->n_sched; j++) {
        const struct sm_sched *sc = &s->sched[j];
        if (sc->live)
            t = sim_min(t, sc->dirty ? now + 1 : sc->frozen ? sc->frozen_until : sc->min_wake);
    }
    s->issue_next = t;
    return SM_QUIET;
}
