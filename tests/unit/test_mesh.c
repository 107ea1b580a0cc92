/*
 * test_mesh.c - 2D mesh timing (src/noc/mesh.c against src/noc/icnt.h).
 *
 * Timing rule under test (docs/timing_icnt.md): a packet of F flits pushed
 * at cycle t alone in the network, from a source on node s to a destination
 * on node d, H = |dx| + |dy| hops apart, is visible to icnt_peek after
 * icnt_cycle(t + (H+1) R + H L + F), R = router latency, L = link latency.
 * Every harness calls icnt_cycle(c), then the consumers (pop), then the
 * producers (push) within cycle c, as gpu_run.c does.
 */
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/config.h"
#include "core/stats.h"
#include "noc/icnt.h"
#include "noc/mesh.h"
#include "noc/mesh_place.h"
#include "host/ws_internal.h"
#include "sys/gpu.h"
#include "sys/gpu_config.h"
#include "sys/gpu_cpu.h"
#include "test.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

#define MAXR 4096

struct tnet {
    struct arena *a;
    struct icnt *n;
    struct mem_req r[MAXR];
};

static struct gpu_config mcfg(unsigned cols, unsigned rows, unsigned vcs, unsigned vbuf, unsigned R, unsigned L)
{
    struct gpu_config g;
    memset(&g, 0, sizeof g);
    g.icnt_kind = ICNT_MESH;
    g.icnt_flit_size = 32;
    g.icnt_in_buffer = 16;
    g.icnt_out_buffer = 16;
    g.mesh_cols = cols;
    g.mesh_rows = rows;
    g.mesh_vcs = vcs;
    g.mesh_vc_buf = vbuf;
    g.mesh_router_latency = R;
    g.mesh_link_latency = L;
    return g;
}

static void tnet_at(struct tnet *t, const struct gpu_config *g, unsigned ns, const uint32_t *snode,
                    const uint8_t *scls, unsigned nd, const uint32_t *dnode, const uint8_t *dcls)
{
    t->a = arena_new(0);
    struct icnt_endpoints s = {.n = ns, .node = snode, .cls = scls}, d = {.n = nd, .node = dnode, .cls = dcls};
    t->n = icnt_new_at(t->a, g, &s, &d, "mesh_test");
    for (uint32_t i = 0; i < MAXR; i++) {
        memset(&t->r[i], 0, sizeof t->r[i]);
        t->r[i].id = i;
    }
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

static unsigned hops(unsigned cols, unsigned a, unsigned b)
{
    unsigned ax = a % cols, ay = a / cols, bx = b % cols, by = b / cols;
    return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

/* Arrival of a lone packet of `bytes` pushed at t from node s to node d. */
static sim_cycle lone(const struct gpu_config *g, unsigned s, unsigned d, uint32_t bytes, sim_cycle t)
{
    struct tnet tn;
    uint32_t sn = s, dn = d;
    tnet_at(&tn, g, 1, &sn, NULL, 1, &dn, NULL);
    icnt_push(tn.n, 0, 0, &tn.r[0], bytes, t);
    sim_cycle c = run_until_arrival(tn.n, 0, t, t + 10000);
    tnet_free(&tn);
    return c;
}

TEST(mesh_zero_load_latency_per_hop)
{
    static const unsigned RL[][2] = {{2, 1}, {1, 1}, {3, 2}, {1, 4}};
    for (size_t i = 0; i < sizeof RL / sizeof RL[0]; i++) {
        struct gpu_config g = mcfg(4, 4, 4, 4, RL[i][0], RL[i][1]);
        unsigned R = RL[i][0], L = RL[i][1];
        for (unsigned d = 0; d < 16; d++) {
            unsigned H = hops(4, 5, d);
            CHECK_EQ_U64(lone(&g, 5, d, 8, 100), 100 + (H + 1) * R + H * L + 1);      /* 1 flit */
            /* 5 flits in VCs of 4: the fifth waits for the first credit, R + L + 1 cycles after the first
               flit left, once, at the first router-to-router hop */
            unsigned bubble = H > 0 && R + L + 1 > 4 ? R + L + 1 - 4 : 0;
            CHECK_EQ_U64(lone(&g, 5, d, 136, 100), 100 + (H + 1) * R + H * L + 5 + bubble);
        }
    }
    /* the defaults R 2, L 1: corner to corner of an 8x8 mesh is 14 hops, 3 cycles each */
    struct gpu_config g8 = mcfg(8, 8, 4, 4, 2, 1);
    CHECK_EQ_U64(lone(&g8, 0, 63, 8, 0), 15 * 2 + 14 * 1 + 1);
    /* flit rounding: 0..32 bytes are one flit, 33 two */
    struct gpu_config g = mcfg(4, 4, 4, 4, 2, 1);
    CHECK_EQ_U64(lone(&g, 0, 1, 0, 10), 10 + 4 + 1 + 1);
    CHECK_EQ_U64(lone(&g, 0, 1, 32, 10), 10 + 4 + 1 + 1);
    CHECK_EQ_U64(lone(&g, 0, 1, 33, 10), 10 + 4 + 1 + 2);

    /* next_event of a lone packet, and statistics */
    struct tnet t;
    uint32_t sn = 0, dn = 6;   /* (0,0) -> (2,1): 3 hops */
    tnet_at(&t, &g, 1, &sn, NULL, 1, &dn, NULL);
    REQUIRE(t.n != NULL);
    CHECK(!icnt_busy(t.n));
    CHECK_EQ_U64(icnt_next_event(t.n, 49), SIM_NEVER);
    icnt_push(t.n, 0, 0, &t.r[3], 136, 50);
    CHECK(icnt_busy(t.n));
    CHECK_EQ_U64(icnt_next_event(t.n, 50), 51);   /* injection from the next cycle */
    icnt_cycle(t.n, 50);                          /* same cycle as the push: nothing moves */
    CHECK_EQ_U64(icnt_next_event(t.n, 50), 51);
    icnt_cycle(t.n, 51);                          /* head injected, crosses at 51 + R */
    CHECK_EQ_U64(icnt_next_event(t.n, 51), 52);   /* the body flits are still being injected */
    sim_cycle arr = run_until_arrival(t.n, 0, 52, 500);
    CHECK_EQ_U64(arr, 50 + 4 * 2 + 3 * 1 + 5);
    CHECK(icnt_peek(t.n, 0) == &t.r[3]);
    CHECK_EQ_U64(icnt_next_event(t.n, arr), SIM_NEVER);   /* waiting for the consumer is not a network event */
    icnt_pop(t.n, 0);
    CHECK(!icnt_busy(t.n));
    const struct icnt_stats *st = icnt_get_stats(t.n);
    CHECK_EQ_U64(st->packets, 1);
    CHECK_EQ_U64(st->flits, 5);
    CHECK_EQ_U64(st->lat_sum, 8 + 3 + 5);
    CHECK_EQ_U64(st->lat_max, 8 + 3 + 5);
    CHECK_EQ_U64(icnt_dst_packets(t.n, 0), 1);   /* the one destination's share */
    CHECK_EQ_U64(icnt_dst_lat_sum(t.n, 0), 8 + 3 + 5);
    const struct mesh_stats *ms = mesh_get_stats(t.n);
    REQUIRE(ms != NULL);
    CHECK_EQ_U64(ms->hops_sum, 3);
    CHECK_EQ_U64(ms->link_flits, 15);
    CHECK_EQ_U64(ms->va_stalls + ms->credit_stalls + ms->sw_stalls, 0);
    tnet_free(&t);

    /* a lone 1-flit packet after only the head is eligible: next_event jumps to its ready cycle */
    tnet_at(&t, &g, 1, &sn, NULL, 1, &dn, NULL);
    icnt_push(t.n, 0, 0, &t.r[0], 8, 10);
    icnt_cycle(t.n, 11);                          /* injected at 11, crosses at 13 */
    CHECK_EQ_U64(icnt_next_event(t.n, 11), 13);
    icnt_cycle(t.n, 13);                          /* skipping 12 changes nothing */
    CHECK_EQ_U64(icnt_next_event(t.n, 13), 16);   /* next router at 13 + L + R */
    CHECK_EQ_U64(run_until_arrival(t.n, 0, 16, 100), 10 + 4 * 2 + 3 + 1);
    tnet_free(&t);
}

TEST(mesh_xy_route_by_link_counters)
{
    struct gpu_config g = mcfg(4, 4, 4, 4, 2, 1);
    struct tnet t;
    /* (0,0) -> (2,3): east through nodes 0 and 1, then south through 2, 6 and 10 */
    uint32_t sn = 0, dn = 14;
    tnet_at(&t, &g, 1, &sn, NULL, 1, &dn, NULL);
    icnt_push(t.n, 0, 0, &t.r[0], 136, 0);
    CHECK(run_until_arrival(t.n, 0, 0, 200) != SIM_NEVER);
    uint64_t total = 0;
    for (unsigned v = 0; v < 16; v++)
        for (unsigned dir = MESH_N; dir <= MESH_W; dir++) {
            uint64_t f = mesh_link_flits(t.n, v, dir);
            total += f;
            int on_path = (dir == MESH_E && (v == 0 || v == 1)) || (dir == MESH_S && (v == 2 || v == 6 || v == 10));
            CHECK_EQ_U64(f, on_path ? 5 : 0);
        }
    CHECK_EQ_U64(total, 25);
    CHECK_EQ_U64(mesh_get_stats(t.n)->hops_sum, 5);
    CHECK_EQ_U64(mesh_links(t.n), 48);
    tnet_free(&t);

    /* the way back is not the same path: west along row 3, then north up column 0 */
    sn = 14;
    dn = 0;
    tnet_at(&t, &g, 1, &sn, NULL, 1, &dn, NULL);
    icnt_push(t.n, 0, 0, &t.r[0], 8, 0);
    CHECK(run_until_arrival(t.n, 0, 0, 200) != SIM_NEVER);
    for (unsigned v = 0; v < 16; v++)
        for (unsigned dir = MESH_N; dir <= MESH_W; dir++) {
            int on_path = (dir == MESH_W && (v == 14 || v == 13)) || (dir == MESH_N && (v == 12 || v == 8 || v == 4));
            CHECK_EQ_U64(mesh_link_flits(t.n, v, dir), on_path ? 1 : 0);
        }
    tnet_free(&t);

    /* a crossbar answers the mesh queries with nothing */
    struct gpu_config x;
    memset(&x, 0, sizeof x);
    x.icnt_flit_size = 32;
    x.icnt_in_buffer = x.icnt_out_buffer = 8;
    x.icnt_flits_per_cycle = 1;
    struct arena *a = arena_new(0);
    struct icnt *xb = icnt_new(a, &x, 2, 2, "xbar");
    CHECK(icnt_kind_of(xb) == ICNT_XBAR);
    CHECK(mesh_get_stats(xb) == NULL);
    CHECK_EQ_U64(mesh_link_flits(xb, 0, MESH_E), 0);
    arena_free(a);
}

/*
 * One source on node 0 streams 5-flit packets to a destination on node 3 of
 * a 4x1 mesh (one VC of 2 flits, so credits run out), as fast as
 * icnt_can_push allows; the consumer does not pop until cycle 300.  The
 * ejection queue takes two packets; behind them the flits back up to the
 * source.  Then the consumer pops one packet per cycle and all arrive, once
 * and in order.
 */
TEST(mesh_credit_stalls_backpressure_and_recovery)
{
    struct gpu_config g = mcfg(4, 1, 1, 2, 2, 1);
    g.icnt_in_buffer = 10;
    g.icnt_out_buffer = 10;
    struct tnet t;
    uint32_t sn = 0, dn = 3;
    tnet_at(&t, &g, 1, &sn, NULL, 1, &dn, NULL);
    const uint32_t total = 40;
    uint32_t pushed = 0, popped = 0, refused_at = 0, refusals = 0;
    bool refused = false;
    sim_cycle last_pop = 0;
    for (sim_cycle c = 0; c <= 2000 && popped < total; c++) {
        icnt_cycle(t.n, c);
        if (c == 299) {
            const struct icnt_stats *st = icnt_get_stats(t.n);
            CHECK_EQ_U64(st->packets, 2);
            CHECK(!icnt_can_push(t.n, 0, 136));
            CHECK(st->input_full_stalls > 0);
            CHECK(st->output_blocked > 200);   /* a head waits for the ejection queue every cycle */
            CHECK(mesh_get_stats(t.n)->credit_stalls > 200);
            /* 2 packets delivered, 1 VC x 2 flits in each of the 4 routers, 10 flits queued at the source */
            CHECK(pushed >= 4 && pushed <= 6);
        }
        if (c >= 300 && icnt_peek(t.n, 0)) {
            CHECK_EQ_INT(icnt_peek(t.n, 0)->id, popped);
            icnt_pop(t.n, 0);
            popped++;
            last_pop = c;
        }
        if (pushed < total && icnt_can_push(t.n, 0, 136)) {
            /* room came back only after the source's room version moved (icnt_room_version) */
            CHECK(!refused || icnt_room_version(t.n, 0) != refused_at);
            refused = false;
            icnt_push(t.n, 0, 0, &t.r[pushed], 136, c);
            pushed++;
        } else if (pushed < total && !refused) {
            refused = true;
            refused_at = icnt_room_version(t.n, 0);
            refusals++;
        }
    }
    CHECK(refusals > 10);
    CHECK_EQ_INT(popped, total);
    CHECK(!icnt_busy(t.n));
    CHECK(last_pop < 2000);
    /* after the recovery the flow is limited by one VC of 2 flits: the credit loop (R + L + 1 cycles) */
    CHECK_EQ_U64(icnt_get_stats(t.n)->packets, total);
    tnet_free(&t);
}

/* Two sources on nodes 0 and 1 of a 4x1 mesh stream 5-flit packets to a
   destination on node 3: at node 1 the western input and the local input
   contend for the eastern output's VCs and switch.  Returns the deliveries
   from each source in cycles [lo, hi] and the sequence of sources. */
static void contend(unsigned vcs, sim_cycle lo, sim_cycle hi, uint32_t *got0, uint32_t *got1, uint8_t *seq,
                    uint32_t *nseq)
{
    struct gpu_config g = mcfg(4, 1, vcs, 4, 2, 1);
    g.icnt_out_buffer = 64;
    struct tnet t;
    uint32_t sn[2] = {0, 1}, dn = 3;
    tnet_at(&t, &g, 2, sn, NULL, 1, &dn, NULL);
    uint32_t k = 0;
    *got0 = *got1 = *nseq = 0;
    for (sim_cycle c = 0; c <= hi; c++) {
        icnt_cycle(t.n, c);
        struct mem_req *r;
        while ((r = icnt_peek(t.n, 0)) != NULL) {
            unsigned from = r->warp;
            if (c >= lo) {
                *(from ? got1 : got0) += 1;
                if (*nseq < 256)
                    seq[(*nseq)++] = (uint8_t)from;
            }
            icnt_pop(t.n, 0);
        }
        for (unsigned s = 0; s < 2; s++)
            while (icnt_can_push(t.n, s, 136)) {
                struct mem_req *q = &t.r[k++ % MAXR];
                q->warp = (uint16_t)s;
                icnt_push(t.n, s, 0, q, 136, c);
            }
    }
    tnet_free(&t);
}

TEST(mesh_allocation_is_fair_between_two_sources)
{
    uint32_t a, b, n;
    uint8_t seq[256];
    /* one VC: the eastern VC of node 1 goes to each input in turn, so the packets alternate */
    contend(1, 200, 1199, &a, &b, seq, &n);
    CHECK(a + b > 50);
    CHECK(a > b ? a - b <= 1 : b - a <= 1);
    for (uint32_t i = 1; i < n; i++)
        CHECK(seq[i] != seq[i - 1]);
    /* four VCs: VC and switch allocation share the link evenly */
    contend(4, 200, 1199, &a, &b, seq, &n);
    CHECK(a + b > 150);   /* the ejection port is the bottleneck: ~1 flit per cycle */
    if (!(a > b ? a - b <= 2 : b - a <= 2))
        T_FAIL_("unfair: %u vs %u", a, b);
}

/* Random traffic: SM-like sources send requests to memory-like nodes on a
   request mesh, the memory nodes turn them into replies on a reply mesh; the
   consumers on both sides stop taking packets for long stretches.  Every
   request must be delivered exactly once on each network. */
struct sat {
    uint32_t req_seen[MAXR], rep_seen[MAXR];
    uint32_t done;
    sim_cycle end;
    struct icnt_stats req_st, rep_st;
    struct mesh_stats req_ms, rep_ms;
    uint32_t pop_log[2 * MAXR];
    sim_cycle pop_at[2 * MAXR];
    uint32_t n_log;
    uint32_t calls;
};

static uint32_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (uint32_t)x;
}

/* gates depend on the cycle only, so ticking every cycle and skipping see the same ones */
static int gate_open(uint32_t who, sim_cycle c, unsigned period)
{
    if ((c / 400 + who) % 5 == 0)   /* a closed stretch of 400 cycles now and then */
        return 0;
    return c % period == 0;
}

static sim_cycle next_open(uint32_t who, sim_cycle from, unsigned period)
{
    sim_cycle c = from;
    while (!gate_open(who, c, period))
        c++;
    return c;
}

static void saturate(const struct gpu_config *g, unsigned n_sm, unsigned n_mem, const uint8_t *sm_cls,
                     uint32_t n_req, int skip, struct sat *o)
{
    memset(o, 0, sizeof *o);
    struct arena *a = arena_new(0);
    uint32_t *smn = malloc(sizeof *smn * n_sm), *memn = malloc(sizeof *memn * n_mem);
    uint8_t *memc = malloc(n_mem);
    unsigned cols, rows;
    mesh_place_size(g->mesh_cols, g->mesh_rows, n_sm + n_mem, &cols, &rows);
    REQUIRE(mesh_place_default(cols, rows, n_sm, n_mem, smn, memn) == 0);
    for (unsigned p = 0; p < n_mem; p++)
        memc[p] = ICNT_CLASS_ANY;
    struct icnt_endpoints e_sm = {n_sm, smn, sm_cls}, e_mem = {n_mem, memn, memc};
    struct icnt *req = icnt_new_at(a, g, &e_sm, &e_mem, "req");
    struct icnt *rep = icnt_new_at(a, g, &e_mem, &e_sm, "rep");
    struct mem_req *r = calloc(n_req, sizeof *r);
    struct mem_req **held = calloc(n_mem, sizeof *held);
    uint32_t next = 0;
    sim_cycle c = 0;
    for (;;) {
        icnt_cycle(req, c);
        icnt_cycle(rep, c);
        o->calls++;
        /* icnt_any_delivered says whether some output has a packet to take */
        bool any_rep = false, any_req = false;
        for (unsigned i = 0; i < n_sm; i++)
            any_rep |= icnt_peek(rep, i) != NULL;
        for (unsigned p = 0; p < n_mem; p++)
            any_req |= icnt_peek(req, p) != NULL;
        if (any_rep != icnt_any_delivered(rep) || any_req != icnt_any_delivered(req)) {
            T_FAIL_("cycle %" PRIu64 ": icnt_any_delivered disagrees with the outputs", c);
            break;
        }
        /* SMs take replies when their gate is open */
        for (unsigned i = 0; i < n_sm; i++) {
            struct mem_req *q = icnt_peek(rep, i);
            if (q && gate_open(i, c, 3)) {
                CHECK_EQ_INT(q->sm, i);
                o->rep_seen[q->id]++;
                o->done++;
                o->pop_log[o->n_log] = q->id | 0x80000000u;
                o->pop_at[o->n_log++] = c;
                icnt_pop(rep, i);
            }
        }
        /* memory nodes: a held reply goes out first; then a new request when the gate is open */
        for (unsigned p = 0; p < n_mem; p++) {
            if (held[p] && icnt_can_push(rep, p, held[p]->size)) {
                icnt_push(rep, p, held[p]->sm, held[p], held[p]->size, c);
                held[p] = NULL;
            }
            struct mem_req *q = icnt_peek(req, p);
            if (q && !held[p] && gate_open(100 + p, c, 2)) {
                CHECK_EQ_INT(q->partition, p);
                o->req_seen[q->id]++;
                o->pop_log[o->n_log] = q->id;
                o->pop_at[o->n_log++] = c;
                icnt_pop(req, p);
                q->size = q->type ? 8u : 136u;   /* a read's reply carries the line */
                held[p] = q;
            }
        }
        /* SMs push requests on a fixed schedule: request k from SM k % n_sm from cycle k / 2 on */
        while (next < n_req && next / 2 <= c) {
            unsigned i = next % n_sm;
            uint32_t h = mix(next);
            uint32_t bytes = h & 1 ? 136u : 8u;   /* a write carries data, a read does not */
            if (!icnt_can_push(req, i, bytes))
                break;
            r[next] = (struct mem_req){.id = next, .sm = (uint16_t)i, .partition = (uint16_t)((h >> 8) % n_mem),
                                       .type = (uint8_t)(h & 1)};
            icnt_push(req, i, r[next].partition, &r[next], bytes, c);
            next++;
        }
        if (o->done == n_req || c > 400000)
            break;
        sim_cycle nx = c + 1;
        if (skip) {
            nx = sim_min(icnt_next_event(req, c), icnt_next_event(rep, c));
            if (next < n_req)
                nx = sim_min(nx, sim_max(next / 2, c + 1));
            /* a consumer with a packet waiting acts when its gate opens next */
            for (unsigned i = 0; i < n_sm; i++)
                if (icnt_peek(rep, i))
                    nx = sim_min(nx, next_open(i, c + 1, 3));
            for (unsigned p = 0; p < n_mem; p++) {
                if (icnt_peek(req, p) && !held[p])
                    nx = sim_min(nx, next_open(100 + p, c + 1, 2));
                if (held[p])   /* a refused push is retried (and counted) every cycle */
                    nx = c + 1;
            }
            if (next < n_req && next / 2 <= c)
                nx = c + 1;
            REQUIRE(nx != SIM_NEVER);
        }
        c = nx;
    }
    o->end = c;
    CHECK_EQ_INT(next, n_req);
    CHECK_EQ_INT(o->done, n_req);
    CHECK(!icnt_busy(req) && !icnt_busy(rep));
    for (uint32_t k = 0; k < n_req; k++) {
        if (o->req_seen[k] != 1 || o->rep_seen[k] != 1) {
            T_FAIL_("request %u seen %u times on the request mesh, %u on the reply mesh", k, o->req_seen[k],
                    o->rep_seen[k]);
            break;
        }
    }
    o->req_st = *icnt_get_stats(req);
    o->rep_st = *icnt_get_stats(rep);
    o->req_ms = *mesh_get_stats(req);
    o->rep_ms = *mesh_get_stats(rep);
    free(r);
    free(held);
    free(smn);
    free(memn);
    free(memc);
    arena_free(a);
}

TEST(mesh_saturation_no_deadlock_every_packet_once)
{
    static struct sat s;
    /* 10 SMs and 6 memory nodes on 4x4; small buffers so everything backs up */
    struct gpu_config g = mcfg(0, 0, 4, 4, 2, 1);
    saturate(&g, 10, 6, NULL, 3000, 0, &s);
    CHECK(s.req_ms.credit_stalls > 0 && s.rep_ms.credit_stalls > 0);
    CHECK(s.req_st.output_blocked > 0);
    CHECK(s.req_ms.va_stalls > 0);
    /* one VC of one flit per port, and concentration: 12 SMs on a 2x2 mesh with 2 memory nodes */
    struct gpu_config g1 = mcfg(2, 2, 1, 1, 1, 1);
    saturate(&g1, 12, 2, NULL, 2000, 0, &s);
    /* a long thin mesh, long links */
    struct gpu_config g2 = mcfg(8, 2, 2, 3, 3, 2);
    saturate(&g2, 12, 4, NULL, 2000, 0, &s);
    /* partitioned 3G1C with a few CPU-class sources: both lanes deliver everything */
    struct gpu_config gp = mcfg(4, 4, 4, 4, 2, 1);
    gp.mesh_gpu_vcs = 3;
    gp.mesh_cpu_vcs = 1;
    uint8_t cls[10];
    for (unsigned i = 0; i < 10; i++)
        cls[i] = i >= 7 ? ICNT_CLASS_CPU : ICNT_CLASS_GPU;
    saturate(&gp, 10, 6, cls, 3000, 0, &s);
    CHECK(s.req_ms.cpu_packets > 0 && s.rep_ms.cpu_packets > 0);
    CHECK_EQ_U64(s.req_ms.cpu_packets, s.rep_ms.cpu_packets);   /* a reply takes its requester's class */
}

TEST(mesh_next_event_skipping_is_exact)
{
    static struct sat a, b;
    struct gpu_config g = mcfg(4, 4, 2, 3, 2, 1);
    saturate(&g, 10, 6, NULL, 1500, 0, &a);
    saturate(&g, 10, 6, NULL, 1500, 1, &b);
    CHECK_EQ_U64(b.end, a.end);
    CHECK_EQ_INT(b.n_log, a.n_log);
    for (uint32_t i = 0; i < a.n_log && i < b.n_log; i++) {
        if (a.pop_log[i] != b.pop_log[i] || a.pop_at[i] != b.pop_at[i]) {
            T_FAIL_("pop %u differs: %x at %llu vs %x at %llu", i, a.pop_log[i], (unsigned long long)a.pop_at[i],
                    b.pop_log[i], (unsigned long long)b.pop_at[i]);
            break;
        }
    }
    CHECK(memcmp(&a.req_st, &b.req_st, sizeof a.req_st) == 0);
    CHECK(memcmp(&a.rep_st, &b.rep_st, sizeof a.rep_st) == 0);
    CHECK(memcmp(&a.req_ms, &b.req_ms, sizeof a.req_ms) == 0);
    CHECK(memcmp(&a.rep_ms, &b.rep_ms, sizeof a.rep_ms) == 0);
    CHECK(b.calls < a.calls);   /* and skipping did skip */

    /* sparse traffic: long idle stretches are skipped, the result is the same */
    struct gpu_config g2 = mcfg(3, 3, 4, 4, 3, 2);
    static struct trace { sim_cycle at[64]; uint32_t id[64]; uint32_t n, calls; struct icnt_stats st; } x[2];
    for (int skip = 0; skip < 2; skip++) {
        struct tnet t;
        uint32_t sn[3] = {0, 4, 8}, dn[2] = {2, 6};
        tnet_at(&t, &g2, 3, sn, NULL, 2, dn, NULL);
        memset(&x[skip], 0, sizeof x[skip]);
        uint32_t k = 0;
        for (sim_cycle c = 0; c < 20000;) {
            icnt_cycle(t.n, c);
            x[skip].calls++;
            for (unsigned d = 0; d < 2; d++)
                while (icnt_peek(t.n, d)) {
                    x[skip].at[x[skip].n] = c;
                    x[skip].id[x[skip].n++] = icnt_peek(t.n, d)->id;
                    icnt_pop(t.n, d);
                }
            while (k < 40 && (sim_cycle)k * 500 <= c) {
                icnt_push(t.n, k % 3, k % 2, &t.r[k], k % 3 ? 8u : 136u, c);
                k++;
            }
            sim_cycle nx = c + 1;
            if (skip) {
                nx = icnt_next_event(t.n, c);
                if (k < 40)
                    nx = sim_min(nx, sim_max((sim_cycle)k * 500, c + 1));
                if (nx == SIM_NEVER)
                    break;
            }
            c = nx;
        }
        x[skip].st = *icnt_get_stats(t.n);
        tnet_free(&t);
    }
    CHECK_EQ_INT(x[0].n, 40);
    CHECK_EQ_INT(x[1].n, 40);
    for (uint32_t i = 0; i < 40; i++) {
        CHECK_EQ_U64(x[1].at[i], x[0].at[i]);
        CHECK_EQ_INT(x[1].id[i], x[0].id[i]);
    }
    CHECK(memcmp(&x[0].st, &x[1].st, sizeof x[0].st) == 0);
    CHECK(x[1].calls * 10 < x[0].calls);
}

TEST(mesh_multi_flit_packets_stay_whole_and_in_order)
{
    struct gpu_config g = mcfg(4, 4, 4, 4, 2, 1);
    /* the tail arrives F-1 cycles after the head: a 5-flit packet is 4 cycles after a 1-flit one */
    CHECK_EQ_U64(lone(&g, 0, 15, 136, 0) - lone(&g, 0, 15, 8, 0), 4);
    /* a stream of mixed sizes from one source to one destination, one VC: delivered in push order, each
       at least its own flit count after the previous one (the ejection port moves one flit per cycle) */
    for (unsigned vcs = 1; vcs <= 4; vcs += 3) {
        struct gpu_config g1 = mcfg(4, 4, vcs, 2, 2, 1);
        g1.icnt_out_buffer = 64;
        struct tnet t;
        uint32_t sn = 12, dn = 3;
        tnet_at(&t, &g1, 1, &sn, NULL, 1, &dn, NULL);
        uint32_t k = 0, got = 0;
        uint32_t fl[200];
        sim_cycle prev = 0;
        int in_order = 1;
        for (sim_cycle c = 0; c < 3000 && got < 200; c++) {
            icnt_cycle(t.n, c);
            struct mem_req *r;
            while ((r = icnt_peek(t.n, 0)) != NULL) {
                if (r->id != got)
                    in_order = 0;
                if (got > 0 && vcs == 1)
                    CHECK(c - prev >= fl[r->id]);
                prev = c;
                got++;
                icnt_pop(t.n, 0);
            }
            if (k < 200) {
                uint32_t bytes = mix(k) % 3 ? 8u : 136u + 64u * (mix(k) % 2);   /* 1, 5 or 7 flits */
                if (icnt_can_push(t.n, 0, bytes)) {
                    fl[k] = (bytes + 31) / 32;
                    icnt_push(t.n, 0, 0, &t.r[k], bytes, c);
                    k++;
                }
            }
        }
        CHECK_EQ_INT(got, 200);
        if (vcs == 1)
            CHECK(in_order);   /* one VC per port: FIFO end to end */
        tnet_free(&t);
    }
}

TEST(mesh_concentrated_sources_share_the_injection_port)
{
    /* three sources on node 0 of a 2x1 mesh, one destination on node 1: the injection port moves one flit per
       cycle and serves the sources in turn */
    struct gpu_config g = mcfg(2, 1, 4, 4, 1, 1);
    g.icnt_out_buffer = 64;
    struct tnet t;
    uint32_t sn[3] = {0, 0, 0}, dn = 1;
    tnet_at(&t, &g, 3, sn, NULL, 1, &dn, NULL);
    for (unsigned s = 0; s < 3; s++)
        for (unsigned j = 0; j < 3; j++)
            icnt_push(t.n, s, 0, &t.r[s * 10 + j], 8, 0);
    uint32_t got = 0, ids[9];
    sim_cycle at[9];
    for (sim_cycle c = 1; c < 100 && got < 9; c++) {
        icnt_cycle(t.n, c);
        while (icnt_peek(t.n, 0)) {
            ids[got] = icnt_peek(t.n, 0)->id;
            at[got++] = c;
            icnt_pop(t.n, 0);
        }
    }
    REQUIRE(got == 9);
    static const uint32_t want[9] = {0, 10, 20, 1, 11, 21, 2, 12, 22};
    for (uint32_t i = 0; i < 9; i++) {
        CHECK_EQ_INT(ids[i], want[i]);
        CHECK_EQ_U64(at[i], 0 + 2 * 1 + 1 * 1 + 1 + i);   /* zero-load, then one per cycle */
    }
    CHECK(mesh_get_stats(t.n)->sw_stalls > 0);   /* the sources waited for each other */
    tnet_free(&t);
}

TEST(mesh_partitioned_lanes)
{
    /* 3G1C on 32-byte links: GPU flits are 24 bytes, CPU flits 8 bytes, each lane its own link share */
    struct gpu_config g = mcfg(4, 1, 4, 4, 2, 1);
    g.mesh_gpu_vcs = 3;
    g.mesh_cpu_vcs = 1;
    g.icnt_out_buffer = 64;
    struct tnet t;
    uint32_t sn[2] = {0, 0}, dn = 3;
    uint8_t cls[2] = {ICNT_CLASS_GPU, ICNT_CLASS_CPU}, dcls = ICNT_CLASS_ANY;
    tnet_at(&t, &g, 2, sn, cls, 1, &dn, &dcls);
    /* both at once: 136 B = 6 GPU flits, 17 CPU flits; the lanes do not wait for each other */
    icnt_push(t.n, 0, 0, &t.r[0], 136, 0);
    icnt_push(t.n, 1, 0, &t.r[1], 136, 0);
    sim_cycle gpu_at = run_until_arrival(t.n, 0, 0, 500);
    CHECK_EQ_U64(gpu_at, 4 * 2 + 3 * 1 + 6);
    CHECK(icnt_peek(t.n, 0) == &t.r[0]);
    icnt_pop(t.n, 0);
    CHECK_EQ_U64(run_until_arrival(t.n, 0, gpu_at + 1, 500), 4 * 2 + 3 * 1 + 17);
    CHECK(icnt_peek(t.n, 0) == &t.r[1]);
    icnt_pop(t.n, 0);
    const struct icnt_stats *st = icnt_get_stats(t.n);
    CHECK_EQ_U64(st->flits, 10);   /* statistics count -icnt_flit_size flits: 5 + 5 */
    CHECK_EQ_U64(mesh_get_stats(t.n)->cpu_packets, 1);
    CHECK_EQ_U64(mesh_get_stats(t.n)->link_flits, 3 * (6 + 17));
    tnet_free(&t);

    /* a reply from a memory node (class ANY) to a CPU core takes the CPU lane */
    uint32_t msn = 3, mdn[2] = {0, 1};
    uint8_t mcls = ICNT_CLASS_ANY, dcl2[2] = {ICNT_CLASS_GPU, ICNT_CLASS_CPU};
    tnet_at(&t, &g, 1, &msn, &mcls, 2, mdn, dcl2);
    icnt_push(t.n, 0, 1, &t.r[0], 136, 0);
    CHECK_EQ_U64(run_until_arrival(t.n, 1, 0, 500), 3 * 2 + 2 * 1 + 17);
    tnet_free(&t);
}

TEST(mesh_stats_registered_by_prefix)
{
    struct gpu_config g = mcfg(2, 2, 4, 4, 2, 1);
    struct tnet t;
    uint32_t sn[2] = {0, 1}, dn[2] = {3, 2};
    tnet_at(&t, &g, 2, sn, NULL, 2, dn, NULL);
    struct stats s;
    stats_init(&s, t.a);
    icnt_reg_stats(t.n, &s, "icnt_req");
    icnt_push(t.n, 0, 0, &t.r[0], 136, 0);   /* node 0 -> 3: 2 hops */
    icnt_push(t.n, 1, 1, &t.r[1], 8, 0);     /* node 1 -> 2: 2 hops */
    for (sim_cycle c = 1; c < 50; c++) {
        icnt_cycle(t.n, c);
        for (unsigned d = 0; d < 2; d++)
            if (icnt_peek(t.n, d))
                icnt_pop(t.n, d);
    }
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".packets"), 2);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".flits"), 6);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".lat_sum"), (3 * 2 + 2 + 5) + (3 * 2 + 2 + 1));
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".hops_sum"), 4);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".link_flits"), 12);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".va_stalls"), 0);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".credit_stalls"), 0);
    CHECK_EQ_U64(stats_sum(&s, "icnt_req", ".output_blocked"), 0);
    tnet_free(&t);
}

/* ---- configuration: placement, validation, presets ---------------------------------------------- */

static const char *load(struct arena *a, struct gpu_config *g, const char *preset, const char *extra)
{
    static char buf[1024];
    struct cfg c;
    struct cfg_error err;
    cfg_init(&c, a);
    buf[0] = '\0';
    if (preset) {
        char path[512];
        snprintf(path, sizeof path, "%s/configs/%s", WARPSIM_SOURCE_DIR, preset);
        if (cfg_load_file(&c, path, &err))
            goto fail;
    }
    if (extra && cfg_load_text(&c, extra, strlen(extra), "x.config", &err))
        goto fail;
    if (gpu_config_load(g, &c, &err) || cfg_check_unused(&c, 0, NULL, &err))
        goto fail;
    return buf;
fail:
    cfg_error_format(&err, buf, sizeof buf);
    return buf;
}

TEST(mesh_default_placement)
{
    uint32_t core[56], mem[8];
    REQUIRE(mesh_place_default(8, 8, 56, 8, core, mem) == 0);
    /* one memory node in every row and every column */
    unsigned rows = 0, cols = 0;
    for (unsigned k = 0; k < 8; k++) {
        rows |= 1u << (mem[k] / 8);
        cols |= 1u << (mem[k] % 8);
    }
    CHECK_EQ_INT(rows, 0xff);
    CHECK_EQ_INT(cols, 0xff);
    /* cores on every other node, once each */
    unsigned char used[64] = {0};
    for (unsigned k = 0; k < 8; k++)
        used[mem[k]]++;
    for (unsigned i = 0; i < 56; i++)
        used[core[i]]++;
    for (unsigned v = 0; v < 64; v++)
        CHECK_EQ_INT(used[v], 1);
    uint32_t core11[110], mem11[11];
    REQUIRE(mesh_place_default(11, 11, 110, 11, core11, mem11) == 0);
    rows = cols = 0;
    for (unsigned k = 0; k < 11; k++) {
        rows |= 1u << (mem11[k] / 11);
        cols |= 1u << (mem11[k] % 11);
    }
    CHECK_EQ_INT(rows, 0x7ff);
    CHECK_EQ_INT(cols, 0x7ff);
    /* size: the smallest near-square */
    unsigned c, r;
    mesh_place_size(0, 0, 21, &c, &r);
    CHECK(c == 5 && r == 5);
    mesh_place_size(0, 0, 64, &c, &r);
    CHECK(c == 8 && r == 8);
    mesh_place_size(6, 0, 21, &c, &r);
    CHECK(c == 6 && r == 4);
    /* lists with ranges */
    uint32_t out[6];
    char msg[200];
    CHECK_EQ_INT(mesh_place_parse("0-2, 7,9 - 10", 6, 16, out, msg, sizeof msg), 0);
    CHECK(out[0] == 0 && out[2] == 2 && out[3] == 7 && out[4] == 9 && out[5] == 10);
    CHECK_EQ_INT(mesh_place_parse("0-2,16", 4, 16, out, msg, sizeof msg), -1);
    CHECK(strstr(msg, "node 16 is outside") != NULL);
    CHECK_EQ_INT(mesh_place_parse("0,1", 3, 16, out, msg, sizeof msg), -1);
    CHECK(strstr(msg, "expected 3 nodes, got 2") != NULL);
    CHECK_EQ_INT(mesh_place_parse("0,x", 2, 16, out, msg, sizeof msg), -1);
}

TEST(mesh_config_errors_name_the_option)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"-warpsim_icnt torus\n", "-warpsim_icnt: unknown interconnect 'torus' (valid: xbar, mesh)"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_sm_nodes 0-13\n", "-warpsim_mesh_sm_nodes: expected 15 nodes, got 14"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_mem_nodes 0,1,2,3,4,25\n", "-warpsim_mesh_mem_nodes: node 25 is outside"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_mem_nodes 0;1\n", "-warpsim_mesh_mem_nodes: expected comma-separated"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_cols 2\n-warpsim_mesh_rows 2\n", "cannot hold 6 memory sub-partitions"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_partition 2G1C\n", "-warpsim_mesh_partition 2G1C: 2 + 1 VCs must equal"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_partition 3G\n", "-warpsim_mesh_partition: expected <gpu VCs>G<cpu VCs>C"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_vcs 0\n", "warpsim_mesh_vcs"},
        {"-warpsim_icnt mesh\n-warpsim_mesh_router_latency 0\n", "warpsim_mesh_router_latency"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct arena *a = arena_new(0);
        struct gpu_config g;
        const char *e = load(a, &g, NULL, bad[i].text);
        if (!strstr(e, bad[i].want))
            T_FAIL_("case %zu: '%s' does not contain '%s'", i, e, bad[i].want);
        if (i >= 1 && i <= 6 && !strstr(e, "x.config:"))
            T_FAIL_("case %zu: '%s' does not name the file and line", i, e);
        arena_free(a);
    }
    /* good ones: a given placement, the default size, a partition */
    struct arena *a = arena_new(0);
    struct gpu_config g;
    CHECK_EQ_STR(load(a, &g, NULL, "-warpsim_icnt mesh\n"), "");
    CHECK_EQ_INT(g.icnt_kind, ICNT_MESH);
    CHECK(g.mesh_cols == 5 && g.mesh_rows == 5);
    CHECK_EQ_STR(load(a, &g, NULL, "-warpsim_icnt mesh\n-warpsim_mesh_partition 3G1C\n-warpsim_mesh_cols 7\n"
                                   "-warpsim_mesh_rows 3\n-warpsim_mesh_mem_nodes 0,6,10,14,15,20\n"),
                 "");
    CHECK(g.mesh_gpu_vcs == 3 && g.mesh_cpu_vcs == 1);
    CHECK_EQ_STR(load(a, &g, NULL, NULL), "");
    CHECK_EQ_INT(g.icnt_kind, ICNT_XBAR);
    arena_free(a);
}

TEST(mesh_presets_load_and_round_trip)
{
    static const struct {
        const char *file;
        unsigned cores, mem, side;
    } p[] = {{"dyncta-56core-mesh.config", 56, 8, 8}, {"dyncta-110core-mesh.config", 110, 11, 11}};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        struct arena *a = arena_new(0);
        struct gpu_config g, back;
        REQUIRE(load(a, &g, p[i].file, NULL)[0] == '\0');
        CHECK_EQ_INT(g.icnt_kind, ICNT_MESH);
        CHECK_EQ_INT(g.n_cores, p[i].cores);
        CHECK_EQ_INT(g.n_sub_partitions, p[i].mem);
        CHECK(g.mesh_cols == p[i].side && g.mesh_rows == p[i].side);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        REQUIRE(f != NULL);
        gpu_config_write(f, &g);
        fclose(f);
        CHECK_EQ_STR(load(a, &back, NULL, buf), "");
        CHECK(back.mesh_cols == g.mesh_cols && back.icnt_kind == g.icnt_kind);
        free(buf);
        /* the GPU's two meshes: every SM and memory node on its own node */
        struct icnt *rq = icnt_new_gpu(a, &g, false, "icnt_req"), *rp = icnt_new_gpu(a, &g, true, "icnt_rep");
        REQUIRE(rq && rp);
        unsigned char used[121] = {0};
        for (unsigned s = 0; s < g.n_cores; s++) {
            used[mesh_src_node(rq, s)]++;
            CHECK_EQ_INT(mesh_dst_node(rp, s), mesh_src_node(rq, s));
        }
        for (unsigned m = 0; m < g.n_sub_partitions; m++)
            used[mesh_dst_node(rq, m)]++;
        for (unsigned v = 0; v < p[i].side * p[i].side; v++)
            CHECK_EQ_INT(used[v], 1);
        arena_free(a);
    }
}

/* Core 0 of hetero-small (3x3 mesh; xbar: the crossbar instead) runs milc alone, as the CLI's "alone
   run" does: no kernel; gpu_cpu_finish warms it up, then measures the quota.  extra: more options
   (NULL: none); skip: idle skipping.  0, or -1 with msg. */
static int cpu_alone(unsigned warm, unsigned quota, const char *extra, bool skip, char *msg, size_t n)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    char text[512];
    int rc = -1;
    snprintf(msg, n, "the chip could not be built");
    if (!a)
        return -1;
    cfg_init(&c, a);
    snprintf(text, sizeof text, "-warpsim_cpu_apps milc\n-warpsim_cpu_warmup %u\n-warpsim_cpu_quota %u\n%s", warm,
             quota, extra ? extra : "");
    if (cfg_load_file(&c, WARPSIM_SOURCE_DIR "/configs/hetero-small.config", &err) == 0 &&
        cfg_load_text(&c, text, strlen(text), "x.config", &err) == 0 && ws_create_ex(&ctx, &o, msg, n) == WS_SUCCESS &&
        ws_set_timing_config(ctx, &c, 0, NULL) == WS_SUCCESS) {
        struct gpu *g = ws_gpu(ctx);
        struct gpu_cpu_result r;
        gpu_set_idle_skip(g, skip);
        rc = gpu_cpu_finish(g, msg, n);
        if (rc == 0 && (!gpu_cpu_result(g, 0, &r) || !r.cycles || r.insns < quota)) {
            snprintf(msg, n, "core 0 was not measured");
            rc = -1;
        }
    }
    if (ctx)
        wsDestroy(ctx);
    arena_free(a);
    return rc;
}

/*
 * Regression: `warpsim run mm --config hetero-small --cpu-mix milc,milc,milc` failed in the alone
 * run of milc with "Deadlock: the CPU cores made no progress for 1000000 core cycles" at core
 * cycle ~210k, with nothing stuck.  The measured phase (gpu_cpu_finish -> run_cpus in gpu_run.c)
 * starts where the warm-up stopped, with last_progress = g->cyc[GD_CORE], the next core edge; when
 * its first edge is a DRAM or L2 edge before that core edge (now_core = that edge - 1) and nothing
 * moves in it, now_core - last_progress wraps around.  The mesh only changed the timing so that
 * the warm-up ended that way; the crossbar does too.  With slow core / network / CPU clocks, fast
 * L2 / DRAM clocks and no idle skipping every warm-up ends that way.
 */
TEST(mesh_cpu_alone_run_no_false_deadlock)
{
    char msg[4096];
    /* the reported case: milc's warm-up and quota from the shared run, the preset's clocks */
    if (cpu_alone(50010, 6900, NULL, true, msg, sizeof msg) != 0)
        T_FAIL_("warm-up 50010, quota 6900: %s", msg);
    static const char *const slow = "-gpgpu_clock_domains 100.0:100.0:1000.0:1100.0\n-warpsim_cpu_clock 100\n",
                             *slow_xbar = "-gpgpu_clock_domains 100.0:100.0:1000.0:1100.0\n-warpsim_cpu_clock 100\n"
                                          "-warpsim_icnt xbar\n";
    for (unsigned w = 1000; w < 1200; w += 50) {
        if (cpu_alone(w, 300, slow, false, msg, sizeof msg) != 0)
            T_FAIL_("mesh, slow core clocks, warm-up %u: %s", w, msg);
        if (cpu_alone(w, 300, slow_xbar, false, msg, sizeof msg) != 0)
            T_FAIL_("xbar, slow core clocks, warm-up %u: %s", w, msg);
    }
}

TEST_MAIN()
