/*
 * cta_sched.h - CTA (thread-block) scheduling policies behind one ops struct.
 * The GPU asks the policy, whenever CTAs of the running kernel remain, which
 * SM gets the next one; the mechanism (resource checks, dispatch) stays in
 * the GPU.  Per-SM CTA limits (static n, DYNCTA) come through cta_limit.
 */
#ifndef WARPSIM_CTA_SCHED_H
#define WARPSIM_CTA_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/sim.h"

struct sm_cta_view {
    unsigned resident;         /* CTAs on the SM now */
    unsigned max_fit;          /* N: CTAs of this kernel the SM's resources allow at most */
    unsigned can_take;         /* 1 when resources allow one more CTA now */
};

struct gpu_view {
    unsigned n_sms;
    const struct sm_cta_view *sm;   /* [n_sms] */
    uint64_t next_cta;         /* linear id of the next CTA to dispatch */
    uint64_t n_ctas;           /* CTAs in the grid */
    unsigned kernel_id;
};

struct cta_sched_ops {
    const char *name;
    const char *doc;
    size_t state_size;
    const struct cfg_opt *params;
    size_t nparams;
    int (*init)(void *st, const struct gpu_view *g);                 /* at each kernel start */
    /* SM to receive the next CTA now, or -1 for none this cycle. Called
       repeatedly in a cycle until it returns -1 (at most one CTA per SM per cycle). */
    int (*pick_sm)(void *st, const struct gpu_view *g, sim_cycle now);
    void (*on_dispatch)(void *st, unsigned sm, uint64_t cta, sim_cycle now);   /* may be NULL */
    void (*on_cta_done)(void *st, unsigned sm, uint64_t cta, sim_cycle now);   /* may be NULL */
};

const struct cta_sched_ops *cta_sched_find(const char *name);
void cta_sched_names(char *buf, size_t n);

#endif
