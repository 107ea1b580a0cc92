/*
 * ws_launch.c - wsLaunchKernel: validate the configuration against the
 * kernel and the device limits, build the parameter buffer from the
 * arguments, run the grid functionally, and record statistics and the
 * per-launch record (ws_internal.h).  Functional mode runs the grid with
 * ptx_grid_run; timing mode hands it to the simulated GPU (gpu_run_kernel),
 * whose SMs step the executor one warp instruction at a time.
 */
#include "ws_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/host_clock.h"

static ws_status map_err(int e)
{
    switch (e) {
    case PTX_EXEC_OK: return WS_SUCCESS;
    case PTX_EXEC_ILLEGAL_ADDRESS: return WS_ERROR_ILLEGAL_ADDRESS;
    case PTX_EXEC_DEADLOCK: return WS_ERROR_DEADLOCK;
    case PTX_EXEC_UNSUPPORTED: return WS_ERROR_UNSUPPORTED;
    case PTX_EXEC_NOMEM: return WS_ERROR_OUT_OF_MEMORY;
    case PTX_EXEC_LIMIT: return WS_ERROR_LIMIT;
    case PTX_EXEC_CONFIG: return WS_ERROR_INVALID_VALUE;
    default: return WS_ERROR_LAUNCH_FAILED;
    }
}

static struct ws_launch_info *new_record(ws_ctx *ctx)
{
    if (ctx->nlaunches == ctx->cap_launches) {
        size_t nc = ctx->cap_launches ? ctx->cap_launches * 2 : 64;
        struct ws_launch_info *n = realloc(ctx->launches, nc * sizeof *n);
        if (!n)
            return NULL;
        ctx->launches = n;
        ctx->cap_launches = nc;
    }
    struct ws_launch_info *li = &ctx->launches[ctx->nlaunches++];
    memset(li, 0, sizeof *li);
    return li;
}

static ws_status check_config(ws_ctx *ctx, const struct ptx_func *f, const struct ptx_kinfo *ki, ws_dim3 grid,
                              ws_dim3 block, unsigned dyn)
{
    const char *k = f->name;
    if (block.x == 0 || block.y == 0 || block.z == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0)
        return ws_fail(ctx, WS_ERROR_LAUNCH_FAILED,
                       "wsLaunchKernel '%s': invalid configuration: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
                       k, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    if (block.x > 1024 || block.y > 1024 || block.z > 64)
        return ws_fail(ctx, WS_ERROR_LAUNCH_FAILED,
                       "wsLaunchKernel '%s': invalid configuration: block (%u,%u,%u) exceeds the per-dimension limits (1024,1024,64)",
                       k, block.x, block.y, block.z);
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads > PTX_MAX_CTA_THREADS)
        return ws_fail(ctx, WS_ERROR_LAUNCH_FAILED,
                       "wsLaunchKernel '%s': invalid configuration: block (%u,%u,%u) has %" PRIu64 " threads, more than 1024",
                       k, block.x, block.y, block.z, threads);
    if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
        return ws_fail(ctx, WS_ERROR_LAUNCH_FAILED,
                       "wsLaunchKernel '%s': invalid configuration: grid (%u,%u,%u) exceeds the limits (2^31-1,65535,65535)",
                       k, grid.x, grid.y, grid.z);
    if (f->reqntid[0] && (block.x != f->reqntid[0] || block.y != (f->reqntid[1] ? f->reqntid[1] : 1) ||
                          block.z != (f->reqntid[2] ? f->reqntid[2] : 1)))
        return ws_fail(ctx, WS_ERROR_LAUNCH_FAILED,
                       "wsLaunchKernel '%s': block (%u,%u,%u) differs from the kernel's .reqntid %u,%u,%u", k, block.x,
                       block.y, block.z, f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->maxntid[0]) {
        uint64_t mx = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) * (f->maxntid[2] ? f->maxntid[2] : 1);
        if (threads > mx)
            return ws_fail(ctx, WS_ERROR_LAUNCH_FAILED,
                           "wsLaunchKernel '%s': %" PRIu64 " threads per block exceed the kernel's .maxntid (%" PRIu64 ")",
                           k, threads, mx);
    }
    uint64_t smem = dyn ? ki->shared_dyn_off + dyn : ki->shared_static;
    if (smem > WS_MAX_SMEM)
        return ws_fail(ctx, WS_ERROR_LAUNCH_FAILED,
                       "wsLaunchKernel '%s': too much shared memory: %" PRIu64 " bytes static + %u dynamic > %u bytes",
                       k, ki->shared_static, dyn, WS_MAX_SMEM);
    return WS_SUCCESS;
}

ws_status wsLaunchKernel(ws_ctx *ctx, ws_module *mod, const char *kernel, ws_dim3 grid, ws_dim3 block,
                         unsigned dynamic_smem_bytes, void **args)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!mod || mod->ctx != ctx)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsLaunchKernel: module does not belong to this context");
    if (!kernel)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsLaunchKernel: NULL kernel name");
    int fi = ptx_find_func(mod->pm, kernel);
    if (fi < 0 || !mod->pm->funcs[fi].is_entry || mod->kinfo[fi].func < 0)
        return ws_fail(ctx, WS_ERROR_NOT_FOUND, "wsLaunchKernel: no kernel (.entry) '%s' in module '%s'", kernel,
                       mod->name);
    const struct ptx_func *f = &mod->pm->funcs[fi];
    const struct ptx_kinfo *ki = &mod->kinfo[fi];
    ws_status st = check_config(ctx, f, ki, grid, block, dynamic_smem_bytes);
    if (st != WS_SUCCESS)
        return st;

    /* the parameter buffer, laid out as the kernel's .param declarations */
    if (f->nparams && !args)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsLaunchKernel '%s': %u parameters expected, args is NULL", kernel,
                       f->nparams);
    uint8_t *params = calloc(f->param_bytes ? f->param_bytes : 1, 1);
    if (!params)
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct ptx_param *p = &f->params[i];
        if (!args[i]) {
            free(params);
            return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsLaunchKernel '%s': args[%u] (parameter '%s') is NULL", kernel,
                           i, p->name);
        }
        if ((uint64_t)p->offset + p->size > f->param_bytes) {
            free(params);
            return ws_fail(ctx, WS_ERROR_INVALID_PTX, "wsLaunchKernel '%s': parameter '%s' lies outside the parameter buffer",
                           kernel, p->name);
        }
        memcpy(params + p->offset, args[i], p->size);
    }

    /* the device heap, at the first launch of a module that calls malloc (its size is then fixed) */
    if (!ctx->dev.heap_base) {
        int mf = ptx_find_func(mod->pm, "malloc");
        if (mf >= 0 && mod->pm->funcs[mf].ninsns == 0 && ctx->dev.heap_size) {
            uint64_t hb;
            if (ptx_mem_alloc(&ctx->mem, ctx->dev.heap_size, "device heap (cudaLimitMallocHeapSize)", &hb)) {
                free(params);
                return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY,
                               "wsLaunchKernel '%s': no device memory for the device heap of %" PRIu64 " bytes", kernel,
                               ctx->dev.heap_size);
            }
            ctx->dev.heap_base = hb;
        }
    }

    /* ptx_ir.h: the module's static shared size is that of the kernel launched last */
    mod->pm->shared_static_bytes = ki->shared_static;

    struct ptx_grid *g = calloc(1, sizeof *g);
    struct ws_launch_info *li = new_record(ctx);
    if (!g || !li) {
        free(g);
        free(params);
        if (li)
            ctx->nlaunches--;
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
    }
    g->mod = mod->pm;
    g->ki = ki;
    g->grid[0] = grid.x;
    g->grid[1] = grid.y;
    g->grid[2] = grid.z;
    g->block[0] = block.x;
    g->block[1] = block.y;
    g->block[2] = block.z;
    g->dyn_smem = dynamic_smem_bytes;
    g->params = params;
    g->param_bytes = f->param_bytes;
    g->cbank = mod->cbank;
    g->cbank_size = mod->cbank_size;
    g->mem = &ctx->mem;
    g->num_sms = ctx->num_sms;
    g->gridid = ++ctx->gridid;
    g->dev = &ctx->dev;
    g->insn_limit = ctx->limits.max_warp_insns;
    g->cycle_limit = ctx->limits.max_cycles;
    if (ctx->limits.max_seconds > 0) {
        double left = ctx->limits.max_seconds - ctx->launch_seconds;
        if (left <= 0) {
            free(g);
            free(params);
            ctx->nlaunches--;
            return ws_fail(ctx, WS_ERROR_LIMIT,
                           "kernel '%s' not launched: the time limit of %g host seconds for all launches is spent",
                           kernel, ctx->limits.max_seconds);
        }
        g->deadline = host_clock_seconds() + left;
    }

    snprintf(li->kernel, sizeof li->kernel, "%s", kernel);
    li->mod = mod;
    li->grid = grid;
    li->block = block;
    li->dynamic_smem = dynamic_smem_bytes;
    li->static_smem = ki->shared_static;
    li->regs_per_thread = f->nregs;
    li->local_bytes = ki->local_bytes;

    double t0 = host_clock_seconds(), c0 = host_cpu_seconds();
    int rc = ptx_grid_init(g);
    if (rc) {
        st = map_err(g->err);
        ws_fail(ctx, st, "%s", g->msg);
    } else if (ctx->gpu) {
        /* timing mode: the cycle-level model drives the executor */
        struct gpu_kernel_result res;
        memset(&res, 0, sizeof res);
        rc = gpu_run_kernel(ctx->gpu, g, kernel, &res, ctx->err, sizeof ctx->err);
        li->cycles = res.cycles;
        ctx->stats.gpu_cycles += res.cycles;
        st = rc ? (g->err ? map_err(g->err) : WS_ERROR_LAUNCH_FAILED) : WS_SUCCESS;
    } else {
        rc = ctx->grid_runner ? ctx->grid_runner(ctx->grid_runner_user, g) : ptx_grid_run(g);
        st = rc ? map_err(g->err) : WS_SUCCESS;
        if (rc)
            ws_fail(ctx, st, "%s", g->msg);
    }
    li->wall_seconds = host_clock_seconds() - t0;
    li->cpu_seconds = host_cpu_seconds() - c0;
    ctx->launch_seconds += li->wall_seconds;

    li->status = st;
    li->ctas = g->ctas_done;
    li->thread_insns = g->cnt.thread_insns;
    li->warp_insns = g->cnt.warp_insns;
    memcpy(li->iclass_warp, g->cnt.iclass_warp, sizeof li->iclass_warp);
    memcpy(li->iclass_thread, g->cnt.iclass_thread, sizeof li->iclass_thread);
    li->active_lane_insns = 0;
    for (unsigned i = 0; i < PIC_COUNT; i++)
        li->active_lane_insns += g->cnt.iclass_thread[i];

    ctx->stats.kernels_launched++;
    ctx->stats.ctas_executed += g->ctas_done;
    ctx->stats.thread_insns += g->cnt.thread_insns;
    ctx->stats.warp_insns += g->cnt.warp_insns;
    for (unsigned i = 0; i < PIC_COUNT; i++) {
        ctx->iclass_warp[i] += g->cnt.iclass_warp[i];
        ctx->iclass_thread[i] += g->cnt.iclass_thread[i];
    }
    free(g);
    free(params);
    if (!ctx->dev_defer)   /* device printf output and assertion messages, as the kernel completes */
        ws_device_output_flush(ctx, stdout, stderr);
    if (ctx->hook)
        ctx->hook(ctx->hook_user, li);
    return st;
}
