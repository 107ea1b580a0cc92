/*
 * oracle.h - oracle warp criticality for the CAWS warp schedulers (seed 000
 * sec. 3.5: "I encode the oracle warp criticality information based on the
 * warp execution time with the baseline RR policy").
 *
 * The oracle is the per-warp CSV file of an earlier run, written by
 *     warpsim run W --warp-sched lrr --warps FILE.csv
 * (header kernel_id,kernel,sm,cta,warp,start,end,cycles,...; columns are
 * found by name, so extra or reordered columns are fine).  A warp is keyed by
 * (kernel id, CTA linear id, warp index in its CTA) - the same in any run of
 * the same workload and size, whatever the schedulers - and its execution
 * time is end - start (core cycles from its CTA's dispatch to its exit).
 *
 * Records are kept sorted by key, so one CTA's warps are adjacent.  Loading
 * allocates (call it at init, never per cycle); lookups do not.
 */
#ifndef WARPSIM_POLICY_ORACLE_H
#define WARPSIM_POLICY_ORACLE_H

#include <stddef.h>
#include <stdint.h>

struct oracle_warp {
    uint32_t kernel_id;
    uint32_t warp;             /* warp index in its CTA */
    uint64_t cta;              /* CTA linear id */
    uint64_t time;             /* end - start, core cycles */
    uint32_t line;             /* where it came from (messages) */
    uint32_t pad_;
};

struct oracle {
    struct oracle_warp *w;     /* sorted by (kernel_id, cta, warp) */
    size_t n;
};

/* Read the per-warp file at path, keeping the records of kernel kernel_id
   only (0 = every kernel).  On error: -1 and a message "path:line: why" (or
   "path: why") in msg; o is left empty. */
int oracle_load(struct oracle *o, const char *path, unsigned kernel_id, char *msg, size_t n);
void oracle_free(struct oracle *o);

/* Index of the first record of CTA (kernel_id, cta) and how many it has in
   *count (0 when the oracle does not know the CTA). */
size_t oracle_cta(const struct oracle *o, unsigned kernel_id, uint64_t cta, size_t *count);
/* Execution time of one warp, or -1 when the oracle does not know it. */
int64_t oracle_time(const struct oracle *o, unsigned kernel_id, uint64_t cta, unsigned warp);
/* Records of kernel kernel_id. */
size_t oracle_kernel_count(const struct oracle *o, unsigned kernel_id);

#endif
