/*
 * test_partition.c - memory sub-partition: L2 slice + DRAM path
 * (mem/partition.h), with the real cache and DRAM channel.
 *
 * Harness: all clocks equal; each step simulates one cycle t in reverse
 * pipeline order (dram_cycle, partition_cycle_dram, partition_cycle_l2, then
 * the "interconnect" takes replies at core cycle t).  send() pushes a request
 * with now_core = the next cycle to simulate, so its L2 lookup happens in that
 * cycle.  Timeline of a request sent before cycle T:
 *   L2 hit   lookup T, reply visible at T + l2_hit_latency
 *   L2 miss  lookup T, fill request enters the DRAM queue at T+1, ACT at T+2,
 *            RD at T+2+tRCD (+ tCCD per further burst), data done tCL + BC
 *            after the last RD, + dram_return_latency, then fill and reply that cycle.
 * GPGPU-Sim's ROP and DRAM latency queues (-gpgpu_l2_rop_latency,
 * -dram_latency, core cycles) are off unless a test turns them on (lat_init).
 */
#include <string.h>

#include "core/arena.h"
#include "core/stats.h"
#include "mem/addr_map.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/mem_req.h"
#include "mem/partition.h"
#include "test.h"

#define MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS"
#define ROP 10
#define DLAT 100
/* lone line miss, closed bank: see the header comment (4 bursts of 32 bytes) */
#define MISS_LAT (2 + 12 + 3 * 2 + 12 + 2 + DLAT)

#define MAXID 4096

struct sys {
    struct arena *a;
    struct gpu_config g;
    struct addr_map map;
    struct mem_req_pool pool;
    struct dram_channel *d;
    struct mem_partition *p;
    sim_cycle t;            /* next cycle to simulate */
    int hold_replies;
    int gated;              /* tick only what the partition publishes as busy (partition_publish_busy) */
    uint8_t busy;
    uint64_t skipped_l2, skipped_dram;
    sim_cycle reply_at[MAXID];
    unsigned reply_count[MAXID];
    unsigned nreplies;
    uint8_t reply_hit[MAXID];
};

static void sys_init(struct sys *s, const char *l2, unsigned l2_queue, unsigned dram_q, unsigned ret_q)
{
    memset(s, 0, sizeof *s);
    s->a = arena_new(0);
    struct gpu_config *g = &s->g;
    char msg[256];
    unsigned col = 0;
    dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12", &g->dram, msg,
                      sizeof msg, &col);
    g->dram_buswidth = 4;
    g->dram_burst_length = 8;
    g->dram_data_command_freq_ratio = 4;
    g->dram_return_latency = DLAT;
    g->frfcfs_queue_size = dram_q;
    g->dram_scheduler = 1;
    g->dram_return_queue_size = ret_q;
    g->n_mem = 1;
    g->n_sub_partition_per_mchannel = 1;
    g->n_sub_partitions = 1;
    g->cache_dl2 = l2;
    g->l2_hit_latency = ROP;
    g->l2_queue = l2_queue;
    addr_map_parse(&s->map, MAP, 1, 1, 16, msg, sizeof msg, &col);
    mem_req_pool_init(&s->pool, s->a, 64);
    s->d = dram_new(s->a, g, 0);
    s->p = partition_new(s->a, g, 0, s->d, &s->map, &s->pool);
}

static void sys_free(struct sys *s) { arena_free(s->a); }

/* sys_init with GPGPU-Sim's latency queues on: rop and dram core cycles, the
   core clock `ratio` times slower than L2 and DRAM (which step together). */
static void lat_init(struct sys *s, unsigned rop, unsigned dram, unsigned ratio)
{
    sys_init(s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    s->g.l2_rop_latency = rop;
    s->g.dram_latency = dram;
    s->g.ps_core = 1000 * (sim_ps)ratio;
    s->g.ps_l2 = 1000;
    s->g.ps_dram = 1000;
    s->d = dram_new(s->a, &s->g, 0);
    s->p = partition_new(s->a, &s->g, 0, s->d, &s->map, &s->pool);
}

/* push at the current L2 cycle, stamped with the core cycle of that instant */
static struct mem_req *send_core_src(struct sys *s, enum mem_req_type type, uint64_t addr, unsigned ratio,
                                     enum mem_req_source src)
{
    struct mem_req *r = mem_req_alloc(&s->pool);
    r->source = (uint8_t)src;
    r->type = (uint8_t)type;
    r->addr = addr;
    r->size = 128;
    r->sector_mask = 0xf;
    CHECK(!partition_full(s->p));
    CHECK_EQ_INT(s->t % ratio, 0);
    partition_push(s->p, r, s->t / ratio);
    return r;
}

static struct mem_req *send_core(struct sys *s, enum mem_req_type type, uint64_t addr, unsigned ratio)
{
    return send_core_src(s, type, addr, ratio, MRS_L1D);
}

static void step(struct sys *s)
{
    sim_cycle t = s->t;
    if (s->gated) {   /* as the GPU's run loop does */
        partition_check_busy(s->p);
        if (s->busy & PART_BUSY_DRAM) {
            dram_cycle(s->d, t);
            partition_cycle_dram(s->p, t);
        } else {
            dram_cycle_idle(&s->d, 1, t);
            s->skipped_dram++;
        }
        if (s->busy & PART_BUSY_L2)
            partition_cycle_l2(s->p, t);
        else
            s->skipped_l2++;
    } else {
        dram_cycle(s->d, t);
        partition_cycle_dram(s->p, t);
        partition_cycle_l2(s->p, t);
    }
    if (!s->hold_replies) {
        struct mem_req *r;
        while ((r = partition_peek_reply(s->p, t)) != NULL) {
            partition_pop_reply(s->p);
            CHECK(r->is_reply);
            CHECK_EQ_INT(r->t_reply, t);
            if (r->id < MAXID) {
                s->reply_at[r->id] = t;
                s->reply_count[r->id]++;
                s->reply_hit[r->id] = r->l2_hit;
            }
            s->nreplies++;
            mem_req_free(&s->pool, r);
        }
    }
    s->t++;
}

static void steps(struct sys *s, unsigned n)
{
    while (n--)
        step(s);
}

static struct mem_req *send(struct sys *s, enum mem_req_type type, uint64_t addr)
{
    struct mem_req *r = mem_req_alloc(&s->pool);
    r->type = (uint8_t)type;
    r->addr = addr;
    r->size = 128;
    r->sector_mask = 0xf;
    CHECK(!partition_full(s->p));
    partition_push(s->p, r, s->t);
    return r;
}

TEST(partition_miss_goes_to_dram_and_fills)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    REQUIRE(s.p != NULL);
    sim_cycle t0 = s.t;
    struct mem_req *r = send(&s, MRT_READ, 0x1000);
    uint32_t id = r->id;
    steps(&s, 300);
    CHECK_EQ_INT(s.reply_count[id], 1);
    CHECK_EQ_INT(s.reply_at[id], t0 + MISS_LAT);
    CHECK_EQ_INT(s.reply_hit[id], 0);
    CHECK(cache_probe(partition_l2(s.p), 0x1000));
    const struct partition_stats *ps = partition_get_stats(s.p);
    CHECK_EQ_INT(ps->l2_reads, 1);
    CHECK_EQ_INT(ps->l2_read_misses, 1);
    CHECK_EQ_INT(ps->requests, 1);
    CHECK_EQ_INT(ps->replies, 1);
    CHECK_EQ_INT(dram_get_stats(s.d)->reads, 1);
    CHECK(!partition_busy(s.p));
    CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);   /* the fill request was freed too */
    sys_free(&s);
}

TEST(partition_l2_hit_latency_is_rop_latency)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    send(&s, MRT_READ, 0x1000);
    steps(&s, 300);
    sim_cycle t0 = s.t;
    struct mem_req *r = send(&s, MRT_READ, 0x1000);
    uint32_t id = r->id;
    steps(&s, ROP);
    CHECK_EQ_INT(s.reply_count[id], 0);   /* not one cycle early */
    steps(&s, 1);
    CHECK_EQ_INT(s.reply_count[id], 1);
    CHECK_EQ_INT(s.reply_at[id], t0 + ROP);
    CHECK_EQ_INT(s.reply_hit[id], 1);
    CHECK_EQ_INT(partition_get_stats(s.p)->l2_read_hits, 1);
    CHECK_EQ_INT(dram_get_stats(s.d)->reads, 1);   /* the hit did not go to DRAM */
    sys_free(&s);
}

/* -gpgpu_l2_rop_latency: every request waits R core cycles before the L2.  A
   hit pushed at core cycle c (L2 cycle 3c) enters the input queue at the L2
   edge of time 3(c + R) and is looked up at the next one: its reply comes
   3R + 1 L2 cycles later than without the queue. */
TEST(partition_rop_latency_counts_core_cycles)
{
    enum { R = 7, RATIO = 3 };
    for (unsigned ratio = 1; ratio <= RATIO; ratio += RATIO - 1) {
        struct sys s;
        lat_init(&s, R, 0, ratio);
        REQUIRE(s.p != NULL);
        while (s.t % ratio)
            step(&s);
        send_core(&s, MRT_READ, 0x1000, ratio);
        steps(&s, 300 * ratio);
        while (s.t % ratio)
            step(&s);
        sim_cycle t0 = s.t;
        struct mem_req *r = send_core(&s, MRT_READ, 0x1000, ratio);
        uint32_t id = r->id;
        steps(&s, R * ratio + 1 + ROP);
        CHECK_EQ_INT(s.reply_count[id], 0);   /* not one cycle early */
        steps(&s, 1);
        CHECK_EQ_INT(s.reply_count[id], 1);
        CHECK_EQ_INT(s.reply_at[id], t0 + R * ratio + 1 + ROP);
        CHECK_EQ_INT(s.reply_hit[id], 1);
        /* a texture-cache read skips the ROP queue (as in GPGPU-Sim) */
        while (s.t % ratio)
            step(&s);
        sim_cycle t1 = s.t;
        r = send_core_src(&s, MRT_READ, 0x1000, ratio, MRS_L1T);
        id = r->id;
        steps(&s, ROP + 1);
        CHECK_EQ_INT(s.reply_count[id], 1);
        CHECK_EQ_INT(s.reply_at[id], t1 + ROP);
        CHECK(!partition_busy(s.p));
        CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);
        sys_free(&s);
    }
}

/* -dram_latency: every request the L2 sends to DRAM waits D core cycles
   before the DRAM scheduler; a lone miss replies D core cycles (3D DRAM
   cycles here) later than without the queue, a hit is not delayed. */
TEST(partition_dram_latency_queue_counts_core_cycles)
{
    enum { D = 11, RATIO = 3 };
    for (unsigned ratio = 1; ratio <= RATIO; ratio += RATIO - 1) {
        struct sys s;
        lat_init(&s, 0, D, ratio);
        REQUIRE(s.p != NULL);
        sim_cycle t0 = s.t;
        struct mem_req *r = send_core(&s, MRT_READ, 0x1000, ratio);
        uint32_t id = r->id;
        steps(&s, MISS_LAT + D * ratio - 1);
        CHECK_EQ_INT(s.reply_count[id], 0);
        steps(&s, 400);
        CHECK_EQ_INT(s.reply_count[id], 1);
        CHECK_EQ_INT(s.reply_at[id], t0 + MISS_LAT + D * ratio);
        while (s.t % ratio)
            step(&s);
        sim_cycle t1 = s.t;
        r = send_core(&s, MRT_READ, 0x1000, ratio);
        id = r->id;
        steps(&s, ROP + 1);
        CHECK_EQ_INT(s.reply_at[id], t1 + ROP);
        CHECK(!partition_busy(s.p));
        CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);
        sys_free(&s);
    }
}

TEST(partition_merged_misses_one_dram_read)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    sim_cycle t0 = s.t;
    uint32_t a = send(&s, MRT_READ, 0x2000)->id;
    uint32_t b = send(&s, MRT_READ, 0x2000)->id;   /* same line, looked up one cycle later */
    steps(&s, 400);
    CHECK_EQ_INT(dram_get_stats(s.d)->reads, 1);
    CHECK_EQ_INT(s.reply_count[a], 1);
    CHECK_EQ_INT(s.reply_count[b], 1);
    /* both woken by the one fill; one reply per L2 cycle */
    CHECK_EQ_INT(s.reply_at[a], t0 + MISS_LAT);
    CHECK_EQ_INT(s.reply_at[b], t0 + MISS_LAT + 1);
    CHECK_EQ_INT(cache_stats(partition_l2(s.p))->hit_reserved, 1);
    CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);
    sys_free(&s);
}

TEST(partition_writeback_eviction_becomes_dram_write)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    /* 4 sets x 2 ways, linear index: lines 0, 512, 1024 share set 0 */
    send(&s, MRT_WRITE, 0);
    send(&s, MRT_WRITE, 512);
    steps(&s, 400);
    CHECK_EQ_INT(s.nreplies, 0);                    /* writes get no reply */
    CHECK_EQ_INT(dram_get_stats(s.d)->writes, 0);   /* absorbed by the write-back L2 */
    CHECK_EQ_INT(partition_get_stats(s.p)->l2_writes, 2);
    uint32_t r = send(&s, MRT_READ, 1024)->id;
    steps(&s, 400);
    CHECK_EQ_INT(s.reply_count[r], 1);
    CHECK_EQ_INT(dram_get_stats(s.d)->writes, 1);   /* dirty line 0 written back */
    CHECK(!cache_probe(partition_l2(s.p), 0));
    CHECK_EQ_INT(cache_stats(partition_l2(s.p))->dirty_evictions, 1);
    CHECK(!partition_busy(s.p));
    CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);   /* write-back request freed after DRAM */
    sys_free(&s);
}

TEST(partition_write_hit_absorbed)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    send(&s, MRT_READ, 0x3000);
    steps(&s, 300);
    uint64_t retired = s.pool.retired;
    send(&s, MRT_WRITE, 0x3000);
    steps(&s, 1);
    CHECK_EQ_INT(s.pool.retired, retired + 1);   /* freed at its lookup */
    CHECK_EQ_INT(partition_get_stats(s.p)->l2_write_misses, 0);
    steps(&s, 300);
    CHECK_EQ_INT(dram_get_stats(s.d)->writes, 0);
    CHECK_EQ_INT(s.nreplies, 1);
    sys_free(&s);
}

TEST(partition_atomic_replies_and_dirties)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    sim_cycle t0 = s.t;
    uint32_t a = send(&s, MRT_ATOMIC, 0)->id;
    steps(&s, 300);
    CHECK_EQ_INT(s.reply_count[a], 1);
    CHECK_EQ_INT(s.reply_at[a], t0 + MISS_LAT);
    CHECK_EQ_INT(partition_get_stats(s.p)->l2_atomics, 1);
    sim_cycle t1 = s.t;
    uint32_t b = send(&s, MRT_ATOMIC, 0)->id;   /* hit now */
    steps(&s, 50);
    CHECK_EQ_INT(s.reply_at[b], t1 + ROP);
    /* the line is dirty: evicting it writes it back */
    send(&s, MRT_READ, 512);
    send(&s, MRT_READ, 1024);
    steps(&s, 600);
    CHECK_EQ_INT(dram_get_stats(s.d)->writes, 1);
    CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);
    sys_free(&s);
}

TEST(partition_full_reply_queue_blocks)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    send(&s, MRT_READ, 0x1000);
    steps(&s, 300);
    s.hold_replies = 1;
    unsigned sent = 0;
    for (unsigned i = 0; i < 40; i++) {
        if (!partition_full(s.p)) {
            send(&s, MRT_READ, 0x1000);
            sent++;
        }
        step(&s);
    }
    const struct partition_stats *ps = partition_get_stats(s.p);
    /* 4 replies fill the reply queue, 4 requests wait in the input queue, the
       rest of the hits sit in the ROP queue behind the blocked output */
    CHECK(partition_full(s.p));
    CHECK(ps->reply_stall > 0);
    uint64_t stalls = ps->reply_stall;
    step(&s);
    CHECK_EQ_INT(ps->reply_stall, stalls + 1);   /* one per L2 cycle while full */
    CHECK_EQ_INT(s.nreplies, 1);   /* only the warm-up miss */
    /* exact: one hit looked up per cycle from the first send (cycle T); its
       reply enters the reply queue at T + ROP; the queue (4) is full after
       T + ROP + 3, so lookups T..T+ROP+3 happened, then the input queue (4)
       filled: ROP + 4 + 4 requests accepted, ROP + 4 looked up (+1 warm-up) */
    CHECK_EQ_INT(sent, ROP + 4 + 4);
    CHECK_EQ_INT(ps->l2_reads, 1 + ROP + 4);
    s.hold_replies = 0;
    steps(&s, 200);
    CHECK_EQ_INT(s.nreplies, sent + 1);
    CHECK_EQ_INT(ps->replies, sent + 1);
    CHECK(!partition_busy(s.p));
    CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);
    sys_free(&s);
}

TEST(partition_full_dram_queue_counts_dram_stall)
{
    struct sys s;
    /* 2-entry DRAM scheduler queue, 4-entry L2->DRAM queue; misses to one bank
       in different rows keep the DRAM slow */
    sys_init(&s, "64:128:16,L:B:m:W:L,A:64:4,4", 4, 2, 8);
    unsigned sent = 0;
    for (unsigned i = 0; i < 200; i++) {
        if (!partition_full(s.p) && sent < 24) {
            /* row bits start at 15 with 1 channel: one new row per request, bank 0 */
            send(&s, MRT_READ, (uint64_t)(sent + 1) << 15);
            sent++;
        }
        step(&s);
    }
    const struct partition_stats *ps = partition_get_stats(s.p);
    CHECK(ps->dram_stall > 0);
    CHECK(dram_get_stats(s.d)->queue_full_stalls > 0);
    steps(&s, 3000);
    CHECK_EQ_INT(s.nreplies, sent);
    CHECK_EQ_INT(dram_get_stats(s.d)->row_misses, sent);
    CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);
    sys_free(&s);
}

static uint32_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*x >> 33);
}

TEST(partition_every_request_answered_once)
{
    struct sys s;
    sys_init(&s, "8:128:4,L:B:m:W:L,A:8:2,4", 4, 2, 4);
    uint64_t seed = 12345;
    unsigned sent = 0, want_replies = 0, writes = 0;
    uint32_t ids[1500];
    uint8_t type[1500];
    for (unsigned i = 0; i < 400000 && sent < 1500; i++) {
        s.hold_replies = (i / 64) % 3 == 0;   /* the network stalls for stretches */
        if (lcg(&seed) % 2 && !partition_full(s.p)) {
            unsigned k = lcg(&seed) % 10;
            enum mem_req_type ty = k < 6 ? MRT_READ : k < 9 ? MRT_WRITE : MRT_ATOMIC;
            uint64_t addr = (uint64_t)(lcg(&seed) % 96) * 128 + ((uint64_t)(lcg(&seed) % 4) << 16);
            struct mem_req *r = send(&s, ty, addr);
            ids[sent] = r->id;
            type[sent] = (uint8_t)ty;
            sent++;
            if (ty == MRT_WRITE)
                writes++;
            else
                want_replies++;
        }
        step(&s);
    }
    s.hold_replies = 0;
    steps(&s, 5000);
    CHECK_EQ_INT(sent, 1500);
    CHECK_EQ_INT(s.nreplies, want_replies);
    unsigned bad = 0;
    for (unsigned i = 0; i < sent; i++)
        if (s.reply_count[ids[i]] != (type[i] == MRT_WRITE ? 0u : 1u))
            bad++;
    CHECK_EQ_INT(bad, 0);
    const struct partition_stats *ps = partition_get_stats(s.p);
    CHECK_EQ_INT(ps->requests, sent);
    CHECK_EQ_INT(ps->replies, want_replies);
    CHECK_EQ_INT(ps->l2_writes, writes);
    CHECK(ps->dram_stall > 0);
    CHECK(ps->l2_res_fail > 0);   /* 8 MSHRs, merge limit 2 */
    CHECK(ps->reply_stall > 0);
    CHECK(dram_get_stats(s.d)->writes > 0);
    CHECK(!partition_busy(s.p));
    CHECK_EQ_INT(cache_mshr_used(partition_l2(s.p)), 0);
    CHECK_EQ_INT(mem_req_in_flight(&s.pool), 0);
    sys_free(&s);
}

/* Random arrivals played cycle by cycle, and again jumping over idle stretches
   with the next-event queries: replies and every counter must agree. */
static void play(struct sys *s, const uint64_t *addr, const uint8_t *type, const sim_cycle *at, unsigned n,
                 int skip, uint32_t *ids)
{
    unsigned next = 0;
    for (unsigned guard = 0; guard < 1000000; guard++) {
        while (next < n && at[next] <= s->t && !partition_full(s->p)) {
            ids[next] = send(s, type[next], addr[next])->id;
            next++;
        }
        step(s);
        if (next == n && !partition_busy(s->p) && dram_next_event(s->d, s->t) == SIM_NEVER)
            break;
        if (skip) {
            sim_cycle t = s->t;
            sim_cycle e = sim_min(dram_next_event(s->d, t), partition_next_event_dram(s->p, t));
            e = sim_min(e, partition_next_event_l2(s->p, t));
            if (partition_peek_reply(s->p, t))
                e = t;
            if (next < n && !partition_full(s->p))
                e = sim_min(e, sim_max(at[next], t));
            SIM_ASSERT(e != SIM_NEVER && e >= t);
            s->t = e;
        }
    }
}

/* A random request stream of n requests: one gap in `every` is a pause of up to `pause` cycles, the
   others are under `step_max`; reads, writes and atomics over 64 lines in four rows.  The ids the
   two systems of a comparison gave them go in ids1 and ids2. */
enum { TRAFFIC_MAX = 600 };
struct traffic {
    uint64_t addr[TRAFFIC_MAX];
    uint8_t type[TRAFFIC_MAX];
    sim_cycle at[TRAFFIC_MAX];
    uint32_t ids1[TRAFFIC_MAX], ids2[TRAFFIC_MAX];
};

static void random_traffic(uint64_t seed, unsigned n, unsigned every, unsigned pause, unsigned step_max,
                           struct traffic *tr)
{
    SIM_ASSERT(n <= TRAFFIC_MAX);
    sim_cycle t = 0;
    for (unsigned i = 0; i < n; i++) {
        t += lcg(&seed) % every == 0 ? lcg(&seed) % pause : lcg(&seed) % step_max;
        tr->at[i] = t;
        unsigned k = lcg(&seed) % 10;
        tr->type[i] = (uint8_t)(k < 6 ? MRT_READ : k < 9 ? MRT_WRITE : MRT_ATOMIC);
        tr->addr[i] = (uint64_t)(lcg(&seed) % 64) * 128 + ((uint64_t)(lcg(&seed) % 4) << 16);
    }
}

/* Two identical systems, with GPGPU-Sim's ROP and DRAM latency queues when rop or dram. */
static void sys_pair_init(struct sys *a, struct sys *b, unsigned rop, unsigned dram)
{
    struct sys *both[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        struct sys *x = both[k];
        sys_init(x, "8:128:4,L:B:m:W:L,A:8:2,4", 4, 2, 4);
        if (rop || dram) {
            x->g.l2_rop_latency = rop;
            x->g.dram_latency = dram;
            x->g.ps_core = x->g.ps_l2 = x->g.ps_dram = 1000;
            x->d = dram_new(x->a, &x->g, 0);
            x->p = partition_new(x->a, &x->g, 0, x->d, &x->map, &x->pool);
        }
    }
}

/* Requests of the same stream whose reply came at another cycle or another number of times. */
static unsigned reply_diffs(const struct sys *a, const struct sys *b, const uint32_t *ids1, const uint32_t *ids2,
                            unsigned n)
{
    unsigned diff = 0;
    for (unsigned i = 0; i < n; i++)
        if (ids1[i] != ids2[i] || a->reply_at[ids1[i]] != b->reply_at[ids2[i]] ||
            a->reply_count[ids1[i]] != b->reply_count[ids2[i]])
            diff++;
    return diff;
}

static void idle_skip_check(unsigned rop, unsigned dram)
{
    enum { N = 400 };
    static struct traffic tr;
    random_traffic(99, N, 3, 400, 4, &tr);
    static struct sys a, b;
    sys_pair_init(&a, &b, rop, dram);
    play(&a, tr.addr, tr.type, tr.at, N, 0, tr.ids1);
    play(&b, tr.addr, tr.type, tr.at, N, 1, tr.ids2);
    CHECK_EQ_INT(reply_diffs(&a, &b, tr.ids1, tr.ids2, N), 0);
    const struct partition_stats *pa = partition_get_stats(a.p), *pb = partition_get_stats(b.p);
    CHECK(memcmp(pa, pb, sizeof *pa) == 0);
    CHECK_EQ_INT(pa->replies, pb->replies);
    CHECK_EQ_INT(pa->dram_stall, pb->dram_stall);
    CHECK(pa->dram_stall > 0);
    const struct dram_stats *da = dram_get_stats(a.d), *db = dram_get_stats(b.d);
    CHECK_EQ_INT(da->row_hits, db->row_hits);
    CHECK_EQ_INT(da->queue_full_stalls, db->queue_full_stalls);
    CHECK_EQ_INT(da->cycles, db->cycles);
    CHECK(b.t < a.t || b.t == a.t);
    sys_free(&a);
    sys_free(&b);
}

TEST(partition_idle_skipping_is_exact) { idle_skip_check(0, 0); }

/* the same with GPGPU-Sim's ROP and DRAM latency queues on */
TEST(partition_idle_skipping_is_exact_with_latency_queues) { idle_skip_check(9, 23); }

/* Ticking only what the partition publishes as busy gives the same replies, counters and DRAM
   statistics as ticking everything every cycle, with and without the latency queues, while the
   network holds replies back (a full reply queue) and while requests pause. */
static void busy_gating_check(unsigned rop, unsigned dram)
{
    enum { N = 600 };
    static struct traffic tr;
    random_traffic(7, N, 4, 300, 3, &tr);
    static struct sys a, b;
    sys_pair_init(&a, &b, rop, dram);
    struct sys *both[2] = {&a, &b};
    b.gated = 1;
    partition_publish_busy(b.p, &b.busy);
    CHECK_EQ_INT(b.busy, 0);
    unsigned next[2] = {0, 0};
    uint32_t *ids[2] = {tr.ids1, tr.ids2};
    for (sim_cycle c = 0; c < tr.at[N - 1] + 3000; c++) {
        for (int k = 0; k < 2; k++) {
            struct sys *x = both[k];
            x->hold_replies = (c / 50) % 4 == 0;
            while (next[k] < N && tr.at[next[k]] <= x->t && !partition_full(x->p)) {
                ids[k][next[k]] = send(x, tr.type[next[k]], tr.addr[next[k]])->id;
                next[k]++;
            }
            step(x);
        }
    }
    CHECK_EQ_INT(next[1], N);
    CHECK_EQ_INT(reply_diffs(&a, &b, tr.ids1, tr.ids2, N), 0);
    CHECK(memcmp(partition_get_stats(a.p), partition_get_stats(b.p), sizeof(struct partition_stats)) == 0);
    CHECK(memcmp(dram_get_stats(a.d), dram_get_stats(b.d), sizeof(struct dram_stats)) == 0);
    CHECK(partition_get_stats(a.p)->reply_stall > 0);
    CHECK(!partition_busy(b.p));
    CHECK_EQ_INT(b.busy, 0);
    CHECK(b.skipped_l2 > 1000 && b.skipped_dram > 1000);   /* it did skip */
    sys_free(&a);
    sys_free(&b);
}

TEST(partition_busy_gating_is_exact) { busy_gating_check(0, 0); }
TEST(partition_busy_gating_is_exact_with_latency_queues) { busy_gating_check(9, 23); }

TEST(partition_stats_registered)
{
    struct sys s;
    sys_init(&s, "4:128:2,L:B:m:W:L,A:8:4,4", 4, 16, 8);
    struct stats st;
    stats_init(&st, s.a);
    partition_reg_stats(s.p, &st, "part0");
    send(&s, MRT_READ, 0x1000);
    send(&s, MRT_READ, 0x1000);
    steps(&s, 300);
    CHECK_EQ_INT(stats_sum(&st, "part0.l2_reads", ""), 2);
    CHECK_EQ_INT(stats_sum(&st, "part0.replies", ""), 2);
    CHECK_EQ_INT(stats_sum(&st, "part0.l2.hit_reserved", ""), 1);
    sys_free(&s);
}

TEST_MAIN()
