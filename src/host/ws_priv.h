/*
 * ws_priv.h - the context and module structures behind the public API,
 * shared by the src/host/ws_*.c files only.
 *
 * Ownership: a ws_ctx owns its device memory (struct ptx_mem), every module
 * loaded into it (freed by wsDestroy), and its launch history.
 */
#ifndef WARPSIM_WS_PRIV_H
#define WARPSIM_WS_PRIV_H

#include <stdarg.h>

#include "ws_internal.h"
#include "fe/ptx/ptx_devlib.h"
#include "fe/ptx/ptx_exec.h"
#include "fe/ptx/ptx_mem.h"
#include "sys/gpu.h"

#define WS_DEFAULT_SMS 15
#define WS_MAX_SMEM (48u * 1024u)

struct ws_module {
    ws_ctx *ctx;
    struct ws_module *next;
    char *name;
    struct ptx_module *pm;
    uint8_t *cbank;              /* the module's constant space */
    uint64_t cbank_size;
    struct ptx_kinfo *kinfo;     /* [pm->nfuncs]; filled for entries (func >= 0) */
};

struct ws_ctx {
    ws_ctx_opts opts;
    uint32_t num_sms;
    struct ptx_mem mem;
    struct ws_module *mods;
    ws_stats stats;
    uint64_t iclass_warp[PIC_COUNT], iclass_thread[PIC_COUNT];
    struct ws_launch_info *launches;
    size_t nlaunches, cap_launches;
    ws_launch_hook hook;
    void *hook_user;
    ws_grid_runner grid_runner;  /* ws_set_grid_runner: functional mode's grid driver, NULL = ptx_grid_run */
    void *grid_runner_user;
    ws_limits limits;            /* wsSetLimits */
    double launch_seconds;       /* host seconds spent in launches so far (the max_seconds budget) */
    uint32_t gridid;
    struct gpu *gpu;             /* timing mode: the simulated machine */
    struct ptx_devlib dev;       /* device printf output, heap, asserts (ptx_devlib.h) */
    int dev_defer;               /* 1: device output waits for ws_device_output_flush (CUDA runtime) */
    uint64_t managed_next;       /* where the next managed allocation is mapped (ws_memory.c) */
    char err[16384];             /* large enough for a watchdog's state dump */
};

/* Record the message of a failed call and return st. */
ws_status ws_fail(ws_ctx *ctx, ws_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A host-aliased allocation (device address = host address), label as ptx_mem_alloc's.
   ws_mem_unmap_managed releases the host mapping of allocation i (before ptx_mem frees it). */
int ws_mem_alloc_managed(ws_ctx *ctx, uint64_t size, const char *label, uint64_t *addr);
void ws_mem_unmap_managed(ws_ctx *ctx, size_t i);

/* Free a module and everything it owns (not its device variables). */
void ws_module_free(ws_module *m);

/* Symbol of a module by name: module scope .global or .const, else NULL. */
const struct ptx_sym *ws_module_sym(const ws_module *mod, const char *name);

#endif
