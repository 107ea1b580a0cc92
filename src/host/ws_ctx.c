/* ws_ctx.c - contexts, error messages, statistics and the internal accessors (ws_internal.h). */
#include "ws_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ws_status ws_fail(ws_ctx *ctx, ws_status st, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
        va_end(ap);
    }
    return st;
}

ws_status ws_create_ex(ws_ctx **ctx, const ws_ctx_opts *opts, char *msg, size_t n)
{
    if (msg && n)
        msg[0] = '\0';
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_FUNCTIONAL, 0, NULL};
    if (opts)
        o = *opts;
    if (o.num_sms < 0 || o.num_sms > 4096)
        return WS_ERROR_INVALID_VALUE;
    if (o.mode != WS_MODE_FUNCTIONAL && o.mode != WS_MODE_TIMING)
        return WS_ERROR_INVALID_VALUE;
    ws_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return WS_ERROR_OUT_OF_MEMORY;
    c->opts = o;
    c->num_sms = o.num_sms ? (uint32_t)o.num_sms : WS_DEFAULT_SMS;
    ptx_mem_init(&c->mem);
    ptx_devlib_init(&c->dev);
    if (o.mode == WS_MODE_TIMING) {
        /* the machine from the config file (or the built-in defaults) */
        ws_status st = ws_set_config_overrides(c, 0, NULL, NULL);
        if (st != WS_SUCCESS) {
            if (msg && n)
                snprintf(msg, n, "%s", c->err);
            wsDestroy(c);
            return st;
        }
    }
    *ctx = c;
    return WS_SUCCESS;
}

ws_status wsCreate(ws_ctx **ctx, const ws_ctx_opts *opts) { return ws_create_ex(ctx, opts, NULL, 0); }

void wsDestroy(ws_ctx *ctx)
{
    if (!ctx)
        return;
    struct ws_module *m = ctx->mods;
    while (m) {
        struct ws_module *n = m->next;
        ws_module_free(m);
        m = n;
    }
    ws_device_output_flush(ctx, stdout, stderr);
    ptx_devlib_destroy(&ctx->dev);
    for (size_t i = 0; i < ctx->mem.nallocs; i++)
        ws_mem_unmap_managed(ctx, i);
    ptx_mem_destroy(&ctx->mem);
    gpu_free(ctx->gpu);
    free(ctx->launches);
    free(ctx);
}

const char *wsGetErrorMessage(const ws_ctx *ctx)
{
    if (!ctx)
        return "invalid context (NULL)";
    return ctx->err;
}

const char *wsStatusName(ws_status s)
{
    switch (s) {
    case WS_SUCCESS: return "WS_SUCCESS";
    case WS_ERROR_INVALID_VALUE: return "WS_ERROR_INVALID_VALUE";
    case WS_ERROR_OUT_OF_MEMORY: return "WS_ERROR_OUT_OF_MEMORY";
    case WS_ERROR_INVALID_PTX: return "WS_ERROR_INVALID_PTX";
    case WS_ERROR_NOT_FOUND: return "WS_ERROR_NOT_FOUND";
    case WS_ERROR_LAUNCH_FAILED: return "WS_ERROR_LAUNCH_FAILED";
    case WS_ERROR_ILLEGAL_ADDRESS: return "WS_ERROR_ILLEGAL_ADDRESS";
    case WS_ERROR_DEADLOCK: return "WS_ERROR_DEADLOCK";
    case WS_ERROR_IO: return "WS_ERROR_IO";
    case WS_ERROR_UNSUPPORTED: return "WS_ERROR_UNSUPPORTED";
    case WS_ERROR_LIMIT: return "WS_ERROR_LIMIT";
    }
    return "WS_ERROR_UNKNOWN";
}

ws_status wsGetStats(const ws_ctx *ctx, ws_stats *out)
{
    if (!ctx || !out)
        return WS_ERROR_INVALID_VALUE;
    *out = ctx->stats;
    return WS_SUCCESS;
}

/* ---- ws_internal.h --------------------------------------------------------------- */

size_t ws_launch_count(const ws_ctx *ctx) { return ctx ? ctx->nlaunches : 0; }

const struct ws_launch_info *ws_launch_get(const ws_ctx *ctx, size_t i)
{
    return ctx && i < ctx->nlaunches ? &ctx->launches[i] : NULL;
}

const struct ws_launch_info *ws_last_launch(const ws_ctx *ctx)
{
    return ctx && ctx->nlaunches ? &ctx->launches[ctx->nlaunches - 1] : NULL;
}

void ws_launch_history_clear(ws_ctx *ctx)
{
    if (ctx)
        ctx->nlaunches = 0;
}

void ws_set_launch_hook(ws_ctx *ctx, ws_launch_hook fn, void *user)
{
    if (!ctx)
        return;
    ctx->hook = fn;
    ctx->hook_user = user;
}

void ws_set_grid_runner(ws_ctx *ctx, ws_grid_runner fn, void *user)
{
    if (!ctx)
        return;
    ctx->grid_runner = fn;
    ctx->grid_runner_user = user;
}

void ws_iclass_totals(const ws_ctx *ctx, uint64_t warp[PIC_COUNT], uint64_t thread[PIC_COUNT])
{
    for (unsigned i = 0; i < PIC_COUNT; i++) {
        if (warp)
            warp[i] = ctx ? ctx->iclass_warp[i] : 0;
        if (thread)
            thread[i] = ctx ? ctx->iclass_thread[i] : 0;
    }
}

void ws_set_insn_limit(ws_ctx *ctx, uint64_t warp_insns)
{
    if (ctx)
        ctx->limits.max_warp_insns = warp_insns;
}

ws_status wsSetLimits(ws_ctx *ctx, const ws_limits *limits)
{
    if (!ctx || !limits)
        return WS_ERROR_INVALID_VALUE;
    /* NaN, negative and infinite budgets are caller errors, not "no limit" */
    if (!(limits->max_seconds >= 0) || limits->max_seconds > 1e12)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsSetLimits: max_seconds must be between 0 and 1e12, got %g",
                       limits->max_seconds);
    ctx->limits = *limits;
    return WS_SUCCESS;
}

ws_status wsGetLimits(const ws_ctx *ctx, ws_limits *limits)
{
    if (!ctx || !limits)
        return WS_ERROR_INVALID_VALUE;
    *limits = ctx->limits;
    return WS_SUCCESS;
}

uint64_t ws_mem_in_use(const ws_ctx *ctx) { return ctx ? ctx->mem.in_use : 0; }

/* ---- the device library ----------------------------------------------------------- */

void ws_device_output_defer(ws_ctx *ctx, int defer)
{
    if (ctx)
        ctx->dev_defer = defer != 0;
}

void ws_device_output_flush(ws_ctx *ctx, FILE *out, FILE *err)
{
    if (!ctx)
        return;
    struct ptx_devlib *d = &ctx->dev;
    if (d->out.len && out) {
        fwrite(d->out.p, 1, d->out.len, out);
        fflush(out);
    }
    d->out.len = 0;
    if (d->dropped && err)
        fprintf(err, "warpsim: %llu device printf records lost: the printf FIFO (%llu bytes, "
                     "cudaLimitPrintfFifoSize) was full\n",
                (unsigned long long)d->dropped, (unsigned long long)d->fifo_size);
    d->dropped = 0;
    if (d->err.len && err) {
        fwrite(d->err.p, 1, d->err.len, err);
        fflush(err);
    }
    d->err.len = 0;
}

uint64_t ws_device_asserts(const ws_ctx *ctx) { return ctx ? ctx->dev.asserts : 0; }

ws_status ws_device_set_heap_size(ws_ctx *ctx, uint64_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (ctx->dev.heap_base)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "the device heap's size cannot change once a kernel that calls "
                       "malloc has been launched");
    if (bytes > ctx->mem.limit)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "device heap of %llu bytes: larger than the device memory",
                       (unsigned long long)bytes);
    ctx->dev.heap_size = bytes;
    return WS_SUCCESS;
}

uint64_t ws_device_heap_size(const ws_ctx *ctx) { return ctx ? ctx->dev.heap_size : 0; }

ws_status ws_device_set_printf_fifo(ws_ctx *ctx, uint64_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    ctx->dev.fifo_size = bytes;
    return WS_SUCCESS;
}

uint64_t ws_device_printf_fifo(const ws_ctx *ctx) { return ctx ? ctx->dev.fifo_size : 0; }
