/*
 * test_exec_step.c - the executor's execute-at-issue interface as a timing
 * model would drive it: warps of a CTA stepped one instruction at a time
 * (ptx_warp_step) in round-robin order, each step described by a warp_inst
 * (class, masks, registers, per-lane addresses, branch outcome), barriers
 * blocking and releasing warps.
 */
#include <string.h>

#include "test.h"
#include "fe/ptx/ptx_exec.h"

static const char step_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in];\n"          /* pc 0 */
    "  ld.param.u64 %rd2, [out];\n"         /* 1 */
    "  mov.u32 %r1, %tid.x;\n"              /* 2 */
    "  mul.wide.u32 %rd3, %r1, 4;\n"        /* 3 */
    "  add.s64 %rd4, %rd1, %rd3;\n"         /* 4 */
    "  ld.global.u32 %r2, [%rd4];\n"        /* 5 */
    "  setp.lt.u32 %p1, %r1, 10;\n"         /* 6 */
    "  @%p1 bra SMALL;\n"                   /* 7 */
    "  add.u32 %r2, %r2, 100;\n"            /* 8 */
    "  bra.uni JOIN;\n"                     /* 9 */
    "SMALL:\n"
    "  add.u32 %r2, %r2, 1;\n"              /* 10 */
    "JOIN:\n"
    "  bar.sync 0;\n"                       /* 11 */
    "  add.s64 %rd5, %rd2, %rd3;\n"         /* 12 */
    "  st.global.u32 [%rd5], %r2;\n"        /* 13 */
    "  ret;\n"                              /* 14 */
    "}\n";

struct rig {
    struct ptx_module *m;
    struct ptx_kinfo ki;
    struct ptx_mem mem;
    struct ptx_grid g;
    uint8_t params[16];
    uint64_t in, out;
};

static int rig_open_ptx(struct rig *r, const char *ptx, unsigned threads)
{
    memset(r, 0, sizeof *r);
    struct ptx_error e;
    memset(&e, 0, sizeof e);
    r->m = ptx_parse(ptx, strlen(ptx), "step.ptx", &e);
    if (!r->m || ptx_cfg_analyze(r->m, &e) || ptx_kinfo_build(r->m, ptx_find_func(r->m, "k"), &r->ki, &e)) {
        fprintf(stderr, "  %s:%u:%u: %s\n", e.file, e.line, e.col, e.msg);
        return -1;
    }
    ptx_mem_init(&r->mem);
    if (ptx_mem_alloc(&r->mem, 64 * 4, NULL, &r->in) || ptx_mem_alloc(&r->mem, 64 * 4, NULL, &r->out))
        return -1;
    uint32_t *in = (uint32_t *)(void *)ptx_mem_ptr(&r->mem, r->in, 64 * 4);
    for (unsigned i = 0; i < 64; i++)
        in[i] = i * 2;
    memcpy(r->params, &r->in, 8);
    memcpy(r->params + 8, &r->out, 8);
    struct ptx_grid *g = &r->g;
    g->mod = r->m;
    g->ki = &r->ki;
    g->grid[0] = g->grid[1] = g->grid[2] = 1;
    g->block[0] = threads;
    g->block[1] = g->block[2] = 1;
    g->params = r->params;
    g->param_bytes = 16;
    g->mem = &r->mem;
    g->num_sms = 1;
    return ptx_grid_init(g);
}

static int rig_open(struct rig *r, unsigned threads) { return rig_open_ptx(r, step_ptx, threads); }

static void rig_close(struct rig *r)
{
    ptx_mem_destroy(&r->mem);
    ptx_kinfo_free(&r->ki);
    ptx_module_free(r->m);
}

TEST(step_round_robin_with_warp_inst)
{
    struct rig r;
    REQUIRE(rig_open(&r, 64) == 0);
    struct ptx_cta c;
    REQUIRE(ptx_cta_alloc(&c, &r.g) == 0);
    uint32_t id[3] = {0, 0, 0};
    ptx_cta_start(&c, id);
    REQUIRE(c.nwarps == 2);
    struct warp_inst wi;
    int saw_ld = 0, saw_div = 0, saw_uniform = 0, saw_bar_block = 0, saw_st = 0, steps = 0;
    while (c.warps_done < c.nwarps && steps < 1000) {
        for (unsigned i = 0; i < c.nwarps; i++) {
            struct ptx_warp *w = &c.warps[i];
            if (w->status != PTX_WARP_READY)
                continue;
            memset(&wi, 0xcc, sizeof wi);
            int st = ptx_warp_step(w, &wi);
            steps++;
            REQUIRE(st != PTX_WARP_FAULT);
            CHECK_EQ_INT(wi.func, 0);
            if (wi.pc == 5) {
                saw_ld++;
                CHECK_EQ_INT(wi.cls, WI_LD);
                CHECK_EQ_INT(wi.space, WS_SPACE_GLOBAL);
                CHECK_EQ_INT(wi.access_size, 4);
                CHECK_EQ_INT(wi.is_write, 0);
                CHECK_EQ_U64(wi.active_mask, 0xffffffffu);
                CHECK_EQ_U64(wi.addr[0], r.in + i * 128);
                CHECK_EQ_U64(wi.addr[31], r.in + i * 128 + 124);
                CHECK_EQ_INT(wi.ndst, 1);
                CHECK(wi.nsrc >= 1);
            }
            if (wi.pc == 7) {
                CHECK_EQ_INT(wi.cls, WI_BRANCH);
                CHECK_EQ_INT(wi.is_branch, 1);
                CHECK_EQ_U64(wi.issue_mask, 0xffffffffu);
                CHECK_EQ_U64(wi.target_pc, 10);
                if (i == 0) {   /* lanes 0..9 take it: divergence, taken path first */
                    saw_div++;
                    CHECK_EQ_U64(wi.taken_mask, 0x3ffu);
                    CHECK_EQ_U64(wi.active_mask, 0x3ffu);
                    CHECK_EQ_INT(wi.diverged, 1);
                    CHECK_EQ_U64(wi.reconv_pc, 11);
                    CHECK_EQ_U64(wi.next_pc, 10);
                } else {        /* nobody takes it in warp 1 */
                    saw_uniform++;
                    CHECK_EQ_U64(wi.taken_mask, 0);
                    CHECK_EQ_INT(wi.diverged, 0);
                    CHECK_EQ_U64(wi.next_pc, 8);
                }
            }
            if (i == 0 && wi.pc == 8)   /* the not-taken path runs after the taken one */
                CHECK_EQ_U64(wi.active_mask, 0xfffffc00u);
            if (wi.pc == 11) {
                CHECK_EQ_INT(wi.cls, WI_BARRIER);
                CHECK_EQ_U64(wi.active_mask, 0xffffffffu);   /* reconverged before the barrier */
                if (st == PTX_WARP_BARRIER)
                    saw_bar_block++;
            }
            if (wi.pc == 13) {
                saw_st++;
                CHECK_EQ_INT(wi.cls, WI_ST);
                CHECK_EQ_INT(wi.is_write, 1);
                CHECK_EQ_U64(wi.addr[3], r.out + i * 128 + 12);
            }
        }
    }
    CHECK_EQ_INT(c.warps_done, 2);
    CHECK_EQ_INT(saw_ld, 2);
    CHECK_EQ_INT(saw_div, 1);
    CHECK_EQ_INT(saw_uniform, 1);
    CHECK_EQ_INT(saw_bar_block, 1);   /* the first warp to arrive waits, the second releases both */
    CHECK_EQ_INT(saw_st, 2);
    const uint32_t *out = (const uint32_t *)(const void *)ptx_mem_ptr(&r.mem, r.out, 64 * 4);
    REQUIRE(out != NULL);
    for (unsigned t = 0; t < 64; t++)
        CHECK_EQ_U64(out[t], t * 2 + (t < 10 ? 1 : 100));
    /* warp 0 issued 14 + 1 (the extra path) instructions, warp 1 14 */
    CHECK_EQ_U64(r.g.cnt.warp_insns, 15 + 14);
    ptx_cta_free(&c);
    rig_close(&r);
}

/* k(in, out): out[tid] = inc(in[tid]) through a called function (a frame above the entry's) */
static const char call_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".func (.param .b32 r) inc(.param .b32 x)\n"
    "{\n"
    "  .reg .b32 %q<3>;\n"
    "  ld.param.b32 %q1, [x];\n"
    "  add.u32 %q2, %q1, 1;\n"
    "  st.param.b32 [r], %q2;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n"
    "  {\n"
    "  .param .b32 a;\n"
    "  st.param.b32 [a], %r3;\n"
    "  .param .b32 b;\n"
    "  call.uni (b), inc, (a);\n"
    "  ld.param.b32 %r2, [b];\n"
    "  }\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r2;\n"
    "  ret;\n"
    "}\n";

/* A peek from the instruction's prepared part (ptx_peek_prepare) is the peek worked out from the
   instruction itself, in the entry and in a called function's frame, whose register keys follow
   the caller's. */
TEST(peek_templates_match_the_instruction)
{
    struct rig r;
    REQUIRE(rig_open_ptx(&r, call_ptx, 32) == 0);
    for (uint32_t i = 0; i < r.m->nfuncs; i++)
        REQUIRE(r.m->funcs[i].ninsns == 0 || r.m->funcs[i].peek != NULL);
    struct ptx_cta c;
    REQUIRE(ptx_cta_alloc(&c, &r.g) == 0);
    uint32_t id[3] = {0, 0, 0};
    ptx_cta_start(&c, id);
    struct ptx_warp *w = &c.warps[0];
    unsigned steps = 0, in_callee = 0, bad = 0;
    uint32_t entry_regs = r.m->funcs[r.ki.func].nregs;
    while (w->status == PTX_WARP_READY && steps < 100) {
        struct ptx_peek a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        REQUIRE(ptx_warp_peek(w, &a) == PTX_WARP_READY);
        struct ptx_peek_tmpl *saved[8];
        REQUIRE(r.m->nfuncs <= 8);
        for (uint32_t i = 0; i < r.m->nfuncs; i++) {
            saved[i] = r.m->funcs[i].peek;
            r.m->funcs[i].peek = NULL;
        }
        REQUIRE(ptx_warp_peek(w, &b) == PTX_WARP_READY);
        for (uint32_t i = 0; i < r.m->nfuncs; i++)
            r.m->funcs[i].peek = saved[i];
        if (a.insn != b.insn || a.pc != b.pc || a.func != b.func || a.cls != b.cls || a.lat_class != b.lat_class ||
            a.space != b.space || a.ndst != b.ndst || a.nsrc != b.nsrc ||
            memcmp(a.dst, b.dst, sizeof a.dst[0] * a.ndst) != 0 || memcmp(a.src, b.src, sizeof a.src[0] * a.nsrc) != 0)
            bad++;
        if (a.func != r.ki.func && (a.ndst ? a.dst[0] : a.src[0]) >= entry_regs)
            in_callee++;   /* the callee's keys start above the entry's registers */
        struct warp_inst wi;
        REQUIRE(ptx_warp_step(w, &wi) != PTX_WARP_FAULT);
        steps++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(in_callee >= 3);
    CHECK_EQ_INT(w->status, PTX_WARP_EXITED);
    const uint32_t *out = (const uint32_t *)(const void *)ptx_mem_ptr(&r.mem, r.out, 32 * 4);
    REQUIRE(out != NULL);
    for (unsigned t = 0; t < 32; t++)
        CHECK_EQ_U64(out[t], t * 2 + 1);
    ptx_cta_free(&c);
    rig_close(&r);
}

TEST(functional_run_matches)
{
    struct rig r;
    REQUIRE(rig_open(&r, 50) == 0);
    REQUIRE(ptx_grid_run(&r.g) == 0);
    const uint32_t *out = (const uint32_t *)(const void *)ptx_mem_ptr(&r.mem, r.out, 64 * 4);
    for (unsigned t = 0; t < 50; t++)
        CHECK_EQ_U64(out[t], t * 2 + (t < 10 ? 1 : 100));
    CHECK_EQ_U64(out[50], 0);
    CHECK_EQ_U64(r.g.ctas_done, 1);
    /* 32 + 18 lanes: warp 0 (14 insns + 1 for divergence) then warp 1 (14) */
    CHECK_EQ_U64(r.g.cnt.warp_insns, 29);
    CHECK_EQ_U64(r.g.cnt.iclass_warp[PIC_BARRIER], 2);
    rig_close(&r);
}

TEST(kinfo_shared_and_stack)
{
    struct rig r;
    REQUIRE(rig_open(&r, 32) == 0);
    CHECK_EQ_INT(r.ki.max_depth, 1);
    CHECK_EQ_U64(r.ki.shared_static, 0);
    CHECK(r.ki.simt_cap >= 4);
    CHECK_EQ_U64(r.ki.reg_lanes, r.m->funcs[r.ki.func].nregs);
    rig_close(&r);
}

TEST(mem_windows_and_allocs)
{
    struct ptx_mem m;
    ptx_mem_init(&m);
    uint64_t a, b, c;
    REQUIRE(ptx_mem_alloc(&m, 400, NULL, &a) == 0);
    REQUIRE(ptx_mem_alloc(&m, 1, "var", &b) == 0);
    REQUIRE(ptx_mem_alloc(&m, 0, NULL, &c) == 0);
    CHECK_EQ_U64(a, PTX_GLOBAL_BASE);
    CHECK_EQ_U64(b % PTX_GLOBAL_ALIGN, 0);
    CHECK(b >= a + 400 + PTX_GLOBAL_GAP);
    CHECK(c > b);
    CHECK(ptx_mem_ptr(&m, a, 400) != NULL);
    CHECK(ptx_mem_ptr(&m, a + 396, 4) != NULL);
    CHECK(ptx_mem_ptr(&m, a + 397, 4) == NULL);
    CHECK(ptx_mem_ptr(&m, a + 400, 1) == NULL);
    CHECK(ptx_mem_ptr(&m, c, 1) == NULL);      /* zero-size allocation: never accessible */
    CHECK(ptx_mem_ptr(&m, 0, 1) == NULL);
    char buf[256];
    ptx_mem_describe(&m, a + 404, "", buf, sizeof buf);
    CHECK(strstr(buf, "4 bytes after the nearest allocation") != NULL);
    ptx_mem_describe(&m, b - 8, "", buf, sizeof buf);
    CHECK(strstr(buf, "('var')") != NULL);
    CHECK_EQ_INT(ptx_mem_free(&m, b), -1);     /* module variables cannot be freed */
    CHECK_EQ_INT(ptx_mem_free(&m, a + 4), -1);
    CHECK_EQ_INT(ptx_mem_free(&m, a), 0);
    CHECK(ptx_mem_ptr(&m, a, 4) == NULL);
    uint64_t off;
    CHECK_EQ_INT(ptx_mem_generic_space(PTX_WIN_SHARED + 16, &off), PS_SHARED);
    CHECK_EQ_U64(off, 16);
    CHECK_EQ_INT(ptx_mem_generic_space(PTX_WIN_LOCAL, &off), PS_LOCAL);
    CHECK_EQ_INT(ptx_mem_generic_space(PTX_WIN_CONST + 4, &off), PS_CONST);
    CHECK_EQ_INT(ptx_mem_generic_space(PTX_WIN_PARAM + 4, &off), PS_PARAM);
    CHECK_EQ_INT(ptx_mem_generic_space(a, &off), PS_GLOBAL);
    CHECK_EQ_U64(ptx_mem_half_to_float_bits(0x3c00), 0x3f800000u);   /* 1.0 */
    CHECK_EQ_U64(ptx_mem_half_to_float_bits(0x0001), 0x33800000u);   /* smallest subnormal 2^-24 */
    CHECK_EQ_U64(ptx_mem_half_to_float_bits(0xfc00), 0xff800000u);   /* -inf */
    ptx_mem_destroy(&m);
}

TEST_MAIN()
