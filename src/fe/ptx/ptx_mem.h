/*
 * ptx_mem.h - simulated device memory: the sparse 64-bit global space, the
 * generic-address windows of the other spaces, texture objects, and the
 * memory checker's wording of a bad access.
 *
 * Global space: every allocation (wsMalloc or a module .global variable) gets
 * its own host buffer at a 256-byte aligned device address.  Addresses grow
 * from PTX_GLOBAL_BASE and are never reused, and an unmapped gap of at least
 * PTX_GLOBAL_GAP bytes separates consecutive allocations, so an overrun of one
 * buffer faults instead of silently landing in the next.  Lookups are a binary
 * search over the allocations (sorted by address, because addresses only
 * grow) behind a last-hit cache.
 *
 * Generic addressing: global is identity; shared, local, const and kernel
 * param spaces are reached through fixed 4 GiB windows below PTX_GLOBAL_BASE
 * (cvta.SPACE adds the window base, cvta.to.SPACE subtracts it).  Address 0 and
 * everything else outside an allocation is unmapped.
 *
 * Ownership: struct ptx_mem owns every allocation buffer and the texture
 * table; ptx_mem_destroy() frees them.  Not thread-safe (one per context).
 */
#ifndef WARPSIM_PTX_MEM_H
#define WARPSIM_PTX_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx_ir.h"

#define PTX_GLOBAL_BASE   0x10000000000ull   /* first global allocation */
#define PTX_GLOBAL_ALIGN  256u
#define PTX_GLOBAL_GAP    256u               /* unmapped bytes between allocations */
#define PTX_GLOBAL_LIMIT  (64ull << 30)      /* total simulated global memory */

#define PTX_WIN_SIZE      0x100000000ull     /* every window spans 4 GiB */
#define PTX_WIN_CONST     0x1000000000ull
#define PTX_WIN_SHARED    0x2000000000ull
#define PTX_WIN_LOCAL     0x3000000000ull
#define PTX_WIN_PARAM     0x4000000000ull
/* every window lies below the first allocation, so "address >= PTX_GLOBAL_BASE" means global */
_Static_assert(PTX_WIN_PARAM + PTX_WIN_SIZE <= PTX_GLOBAL_BASE, "generic windows overlap the global heap");

/* The space a generic address falls in (PS_GLOBAL when it is in no window)
   and its offset inside that space. */
enum ptx_space ptx_mem_generic_space(uint64_t gaddr, uint64_t *offset);
/* Window base of a space for cvta (0 for global; UINT64_MAX when the space has none). */
uint64_t ptx_mem_window_base(enum ptx_space s);

struct ptx_mem_alloc {
    uint64_t base, size;
    uint8_t *data;          /* size bytes (at least 1), zero-initialised */
    const char *label;      /* NULL for wsMalloc; the variable name for module variables */
};

enum ptx_tex_format { PTX_TEX_FLOAT = 0, PTX_TEX_SIGNED, PTX_TEX_UNSIGNED };

struct ptx_tex_desc {
    uint64_t base;          /* global address of element (0,0) */
    uint8_t format;         /* enum ptx_tex_format */
    uint8_t channels;       /* 1, 2 or 4 */
    uint8_t bits;           /* bits per channel: 8, 16 or 32 (float: 16 or 32) */
    uint8_t surface;        /* 1: a surface object (suld/sust), 0: a texture object */
    uint64_t width, height; /* elements; height 1 for 1D */
    uint64_t pitch;         /* bytes per row */
};

struct ptx_mem {
    struct ptx_mem_alloc *allocs;   /* sorted by base */
    size_t nallocs, cap;
    size_t last;                    /* last-hit cache: index into allocs */
    uint64_t next;                  /* address of the next allocation */
    uint64_t in_use;                /* bytes allocated */
    uint64_t limit;                 /* PTX_GLOBAL_LIMIT unless changed */
    struct ptx_tex_desc *tex;       /* texture table; a free slot has channels == 0 */
    size_t ntex, tex_cap;
};

void ptx_mem_init(struct ptx_mem *m);
void ptx_mem_destroy(struct ptx_mem *m);

/* Allocate `size` zeroed bytes.  Returns 0 and the address, or -1 when out of
   (simulated or host) memory.  size 0 allocates a 1-byte buffer of size 0 so
   the address is unique and every access to it faults. */
int ptx_mem_alloc(struct ptx_mem *m, uint64_t size, const char *label, uint64_t *addr);
/* An allocation made elsewhere (data: its bytes, freed with free() by ptx_mem_free/ptx_mem_destroy
   unless the owner clears it first), kept in base order; counts against the limit.  0 or -1. */
int ptx_mem_insert(struct ptx_mem *m, uint64_t base, uint64_t size, void *data, const char *label);
/* Free the allocation starting exactly at addr.  Returns 0 or -1. */
int ptx_mem_free(struct ptx_mem *m, uint64_t addr);

/* The allocation containing addr, or NULL. */
const struct ptx_mem_alloc *ptx_mem_find(struct ptx_mem *m, uint64_t addr);

/* Host pointer for [addr, addr+size) when the whole range lies in one
   allocation, else NULL.  The hot path of every global access. */
static inline uint8_t *ptx_mem_ptr(struct ptx_mem *m, uint64_t addr, uint64_t size)
{
    if (m->nallocs) {
        const struct ptx_mem_alloc *a = &m->allocs[m->last < m->nallocs ? m->last : 0];
        uint64_t off = addr - a->base;
        if (addr >= a->base && off < a->size && size <= a->size - off)
            return a->data + off;
    }
    const struct ptx_mem_alloc *a = ptx_mem_find(m, addr);
    if (!a)
        return NULL;
    uint64_t off = addr - a->base;
    if (size > a->size - off)
        return NULL;
    return a->data + off;
}

/* Memory-checker wording for a bad global address: writes lines such as
     "Address 0x10000000190 is out of bounds\n"
     "and is 0 bytes after the nearest allocation at 0x10000000000 of size 400 bytes"
   each prefixed by `prefix`, lines separated by '\n' (no trailing newline). */
void ptx_mem_describe(struct ptx_mem *m, uint64_t addr, const char *prefix, char *buf, size_t n);

/* Textures.  Handles are opaque non-zero values.  create validates the
   descriptor (channels 1/2/4, bits 8/16/32, float only 16/32, non-empty,
   pitch >= row bytes, pitch a multiple of the element size) and returns -1
   with a reason in why when it is bad. */
int ptx_mem_tex_create(struct ptx_mem *m, const struct ptx_tex_desc *d, uint64_t *handle, char *why,
                       size_t why_n);
int ptx_mem_tex_destroy(struct ptx_mem *m, uint64_t handle);
const struct ptx_tex_desc *ptx_mem_tex_get(const struct ptx_mem *m, uint64_t handle);

/* Surface objects share the texture table (same descriptor and checks; the
   format is irrelevant, suld.b/sust.b move raw bits) but carry their own
   handle tag, so a texture handle is not a surface and vice versa. */
int ptx_mem_surf_create(struct ptx_mem *m, const struct ptx_tex_desc *d, uint64_t *handle, char *why,
                        size_t why_n);
int ptx_mem_surf_destroy(struct ptx_mem *m, uint64_t handle);
const struct ptx_tex_desc *ptx_mem_surf_get(const struct ptx_mem *m, uint64_t handle);

/* Point-sample one texel: x, y already integer (the caller floors float
   coordinates); both clamped to the edge.  out[0..3] receives the channels as
   32-bit values (float formats as f32 bits, 16-bit floats widened; signed
   sign-extended; unsigned zero-extended); missing channels are 0.  When
   to_float is set, integer formats are converted to f32: 8/16-bit channels
   normalised to [0,1] / [-1,1] (cudaReadModeNormalizedFloat), 32-bit ones
   converted by value.  Returns 0, or -1 when the texel is not in mapped
   memory (*bad_addr set). */
int ptx_mem_tex_fetch(struct ptx_mem *m, const struct ptx_tex_desc *d, int64_t x, int64_t y, bool to_float,
                      uint32_t out[4], uint64_t *bad_addr);

/* IEEE half -> single bits (exact). */
uint32_t ptx_mem_half_to_float_bits(uint16_t h);

#endif
