/*
 * test_cta_policies.c - the CTA-side policies and the GPU's CTA-limit
 * mechanism (docs/policies.md).
 *
 * Against hand-made views (no GPU): static's limits; DYNCTA's decision for
 * scripted per-period (C_idle, C_mem) sequences, its thresholds, the bounds 1
 * and N and the initial floor(N/2); BCS's pairs, its wait for room for two,
 * the odd last CTA.  Through real runs (host API, timing mode, tiny inputs):
 * a scripted policy injected into the GPU replays the seed's pausing example
 * (N = 4, n = 3 -> 2 -> 1 -> 2 -> 3) and the events must match it exactly;
 * static n = 1 keeps one CTA per SM in the time series; DYNCTA driven to
 * always shrink / always grow changes n by one per period at exact cycles,
 * pauses the most recently assigned CTA and resumes the least recently
 * assigned paused one, and every run verifies; paused CTAs still run (no
 * starvation); BCS sends CTAs 2k and 2k+1 to the same SM in the same cycle;
 * idle skipping changes nothing under DYNCTA.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "wl_fixture.h"
#include "core/arena.h"
#include "core/config.h"
#include "gpu/sm_int.h"
#include "host/ws_internal.h"
#include "policy/cta_sched.h"
#include "policy/params.h"
#include "sys/gpu.h"
#include "sys/gpu_int.h"
#include "workload.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

/* ---- policies against views --------------------------------------------------------------- */

#define MAX_SMS 8

struct rig {
    const struct cta_sched_ops *ops;
    void *st;
    struct sm_cta_view sm[MAX_SMS];
    unsigned limit[MAX_SMS];
    struct gpu_view g;
    unsigned got[MAX_SMS];
};

/* Policy `name` with parameters "param=value" pairs (NULL-terminated). */
static int rig_open(struct rig *r, const char *name, unsigned n_sms, unsigned max_fit, uint64_t n_ctas,
                    const char *const *kv)
{
    memset(r, 0, sizeof *r);
    r->ops = cta_sched_find(name);
    if (!r->ops)
        return -1;
    r->st = calloc(1, r->ops->state_size + 1);
    for (unsigned i = 0; i < n_sms; i++) {
        r->sm[i].max_fit = max_fit;
        r->sm[i].room = max_fit;
        r->sm[i].can_take = 1;
        r->sm[i].limit = max_fit;
        r->limit[i] = max_fit;
    }
    r->g = (struct gpu_view){.n_sms = n_sms, .sm = r->sm, .next_cta = 0, .n_ctas = n_ctas, .kernel_id = 1};
    struct policy_params pp;
    pp.arena = arena_new(0);
    cfg_init(&pp.cfg, pp.arena);
    for (unsigned i = 0; kv && kv[i]; i += 2) {
        char full[128];
        snprintf(full, sizeof full, "cta_sched.%s.%s", name, kv[i]);
        cfg_set(&pp.cfg, full, kv[i + 1], "test");
    }
    struct cfg_error err;
    int rc = policy_params_apply(&pp, "cta_sched", name, r->ops->params, r->ops->nparams, r->st, &err);
    arena_free(pp.arena);
    if (rc != 0)
        return -1;
    return r->ops->init ? r->ops->init(r->st, &r->g) : 0;
}

static void rig_close(struct rig *r) { free(r->st); }

/* One dispatch round the way sys/gpu_run.c runs it; SMs chosen into got_sm[]. */
static unsigned rig_round(struct rig *r, sim_cycle now, unsigned *got_sm, unsigned max)
{
    unsigned mpc = r->ops->max_per_cycle ? r->ops->max_per_cycle : 1, n = 0;
    memset(r->got, 0, sizeof r->got);
    for (unsigned i = 0; i < r->g.n_sms; i++)
        r->sm[i].can_take = r->sm[i].room > 0;
    while (r->g.next_cta < r->g.n_ctas && n < max) {
        int s = r->ops->pick_sm(r->st, &r->g, now);
        if (s < 0 || (unsigned)s >= r->g.n_sms || !r->sm[s].can_take)
            break;
        got_sm[n++] = (unsigned)s;
        if (r->ops->on_dispatch)
            r->ops->on_dispatch(r->st, (unsigned)s, r->g.next_cta, now);
        r->g.next_cta++;
        r->sm[s].resident++;
        r->sm[s].room--;
        r->got[s]++;
        r->sm[s].can_take = r->sm[s].room && r->got[s] < mpc;
    }
    return n;
}

/* The policy's update with per-SM counters advanced by (d_idle, d_mem) this period. */
static sim_cycle rig_period(struct rig *r, unsigned sm, uint64_t d_idle, uint64_t d_mem, sim_cycle now)
{
    r->sm[sm].c_idle += d_idle;
    r->sm[sm].c_mem += d_mem;
    return r->ops->update(r->st, &r->g, r->limit, now);
}

TEST(cta_policies_registered_with_their_parameters)
{
    const char *names[] = {"rr", "static", "dyncta", "bcs"};
    for (unsigned i = 0; i < 4; i++) {
        const struct cta_sched_ops *o = cta_sched_find(names[i]);
        REQUIRE(o != NULL);
        CHECK_EQ_STR(o->name, names[i]);
    }
    const struct cta_sched_ops *d = cta_sched_find("dyncta");
    REQUIRE(d->nparams == 5);
    const char *want[] = {"t_idle", "16", "t_mem_l", "128", "t_mem_h", "384", "period", "2048", "n_init", "0"};
    for (unsigned i = 0; i < 5; i++) {
        CHECK_EQ_STR(d->params[i].name, want[2 * i]);
        CHECK_EQ_STR(d->params[i].def, want[2 * i + 1]);
    }
    CHECK(d->update != NULL);
    CHECK(cta_sched_find("static")->update != NULL);
    CHECK_EQ_INT(cta_sched_find("bcs")->max_per_cycle, 2);
    CHECK(cta_sched_find("rr")->update == NULL);
}

TEST(static_limit_is_n_or_N)
{
    struct rig r;
    REQUIRE(rig_open(&r, "static", 3, 6, 100, NULL) == 0);
    CHECK_EQ_U64(r.ops->update(r.st, &r.g, r.limit, 0), 0);   /* fixed: no further calls */
    for (unsigned i = 0; i < 3; i++)
        CHECK_EQ_INT(r.limit[i], 6);   /* default n = 0 stands for N */
    rig_close(&r);
    const char *kv2[] = {"n", "2", NULL};
    REQUIRE(rig_open(&r, "static", 3, 6, 100, kv2) == 0);
    r.ops->update(r.st, &r.g, r.limit, 0);
    for (unsigned i = 0; i < 3; i++)
        CHECK_EQ_INT(r.limit[i], 2);
    /* dispatch is rr's: CTA i to core i mod C while the views allow */
    unsigned got[16];
    CHECK_EQ_INT(rig_round(&r, 0, got, 16), 3);
    CHECK_EQ_INT(got[0], 0);
    CHECK_EQ_INT(got[2], 2);
    rig_close(&r);
    const char *kv9[] = {"n", "9", NULL};
    REQUIRE(rig_open(&r, "static", 2, 6, 100, kv9) == 0);
    r.ops->update(r.st, &r.g, r.limit, 0);
    CHECK_EQ_INT(r.limit[0], 6);   /* above N: N */
    rig_close(&r);
}

TEST(dyncta_starts_at_half_of_N)
{
    struct rig r;
    unsigned Ns[] = {1, 2, 3, 5, 8};
    unsigned n0[] = {1, 1, 1, 2, 4};
    for (unsigned k = 0; k < 5; k++) {
        REQUIRE(rig_open(&r, "dyncta", 2, Ns[k], 100, NULL) == 0);
        CHECK_EQ_U64(r.ops->update(r.st, &r.g, r.limit, 0), 2048);   /* next decision after one period */
        CHECK_EQ_INT(r.limit[0], n0[k]);
        CHECK_EQ_INT(r.limit[1], n0[k]);
        rig_close(&r);
    }
    const char *kv[] = {"n_init", "1", NULL};
    REQUIRE(rig_open(&r, "dyncta", 1, 8, 100, kv) == 0);
    r.ops->update(r.st, &r.g, r.limit, 0);
    CHECK_EQ_INT(r.limit[0], 1);
    rig_close(&r);
}

/* Algorithm 1 per period, from the counts IN the period (differences of the
   cumulative counters), with the default thresholds 16 / 128 / 384. */
TEST(dyncta_decisions_for_scripted_periods)
{
    struct rig r;
    REQUIRE(rig_open(&r, "dyncta", 2, 8, 1000, NULL) == 0);
    r.sm[0].c_idle = 5000;   /* history before the kernel must not count */
    r.sm[0].c_mem = 90000;
    r.ops->update(r.st, &r.g, r.limit, 0);
    REQUIRE(r.limit[0] == 4);
    struct { uint64_t idle, mem; unsigned n; } script[] = {
        {16, 0, 5},      /* C_idle >= t_idle: + 1 */
        {15, 127, 6},    /* idle low, C_mem < t_mem_l: + 1 */
        {15, 128, 6},    /* C_mem medium (128 .. 383): unchanged */
        {0, 383, 6},
        {0, 384, 5},     /* C_mem >= t_mem_h: - 1 */
        {16, 2000, 6},   /* C_idle is checked first: + 1 even with C_mem high */
        {0, 2000, 5},
        {0, 2000, 4},
        {0, 2000, 3},
        {0, 2000, 2},
        {0, 2000, 1},
        {0, 2000, 1},    /* never below 1 */
        {0, 0, 2},
        {100, 0, 3}, {100, 0, 4}, {100, 0, 5}, {100, 0, 6}, {100, 0, 7}, {100, 0, 8},
        {100, 0, 8},     /* never above N */
        {0, 200, 8},
    };
    sim_cycle now = 0;
    for (unsigned k = 0; k < sizeof script / sizeof script[0]; k++) {
        now += 2048;
        CHECK_EQ_U64(rig_period(&r, 0, script[k].idle, script[k].mem, now), 2048);
        if (r.limit[0] != script[k].n)
            T_FAIL_("period %u: C_idle %llu C_mem %llu: n = %u, want %u", k, (unsigned long long)script[k].idle,
                    (unsigned long long)script[k].mem, r.limit[0], script[k].n);
        /* core 1's counters did not move: C_idle 0, C_mem 0 < t_mem_l -> it grows to N and stays */
        CHECK_EQ_INT(r.limit[1], k + 5 < 8 ? k + 5 : 8);
    }
    rig_close(&r);
}

TEST(dyncta_thresholds_and_period_are_parameters)
{
    struct rig r;
    const char *kv[] = {"t_idle", "100", "t_mem_l", "10", "t_mem_h", "20", "period", "500", NULL};
    REQUIRE(rig_open(&r, "dyncta", 1, 6, 1000, kv) == 0);
    CHECK_EQ_U64(r.ops->update(r.st, &r.g, r.limit, 0), 500);
    CHECK_EQ_INT(r.limit[0], 3);
    rig_period(&r, 0, 99, 20, 500);     /* idle below 100; C_mem >= 20 */
    CHECK_EQ_INT(r.limit[0], 2);
    rig_period(&r, 0, 99, 10, 1000);    /* 10 .. 19: medium */
    CHECK_EQ_INT(r.limit[0], 2);
    rig_period(&r, 0, 99, 9, 1500);     /* below 10 */
    CHECK_EQ_INT(r.limit[0], 3);
    rig_period(&r, 0, 100, 50, 2000);   /* idle at 100 */
    CHECK_EQ_INT(r.limit[0], 4);
    rig_close(&r);
    /* t_mem_l above t_mem_h makes no sense: init refuses */
    const char *bad[] = {"t_mem_l", "500", "t_mem_h", "100", NULL};
    CHECK(rig_open(&r, "dyncta", 1, 6, 1000, bad) != 0);
    rig_close(&r);
}

TEST(dyncta_distributes_round_robin_under_the_limit)
{
    struct rig r;
    REQUIRE(rig_open(&r, "dyncta", 3, 4, 100, NULL) == 0);
    r.ops->update(r.st, &r.g, r.limit, 0);   /* n = 2 */
    for (unsigned i = 0; i < 3; i++)
        r.sm[i].room = r.limit[i];   /* what the GPU's views say under the limit */
    unsigned got[16], order[16], k = 0;
    for (sim_cycle t = 0; t < 4; t++) {
        unsigned n = rig_round(&r, t, got, 16);
        for (unsigned i = 0; i < n; i++)
            order[k++] = got[i];
    }
    CHECK_EQ_INT(k, 6);   /* 3 cores x n, then nothing: the limit holds */
    for (unsigned i = 0; i < k && i < 6; i++)
        CHECK_EQ_INT(order[i], i % 3);
    rig_close(&r);
}

TEST(bcs_dispatches_consecutive_pairs_to_one_sm)
{
    struct rig r;
    REQUIRE(rig_open(&r, "bcs", 3, 4, 11, NULL) == 0);
    unsigned got[16];
    /* cycle 0: (0,1) -> SM0, (2,3) -> SM1, (4,5) -> SM2, two per SM in the same cycle */
    CHECK_EQ_INT(rig_round(&r, 0, got, 16), 6);
    unsigned want0[] = {0, 0, 1, 1, 2, 2};
    for (unsigned i = 0; i < 6; i++)
        CHECK_EQ_INT(got[i], want0[i]);
    /* cycle 1: (6,7) -> SM0, (8,9) -> SM1 (each has room for 2 more), then CTA 10 alone -> SM2 */
    CHECK_EQ_INT(rig_round(&r, 1, got, 16), 5);
    unsigned want1[] = {0, 0, 1, 1, 2};
    for (unsigned i = 0; i < 5; i++)
        CHECK_EQ_INT(got[i], want1[i]);
    CHECK_EQ_U64(r.g.next_cta, 11);
    rig_close(&r);
}

TEST(bcs_waits_for_room_for_two)
{
    struct rig r;
    REQUIRE(rig_open(&r, "bcs", 2, 4, 6, NULL) == 0);
    unsigned got[16];
    r.sm[0].room = 1;
    r.sm[1].room = 1;
    CHECK_EQ_INT(rig_round(&r, 0, got, 16), 0);   /* room for one CTA on each SM is not enough */
    r.sm[1].room = 2;
    CHECK_EQ_INT(rig_round(&r, 1, got, 16), 2);
    CHECK_EQ_INT(got[0], 1);
    CHECK_EQ_INT(got[1], 1);
    rig_close(&r);
    /* N = 1: two never fit, so CTAs go singly (round robin) instead of never */
    REQUIRE(rig_open(&r, "bcs", 2, 1, 4, NULL) == 0);
    CHECK_EQ_INT(rig_round(&r, 0, got, 16), 2);
    CHECK_EQ_INT(got[0], 0);
    CHECK_EQ_INT(got[1], 1);
    rig_close(&r);
}

/* ---- the mechanism in real runs ------------------------------------------------------------- */

#define EV_MAX 200000

struct ev {
    enum gpu_cta_event ev;
    unsigned sm;
    uint64_t cta;
    unsigned value;
    uint64_t now;
};

struct evlog {
    struct ev *e;
    unsigned n;
};

static void ev_hook(void *user, enum gpu_cta_event ev, unsigned sm, uint64_t cta, unsigned value, uint64_t now)
{
    struct evlog *l = user;
    if (l->n < EV_MAX)
        l->e[l->n++] = (struct ev){ev, sm, cta, value, now};
}

struct run {
    ws_ctx *ctx;
    ws_status st;
    struct wl_result res;
    char err[4096];
};

typedef void (*patch_fn)(struct gpu *g, void *user);

/* Workload `wl` at tiny size in timing mode with overrides kv (NULL-terminated
   name, value list); the CTA events go to log; patch runs on the GPU before
   the workload (after the overrides rebuilt it).  The context is kept. */
static void run_wl(struct run *r, const char *wl, const char *const *kv, struct evlog *log, int skip, const char *ts,
                   patch_fn patch, void *patch_user)
{
    memset(r, 0, sizeof *r);
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    r->st = ws_create_ex(&r->ctx, &o, r->err, sizeof r->err);
    if (r->st != WS_SUCCESS)
        return;
    const char *names[16], *values[16];
    unsigned n = 0;
    for (; kv && kv[2 * n] && n < 16; n++) {
        names[n] = kv[2 * n];
        values[n] = kv[2 * n + 1];
    }
    if (n && (r->st = ws_set_config_overrides(r->ctx, n, names, values)) != WS_SUCCESS)
        goto out;
    gpu_set_idle_skip(ws_gpu(r->ctx), skip != 0);
    if (log)
        gpu_set_cta_event_hook(ws_gpu(r->ctx), ev_hook, log);
    if (patch)
        patch(ws_gpu(r->ctx), patch_user);
    if (ts && (r->st = ws_set_timing_outputs(r->ctx, ts, NULL)) != WS_SUCCESS)
        goto out;
    r->st = fx_run_workload(r->ctx, wl, 1, &r->res);
out:
    if (r->st != WS_SUCCESS)
        snprintf(r->err, sizeof r->err, "%s", wsGetErrorMessage(r->ctx));
}

/* Replays the events against the rules of the mechanism; returns the number
   of violations (each reported).  Counts pauses, resumes, CTAs that
   finished while paused. */
struct model_stats {
    unsigned pauses, unpauses, done_paused, dispatches, limits;
};

#define MODEL_CTAS 64

static unsigned check_model(const struct evlog *l, unsigned n_sms, struct model_stats *ms)
{
    struct mcta { uint64_t cta, seq; int paused, live; };
    struct msm { struct mcta c[MODEL_CTAS]; unsigned limit; } *m = calloc(n_sms, sizeof *m);
    unsigned bad = 0;
    uint64_t seq = 0, cur = 0;
    memset(ms, 0, sizeof *ms);
    for (unsigned i = 0; i <= l->n && bad < 10; i++) {
        /* at every cycle boundary: running <= n, and CTAs paused only while running == n */
        if (i == l->n || l->e[i].now != cur) {
            for (unsigned s = 0; s < n_sms; s++) {
                unsigned run = 0, pau = 0;
                for (unsigned k = 0; k < MODEL_CTAS; k++)
                    if (m[s].c[k].live)
                        m[s].c[k].paused ? pau++ : run++;
                if (run > m[s].limit || (pau && run != m[s].limit)) {
                    T_FAIL_("cycle %llu sm%u: %u running, %u paused, n = %u", (unsigned long long)cur, s, run, pau,
                            m[s].limit);
                    bad++;
                }
            }
            if (i == l->n)
                break;
            cur = l->e[i].now;
        }
        const struct ev *e = &l->e[i];
        struct msm *sm = &m[e->sm];
        int pick = -1;
        switch (e->ev) {
        case GPU_CTA_LIMIT:
            sm->limit = e->value;
            ms->limits++;
            break;
        case GPU_CTA_DISPATCH: {
            unsigned run = 0, pau = 0;
            for (unsigned k = 0; k < MODEL_CTAS; k++)
                if (sm->c[k].live)
                    sm->c[k].paused ? pau++ : run++;
            if (pau || run >= sm->limit) {
                T_FAIL_("cycle %llu: CTA %llu dispatched to sm%u with %u running, %u paused, n = %u",
                        (unsigned long long)e->now, (unsigned long long)e->cta, e->sm, run, pau, sm->limit);
                bad++;
            }
            for (unsigned k = 0; k < MODEL_CTAS; k++)
                if (!sm->c[k].live) {
                    sm->c[k] = (struct mcta){e->cta, seq++, 0, 1};
                    break;
                }
            ms->dispatches++;
            break;
        }
        case GPU_CTA_PAUSE:
        case GPU_CTA_UNPAUSE: {
            /* pause: the running CTA assigned last; resume: the paused CTA assigned first */
            int want_paused = e->ev == GPU_CTA_UNPAUSE;
            for (unsigned k = 0; k < MODEL_CTAS; k++) {
                const struct mcta *c = &sm->c[k];
                if (!c->live || c->paused != want_paused)
                    continue;
                if (pick < 0 || (want_paused ? c->seq < sm->c[pick].seq : c->seq > sm->c[pick].seq))
                    pick = (int)k;
            }
            if (pick < 0 || sm->c[pick].cta != e->cta) {
                T_FAIL_("cycle %llu sm%u: %s CTA %llu, expected CTA %lld", (unsigned long long)e->now, e->sm,
                        want_paused ? "resumed" : "paused", (unsigned long long)e->cta,
                        pick < 0 ? -1ll : (long long)sm->c[pick].cta);
                bad++;
                for (unsigned k = 0; k < MODEL_CTAS; k++)
                    if (sm->c[k].live && sm->c[k].cta == e->cta)
                        pick = (int)k;
            }
            if (pick >= 0)
                sm->c[pick].paused = !want_paused;
            if (want_paused)
                ms->unpauses++;
            else
                ms->pauses++;
            break;
        }
        case GPU_CTA_DONE:
            for (unsigned k = 0; k < MODEL_CTAS; k++)
                if (sm->c[k].live && sm->c[k].cta == e->cta) {
                    ms->done_paused += sm->c[k].paused != 0;
                    sm->c[k].live = 0;
                }
            break;
        }
    }
    free(m);
    return bad;
}

/* A policy injected in place of the configured one (white box: gpu_int.h):
   limits from a script, one entry per period, CTAs to the first SM that can
   take one.  The GPU zeroes state_size bytes of the state at every kernel
   start; the script sits behind them in the same buffer and init copies it. */
struct script_pol {
    unsigned nlim, next;
    unsigned lim[8];
    sim_cycle period;
};
struct script_buf {
    struct script_pol live;    /* the policy state proper (state_size) */
    struct script_pol tmpl;    /* the script, untouched by the GPU */
};

static int sp_init(void *st, const struct gpu_view *g)
{
    (void)g;
    struct script_buf *b = st;
    b->live = b->tmpl;
    return 0;
}
static int sp_pick(void *st, const struct gpu_view *g, sim_cycle now)
{
    (void)st;
    (void)now;
    for (unsigned i = 0; i < g->n_sms; i++)
        if (g->sm[i].can_take)
            return (int)i;
    return -1;
}
static sim_cycle sp_update(void *st, const struct gpu_view *g, unsigned *limit, sim_cycle now)
{
    struct script_pol *s = st;
    (void)now;
    unsigned k = s->next < s->nlim ? s->next : s->nlim - 1;
    s->next++;
    for (unsigned i = 0; i < g->n_sms; i++)
        limit[i] = s->lim[k];
    return s->period;
}
static const struct cta_sched_ops script_ops = {
    .name = "rr",   /* the effective config names a registered policy (rr: no parameters) */
    .doc = "test script",
    .state_size = sizeof(struct script_pol),
    .init = sp_init,
    .pick_sm = sp_pick,
    .update = sp_update,
};

static void patch_script(struct gpu *g, void *user)
{
    g->cta_ops = &script_ops;
    g->cta_state = user;
}

/* The seed's example (001 sec. IV "CTA pausing"): N = 4 (vecadd's 256-thread
   CTAs on a GTX480 SM), CTAs 1, 2, 3 of the text are CTAs 0, 1, 2 on the one SM.
   n 3 -> 2 pauses CTA 2 (most recently assigned), -> 1 pauses CTA 1, -> 2
   resumes CTA 1 (the most recently paused = least recently assigned paused),
   -> 3 resumes CTA 2; no new CTA meanwhile. */
TEST(pausing_follows_the_seeds_example)
{
    struct script_buf sb = {.tmpl = {5, 0, {3, 2, 1, 2, 3}, 100}};
    struct evlog log = {calloc(EV_MAX, sizeof(struct ev)), 0};
    const char *kv[] = {"gpgpu_n_clusters", "1", NULL};
    struct run r;
    run_wl(&r, "vecadd", kv, &log, 1, NULL, patch_script, &sb);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    /* the events of the first 500 cycles, exactly */
    struct ev want[] = {
        {GPU_CTA_LIMIT, 0, UINT64_MAX, 3, 0},
        {GPU_CTA_DISPATCH, 0, 0, 1, 0},
        {GPU_CTA_DISPATCH, 0, 1, 2, 1},
        {GPU_CTA_DISPATCH, 0, 2, 3, 2},
        {GPU_CTA_LIMIT, 0, UINT64_MAX, 2, 99},     /* end of cycle 99: 100 cycles done */
        {GPU_CTA_PAUSE, 0, 2, 2, 99},
        {GPU_CTA_LIMIT, 0, UINT64_MAX, 1, 199},
        {GPU_CTA_PAUSE, 0, 1, 1, 199},
        {GPU_CTA_LIMIT, 0, UINT64_MAX, 2, 299},
        {GPU_CTA_UNPAUSE, 0, 1, 2, 299},
        {GPU_CTA_LIMIT, 0, UINT64_MAX, 3, 399},
        {GPU_CTA_UNPAUSE, 0, 2, 3, 399},
    };
    unsigned nw = sizeof want / sizeof want[0];
    REQUIRE(log.n > nw);
    for (unsigned i = 0; i < nw; i++) {
        const struct ev *e = &log.e[i];
        if (e->ev != want[i].ev || e->sm != want[i].sm || e->cta != want[i].cta || e->value != want[i].value ||
            e->now != want[i].now)
            T_FAIL_("event %u: (%d sm%u cta %lld value %u cycle %llu), want (%d sm%u cta %lld value %u cycle %llu)", i,
                    e->ev, e->sm, (long long)e->cta, e->value, (unsigned long long)e->now, want[i].ev, want[i].sm,
                    (long long)want[i].cta, want[i].value, (unsigned long long)want[i].now);
    }
    /* nothing else happened before the script's last change */
    CHECK(log.e[nw].now > 399);
    struct model_stats ms;
    CHECK_EQ_INT(check_model(&log, 1, &ms), 0);
    CHECK_EQ_INT(ms.pauses, 2);
    CHECK_EQ_INT(ms.unpauses, 2);
    wsDestroy(r.ctx);
    free(log.e);
}

/* Instructions issued so far by the warps of resident CTA `cta` on SM `smi` (white box). */
static uint64_t cta_insns(struct gpu *g, unsigned smi, uint64_t cta)
{
    const struct sm *sm = g->sm[smi];
    int slot = sm_cta_slot(sm, cta);
    uint64_t sum = 0;
    for (unsigned w = 0; slot >= 0 && w < sm->max_warps; w++)
        if (sm->warp[w].state != SMW_FREE && sm->warp[w].cta_slot == (unsigned)slot)
            sum += sm->warp[w].insns;
    return sum;
}

struct progress_log {
    struct evlog log;
    struct gpu *g;
    uint64_t at_pause[MODEL_CTAS];   /* by CTA id (< MODEL_CTAS) */
    unsigned resumed, progressed;
};

static void progress_hook(void *user, enum gpu_cta_event ev, unsigned sm, uint64_t cta, unsigned value, uint64_t now)
{
    struct progress_log *p = user;
    ev_hook(&p->log, ev, sm, cta, value, now);
    if (cta >= MODEL_CTAS)
        return;
    if (ev == GPU_CTA_PAUSE)
        p->at_pause[cta] = cta_insns(p->g, sm, cta);
    if (ev == GPU_CTA_UNPAUSE) {
        p->resumed++;
        p->progressed += cta_insns(p->g, sm, cta) > p->at_pause[cta];
    }
}

struct script_progress {
    struct script_buf sb;      /* first: the policy state the GPU gets */
    struct progress_log *p;
};

static void patch_script_progress(struct gpu *g, void *user)
{
    struct script_progress *sp = user;
    sp->p->g = g;
    gpu_set_cta_event_hook(g, progress_hook, sp->p);
    patch_script(g, &sp->sb);
}

/* One SM, vecadd, n = N = 4 and then n = 1 from cycle 100 on: the three newest CTAs pause and
   resume one by one as running CTAs finish.  `stops`: -warpsim_cta_pause_stops. */
static void run_paused(int stops, struct model_stats *ms, unsigned *resumed, unsigned *progressed,
                       uint64_t *paused_insns)
{
    struct script_progress pb = {{.tmpl = {2, 0, {4, 1}, 100}}, NULL};
    struct progress_log *p = calloc(1, sizeof *p);
    REQUIRE(p != NULL);
    p->log.e = calloc(EV_MAX, sizeof(struct ev));
    pb.p = p;
    const char *kv[] = {"gpgpu_n_clusters", "1", "warpsim_cta_pause_stops", stops ? "1" : "0", NULL};
    struct run r;
    run_wl(&r, "vecadd", kv, NULL, 1, NULL, patch_script_progress, &pb);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    CHECK_EQ_INT(check_model(&p->log, 1, ms), 0);
    *resumed = p->resumed;
    *progressed = p->progressed;
    *paused_insns = sm_get_metrics(ws_gpu(r.ctx)->sm[0])->paused_warp_insns;
    wsDestroy(r.ctx);
    free(p->log.e);
    free(p);
}

/* Paused CTAs are deprioritised, never starved (001 sec. IV): each of them issues instructions
   while paused (the SM visits their warps when the running CTA's cannot issue), the SM counts
   them, and the kernel completes and verifies. */
TEST(paused_ctas_still_run_and_the_kernel_finishes)
{
    struct model_stats ms;
    unsigned resumed, progressed;
    uint64_t paused_insns;
    run_paused(0, &ms, &resumed, &progressed, &paused_insns);
    CHECK_EQ_INT(ms.pauses, 3);          /* at cycle 99 the 3 newest of 4 CTAs pause */
    CHECK_EQ_INT(ms.unpauses, 3);        /* and resume one by one as running CTAs finish */
    CHECK_EQ_INT(resumed, 3);
    CHECK_EQ_INT(progressed, 3);         /* every one of them issued while paused */
    CHECK(paused_insns > 0);             /* warpsim_paused_cta_warp_insn */
    CHECK_EQ_INT(ms.dispatches, 48);     /* every CTA of the grid ran */
}

/* The ablation -warpsim_cta_pause_stops 1: a paused CTA issues nothing until it resumes; the
   kernel still completes (a paused CTA resumes when a running one finishes). */
TEST(paused_ctas_stopped_issue_nothing)
{
    struct model_stats ms;
    unsigned resumed, progressed;
    uint64_t paused_insns;
    run_paused(1, &ms, &resumed, &progressed, &paused_insns);
    CHECK_EQ_INT(ms.pauses, 3);
    CHECK_EQ_INT(resumed, 3);
    CHECK_EQ_INT(progressed, 0);
    CHECK_EQ_INT(paused_insns, 0);
    CHECK_EQ_INT(ms.dispatches, 48);
}

/* Column index of `name` in a CSV header line, -1 if absent. */
static int csv_col(const char *header, const char *name)
{
    size_t nl = strlen(name);
    const char *p = header;
    for (int col = 0;; col++) {
        size_t len = strcspn(p, ",\n");
        if (len == nl && strncmp(p, name, nl) == 0)
            return col;
        if (p[len] != ',')
            return -1;
        p += len + 1;
    }
}

static long csv_field(const char *line, int col)
{
    for (int c = 0; c < col && line; c++) {
        line = strchr(line, ',');
        if (line)
            line++;
    }
    return line ? strtol(line, NULL, 10) : -1;
}

TEST(static_n1_keeps_one_cta_per_sm_in_the_time_series)
{
    char ts[64];
    snprintf(ts, sizeof ts, "/tmp/ws_test_cta_ts_%d.csv", (int)getpid());
    struct evlog log = {calloc(EV_MAX, sizeof(struct ev)), 0};
    const char *kv[] = {"gpgpu_n_clusters", "2", "warpsim_cta_scheduler", "static", "cta_sched.static.n", "1",
                        "warpsim_sample_interval", "50", NULL};
    struct run r;
    run_wl(&r, "vecadd", kv, &log, 1, ts, NULL, NULL);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    struct model_stats ms;
    CHECK_EQ_INT(check_model(&log, 2, &ms), 0);
    CHECK_EQ_INT(ms.pauses, 0);   /* a fixed limit never pauses */
    CHECK_EQ_INT(ms.dispatches, 48);
    wsDestroy(r.ctx);
    free(log.e);
    char *csv = fx_slurp(ts);
    REQUIRE(csv != NULL);
    int c_ctas[2] = {csv_col(csv, "sm0_ctas"), csv_col(csv, "sm1_ctas")};
    int c_n[2] = {csv_col(csv, "sm0_n"), csv_col(csv, "sm1_n")};
    int c_p = csv_col(csv, "sm1_paused");
    REQUIRE(c_ctas[0] > 0 && c_ctas[1] > 0 && c_n[0] > 0 && c_n[1] > 0 && c_p > 0);
    unsigned rows = 0, ones = 0;
    for (const char *line = strchr(csv, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        rows++;
        for (int s = 0; s < 2; s++) {
            long c = csv_field(line + 1, c_ctas[s]);
            CHECK(c >= 0 && c <= 1);
            ones += c == 1;
            CHECK_EQ_INT(csv_field(line + 1, c_n[s]), 1);
        }
        CHECK_EQ_INT(csv_field(line + 1, c_p), 0);
    }
    CHECK(rows > 20);
    CHECK(ones > rows);   /* mostly one CTA on each of the two SMs */
    free(csv);
    remove(ts);
}

/* DYNCTA driven to shrink every period (C_mem >= t_mem_h = 0 always, C_idle
   never >= t_idle, C_mem never < t_mem_l = 0): n goes floor(N/2) -> ... -> 1,
   one step per period, at exactly the period's last cycle; pauses take the
   newest running CTA, resumes the oldest paused one; the run verifies. */
TEST(dyncta_shrinking_pauses_newest_and_resumes_oldest)
{
    struct evlog log = {calloc(EV_MAX, sizeof(struct ev)), 0};
    const char *kv[] = {"gpgpu_n_clusters", "2", "warpsim_cta_scheduler", "dyncta",
                        "cta_sched.dyncta.t_idle", "4000000000", "cta_sched.dyncta.t_mem_l", "0",
                        "cta_sched.dyncta.t_mem_h", "0", "cta_sched.dyncta.period", "64", NULL};
    struct run r;
    run_wl(&r, "vecadd", kv, &log, 1, NULL, NULL, NULL);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    struct model_stats ms;
    CHECK_EQ_INT(check_model(&log, 2, &ms), 0);
    CHECK(ms.pauses > 0);
    CHECK(ms.unpauses > 0);
    CHECK_EQ_INT(ms.dispatches, 48);
    /* vecadd: N = 4 -> n = 2 at cycle 0, 1 at the end of cycle 63, then never again */
    unsigned seen = 0;
    for (unsigned i = 0; i < log.n; i++) {
        if (log.e[i].ev != GPU_CTA_LIMIT || log.e[i].sm != 0)
            continue;
        uint64_t want_at[] = {0, 63};
        unsigned want_n[] = {2, 1};
        if (seen < 2) {
            CHECK_EQ_U64(log.e[i].now, want_at[seen]);
            CHECK_EQ_INT(log.e[i].value, want_n[seen]);
        }
        seen++;
    }
    CHECK_EQ_INT(seen, 2);
    wsDestroy(r.ctx);
    free(log.e);
}

/* DYNCTA driven to grow (C_idle >= t_idle = 0 always) from n_init = 1: one
   step per period up to N, at the exact cycles, and identical with and
   without idle skipping (the update's cycle is never skipped). */
TEST(dyncta_growing_steps_once_per_period_and_ignores_idle_skipping)
{
    uint64_t cycles[2] = {0, 0};
    unsigned nev[2] = {0, 0};
    struct evlog log[2];
    for (int skip = 0; skip < 2; skip++) {
        log[skip] = (struct evlog){calloc(EV_MAX, sizeof(struct ev)), 0};
        const char *kv[] = {"gpgpu_n_clusters", "2", "warpsim_cta_scheduler", "dyncta",
                            "cta_sched.dyncta.t_idle", "0", "cta_sched.dyncta.n_init", "1",
                            "cta_sched.dyncta.period", "300", NULL};
        struct run r;
        run_wl(&r, "pchase", kv, &log[skip], skip, NULL, NULL, NULL);
        REQUIRE(r.st == WS_SUCCESS);
        CHECK(r.res.verified);
        cycles[skip] = gpu_total_cycles(ws_gpu(r.ctx));
        nev[skip] = log[skip].n;
        struct model_stats ms;
        CHECK_EQ_INT(check_model(&log[skip], 2, &ms), 0);
        CHECK_EQ_INT(ms.pauses, 0);
        wsDestroy(r.ctx);
    }
    CHECK_EQ_U64(cycles[0], cycles[1]);
    CHECK_EQ_INT(nev[0], nev[1]);
    for (unsigned i = 0; i < nev[0] && i < nev[1]; i++) {
        const struct ev *a = &log[0].e[i], *b = &log[1].e[i];
        if (a->ev != b->ev || a->sm != b->sm || a->cta != b->cta || a->value != b->value || a->now != b->now) {
            T_FAIL_("event %u differs with idle skipping", i);
            break;
        }
    }
    /* the first kernel's LIMIT events on SM0: 1 at its first cycle, then +1 every 300 cycles */
    unsigned seen = 0;
    uint64_t k0 = UINT64_MAX;
    for (unsigned i = 0; i < log[1].n && seen < 100; i++) {
        const struct ev *e = &log[1].e[i];
        if (e->ev != GPU_CTA_LIMIT || e->sm != 0)
            continue;
        if (seen == 0)
            k0 = e->now;
        if (e->value == 1 && seen > 0)
            break;   /* the next kernel started */
        CHECK_EQ_INT(e->value, seen + 1);
        CHECK_EQ_U64(e->now, seen ? k0 + 300 * seen - 1 : k0);
        seen++;
    }
    CHECK(seen >= 2);
    for (int i = 0; i < 2; i++)
        free(log[i].e);
}

/* BCS in a real run: CTAs 2k and 2k+1 arrive at the same SM in the same cycle. */
TEST(bcs_pairs_in_a_real_run)
{
    struct evlog log = {calloc(EV_MAX, sizeof(struct ev)), 0};
    const char *kv[] = {"gpgpu_n_clusters", "4", "warpsim_cta_scheduler", "bcs", NULL};
    struct run r;
    run_wl(&r, "vecadd", kv, &log, 1, NULL, NULL, NULL);
    REQUIRE(r.st == WS_SUCCESS);
    CHECK(r.res.verified);
    uint64_t sm_of[64], at[64];
    unsigned nd = 0;
    for (unsigned i = 0; i < log.n; i++)
        if (log.e[i].ev == GPU_CTA_DISPATCH && log.e[i].cta < 64) {
            sm_of[log.e[i].cta] = log.e[i].sm;
            at[log.e[i].cta] = log.e[i].now;
            nd++;
        }
    CHECK_EQ_INT(nd, 48);
    for (unsigned c = 0; c + 1 < 48; c += 2) {
        CHECK_EQ_U64(sm_of[c], sm_of[c + 1]);
        CHECK_EQ_U64(at[c], at[c + 1]);
    }
    /* the first round: pairs to SMs 0, 1, 2, 3, 0, ... in the first cycle */
    for (unsigned c = 0; c < 8; c++) {
        CHECK_EQ_U64(sm_of[c], c / 2);
        CHECK_EQ_U64(at[c], 0);
    }
    wsDestroy(r.ctx);
    free(log.e);
}

TEST_MAIN()
