/*
 * dram.c - one DRAM channel: banks, command timing, FR-FCFS / FIFO scheduler,
 * data bus (see dram.h).
 *
 * Time is kept as absolute "earliest cycle" values: each bank knows when it
 * may next take an ACT, a PRE and a column command; the channel knows when
 * the next ACT (tRRD), the next RD and the next WR (tCCD plus the bus
 * turnarounds) may issue and when the data bus frees up.  Issuing a command
 * only raises those values (max), so skipping idle cycles needs no catch-up
 * and dram_next_event is the minimum over queued requests of the earliest
 * cycle their next command becomes legal - exact, not an estimate.
 *
 * Gaps enforced (all in DRAM command cycles; BC = burst_length /
 * data_command_freq_ratio, the data-bus cycles of one burst):
 *   same bank   ACT->ACT tRC, ACT->PRE tRAS, PRE->ACT tRP, ACT->RD/WR tRCD,
 *               RD->PRE max(tRTPL, BC), WR->PRE tWL + BC + tWR
 *   channel     ACT->ACT tRRD, RD/WR->RD/WR tCCD (tCCDL inside a bank group
 *               when nbkgrp > 1 and tCCDL > 0),
 *               WR->RD  tWL + BC + tCDLR  (write-to-read turnaround),
 *               RD->WR  max(tCCD, tCL + BC + 1 - tWL) (read data must have
 *               left the bus, plus one idle cycle to turn it around),
 *               data bus: a burst occupies [t + lat, t + lat + BC) with lat
 *               = tCL (RD) or tWL (WR); bursts never overlap,
 *               one command per cycle.
 * A request of `size` bytes needs ceil(size / (buswidth * burst_length))
 * column commands to one open row.  It completes when the data of its last
 * column command has transferred; reads are handed back dram_return_latency cycles
 * later (return path), writes at completion.  mem_req.t_dram_queue is the
 * push cycle, t_dram_issue the cycle of the LAST column command (completion
 * is a fixed delay after it); queue_lat_sum measures push -> first column
 * command.  A request pushed at cycle t may issue its first command in
 * dram_cycle(t) if that call comes after the push.
 *
 * Scheduling, one command per cycle:
 *   FR-FCFS  1. the oldest request that hits an open row and whose column
 *               command is legal now;
 *            2. else the oldest request whose ACT (bank closed) or PRE (bank
 *               open on another row) is legal now.  A bank is not precharged
 *               while any queued request still hits its open row, so a
 *               younger row hit is served before an older row miss closes
 *               the row under it (and a multi-burst request is never cut).
 *   FIFO     only the oldest request may issue (its next command).
 * Row hit / miss statistic: a request is a row miss when an ACT or PRE was
 * issued on its behalf, a row hit when it found its row open.
 */
#include "mem/dram.h"

#include <string.h>

struct dram_bank {
    uint32_t row;
    uint8_t open;
    sim_cycle t_act, t_pre, t_col;   /* earliest ACT / PRE / RD-WR of this bank */
};

struct dram_slot {
    struct mem_req *r;
    uint32_t bank, row;
    uint32_t bursts_left;
    uint8_t is_write, started, own_act;
    sim_cycle t_enq;
};

/* Finished requests of one sub-partition in one direction: every entry has
   the same completion delay, so issue order is completion order. */
struct dram_done {
    struct mem_req *head, *tail;
};

struct dram_channel {
    unsigned id;
    struct dram_timing t;
    uint32_t nbk, bk_per_grp, ngrp, nsub;
    uint32_t bc;              /* data-bus cycles per burst */
    uint32_t bytes_per_burst;
    uint32_t rtw, wtr, rtp, wtp;
    uint32_t delay_rd, delay_wr;   /* last column command -> hand back */
    int use_ccdl;
    int fifo_mode;
    uint32_t qcap, qlen;
    struct dram_slot *q;      /* arrival order, oldest first */
    struct dram_bank *bk;
    uint32_t *hits;           /* per bank: queued requests hitting its open row (scratch) */
    sim_cycle *grp_col;       /* per bank group: earliest column command (tCCDL) */
    sim_cycle next_act, next_rd, next_wr, bus_free;
    struct dram_done *done;   /* [sub * 2 + is_write] */
    uint32_t ndone;
    dram_cmd_hook hook;
    void *hook_user;
    struct dram_stats st;
    sim_cycle last_now;
    sim_cycle acct;           /* first cycle not yet counted in st.cycles */
    uint8_t have_last;
};

struct dram_channel *dram_new(struct arena *a, const struct gpu_config *g, unsigned id)
{
    struct dram_channel *d = arena_alloc(a, sizeof *d);
    if (!d)
        return NULL;
    d->id = id;
    d->t = g->dram;
    SIM_ASSERT(d->t.nbk >= 1);
    SIM_ASSERT(g->frfcfs_queue_size >= 1);
    d->nbk = d->t.nbk;
    d->ngrp = d->t.nbkgrp ? d->t.nbkgrp : 1;
    SIM_ASSERT(d->nbk % d->ngrp == 0);
    d->bk_per_grp = d->nbk / d->ngrp;
    d->use_ccdl = d->ngrp > 1 && d->t.tCCDL > 0;
    d->nsub = g->n_sub_partition_per_mchannel ? g->n_sub_partition_per_mchannel : 1;
    uint32_t ratio = g->dram_data_command_freq_ratio ? g->dram_data_command_freq_ratio : 1;
    d->bc = g->dram_burst_length / ratio;
    if (d->bc == 0)
        d->bc = 1;
    d->bytes_per_burst = g->dram_buswidth * g->dram_burst_length;
    if (d->bytes_per_burst == 0)
        d->bytes_per_burst = 1;
    uint32_t rtw = d->t.tCL + d->bc + 1 > d->t.tWL ? d->t.tCL + d->bc + 1 - d->t.tWL : 1;
    d->rtw = rtw > d->t.tCCD ? rtw : d->t.tCCD;
    d->wtr = d->t.tWL + d->bc + d->t.tCDLR;
    d->rtp = d->t.tRTPL > d->bc ? d->t.tRTPL : d->bc;
    d->wtp = d->t.tWL + d->bc + d->t.tWR;
    d->delay_rd = d->t.tCL + d->bc + g->dram_return_latency;
    d->delay_wr = d->t.tWL + d->bc;
    d->fifo_mode = g->dram_scheduler == 0;
    d->qcap = g->frfcfs_queue_size;
    d->q = arena_alloc(a, sizeof *d->q * d->qcap);
    d->bk = arena_alloc(a, sizeof *d->bk * d->nbk);
    d->hits = arena_alloc(a, sizeof *d->hits * d->nbk);
    d->grp_col = arena_alloc(a, sizeof *d->grp_col * d->ngrp);
    d->done = arena_alloc(a, sizeof *d->done * d->nsub * 2);
    if (!d->q || !d->bk || !d->hits || !d->grp_col || !d->done)
        return NULL;
    return d;
}

void dram_reg_stats(struct dram_channel *d, struct stats *s, const char *prefix)
{
    struct dram_stats *t = &d->st;
    stats_reg(s, &t->reads, "read requests completed", "%s.reads", prefix);
    stats_reg(s, &t->writes, "write requests completed", "%s.writes", prefix);
    stats_reg(s, &t->row_hits, "requests served from an already open row", "%s.row_hits", prefix);
    stats_reg(s, &t->row_misses, "requests that needed their own ACT (and PRE)", "%s.row_misses", prefix);
    stats_reg(s, &t->activates, "ACT commands", "%s.activates", prefix);
    stats_reg(s, &t->precharges, "PRE commands", "%s.precharges", prefix);
    stats_reg(s, &t->queue_lat_sum, "DRAM cycles from enqueue to first column command, summed",
              "%s.queue_lat_sum", prefix);
    stats_reg(s, &t->queue_lat_max, "largest enqueue-to-column-command delay", "%s.queue_lat_max", prefix);
    stats_reg(s, &t->data_busy_cycles, "DRAM cycles the data bus transferred data", "%s.data_busy_cycles",
              prefix);
    stats_reg(s, &t->cycles, "DRAM cycles with queued or in-flight requests", "%s.cycles", prefix);
    stats_reg(s, &t->total_cycles, "DRAM cycles of the run", "%s.total_cycles", prefix);
    stats_reg(s, &t->queue_full_stalls, "cycles a request waited for a full scheduler queue",
              "%s.queue_full_stalls", prefix);
}

const struct dram_stats *dram_get_stats(const struct dram_channel *d) { return &d->st; }

bool dram_full(const struct dram_channel *d) { return d->qlen >= d->qcap; }

unsigned dram_queue_len(const struct dram_channel *d) { return d->qlen; }

void dram_note_full(struct dram_channel *d) { d->st.queue_full_stalls++; }

void dram_set_cmd_hook(struct dram_channel *d, dram_cmd_hook fn, void *user)
{
    d->hook = fn;
    d->hook_user = user;
}

void dram_push(struct dram_channel *d, struct mem_req *r, const struct dram_loc *loc, sim_cycle now)
{
    SIM_ASSERT(d->qlen < d->qcap);
    SIM_ASSERT(loc->bank < d->nbk);
    if (!d->qlen && !d->ndone)
        d->acct = sim_max(d->acct, now);   /* a busy stretch starts */
    struct dram_slot *s = &d->q[d->qlen++];
    memset(s, 0, sizeof *s);
    s->r = r;
    s->bank = loc->bank;
    s->row = loc->row;
    s->is_write = r->type == MRT_WRITE;
    uint32_t size = r->size ? r->size : 1;
    s->bursts_left = (size + d->bytes_per_burst - 1) / d->bytes_per_burst;
    s->t_enq = now;
    r->t_dram_queue = now;
    r->next = NULL;
}

static int dram_is_hit(const struct dram_channel *d, const struct dram_slot *s)
{
    const struct dram_bank *b = &d->bk[s->bank];
    return b->open && b->row == s->row;
}

/* Earliest cycle the column command of a row-hit slot is legal. */
static sim_cycle dram_col_ready(const struct dram_channel *d, const struct dram_slot *s)
{
    const struct dram_bank *b = &d->bk[s->bank];
    uint32_t lat = s->is_write ? d->t.tWL : d->t.tCL;
    sim_cycle t = sim_max(b->t_col, s->is_write ? d->next_wr : d->next_rd);
    if (d->use_ccdl)
        t = sim_max(t, d->grp_col[s->bank / d->bk_per_grp]);
    if (d->bus_free > lat)
        t = sim_max(t, d->bus_free - lat);
    return t;
}

/* Next command of a slot and the earliest cycle it is legal (SIM_NEVER when a
   PRE is held back because queued requests still hit the open row). */
static sim_cycle dram_slot_next(const struct dram_channel *d, const struct dram_slot *s, enum dram_cmd *cmd)
{
    const struct dram_bank *b = &d->bk[s->bank];
    if (b->open && b->row == s->row) {
        *cmd = s->is_write ? DC_WR : DC_RD;
        return dram_col_ready(d, s);
    }
    if (b->open) {
        *cmd = DC_PRE;
        return d->hits[s->bank] ? SIM_NEVER : b->t_pre;
    }
    *cmd = DC_ACT;
    return sim_max(b->t_act, d->next_act);
}

static void dram_fire_hook(struct dram_channel *d, sim_cycle now, enum dram_cmd cmd, const struct dram_slot *s)
{
    if (d->hook)
        d->hook(d->hook_user, now, cmd, s->bank, s->row, s->r);
}

static void dram_issue_act(struct dram_channel *d, struct dram_slot *s, sim_cycle now)
{
    struct dram_bank *b = &d->bk[s->bank];
    SIM_DASSERT(!b->open);
    b->open = 1;
    b->row = s->row;
    b->t_col = now + d->t.tRCD;
    b->t_pre = sim_max(b->t_pre, now + d->t.tRAS);
    b->t_act = sim_max(b->t_act, now + d->t.tRC);
    d->next_act = now + d->t.tRRD;
    s->own_act = 1;
    d->st.activates++;
    dram_fire_hook(d, now, DC_ACT, s);
}

static void dram_issue_pre(struct dram_channel *d, struct dram_slot *s, sim_cycle now)
{
    struct dram_bank *b = &d->bk[s->bank];
    SIM_DASSERT(b->open);
    b->open = 0;
    b->t_act = sim_max(b->t_act, now + d->t.tRP);
    s->own_act = 1;
    d->st.precharges++;
    dram_fire_hook(d, now, DC_PRE, s);
}

static void dram_done_append(struct dram_channel *d, struct mem_req *r, int is_write)
{
    unsigned sub = r->partition % d->nsub;
    struct dram_done *l = &d->done[sub * 2 + (unsigned)is_write];
    r->next = NULL;
    if (l->tail)
        l->tail->next = r;
    else
        l->head = r;
    l->tail = r;
    d->ndone++;
}

static void dram_issue_col(struct dram_channel *d, uint32_t i, sim_cycle now)
{
    struct dram_slot *s = &d->q[i];
    struct dram_bank *b = &d->bk[s->bank];
    SIM_DASSERT(b->open && b->row == s->row);
    uint32_t lat = s->is_write ? d->t.tWL : d->t.tCL;
    if (!s->started) {
        s->started = 1;
        sim_cycle ql = now - s->t_enq;
        d->st.queue_lat_sum += ql;
        if (ql > d->st.queue_lat_max)
            d->st.queue_lat_max = ql;
        if (s->own_act)
            d->st.row_misses++;
        else
            d->st.row_hits++;
    }
    if (s->is_write) {
        d->next_wr = sim_max(d->next_wr, now + d->t.tCCD);
        d->next_rd = sim_max(d->next_rd, now + d->wtr);
        b->t_pre = sim_max(b->t_pre, now + d->wtp);
    } else {
        d->next_rd = sim_max(d->next_rd, now + d->t.tCCD);
        d->next_wr = sim_max(d->next_wr, now + d->rtw);
        b->t_pre = sim_max(b->t_pre, now + d->rtp);
    }
    if (d->use_ccdl) {
        sim_cycle *g = &d->grp_col[s->bank / d->bk_per_grp];
        *g = sim_max(*g, now + d->t.tCCDL);
    }
    d->bus_free = now + lat + d->bc;
    d->st.data_busy_cycles += d->bc;
    dram_fire_hook(d, now, s->is_write ? DC_WR : DC_RD, s);
    if (--s->bursts_left)
        return;
    struct mem_req *r = s->r;
    r->t_dram_issue = now;   /* the last column command: completion is a fixed delay after it */
    if (s->is_write)
        d->st.writes++;
    else
        d->st.reads++;
    int w = s->is_write;
    memmove(&d->q[i], &d->q[i + 1], sizeof *d->q * (d->qlen - i - 1));
    d->qlen--;
    dram_done_append(d, r, w);
}

static void dram_count_hits(struct dram_channel *d)
{
    memset(d->hits, 0, sizeof *d->hits * d->nbk);
    for (uint32_t i = 0; i < d->qlen; i++)
        if (dram_is_hit(d, &d->q[i]))
            d->hits[d->q[i].bank]++;
}

static void dram_issue(struct dram_channel *d, uint32_t i, enum dram_cmd cmd, sim_cycle now)
{
    switch (cmd) {
    case DC_ACT: dram_issue_act(d, &d->q[i], now); break;
    case DC_PRE: dram_issue_pre(d, &d->q[i], now); break;
    case DC_RD:
    case DC_WR: dram_issue_col(d, i, now); break;
    default: SIM_ASSERT(0);
    }
}

static void dram_schedule(struct dram_channel *d, sim_cycle now)
{
    enum dram_cmd cmd = DC_NONE;
    if (d->qlen == 0)
        return;
    if (d->fifo_mode) {
        /* only the head may issue, so younger row hits never hold back its
           PRE (hits[] stays all zero in FIFO mode) */
        if (dram_slot_next(d, &d->q[0], &cmd) <= now)
            dram_issue(d, 0, cmd, now);
        return;
    }
    dram_count_hits(d);
    for (uint32_t i = 0; i < d->qlen; i++) {
        const struct dram_slot *s = &d->q[i];
        if (dram_is_hit(d, s) && dram_col_ready(d, s) <= now) {
            dram_issue_col(d, i, now);
            return;
        }
    }
    for (uint32_t i = 0; i < d->qlen; i++) {
        const struct dram_slot *s = &d->q[i];
        if (dram_is_hit(d, s))
            continue;
        if (dram_slot_next(d, s, &cmd) <= now) {
            dram_issue(d, i, cmd, now);
            return;
        }
    }
}

/* Busy-cycle accounting ("cycles"): a cycle counts when a request was in the
   channel (queued or finished but not yet popped) at any point of it, i.e.
   every cycle from a request's push through its pop.  `acct` is the first
   cycle not yet counted; counting at pushes, ticks and pops (not per tick)
   makes the count independent of idle skipping and of whether the owner
   pushes before or after dram_cycle. */
static void dram_account(struct dram_channel *d, sim_cycle now)
{
    if (now + 1 > d->acct) {
        d->st.cycles += now + 1 - d->acct;
        d->acct = now + 1;
    }
}

/* The bookkeeping of every cycle the owner ticks, busy or idle. */
static inline void dram_note_cycle(struct dram_channel *d, sim_cycle now)
{
    d->have_last = 1;
    d->last_now = now;
    d->st.total_cycles = now + 1;
}

void dram_cycle(struct dram_channel *d, sim_cycle now)
{
    SIM_ASSERT(!d->have_last || now > d->last_now);
    dram_schedule(d, now);
    if (d->qlen || d->ndone)
        dram_account(d, now);   /* also covers cycles the owner skipped */
    dram_note_cycle(d, now);
}

void dram_cycle_idle(struct dram_channel *const *d, unsigned n, sim_cycle now)
{
    for (unsigned i = 0; i < n; i++) {
        SIM_DASSERT(!d[i]->qlen && !d[i]->ndone && (!d[i]->have_last || now > d[i]->last_now));
        dram_note_cycle(d[i], now);
    }
}

static sim_cycle dram_done_at(const struct dram_channel *d, const struct dram_done *l, int is_write)
{
    if (!l->head)
        return SIM_NEVER;
    return l->head->t_dram_issue + (is_write ? d->delay_wr : d->delay_rd);
}

/* Pop from the sub-partition's two lists the entry finishing first (reads win
   ties), if it is due. */
static struct mem_req *dram_pop_list(struct dram_channel *d, unsigned sub, sim_cycle now)
{
    struct dram_done *lr = &d->done[sub * 2], *lw = &d->done[sub * 2 + 1];
    sim_cycle tr = dram_done_at(d, lr, 0), tw = dram_done_at(d, lw, 1);
    struct dram_done *l = tr <= tw ? lr : lw;
    sim_cycle t = tr <= tw ? tr : tw;
    if (t == SIM_NEVER || t > now)
        return NULL;
    struct mem_req *r = l->head;
    l->head = r->next;
    if (!l->head)
        l->tail = NULL;
    r->next = NULL;
    d->ndone--;
    if (!d->qlen && !d->ndone)
        dram_account(d, now);   /* the busy stretch ends with this cycle */
    return r;
}

struct mem_req *dram_pop_done_sub(struct dram_channel *d, unsigned sub, sim_cycle now)
{
    SIM_ASSERT(sub < d->nsub);
    return dram_pop_list(d, sub, now);
}

struct mem_req *dram_pop_done(struct dram_channel *d, sim_cycle now)
{
    unsigned best = 0;
    sim_cycle bt = SIM_NEVER;
    for (unsigned s = 0; s < d->nsub; s++) {
        sim_cycle t = sim_min(dram_done_at(d, &d->done[s * 2], 0), dram_done_at(d, &d->done[s * 2 + 1], 1));
        if (t < bt) {
            bt = t;
            best = s;
        }
    }
    if (bt == SIM_NEVER || bt > now)
        return NULL;
    return dram_pop_list(d, best, now);
}

sim_cycle dram_next_event(const struct dram_channel *d, sim_cycle now)
{
    sim_cycle t = SIM_NEVER;
    for (unsigned s = 0; s < d->nsub * 2; s++)
        t = sim_min(t, dram_done_at(d, &d->done[s], (int)(s & 1)));
    if (d->qlen) {
        /* hits[] is scratch owned by dram_schedule; recompute a private copy
           of the one fact it carries (does bank b have a queued row hit) */
        uint32_t n = d->fifo_mode ? 1 : d->qlen;
        for (uint32_t i = 0; i < n; i++) {
            const struct dram_slot *s = &d->q[i];
            const struct dram_bank *b = &d->bk[s->bank];
            sim_cycle e;
            if (b->open && b->row == s->row) {
                e = dram_col_ready(d, s);
            } else if (b->open) {
                int held = 0;
                for (uint32_t j = 0; j < d->qlen && !d->fifo_mode && !held; j++)
                    held = d->q[j].bank == s->bank && d->q[j].row == b->row;
                e = held ? SIM_NEVER : b->t_pre;
            } else {
                e = sim_max(b->t_act, d->next_act);
            }
            t = sim_min(t, e);
        }
    }
    return t == SIM_NEVER ? t : sim_max(t, now);
}
