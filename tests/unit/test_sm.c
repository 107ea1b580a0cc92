/*
 * test_sm.c - the SM timing model driven alone: a tiny kernel parsed from
 * PTX, one SM, and a fake memory that answers every read exactly `delay`
 * cycles after the SM handed it over.  Assertions are exact cycle gaps
 * (Ramulator style): a lone dependency costs exactly its configured latency.
 */
#include <string.h>

#include "test.h"
#include "core/arena.h"
#include "core/config.h"
#include "gpu/sm_int.h"
#include "mem/addr_map.h"
#include "sys/gpu_config.h"

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"

#define RIG_LOG 4096
#define RIG_Q 4096

struct rig {
    struct ptx_module *m;
    struct ptx_kinfo ki;
    struct ptx_mem mem;
    struct ptx_grid g;
    uint8_t params[64];
    struct arena *a;
    struct gpu_config cfg;
    struct addr_map map;
    struct mem_req_pool pool;
    struct sm *sm;
    uint64_t buf;                  /* a 64 KiB global buffer */
    /* fake memory */
    struct mem_req *q[RIG_Q];
    sim_cycle due[RIG_Q];
    unsigned qn;
    sim_cycle delay, now;
    unsigned take_every;               /* 0: takes every request at once; k: one, in cycles that are multiples of k */
    bool skip;                         /* rig_run's: the SM is ticked only when due (sm_due), as the GPU does */
    uint64_t reads, writes, atomics, ireads;
    uint64_t src_reads[8];             /* reads by mem_req source */
    uint8_t cbank[4096];
    /* issue log */
    unsigned nlog;
    sim_cycle log_cycle[RIG_LOG];
    unsigned log_slot[RIG_LOG], log_pc[RIG_LOG];
    uint64_t seen_insns[SM_MAX_WARPS];
    /* CTAs */
    uint64_t next_cta, n_ctas;
    /* warp records */
    unsigned nrec;
    struct warp_record rec[256];
};

static void rig_on_done(void *user, const struct warp_record *r)
{
    struct rig *g = user;
    if (g->nrec < 256)
        g->rec[g->nrec++] = *r;
}

/* overrides: "name=value" strings, NULL-terminated */
static int rig_open(struct rig *r, const char *ptx, unsigned threads, unsigned ctas, const char *const *over,
                    const char *sched)
{
    memset(r, 0, sizeof *r);
    struct ptx_error e;
    memset(&e, 0, sizeof e);
    r->m = ptx_parse(ptx, strlen(ptx), "sm.ptx", &e);
    if (!r->m || ptx_cfg_analyze(r->m, &e) || ptx_kinfo_build(r->m, ptx_find_func(r->m, "k"), &r->ki, &e)) {
        fprintf(stderr, "  %s:%u:%u: %s\n", e.file, e.line, e.col, e.msg);
        return -1;
    }
    r->a = arena_new(0);
    struct cfg c;
    cfg_init(&c, r->a);
    for (unsigned i = 0; over && over[i]; i++) {
        char name[128];
        const char *eq = strchr(over[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - over[i]), over[i]);
        cfg_set(&c, name, eq + 1, "test");
    }
    struct cfg_error ce;
    if (gpu_config_load(&r->cfg, &c, &ce)) {
        fprintf(stderr, "  config: %s\n", ce.msg);
        return -1;
    }
    char msg[256];
    unsigned col;
    if (addr_map_parse(&r->map, r->cfg.mem_addr_mapping, r->cfg.n_mem, r->cfg.n_sub_partition_per_mchannel,
                       r->cfg.dram.nbk, msg, sizeof msg, &col))
        return -1;
    if (mem_req_pool_init(&r->pool, r->a, 256))
        return -1;
    r->sm = sm_new(r->a, &r->cfg, 0, &r->map, &r->pool);
    if (!r->sm)
        return -1;
    sm_set_warp_done_hook(r->sm, rig_on_done, r);
    ptx_mem_init(&r->mem);
    if (ptx_mem_alloc(&r->mem, 65536, NULL, &r->buf))
        return -1;
    struct ptx_grid *g = &r->g;
    g->mod = r->m;
    g->ki = &r->ki;
    g->grid[0] = ctas;
    g->grid[1] = g->grid[2] = 1;
    g->block[0] = threads;
    g->block[1] = g->block[2] = 1;
    g->params = r->params;
    g->param_bytes = r->m->funcs[r->ki.func].param_bytes;
    g->mem = &r->mem;
    g->cbank = r->cbank;
    g->cbank_size = sizeof r->cbank;
    g->num_sms = 1;
    if (ptx_grid_init(g))
        return -1;
    r->n_ctas = ctas;
    r->delay = 50;
    if (sm_kernel_begin(r->sm, g, 0, sched ? sched : "lrr", msg, sizeof msg)) {
        fprintf(stderr, "  %s\n", msg);
        return -1;
    }
    return 0;
}

static void rig_close(struct rig *r)
{
    sm_release(r->sm);   /* the kernel's state and the CTA buffers it keeps between kernels */
    ptx_mem_destroy(&r->mem);
    ptx_kinfo_free(&r->ki);
    ptx_module_free(r->m);
    arena_free(r->a);
}

static bool rig_done(const struct rig *r)
{
    return r->next_cta >= r->n_ctas && !sm_busy(r->sm) && r->qn == 0;
}

/* One cycle: CTA dispatch, due replies, the SM, requests handed to memory. */
static void rig_step(struct rig *r)
{
    struct sm *s = r->sm;
    while (r->next_cta < r->n_ctas && sm_can_take_cta(s))
        sm_launch_cta(s, r->next_cta++, r->now);
    unsigned k = 0;
    for (unsigned i = 0; i < r->qn; i++) {
        if (r->due[i] <= r->now && sm_can_take_reply(s)) {
            sm_push_reply(s, r->q[i], r->now);
        } else {
            r->q[k] = r->q[i];
            r->due[k++] = r->due[i];
        }
    }
    r->qn = k;
    if (!r->skip || sm_due(s, r->now))
        sm_cycle(s, r->now);
    for (unsigned w = 0; w < s->max_warps; w++) {
        const struct sm_warp *sw = &s->warp[w];
        if (sw->state != SMW_FREE && sw->insns != r->seen_insns[w]) {
            /* several in one cycle (dual issue) were consecutive */
            unsigned d = (unsigned)(sw->insns - r->seen_insns[w]);
            for (unsigned x = 0; x < d && r->nlog < RIG_LOG; x++) {
                r->log_cycle[r->nlog] = r->now;
                r->log_slot[r->nlog] = w;
                r->log_pc[r->nlog] = sw->exp_pc - d + x;
                r->nlog++;
            }
            r->seen_insns[w] = sw->insns;
        } else if (sw->state == SMW_FREE) {
            r->seen_insns[w] = 0;
        }
    }
    struct mem_req *q;
    unsigned taken = 0;
    while ((q = sm_peek_request(s, r->now)) != NULL) {
        if (r->take_every && (r->now % r->take_every != 0 || taken++))
            break;
        sm_pop_request(s);
        if (q->type == MRT_WRITE) {
            r->writes++;
            mem_req_free(&r->pool, q);
            continue;
        }
        r->src_reads[q->source & 7]++;
        if (q->source == MRS_L1I)
            r->ireads++;
        else if (q->type == MRT_ATOMIC)
            r->atomics++;
        else
            r->reads++;
        q->is_reply = 1;
        r->q[r->qn] = q;
        r->due[r->qn++] = r->now + r->delay;
    }
}

/* Run to completion; with skip, jump over cycles where neither the SM nor
   the memory has anything to do (as the GPU does). */
static int rig_run(struct rig *r, bool skip, sim_cycle limit)
{
    r->skip = skip;
    sim_cycle last = 0;
    while (!rig_done(r) && r->now < limit) {
        rig_step(r);
        last = r->now;
        if (sm_faulted(r->sm))
            return -1;
        sim_cycle next = r->now + 1;
        if (skip) {
            sim_cycle t = sm_next_event(r->sm, r->now);
            for (unsigned i = 0; i < r->qn; i++)
                t = sim_min(t, r->due[i]);
            if (r->take_every && sm_peek_request(r->sm, SIM_NEVER - 1))   /* the next cycle it takes one */
                t = sim_min(t, (r->now / r->take_every + 1) * r->take_every);
            if (r->next_cta < r->n_ctas && sm_can_take_cta(r->sm))
                t = r->now + 1;
            if (t == SIM_NEVER && !rig_done(r)) {   /* would never wake up */
                fprintf(stderr, "  no next event at cycle %llu:\n  ", (unsigned long long)r->now);
                sm_dump(r->sm, stderr);
                return -2;
            }
            next = t == SIM_NEVER ? r->now + 1 : sim_max(t, r->now + 1);
        }
        r->now = next;
    }
    if (skip)
        sm_settle(r->sm, last);   /* the cycles up to the last step it was not ticked in */
    return rig_done(r) ? 0 : -3;
}

/* cycle at which slot issued its pc (the first time), or SIM_NEVER */
static sim_cycle rig_issue(const struct rig *r, unsigned slot, unsigned pc)
{
    for (unsigned i = 0; i < r->nlog; i++)
        if (r->log_slot[i] == slot && r->log_pc[i] == pc)
            return r->log_cycle[i];
    return SIM_NEVER;
}

/* ---- kernels ---------------------------------------------------------------------------- */

static const char k_chain[] = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  mov.u32 %r1, 1;\n"          /* 0 */
    "  add.u32 %r2, %r1, 1;\n"     /* 1 */
    "  add.u32 %r3, %r2, 1;\n"     /* 2 */
    "  add.u32 %r4, %r3, 1;\n"     /* 3 */
    "  add.u32 %r5, %r4, 1;\n"     /* 4 */
    "  exit;\n"                    /* 5 */
    "}\n";

static const char k_indep[] = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  mov.u32 %r1, 1;\n"          /* 0 */
    "  add.u32 %r2, %r1, 1;\n"     /* 1 */
    "  add.u32 %r3, %r1, 2;\n"     /* 2 */
    "  add.u32 %r4, %r1, 3;\n"     /* 3 */
    "  add.u32 %r5, %r1, 4;\n"     /* 4 */
    "  exit;\n"                    /* 5 */
    "}\n";

static const char k_load[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"        /* 0 */
    "  ld.global.u32 %r1, [%rd1];\n"     /* 1: miss */
    "  add.u32 %r2, %r1, 1;\n"           /* 2: waits for the reply */
    "  ld.global.u32 %r3, [%rd1+4];\n"   /* 3: hit */
    "  add.u32 %r4, %r3, 1;\n"           /* 4: waits l1d_latency */
    "  exit;\n"                          /* 5 */
    "}\n";

static const char k_shared[] = HDR
    ".visible .entry k(.param .u32 s)\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  .shared .align 4 .b8 buf[4096];\n"
    "  ld.param.u32 %r1, [s];\n"         /* 0 */
    "  mov.u32 %r2, %tid.x;\n"           /* 1 */
    "  mul.lo.u32 %r3, %r2, %r1;\n"      /* 2 */
    "  mov.u32 %r4, buf;\n"              /* 3 */
    "  add.u32 %r5, %r4, %r3;\n"         /* 4 */
    "  ld.shared.u32 %r6, [%r5];\n"      /* 5 */
    "  add.u32 %r7, %r6, 1;\n"           /* 6 */
    "  exit;\n"                          /* 7 */
    "}\n";

/* lanes in pairs: lane i reads (or atomically adds to) the word at (i / 2) * s bytes */
static const char k_shared_pairs[] = HDR
    ".visible .entry k(.param .u32 s)\n{\n"
    "  .reg .b32 %r<9>;\n"
    "  .shared .align 4 .b8 buf[4096];\n"
    "  ld.param.u32 %r1, [s];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  shr.u32 %r8, %r2, 1;\n"
    "  mul.lo.u32 %r3, %r8, %r1;\n"
    "  mov.u32 %r4, buf;\n"
    "  add.u32 %r5, %r4, %r3;\n"
    "  ld.shared.u32 %r6, [%r5];\n"
    "  atom.shared.add.u32 %r7, [%r5], 1;\n"
    "  exit;\n"
    "}\n";

static const char k_coalesce[] = HDR
    ".visible .entry k(.param .u64 p, .param .u32 s)\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"        /* 0 */
    "  ld.param.u32 %r1, [s];\n"         /* 1 */
    "  mov.u32 %r2, %tid.x;\n"           /* 2 */
    "  mul.wide.u32 %rd2, %r2, %r1;\n"   /* 3 */
    "  add.s64 %rd3, %rd1, %rd2;\n"      /* 4 */
    "  ld.global.u32 %r3, [%rd3];\n"     /* 5 */
    "  exit;\n"                          /* 6 */
    "}\n";

static const char k_movs[] = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  mov.u32 %r1, 1;\n"
    "  mov.u32 %r2, 2;\n"
    "  mov.u32 %r3, 3;\n"
    "  mov.u32 %r4, 4;\n"
    "  mov.u32 %r5, 5;\n"
    "  mov.u32 %r6, 6;\n"
    "  mov.u32 %r7, 7;\n"
    "  exit;\n"                          /* 7 */
    "}\n";

/* out[i] = (in[i] + sum of the CTA's in[] via shared memory) with a divergent branch and a barrier */
static const char k_reduce[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b8 sh[512];\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r5, [%rd3];\n"
    "  mov.u32 %r6, sh;\n"
    "  shl.b32 %r7, %r1, 2;\n"
    "  add.u32 %r8, %r6, %r7;\n"
    "  st.shared.u32 [%r8], %r5;\n"
    "  bar.sync 0;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra SKIP;\n"
    "  mov.u32 %r9, 0;\n"
    "  mov.u32 %r10, 0;\n"
    "LOOP:\n"
    "  shl.b32 %r11, %r10, 2;\n"
    "  add.u32 %r11, %r6, %r11;\n"
    "  ld.shared.u32 %r11, [%r11];\n"
    "  add.u32 %r9, %r9, %r11;\n"
    "  add.u32 %r10, %r10, 1;\n"
    "  setp.lt.u32 %p2, %r10, %r3;\n"
    "  @%p2 bra LOOP;\n"
    "  st.shared.u32 [%r6+508], %r9;\n"
    "SKIP:\n"
    "  bar.sync 0;\n"
    "  ld.shared.u32 %r9, [%r6+508];\n"
    "  add.u32 %r5, %r5, %r9;\n"
    "  add.s64 %rd4, %rd3, 32768;\n"
    "  st.global.u32 [%rd4], %r5;\n"
    "  exit;\n"
    "}\n";

static const char k_dual[] = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .f32 %f<4>;\n"
    "  mov.u32 %r1, 1;\n"             /* 0 SP */
    "  rcp.approx.f32 %f1, %f2;\n"    /* 1 SFU: same cycle as 0 */
    "  mov.u32 %r2, 2;\n"             /* 2 SP */
    "  mov.u32 %r3, 3;\n"             /* 3 SP: not with 2 */
    "  exit;\n"
    "}\n";

static const char k_const[] = HDR
    ".const .align 4 .b8 cv[256];\n"
    ".visible .entry k(.param .u32 s)\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u32 %r1, [s];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mul.lo.u32 %r3, %r2, %r1;\n"
    "  cvt.u64.u32 %rd1, %r3;\n"
    "  mov.u64 %rd2, cv;\n"
    "  add.s64 %rd3, %rd2, %rd1;\n"
    "  ld.const.u32 %r4, [%rd3];\n"
    "  add.u32 %r5, %r4, 1;\n"
    "  exit;\n"
    "}\n";

static const char k_atom[] = HDR
    ".visible .entry k(.param .u64 p, .param .u32 s)\n{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"        /* 0 */
    "  ld.param.u32 %r1, [s];\n"         /* 1 */
    "  mov.u32 %r2, %tid.x;\n"           /* 2 */
    "  mul.wide.u32 %rd2, %r2, %r1;\n"   /* 3 */
    "  add.s64 %rd3, %rd1, %rd2;\n"      /* 4 */
    "  atom.global.add.u32 %r3, [%rd3], 1;\n" /* 5 */
    "  add.u32 %r4, %r3, 1;\n"           /* 6 */
    "  exit;\n"                          /* 7 */
    "}\n";

static const char k_local[] = HDR
    ".visible .entry k()\n{\n"
    "  .local .align 4 .b8 depot[16];\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.u64 %rd1, depot;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  st.local.u32 [%rd1], %r1;\n"
    "  ld.local.u32 %r2, [%rd1+4];\n"
    "  add.u32 %r3, %r2, 1;\n"
    "  exit;\n"
    "}\n";

static const char *const no_over[] = {NULL};

/* ---- tests ------------------------------------------------------------------------------- */

TEST(dependent_adds_issue_one_per_add_latency)
{
    struct rig r;
    REQUIRE(rig_open(&r, k_chain, 32, 1, no_over, NULL) == 0);
    REQUIRE(rig_run(&r, false, 10000) == 0);
    unsigned lat = r.cfg.lat_int[OPL_ADD];
    CHECK_EQ_INT(lat, 4);
    /* cold I-cache: the line comes back `delay` cycles after cycle 0's fetch, then fetch_latency */
    CHECK_EQ_U64(rig_issue(&r, 0, 0), r.delay + r.cfg.fetch_latency);
    for (unsigned pc = 1; pc <= 4; pc++)
        CHECK_EQ_U64(rig_issue(&r, 0, pc) - rig_issue(&r, 0, pc - 1), lat);
    CHECK_EQ_U64(rig_issue(&r, 0, 5) - rig_issue(&r, 0, 4), 1);   /* exit does not read %r5 */
    CHECK_EQ_U64(r.sm->m.issued_warp_insns, 6);
    CHECK_EQ_U64(r.sm->m.ctas_done, 1);
    CHECK_EQ_U64(r.ireads, 1);
    rig_close(&r);
}

TEST(independent_adds_issue_back_to_back)
{
    struct rig r;
    REQUIRE(rig_open(&r, k_indep, 32, 1, no_over, NULL) == 0);
    REQUIRE(rig_run(&r, false, 10000) == 0);
    CHECK_EQ_U64(rig_issue(&r, 0, 1) - rig_issue(&r, 0, 0), r.cfg.lat_int[OPL_ADD]);
    for (unsigned pc = 2; pc <= 5; pc++)
        CHECK_EQ_U64(rig_issue(&r, 0, pc) - rig_issue(&r, 0, pc - 1), 1);
    rig_close(&r);
}

TEST(load_hit_and_miss_latencies)
{
    const char *const over[] = {"gpgpu_l1_latency=3", NULL};
    struct rig r;
    REQUIRE(rig_open(&r, k_load, 32, 1, over, NULL) == 0);
    memcpy(r.params, &r.buf, 8);
    r.delay = 40;
    REQUIRE(rig_run(&r, false, 10000) == 0);
    sim_cycle t0 = rig_issue(&r, 0, 0), t1 = rig_issue(&r, 0, 1), t2 = rig_issue(&r, 0, 2);
    sim_cycle t3 = rig_issue(&r, 0, 3), t4 = rig_issue(&r, 0, 4);
    CHECK_EQ_U64(t1 - t0, r.cfg.const_latency);       /* ld.param is a constant-cache hit */
    CHECK_EQ_U64(t2 - t1, r.delay + 1);               /* reply processed at t1+delay, written back next cycle */
    CHECK_EQ_U64(t3 - t2, 1);
    CHECK_EQ_U64(t4 - t3, 3);                         /* L1D hit: l1d_latency */
    CHECK_EQ_U64(r.reads, 1);
    const struct sm_metrics *m = sm_get_metrics(r.sm);
    CHECK_EQ_U64(m->lat_rt_count, 2);                 /* the I-cache line and the data line */
    CHECK_EQ_U64(m->lat_rt_sum, 2 * r.delay);
    CHECK_EQ_U64(m->lat_rt_max, r.delay);
    CHECK_EQ_U64(m->mem_insns, 3);
    REQUIRE(r.nrec == 1);
    /* the add after the missed load: its first blocked probe is a data hazard, the rest data-cache-miss */
    CHECK_EQ_U64(r.rec[0].stall[STALL_DATA_CACHE_MISS], r.delay - 1);
    rig_close(&r);
}

static uint64_t shared_run(unsigned stride, sim_cycle *gap)
{
    struct rig r;
    if (rig_open(&r, k_shared, 32, 1, no_over, NULL) != 0)
        return UINT64_MAX;
    memcpy(r.params, &stride, 4);
    uint64_t c = UINT64_MAX;
    if (rig_run(&r, false, 10000) == 0) {
        c = sm_get_metrics(r.sm)->shmem_bank_conflicts;
        *gap = rig_issue(&r, 0, 6) - rig_issue(&r, 0, 5);
    }
    rig_close(&r);
    return c;
}

TEST(shared_memory_bank_conflicts)
{
    sim_cycle gap = 0;
    unsigned lat = 3;   /* gpgpu_smem_latency default */
    CHECK_EQ_U64(shared_run(4, &gap), 0);     /* one word per bank */
    CHECK_EQ_U64(gap, lat);
    CHECK_EQ_U64(shared_run(8, &gap), 1);     /* stride 2 words: 2-way */
    CHECK_EQ_U64(gap, lat + 1);
    CHECK_EQ_U64(shared_run(128, &gap), 31);  /* stride 32 words: 32-way */
    CHECK_EQ_U64(gap, lat + 31);
    CHECK_EQ_U64(shared_run(0, &gap), 0);     /* broadcast */
    CHECK_EQ_U64(gap, lat);
}

/* Bank conflicts of k_shared_pairs: the load's and the atomic's together. */
static uint64_t shared_pairs_run(unsigned stride)
{
    struct rig r;
    if (rig_open(&r, k_shared_pairs, 32, 1, no_over, NULL) != 0)
        return UINT64_MAX;
    memcpy(r.params, &stride, 4);
    uint64_t c = UINT64_MAX;
    if (rig_run(&r, false, 10000) == 0)
        c = sm_get_metrics(r.sm)->shmem_bank_conflicts;
    rig_close(&r);
    return c;
}

/* A word read by two lanes is delivered once (a broadcast); an atomic serialises every lane. */
TEST(shared_memory_bank_conflicts_broadcast_pairs)
{
    CHECK_EQ_U64(shared_pairs_run(4), 0 + 1);       /* 16 words in 16 banks; the atomic: 2 lanes per bank */
    CHECK_EQ_U64(shared_pairs_run(8), 0 + 1);       /* 16 words in the even banks, one each */
    CHECK_EQ_U64(shared_pairs_run(128), 15 + 31);   /* 16 words in bank 0; the atomic: 32 lane-words */
    CHECK_EQ_U64(shared_pairs_run(0), 0 + 31);      /* one word for every lane */
}

static int coalesce_run(unsigned stride, const char *sector, uint64_t *reqs, uint64_t *reads)
{
    const char *const over[] = {sector, NULL};
    struct rig r;
    if (rig_open(&r, k_coalesce, 32, 1, over, NULL) != 0)
        return -1;
    memcpy(r.params, &r.buf, 8);
    memcpy(r.params + 8, &stride, 4);
    int rc = rig_run(&r, false, 100000);
    *reqs = sm_get_metrics(r.sm)->coalesced_requests;
    *reads = r.reads;
    rig_close(&r);
    return rc;
}

TEST(coalescing_lines_and_sectors)
{
    uint64_t reqs, reads;
    REQUIRE(coalesce_run(4, "warpsim_coalesce_sector=0", &reqs, &reads) == 0);
    CHECK_EQ_U64(reqs, 1);        /* 32 x 4 B = one 128-byte line */
    CHECK_EQ_U64(reads, 1);
    REQUIRE(coalesce_run(128, "warpsim_coalesce_sector=0", &reqs, &reads) == 0);
    CHECK_EQ_U64(reqs, 32);       /* one line per lane */
    CHECK_EQ_U64(reads, 32);
    REQUIRE(coalesce_run(8, "warpsim_coalesce_sector=0", &reqs, &reads) == 0);
    CHECK_EQ_U64(reqs, 2);
    REQUIRE(coalesce_run(4, "warpsim_coalesce_sector=32", &reqs, &reads) == 0);
    CHECK_EQ_U64(reqs, 4);        /* four 32-byte sectors */
    CHECK_EQ_U64(reads, 1);       /* one miss; the other sectors of the line merge into it */
}

static void sched_order(const char *sched, unsigned *slots, unsigned n)
{
    const char *const over[] = {"gpgpu_num_sched_per_core=1", "warpsim_ibuffer_size=8", NULL};
    struct rig r;
    memset(slots, 0xff, sizeof(unsigned) * n);
    if (rig_open(&r, k_movs, 64, 1, over, sched) != 0)
        return;
    if (rig_run(&r, false, 10000) == 0)
        for (unsigned i = 0; i < n && i < r.nlog; i++)
            slots[i] = r.log_slot[i];
    rig_close(&r);
}

TEST(gto_keeps_the_same_warp_lrr_rotates)
{
    unsigned s[16];
    sched_order("gto", s, 16);
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ_INT(s[i], 0);
    for (unsigned i = 8; i < 16; i++)
        CHECK_EQ_INT(s[i], 1);
    sched_order("lrr", s, 16);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_INT(s[i], i % 2);
}

TEST(attribution_sums_to_probes)
{
    struct rig r;
    REQUIRE(rig_open(&r, k_load, 32, 1, no_over, NULL) == 0);
    memcpy(r.params, &r.buf, 8);
    REQUIRE(rig_run(&r, false, 10000) == 0);
    REQUIRE(r.nrec == 1);
    const struct warp_record *w = &r.rec[0];
    /* the only warp is probed every cycle from its launch (cycle 0) to its exit */
    sim_cycle exit_at = rig_issue(&r, 0, 5);
    uint64_t sum = 0;
    for (unsigned k = 0; k < STALL_COUNT; k++)
        sum += w->stall[k];
    CHECK_EQ_U64(sum, exit_at + 1);
    CHECK_EQ_U64(w->scheduling, exit_at);
    CHECK_EQ_U64(w->start, 0);
    CHECK_EQ_U64(w->end, exit_at);
    CHECK_EQ_U64(w->stall[STALL_NONE], 6);
    CHECK_EQ_U64(w->insns, 6);
    CHECK(w->stall[STALL_FETCH] >= r.delay);   /* the cold I-cache */
    const struct sm_metrics *m = sm_get_metrics(r.sm);
    for (unsigned k = 0; k < STALL_COUNT; k++)
        CHECK_EQ_U64(m->stall[k], w->stall[k]);
    CHECK_EQ_U64(m->scheduling, w->scheduling);
    /* cycles: each one either issued (n_act) or not (n_inact) while the warp lived */
    CHECK_EQ_U64(m->n_act, 6);
    CHECK_EQ_U64(m->n_act + m->n_inact, m->util_cycles);
    CHECK_EQ_U64(m->c_mem, r.delay);                  /* waiting for the missed load only */
    /* one warp: idle cycles are its fetch / control / barrier waits plus the cycles without warps */
    CHECK_EQ_U64(m->c_idle, w->stall[STALL_FETCH] + w->stall[STALL_CTRL] + w->stall[STALL_SYNC] +
                                (m->cycles - m->util_cycles));
    CHECK(m->util_cycles > exit_at);
    rig_close(&r);
}

/* -warpsim_c_idle_fetch 0 (the ablation of 001 sec. III-A's narrower idle time): a warp waiting for
   fetch or a branch redirect no longer makes the cycle idle; those cycles move from C_idle to the
   other inactive cycles, and nothing else (timing, attribution, C_mem) changes. */
TEST(c_idle_without_fetch_waits_counts_barriers_and_empty_cores_only)
{
    static const char *const narrow[] = {"warpsim_c_idle_fetch=0", NULL};
    struct rig wide, nar;
    REQUIRE(rig_open(&wide, k_load, 32, 1, no_over, NULL) == 0);
    REQUIRE(rig_open(&nar, k_load, 32, 1, narrow, NULL) == 0);
    memcpy(wide.params, &wide.buf, 8);
    memcpy(nar.params, &nar.buf, 8);
    REQUIRE(rig_run(&wide, false, 10000) == 0);
    REQUIRE(rig_run(&nar, false, 10000) == 0);
    REQUIRE(wide.nrec == 1 && nar.nrec == 1);
    const struct warp_record *w = &nar.rec[0];
    const struct sm_metrics *a = sm_get_metrics(wide.sm), *b = sm_get_metrics(nar.sm);
    CHECK(w->stall[STALL_FETCH] >= nar.delay);   /* there are fetch waits to leave out */
    CHECK_EQ_U64(b->cycles, a->cycles);
    CHECK_EQ_U64(b->n_inact, a->n_inact);
    CHECK_EQ_U64(b->c_mem, a->c_mem);
    CHECK_EQ_U64(b->c_idle, w->stall[STALL_SYNC] + (b->cycles - b->util_cycles));
    CHECK_EQ_U64(a->c_idle - b->c_idle, w->stall[STALL_FETCH] + w->stall[STALL_CTRL]);
    rig_close(&wide);
    rig_close(&nar);
}

/* A SIMT width below 32: an issued warp streams through the lanes for 32 / width cycles, in which the
   core is busy, not stalled (001 sec. II: "every 4 cycles, a ready warp is fed into these lanes"): those
   cycles count as active (N_act), so a compute-bound core's RACT is near 1 at any width. */
TEST(narrow_simd_streaming_cycles_are_active)
{
    for (unsigned width = 8; width <= 32; width *= 4) {
        char opt[40];
        snprintf(opt, sizeof opt, "warpsim_simd_width=%u", width);
        const char *const over[] = {opt, "gpgpu_num_sp_units=1", NULL};   /* one SP pipeline, as dyncta-30core */
        struct rig r;
        REQUIRE(rig_open(&r, k_movs, 32, 1, over, NULL) == 0);
        REQUIRE(rig_run(&r, false, 10000) == 0);
        unsigned passes = 32 / width;
        uint64_t want = 1;   /* the exit's own cycle: after it no warp is live */
        for (unsigned pc = 0; pc < 7; pc++) {
            sim_cycle a = rig_issue(&r, 0, pc), b = rig_issue(&r, 0, pc + 1);
            REQUIRE(b > a);
            want += b - a < passes ? b - a : passes;
            if (pc < 6)
                CHECK_EQ_U64(b - a, passes);   /* the SP lanes take a warp every 32 / width cycles */
        }
        const struct sm_metrics *m = sm_get_metrics(r.sm);
        CHECK_EQ_U64(m->n_act, want);
        if (width == 32)
            CHECK_EQ_U64(m->n_act, 8);   /* one active cycle per issue */
        CHECK_EQ_U64(m->n_act + m->n_inact, m->util_cycles);
        rig_close(&r);
    }
}

/* which counters differ (a failing transparency check) */
static void metrics_diff(const char *what, const struct sm_metrics *a, const struct sm_metrics *b)
{
    const uint64_t *x = (const uint64_t *)(const void *)a, *y = (const uint64_t *)(const void *)b;
    for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++)
        if (x[i] != y[i])
            fprintf(stderr, "  %s: sm_metrics word %zu: %llu vs %llu\n", what, i, (unsigned long long)x[i],
                    (unsigned long long)y[i]);
}

static struct warp_record reduce_rec[2][256];
static struct cache_stats reduce_l1d[2];   /* the L1D's counters of the last runs without and with skipping */

static const char *reduce_extra = "gpgpu_l1_latency=2";
static unsigned reduce_take_every;   /* rig.take_every of reduce_run */

static int reduce_run(const char *sched, bool skip, unsigned ctas, struct sm_metrics *out, sim_cycle *end,
                      unsigned *ok)
{
    const char *const over[] = {"gpgpu_l1_latency=2", reduce_extra, NULL};
    struct rig r;
    if (rig_open(&r, k_reduce, 128, ctas, over, sched) != 0)
        return -1;
    r.sm->no_freeze = !skip;   /* the reference run probes every warp every cycle */
    r.take_every = reduce_take_every;
    memcpy(r.params, &r.buf, 8);
    uint32_t *in = (uint32_t *)(void *)ptx_mem_ptr(&r.mem, r.buf, 65536);
    for (unsigned i = 0; i < 128 * ctas; i++)
        in[i] = i;
    int rc = rig_run(&r, skip, 1000000);
    *out = *sm_get_metrics(r.sm);
    *end = r.now;
    memcpy(reduce_rec[skip], r.rec, sizeof r.rec);
    reduce_l1d[skip] = *cache_stats(r.sm->l1d);
    *ok = 1;
    for (unsigned c = 0; c < ctas; c++) {
        uint32_t sum = 0;
        for (unsigned t = 0; t < 128; t++)
            sum += c * 128 + t;
        for (unsigned t = 0; t < 128; t++)
            if (in[8192 + c * 128 + t] != c * 128 + t + sum)
                *ok = 0;
    }
    rig_close(&r);
    return rc;
}

TEST(multi_cta_barriers_divergence_correct_and_skip_transparent)
{
    struct sm_metrics a, b;
    sim_cycle ea, eb;
    unsigned oka, okb;
    REQUIRE(reduce_run("gto", false, 20, &a, &ea, &oka) == 0);
    REQUIRE(reduce_run("gto", true, 20, &b, &eb, &okb) == 0);
    CHECK_EQ_INT(oka, 1);
    CHECK_EQ_INT(okb, 1);
    CHECK_EQ_U64(a.ctas_done, 20);
    CHECK_EQ_U64(a.warps_done, 80);
    /* skipping idle cycles (GPU) and frozen schedulers (SM) change nothing */
    CHECK_EQ_U64(ea, eb);
    CHECK_EQ_U64(a.cycles, b.cycles);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(memcmp(reduce_rec[0], reduce_rec[1], sizeof reduce_rec[0]) == 0);
    CHECK(a.stall[STALL_DATA_CACHE_MISS] > 0 && a.stall[STALL_CTRL] > 0 && a.stall[STALL_FETCH] > 0);
    CHECK_EQ_U64(a.n_act + a.n_inact, a.util_cycles);
    CHECK(a.stall[STALL_SYNC] > 0);
    /* LRR visits by rotation (warp_sched_ops.rotation) and, like GTO, lets a frozen scheduler
       probe only the warps an event touched (order_pure, sm_refreeze): still skip-transparent */
    REQUIRE(reduce_run("lrr", false, 20, &a, &ea, &oka) == 0);
    REQUIRE(reduce_run("lrr", true, 20, &b, &eb, &okb) == 0);
    CHECK_EQ_INT(oka, 1);
    CHECK_EQ_INT(okb, 1);
    CHECK_EQ_U64(ea, eb);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(memcmp(reduce_rec[0], reduce_rec[1], sizeof reduce_rec[0]) == 0);
    /* dual issue, a narrow SIMD and DP units: same results, still skip-transparent.  With two L1D
       MSHRs the LD/ST unit keeps failing, and with a 3-entry outgoing queue that the memory drains
       one request every 4 cycles it keeps finding no room: the cycles in which only its retry is
       due are charged as skipped ones after the retry's access (sm_cycle_part), or its retries
       are left out while they would repeat (sm_ldst_may_sleep): the same counts, in the SM and
       in the L1D, as ticking them */
    const char *extras[] = {"gpgpu_max_insn_issue_per_warp=2", "warpsim_simd_width=8", "gpgpu_num_sched_per_core=4",
                            "gpgpu_cache:dl1=32:128:4,L:L:m:N:H,A:2:8,8", "warpsim_ldst_queue=3"};
    for (unsigned i = 0; i < 5; i++) {
        reduce_extra = extras[i];
        reduce_take_every = i == 4 ? 4 : 0;
        REQUIRE(reduce_run("gto", false, 12, &a, &ea, &oka) == 0);
        REQUIRE(reduce_run("gto", true, 12, &b, &eb, &okb) == 0);
        CHECK_EQ_INT(oka, 1);
        CHECK_EQ_INT(okb, 1);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        if (memcmp(&a, &b, sizeof a) != 0)
            metrics_diff(extras[i], &a, &b);
        CHECK(memcmp(&reduce_l1d[0], &reduce_l1d[1], sizeof reduce_l1d[0]) == 0);
        if (i == 3)   /* the L1D refuses for want of MSHRs */
            CHECK(a.l1d_res_fail_cycles > 0 && reduce_l1d[0].res_fail_mshr > 0);
        if (i == 4)   /* the unit fails for want of room only */
            CHECK(a.l1d_res_fail_cycles > 0 && reduce_l1d[0].res_fail == 0);
    }
    reduce_take_every = 0;
    reduce_extra = "gpgpu_l1_latency=2";
}

/* Uncoalesced loads (a line per lane) from 8 warps per CTA, with the LD/ST unit short of room or of
   MSHRs most of the time: ticking only when due (retries left out while they would repeat, and
   counted) gives what ticking and probing every cycle gives, in the SM's counters, the L1D's and
   the warps' records. */
static int retry_run(const char *const *over, unsigned take_every, bool skip, struct sm_metrics *m,
                     struct cache_stats *l1d, struct warp_record *rec, sim_cycle *end)
{
    struct rig r;
    if (rig_open(&r, k_coalesce, 256, 6, over, NULL) != 0)
        return -1;
    r.sm->no_freeze = !skip;
    r.take_every = take_every;
    unsigned stride = 128;
    memcpy(r.params, &r.buf, 8);
    memcpy(r.params + 8, &stride, 4);
    int rc = rig_run(&r, skip, 1000000);
    *m = *sm_get_metrics(r.sm);
    *l1d = *cache_stats(r.sm->l1d);
    memcpy(rec, r.rec, sizeof r.rec);
    *end = r.now;
    rig_close(&r);
    return rc;
}

TEST(ldst_retries_left_out_are_counted)
{
    static struct warp_record rec[2][256];
    const char *const queue[] = {"warpsim_ldst_queue=3", NULL};
    const char *const mshr[] = {"gpgpu_cache:dl1=32:128:4,L:L:m:N:H,A:2:8,8", NULL};
    const char *const *over[2] = {queue, mshr};
    for (unsigned i = 0; i < 2; i++) {
        struct sm_metrics m[2];
        struct cache_stats c[2];
        sim_cycle end[2];
        for (unsigned skip = 0; skip < 2; skip++)
            REQUIRE(retry_run(over[i], i == 0 ? 4 : 0, skip, &m[skip], &c[skip], rec[skip], &end[skip]) == 0);
        CHECK_EQ_U64(end[0], end[1]);
        CHECK(memcmp(&m[0], &m[1], sizeof m[0]) == 0);
        if (memcmp(&m[0], &m[1], sizeof m[0]) != 0)
            metrics_diff(i == 0 ? "queue" : "mshr", &m[0], &m[1]);
        CHECK(memcmp(&c[0], &c[1], sizeof c[0]) == 0);
        CHECK(memcmp(rec[0], rec[1], sizeof rec[0]) == 0);
        CHECK_EQ_U64(m[0].warps_done, 48);
        CHECK(m[0].l1d_res_fail_cycles > m[0].cycles / 4);   /* the unit fails most of the time */
        if (i == 0)
            CHECK_EQ_U64(c[0].res_fail, 0);   /* for want of room only */
        else
            CHECK(c[0].res_fail_mshr > 0);
    }
}

TEST(dual_issue_needs_different_units)
{
    const char *const over[] = {"gpgpu_max_insn_issue_per_warp=2", NULL};
    struct rig r;
    REQUIRE(rig_open(&r, k_dual, 32, 1, over, NULL) == 0);
    REQUIRE(rig_run(&r, false, 10000) == 0);
    CHECK_EQ_U64(rig_issue(&r, 0, 1), rig_issue(&r, 0, 0));   /* SP + SFU together */
    CHECK(rig_issue(&r, 0, 3) > rig_issue(&r, 0, 2));          /* SP + SP not */
    CHECK_EQ_U64(r.sm->m.issued_warp_insns, 5);
    CHECK_EQ_U64(r.rec[0].stall[STALL_NONE] < 5, 1);          /* one probe issued two */
    rig_close(&r);
    /* single issue: never two in a cycle */
    REQUIRE(rig_open(&r, k_dual, 32, 1, no_over, NULL) == 0);
    REQUIRE(rig_run(&r, false, 10000) == 0);
    CHECK(rig_issue(&r, 0, 1) > rig_issue(&r, 0, 0));
    rig_close(&r);
}

static int const_run(unsigned stride, uint64_t *acc, uint64_t *reads)
{
    struct rig r;
    if (rig_open(&r, k_const, 32, 1, no_over, NULL) != 0)
        return -1;
    memcpy(r.params, &stride, 4);
    int rc = rig_run(&r, false, 10000);
    *acc = cache_stats(r.sm->l1c)->accesses;
    *reads = r.src_reads[MRS_L1C];
    rig_close(&r);
    return rc;
}

TEST(constant_cache_one_access_per_distinct_address)
{
    uint64_t acc, reads;
    REQUIRE(const_run(0, &acc, &reads) == 0);
    CHECK_EQ_U64(acc, 1);
    CHECK_EQ_U64(reads, 1);
    REQUIRE(const_run(4, &acc, &reads) == 0);
    CHECK_EQ_U64(acc, 32);
    CHECK_EQ_U64(reads, 2);        /* 128 bytes of 64-byte constant-cache lines */
}

TEST(atomics_one_request_per_block_and_wait_for_the_reply)
{
    unsigned strides[2] = {0, 128};
    for (unsigned i = 0; i < 2; i++) {
        struct rig r;
        REQUIRE(rig_open(&r, k_atom, 32, 1, no_over, NULL) == 0);
        memcpy(r.params, &r.buf, 8);
        memcpy(r.params + 8, &strides[i], 4);
        REQUIRE(rig_run(&r, false, 10000) == 0);
        CHECK_EQ_U64(r.atomics, i ? 32 : 1);
        CHECK_EQ_U64(r.reads, 0);
        if (i == 0)
            CHECK_EQ_U64(rig_issue(&r, 0, 6) - rig_issue(&r, 0, 5), r.delay + 1);
        const uint32_t *v = (const uint32_t *)(const void *)ptx_mem_ptr(&r.mem, r.buf, 4);
        CHECK_EQ_U64(v[0], i ? 1 : 32);
        rig_close(&r);
    }
}

TEST(local_memory_interleaved_per_lane)
{
    struct rig r;
    REQUIRE(rig_open(&r, k_local, 32, 1, no_over, NULL) == 0);
    REQUIRE(rig_run(&r, false, 10000) == 0);
    const struct sm_metrics *m = sm_get_metrics(r.sm);
    CHECK_EQ_U64(m->coalesced_requests, 2);   /* 32 lanes x one word: one line each */
    CHECK_EQ_U64(r.writes, 1);                /* write miss, no write-allocate: sent below */
    CHECK_EQ_U64(r.reads, 1);
    rig_close(&r);
}

TEST(policy_orders)
{
    const struct warp_sched_ops *gto = warp_sched_find("gto"), *lrr = warp_sched_find("lrr");
    REQUIRE(gto && lrr);
    uint64_t st[256];
    struct sm_view smv = {.sm_id = 0, .sched_id = 0, .n_sched = 1, .max_warps = 4};
    struct warp_view v[4];
    memset(v, 0, sizeof v);
    uint64_t ages[4] = {5, 1, 3, 0};
    for (unsigned i = 0; i < 4; i++) {
        v[i].slot = (uint16_t)i;
        v[i].age = ages[i];
        v[i].valid = i < 3;
    }
    int o[4];
    REQUIRE(gto->state_size <= sizeof st && lrr->state_size <= sizeof st);
    REQUIRE(gto->init(st, &smv) == 0);
    REQUIRE(gto->order(st, v, 4, o, 0) == 3);      /* oldest first, invalid left out */
    CHECK_EQ_INT(o[0], 1);
    CHECK_EQ_INT(o[1], 2);
    CHECK_EQ_INT(o[2], 0);
    gto->on_issue(st, &v[0], NULL, 0);              /* greedy: the last issued first */
    REQUIRE(gto->order(st, v, 4, o, 1) == 3);
    CHECK_EQ_INT(o[0], 0);
    CHECK_EQ_INT(o[1], 1);
    CHECK_EQ_INT(o[2], 2);
    v[1].valid = 0;                                 /* a warp leaves, another arrives */
    v[3].valid = 1;
    REQUIRE(gto->order(st, v, 4, o, 2) == 3);
    CHECK_EQ_INT(o[0], 0);
    CHECK_EQ_INT(o[1], 3);
    CHECK_EQ_INT(o[2], 2);
    REQUIRE(lrr->init(st, &smv) == 0);
    REQUIRE(lrr->order(st, v, 4, o, 0) == 4);
    CHECK_EQ_INT(o[0], 0);
    lrr->on_issue(st, &v[2], NULL, 0);              /* start after the last issued */
    REQUIRE(lrr->order(st, v, 4, o, 1) == 4);
    CHECK_EQ_INT(o[0], 3);
    CHECK_EQ_INT(o[1], 0);
    CHECK_EQ_INT(o[3], 2);
    CHECK_EQ_STR(stall_reason_name(STALL_DATA_CACHE_MISS), "data_cache_miss");
}

TEST(residency_limits)
{
    struct rig r;
    REQUIRE(rig_open(&r, k_chain, 1024, 4, no_over, NULL) == 0);
    CHECK_EQ_INT(sm_max_ctas(r.sm), 1);            /* 1536 threads per SM */
    rig_close(&r);
    REQUIRE(rig_open(&r, k_chain, 256, 4, no_over, NULL) == 0);
    CHECK_EQ_INT(sm_max_ctas(r.sm), 6);            /* threads: 1536 / 256 */
    r.m->funcs[r.ki.func].ptxas_regs = 21;         /* 24 per thread x 256 = 6144 -> 5 */
    char msg[128];
    REQUIRE(sm_kernel_begin(r.sm, &r.g, 1, "lrr", msg, sizeof msg) == 0);
    CHECK_EQ_INT(sm_max_ctas(r.sm), 5);
    r.m->funcs[r.ki.func].ptxas_regs = 0;
    r.g.dyn_smem = 20000;                          /* 20000 B of 48 KiB -> 2 */
    REQUIRE(ptx_grid_init(&r.g) == 0);
    REQUIRE(sm_kernel_begin(r.sm, &r.g, 2, "lrr", msg, sizeof msg) == 0);
    CHECK_EQ_INT(sm_max_ctas(r.sm), 2);
    CHECK(sm_kernel_begin(r.sm, &r.g, 3, "nope", msg, sizeof msg) != 0);
    CHECK(strstr(msg, "gto") != NULL);
    rig_close(&r);
    REQUIRE(rig_open(&r, k_chain, 32, 20, no_over, NULL) == 0);
    CHECK_EQ_INT(sm_max_ctas(r.sm), 8);            /* the CTA slot limit */
    REQUIRE(rig_run(&r, true, 100000) == 0);
    CHECK_EQ_U64(sm_get_metrics(r.sm)->ctas_done, 20);
    rig_close(&r);
}

TEST_MAIN()
