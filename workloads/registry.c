/* registry.c - the table of bundled workloads and their embedded PTX. */
#include <string.h>

#include "workload.h"

#define X(n) extern const struct workload wl_##n; extern const unsigned char wl_ptx_##n[]; extern const size_t wl_ptx_##n##_len;
#include "registry.def"
#undef X

static const struct workload *const table[] = {
#define X(n) &wl_##n,
#include "registry.def"
#undef X
};

static const struct { const char *name; const unsigned char *text; const size_t *len; } ptx[] = {
#define X(n) {#n, wl_ptx_##n, &wl_ptx_##n##_len},
#include "registry.def"
#undef X
};

size_t wl_count(void) { return sizeof table / sizeof table[0]; }
const struct workload *wl_get(size_t i) { return i < wl_count() ? table[i] : NULL; }

const struct workload *wl_find(const char *name)
{
    for (size_t i = 0; i < wl_count(); i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

const char *wl_ptx_text(const char *name, size_t *len)
{
    for (size_t i = 0; i < sizeof ptx / sizeof ptx[0]; i++)
        if (strcmp(ptx[i].name, name) == 0) {
            *len = *ptx[i].len;
            return (const char *)ptx[i].text;
        }
    return NULL;
}

const char *wl_size_name(enum wl_size s) { return s == WL_TINY ? "tiny" : s == WL_SMALL ? "small" : "paper"; }

int wl_size_parse(const char *s, enum wl_size *out)
{
    if (strcmp(s, "tiny") == 0) *out = WL_TINY;
    else if (strcmp(s, "small") == 0) *out = WL_SMALL;
    else if (strcmp(s, "paper") == 0) *out = WL_PAPER;
    else return -1;
    return 0;
}
