/*
 * test_latency.c - the timing model measured against its own configuration
 * with the microbenchmarks (workloads/pchase, workloads/stream), through the
 * host API in timing mode with the GTX480 preset (configs/gtx480.config).
 *
 * Every expected number is derived from struct gpu_config fields, never a
 * literal cycle count, along the paths docs/microbench.md walks through:
 *   L1 hit   max(l1d_latency, 1) per hop (one issue per cycle);
 *   L2 hit   the SM's request queue to the next interconnect edge, the request
 *            crossbar (header flit + icnt_latency), the L2 edge and tag
 *            lookup, l2_hit_latency, the reply crossbar (header + line flits
 *            + icnt_latency), the register write one core cycle after the
 *            reply;
 *   DRAM     the same way to the L2 and back, with the miss instead of the ROP
 *            pipeline: the DRAM edge, PRE/tRP, ACT/tRCD, one RD per burst
 *            (tCCD / tCCDL apart), tCL, the burst, dram_return_latency, in DRAM
 *            cycles converted to core cycles, and the L2 fill edge;
 * and a timed round of 32 hops adds the loop's add -> setp -> bra chain and
 * the fetch redirect where they do not hide under the last hop.
 * Round times are differences between two launches that differ only in the
 * number of timed rounds, so the prologue and epilogue of the timed region
 * cancel.  Within 5% always (the brief's bound); exactly for L1 and L2 when
 * the interconnect and L2 run on the core clock (no clock-crossing phase), as
 * in the preset.  The driver's own one-launch numbers are checked too.
 *
 * The stream triad checks bandwidth: what the DRAM moved per second is never
 * above the peak (channels x bus width x data beats per command cycle / DRAM
 * command period) and above half of it.
 */
#include <string.h>

#include "test.h"
#include "calib_fixture.h"
#include "workload.h"
#include "pchase/pchase.h"
#include "stream/stream.h"
#include "core/stats.h"
#include "sys/gpu.h"

/* n cycles of a clock with period `per` ps, in core cycles */
static double lt_core(const struct gpu_config *g, double n, sim_ps per)
{
    return n * (double)per / (double)g->ps_core;
}

/* Every crossbar packet carries a header before its data (docs/timing.md,
   "Clocks and the engine": a read request is one 32-byte flit, a 128-byte
   line reply five). */
#define LT_PKT_HEADER 8u

static double lt_flits(const struct gpu_config *g, unsigned bytes)
{
    return (double)((bytes + g->icnt_flit_size - 1) / g->icnt_flit_size);
}

static double lt_max(double a, double b) { return a > b ? a : b; }

/* ---- the model's expectations (docs/microbench.md, "Expected latencies") ----
   Each returns the core cycles of one timed round: PCHASE_HOPS_PER_ROUND
   dependent loads and the loop's add / setp / bra. */

/* The round's loop control after its last load: the add issues the next cycle,
   setp waits for the add, bra for the setp (both integer "add" class), the
   taken branch flushes the instruction buffer and fetch resumes at the loop
   head branch_latency later, delivering fetch_latency after that. */
static double lt_loop_tail(const struct gpu_config *g)
{
    return 1.0 + 2.0 * g->lat_int[OPL_ADD] + g->branch_latency + g->fetch_latency;
}

/* A round of hops of `hop` cycles each: the loop tail overlaps the last hop. */
static double lt_round(const struct gpu_config *g, double hop)
{
    return (PCHASE_HOPS_PER_ROUND - 1) * hop + lt_max(hop, lt_loop_tail(g));
}

/* L1D hit: the load reads the L1D in its issue cycle and its register is
   written l1d_latency later; the dependent load issues in that cycle (a warp
   issues at most one instruction per cycle, and with fetch_latency <
   ibuffer_size the fetch stage keeps the buffer from running dry). */
static double lt_expect_l1(const struct gpu_config *g)
{
    return lt_round(g, lt_max(g->l1d_latency, 1.0));
}

/* The way from an L1D miss to the L2 slice and back, without the L2 itself:
   the miss enters the SM's request queue in the issue cycle and the request
   crossbar at the next interconnect edge; a one-flit read request crosses in
   flits + icnt_latency; the sub-partition looks it up at its next L2 edge
   (counted by the callers); the reply (header + line) crosses the reply
   crossbar; the SM fills the L1D and writes the register back one core cycle
   after the reply arrived. */
static double lt_net(const struct gpu_config *g)
{
    unsigned line = g->coalesce_sector ? g->coalesce_sector : calib_line(g->cache_dl1);
    double req = 1.0 + lt_flits(g, LT_PKT_HEADER) + g->icnt_latency;
    double rep = lt_flits(g, LT_PKT_HEADER + line) + g->icnt_latency;
    return lt_core(g, req + rep, g->ps_icnt) + 1.0;
}

static double lt_hop_l2(const struct gpu_config *g)
{
    /* (the ROP latency queue, core cycles) next L2 edge: tag lookup, then the hit pipeline into the reply queue */
    return lt_net(g) + lt_core(g, 1.0 + g->l2_hit_latency, g->ps_l2) + g->l2_rop_latency;
}

static double lt_expect_l2(const struct gpu_config *g) { return lt_round(g, lt_hop_l2(g)); }

static double lt_hop_dram(const struct gpu_config *g)
{
    const struct dram_timing *t = &g->dram;
    unsigned ratio = g->dram_data_command_freq_ratio ? g->dram_data_command_freq_ratio : 1;
    double bc = lt_max((double)(g->dram_burst_length / ratio), 1.0);   /* data-bus cycles of a burst */
    unsigned burst_bytes = g->dram_buswidth * g->dram_burst_length;
    unsigned bursts = (calib_line(g->cache_dl2) + burst_bytes - 1) / burst_bytes;   /* RD commands per line */
    /* consecutive RDs of one request: tCCD, the bus, and tCCDL inside a bank group (one bank) */
    double ccd = lt_max(lt_max(t->tCCD, bc), t->nbkgrp > 1 ? t->tCCDL : 0);
    /* the request reaches the channel at the first DRAM edge after the lookup (half a DRAM cycle on
       average) and is scheduled the cycle after; a row miss in an open bank: PRE, tRP, ACT, tRCD,
       the RDs, tCL, the last burst, the return path; the fill waits for the next L2 edge (half an L2
       cycle on average) and replies at once */
    double dram = 0.5 + 1.0 + t->tRP + t->tRCD + (double)(bursts - 1) * ccd + t->tCL + bc + g->dram_return_latency;
    return lt_net(g) + lt_core(g, 1.0, g->ps_l2) + lt_core(g, dram, g->ps_dram) + lt_core(g, 0.5, g->ps_l2) +
           g->l2_rop_latency + g->dram_latency;   /* GPGPU-Sim's ROP and DRAM latency queues, core cycles */
}

static double lt_expect_dram(const struct gpu_config *g) { return lt_round(g, lt_hop_dram(g)); }

/* ---- measurements ---- */

/* Core cycles of one timed round of a level, from two launches differing only
   in their number of timed rounds (the same chain, warm-up and prologue). */
static int lt_round_cycles(struct calib *t, enum pchase_level lv, double *round)
{
    struct pchase_params pp;
    struct pchase_meas a, b;
    pchase_level_params(lv, WL_TINY, &pp);
    const unsigned r1 = 4, r2 = 12;
    pp.rounds = r1;
    ws_status st = pchase_measure(t->ctx, t->mod, &pp, 11, &a);
    if (st == WS_SUCCESS) {
        pp.rounds = r2;
        st = pchase_measure(t->ctx, t->mod, &pp, 11, &b);
    }
    if (st != WS_SUCCESS) {
        fprintf(stderr, "  pchase %s: %s: %s\n", pp.name, wsStatusName(st), wsGetErrorMessage(t->ctx));
        return -1;
    }
    CHECK_EQ_INT(a.got_elem, a.want_elem);
    CHECK_EQ_INT(b.got_elem, b.want_elem);
    CHECK(a.t1 > a.t0);
    CHECK(b.t1 > b.t0);
    *round = ((double)(b.t1 - b.t0) - (double)(a.t1 - a.t0)) / (double)(r2 - r1);
    fprintf(stderr, "  pchase %-4s: %.3f core cycles per round, %.3f per hop (%llu cycles for %u rounds, %llu for %u)\n",
            pp.name, *round, *round / PCHASE_HOPS_PER_ROUND, (unsigned long long)(a.t1 - a.t0), r1,
            (unsigned long long)(b.t1 - b.t0), r2);
    return 0;
}

/* Measure a level on the preset (plus one override, name = value, or NULL)
   and compare with expect(): within 5% always, and exactly when `exact`. */
static void lt_check_level(enum pchase_level lv, double (*expect)(const struct gpu_config *), int exact,
                           const char *name, const char *value)
{
    struct calib t;
    if (calib_open(&t, "pchase", name, value) != 0) {
        calib_close(&t);
        T_FAIL_("no timing-mode context");
        return;
    }
    double got = 0;
    if (lt_round_cycles(&t, lv, &got) == 0) {
        double want = expect(&t.g);
        fprintf(stderr, "  expected %.3f per round, %.3f per hop, from the configuration%s%s%s%s\n", want,
                want / PCHASE_HOPS_PER_ROUND, name ? " with -" : "", name ? name : "", name ? " " : "",
                name ? value : "");
        CHECK_NEAR(got, want, 0.05 * want);
        if (exact)
            CHECK_NEAR(got, want, 1e-9);
    } else {
        T_FAIL_("pchase launch failed");
    }
    calib_close(&t);
}

/* The exact checks need the fetch stage to keep up with one instruction per
   cycle and (for L2) the interconnect and L2 on the core clock, as in the
   preset; the 5% checks hold regardless. */
static int lt_single_clock(void)
{
    struct calib t;
    int ok = calib_open(&t, NULL, NULL, NULL) == 0 && t.g.ps_icnt == t.g.ps_core && t.g.ps_l2 == t.g.ps_core &&
             t.g.fetch_latency < t.g.ibuffer_size;
    calib_close(&t);
    return ok;
}

TEST(pchase_l1_hit_latency) { lt_check_level(PCHASE_L1, lt_expect_l1, lt_single_clock(), NULL, NULL); }
/* with an L1D latency longer than the loop control, a hop is exactly l1d_latency */
TEST(pchase_l1_hit_latency_long) { lt_check_level(PCHASE_L1, lt_expect_l1, 1, "gpgpu_l1_latency", "20"); }
TEST(pchase_l2_hit_latency) { lt_check_level(PCHASE_L2, lt_expect_l2, lt_single_clock(), NULL, NULL); }
TEST(pchase_dram_latency) { lt_check_level(PCHASE_DRAM, lt_expect_dram, 0, NULL, NULL); }

/* The driver's own single-launch numbers (what `warpsim run pchase` reports,
   clock64 over the whole timed region, prologue included): verified, ordered
   L1 < L2 < DRAM, and each within 5% of the model. */
TEST(pchase_driver_levels)
{
    struct calib t;
    if (calib_open(&t, "pchase", NULL, NULL) != 0) {
        calib_close(&t);
        T_FAIL_("no timing-mode context");
        return;
    }
    const struct workload *w = wl_find("pchase");
    REQUIRE(w && w->micro == 1);
    struct wl_opts o = {.size = WL_SMALL, .seed = 5, .input = NULL, .verbose = 0, .log = stderr};
    struct wl_result r;
    memset(&r, 0, sizeof r);
    r.verified = 1;
    ws_status st = w->run(t.ctx, t.mod, &o, &r);
    CHECK_EQ_INT(st, WS_SUCCESS);
    CHECK_EQ_INT(r.verified, 1);
    CHECK_EQ_INT(r.launches, 3);
    fprintf(stderr, "  %s\n", r.detail);
    double got[3] = {0, 0, 0};
    const char *p = strstr(r.detail, "per hop: ");
    if (!p || sscanf(p, "per hop: L1 %lf, L2 %lf, DRAM %lf", &got[0], &got[1], &got[2]) != 3) {
        calib_close(&t);
        T_FAIL_("no cycles per hop in the driver's detail");
        return;
    }
    CHECK(got[0] < got[1] && got[1] < got[2]);
    double (*const expect[3])(const struct gpu_config *) = {lt_expect_l1, lt_expect_l2, lt_expect_dram};
    for (int i = 0; i < 3; i++) {
        double want = expect[i](&t.g) / PCHASE_HOPS_PER_ROUND;
        fprintf(stderr, "  level %d: %.3f cycles per hop, expected %.3f\n", i, got[i], want);
        CHECK_NEAR(got[i], want, 0.05 * want);
    }
    calib_close(&t);
}

/* DRAM counters summed over the channels */
static uint64_t lt_dram_sum(ws_ctx *ctx, const char *suffix)
{
    struct gpu *g = ws_gpu(ctx);
    return g ? stats_sum(gpu_stats(g), "dram", suffix) : 0;
}

TEST(stream_bandwidth_below_peak)
{
    struct calib t;
    if (calib_open(&t, "stream", NULL, NULL) != 0) {
        calib_close(&t);
        T_FAIL_("no timing-mode context");
        return;
    }
    size_t n;
    unsigned grid;
    stream_size(WL_TINY, &n, &grid);
    struct wl_result r;
    memset(&r, 0, sizeof r);
    r.verified = 1;
    struct stream_meas m;
    uint64_t rd0 = lt_dram_sum(t.ctx, ".reads"), wr0 = lt_dram_sum(t.ctx, ".writes");
    ws_status st = stream_measure(t.ctx, t.mod, n, grid, 3, &r, &m);
    uint64_t rd = lt_dram_sum(t.ctx, ".reads") - rd0, wr = lt_dram_sum(t.ctx, ".writes") - wr0;
    CHECK_EQ_INT(st, WS_SUCCESS);
    CHECK_EQ_INT(r.verified, 1);
    CHECK_EQ_U64(m.bytes, 12ull * n);
    if (m.cycles == 0) {
        calib_close(&t);
        T_FAIL_("no cycles: not a timing-mode run");
        return;
    }
    /* bytes per picosecond: STREAM's count, what the DRAM moved, and the peak =
       channels x bus width x data beats per command cycle / command period */
    double ps = (double)m.cycles * (double)t.g.ps_core;
    double got = (double)m.bytes / ps;
    unsigned l2_line = calib_line(t.g.cache_dl2);
    double dram = (double)(rd + wr) * l2_line / ps;
    double peak = (double)t.g.n_mem * t.g.dram_buswidth * t.g.dram_data_command_freq_ratio / (double)t.g.ps_dram;
    fprintf(stderr,
            "  stream: %.1f GB/s (STREAM count), DRAM moved %.1f GB/s (%llu line reads, %llu writes), peak %.1f GB/s;"
            " %llu core cycles\n",
            got * 1e3, dram * 1e3, (unsigned long long)rd, (unsigned long long)wr, peak * 1e3,
            (unsigned long long)m.cycles);
    /* b and c are far larger than the L2 and come straight from the host:
       every byte of them crosses the DRAM bus at least once */
    CHECK((double)rd * l2_line >= 2.0 * (double)n * sizeof(float));
    CHECK(dram <= peak);
    CHECK(got <= peak);
    /* A bandwidth-bound kernel that fills the machine keeps the DRAM buses
       busy more than half of the time. */
    CHECK(dram >= 0.5 * peak);
    calib_close(&t);
}

TEST_MAIN()
