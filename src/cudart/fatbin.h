/*
 * fatbin.h - the fatbinary container that nvcc embeds in a program (the
 * .nv_fatbin section; __cudaRegisterFatBinary receives a wrapper pointing at
 * one container).  Only what warpsim needs: list the entries, pick the PTX of
 * the highest virtual architecture warpsim accepts, decompress it (zstd or LZ4
 * block, nvcc's -compress-mode choices), explain a SASS-only container.
 *
 * Layout, as observed in nvcc 13.0 output (little endian, see docs/cudart.md):
 *   container header (16 bytes): u32 magic 0xBA55ED50, u16 version 1,
 *     u16 header size (16), u64 size of the entries that follow;
 *   entry header (its own size at offset 4, 64 or more bytes):
 *     u16 kind (1 PTX, 2 ELF/SASS), u16 version, u32 header size,
 *     u64 payload size, u32 compressed size, u32 (unused here),
 *     u16 PTX ISA minor, u16 PTX ISA major, u32 arch (75 = sm_75/compute_75),
 *     u32 name offset, u32 name length, u64 flags, u64 (zero),
 *     u64 uncompressed size; the payload follows the header.
 *   flags 0x8000: payload is a zstd frame; 0x2000: an LZ4 block; else plain.
 */
#ifndef WARPSIM_CUDART_FATBIN_H
#define WARPSIM_CUDART_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_WRAPPER_MAGIC 0x466243B1u   /* __fatBinC_Wrapper_t.magic */
#define FATBIN_KIND_PTX 1u
#define FATBIN_KIND_ELF 2u
#define FATBIN_FLAG_LZ4 0x2000u
#define FATBIN_FLAG_ZSTD 0x8000u
/* The highest virtual architecture whose PTX warpsim takes (compute_XX); a
   fatbin's PTX above it is used only when it has nothing at or below it. */
#define FATBIN_MAX_ARCH 120u

struct fatbin_entry {
    unsigned kind;               /* FATBIN_KIND_* */
    unsigned arch;               /* 75 = sm_75 / compute_75 */
    unsigned ptx_major, ptx_minor;
    uint64_t flags;
    const uint8_t *payload;      /* inside the container */
    uint64_t payload_size;       /* bytes stored (compressed size when compressed) */
    uint64_t uncompressed_size;  /* when compressed, else payload_size */
};

/* The most PTX a compressed entry may claim uncompressed (its header's size is read before decompressing
   and allocated at once; a claim above this, above what the compressed bytes can expand to, or unlike a
   zstd frame's own content size, is an error). */
#define FATBIN_MAX_PTX (256u << 20)

#define FATBIN_MAX_ENTRIES 64
struct fatbin_list {
    unsigned n;
    struct fatbin_entry e[FATBIN_MAX_ENTRIES];
};

/* Size of the container at data (header + entries), 0 if data is not one.
   avail: bytes readable at data, or 0 when unknown (a registered program's). */
size_t fatbin_container_size(const void *data, size_t avail);
/* Every entry of the containers laid end to end in [data, data + len) (a
   whole .nv_fatbin section, or one container).  0, or -1 with msg. */
int fatbin_list(const void *data, size_t len, struct fatbin_list *out, char *msg, size_t n);
/* The entry's PTX text, decompressed, NUL-terminated, malloc'ed (*len without
   the NUL).  NULL with msg on a decompression error or an uncompressed size
   that is not believable (see FATBIN_MAX_PTX).  A plain entry's text is its
   payload_size bytes. */
char *fatbin_entry_ptx(const struct fatbin_entry *e, size_t *len, char *msg, size_t n);
/* The PTX warpsim should load from the list: the highest arch <= max_arch,
   else the lowest above it.  Malloc'ed text, *arch set.  NULL with msg when
   there is no PTX (a SASS-only fatbin: the message names the archs found and
   the -gencode option to add) or it cannot be decompressed. */
char *fatbin_pick_ptx(const struct fatbin_list *l, unsigned max_arch, size_t *len, unsigned *arch, char *msg,
                      size_t n);

#endif
