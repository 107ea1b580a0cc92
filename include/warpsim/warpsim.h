/*
 * warpsim.h - public host API.
 *
 * Mirrors the CUDA runtime where it can, so a CUDA host program ports to it
 * line by line:
 *
 *     cudaMalloc(&p, n)                    -> wsMalloc(ctx, &p, n)
 *     cudaMemcpy(d, h, n, HostToDevice)    -> wsMemcpyHtoD(ctx, d, h, n)
 *     cudaMemcpy(h, d, n, DeviceToHost)    -> wsMemcpyDtoH(ctx, h, d, n)
 *     cudaMemset(p, v, n)                  -> wsMemset(ctx, p, v, n)
 *     cudaMemcpyToSymbol(sym, h, n, off)   -> wsMemcpyToSymbol(ctx, mod, "sym", h, n, off)
 *     kernel<<<g, b, smem>>>(a, b, c)      -> void *args[] = {&a, &b, &c};
 *                                             wsLaunchKernel(ctx, mod, "kernel", g, b, smem, args)
 *     cudaCreateTextureObject(...)         -> wsCreateTextureObject(ctx, &tex, &desc)
 *
 * Every call returns a ws_status; on failure wsGetErrorMessage() says why
 * (with file:line:column for PTX, and a memory-checker report for bad
 * accesses).  A context is single-threaded; separate contexts are independent.
 */
#ifndef WARPSIM_H
#define WARPSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ws_ctx ws_ctx;
typedef struct ws_module ws_module;
typedef uint64_t ws_devptr;      /* device (simulated global) address */
typedef uint64_t ws_texobj;      /* texture object handle, 0 = none */

typedef enum ws_status {
    WS_SUCCESS = 0,
    WS_ERROR_INVALID_VALUE,      /* bad argument */
    WS_ERROR_OUT_OF_MEMORY,
    WS_ERROR_INVALID_PTX,        /* parse or validation error, message has file:line:col */
    WS_ERROR_NOT_FOUND,          /* kernel, symbol or file not found */
    WS_ERROR_LAUNCH_FAILED,      /* bad launch configuration or runtime fault */
    WS_ERROR_ILLEGAL_ADDRESS,    /* memory checker: out of bounds / unallocated / misaligned */
    WS_ERROR_DEADLOCK,           /* barrier that can never complete, watchdog */
    WS_ERROR_IO,
    WS_ERROR_UNSUPPORTED,
    WS_ERROR_LIMIT               /* a launch reached a limit of wsSetLimits (instructions, cycles, seconds) */
} ws_status;

typedef struct ws_dim3 { unsigned x, y, z; } ws_dim3;
static inline ws_dim3 ws_dim(unsigned x, unsigned y, unsigned z) { ws_dim3 d = {x, y, z}; return d; }

/* Simulation mode of a context. */
typedef enum ws_mode {
    WS_MODE_FUNCTIONAL = 0,      /* execute kernels functionally, count instructions */
    WS_MODE_TIMING = 1           /* cycle-level timing model (when built in) */
} ws_mode;

typedef struct ws_ctx_opts {
    ws_mode mode;
    int num_sms;                 /* SMs reported through %nsmid and used to assign %smid; 0 = default 15 */
    const char *config_path;     /* timing config file (timing mode), NULL = default preset */
} ws_ctx_opts;

ws_status wsCreate(ws_ctx **ctx, const ws_ctx_opts *opts /* NULL = defaults */);
void wsDestroy(ws_ctx *ctx);
const char *wsGetErrorMessage(const ws_ctx *ctx);   /* message of the last failed call */
const char *wsStatusName(ws_status s);

/* Modules */
ws_status wsModuleLoadFile(ws_ctx *ctx, ws_module **mod, const char *path);
ws_status wsModuleLoadData(ws_ctx *ctx, ws_module **mod, const char *ptx_text, size_t len,
                           const char *name_for_messages);

/* Memory */
ws_status wsMalloc(ws_ctx *ctx, ws_devptr *ptr, size_t bytes);
ws_status wsFree(ws_ctx *ctx, ws_devptr ptr);
ws_status wsMemcpyHtoD(ws_ctx *ctx, ws_devptr dst, const void *src, size_t bytes);
ws_status wsMemcpyDtoH(ws_ctx *ctx, void *dst, ws_devptr src, size_t bytes);
ws_status wsMemcpyDtoD(ws_ctx *ctx, ws_devptr dst, ws_devptr src, size_t bytes);
ws_status wsMemset(ws_ctx *ctx, ws_devptr dst, int value, size_t bytes);
ws_status wsMemcpyToSymbol(ws_ctx *ctx, ws_module *mod, const char *symbol, const void *src,
                           size_t bytes, size_t offset);
ws_status wsMemcpyFromSymbol(ws_ctx *ctx, ws_module *mod, const char *symbol, void *dst,
                             size_t bytes, size_t offset);

/* Textures: a texture object over a linear (1D) or pitched (2D) device buffer.
   Point sampling, unnormalised coordinates, clamp addressing, element reads
   returned as 32-bit values like tex1Dfetch / tex2D on an unfiltered texture. */
typedef enum ws_tex_format { WS_TEX_FLOAT = 0, WS_TEX_SIGNED, WS_TEX_UNSIGNED } ws_tex_format;
typedef struct ws_tex_desc {
    ws_devptr base;
    ws_tex_format format;
    unsigned channels;           /* 1, 2 or 4 */
    unsigned bits_per_channel;   /* 8, 16 or 32 */
    size_t width;                /* elements */
    size_t height;               /* 0 or 1 for 1D */
    size_t pitch_bytes;          /* 2D row pitch, 0 = width * element size */
} ws_tex_desc;
ws_status wsCreateTextureObject(ws_ctx *ctx, ws_texobj *tex, const ws_tex_desc *desc);
ws_status wsDestroyTextureObject(ws_ctx *ctx, ws_texobj tex);

/* Launch.  args[i] points at the value of kernel parameter i (sizes come from
   the kernel's .param declarations), exactly as cudaLaunchKernel. Runs to
   completion before returning (like a launch followed by cudaDeviceSynchronize). */
ws_status wsLaunchKernel(ws_ctx *ctx, ws_module *mod, const char *kernel, ws_dim3 grid,
                         ws_dim3 block, unsigned dynamic_smem_bytes, void **args);

/* Limits that bound a context's launches, so that a kernel that never
   terminates cannot hang the host.  A launch that reaches one stops and fails
   with WS_ERROR_LIMIT; the message names the kernel, the limit and how far it
   got (warp instructions, completed CTAs, cycles).  0 = no limit, the default
   of a new context. */
typedef struct ws_limits {
    uint64_t max_warp_insns;     /* warp instructions per launch */
    uint64_t max_cycles;         /* timing mode: core cycles per launch */
    double max_seconds;          /* host wall-clock seconds spent in launches, summed over the context */
} ws_limits;
ws_status wsSetLimits(ws_ctx *ctx, const ws_limits *limits);
ws_status wsGetLimits(const ws_ctx *ctx, ws_limits *limits);

/* Counters accumulated over every launch of the context. */
typedef struct ws_stats {
    uint64_t kernels_launched;
    uint64_t ctas_executed;
    uint64_t thread_insns;       /* thread instructions: active lanes at issue, as GPGPU-Sim counts */
    uint64_t warp_insns;         /* executed warp instructions */
    uint64_t gpu_cycles;         /* timing mode only, else 0 */
} ws_stats;
ws_status wsGetStats(const ws_ctx *ctx, ws_stats *out);

#ifdef __cplusplus
}
#endif
#endif
