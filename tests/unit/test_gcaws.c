/*
 * test_gcaws.c - CAWA's Criticality Prediction Logic (policy/cpl.h, seed 000
 * Alg. 5-6, Eq. 4.1) and the greedy criticality-aware warp scheduler
 * (warp_sched/gcaws.c), against mock views and scripted issues; then the
 * basic-block lengths the SM derives from real PTX, and a whole-GPU run whose
 * time series carries the most critical warp's criticality.
 *
 * The mock function below is the kernel `k` of k_alg5 (seed 000 Algorithm 5
 * with an entry block and a call around it):
 *   0 mov            block A = [0,2]   (3)
 *   1 setp
 *   2 @p bra 5       PC_1
 *   3 add            block B = [3,4]   (2)  PC_2
 *   4 bra 6          PC_3
 *   5 sub            block C = [5]     (1)  PC_4
 *   6 mov            block D = [6,8]   (3)  PC_5
 *   7 call f1
 *   8 exit
 * and f1: 0 mov, 1 ret (one block of 2).
 */
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "wl_fixture.h"
#include "core/arena.h"
#include "core/config.h"
#include "gpu/sm_int.h"
#include "host/ws_internal.h"
#include "policy/cpl.h"
#include "policy/params.h"
#include "sys/gpu.h"
#include "sys/gpu_config.h"
#include "workload.h"

static const uint32_t k_bb[9] = {3, 2, 1, 2, 1, 1, 3, 2, 1};
static const uint32_t f1_bb[2] = {2, 1};
#define F_K 1
#define F_F1 0

struct mock {
    const uint32_t *bb[2];
    uint32_t ninsns[2];
    struct sm_view smv;
};

static void mock_init(struct mock *m)
{
    memset(m, 0, sizeof *m);
    m->bb[F_F1] = f1_bb;
    m->bb[F_K] = k_bb;
    m->ninsns[F_F1] = 2;
    m->ninsns[F_K] = 9;
    m->smv = (struct sm_view){.sm_id = 0, .sched_id = 0, .n_sched = 1, .max_warps = 8,
                              .bb_len = m->bb, .bb_ninsns = m->ninsns, .nfuncs = 2};
}

static struct warp_view view(unsigned slot, uint64_t age, sim_cycle start)
{
    struct warp_view v;
    memset(&v, 0, sizeof v);
    v.slot = (uint16_t)slot;
    v.age = age;
    v.valid = 1;
    v.start = start;
    return v;
}

/* an issued instruction: kind 'a' ALU, 'c' call, 'b' branch (taken_any, diverged, target) */
static struct warp_inst wi(unsigned func, uint32_t pc, char kind, int taken, int diverged, uint32_t target)
{
    struct warp_inst in;
    memset(&in, 0, sizeof in);
    in.func = (uint16_t)func;
    in.pc = pc;
    in.next_pc = pc + 1;
    in.cls = kind == 'c' ? WI_CALL : kind == 'b' ? WI_BRANCH : WI_ALU;
    if (kind == 'b' || kind == 'c') {
        in.is_branch = 1;
        in.taken_any = (uint8_t)(taken != 0);
        in.diverged = (uint8_t)(diverged != 0);
        in.taken_mask = taken ? (diverged ? 0xffffu : 0xffffffffu) : 0;
        in.target_pc = target;
        if (taken && !diverged)
            in.next_pc = target;
    }
    return in;
}

static int64_t issue(struct cpl *c, const struct warp_view *v, struct warp_inst in, sim_cycle now)
{
    cpl_on_issue(c, v, &in, now);
    return c->w[v->slot].n_inst;
}

/* ---- CPL ------------------------------------------------------------------------------- */

TEST(cpl_block_lengths_come_from_the_view)
{
    struct mock m;
    mock_init(&m);
    struct cpl c;
    cpl_init(&c, &m.smv);
    CHECK_EQ_INT(cpl_block_len(&c, F_K, 0), 3);
    CHECK_EQ_INT(cpl_block_len(&c, F_K, 3), 2);
    CHECK_EQ_INT(cpl_block_len(&c, F_K, 5), 1);
    CHECK_EQ_INT(cpl_block_len(&c, F_F1, 0), 2);
    CHECK_EQ_INT(cpl_block_len(&c, F_K, 9), 0);    /* a label after the last instruction */
    CHECK_EQ_INT(cpl_block_len(&c, 2, 0), 0);      /* no such function */
    cpl_init(&c, NULL);
    CHECK_EQ_INT(cpl_block_len(&c, F_K, 0), 0);    /* no block information at all */
}

/* Not-taken path with a call: every block entered through a branch or call
   is added, every issued instruction subtracts one. */
TEST(cpl_ninst_is_the_taken_blocks_minus_issued_not_taken_path)
{
    struct mock m;
    mock_init(&m);
    struct cpl c;
    cpl_init(&c, &m.smv);
    struct warp_view v = view(3, 7, 0);
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 0, 'a', 0, 0, 0), 1), 3 - 1);          /* entry block A */
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 1, 'a', 0, 0, 0), 2), 3 - 2);
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 2, 'b', 0, 0, 5), 3), 3 + 2 - 3);      /* not taken: + B */
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 3, 'a', 0, 0, 0), 4), 5 - 4);
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 4, 'b', 1, 0, 6), 5), 5 + 3 - 5);      /* bra L3: + D */
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 6, 'a', 0, 0, 0), 6), 8 - 6);
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 7, 'c', 1, 0, 0), 7), 8 - 7);          /* call: callee unknown yet */
    CHECK_EQ_INT(issue(&c, &v, wi(F_F1, 0, 'a', 0, 0, 0), 8), 8 + 2 - 8);     /* + f1's entry block */
    CHECK_EQ_INT(issue(&c, &v, wi(F_F1, 1, 'a', 0, 0, 0), 9), 10 - 9);
    CHECK_EQ_INT(issue(&c, &v, wi(F_K, 8, 'a', 0, 0, 0), 10), 10 - 10);
    CHECK_EQ_U64(c.w[3].issued, 10);
}

/* Alg. 5 on the seed's example: taken -> one instruction (PC_4), not taken
   -> two (PC_2, PC_3), divergent -> all three. */
TEST(cpl_branch_outcomes_of_algorithm_5)
{
    struct mock m;
    mock_init(&m);
    struct cpl c;
    cpl_init(&c, &m.smv);
    struct warp_view t = view(0, 0, 0), n = view(1, 1, 0), d = view(2, 2, 0);
    const struct warp_view *ws[3] = {&t, &n, &d};
    for (int i = 0; i < 3; i++) {
        (void)issue(&c, ws[i], wi(F_K, 0, 'a', 0, 0, 0), 1);
        (void)issue(&c, ws[i], wi(F_K, 1, 'a', 0, 0, 0), 2);
    }
    /* before the branch: 3 - 2 = 1 (the branch itself is left) */
    CHECK_EQ_INT(issue(&c, &t, wi(F_K, 2, 'b', 1, 0, 5), 3), 1 - 1 + 1);
    CHECK_EQ_INT(issue(&c, &n, wi(F_K, 2, 'b', 0, 0, 5), 3), 1 - 1 + 2);
    CHECK_EQ_INT(issue(&c, &d, wi(F_K, 2, 'b', 1, 1, 5), 3), 1 - 1 + 3);
    /* the taken warp runs PC_4 and is then even; falling through into D adds
       nothing (only branches and calls update nInst) */
    CHECK_EQ_INT(issue(&c, &t, wi(F_K, 5, 'a', 0, 0, 0), 4), 0);
    CHECK_EQ_INT(issue(&c, &t, wi(F_K, 6, 'a', 0, 0, 0), 5), -1);
}

TEST(cpl_nstall_accumulates_gaps_between_consecutive_issues)
{
    struct mock m;
    mock_init(&m);
    struct cpl c;
    cpl_init(&c, &m.smv);
    struct warp_view v = view(5, 0, 100);   /* dispatched at cycle 100 */
    (void)issue(&c, &v, wi(F_K, 0, 'a', 0, 0, 0), 104);
    CHECK_EQ_U64(c.w[5].n_stall, 4);        /* 100..103 without an issue */
    (void)issue(&c, &v, wi(F_K, 1, 'a', 0, 0, 0), 105);
    CHECK_EQ_U64(c.w[5].n_stall, 4);        /* back to back: nothing */
    (void)issue(&c, &v, wi(F_K, 2, 'b', 0, 0, 5), 105);
    CHECK_EQ_U64(c.w[5].n_stall, 4);        /* dual issue in the same cycle */
    (void)issue(&c, &v, wi(F_K, 3, 'a', 0, 0, 0), 110);
    CHECK_EQ_U64(c.w[5].n_stall, 8);        /* 106..109 */
    (void)issue(&c, &v, wi(F_K, 4, 'b', 1, 0, 6), 111);
    CHECK_EQ_U64(c.w[5].n_stall, 8);
    /* Eq. 4.1: nInst = 3 + 2 + 3 - 5 = 3; CPI_avg = 12 cycles (100..111) / 5
       instructions = 2.4 -> 614/256; nStall = 8 */
    CHECK_EQ_INT(c.w[5].n_inst, 3);
    CHECK_EQ_U64(c.w[5].cpi, 614);
    CHECK_EQ_INT(cpl_criticality(&c, 5), 3 * 614 + 8 * CPL_ONE);
    CHECK_EQ_INT(cpl_criticality(&c, 6), 0);   /* unused slot */
}

TEST(cpl_slot_reuse_restarts_the_counter)
{
    struct mock m;
    mock_init(&m);
    struct cpl c;
    cpl_init(&c, &m.smv);
    struct warp_view v = view(2, 4, 0);
    (void)issue(&c, &v, wi(F_K, 0, 'a', 0, 0, 0), 50);
    CHECK(cpl_criticality(&c, 2) > 0);
    v.valid = 0;                               /* the warp leaves */
    (void)cpl_sync(&c, &v);
    CHECK_EQ_INT(cpl_criticality(&c, 2), 0);
    struct warp_view nv = view(2, 9, 60);      /* a new warp in the same slot */
    CHECK_EQ_INT(issue(&c, &nv, wi(F_K, 0, 'a', 0, 0, 0), 61), 2);
    CHECK_EQ_U64(c.w[2].n_stall, 1);
    CHECK_EQ_U64(c.w[2].issued, 1);
    CHECK_EQ_U64(c.w[2].age, 9);
}

/* ---- gCAWS ----------------------------------------------------------------------------- */

struct sched {
    const struct warp_sched_ops *ops;
    uint64_t st[1024];
    struct mock m;
    struct warp_view v[4];
    int o[8];
};

/* four warps, slots 0..3, all dispatched at cycle 0, ages given */
static int sched_open(struct sched *s, const uint64_t ages[4], int greedy)
{
    memset(s, 0, sizeof *s);
    s->ops = warp_sched_find("gcaws");
    if (!s->ops || s->ops->state_size > sizeof s->st)
        return -1;
    struct cfg_error err;
    if (policy_params_apply(NULL, "warp_sched", "gcaws", s->ops->params, s->ops->nparams, s->st, &err) != 0)
        return -1;
    if (greedy == 0) {   /* the parameter through its table, as a config would set it */
        for (size_t i = 0; i < s->ops->nparams; i++)
            if (strcmp(s->ops->params[i].name, "greedy") == 0)
                *(int *)((char *)s->st + s->ops->params[i].offset) = 0;
    }
    mock_init(&s->m);
    for (unsigned i = 0; i < 4; i++)
        s->v[i] = view(i, ages[i], 0);
    return s->ops->init(s->st, &s->m.smv);
}

static void sched_issue(struct sched *s, unsigned j, uint32_t pc, sim_cycle now)
{
    struct warp_inst in = wi(F_K, pc, 'a', 0, 0, 0);
    s->ops->on_issue(s->st, &s->v[j], &in, now);
}

/* One cycle the way the SM runs it: order, then the first ready warp issues.
   Returns the view index issued, -1 for none. */
static int sched_cycle(struct sched *s, const int *ready, uint32_t *pcs, sim_cycle now)
{
    int n = s->ops->order(s->st, s->v, 4, s->o, now);
    for (int i = 0; i < n; i++) {
        int j = s->o[i];
        if (j >= 0 && j < 4 && s->v[j].valid && ready[j]) {
            sched_issue(s, (unsigned)j, pcs[j]++, now);
            return j;
        }
    }
    return -1;
}

static void check_order(struct sched *s, sim_cycle now, int a, int b, int c, int d)
{
    int n = s->ops->order(s->st, s->v, 4, s->o, now);
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_INT(s->o[0], a);
    CHECK_EQ_INT(s->o[1], b);
    CHECK_EQ_INT(s->o[2], c);
    CHECK_EQ_INT(s->o[3], d);
}

TEST(gcaws_registered_with_parameter_and_sample)
{
    const struct warp_sched_ops *o = warp_sched_find("gcaws");
    REQUIRE(o != NULL);
    CHECK_EQ_STR(o->name, "gcaws");
    CHECK_EQ_INT(o->nparams, 1);
    CHECK_EQ_STR(o->params[0].name, "greedy");
    CHECK_EQ_STR(o->params[0].def, "1");
    CHECK(o->sample != NULL && o->sample_max);
    CHECK_EQ_STR(o->sample_name, "max_crit");
}

/* Criticalities (Eq. 4.1 with the straight-line block A):
     B issues pc 0 at 5:  nInst 2, CPI 6,    nStall 5   -> 2*1536 + 5*256  = 4352
     C issues pc 0 at 20: nInst 2, CPI 21,   nStall 20  -> 2*5376 + 20*256 = 15872
     B issues pc 1 at 30: nInst 1, CPI 15.5, nStall 29  -> 1*3968 + 29*256 = 11392
   so C > B > A = D (never issued: 0, ties by age). */
TEST(gcaws_orders_by_criticality_ties_by_age_greedy_first)
{
    const uint64_t ages[4] = {5, 1, 2, 3};   /* D (age 3) is older than A (age 5) */
    struct sched s;
    REQUIRE(sched_open(&s, ages, 1) == 0);
    check_order(&s, 0, 1, 2, 3, 0);          /* all 0: by age */
    sched_issue(&s, 1, 0, 5);
    sched_issue(&s, 2, 0, 20);
    sched_issue(&s, 1, 1, 30);
    check_order(&s, 31, 1, 2, 3, 0);         /* B issued last: first although C is more critical */
    CHECK_EQ_INT(*(const int *)((const char *)s.st + s.ops->params[0].offset), 1);   /* the default */
    struct sched u;
    REQUIRE(sched_open(&u, ages, 0) == 0);   /* greedy = 0: pure criticality order */
    sched_issue(&u, 1, 0, 5);
    sched_issue(&u, 2, 0, 20);
    sched_issue(&u, 1, 1, 30);
    check_order(&u, 31, 2, 1, 3, 0);
    CHECK_NEAR(u.ops->sample(u.st), 15872.0 / CPL_ONE, 1e-9);   /* the most critical, C: 62 cycles */
}

/* The selected warp keeps issuing while it is ready; when it stalls the most
   critical ready warp takes over and becomes the greedy one. */
TEST(gcaws_greedy_persistence)
{
    const uint64_t ages[4] = {0, 1, 2, 3};
    struct sched s;
    REQUIRE(sched_open(&s, ages, 1) == 0);
    uint32_t pcs[4] = {0, 0, 0, 0};
    int ready[4] = {1, 1, 1, 1};
    int got[12];
    sim_cycle t = 10;
    got[0] = sched_cycle(&s, ready, pcs, t++);   /* all equal: the oldest (A) */
    got[1] = sched_cycle(&s, ready, pcs, t++);   /* A again: greedy */
    got[2] = sched_cycle(&s, ready, pcs, t++);
    ready[0] = 0;                                /* A stalls */
    got[3] = sched_cycle(&s, ready, pcs, t++);   /* B, C, D all 0: the oldest, B */
    got[4] = sched_cycle(&s, ready, pcs, t++);   /* B greedy */
    ready[0] = 1;                                /* A ready again, but B is greedy */
    got[5] = sched_cycle(&s, ready, pcs, t++);
    ready[1] = 0;                                /* B stalls: now the most critical ready */
    got[6] = sched_cycle(&s, ready, pcs, t++);
    static const int want[6] = {0, 0, 0, 1, 1, 1};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(got[i], want[i]);
    /* at cycle 16: A (issued 3 at 10..12, waited 10 cycles first: nStall 10,
       nInst 0, crit 2560) vs C, D (0): A */
    CHECK_EQ_INT(got[6], 0);
    ready[0] = 0;
    got[7] = sched_cycle(&s, ready, pcs, t++);   /* C (older than D) */
    got[8] = sched_cycle(&s, ready, pcs, t++);   /* C greedy */
    CHECK_EQ_INT(got[7], 2);
    CHECK_EQ_INT(got[8], 2);
    ready[2] = ready[3] = 0;
    CHECK_EQ_INT(sched_cycle(&s, ready, pcs, t++), -1);   /* nothing ready */
    ready[3] = 1;
    CHECK_EQ_INT(sched_cycle(&s, ready, pcs, t++), 3);
}

TEST(gcaws_departed_greedy_warp_loses_first_place)
{
    const uint64_t ages[4] = {0, 1, 2, 3};
    struct sched s;
    REQUIRE(sched_open(&s, ages, 1) == 0);
    sched_issue(&s, 3, 0, 40);                 /* D: nStall 40 -> most critical, greedy */
    check_order(&s, 41, 3, 0, 1, 2);
    s.v[3].age = 9;                            /* D left, a new warp took its slot */
    s.v[3].start = 41;
    check_order(&s, 42, 0, 1, 2, 3);           /* new warp: criticality 0, youngest */
    s.v[1].valid = 0;                          /* an exited warp is not visited */
    int n = s.ops->order(s.st, s.v, 4, s.o, 43);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(s.o[0], 0);
    CHECK_EQ_INT(s.o[1], 2);
    CHECK_EQ_INT(s.o[2], 3);
}

/* ---- the SM: block lengths from the PTX CFG --------------------------------------------- */

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"
static const char k_alg5[] = HDR
    ".func f1()\n{\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, 1;\n"              /* 0 */
    "  ret;\n"                         /* 1 */
    "}\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  mov.u32 %r1, %tid.x;\n"         /* 0 */
    "  setp.lt.u32 %p1, %r1, 16;\n"    /* 1 */
    "  @%p1 bra L2;\n"                 /* 2 PC_1 */
    "  add.u32 %r2, %r1, 1;\n"         /* 3 PC_2 */
    "  bra L3;\n"                      /* 4 PC_3 */
    "L2:\n"
    "  sub.u32 %r2, %r1, 1;\n"         /* 5 PC_4 */
    "L3:\n"
    "  mov.u32 %r3, %r2;\n"            /* 6 PC_5 */
    "  call.uni f1, ();\n"             /* 7 */
    "  exit;\n"                        /* 8 */
    "}\n";

TEST(sm_derives_block_lengths_from_the_ptx)
{
    struct ptx_error e;
    memset(&e, 0, sizeof e);
    struct ptx_module *m = ptx_parse(k_alg5, strlen(k_alg5), "alg5.ptx", &e);
    REQUIRE(m != NULL);
    REQUIRE(ptx_cfg_analyze(m, &e) == 0);
    struct ptx_kinfo ki;
    REQUIRE(ptx_kinfo_build(m, ptx_find_func(m, "k"), &ki, &e) == 0);
    struct arena *a = arena_new(0);
    struct cfg c;
    cfg_init(&c, a);
    struct gpu_config gc;
    struct cfg_error ce;
    REQUIRE(gpu_config_load(&gc, &c, &ce) == 0);
    struct addr_map map;
    char msg[256];
    unsigned col;
    REQUIRE(addr_map_parse(&map, gc.mem_addr_mapping, gc.n_mem, gc.n_sub_partition_per_mchannel, gc.dram.nbk, msg,
                           sizeof msg, &col) == 0);
    struct mem_req_pool pool;
    REQUIRE(mem_req_pool_init(&pool, a, 16) == 0);
    struct sm *s = sm_new(a, &gc, 0, &map, &pool);
    REQUIRE(s != NULL);
    struct ptx_mem mem;
    ptx_mem_init(&mem);
    uint8_t params[8], cbank[64];
    struct ptx_grid g;
    memset(&g, 0, sizeof g);
    g.mod = m;
    g.ki = &ki;
    g.grid[0] = g.grid[1] = g.grid[2] = 1;
    g.block[0] = 32;
    g.block[1] = g.block[2] = 1;
    g.params = params;
    g.mem = &mem;
    g.cbank = cbank;
    g.cbank_size = sizeof cbank;
    g.num_sms = 1;
    REQUIRE(ptx_grid_init(&g) == 0);
    REQUIRE(sm_kernel_begin(s, &g, 0, "gcaws", msg, sizeof msg) == 0);
    int fk = ptx_find_func(m, "k"), ff = ptx_find_func(m, "f1");
    REQUIRE(fk >= 0 && ff >= 0 && s->bb_len && s->nfuncs == 2);
    CHECK_EQ_INT(s->bb_ninsns[fk], 9);
    for (unsigned i = 0; i < 9; i++)
        CHECK_EQ_INT(s->bb_len[fk][i], k_bb[i]);
    CHECK_EQ_INT(s->bb_ninsns[ff], 2);
    CHECK_EQ_INT(s->bb_len[ff][0], 2);
    CHECK_EQ_INT(s->bb_len[ff][1], 1);
    double v = -1;
    CHECK(sm_policy_sample(s, &v));            /* gcaws has a sample; no warps yet: 0 */
    CHECK_NEAR(v, 0, 0);
    sm_kernel_end(s);
    CHECK(s->bb_len == NULL);
    CHECK(!sm_policy_sample(s, &v));           /* no kernel bound */
    sm_release(s);                             /* the CTA buffers kept between kernels */
    ptx_mem_destroy(&mem);
    ptx_kinfo_free(&ki);
    ptx_module_free(m);
    arena_free(a);
}

/* ---- a whole GPU: results verified, the time series has the criticality column ----------- */

/* bfs at tiny size under gcaws with a time series every 500 cycles; idle
   skipping on or off.  Returns the run's core cycles, 0 on failure. */
static uint64_t run_bfs(const char *ts, int skip, int *verified)
{
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    char err[1024];
    uint64_t cycles = 0;
    *verified = 0;
    if (ws_create_ex(&ctx, &o, err, sizeof err) != WS_SUCCESS)
        return 0;
    const char *names[2] = {"gpgpu_scheduler", "warpsim_sample_interval"}, *values[2] = {"gcaws", "500"};
    const struct workload *w = wl_find("bfs");
    size_t len = 0;
    const char *text = wl_ptx_text("bfs", &len);
    ws_module *mod = NULL;
    if (ws_set_config_overrides(ctx, 2, names, values) == WS_SUCCESS &&
        ws_set_timing_outputs(ctx, ts, NULL) == WS_SUCCESS && w && text &&
        wsModuleLoadData(ctx, &mod, text, len, "bfs") == WS_SUCCESS) {
        gpu_set_idle_skip(ws_gpu(ctx), skip != 0);
        struct wl_opts wo;
        memset(&wo, 0, sizeof wo);
        wo.size = WL_TINY;
        wo.seed = 1;
        wo.log = stderr;
        struct wl_result res;
        memset(&res, 0, sizeof res);
        res.verified = 1;
        if (w->run(ctx, mod, &wo, &res) == WS_SUCCESS) {
            *verified = res.verified;
            cycles = gpu_total_cycles(ws_gpu(ctx));
        }
    }
    wsDestroy(ctx);   /* closes the time series */
    return cycles;
}

TEST(bfs_verifies_under_gcaws_and_the_time_series_shows_criticality)
{
    char ts[64], ts2[64];
    snprintf(ts, sizeof ts, "/tmp/ws_test_gcaws_ts_%d.csv", (int)getpid());
    snprintf(ts2, sizeof ts2, "/tmp/ws_test_gcaws_ts2_%d.csv", (int)getpid());
    int ok = 0, ok2 = 0;
    uint64_t cycles = run_bfs(ts, 1, &ok);
    CHECK(cycles > 0 && ok);
    /* a policy must not depend on the engine skipping idle cycles */
    CHECK_EQ_U64(run_bfs(ts2, 0, &ok2), cycles);
    CHECK(ok2);
    char *a = fx_slurp(ts), *b = fx_slurp(ts2);
    CHECK(a && b && strcmp(a, b) == 0);
    free(a);
    free(b);
    remove(ts2);
    FILE *f = fopen(ts, "r");
    REQUIRE(f != NULL);
    static char line[16384];
    REQUIRE(fgets(line, sizeof line, f) != NULL);
    /* find the columns of sm0_warps and sm0_max_crit */
    int cw = -1, cc = -1, col = 0;
    for (char *p = line, *tok; (tok = strsep(&p, ",\n")) != NULL; col++) {
        if (strcmp(tok, "sm0_warps") == 0)
            cw = col;
        if (strcmp(tok, "sm0_max_crit") == 0)
            cc = col;
    }
    REQUIRE(cw >= 0 && cc > cw);
    unsigned rows = 0, positive = 0;
    while (fgets(line, sizeof line, f)) {
        double warps = -1, crit = -1;
        col = 0;
        for (char *p = line, *tok; (tok = strsep(&p, ",\n")) != NULL; col++) {
            if (col == cw)
                warps = strtod(tok, NULL);
            if (col == cc)
                crit = strtod(tok, NULL);
        }
        rows++;
        CHECK(crit >= 0);
        if (warps == 0)
            CHECK_NEAR(crit, 0, 0);   /* no warps on the core: no criticality */
        positive += crit > 0;
    }
    fclose(f);
    remove(ts);
    CHECK(rows > 10);
    CHECK(positive > 0);
}

TEST_MAIN()
