/*
 * cudart.c - warpsim's CUDA runtime library: the process-wide state, the
 * context created on first use from the environment `warpsim exec` sets, the
 * registration ABI nvcc's host code calls before main (__cudaRegister*), the
 * launch paths (<<<>>> and cudaLaunchKernel), and the report at exit.
 *
 * Environment (set by `warpsim exec`, or by hand; docs/cudart.md):
 *   WARPSIM_CUDART_CONFIG       machine configuration file (gpgpusim.config syntax); default: built-in GTX480
 *   WARPSIM_CUDART_FUNCTIONAL   1: functional simulation (no timing model)
 *   WARPSIM_CUDART_OUTPUT       write the report as JSON to this file instead of text on stderr
 *   WARPSIM_CUDART_TIMESERIES   time-series CSV;  WARPSIM_CUDART_WARPS: per-warp CSV
 *   WARPSIM_CUDART_KERNEL_STATS 1: every kernel's full section in the text report
 *   WARPSIM_CUDART_QUIET        1: no report at all
 *   WARPSIM_CUDART_MAX_WARP_INSNS, WARPSIM_CUDART_MAX_CYCLES, WARPSIM_CUDART_MAX_SECONDS: launch limits
 */
#include "cudart_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/arena.h"
#include "core/config.h"
#include "core/version.h"
#include "fe/ptx/ptx_exec.h"
#include "fe/ptx/ptx_ir.h"
#include "fatbin.h"
#include "host/ws_internal.h"
#include "sys/gpu.h"
#include "sys/gpu_config.h"

struct rt cudart_rt;

#define RT (&cudart_rt)
#define MAX_KSTATS 64

/* per-kernel sums for the report (kernel names in launch order) */
struct rt_kstat {
    char name[256];
    uint64_t launches, ctas, thread_insns, warp_insns, cycles;
};
static struct rt_kstat kstats[MAX_KSTATS];
static unsigned nkstats;
static ws_status first_fail = WS_SUCCESS;
static char first_fail_msg[1024];

static void *grow(void *p, unsigned *cap, unsigned need, size_t elem)
{
    if (need <= *cap)
        return p;
    unsigned nc = *cap ? *cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    void *q = realloc(p, (size_t)nc * elem);
    if (q)
        *cap = nc;
    return q;
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

cudaError_t cudart_ret(cudaError_t e)
{
    if (e != cudaSuccess)
        RT->last_error = e;
    return e;
}

cudaError_t cudart_unsupported(const char *call, const char *why)
{
    if (why)
        fprintf(stderr, "warpsim cudart: %s: not supported by warpsim: %s (returning cudaErrorNotSupported)\n", call,
                why);
    else
        fprintf(stderr, "warpsim cudart: %s is not supported by warpsim (returning cudaErrorNotSupported)\n", call);
    return cudart_ret(cudaErrorNotSupported);
}

cudaError_t cudart_from_ws(ws_status st)
{
    switch (st) {
    case WS_SUCCESS: return cudaSuccess;
    case WS_ERROR_INVALID_VALUE: return cudaErrorInvalidValue;
    case WS_ERROR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case WS_ERROR_INVALID_PTX: return cudaErrorInvalidPtx;
    case WS_ERROR_NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case WS_ERROR_LAUNCH_FAILED: return cudaErrorLaunchFailure;
    case WS_ERROR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case WS_ERROR_DEADLOCK: return cudaErrorLaunchTimeout;
    case WS_ERROR_IO: return cudaErrorUnknown;
    case WS_ERROR_UNSUPPORTED: return cudaErrorNotSupported;
    case WS_ERROR_LIMIT: return cudaErrorLaunchTimeout;
    }
    return cudaErrorUnknown;
}

double cudart_core_khz(void)
{
    struct gpu *g = ws_gpu(RT->ctx);
    return g && gpu_config(g)->ps_core ? 1e9 / (double)gpu_config(g)->ps_core : 0;
}

uint64_t cudart_gpu_cycles(void)
{
    struct gpu *g = ws_gpu(RT->ctx);
    return g ? gpu_total_cycles(g) : 0;
}

/* ---- the context ------------------------------------------------------------------ */

static void on_launch(void *user, const struct ws_launch_info *li)
{
    (void)user;
    struct rt_kstat *k = NULL;
    for (unsigned i = 0; i < nkstats && !k; i++)
        if (strcmp(kstats[i].name, li->kernel) == 0)
            k = &kstats[i];
    if (!k && nkstats < MAX_KSTATS) {
        k = &kstats[nkstats++];
        snprintf(k->name, sizeof k->name, "%s", li->kernel);
    }
    if (k) {
        k->launches++;
        k->ctas += li->ctas;
        k->thread_insns += li->thread_insns;
        k->warp_insns += li->warp_insns;
        k->cycles += li->cycles;
    }
}

static void load_fatbin(struct rt_fatbin *fb)
{
    char msg[1024];
    const uint8_t *w = fb->wrapper;
    uint32_t magic = 0;
    if (w)
        memcpy(&magic, w, sizeof magic);
    const void *data = NULL;
    if (magic == FATBIN_WRAPPER_MAGIC)
        memcpy(&data, w + 8, sizeof data);
    else if (magic == FATBIN_MAGIC)   /* a bare container */
        data = w;
    size_t size = data ? fatbin_container_size(data, 0) : 0;
    struct fatbin_list *l = calloc(1, sizeof *l);
    char *ptx = NULL;
    size_t len = 0;
    if (!size)
        snprintf(msg, sizeof msg, "the registered fatbinary is not one warpsim can read (wrapper magic 0x%08x)", magic);
    else if (!l)
        snprintf(msg, sizeof msg, "out of host memory");
    else if (fatbin_list(data, size, l, msg, sizeof msg) == 0)
        ptx = fatbin_pick_ptx(l, FATBIN_MAX_ARCH, &len, &fb->arch, msg, sizeof msg);
    free(l);
    if (!ptx) {
        fb->err = cudaErrorNoKernelImageForDevice;
        fb->msg = strdup(msg);
        fprintf(stderr, "warpsim cudart: %s\n", msg);
        return;
    }
    char name[64];
    snprintf(name, sizeof name, "<program PTX, compute_%u>", fb->arch);
    ws_status st = wsModuleLoadData(RT->ctx, &fb->mod, ptx, len, name);
    free(ptx);
    if (st != WS_SUCCESS) {
        fb->err = st == WS_ERROR_INVALID_PTX ? cudaErrorInvalidPtx : cudart_from_ws(st);
        snprintf(msg, sizeof msg, "the program's PTX (compute_%u) does not load: %s", fb->arch,
                 wsGetErrorMessage(RT->ctx));
        fb->msg = strdup(msg);
        fprintf(stderr, "warpsim cudart: %s\n", msg);
        fb->mod = NULL;
    }
}

static int env_u64(const char *name, uint64_t *out)
{
    const char *v = env(name);
    if (!v)
        return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || v[0] == '-') {
        fprintf(stderr, "warpsim cudart: %s=%s is not a non-negative integer; ignored\n", name, v);
        return 0;
    }
    *out = x;
    return 1;
}

static void report_at_exit(void);

/* __managed__ variables of fatbinary fb (NULL: every one): moved to host-aliased memory
   (ws_module_make_managed) and their host pointers (nvcc's `static T *var` behind the shadow)
   aimed at it, so host and device read and write the same bytes. */
static void bind_managed(const struct rt_fatbin *fb)
{
    for (unsigned i = 0; i < RT->nvars; i++) {
        struct rt_var *v = &RT->vars[i];
        if (!v->managed || (fb && v->fb != fb) || !v->fb || !v->fb->mod || !v->host)
            continue;
        ws_devptr a = 0;
        if (ws_module_make_managed(v->fb->mod, v->name, &a) != WS_SUCCESS) {
            fprintf(stderr, "warpsim cudart: __managed__ variable %s: %s\n", v->name, wsGetErrorMessage(RT->ctx));
            continue;
        }
        void **slot = (void **)(uintptr_t)v->host;
        *slot = (void *)(uintptr_t)a;
    }
}

void cudart_flush(void)
{
    if (RT->ctx)
        ws_device_output_flush(RT->ctx, stdout, stderr);
}

static cudaError_t create_ctx(void)
{
    ws_ctx_opts o = {0};
    const char *fun = env("WARPSIM_CUDART_FUNCTIONAL");
    RT->timing = !(fun && strcmp(fun, "0") != 0);
    o.mode = RT->timing ? WS_MODE_TIMING : WS_MODE_FUNCTIONAL;
    char msg[2048];
    ws_status st = ws_create_ex(&RT->ctx, &o, msg, sizeof msg);
    if (st != WS_SUCCESS) {
        fprintf(stderr, "warpsim cudart: cannot create the simulated GPU: %s\n", msg[0] ? msg : wsStatusName(st));
        return cudaErrorInitializationError;
    }
    const char *cfgpath = env("WARPSIM_CUDART_CONFIG");
    if (RT->timing && cfgpath) {
        struct arena *a = arena_new(0);
        struct cfg c;
        struct cfg_error e;
        memset(&e, 0, sizeof e);
        st = WS_ERROR_OUT_OF_MEMORY;
        if (a) {
            cfg_init(&c, a);
            if (cfg_load_file(&c, cfgpath, &e) != 0) {
                cfg_error_format(&e, msg, sizeof msg);
                fprintf(stderr, "warpsim cudart: WARPSIM_CUDART_CONFIG: %s\n", msg);
                st = WS_ERROR_INVALID_VALUE;
            } else {
                st = ws_set_timing_config(RT->ctx, &c, 0, stderr);
                if (st != WS_SUCCESS)
                    fprintf(stderr, "warpsim cudart: WARPSIM_CUDART_CONFIG %s: %s\n", cfgpath,
                            wsGetErrorMessage(RT->ctx));
            }
            arena_free(a);
        }
        if (st != WS_SUCCESS) {
            wsDestroy(RT->ctx);
            RT->ctx = NULL;
            return cudaErrorInitializationError;
        }
    }
    const char *ts = env("WARPSIM_CUDART_TIMESERIES"), *wp = env("WARPSIM_CUDART_WARPS");
    if (RT->timing && (ts || wp) && ws_set_timing_outputs(RT->ctx, ts, wp) != WS_SUCCESS)
        fprintf(stderr, "warpsim cudart: %s (time series / per-warp file not written)\n", wsGetErrorMessage(RT->ctx));
    ws_limits lim = {2000000000ull, 0, 14400};   /* `warpsim run`'s defaults */
    uint64_t v;
    if (env_u64("WARPSIM_CUDART_MAX_WARP_INSNS", &v))
        lim.max_warp_insns = v;
    if (env_u64("WARPSIM_CUDART_MAX_CYCLES", &v))
        lim.max_cycles = v;
    if (env_u64("WARPSIM_CUDART_MAX_SECONDS", &v))
        lim.max_seconds = (double)v;
    wsSetLimits(RT->ctx, &lim);
    ws_set_launch_hook(RT->ctx, on_launch, NULL);
    /* device printf output waits for a synchronisation point, as CUDA's does */
    ws_device_output_defer(RT->ctx, 1);
    for (unsigned i = 0; i < RT->nfbs; i++)
        if (RT->fbs[i] && !RT->fbs[i]->mod && !RT->fbs[i]->msg)
            load_fatbin(RT->fbs[i]);
    bind_managed(NULL);
    atexit(report_at_exit);
    return cudaSuccess;
}

ws_ctx *cudart_ctx(cudaError_t *err)
{
    if (!RT->init_done) {
        RT->init_done = 1;
        RT->init_err = create_ctx();
    }
    *err = RT->ctx ? (RT->sticky_error ? RT->sticky_error : cudaSuccess) : RT->init_err;
    return RT->ctx;
}

/* ---- the report at exit ---------------------------------------------------------- */

static void cmdline(char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return;
    size_t got = fread(buf, 1, n - 1, f);
    fclose(f);
    buf[got] = '\0';
    for (size_t i = 0; i + 1 < got; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
}

static void write_json(FILE *f, const char *cmd, const char *report_json)
{
    ws_stats s;
    wsGetStats(RT->ctx, &s);
    struct json j;
    json_begin(&j, f);
    json_str(&j, "warpsim_version", warpsim_version);
    json_str(&j, "warpsim_commit", warpsim_commit);
    json_str(&j, "command", cmd);
    json_str(&j, "mode", RT->timing ? "timing" : "functional");
    if (RT->timing)
        json_str(&j, "config", env("WARPSIM_CUDART_CONFIG") ? env("WARPSIM_CUDART_CONFIG") : "gtx480 (built-in defaults)");
    json_str(&j, "status", wsStatusName(first_fail));
    if (first_fail != WS_SUCCESS)
        json_str(&j, "error", first_fail_msg);
    json_obj(&j, "stats");
    json_u64(&j, "kernels_launched", s.kernels_launched);
    json_u64(&j, "ctas_executed", s.ctas_executed);
    json_u64(&j, "gpu_sim_insn", s.thread_insns);
    json_u64(&j, "gpu_sim_warp_insn", s.warp_insns);
    json_u64(&j, "gpu_sim_cycle", s.gpu_cycles);
    json_close(&j);
    json_arr(&j, "kernels");
    for (unsigned i = 0; i < nkstats; i++) {
        json_obj(&j, NULL);
        json_str(&j, "name", kstats[i].name);
        json_u64(&j, "launches", kstats[i].launches);
        json_u64(&j, "ctas", kstats[i].ctas);
        json_u64(&j, "gpu_sim_insn", kstats[i].thread_insns);
        json_u64(&j, "gpu_sim_warp_insn", kstats[i].warp_insns);
        json_u64(&j, "gpu_sim_cycle", kstats[i].cycles);
        json_close(&j);
    }
    json_close(&j);
    if (report_json)
        json_raw_obj(&j, "timing", report_json);
    json_end(&j);
}

static void report_at_exit(void)
{
    cudart_flush();   /* what the last kernels printed, if the program did not synchronise */
    const char *q = env("WARPSIM_CUDART_QUIET");
    if (!RT->ctx || (q && strcmp(q, "0") != 0))
        return;
    struct gpu *g = ws_gpu(RT->ctx);
    const char *out = env("WARPSIM_CUDART_OUTPUT");
    char cmd[2048];
    cmdline(cmd, sizeof cmd);
    if (out) {
        char *rj = NULL;
        size_t rl = 0;
        if (g) {
            FILE *m = open_memstream(&rj, &rl);
            if (m) {
                gpu_report_json(g, m, 2);
                fclose(m);
            }
        }
        FILE *f = fopen(out, "w");
        if (!f) {
            fprintf(stderr, "warpsim cudart: WARPSIM_CUDART_OUTPUT %s: cannot write: %s\n", out, strerror(errno));
        } else {
            write_json(f, cmd, rj);
            if (fclose(f) != 0)
                fprintf(stderr, "warpsim cudart: WARPSIM_CUDART_OUTPUT %s: write failed\n", out);
        }
        free(rj);
    } else {
        ws_stats s;
        wsGetStats(RT->ctx, &s);
        fprintf(stderr, "\n==== warpsim: %s (%s) ====\n", cmd, RT->timing ? "timing" : "functional");
        if (first_fail != WS_SUCCESS)
            fprintf(stderr, "status = %s\n", wsStatusName(first_fail));
        fprintf(stderr, "kernels_launched = %" PRIu64 "\nctas_executed = %" PRIu64 "\ngpu_sim_insn = %" PRIu64
                        "\ngpu_sim_warp_insn = %" PRIu64 "\n",
                s.kernels_launched, s.ctas_executed, s.thread_insns, s.warp_insns);
        if (RT->timing)
            fprintf(stderr, "gpu_tot_sim_cycle = %" PRIu64 "\n", s.gpu_cycles);
        for (unsigned i = 0; i < nkstats; i++)
            fprintf(stderr, "kernel %s: launches = %" PRIu64 ", ctas = %" PRIu64 ", gpu_sim_insn = %" PRIu64
                            ", gpu_sim_warp_insn = %" PRIu64 "\n",
                    kstats[i].name, kstats[i].launches, kstats[i].ctas, kstats[i].thread_insns, kstats[i].warp_insns);
        if (g) {
            const char *pk = env("WARPSIM_CUDART_KERNEL_STATS");
            fprintf(stderr, "\n==== timing statistics ====\n");
            gpu_report_text_ex(g, stderr, pk && strcmp(pk, "0") != 0);
        }
    }
    fflush(stderr);
}

/* ---- registration (called by nvcc's host code before main) ------------------------ */

CUDART_API void **__cudaRegisterFatBinary(void *fatCubin)
{
    struct rt_fatbin *fb = calloc(1, sizeof *fb);
    struct rt_fatbin **fbs = grow(RT->fbs, &RT->cap_fbs, RT->nfbs + 1, sizeof *RT->fbs);
    if (!fb || !fbs) {
        fprintf(stderr, "warpsim cudart: out of host memory registering a fatbinary\n");
        free(fb);
        return NULL;
    }
    RT->fbs = fbs;
    fb->self = fb;
    fb->wrapper = fatCubin;
    RT->fbs[RT->nfbs++] = fb;
    if (RT->ctx)   /* a library registered after the context exists */
        load_fatbin(fb);
    return (void **)fb;
}

CUDART_API void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

CUDART_API void __cudaUnregisterFatBinary(void **handle)
{
    /* the module stays loaded until the process ends (the report at exit reads the context) */
    (void)handle;
}

/* Called by nvcc's host code at the first host access to a __managed__ variable: the device
   (and the variable's memory) must exist from then on. */
CUDART_API char __cudaInitModule(void **handle)
{
    cudaError_t e;
    if (!cudart_ctx(&e))
        return 0;
    bind_managed((const struct rt_fatbin *)handle);
    return 1;
}

CUDART_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                                       int thread_limit, void *tid, void *bid, void *bDim, void *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    struct rt_func **fs = grow(RT->funcs, &RT->cap_funcs, RT->nfuncs + 1, sizeof *RT->funcs);
    struct rt_func *f = calloc(1, sizeof *f);
    char *name = strdup(deviceName ? deviceName : "");
    if (!fs || !f || !name) {
        fprintf(stderr, "warpsim cudart: out of host memory registering kernel %s\n", deviceName ? deviceName : "?");
        free(f);
        free(name);
        if (fs)
            RT->funcs = fs;
        return;
    }
    RT->funcs = fs;
    f->host = hostFun;
    f->fb = (struct rt_fatbin *)handle;
    f->name = name;
    RT->funcs[RT->nfuncs++] = f;
}

static void register_var(void **handle, const void *host, const char *name, size_t size, int constant, int managed)
{
    struct rt_var *v = grow(RT->vars, &RT->cap_vars, RT->nvars + 1, sizeof *RT->vars);
    if (!v)
        return;
    RT->vars = v;
    v = &RT->vars[RT->nvars];
    v->host = host;
    v->fb = (struct rt_fatbin *)handle;
    v->name = strdup(name ? name : "");
    v->size = size;
    v->constant = constant;
    v->managed = managed;
    if (v->name)
        RT->nvars++;
}

CUDART_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                                  size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    register_var(handle, hostVar, deviceName, size, constant, 0);
}

CUDART_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                         const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    register_var(handle, hostVarPtrAddress, deviceName, size, constant, 1);
}

CUDART_API void __cudaRegisterTexture(void **handle, const void *hostVar, const void **deviceAddress,
                                      const char *deviceName, int dim, int norm, int ext)
{
    (void)handle, (void)hostVar, (void)deviceAddress, (void)dim, (void)norm, (void)ext;
    fprintf(stderr, "warpsim cudart: texture reference '%s' is not supported by warpsim (texture objects are the "
                    "supported form; its use will fail)\n", deviceName ? deviceName : "?");
}

CUDART_API void __cudaRegisterSurface(void **handle, const void *hostVar, const void **deviceAddress,
                                      const char *deviceName, int dim, int ext)
{
    (void)handle, (void)hostVar, (void)deviceAddress, (void)dim, (void)ext;
    fprintf(stderr, "warpsim cudart: surface reference '%s' is not supported by warpsim (its use will fail)\n",
            deviceName ? deviceName : "?");
}

const struct rt_var *cudart_find_var(const void *host)
{
    for (unsigned i = 0; i < RT->nvars; i++)
        if (RT->vars[i].host == host)
            return &RT->vars[i];
    return NULL;
}

const struct rt_func *cudart_find_func(const void *host)
{
    for (unsigned i = 0; i < RT->nfuncs; i++)
        if (RT->funcs[i]->host == host || (const void *)RT->funcs[i] == host)
            return RT->funcs[i];
    return NULL;
}

/* ---- launches ------------------------------------------------------------------------ */

#define MAX_CONFIG_DEPTH 32
static struct {
    cudart_dim3 grid, block;
    size_t shmem;
    void *stream;
} config_stack[MAX_CONFIG_DEPTH];
static unsigned config_depth;

CUDART_API unsigned __cudaPushCallConfiguration(cudart_dim3 grid, cudart_dim3 block, size_t shmem, void *stream)
{
    if (config_depth == MAX_CONFIG_DEPTH)
        return (unsigned)cudart_ret(cudaErrorInvalidConfiguration);
    config_stack[config_depth].grid = grid;
    config_stack[config_depth].block = block;
    config_stack[config_depth].shmem = shmem;
    config_stack[config_depth].stream = stream;
    config_depth++;
    return 0;
}

CUDART_API cudaError_t __cudaPopCallConfiguration(cudart_dim3 *grid, cudart_dim3 *block, size_t *shmem, void *stream)
{
    if (!config_depth)
        return cudart_ret(cudaErrorMissingConfiguration);
    config_depth--;
    *grid = config_stack[config_depth].grid;
    *block = config_stack[config_depth].block;
    *shmem = config_stack[config_depth].shmem;
    memcpy(stream, &config_stack[config_depth].stream, sizeof(void *));
    return cudaSuccess;
}

static cudaError_t launch(const struct rt_func *f, cudart_dim3 grid, cudart_dim3 block, void **args, size_t shmem)
{
    cudaError_t e;
    ws_ctx *ctx = cudart_ctx(&e);
    if (!ctx || e != cudaSuccess)
        return cudart_ret(e);
    if (!f)
        return cudart_ret(cudaErrorInvalidDeviceFunction);
    if (!f->fb || !f->fb->mod) {
        fprintf(stderr, "warpsim cudart: cannot launch %s: %s\n", f->name,
                f->fb && f->fb->msg ? f->fb->msg : "its fatbinary was not loaded");
        return cudart_ret(f->fb && f->fb->err ? f->fb->err : cudaErrorNoKernelImageForDevice);
    }
    if (shmem > UINT32_MAX)
        return cudart_ret(cudaErrorInvalidValue);
    ws_dim3 g = {grid.x, grid.y, grid.z}, b = {block.x, block.y, block.z};
    /* CUDA writes the device printf output of earlier kernels when a launch starts */
    cudart_flush();
    /* the history only tells whether this launch passed validation (the report sums in on_launch) */
    ws_launch_history_clear(ctx);
    uint64_t asserts = ws_device_asserts(ctx);
    ws_status st = wsLaunchKernel(ctx, f->fb->mod, f->name, g, b, (unsigned)shmem, args);
    if (st == WS_SUCCESS)
        return cudaSuccess;
    int ran = ws_launch_count(ctx) > 0;
    const char *m = wsGetErrorMessage(ctx);
    if (ran && ws_device_asserts(ctx) != asserts) {
        /* a device-side assert: its messages come out at the next synchronisation, which (like every
           later call) returns cudaErrorAssert; the launch itself succeeded, as an asynchronous one does */
        if (first_fail == WS_SUCCESS) {
            first_fail = st;
            snprintf(first_fail_msg, sizeof first_fail_msg, "%s: %s", f->name, m);
        }
        RT->sticky_error = cudaErrorAssert;
        return cudaSuccess;
    }
    fprintf(stderr, "warpsim cudart: kernel %s<<<(%u,%u,%u),(%u,%u,%u),%zu>>> failed (%s): %s\n", f->name, grid.x,
            grid.y, grid.z, block.x, block.y, block.z, shmem, wsStatusName(st), m);
    if (first_fail == WS_SUCCESS) {
        first_fail = st;
        snprintf(first_fail_msg, sizeof first_fail_msg, "%s: %s", f->name, m);
    }
    e = cudart_from_ws(st);
    if (ran)   /* a fault inside the kernel poisons the context, as on a GPU */
        RT->sticky_error = e;
    else if (st == WS_ERROR_LAUNCH_FAILED)   /* rejected before it ran: a bad configuration */
        e = cudaErrorInvalidConfiguration;
    return cudart_ret(e);
}

CUDART_API cudaError_t cudaLaunchKernel(const void *func, cudart_dim3 grid, cudart_dim3 block, void **args,
                                        size_t shmem, void *stream)
{
    (void)stream;
    return launch(cudart_find_func(func), grid, block, args, shmem);
}

CUDART_API cudaError_t __cudaGetKernel(void **kernel, const void *func)
{
    const struct rt_func *f = cudart_find_func(func);
    if (!kernel)
        return cudart_ret(cudaErrorInvalidValue);
    *kernel = (void *)f;
    return f ? cudaSuccess : cudart_ret(cudaErrorInvalidDeviceFunction);
}

CUDART_API cudaError_t __cudaLaunchKernel(void *kernel, cudart_dim3 grid, cudart_dim3 block, void **args, size_t shmem,
                                          void *stream)
{
    (void)stream;
    return launch(cudart_find_func(kernel), grid, block, args, shmem);
}

CUDART_API cudaError_t __cudaLaunchKernel_ptsz(void *kernel, cudart_dim3 grid, cudart_dim3 block, void **args,
                                               size_t shmem, void *stream)
{
    return __cudaLaunchKernel(kernel, grid, block, args, shmem, stream);
}

CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void *func, cudart_dim3 grid, cudart_dim3 block, void **args,
                                             size_t shmem, void *stream)
{
    return cudaLaunchKernel(func, grid, block, args, shmem, stream);
}

/* cudaFuncGetAttributes: the kernel's resources as warpsim sees them */
CUDART_API cudaError_t cudaFuncGetAttributes(struct cudart_func_attributes *attr, const void *func)
{
    cudaError_t e;
    ws_ctx *ctx = cudart_ctx(&e);
    if (!ctx || e != cudaSuccess)
        return cudart_ret(e);
    const struct rt_func *f = cudart_find_func(func);
    if (!attr || !f)
        return cudart_ret(!attr ? cudaErrorInvalidValue : cudaErrorInvalidDeviceFunction);
    if (!f->fb->mod)
        return cudart_ret(f->fb->err ? f->fb->err : cudaErrorNoKernelImageForDevice);
    memset(attr, 0, sizeof *attr);
    const struct ptx_module *pm = ws_module_ptx(f->fb->mod);
    int fi = ptx_find_func(pm, f->name);
    const struct ptx_kinfo *ki = ws_module_kinfo(f->fb->mod, f->name);
    if (fi < 0 || !ki)
        return cudart_ret(cudaErrorInvalidDeviceFunction);
    attr->sharedSizeBytes = (size_t)ki->shared_static;
    attr->localSizeBytes = (size_t)ki->local_bytes;
    attr->maxThreadsPerBlock = 1024;
    /* the registers warpsim's timing model allocates (src/gpu/sm.c): ptxas's count, else the PTX's capped at 63 */
    attr->numRegs = (int)(pm->funcs[fi].ptxas_regs ? pm->funcs[fi].ptxas_regs
                                                   : (pm->funcs[fi].nregs < 63 ? pm->funcs[fi].nregs : 63));
    attr->ptxVersion = (int)(pm->version_major * 10 + pm->version_minor);
    attr->binaryVersion = (int)f->fb->arch;
    attr->maxDynamicSharedSizeBytes = 48 * 1024 - (int)ki->shared_static;
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

/* The occupancy calculator: CTAs of `func` that fit on one SM of the simulated machine, by the rule the
   timing model applies (src/gpu/sm.c: warps, threads, CTA slots, registers in units of 4 per thread,
   shared memory). */
CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num, const void *func, int block,
                                                                             size_t dyn_smem, unsigned flags)
{
    (void)flags;
    struct cudart_func_attributes fa;
    if (!num || block <= 0)
        return cudart_ret(cudaErrorInvalidValue);
    cudaError_t e = cudaFuncGetAttributes(&fa, func);
    if (e != cudaSuccess)
        return e;
    struct gpu *g = ws_gpu(RT->ctx);
    const struct gpu_config *c = g ? gpu_config(g) : NULL;
    uint64_t warp = c && c->warp_size ? c->warp_size : 32, max_threads = c ? c->max_threads_per_core : 1536;
    uint64_t max_warps = c ? c->max_warps_per_core : 48, ctas = c ? c->max_cta_per_core : 8;
    uint64_t regs_sm = c ? c->registers_per_core : 32768, smem_sm = c ? c->shmem_size : 48 * 1024;
    uint64_t warps = ((uint64_t)block + warp - 1) / warp, padded = warps * warp;
    uint64_t regs = (((uint64_t)fa.numRegs + 3u) & ~(uint64_t)3u) * padded;
    uint64_t smem = fa.sharedSizeBytes + dyn_smem;
    uint64_t n = ctas;
    if (padded > max_threads || warps > max_warps) {
        n = 0;
    } else {
        n = n < max_threads / padded ? n : max_threads / padded;
        n = n < max_warps / warps ? n : max_warps / warps;
        if (regs)
            n = n < regs_sm / regs ? n : regs_sm / regs;
        if (smem)
            n = n < smem_sm / smem ? n : smem_sm / smem;
    }
    *num = (int)n;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num, const void *func, int block,
                                                                     size_t dyn_smem)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num, func, block, dyn_smem, 0);
}
