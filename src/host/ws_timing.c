/*
 * ws_timing.c - the timing-mode side of a context (ws_internal.h): building
 * the simulated GPU from a configuration, rebuilding it with overrides before
 * the first launch, outputs.
 */
#include "ws_priv.h"

#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "policy/params.h"

ws_status ws_set_timing_config(ws_ctx *ctx, struct cfg *c, int warn_unknown, FILE *warn)
{
    if (!ctx || !c)
        return WS_ERROR_INVALID_VALUE;
    if (ctx->opts.mode != WS_MODE_TIMING)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "the machine configuration applies to timing mode only");
    if (ctx->nlaunches || ctx->stats.kernels_launched)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "the machine configuration can only change before the first launch");
    struct gpu_config gc;
    struct cfg_error e;
    memset(&e, 0, sizeof e);
    char buf[1024];
    if (gpu_config_load(&gc, c, &e) != 0) {
        cfg_error_format(&e, buf, sizeof buf);
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s", buf);
    }
    /* policy parameters: bounds and cross-checks now, not at the first launch; parameters of
       policies that are not selected are a warning */
    struct policy_machine pm = {gc.n_cores, gc.max_cta_per_core, gc.max_warps_per_core, gc.num_sched_per_core};
    if (policy_params_check_all(c, gc.scheduler, gc.cta_scheduler, gc.repl_name, GPU_NCACHES, gc.bypass_name, GPU_NCACHES, gc.cm,
                                &pm, warn ? warn : stderr, &e) != 0) {
        cfg_error_format(&e, buf, sizeof buf);
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s", buf);
    }
    struct gpu *g = gpu_new(&gc, buf, sizeof buf);
    if (!g)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s", buf);
    /* policy parameters are options too: take them before looking for unknown ones */
    if (gpu_set_policy_params(g, c, &e) != 0 || cfg_check_unused(c, warn_unknown, warn ? warn : stderr, &e) != 0) {
        cfg_error_format(&e, buf, sizeof buf);
        gpu_free(g);
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s", buf);
    }
    gpu_free(ctx->gpu);
    ctx->gpu = g;
    /* %nsmid follows the machine unless the caller fixed it */
    if (!ctx->opts.num_sms)
        ctx->num_sms = gc.n_cores;
    return WS_SUCCESS;
}

ws_status ws_set_config_overrides(ws_ctx *ctx, unsigned n, const char *const *names, const char *const *values)
{
    if (!ctx || (n && (!names || !values)))
        return WS_ERROR_INVALID_VALUE;
    struct arena *a = arena_new(0);
    if (!a)
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
    struct cfg c;
    cfg_init(&c, a);
    struct cfg_error e;
    memset(&e, 0, sizeof e);
    ws_status st = WS_SUCCESS;
    if (ctx->opts.config_path && cfg_load_file(&c, ctx->opts.config_path, &e) != 0) {
        char buf[1024];
        cfg_error_format(&e, buf, sizeof buf);
        st = ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s", buf);
    }
    for (unsigned i = 0; st == WS_SUCCESS && i < n; i++)
        if (!names[i] || !values[i] || cfg_set(&c, names[i], values[i], "command line") != 0)
            st = ws_fail(ctx, WS_ERROR_INVALID_VALUE, "bad configuration override '%s'", names[i] ? names[i] : "");
    if (st == WS_SUCCESS)
        st = ws_set_timing_config(ctx, &c, 0, NULL);
    arena_free(a);
    return st;
}

struct gpu *ws_gpu(ws_ctx *ctx) { return ctx ? ctx->gpu : NULL; }

ws_status ws_set_timing_outputs(ws_ctx *ctx, const char *timeseries_csv, const char *warps_csv)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!ctx->gpu)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "timing outputs need a timing-mode context");
    char buf[512];
    if (gpu_set_outputs(ctx->gpu, timeseries_csv, warps_csv, buf, sizeof buf) != 0)
        return ws_fail(ctx, WS_ERROR_IO, "%s", buf);
    return WS_SUCCESS;
}
