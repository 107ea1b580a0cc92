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
#include <stdio.h>

#include "warpsim/warpsim.h"
#include "fe/ptx/ptx_ir.h"

struct ptx_kinfo;
struct cfg;
struct gpu;

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
    uint64_t thread_insns;       /* lanes whose guard predicate held, summed (GPGPU-Sim's gpu_sim_insn) */
    uint64_t active_lane_insns;  /* lanes active at issue whatever the guard (warpsim_active_lane_insn) */
    uint64_t warp_insns;         /* warp instructions issued */
    uint64_t iclass_warp[PIC_COUNT];   /* warp instructions per enum ptx_iclass */
    uint64_t iclass_thread[PIC_COUNT]; /* lanes active at issue per enum ptx_iclass (sum: active_lane_insns) */
    double wall_seconds;         /* host wall-clock time spent simulating (informational) */
    double cpu_seconds;          /* host CPU time (user + system, every thread of the process) spent
                                    simulating: moves less with other load than wall_seconds */
    uint64_t cycles;             /* timing mode: core cycles of the launch (gpu_sim_cycle), else 0 */
};

/* launch history */
size_t ws_launch_count(const ws_ctx *ctx);
const struct ws_launch_info *ws_launch_get(const ws_ctx *ctx, size_t i);   /* NULL when out of range */
const struct ws_launch_info *ws_last_launch(const ws_ctx *ctx);            /* NULL before the first */
void ws_launch_history_clear(ws_ctx *ctx);
/* Called after every launch (successful or not) with its record. */
typedef void (*ws_launch_hook)(void *user, const struct ws_launch_info *li);
void ws_set_launch_hook(ws_ctx *ctx, ws_launch_hook fn, void *user);

/* Functional mode: run each launch's grid with fn(user, g) instead of the
   executor's own driver (ptx_grid_run), e.g. to observe every executed warp
   instruction (cpu/kernel_trace.h).  fn gets an initialised grid and must run
   every CTA as ptx_grid_run would: 0, or -1 with g->err / g->msg.  NULL (the
   default) restores ptx_grid_run.  Timing mode ignores it. */
struct ptx_grid;
typedef int (*ws_grid_runner)(void *user, struct ptx_grid *g);
void ws_set_grid_runner(ws_ctx *ctx, ws_grid_runner fn, void *user);

/* per-instruction-class totals over every launch of the context (thread: lanes active at issue) */
void ws_iclass_totals(const ws_ctx *ctx, uint64_t warp[PIC_COUNT], uint64_t thread[PIC_COUNT]);

/* The warp-instruction limit alone (wsSetLimits' max_warp_insns): a launch
   fails with WS_ERROR_LIMIT after this many warp instructions (0 = none). */
void ws_set_insn_limit(ws_ctx *ctx, uint64_t warp_insns);

/* The decoded module behind a ws_module (for listings: kernels, params). */
const struct ptx_module *ws_module_ptx(const ws_module *mod);
/* Load-time facts of a kernel (shared layout, stack sizes), NULL if no such entry. */
const struct ptx_kinfo *ws_module_kinfo(const ws_module *mod, const char *kernel);
/* Resource use from `ptxas -v` output (workloads/NAME/NAME.ptxas) for the
   module's kernels: the registers per thread that decide CTA residency in
   timing mode.  wsModuleLoadFile applies FILE.ptxas beside FILE.ptx itself. */
ws_status ws_module_apply_ptxas(ws_module *mod, const char *text, size_t len);
/* The name the module was loaded under (file path or name_for_messages). */
const char *ws_module_name(const ws_module *mod);
/* A module-scope variable by name (the CUDA runtime library's __cudaRegisterVar and
   cudaGetSymbolAddress): its address (device memory for .global, an offset in the
   module's constant bank for .const), its size, and whether it is .const.
   WS_ERROR_NOT_FOUND when the module has no such .global or .const variable. */
ws_status ws_module_symbol(const ws_module *mod, const char *name, ws_devptr *addr, size_t *size, int *is_const);

/* Device memory currently allocated by wsMalloc and module variables, bytes. */
uint64_t ws_mem_in_use(const ws_ctx *ctx);

/* ---- the device library (fe/ptx/ptx_devlib.h): device printf, the device heap, assert ----
   Device printf output and assertion messages collect in the context while kernels run.  By
   default they are written (stdout, stderr) when each launch ends; with ws_device_output_defer
   they wait for ws_device_output_flush (the CUDA runtime flushes at its synchronisation points,
   as CUDA does). */
void ws_device_output_defer(ws_ctx *ctx, int defer);
void ws_device_output_flush(ws_ctx *ctx, FILE *out, FILE *err);
/* Threads that failed an assert, over every launch so far. */
uint64_t ws_device_asserts(const ws_ctx *ctx);
/* The device heap's size (cudaLimitMallocHeapSize, default 8 MiB): WS_ERROR_INVALID_VALUE once the
   heap exists (created at the first launch of a module that calls malloc).  The printf limit
   (cudaLimitPrintfFifoSize, default 1 MiB) bounds the pending printf text. */
ws_status ws_device_set_heap_size(ws_ctx *ctx, uint64_t bytes);
uint64_t ws_device_heap_size(const ws_ctx *ctx);
ws_status ws_device_set_printf_fifo(ws_ctx *ctx, uint64_t bytes);
uint64_t ws_device_printf_fifo(const ws_ctx *ctx);

/* Managed memory: host memory whose host address is also its device address (cudaMallocManaged);
   wsFree frees it.  ws_is_managed: p lies in such an allocation.  ws_module_make_managed moves a
   module's .global variable (a __managed__ one) to such memory with its contents, before any
   launch, and gives its address. */
ws_status ws_malloc_managed(ws_ctx *ctx, ws_devptr *ptr, size_t bytes);
int ws_is_managed(ws_ctx *ctx, ws_devptr p);
ws_status ws_module_make_managed(ws_module *mod, const char *name, ws_devptr *addr);

/* ---- timing mode ---------------------------------------------------------------------
   A timing context owns a struct gpu (sys/gpu.h) built at wsCreate from
   opts->config_path (NULL = the built-in GTX480 defaults, configs/gtx480.config).
   The machine can be rebuilt with another configuration until the first launch. */

/* wsCreate that also explains a failure (bad config file) in msg. */
ws_status ws_create_ex(ws_ctx **ctx, const ws_ctx_opts *opts, char *msg, size_t n);
/* Rebuild the machine from opts->config_path plus `-name value` overrides
   (GPGPU-Sim option names, e.g. "gpgpu_scheduler", "gto").  Unknown names and
   bad values fail with the option named.  Only before the first launch. */
ws_status ws_set_config_overrides(ws_ctx *ctx, unsigned n, const char *const *names, const char *const *values);
/* Rebuild the machine from a config the caller assembled (files, embedded
   presets, overrides).  Unknown options are an error, or with warn_unknown a
   warning line each on `warn`.  Only before the first launch. */
ws_status ws_set_timing_config(ws_ctx *ctx, struct cfg *c, int warn_unknown, FILE *warn);
/* The simulated machine (reports, statistics, outputs); NULL in functional mode. */
struct gpu *ws_gpu(ws_ctx *ctx);
/* Time-series CSV and per-warp CSV of the timing model (NULL = off). */
ws_status ws_set_timing_outputs(ws_ctx *ctx, const char *timeseries_csv, const char *warps_csv);

/* Surface objects for suld.b / sust.b (cudaCreateSurfaceObject over a cudaArray): a pitched
   device buffer described like a texture (format ignored: the instructions move raw bits, and
   their x coordinate counts bytes).  Handles are distinct from texture handles; 0 = none. */
ws_status ws_create_surface_object(ws_ctx *ctx, ws_texobj *surf, const ws_tex_desc *desc);
ws_status ws_destroy_surface_object(ws_ctx *ctx, ws_texobj surf);

#endif
