/*
 * test_microbench.c - the timing model measured against its own configuration
 * with the throughput microbenchmarks (workloads/cachebw, bankconf, atomics,
 * diverge, ctarate), through the host API in timing mode with the GTX480
 * preset (configs/gtx480.config).  docs/microbench.md walks through every
 * expectation.
 *
 * Every expected number is derived from struct gpu_config fields, never a
 * literal cycle count:
 *   L1D bandwidth   one L1D access per block per cycle (blocks = L1D lines,
 *                   or sectors with -warpsim_coalesce_sector): a ceiling that
 *                   an SM cannot pass, and that a kernel of coalesced 16-byte
 *                   loads with three instructions per load comes within 10% of;
 *   L2 bandwidth    each sub-partition sends at most icnt_bandwidth flits per
 *                   interconnect cycle into the reply crossbar (a line reply is
 *                   header + line flits) and looks up one request per L2 cycle:
 *                   a ceiling for the whole GPU;
 *   bank conflicts  a warp access takes as many LD/ST passes as the most
 *                   distinct words any of shmem_num_banks banks holds, so
 *                   cycles per access = passes (exactly 1, 2, 4, ..., 32 with
 *                   32 banks), except that one pass cannot go below the loop's
 *                   own instruction count per access;
 *   atomics         one request per 128-byte block, one L2 lookup per request;
 *                   one address loads one slice, a word per thread spreads the
 *                   same requests over every slice;
 *   divergence      each extra path of a warp costs its own serialised body:
 *                   the path's dependent chain (lat_int[MAD] per link) in place
 *                   of a skipped test, exactly, from the loop's code;
 *   CTA launch      an SM takes at most one CTA per cycle (the rr CTA
 *                   scheduler), and a one-warp CTA cannot start faster than its
 *                   instructions are fetched (ibuffer_size per fetch, one fetch
 *                   per SM per cycle).
 * Steady-state figures are differences between two launches that differ only
 * in their amount of work, so the start and end of the timed region cancel.
 * Tolerances are stated at each check.
 */
#include <string.h>

#include "test.h"
#include "calib_fixture.h"
#include "workload.h"
#include "cachebw/cachebw.h"
#include "bankconf/bankconf.h"
#include "atomics/atomics.h"
#include "diverge/diverge.h"
#include "ctarate/ctarate.h"
#include "core/stats.h"
#include "sys/gpu.h"

#define MB_OPEN(t, wl, name, value)                       \
    do {                                                  \
        if (calib_open(&(t), wl, name, value) != 0) {     \
            calib_close(&(t));                            \
            T_FAIL_("no timing-mode context for %s", wl); \
            return;                                       \
        }                                                 \
    } while (0)

static struct wl_result mb_result(void)
{
    struct wl_result r;
    memset(&r, 0, sizeof r);
    r.verified = 1;
    return r;
}

/* A packet of `bytes` payload behind the 8-byte header, in flits (docs/timing.md: a read
   request is one 32-byte flit, a 128-byte line reply five). */
static unsigned mb_flits(const struct gpu_config *g, unsigned bytes)
{
    return (8u + bytes + g->icnt_flit_size - 1u) / g->icnt_flit_size;
}

static double mb_min(double a, double b) { return a < b ? a : b; }

static uint64_t mb_stat(ws_ctx *ctx, const char *prefix, const char *suffix)
{
    struct gpu *g = ws_gpu(ctx);
    return g ? stats_sum(gpu_stats(g), prefix, suffix) : 0;
}

/* ---- L1D bandwidth ------------------------------------------------------------------------- */

/* Bytes an SM's L1D can deliver per core cycle: one block per cycle. */
static double mb_l1d_peak(const struct gpu_config *g)
{
    return g->coalesce_sector ? (double)g->coalesce_sector : (double)calib_line(g->cache_dl1);
}

TEST(cachebw_l1d_bandwidth)
{
    struct calib t;
    MB_OPEN(t, "cachebw", NULL, NULL);
    struct cachebw_params pp;
    cachebw_level_params(CACHEBW_L1, WL_TINY, &pp);
    /* one CTA: one SM, its window alone */
    pp.grid = 1;
    struct cachebw_meas a, b;
    struct wl_result r = mb_result();
    const unsigned p1 = 4, p2 = 12;
    uint64_t rd0 = mb_stat(t.ctx, "sm", ".l1d.reads"), ms0 = mb_stat(t.ctx, "sm", ".l1d.read_misses");
    pp.passes = p1;
    ws_status st = cachebw_measure(t.ctx, t.mod, &pp, 7, &r, &a);
    pp.passes = p2;
    if (st == WS_SUCCESS)
        st = cachebw_measure(t.ctx, t.mod, &pp, 7, &r, &b);
    uint64_t rd = mb_stat(t.ctx, "sm", ".l1d.reads") - rd0, ms = mb_stat(t.ctx, "sm", ".l1d.read_misses") - ms0;
    CHECK_EQ_INT(st, WS_SUCCESS);
    CHECK_EQ_INT(r.verified, 1);
    if (st != WS_SUCCESS || !(b.sm_window > a.sm_window)) {
        calib_close(&t);
        T_FAIL_("no windows");
        return;
    }
    /* only the warm-up pass of each launch misses (a line's first access, or one merged
       into its pending miss): every timed block access hits */
    uint64_t blocks_per_pass = (uint64_t)pp.block / 32u * pp.loads * (CACHEBW_VEC * 32u / calib_line(t.g.cache_dl1));
    CHECK(ms <= 2u * blocks_per_pass);
    CHECK(rd - ms >= (uint64_t)(p1 + p2) * blocks_per_pass);
    double steady = (double)(b.bytes - a.bytes) / (b.sm_window - a.sm_window);
    double peak = mb_l1d_peak(&t.g);
    fprintf(stderr,
            "  L1D: %.2f bytes/cycle per SM in steady state (%u vs %u passes), %.2f in one %u-pass launch; "
            "peak %.0f (one %.0f-byte block per cycle)\n",
            steady, p2, p1, a.per_sm, p1, peak, peak);
    /* The LD/ST unit accesses one block per cycle: no window can be shorter than its blocks
       (every load of the window is accessed inside it). */
    CHECK(steady <= peak * (1.0 + 1e-9));
    CHECK(a.per_sm <= peak * (1.0 + 1e-9));
    /* Within 10% in steady state: the kernel issues three instructions per 4-block load (the
       load and two adds), fewer than the unit's four cycles, but the fetch stage (one warp
       per cycle, ibuffer_size instructions at most) and the loop branch every 8 loads leave
       the unit idle now and then. */
    CHECK(steady >= 0.9 * peak);
    calib_close(&t);
}

/* ---- L2 bandwidth -------------------------------------------------------------------------- */

/* Bytes per core cycle the L2 slices can return, all of them: a line reply is
   header + line flits, a slice pushes icnt_bandwidth flits per interconnect
   cycle into the reply crossbar and looks up one request per L2 cycle; an SM
   takes icnt_bandwidth flits per interconnect cycle from it. */
static double mb_l2_peak(const struct gpu_config *g, unsigned sms)
{
    unsigned line = g->coalesce_sector ? g->coalesce_sector : calib_line(g->cache_dl1);
    double link = (double)line * g->icnt_flits_per_cycle / mb_flits(g, line) * (double)g->ps_core / (double)g->ps_icnt;
    double lookup = (double)line * (double)g->ps_core / (double)g->ps_l2;
    return mb_min(g->n_sub_partitions * mb_min(link, lookup), sms * link);
}

static void mb_l2_case(const char *name, const char *value, double *got, double *peak)
{
    struct calib t;
    *got = *peak = 0;
    if (calib_open(&t, "cachebw", name, value) != 0) {
        calib_close(&t);
        T_FAIL_("no timing-mode context");
        return;
    }
    struct cachebw_params pp;
    cachebw_level_params(CACHEBW_L2, WL_TINY, &pp);
    struct cachebw_meas m;
    struct wl_result r = mb_result();
    uint64_t rd0 = mb_stat(t.ctx, "sm", ".l1d.reads"), ms0 = mb_stat(t.ctx, "sm", ".l1d.read_misses");
    uint64_t l2h0 = mb_stat(t.ctx, "part", ".l2_read_hits");
    ws_status st = cachebw_measure(t.ctx, t.mod, &pp, 9, &r, &m);
    uint64_t rd = mb_stat(t.ctx, "sm", ".l1d.reads") - rd0, ms = mb_stat(t.ctx, "sm", ".l1d.read_misses") - ms0;
    uint64_t l2h = mb_stat(t.ctx, "part", ".l2_read_hits") - l2h0;
    CHECK_EQ_INT(st, WS_SUCCESS);
    CHECK_EQ_INT(r.verified, 1);
    /* every load of both launches missed the L1D (each SM reads each line once per launch),
       and the timed launch's every line came from the L2 (the pre-warm launch's lines may
       come from DRAM) */
    unsigned line = calib_line(t.g.cache_dl1);
    CHECK_EQ_U64(ms, rd);
    CHECK(l2h >= (uint64_t)pp.grid * (pp.bytes / line));
    *got = m.total;
    *peak = mb_l2_peak(&t.g, m.sms);
    /* the ceiling holds exactly, up to one line reply's flits at the window's edge: every
       reply of the timed launch crossed inside its window */
    double edge = mb_flits(&t.g, line) * (double)t.g.ps_icnt / (double)t.g.ps_core;
    CHECK((double)m.bytes <= *peak * ((double)m.window + edge));
    fprintf(stderr, "  L2%s%s%s: %.2f bytes/core cycle over %u SMs (window %llu cycles), ceiling %.2f (%.0f%%)\n",
            name ? " with -" : "", name ? name : "", name ? value : "", *got, m.sms,
            (unsigned long long)m.window, *peak, 100.0 * *got / *peak);
    calib_close(&t);
}

TEST(cachebw_l2_bandwidth)
{
    double got, peak;
    mb_l2_case(NULL, NULL, &got, &peak);
    REQUIRE(peak > 0);
    /* Not below 70% of it: the reply crossbar is input-queued without virtual output
       queues, so a slice whose head reply waits for a busy SM port sends nothing
       (docs/timing.md, head-of-line blocking); measured 76% on the preset. */
    CHECK(got >= 0.7 * peak);
    /* The crossbar's links are what limits: twice their bandwidth gives at least 1.5x. */
    double got2, peak2;
    mb_l2_case("warpsim_icnt_bandwidth", "2", &got2, &peak2);
    CHECK(got2 >= 1.5 * got);
}

/* ---- shared-memory bank conflicts ------------------------------------------------------------- */

/* Passes of one warp access of 32 lanes to words lane * stride + k: the most
   distinct words one of shmem_num_banks banks holds (a word read by several
   lanes is one broadcast). */
static unsigned mb_passes(const struct gpu_config *g, unsigned stride)
{
    unsigned nb = g->shmem_num_banks ? g->shmem_num_banks : 32;
    unsigned most = 1;
    for (unsigned b = 0; b < nb; b++) {
        unsigned words[32], n = 0;
        for (unsigned l = 0; l < 32; l++) {
            unsigned w = l * stride + 3;   /* any k: a shift by k moves every word to the next bank alike */
            if (w % nb != b)
                continue;
            unsigned i = 0;
            while (i < n && words[i] != w)
                i++;
            if (i == n)
                words[n++] = w;
        }
        most = n > most ? n : most;
    }
    return most;
}

TEST(bankconf_cycles_per_access)
{
    struct calib t;
    MB_OPEN(t, "bankconf", NULL, NULL);
    struct bankconf_meas a, b;
    struct wl_result r = mb_result();
    const unsigned u1 = 1, u2 = 3;
    uint64_t cf0 = mb_stat(t.ctx, "sm", ".shmem_bank_conflicts");
    ws_status st = bankconf_measure(t.ctx, t.mod, u1, 4, &r, &a);
    uint64_t cf1 = mb_stat(t.ctx, "sm", ".shmem_bank_conflicts");
    if (st == WS_SUCCESS)
        st = bankconf_measure(t.ctx, t.mod, u2, 4, &r, &b);
    CHECK_EQ_INT(st, WS_SUCCESS);
    CHECK_EQ_INT(r.verified, 1);
    if (st != WS_SUCCESS) {
        calib_close(&t);
        return;
    }
    /* the extra passes the SMs counted: (passes - 1) per access, warm-up round included */
    uint64_t want_cf = 0;
    double got[BANKCONF_NSTRIDES];
    for (unsigned c = 0; c < BANKCONF_NSTRIDES; c++) {
        unsigned p = mb_passes(&t.g, a.stride[c]);
        want_cf += (uint64_t)(p - 1) * (a.accesses[c] + BANKCONF_WARPS * BANKCONF_LOADS);
        got[c] = ((double)b.cycles[c] - (double)a.cycles[c]) / (double)(b.accesses[c] - a.accesses[c]);
        fprintf(stderr, "  stride %2u: %.3f cycles per warp access in steady state (%.3f in one launch), %u passes\n",
                a.stride[c], got[c], a.per_access[c], p);
        /* The LD/ST unit is busy `passes` cycles per access, so the accesses of the window
           cannot take less (1% for the clock reads around the window). */
        CHECK(got[c] >= 0.99 * p);
        if (p > 1) {
            /* Conflicts dominate: exactly the passes, 2% for the window's edges. */
            CHECK_NEAR(got[c], p, 0.02 * p);
        } else {
            /* One pass: the loop issues 16 loads and 3 loop-control instructions per round,
               so a front end that delivers one instruction per cycle gives 19/16 cycles per
               access at most. */
            CHECK(got[c] <= (double)(BANKCONF_LOADS + 3) / BANKCONF_LOADS);
        }
    }
    CHECK_EQ_U64(cf1 - cf0, want_cf);
    /* the CTAs of different strides ran on different SMs, so they did not share an LD/ST unit */
    for (unsigned c = 0; c < BANKCONF_NSTRIDES; c++)
        for (unsigned d = c + 1; d < BANKCONF_NSTRIDES; d++)
            CHECK(a.sm[c] != a.sm[d]);
    /* proportional to the degree: stride 32 costs (passes(32) / passes(2)) times stride 2 */
    CHECK_NEAR(got[6] / got[2], (double)mb_passes(&t.g, 32) / mb_passes(&t.g, 2), 0.03 * mb_passes(&t.g, 32));
    calib_close(&t);
}

/* ---- atomics ------------------------------------------------------------------------------- */

/* Thread atomics per core cycle the L2 side can serve in a mode: a warp access
   is one request per 128-byte block (bytes = its lanes' words, at most the
   block); a slice takes one request per L2 cycle and one flit per interconnect
   cycle per link each way, so a request costs max(lookup, request flits,
   reply flits); one address uses one slice, the others all of them. */
static unsigned mb_atomic_lanes(enum atomics_mode mode) { return mode == ATOMICS_LINES ? 1u : 32u; }

/* Core cycles a slice needs per atomic request of a mode. */
static double mb_atomic_req_cycles(const struct gpu_config *g, enum atomics_mode mode)
{
    unsigned blk = g->coalesce_sector ? g->coalesce_sector : calib_line(g->cache_dl1);
    unsigned bytes = mb_atomic_lanes(mode) * 4u < blk ? mb_atomic_lanes(mode) * 4u : blk;
    double icnt = (double)g->ps_icnt / (double)g->ps_core / g->icnt_flits_per_cycle;
    double per_req = (double)mb_flits(g, bytes) * icnt;   /* request and reply carry the same bytes */
    double lookup = (double)g->ps_l2 / (double)g->ps_core;
    return per_req > lookup ? per_req : lookup;
}

static double mb_atomic_peak(const struct gpu_config *g, enum atomics_mode mode)
{
    unsigned slices = mode == ATOMICS_ONE ? 1u : g->n_sub_partitions;
    return slices * mb_atomic_lanes(mode) / mb_atomic_req_cycles(g, mode);
}

TEST(atomics_throughput)
{
    struct calib t;
    MB_OPEN(t, "atomics", NULL, NULL);
    double got[ATOMICS_NMODES];
    for (int k = 0; k < ATOMICS_NMODES; k++) {
        enum atomics_mode mode = (enum atomics_mode)k;
        struct atomics_meas a, b;
        struct wl_result r = mb_result();
        unsigned i1 = atomics_iters(mode, WL_TINY), i2 = 3u * i1;
        uint64_t at0 = mb_stat(t.ctx, "part", ".l2_atomics");
        ws_status st = atomics_measure(t.ctx, t.mod, mode, i1, &r, &a);
        uint64_t at1 = mb_stat(t.ctx, "part", ".l2_atomics");
        if (st == WS_SUCCESS)
            st = atomics_measure(t.ctx, t.mod, mode, i2, &r, &b);
        CHECK_EQ_INT(st, WS_SUCCESS);
        CHECK_EQ_INT(r.verified, 1);
        if (st != WS_SUCCESS || !(b.window > a.window)) {
            T_FAIL_("atomics %s: no windows", atomics_mode_name(mode));
            continue;
        }
        /* one L2 lookup per warp access and block: 1 per warp access, or 32 for a line each */
        uint64_t warps = (uint64_t)ATOMICS_GRID * ATOMICS_BLOCK / 32u;
        CHECK_EQ_U64(at1 - at0, warps * (ATOMICS_WARM + i1) * (mode == ATOMICS_LINES ? 32u : 1u));
        got[k] = (double)(b.ops - a.ops) / (double)(b.window - a.window);
        double peak = mb_atomic_peak(&t.g, mode);
        fprintf(stderr, "  atomics, %s: %.2f per core cycle in steady state (%.2f and %.2f in the two launches), "
                "ceiling %.2f (%.0f%%)\n", atomics_mode_name(mode), got[k], a.per_cycle, b.per_cycle, peak,
                100.0 * got[k] / peak);
        /* The ceiling holds for each launch: all of its timed atomics went to the L2 and came
           back inside its window (one request's time allowed for the window's edges).  The
           difference of two launches is not bounded that strictly (the CTAs' skew at the start
           and the end differs between them). */
        CHECK((double)a.ops <= peak * ((double)a.window + mb_atomic_req_cycles(&t.g, mode)));
        CHECK((double)b.ops <= peak * ((double)b.window + mb_atomic_req_cycles(&t.g, mode)));
        /* Each mode reaches 70% of its ceiling in steady state: the crossbars are input-queued
           without virtual output queues, so a slice (or SM) whose head packet waits for a busy
           port sends nothing meanwhile (docs/timing.md, head-of-line blocking); one address
           keeps one slice busy without competition (measured 100%), a word per thread 84%, a
           line per lane 87% on the preset. */
        CHECK(got[k] >= 0.7 * peak);
    }
    /* distinct words spread the same requests over every slice: faster than one address */
    CHECK(got[ATOMICS_WORDS] > 2.0 * got[ATOMICS_ONE]);
    calib_close(&t);
}

/* ---- divergence ------------------------------------------------------------------------------ */

/* Core cycles an extra path adds to an iteration of diverge.cu's loop over the 32 paths:
   the path's body replaces a skip.  A skip: setp -> @p bra (taken: lat_int[ADD], then the
   redirect, branch_latency + fetch_latency, to the loop's increments), two independent
   adds, setp (lat_int[ADD] after the second), bra (lat_int[ADD]), redirect to the loop
   head: 3 * ADD + 2 * redirect + 1.  A body: setp -> bra (ADD), the bra falls through to
   the first multiply-add the next cycle, DIVERGE_CHAIN - 1 dependent links of
   lat_int[MAD], the increments and the loop branch as before but without the first
   redirect: 3 * ADD + (CHAIN - 1) * MAD + 3 + redirect.  Lanes that skip wait at the
   reconvergence point, which is the skip's own target, so a divergent body costs what a
   uniform one does. */
static double mb_path_cost(const struct gpu_config *g)
{
    double add = g->lat_int[OPL_ADD], mad = g->lat_int[OPL_MAD], redirect = g->branch_latency + g->fetch_latency;
    double skip = 3 * add + 2 * redirect + 1, body = 3 * add + (DIVERGE_CHAIN - 1) * mad + 3 + redirect;
    return body - skip;
}

TEST(diverge_paths_serialise)
{
    struct calib t;
    MB_OPEN(t, "diverge", NULL, NULL);
    struct diverge_meas a, b;
    struct wl_result r = mb_result();
    const unsigned i1 = 2, i2 = 6;
    ws_status st = diverge_measure(t.ctx, t.mod, i1, 3, &r, &a);
    if (st == WS_SUCCESS)
        st = diverge_measure(t.ctx, t.mod, i2, 3, &r, &b);
    CHECK_EQ_INT(st, WS_SUCCESS);
    CHECK_EQ_INT(r.verified, 1);
    if (st != WS_SUCCESS) {
        calib_close(&t);
        return;
    }
    double it[DIVERGE_NCTAS];
    for (unsigned c = 0; c < DIVERGE_NCTAS; c++) {
        it[c] = ((double)b.cycles[c] - (double)a.cycles[c]) / (double)(i2 - i1);
        for (unsigned d = c + 1; d < DIVERGE_NCTAS; d++)
            CHECK(a.sm[c] != a.sm[d]);   /* one warp per SM: nothing else shares its pipelines */
    }
    double per_path = mb_path_cost(&t.g);
    for (unsigned c = 0; c < DIVERGE_NCTAS; c++) {
        double want = it[0] + (a.paths[c] - 1.0) * per_path;
        fprintf(stderr, "  %2u paths: %.1f cycles per iteration, expected %.1f (1 path + %u x %.0f)\n", a.paths[c],
                it[c], want, a.paths[c] - 1, per_path);
        /* every extra path adds its whole body: serialised, nothing overlaps; exact on the
           preset (one warp per SM, no other source of delay), 1% otherwise */
        CHECK_NEAR(it[c], want, 0.01 * want);
        if (t.g.max_insn_issue_per_warp == 1 && t.g.fetch_latency < t.g.ibuffer_size)
            CHECK_NEAR(it[c], want, 1e-9);
    }
    calib_close(&t);
}

/* ---- CTA launch rate ------------------------------------------------------------------------- */

TEST(ctarate_dispatch)
{
    struct calib t;
    MB_OPEN(t, "ctarate", NULL, NULL);
    struct ctarate_meas m;
    struct wl_result r = mb_result();
    ws_status st = ctarate_measure(t.ctx, t.mod, ctarate_ctas(WL_TINY), &r, &m);
    CHECK_EQ_INT(st, WS_SUCCESS);
    CHECK_EQ_INT(r.verified, 1);
    CHECK_EQ_INT(m.sms, t.g.n_clusters * t.g.n_cores_per_cluster);
    /* Empty CTAs live a few cycles, well under the resident CTAs' slots, so the dispatcher
       is the limit: one CTA per SM per cycle (rr), exactly. */
    fprintf(stderr, "  empty CTAs: %.3f core cycles per CTA per SM, expected 1 (one dispatch per SM per cycle)\n",
            m.per_cta[CTARATE_EMPTY]);
    CHECK_NEAR(m.per_cta[CTARATE_EMPTY], 1.0, 1e-9);
    /* One-warp CTAs: every instruction of the new warp passes the fetch stage, which serves
       one warp per cycle with at most ibuffer_size instructions, so a CTA needs at least
       insns / ibuffer_size cycles of its SM's fetch stage; within 25% of that (fetches that
       deliver less: the end of an I-cache line, a buffer with one free entry, a redirect). */
    double fetch = m.insns_per_cta[CTARATE_TINY] / t.g.ibuffer_size;
    fprintf(stderr, "  one-warp CTAs: %.3f core cycles per CTA per SM, %.1f warp instructions each: fetch bound %.2f\n",
            m.per_cta[CTARATE_TINY], m.insns_per_cta[CTARATE_TINY], fetch);
    CHECK(m.per_cta[CTARATE_TINY] >= fetch);
    CHECK(m.per_cta[CTARATE_TINY] <= 1.25 * fetch);
    calib_close(&t);
}

/* The drivers' one-launch figures (what `warpsim run NAME` reports) parse and agree with the
   ceilings above. */
TEST(microbench_drivers)
{
    static const char *const names[] = {"cachebw", "bankconf", "atomics", "diverge", "ctarate"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct calib t;
        MB_OPEN(t, names[i], NULL, NULL);
        const struct workload *w = wl_find(names[i]);
        REQUIRE(w && w->micro == 1);
        struct wl_opts o = {.size = WL_TINY, .seed = 5, .input = NULL, .verbose = 0, .log = stderr};
        struct wl_result r = mb_result();
        ws_status st = w->run(t.ctx, t.mod, &o, &r);
        CHECK_EQ_INT(st, WS_SUCCESS);
        CHECK_EQ_INT(r.verified, 1);
        fprintf(stderr, "  %s: %s\n", names[i], r.detail);
        const char *p;
        double x, y;
        if (i == 0) {
            p = strstr(r.detail, "L1D ");
            CHECK(p && sscanf(p, "L1D %lf bytes/core cycle per SM (%*u SMs), L2 %lf", &x, &y) == 2);
            if (p) {
                CHECK(x <= mb_l1d_peak(&t.g) && x >= 0.85 * mb_l1d_peak(&t.g));
                CHECK(y <= mb_l2_peak(&t.g, t.g.n_clusters * t.g.n_cores_per_cluster));
            }
        } else if (i == 1) {
            p = strstr(r.detail, ", 32: ");
            CHECK(p && sscanf(p, ", 32: %lf", &x) == 1);
            if (p)
                CHECK_NEAR(x, mb_passes(&t.g, 32), 0.02 * mb_passes(&t.g, 32));
        } else if (i == 2) {
            p = strstr(r.detail, "one address ");
            CHECK(p && sscanf(p, "one address %lf", &x) == 1);
            if (p)
                CHECK(x <= mb_atomic_peak(&t.g, ATOMICS_ONE));
        } else if (i == 3) {
            p = strstr(r.detail, " 32: ");
            CHECK(p && sscanf(p, " 32: %lf", &x) == 1);
            if (p)
                CHECK(x >= 31.0 * mb_path_cost(&t.g));   /* 31 extra paths, each a whole body */
        } else {
            p = strstr(r.detail, "empty ");
            CHECK(p && sscanf(p, "empty %lf", &x) == 1);
            if (p)
                CHECK_NEAR(x, 1.0, 1e-9);
        }
        calib_close(&t);
    }
}

TEST_MAIN()
