/* ptx_mem.c - simulated device memory, texture objects, checker wording (see ptx_mem.h). */
#include "ptx_mem.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Texture handles carry a tag in the high bits so a stray integer (a device
   pointer, a small index) is not mistaken for a texture. */
#define TEX_TAG 0x5445000000000000ull
#define TEX_TAG_MASK 0xffff000000000000ull
#define SURF_TAG 0x5355000000000000ull

enum ptx_space ptx_mem_generic_space(uint64_t gaddr, uint64_t *offset)
{
    static const struct { uint64_t base; uint8_t space; } win[] = {
        {PTX_WIN_CONST, PS_CONST}, {PTX_WIN_SHARED, PS_SHARED},
        {PTX_WIN_LOCAL, PS_LOCAL}, {PTX_WIN_PARAM, PS_PARAM},
    };
    for (size_t i = 0; i < sizeof win / sizeof win[0]; i++) {
        if (gaddr - win[i].base < PTX_WIN_SIZE) {
            *offset = gaddr - win[i].base;
            return (enum ptx_space)win[i].space;
        }
    }
    *offset = gaddr;
    return PS_GLOBAL;
}

uint64_t ptx_mem_window_base(enum ptx_space s)
{
    switch (s) {
    case PS_GLOBAL: return 0;
    case PS_CONST: return PTX_WIN_CONST;
    case PS_SHARED: return PTX_WIN_SHARED;
    case PS_LOCAL: return PTX_WIN_LOCAL;
    case PS_PARAM: return PTX_WIN_PARAM;
    default: return UINT64_MAX;
    }
}

void ptx_mem_init(struct ptx_mem *m)
{
    memset(m, 0, sizeof *m);
    m->next = PTX_GLOBAL_BASE;
    m->limit = PTX_GLOBAL_LIMIT;
}

void ptx_mem_destroy(struct ptx_mem *m)
{
    for (size_t i = 0; i < m->nallocs; i++)
        free(m->allocs[i].data);
    free(m->allocs);
    free(m->tex);
    memset(m, 0, sizeof *m);
}

int ptx_mem_insert(struct ptx_mem *m, uint64_t base, uint64_t size, void *data, const char *label)
{
    if (size > m->limit || m->in_use > m->limit - size)
        return -1;
    if (m->nallocs == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        struct ptx_mem_alloc *na = realloc(m->allocs, nc * sizeof *na);
        if (!na)
            return -1;
        m->allocs = na;
        m->cap = nc;
    }
    /* usually the last place: ptx_mem's own addresses grow; memory mapped by the host API
       (ws_mem_alloc_managed) lies above them */
    size_t i = m->nallocs;
    while (i > 0 && m->allocs[i - 1].base > base)
        i--;
    memmove(&m->allocs[i + 1], &m->allocs[i], (m->nallocs - i) * sizeof m->allocs[0]);
    m->allocs[i] = (struct ptx_mem_alloc){base, size, data, label};
    m->nallocs++;
    m->last = i;
    m->in_use += size;
    return 0;
}

int ptx_mem_alloc(struct ptx_mem *m, uint64_t size, const char *label, uint64_t *addr)
{
    if (size > m->limit || m->in_use > m->limit - size)
        return -1;
    uint8_t *data = calloc(1, size ? (size_t)size : 1);
    if (!data)
        return -1;
    uint64_t base = m->next;
    if (ptx_mem_insert(m, base, size, data, label) != 0) {
        free(data);
        return -1;
    }
    /* next address: past this buffer, past a gap, rounded up to the alignment */
    uint64_t end = base + (size ? size : 1) + PTX_GLOBAL_GAP;
    m->next = (end + PTX_GLOBAL_ALIGN - 1) & ~(uint64_t)(PTX_GLOBAL_ALIGN - 1);
    *addr = base;
    return 0;
}

/* index of the last allocation with base <= addr, or -1 */
static ptrdiff_t mem_floor(const struct ptx_mem *m, uint64_t addr)
{
    size_t lo = 0, hi = m->nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->allocs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

int ptx_mem_free(struct ptx_mem *m, uint64_t addr)
{
    ptrdiff_t i = mem_floor(m, addr);
    if (i < 0 || m->allocs[i].base != addr || m->allocs[i].label)
        return -1;
    free(m->allocs[i].data);
    m->in_use -= m->allocs[i].size;
    memmove(&m->allocs[i], &m->allocs[i + 1], (m->nallocs - (size_t)i - 1) * sizeof m->allocs[0]);
    m->nallocs--;
    m->last = 0;
    return 0;
}

const struct ptx_mem_alloc *ptx_mem_find(struct ptx_mem *m, uint64_t addr)
{
    ptrdiff_t i = mem_floor(m, addr);
    if (i < 0 || addr - m->allocs[i].base >= m->allocs[i].size)
        return NULL;
    m->last = (size_t)i;
    return &m->allocs[i];
}

void ptx_mem_describe(struct ptx_mem *m, uint64_t addr, const char *prefix, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    ptrdiff_t i = mem_floor(m, addr);
    const struct ptx_mem_alloc *below = i >= 0 ? &m->allocs[i] : NULL;
    const struct ptx_mem_alloc *above = (size_t)(i + 1) < m->nallocs ? &m->allocs[i + 1] : NULL;
    int w = snprintf(buf, n, "%sAddress 0x%" PRIx64 " is out of bounds", prefix, addr);
    if (w < 0 || (size_t)w >= n)
        return;
    /* distance past the end of the allocation below vs. before the one above */
    uint64_t after = 0, before = 0;
    if (below)
        after = addr - below->base >= below->size ? addr - (below->base + below->size) : 0;
    if (above)
        before = above->base - addr;
    const char *lbl = NULL;
    if (below && (!above || after <= before)) {
        lbl = below->label;
        snprintf(buf + w, n - (size_t)w,
                 "\n%sand is %" PRIu64 " bytes after the nearest allocation at 0x%" PRIx64 " of size %" PRIu64
                 " bytes%s%s%s",
                 prefix, after, below->base, below->size, lbl ? " ('" : "", lbl ? lbl : "", lbl ? "')" : "");
    } else if (above) {
        lbl = above->label;
        snprintf(buf + w, n - (size_t)w,
                 "\n%sand is %" PRIu64 " bytes before the nearest allocation at 0x%" PRIx64 " of size %" PRIu64
                 " bytes%s%s%s",
                 prefix, before, above->base, above->size, lbl ? " ('" : "", lbl ? lbl : "", lbl ? "')" : "");
    } else {
        snprintf(buf + w, n - (size_t)w, "\n%sand no device memory is allocated", prefix);
    }
}

/* ---- textures -------------------------------------------------------------- */

static int table_add(struct ptx_mem *m, const struct ptx_tex_desc *d, bool surface, uint64_t *handle, char *why,
                     size_t why_n)
{
    const char *bad = NULL;
    uint64_t esize = (uint64_t)d->channels * d->bits / 8;
    if (d->channels != 1 && d->channels != 2 && d->channels != 4)
        bad = "channels must be 1, 2 or 4";
    else if (d->bits != 8 && d->bits != 16 && d->bits != 32)
        bad = "bits per channel must be 8, 16 or 32";
    else if (!surface && d->format == PTX_TEX_FLOAT && d->bits == 8)
        bad = "float textures need 16 or 32 bits per channel";
    else if (d->format > PTX_TEX_UNSIGNED)
        bad = "unknown channel format";
    else if (d->width == 0 || d->height == 0)
        bad = "width and height must be non-zero";
    else if (d->pitch < d->width * esize || d->pitch % esize)
        bad = "pitch must be at least width * element size and a multiple of the element size";
    else if (d->base % esize)
        bad = "base address is not aligned to the element size";
    else if (d->width > (1ull << 31) || d->height > (1ull << 31))
        bad = "texture too large";
    if (!bad) {
        /* the whole texture must lie in one allocation */
        uint64_t bytes = (d->height - 1) * d->pitch + d->width * esize;
        if (!ptx_mem_ptr(m, d->base, bytes))
            bad = "texture memory is not inside one device allocation";
    }
    if (bad) {
        snprintf(why, why_n, "%s", bad);
        return -1;
    }
    size_t slot = m->ntex;
    for (size_t i = 0; i < m->ntex; i++)
        if (m->tex[i].channels == 0) {
            slot = i;
            break;
        }
    if (slot == m->ntex) {
        if (m->ntex == m->tex_cap) {
            size_t nc = m->tex_cap ? m->tex_cap * 2 : 16;
            struct ptx_tex_desc *nt = realloc(m->tex, nc * sizeof *nt);
            if (!nt) {
                snprintf(why, why_n, "out of host memory");
                return -1;
            }
            m->tex = nt;
            m->tex_cap = nc;
        }
        m->ntex++;
    }
    m->tex[slot] = *d;
    m->tex[slot].surface = surface;
    *handle = (surface ? SURF_TAG : TEX_TAG) | (uint64_t)(slot + 1);
    return 0;
}

int ptx_mem_tex_create(struct ptx_mem *m, const struct ptx_tex_desc *d, uint64_t *handle, char *why,
                       size_t why_n)
{
    return table_add(m, d, false, handle, why, why_n);
}

int ptx_mem_surf_create(struct ptx_mem *m, const struct ptx_tex_desc *d, uint64_t *handle, char *why,
                        size_t why_n)
{
    return table_add(m, d, true, handle, why, why_n);
}

static struct ptx_tex_desc *table_slot(const struct ptx_mem *m, uint64_t handle, bool surface)
{
    if ((handle & TEX_TAG_MASK) != (surface ? SURF_TAG : TEX_TAG))
        return NULL;
    uint64_t i = (handle & ~TEX_TAG_MASK) - 1;
    if (i >= m->ntex || m->tex[i].channels == 0 || m->tex[i].surface != surface)
        return NULL;
    return &m->tex[i];
}

static struct ptx_tex_desc *tex_slot(const struct ptx_mem *m, uint64_t handle)
{
    return table_slot(m, handle, false);
}

int ptx_mem_surf_destroy(struct ptx_mem *m, uint64_t handle)
{
    struct ptx_tex_desc *t = table_slot(m, handle, true);
    if (!t)
        return -1;
    memset(t, 0, sizeof *t);
    return 0;
}

const struct ptx_tex_desc *ptx_mem_surf_get(const struct ptx_mem *m, uint64_t handle)
{
    return table_slot(m, handle, true);
}

int ptx_mem_tex_destroy(struct ptx_mem *m, uint64_t handle)
{
    struct ptx_tex_desc *t = tex_slot(m, handle);
    if (!t)
        return -1;
    memset(t, 0, sizeof *t);
    return 0;
}

const struct ptx_tex_desc *ptx_mem_tex_get(const struct ptx_mem *m, uint64_t handle)
{
    return tex_slot(m, handle);
}

uint32_t ptx_mem_half_to_float_bits(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ff;
    if (exp == 0x1f)
        return sign | 0x7f800000u | (man << 13);
    if (exp == 0) {
        if (man == 0)
            return sign;
        /* subnormal half: normalise into a single-precision normal */
        int e = -1;
        do {
            man <<= 1;
            e++;
        } while (!(man & 0x400));
        man &= 0x3ff;
        return sign | ((uint32_t)(127 - 15 - e) << 23) | (man << 13);
    }
    return sign | ((exp - 15 + 127) << 23) | (man << 13);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int ptx_mem_tex_fetch(struct ptx_mem *m, const struct ptx_tex_desc *d, int64_t x, int64_t y, bool to_float,
                      uint32_t out[4], uint64_t *bad_addr)
{
    /* clamp-to-edge addressing */
    if (x < 0) x = 0;
    if ((uint64_t)x >= d->width) x = (int64_t)d->width - 1;
    if (y < 0) y = 0;
    if ((uint64_t)y >= d->height) y = (int64_t)d->height - 1;
    unsigned cb = d->bits / 8u;
    uint64_t esize = (uint64_t)cb * d->channels;
    uint64_t addr = d->base + (uint64_t)y * d->pitch + (uint64_t)x * esize;
    const uint8_t *p = ptx_mem_ptr(m, addr, esize);
    if (!p) {
        *bad_addr = addr;
        return -1;
    }
    out[0] = out[1] = out[2] = out[3] = 0;
    for (unsigned c = 0; c < d->channels; c++) {
        uint32_t raw = 0;
        memcpy(&raw, p + c * cb, cb);   /* little-endian host: low bytes first */
        uint32_t v;
        if (d->format == PTX_TEX_FLOAT) {
            v = cb == 2 ? ptx_mem_half_to_float_bits((uint16_t)raw) : raw;
        } else if (d->format == PTX_TEX_SIGNED) {
            int32_t s = cb == 1 ? (int32_t)(int8_t)(uint8_t)raw
                      : cb == 2 ? (int32_t)(int16_t)(uint16_t)raw : (int32_t)raw;
            if (to_float) {
                float f = cb == 4 ? (float)s : fmaxf((float)s / (cb == 1 ? 127.0f : 32767.0f), -1.0f);
                v = f32_bits(f);
            } else {
                v = (uint32_t)s;
            }
        } else {
            if (to_float) {
                float f = cb == 4 ? (float)raw : (float)raw / (cb == 1 ? 255.0f : 65535.0f);
                v = f32_bits(f);
            } else {
                v = raw;
            }
        }
        out[c] = v;
    }
    return 0;
}
