/*
 * stats.h - named counters registered by their owners.
 *
 * A component keeps its counters as plain uint64_t fields (incremented in the
 * tick loop with no indirection) and registers a pointer to each with a name
 * at init: "sm3.l1d.misses", "part2.dram.row_hits".  Reports iterate the
 * registry (raw counters to JSON/text), take snapshots at kernel boundaries
 * (per-kernel = end - start), and compute derived metrics (miss rates, IPC)
 * in the report code, not in the model.
 */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "arena.h"

struct stat_entry {
    const char *name;          /* arena copy */
    const uint64_t *ctr;
    const char *doc;           /* static string, may be NULL */
};

struct stats {
    struct arena *arena;
    struct stat_entry *e;
    uint32_t n, cap;
};

void stats_init(struct stats *s, struct arena *a);
/* Register a counter; the name is formatted printf-style and copied. */
void stats_reg(struct stats *s, const uint64_t *ctr, const char *doc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Copy every counter's current value into out[0..n-1] (registration order). */
void stats_snapshot(const struct stats *s, uint64_t *out);
/* Sum of the counters whose name matches "prefix*suffix" (e.g. "sm", ".l1d.misses"). */
uint64_t stats_sum(const struct stats *s, const char *prefix, const char *suffix);
/* Same over a snapshot difference (end - start arrays from stats_snapshot). */
uint64_t stats_sum_delta(const struct stats *s, const uint64_t *start, const uint64_t *end, const char *prefix,
                         const char *suffix);

#endif
