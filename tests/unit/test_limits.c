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
