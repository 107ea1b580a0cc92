/*
 * ws_internal.h - extra information from a context for tools inside warpsim
 * (the CLI, tests): per-launch records, per-instruction-class counts, the
 * decoded module, a watchdog.  Not part of the public API (warpsim.h).
 *
 * Every launch that passes wsLaunchKernel's validation (kernel found,
 * configuration and arguments valid) appends one struct ws_launch_info to the
 * context's history, in order, also when it then fails at run time (memory
 * checker, deadlock, trap): its status says so.
 * The records live as long as the context or until ws_launch_history_clear.
 */
#ifndef WARPSIM_WS_INTERNAL_H
#define WARPSIM_WS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "warpsim/warpsim.h"
#include "fe/ptx/ptx_ir.h"

struct ptx_kinfo;

struct ws_launch_info {
    char kernel[256];            /* kernel (entry) name */
    const ws_module *mod;
    ws_dim3 grid, block;
    unsigned dynamic_smem;       /* bytes requested at launch */
    uint64_t static_smem;        /* bytes of static __shared__ variables the kernel uses */
    uint32_t regs_per_thread;    /* .reg registers the kernel declares (PTX virtual registers) */
    uint64_t local_bytes;        /* per-thread local stack (deepest call chain) */
    ws_status status;            /* WS_SUCCESS or why the launch failed */
    uint64_t ctas;               /* CTAs that ran to completion */
    uint64_t thread_insns;       /* active lanes at issue, summed (GPGPU-Sim's gpu_sim_insn) */
    uint64_t warp_insns;         /* warp instructions issued */
    uint64_t iclass_warp[PIC_COUNT];   /* warp instructions per enum ptx_iclass */
    uint64_t iclass_thread[PIC_COUNT]; /* thread instructions per enum ptx_iclass */
    double wall_seconds;         /* host time spent simulating (informational) */
};

/* launch history */
size_t ws_launch_count(const ws_ctx *ctx);
const struct ws_launch_info *ws_launch_get(const ws_ctx *ctx, size_t i);   /* NULL when out of range */
const struct ws_launch_info *ws_last_launch(const ws_ctx *ctx);            /* NULL before the first */
void ws_launch_history_clear(ws_ctx *ctx);
/* Called after every launch (successful or not) with its record. */
typedef void (*ws_launch_hook)(void *user, const struct ws_launch_info *li);
void ws_set_launch_hook(ws_ctx *ctx, ws_launch_hook fn, void *user);

/* per-instruction-class totals over every launch of the context */
void ws_iclass_totals(const ws_ctx *ctx, uint64_t warp[PIC_COUNT], uint64_t thread[PIC_COUNT]);

/* Watchdog: a launch fails with WS_ERROR_DEADLOCK after this many warp
   instructions (0 = no limit, the default). */
void ws_set_insn_limit(ws_ctx *ctx, uint64_t warp_insns);

/* The decoded module behind a ws_module (for listings: kernels, params). */
const struct ptx_module *ws_module_ptx(const ws_module *mod);
/* Load-time facts of a kernel (shared layout, stack sizes), NULL if no such entry. */
const struct ptx_kinfo *ws_module_kinfo(const ws_module *mod, const char *kernel);
/* The name the module was loaded under (file path or name_for_messages). */
const char *ws_module_name(const ws_module *mod);

/* Device memory currently allocated by wsMalloc and module variables, bytes. */
uint64_t ws_mem_in_use(const ws_ctx *ctx);

#endif
