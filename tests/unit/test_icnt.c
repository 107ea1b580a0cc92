/*
 * test_icnt.c - crossbar timing (src/noc/xbar.c against src/noc/icnt.h).
 *
 * Timing rule under test (docs/timing_icnt.md): a packet of F flits pushed at
 * cycle t alone in the network crosses in cycles t+1 .. t+ceil(F/bw) and is
 * visible to icnt_peek after icnt_cycle(t + ceil(F/bw) + icnt_latency).
 * Every harness calls icnt_cycle(c), then the consumer (pop), then the
 * producer (push) within cycle c.
 */
#include <string.h>

#include "core/arena.h"
#include "core/stats.h"
#include "noc/icnt.h"
#include "test.h"

#define MAXR 256

struct tnet {
    struct arena *a;
    struct icnt *n;
    struct mem_req r[MAXR];
};

static struct gpu_config tcfg(unsigned flit, unsigned lat, unsigned inb, unsigned outb, unsigned bw)
{
    struct gpu_config g;
    memset(&g, 0, sizeof g);
    g.icnt_flit_size = flit;
    g.icnt_latency = lat;
    g.icnt_in_buffer = inb;
    g.icnt_out_buffer = outb;
    g.icnt_flits_per_cycle = bw;
    return g;
}

/* The same with -warpsim_icnt_vcs and -warpsim_icnt_input_speedup. */
static struct gpu_config tcfg_vc(unsigned flit, unsigned lat, unsigned inb, unsigned outb, unsigned bw, unsigned vcs,
                                 unsigned speedup)
{
    struct gpu_config g = tcfg(flit, lat, inb, outb, bw);
    g.icnt_vcs = vcs;
    g.icnt_input_speedup = speedup;
    return g;
}

static void tnet_init(struct tnet *t, const struct gpu_config *g, unsigned n_src, unsigned n_dst)
{
    memset(t, 0, sizeof *t);
    t->a = arena_new(0);
    t->n = icnt_new(t->a, g, n_src, n_dst, "xbar_test");
    for (uint32_t i = 0; i < MAXR; i++)
        t->r[i].id = i;
}

static void tnet_free(struct tnet *t) { arena_free(t->a); }

/* Tick cycles from..limit; the first cycle after which dst has a packet, or SIM_NEVER. */
static sim_cycle run_until_arrival(struct icnt *n, unsigned dst, sim_cycle from, sim_cycle limit)
{
    for (sim_cycle c = from; c <= limit; c++) {
        icnt_cycle(n, c);
        if (icnt_peek(n, dst))
            return c;
    }
    return SIM_NEVER;
}

/* Arrival cycle of a lone packet of `bytes` pushed at t. */
static sim_cycle lone_arrival(const struct gpu_config *g, uint32_t bytes, sim_cycle t)
{
    struct tnet tn;
    tnet_init(&tn, g, 2, 2);
    icnt_push(tn.n, 0, 1, &tn.r[0], bytes, t);
    sim_cycle c = run_until_arrival(tn.n, 1, t, t + 1000);
    tnet_free(&tn);
    return c;
}

TEST(icnt_lone_one_flit_latency)
{
    struct gpu_config g = tcfg(32, 5, 8, 8, 1);
    struct tnet t;
    tnet_init(&t, &g, 2, 3);
    REQUIRE(t.n != NULL);
    CHECK(!icnt_busy(t.n));
    CHECK_EQ_U64(icnt_next_event(t.n, 99), SIM_NEVER);
    CHECK(icnt_can_push(t.n, 0, 32));
    icnt_push(t.n, 0, 2, &t.r[7], 32, 100);
    CHECK(icnt_busy(t.n));
    CHECK(!icnt_any_delivered(t.n));   /* in the network, not yet at its output */
    /* pushed at 100: crossing is possible from 101 */
    CHECK_EQ_U64(icnt_next_event(t.n, 100), 101);
    icnt_cycle(t.n, 100);   /* same cycle as the push: nothing may cross yet */
    CHECK_EQ_U64(icnt_next_event(t.n, 100), 101);
    icnt_cycle(t.n, 101);   /* the crossing cycle */
    CHECK(icnt_peek(t.n, 2) == NULL);
    /* last flit crossed at 101: delivered at 101 + latency */
    CHECK_EQ_U64(icnt_next_event(t.n, 101), 106);
    sim_cycle arr = run_until_arrival(t.n, 2, 102, 200);
    CHECK_EQ_U64(arr, 100 + 1 + 5);
    CHECK(icnt_peek(t.n, 2) == &t.r[7]);
    CHECK(icnt_any_delivered(t.n));
    CHECK(icnt_peek(t.n, 0) == NULL);
    CHECK(icnt_peek(t.n, 1) == NULL);
    /* waiting for the consumer is not a network event */
    CHECK_EQ_U64(icnt_next_event(t.n, arr), SIM_NEVER);
    CHECK(icnt_busy(t.n));
    icnt_pop(t.n, 2);
    CHECK(icnt_peek(t.n, 2) == NULL);
    CHECK(!icnt_busy(t.n));
    CHECK(!icnt_any_delivered(t.n));
    const struct icnt_stats *st = icnt_get_stats(t.n);
    CHECK_EQ_U64(st->packets, 1);
    CHECK_EQ_U64(st->flits, 1);
    CHECK_EQ_U64(st->lat_sum, 6);
    CHECK_EQ_U64(st->lat_max, 6);
    tnet_free(&t);

    /* zero latency: visible right after the crossing cycle; push order relative to
       icnt_cycle of the same cycle does not matter */
    struct gpu_config g0 = tcfg(32, 0, 8, 8, 1);
    CHECK_EQ_U64(lone_arrival(&g0, 32, 50), 51);
    /* flit rounding: 0 and 1..32 bytes are one flit, 33 bytes two */
    CHECK_EQ_U64(lone_arrival(&g, 0, 10), 16);
    CHECK_EQ_U64(lone_arrival(&g, 1, 10), 16);
    CHECK_EQ_U64(lone_arrival(&g, 33, 10), 17);
}

/* Per destination: how many packets each output delivered and their latencies, summing to the
   network's totals; the output two sources contend for waits a cycle longer for its second packet. */
TEST(icnt_per_destination_packets_and_latency)
{
    struct gpu_config g = tcfg(32, 5, 8, 8, 1);
    struct tnet t;
    tnet_init(&t, &g, 3, 3);
    REQUIRE(t.n != NULL);
    icnt_push(t.n, 0, 1, &t.r[0], 32, 100);
    icnt_push(t.n, 1, 1, &t.r[1], 32, 100);
    icnt_push(t.n, 2, 2, &t.r[2], 32, 100);
    for (sim_cycle c = 100; c <= 120; c++)
        icnt_cycle(t.n, c);
    CHECK_EQ_U64(icnt_dst_packets(t.n, 0), 0);
    CHECK_EQ_U64(icnt_dst_packets(t.n, 1), 2);
    CHECK_EQ_U64(icnt_dst_packets(t.n, 2), 1);
    CHECK_EQ_U64(icnt_dst_lat_sum(t.n, 0), 0);
    CHECK_EQ_U64(icnt_dst_lat_sum(t.n, 1), 6 + 7);
    CHECK_EQ_U64(icnt_dst_lat_sum(t.n, 2), 6);
    CHECK_EQ_U64(icnt_dst_packets(t.n, 3), 0);   /* out of range: nothing, not a read past the array */
    const struct icnt_stats *st = icnt_get_stats(t.n);
    CHECK_EQ_U64(st->packets, 3);
    CHECK_EQ_U64(st->lat_sum, 19);
    tnet_free(&t);
}

TEST(icnt_five_flit_reply_is_four_cycles_later)
{
    struct gpu_config g = tcfg(32, 7, 8, 8, 1);
    sim_cycle one = lone_arrival(&g, 8, 20);     /* an 8-byte read request */
    sim_cycle five = lone_arrival(&g, 136, 20);  /* 128-byte line + 8-byte header */
    CHECK_EQ_U64(one, 20 + 1 + 7);
    CHECK_EQ_U64(five, 20 + 5 + 7);
    CHECK_EQ_U64(five - one, 4);
    /* 16-byte flits: 136 bytes = 9 flits */
    struct gpu_config g16 = tcfg(16, 7, 16, 16, 1);
    CHECK_EQ_U64(lone_arrival(&g16, 136, 20), 20 + 9 + 7);
}

/* Tick from..limit popping every visible packet at dst; records (cycle, id). */
static int drain_log(struct icnt *n, unsigned dst, sim_cycle from, sim_cycle limit, sim_cycle *cyc, uint32_t *id,
                     int max)
{
    int k = 0;
    for (sim_cycle c = from; c <= limit && k < max; c++) {
        icnt_cycle(n, c);
        struct mem_req *r;
        while (k < max && (r = icnt_peek(n, dst)) != NULL) {
            cyc[k] = c;
            id[k] = r->id;
            k++;
            icnt_pop(n, dst);
        }
    }
    return k;
}

TEST(icnt_round_robin_packets_never_interleave)
{
    struct gpu_config g = tcfg(32, 4, 16, 32, 1);
    struct tnet t;
    tnet_init(&t, &g, 2, 1);
    /* two 5-flit packets from each source, all for output 0, pushed at 10 */
    icnt_push(t.n, 0, 0, &t.r[0], 136, 10);
    icnt_push(t.n, 0, 0, &t.r[1], 136, 10);
    icnt_push(t.n, 1, 0, &t.r[10], 136, 10);
    icnt_push(t.n, 1, 0, &t.r[11], 136, 10);
    sim_cycle cyc[8];
    uint32_t id[8];
    int k = drain_log(t.n, 0, 11, 200, cyc, id, 8);
    CHECK_EQ_INT(k, 4);
    /* alternating sources, one whole packet (5 cycles) after another: interleaved
       flits would make the first arrival later than 10+5+4 */
    CHECK_EQ_INT(id[0], 0);
    CHECK_EQ_INT(id[1], 10);
    CHECK_EQ_INT(id[2], 1);
    CHECK_EQ_INT(id[3], 11);
    CHECK_EQ_U64(cyc[0], 10 + 5 + 4);
    CHECK_EQ_U64(cyc[1], 10 + 10 + 4);
    CHECK_EQ_U64(cyc[2], 10 + 15 + 4);
    CHECK_EQ_U64(cyc[3], 10 + 20 + 4);
    CHECK(!icnt_busy(t.n));
    CHECK_EQ_U64(icnt_get_stats(t.n)->lat_max, 24);
    tnet_free(&t);

    /* a packet arriving while another crosses waits for its last flit */
    tnet_init(&t, &g, 2, 1);
    icnt_push(t.n, 0, 0, &t.r[0], 136, 10);   /* crosses 11..15 */
    for (sim_cycle c = 11; c <= 12; c++)
        icnt_cycle(t.n, c);
    icnt_push(t.n, 1, 0, &t.r[1], 8, 12);     /* could go at 13, waits until 16 */
    k = drain_log(t.n, 0, 13, 200, cyc, id, 8);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_INT(id[0], 0);
    CHECK_EQ_INT(id[1], 1);
    CHECK_EQ_U64(cyc[0], 15 + 4);
    CHECK_EQ_U64(cyc[1], 16 + 4);
    tnet_free(&t);

    /* three sources: the grant rotates 0,1,2,0,1,2 (one 1-flit packet per cycle) */
    tnet_init(&t, &g, 3, 1);
    for (unsigned s = 0; s < 3; s++)
        for (unsigned j = 0; j < 2; j++)
            icnt_push(t.n, s, 0, &t.r[s * 10 + j], 8, 10);
    k = drain_log(t.n, 0, 11, 200, cyc, id, 8);
    CHECK_EQ_INT(k, 6);
    static const uint32_t want[6] = {0, 10, 20, 1, 11, 21};
    for (int i = 0; i < 6 && i < k; i++) {
        CHECK_EQ_INT(id[i], want[i]);
        CHECK_EQ_U64(cyc[i], 10 + 1 + (sim_cycle)i + 4);
    }
    /* the last grant went to source 2: a new round starts at source 0 even
       though source 2 pushed first */
    icnt_push(t.n, 2, 0, &t.r[22], 8, 40);
    icnt_push(t.n, 1, 0, &t.r[12], 8, 40);
    icnt_push(t.n, 0, 0, &t.r[2], 8, 40);
    k = drain_log(t.n, 0, 41, 200, cyc, id, 8);
    CHECK_EQ_INT(k, 3);
    CHECK_EQ_INT(id[0], 2);
    CHECK_EQ_INT(id[1], 12);
    CHECK_EQ_INT(id[2], 22);
    tnet_free(&t);
}

TEST(icnt_full_input_buffer_refuses_push)
{
    struct gpu_config g = tcfg(32, 3, 8, 16, 1);
    struct tnet t;
    tnet_init(&t, &g, 2, 2);
    CHECK(icnt_can_push(t.n, 0, 136));
    icnt_push(t.n, 0, 1, &t.r[0], 136, 10);            /* 5 of 8 flits */
    CHECK_EQ_U64(icnt_get_stats(t.n)->input_full_stalls, 0);
    CHECK(!icnt_can_push(t.n, 0, 136));                 /* 5 + 5 > 8 */
    CHECK_EQ_U64(icnt_get_stats(t.n)->input_full_stalls, 1);
    CHECK(icnt_can_push(t.n, 0, 96));                   /* 5 + 3 = 8 fits */
    CHECK(icnt_can_push(t.n, 1, 136));                  /* other inputs are separate */
    CHECK_EQ_U64(icnt_get_stats(t.n)->input_full_stalls, 1);
    /* the room version moves exactly when flits leave an input (a refused push cannot get in before) */
    uint32_t v0 = icnt_room_version(t.n, 0), v1 = icnt_room_version(t.n, 1), va = icnt_room_version_any(t.n);
    icnt_cycle(t.n, 10);
    CHECK_EQ_U64(icnt_room_version(t.n, 0), v0);        /* pushed at 10: not yet crossing */
    CHECK_EQ_U64(icnt_room_version_any(t.n), va);
    CHECK(!icnt_can_push(t.n, 0, 136));
    icnt_cycle(t.n, 11);                                /* one flit left the buffer: 4 */
    CHECK(icnt_room_version(t.n, 0) != v0);
    CHECK(icnt_room_version_any(t.n) != va);
    CHECK_EQ_U64(icnt_room_version(t.n, 1), v1);        /* nothing left input 1 */
    CHECK(!icnt_can_push(t.n, 0, 136));
    icnt_cycle(t.n, 12);                                /* 3 left: 3 + 5 = 8 */
    CHECK(icnt_can_push(t.n, 0, 136));
    CHECK_EQ_U64(icnt_get_stats(t.n)->input_full_stalls, 3);
    icnt_count_refused_push(t.n, 2);                    /* refusals a source left out the calls for */
    CHECK_EQ_U64(icnt_get_stats(t.n)->input_full_stalls, 5);
    icnt_push(t.n, 0, 1, &t.r[1], 136, 12);
    CHECK(!icnt_can_push(t.n, 0, 8));                   /* 8 of 8 */
    CHECK_EQ_U64(icnt_get_stats(t.n)->input_full_stalls, 6);
    sim_cycle cyc[4];
    uint32_t id[4];
    int k = drain_log(t.n, 1, 13, 100, cyc, id, 4);
    CHECK_EQ_INT(k, 2);
    CHECK_EQ_U64(cyc[0], 15 + 3);
    CHECK_EQ_U64(cyc[1], 20 + 3);
    CHECK_EQ_INT(id[1], 1);
    tnet_free(&t);

    /* a packet larger than the whole input buffer enters an empty buffer only */
    struct gpu_config gs = tcfg(32, 3, 4, 16, 1);
    tnet_init(&t, &gs, 1, 1);
    REQUIRE(icnt_can_push(t.n, 0, 136));
    icnt_push(t.n, 0, 0, &t.r[0], 136, 0);
    CHECK(!icnt_can_push(t.n, 0, 8));
    CHECK_EQ_U64(run_until_arrival(t.n, 0, 1, 100), 5 + 3);
    CHECK(icnt_can_push(t.n, 0, 136));
    tnet_free(&t);
}

/*
 * One source streams 5-flit packets to output 0 (one push per cycle while
 * icnt_can_push allows); the consumer does not pop until cycle 40.
 * in_buffer = out_buffer = 10 flits (two packets), latency 3.
 *   P0 pushed 0, crosses 1..5, ready 8;  P1 pushed 1, crosses 6..10, ready 13
 *   P2 pushed 5 (room after P0 left), P3 pushed 10 (after P1 left)
 *   from 11 the output holds 10 flits: P2 is blocked, the input stays full.
 * Consumer pops one per cycle from 40:
 *   40 pop P0 -> P2 crosses 41..45, ready 48; P4 pushed 45
 *   41 pop P1 -> P3 crosses 46..50, ready 53; P5 pushed 50
 *   P4 crosses 51..55 ready 58, P5 crosses 56..60 ready 63 ...
 */
TEST(icnt_backpressure_fills_and_drains_in_order)
{
    struct gpu_config g = tcfg(32, 3, 10, 10, 1);
    struct tnet t;
    tnet_init(&t, &g, 1, 1);
    uint32_t pushed = 0, popped = 0;
    sim_cycle push_at[8], pop_at[8];
    uint32_t pop_id[8];
    const uint32_t total = 6;
    for (sim_cycle c = 0; c <= 120; c++) {
        icnt_cycle(t.n, c);
        if (c == 11)
            CHECK_EQ_U64(icnt_get_stats(t.n)->output_blocked, 1);
        if (c == 39) {
            /* full: output holds P0 and P1 (delivered), P2 and P3 wait in the input */
            CHECK_EQ_INT(pushed, 4);
            CHECK(icnt_peek(t.n, 0) == &t.r[0]);
            CHECK(!icnt_can_push(t.n, 0, 8));
            CHECK_EQ_U64(icnt_get_stats(t.n)->output_blocked, 39 - 11 + 1);
            CHECK_EQ_U64(icnt_get_stats(t.n)->packets, 2);
            CHECK_EQ_U64(icnt_next_event(t.n, 39), SIM_NEVER);
        }
        if (c >= 40 && icnt_peek(t.n, 0)) {
            pop_at[popped] = c;
            pop_id[popped] = icnt_peek(t.n, 0)->id;
            popped++;
            icnt_pop(t.n, 0);
        }
        if (pushed < total && icnt_can_push(t.n, 0, 136)) {
            push_at[pushed] = c;
            icnt_push(t.n, 0, 0, &t.r[pushed], 136, c);
            pushed++;
        }
    }
    CHECK_EQ_INT(pushed, total);
    CHECK_EQ_INT(popped, total);
    static const sim_cycle want_push[6] = {0, 1, 5, 10, 45, 50};
    static const sim_cycle want_pop[6] = {40, 41, 48, 53, 58, 63};
    for (uint32_t i = 0; i < total; i++) {
        CHECK_EQ_INT(pop_id[i], i);
        CHECK_EQ_U64(push_at[i], want_push[i]);
        CHECK_EQ_U64(pop_at[i], want_pop[i]);
    }
    const struct icnt_stats *st = icnt_get_stats(t.n);
    CHECK_EQ_U64(st->packets, total);
    CHECK_EQ_U64(st->flits, total * 5);
    CHECK_EQ_U64(st->output_blocked, 40 - 11 + 1);   /* cycles 11..40: the pop at 40 comes after icnt_cycle(40) */
    /* latencies (ready - push): 8, 12, 43, 43, 13, 13 */
    CHECK_EQ_U64(st->lat_sum, 8 + 12 + 43 + 43 + 13 + 13);
    CHECK_EQ_U64(st->lat_max, 43);
    CHECK(st->input_full_stalls > 0);
    CHECK(!icnt_busy(t.n));
    tnet_free(&t);
}

TEST(icnt_head_of_line_blocking)
{
    /* one FIFO per input: a packet for a free output waits behind one for a blocked output */
    struct gpu_config g = tcfg(32, 2, 16, 5, 1);
    struct tnet t;
    tnet_init(&t, &g, 1, 2);
    icnt_push(t.n, 0, 0, &t.r[0], 136, 0);   /* fills output 0 */
    icnt_push(t.n, 0, 0, &t.r[1], 8, 0);     /* blocked behind the full output 0 */
    icnt_push(t.n, 0, 1, &t.r[2], 8, 0);     /* output 1 is free but this waits in line */
    for (sim_cycle c = 1; c <= 30; c++)
        icnt_cycle(t.n, c);
    CHECK(icnt_peek(t.n, 0) == &t.r[0]);
    CHECK(icnt_peek(t.n, 1) == NULL);
    icnt_pop(t.n, 0);
    CHECK_EQ_U64(icnt_next_event(t.n, 30), 31);
    sim_cycle cyc[4];
    uint32_t id[4];
    CHECK_EQ_INT(drain_log(t.n, 0, 31, 100, cyc, id, 4), 1);
    CHECK_EQ_U64(cyc[0], 31 + 2);
    CHECK_EQ_INT(id[0], 1);
    icnt_cycle(t.n, 101);
    CHECK(icnt_peek(t.n, 1) == &t.r[2]);   /* crossed at 32, ready 34 */
    CHECK_EQ_U64(icnt_get_stats(t.n)->lat_sum, (5 + 2) + (31 + 2) + (32 + 2));
    tnet_free(&t);
}

/* Sources 0..n_src-1 push 1-flit packets for output 0 as fast as their input
   buffers take them; the consumer pops everything.  The output buffer covers
   bw * (latency + 1) flits in flight, so only bandwidth limits.  Returns the
   deliveries in cycles [lo, hi]. */
static uint64_t stream_deliveries(unsigned bw, unsigned n_src, sim_cycle lo, sim_cycle hi, sim_cycle *first)
{
    struct gpu_config g = tcfg(32, 3, 4, 16, bw);
    struct tnet t;
    tnet_init(&t, &g, n_src, 1);
    uint64_t got = 0;
    uint32_t k = 0;
    *first = SIM_NEVER;
    for (sim_cycle c = 0; c <= hi; c++) {
        icnt_cycle(t.n, c);
        while (icnt_peek(t.n, 0)) {
            if (*first == SIM_NEVER)
                *first = c;
            if (c >= lo)
                got++;
            icnt_pop(t.n, 0);
        }
        for (unsigned s = 0; s < n_src; s++)
            while (icnt_can_push(t.n, s, 8))
                icnt_push(t.n, s, 0, &t.r[k++ % MAXR], 8, c);
    }
    tnet_free(&t);
    return got;
}

TEST(icnt_bandwidth_per_output)
{
    sim_cycle first;
    /* saturated output: exactly flits_per_cycle flits per cycle */
    CHECK_EQ_U64(stream_deliveries(1, 4, 20, 119, &first), 100);
    CHECK_EQ_U64(first, 0 + 1 + 3);
    CHECK_EQ_U64(stream_deliveries(2, 4, 20, 119, &first), 200);
    CHECK_EQ_U64(stream_deliveries(3, 4, 20, 119, &first), 300);
    /* one source: its link carries flits_per_cycle too (two 1-flit packets per cycle at bw 2) */
    CHECK_EQ_U64(stream_deliveries(2, 1, 20, 119, &first), 200);

    /* a 5-flit packet at 2 flits per cycle crosses in 3 cycles */
    struct gpu_config g2 = tcfg(32, 3, 8, 8, 2);
    CHECK_EQ_U64(lone_arrival(&g2, 136, 10), 10 + 3 + 3);

    /* outputs are independent: two 5-flit packets to different outputs arrive together */
    struct gpu_config g1 = tcfg(32, 3, 8, 8, 1);
    struct tnet t;
    tnet_init(&t, &g1, 2, 2);
    icnt_push(t.n, 0, 0, &t.r[0], 136, 10);
    icnt_push(t.n, 1, 1, &t.r[1], 136, 10);
    CHECK_EQ_U64(run_until_arrival(t.n, 0, 11, 100), 18);
    CHECK(icnt_peek(t.n, 1) == &t.r[1]);
    tnet_free(&t);

    /* one input sends to two outputs: at bw 1 its link serialises them,
       at bw 2 the second output is served in the same cycle */
    tnet_init(&t, &g1, 1, 2);
    icnt_push(t.n, 0, 0, &t.r[0], 8, 10);
    icnt_push(t.n, 0, 1, &t.r[1], 8, 10);
    CHECK_EQ_U64(run_until_arrival(t.n, 0, 11, 100), 14);
    CHECK(icnt_peek(t.n, 1) == NULL);
    CHECK_EQ_U64(run_until_arrival(t.n, 1, 15, 100), 15);
    tnet_free(&t);
    tnet_init(&t, &g2, 1, 2);
    icnt_push(t.n, 0, 0, &t.r[0], 8, 10);
    icnt_push(t.n, 0, 1, &t.r[1], 8, 10);
    CHECK_EQ_U64(run_until_arrival(t.n, 0, 11, 100), 14);
    CHECK(icnt_peek(t.n, 1) == &t.r[1]);
    tnet_free(&t);
}

TEST(icnt_stats_registered_by_prefix)
{
    struct gpu_config g = tcfg(32, 2, 8, 8, 1);
    struct tnet t;
    tnet_init(&t, &g, 2, 2);
    struct stats s;
    stats_init(&s, t.a);
    icnt_reg_stats(t.n, &s, "icnt_req");
    icnt_push(t.n, 0, 0, &t.r[0], 136, 0);   /* 5 flits, lat 5 + 2 */
    icnt_push(t.n, 1, 1, &t.r[1], 8, 3);     /* 1 flit, lat 1 + 2 */
    CHECK(!icnt_can_push(t.n, 0, 136));
    sim_cycle cyc[2];
    uint32_t id[2];
    CHECK_EQ_INT(drain_log(t.n, 1, 1, 10, cyc, id, 2), 1);
    CHECK_EQ_INT(drain_log(t.n, 0, 11, 20, cyc, id, 2), 1);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".packets"), 2);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".flits"), 6);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".lat_sum"), 7 + 3);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".lat_max"), 7);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".input_full_stalls"), 1);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".output_blocked"), 0);
    CHECK_EQ_U64(stats_sum(&s, "icnt_rep", ".packets"), 0);
    tnet_free(&t);
}

/*
 * Idle skipping: the same traffic run once ticking every cycle and once
 * ticking only at icnt_next_event (and at the harness's own push/pop cycles)
 * gives identical pop cycles and identical statistics.
 */
struct trafficlog {
    sim_cycle pop_at[MAXR];
    uint32_t pop_id[MAXR], pop_dst[MAXR];
    uint32_t n_pop, calls;
    struct icnt_stats st;
};

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fffu;
}

static void run_traffic(int skip, unsigned vcs, unsigned speedup, struct trafficlog *log)
{
    enum { NS = 3, ND = 2, NPKT = 120 };
    struct gpu_config g = tcfg_vc(32, 6, 10, 10, 1, vcs, speedup);
    struct tnet t;
    tnet_init(&t, &g, NS, ND);
    /* a fixed schedule: packet k from source k%NS at when[k] to dst[k], 8 or 136 bytes */
    sim_cycle when[NPKT];
    uint32_t dst[NPKT], bytes[NPKT], seed = 12345u;
    sim_cycle c0 = 0;
    for (uint32_t k = 0; k < NPKT; k++) {
        c0 += k % 30 == 29 ? 300 : lcg(&seed) % 9u;   /* bursts with long idle gaps between */
        when[k] = c0;
        dst[k] = lcg(&seed) % ND;
        bytes[k] = lcg(&seed) % 2u ? 136u : 8u;
    }
    memset(log, 0, sizeof *log);
    uint32_t next_k = 0;
    sim_cycle c = 0;
    for (;;) {
        icnt_cycle(t.n, c);
        log->calls++;
        /* consumer of output d takes packets only when c % (5 + 4d) == 0: slow, so outputs fill */
        for (unsigned d = 0; d < ND; d++)
            if (c % (5 + 4 * d) == 0 && icnt_peek(t.n, d)) {
                log->pop_at[log->n_pop] = c;
                log->pop_id[log->n_pop] = icnt_peek(t.n, d)->id;
                log->pop_dst[log->n_pop] = d;
                log->n_pop++;
                icnt_pop(t.n, d);
            }
        /* producer: packets whose time has come, in order, while the input takes them */
        while (next_k < NPKT && when[next_k] <= c && icnt_can_push(t.n, next_k % NS, bytes[next_k])) {
            icnt_push(t.n, next_k % NS, dst[next_k], &t.r[next_k], bytes[next_k], c);
            next_k++;
        }
        if (next_k == NPKT && !icnt_busy(t.n))
            break;
        if (c > 100000)
            break;
        sim_cycle nx = c + 1;
        if (skip) {
            nx = icnt_next_event(t.n, c);
            /* the harness's own events: a pending push, a consumer cycle with a packet waiting */
            if (next_k < NPKT)
                nx = sim_min(nx, sim_max(when[next_k], c + 1));
            for (unsigned d = 0; d < ND; d++)
                if (icnt_peek(t.n, d)) {
                    sim_cycle p = (c / (5 + 4 * d) + 1) * (5 + 4 * d);
                    nx = sim_min(nx, p);
                }
            /* a refused push retries when a flit has left the input: that needs a cycle of the network,
               which icnt_next_event already covers; a full input behind a blocked output waits for a pop */
            if (nx == SIM_NEVER)
                break;
        }
        c = nx;
    }
    log->st = *icnt_get_stats(t.n);
    CHECK_EQ_INT(next_k, NPKT);
    CHECK(!icnt_busy(t.n));
    tnet_free(&t);
}

TEST(icnt_next_event_skipping_is_exact)
{
    static struct trafficlog a, b;
    run_traffic(0, 1, 1, &a);
    run_traffic(1, 1, 1, &b);
    CHECK_EQ_INT(a.n_pop, 120);
    CHECK_EQ_INT(b.n_pop, a.n_pop);
    for (uint32_t i = 0; i < a.n_pop && i < b.n_pop; i++) {
        CHECK_EQ_U64(b.pop_at[i], a.pop_at[i]);
        CHECK_EQ_INT(b.pop_id[i], a.pop_id[i]);
    }
    CHECK_EQ_U64(b.st.packets, a.st.packets);
    CHECK_EQ_U64(b.st.flits, a.st.flits);
    CHECK_EQ_U64(b.st.lat_sum, a.st.lat_sum);
    CHECK_EQ_U64(b.st.lat_max, a.st.lat_max);
    CHECK_EQ_U64(b.st.output_blocked, a.st.output_blocked);
    CHECK(a.st.output_blocked > 0);   /* the scenario does exercise blocking */
    CHECK(b.calls < a.calls);          /* and skipping did skip */
}

TEST(icnt_more_ports_than_a_bitset_word)
{
    /* 70 sources and 70 outputs: round-robin and work tracking across 64-bit words */
    struct gpu_config g = tcfg(32, 2, 4, 128, 1);
    struct tnet t;
    tnet_init(&t, &g, 70, 70);
    /* every source sends one packet to output 0 and one to output 69-s */
    for (unsigned s = 0; s < 70; s++)
        icnt_push(t.n, s, 0, &t.r[s], 8, 0);
    for (unsigned s = 0; s < 70; s++)
        icnt_push(t.n, s, 69 - s, &t.r[100 + s], 8, 0);
    sim_cycle cyc[80];
    uint32_t id[80];
    int k = drain_log(t.n, 0, 1, 200, cyc, id, 71);
    CHECK_EQ_INT(k, 71);
    for (int i = 0; i < 70 && i < k; i++) {
        CHECK_EQ_INT(id[i], i);          /* sources in index order, one per cycle */
        CHECK_EQ_U64(cyc[i], (sim_cycle)i + 1 + 2);
    }
    /* source 69's second packet (to output 0) waited behind its first */
    CHECK_EQ_INT(id[70], 169);
    CHECK_EQ_U64(cyc[70], 71 + 2);
    /* the others reached their outputs right after their first packet */
    for (unsigned d = 1; d < 70; d++) {
        struct mem_req *r = icnt_peek(t.n, d);
        CHECK(r == &t.r[100 + 69 - d]);
        if (r)
            icnt_pop(t.n, d);
    }
    CHECK(!icnt_busy(t.n));
    CHECK_EQ_U64(icnt_get_stats(t.n)->packets, 140);
    /* the round-robin pointer of output 0 now sits after source 69: it wraps to 0 */
    icnt_push(t.n, 69, 0, &t.r[69], 8, 300);
    icnt_push(t.n, 0, 0, &t.r[0], 8, 300);
    icnt_push(t.n, 65, 0, &t.r[65], 8, 300);
    k = drain_log(t.n, 0, 301, 400, cyc, id, 3);
    CHECK_EQ_INT(k, 3);
    CHECK_EQ_INT(id[0], 0);
    CHECK_EQ_INT(id[1], 65);
    CHECK_EQ_INT(id[2], 69);
    tnet_free(&t);
}

/* ---- virtual channels and input speedup (-warpsim_icnt_vcs, -warpsim_icnt_input_speedup) ---- */

TEST(icnt_vcs_remove_head_of_line_blocking)
{
    /* output 0's buffer (5 flits) is full of an unpopped reply; then the input gets a request for
       output 0 (blocked) and one for the free output 1.  One VC: the second waits in line until the
       consumer pops (as in icnt_head_of_line_blocking).  Two VCs, with one or two switch ports: it
       crosses at once. */
    for (unsigned vcs = 1; vcs <= 2; vcs++)
        for (unsigned su = 1; su <= 2; su++) {
            struct gpu_config g = tcfg_vc(32, 2, 16, 5, 1, vcs, su);
            struct tnet t;
            tnet_init(&t, &g, 1, 2);
            icnt_push(t.n, 0, 0, &t.r[0], 136, 0);   /* crosses 1..5, delivered at 7, never popped here */
            for (sim_cycle c = 1; c <= 10; c++)
                icnt_cycle(t.n, c);
            REQUIRE(icnt_peek(t.n, 0) == &t.r[0]);
            icnt_push(t.n, 0, 0, &t.r[1], 8, 10);    /* VC 0: waits for room at output 0 */
            icnt_push(t.n, 0, 1, &t.r[2], 8, 10);    /* VC 1 (more room) when there are two */
            sim_cycle arr = run_until_arrival(t.n, 1, 11, 30);
            if (vcs == 1) {
                CHECK_EQ_U64(arr, SIM_NEVER);
            } else {
                CHECK_EQ_U64(arr, 10 + 1 + 2);
                CHECK(icnt_peek(t.n, 1) == &t.r[2]);
                icnt_pop(t.n, 1);
                for (sim_cycle c = arr + 1; c <= 30; c++)
                    icnt_cycle(t.n, c);
            }
            CHECK(icnt_peek(t.n, 0) == &t.r[0]);
            CHECK(icnt_get_stats(t.n)->output_blocked > 0);
            icnt_pop(t.n, 0);
            /* room at output 0: the blocked request crosses at 31 */
            CHECK_EQ_U64(run_until_arrival(t.n, 0, 31, 100), 31 + 2);
            CHECK(icnt_peek(t.n, 0) == &t.r[1]);
            icnt_pop(t.n, 0);
            if (vcs == 1) {
                CHECK_EQ_U64(run_until_arrival(t.n, 1, 34, 100), 32 + 2);
                icnt_pop(t.n, 1);
            }
            CHECK(!icnt_busy(t.n));
            tnet_free(&t);
        }
}

TEST(icnt_vcs_keep_order_per_output)
{
    /* Input 0, two VCs of 8 flits, output buffers of 5 flits.  Output 1 is full (Z unpopped).
       Pushed at 10: X (5 flits, out 1) -> VC 0; F (5 flits, out 2) -> VC 1; A (1 flit, out 0) -> VC 0
       behind X (3 and 3 flits free: lowest index); B (1 flit, out 0) -> VC 1 behind F.  F crosses
       11..15; then B heads VC 1 with output 0 free, but A is older and for the same output, so B
       waits for A, which waits behind X until the consumer of output 1 pops at 40. */
    for (unsigned su = 1; su <= 2; su++) {
        struct gpu_config g = tcfg_vc(32, 2, 16, 5, 1, 2, su);
        struct tnet t;
        tnet_init(&t, &g, 1, 3);
        icnt_push(t.n, 0, 1, &t.r[9], 136, 0);
        for (sim_cycle c = 1; c <= 10; c++)
            icnt_cycle(t.n, c);
        REQUIRE(icnt_peek(t.n, 1) == &t.r[9]);
        icnt_push(t.n, 0, 1, &t.r[1], 136, 10);   /* X */
        icnt_push(t.n, 0, 2, &t.r[2], 136, 10);   /* F */
        icnt_push(t.n, 0, 0, &t.r[3], 8, 10);     /* A */
        icnt_push(t.n, 0, 0, &t.r[4], 8, 10);     /* B */
        CHECK(!icnt_can_push(t.n, 0, 136));       /* 2 and 2 flits free */
        CHECK(icnt_can_push(t.n, 0, 64));
        CHECK_EQ_U64(run_until_arrival(t.n, 2, 11, 40), 15 + 2);
        for (sim_cycle c = 18; c <= 40; c++)
            icnt_cycle(t.n, c);
        CHECK(icnt_peek(t.n, 0) == NULL);          /* B did not overtake A */
        icnt_pop(t.n, 2);
        icnt_pop(t.n, 1);                          /* Z: X crosses 41..45, A 46, B 47 */
        sim_cycle cyc[4];
        uint32_t id[4];
        CHECK_EQ_INT(drain_log(t.n, 0, 41, 100, cyc, id, 4), 2);
        CHECK_EQ_INT(id[0], 3);
        CHECK_EQ_INT(id[1], 4);
        CHECK_EQ_U64(cyc[0], 46 + 2);
        CHECK_EQ_U64(cyc[1], 47 + 2);
        CHECK(icnt_peek(t.n, 1) == &t.r[1]);
        icnt_pop(t.n, 1);
        CHECK(!icnt_busy(t.n));
        tnet_free(&t);
    }
}

/* Arrival cycles at outputs 0 and 1 of packets pushed at 10 from one input, ids 0.. in push order,
   1 flit each, to the outputs in `dst`; latency 3. */
static void two_output_arrivals(unsigned bw, unsigned vcs, unsigned su, const unsigned *dst, unsigned np,
                                sim_cycle *arr)
{
    struct gpu_config g = tcfg_vc(32, 3, 16, 16, bw, vcs, su);
    struct tnet t;
    tnet_init(&t, &g, 1, 2);
    for (unsigned k = 0; k < np; k++) {
        icnt_push(t.n, 0, dst[k], &t.r[k], 8, 10);
        arr[k] = SIM_NEVER;
    }
    for (sim_cycle c = 10; c <= 100; c++) {
        icnt_cycle(t.n, c);
        for (unsigned d = 0; d < 2; d++)
            for (struct mem_req *r; (r = icnt_peek(t.n, d)) != NULL; icnt_pop(t.n, d))
                arr[r->id] = c;
    }
    CHECK(!icnt_busy(t.n));
    tnet_free(&t);
}

TEST(icnt_input_speedup_sends_from_several_vcs)
{
    static const unsigned dst[4] = {0, 1, 0, 1};
    sim_cycle arr[4];
    /* two VCs (P -> VC 0, Q -> VC 1), two ports: both cross at 11 */
    two_output_arrivals(1, 2, 2, dst, 2, arr);
    CHECK_EQ_U64(arr[0], 14);
    CHECK_EQ_U64(arr[1], 14);
    /* one port: one VC per cycle */
    two_output_arrivals(1, 2, 1, dst, 2, arr);
    CHECK_EQ_U64(arr[0], 14);
    CHECK_EQ_U64(arr[1], 15);
    /* one VC: the speedup has nothing to add (the default crossbar) */
    two_output_arrivals(1, 1, 2, dst, 2, arr);
    CHECK_EQ_U64(arr[0], 14);
    CHECK_EQ_U64(arr[1], 15);
    /* 2 flits per cycle: one VC sends both packets in one cycle (as in icnt_bandwidth_per_output),
       but one port cannot serve two VCs in one cycle */
    two_output_arrivals(2, 1, 1, dst, 2, arr);
    CHECK_EQ_U64(arr[1], 14);
    two_output_arrivals(2, 2, 1, dst, 2, arr);
    CHECK_EQ_U64(arr[0], 14);
    CHECK_EQ_U64(arr[1], 15);
    two_output_arrivals(2, 2, 2, dst, 2, arr);
    CHECK_EQ_U64(arr[1], 14);
    /* one port, VCs taking turns: P0 (VC 0) at 11, Q0 (VC 1) at 12, P1 (VC 0) at 13, Q1 (VC 1) at
       14, although output 0, visited first each cycle, always has a packet waiting */
    two_output_arrivals(1, 2, 1, dst, 4, arr);
    CHECK_EQ_U64(arr[0], 14);
    CHECK_EQ_U64(arr[1], 15);
    CHECK_EQ_U64(arr[2], 16);
    CHECK_EQ_U64(arr[3], 17);
    /* two ports: both streams at full rate */
    two_output_arrivals(1, 2, 2, dst, 4, arr);
    CHECK_EQ_U64(arr[0], 14);
    CHECK_EQ_U64(arr[1], 14);
    CHECK_EQ_U64(arr[2], 15);
    CHECK_EQ_U64(arr[3], 15);
}

TEST(icnt_vcs_buffer_split_and_oversize)
{
    /* 10 flits over 3 VCs: 4, 3, 3.  A 5-flit packet enters only an empty VC, one per VC;
       a 4-flit one then fits nowhere, a 1-flit one does */
    struct gpu_config g = tcfg_vc(32, 2, 10, 16, 1, 3, 1);
    struct tnet t;
    tnet_init(&t, &g, 1, 1);
    for (unsigned k = 0; k < 3; k++) {
        REQUIRE(icnt_can_push(t.n, 0, 136));
        icnt_push(t.n, 0, 0, &t.r[k], 136, 0);
    }
    CHECK(!icnt_can_push(t.n, 0, 136));
    CHECK(!icnt_can_push(t.n, 0, 8));
    sim_cycle cyc[4];
    uint32_t id[4];
    /* one output: the packets cross back to back, in push order */
    CHECK_EQ_INT(drain_log(t.n, 0, 1, 100, cyc, id, 4), 3);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(id[k], k);
        CHECK_EQ_U64(cyc[k], 5 * (sim_cycle)(k + 1) + 2);
    }
    tnet_free(&t);
}

/* Per-output order under random traffic: at each output, the packets of one source come in push
   order (ids grow with the push order: packet k is source k % 3's). */
static void check_order(const struct trafficlog *log)
{
    for (uint32_t i = 0; i < log->n_pop; i++)
        for (uint32_t j = i + 1; j < log->n_pop; j++)
            if (log->pop_dst[j] == log->pop_dst[i] && log->pop_id[j] % 3 == log->pop_id[i] % 3 &&
                log->pop_id[j] < log->pop_id[i])
                T_FAIL_("packet %u overtook %u at output %u", log->pop_id[j], log->pop_id[i], log->pop_dst[i]);
}

TEST(icnt_vcs_next_event_order_and_determinism)
{
    static const unsigned cfgs[][2] = {{1, 1}, {2, 1}, {2, 2}, {3, 1}, {4, 2}, {4, 4}};
    static struct trafficlog a, b, c;
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        unsigned vcs = cfgs[k][0], su = cfgs[k][1];
        run_traffic(0, vcs, su, &a);
        run_traffic(1, vcs, su, &b);
        run_traffic(0, vcs, su, &c);
        CHECK_EQ_INT(a.n_pop, 120);
        CHECK_EQ_INT(b.n_pop, a.n_pop);
        CHECK_EQ_INT(c.n_pop, a.n_pop);
        for (uint32_t i = 0; i < a.n_pop && i < b.n_pop && i < c.n_pop; i++) {
            CHECK_EQ_U64(b.pop_at[i], a.pop_at[i]);
            CHECK_EQ_INT(b.pop_id[i], a.pop_id[i]);
            CHECK_EQ_U64(c.pop_at[i], a.pop_at[i]);
            CHECK_EQ_INT(c.pop_id[i], a.pop_id[i]);
        }
        CHECK_EQ_U64(b.st.lat_sum, a.st.lat_sum);
        CHECK_EQ_U64(b.st.output_blocked, a.st.output_blocked);
        CHECK_EQ_U64(c.st.lat_sum, a.st.lat_sum);
        CHECK_EQ_U64(c.st.output_blocked, a.st.output_blocked);
        CHECK_EQ_U64(c.st.input_full_stalls, a.st.input_full_stalls);
        check_order(&a);
        check_order(&b);
    }
}

/*
 * More ports: 7 sources, 5 outputs with consumers of different speeds, random sizes and bursts.
 * Every packet arrives once, at its output, after the older packets of its source for that output;
 * ticking every cycle and skipping to icnt_next_event give the same pops and statistics.
 */
enum { RT_NS = 7, RT_ND = 5, RT_NP = 1500 };

struct rtlog {
    uint64_t hash;   /* over (cycle, id) of every pop, in order */
    uint32_t n_pop, bad;
    struct icnt_stats st;
};

static void run_random(int skip, unsigned vcs, unsigned speedup, unsigned bw, struct rtlog *log)
{
    static struct mem_req r[RT_NP];
    static sim_cycle when[RT_NP];
    static uint32_t src[RT_NP], dst[RT_NP], bytes[RT_NP], q[RT_NS][RT_NP], got[RT_NP];
    uint32_t qh[RT_NS] = {0}, qt[RT_NS] = {0};
    int64_t last[RT_NS][RT_ND];
    struct gpu_config g = tcfg_vc(32, 3, 12, 10, bw, vcs, speedup);
    struct arena *a = arena_new(0);
    struct icnt *n = icnt_new(a, &g, RT_NS, RT_ND, "xbar_random");
    uint32_t seed = 4242u;
    sim_cycle c0 = 0;
    for (uint32_t k = 0; k < RT_NP; k++) {
        c0 += k % 200 == 199 ? 500 : lcg(&seed) % 3u;
        when[k] = c0;
        src[k] = lcg(&seed) % RT_NS;
        dst[k] = lcg(&seed) % RT_ND;
        bytes[k] = lcg(&seed) % 3u ? 8u : 136u;
        r[k].id = k;
        got[k] = 0;
    }
    for (unsigned i = 0; i < RT_NS; i++)
        for (unsigned d = 0; d < RT_ND; d++)
            last[i][d] = -1;
    memset(log, 0, sizeof *log);
    log->hash = 1469598103934665603ull;
    uint32_t next = 0;
    sim_cycle c = 0;
    for (;;) {
        icnt_cycle(n, c);
        /* the consumer of output d pops one packet every 2 + d cycles */
        for (unsigned d = 0; d < RT_ND; d++) {
            struct mem_req *p = c % (2 + d) == 0 ? icnt_peek(n, d) : NULL;
            if (!p)
                continue;
            uint32_t k = p->id;
            if (got[k]++ || dst[k] != d || (int64_t)k < last[src[k]][d])
                log->bad++;
            last[src[k]][d] = k;
            log->hash = (log->hash ^ k ^ (c << 20)) * 1099511628211ull;
            log->n_pop++;
            icnt_pop(n, d);
        }
        /* each source pushes its packets in order while its input takes them */
        while (next < RT_NP && when[next] <= c) {
            q[src[next]][qt[src[next]]++] = next;
            next++;
        }
        for (unsigned i = 0; i < RT_NS; i++)
            for (; qh[i] < qt[i] && icnt_can_push(n, i, bytes[q[i][qh[i]]]); qh[i]++)
                icnt_push(n, i, dst[q[i][qh[i]]], &r[q[i][qh[i]]], bytes[q[i][qh[i]]], c);
        int pending = 0;
        for (unsigned i = 0; i < RT_NS; i++)
            pending |= qh[i] < qt[i];
        if (next == RT_NP && !pending && !icnt_busy(n))
            break;
        if (c > 1000000) {
            log->bad++;
            break;
        }
        sim_cycle nx = c + 1;
        if (skip) {
            /* a refused push waits for a flit to cross (a network event) or for a pop */
            nx = icnt_next_event(n, c);
            if (next < RT_NP)
                nx = sim_min(nx, sim_max(when[next], c + 1));
            for (unsigned d = 0; d < RT_ND; d++)
                if (icnt_peek(n, d))
                    nx = sim_min(nx, (c / (2 + d) + 1) * (2 + d));
            if (nx == SIM_NEVER) {
                log->bad++;
                break;
            }
        }
        c = nx;
    }
    log->st = *icnt_get_stats(n);
    arena_free(a);
}

TEST(icnt_vcs_random_traffic_many_ports)
{
    static const unsigned cfgs[][3] = {{1, 1, 1}, {2, 1, 1}, {4, 2, 1}, {4, 1, 2}, {3, 2, 2}, {12, 3, 1}};
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        struct rtlog a, b;
        run_random(0, cfgs[k][0], cfgs[k][1], cfgs[k][2], &a);
        run_random(1, cfgs[k][0], cfgs[k][1], cfgs[k][2], &b);
        CHECK_EQ_INT(a.n_pop, RT_NP);
        CHECK_EQ_INT(a.bad, 0);
        CHECK_EQ_INT(b.n_pop, RT_NP);
        CHECK_EQ_INT(b.bad, 0);
        CHECK_EQ_U64(b.hash, a.hash);
        CHECK_EQ_U64(b.st.lat_sum, a.st.lat_sum);
        CHECK_EQ_U64(b.st.lat_max, a.st.lat_max);
        CHECK_EQ_U64(b.st.output_blocked, a.st.output_blocked);
        CHECK(a.st.output_blocked > 0);
    }
}

TEST_MAIN()
