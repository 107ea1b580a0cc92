/*
 * gpu_run.c - running one kernel on the assembled GPU: the clock engine,
 * CTA dispatch through the CTA scheduling policy, the interconnect glue,
 * idle skipping, the watchdog and the end-of-kernel checks.
 *
 * Time: every domain d has a period per[d] (ps); its edge k is at k * per[d].
 * The engine takes the earliest pending edge T and ticks every domain with an
 * edge at T in reverse pipeline order: DRAM, L2, interconnect, SMs.  Other
 * domains see the core cycle floor(T / per[core]) (the core cycle in progress
 * at T), so timestamps in core cycles stay consistent across domains.
 *
 * Interconnect edge (one packet per port per cycle; the protocol of
 * docs/timing.md "Interconnect"):
 *   1. icnt_cycle of both crossbars
 *   2. reply crossbar outputs -> SMs (sm_can_take_reply), lat_rt measured here
 *   3. request crossbar outputs -> sub-partitions (!partition_full)
 *   4. sub-partition replies -> reply crossbar (icnt_can_push)
 *   5. SM requests -> request crossbar (icnt_can_push)
 * Packet sizes: an 8-byte header plus the data carried (write and atomic
 * requests carry their data, read and atomic replies the line or sector).
 *
 * Core edge: CTA dispatch (the policy picks SMs, and with pick_cta which
 * waiting CTA each gets, in any order; at most one CTA per SM per
 * cycle, or the policy's max_per_cycle), then sm_cycle of every SM, then the
 * CTA policy's periodic update of the per-SM CTA limits when due and their
 * enforcement (pausing / resuming CTAs), then occupancy and time-series
 * accounting, fault / completion / watchdog checks.
 *
 * Idle skipping: after the edges at T, if no SM can issue and no CTA can be
 * dispatched, the next time anything can happen is the minimum of the
 * components' next events converted to ps (and of the watchdog deadline);
 * every domain jumps to its first edge at or after it.
 */
#include "gpu_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/host_clock.h"
#include "core/workers.h"

#define PKT_HEADER_BYTES 8u
/* fewer due SMs than this in a cycle are ticked on the calling thread: a round costs more */
#define GPU_PAR_MIN_SMS 2u
/* parallel rounds are judged in windows of this many; when more than one in 16 of a window made
   the main thread give its core away while it waited, the SMs are ticked on the main thread for
   the next GPU_PAR_BACKOFF core cycles */
#define GPU_PAR_WINDOW 1024u
#define GPU_PAR_BACKOFF 65536u


static inline uint32_t req_bytes(const struct mem_req *r)
{
    return PKT_HEADER_BYTES + (r->type == MRT_READ ? 0u : r->size);
}
static inline uint32_t reply_bytes(const struct mem_req *r)
{
    return PKT_HEADER_BYTES + (r->type == MRT_WRITE ? 0u : r->size);
}
static inline sim_ps edge_time(const struct gpu *g, int d)
{
#ifdef WARPSIM_SLOW_CHECKS
    SIM_ASSERT(g->edge[d] == (d == GD_CPU && !g->cpu_active ? SIM_NEVER : g->cyc[d] * g->per[d]));
#endif
    return g->edge[d];
}

/* Domain d ticked its edge cyc[d]: the next one. */
static inline void clock_step(struct gpu *g, int d)
{
    g->last_tick[d] = g->cyc[d]++;
    gpu_set_edge(g, d);
}

unsigned gpu_kernel_count(const struct gpu *g) { return g->nkernels; }
const struct gpu_kernel_result *gpu_kernel_get(const struct gpu *g, unsigned i)
{
    return i < g->nkernels ? &g->kernels[i].res : NULL;
}

/* ---- CTA bookkeeping ------------------------------------------------------------ */

static void cta_event(struct gpu *g, enum gpu_cta_event ev, unsigned sm, uint64_t cta, unsigned v, sim_cycle now)
{
    if (g->cta_event)
        g->cta_event(g->cta_event_user, ev, sm, cta, v, now);
}

void gpu_set_cta_event_hook(struct gpu *g, gpu_cta_event_fn fn, void *user)
{
    g->cta_event = fn;
    g->cta_event_user = user;
}

static void track_dispatch(struct gpu *g, unsigned sm, uint64_t cta)
{
    for (unsigned k = 0; k < g->cta_track_per_sm; k++) {
        unsigned i = sm * g->cta_track_per_sm + k;
        if (g->cta_track[i].cta == UINT64_MAX) {
            g->cta_track[i].cta = cta;
            g->cta_track[i].warps_done = 0;
            g->cta_track[i].seq = g->cta_seq++;
            g->cta_track[i].slot = sm_cta_slot(g->sm[sm], cta);
            g->cta_track[i].paused = 0;
            g->cta_sm[sm].running++;
            g->cta_enforce_due = true;
            return;
        }
    }
    /* cannot happen: an SM holds at most max_cta_per_core CTAs and twice as many are tracked */
    SIM_ASSERT(0);
}

/* SM i's resident warps x cycles, charged up to (not including) core cycle `upto`: its count is
   constant between the dispatches and warp exits that call this before changing it, and the
   cycle of a change is charged with the count after it (as account_cycles charges a ticked cycle). */
static inline void res_flush(struct gpu *g, unsigned i, sim_cycle upto)
{
    if (upto > g->res_since[i]) {
        g->ctr_res_warp_cycles_sm[i] += (uint64_t)g->active_warps[i] * (upto - g->res_since[i]);
        g->res_since[i] = upto;
    }
}

static void res_flush_all(struct gpu *g, sim_cycle upto)
{
    for (unsigned i = 0; i < g->n_sms; i++)
        res_flush(g, i, upto);
}

/* Warp-done hook of every SM: the per-warp file, and the CTA policy's
   on_cta_done when the last warp of a CTA finishes. */
void gpu_warp_done(void *user, const struct warp_record *r)
{
    struct gpu *g = user;
    if (g->warps) {
        if (!g->warps_header_done) {
            fputs("kernel_id,kernel,sm,cta,warp,start,end,cycles,insns,scheduling", g->warps);
            for (int s = 0; s < STALL_COUNT; s++)
                fprintf(g->warps, ",%s", stall_reason_name((enum stall_reason)s));
            fputc('\n', g->warps);
            g->warps_header_done = 1;
        }
        const char *kn = g->nkernels ? g->kernels[g->nkernels - 1].res.name : "";
        fprintf(g->warps, "%u,%s,%u,%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
                r->kernel_id, kn, r->sm, r->cta_linear, r->warp_in_cta, (uint64_t)r->start, (uint64_t)r->end,
                (uint64_t)(r->end - r->start), r->insns, r->scheduling);
        for (int s = 0; s < STALL_COUNT; s++)
            fprintf(g->warps, ",%" PRIu64, r->stall[s]);
        fputc('\n', g->warps);
    }
    if (r->sm >= g->n_sms)
        return;
    if (g->active_warps[r->sm]) {
        res_flush(g, r->sm, g->clock_now);
        g->active_warps[r->sm]--;
        g->active_warps_total--;
    }
    for (unsigned k = 0; k < g->cta_track_per_sm; k++) {
        unsigned i = r->sm * g->cta_track_per_sm + k;
        if (g->cta_track[i].cta != r->cta_linear)
            continue;
        if (++g->cta_track[i].warps_done >= g->cur_cta_warps) {
            struct gpu_cta_sm *c = &g->cta_sm[r->sm];
            if (g->cta_track[i].paused)
                c->paused--;
            else
                c->running--;
            g->cta_enforce_due = true;
            g->cta_blocked = false;   /* the CTA's slot frees once this, its last warp, has left */
            g->cta_track[i].cta = UINT64_MAX;
            cta_event(g, GPU_CTA_DONE, r->sm, r->cta_linear, c->running, g->clock_now);
            if (g->cta_ops->on_cta_done)
                g->cta_ops->on_cta_done(g->cta_state, r->sm, r->cta_linear, r->end);
        }
        return;
    }
    g->cta_blocked = false;   /* an untracked CTA: its slot may free too */
}

/* ---- CTA limits (001 sec. IV; docs/policies.md) --------------------------------------
 * Per SM the GPU keeps n (limit), its CTAs in flight split into running and
 * paused, and each CTA's dispatch order.  The CTA policy sets n through its
 * update hook; the GPU enforces it after the SMs' cycle: while CTAs are paused
 * and fewer than n run, the least recently assigned paused CTA resumes (the
 * seed's "most recently paused": paused CTAs are always the most recently
 * assigned ones, so the two are the same CTA); while more than n run, the most
 * recently assigned running CTA is paused.  A new CTA is dispatched only to an
 * SM without paused CTAs whose running CTAs are below n. */

static inline unsigned cta_max_per_cycle(const struct gpu *g)
{
    return g->cta_ops->max_per_cycle ? g->cta_ops->max_per_cycle : 1u;
}

/* CTAs SM i may still receive now under resources and limit (the per-cycle rule aside). */
static unsigned cta_room(const struct gpu *g, unsigned i)
{
    const struct gpu_cta_sm *c = &g->cta_sm[i];
    if (c->paused || !sm_can_take_cta(g->sm[i]))
        return 0;
    unsigned fit = sm_max_ctas(g->sm[i]), res = sm_resident_ctas(g->sm[i]);
    unsigned r = fit > res ? fit - res : 0;
    unsigned l = c->limit > c->running ? c->limit - c->running : 0;
    return r < l ? r : l;
}

/* SMs that were not due in some cycles (tick_core) account those cycles before their
   counters are read: through cycle `upto` */
static void settle_sms(struct gpu *g, sim_cycle upto)
{
    for (unsigned i = 0; i < g->n_sms; i++)
        sm_settle(g->sm[i], upto);
}

/* memory requests allocated and retired so far, over every pool (the partitions' and each SM's) */
static void reqs_totals(const struct gpu *g, uint64_t *allocated, uint64_t *retired)
{
    uint64_t a = g->pool.allocated, r = g->pool.retired;
    for (unsigned i = 0; i < g->n_sms; i++) {
        a += g->sm_pool[i].allocated;
        r += g->sm_pool[i].retired;
    }
    *allocated = a;
    *retired = r;
}

static uint64_t reqs_in_flight(const struct gpu *g)
{
    uint64_t a, r;
    reqs_totals(g, &a, &r);
    return a - r;
}

/* requests of the SMs not yet answered (a kernel on a chip with CPU cores ends when these are; the
   memory system may still hold the CPUs' traffic and write-backs) */
static uint64_t sm_reqs_in_flight(const struct gpu *g)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < g->n_sms; i++)
        n += mem_req_in_flight(&g->sm_pool[i]);
    return n;
}

static void fill_views(struct gpu *g)
{
    unsigned mpc = cta_max_per_cycle(g);
    for (unsigned i = 0; i < g->n_sms; i++) {
        struct sm_cta_view *v = &g->views[i];
        const struct sm_metrics *m = sm_get_metrics(g->sm[i]);
        v->resident = sm_resident_ctas(g->sm[i]);
        v->max_fit = sm_max_ctas(g->sm[i]);
        v->room = cta_room(g, i);
        v->can_take = v->room && g->cta_sm[i].got < mpc ? 1u : 0u;
        v->limit = g->cta_sm[i].limit;
        v->paused = g->cta_sm[i].paused;
        v->c_idle = m->c_idle;
        v->c_mem = m->c_mem;
        v->n_act = m->n_act;
        v->n_inact = m->n_inact;
    }
}

/* The tracked CTA of SM i in the given pause state with the largest
   (newest) or smallest dispatch order; -1 when none. */
static int cta_find(const struct gpu *g, unsigned i, uint8_t paused, bool newest)
{
    int best = -1;
    for (unsigned k = 0; k < g->cta_track_per_sm; k++) {
        unsigned e = i * g->cta_track_per_sm + k;
        if (g->cta_track[e].cta == UINT64_MAX || g->cta_track[e].paused != paused)
            continue;
        if (best < 0 || (newest ? g->cta_track[e].seq > g->cta_track[(unsigned)best].seq
                                : g->cta_track[e].seq < g->cta_track[(unsigned)best].seq))
            best = (int)e;
    }
    return best;
}

static void cta_set_paused(struct gpu *g, unsigned i, unsigned e, bool paused, sim_cycle now)
{
    struct gpu_cta_sm *c = &g->cta_sm[i];
    SIM_ASSERT(g->cta_track[e].slot >= 0);
    sm_set_cta_paused(g->sm[i], (unsigned)g->cta_track[e].slot, paused);
    g->cta_track[e].paused = paused ? 1 : 0;
    g->cta_blocked = false;
    if (paused) {
        c->paused++;
        c->running--;
    } else {
        c->paused--;
        c->running++;
    }
    cta_event(g, paused ? GPU_CTA_PAUSE : GPU_CTA_UNPAUSE, i, g->cta_track[e].cta, c->running, now);
}

/* Bring SM i's running CTAs to its limit (see above). */
static void cta_enforce(struct gpu *g, unsigned i, sim_cycle now)
{
    struct gpu_cta_sm *c = &g->cta_sm[i];
    while (c->paused && c->running < c->limit) {
        int e = cta_find(g, i, 1, false);
        SIM_ASSERT(e >= 0);
        cta_set_paused(g, i, (unsigned)e, false, now);
    }
    while (c->running > c->limit) {
        int e = cta_find(g, i, 0, true);
        SIM_ASSERT(e >= 0);
        cta_set_paused(g, i, (unsigned)e, true, now);
    }
}

/* Kernel start: every SM unlimited (n = N) and empty. */
static int cta_begin(struct gpu *g)
{
    if (!g->cta_sm) {
        g->cta_sm = arena_alloc(g->arena, sizeof *g->cta_sm * g->n_sms);
        g->cta_limit_buf = arena_alloc(g->arena, sizeof(unsigned) * g->n_sms);
        if (!g->cta_sm || !g->cta_limit_buf)
            return -1;
    }
    for (unsigned i = 0; i < g->n_sms; i++) {
        unsigned fit = sm_max_ctas(g->sm[i]);
        g->cta_sm[i] = (struct gpu_cta_sm){fit ? fit : 1, 0, 0, 0};
    }
    g->cta_enforce_due = true;
    g->cta_next_update = SIM_NEVER;
    return 0;
}

/* The policy's update hook: at kernel start (first) or at the end of cycle `now`. */
static void cta_update(struct gpu *g, sim_cycle now, bool first)
{
    fill_views(g);
    struct gpu_view v = {g->n_sms, g->views, g->next_cta, g->n_ctas, g->kernel_id, g->cta_dispatched, g->loc};
    for (unsigned i = 0; i < g->n_sms; i++)
        g->cta_limit_buf[i] = g->cta_sm[i].limit;
    sim_cycle p = g->cta_ops->update ? g->cta_ops->update(g->cta_state, &v, g->cta_limit_buf, now) : 0;
    for (unsigned i = 0; i < g->n_sms; i++) {
        unsigned fit = g->views[i].max_fit ? g->views[i].max_fit : 1;
        unsigned l = g->cta_limit_buf[i];
        l = l < 1 ? 1 : l > fit ? fit : l;
        if (first || l != g->cta_sm[i].limit) {
            g->cta_sm[i].limit = l;
            g->cta_enforce_due = true;
            g->cta_blocked = false;
            cta_event(g, GPU_CTA_LIMIT, i, UINT64_MAX, l, now);
        }
    }
    /* at kernel start `now` has not run yet: p cycles later is the end of now + p - 1 */
    if (!p)
        g->cta_next_update = SIM_NEVER;
    else if (p >= SIM_NEVER - now)
        g->cta_next_update = SIM_NEVER - 1;
    else
        g->cta_next_update = first ? now + p - 1 : now + p;
}

/* ---- the run's limits (-gpgpu_max_cycle, -gpgpu_max_insn, -gpgpu_max_cta) -------------------
 * As GPGPU-Sim's: counted over all launches of the run.  A limit reached stops the launch under
 * way (statistics up to that point, the kernel marked "stopped at limit") and the machine; the
 * message starts with GPU_SIM_LIMIT_TAG.  -gpgpu_max_cta stops dispatching once that many CTAs
 * were dispatched in the run, and stops the run when they have finished (whole CTAs counted). */

/* CTAs of the launches before the one under way (every earlier launch ran all of its CTAs). */
static uint64_t ctas_before(const struct gpu *g)
{
    uint64_t n = 0;
    for (unsigned i = 0; i + 1 < g->nkernels; i++)
        n += g->kernels[i].n_ctas;
    return n;
}

/* How many more CTAs may be dispatched now (UINT64_MAX: no limit). */
static uint64_t cta_budget(const struct gpu *g)
{
    if (!g->cfg.max_ctas)
        return UINT64_MAX;
    uint64_t used = g->ctas_before_launch + g->ctas_issued;   /* this launch's: finished plus resident */
    return g->cfg.max_ctas > used ? g->cfg.max_ctas - used : 0;
}

/* Hand out CTAs for this core cycle.  Returns true if any was dispatched. */
static bool dispatch(struct gpu *g, sim_cycle now)
{
    if (now > 0)
        settle_sms(g, now - 1);
    fill_views(g);
    struct gpu_view v = {g->n_sms, g->views, g->next_cta, g->n_ctas, g->kernel_id, g->cta_dispatched, g->loc};
    const unsigned mpc = cta_max_per_cycle(g);
    bool any = false;
    uint64_t budget = cta_budget(g);   /* -gpgpu_max_cta */
    while (g->next_cta < g->n_ctas && budget) {
        v.next_cta = g->next_cta;
        int s = g->cta_ops->pick_sm(g->cta_state, &v, now);
        /* a policy naming a full SM (or one that got its per-cycle maximum) ends the round */
        if (s < 0 || (unsigned)s >= g->n_sms || !g->views[s].can_take)
            break;
        /* which CTA: the next in linear order, or the policy's pick (locality-aware dispatch) */
        uint64_t cta = g->next_cta;
        if (g->cta_ops->pick_cta && g->cta_dispatched) {
            int64_t c = g->cta_ops->pick_cta(g->cta_state, &v, (unsigned)s, now);
            if (c < 0 || (uint64_t)c >= g->n_ctas || g->cta_dispatched[c])
                break;
            cta = (uint64_t)c;
        }
        sm_launch_cta(g->sm[s], cta, now);
        g->ctas_issued++;
        res_flush(g, (unsigned)s, now);
        g->active_warps[s] += g->cur_cta_warps;
        g->active_warps_total += g->cur_cta_warps;
        track_dispatch(g, (unsigned)s, cta);
        cta_event(g, GPU_CTA_DISPATCH, (unsigned)s, cta, g->cta_sm[s].running, now);
        if (g->cta_ops->on_dispatch)
            g->cta_ops->on_dispatch(g->cta_state, (unsigned)s, cta, now);
        if (g->cta_dispatched) {
            g->cta_dispatched[cta] = 1;
            while (g->next_cta < g->n_ctas && g->cta_dispatched[g->next_cta])
                g->next_cta++;
        } else {
            g->next_cta++;
        }
        struct sm_cta_view *sv = &g->views[s];
        sv->resident++;
        sv->room--;
        g->cta_sm[s].got++;
        sv->can_take = sv->room && g->cta_sm[s].got < mpc ? 1u : 0u;   /* one CTA per SM per cycle by default */
        any = true;
        if (budget != UINT64_MAX)
            budget--;
    }
    bool room = false;
    for (unsigned i = 0; i < g->n_sms; i++) {
        g->cta_sm[i].got = 0;
        room |= cta_room(g, i) > 0;
    }
    /* no SM has room: until that changes a round would dispatch nothing (the policies' pick_sm
       keeps no state from a round that dispatches nothing) and need not run */
    g->cta_blocked = !room;
    return any;
}

/* ---- domain ticks ------------------------------------------------------------------ */

/* Debug builds (WARPSIM_SLOW_CHECKS): what the partitions published is what their queues hold. */
static void check_part_busy(const struct gpu *g)
{
#ifdef WARPSIM_SLOW_CHECKS
    for (unsigned p = 0; p < g->n_parts; p++)
        partition_check_busy(g->part[p]);
#else
    (void)g;
#endif
}

/* Does any partition publish `flag`?  (Eight at a time.) */
static bool part_busy_any(const struct gpu *g, unsigned flag)
{
    uint64_t m = 0x0101010101010101ull * flag;
    for (unsigned i = 0; i < g->n_parts; i += 8) {
        uint64_t w;
        memcpy(&w, g->part_busy + i, sizeof w);
        if (w & m)
            return true;
    }
    return false;
}

/* A channel, and a sub-partition's DRAM and L2 sides, are ticked only when the partitions publish
   work for them (PART_BUSY_*); an idle channel keeps only its cycle count. */
static void tick_dram(struct gpu *g, sim_cycle c)
{
    check_part_busy(g);
    if (!part_busy_any(g, PART_BUSY_DRAM)) {
        dram_cycle_idle(g->dram, g->n_chan, c);
        return;
    }
    unsigned nsub = g->n_parts / g->n_chan;
    for (unsigned ch = 0; ch < g->n_chan; ch++) {
        unsigned busy = 0;
        for (unsigned k = 0; k < nsub; k++)
            busy |= g->part_busy[ch * nsub + k];
        if (busy & PART_BUSY_DRAM)
            dram_cycle(g->dram[ch], c);
        else
            dram_cycle_idle(&g->dram[ch], 1, c);
    }
    for (unsigned p = 0; p < g->n_parts; p++)
        if (g->part_busy[p] & PART_BUSY_DRAM)
            partition_cycle_dram(g->part[p], c);
}

static void tick_l2(struct gpu *g, sim_cycle c)
{
    check_part_busy(g);
    if (!part_busy_any(g, PART_BUSY_L2))
        return;
    for (unsigned p = 0; p < g->n_parts; p++)
        if (g->part_busy[p] & PART_BUSY_L2)
            partition_cycle_l2(g->part[p], c);
}

/* Debug builds (WARPSIM_SLOW_CHECKS): SM i's head is still the one the request network refused. */
static void check_refused_head(struct gpu *g, unsigned i, sim_cycle now_core)
{
#ifdef WARPSIM_SLOW_CHECKS
    SIM_ASSERT(sm_peek_request(g->sm[i], now_core) == g->inj_refused[i]);
#else
    (void)g;
    (void)i;
    (void)now_core;
#endif
}

/* Returns true when a packet moved (progress for the watchdog). */
static bool tick_icnt(struct gpu *g, sim_cycle c, sim_cycle now_core)
{
    bool moved = false;
    /* the networks move first, so a packet delivered in this cycle is taken in this cycle */
    icnt_cycle(g->req_net, c);
    icnt_cycle(g->rep_net, c);
    /* only delivered packets can be taken (and a crossbar whose last delivered packet is taken has
       nothing for the endpoints after) */
    bool rep_busy = icnt_any_delivered(g->rep_net);
    for (unsigned i = 0; rep_busy && i < g->n_sms; i++) {
        struct mem_req *r = icnt_peek(g->rep_net, i);
        if (r && sm_can_take_reply(g->sm[i])) {
            icnt_pop(g->rep_net, i);
            uint64_t lat = now_core >= r->t_issue ? now_core - r->t_issue : 0;
            g->ctr_lat_rt_sum += lat;
            g->ctr_lat_rt_cnt++;
            if (lat > g->kernel_lat_rt_max)
                g->kernel_lat_rt_max = lat;
            uint64_t b = g->cfg.lat_hist_bucket ? lat / g->cfg.lat_hist_bucket : lat;
            g->hist[b < GPU_HIST_BUCKETS - 1 ? b : GPU_HIST_BUCKETS - 1]++;
            sm_push_reply(g->sm[i], r, now_core);
            moved = true;
        }
    }
    /* replies to the CPU cores (core endpoints after the SMs): a core always takes its data */
    sim_cycle cpu_now = g->cyc[GD_CPU] ? g->cyc[GD_CPU] - 1 : 0;
    rep_busy = rep_busy && icnt_any_delivered(g->rep_net);
    for (unsigned i = 0; g->cpu_active && rep_busy && i < g->n_cpus; i++) {
        struct mem_req *r = icnt_peek(g->rep_net, g->n_sms + i);
        if (!r)
            continue;
        icnt_pop(g->rep_net, g->n_sms + i);
        struct gpu_cpu_slot *k = &g->cpu[i];
        k->lat_sum += now_core >= r->t_issue ? now_core - r->t_issue : 0;
        k->lat_cnt++;
        cpu_core_mem_reply(k->core, r, cpu_now);
        k->next = 0;   /* ticked at the next CPU edge */
        moved = true;
    }
    bool req_busy = icnt_any_delivered(g->req_net);
    for (unsigned p = 0; req_busy && p < g->n_parts; p++) {
        struct mem_req *r = icnt_peek(g->req_net, p);
        if (r && !partition_full(g->part[p])) {
            icnt_pop(g->req_net, p);
            partition_push(g->part[p], r, now_core);
            moved = true;
        } else if (r) {
            g->ctr_stall_dramfull++;   /* gpu_stall_dramfull */
        }
    }
    bool replies = part_busy_any(g, PART_BUSY_REPLY);
    for (unsigned p = 0; replies && p < g->n_parts; p++) {
        if (!(g->part_busy[p] & PART_BUSY_REPLY))
            continue;
        struct mem_req *r = partition_peek_reply(g->part[p], now_core);
        if (!r)
            continue;
        uint32_t bytes = reply_bytes(r);
        if (!icnt_can_push(g->rep_net, p, bytes))
            continue;
        SIM_ASSERT(r->sm < g->n_sms + g->n_cpus);
        r->is_reply = 1;
        r->t_reply = now_core;
        partition_pop_reply(g->part[p]);
        icnt_push(g->rep_net, p, r->sm, r, bytes, c);
        moved = true;
    }
    /* the SMs' requests: none is ready before out_min but the refused heads (and the scan makes it
       exact again).  A refused head is refused again until room frees at the SM's input (only
       this loop takes the head): counted as the call would count it, and while no input has got
       room and no other head is ready, without a look at the SMs. */
    if (now_core >= g->out_min || (g->n_refused && icnt_room_version_any(g->req_net) != g->refused_any)) {
        sim_cycle m = SIM_NEVER;
        for (unsigned i = 0; i < g->n_sms; i++) {
            /* the head's ready cycle as the SM published it: most SMs have nothing to send */
            if (g->smt[i].out > now_core) {
                m = sim_min(m, g->smt[i].out);
                continue;
            }
            if (g->inj_refused[i] && g->inj_version[i] == icnt_room_version(g->req_net, i)) {
                check_refused_head(g, i, now_core);
                icnt_count_refused_push(g->req_net, 1);
                continue;
            }
            struct mem_req *r = sm_peek_request(g->sm[i], now_core);
            uint32_t bytes = req_bytes(r);
            if (icnt_can_push(g->req_net, i, bytes)) {
                SIM_ASSERT(r->partition < g->n_parts);
                g->n_refused -= g->inj_refused[i] != NULL;
                g->inj_refused[i] = NULL;
                sm_pop_request(g->sm[i]);
                icnt_push(g->req_net, i, r->partition, r, bytes, c);
                moved = true;
                m = sim_min(m, g->smt[i].out);
            } else {
                g->n_refused += g->inj_refused[i] == NULL;
                g->inj_refused[i] = r;
                g->inj_version[i] = icnt_room_version(g->req_net, i);
            }
        }
        g->out_min = m;
        g->refused_any = icnt_room_version_any(g->req_net);
    } else if (g->n_refused) {
        icnt_count_refused_push(g->req_net, g->n_refused);
    }
    /* the CPU cores' L2 misses and write-backs, to the slice their address maps to */
    for (unsigned i = 0; g->cpu_active && i < g->n_cpus; i++) {
        struct gpu_cpu_slot *k = &g->cpu[i];
        struct mem_req *r = k->core ? cpu_core_mem_peek(k->core, cpu_now) : NULL;
        if (!r || !icnt_can_push(g->req_net, g->n_sms + i, req_bytes(r)))
            continue;
        cpu_core_mem_pop(k->core);
        r->sm = (uint16_t)(g->n_sms + i);
        r->partition = (uint16_t)(g->cpu_part0 + addr_map_subpart(&g->map_cpu, r->addr));
        r->t_issue = now_core;
        icnt_push(g->req_net, g->n_sms + i, r->partition, r, req_bytes(r), c);
        k->next = 0;   /* room in its outgoing queue */
        moved = true;
    }
    return moved;
}

/* The CPU cores' cycle c (their clock): each core with something due ticks; the measurement
   protocol follows (gpu_cpu.c). */
static bool tick_cpus(struct gpu *g, sim_cycle c)
{
    bool prog = false;
    for (unsigned i = 0; i < g->n_cpus; i++) {
        struct gpu_cpu_slot *k = &g->cpu[i];
        if (!k->core || c < k->next)
            continue;
        bool p = cpu_core_tick(k->core, c);
        k->next = p ? c + 1 : cpu_core_next_event(k->core, c);
        gpu_cpus_note(g, i, c);
        prog |= p;
    }
    return prog;
}

/* A parallel round: member m ticks its due SMs (i mod n == m: an SM stays with one thread, and its
   state in that core's cache) up to where they touch shared state. */
static void tick_sms_member(void *arg, unsigned m)
{
    struct gpu *g = arg;
    unsigned n = workers_count(g->team);
    for (unsigned j = 0; j < g->ndue; j++) {
        unsigned i = g->due[j];
        if (i % n == m)
            g->due_rc[i] = (uint8_t)sm_cycle_part(g->sm[i], g->par_now, true);
    }
}

/* The due SMs' cycle on several threads (docs/timing.md): a parallel round ticks each SM until it
   would touch state that SMs share (global memory, a call, a warp leaving: sm_cycle_part); then,
   in SM order, the stopped ones finish.  What one SM does before stopping reads and writes only
   its own state, so the result is the one of ticking the SMs one after the other. */
static bool tick_sms_parallel(struct gpu *g, sim_cycle c)
{
    g->ndue = 0;
    for (unsigned i = 0; i < g->n_sms; i++)
        if (c >= g->smt[i].due)
            g->due[g->ndue++] = i;
    bool prog = false;
    if (g->ndue < GPU_PAR_MIN_SMS || c < g->par_off_until) {   /* not worth a hand-off */
        for (unsigned j = 0; j < g->ndue; j++)
            prog |= sm_cycle(g->sm[g->due[j]], c);
    } else {
        g->par_now = c;
        g->par_slow_rounds += workers_run(g->team, tick_sms_member, g) > 0;
        /* A member that does not keep pace has no core of its own (other load): rounds would wait
           for the host's scheduler, many times slower than one thread.  Tick on this thread for a
           while, then try again; either way the results are the same. */
        if (++g->par_rounds == GPU_PAR_WINDOW) {
            if (g->par_slow_rounds > GPU_PAR_WINDOW / 16)
                g->par_off_until = c + GPU_PAR_BACKOFF;
            g->par_rounds = g->par_slow_rounds = 0;
        }
        for (unsigned j = 0; j < g->ndue; j++) {
            unsigned i = g->due[j];
            if (g->due_rc[i] == SM_YIELDED)
                prog |= sm_cycle_resume(g->sm[i], c);
            else
                prog |= g->due_rc[i] == SM_PROGRESS;
        }
    }
    for (unsigned j = 0; j < g->ndue; j++) {
        sm_fold_counts(g->sm[g->due[j]], &g->grid->cnt);
        if (!g->inj_refused[g->due[j]])   /* a refused head stays the head */
            g->out_min = sim_min(g->out_min, g->smt[g->due[j]].out);
    }
    return prog;
}

/* Debug builds (WARPSIM_SLOW_CHECKS): what the SMs published (struct sm_times) is what asking
   them gives. */
static void check_sm_times(const struct gpu *g, sim_cycle c)
{
#ifdef WARPSIM_SLOW_CHECKS
    for (unsigned i = 0; i < g->n_sms; i++) {
        const struct sm_times *t = &g->smt[i];
        sim_cycle e = sm_next_event(g->sm[i], c);
        SIM_ASSERT((c >= t->due) == sm_due(g->sm[i], c));
        SIM_ASSERT(e == (t->evt == SIM_NEVER ? SIM_NEVER : sim_max(t->evt, c + 1)));
        SIM_ASSERT((c >= t->out) == (sm_peek_request(g->sm[i], c) != NULL));
        SIM_ASSERT(g->out_min <= t->out || g->inj_refused[i]);
    }
#else
    (void)g;
    (void)c;
#endif
}

/* Debug builds (WARPSIM_SLOW_CHECKS): a blocked dispatch has no SM with room. */
static void check_cta_blocked(const struct gpu *g)
{
#ifdef WARPSIM_SLOW_CHECKS
    for (unsigned i = 0; g->cta_blocked && i < g->n_sms; i++)
        SIM_ASSERT(cta_room(g, i) == 0);
#else
    (void)g;
#endif
}

static bool tick_core(struct gpu *g, sim_cycle c)
{
    bool prog = false;
    g->clock_now = c;
    check_cta_blocked(g);
    if (g->next_cta < g->n_ctas && !g->cta_blocked)
        prog = dispatch(g, c);
    check_sm_times(g, c);
    /* an SM with nothing due is not ticked: it accounts the cycle when it next ticks or settles */
    if (g->team)
        prog |= tick_sms_parallel(g, c);
    else
        for (unsigned i = 0; i < g->n_sms; i++)
            if (c >= g->smt[i].due) {
                prog |= sm_cycle(g->sm[i], c);
                if (!g->inj_refused[i])   /* a refused head stays the head */
                    g->out_min = sim_min(g->out_min, g->smt[i].out);
            }
    /* limits: the policy's update when due (its views count this cycle), then
       pausing / resuming.  Neither counts as progress: they only reorder
       issue, and a policy toggling them must not hide a deadlock. */
    if (c >= g->cta_next_update) {
        settle_sms(g, c);
        cta_update(g, c, false);
    }
    if (c >= g->cm_next)   /* the concurrency manager's interval ends (gpu_cm.c) */
        gpu_cm_decide(g, c);
    /* after a pass every SM runs at most its limit and pauses CTAs only at it, so the next pass can
       change something only after a limit or a count changed */
    if (g->cta_enforce_due) {
        g->cta_enforce_due = false;
        for (unsigned i = 0; i < g->n_sms; i++)
            if (g->cta_sm[i].paused || g->cta_sm[i].running > g->cta_sm[i].limit)
                cta_enforce(g, i, c);
    }
    return prog;
}

/* ---- accounting of core cycles (ticked or skipped) ------------------------------------ */

/* Core cycles [from, to) have passed with the current active warps (nothing
   changes during skipped cycles): occupancy, and time-series samples due in
   that range (a sample closes after every stats_interval cycles of the kernel).
   The per-SM occupancy is charged by res_flush when it changes or is read. */
static void account_cycles(struct gpu *g, sim_cycle from, sim_cycle to, sim_cycle kstart)
{
    uint64_t warps_total = g->active_warps_total;
    unsigned iv = g->cfg.stats_interval;
    while (from < to) {
        sim_cycle stop = to;
        if (g->ts && iv) {
            /* cycles done in the kernel after cycle x: x - kstart + 1; a sample after x when that is a multiple */
            uint64_t done = from - kstart;            /* before cycle `from` */
            uint64_t next_b = (done / iv + 1) * iv;   /* cycles done at the next boundary */
            sim_cycle bcyc = kstart + next_b;         /* first cycle after the boundary */
            if (bcyc < stop)
                stop = bcyc;
        }
        uint64_t k = stop - from;
        g->ctr_res_warp_cycles += warps_total * k;
        from = stop;
        if (g->ts && iv && (from - kstart) % iv == 0) {
            settle_sms(g, from - 1);
            res_flush_all(g, from);
            gpu_ts_sample(g, from, 0);
        }
    }
}

/* ---- idle skipping ---------------------------------------------------------------------- */

static sim_ps to_ps(const struct gpu *g, int d, sim_cycle c)
{
    if (c == SIM_NEVER || c > SIM_NEVER / g->per[d])
        return SIM_NEVER;
    return c * g->per[d];
}

/* Earliest time anything can happen, or the natural next edge when that is sooner. */
static sim_ps next_event_time(struct gpu *g, sim_ps t_nat, sim_cycle deadline_core)
{
    sim_ps best = to_ps(g, GD_CORE, deadline_core);
    if (g->next_cta < g->n_ctas && !g->cta_blocked)
        for (unsigned i = 0; i < g->n_sms; i++)
            if (cta_room(g, i))
                return t_nat;
    /* CPU cores: their own next event, or a request waiting for room in the network */
    for (unsigned i = 0; g->cpu_active && i < g->n_cpus; i++) {
        const struct gpu_cpu_slot *k = &g->cpu[i];
        if (!k->core)
            continue;
        sim_cycle due = sim_min(k->next, cpu_core_mem_next(k->core));
        if (due < g->cyc[GD_CPU])
            return t_nat;
        sim_ps t = to_ps(g, GD_CPU, due);
        if (t <= t_nat)
            return t_nat;
        best = t < best ? t : best;
    }
    sim_cycle nc = g->cyc[GD_CORE] ? g->cyc[GD_CORE] - 1 : 0;
    check_sm_times(g, nc);
    sim_cycle sm_next = SIM_NEVER;
    for (unsigned i = 0; i < g->n_sms; i++) {
        const struct sm_times *st = &g->smt[i];
        if (st->out <= nc)   /* a request waiting for room in the crossbar */
            return t_nat;
        sm_next = sim_min(sm_next, st->evt);
    }
    if (sm_next != SIM_NEVER) {   /* sm_next_event's answer for the soonest SM */
        sim_ps t = to_ps(g, GD_CORE, sim_max(sm_next, nc + 1));
        if (t <= t_nat)
            return t_nat;
        best = t < best ? t : best;
    }
    sim_cycle ni = g->cyc[GD_ICNT] ? g->cyc[GD_ICNT] - 1 : 0;
    sim_ps t = to_ps(g, GD_ICNT, icnt_next_event(g->req_net, ni));
    best = t < best ? t : best;
    t = to_ps(g, GD_ICNT, icnt_next_event(g->rep_net, ni));
    best = t < best ? t : best;
    if (best <= t_nat)
        return t_nat;
    /* delivered packets waiting for their consumer: it may accept at any edge (an idle network
       holds none) */
    bool rep_busy = icnt_busy(g->rep_net);
    for (unsigned i = 0; rep_busy && i < g->n_sms; i++)
        if (icnt_peek(g->rep_net, i))
            return t_nat;
    bool req_busy = icnt_busy(g->req_net);
    sim_cycle nl = g->cyc[GD_L2] ? g->cyc[GD_L2] - 1 : 0;
    sim_cycle nd = g->cyc[GD_DRAM] ? g->cyc[GD_DRAM] - 1 : 0;
    for (unsigned p = 0; p < g->n_parts; p++) {
        if (req_busy && icnt_peek(g->req_net, p))
            return t_nat;
        /* a reply waiting for the reply crossbar: the next interconnect edge may take it */
        if (partition_peek_reply(g->part[p], nc))
            return t_nat;
        t = to_ps(g, GD_L2, partition_next_event_l2(g->part[p], nl));
        best = t < best ? t : best;
        t = to_ps(g, GD_DRAM, partition_next_event_dram(g->part[p], nd));
        best = t < best ? t : best;
        if (best <= t_nat)
            return t_nat;
    }
    for (unsigned ch = 0; ch < g->n_chan; ch++) {
        t = to_ps(g, GD_DRAM, dram_next_event(g->dram[ch], nd));
        best = t < best ? t : best;
    }
    return best;
}

/* ---- watchdog dump ----------------------------------------------------------------------- */

static void dump_state(struct gpu *g, FILE *f, sim_cycle now)
{
    fprintf(f, "GPU state at core cycle %" PRIu64 ": %" PRIu64 " of %" PRIu64 " CTAs dispatched, %" PRIu64
               " memory requests in flight\n",
            (uint64_t)now, g->next_cta, g->n_ctas, reqs_in_flight(g));
    for (unsigned i = 0; i < g->n_sms; i++) {
        /* sm_dump writes one line (which names the SM); indent it, one newline */
        char *line = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&line, &len);
        if (m) {
            sm_dump(g->sm[i], m);
            fclose(m);
        }
        while (line && len && (line[len - 1] == '\n' || line[len - 1] == ' '))
            line[--len] = '\0';
        fprintf(f, "  %s\n", line ? line : "?");
        free(line);
    }
    fprintf(f, "  icnt_req: %s, icnt_rep: %s\n", icnt_busy(g->req_net) ? "busy" : "idle",
            icnt_busy(g->rep_net) ? "busy" : "idle");
    for (unsigned p = 0; p < g->n_parts; p++) {
        const struct partition_stats *ps = partition_get_stats(g->part[p]);
        fprintf(f, "  part%u: %s, requests %" PRIu64 ", replies %" PRIu64 ", L2 MSHRs in use %u\n", p,
                partition_busy(g->part[p]) ? "busy" : "idle", ps->requests, ps->replies,
                cache_mshr_used(partition_l2(g->part[p])));
    }
    for (unsigned ch = 0; ch < g->n_chan; ch++)
        fprintf(f, "  dram%u: %u queued\n", ch, dram_queue_len(g->dram[ch]));
    for (unsigned i = 0; i < g->n_cpus; i++)
        if (g->cpu[i].core)
            fprintf(f, "  cpu%u (%s): %" PRIu64 " instructions retired, next tick at CPU cycle %" PRIu64
                       " (now %" PRIu64 "), %" PRIu64 " requests in flight on the chip\n",
                    i, g->cpu[i].app, cpu_core_stats(g->cpu[i].core)->insns, (uint64_t)g->cpu[i].next,
                    (uint64_t)g->cyc[GD_CPU], mem_req_in_flight(&g->cpu_pool));
}

/* Message with the dump, truncated to the caller's buffer. */
static void fail_with_dump(struct gpu *g, sim_cycle now, const char *head, char *msg, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        fputs(head, f);
        fputc('\n', f);
        dump_state(g, f, now);
        fclose(f);
    }
    snprintf(msg, n, "%s", buf ? buf : head);
    /* drop a trailing newline */
    size_t l = strlen(msg);
    if (l && msg[l - 1] == '\n')
        msg[l - 1] = '\0';
    free(buf);
}

/* ---- completion ----------------------------------------------------------------------------- */

static bool all_done(const struct gpu *g)
{
    if (g->cpu_active) {   /* the CPUs' traffic and the write-backs go on after the kernel */
        if (g->next_cta < g->n_ctas || sm_reqs_in_flight(g))
            return false;
        for (unsigned i = 0; i < g->n_sms; i++)
            if (sm_busy(g->sm[i]))
                return false;
        return true;
    }
    /* the cheap tests first: the order does not change the answer */
    if (g->next_cta < g->n_ctas || icnt_busy(g->req_net) || icnt_busy(g->rep_net))
        return false;
    for (unsigned i = 0; i < g->n_sms; i++)
        if (sm_busy(g->sm[i]))
            return false;
    for (unsigned p = 0; p < g->n_parts; p++)
        if (partition_busy(g->part[p]))
            return false;
    return reqs_in_flight(g) == 0;
}

static uint64_t ctas_done_now(const struct gpu *g)
{
    uint64_t done = 0;
    for (unsigned i = 0; i < g->n_sms; i++)
        done += sm_get_metrics(g->sm[i])->ctas_done;
    return done - g->sum_start[GS_CTAS_DONE];
}

/* One of the run's limits reached after `kcyc` core cycles of the launch under way: the message. */
static bool run_limit_hit(const struct gpu *g, const struct ptx_grid *grid, uint64_t kcyc, uint64_t insns_before,
                          uint64_t ctas_before_k, char *msg, size_t n)
{
    const struct gpu_config *c = &g->cfg;
    const char *kn = g->kernels[g->nkernels - 1].res.name;
    if (c->max_cycles && g->tot_cycles + kcyc >= c->max_cycles) {
        snprintf(msg, n, GPU_SIM_LIMIT_TAG "-gpgpu_max_cycle %" PRIu64 " core cycles reached in kernel '%s'",
                 c->max_cycles, kn);
        return true;
    }
    if (c->max_insns && insns_before + grid->cnt.thread_insns >= c->max_insns) {
        snprintf(msg, n, GPU_SIM_LIMIT_TAG "-gpgpu_max_insn %" PRIu64 " thread instructions reached in kernel '%s' (%" PRIu64
                 ")", c->max_insns, kn, insns_before + grid->cnt.thread_insns);
        return true;
    }
    if (c->max_ctas && ctas_before_k + g->n_ctas > c->max_ctas && ctas_before_k + ctas_done_now(g) >= c->max_ctas) {
        snprintf(msg, n, GPU_SIM_LIMIT_TAG "-gpgpu_max_cta %" PRIu64 " CTAs finished, in kernel '%s' (%" PRIu64
                 " of its %" PRIu64 " CTAs)",
                 c->max_ctas, kn, ctas_done_now(g), g->n_ctas);
        return true;
    }
    return false;
}

/* "1h02m", "3m07s", "12s" */
static void fmt_duration(char *b, size_t n, double s)
{
    unsigned long v = s > 0 && s < 1e9 ? (unsigned long)(s + 0.5) : 0;
    if (v >= 3600)
        snprintf(b, n, "%luh%02lum", v / 3600, v / 60 % 60);
    else if (v >= 60)
        snprintf(b, n, "%lum%02lus", v / 60, v % 60);
    else
        snprintf(b, n, "%lus", v);
}

static void progress_line(struct gpu *g, sim_cycle now, sim_cycle kstart, double t0)
{
    double t = host_clock_seconds();
    if (t < g->progress_next)
        return;
    bool tty = g->progress == GPU_PROGRESS_TTY;
    g->progress_next = t + (tty ? 1.0 : GPU_PROGRESS_EVERY);
    double el = t - t0 > 1e-9 ? t - t0 : 1e-9, run_el = t - g->progress_t_run > 1e-9 ? t - g->progress_t_run : 1e-9;
    uint64_t cyc = (uint64_t)(now - kstart + 1), warp = g->grid->cnt.warp_insns;
    uint64_t run_warp = g->progress_warp_before + warp;
    char eta[64] = "";
    if (g->progress_expect > run_warp && run_warp) {
        char d[32];
        fmt_duration(d, sizeof d, (double)(g->progress_expect - run_warp) * run_el / (double)run_warp);
        snprintf(eta, sizeof eta, ", %.0f%%, ETA %s", 100.0 * (double)run_warp / (double)g->progress_expect, d);
    }
    fprintf(stderr, "%s[warpsim] kernel %u %s: CTAs %" PRIu64 "/%" PRIu64 ", cycle %" PRIu64 ", warp insns %" PRIu64
                    ", IPC %.2f, %.0f Kwarp insn/s%s%s",
            tty ? "\r" : "", g->kernel_id, g->kernels[g->nkernels - 1].res.name, ctas_done_now(g), g->n_ctas, cyc,
            warp, (double)g->grid->cnt.thread_insns / (double)cyc, (double)warp / el / 1e3, eta,
            tty ? "\033[K" : "\n");
    g->progress_shown = tty;
    fflush(stderr);
}

/* ---- one kernel ------------------------------------------------------------------------------ */

static struct gpu_kernel_rec *new_kernel(struct gpu *g)
{
    if (g->nkernels == g->cap_kernels) {
        unsigned nc = g->cap_kernels ? 2 * g->cap_kernels : 16;
        struct gpu_kernel_rec *k = realloc(g->kernels, sizeof *k * nc);
        if (!k)
            return NULL;
        g->kernels = k;
        g->cap_kernels = nc;
    }
    struct gpu_kernel_rec *k = &g->kernels[g->nkernels];
    memset(k, 0, sizeof *k);
    k->sum = calloc(g->nsum, sizeof(uint64_t));
    if (!k->sum)
        return NULL;
    g->nkernels++;
    return k;
}

static void mark_broken(struct gpu *g, const char *kernel)
{
    g->broken = true;
    snprintf(g->broken_msg, sizeof g->broken_msg, "the simulated GPU stopped in kernel '%s'", kernel);
}

/* ---- the edges of the clock domains ------------------------------------------------------ */

/* The earliest next edge over every domain (the time the loop ticks next without skipping). */
static sim_ps next_edge(const struct gpu *g)
{
    sim_ps t = SIM_NEVER;
    for (int d = 0; d < GD_COUNT; d++)
        if (edge_time(g, d) < t)
            t = edge_time(g, d);
    return t;
}

/* Tick the memory side's domains whose edge is at T, in reverse pipeline order (DRAM, L2, network).
   Returns whether a packet moved (progress for the watchdog). */
static bool tick_memory_edges(struct gpu *g, sim_ps T, sim_cycle now_core)
{
    bool moved = false;
    if (edge_time(g, GD_DRAM) == T) {
        tick_dram(g, g->cyc[GD_DRAM]);
        clock_step(g, GD_DRAM);
    }
    if (edge_time(g, GD_L2) == T) {
        tick_l2(g, g->cyc[GD_L2]);
        clock_step(g, GD_L2);
    }
    if (edge_time(g, GD_ICNT) == T) {
        moved = tick_icnt(g, g->cyc[GD_ICNT], now_core);
        clock_step(g, GD_ICNT);
    }
    return moved;
}

/* Idle skipping: every domain's next edge moves to the first at or after tn. */
static void advance_to(struct gpu *g, sim_ps tn)
{
    for (int d = 0; d < GD_COUNT; d++) {
        sim_cycle nc = (tn + g->per[d] - 1) / g->per[d];
        if (nc > g->cyc[d]) {
            g->cyc[d] = nc;
            gpu_set_edge(g, d);
        }
    }
}

/* ---- the CPU cores without a kernel (gpu_cpu.h) ------------------------------------------- */

/* A trace error of a CPU core, as a message; false when none. */
static bool cpu_error(const struct gpu *g, char *msg, size_t n)
{
    for (unsigned i = 0; i < g->n_cpus; i++)
        if (g->cpu[i].core && cpu_core_error(g->cpu[i].core)[0]) {
            snprintf(msg, n, "CPU core %u (%s): %s", i, g->cpu[i].app, cpu_core_error(g->cpu[i].core));
            return true;
        }
    return false;
}

/* Run the CPU cores and the memory system, the SMs idle, until the cores are warm (warm) or have
   their quotas.  Core-domain edges pass (time stays one) but tick nothing.  0, or -1 with msg. */
static int run_cpus(struct gpu *g, bool warm, char *msg, size_t n)
{
    /* the core cycle in progress: the first edge may be another domain's, before the next core edge
       (now_core = cyc - 1), and now_core - last_progress must not wrap around */
    sim_cycle last_progress = g->cyc[GD_CORE] ? g->cyc[GD_CORE] - 1 : 0;
    for (uint64_t it = 0;; it++) {
        if (warm ? gpu_cpus_warm(g) : g->cpu_phase == GPU_CPU_DONE)
            return 0;
        if ((it & 1023) == 0 && cpu_error(g, msg, n))
            return -1;
        sim_ps T = next_edge(g);
        sim_cycle now_core = T / g->per[GD_CORE];
        if (tick_memory_edges(g, T, now_core))
            last_progress = now_core;
        if (edge_time(g, GD_CPU) == T) {
            if (tick_cpus(g, g->cyc[GD_CPU]))
                last_progress = now_core;
            clock_step(g, GD_CPU);
        }
        if (edge_time(g, GD_CORE) == T)
            clock_step(g, GD_CORE);
        if (g->cfg.deadlock_cycles && now_core - last_progress >= g->cfg.deadlock_cycles) {
            if (!cpu_error(g, msg, n)) {
                char head[256];
                snprintf(head, sizeof head,
                         "Deadlock: the CPU cores made no progress for %" PRIu64 " core cycles (-warpsim_deadlock_cycles)",
                         g->cfg.deadlock_cycles);
                fail_with_dump(g, now_core, head, msg, n);
            }
            return -1;
        }
        if (g->idle_skip) {
            sim_ps t_nat = next_edge(g);
            sim_ps tn = next_event_time(g, t_nat,
                                        g->cfg.deadlock_cycles ? last_progress + g->cfg.deadlock_cycles : SIM_NEVER);
            if (tn != SIM_NEVER && tn > t_nat)
                advance_to(g, tn);
        }
    }
}

/* Before the first kernel: the cores warm up alone, then their measurement starts with the GPU. */
static int cpus_begin_gpu(struct gpu *g, char *msg, size_t n)
{
    if (!g->cpu_active || g->cpu_phase != GPU_CPU_WARMUP)
        return 0;
    if (run_cpus(g, true, msg, n) != 0)
        return -1;
    gpu_cpus_start_measure(g, g->cyc[GD_CPU]);
    return 0;
}

int gpu_cpu_finish(struct gpu *g, char *msg, size_t n)
{
    if (n)
        msg[0] = '\0';
    if (!g->cpu_active)
        return 0;
    if (!g->cfg.cpu_quota) {   /* measured over the GPU's run, which is over */
        if (g->cpu_phase == GPU_CPU_WARMUP) {
            snprintf(msg, n, "-warpsim_cpu_quota 0 measures the CPU cores while the GPU runs, and no kernel ran; "
                             "give the cores a quota");
            return -1;
        }
        if (g->cpu_phase == GPU_CPU_MEASURING)
            gpu_cpus_end_window(g, g->cyc[GD_CPU] ? g->cyc[GD_CPU] - 1 : 0);
        return 0;
    }
    if (cpus_begin_gpu(g, msg, n) != 0)
        return -1;
    return g->cpu_phase == GPU_CPU_DONE ? 0 : run_cpus(g, false, msg, n);
}

int gpu_run_kernel(struct gpu *g, struct ptx_grid *grid, const char *kernel_name, struct gpu_kernel_result *res,
                   char *msg, size_t n)
{
    if (n)
        msg[0] = '\0';
    if (g->broken) {
        snprintf(msg, n, "%s; no further kernels can run on it", g->broken_msg);
        return -1;
    }
    struct gpu_kernel_rec *k = new_kernel(g);
    if (!k) {
        snprintf(msg, n, "out of host memory");
        return -1;
    }
    double t0 = host_clock_seconds();
    if (g->nkernels == 1)
        g->progress_t_run = t0;
    /* the first line once the run has lasted GPU_PROGRESS_DELAY: short runs print none */
    if (g->progress_next < g->progress_t_run + GPU_PROGRESS_DELAY)
        g->progress_next = g->progress_t_run + GPU_PROGRESS_DELAY;
    g->kernel_id = g->nkernels;
    snprintf(k->res.name, sizeof k->res.name, "%s", kernel_name ? kernel_name : "?");
    k->res.kernel_id = g->kernel_id;
    memcpy(k->grid, grid->grid, sizeof k->grid);
    memcpy(k->block, grid->block, sizeof k->block);
    g->grid = grid;
    grid->clock = &g->clock_now;   /* %clock reads the core cycle (see ptx_exec.h) */
    g->n_ctas = (uint64_t)grid->grid[0] * grid->grid[1] * grid->grid[2];
    g->next_cta = 0;
    g->cur_cta_warps = grid->cta_warps;
    g->kernel_lat_rt_max = 0;
    k->n_ctas = g->n_ctas;
    for (unsigned i = 0; i < g->n_sms * g->cta_track_per_sm; i++)
        g->cta_track[i].cta = UINT64_MAX;
    memset(g->active_warps, 0, sizeof(unsigned) * g->n_sms);
    memset(g->inj_refused, 0, sizeof *g->inj_refused * g->n_sms);
    g->n_refused = 0;
    g->cta_blocked = false;
    g->active_warps_total = 0;
    /* locality-aware policies: access ranges, out-of-order CTA record (gpu_locality.c) */
    if (gpu_locality_begin(g, grid, msg, n) != 0) {
        g->nkernels--;
        free(k->sum);
        return -1;
    }

    for (unsigned i = 0; i < g->n_sms; i++) {
        if (sm_kernel_begin(g->sm[i], grid, g->kernel_id, g->cfg.scheduler, msg, n) != 0) {
            grid->err = PTX_EXEC_CONFIG;   /* the warp scheduler rejected its parameters or inputs */
            for (unsigned j = 0; j < i; j++)
                sm_kernel_end(g->sm[j]);
            k->failed = 1;
            g->nkernels--;
            free(k->sum);
            return -1;
        }
    }
    if (sm_max_ctas(g->sm[0]) == 0) {
        snprintf(msg, n,
                 "kernel '%s': one CTA (%u threads, %" PRIu64 " bytes of shared memory) does not fit on an SM "
                 "(%u threads, %u registers, %u bytes of shared memory)",
                 k->res.name, grid->cta_threads, grid->smem_bytes, g->cfg.max_threads_per_core,
                 g->cfg.registers_per_core, g->cfg.shmem_size);
        grid->err = PTX_EXEC_CONFIG;
        for (unsigned i = 0; i < g->n_sms; i++)
            sm_kernel_end(g->sm[i]);
        g->nkernels--;
        free(k->sum);
        return -1;
    }
    if (cta_begin(g) != 0) {
        snprintf(msg, n, "out of host memory");
        for (unsigned i = 0; i < g->n_sms; i++)
            sm_kernel_end(g->sm[i]);
        g->nkernels--;
        free(k->sum);
        return -1;
    }
    fill_views(g);
    struct gpu_view v = {g->n_sms, g->views, 0, g->n_ctas, g->kernel_id, g->cta_dispatched, g->loc};
    memset(g->cta_state, 0, g->cta_ops->state_size ? g->cta_ops->state_size : 1);
    struct cfg_error perr;
    int prc = policy_params_apply(g->pparams.arena ? &g->pparams : NULL, "cta_sched", g->cta_ops->name,
                                  g->cta_ops->params, g->cta_ops->nparams, g->cta_state, &perr);
    if (prc != 0 || (g->cta_ops->init && g->cta_ops->init(g->cta_state, &v) != 0)) {
        if (prc != 0)
            snprintf(msg, n, "%s", perr.msg);
        else
            snprintf(msg, n, "CTA scheduler '%s' failed to initialise", g->cta_ops->name);
        grid->err = PTX_EXEC_CONFIG;
        for (unsigned i = 0; i < g->n_sms; i++)
            sm_kernel_end(g->sm[i]);
        g->nkernels--;
        free(k->sum);
        return -1;
    }

    /* the chip's CPU cores warm up before the GPU's first kernel (gpu_cpu.h) */
    if (cpus_begin_gpu(g, msg, n) != 0) {
        grid->err = PTX_EXEC_CONFIG;
        for (unsigned i = 0; i < g->n_sms; i++)
            sm_kernel_end(g->sm[i]);
        g->nkernels--;
        free(k->sum);
        return -1;
    }
    const sim_cycle kstart = g->cyc[GD_CORE];
    /* the run's limits count the launches before this one too */
    uint64_t run_insns_before = 0;
    for (unsigned i = 0; i + 1 < g->nkernels; i++)
        run_insns_before += g->kernels[i].res.thread_insns;
    const uint64_t run_ctas_before = ctas_before(g);
    g->ctas_before_launch = run_ctas_before;   /* summed once per launch, not per dispatch */
    g->ctas_issued = 0;
    bool stopped_at_limit = false;
    if (gpu_cm_kernel_start(g, kstart, msg, n) != 0) {   /* the first warp limits */
        grid->err = PTX_EXEC_CONFIG;
        for (unsigned i = 0; i < g->n_sms; i++)
            sm_kernel_end(g->sm[i]);
        g->nkernels--;
        free(k->sum);
        return -1;
    }
    k->start_cycle = kstart;
    for (unsigned i = 0; i < g->n_sms; i++)   /* no warps resident before */
        g->res_since[i] = kstart;
    cta_update(g, kstart, true);   /* the policy's initial limits (n = N without an update hook) */
    gpu_gather(g, g->sum_start, kstart);
    memcpy(g->sum_prev_sample, g->sum_start, sizeof(uint64_t) * g->nsum);
    g->sample_prev_cycle = kstart;

    sim_cycle last_progress = kstart, end = kstart;
    const uint64_t deadlock = g->cfg.deadlock_cycles;
    int rc = 0;
    for (;;) {
        sim_ps T = next_edge(g);
        sim_cycle now_core = T / g->per[GD_CORE];
        bool skip_ok = false;
        if (tick_memory_edges(g, T, now_core))
            last_progress = now_core;
        if (edge_time(g, GD_CPU) == T) {
            tick_cpus(g, g->cyc[GD_CPU]);
            clock_step(g, GD_CPU);
        }
        if (edge_time(g, GD_CORE) == T) {
            sim_cycle c = g->cyc[GD_CORE];
            if (tick_core(g, c))
                last_progress = c;
            else
                skip_ok = true;   /* only a core cycle without progress can start an idle stretch */
            clock_step(g, GD_CORE);
            account_cycles(g, c, c + 1, kstart);
            end = c;
            bool fault = grid->err != 0;
            if (!fault && (c & 1023) == 0)
                for (unsigned i = 0; i < g->n_sms; i++)
                    fault |= sm_faulted(g->sm[i]);
            if (fault) {
                snprintf(msg, n, "%s", grid->msg[0] ? grid->msg : "the executor reported a fault");
                rc = -1;
                break;
            }
            /* the host clock is read at least every 4096 simulated cycles: a kernel
               that issues little must not outrun the time limit */
            bool limit_due = (grid->insn_limit && grid->cnt.warp_insns >= grid->insn_limit) ||
                             (grid->deadline > 0 && ((c & 4095) == 0 || grid->cnt.warp_insns >= grid->deadline_next_check));
            if (limit_due &&
                ptx_grid_check_limits(grid, ctas_done_now(g), (uint64_t)(c - kstart + 1), (c & 4095) == 0)) {
                snprintf(msg, n, "%s", grid->msg);
                rc = -1;
                break;
            }
            if (grid->cycle_limit && c - kstart + 1 >= grid->cycle_limit) {
                ptx_grid_stop_cycles(grid, ctas_done_now(g), (uint64_t)(c - kstart + 1));
                snprintf(msg, n, "%s", grid->msg);
                rc = -1;
                break;
            }
            if (all_done(g))
                break;
            if (deadlock && c - last_progress >= deadlock) {
                char head[512];
                snprintf(head, sizeof head,
                         "Deadlock: kernel '%s' made no progress for %" PRIu64 " core cycles "
                         "(-warpsim_deadlock_cycles), at cycle %" PRIu64 " of the kernel",
                         k->res.name, deadlock, (uint64_t)(c - kstart + 1));
                fail_with_dump(g, c, head, msg, n);
                grid->err = PTX_EXEC_DEADLOCK;
                snprintf(grid->msg, sizeof grid->msg, "%s", head);
                rc = -1;
                break;
            }
            if (run_limit_hit(g, grid, c - kstart + 1, run_insns_before, run_ctas_before, msg, n)) {
                grid->err = PTX_EXEC_LIMIT;
                snprintf(grid->msg, sizeof grid->msg, "%s", msg);
                stopped_at_limit = true;
                rc = -1;
                break;
            }
            if (g->progress && (c & 4095) == 0)
                progress_line(g, c, kstart, t0);
        }
        if (g->idle_skip) {
            sim_ps t_nat = next_edge(g);
            /* the core edge that will see the kernel complete must not be skipped */
            if (!skip_ok || (g->next_cta >= g->n_ctas && (g->cpu_active || reqs_in_flight(g) == 0) && all_done(g)))
                continue;
            sim_cycle deadline = deadlock ? last_progress + deadlock : SIM_NEVER;
            if (g->cta_next_update < deadline)   /* the policy's update runs at its cycle */
                deadline = g->cta_next_update;
            if (g->cm_next < deadline)   /* and the concurrency manager's decision */
                deadline = g->cm_next;
            if (g->cfg.max_cycles) {
                sim_cycle mc = kstart + (g->cfg.max_cycles > g->tot_cycles ? g->cfg.max_cycles - g->tot_cycles - 1 : 0);
                deadline = mc < deadline ? mc : deadline;
            }
            if (grid->cycle_limit) {
                sim_cycle lc = kstart + grid->cycle_limit - 1;
                deadline = lc < deadline ? lc : deadline;
            }
            sim_ps tn = next_event_time(g, t_nat, deadline);
            if (tn != SIM_NEVER && tn > t_nat) {
                sim_cycle c0 = g->cyc[GD_CORE];
                advance_to(g, tn);
                if (g->cyc[GD_CORE] > c0) {
                    account_cycles(g, c0, g->cyc[GD_CORE], kstart);
                    g->skips++;
                    g->skipped_core_cycles += g->cyc[GD_CORE] - c0;
                }
            }
        }
    }

    /* every domain ticks its last edge inside the kernel (see gpu_set_idle_skip) */
    if (rc == 0) {
        sim_ps te = end * g->per[GD_CORE];
        sim_cycle e = te / g->per[GD_DRAM];
        if (g->last_tick[GD_DRAM] == SIM_NEVER || g->last_tick[GD_DRAM] < e) {
            tick_dram(g, e);
            g->last_tick[GD_DRAM] = e;
        }
        e = te / g->per[GD_L2];
        if (g->last_tick[GD_L2] == SIM_NEVER || g->last_tick[GD_L2] < e) {
            tick_l2(g, e);
            g->last_tick[GD_L2] = e;
        }
        e = te / g->per[GD_ICNT];
        if (g->last_tick[GD_ICNT] == SIM_NEVER || g->last_tick[GD_ICNT] < e) {
            tick_icnt(g, e, end);
            g->last_tick[GD_ICNT] = e;
        }
    }

    settle_sms(g, end);
    for (unsigned i = 0; i < g->n_sms; i++)
        sm_kernel_end(g->sm[i]);
    gpu_locality_end(g);
    reqs_totals(g, &g->ctr_mem_req_alloc, &g->ctr_mem_req_retired);
    for (unsigned i = 0; i < g->n_sms; i++)
        sm_fold_counts(g->sm[i], &grid->cnt);
    if (rc == 0 && (g->cpu_active ? sm_reqs_in_flight(g) != 0 : g->ctr_mem_req_alloc != g->ctr_mem_req_retired)) {
        snprintf(msg, n,
                 "internal error: memory request conservation violated after kernel '%s': %" PRIu64
                 " requests allocated, %" PRIu64 " retired",
                 k->res.name, g->ctr_mem_req_alloc, g->ctr_mem_req_retired);
        rc = -1;
    }

    /* statistics of the kernel */
    k->end_cycle = end;
    k->res.cycles = end - kstart + 1;
    k->res.thread_insns = grid->cnt.thread_insns;
    k->res.active_lane_insns = 0;
    for (unsigned i = 0; i < PIC_COUNT; i++)
        k->res.active_lane_insns += grid->cnt.iclass_thread[i];
    k->res.warp_insns = grid->cnt.warp_insns;
    k->res.ipc = (double)grid->cnt.thread_insns / (double)k->res.cycles;
    k->lat_rt_max = g->kernel_lat_rt_max;
    res_flush_all(g, end + 1);
    gpu_gather(g, g->sum_now, end + 1);
    for (unsigned i = 0; i < g->nsum; i++)
        k->sum[i] = g->sum_now[i] - g->sum_start[i];
    if (rc == 0)
        grid->ctas_done = k->sum[GS_CTAS_DONE];
    if (g->ts)
        gpu_ts_sample(g, end + 1, 1);
    g->tot_cycles += k->res.cycles;
    k->host_seconds = host_clock_seconds() - t0;
    g->tot_host_seconds += k->host_seconds;
    g->grid = NULL;
    grid->clock = NULL;
    g->progress_warp_before += k->res.warp_insns;
    if (g->progress_shown) {
        fputs("\r\033[K", stderr);
        g->progress_shown = false;
    }
    if (g->ts)
        fflush(g->ts);
    if (g->warps)
        fflush(g->warps);
    if (rc != 0) {
        k->failed = stopped_at_limit ? 2 : 1;
        mark_broken(g, k->res.name);
    }
    if (res)
        *res = k->res;
    return rc;
}
