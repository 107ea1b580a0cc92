/*
 * arena.h - bump allocator owning the memory of one long-lived object (a PTX
 * module, a simulation).  Freed all at once; nothing is freed individually.
 */
#ifndef WARPSIM_ARENA_H
#define WARPSIM_ARENA_H

#include <stddef.h>

struct arena;

struct arena *arena_new(size_t chunk_bytes /* 0 = 64 KiB */);
void arena_free(struct arena *a);
/* Zeroed, aligned to 16 bytes. Returns NULL only on host out-of-memory. */
void *arena_alloc(struct arena *a, size_t bytes);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
size_t arena_bytes(const struct arena *a);   /* total reserved */

#endif
