/* fatbin.c - fatbinary containers: entries, PTX choice, decompression (fatbin.h). */
#include "fatbin.h"

#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

#define CONTAINER_HDR 16u
#define ENTRY_HDR_MIN 64u
/* a registered container larger than this is taken as corrupt */
#define FATBIN_MAX_BYTES (1ull << 32)

size_t fatbin_container_size(const void *data, size_t avail)
{
    const uint8_t *p = data;
    if (!p || (avail && avail < CONTAINER_HDR) || rd32(p) != FATBIN_MAGIC)
        return 0;
    uint16_t hs = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hs < CONTAINER_HDR || body > FATBIN_MAX_BYTES || (avail && (uint64_t)hs + body > avail))
        return 0;
    return (size_t)(hs + body);
}

int fatbin_list(const void *data, size_t len, struct fatbin_list *out, char *msg, size_t n)
{
    const uint8_t *p = data;
    memset(out, 0, sizeof *out);
    size_t pos = 0;
    int containers = 0;
    while (pos + CONTAINER_HDR <= len) {
        if (rd32(p + pos) != FATBIN_MAGIC) {
            if (containers && rd32(p + pos) == 0) {   /* padding between containers */
                pos += 8;
                continue;
            }
            snprintf(msg, n, "not a fatbinary container at offset %zu (magic 0x%08x, expected 0x%08x)", pos,
                     rd32(p + pos), FATBIN_MAGIC);
            return -1;
        }
        size_t csize = fatbin_container_size(p + pos, len - pos);
        if (!csize) {
            snprintf(msg, n, "fatbinary container at offset %zu is truncated or has a bad header", pos);
            return -1;
        }
        containers++;
        size_t q = pos + rd16(p + pos + 6), end = pos + csize;
        while (q + ENTRY_HDR_MIN <= end) {
            const uint8_t *h = p + q;
            uint32_t hs = rd32(h + 4);
            uint64_t psize = rd64(h + 8);
            if (hs < ENTRY_HDR_MIN || hs > end - q || psize > end - q - hs) {
                snprintf(msg, n, "fatbinary entry at offset %zu is truncated or has a bad header", q);
                return -1;
            }
            if (out->n == FATBIN_MAX_ENTRIES) {
                snprintf(msg, n, "more than %d entries in the fatbinary", FATBIN_MAX_ENTRIES);
                return -1;
            }
            struct fatbin_entry *e = &out->e[out->n++];
            e->kind = rd16(h);
            e->ptx_minor = rd16(h + 0x18);
            e->ptx_major = rd16(h + 0x1a);
            e->arch = rd32(h + 0x1c);
            e->flags = rd64(h + 0x28);
            e->payload = h + hs;
            uint32_t csz = rd32(h + 0x10);
            int compressed = (e->flags & (FATBIN_FLAG_LZ4 | FATBIN_FLAG_ZSTD)) != 0;
            e->payload_size = compressed && csz && csz <= psize ? csz : psize;
            e->uncompressed_size = compressed ? rd64(h + 0x38) : psize;
            q += hs + psize;
        }
        pos = end;
    }
    if (!containers) {
        snprintf(msg, n, "no fatbinary container (%zu bytes)", len);
        return -1;
    }
    return 0;
}

/* PTX ends at its first NUL (entries are padded with zeros). */
static char *finish_text(char *buf, size_t got, size_t *len)
{
    buf[got] = '\0';
    *len = strlen(buf);
    return buf;
}

/* LZ4 block: each byte of input expands to at most 255 bytes of output (a match length byte of 0xFF),
   plus a few for the token's own lengths */
#define LZ4_MAX_RATIO 255u
#define LZ4_MAX_SLACK 64u

char *fatbin_entry_ptx(const struct fatbin_entry *e, size_t *len, char *msg, size_t n)
{
    *len = 0;
    int zstd = (e->flags & FATBIN_FLAG_ZSTD) != 0, lz4 = !zstd && (e->flags & FATBIN_FLAG_LZ4) != 0;
    if (!zstd && !lz4) {   /* plain: the payload itself */
        size_t want = (size_t)e->payload_size;
        char *buf = malloc(want + 1);
        if (!buf) {
            snprintf(msg, n, "out of host memory for %zu bytes of PTX", want);
            return NULL;
        }
        memcpy(buf, e->payload, want);
        return finish_text(buf, want, len);
    }
    /* A compressed entry's size comes from its header: bounded before anything is allocated. */
    if (lz4 && e->payload_size > (uint64_t)LZ4_MAX_INPUT_SIZE) {
        snprintf(msg, n, "PTX entry for compute_%u: too large for LZ4", e->arch);
        return NULL;
    }
    if (e->uncompressed_size > FATBIN_MAX_PTX ||
        (lz4 && e->uncompressed_size > e->payload_size * LZ4_MAX_RATIO + LZ4_MAX_SLACK)) {
        snprintf(msg, n, "PTX entry for compute_%u claims %llu bytes uncompressed from %llu compressed", e->arch,
                 (unsigned long long)e->uncompressed_size, (unsigned long long)e->payload_size);
        return NULL;
    }
    size_t want = (size_t)e->uncompressed_size;
    size_t frame = 0;
    if (zstd) {
        frame = ZSTD_findFrameCompressedSize(e->payload, (size_t)e->payload_size);
        unsigned long long content = ZSTD_isError(frame) ? ZSTD_CONTENTSIZE_ERROR
                                                          : ZSTD_getFrameContentSize(e->payload, frame);
        if (ZSTD_isError(frame) || content == ZSTD_CONTENTSIZE_ERROR) {
            snprintf(msg, n, "PTX entry for compute_%u: zstd decompression failed (%s)", e->arch,
                     ZSTD_isError(frame) ? ZSTD_getErrorName(frame) : "bad frame header");
            return NULL;
        }
        if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != want) {
            snprintf(msg, n, "PTX entry for compute_%u claims %llu bytes uncompressed, its zstd frame %llu", e->arch,
                     (unsigned long long)want, content);
            return NULL;
        }
    }
    char *buf = malloc(want + 1);
    if (!buf) {
        snprintf(msg, n, "out of host memory for %zu bytes of PTX", want);
        return NULL;
    }
    if (zstd) {
        size_t got = ZSTD_decompress(buf, want, e->payload, frame);
        if (ZSTD_isError(got) || got != want) {
            snprintf(msg, n, "PTX entry for compute_%u: zstd decompression failed (%s)", e->arch,
                     ZSTD_isError(got) ? ZSTD_getErrorName(got) : "wrong size");
            free(buf);
            return NULL;
        }
        return finish_text(buf, got, len);
    }
    /* both sizes fit an int: LZ4_MAX_INPUT_SIZE and FATBIN_MAX_PTX */
    int got = LZ4_decompress_safe((const char *)e->payload, buf, (int)e->payload_size, (int)want);
    if (got < 0 || (size_t)got != want) {
        snprintf(msg, n, "PTX entry for compute_%u: LZ4 decompression failed", e->arch);
        free(buf);
        return NULL;
    }
    return finish_text(buf, (size_t)got, len);
}

char *fatbin_pick_ptx(const struct fatbin_list *l, unsigned max_arch, size_t *len, unsigned *arch, char *msg,
                      size_t n)
{
    const struct fatbin_entry *best = NULL;
    for (unsigned i = 0; i < l->n; i++) {
        const struct fatbin_entry *e = &l->e[i];
        if (e->kind != FATBIN_KIND_PTX)
            continue;
        int e_ok = e->arch <= max_arch, b_ok = best && best->arch <= max_arch;
        if (!best || (e_ok && !b_ok) || (e_ok && b_ok && e->arch > best->arch) ||
            (!e_ok && !b_ok && e->arch < best->arch))
            best = e;
    }
    if (!best) {
        char archs[256] = "";
        size_t used = 0;
        unsigned lo = 0;
        for (unsigned i = 0; i < l->n && used < sizeof archs - 16; i++) {
            used += (size_t)snprintf(archs + used, sizeof archs - used, "%ssm_%u", used ? ", " : "", l->e[i].arch);
            if (!lo || l->e[i].arch < lo)
                lo = l->e[i].arch;
        }
        if (!lo)
            lo = 75;
        snprintf(msg, n,
                 "the program's fatbinary has no PTX, only machine code (%s), which warpsim cannot run: recompile "
                 "with nvcc -cudart shared -gencode arch=compute_%u,code=compute_%u (add it beside your -gencode/-arch "
                 "options)",
                 used ? archs : "no entries", lo, lo);
        return NULL;
    }
    *arch = best->arch;
    return fatbin_entry_ptx(best, len, msg, n);
}
