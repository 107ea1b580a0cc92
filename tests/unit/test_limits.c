/* Limits on launches (wsSetLimits): a kernel that never terminates stops with
   WS_ERROR_LIMIT and a message saying how far it got, in both modes. */
#include <errno.h>
#include <float.h>
#include <math.h>

#include "core/file_read.h"
#include "host/ws_internal.h"
#include "test.h"
#include "warpsim/warpsim.h"

static const char PTX[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry forever()\n{\nLOOP:\n  bra.uni LOOP;\n}\n"
    ".visible .entry quick()\n{\n  ret;\n}\n";

static ws_ctx *open_ctx(ws_mode mode, ws_module **mod)
{
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {0};
    o.mode = mode;
    if (wsCreate(&ctx, &o) != WS_SUCCESS)
        return NULL;
    if (mode == WS_MODE_TIMING) {
        const char *n[] = {"gpgpu_n_clusters"}, *v[] = {"1"};
        if (ws_set_config_overrides(ctx, 1, n, v) != WS_SUCCESS) {
            wsDestroy(ctx);
            return NULL;
        }
    }
    if (wsModuleLoadData(ctx, mod, PTX, sizeof PTX - 1, "limits.ptx") != WS_SUCCESS) {
        wsDestroy(ctx);
        return NULL;
    }
    return ctx;
}

static int has(const char *msg, const char *needle)
{
    if (msg && strstr(msg, needle))
        return 1;
    fprintf(stderr, "  message lacks \"%s\":\n%s\n", needle, msg ? msg : "(null)");
    return 0;
}

TEST(set_limits_validates)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(WS_MODE_FUNCTIONAL, &mod);
    REQUIRE(ctx != NULL);
    ws_limits l = {0}, got;
    CHECK_EQ_INT(wsGetLimits(ctx, &got), WS_SUCCESS);
    CHECK_EQ_U64(got.max_warp_insns, 0);   /* a new context has no limits */
    l.max_seconds = -1;
    CHECK_EQ_INT(wsSetLimits(ctx, &l), WS_ERROR_INVALID_VALUE);
    CHECK(has(wsGetErrorMessage(ctx), "max_seconds"));
    l.max_seconds = NAN;
    CHECK_EQ_INT(wsSetLimits(ctx, &l), WS_ERROR_INVALID_VALUE);
    l.max_seconds = INFINITY;
    CHECK_EQ_INT(wsSetLimits(ctx, &l), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsSetLimits(ctx, NULL), WS_ERROR_INVALID_VALUE);
    l.max_seconds = 5;
    l.max_warp_insns = 7;
    CHECK_EQ_INT(wsSetLimits(ctx, &l), WS_SUCCESS);
    CHECK_EQ_INT(wsGetLimits(ctx, &got), WS_SUCCESS);
    CHECK_EQ_U64(got.max_warp_insns, 7);
    CHECK(got.max_seconds == 5);
    CHECK_EQ_STR(wsStatusName(WS_ERROR_LIMIT), "WS_ERROR_LIMIT");
    wsDestroy(ctx);
}

TEST(functional_instruction_limit)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(WS_MODE_FUNCTIONAL, &mod);
    REQUIRE(ctx != NULL);
    ws_limits l = {.max_warp_insns = 50000};
    REQUIRE(wsSetLimits(ctx, &l) == WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(3, 1, 1), ws_dim(64, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    const char *m = wsGetErrorMessage(ctx);
    CHECK(has(m, "kernel 'forever' stopped at the limit of 50000 warp instructions per launch"));
    CHECK(has(m, "0 of 3 CTAs completed"));
    const struct ws_launch_info *li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK_EQ_U64(li->warp_insns, 50000);   /* exact in functional mode */
    /* the limit is per launch: a short kernel still runs */
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "quick", ws_dim(4, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_SUCCESS);
    wsDestroy(ctx);
}

TEST(functional_time_limit_spans_launches)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(WS_MODE_FUNCTIONAL, &mod);
    REQUIRE(ctx != NULL);
    ws_limits l = {.max_seconds = 0.2};
    REQUIRE(wsSetLimits(ctx, &l) == WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "kernel 'forever' stopped at the host time limit"));
    const struct ws_launch_info *li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK(li->wall_seconds >= 0.2 && li->wall_seconds < 5);
    /* the budget covers all launches: it is spent now */
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "quick", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "time limit of 0.2 host seconds for all launches is spent"));
    wsDestroy(ctx);
}

TEST(timing_cycle_and_instruction_limits)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(WS_MODE_TIMING, &mod);
    REQUIRE(ctx != NULL);
    ws_limits l = {.max_cycles = 3000};
    REQUIRE(wsSetLimits(ctx, &l) == WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(2, 1, 1), ws_dim(64, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    const char *m = wsGetErrorMessage(ctx);
    CHECK(has(m, "kernel 'forever' stopped at the limit of 3000 core cycles per launch"));
    CHECK(has(m, "0 of 2 CTAs completed, 3000 core cycles"));
    const struct ws_launch_info *li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK_EQ_U64(li->cycles, 3000);   /* the statistics cover the run up to the stop */
    CHECK(li->warp_insns > 0);
    wsDestroy(ctx);

    ctx = open_ctx(WS_MODE_TIMING, &mod);
    REQUIRE(ctx != NULL);
    ws_limits l2 = {.max_warp_insns = 20000};
    REQUIRE(wsSetLimits(ctx, &l2) == WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "stopped at the limit of 20000 warp instructions per launch"));
    li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK(li->warp_insns >= 20000 && li->warp_insns < 20100);
    CHECK(li->cycles > 0);
    wsDestroy(ctx);
}

TEST(timing_time_limit)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(WS_MODE_TIMING, &mod);
    REQUIRE(ctx != NULL);
    ws_limits l = {.max_seconds = 0.3};
    REQUIRE(wsSetLimits(ctx, &l) == WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "kernel 'forever' stopped at the host time limit"));
    CHECK(has(wsGetErrorMessage(ctx), "core cycles"));
    wsDestroy(ctx);
}

/* ---- bounded whole-file reads (core/file_read.h) ---- */

TEST(file_read_limits)
{
    char msg[512];
    enum file_read_err why;
    size_t len = 99;
    char *b = file_read_all("/dev/zero", 4096, &len, &why, msg, sizeof msg);
    CHECK(b == NULL);
    CHECK_EQ_INT(why, FILE_READ_TOO_LARGE);
    CHECK_EQ_INT(errno, EFBIG);
    CHECK_EQ_STR(msg, "/dev/zero: larger than the limit of 4096 bytes for this kind of input");
    b = file_read_all("/tmp", 4096, &len, &why, msg, sizeof msg);
    CHECK(b == NULL);
    CHECK_EQ_INT(why, FILE_READ_IS_DIR);
    CHECK_EQ_STR(msg, "/tmp: is a directory, not a file");
    b = file_read_all("/nonexistent/x", 4096, &len, &why, msg, sizeof msg);
    CHECK(b == NULL);
    CHECK_EQ_INT(why, FILE_READ_NOT_FOUND);
    CHECK_EQ_STR(msg, "/nonexistent/x: no such file");

    char path[] = "/tmp/warpsim_file_read_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    REQUIRE(f != NULL);
    for (int i = 0; i < 5000; i++)
        fputc('a' + i % 26, f);
    fclose(f);
    b = file_read_all(path, 5000, &len, &why, msg, sizeof msg);   /* exactly at the limit */
    REQUIRE(b != NULL);
    CHECK_EQ_U64(len, 5000);
    CHECK_EQ_INT(b[4999], 'a' + 4999 % 26);
    CHECK_EQ_INT(b[5000], 0);
    free(b);
    b = file_read_all(path, 4999, &len, &why, msg, sizeof msg);   /* one byte over */
    CHECK(b == NULL);
    CHECK_EQ_INT(why, FILE_READ_TOO_LARGE);
    remove(path);
}

TEST_MAIN()

/* GPGPU-Sim's run limits (-gpgpu_max_cycle, -gpgpu_max_insn, -gpgpu_max_cta): counted over all launches,
   the launch stops with WS_ERROR_LIMIT and a message starting "stopped at simulation limit: " naming the
   option, and its statistics cover the run up to the stop. */
static ws_ctx *open_limited(ws_module **mod, const char *opt, const char *val)
{
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {0};
    o.mode = WS_MODE_TIMING;
    if (wsCreate(&ctx, &o) != WS_SUCCESS)
        return NULL;
    const char *n[] = {"gpgpu_n_clusters", opt}, *v[] = {"1", val};
    if (ws_set_config_overrides(ctx, 2, n, v) != WS_SUCCESS ||
        wsModuleLoadData(ctx, mod, PTX, sizeof PTX - 1, "limits.ptx") != WS_SUCCESS) {
        wsDestroy(ctx);
        return NULL;
    }
    return ctx;
}

TEST(timing_run_limits)
{
    ws_module *mod;
    ws_ctx *ctx = open_limited(&mod, "gpgpu_max_cycle", "2500");
    REQUIRE(ctx != NULL);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "quick", ws_dim(2, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_SUCCESS);
    uint64_t c0 = ws_last_launch(ctx)->cycles;
    CHECK(c0 > 0 && c0 < 2500);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(2, 1, 1), ws_dim(64, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "stopped at simulation limit: -gpgpu_max_cycle 2500"));
    CHECK(has(wsGetErrorMessage(ctx), "'forever'"));
    CHECK_EQ_U64(ws_last_launch(ctx)->cycles, 2500 - c0);   /* counted over both launches */
    wsDestroy(ctx);

    ctx = open_limited(&mod, "gpgpu_max_insn", "10000");
    REQUIRE(ctx != NULL);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "stopped at simulation limit: -gpgpu_max_insn 10000"));
    const struct ws_launch_info *li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK(li->thread_insns >= 10000 && li->thread_insns < 10000 + 64 * 8);   /* at most one cycle's issue more */
    wsDestroy(ctx);

    ctx = open_limited(&mod, "gpgpu_max_cta", "3");
    REQUIRE(ctx != NULL);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "quick", ws_dim(2, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "quick", ws_dim(4, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "stopped at simulation limit: -gpgpu_max_cta 3"));
    li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK_EQ_U64(li->ctas, 1);   /* 2 in the first launch, 1 more in the second */
    wsDestroy(ctx);

    /* a limit the run does not reach changes nothing */
    ctx = open_limited(&mod, "gpgpu_max_cta", "6");
    REQUIRE(ctx != NULL);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "quick", ws_dim(6, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_SUCCESS);
    wsDestroy(ctx);
}

/* gpu_sim_insn counts the lanes whose guard predicate holds (GPGPU-Sim); the lanes active at issue stay
   available (ws_launch_info.active_lane_insns, the per-class counts) - in both modes. */
static const char PRED_PTX[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry guarded()\n{\n  .reg .pred %p;\n  .reg .b32 %r<3>;\n"
    "  mov.u32 %r1, %tid.x;\n"            /* 32 lanes */
    "  setp.lt.u32 %p, %r1, 8;\n"         /* 32 lanes */
    "  @%p add.u32 %r2, %r1, 1;\n"        /* 8 of 32 lanes */
    "  @!%p add.u32 %r2, %r1, 2;\n"       /* 24 of 32 lanes */
    "  @%p mov.u32 %r2, 0;\n"             /* 8 of 32 lanes */
    "  ret;\n}\n";                        /* 32 lanes */

TEST(guarded_lanes_not_counted)
{
    for (int mode = 0; mode < 2; mode++) {
        ws_ctx *ctx = NULL;
        ws_ctx_opts o = {0};
        o.mode = mode ? WS_MODE_TIMING : WS_MODE_FUNCTIONAL;
        REQUIRE(wsCreate(&ctx, &o) == WS_SUCCESS);
        ws_module *mod;
        REQUIRE(wsModuleLoadData(ctx, &mod, PRED_PTX, sizeof PRED_PTX - 1, "pred.ptx") == WS_SUCCESS);
        CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "guarded", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, NULL), WS_SUCCESS);
        const struct ws_launch_info *li = ws_last_launch(ctx);
        REQUIRE(li != NULL);
        CHECK_EQ_U64(li->warp_insns, 6);
        CHECK_EQ_U64(li->active_lane_insns, 6 * 32);
        CHECK_EQ_U64(li->thread_insns, 32 + 32 + 8 + 24 + 8 + 32);
        wsDestroy(ctx);
    }
}
