/*
 * cudart_priv.h - the state of warpsim's CUDA runtime library (libcudart.so
 * replacement, docs/cudart.md), shared by the files of src/cudart.
 *
 * A CUDA runtime is process-wide by definition (the program calls plain C
 * functions with no context argument), so this library holds one `struct rt`:
 * the registered fatbinaries, kernels and variables, the launch configuration
 * stack, the error state, and the warpsim context (created at the first call
 * that needs the device; the report is written at exit).  Host programs are
 * expected to call the runtime from one thread at a time.
 */
#ifndef WARPSIM_CUDART_PRIV_H
#define WARPSIM_CUDART_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "cudart_types.h"
#include "warpsim/warpsim.h"

#define CUDART_API __attribute__((visibility("default")))

/* One registered fatbinary (the handle __cudaRegisterFatBinary returns points at it). */
struct rt_fatbin {
    void *self;                  /* the program sees a void **: keep a pointer-sized first member */
    const void *wrapper;         /* __fatBinC_Wrapper_t */
    ws_module *mod;              /* loaded at context creation */
    unsigned arch;               /* compute_XX of the PTX chosen */
    cudaError_t err;             /* why it could not be loaded (cudaSuccess when loaded) */
    char *msg;                   /* ... in words (malloc'ed) */
};

struct rt_func {
    const void *host;            /* the host stub's address: what <<<>>> and cudaLaunchKernel pass */
    struct rt_fatbin *fb;
    char *name;                  /* mangled entry name in the PTX */
};

struct rt_var {
    const void *host;            /* the host shadow variable's address: what cudaMemcpyToSymbol passes */
    struct rt_fatbin *fb;
    char *name;
    size_t size;
    int constant, managed;
};

/* Process-wide state; see the comment at the top. */
struct rt {
    struct rt_fatbin **fbs;
    unsigned nfbs, cap_fbs;
    struct rt_func **funcs;      /* one allocation each: their addresses are the kernel handles (__cudaGetKernel) */
    unsigned nfuncs, cap_funcs;
    struct rt_var *vars;
    unsigned nvars, cap_vars;
    ws_ctx *ctx;                 /* NULL until the first call that needs the device */
    int init_done;
    cudaError_t init_err;
    int timing;
    cudaError_t last_error;      /* cudaGetLastError */
    cudaError_t sticky_error;    /* a kernel fault: every later call fails with it, as on a GPU */
};
extern struct rt cudart_rt;

/* The context, created (and every registered fatbinary loaded) on first use;
   NULL with *err set when that failed. */
ws_ctx *cudart_ctx(cudaError_t *err);
/* Write the device printf output and assertion messages collected so far (stdout, stderr):
   at the synchronisation points where CUDA writes them, at each launch and at exit. */
void cudart_flush(void);
/* Record e as the last error and return it. */
cudaError_t cudart_ret(cudaError_t e);
/* An API call warpsim does not provide: one stderr line naming it, cudaErrorNotSupported. */
cudaError_t cudart_unsupported(const char *call, const char *why);
/* The registered variable / kernel whose host address (shadow variable, stub, or kernel handle) is host. */
const struct rt_var *cudart_find_var(const void *host);
const struct rt_func *cudart_find_func(const void *host);
/* ws_status -> the closest cudaError_t */
cudaError_t cudart_from_ws(ws_status st);
/* The simulated core clock in kHz (0 in functional mode) and the GPU's total cycles so far. */
double cudart_core_khz(void);
uint64_t cudart_gpu_cycles(void);

#endif
