/*
 * test_ptx_liveness.c - the registers a kernel may read before writing them
 * (ptx_entry_live_regs), and the CTA slot clearing only those when it is
 * reused (ptx_cta_reuse): what an earlier kernel left in the others is never
 * seen, and a register that is read first reads zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "fe/ptx/ptx_exec.h"

static struct ptx_module *parse_kernel(const char *body)
{
    static char src[4096];
    snprintf(src, sizeof src,
             ".version 7.0\n.target sm_75\n.address_size 64\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             "  .reg .pred %%p<4>;\n  .reg .b32 %%r<10>;\n  .reg .b64 %%rd<6>;\n%s}\n",
             body);
    struct ptx_error e;
    memset(&e, 0, sizeof e);
    struct ptx_module *m = ptx_parse(src, strlen(src), "live.ptx", &e);
    if (!m || ptx_cfg_analyze(m, &e)) {
        fprintf(stderr, "  %s:%u:%u: %s\n", e.file, e.line, e.col, e.msg);
        ptx_module_free(m);
        return NULL;
    }
    return m;
}

/* the live registers' names, space-separated ("" when none) */
static const char *live_names(const char *body)
{
    static char out[512];
    out[0] = '\0';
    struct ptx_module *m = parse_kernel(body);
    if (!m)
        return "<parse error>";
    const struct ptx_func *f = &m->funcs[ptx_find_func(m, "k")];
    uint32_t *live = NULL, n = 0;
    if (ptx_entry_live_regs(f, &live, &n) != 0) {
        ptx_module_free(m);
        return "<out of memory>";
    }
    for (uint32_t i = 0; i < n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, sizeof out - len, "%s%s", len ? " " : "", f->regs[live[i]].name);
    }
    free(live);
    ptx_module_free(m);
    return out;
}

TEST(liveness_straight_line_defines_before_use)
{
    CHECK_EQ_STR(live_names("  mov.u32 %r1, %tid.x;\n"
                            "  add.u32 %r2, %r1, 1;\n"
                            "  ld.param.u64 %rd1, [out];\n"
                            "  st.global.u32 [%rd1], %r2;\n"
                            "  ret;\n"),
                 "");
}

TEST(liveness_read_before_write_is_live)
{
    CHECK_EQ_STR(live_names("  add.u32 %r2, %r3, 1;\n"
                            "  mov.u32 %r3, 5;\n"
                            "  ld.param.u64 %rd1, [out];\n"
                            "  st.global.u32 [%rd1], %r2;\n"
                            "  ret;\n"),
                 "%r3");
}

TEST(liveness_guarded_write_does_not_define)
{
    CHECK_EQ_STR(live_names("  mov.u32 %r1, %tid.x;\n"
                            "  setp.eq.u32 %p1, %r1, 0;\n"
                            "  @%p1 mov.u32 %r2, 7;\n"
                            "  ld.param.u64 %rd1, [out];\n"
                            "  st.global.u32 [%rd1], %r2;\n"
                            "  ret;\n"),
                 "%r2");
}

TEST(liveness_one_arm_defines_both_arms_define)
{
    /* %r2 only on the taken path: live; %r3 on both: not */
    CHECK_EQ_STR(live_names("  mov.u32 %r1, %tid.x;\n"
                            "  setp.eq.u32 %p1, %r1, 0;\n"
                            "  @%p1 bra A;\n"
                            "  mov.u32 %r3, 1;\n"
                            "  bra.uni J;\n"
                            "A:\n"
                            "  mov.u32 %r2, 2;\n"
                            "  mov.u32 %r3, 3;\n"
                            "J:\n"
                            "  add.u32 %r4, %r2, %r3;\n"
                            "  ld.param.u64 %rd1, [out];\n"
                            "  st.global.u32 [%rd1], %r4;\n"
                            "  ret;\n"),
                 "%r2");
}

TEST(liveness_loop_carried_without_initial_value)
{
    /* %r5 is accumulated around the loop and never set before it; %r6 is set before it */
    CHECK_EQ_STR(live_names("  mov.u32 %r1, 0;\n"
                            "  mov.u32 %r6, 0;\n"
                            "L:\n"
                            "  add.u32 %r5, %r5, %r1;\n"
                            "  add.u32 %r6, %r6, %r1;\n"
                            "  add.u32 %r1, %r1, 1;\n"
                            "  setp.lt.u32 %p1, %r1, 4;\n"
                            "  @%p1 bra L;\n"
                            "  ld.param.u64 %rd1, [out];\n"
                            "  st.global.u32 [%rd1], %r5;\n"
                            "  st.global.u32 [%rd1+4], %r6;\n"
                            "  ret;\n"),
                 "%r5");
}

TEST(liveness_exit_ends_the_path)
{
    /* the read of %r2 after an unguarded exit is unreachable; after a guarded one it is not */
    CHECK_EQ_STR(live_names("  exit;\n"
                            "  add.u32 %r1, %r2, 1;\n"
                            "  ret;\n"),
                 "");
    CHECK_EQ_STR(live_names("  mov.u32 %r3, %tid.x;\n"
                            "  setp.eq.u32 %p1, %r3, 0;\n"
                            "  @%p1 exit;\n"
                            "  add.u32 %r1, %r2, 1;\n"
                            "  ret;\n"),
                 "%r2");
}

TEST(liveness_shfl_source_and_carry_are_always_live)
{
    /* the shfl value %r1 is defined first, but another lane's copy may not be */
    CHECK_EQ_STR(live_names("  mov.u32 %r1, %tid.x;\n"
                            "  mov.u32 %r2, 1;\n"
                            "  shfl.sync.down.b32 %r3|%p1, %r1, %r2, 31, -1;\n"
                            "  ld.param.u64 %rd1, [out];\n"
                            "  st.global.u32 [%rd1], %r3;\n"
                            "  ret;\n"),
                 "%r1");
    const char *cc = live_names("  mov.u32 %r1, 1;\n"
                                "  add.cc.u32 %r2, %r1, %r1;\n"
                                "  addc.u32 %r3, %r1, %r1;\n"
                                "  ret;\n");
    CHECK(strstr(cc, "%r") == NULL);   /* only the hidden carry flag */
    CHECK(cc[0] != '\0');
}

TEST(liveness_atom_defines_red_reads)
{
    CHECK_EQ_STR(live_names("  ld.param.u64 %rd1, [out];\n"
                            "  atom.global.add.u32 %r1, [%rd1], 1;\n"
                            "  red.global.add.u32 [%rd1], %r2;\n"
                            "  st.global.u32 [%rd1], %r1;\n"
                            "  ret;\n"),
                 "%r2");
}

/* A slot used by a kernel that leaves 0xAB.. in every register is reused by a kernel that reads
   %r5 before writing it: %r5 reads zero, and the result does not depend on the leftovers. */
TEST(cta_reuse_clears_exactly_the_live_registers)
{
    struct ptx_module *m = parse_kernel("  ld.param.u64 %rd1, [out];\n"
                                        "  mov.u32 %r1, %tid.x;\n"
                                        "  mul.wide.u32 %rd2, %r1, 4;\n"
                                        "  add.s64 %rd3, %rd1, %rd2;\n"
                                        "  add.u32 %r2, %r5, %r1;\n"
                                        "  st.global.u32 [%rd3], %r2;\n"
                                        "  ret;\n");
    REQUIRE(m != NULL);
    struct ptx_error e;
    memset(&e, 0, sizeof e);
    struct ptx_kinfo ki;
    REQUIRE(ptx_kinfo_build(m, ptx_find_func(m, "k"), &ki, &e) == 0);
    REQUIRE(ki.nlive_regs == 1);
    const struct ptx_func *f = &m->funcs[ki.func];
    CHECK_EQ_STR(f->regs[ki.live_regs[0]].name, "%r5");

    struct ptx_mem mem;
    ptx_mem_init(&mem);
    uint64_t out = 0;
    REQUIRE(ptx_mem_alloc(&mem, 64 * 4, NULL, &out) == 0);
    uint8_t params[8];
    memcpy(params, &out, 8);
    struct ptx_grid g;
    memset(&g, 0, sizeof g);
    g.mod = m;
    g.ki = &ki;
    g.grid[0] = g.grid[1] = g.grid[2] = 1;
    g.block[0] = 64;
    g.block[1] = g.block[2] = 1;
    g.params = params;
    g.param_bytes = 8;
    g.mem = &mem;
    g.num_sms = 1;
    REQUIRE(ptx_grid_init(&g) == 0);

    struct ptx_cta c;
    REQUIRE(ptx_cta_alloc(&c, &g) == 0);
    size_t words = (size_t)c.nwarps * ki.reg_lanes * PTX_WARP_SIZE;
    memset(c.regmem, 0xAB, words * sizeof *c.regmem);   /* an earlier kernel's leftovers */
    REQUIRE(ptx_cta_reuse(&c, &g) == 0);
    unsigned zero = 0, kept = 0;
    for (size_t i = 0; i < words; i++) {
        zero += c.regmem[i] == 0;
        kept += c.regmem[i] == 0xABABABABABABABABull;
    }
    CHECK_EQ_INT(zero, c.nwarps * PTX_WARP_SIZE);   /* %r5 of every lane */
    CHECK_EQ_INT(kept, words - zero);
    const uint32_t id[3] = {0, 0, 0};
    ptx_cta_start(&c, id);
    CHECK_EQ_INT(ptx_cta_run(&c), 0);
    const uint32_t *o = (const uint32_t *)(const void *)ptx_mem_ptr(&mem, out, 64 * 4);
    REQUIRE(o != NULL);
    for (unsigned t = 0; t < 64; t++)
        CHECK_EQ_INT(o[t], t);
    ptx_cta_free(&c);
    ptx_mem_destroy(&mem);
    ptx_kinfo_free(&ki);
    ptx_module_free(m);
}

TEST_MAIN()
