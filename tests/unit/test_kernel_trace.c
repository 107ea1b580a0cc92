/*
 * test_kernel_trace.c - a GPU kernel's CPU instruction stream (cpu/kernel_trace.h):
 * records per SIMD batch, real per-lane addresses, register dependences,
 * branch outcomes, atomics per lane, work-group -> core mapping, batch order
 * between barriers, the traced run's outputs equal to the untraced run's, and
 * the trace files running on the CPU cores.
 *
 * kt_ptx is hand-written PTX:
 *   kt(a, out, cnt): gid = ctaid.x * ntid.x + tid.x
 *     f = a[gid * 16] (each lane its own 64-byte line); out[gid] = f + f;
 *     if (tid.x >= 4) atomicAdd(cnt, 1);
 *   ktbar(out): s[tid] = tid; __syncthreads(); out[tid] = s[tid ^ 1]   (shared memory, a barrier)
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "ws_fixture.h"
#include "cpu/kernel_trace.h"
#include "fe/ptx/ptx_mem.h"
#include "host/ws_internal.h"

static const char kt_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry kt(.param .u64 p_a, .param .u64 p_out, .param .u64 p_cnt)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<12>;\n"
    "  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [p_a];\n"          /* pc 0 */
    "  ld.param.u64 %rd2, [p_out];\n"        /* 1 */
    "  ld.param.u64 %rd3, [p_cnt];\n"        /* 2 */
    "  mov.u32 %r1, %tid.x;\n"               /* 3 */
    "  mov.u32 %r2, %ctaid.x;\n"             /* 4 */
    "  mov.u32 %r3, %ntid.x;\n"              /* 5 */
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"     /* 6 */
    "  mul.wide.u32 %rd4, %r4, 64;\n"        /* 7 */
    "  add.s64 %rd5, %rd1, %rd4;\n"          /* 8 */
    "  ld.global.f32 %f1, [%rd5];\n"         /* 9 */
    "  add.f32 %f2, %f1, %f1;\n"             /* 10 */
    "  mul.wide.u32 %rd6, %r4, 4;\n"         /* 11 */
    "  add.s64 %rd7, %rd2, %rd6;\n"          /* 12 */
    "  st.global.f32 [%rd7], %f2;\n"         /* 13 */
    "  setp.lt.u32 %p1, %r1, 4;\n"           /* 14 */
    "  @%p1 bra DONE;\n"                     /* 15 */
    "  atom.global.add.u32 %r5, [%rd3], 1;\n" /* 16 */
    "DONE:\n"
    "  ret;\n"                               /* 17 */
    "}\n"
    ".visible .entry ktbar(.param .u64 q_out)\n"
    "{\n"
    "  .shared .align 4 .b8 sbuf[256];\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [q_out];\n"        /* 0 */
    "  mov.u32 %r1, %tid.x;\n"               /* 1 */
    "  mov.u64 %rd2, sbuf;\n"                /* 2 */
    "  mul.wide.u32 %rd3, %r1, 4;\n"         /* 3 */
    "  add.s64 %rd4, %rd2, %rd3;\n"          /* 4 */
    "  st.shared.u32 [%rd4], %r1;\n"         /* 5 */
    "  bar.sync 0;\n"                        /* 6 */
    "  xor.b32 %r2, %r1, 1;\n"               /* 7 */
    "  mul.wide.u32 %rd5, %r2, 4;\n"         /* 8 */
    "  add.s64 %rd6, %rd2, %rd5;\n"          /* 9 */
    "  ld.shared.u32 %r3, [%rd6];\n"         /* 10 */
    "  add.s64 %rd7, %rd1, %rd3;\n"          /* 11 */
    "  st.global.u32 [%rd7], %r3;\n"         /* 12 */
    "  ret;\n"                               /* 13 */
    "}\n";

#define MAXREC 8192
struct cap {
    unsigned n;
    struct trace_rec r[MAXREC];
    unsigned core[MAXREC];
    enum kt_class cls[MAXREC];
};

static int cap_emit(void *user, unsigned core, const struct trace_rec *r, enum kt_class c)
{
    struct cap *k = user;
    if (k->n >= MAXREC)
        return -1;
    k->r[k->n] = *r;
    k->core[k->n] = core;
    k->cls[k->n] = c;
    k->n++;
    return 0;
}

/* the pc (instruction index in its function) of a record */
static unsigned pc_of(const struct trace_rec *r) { return (unsigned)(((r->ip - KT_IP_BASE) & 0xfffff) / 8); }

/* the records of instruction pc in capture order */
static unsigned find(const struct cap *k, unsigned pc, unsigned *idx, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < k->n; i++)
        if (pc_of(&k->r[i]) == pc && n < max)
            idx[n++] = i;
    return n;
}

static struct cap cap1, cap2;

/* run kt over `grid` blocks of 32 threads traced with simd and cores into *k; *dev_a etc out */
static int run_kt(struct cap *k, unsigned grid, unsigned simd, unsigned cores, int traced, float *out_host,
                  uint32_t *cnt_host, ws_devptr *a_out)
{
    struct fx f;
    if (fx_open(&f, kt_ptx, sizeof kt_ptx - 1, "kt.ptx") != 0)
        return -1;
    static float a[4 * 32 * 16];
    for (unsigned i = 0; i < 4 * 32 * 16; i++)
        a[i] = (float)i * 0.5f;
    ws_devptr da = fx_buf(&f, a, sizeof a), dout = fx_buf(&f, NULL, 4 * 32 * 4), dcnt = fx_buf(&f, NULL, 4);
    memset(k, 0, sizeof *k);
    struct kt_sink s = {cap_emit, k};
    struct kt_tracer t;
    char msg[256];
    if (kt_tracer_init(&t, simd, cores, &s, msg, sizeof msg) != 0) {
        wsDestroy(f.ctx);
        return -1;
    }
    if (traced)
        ws_set_grid_runner(f.ctx, kt_run_grid, &t);
    void *args[] = {&da, &dout, &dcnt};
    ws_status st = fx_launch(&f, "kt", ws_dim(grid, 1, 1), ws_dim(32, 1, 1), args);
    wsMemcpyDtoH(f.ctx, out_host, dout, 4 * 32 * grid);
    wsMemcpyDtoH(f.ctx, cnt_host, dcnt, 4);
    if (traced) {
        CHECK_EQ_U64(t.st.ctas, grid);
        CHECK_EQ_U64(t.st.launches, 1);
        uint64_t sum = 0;
        for (unsigned i = 0; i < cores; i++)
            sum += t.st.records[i];
        CHECK_EQ_U64(sum, k->n);
    }
    *a_out = da;
    kt_tracer_free(&t);
    wsDestroy(f.ctx);
    return st == WS_SUCCESS ? 0 : -1;
}

TEST(records_per_batch_addresses_and_dependences)
{
    float out[32], ref[32];
    uint32_t cnt = 0, cref = 0;
    ws_devptr da = 0, da2 = 0;
    REQUIRE(run_kt(&cap1, 1, 8, 1, 1, out, &cnt, &da) == 0);
    /* the traced run computes what the untraced run computes */
    REQUIRE(run_kt(&cap2, 1, 8, 1, 0, ref, &cref, &da2) == 0);
    CHECK_EQ_INT(cap2.n, 0);
    CHECK_EQ_INT(cnt, 28);
    CHECK_EQ_INT(cref, 28);
    CHECK(memcmp(out, ref, sizeof out) == 0);
    CHECK_NEAR(out[5], 2.0 * (5 * 16) * 0.5, 0);

    unsigned idx[64];
    /* the load: 8 lanes, each its own 64-byte line -> 2 records of 4 addresses per batch, 4 batches */
    unsigned n = find(&cap1, 9, idx, 64);
    CHECK_EQ_INT(n, 8);
    for (unsigned i = 0; i < n && i < 8; i++) {
        const struct trace_rec *r = &cap1.r[idx[i]];
        CHECK_EQ_INT(cap1.cls[idx[i]], KT_VMEM);
        for (unsigned m = 0; m < 4; m++) {
            unsigned lane = (i / 2) * 8 + (i % 2) * 4 + m;
            CHECK_EQ_U64(r->src_mem[m], da + (uint64_t)lane * 64);   /* the lane's real address */
        }
        CHECK_EQ_U64(r->dst_mem[0], 0);
        CHECK_EQ_INT(r->dst_regs[0] != 0, 1);
    }
    /* the store: 8 lanes x 4 contiguous bytes -> one line, one record per batch */
    unsigned ns = find(&cap1, 13, idx + 16, 16);
    CHECK_EQ_INT(ns, 4);
    /* the add reads what the load wrote; the store reads what the add wrote */
    unsigned ia[8];
    REQUIRE(find(&cap1, 10, ia, 8) == 4);
    unsigned il[8];
    REQUIRE(find(&cap1, 9, il, 8) == 8);
    const struct trace_rec *ld = &cap1.r[il[0]], *add = &cap1.r[ia[0]], *stv = &cap1.r[idx[16]];
    CHECK(add->src_regs[0] == ld->dst_regs[0]);
    CHECK(add->dst_regs[0] != 0 && (stv->src_regs[0] == add->dst_regs[0] || stv->src_regs[1] == add->dst_regs[0]));
    CHECK_EQ_U64(stv->src_mem[0], 0);
    CHECK(stv->dst_mem[0] != 0 && stv->dst_mem[1] == 0);
    /* the param loads: one address per batch, in the param window */
    unsigned ip[8];
    CHECK_EQ_INT(find(&cap1, 0, ip, 8), 4);
    CHECK(cap1.r[ip[0]].src_mem[0] >= PTX_WIN_PARAM && cap1.r[ip[0]].src_mem[0] < PTX_WIN_PARAM + PTX_WIN_SIZE);

    /* batch order: batch 0 runs the whole kernel before batch 1 starts */
    unsigned first_b1 = idx[16 + 1];   /* batch 1's store */
    CHECK(idx[16] < il[2] && il[2] < first_b1);   /* batch 0's store before batch 1's loads */
    for (unsigned s = 0; s + 1 < ns; s++) {
        CHECK_EQ_U64(cap1.r[idx[16 + s + 1]].dst_mem[0], cap1.r[idx[16 + s]].dst_mem[0] + 32);
    }

    /* the branch: batch 0 has lanes 0-3 taking it, the others do not */
    unsigned ib[8];
    REQUIRE(find(&cap1, 15, ib, 8) == 4);
    CHECK_EQ_INT(cap1.r[ib[0]].is_branch, 1);
    CHECK_EQ_INT(cap1.r[ib[0]].branch_taken, 1);
    CHECK_EQ_INT(cap1.r[ib[1]].branch_taken, 0);
    CHECK_EQ_INT(cap1.r[ib[3]].branch_taken, 0);
    CHECK_EQ_INT(cap1.cls[ib[0]], KT_BRANCH);

    /* the atomic: one load+store record per active lane (4 in batch 0, 8 in each other) */
    unsigned iat[64];
    unsigned nat = find(&cap1, 16, iat, 64);
    CHECK_EQ_INT(nat, 28);
    for (unsigned i = 0; i < nat; i++) {
        CHECK_EQ_INT(cap1.cls[iat[i]], KT_ATOMIC);
        CHECK(cap1.r[iat[i]].src_mem[0] != 0 && cap1.r[iat[i]].src_mem[0] == cap1.r[iat[i]].dst_mem[0]);
    }
    /* ret: the loop back edge, not taken after the last batch */
    unsigned ir[8];
    REQUIRE(find(&cap1, 17, ir, 8) == 4);
    CHECK_EQ_INT(cap1.r[ir[0]].branch_taken, 1);
    CHECK_EQ_INT(cap1.r[ir[3]].branch_taken, 0);
    /* nothing else: 18 instructions; per batch 1 record each except the load (2); atomics 28 */
    CHECK_EQ_INT(cap1.n, 4 * (18 - 1 + 2 - 1) + 28);
}

TEST(simd_width_changes_batches)
{
    float out[32];
    uint32_t cnt;
    ws_devptr da;
    REQUIRE(run_kt(&cap1, 1, 32, 1, 1, out, &cnt, &da) == 0);
    unsigned idx[64];
    CHECK_EQ_INT(find(&cap1, 10, idx, 64), 1);     /* one batch: one ALU record */
    CHECK_EQ_INT(find(&cap1, 9, idx, 64), 8);      /* 32 distinct lines, 4 per record */
    CHECK_EQ_INT(find(&cap1, 15, idx, 64), 1);
    CHECK_EQ_INT(cap1.r[idx[0]].branch_taken, 1);
    REQUIRE(run_kt(&cap1, 1, 1, 1, 1, out, &cnt, &da) == 0);
    CHECK_EQ_INT(find(&cap1, 10, idx, 64), 32);
    CHECK_EQ_INT(find(&cap1, 16, idx, 64), 28);
}

TEST(work_groups_round_robin_over_cores)
{
    float out[96];
    uint32_t cnt;
    ws_devptr da;
    REQUIRE(run_kt(&cap1, 3, 8, 2, 1, out, &cnt, &da) == 0);
    CHECK_EQ_INT(cnt, 3 * 28);
    /* the loads of CTA c (gid 32c..32c+31) are on core c % 2 */
    unsigned idx[64];
    unsigned n = find(&cap1, 9, idx, 64);
    CHECK_EQ_INT(n, 24);
    for (unsigned i = 0; i < n; i++) {
        uint64_t gid = (cap1.r[idx[i]].src_mem[0] - da) / 64;
        CHECK_EQ_INT(cap1.core[idx[i]], (gid / 32) % 2);
    }
    unsigned c0 = 0, c1 = 0;
    for (unsigned i = 0; i < cap1.n; i++)
        *(cap1.core[i] ? &c1 : &c0) += 1;
    CHECK_EQ_INT(c0, 2 * c1);
}

TEST(barrier_regions_run_batch_after_batch)
{
    struct fx f;
    REQUIRE(fx_open(&f, kt_ptx, sizeof kt_ptx - 1, "kt.ptx") == 0);
    ws_devptr dout = fx_buf(&f, NULL, 64 * 4);
    memset(&cap1, 0, sizeof cap1);
    struct kt_sink s = {cap_emit, &cap1};
    struct kt_tracer t;
    char msg[256];
    REQUIRE(kt_tracer_init(&t, 8, 1, &s, msg, sizeof msg) == 0);
    ws_set_grid_runner(f.ctx, kt_run_grid, &t);
    void *args[] = {&dout};
    CHECK(fx_launch(&f, "ktbar", ws_dim(1, 1, 1), ws_dim(64, 1, 1), args) == WS_SUCCESS);
    uint32_t out[64];
    wsMemcpyDtoH(f.ctx, out, dout, sizeof out);
    for (unsigned i = 0; i < 64; i++)
        CHECK_EQ_INT(out[i], i ^ 1u);
    /* region 1 (before the barrier) of every batch of both warps comes before region 2 of any */
    unsigned last_r1 = 0, first_r2 = cap1.n;
    for (unsigned i = 0; i < cap1.n; i++) {
        unsigned pc = pc_of(&cap1.r[i]);
        if (pc <= 6 && i > last_r1)
            last_r1 = i;
        if (pc > 6 && i < first_r2)
            first_r2 = i;
    }
    CHECK(last_r1 < first_r2);
    /* 8 batches x 7 instructions in each region */
    CHECK_EQ_INT(first_r2, 8 * 7);
    CHECK_EQ_INT(cap1.n, 8 * 14);
    /* shared stores: batch b writes s[8b..8b+7]: one line, at the core's shared buffer + 32b */
    unsigned idx[16];
    REQUIRE(find(&cap1, 5, idx, 16) == 8);
    for (unsigned b = 0; b < 8; b++)
        CHECK_EQ_U64(cap1.r[idx[b]].dst_mem[0], PTX_WIN_SHARED + 32u * b);
    /* the barrier record: the runtime's loop back edge, taken but after the last batch */
    REQUIRE(find(&cap1, 6, idx, 16) == 8);
    CHECK_EQ_INT(cap1.r[idx[0]].branch_taken, 1);
    CHECK_EQ_INT(cap1.r[idx[7]].branch_taken, 0);
    CHECK_EQ_INT(cap1.cls[idx[0]], KT_SCALAR);
    kt_tracer_free(&t);
    wsDestroy(f.ctx);
}

TEST(trace_files_run_on_cores)
{
    char dir[] = "/tmp/kt_unit_XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    struct fx f;
    REQUIRE(fx_open(&f, kt_ptx, sizeof kt_ptx - 1, "kt.ptx") == 0);
    static float a[4 * 32 * 16];
    ws_devptr da = fx_buf(&f, a, sizeof a), dout = fx_buf(&f, NULL, 4 * 32 * 4), dcnt = fx_buf(&f, NULL, 4);
    char err[512];
    struct kt_files *files = kt_files_open(dir, 2, 1, err, sizeof err);
    REQUIRE(files != NULL);
    struct kt_sink s = kt_files_sink(files);
    struct kt_tracer t;
    REQUIRE(kt_tracer_init(&t, 8, 2, &s, err, sizeof err) == 0);
    ws_set_grid_runner(f.ctx, kt_run_grid, &t);
    void *args[] = {&da, &dout, &dcnt};
    CHECK(fx_launch(&f, "kt", ws_dim(4, 1, 1), ws_dim(32, 1, 1), args) == WS_SUCCESS);
    char path[2][1100];
    snprintf(path[0], sizeof path[0], "%s", kt_files_path(files, 0));
    snprintf(path[1], sizeof path[1], "%s", kt_files_path(files, 1));
    CHECK(kt_files_close(files, err, sizeof err) == 0);
    wsDestroy(f.ctx);
    /* the files hold what was emitted */
    struct trace_reader *rd = trace_open(path[1], err, sizeof err);
    REQUIRE(rd != NULL);
    struct trace_rec r;
    uint64_t nr = 0;
    while (trace_next(rd, &r) == 1)
        nr++;
    trace_close(rd);
    CHECK_EQ_U64(nr, t.st.records[1]);
    CHECK(nr > 0);
    /* and run on two cores sharing the memory channel */
    const char *paths[2] = {path[0], path[1]};
    struct kt_core_result res[2];
    uint64_t cycles = 0;
    REQUIRE(kt_run_cores(paths, 2, NULL, res, &cycles, err, sizeof err) == 0);
    CHECK_EQ_U64(res[0].insns, t.st.records[0]);
    CHECK_EQ_U64(res[1].insns, t.st.records[1]);
    CHECK(res[0].cycles > 0 && res[1].cycles > 0);
    CHECK_EQ_U64(cycles, res[0].cycles > res[1].cycles ? res[0].cycles : res[1].cycles);
    /* the loads miss: at least the memory latency */
    CHECK(cycles > 200);
    /* one core alone, then over a slower memory: slower */
    const char *one[1] = {path[0]};
    struct kt_core_result r1, r2;
    uint64_t c1 = 0, c2 = 0;
    REQUIRE(kt_run_cores(one, 1, NULL, &r1, &c1, err, sizeof err) == 0);
    struct cpu_mem_fixed_params mp;
    cpu_mem_fixed_params_default(&mp);
    mp.latency *= 2;
    REQUIRE(kt_run_cores(one, 1, &mp, &r2, &c2, err, sizeof err) == 0);
    CHECK(c2 > c1 + 200);
    CHECK_EQ_U64(r2.insns, r1.insns);
    CHECK_EQ_U64(r1.insns, res[0].insns);
    /* a missing file is an error */
    const char *bad[1] = {"/nonexistent/kt.trace"};
    CHECK(kt_run_cores(bad, 1, NULL, &r1, &c1, err, sizeof err) != 0);
    unlink(path[0]);
    unlink(path[1]);
    rmdir(dir);
    kt_tracer_free(&t);
}

TEST(bad_parameters)
{
    struct kt_sink s = {cap_emit, &cap1};
    struct kt_tracer t;
    char msg[256];
    CHECK(kt_tracer_init(&t, 0, 1, &s, msg, sizeof msg) != 0);
    CHECK(kt_tracer_init(&t, 33, 1, &s, msg, sizeof msg) != 0);
    CHECK(kt_tracer_init(&t, 8, 0, &s, msg, sizeof msg) != 0);
    CHECK(kt_tracer_init(&t, 8, KT_MAX_CORES + 1, &s, msg, sizeof msg) != 0);
    CHECK(kt_files_open("/nonexistent/dir", 2, 1, msg, sizeof msg) == NULL);
}

TEST_MAIN()
