/*
 * test_cm.c - the concurrency managers (policy/cm/, seed 004 sec. 4) against
 * scripted metric sequences, and through real runs.
 *
 * CM-CPU: the steps (2 above 8 warps, 1 at or below), the bounds 1 and the
 * core's maximum, either congestion metric above t_H lowers, both below t_L
 * raise, in between keeps.  CM-BAL: the levels, Part 1 alone while the table
 * is empty, the moving average (first sample sets it, then 0.25/0.75),
 * Part 2's two overrides and the 4-interval refresh move in 004 Fig. 14's
 * situations A-D, neighbours without a sample not compared, a fresh state
 * forgetting the table (kernel start), the k of CM-BAL1..4.  Through the GPU:
 * a run under cm_cpu on a congested kernel lowers the limits and still
 * verifies; cm with a scheduler that takes no limit is a configuration error.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wl_fixture.h"
#include "policy/cm.h"
#include "policy/params.h"
#include "sys/gpu.h"
#include "sys/gpu_int.h"

#define NC 2

struct cm_fix {
    const struct cm_ops *ops;
    void *st;
    struct cm_core_view core[NC];
    unsigned limit[NC];
};

static int fix_init(struct cm_fix *f, const char *name, unsigned max_warps)
{
    memset(f, 0, sizeof *f);
    f->ops = cm_find(name);
    if (!f->ops)
        return -1;
    f->st = calloc(1, f->ops->state_size(NC));
    struct cfg_error err;
    if (!f->st || policy_params_apply(NULL, "cm", f->ops->name, f->ops->params, f->ops->nparams, f->st, &err) != 0)
        return -1;
    for (unsigned i = 0; i < NC; i++)
        f->core[i] = (struct cm_core_view){0, max_warps, max_warps};
    struct cm_view v = {NC, f->core, 2, 6, 1024, 0, 0};
    f->ops->init(f->st, &v, f->limit);
    for (unsigned i = 0; i < NC; i++)
        f->core[i].limit = f->limit[i];
    return 0;
}

/* one interval: the given congestion, core 0's stall_GPU sample (core 1 gets the same) */
static unsigned fix_step(struct cm_fix *f, double mc, double net, uint64_t stall0)
{
    for (unsigned i = 0; i < NC; i++)
        f->core[i].stall_gpu = stall0;
    struct cm_view v = {NC, f->core, 2, 6, 1024, mc, net};
    f->ops->decide(f->st, &v, f->limit, 0);
    for (unsigned i = 0; i < NC; i++) {
        unsigned l = f->limit[i];
        f->core[i].limit = l < 1 ? 1 : l > f->core[i].max_warps ? f->core[i].max_warps : l;
    }
    return f->core[0].limit;
}

static void fix_free(struct cm_fix *f) { free(f->st); }

TEST(registry_names)
{
    CHECK(cm_find("none") != NULL);
    CHECK(cm_find("cm_cpu") != NULL);
    CHECK(cm_find("cm_bal") != NULL);
    CHECK(cm_find("cm_bal4") != NULL);
    CHECK(cm_find("cm_bal5") == NULL);
    CHECK(cm_find("none")->decide == NULL);
    char names[256];
    cm_names(names, sizeof names);
    CHECK(strstr(names, "cm_cpu") != NULL);
}

TEST(cm_cpu_steps_down_and_up)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_cpu", 48) == 0);
    CHECK_EQ_INT(f.core[0].limit, 48);
    /* congested: 48, 46, ..., 10, 8 (2 per step), then 7 .. 1 (1 per step), then stays 1 */
    unsigned want = 48;
    for (int i = 0; i < 30; i++) {
        want = want > 8 ? want - 2 : want > 1 ? want - 1 : 1;
        CHECK_EQ_INT(fix_step(&f, 1.5, 0, 0), want);
    }
    CHECK_EQ_INT(want, 1);
    /* uncongested: 1 .. 8 one at a time, then 10, 12, ... 48, then stays */
    for (int i = 0; i < 40; i++) {
        want = want >= 8 ? want + 2 : want + 1;
        if (want > 48)
            want = 48;
        CHECK_EQ_INT(fix_step(&f, 0.1, 0.1, 0), want);
    }
    CHECK_EQ_INT(want, 48);
    CHECK_EQ_INT(f.core[1].limit, 48);
    fix_free(&f);
}

TEST(cm_cpu_thresholds)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_cpu", 48) == 0);
    CHECK_EQ_INT(fix_step(&f, 0, 1.01, 0), 46);     /* stall_net alone above t_H lowers */
    CHECK_EQ_INT(fix_step(&f, 1.0, 0, 0), 46);      /* exactly t_H: not above, not below t_L: keep */
    CHECK_EQ_INT(fix_step(&f, 0.25, 0, 0), 46);     /* exactly t_L: not below: keep */
    CHECK_EQ_INT(fix_step(&f, 0.24, 0.3, 0), 46);   /* one below t_L, the other not: keep */
    CHECK_EQ_INT(fix_step(&f, 0.24, 0.24, 0), 48);  /* both below: raise */
    fix_free(&f);
}

TEST(cm_cpu_small_core)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_cpu", 32) == 0);   /* a 32-warp core: the maximum bounds it */
    CHECK_EQ_INT(f.core[0].limit, 32);
    CHECK_EQ_INT(fix_step(&f, 0, 0, 0), 32);
    CHECK_EQ_INT(fix_step(&f, 2, 0, 0), 30);
    fix_free(&f);
}

/* CM-BAL's levels with Part 1 alone (stall_GPU flat: no override ever fires) */
TEST(cm_bal_levels_part1)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);
    CHECK_EQ_INT(f.core[0].limit, 48);
    static const unsigned down[] = {24, 16, 8, 6, 4, 3, 2, 1, 1};
    for (unsigned i = 0; i < sizeof down / sizeof down[0]; i++)
        CHECK_EQ_INT(fix_step(&f, 3, 0, 100), down[i]);
    static const unsigned up[] = {2, 3, 4, 6, 8, 16, 24, 48};
    for (unsigned i = 0; i < sizeof up / sizeof up[0]; i++)
        CHECK_EQ_INT(fix_step(&f, 0, 0, 100), up[i]);
    fix_free(&f);
}

TEST(cm_bal_levels_capped_by_core)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_bal", 20) == 0);   /* levels 1 .. 16 and then the core's 20 */
    CHECK_EQ_INT(f.core[0].limit, 20);
    CHECK_EQ_INT(fix_step(&f, 3, 0, 0), 16);
    CHECK_EQ_INT(fix_step(&f, 0, 0, 0), 20);
    fix_free(&f);
}

/* Fig. 14 A: diff_up > k raises even when Part 1 would keep or lower */
TEST(cm_bal_raise_when_upper_stalls_less)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);   /* k = 32 */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 24);  /* avg[48] = 100 */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 120), 16);  /* avg[24] = 120: diff_up 20 < k, Part 1 lowers */
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 300), 24);   /* avg[16] = 300: 300 - avg[24] = 180 > k: up */
    double lo, up;
    cm_bal_last_diffs(f.st, &lo, &up);
    CHECK_NEAR(up, 180, 1e-9);
    CHECK_NEAR(lo, 0, 1e-9);   /* level 8 has no sample: not compared */
    /* at 24: avg[24] = 120 x 0.25 + 260 x 0.75 = 225; 225 - avg[48] 100 = 125 > k: up despite congestion */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 260), 48);
    cm_bal_last_diffs(f.st, &lo, &up);
    CHECK_NEAR(up, 125, 1e-9);
    CHECK_NEAR(lo, 300 - 225, 1e-9);
    fix_free(&f);
}

/* Fig. 14 B, C and D: a lower level that stalls more by more than k blocks Part 1's move down,
   until the level has been kept 4 intervals; with both differences below k Part 1 rules */
TEST(cm_bal_keep_then_refresh)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 24);   /* avg[48] = 100 */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 16);   /* avg[24] = 100 */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 8);    /* avg[16] = 100 */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 900), 16);   /* avg[8] = 900: diff_up 800 > k: up */
    /* at 16: avg stays 100; Part 1 lowers, but diff_low = 900 - 100 > k keeps it (B) */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 16);
    double lo, up;
    cm_bal_last_diffs(f.st, &lo, &up);
    CHECK_NEAR(lo, 800, 1e-9);
    CHECK_NEAR(up, 0, 1e-9);
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 16);   /* the 2nd and 3rd intervals at 16: still kept */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 16);
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 8);    /* the 4th: level 16 >= 6 moves down anyway (C) */
    fix_free(&f);

    /* D: differences both under k, Part 1 rules */
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 24);
    CHECK_EQ_INT(fix_step(&f, 0, 0, 110), 48);   /* avg[24] 110; diff_up 10 < k: Part 1 raises */
    CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 24);   /* avg[48] 100; diff_low 10 < k: Part 1 lowers */
    fix_free(&f);
}

/* the refresh move at a low level goes up, and at the top level goes down even without congestion */
TEST(cm_bal_refresh_direction)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(fix_step(&f, 0.5, 0, 0), 48);   /* keep: neither threshold */
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 0), 24);       /* 4th interval at 48: down (48 >= 6) */
    fix_free(&f);
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);
    static const unsigned down[] = {24, 16, 8, 6, 4};
    for (unsigned i = 0; i < 5; i++)
        CHECK_EQ_INT(fix_step(&f, 3, 0, 0), down[i]);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(fix_step(&f, 0.5, 0, 0), 4);
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 0), 6);        /* 4th interval at 4: up (4 < 6) */
    fix_free(&f);
}

TEST(cm_bal_moving_average)
{
    struct cm_fix f;
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 1000), 48);   /* avg[48] = 1000 */
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 200), 48);    /* avg[48] = 250 + 150 = 400 */
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 0), 48);      /* avg[48] = 100 */
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 0), 24);      /* avg[48] = 25; refresh move down */
    /* at 24 with a sample of 58: diff_up = 58 - 25 = 33 > 32: up (had avg been 400: 458 - ...) */
    CHECK_EQ_INT(fix_step(&f, 0.5, 0, 58), 48);
    double lo, up;
    cm_bal_last_diffs(f.st, &lo, &up);
    CHECK_NEAR(up, 33, 1e-9);
    fix_free(&f);
    /* a fresh state (the next kernel) has no table: the same samples give Part 1's answer */
    REQUIRE(fix_init(&f, "cm_bal", 48) == 0);
    CHECK_EQ_INT(fix_step(&f, 3, 0, 58), 24);
    cm_bal_last_diffs(f.st, &lo, &up);
    CHECK_NEAR(up, 0, 1e-9);
    fix_free(&f);
}

TEST(cm_bal_k_levels)
{
    static const char *names[] = {"cm_bal1", "cm_bal2", "cm_bal3", "cm_bal4"};
    /* with diff_up = 50: CM-BAL1 (k 32) raises, CM-BAL2..4 (k 64, 96, 128) follow Part 1 down */
    for (unsigned i = 0; i < 4; i++) {
        struct cm_fix f;
        REQUIRE(fix_init(&f, names[i], 48) == 0);
        CHECK_EQ_INT(fix_step(&f, 3, 0, 100), 24);
        CHECK_EQ_INT(fix_step(&f, 3, 0, 150), i == 0 ? 48 : 16);
        fix_free(&f);
    }
}

/* Every registered manager (registry order, so a new one is covered): parameters apply, init and
   every decision over a long pseudo-random script keep each limit in 1..max_warps for cores of
   different sizes, and two instances fed the same script decide the same (determinism). */
TEST(conformance_every_manager)
{
    for (size_t m = 0; cm_at(m); m++) {
        const struct cm_ops *o = cm_at(m);
        enum { N = 5 };
        void *st[2];
        unsigned lim[2][N];
        struct cm_core_view core[2][N];
        for (int k = 0; k < 2; k++) {
            st[k] = calloc(1, o->state_size(N));
            REQUIRE(st[k] != NULL);
            struct cfg_error err;
            REQUIRE(policy_params_apply(NULL, "cm", o->name, o->params, o->nparams, st[k], &err) == 0);
            for (unsigned i = 0; i < N; i++)
                core[k][i] = (struct cm_core_view){0, 0, 8u + 10u * i};   /* 8, 18, ... 48 warps */
            struct cm_view v = {N, core[k], 2, 12, 1024, 0, 0};
            o->init(st[k], &v, lim[k]);
            for (unsigned i = 0; i < N; i++) {
                CHECK(lim[k][i] >= 1 && lim[k][i] <= core[k][i].max_warps);
                core[k][i].limit = lim[k][i];
            }
        }
        if (o->decide) {
            CHECK(((const struct cm_head *)st[0])->interval == 1024);
            uint64_t seed = 12345;
            for (int step = 0; step < 3000; step++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                double mc = (double)(seed % 300) / 100.0, net = (double)((seed >> 20) % 200) / 100.0;
                for (int k = 0; k < 2; k++) {
                    for (unsigned i = 0; i < N; i++)
                        core[k][i].stall_gpu = (seed >> (8 + i)) % 2049;
                    struct cm_view v = {N, core[k], 2, 12, 1024, mc, net};
                    o->decide(st[k], &v, lim[k], (sim_cycle)step * 1024);
                    for (unsigned i = 0; i < N; i++) {
                        CHECK(lim[k][i] >= 1 && lim[k][i] <= core[k][i].max_warps);
                        core[k][i].limit = lim[k][i];
                    }
                }
                for (unsigned i = 0; i < N; i++)
                    CHECK_EQ_INT(lim[0][i], lim[1][i]);
            }
        }
        free(st[0]);
        free(st[1]);
    }
}

/* ---- through the GPU ---------------------------------------------------------------------- */

struct cm_run {
    ws_ctx *ctx;
    ws_status st;
    struct wl_result res;
    uint64_t cycles, decisions, limit_sum, stall_gpu;
};

/* workload wl at tiny size in timing mode with overrides kv (name, value, ..., NULL) */
static void cm_run_wl(struct cm_run *r, const char *wl, const char *const *kv, int skip)
{
    memset(r, 0, sizeof *r);
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    char err[1024];
    if ((r->st = ws_create_ex(&r->ctx, &o, err, sizeof err)) != WS_SUCCESS)
        return;
    const char *names[16], *values[16];
    unsigned n = 0;
    for (; kv && kv[2 * n] && n < 16; n++) {
        names[n] = kv[2 * n];
        values[n] = kv[2 * n + 1];
    }
    if (n && (r->st = ws_set_config_overrides(r->ctx, n, names, values)) != WS_SUCCESS)
        return;
    gpu_set_idle_skip(ws_gpu(r->ctx), skip != 0);
    r->st = fx_run_workload(r->ctx, wl, 1, &r->res);
    struct gpu *g = ws_gpu(r->ctx);
    r->cycles = gpu_total_cycles(g);
    r->decisions = g->cm_decisions;
    r->limit_sum = g->cm_limit_sum;
    for (unsigned i = 0; i < g->n_sms; i++)
        r->stall_gpu += sm_get_metrics(g->sm[i])->stall_gpu;
}

/* stream saturates the DRAM (stall_MC > 1): CM-CPU lowers the limits, the output still verifies, a
   decision every 1024 cycles, and idle skipping changes nothing (the decision's cycle is never
   skipped; stall_GPU counts skipped cycles as ticked ones) */
TEST(gpu_cm_cpu_throttles_stream_and_ignores_idle_skipping)
{
    const char *kv[] = {"gpgpu_scheduler", "swl", "warpsim_cm", "cm_cpu", NULL};
    struct cm_run r[2];
    for (int skip = 0; skip < 2; skip++) {
        cm_run_wl(&r[skip], "stream", kv, skip);
        REQUIRE(r[skip].st == WS_SUCCESS);
        CHECK(r[skip].res.verified);
    }
    CHECK_EQ_U64(r[0].cycles, r[1].cycles);
    CHECK_EQ_U64(r[0].decisions, r[1].decisions);
    CHECK_EQ_U64(r[0].limit_sum, r[1].limit_sum);
    CHECK_EQ_U64(r[0].stall_gpu, r[1].stall_gpu);
    CHECK(r[1].decisions > 0);
    CHECK(r[1].decisions <= r[1].cycles / 1024 + 4);   /* at most one per interval per kernel, plus the remainders */
    unsigned n_sms = ws_gpu(r[1].ctx)->n_sms;
    CHECK(r[1].limit_sum < r[1].decisions * n_sms * 48 / 2);   /* on average below half the window */
    CHECK(r[1].stall_gpu > 0);
    /* without a manager the same scheduler keeps its whole window: no decisions */
    const char *kv0[] = {"gpgpu_scheduler", "swl", NULL};
    struct cm_run b;
    cm_run_wl(&b, "stream", kv0, 1);
    REQUIRE(b.st == WS_SUCCESS);
    CHECK_EQ_U64(b.decisions, 0);
    CHECK(b.cycles != r[1].cycles);
    for (int k = 0; k < 2; k++)
        wsDestroy(r[k].ctx);
    wsDestroy(b.ctx);
}

TEST(gpu_cm_needs_a_limit_taking_scheduler)
{
    const char *kv[] = {"gpgpu_scheduler", "gto", "warpsim_cm", "cm_bal", NULL};
    struct cm_run r;
    cm_run_wl(&r, "vecadd", kv, 1);
    CHECK(r.st != WS_SUCCESS);
    CHECK(strstr(wsGetErrorMessage(r.ctx), "takes no warp limit") != NULL);
    wsDestroy(r.ctx);
}

TEST_MAIN()
