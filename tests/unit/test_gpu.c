/*
 * test_gpu.c - the whole simulated GPU (sys/gpu.h) and the baseline CTA
 * scheduler: the round-robin policy against hand-made views; then real runs
 * through the host API in timing mode: idle skipping never changes a
 * statistic, the watchdog fires with every component's state, requests are
 * conserved, CTAs are dispatched round robin, per-kernel cycles add up, the
 * time series covers every cycle, and the host API's timing entry points.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "wl_fixture.h"
#include "core/config.h"
#include "core/json.h"
#include "core/stats.h"
#include "host/ws_internal.h"
#include "policy/cta_sched.h"
#include "sys/gpu.h"
#include "workload.h"

/* ---- the rr policy against views ------------------------------------------------------ */

struct rr_rig {
    const struct cta_sched_ops *ops;
    void *st;
    struct sm_cta_view sm[8];
    struct gpu_view g;
};

static void rr_open(struct rr_rig *r, unsigned n_sms, uint64_t n_ctas)
{
    memset(r, 0, sizeof *r);
    r->ops = cta_sched_find("rr");
    r->st = calloc(1, r->ops ? r->ops->state_size + 1 : 1);
    for (unsigned i = 0; i < n_sms; i++)
        r->sm[i] = (struct sm_cta_view){.resident = 0, .max_fit = 8, .can_take = 1};
    r->g = (struct gpu_view){.n_sms = n_sms, .sm = r->sm, .next_cta = 0, .n_ctas = n_ctas, .kernel_id = 1};
    if (r->ops)
        r->ops->init(r->st, &r->g);
}

/* One dispatch cycle the way the GPU runs it; writes the SMs chosen into got[]
   and returns how many.  clear_can_take = what the GPU does after a dispatch. */
static unsigned rr_cycle(struct rr_rig *r, sim_cycle now, unsigned *got, int clear_can_take)
{
    unsigned n = 0;
    while (r->g.next_cta < r->g.n_ctas && n < 16) {
        int s = r->ops->pick_sm(r->st, &r->g, now);
        if (s < 0)
            break;
        got[n++] = (unsigned)s;
        r->ops->on_dispatch(r->st, (unsigned)s, r->g.next_cta, now);
        r->g.next_cta++;
        r->sm[s].resident++;
        if (clear_can_take)
            r->sm[s].can_take = 0;
    }
    return n;
}

TEST(rr_registered)
{
    const struct cta_sched_ops *o = cta_sched_find("rr");
    REQUIRE(o != NULL);
    CHECK_EQ_STR(o->name, "rr");
    CHECK(o->pick_sm != NULL && o->init != NULL && o->on_dispatch != NULL);
    CHECK(cta_sched_find("nosuch") == NULL);
}

TEST(rr_first_rounds_cta_i_to_core_i_mod_c)
{
    struct rr_rig r;
    rr_open(&r, 4, 11);
    REQUIRE(r.ops != NULL);
    uint64_t cta = 0;
    for (sim_cycle t = 0; t < 3; t++) {
        unsigned got[16];
        for (unsigned i = 0; i < 4; i++)
            r.sm[i].can_take = 1;
        unsigned n = rr_cycle(&r, t, got, 1);
        CHECK_EQ_INT(n, t < 2 ? 4 : 3);
        for (unsigned i = 0; i < n; i++, cta++)
            CHECK_EQ_INT(got[i], cta % 4);   /* CTA i on core i mod C */
    }
    CHECK_EQ_INT(r.g.next_cta, 11);
    free(r.st);
}

TEST(rr_one_cta_per_sm_per_cycle_even_if_the_view_says_more)
{
    struct rr_rig r;
    rr_open(&r, 3, 100);
    REQUIRE(r.ops != NULL);
    unsigned got[16];
    /* can_take stays 1 (not cleared): the policy itself must stop after one round */
    unsigned n = rr_cycle(&r, 7, got, 0);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(got[0], 0);
    CHECK_EQ_INT(got[1], 1);
    CHECK_EQ_INT(got[2], 2);
    n = rr_cycle(&r, 8, got, 0);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(got[0], 0);
    free(r.st);
}

TEST(rr_scans_from_the_core_after_the_last_one_served)
{
    struct rr_rig r;
    rr_open(&r, 4, 100);
    REQUIRE(r.ops != NULL);
    unsigned got[16];
    /* cycle 0: only core 2 has room -> 2 */
    for (unsigned i = 0; i < 4; i++)
        r.sm[i].can_take = i == 2;
    CHECK_EQ_INT(rr_cycle(&r, 0, got, 1), 1);
    CHECK_EQ_INT(got[0], 2);
    /* cycle 1: cores 0 and 3 have room: the scan starts after 2, so 3 first, then 0 */
    for (unsigned i = 0; i < 4; i++)
        r.sm[i].can_take = i == 0 || i == 3;
    CHECK_EQ_INT(rr_cycle(&r, 1, got, 1), 2);
    CHECK_EQ_INT(got[0], 3);
    CHECK_EQ_INT(got[1], 0);
    /* cycle 2: nobody has room */
    for (unsigned i = 0; i < 4; i++)
        r.sm[i].can_take = 0;
    CHECK_EQ_INT(rr_cycle(&r, 2, got, 1), 0);
    /* cycle 3: everyone: starts after 0 */
    for (unsigned i = 0; i < 4; i++)
        r.sm[i].can_take = 1;
    CHECK_EQ_INT(rr_cycle(&r, 3, got, 1), 4);
    CHECK_EQ_INT(got[0], 1);
    CHECK_EQ_INT(got[3], 0);
    /* no CTAs left: nothing */
    r.g.next_cta = r.g.n_ctas;
    CHECK_EQ_INT(r.ops->pick_sm(r.st, &r.g, 4), -1);
    free(r.st);
}

/* ---- whole-GPU runs through the host API ------------------------------------------------- */

struct run {
    ws_ctx *ctx;
    ws_status st;
    struct wl_result res;
    char err[16384];
};

/* Run bundled workload `wl` at tiny size in timing mode. n overrides as name, value pairs. */
static void run_wl(struct run *r, const char *wl, unsigned n, const char *const *kv, int skip,
                   const char *ts, const char *warps, int keep)
{
    memset(r, 0, sizeof *r);
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    r->st = ws_create_ex(&r->ctx, &o, r->err, sizeof r->err);
    if (r->st != WS_SUCCESS)
        return;
    const char *names[8], *values[8];
    for (unsigned i = 0; i < n && i < 8; i++) {
        names[i] = kv[2 * i];
        values[i] = kv[2 * i + 1];
    }
    if (n && (r->st = ws_set_config_overrides(r->ctx, n, names, values)) != WS_SUCCESS)
        goto out;
    gpu_set_idle_skip(ws_gpu(r->ctx), skip != 0);
    if ((ts || warps) && (r->st = ws_set_timing_outputs(r->ctx, ts, warps)) != WS_SUCCESS)
        goto out;
    r->st = fx_run_workload(r->ctx, wl, 0, &r->res);
out:
    if (r->st != WS_SUCCESS)
        snprintf(r->err, sizeof r->err, "%s", wsGetErrorMessage(r->ctx));
    if (!keep) {
        wsDestroy(r->ctx);
        r->ctx = NULL;
    }
}

static uint64_t stat_of(const struct stats *s, const char *name)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].name, name) == 0)
            return *s->e[i].ctr;
    return UINT64_MAX;
}

static uint64_t report_value(struct gpu *g, const char *key)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return UINT64_MAX;
    gpu_report_text_ex(g, f, 0);
    fclose(f);
    uint64_t v = UINT64_MAX;
    char pat[128];
    snprintf(pat, sizeof pat, "\n%s = ", key);
    const char *p = strstr(buf, pat);
    if (p)
        v = strtoull(p + strlen(pat), NULL, 10);
    free(buf);
    return v;
}

/* Every registered counter, every kernel's result, the time series and the
   per-warp file must be identical. */
static void compare_skip(const char *wl)
{
    struct run a, b;
    char ts[2][64], wp[2][64];
    for (int i = 0; i < 2; i++) {
        snprintf(ts[i], sizeof ts[i], "/tmp/ws_test_gpu_skip_ts%d_%d.csv", i, (int)getpid());
        snprintf(wp[i], sizeof wp[i], "/tmp/ws_test_gpu_skip_w%d_%d.csv", i, (int)getpid());
    }
    const char *kv[] = {"warpsim_sample_interval", "300"};
    run_wl(&a, wl, 1, kv, 1, ts[0], wp[0], 1);
    run_wl(&b, wl, 1, kv, 0, ts[1], wp[1], 1);
    if (a.st != WS_SUCCESS || b.st != WS_SUCCESS || !a.res.verified || !b.res.verified) {
        T_FAIL_("%s: runs failed: %s / %s", wl, a.err, b.err);
        goto out;
    }
    struct gpu *ga = ws_gpu(a.ctx), *gb = ws_gpu(b.ctx);
    CHECK(report_value(ga, "engine_idle_skips") > 0);      /* skipping happened in a... */
    CHECK_EQ_U64(report_value(gb, "engine_idle_skips"), 0); /* ...and not in b */
    const struct stats *sa = gpu_stats(ga), *sb = gpu_stats(gb);
    REQUIRE(sa->n == sb->n && sa->n > 100);
    unsigned diffs = 0;
    for (uint32_t i = 0; i < sa->n; i++) {
        if (strcmp(sa->e[i].name, sb->e[i].name) != 0 || *sa->e[i].ctr != *sb->e[i].ctr) {
            if (diffs++ < 10)
                T_FAIL_("%s: counter %s: %llu with skipping, %llu without", wl, sa->e[i].name,
                        (unsigned long long)*sa->e[i].ctr, (unsigned long long)*sb->e[i].ctr);
        }
    }
    CHECK_EQ_INT(diffs, 0);
    CHECK_EQ_INT(gpu_kernel_count(ga), gpu_kernel_count(gb));
    for (unsigned k = 0; k < gpu_kernel_count(ga) && k < gpu_kernel_count(gb); k++) {
        CHECK_EQ_U64(gpu_kernel_get(ga, k)->cycles, gpu_kernel_get(gb, k)->cycles);
        CHECK_EQ_U64(gpu_kernel_get(ga, k)->thread_insns, gpu_kernel_get(gb, k)->thread_insns);
    }
out:
    wsDestroy(a.ctx);   /* closes the output files */
    wsDestroy(b.ctx);
    for (int i = 0; i < 2; i++) {
        char *x = fx_slurp(i ? wp[0] : ts[0]), *y = fx_slurp(i ? wp[1] : ts[1]);
        if (!(x && y && strlen(x) > 100))
            T_FAIL_("%s: output %d missing or short: %zu bytes", wl, i, x ? strlen(x) : 0);
        if (x && y && strcmp(x, y) != 0)
            T_FAIL_("%s: the %s differs with and without skipping", wl, i ? "per-warp file" : "time series");
        free(x);
        free(y);
    }
    for (int i = 0; i < 2; i++) {
        remove(ts[i]);
        remove(wp[i]);
    }
}

TEST(idle_skipping_changes_no_statistic_vecadd) { compare_skip("vecadd"); }
TEST(idle_skipping_changes_no_statistic_bfs) { compare_skip("bfs"); }
TEST(idle_skipping_changes_no_statistic_pchase) { compare_skip("pchase"); }   /* mostly memory waits */

TEST(watchdog_fires_with_every_components_state)
{
    /* a DRAM round trip takes hundreds of core cycles in which nothing moves:
       a 40-cycle watchdog must fire, and fire identically with and without skipping */
    const char *kv[] = {"warpsim_deadlock_cycles", "40"};
    for (int skip = 0; skip < 2; skip++) {
        struct run r;
        run_wl(&r, "vecadd", 1, kv, skip, NULL, NULL, 1);
        CHECK_EQ_INT(r.st, WS_ERROR_DEADLOCK);
        CHECK(strstr(r.err, "made no progress for 40 core cycles") != NULL);
        CHECK(strstr(r.err, "sm0: cycle") != NULL);      /* sm_dump of every SM */
        CHECK(strstr(r.err, "sm14: cycle") != NULL);
        CHECK(strstr(r.err, "part5:") != NULL);
        CHECK(strstr(r.err, "dram5:") != NULL);
        CHECK(strstr(r.err, "icnt_req:") != NULL);
        /* the GPU refuses further kernels instead of running on a broken state */
        const struct gpu_kernel_result *k = gpu_kernel_get(ws_gpu(r.ctx), 0);
        REQUIRE(k != NULL);
        CHECK(k->cycles > 40);
        wsDestroy(r.ctx);
    }
}

TEST(requests_are_conserved_and_cycles_add_up)
{
    struct run r;
    run_wl(&r, "bfs", 0, NULL, 1, NULL, NULL, 1);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    struct gpu *g = ws_gpu(r.ctx);
    const struct stats *s = gpu_stats(g);
    uint64_t alloc = stat_of(s, "gpu.mem_req_allocated"), ret = stat_of(s, "gpu.mem_req_retired");
    CHECK(alloc > 100 && alloc != UINT64_MAX);
    CHECK_EQ_U64(alloc, ret);
    /* gpu_tot_sim_cycle = sum of the kernels' gpu_sim_cycle = the host API's gpu_cycles */
    uint64_t sum = 0;
    for (unsigned k = 0; k < gpu_kernel_count(g); k++)
        sum += gpu_kernel_get(g, k)->cycles;
    CHECK(gpu_kernel_count(g) > 1);
    CHECK_EQ_U64(sum, gpu_total_cycles(g));
    ws_stats st;
    wsGetStats(r.ctx, &st);
    CHECK_EQ_U64(st.gpu_cycles, sum);
    CHECK_EQ_U64(st.kernels_launched, gpu_kernel_count(g));
    const struct ws_launch_info *li = ws_launch_get(r.ctx, 0);
    REQUIRE(li != NULL);
    CHECK_EQ_U64(li->cycles, gpu_kernel_get(g, 0)->cycles);
    /* every CTA of every launch completed */
    uint64_t ctas = 0;
    for (size_t i = 0; i < ws_launch_count(r.ctx); i++)
        ctas += ws_launch_get(r.ctx, i)->ctas;
    CHECK_EQ_U64(st.ctas_executed, ctas);
    CHECK(ctas > 0);
    wsDestroy(r.ctx);
}

TEST(ctas_dispatched_round_robin_and_time_series_covers_every_cycle)
{
    char ts[64], wp[64];
    snprintf(ts, sizeof ts, "/tmp/ws_test_gpu_ts_%d.csv", (int)getpid());
    snprintf(wp, sizeof wp, "/tmp/ws_test_gpu_w_%d.csv", (int)getpid());
    const char *kv[] = {"warpsim_sample_interval", "1000"};
    struct run r;
    run_wl(&r, "vecadd", 1, kv, 1, ts, wp, 1);
    REQUIRE(r.st == WS_SUCCESS);
    struct gpu *g = ws_gpu(r.ctx);
    unsigned n_sms = gpu_config(g)->n_cores;
    uint64_t total = gpu_total_cycles(g);
    wsDestroy(r.ctx);

    /* per-warp file: the first CTA of each SM is CTA i on SM i (first round) */
    FILE *f = fopen(wp, "r");
    REQUIRE(f != NULL);
    char line[1024];
    REQUIRE(fgets(line, sizeof line, f) != NULL);
    CHECK(strncmp(line, "kernel_id,kernel,sm,cta,warp,start,end", 38) == 0);
    unsigned rows = 0, checked = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned kid, sm, warp;
        unsigned long long cta, start;
        char kn[64];
        if (sscanf(line, "%u,%63[^,],%u,%llu,%u,%llu", &kid, kn, &sm, &cta, &warp, &start) != 6)
            continue;
        rows++;
        if (cta < n_sms) {
            CHECK_EQ_INT(sm, cta);
            CHECK_EQ_U64(start, 0);   /* the whole first round is dispatched in the kernel's first cycle */
            checked++;
        }
    }
    fclose(f);
    CHECK_EQ_INT(checked, n_sms * 8);   /* vecadd: 256-thread CTAs = 8 warps */
    CHECK(rows >= checked);

    /* time series: interval_cycles sum to the run's cycles; sm columns present */
    f = fopen(ts, "r");
    REQUIRE(f != NULL);
    REQUIRE(fgets(line, sizeof line, f) != NULL);
    CHECK(strncmp(line, "kernel_id,kernel,cycle,interval_cycles,ipc", 42) == 0);
    CHECK(strstr(line, ",sm0_ctas,sm0_warps,sm1_ctas") != NULL);
    uint64_t covered = 0, last = 0;
    unsigned samples = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned kid;
        unsigned long long cyc, iv;
        char kn[64];
        if (sscanf(line, "%u,%63[^,],%llu,%llu", &kid, kn, &cyc, &iv) != 4)
            continue;
        samples++;
        covered += iv;
        CHECK(cyc > last);
        last = cyc;
        if (samples == 1)
            CHECK_EQ_U64(iv, 1000);
    }
    fclose(f);
    CHECK_EQ_U64(covered, total);
    CHECK_EQ_U64(last, total);
    CHECK_EQ_INT(samples, (total + 999) / 1000);
    remove(ts);
    remove(wp);
}

TEST(host_api_timing_configuration)
{
    /* bad override: named in the message, nothing built */
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    REQUIRE(wsCreate(&ctx, &o) == WS_SUCCESS);
    REQUIRE(ws_gpu(ctx) != NULL);
    CHECK_EQ_INT(gpu_config(ws_gpu(ctx))->n_cores, 15);
    const char *n1[] = {"gpgpu_n_clusters"}, *v1[] = {"x"};
    CHECK_EQ_INT(ws_set_config_overrides(ctx, 1, n1, v1), WS_ERROR_INVALID_VALUE);
    CHECK(strstr(wsGetErrorMessage(ctx), "gpgpu_n_clusters") != NULL);
    const char *n2[] = {"no_such_option"}, *v2[] = {"1"};
    CHECK_EQ_INT(ws_set_config_overrides(ctx, 1, n2, v2), WS_ERROR_INVALID_VALUE);
    CHECK(strstr(wsGetErrorMessage(ctx), "no_such_option") != NULL);
    const char *n3[] = {"gpgpu_scheduler"}, *v3[] = {"nosuch"};
    CHECK_EQ_INT(ws_set_config_overrides(ctx, 1, n3, v3), WS_ERROR_INVALID_VALUE);
    CHECK(strstr(wsGetErrorMessage(ctx), "unknown warp scheduler 'nosuch'") != NULL);
    CHECK(strstr(wsGetErrorMessage(ctx), "lrr") != NULL);
    const char *n4[] = {"gpgpu_n_clusters", "gpgpu_scheduler"}, *v4[] = {"4", "gto"};
    CHECK_EQ_INT(ws_set_config_overrides(ctx, 2, n4, v4), WS_SUCCESS);
    CHECK_EQ_INT(gpu_config(ws_gpu(ctx))->n_cores, 4);
    CHECK_EQ_STR(gpu_config(ws_gpu(ctx))->scheduler, "gto");
    wsDestroy(ctx);

    /* a missing config file fails wsCreate with a message */
    ws_ctx_opts o2 = {WS_MODE_TIMING, 0, "/nonexistent/x.config"};
    char msg[512];
    ctx = NULL;
    CHECK(ws_create_ex(&ctx, &o2, msg, sizeof msg) != WS_SUCCESS);
    CHECK(ctx == NULL);
    CHECK(strstr(msg, "x.config") != NULL);
    /* functional contexts have no GPU */
    ws_ctx_opts o3 = {WS_MODE_FUNCTIONAL, 0, NULL};
    REQUIRE(wsCreate(&ctx, &o3) == WS_SUCCESS);
    CHECK(ws_gpu(ctx) == NULL);
    wsDestroy(ctx);
}

TEST(a_kernel_runs_on_a_4_sm_gto_machine_and_reports_json)
{
    const char *kv[] = {"gpgpu_n_clusters", "4", "gpgpu_scheduler", "gto"};
    struct run r;
    run_wl(&r, "mm", 2, kv, 1, NULL, NULL, 1);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    struct gpu *g = ws_gpu(r.ctx);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f != NULL);
    gpu_report_json(g, f, 1);
    fclose(f);
    CHECK(strstr(buf, "\"kernels\": [") != NULL);
    CHECK(strstr(buf, "\"totals\": {") != NULL);
    CHECK(strstr(buf, "\"gpu_sim_cycle\": ") != NULL);
    CHECK(strstr(buf, "\"N_act\": [") != NULL);
    /* per sub-partition: the slices' shares add up to the section's totals, in the run's totals and
       in a kernel's section */
    char *doc = malloc(len + 3);   /* gpu_report_json writes an object's members */
    REQUIRE(doc != NULL);
    snprintf(doc, len + 3, "{%s}", buf);
    free(buf);
    buf = doc;
    REQUIRE(jr_valid(buf));
    unsigned np = gpu_config(g)->n_sub_partitions;
    static const char *const sect[] = {"totals", "kernels.0"};
    for (unsigned k = 0; k < 2; k++) {
        char path[128];
        double acc = 0, req = 0, pk = 0, lat = 0, hot = 0, v, w;
        for (unsigned p = 0; p < np; p++) {
            snprintf(path, sizeof path, "%s.per_partition.L2_accesses.%u", sect[k], p);
            REQUIRE(jr_number(buf, path, &v) == 0);
            acc += v;
            snprintf(path, sizeof path, "%s.per_partition.requests.%u", sect[k], p);
            REQUIRE(jr_number(buf, path, &v) == 0);
            req += v;
            hot = v > hot ? v : hot;
            snprintf(path, sizeof path, "%s.per_partition.icnt_req_packets.%u", sect[k], p);
            REQUIRE(jr_number(buf, path, &v) == 0);
            pk += v;
            snprintf(path, sizeof path, "%s.per_partition.icnt_req_lat_avg.%u", sect[k], p);
            REQUIRE(jr_number(buf, path, &w) == 0);
            lat += v * w;
        }
        snprintf(path, sizeof path, "%s.per_partition.L2_accesses.%u", sect[k], np);
        CHECK(jr_lookup(buf, path) == NULL);   /* one entry per sub-partition */
        snprintf(path, sizeof path, "%s.L2_total_cache_accesses", sect[k]);
        REQUIRE(jr_number(buf, path, &v) == 0);
        CHECK(v > 0);
        CHECK(acc == v);
        snprintf(path, sizeof path, "%s.icnt_req_packets", sect[k]);
        REQUIRE(jr_number(buf, path, &v) == 0);
        CHECK(pk == v);
        CHECK(req == v);
        snprintf(path, sizeof path, "%s.icnt_req_avg_latency_icnt_cycles", sect[k]);
        REQUIRE(jr_number(buf, path, &w) == 0);
        CHECK(fabs(lat - v * w) <= 1e-6 * v * w);
        /* the busiest slice over the mean; one kernel: the same per launch */
        snprintf(path, sizeof path, "%s.per_partition.hottest_over_mean", sect[k]);
        REQUIRE(jr_number(buf, path, &v) == 0);
        CHECK(v >= 1.0);
        CHECK(fabs(v - hot * np / req) <= 1e-9 * v);
        snprintf(path, sizeof path, "%s.per_partition.hottest_over_mean_per_launch", sect[k]);
        if (k == 0) {
            REQUIRE(jr_number(buf, path, &w) == 0);
            CHECK(fabs(w - v) <= 1e-9 * v);
        } else {
            CHECK(jr_lookup(buf, path) == NULL);
        }
        /* each SM's occupancy (charged when its warp count changes); their mean is the GPU's */
        double occ = 0, occ_max = 0;
        for (unsigned i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s.per_core.occupancy.%u", sect[k], i);
            REQUIRE(jr_number(buf, path, &v) == 0);
            occ += v / 4;
            occ_max = v > occ_max ? v : occ_max;
        }
        snprintf(path, sizeof path, "%s.per_core.occupancy.4", sect[k]);
        CHECK(jr_lookup(buf, path) == NULL);
        snprintf(path, sizeof path, "%s.gpu_occupancy", sect[k]);
        REQUIRE(jr_number(buf, path, &v) == 0);
        CHECK(v > 0);
        CHECK(fabs(occ - v) <= 1e-9 * v);
        CHECK(occ_max > v);   /* the SMs differ: per-SM values, not copies of the mean */
    }
    free(buf);
    /* per-core arrays have one entry per SM: 4 */
    CHECK(report_value(g, "gpu_sim_cycle") == gpu_total_cycles(g));
    wsDestroy(r.ctx);
}

TEST_MAIN()
