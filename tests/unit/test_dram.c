/*
 * test_dram.c - timing harness for one DRAM channel (mem/dram.h).
 *
 * Each test drives a channel cycle by cycle (push arrivals, dram_cycle, pop
 * finished requests), records every command through dram_set_cmd_hook and
 * asserts exact cycles.  The stress tests feed pseudo-random streams (fixed
 * LCG seed) and check every pairwise timing constraint over the whole
 * command trace, the data bus, and that skipping idle cycles with
 * dram_next_event reproduces the cycle-by-cycle trace exactly.
 */
#include <stdint.h>
#include <string.h>

#include "core/arena.h"
#include "core/stats.h"
#include "mem/dram.h"
#include "mem/mem_req.h"
#include "test.h"

/* GDDR5-like defaults of the GTX480 preset */
#define T_BASE "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12"

static void cfg_make(struct gpu_config *g, const char *timing, unsigned sched, unsigned qsize)
{
    memset(g, 0, sizeof *g);
    char msg[256];
    unsigned col = 0;
    int rc = dram_timing_parse(timing, &g->dram, msg, sizeof msg, &col);
    if (rc)
        fprintf(stderr, "timing: %s\n", msg);
    g->dram_buswidth = 4;
    g->dram_burst_length = 8;
    g->dram_data_command_freq_ratio = 4;   /* BC = 2 data-bus cycles per burst, 32 bytes per burst */
    g->dram_return_latency = 100;
    g->frfcfs_queue_size = qsize;
    g->dram_scheduler = sched;
    g->n_sub_partition_per_mchannel = 1;
}

struct cmd_rec {
    sim_cycle t;
    enum dram_cmd cmd;
    unsigned bank, row;
    uint32_t id;
    int is_write;
};

struct cmd_log {
    struct cmd_rec *v;
    unsigned n, cap;
};

static void log_hook(void *user, sim_cycle now, enum dram_cmd cmd, unsigned bank, unsigned row,
                     const struct mem_req *r)
{
    struct cmd_log *l = user;
    if (l->n >= l->cap)
        return;
    l->v[l->n++] = (struct cmd_rec){now, cmd, bank, row, r ? r->id : 0, r ? r->type == MRT_WRITE : 0};
}

struct bench {
    struct arena *a;
    struct gpu_config g;
    struct dram_channel *d;
    struct mem_req_pool pool;
    struct cmd_log log;
};

static void bench_init(struct bench *b, const char *timing, unsigned sched, unsigned qsize)
{
    memset(b, 0, sizeof *b);
    b->a = arena_new(0);
    cfg_make(&b->g, timing, sched, qsize);
    b->d = dram_new(b->a, &b->g, 0);
    mem_req_pool_init(&b->pool, b->a, 64);
    b->log.cap = 1u << 16;
    b->log.v = arena_alloc(b->a, sizeof *b->log.v * b->log.cap);
    dram_set_cmd_hook(b->d, log_hook, &b->log);
}

static void bench_free(struct bench *b) { arena_free(b->a); }

static struct mem_req *mkreq(struct bench *b, int write, uint32_t size)
{
    struct mem_req *r = mem_req_alloc(&b->pool);
    r->type = (uint8_t)(write ? MRT_WRITE : MRT_READ);
    r->size = size;
    return r;
}

static void push(struct bench *b, struct mem_req *r, unsigned bank, unsigned row, sim_cycle now)
{
    struct dram_loc loc = {0, 0, bank, row, 0};
    dram_push(b->d, r, &loc, now);
}

/* Tick cycles [from, to]; store the pop cycle of each finished request by id. */
static void run(struct bench *b, sim_cycle from, sim_cycle to, sim_cycle *done_at, unsigned ndone)
{
    for (sim_cycle t = from; t <= to; t++) {
        dram_cycle(b->d, t);
        struct mem_req *r;
        while ((r = dram_pop_done(b->d, t)) != NULL) {
            if (r->id < ndone)
                done_at[r->id] = t;
        }
    }
}

static const struct cmd_rec *find_cmd(const struct cmd_log *l, uint32_t id, enum dram_cmd c, unsigned nth)
{
    for (unsigned i = 0; i < l->n; i++)
        if (l->v[i].id == id && l->v[i].cmd == c && nth-- == 0)
            return &l->v[i];
    return NULL;
}

#define CHECK_CMD_AT(log, id, c, nth, cycle)                                   \
    do {                                                                       \
        const struct cmd_rec *cr_ = find_cmd(log, id, c, nth);                 \
        CHECK(cr_ != NULL);                                                    \
        if (cr_)                                                               \
            CHECK_EQ_INT(cr_->t, cycle);                                       \
    } while (0)

TEST(dram_lone_read_closed_bank)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    struct mem_req *r = mkreq(&b, 0, 32);
    push(&b, r, 3, 7, 10);
    sim_cycle done[8] = {0};
    run(&b, 10, 400, done, 8);
    /* ACT at arrival, RD after tRCD, data tCL + BC later, then dram_return_latency */
    CHECK_CMD_AT(&b.log, r->id, DC_ACT, 0, 10);
    CHECK_CMD_AT(&b.log, r->id, DC_RD, 0, 10 + 12);
    CHECK_EQ_INT(b.log.n, 2);
    CHECK_EQ_INT(done[r->id], 10 + 12 + 12 + 2 + 100);
    CHECK_EQ_INT(r->t_dram_queue, 10);
    CHECK_EQ_INT(r->t_dram_issue, 22);
    const struct dram_stats *s = dram_get_stats(b.d);
    CHECK_EQ_INT(s->reads, 1);
    CHECK_EQ_INT(s->row_misses, 1);
    CHECK_EQ_INT(s->row_hits, 0);
    CHECK_EQ_INT(s->activates, 1);
    CHECK_EQ_INT(s->queue_lat_sum, 12);
    CHECK_EQ_INT(s->data_busy_cycles, 2);
    CHECK_EQ_INT(s->total_cycles, 401);
    /* busy from arrival (10) through the pop cycle (136) inclusive */
    CHECK_EQ_INT(s->cycles, 136 - 10 + 1);
    bench_free(&b);
}

TEST(dram_pop_not_before_due)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    struct mem_req *r = mkreq(&b, 0, 32);
    push(&b, r, 0, 1, 0);
    for (sim_cycle t = 0; t < 125; t++) {
        dram_cycle(b.d, t);
        CHECK(dram_pop_done(b.d, t) == NULL);
    }
    CHECK_EQ_INT(dram_next_event(b.d, 125), 126);
    dram_cycle(b.d, 125);
    CHECK(dram_pop_done(b.d, 125) == NULL);
    CHECK(dram_pop_done(b.d, 126) == r);
    CHECK(dram_pop_done(b.d, 127) == NULL);
    CHECK_EQ_INT(dram_next_event(b.d, 127), SIM_NEVER);
    bench_free(&b);
}

TEST(dram_row_hit_and_conflict_latency)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    sim_cycle done[16] = {0};
    struct mem_req *r0 = mkreq(&b, 0, 32);
    push(&b, r0, 5, 9, 0);
    run(&b, 0, 199, done, 16);
    /* row hit: only tCL + BC (+ return) */
    struct mem_req *r1 = mkreq(&b, 0, 32);
    push(&b, r1, 5, 9, 200);
    run(&b, 200, 399, done, 16);
    CHECK_CMD_AT(&b.log, r1->id, DC_RD, 0, 200);
    CHECK(find_cmd(&b.log, r1->id, DC_ACT, 0) == NULL);
    CHECK_EQ_INT(done[r1->id], 200 + 12 + 2 + 100);
    /* row conflict: PRE, then tRP to ACT, tRCD to RD */
    struct mem_req *r2 = mkreq(&b, 0, 32);
    push(&b, r2, 5, 10, 400);
    run(&b, 400, 700, done, 16);
    CHECK_CMD_AT(&b.log, r2->id, DC_PRE, 0, 400);
    CHECK_CMD_AT(&b.log, r2->id, DC_ACT, 0, 412);
    CHECK_CMD_AT(&b.log, r2->id, DC_RD, 0, 424);
    CHECK_EQ_INT(done[r2->id], 400 + 12 + 12 + 12 + 2 + 100);
    const struct dram_stats *s = dram_get_stats(b.d);
    CHECK_EQ_INT(s->row_hits, 1);
    CHECK_EQ_INT(s->row_misses, 2);
    CHECK_EQ_INT(s->precharges, 1);
    CHECK_EQ_INT(s->activates, 2);
    bench_free(&b);
}

TEST(dram_tras_delays_precharge)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    sim_cycle done[16] = {0};
    struct mem_req *r0 = mkreq(&b, 0, 32), *r1 = mkreq(&b, 0, 32);
    push(&b, r0, 2, 1, 0);
    push(&b, r1, 2, 2, 0);   /* conflict right behind: PRE waits for tRAS after the ACT */
    run(&b, 0, 300, done, 16);
    CHECK_CMD_AT(&b.log, r0->id, DC_ACT, 0, 0);
    CHECK_CMD_AT(&b.log, r0->id, DC_RD, 0, 12);
    CHECK_CMD_AT(&b.log, r1->id, DC_PRE, 0, 28);
    /* tRC (40) from the first ACT is later than PRE + tRP (40): equal here */
    CHECK_CMD_AT(&b.log, r1->id, DC_ACT, 0, 40);
    CHECK_CMD_AT(&b.log, r1->id, DC_RD, 0, 52);
    CHECK_EQ_INT(done[r1->id], 52 + 12 + 2 + 100);
    bench_free(&b);
}

TEST(dram_trc_binds_when_longer)
{
    /* tRC 50 > tRAS + tRP: the second ACT of a bank waits for tRC, not tRP */
    struct bench b;
    bench_init(&b, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=50:CL=12:WL=4:CDLR=5:WR=12", 1, 16);
    sim_cycle done[16] = {0};
    struct mem_req *r0 = mkreq(&b, 0, 32), *r1 = mkreq(&b, 0, 32);
    push(&b, r0, 2, 1, 0);
    push(&b, r1, 2, 2, 0);
    run(&b, 0, 300, done, 16);
    CHECK_CMD_AT(&b.log, r1->id, DC_PRE, 0, 28);
    CHECK_CMD_AT(&b.log, r1->id, DC_ACT, 0, 50);
    bench_free(&b);
}

TEST(dram_multi_burst_line)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    sim_cycle done[8] = {0};
    struct mem_req *r = mkreq(&b, 0, 128);   /* 4 bursts of 32 bytes */
    push(&b, r, 0, 0, 0);
    run(&b, 0, 300, done, 8);
    for (unsigned k = 0; k < 4; k++)
        CHECK_CMD_AT(&b.log, r->id, DC_RD, k, 12 + 2 * k);
    CHECK(find_cmd(&b.log, r->id, DC_RD, 4) == NULL);
    CHECK_EQ_INT(done[r->id], 18 + 12 + 2 + 100);
    CHECK_EQ_INT(dram_get_stats(b.d)->data_busy_cycles, 8);
    CHECK_EQ_INT(dram_get_stats(b.d)->reads, 1);
    bench_free(&b);
}

TEST(dram_lone_write)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    sim_cycle done[8] = {0};
    struct mem_req *w = mkreq(&b, 1, 32);
    push(&b, w, 1, 1, 0);
    run(&b, 0, 100, done, 8);
    CHECK_CMD_AT(&b.log, w->id, DC_ACT, 0, 0);
    CHECK_CMD_AT(&b.log, w->id, DC_WR, 0, 12);
    CHECK_EQ_INT(done[w->id], 12 + 4 + 2);   /* tWL + BC, no return latency */
    CHECK_EQ_INT(dram_get_stats(b.d)->writes, 1);
    bench_free(&b);
}

TEST(dram_write_to_read_turnaround)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    sim_cycle done[8] = {0};
    /* two banks opened first, then a WR on one and a RD on the other */
    struct mem_req *w = mkreq(&b, 1, 32), *r = mkreq(&b, 0, 32);
    push(&b, w, 0, 0, 0);
    push(&b, r, 1, 0, 0);
    run(&b, 0, 300, done, 8);
    CHECK_CMD_AT(&b.log, w->id, DC_ACT, 0, 0);
    CHECK_CMD_AT(&b.log, r->id, DC_ACT, 0, 6);    /* tRRD */
    CHECK_CMD_AT(&b.log, w->id, DC_WR, 0, 12);
    CHECK_CMD_AT(&b.log, r->id, DC_RD, 0, 12 + 4 + 2 + 5);   /* tWL + BC + tCDLR */
    bench_free(&b);
}

TEST(dram_read_to_write_turnaround)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    sim_cycle done[8] = {0};
    struct mem_req *r = mkreq(&b, 0, 32), *w = mkreq(&b, 1, 32);
    push(&b, r, 0, 0, 0);
    push(&b, w, 1, 0, 0);
    run(&b, 0, 300, done, 8);
    CHECK_CMD_AT(&b.log, r->id, DC_RD, 0, 12);
    CHECK_CMD_AT(&b.log, w->id, DC_WR, 0, 12 + (12 + 2 + 1 - 4));   /* tCL + BC + 1 - tWL */
    bench_free(&b);
}

/* An older row miss and a younger row hit to the same bank, queued together. */
static void hit_vs_miss(unsigned sched, sim_cycle *t_miss, sim_cycle *t_hit)
{
    struct bench b;
    bench_init(&b, T_BASE, sched, 16);
    sim_cycle done[16] = {0};
    struct mem_req *r0 = mkreq(&b, 0, 32);
    push(&b, r0, 4, 1, 0);
    run(&b, 0, 199, done, 16);
    struct mem_req *miss = mkreq(&b, 0, 32), *hit = mkreq(&b, 0, 32);
    push(&b, miss, 4, 2, 200);
    push(&b, hit, 4, 1, 200);
    run(&b, 200, 600, done, 16);
    *t_miss = done[miss->id];
    *t_hit = done[hit->id];
    bench_free(&b);
}

TEST(dram_frfcfs_serves_younger_hit_first)
{
    sim_cycle tm, th;
    hit_vs_miss(1, &tm, &th);
    CHECK_EQ_INT(th, 200 + 12 + 2 + 100);
    /* the miss precharges after the hit's read-to-precharge gap (BC) */
    CHECK_EQ_INT(tm, 200 + 2 + 12 + 12 + 12 + 2 + 100);
    CHECK(th < tm);
}

TEST(dram_fifo_serves_in_order)
{
    sim_cycle tm, th;
    hit_vs_miss(0, &tm, &th);
    CHECK_EQ_INT(tm, 200 + 12 + 12 + 12 + 2 + 100);
    /* the younger request lost its row: PRE (after tRAS), ACT, RD */
    CHECK(th > tm);
    CHECK_EQ_INT(th, (212 + 28) + 12 + 12 + 12 + 2 + 100);
}

TEST(dram_queue_full)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 4);
    for (unsigned i = 0; i < 4; i++) {
        CHECK(!dram_full(b.d));
        push(&b, mkreq(&b, 0, 32), i, 0, 0);
    }
    CHECK(dram_full(b.d));
    CHECK_EQ_INT(dram_queue_len(b.d), 4);
    dram_note_full(b.d);
    CHECK_EQ_INT(dram_get_stats(b.d)->queue_full_stalls, 1);
    /* the first request leaves the queue with its column command at 12 */
    for (sim_cycle t = 0; t < 12; t++) {
        dram_cycle(b.d, t);
        CHECK(dram_full(b.d));
    }
    dram_cycle(b.d, 12);
    CHECK(!dram_full(b.d));
    CHECK_EQ_INT(dram_queue_len(b.d), 3);
    bench_free(&b);
}

TEST(dram_sub_partition_routing)
{
    struct bench b;
    memset(&b, 0, sizeof b);
    b.a = arena_new(0);
    cfg_make(&b.g, T_BASE, 1, 16);
    b.g.n_sub_partition_per_mchannel = 2;
    b.d = dram_new(b.a, &b.g, 1);
    mem_req_pool_init(&b.pool, b.a, 16);
    struct mem_req *r0 = mkreq(&b, 0, 32), *r1 = mkreq(&b, 0, 32);
    r0->partition = 2;   /* channel 1, sub 0 */
    r1->partition = 3;   /* channel 1, sub 1 */
    push(&b, r0, 0, 0, 0);
    push(&b, r1, 1, 0, 0);
    for (sim_cycle t = 0; t < 200; t++)
        dram_cycle(b.d, t);
    CHECK(dram_pop_done_sub(b.d, 0, 200) == r0);
    CHECK(dram_pop_done_sub(b.d, 0, 200) == NULL);
    CHECK(dram_pop_done_sub(b.d, 1, 200) == r1);
    CHECK(dram_pop_done(b.d, 200) == NULL);
    bench_free(&b);
}

TEST(dram_stats_registered)
{
    struct bench b;
    bench_init(&b, T_BASE, 1, 16);
    struct stats st;
    stats_init(&st, b.a);
    dram_reg_stats(b.d, &st, "part0.dram");
    push(&b, mkreq(&b, 0, 64), 0, 0, 0);
    sim_cycle done[4];
    run(&b, 0, 200, done, 4);
    CHECK_EQ_INT(stats_sum(&st, "part0.dram.row_misses", ""), 1);
    CHECK_EQ_INT(stats_sum(&st, "part0.dram.data_busy_cycles", ""), 4);
    CHECK_EQ_INT(stats_sum(&st, "part0.dram.reads", ""), 1);
    bench_free(&b);
}

/* ---- random streams: every constraint over the whole trace ---- */

struct stream_req {
    sim_cycle arrive;
    unsigned bank, row, size;
    int write;
};

static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

struct stream_result {
    sim_cycle done[1024];
    unsigned ndone, ncol;
    uint64_t busy, total, cycles, rowhits, qlat;
};

/* Feed `n` requests; with `skip` jump between events using dram_next_event. */
static void run_stream(struct bench *b, const struct stream_req *s, unsigned n, int skip, struct stream_result *res,
                       uint32_t *ids)
{
    memset(res, 0, sizeof *res);
    unsigned next = 0;
    sim_cycle t = 0;
    for (unsigned guard = 0; guard < 2000000; guard++) {
        while (next < n && s[next].arrive <= t && !dram_full(b->d)) {
            struct mem_req *r = mkreq(b, s[next].write, s[next].size);
            ids[next] = r->id;
            push(b, r, s[next].bank, s[next].row, t);
            next++;
        }
        dram_cycle(b->d, t);
        struct mem_req *r;
        while ((r = dram_pop_done(b->d, t)) != NULL) {
            for (unsigned i = 0; i < n; i++)
                if (ids[i] == r->id)
                    res->done[i] = t;
            res->ndone++;
            mem_req_free(&b->pool, r);
        }
        if (next == n && res->ndone == n)
            break;
        sim_cycle nt = t + 1;
        if (skip) {
            nt = dram_next_event(b->d, t + 1);
            if (next < n && !dram_full(b->d))
                nt = sim_min(nt, sim_max(s[next].arrive, t + 1));
            if (nt == SIM_NEVER)
                break;
        }
        t = nt;
    }
    const struct dram_stats *st = dram_get_stats(b->d);
    res->busy = st->data_busy_cycles;
    res->total = st->total_cycles;
    res->cycles = st->cycles;
    res->rowhits = st->row_hits;
    res->qlat = st->queue_lat_sum;
}

struct tparams {
    unsigned tCCD, tCCDL, tRRD, tRCD, tRAS, tRP, tRC, tCL, tWL, tCDLR, tWR, rtp, bc, nbk, grp;
};

/* Every pairwise constraint of the command trace (O(n^2) over all pairs). */
static unsigned check_trace(const struct cmd_log *l, const struct tparams *p, const struct stream_req *s,
                            const uint32_t *ids, unsigned n)
{
    unsigned bad = 0;
#define VIOL(...)                                                   \
    do {                                                            \
        if (bad++ < 10) {                                           \
            fprintf(stderr, "  violation: " __VA_ARGS__);           \
            fputc('\n', stderr);                                    \
        }                                                           \
    } while (0)
    /* bank state machine and request targeting */
    int open[64];
    unsigned orow[64];
    for (unsigned k = 0; k < 64; k++)
        open[k] = 0, orow[k] = 0;
    for (unsigned i = 0; i < l->n; i++) {
        const struct cmd_rec *c = &l->v[i];
        if (i && c->t <= l->v[i - 1].t)
            VIOL("two commands in cycle %llu", (unsigned long long)c->t);
        unsigned rq = n;
        for (unsigned k = 0; k < n; k++)
            if (ids[k] == c->id)
                rq = k;
        if (rq == n) {
            VIOL("command for unknown request %u", c->id);
            continue;
        }
        if (c->bank != s[rq].bank)
            VIOL("command to bank %u for a request of bank %u", c->bank, s[rq].bank);
        switch (c->cmd) {
        case DC_ACT:
            if (open[c->bank])
                VIOL("ACT to open bank %u at %llu", c->bank, (unsigned long long)c->t);
            open[c->bank] = 1;
            orow[c->bank] = c->row;
            if (c->row != s[rq].row)
                VIOL("ACT of a row the request does not want");
            break;
        case DC_PRE:
            if (!open[c->bank])
                VIOL("PRE to closed bank %u", c->bank);
            open[c->bank] = 0;
            break;
        default:
            if (!open[c->bank] || orow[c->bank] != s[rq].row)
                VIOL("column command to bank %u without its row open at %llu", c->bank, (unsigned long long)c->t);
            if ((c->cmd == DC_WR) != s[rq].write)
                VIOL("column command direction");
            break;
        }
    }
    /* pairwise minimum gaps */
    for (unsigned i = 0; i < l->n; i++) {
        const struct cmd_rec *a = &l->v[i];
        for (unsigned j = i + 1; j < l->n; j++) {
            const struct cmd_rec *b = &l->v[j];
            uint64_t gap = b->t - a->t;
            int same = a->bank == b->bank;
            int acol = a->cmd == DC_RD || a->cmd == DC_WR, bcol = b->cmd == DC_RD || b->cmd == DC_WR;
            int samegrp = p->grp > 1 && a->bank / (p->nbk / p->grp) == b->bank / (p->nbk / p->grp);
            unsigned need = 0;
            const char *what = NULL;
#define NEED(cond, v, name)                  \
            if ((cond) && (v) > need) {      \
                need = (v);                  \
                what = name;                 \
            }
            NEED(a->cmd == DC_ACT && b->cmd == DC_ACT, p->tRRD, "tRRD");
            NEED(same && a->cmd == DC_ACT && b->cmd == DC_ACT, p->tRC, "tRC");
            NEED(same && a->cmd == DC_ACT && b->cmd == DC_PRE, p->tRAS, "tRAS");
            NEED(same && a->cmd == DC_PRE && b->cmd == DC_ACT, p->tRP, "tRP");
            NEED(same && a->cmd == DC_ACT && bcol, p->tRCD, "tRCD");
            NEED(acol && bcol, p->tCCD, "tCCD");
            NEED(acol && bcol && samegrp, p->tCCDL, "tCCDL");
            NEED(a->cmd == DC_WR && b->cmd == DC_RD, p->tWL + p->bc + p->tCDLR, "tWTR");
            NEED(a->cmd == DC_RD && b->cmd == DC_WR, p->tCL + p->bc + 1 - p->tWL, "tRTW");
            NEED(same && a->cmd == DC_WR && b->cmd == DC_PRE, p->tWL + p->bc + p->tWR, "tWR");
            NEED(same && a->cmd == DC_RD && b->cmd == DC_PRE, p->rtp, "tRTP");
#undef NEED
            if (gap < need)
                VIOL("%s: cmd %d bank %u at %llu then cmd %d bank %u at %llu (gap %llu < %u)", what, a->cmd,
                     a->bank, (unsigned long long)a->t, b->cmd, b->bank, (unsigned long long)b->t,
                     (unsigned long long)gap, need);
            if (gap > 200)
                break;   /* every gap constraint is far smaller */
        }
    }
    /* data bus: bursts in issue order must not overlap */
    sim_cycle bus_end = 0;
    for (unsigned i = 0; i < l->n; i++) {
        const struct cmd_rec *c = &l->v[i];
        if (c->cmd != DC_RD && c->cmd != DC_WR)
            continue;
        sim_cycle st = c->t + (c->cmd == DC_RD ? p->tCL : p->tWL);
        if (st < bus_end)
            VIOL("data bus overlap at %llu", (unsigned long long)st);
        bus_end = st + p->bc;
    }
#undef VIOL
    return bad;
}

static void gen_stream(struct stream_req *s, unsigned n, uint64_t seed, unsigned nbk, unsigned rows, unsigned gapmax)
{
    sim_cycle t = 0;
    for (unsigned i = 0; i < n; i++) {
        t += lcg(&seed) % gapmax;
        s[i].arrive = t;
        s[i].bank = lcg(&seed) % nbk;
        s[i].row = lcg(&seed) % rows;
        s[i].size = 32u * (1 + lcg(&seed) % 4);
        s[i].write = lcg(&seed) % 3 == 0;
    }
}

static void stress(const char *timing, unsigned ratio, unsigned sched, uint64_t seed, const struct tparams *p)
{
    enum { N = 600 };
    static struct stream_req s[N];
    static uint32_t ids[N], ids2[N];
    static struct stream_result r1, r2;
    gen_stream(s, N, seed, p->nbk, 3, 12);

    struct bench b, b2;
    bench_init(&b, timing, sched, 12);
    b.g.dram_data_command_freq_ratio = ratio;
    b.d = dram_new(b.a, &b.g, 0);
    dram_set_cmd_hook(b.d, log_hook, &b.log);
    run_stream(&b, s, N, 0, &r1, ids);
    CHECK_EQ_INT(r1.ndone, N);
    CHECK_EQ_INT(check_trace(&b.log, p, s, ids, N), 0);

    /* exactly ceil(size / 32) column commands per request, each completion at
       its last column command + (tCL + BC + dram_return_latency | tWL + BC) */
    unsigned ncol = 0;
    for (unsigned i = 0; i < N; i++) {
        unsigned k = 0;
        sim_cycle last = 0;
        for (unsigned j = 0; j < b.log.n; j++)
            if (b.log.v[j].id == ids[i] && (b.log.v[j].cmd == DC_RD || b.log.v[j].cmd == DC_WR)) {
                k++;
                last = b.log.v[j].t;
            }
        ncol += k;
        CHECK_EQ_INT(k, s[i].size / 32);
        sim_cycle due = last + (s[i].write ? p->tWL + p->bc : p->tCL + p->bc + 100);
        CHECK_EQ_INT(r1.done[i], due);
        if (k != s[i].size / 32 || r1.done[i] != due)
            break;
    }
    /* bandwidth: bus busy exactly BC per column command, never above the peak */
    CHECK_EQ_INT(r1.busy, (uint64_t)ncol * p->bc);
    CHECK(r1.busy <= r1.total);

    /* idle skipping through dram_next_event reproduces the trace exactly */
    bench_init(&b2, timing, sched, 12);
    b2.g.dram_data_command_freq_ratio = ratio;
    b2.d = dram_new(b2.a, &b2.g, 0);
    dram_set_cmd_hook(b2.d, log_hook, &b2.log);
    run_stream(&b2, s, N, 1, &r2, ids2);
    CHECK_EQ_INT(r2.ndone, N);
    CHECK_EQ_INT(b2.log.n, b.log.n);
    unsigned diff = 0;
    for (unsigned i = 0; i < b.log.n && i < b2.log.n; i++)
        if (b.log.v[i].t != b2.log.v[i].t || b.log.v[i].cmd != b2.log.v[i].cmd ||
            b.log.v[i].bank != b2.log.v[i].bank)
            diff++;
    CHECK_EQ_INT(diff, 0);
    CHECK_EQ_INT(r2.cycles, r1.cycles);
    CHECK_EQ_INT(r2.rowhits, r1.rowhits);
    CHECK_EQ_INT(r2.qlat, r1.qlat);
    CHECK_EQ_INT(r2.busy, r1.busy);
    for (unsigned i = 0; i < N; i++)
        if (r1.done[i] != r2.done[i]) {
            CHECK_EQ_INT(r2.done[i], r1.done[i]);
            break;
        }
    bench_free(&b);
    bench_free(&b2);
}

static const struct tparams P_BASE = {2, 0, 6, 12, 28, 12, 40, 12, 4, 5, 12, 2, 2, 16, 1};

TEST(dram_stress_frfcfs_all_constraints)
{
    stress(T_BASE, 4, 1, 1, &P_BASE);
    stress(T_BASE, 4, 1, 77, &P_BASE);
}

TEST(dram_stress_fifo_all_constraints) { stress(T_BASE, 4, 0, 5, &P_BASE); }

TEST(dram_stress_long_trc)
{
    const struct tparams p = {2, 0, 6, 12, 28, 12, 50, 12, 4, 5, 12, 2, 2, 16, 1};
    stress("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=50:CL=12:WL=4:CDLR=5:WR=12", 4, 1, 11, &p);
}

TEST(dram_stress_long_tccd)
{
    /* tCCD 4 > BC 2: tCCD, not the data bus, spaces the column commands */
    const struct tparams p = {4, 0, 6, 12, 28, 12, 40, 12, 4, 5, 12, 2, 2, 16, 1};
    stress("nbk=16:CCD=4:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12", 4, 1, 21, &p);
}

TEST(dram_stress_bank_groups)
{
    const struct tparams p = {2, 3, 6, 12, 28, 12, 40, 12, 4, 5, 12, 4, 2, 16, 4};
    stress(T_BASE ":nbkgrp=4:CCDL=3:RTPL=4", 4, 1, 9, &p);
}

TEST(dram_stress_long_bursts)
{
    /* data_command_freq_ratio 2: a burst holds the bus 4 cycles > tCCD, so
       the data bus, not tCCD, spaces the column commands */
    const struct tparams p = {2, 0, 6, 12, 28, 12, 40, 12, 4, 5, 12, 4, 4, 16, 1};
    stress(T_BASE, 2, 1, 3, &p);
}

TEST(dram_saturated_bus_peak)
{
    /* row hits back to back in one bank: the bus is busy every cycle after the
       first burst, and no more */
    struct bench b;
    bench_init(&b, T_BASE, 1, 64);
    for (unsigned i = 0; i < 32; i++)
        push(&b, mkreq(&b, 0, 128), 0, 0, 0);
    sim_cycle done[64] = {0};
    run(&b, 0, 1000, done, 64);
    const struct dram_stats *s = dram_get_stats(b.d);
    CHECK_EQ_INT(s->data_busy_cycles, 32 * 4 * 2);
    /* first RD at 12, 128 bursts spaced by 2: last RD at 12 + 254 */
    CHECK_CMD_AT(&b.log, 32, DC_RD, 3, 12 + 254);
    CHECK_EQ_INT(s->row_hits, 31);
    CHECK(s->data_busy_cycles <= s->total_cycles);
    bench_free(&b);
}

TEST_MAIN()
