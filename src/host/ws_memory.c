/*
 * ws_memory.c - device memory calls: allocation, copies, memset, module
 * variables by name, texture objects.  Every range is checked against the
 * allocations; a bad pointer is an error with a memory-checker style reason,
 * never a host crash.
 */
#include "ws_priv.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- allocations: ptx_mem's, and host-aliased (managed) ones ---------------------------
   ptx_mem hands out addresses that only grow, from PTX_GLOBAL_BASE, and keeps its allocations
   sorted by appending.  A managed allocation is host memory whose host address is also its
   device address (so the program's pointer works on both sides and nothing needs copying);
   those addresses lie above everything ptx_mem hands out, so they are kept at the end of the
   sorted array and a new ptx_mem allocation is moved in front of them. */

/* Managed memory is mapped at fixed addresses from WS_MANAGED_BASE upward (each mapping rounded to
   pages, with an unmapped page after it), so the same program gets the same device addresses on
   every run and the timing model's statistics do not depend on where the host's allocator put
   things.  Should that range be taken (another context of the process, a sanitizer's layout), the
   next free place after it is used, and failing that ordinary host memory. */
#define WS_MANAGED_BASE 0x200000000000ull     /* 32 TiB: above ptx_mem's range, below the host's mappings */
#define WS_MANAGED_PAGE 4096u

static bool managed_mapped(uint64_t base)
{
    return base >= WS_MANAGED_BASE && base < WS_MANAGED_BASE + (1ull << 44);
}

static void *managed_map(ws_ctx *ctx, uint64_t size)
{
    uint64_t len = (size + WS_MANAGED_PAGE - 1) / WS_MANAGED_PAGE * WS_MANAGED_PAGE;
    if (!ctx->managed_next)
        ctx->managed_next = WS_MANAGED_BASE;
    for (int tries = 0; tries < 64 && managed_mapped(ctx->managed_next + len); tries++) {
        uint64_t at = ctx->managed_next;
        ctx->managed_next = at + len + WS_MANAGED_PAGE;
        void *p = mmap((void *)(uintptr_t)at, (size_t)len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == (void *)(uintptr_t)at)
            return p;
        if (p != MAP_FAILED)   /* a kernel that took the address as a hint only */
            munmap(p, (size_t)len);
    }
    return NULL;
}

void ws_mem_unmap_managed(ws_ctx *ctx, size_t i)
{
    struct ptx_mem_alloc *a = &ctx->mem.allocs[i];
    if (!managed_mapped(a->base) || !a->data)
        return;
    uint64_t len = (a->size + WS_MANAGED_PAGE - 1) / WS_MANAGED_PAGE * WS_MANAGED_PAGE;
    munmap(a->data, (size_t)len);
    a->data = NULL;   /* ptx_mem's free() of it is then a no-op */
}

int ws_mem_alloc_managed(ws_ctx *ctx, uint64_t size, const char *label, uint64_t *addr)
{
    struct ptx_mem *m = &ctx->mem;
    if (size == 0 || size > m->limit || m->in_use > m->limit - size || size > SIZE_MAX - 4096)
        return -1;
    void *data = managed_map(ctx, size);   /* zero-filled */
    if (!data) {
        if (posix_memalign(&data, WS_MANAGED_PAGE, (size_t)size) != 0)
            return -1;
        memset(data, 0, (size_t)size);
    }
    uint64_t base = (uint64_t)(uintptr_t)data;
    /* it must not look like a generic window or a ptx_mem address (never seen on x86-64 Linux,
       where the heap and mappings lie far above); ptx_mem keeps it in address order */
    if (base < PTX_GLOBAL_BASE + PTX_GLOBAL_LIMIT || ptx_mem_insert(m, base, size, data, label) != 0) {
        if (managed_mapped(base))
            munmap(data, (size_t)((size + WS_MANAGED_PAGE - 1) / WS_MANAGED_PAGE * WS_MANAGED_PAGE));
        else
            free(data);
        return -1;
    }
    *addr = base;
    return 0;
}

ws_status ws_malloc_managed(ws_ctx *ctx, ws_devptr *ptr, size_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!ptr || bytes == 0)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "ws_malloc_managed: NULL result pointer or size 0");
    *ptr = 0;
    uint64_t addr;
    if (ws_mem_alloc_managed(ctx, bytes, NULL, &addr))
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY,
                       "managed allocation: out of memory (%zu bytes requested, %" PRIu64 " in use, limit %" PRIu64 ")",
                       bytes, ctx->mem.in_use, ctx->mem.limit);
    *ptr = addr;
    return WS_SUCCESS;
}

int ws_is_managed(ws_ctx *ctx, ws_devptr p)
{
    return ctx && p >= PTX_GLOBAL_BASE + PTX_GLOBAL_LIMIT && ptx_mem_find(&ctx->mem, p) != NULL;
}

ws_status wsMalloc(ws_ctx *ctx, ws_devptr *ptr, size_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!ptr)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsMalloc: NULL result pointer");
    *ptr = 0;
    if (bytes == 0) /* like cudaMalloc(&p, 0): succeeds with a null pointer */
        return WS_SUCCESS;
    uint64_t addr;
    if (ptx_mem_alloc(&ctx->mem, bytes, NULL, &addr))
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY,
                       "wsMalloc: out of device memory (%zu bytes requested, %" PRIu64 " in use, limit %" PRIu64 ")",
                       bytes, ctx->mem.in_use, ctx->mem.limit);
    *ptr = addr;
    return WS_SUCCESS;
}

ws_status wsFree(ws_ctx *ctx, ws_devptr ptr)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (ptr == 0)
        return WS_SUCCESS;
    if (ws_is_managed(ctx, ptr)) {
        const struct ptx_mem_alloc *a = ptx_mem_find(&ctx->mem, ptr);
        if (a && a->base == ptr && !a->label)
            ws_mem_unmap_managed(ctx, (size_t)(a - ctx->mem.allocs));
    }
    if (ptx_mem_free(&ctx->mem, ptr))
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE,
                       "wsFree: 0x%" PRIx64 " is not the start of a live wsMalloc allocation", ptr);
    return WS_SUCCESS;
}

/* Host pointer for [p, p+n) or an error message naming the call and the role of the pointer. */
static uint8_t *dev_range(ws_ctx *ctx, const char *call, const char *role, ws_devptr p, size_t n, ws_status *st)
{
    uint8_t *h = ptx_mem_ptr(&ctx->mem, p, n);
    if (h)
        return h;
    char why[512];
    const struct ptx_mem_alloc *a = ptx_mem_find(&ctx->mem, p);
    if (a)
        snprintf(why, sizeof why, "the range ends %" PRIu64 " bytes past the end of the allocation at 0x%" PRIx64
                 " of size %" PRIu64 " bytes", (uint64_t)(p - a->base + n - a->size), a->base, a->size);
    else
        ptx_mem_describe(&ctx->mem, p, "", why, sizeof why);
    for (char *c = why; *c; c++)
        if (*c == '\n')
            *c = ' ';
    *st = ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s: %s range [0x%" PRIx64 ", +%zu) is not device memory: %s", call,
                  role, p, n, why);
    return NULL;
}

ws_status wsMemcpyHtoD(ws_ctx *ctx, ws_devptr dst, const void *src, size_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (bytes == 0)
        return WS_SUCCESS;
    if (!src)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsMemcpyHtoD: NULL host source");
    ws_status st = WS_SUCCESS;
    uint8_t *d = dev_range(ctx, "wsMemcpyHtoD", "destination", dst, bytes, &st);
    if (!d)
        return st;
    memcpy(d, src, bytes);
    return WS_SUCCESS;
}

ws_status wsMemcpyDtoH(ws_ctx *ctx, void *dst, ws_devptr src, size_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (bytes == 0)
        return WS_SUCCESS;
    if (!dst)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsMemcpyDtoH: NULL host destination");
    ws_status st = WS_SUCCESS;
    const uint8_t *s = dev_range(ctx, "wsMemcpyDtoH", "source", src, bytes, &st);
    if (!s)
        return st;
    memcpy(dst, s, bytes);
    return WS_SUCCESS;
}

ws_status wsMemcpyDtoD(ws_ctx *ctx, ws_devptr dst, ws_devptr src, size_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (bytes == 0)
        return WS_SUCCESS;
    ws_status st = WS_SUCCESS;
    const uint8_t *s = dev_range(ctx, "wsMemcpyDtoD", "source", src, bytes, &st);
    if (!s)
        return st;
    uint8_t *d = dev_range(ctx, "wsMemcpyDtoD", "destination", dst, bytes, &st);
    if (!d)
        return st;
    memmove(d, s, bytes);
    return WS_SUCCESS;
}

ws_status wsMemset(ws_ctx *ctx, ws_devptr dst, int value, size_t bytes)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (bytes == 0)
        return WS_SUCCESS;
    ws_status st = WS_SUCCESS;
    uint8_t *d = dev_range(ctx, "wsMemset", "destination", dst, bytes, &st);
    if (!d)
        return st;
    memset(d, value & 0xff, bytes);
    return WS_SUCCESS;
}

/* Host view of a module variable's bytes [offset, offset+bytes). */
static uint8_t *sym_range(ws_ctx *ctx, ws_module *mod, const char *call, const char *symbol, size_t bytes,
                          size_t offset, ws_status *st)
{
    if (!mod || mod->ctx != ctx || !symbol) {
        *st = ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s: invalid module or NULL symbol name", call);
        return NULL;
    }
    const struct ptx_sym *y = ws_module_sym(mod, symbol);
    if (!y) {
        *st = ws_fail(ctx, WS_ERROR_NOT_FOUND, "%s: no __device__ or __constant__ variable '%s' in module '%s'", call,
                      symbol, mod->name);
        return NULL;
    }
    if (offset > y->size || bytes > y->size - offset) {
        *st = ws_fail(ctx, WS_ERROR_INVALID_VALUE,
                      "%s: %zu bytes at offset %zu exceed variable '%s' of %" PRIu64 " bytes", call, bytes, offset,
                      symbol, y->size);
        return NULL;
    }
    if (y->space == PS_CONST)
        return mod->cbank + y->addr + offset;
    uint8_t *p = ptx_mem_ptr(&ctx->mem, y->addr + offset, bytes ? bytes : 1);
    if (!p && bytes)
        *st = ws_fail(ctx, WS_ERROR_INVALID_VALUE, "%s: variable '%s' is not mapped", call, symbol);
    return p;
}

ws_status wsMemcpyToSymbol(ws_ctx *ctx, ws_module *mod, const char *symbol, const void *src, size_t bytes,
                           size_t offset)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!src && bytes)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsMemcpyToSymbol: NULL host source");
    ws_status st = WS_SUCCESS;
    uint8_t *d = sym_range(ctx, mod, "wsMemcpyToSymbol", symbol, bytes, offset, &st);
    if (st != WS_SUCCESS)
        return st;
    if (bytes && d)
        memcpy(d, src, bytes);
    return WS_SUCCESS;
}

ws_status wsMemcpyFromSymbol(ws_ctx *ctx, ws_module *mod, const char *symbol, void *dst, size_t bytes,
                             size_t offset)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!dst && bytes)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsMemcpyFromSymbol: NULL host destination");
    ws_status st = WS_SUCCESS;
    const uint8_t *s = sym_range(ctx, mod, "wsMemcpyFromSymbol", symbol, bytes, offset, &st);
    if (st != WS_SUCCESS)
        return st;
    if (bytes && s)
        memcpy(dst, s, bytes);
    return WS_SUCCESS;
}

ws_status wsCreateTextureObject(ws_ctx *ctx, ws_texobj *tex, const ws_tex_desc *desc)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!tex || !desc)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsCreateTextureObject: NULL argument");
    *tex = 0;
    struct ptx_tex_desc d;
    memset(&d, 0, sizeof d);
    if (desc->format > WS_TEX_UNSIGNED || desc->channels > 4 || desc->bits_per_channel > 32)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsCreateTextureObject: bad format, channels or bits");
    d.base = desc->base;
    d.format = (uint8_t)(desc->format == WS_TEX_FLOAT ? PTX_TEX_FLOAT
                         : desc->format == WS_TEX_SIGNED ? PTX_TEX_SIGNED : PTX_TEX_UNSIGNED);
    d.channels = (uint8_t)desc->channels;
    d.bits = (uint8_t)desc->bits_per_channel;
    d.width = desc->width;
    d.height = desc->height ? desc->height : 1;
    d.pitch = desc->pitch_bytes ? desc->pitch_bytes : (uint64_t)desc->width * desc->channels * desc->bits_per_channel / 8;
    char why[256];
    if (ptx_mem_tex_create(&ctx->mem, &d, tex, why, sizeof why))
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsCreateTextureObject: %s", why);
    return WS_SUCCESS;
}

ws_status ws_create_surface_object(ws_ctx *ctx, ws_texobj *surf, const ws_tex_desc *desc)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!surf || !desc)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "ws_create_surface_object: NULL argument");
    *surf = 0;
    if (desc->channels > 4 || desc->bits_per_channel > 32)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "ws_create_surface_object: bad channels or bits");
    struct ptx_tex_desc d;
    memset(&d, 0, sizeof d);
    d.base = desc->base;
    d.format = PTX_TEX_UNSIGNED;   /* raw bits */
    d.channels = (uint8_t)desc->channels;
    d.bits = (uint8_t)desc->bits_per_channel;
    d.width = desc->width;
    d.height = desc->height ? desc->height : 1;
    d.pitch = desc->pitch_bytes ? desc->pitch_bytes
                                : (uint64_t)desc->width * desc->channels * desc->bits_per_channel / 8;
    char why[256];
    if (ptx_mem_surf_create(&ctx->mem, &d, surf, why, sizeof why))
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "ws_create_surface_object: %s", why);
    return WS_SUCCESS;
}

ws_status ws_destroy_surface_object(ws_ctx *ctx, ws_texobj surf)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (surf == 0)
        return WS_SUCCESS;
    if (ptx_mem_surf_destroy(&ctx->mem, surf))
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE,
                       "ws_destroy_surface_object: 0x%" PRIx64 " is not a surface object", surf);
    return WS_SUCCESS;
}

ws_status wsDestroyTextureObject(ws_ctx *ctx, ws_texobj tex)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (tex == 0)
        return WS_SUCCESS;
    if (ptx_mem_tex_destroy(&ctx->mem, tex))
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsDestroyTextureObject: 0x%" PRIx64 " is not a texture object",
                       tex);
    return WS_SUCCESS;
}
