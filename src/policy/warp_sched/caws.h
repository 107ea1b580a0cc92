/*
 * caws.h - private to policy/warp_sched/caws*.c: the priority-counter core
 * shared by the three criticality-aware warp schedulers of seed 000 sec. 3.4
 * (CAWS-blk, CAWS-SM, CAWS-avg).  Exposed (not static) only so that each
 * variant is one small file and the unit tests can read the counters.
 *
 * Priority counters (000 sec. 3.4.2): every warp of the scheduler's pool has
 * a counter; the ready warp with the smallest counter issues, its counter is
 * reset to its priority value and every other warp's counter decreases by
 * one.  With P warps in the pool the values are
 *     default  P - 1                                   (the baseline RR)
 *     critical round(P * 100 / (100 + boost)) - 1       (boost% more issue slots;
 *                                                       boost 20, P 48: 39 = a turn every 40 issues)
 *     fast     round(P * 100 / (100 - slowdown)) - 1    (CAWS-avg only)
 * Criticality comes from the oracle (policy/oracle.h), the per-warp file of
 * an earlier run with lrr (the seed's RR baseline).
 */
#ifndef WARPSIM_POLICY_CAWS_H
#define WARPSIM_POLICY_CAWS_H

#include <stdint.h>

#include "policy/oracle.h"
#include "policy/warp_sched.h"

#define CAWS_MAX 64                /* warp views of one scheduler */
#define CAWS_POOL 1024             /* oracle records of the SM's resident CTAs considered */
#define CAWS_FLOOR (-(1 << 30))    /* counters of warps that cannot issue stop here */

enum caws_variant { CAWS_BLK = 0, CAWS_SM, CAWS_AVG };
enum caws_class { CAWS_FAST = -1, CAWS_NORMAL = 0, CAWS_CRIT = 1 };

struct caws_state {
    /* parameters (warp_sched.caws_*.*) */
    const char *oracle;        /* per-warp CSV of an earlier lrr run */
    double boost;              /* percent more issue slots for critical warps */
    double threshold;          /* caws_avg: percent above / below the mean that makes a warp critical / fast */
    double slowdown;           /* caws_avg: percent fewer issue slots for fast warps */
    /* state */
    int variant;               /* enum caws_variant */
    unsigned kernel_id;
    struct oracle orc;
    int n;                     /* views seen by the last order() */
    int npool;                 /* valid warps (P) */
    int last_slot;             /* dual issue: one selection per cycle */
    sim_cycle last_issue;
    int issued_any;
    uint64_t age[CAWS_MAX];    /* per view index: the warp the entry describes (UINT64_MAX = none) */
    int32_t cnt[CAWS_MAX];     /* priority counters */
    int8_t cls[CAWS_MAX];      /* enum caws_class */
    int8_t view_of_slot[CAWS_MAX];   /* SM slot -> view index, -1 = none */
    int64_t otime[CAWS_MAX];   /* oracle execution time, -1 = unknown */
    int sorted[CAWS_MAX];      /* valid view indices by (counter, age, slot) */
    int nsorted;
    uint64_t pool_time[CAWS_POOL];   /* scratch of the classification (no allocation per cycle) */
    uint64_t pool_cta[CAWS_POOL];
    uint32_t pool_warp[CAWS_POOL];
};

/* Load the oracle for sm->kernel_id and reset the counters; variant = enum caws_variant. */
int caws_init(struct caws_state *s, const struct sm_view *sm, int variant);
int caws_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now);
void caws_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now);
void caws_fini(void *st);
double caws_sample(const void *st);
/* The reset value of a class for the current pool size. */
int32_t caws_reset_value(const struct caws_state *s, int cls);

/* The parameters every CAWS variant takes (caws_avg adds its own after these). */
#define CAWS_COMMON_PARAMS                                                                                    \
    CFG_OPT("oracle", CFG_STRING, struct caws_state, oracle, "", 0, 0,                                        \
            "per-warp CSV of an earlier run: warpsim run W --warp-sched lrr --warps FILE.csv"),               \
    CFG_OPT("boost", CFG_DOUBLE, struct caws_state, boost, "20", 0, 400,                                      \
            "percent more issue slots for critical warps (20: reset 39 instead of 47 with 48 warps)")

#endif
