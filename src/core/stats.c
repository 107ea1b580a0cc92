/*
 * stats.c - registry of named counters (see stats.h).
 *
 * Registration happens at init only, so the entry array simply doubles in
 * the arena (the old copy is abandoned there).  Names must be unique: a
 * duplicate is a simulator bug (two components claiming "sm0.l1d.misses"
 * would make every report wrong), caught with an open-addressing index over
 * the name text (deterministic: hashes bytes, never pointers).
 */
#include "stats.h"

#include <stdarg.h>
#include <string.h>

#include "sim.h"

/* The index lives beside the entries; rebuilt whenever the arrays grow.
   Stored after e[cap] in the same arena block: slots of uint32_t, 0 = empty,
   else entry index + 1.  2*cap slots keep the load factor <= 1/2. */
static uint32_t *stats_index(const struct stats *s) { return (uint32_t *)(void *)(s->e + s->cap); }

static uint32_t stats_hash(const char *name)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 16777619u;
    return h;
}

/* Slot holding name, or the empty slot where it would go. */
static uint32_t stats_slot(const struct stats *s, const char *name)
{
    const uint32_t *idx = stats_index(s);
    uint32_t mask = s->cap * 2 - 1;
    uint32_t i = stats_hash(name) & mask;
    while (idx[i] && strcmp(s->e[idx[i] - 1].name, name) != 0)
        i = (i + 1) & mask;
    return i;
}

void stats_init(struct stats *s, struct arena *a)
{
    s->arena = a;
    s->e = NULL;
    s->n = s->cap = 0;
}

static void stats_grow(struct stats *s)
{
    uint32_t cap = s->cap ? s->cap * 2 : 256;   /* a power of two: the index mask relies on it */
    size_t bytes = sizeof(struct stat_entry) * cap + sizeof(uint32_t) * 2 * cap;
    struct stat_entry *ne = arena_alloc(s->arena, bytes);
    SIM_ASSERT(ne != NULL);
    if (s->n)
        memcpy(ne, s->e, sizeof *ne * s->n);
    s->e = ne;
    s->cap = cap;
    uint32_t *idx = stats_index(s);   /* zeroed by arena_alloc */
    for (uint32_t k = 0; k < s->n; k++)
        idx[stats_slot(s, s->e[k].name)] = k + 1;
}

void stats_reg(struct stats *s, const uint64_t *ctr, const char *doc, const char *fmt, ...)
{
    char name[256];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    SIM_ASSERT(len > 0 && (size_t)len < sizeof name);
    SIM_ASSERT(ctr != NULL);
    if (s->n == s->cap)
        stats_grow(s);
    uint32_t slot = stats_slot(s, name);
    if (stats_index(s)[slot])
        fprintf(stderr, "warpsim: internal error: statistic '%s' registered twice\n", name);
    SIM_ASSERT(stats_index(s)[slot] == 0);
    char *nm = arena_strndup(s->arena, name, (size_t)len);
    SIM_ASSERT(nm != NULL);
    s->e[s->n] = (struct stat_entry){nm, ctr, doc};
    stats_index(s)[slot] = ++s->n;
}

void stats_snapshot(const struct stats *s, uint64_t *out)
{
    for (uint32_t i = 0; i < s->n; i++)
        out[i] = *s->e[i].ctr;
}

static int stats_match(const char *name, const char *prefix, const char *suffix)
{
    size_t ln = strlen(name), lp = prefix ? strlen(prefix) : 0, ls = suffix ? strlen(suffix) : 0;
    return ln >= lp + ls && (lp == 0 || memcmp(name, prefix, lp) == 0) &&
           (ls == 0 || memcmp(name + ln - ls, suffix, ls) == 0);
}

uint64_t stats_sum(const struct stats *s, const char *prefix, const char *suffix)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (stats_match(s->e[i].name, prefix, suffix))
            sum += *s->e[i].ctr;
    return sum;
}

uint64_t stats_sum_delta(const struct stats *s, const uint64_t *start, const uint64_t *end, const char *prefix,
                         const char *suffix)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (stats_match(s->e[i].name, prefix, suffix))
            sum += end[i] - start[i];
    return sum;
}
