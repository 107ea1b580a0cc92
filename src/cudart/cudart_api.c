/*
 * cudart_api.c - the CUDA runtime calls on top of warpsim's host API: memory
 * and copies, symbols, the device and its properties (from the simulated
 * machine's configuration), streams and events (in order; every operation
 * completes before the call returns, and events read the simulated clock),
 * errors, and the calls warpsim does not provide (cudaErrorNotSupported).
 */
#include "cudart_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe/ptx/ptx_mem.h"
#include "host/ws_internal.h"
#include "mem/cache.h"
#include "sys/gpu.h"

#define RT (&cudart_rt)


/* the context, or return the error (initialisation failure, sticky fault) */
#define NEED_CTX(ctx)                       \
    cudaError_t e_;                         \
    ws_ctx *ctx = cudart_ctx(&e_);          \
    if (!ctx || e_ != cudaSuccess)          \
        return cudart_ret(e_)

static cudaError_t ws_call(ws_ctx *ctx, const char *call, ws_status st)
{
    if (st == WS_SUCCESS)
        return cudaSuccess;
    fprintf(stderr, "warpsim cudart: %s: %s\n", call, wsGetErrorMessage(ctx));
    cudaError_t e = cudart_from_ws(st);
    return cudart_ret(e == cudaErrorInvalidValue ? cudaErrorInvalidValue : e);
}

static ws_devptr dp(const void *p) { return (ws_devptr)(uintptr_t)p; }
static int is_device(const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return a >= PTX_GLOBAL_BASE && a < PTX_GLOBAL_BASE + PTX_GLOBAL_LIMIT;
}

/* ---- memory ------------------------------------------------------------------------ */

CUDART_API cudaError_t cudaMalloc(void **p, size_t n)
{
    NEED_CTX(ctx);
    if (!p)
        return cudart_ret(cudaErrorInvalidValue);
    ws_devptr d = 0;
    ws_status st = wsMalloc(ctx, &d, n);
    *p = (void *)(uintptr_t)d;
    return st == WS_SUCCESS ? cudaSuccess : cudart_ret(cudaErrorMemoryAllocation);
}

CUDART_API cudaError_t cudaFree(void *p)
{
    NEED_CTX(ctx);
    return ws_call(ctx, "cudaFree", wsFree(ctx, dp(p)));
}

CUDART_API cudaError_t cudaMallocHost(void **p, size_t n)
{
    if (!p)
        return cudart_ret(cudaErrorInvalidValue);
    *p = NULL;
    if (posix_memalign(p, 4096, n ? n : 1) != 0)
        return cudart_ret(cudaErrorMemoryAllocation);
    return cudaSuccess;
}

CUDART_API cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags)
{
    if (flags & 0x02u) {   /* cudaHostAllocMapped: host memory kernels can reach, as managed memory is */
        NEED_CTX(ctx);
        if (!p)
            return cudart_ret(cudaErrorInvalidValue);
        ws_devptr d = 0;
        ws_status st = ws_malloc_managed(ctx, &d, n ? n : 1);
        *p = (void *)(uintptr_t)d;
        return st == WS_SUCCESS ? cudaSuccess : cudart_ret(cudaErrorMemoryAllocation);
    }
    return cudaMallocHost(p, n);
}

CUDART_API cudaError_t cudaFreeHost(void *p)
{
    if (RT->ctx && ws_is_managed(RT->ctx, dp(p)))   /* a cudaHostAllocMapped buffer */
        return ws_call(RT->ctx, "cudaFreeHost", wsFree(RT->ctx, dp(p)));
    free(p);
    return cudaSuccess;
}

/* the device address of mapped host memory (cudaHostAllocMapped) or managed memory: the same address */
CUDART_API cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags)
{
    NEED_CTX(ctx);
    if (!d || flags)
        return cudart_ret(cudaErrorInvalidValue);
    *d = NULL;
    if (!ws_is_managed(ctx, dp(h)))
        return cudart_ret(cudaErrorInvalidValue);
    *d = h;
    return cudaSuccess;
}

static cudaError_t memcpy_any(void *dst, const void *src, size_t n, int kind)
{
    NEED_CTX(ctx);
    if (n == 0)
        return cudaSuccess;
    if (kind == cudaMemcpyDefault)
        kind = is_device(dst) ? (is_device(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                              : (is_device(src) ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    switch (kind) {
    case cudaMemcpyHostToHost:
        if (!dst || !src)
            return cudart_ret(cudaErrorInvalidValue);
        memmove(dst, src, n);
        return cudaSuccess;
    case cudaMemcpyHostToDevice: return ws_call(ctx, "cudaMemcpy(HostToDevice)", wsMemcpyHtoD(ctx, dp(dst), src, n));
    case cudaMemcpyDeviceToHost: return ws_call(ctx, "cudaMemcpy(DeviceToHost)", wsMemcpyDtoH(ctx, dst, dp(src), n));
    case cudaMemcpyDeviceToDevice:
        return ws_call(ctx, "cudaMemcpy(DeviceToDevice)", wsMemcpyDtoD(ctx, dp(dst), dp(src), n));
    }
    return cudart_ret(cudaErrorInvalidMemcpyDirection);
}

CUDART_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
    cudart_flush();   /* a blocking copy writes the device printf output, as CUDA's does */
    return memcpy_any(dst, src, n, kind);
}

CUDART_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream)
{
    (void)stream;
    return memcpy_any(dst, src, n, kind);
}

CUDART_API cudaError_t cudaMemset(void *p, int value, size_t n)
{
    NEED_CTX(ctx);
    return ws_call(ctx, "cudaMemset", wsMemset(ctx, dp(p), value, n));
}

CUDART_API cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream)
{
    (void)stream;
    return cudaMemset(p, value, n);
}

CUDART_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    NEED_CTX(ctx);
    uint64_t used = ws_mem_in_use(ctx);
    if (free_bytes)
        *free_bytes = (size_t)(PTX_GLOBAL_LIMIT > used ? PTX_GLOBAL_LIMIT - used : 0);
    if (total)
        *total = (size_t)PTX_GLOBAL_LIMIT;
    return cudaSuccess;
}

/* pitched allocations: rows padded to 256 bytes */
#define PITCH_ALIGN 256u

CUDART_API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    if (!p || !pitch)
        return cudart_ret(cudaErrorInvalidValue);
    size_t pt = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    if (height && pt > SIZE_MAX / height)
        return cudart_ret(cudaErrorMemoryAllocation);
    *pitch = pt;
    return cudaMalloc(p, pt * height);
}

CUDART_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t height, int kind)
{
    if ((height > 1 && (width > dpitch || width > spitch)))
        return cudart_ret(cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cudaMemcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                         size_t height, int kind, void *stream)
{
    (void)stream;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

CUDART_API cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    if (height > 1 && width > pitch)
        return cudart_ret(cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cudaMemset((char *)p + r * pitch, value, width);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height, void *stream)
{
    (void)stream;
    return cudaMemset2D(p, pitch, value, width, height);
}

/* ---- managed memory ---------------------------------------------------------------------
   Host memory whose host address is also its device address (ws_malloc_managed): the program's
   pointer works on the host and in kernels alike, and as execution is synchronous there is nothing
   to migrate or keep coherent.  The flags (cudaMemAttachGlobal / Host) make no difference. */

CUDART_API cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags)
{
    NEED_CTX(ctx);
    if (!p || n == 0 || (flags != 0x01u && flags != 0x02u))   /* cudaMemAttachGlobal, cudaMemAttachHost */
        return cudart_ret(cudaErrorInvalidValue);
    ws_devptr d = 0;
    ws_status st = ws_malloc_managed(ctx, &d, n);
    *p = (void *)(uintptr_t)d;
    return st == WS_SUCCESS ? cudaSuccess : cudart_ret(cudaErrorMemoryAllocation);
}

/* hints about where managed memory should live: nothing to do when host and device share it
   (the arguments, which differ between CUDA versions, are not read) */
CUDART_API cudaError_t cudaMemPrefetchAsync(void);
CUDART_API cudaError_t cudaMemPrefetchAsync(void) { return cudaSuccess; }
CUDART_API cudaError_t cudaMemAdvise(void);
CUDART_API cudaError_t cudaMemAdvise(void) { return cudaSuccess; }

CUDART_API cudaError_t cudaPointerGetAttributes(struct cudart_pointer_attributes *a, const void *ptr)
{
    NEED_CTX(ctx);
    if (!a)
        return cudart_ret(cudaErrorInvalidValue);
    memset(a, 0, sizeof *a);
    ws_devptr d = dp(ptr);
    if (ws_is_managed(ctx, d)) {
        a->type = cudaMemoryTypeManaged;
        a->devicePointer = a->hostPointer = (void *)(uintptr_t)ptr;
    } else if (is_device(ptr)) {
        a->type = cudaMemoryTypeDevice;
        a->devicePointer = (void *)(uintptr_t)ptr;
    } else {
        a->type = cudaMemoryTypeUnregistered;
    }
    return cudaSuccess;
}

/* ---- limits: the device heap and the printf FIFO are real; the stack size is recorded ---- */

static size_t stack_limit = 1024;

CUDART_API cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    NEED_CTX(ctx);
    switch (limit) {
    case cudaLimitStackSize: stack_limit = value; return cudaSuccess;
    case cudaLimitPrintfFifoSize: return ws_call(ctx, "cudaDeviceSetLimit(cudaLimitPrintfFifoSize)",
                                                 ws_device_set_printf_fifo(ctx, value));
    case cudaLimitMallocHeapSize: return ws_call(ctx, "cudaDeviceSetLimit(cudaLimitMallocHeapSize)",
                                                 ws_device_set_heap_size(ctx, value));
    case cudaLimitMaxL2FetchGranularity: case cudaLimitPersistingL2CacheSize:
        return cudaSuccess;   /* hints the simulated caches do not take */
    default: return cudart_ret(cudaErrorUnsupportedLimit);
    }
}

CUDART_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    NEED_CTX(ctx);
    if (!value)
        return cudart_ret(cudaErrorInvalidValue);
    switch (limit) {
    case cudaLimitStackSize: *value = stack_limit; return cudaSuccess;
    case cudaLimitPrintfFifoSize: *value = (size_t)ws_device_printf_fifo(ctx); return cudaSuccess;
    case cudaLimitMallocHeapSize: *value = (size_t)ws_device_heap_size(ctx); return cudaSuccess;
    case cudaLimitMaxL2FetchGranularity: *value = 32; return cudaSuccess;
    case cudaLimitPersistingL2CacheSize: *value = 0; return cudaSuccess;
    default: return cudart_ret(cudaErrorUnsupportedLimit);
    }
}

/* ---- CUDA arrays: pitched device memory that texture objects sample -----------------------
   A cudaArray_t points at one of these.  Its rows are padded to 256 bytes (like cudaMallocPitch),
   which the texture objects over it use as a pitch-2D resource: point sampling, unnormalised
   coordinates (what warpsim's textures do).  An array made with cudaArraySurfaceLoadStore also
   takes surface objects (suld.b / sust.b, 1D and 2D). */

#define ARRAY_MAGIC 0x41525259u
struct rt_array {
    unsigned magic;
    struct cudart_channel_desc desc;
    size_t width, height;            /* elements; height 0 for a 1D array */
    size_t esize, pitch;             /* bytes per element, per row */
    unsigned flags;
    ws_devptr base;
    struct rt_array *prev, *next;    /* the live arrays: the runtime owns them until cudaFreeArray */
};

/* Arrays not freed yet (a program may exit without cudaFreeArray, as it may without cudaFree: the
   runtime keeps them, as it keeps the device's memory, until exit). */
static struct rt_array *live_arrays;

static struct rt_array *array_of(const void *a)
{
    struct rt_array *r = (struct rt_array *)(uintptr_t)a;
    return r && r->magic == ARRAY_MAGIC ? r : NULL;
}

static size_t desc_bytes(const struct cudart_channel_desc *c)
{
    int bits = c->x + c->y + c->z + c->w;
    if (c->x < 0 || c->y < 0 || c->z < 0 || c->w < 0 || bits <= 0 || bits % 8 ||
        c->f < cudaChannelFormatKindSigned || c->f > cudaChannelFormatKindFloat)
        return 0;
    return (size_t)bits / 8;
}

CUDART_API cudaError_t cudaMallocArray(void **array, const struct cudart_channel_desc *desc, size_t width,
                                       size_t height, unsigned flags)
{
    NEED_CTX(ctx);
    if (!array || !desc || width == 0)
        return cudart_ret(cudaErrorInvalidValue);
    *array = NULL;
    if (flags & ~(unsigned)cudaArraySurfaceLoadStore)   /* layered, cubemap, gather: not provided */
        return cudart_unsupported("cudaMallocArray", "array flags other than cudaArrayDefault and "
                                  "cudaArraySurfaceLoadStore (layered, cubemap, gather)");
    size_t esize = desc_bytes(desc);
    if (!esize)
        return cudart_ret(cudaErrorInvalidValue);
    size_t rows = height ? height : 1;
    if (width > SIZE_MAX / esize)
        return cudart_ret(cudaErrorMemoryAllocation);
    size_t pitch = (width * esize + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    if (rows > SIZE_MAX / pitch)
        return cudart_ret(cudaErrorMemoryAllocation);
    struct rt_array *a = calloc(1, sizeof *a);
    if (!a)
        return cudart_ret(cudaErrorMemoryAllocation);
    if (wsMalloc(ctx, &a->base, pitch * rows) != WS_SUCCESS) {
        free(a);
        return cudart_ret(cudaErrorMemoryAllocation);
    }
    a->magic = ARRAY_MAGIC;
    a->desc = *desc;
    a->width = width;
    a->height = height;
    a->esize = esize;
    a->pitch = pitch;
    a->flags = flags;
    a->next = live_arrays;
    if (live_arrays)
        live_arrays->prev = a;
    live_arrays = a;
    *array = a;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaFreeArray(void *array)
{
    if (!array)
        return cudaSuccess;
    struct rt_array *a = array_of(array);
    if (!a)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    NEED_CTX(ctx);
    cudaError_t e = ws_call(ctx, "cudaFreeArray", wsFree(ctx, a->base));
    a->magic = 0;
    if (a->prev)
        a->prev->next = a->next;
    else
        live_arrays = a->next;
    if (a->next)
        a->next->prev = a->prev;
    free(a);
    return e;
}

CUDART_API cudaError_t cudaArrayGetInfo(struct cudart_channel_desc *desc, struct cudart_extent *extent,
                                        unsigned *flags, void *array)
{
    const struct rt_array *a = array_of(array);
    if (!a)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    if (desc)
        *desc = a->desc;
    if (extent) {
        extent->width = a->width;
        extent->height = a->height;
        extent->depth = 0;
    }
    if (flags)
        *flags = a->flags;
    return cudaSuccess;
}

/* the device address of byte w_off of row h_off, after checking that width bytes x height rows fit */
static cudaError_t array_at(const void *array, size_t w_off, size_t h_off, size_t width, size_t height,
                            const struct rt_array **out, void **at)
{
    const struct rt_array *a = array_of(array);
    if (!a)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    size_t row_bytes = a->width * a->esize, rows = a->height ? a->height : 1;
    if (w_off > row_bytes || width > row_bytes - w_off || h_off > rows || height > rows - h_off)
        return cudart_ret(cudaErrorInvalidValue);
    *out = a;
    *at = (void *)(uintptr_t)(a->base + h_off * a->pitch + w_off);
    return cudaSuccess;
}

/* a host or device side of an array copy: its kind as seen from the array (device) */
static int array_kind(int kind, const void *other, int to_array)
{
    if (kind == cudaMemcpyDefault)
        return is_device(other) ? cudaMemcpyDeviceToDevice : to_array ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    return kind;
}

CUDART_API cudaError_t cudaMemcpy2DToArray(void *dst, size_t w_off, size_t h_off, const void *src, size_t spitch,
                                           size_t width, size_t height, int kind)
{
    const struct rt_array *a = NULL;
    void *at = NULL;
    cudaError_t e = array_at(dst, w_off, h_off, width, height, &a, &at);
    if (e != cudaSuccess)
        return e;
    kind = array_kind(kind, src, 1);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice)
        return cudart_ret(cudaErrorInvalidMemcpyDirection);
    return cudaMemcpy2D(at, a->pitch, src, spitch, width, height, kind);
}

CUDART_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, const void *src, size_t w_off, size_t h_off,
                                             size_t width, size_t height, int kind)
{
    const struct rt_array *a = NULL;
    void *at = NULL;
    cudaError_t e = array_at(src, w_off, h_off, width, height, &a, &at);
    if (e != cudaSuccess)
        return e;
    kind = array_kind(kind, dst, 0);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice)
        return cudart_ret(cudaErrorInvalidMemcpyDirection);
    return cudaMemcpy2D(dst, dpitch, at, a->pitch, width, height, kind);
}

CUDART_API cudaError_t cudaMemcpy2DToArrayAsync(void *dst, size_t w_off, size_t h_off, const void *src, size_t spitch,
                                                size_t width, size_t height, int kind, void *stream)
{
    (void)stream;
    return cudaMemcpy2DToArray(dst, w_off, h_off, src, spitch, width, height, kind);
}

CUDART_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, const void *src, size_t w_off,
                                                  size_t h_off, size_t width, size_t height, int kind, void *stream)
{
    (void)stream;
    return cudaMemcpy2DFromArray(dst, dpitch, src, w_off, h_off, width, height, kind);
}

/* the deprecated linear forms: count bytes from (w_off, h_off) on, row after row */
static cudaError_t array_linear(void *array, size_t w_off, size_t h_off, void *host, size_t count, int kind,
                                int to_array)
{
    const struct rt_array *a = array_of(array);
    if (!a)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    size_t row_bytes = a->width * a->esize, rows = a->height ? a->height : 1;
    if (w_off > row_bytes || h_off >= rows ||
        count > (rows - h_off) * row_bytes - w_off)
        return cudart_ret(cudaErrorInvalidValue);
    char *h = host;
    while (count) {
        size_t n = row_bytes - w_off < count ? row_bytes - w_off : count;
        cudaError_t e = to_array ? cudaMemcpy2DToArray(array, w_off, h_off, h, n, n, 1, kind)
                                 : cudaMemcpy2DFromArray(h, n, array, w_off, h_off, n, 1, kind);
        if (e != cudaSuccess)
            return e;
        h += n;
        count -= n;
        w_off = 0;
        h_off++;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemcpyToArray(void *dst, size_t w_off, size_t h_off, const void *src, size_t count, int kind)
{
    return array_linear(dst, w_off, h_off, (void *)(uintptr_t)src, count, kind, 1);
}

CUDART_API cudaError_t cudaMemcpyFromArray(void *dst, const void *src, size_t w_off, size_t h_off, size_t count,
                                           int kind)
{
    return array_linear((void *)(uintptr_t)src, w_off, h_off, dst, count, kind, 0);
}

/* ---- texture objects over linear and pitched device memory ---------------------------- */

CUDART_API struct cudart_channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudart_channel_desc d = {x, y, z, w, f};
    return d;
}

/* What warpsim's textures do (warpsim.h): point sampling, unnormalised coordinates, clamping, element
   reads; anything else is refused by name rather than sampled differently. */
CUDART_API cudaError_t cudaCreateTextureObject(uint64_t *tex, const struct cudart_resource_desc *res,
                                               const struct cudart_texture_desc *td, const void *view)
{
    NEED_CTX(ctx);
    if (!tex || !res || !td)
        return cudart_ret(cudaErrorInvalidValue);
    *tex = 0;
    if (view)
        return cudart_unsupported("cudaCreateTextureObject", "resource views");
    const struct rt_array *arr = res->resType == cudaResourceTypeArray ? array_of(res->res.array) : NULL;
    if (res->resType == cudaResourceTypeArray && !arr)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    if (res->resType != cudaResourceTypeLinear && res->resType != cudaResourceTypePitch2D && !arr)
        return cudart_unsupported("cudaCreateTextureObject",
                                  "mipmapped arrays (linear, pitch-2D and CUDA-array resources are supported)");
    if (td->filterMode != cudaFilterModePoint || td->readMode != cudaReadModeElementType || td->normalizedCoords)
        return cudart_unsupported("cudaCreateTextureObject", "linear filtering, normalised reads or normalised "
                                  "coordinates (warpsim samples points at unnormalised coordinates, element type)");
    const struct cudart_channel_desc *c = arr                                   ? &arr->desc
                                          : res->resType == cudaResourceTypeLinear ? &res->res.linear.desc
                                                                                   : &res->res.pitch2D.desc;
    unsigned channels = (unsigned)((c->x > 0) + (c->y > 0) + (c->z > 0) + (c->w > 0));
    if (c->x <= 0 || (c->y && c->y != c->x) || (c->z && c->z != c->x) || (c->w && c->w != c->x) ||
        (channels != 1 && channels != 2 && channels != 4) || (c->x != 8 && c->x != 16 && c->x != 32) ||
        c->f < cudaChannelFormatKindSigned || c->f > cudaChannelFormatKindFloat)
        return cudart_ret(cudaErrorInvalidValue);
    ws_tex_desc d;
    memset(&d, 0, sizeof d);
    d.format = c->f == cudaChannelFormatKindFloat    ? WS_TEX_FLOAT
               : c->f == cudaChannelFormatKindSigned ? WS_TEX_SIGNED
                                                     : WS_TEX_UNSIGNED;
    d.channels = channels;
    d.bits_per_channel = (unsigned)c->x;
    size_t esize = (size_t)channels * (size_t)c->x / 8;
    if (arr) {
        d.base = arr->base;
        d.width = arr->width;
        d.height = arr->height ? arr->height : 1;
        d.pitch_bytes = arr->pitch;
    } else if (res->resType == cudaResourceTypeLinear) {
        d.base = dp(res->res.linear.devPtr);
        d.width = res->res.linear.sizeInBytes / esize;
    } else {
        d.base = dp(res->res.pitch2D.devPtr);
        d.width = res->res.pitch2D.width;
        d.height = res->res.pitch2D.height;
        d.pitch_bytes = res->res.pitch2D.pitchInBytes;
    }
    ws_texobj t = 0;
    cudaError_t e = ws_call(ctx, "cudaCreateTextureObject", wsCreateTextureObject(ctx, &t, &d));
    *tex = t;
    return e;
}

CUDART_API cudaError_t cudaDestroyTextureObject(uint64_t tex)
{
    NEED_CTX(ctx);
    return ws_call(ctx, "cudaDestroyTextureObject", wsDestroyTextureObject(ctx, tex));
}

/* ---- surface objects over CUDA arrays ------------------------------------------------
   The resource must be a cudaArray allocated with cudaArraySurfaceLoadStore (as CUDA requires);
   surf1D/2Dread/write compile to suld.b / sust.b, whose x coordinate counts bytes. */
CUDART_API cudaError_t cudaCreateSurfaceObject(uint64_t *surf, const struct cudart_resource_desc *res)
{
    NEED_CTX(ctx);
    if (!surf || !res)
        return cudart_ret(cudaErrorInvalidValue);
    *surf = 0;
    if (res->resType != cudaResourceTypeArray)
        return cudart_ret(cudaErrorInvalidValue);
    const struct rt_array *arr = array_of(res->res.array);
    if (!arr)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    if (!(arr->flags & cudaArraySurfaceLoadStore))
        return cudart_ret(cudaErrorInvalidValue);
    const struct cudart_channel_desc *c = &arr->desc;
    unsigned channels = (unsigned)((c->x > 0) + (c->y > 0) + (c->z > 0) + (c->w > 0));
    if (c->x <= 0 || (c->y && c->y != c->x) || (c->z && c->z != c->x) || (c->w && c->w != c->x) ||
        (channels != 1 && channels != 2 && channels != 4) || (c->x != 8 && c->x != 16 && c->x != 32))
        return cudart_unsupported("cudaCreateSurfaceObject",
                                  "channel formats other than 1, 2 or 4 equal channels of 8, 16 or 32 bits");
    ws_tex_desc d;
    memset(&d, 0, sizeof d);
    d.base = arr->base;
    d.format = WS_TEX_UNSIGNED;
    d.channels = channels;
    d.bits_per_channel = (unsigned)c->x;
    d.width = arr->width;
    d.height = arr->height ? arr->height : 1;
    d.pitch_bytes = arr->pitch;
    ws_texobj s = 0;
    cudaError_t e = ws_call(ctx, "cudaCreateSurfaceObject", ws_create_surface_object(ctx, &s, &d));
    *surf = s;
    return e;
}

CUDART_API cudaError_t cudaDestroySurfaceObject(uint64_t surf)
{
    NEED_CTX(ctx);
    return ws_call(ctx, "cudaDestroySurfaceObject", ws_destroy_surface_object(ctx, surf));
}

/* ---- symbols (__device__ / __constant__ variables) --------------------------------- */


static const struct rt_var *find_var(const void *symbol, ws_module **mod, cudaError_t *err)
{
    const struct rt_var *v = cudart_find_var(symbol);
    *mod = NULL;
    if (!v) {
        *err = cudaErrorInvalidSymbol;
        return NULL;
    }
    if (!v->fb || !v->fb->mod) {
        *err = v->fb && v->fb->err ? v->fb->err : cudaErrorNoKernelImageForDevice;
        return NULL;
    }
    *mod = v->fb->mod;
    *err = cudaSuccess;
    return v;
}

CUDART_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset, int kind)
{
    NEED_CTX(ctx);
    ws_module *mod;
    cudaError_t e;
    const struct rt_var *v = find_var(symbol, &mod, &e);
    if (!v)
        return cudart_ret(e);
    if (kind == cudaMemcpyDefault)
        kind = is_device(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
    if (kind == cudaMemcpyHostToDevice)
        return ws_call(ctx, "cudaMemcpyToSymbol", wsMemcpyToSymbol(ctx, mod, v->name, src, n, offset));
    if (kind != cudaMemcpyDeviceToDevice)
        return cudart_ret(cudaErrorInvalidMemcpyDirection);
    void *tmp = malloc(n ? n : 1);
    if (!tmp)
        return cudart_ret(cudaErrorMemoryAllocation);
    e = ws_call(ctx, "cudaMemcpyToSymbol(DeviceToDevice)", wsMemcpyDtoH(ctx, tmp, dp(src), n));
    if (e == cudaSuccess)
        e = ws_call(ctx, "cudaMemcpyToSymbol", wsMemcpyToSymbol(ctx, mod, v->name, tmp, n, offset));
    free(tmp);
    return e;
}

CUDART_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset, int kind)
{
    NEED_CTX(ctx);
    ws_module *mod;
    cudaError_t e;
    const struct rt_var *v = find_var(symbol, &mod, &e);
    if (!v)
        return cudart_ret(e);
    if (kind == cudaMemcpyDefault)
        kind = is_device(dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
    if (kind == cudaMemcpyDeviceToHost)
        return ws_call(ctx, "cudaMemcpyFromSymbol", wsMemcpyFromSymbol(ctx, mod, v->name, dst, n, offset));
    if (kind != cudaMemcpyDeviceToDevice)
        return cudart_ret(cudaErrorInvalidMemcpyDirection);
    void *tmp = malloc(n ? n : 1);
    if (!tmp)
        return cudart_ret(cudaErrorMemoryAllocation);
    e = ws_call(ctx, "cudaMemcpyFromSymbol", wsMemcpyFromSymbol(ctx, mod, v->name, tmp, n, offset));
    if (e == cudaSuccess)
        e = ws_call(ctx, "cudaMemcpyFromSymbol(DeviceToDevice)", wsMemcpyHtoD(ctx, dp(dst), tmp, n));
    free(tmp);
    return e;
}

CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n, size_t offset, int kind,
                                               void *stream)
{
    (void)stream;
    return cudaMemcpyToSymbol(symbol, src, n, offset, kind);
}

CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n, size_t offset, int kind,
                                                 void *stream)
{
    (void)stream;
    return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);
}

static cudaError_t symbol_info(const void *symbol, ws_devptr *addr, size_t *size, const char *call)
{
    NEED_CTX(ctx);
    (void)ctx;
    ws_module *mod;
    cudaError_t e;
    const struct rt_var *v = find_var(symbol, &mod, &e);
    if (!v)
        return cudart_ret(e);
    int is_const = 0;
    if (ws_module_symbol(mod, v->name, addr, size, &is_const) != WS_SUCCESS)
        return cudart_ret(cudaErrorInvalidSymbol);
    if (is_const && addr) {
        char why[512];
        snprintf(why, sizeof why, "__constant__ variable '%s' lives in warpsim's constant bank, which has no device "
                 "address (use cudaMemcpyToSymbol/FromSymbol)", v->name);
        return cudart_unsupported(call, why);
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGetSymbolAddress(void **p, const void *symbol)
{
    if (!p)
        return cudart_ret(cudaErrorInvalidValue);
    ws_devptr a = 0;
    cudaError_t e = symbol_info(symbol, &a, NULL, "cudaGetSymbolAddress");
    *p = e == cudaSuccess ? (void *)(uintptr_t)a : NULL;
    return e;
}

CUDART_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    if (!size)
        return cudart_ret(cudaErrorInvalidValue);
    return symbol_info(symbol, NULL, size, "cudaGetSymbolSize");
}

/* ---- the device ------------------------------------------------------------------ */

static int current_device;

CUDART_API cudaError_t cudaGetDeviceCount(int *n)
{
    if (!n)
        return cudart_ret(cudaErrorInvalidValue);
    *n = 1;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaSetDevice(int d)
{
    if (d != 0)
        return cudart_ret(cudaErrorInvalidDevice);
    current_device = d;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGetDevice(int *d)
{
    if (!d)
        return cudart_ret(cudaErrorInvalidValue);
    *d = current_device;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    (void)flags;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDeviceSynchronize(void)
{
    cudart_flush();
    NEED_CTX(ctx);
    (void)ctx;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

CUDART_API cudaError_t cudaDeviceReset(void)
{
    /* the simulated machine and its statistics stay until exit (the report covers the whole run);
       a fault no longer poisons the calls that follow */
    cudart_flush();
    RT->sticky_error = cudaSuccess;
    RT->last_error = cudaSuccess;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDeviceSetCacheConfig(int cfg)
{
    (void)cfg;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaFuncSetCacheConfig(const void *func, int cfg)
{
    (void)func, (void)cfg;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    (void)func, (void)attr, (void)value;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    if (!flags)
        return cudart_ret(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaChooseDevice(int *d, const void *prop)
{
    (void)prop;
    if (!d)
        return cudart_ret(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

CUDART_API cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return cudart_ret(cudaErrorInvalidValue);
    *v = CUDART_VERSION_NUMBER;   /* 13000, or 12090 in libcudart.so.12 */
    return cudaSuccess;
}

CUDART_API cudaError_t cudaRuntimeGetVersion(int *v) { return cudaDriverGetVersion(v); }

/* The machine's numbers (timing mode: the configuration; functional: GTX480-class defaults). */
struct machine {
    int sms, warp, threads_per_sm, regs_per_sm, ctas_per_sm, smem_per_sm, l2_bytes, bus_bits;
    int core_khz, mem_khz;
    unsigned arch;
};

static void machine_of(ws_ctx *ctx, struct machine *m)
{
    m->sms = 15, m->warp = 32, m->threads_per_sm = 1536, m->regs_per_sm = 32768, m->ctas_per_sm = 8;
    m->smem_per_sm = 48 * 1024, m->l2_bytes = 768 * 1024, m->bus_bits = 384, m->core_khz = 700000;
    m->mem_khz = 924000;
    m->arch = 0;
    for (unsigned i = 0; i < RT->nfbs; i++)
        if (RT->fbs[i] && RT->fbs[i]->arch > m->arch)
            m->arch = RT->fbs[i]->arch;
    struct gpu *g = ws_gpu(ctx);
    if (!g)
        return;
    const struct gpu_config *c = gpu_config(g);
    m->sms = (int)c->n_cores;
    m->warp = (int)c->warp_size;
    m->threads_per_sm = (int)c->max_threads_per_core;
    m->regs_per_sm = (int)c->registers_per_core;
    m->ctas_per_sm = (int)c->max_cta_per_core;
    m->smem_per_sm = (int)c->shmem_size;
    m->bus_bits = (int)(c->n_mem * c->dram_buswidth * 8);
    m->core_khz = c->ps_core ? (int)(1e9 / (double)c->ps_core) : 0;
    m->mem_khz = c->ps_dram ? (int)(1e9 / (double)c->ps_dram) : 0;
    struct cache_config l2;
    char msg[128];
    unsigned col = 0;
    if (c->cache_dl2 && cache_config_parse(c->cache_dl2, &l2, msg, sizeof msg, &col) == 0)
        m->l2_bytes = (int)(cache_config_bytes(&l2) * c->n_sub_partitions);
}

static int arch_major(unsigned arch) { return arch ? (int)(arch / 10) : 7; }
static int arch_minor(unsigned arch) { return arch ? (int)(arch % 10) : 5; }

CUDART_API cudaError_t cudaGetDeviceProperties(struct cudart_device_prop *p, int dev)
{
    if (!p)
        return cudart_ret(cudaErrorInvalidValue);
    if (dev != 0)
        return cudart_ret(cudaErrorInvalidDevice);
    NEED_CTX(ctx);
    struct machine m;
    machine_of(ctx, &m);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "warpsim simulated GPU (%d SMs%s)", m.sms, RT->timing ? "" : ", functional");
    memcpy(p->uuid, "warpsim-sim-gpu0", 16);
    p->totalGlobalMem = (size_t)PTX_GLOBAL_LIMIT;
    p->sharedMemPerBlock = 48 * 1024;
    p->regsPerBlock = 65536 < m.regs_per_sm ? 65536 : m.regs_per_sm;
    p->warpSize = m.warp;
    p->memPitch = (size_t)1 << 31;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
    p->totalConstMem = 64 * 1024;
    p->major = arch_major(m.arch);
    p->minor = arch_minor(m.arch);
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = m.sms;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 0;
    p->asyncEngineCount = 0;
    p->unifiedAddressing = 1;
    p->managedMemory = 1;
    p->canMapHostMemory = 1;
    p->memoryBusWidth = m.bus_bits;
    p->l2CacheSize = m.l2_bytes;
    p->maxThreadsPerMultiProcessor = m.threads_per_sm;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = (size_t)m.smem_per_sm;
    p->regsPerMultiprocessor = m.regs_per_sm;
    p->sharedMemPerBlockOptin = 48 * 1024;
    p->maxBlocksPerMultiProcessor = m.ctas_per_sm;
#if WARPSIM_CUDART_ABI == 12
    p->clockRate = m.core_khz;      /* fields CUDA 13 removed (cudaDeviceGetAttribute has them) */
    p->memoryClockRate = m.mem_khz;
#endif
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGetDeviceProperties_v2(struct cudart_device_prop *p, int dev)
{
    return cudaGetDeviceProperties(p, dev);
}

CUDART_API cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev)
{
    if (!v)
        return cudart_ret(cudaErrorInvalidValue);
    if (dev != 0)
        return cudart_ret(cudaErrorInvalidDevice);
    NEED_CTX(ctx);
    struct machine m;
    machine_of(ctx, &m);
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = 1024; break;
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: *v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: *v = 64; break;
    case cudaDevAttrMaxGridDimX: *v = 0x7fffffff; break;
    case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: *v = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = 48 * 1024; break;
    case cudaDevAttrTotalConstantMemory: *v = 64 * 1024; break;
    case cudaDevAttrWarpSize: *v = m.warp; break;
    case cudaDevAttrMaxPitch: *v = 0x7fffffff; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = 65536 < m.regs_per_sm ? 65536 : m.regs_per_sm; break;
    case cudaDevAttrClockRate: *v = m.core_khz; break;
    case cudaDevAttrMultiProcessorCount: *v = m.sms; break;
    case cudaDevAttrCanMapHostMemory: *v = 1; break;
    case cudaDevAttrIntegrated: case cudaDevAttrConcurrentKernels:
    case cudaDevAttrPageableMemoryAccess: case cudaDevAttrConcurrentManagedAccess: *v = 0; break;
    case cudaDevAttrManagedMemory: *v = 1; break;
    case cudaDevAttrMemoryClockRate: *v = m.mem_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = m.bus_bits; break;
    case cudaDevAttrL2CacheSize: *v = m.l2_bytes; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = m.threads_per_sm; break;
    case cudaDevAttrUnifiedAddressing: *v = 1; break;
    case cudaDevAttrComputeCapabilityMajor: *v = arch_major(m.arch); break;
    case cudaDevAttrComputeCapabilityMinor: *v = arch_minor(m.arch); break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = m.smem_per_sm; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = m.regs_per_sm; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = m.ctas_per_sm; break;
    default: {
        char what[96];
        snprintf(what, sizeof what, "cudaDeviceGetAttribute(attribute %d)", attr);
        return cudart_unsupported(what, "warpsim answers the attributes listed in docs/cudart.md");
    }
    }
    return cudaSuccess;
}

/* ---- streams and events: in order, complete at return --------------------------------- */

#define STREAM_MAGIC 0x5354524du
#define EVENT_MAGIC 0x45564e54u
/* Streams and events stay on these lists until destroyed: a program that never destroys them (the
   context frees them on a GPU) leaves them reachable, not leaked. */
struct rt_stream { unsigned magic; struct rt_stream *prev, *next; };
struct rt_event { unsigned magic; int recorded; uint64_t cycles; struct rt_event *prev, *next; };
static struct rt_stream *streams;
static struct rt_event *events;

#define LIST_PUSH(head, x)         \
    do {                           \
        (x)->prev = NULL;          \
        (x)->next = (head);        \
        if (head)                  \
            (head)->prev = (x);    \
        (head) = (x);              \
    } while (0)
#define LIST_UNLINK(head, x)                \
    do {                                    \
        if ((x)->prev)                      \
            (x)->prev->next = (x)->next;    \
        else                                \
            (head) = (x)->next;             \
        if ((x)->next)                      \
            (x)->next->prev = (x)->prev;    \
    } while (0)

CUDART_API cudaError_t cudaStreamCreate(void **s)
{
    if (!s)
        return cudart_ret(cudaErrorInvalidValue);
    struct rt_stream *st = calloc(1, sizeof *st);
    if (!st)
        return cudart_ret(cudaErrorMemoryAllocation);
    st->magic = STREAM_MAGIC;
    LIST_PUSH(streams, st);
    *s = st;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaStreamCreateWithFlags(void **s, unsigned flags)
{
    (void)flags;
    return cudaStreamCreate(s);
}

CUDART_API cudaError_t cudaStreamCreateWithPriority(void **s, unsigned flags, int prio)
{
    (void)flags, (void)prio;
    return cudaStreamCreate(s);
}

CUDART_API cudaError_t cudaStreamDestroy(void *s)
{
    struct rt_stream *st = s;
    if (!st || st->magic != STREAM_MAGIC)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    st->magic = 0;
    LIST_UNLINK(streams, st);
    free(st);
    return cudaSuccess;
}

static cudaError_t check_stream(void *s)
{
    const struct rt_stream *st = s;
    /* 0 = the legacy default stream, 1/2 = cudaStreamLegacy / cudaStreamPerThread */
    if ((uintptr_t)s <= 2 || st->magic == STREAM_MAGIC)
        return RT->sticky_error;
    return cudart_ret(cudaErrorInvalidResourceHandle);
}

CUDART_API cudaError_t cudaStreamSynchronize(void *s)
{
    cudart_flush();
    return check_stream(s);
}
CUDART_API cudaError_t cudaStreamQuery(void *s) { return check_stream(s); }
CUDART_API cudaError_t cudaStreamWaitEvent(void *s, void *ev, unsigned flags)
{
    (void)ev, (void)flags;
    return check_stream(s);
}

CUDART_API cudaError_t cudaEventCreate(void **e)
{
    if (!e)
        return cudart_ret(cudaErrorInvalidValue);
    struct rt_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return cudart_ret(cudaErrorMemoryAllocation);
    ev->magic = EVENT_MAGIC;
    LIST_PUSH(events, ev);
    *e = ev;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaEventCreateWithFlags(void **e, unsigned flags)
{
    (void)flags;
    return cudaEventCreate(e);
}

static struct rt_event *event_of(void *e)
{
    struct rt_event *ev = e;
    return ev && ev->magic == EVENT_MAGIC ? ev : NULL;
}

CUDART_API cudaError_t cudaEventDestroy(void *e)
{
    struct rt_event *ev = event_of(e);
    if (!ev)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    ev->magic = 0;
    LIST_UNLINK(events, ev);
    free(ev);
    return cudaSuccess;
}

CUDART_API cudaError_t cudaEventRecord(void *e, void *stream)
{
    struct rt_event *ev = event_of(e);
    if (!ev)
        return cudart_ret(cudaErrorInvalidResourceHandle);
    cudaError_t err;
    (void)cudart_ctx(&err);
    ev->recorded = 1;
    ev->cycles = cudart_gpu_cycles();   /* every earlier operation has completed */
    (void)stream;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaEventRecordWithFlags(void *e, void *stream, unsigned flags)
{
    (void)flags;
    return cudaEventRecord(e, stream);
}

CUDART_API cudaError_t cudaEventSynchronize(void *e)
{
    cudart_flush();
    struct rt_event *ev = event_of(e);
    return ev ? RT->sticky_error : cudart_ret(cudaErrorInvalidResourceHandle);
}

CUDART_API cudaError_t cudaEventQuery(void *e) { return cudaEventSynchronize(e); }

/* Simulated time between the events: core cycles over the core clock (0 in functional mode). */
CUDART_API cudaError_t cudaEventElapsedTime(float *ms, void *start, void *end)
{
    struct rt_event *a = event_of(start), *b = event_of(end);
    if (!ms || !a || !b)
        return cudart_ret(!ms ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        return cudart_ret(cudaErrorNotReady);
    double khz = cudart_core_khz();
    double cycles = (double)b->cycles - (double)a->cycles;
    *ms = khz > 0 ? (float)(cycles / khz) : 0.0f;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaEventElapsedTime_v2(float *ms, void *start, void *end)
{
    return cudaEventElapsedTime(ms, start, end);
}

/* ---- errors ------------------------------------------------------------------------- */

static const struct { cudaError_t e; const char *name, *text; } errors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "unsupported limit"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

CUDART_API const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].e == e)
            return errors[i].name;
    return "cudaErrorUnknown";
}

CUDART_API const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].e == e)
            return errors[i].text;
    return "unrecognized error code";
}

CUDART_API cudaError_t cudaGetLastError(void)
{
    cudaError_t e = RT->sticky_error ? RT->sticky_error : RT->last_error;
    RT->last_error = cudaSuccess;
    return e;
}

CUDART_API cudaError_t cudaPeekAtLastError(void) { return RT->sticky_error ? RT->sticky_error : RT->last_error; }

/* ---- calls warpsim does not provide ------------------------------------------------------
   Each returns cudaErrorNotSupported after one stderr line naming it.  The arguments are
   ignored (a callee that takes none is safe to call with any on the C ABI). */
#define UNSUPPORTED(name)                                                         \
    CUDART_API cudaError_t name(void);                                            \
    CUDART_API cudaError_t name(void) { return cudart_unsupported(#name, NULL); }
UNSUPPORTED(cudaMalloc3D)
UNSUPPORTED(cudaMemcpy3D)
UNSUPPORTED(cudaBindTexture)
UNSUPPORTED(cudaHostRegister)
UNSUPPORTED(cudaHostUnregister)
UNSUPPORTED(cudaMallocAsync)
UNSUPPORTED(cudaFreeAsync)
UNSUPPORTED(cudaMemcpyPeer)
UNSUPPORTED(cudaMemcpyPeerAsync)
UNSUPPORTED(cudaDeviceEnablePeerAccess)
UNSUPPORTED(cudaDeviceCanAccessPeer)
UNSUPPORTED(cudaOccupancyMaxPotentialBlockSize)
UNSUPPORTED(cudaLaunchCooperativeKernel)
UNSUPPORTED(cudaLaunchKernelExC)
UNSUPPORTED(cudaLaunchHostFunc)
UNSUPPORTED(cudaStreamAddCallback)
UNSUPPORTED(cudaStreamBeginCapture)
UNSUPPORTED(cudaStreamEndCapture)
UNSUPPORTED(cudaGraphCreate)
UNSUPPORTED(cudaGraphInstantiate)
UNSUPPORTED(cudaGraphLaunch)
UNSUPPORTED(cudaGraphDestroy)
UNSUPPORTED(cudaGraphExecDestroy)
UNSUPPORTED(cudaIpcGetMemHandle)
UNSUPPORTED(cudaIpcOpenMemHandle)
UNSUPPORTED(cudaIpcCloseMemHandle)
UNSUPPORTED(cudaGetFuncBySymbol)
UNSUPPORTED(cudaGetExportTable)
UNSUPPORTED(cudaMemcpy3DAsync)
UNSUPPORTED(cudaMemset3D)
UNSUPPORTED(cudaMemset3DAsync)
UNSUPPORTED(cudaMemcpyArrayToArray)
UNSUPPORTED(cudaMalloc3DArray)
UNSUPPORTED(cudaMallocMipmappedArray)
UNSUPPORTED(cudaGetTextureObjectResourceDesc)
UNSUPPORTED(cudaGetTextureObjectTextureDesc)
UNSUPPORTED(cudaDeviceGetByPCIBusId)
UNSUPPORTED(cudaDeviceGetPCIBusId)
UNSUPPORTED(cudaStreamGetPriority)
UNSUPPORTED(cudaStreamGetFlags)
UNSUPPORTED(cudaLaunchCooperativeKernelMultiDevice)
UNSUPPORTED(cudaFuncGetName)
UNSUPPORTED(cudaMemPoolCreate)
UNSUPPORTED(cudaDeviceGetDefaultMemPool)
UNSUPPORTED(cudaGraphicsMapResources)
UNSUPPORTED(cudaGraphicsUnmapResources)
UNSUPPORTED(cudaGetDriverEntryPoint)
UNSUPPORTED(cudaGetDriverEntryPointByVersion)

/* profiler ranges: nothing to do (the report covers the whole run) */
CUDART_API cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
CUDART_API cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
