/*
 * test_policy_conformance.c - every registered warp and CTA scheduling policy
 * against the contract of policy/warp_sched.h and policy/cta_sched.h.  The
 * policies are found by iterating the registry (warp_sched_at, cta_sched_at),
 * so a policy added to registry.def is covered without touching this file.
 *
 * Each policy: is found by its name; its parameter table applies with the
 * defaults; it initialises on mock views of several machine shapes; it
 * handles an empty scheduler (0 warps) / an empty grid (0 CTAs); over a long
 * scripted run with warps and CTAs coming and going (a fixed pseudo-random
 * sequence) it writes only valid indices and never past the arrays it is
 * given; a CTA policy dispatches every CTA eventually (it never waits forever
 * for nothing); and two fresh instances fed the same script decide the same
 * way (deterministic: no pointer or time dependence).
 */
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "test.h"
#include "core/arena.h"
#include "policy/cta_sched.h"
#include "policy/params.h"
#include "policy/warp_sched.h"

/* deterministic pseudo-random numbers (xorshift) */
static uint32_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 11);
}

static void *new_state(size_t size, const char *kind, const char *name, const struct cfg_opt *p, size_t np)
{
    void *st = calloc(1, size ? size : 1);
    struct cfg_error err;
    if (st && policy_params_apply(NULL, kind, name, p, np, st, &err) != 0) {
        T_FAIL_("%s.%s: defaults do not apply: %s", kind, name, err.msg);
        free(st);
        return NULL;
    }
    return st;
}

TEST(registry_iteration_lists_every_policy_once)
{
    unsigned nw = 0, nc = 0;
    for (size_t i = 0; warp_sched_at(i); i++, nw++) {
        const struct warp_sched_ops *o = warp_sched_at(i);
        REQUIRE(o->name && o->name[0]);
        CHECK(warp_sched_find(o->name) == o);
        CHECK(o->doc != NULL && o->order != NULL && o->init != NULL);
        CHECK(o->nparams == 0 || o->params != NULL);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(warp_sched_at(j)->name, o->name) != 0);
    }
    for (size_t i = 0; cta_sched_at(i); i++, nc++) {
        const struct cta_sched_ops *o = cta_sched_at(i);
        REQUIRE(o->name && o->name[0]);
        CHECK(cta_sched_find(o->name) == o);
        CHECK(o->doc != NULL && o->pick_sm != NULL);
        CHECK(o->nparams == 0 || o->params != NULL);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(cta_sched_at(j)->name, o->name) != 0);
    }
    /* the baseline and this project's policies at least */
    CHECK(nw >= 2);
    CHECK(nc >= 4);
    CHECK(warp_sched_find("lrr") && warp_sched_find("gto"));
    CHECK(cta_sched_find("rr") && cta_sched_find("static") && cta_sched_find("dyncta") && cta_sched_find("bcs"));
    CHECK(warp_sched_at(nw) == NULL && cta_sched_at(nc) == NULL && cta_sched_at((size_t)-1) == NULL);
    char names[1024];
    cta_sched_names(names, sizeof names);
    CHECK(strstr(names, "dyncta") != NULL);
}

/* ---- warp schedulers -------------------------------------------------------------------------- */

#define W_MAX 64
#define CANARY (-12345)
#define FNV_PRIME UINT64_C(1099511628211)
#define FNV_BASIS UINT64_C(1469598103934665603)
#define MOCK_CTAS 64u
#define MOCK_CTA_WARPS 4u

/* What the GPU gives a policy that asks for it, for the mock kernel (64 CTAs
   of 4 warps): access ranges (a 2D tiling of one array, each warp touching
   two lines of its CTA's rectangle), an oracle per-warp file. */
struct mock_kernel {
    struct loc_rect rect[MOCK_CTAS];
    uint32_t wpt_off[MOCK_CTAS * MOCK_CTA_WARPS + 1];
    struct loc_point pts[MOCK_CTAS * MOCK_CTA_WARPS * 2];
    struct cta_locality loc;
    char oracle[64];
};

static void mock_kernel_init(struct mock_kernel *k)
{
    memset(k, 0, sizeof *k);
    for (unsigned c = 0; c < MOCK_CTAS; c++) {
        k->rect[c] = (struct loc_rect){(int64_t)(c % 8) * 4, (int64_t)(c / 8) * 4, 6, 4};
        for (unsigned w = 0; w < MOCK_CTA_WARPS; w++) {
            unsigned e = c * MOCK_CTA_WARPS + w;
            k->wpt_off[e] = 2 * e;
            k->pts[2 * e] = (struct loc_point){k->rect[c].x + w, k->rect[c].y + w};
            k->pts[2 * e + 1] = (struct loc_point){k->rect[c].x + w + 1, k->rect[c].y + w};
        }
    }
    k->wpt_off[MOCK_CTAS * MOCK_CTA_WARPS] = 2 * MOCK_CTAS * MOCK_CTA_WARPS;
    k->loc.narrays = 1;
    k->loc.cta_warps = MOCK_CTA_WARPS;
    k->loc.n_ctas = MOCK_CTAS;
    k->loc.extent[0] = (struct loc_rect){0, 0, 34, 32};
    k->loc.rect = k->rect;
    k->loc.wpt_off = k->wpt_off;
    k->loc.pts = k->pts;
    snprintf(k->oracle, sizeof k->oracle, "/tmp/ws_conformance_oracle_%d.csv", (int)getpid());
    FILE *f = fopen(k->oracle, "w");
    if (!f)
        return;
    fputs("kernel_id,kernel,sm,cta,warp,start,end,cycles,insns,scheduling\n", f);
    for (unsigned c = 0; c < MOCK_CTAS; c++)
        for (unsigned w = 0; w < MOCK_CTA_WARPS; w++) {
            unsigned t = 1000 + (c * 37 + w * 101) % 700;
            fprintf(f, "1,k,%u,%u,%u,0,%u,%u,100,0\n", c % 15, c, w, t, t);
        }
    fclose(f);
}

/* A fresh, initialised state of warp policy o on the mock SM (NULL with a
   failure reported when it cannot be had).  A policy whose defaults cannot
   initialise (a required file) gets the mock's oracle through its `oracle`
   parameter, the one such parameter the registered policies have. */
static void *warp_state(const struct warp_sched_ops *o, const struct sm_view *smv0, const struct mock_kernel *k)
{
    struct sm_view smv = *smv0;
    char err[512] = "";
    smv.err = err;
    smv.err_len = sizeof err;
    smv.kernel_id = 1;
    smv.loc = o->needs_locality ? &k->loc : NULL;
    smv.cta_warps = MOCK_CTA_WARPS;
    smv.max_ctas = smv.max_warps / MOCK_CTA_WARPS ? smv.max_warps / MOCK_CTA_WARPS : 1;
    for (int attempt = 0; attempt < 2; attempt++) {
        void *st = calloc(1, o->state_size ? o->state_size : 1);
        if (!st)
            return NULL;
        struct policy_params pp;
        pp.arena = arena_new(0);
        cfg_init(&pp.cfg, pp.arena);
        if (attempt) {
            char name[128];
            snprintf(name, sizeof name, "warp_sched.%s.oracle", o->name);
            cfg_set(&pp.cfg, name, k->oracle, "test");
        }
        struct cfg_error e;
        int rc = policy_params_apply(&pp, "warp_sched", o->name, o->params, o->nparams, st, &e);
        if (rc == 0)
            rc = o->init(st, &smv);
        arena_free(pp.arena);
        if (rc == 0)
            return st;
        if (o->fini)
            o->fini(st);
        free(st);
        int has_oracle = 0;
        for (size_t i = 0; i < o->nparams; i++)
            has_oracle |= strcmp(o->params[i].name, "oracle") == 0 && o->params[i].type == CFG_STRING;
        if (!has_oracle || attempt) {
            T_FAIL_("%s: init failed (%u schedulers, %u warps): %s", o->name, smv.n_sched, smv.max_warps,
                    err[0] ? err : "(no message)");
            return NULL;
        }
    }
    return NULL;
}

static void warp_state_free(const struct warp_sched_ops *o, void *st)
{
    if (st && o->fini)
        o->fini(st);
    free(st);
}

/* One scripted run of a warp policy on scheduler sched of n_sched over
   max_warps slots; the orders are hashed into *trace.  Returns failures. */
static unsigned warp_script(const struct warp_sched_ops *o, const struct mock_kernel *mk, unsigned n_sched,
                            unsigned sched, unsigned max_warps, unsigned cycles, uint64_t seed, uint64_t *trace)
{
    struct sm_view smv;
    memset(&smv, 0, sizeof smv);
    smv.sm_id = 3;
    smv.sched_id = sched;
    smv.n_sched = n_sched;
    smv.max_warps = max_warps;
    void *st = warp_state(o, &smv, mk);
    if (!st)
        return 1;
    unsigned bad = 0;
    int n = 0;
    struct warp_view w[W_MAX];
    memset(w, 0, sizeof w);
    for (unsigned slot = sched; slot < max_warps && n < W_MAX; slot += n_sched, n++)
        w[n].slot = (uint16_t)slot;
    int order[W_MAX + 4];
    uint64_t age = 0, h = FNV_BASIS;
    struct warp_inst in;
    memset(&in, 0, sizeof in);
    for (unsigned c = 0; c < cycles && bad < 5; c++) {
        /* the first cycles: no warps at all; then warps arrive in CTAs of 4 and leave */
        for (int i = 0; c >= 8 && i < n; i++) {
            uint32_t r = rnd(&seed);
            if (!w[i].valid && r % 16 == 0) {
                w[i].valid = 1;
                w[i].age = age++;
                w[i].cta_slot = (uint16_t)(i / 4);
                w[i].cta_linear = (uint32_t)((c / 10 + (unsigned)i / 4) % MOCK_CTAS);
                w[i].warp_in_cta = (uint16_t)(i % 4);
                w[i].start = c;
                w[i].issued = 0;
                w[i].pc = 0;
            } else if (w[i].valid && r % 97 == 0) {
                w[i].valid = 0;
            }
            w[i].ready = w[i].valid && (r >> 8) % 3 == 0;
            w[i].waiting_mem = w[i].valid && !w[i].ready && (r >> 12) % 2;
            w[i].waiting_miss = w[i].waiting_mem && (r >> 13) % 2;
            w[i].at_barrier = w[i].valid && !w[i].ready && !w[i].waiting_mem && (r >> 14) % 4 == 0;
            w[i].cta_paused = w[i].valid && (r >> 16) % 8 == 0;
        }
        for (int i = 0; i < n; i++) {   /* older live warps not at a barrier (needs_rank) */
            unsigned rank = 0;
            for (int j = 0; j < n; j++)
                rank += w[j].valid && !w[j].at_barrier && w[j].age < w[i].age;
            w[i].age_rank = (uint16_t)rank;
        }
        for (int i = 0; i < W_MAX + 4; i++)
            order[i] = CANARY;
        int k = o->order(st, w, n, order, c);
        if (k < 0 || k > n) {
            T_FAIL_("%s: cycle %u: order returned %d for %d warps", o->name, c, k, n);
            bad++;
            break;
        }
        for (int i = n; i < W_MAX + 4; i++)
            if (order[i] != CANARY) {
                T_FAIL_("%s: cycle %u: wrote order[%d] past the %d warps", o->name, c, i, n);
                bad++;
                break;
            }
        /* the SM's visit: probe in order, issue the first valid ready warp */
        int issued = -1;
        for (int i = 0; i < k; i++) {
            int j = order[i];
            if (j < 0 || j >= n) {
                T_FAIL_("%s: cycle %u: order[%d] = %d, not a warp index (0..%d)", o->name, c, i, j, n - 1);
                bad++;
                break;
            }
            h = (h ^ (uint64_t)(j + 1)) * FNV_PRIME;
            if (!w[j].valid || issued >= 0)
                continue;
            if (w[j].ready) {
                issued = j;
            } else if (o->on_stall) {
                enum stall_reason why = w[j].at_barrier ? STALL_SYNC : w[j].waiting_mem ? STALL_DATA_CACHE_MISS
                                                                                          : STALL_DATA;
                o->on_stall(st, &w[j], why, c);
            }
        }
        h = (h ^ (uint64_t)(k + 1000)) * FNV_PRIME;
        if (issued >= 0) {
            struct warp_view *v = &w[issued];
            in.pc = v->pc;
            in.cls = (uint8_t)(v->pc % 5 == 4 ? WI_BRANCH : v->pc % 3 == 2 ? WI_LD : WI_ALU);
            in.is_branch = in.cls == WI_BRANCH;
            in.taken_any = in.is_branch && (c & 1);
            in.target_pc = 0;
            in.next_pc = in.taken_any ? 0 : v->pc + 1;
            in.active_mask = in.issue_mask = 0xffffffffu;
            v->issued++;
            if (o->on_issue)
                o->on_issue(st, v, &in, c);
            v->pc = in.next_pc;
        }
        if (o->sample) {   /* the time-series value is a number */
            double x = o->sample(st);
            if (x != x) {
                T_FAIL_("%s: cycle %u: sample is NaN", o->name, c);
                bad++;
            }
        }
    }
    warp_state_free(o, st);
    *trace = h;
    return bad;
}

TEST(every_warp_policy_orders_valid_indices_deterministically)
{
    struct mock_kernel *mk = malloc(sizeof *mk);
    REQUIRE(mk != NULL);
    mock_kernel_init(mk);
    const unsigned shapes[][2] = {{1, 48}, {2, 48}, {2, 64}, {4, 32}, {1, 1}};
    for (size_t i = 0; warp_sched_at(i); i++) {
        const struct warp_sched_ops *o = warp_sched_at(i);
        for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            for (unsigned sched = 0; sched < shapes[s][0]; sched++) {
                uint64_t t1 = 0, t2 = 0, seed = UINT64_C(0x9e3779b97f4a7c15) + s;
                unsigned bad = warp_script(o, mk, shapes[s][0], sched, shapes[s][1], 600, seed, &t1);
                bad += warp_script(o, mk, shapes[s][0], sched, shapes[s][1], 600, seed, &t2);
                if (bad)
                    break;
                if (t1 != t2)
                    T_FAIL_("%s: two instances given the same script ordered differently (%u schedulers, %u warps)",
                            o->name, shapes[s][0], shapes[s][1]);
            }
        }
    }
    remove(mk->oracle);
    free(mk);
}

TEST(every_warp_policy_handles_zero_warps)
{
    struct mock_kernel *mk = malloc(sizeof *mk);
    REQUIRE(mk != NULL);
    mock_kernel_init(mk);
    for (size_t i = 0; warp_sched_at(i); i++) {
        const struct warp_sched_ops *o = warp_sched_at(i);
        struct sm_view smv;
        memset(&smv, 0, sizeof smv);
        smv.n_sched = 2;
        smv.max_warps = 48;
        void *st = warp_state(o, &smv, mk);
        if (!st)
            continue;
        int order[4] = {CANARY, CANARY, CANARY, CANARY};
        struct warp_view w[1];
        memset(w, 0, sizeof w);
        for (sim_cycle c = 0; c < 3; c++) {
            int k = o->order(st, w, 0, order, c);
            if (k != 0)
                T_FAIL_("%s: order of 0 warps returned %d", o->name, k);
        }
        CHECK(order[0] == CANARY);
        /* one slot, never valid */
        int k = o->order(st, w, 1, order, 3);
        CHECK(k >= 0 && k <= 1);
        if (k == 1)
            CHECK_EQ_INT(order[0], 0);
        CHECK(order[1] == CANARY);
        warp_state_free(o, st);
    }
    remove(mk->oracle);
    free(mk);
}

/* ---- CTA schedulers ------------------------------------------------------------------------ */

#define S_MAX 16

/* A mock GPU: per SM resident CTAs (each finishing at a pseudo-random
   cycle), limits from the policy's update, at most max_per_cycle CTAs per SM
   per cycle.  Returns failures; the picks are hashed into *trace and the
   cycle the last CTA was dispatched into *done_at (UINT64_MAX if never). */
static unsigned cta_script(const struct cta_sched_ops *o, unsigned n_sms, unsigned max_fit, uint64_t n_ctas,
                           uint64_t seed, uint64_t *trace, uint64_t *done_at)
{
    void *st = new_state(o->state_size, "cta_sched", o->name, o->params, o->nparams);
    if (!st)
        return 1;
    struct sm_cta_view sm[S_MAX];
    memset(sm, 0, sizeof sm);
    unsigned limit[S_MAX + 1], res_end[S_MAX][64], got[S_MAX];
    uint64_t res_cta[S_MAX][64];
    for (unsigned i = 0; i < n_sms; i++) {
        sm[i].max_fit = max_fit;
        limit[i] = max_fit;
    }
    limit[n_sms] = 0xdeadbeefu;
    /* a policy that picks CTAs out of order sees which left; one that wants
       access ranges gets a 2D tiling: CTA c reads the 4x4 lines at
       (4 (c mod 8), 4 (c / 8)) of one array, overlapping its right neighbour */
    uint8_t *dispatched = calloc(n_ctas + 1, 1);
    struct loc_rect *rect = calloc(n_ctas + 1, sizeof *rect);
    for (uint64_t c = 0; c < n_ctas; c++)
        rect[c] = (struct loc_rect){(int64_t)(c % 8) * 4, (int64_t)(c / 8) * 4, 6, 4};
    struct cta_locality loc;
    memset(&loc, 0, sizeof loc);
    loc.narrays = 1;
    loc.cta_warps = 4;
    loc.n_ctas = n_ctas;
    loc.extent[0] = (struct loc_rect){0, 0, 34, (int64_t)(n_ctas / 8 + 1) * 4};
    loc.rect = rect;
    struct gpu_view g = {.n_sms = n_sms, .sm = sm, .next_cta = 0, .n_ctas = n_ctas, .kernel_id = 1,
                         .dispatched = o->pick_cta ? dispatched : NULL, .loc = o->needs_locality ? &loc : NULL};
    uint64_t left = n_ctas;   /* CTAs not yet dispatched */
    unsigned bad = 0, mpc = o->max_per_cycle ? o->max_per_cycle : 1;
    uint64_t h = FNV_BASIS;
    *done_at = n_ctas ? UINT64_MAX : 0;
    if (o->init && o->init(st, &g) != 0) {
        T_FAIL_("%s: init failed (%u SMs, N = %u)", o->name, n_sms, max_fit);
        free(st);
        return 1;
    }
    sim_cycle next_update = SIM_NEVER;
    if (o->update) {
        sim_cycle p = o->update(st, &g, limit, 0);
        next_update = p ? p - 1 : SIM_NEVER;
    }
    for (sim_cycle c = 0; c < 20000 && bad < 5; c++) {
        /* views as the GPU fills them */
        for (unsigned i = 0; i < n_sms; i++) {
            unsigned l = limit[i] < 1 ? 1 : limit[i] > max_fit ? max_fit : limit[i];
            sm[i].limit = l;
            sm[i].room = sm[i].resident < l ? l - sm[i].resident : 0;
            sm[i].can_take = sm[i].room > 0;
            got[i] = 0;
        }
        while (left) {
            int s = o->pick_sm(st, &g, c);
            if (s < -1 || s >= (int)n_sms) {
                T_FAIL_("%s: cycle %llu: pick_sm returned %d with %u SMs", o->name, (unsigned long long)c, s, n_sms);
                bad++;
                break;
            }
            h = (h ^ (uint64_t)(s + 2)) * FNV_PRIME;
            if (s < 0)
                break;
            if (!sm[s].can_take) {
                T_FAIL_("%s: cycle %llu: picked SM %d, whose view says it cannot take a CTA", o->name,
                        (unsigned long long)c, s);
                bad++;
                break;
            }
            uint64_t cta = g.next_cta;
            if (o->pick_cta) {
                int64_t pc = o->pick_cta(st, &g, (unsigned)s, c);
                if (pc < 0 || (uint64_t)pc >= n_ctas || dispatched[pc]) {
                    T_FAIL_("%s: cycle %llu: pick_cta returned %lld, not a waiting CTA", o->name,
                            (unsigned long long)c, (long long)pc);
                    bad++;
                    break;
                }
                cta = (uint64_t)pc;
                h = (h ^ cta) * FNV_PRIME;
            }
            res_cta[s][sm[s].resident] = cta;
            res_end[s][sm[s].resident] = (unsigned)c + 1 + rnd(&seed) % 400;
            sm[s].resident++;
            if (o->on_dispatch)
                o->on_dispatch(st, (unsigned)s, cta, c);
            dispatched[cta] = 1;
            while (g.next_cta < n_ctas && dispatched[g.next_cta])
                g.next_cta++;
            if (--left == 0)
                *done_at = c;
            sm[s].room--;
            got[s]++;
            sm[s].can_take = sm[s].room && got[s] < mpc;
        }
        /* CTAs finish; counters move */
        for (unsigned i = 0; i < n_sms; i++) {
            for (unsigned k = 0; k < sm[i].resident;) {
                if (res_end[i][k] == c) {
                    if (o->on_cta_done)
                        o->on_cta_done(st, i, res_cta[i][k], c);
                    sm[i].resident--;
                    res_cta[i][k] = res_cta[i][sm[i].resident];
                    res_end[i][k] = res_end[i][sm[i].resident];
                } else {
                    k++;
                }
            }
            uint32_t r = rnd(&seed);
            if (sm[i].resident == 0 || r % 7 == 0)
                sm[i].c_idle++;
            else if (r % 3 == 0)
                sm[i].c_mem++;
            if (r % 2)
                sm[i].n_act++;
            else
                sm[i].n_inact++;
        }
        if (c == next_update) {
            sim_cycle p = o->update(st, &g, limit, c);
            next_update = p ? c + p : SIM_NEVER;
            for (unsigned i = 0; i < n_sms; i++)
                h = (h ^ limit[i]) * FNV_PRIME;
        }
        if (limit[n_sms] != 0xdeadbeefu) {
            T_FAIL_("%s: update wrote past the %u SMs' limits", o->name, n_sms);
            bad++;
        }
        if (!left) {
            unsigned busy = 0;
            for (unsigned i = 0; i < n_sms; i++)
                busy += sm[i].resident;
            if (!busy)
                break;
        }
    }
    free(dispatched);
    free(rect);
    free(st);
    *trace = h;
    return bad;
}

TEST(every_cta_policy_picks_valid_sms_dispatches_everything_deterministically)
{
    const unsigned shapes[][3] = {{1, 8, 40}, {3, 6, 101}, {15, 8, 500}, {4, 1, 9}, {2, 2, 3}, {15, 3, 1}};
    for (size_t i = 0; cta_sched_at(i); i++) {
        const struct cta_sched_ops *o = cta_sched_at(i);
        for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            uint64_t t1 = 0, t2 = 0, d1 = 0, d2 = 0;
            unsigned bad = cta_script(o, shapes[s][0], shapes[s][1], shapes[s][2], 0x1234567ull + s, &t1, &d1);
            bad += cta_script(o, shapes[s][0], shapes[s][1], shapes[s][2], 0x1234567ull + s, &t2, &d2);
            if (bad)
                continue;
            if (d1 == UINT64_MAX)
                T_FAIL_("%s: %u SMs, N = %u: not every one of %u CTAs was dispatched", o->name, shapes[s][0],
                        shapes[s][1], shapes[s][2]);
            if (t1 != t2 || d1 != d2)
                T_FAIL_("%s: two instances given the same script decided differently (%u SMs)", o->name,
                        shapes[s][0]);
        }
    }
}

TEST(every_cta_policy_handles_an_empty_grid)
{
    for (size_t i = 0; cta_sched_at(i); i++) {
        const struct cta_sched_ops *o = cta_sched_at(i);
        uint64_t t = 0, d = 0;
        CHECK_EQ_INT(cta_script(o, 4, 8, 0, 7, &t, &d), 0);
        void *st = new_state(o->state_size, "cta_sched", o->name, o->params, o->nparams);
        REQUIRE(st != NULL);
        struct sm_cta_view sm[2];
        memset(sm, 0, sizeof sm);
        for (int k = 0; k < 2; k++)
            sm[k] = (struct sm_cta_view){.max_fit = 4, .can_take = 1, .limit = 4, .room = 4};
        uint8_t none[1] = {0};
        struct cta_locality loc;
        memset(&loc, 0, sizeof loc);
        struct gpu_view g = {.n_sms = 2, .sm = sm, .next_cta = 0, .n_ctas = 0, .kernel_id = 1,
                             .dispatched = o->pick_cta ? none : NULL, .loc = o->needs_locality ? &loc : NULL};
        REQUIRE(!o->init || o->init(st, &g) == 0);
        int s = o->pick_sm(st, &g, 0);
        if (s != -1)
            T_FAIL_("%s: picked SM %d for a grid without CTAs", o->name, s);
        free(st);
    }
}

TEST_MAIN()
