/* arena.c - chunked bump allocator (see arena.h). */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct chunk {
    struct chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};

struct arena {
    struct chunk *head;
    size_t chunk_bytes;
    size_t total;
};

struct arena *arena_new(size_t chunk_bytes)
{
    struct arena *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->chunk_bytes = chunk_bytes ? chunk_bytes : (size_t)64 << 10;
    return a;
}

void arena_free(struct arena *a)
{
    if (!a)
        return;
    struct chunk *c = a->head;
    while (c) {
        struct chunk *n = c->next;
        free(c);
        c = n;
    }
    free(a);
}

void *arena_alloc(struct arena *a, size_t bytes)
{
    size_t need = (bytes + 15) & ~(size_t)15;
    if (need == 0)
        need = 16;
    struct chunk *c = a->head;
    if (!c || c->size - c->used < need) {
        size_t sz = need > a->chunk_bytes ? need : a->chunk_bytes;
        c = malloc(sizeof *c + sz);
        if (!c)
            return NULL;
        c->size = sz;
        c->used = 0;
        c->next = a->head;
        a->head = c;
        a->total += sz;
    }
    void *p = c->data + c->used;
    c->used += need;
    memset(p, 0, need);
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *arena_strdup(struct arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

size_t arena_bytes(const struct arena *a) { return a->total; }
