/*
 * cta_sched.h - CTA (thread-block) scheduling policies behind one ops struct.
 * The GPU asks the policy, whenever CTAs of the running kernel remain, which
 * SM gets the next one (and, with pick_cta, which waiting CTA it gets); the
 * mechanism (resource checks, dispatch) stays in the GPU.  Per-SM CTA limits (static n, DYNCTA) come through cta_limit.
 */
#ifndef WARPSIM_CTA_SCHED_H
#define WARPSIM_CTA_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/sim.h"

struct policy_machine;   /* policy/params.h */

struct sm_cta_view {
    unsigned resident;         /* CTAs on the SM now */
    unsigned max_fit;          /* N: CTAs of this kernel the SM's resources allow at most */
    unsigned can_take;         /* 1 when the SM may receive a CTA now: resources allow one more, its
                                  unpaused CTAs are below its limit and none is paused, and it has not
                                  received its per-cycle maximum (max_per_cycle) in this cycle */
    /* additions (CTA limits, docs/policies.md): */
    unsigned limit;            /* n: the SM's CTA limit now (max_fit when no policy limits it) */
    unsigned paused;           /* resident CTAs paused because running CTAs exceeded the limit */
    unsigned room;             /* CTAs the SM may still receive now under resources and limit (the
                                  per-cycle rule aside); 0 while a CTA is paused */
    /* the SM's cumulative counters (struct sm_metrics, docs/timing.md), up to
       the core cycle just simulated; a policy takes differences for windows */
    uint64_t c_idle, c_mem, n_act, n_inact;
};

struct cta_locality;   /* below */

struct gpu_view {
    unsigned n_sms;
    const struct sm_cta_view *sm;   /* [n_sms] */
    uint64_t next_cta;         /* linear id of the next CTA to dispatch */
    uint64_t n_ctas;           /* CTAs in the grid */
    unsigned kernel_id;
    /* additions (locality-aware dispatch, 003 sec. 3.3): with a policy that
       has pick_cta, CTAs may leave in any order; next_cta is then the lowest
       CTA not yet dispatched and dispatched[c] is 1 once CTA c has been
       (NULL when CTAs go in linear order).  loc: the kernel's access ranges
       when a policy sets needs_locality, else NULL. */
    const uint8_t *dispatched;        /* [n_ctas] */
    const struct cta_locality *loc;
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
    /* additions: per-SM CTA limits (001 sec. IV).  update (may be NULL) is
       called once at kernel start, after init and before the first dispatch
       (limit[i] = max_fit, now = the kernel's first core cycle), and then
       again at the end of the core cycle that completes the number of cycles
       it returned (0 = never again); the views' counters then include that
       cycle.  It writes limit[i] (n) for every SM; the GPU clamps to
       1..max_fit and enforces it: no CTA is dispatched to an SM whose
       unpaused CTAs reach n; with paused CTAs and room under n the least
       recently assigned paused CTA resumes; with more than n running the most
       recently assigned running CTAs are paused (docs/policies.md). */
    sim_cycle (*update)(void *st, const struct gpu_view *g, unsigned *limit, sim_cycle now);
    unsigned max_per_cycle;    /* CTAs one SM may receive in one cycle (0 = 1; BCS: 2) */
    /* additions (locality-aware dispatch, docs/policies.md): pick_cta (may be
       NULL = the CTAs in linear order) is called right after pick_sm named an
       SM and returns the waiting CTA (linear id, not yet dispatched) that SM
       receives; an answer out of range or already dispatched ends the round.
       needs_locality: the GPU computes the kernel's access ranges at kernel
       start (gpu_view.loc, struct cta_locality). */
    int64_t (*pick_cta)(void *st, const struct gpu_view *g, unsigned sm, sim_cycle now);
    uint8_t needs_locality;
    /* addition (may be NULL): cross-checks of the parameters beyond the
       table's bounds, run when the configuration is loaded (policy/params.h,
       policy_params_check) on a state holding the parameters only.  Returns
       NULL when they hold, else the name of the parameter to blame with the
       reason in msg (written after "-cta_sched.<name>.<param>: "). */
    const char *(*check)(const void *st, const struct policy_machine *m, char *msg, size_t n);
};

/* ---- addition: access ranges for locality-aware scheduling (003 sec. 3.3-3.4) ----
 * Computed by the GPU at kernel start from the addresses the kernel's global
 * loads and stores compute (fe/ptx/ptx_slice.h; docs/policies.md), for the
 * sliced accesses only, grouped into data arrays by their base pointer.
 * Coordinates are cache lines of an array seen as a 2D grid: y = row, x =
 * line within the row (1D arrays: y = 0).  Read-only for policies; valid from
 * the policy's init to the end of the kernel. */
#define LOC_MAX_ARRAYS 8
#define LOC_MAX_BOXES 4

struct loc_rect {
    int64_t x, y;              /* upper-left line */
    int64_t w, h;              /* lines; w == 0: no range */
};

struct loc_point {
    int64_t x, y;
};

struct cta_locality {
    unsigned narrays;          /* data arrays (<= LOC_MAX_ARRAYS), 0 when nothing could be sliced */
    unsigned cta_warps;        /* warps per CTA */
    uint64_t n_ctas;
    struct loc_rect extent[LOC_MAX_ARRAYS];   /* per array: bounding box of every CTA's rectangle */
    const struct loc_rect *rect;   /* CTA c on array a: rect[c * narrays + a] (003 fig. 3.5's block queue entry) */
    /* extension (the las CTA scheduler's `tiles` parameter): CTA c's lines on array a as up to
       LOC_MAX_BOXES disjoint boxes, box[box_off[i] .. box_off[i + 1]) with i = c * narrays + a
       (gpu_locality.c merges the accesses' own rectangles); NULL: one rectangle per array, the seed's */
    const uint32_t *box_off;
    const struct loc_rect *box;
    /* the lines warp w of CTA c touches on array a: pts[wpt_off[i] .. wpt_off[i + 1]) with
       i = (c * cta_warps + w) * narrays + a; NULL when no warp policy asked for them */
    const uint32_t *wpt_off;
    const struct loc_point *pts;
};

/* Lines two rectangles share (003 sec. 3.3.2): with d = the distance of their
   upper-left corners, (width - d_x) * (height - d_y), 0 when a distance
   reaches the size; for rectangles of different sizes the overlap of the two. */
static inline uint64_t loc_overlap(const struct loc_rect *a, const struct loc_rect *b)
{
    if (a->w <= 0 || b->w <= 0)
        return 0;
    int64_t x0 = a->x > b->x ? a->x : b->x, y0 = a->y > b->y ? a->y : b->y;
    int64_t x1 = a->x + a->w < b->x + b->w ? a->x + a->w : b->x + b->w;
    int64_t y1 = a->y + a->h < b->y + b->h ? a->y + a->h : b->y + b->h;
    return x1 > x0 && y1 > y0 ? (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0) : 0;
}

/* Inter-block locality of CTAs c and d: the sum over arrays of their overlaps (with boxes, of
   every pair of boxes; a CTA's boxes are disjoint, so this counts each shared line once). */
static inline uint64_t loc_cta_locality(const struct cta_locality *l, uint64_t c, uint64_t d)
{
    uint64_t sum = 0;
    if (l->box) {
        for (unsigned a = 0; a < l->narrays; a++) {
            uint64_t i = c * l->narrays + a, j = d * l->narrays + a;
            for (uint32_t x = l->box_off[i]; x < l->box_off[i + 1]; x++)
                for (uint32_t y = l->box_off[j]; y < l->box_off[j + 1]; y++)
                    sum += loc_overlap(&l->box[x], &l->box[y]);
        }
        return sum;
    }
    for (unsigned a = 0; a < l->narrays; a++)
        sum += loc_overlap(&l->rect[c * l->narrays + a], &l->rect[d * l->narrays + a]);
    return sum;
}

const struct cta_sched_ops *cta_sched_find(const char *name);
void cta_sched_names(char *buf, size_t n);
/* addition: the i-th registered policy (registry.def order), NULL past the end */
const struct cta_sched_ops *cta_sched_at(size_t i);

#endif
