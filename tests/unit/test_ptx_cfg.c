/* test_ptx_cfg.c - basic blocks and immediate post-dominators (ipdom). */
#include <stdio.h>
#include <string.h>

#include "fe/ptx/ptx_ir.h"
#include "test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
#define REGS ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"

/* parse one kernel and run the analysis */
static struct ptx_module *analyze(const char *body)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s%s%s}\n", HDR, ".visible .entry k(.param .u64 a)\n{\n", REGS, body);
    struct ptx_error e;
    struct ptx_module *m = ptx_parse(src, strlen(src), "cfg.ptx", &e);
    if (m && ptx_cfg_analyze(m, &e) != 0) {
        ptx_module_free(m);
        m = NULL;
    }
    if (!m) {
        char buf[1024];
        ptx_error_format(&e, buf, sizeof buf);
        fprintf(stderr, "  unexpected error: %s\n", buf);
    }
    return m;
}

static void check_ipdom(const struct ptx_func *f, const int *want, uint32_t n)
{
    CHECK_EQ_INT(f->ninsns, n);
    if (f->ninsns != n || !f->ipdom)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (f->ipdom[i] != want[i])
            T_FAIL_("ipdom[%u] = %d, expected %d", i, f->ipdom[i], want[i]);
}

TEST(if_else_diamond)
{
    struct ptx_module *m = analyze(
        "ld.param.u64 %rd1, [a];\n"          /* 0 */
        "setp.lt.s32 %p1, %r1, 0;\n"         /* 1 */
        "@%p1 bra $L_else;\n"                /* 2 */
        "add.s32 %r2, %r1, 1;\n"             /* 3 */
        "bra.uni $L_join;\n"                 /* 4 */
        "$L_else:\n"
        "sub.s32 %r2, %r1, 1;\n"             /* 5 */
        "$L_join:\n"
        "st.global.u32 [%rd1], %r2;\n"       /* 6 */
        "ret;\n");                           /* 7 */
    REQUIRE(m);
    static const int want[] = {1, 2, 6, 4, 6, 6, 7, 8};
    check_ipdom(&m->funcs[0], want, 8);
    ptx_module_free(m);
}

TEST(nested_ifs)
{
    struct ptx_module *m = analyze(
        "setp.lt.s32 %p1, %r1, 0;\n"         /* 0 */
        "@%p1 bra $L_end;\n"                 /* 1  outer if */
        "setp.lt.s32 %p2, %r2, 0;\n"         /* 2 */
        "@%p2 bra $L_inner_end;\n"           /* 3  inner if */
        "add.s32 %r3, %r3, 1;\n"             /* 4 */
        "$L_inner_end:\n"
        "add.s32 %r4, %r4, 1;\n"             /* 5 */
        "@!%p3 bra $L_end;\n"                /* 6  third level */
        "add.s32 %r5, %r4, 1;\n"             /* 7 */
        "$L_end:\n"
        "ret;\n");                           /* 8 */
    REQUIRE(m);
    static const int want[] = {1, 8, 3, 5, 5, 6, 8, 8, 9};
    check_ipdom(&m->funcs[0], want, 9);
    ptx_module_free(m);
}

TEST(loop_with_break)
{
    struct ptx_module *m = analyze(
        "mov.u32 %r1, 0;\n"                  /* 0 */
        "$L_loop:\n"
        "setp.ge.s32 %p1, %r1, 10;\n"        /* 1 */
        "@%p1 bra $L_exit;\n"                /* 2  loop condition */
        "ld.global.u32 %r2, [%rd1];\n"       /* 3 */
        "setp.eq.s32 %p2, %r2, 0;\n"         /* 4 */
        "@%p2 bra $L_exit;\n"                /* 5  break */
        "add.s32 %r1, %r1, 1;\n"             /* 6 */
        "bra.uni $L_loop;\n"                 /* 7  back edge */
        "$L_exit:\n"
        "st.global.u32 [%rd1], %r1;\n"       /* 8 */
        "ret;\n");                           /* 9 */
    REQUIRE(m);
    static const int want[] = {1, 2, 8, 4, 5, 8, 7, 1, 9, 10};
    check_ipdom(&m->funcs[0], want, 10);
    ptx_module_free(m);
}

TEST(early_return)
{
    struct ptx_module *m = analyze(
        "setp.eq.s32 %p1, %r1, 0;\n"         /* 0 */
        "@%p1 bra $L_early;\n"               /* 1 */
        "add.s32 %r2, %r1, 1;\n"             /* 2 */
        "st.global.u32 [%rd1], %r2;\n"       /* 3 */
        "ret;\n"                             /* 4 */
        "$L_early:\n"
        "st.global.u32 [%rd1], %r1;\n"       /* 5 */
        "ret;\n");                           /* 6 */
    REQUIRE(m);
    /* the two paths only meet at the function exit */
    static const int want[] = {1, 7, 3, 4, 7, 6, 7};
    check_ipdom(&m->funcs[0], want, 7);
    ptx_module_free(m);
}

TEST(guarded_ret_and_exit)
{
    struct ptx_module *m = analyze(
        "setp.eq.s32 %p1, %r1, 0;\n"         /* 0 */
        "@%p1 ret;\n"                        /* 1  guarded: exit or fall through */
        "add.s32 %r2, %r1, 1;\n"             /* 2 */
        "@!%p1 exit;\n"                      /* 3 */
        "st.global.u32 [%rd1], %r2;\n"       /* 4 */
        "ret;\n");                           /* 5 */
    REQUIRE(m);
    static const int want[] = {1, 6, 3, 6, 5, 6};
    check_ipdom(&m->funcs[0], want, 6);
    ptx_module_free(m);
}

TEST(fall_off_end_branch_to_end_and_infinite_loop)
{
    struct ptx_module *m = analyze(
        "setp.eq.s32 %p1, %r1, 0;\n"         /* 0 */
        "@%p1 bra $L_spin;\n"                /* 1  one side never exits */
        "@%p2 bra $L_end;\n"                 /* 2  branch to a label after the last insn */
        "add.s32 %r2, %r1, 1;\n"             /* 3  falls off the end */
        "bra.uni $L_end;\n"                  /* 4 */
        "$L_spin:\n"
        "add.s32 %r3, %r3, 1;\n"             /* 5 */
        "bra.uni $L_spin;\n"                 /* 6 */
        "$L_end:\n");
    REQUIRE(m);
    static const int want[] = {1, 7, 7, 4, 7, 6, 7};
    check_ipdom(&m->funcs[0], want, 7);
    ptx_module_free(m);
}

TEST(calls_fall_through_and_funcs_analyzed)
{
    const char *src = HDR
        ".func (.param .b32 r) f(.param .b32 x)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n"
        "ld.param.b32 %r1, [x];\n"           /* 0 */
        "setp.gt.s32 %p1, %r1, 0;\n"         /* 1 */
        "@%p1 bra $L1;\n"                    /* 2 */
        "neg.s32 %r1, %r1;\n"                /* 3 */
        "$L1:\n"
        "st.param.b32 [r], %r1;\n"           /* 4 */
        "ret;\n}\n"                          /* 5 */
        ".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .pred %p<2>;\n"
        "{ .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r1;\n"   /* 0 */
        "call.uni (r0), f, (a0);\n"                                     /* 1 */
        "ld.param.b32 %r2, [r0]; }\n"                                   /* 2 */
        "setp.eq.s32 %p1, %r2, 0;\n"                                    /* 3 */
        "@%p1 bra $L2;\n"                                               /* 4 */
        "add.s32 %r2, %r2, 1;\n"                                        /* 5 */
        "$L2:\n"
        "ret;\n}\n"                                                     /* 6 */
        ".visible .entry empty()\n{\n}\n";
    struct ptx_error e;
    struct ptx_module *m = ptx_parse(src, strlen(src), "cfg.ptx", &e);
    REQUIRE(m);
    CHECK_EQ_INT(ptx_cfg_analyze(m, &e), 0);
    static const int wf[] = {1, 2, 4, 4, 5, 6};
    static const int wk[] = {1, 2, 3, 4, 6, 6, 7};
    check_ipdom(&m->funcs[0], wf, 6);
    check_ipdom(&m->funcs[1], wk, 7);
    CHECK_EQ_INT(m->funcs[2].ninsns, 0);
    CHECK(m->funcs[2].ipdom != NULL);
    ptx_module_free(m);
}

TEST_MAIN()
