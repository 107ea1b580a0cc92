/*
 * gpu_locality.c - the access ranges of a launch for the locality-aware
 * schedulers (003 sec. 3.2-3.4; docs/policies.md).
 *
 * At kernel start, when the CTA or the warp policy asks for them, the
 * kernel's global loads and stores are sliced (fe/ptx/ptx_slice.h) and the
 * slices evaluated with the launch's real parameters: per CTA and data array
 * the rectangle its first and last threads span (the seed's extended block
 * queue entry, fig. 3.5), and, for a warp policy, per warp and array the
 * lines its threads touch (from which the warp scheduler builds its region
 * and subregion vectors).  The seed's block scheduler computes these when a
 * block enters its queue; computing them for the whole grid up front gives
 * the same values and keeps the dispatch path free of allocation.
 *
 * Arrays beyond LOC_MAX_ARRAYS are ignored.  A kernel without sliceable
 * accesses (or whose parameters cannot be read) gets a table with no arrays:
 * the policies then fall back to their orders without locality.
 */
#include "gpu_int.h"

#include <stdlib.h>
#include <string.h>

#include "fe/ptx/ptx_slice.h"
#include "mem/cache.h"
#include "policy/warp_sched.h"

/* the public table first, so gpu_locality_free can find the owned arrays */
struct gpu_loc {
    struct cta_locality pub;
    struct loc_rect *rect;
    struct loc_rect *box;
    uint32_t *box_off;
    size_t nbox, capbox;
    uint32_t *off;
    struct loc_point *pts;
};

void gpu_locality_free(struct cta_locality *l)
{
    struct gpu_loc *g = (struct gpu_loc *)l;
    if (!g)
        return;
    free(g->rect);
    free(g->box);
    free(g->box_off);
    free(g->off);
    free(g->pts);
    free(g);
}

static void extent_add(struct loc_rect *e, const struct loc_rect *r)
{
    if (r->w <= 0)
        return;
    if (e->w <= 0) {
        *e = *r;
        return;
    }
    int64_t x1 = e->x + e->w > r->x + r->w ? e->x + e->w : r->x + r->w;
    int64_t y1 = e->y + e->h > r->y + r->h ? e->y + e->h : r->y + r->h;
    e->x = e->x < r->x ? e->x : r->x;
    e->y = e->y < r->y ? e->y : r->y;
    e->w = x1 - e->x;
    e->h = y1 - e->y;
}

/* Can boxes a and b become one without counting a line neither holds?  When they share a line
   (their lines must then be counted once; the merged box may hold a few more) or when their union
   is a box (rows of one tile, one access each). */
static bool boxes_merge(const struct loc_rect *a, const struct loc_rect *b)
{
    if (loc_overlap(a, b))
        return true;
    if (a->x == b->x && a->w == b->w)
        return b->y <= a->y + a->h && a->y <= b->y + b->h;
    if (a->y == b->y && a->h == b->h)
        return b->x <= a->x + a->w && a->x <= b->x + b->w;
    return false;
}

/* Append box b to the table. */
static int box_push(struct gpu_loc *L, const struct loc_rect *b)
{
    if (L->nbox >= UINT32_MAX)
        return -1;
    if (L->nbox == L->capbox) {
        size_t nc = L->capbox ? L->capbox * 2 : 1024;
        struct loc_rect *q = realloc(L->box, sizeof *q * nc);
        if (!q)
            return -1;
        L->box = q;
        L->capbox = nc;
    }
    L->box[L->nbox++] = *b;
    return 0;
}

/* CTA c's boxes on every array (the `tiles` extension, struct cta_locality.box): the rectangles
   of its accesses, merged while two can merge (boxes_merge); more than LOC_MAX_BOXES left: the
   array's one rectangle, as without tiles.  acc: naccess rectangles of scratch for the accesses,
   work: naccess for one array's boxes. */
static int build_boxes(struct gpu_loc *L, struct ptx_slice_set *s, const struct ptx_slice_env *env,
                       const struct ptx_slice_layout *lay, uint64_t c, struct ptx_slice_rect *acc,
                       struct loc_rect *work)
{
    struct cta_locality *p = &L->pub;
    if (ptx_slice_cta_access_rects(s, env, lay, c, acc) != 0)
        return -1;
    for (unsigned a = 0; a < p->narrays; a++) {
        L->box_off[c * p->narrays + a] = (uint32_t)L->nbox;
        unsigned n = 0;
        for (uint32_t k = 0; k < s->naccess; k++)
            if (s->acc[k].status == PTX_SLICE_OK && s->acc[k].array == (int32_t)a && acc[k].w > 0)
                work[n++] = (struct loc_rect){acc[k].x, acc[k].y, acc[k].w, acc[k].h};
        for (bool merged = true; merged && n > 1;) {
            merged = false;
            for (unsigned i = 0; i < n && !merged; i++)
                for (unsigned j = i + 1; j < n && !merged; j++)
                    if (boxes_merge(&work[i], &work[j])) {
                        extent_add(&work[i], &work[j]);
                        work[j] = work[--n];
                        merged = true;
                    }
        }
        if (n > LOC_MAX_BOXES) {
            work[0] = L->rect[c * p->narrays + a];
            n = 1;
        }
        for (unsigned i = 0; i < n; i++)
            if (box_push(L, &work[i]) != 0)
                return -1;
    }
    return 0;
}

/* Per-warp points of every CTA (warps = 1 in gpu_locality_build). */
static int build_warps(struct gpu_loc *L, struct ptx_slice_set *s, const struct ptx_slice_env *env,
                       const struct ptx_slice_layout *lay)
{
    struct cta_locality *p = &L->pub;
    uint64_t nent = p->n_ctas * p->cta_warps * p->narrays;
    if (nent + 1 > UINT32_MAX)
        return -1;
    L->off = malloc(sizeof(uint32_t) * (size_t)(nent + 1));
    unsigned maxacc = 0;
    for (unsigned a = 0; a < p->narrays; a++)
        maxacc = s->arrays[a].naccess > maxacc ? s->arrays[a].naccess : maxacc;
    unsigned maxp = 32u * (maxacc ? maxacc : 1u);
    int64_t *xs = malloc(sizeof(int64_t) * maxp), *ys = malloc(sizeof(int64_t) * maxp);
    size_t cap = (size_t)nent * 2 + 16, np = 0;
    L->pts = malloc(sizeof(struct loc_point) * cap);
    int rc = (L->off && xs && ys && L->pts) ? 0 : -1;
    uint64_t i = 0;
    for (uint64_t c = 0; rc == 0 && c < p->n_ctas; c++)
        for (unsigned w = 0; rc == 0 && w < p->cta_warps; w++)
            for (unsigned a = 0; rc == 0 && a < p->narrays; a++, i++) {
                L->off[i] = (uint32_t)np;
                int k = ptx_slice_warp_points(s, env, lay, c, w, a, xs, ys, maxp);
                if (k < 0) {
                    rc = -1;
                    break;
                }
                if (np + (size_t)k > UINT32_MAX) {
                    rc = -1;
                    break;
                }
                if (np + (size_t)k > cap) {
                    size_t nc = cap * 2 > np + (size_t)k ? cap * 2 : np + (size_t)k;
                    struct loc_point *q = realloc(L->pts, sizeof(struct loc_point) * nc);
                    if (!q) {
                        rc = -1;
                        break;
                    }
                    L->pts = q;
                    cap = nc;
                }
                for (int j = 0; j < k; j++)
                    L->pts[np++] = (struct loc_point){xs[j], ys[j]};
            }
    if (rc == 0)
        L->off[nent] = (uint32_t)np;
    free(xs);
    free(ys);
    return rc;
}

struct cta_locality *gpu_locality_build(const struct ptx_grid *grid, unsigned line_bytes, bool warps, bool tiles,
                                        unsigned flags, char *msg, size_t n)
{
    struct gpu_loc *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(msg, n, "out of host memory for the access ranges");
        return NULL;
    }
    struct cta_locality *p = &L->pub;
    p->n_ctas = (uint64_t)grid->grid[0] * grid->grid[1] * grid->grid[2];
    p->cta_warps = grid->cta_warps;
    struct ptx_slice_set *s = ptx_slice_build(grid->mod, grid->ki->func, flags, msg, n);
    if (!s) {
        gpu_locality_free(p);
        return NULL;
    }
    struct ptx_slice_env env;
    memset(&env, 0, sizeof env);
    env.params = grid->params;
    env.param_bytes = grid->param_bytes;
    memcpy(env.ntid, grid->block, sizeof env.ntid);
    memcpy(env.nctaid, grid->grid, sizeof env.nctaid);
    struct ptx_slice_layout lay[LOC_MAX_ARRAYS];
    unsigned narr = s->narrays < LOC_MAX_ARRAYS ? s->narrays : LOC_MAX_ARRAYS;
    /* arrays beyond the table: their accesses are dropped from the slice set */
    for (uint32_t k = 0; k < s->naccess; k++)
        if (s->acc[k].array >= (int32_t)narr) {
            s->acc[k].array = -1;
            s->acc[k].status = PTX_SLICE_UNSUPPORTED;
        }
    s->narrays = narr;
    if (narr == 0 || ptx_slice_layout(s, &env, line_bytes ? line_bytes : 128, lay) != 0) {
        p->narrays = 0;
        ptx_slice_free(s);
        return p;
    }
    p->narrays = narr;
    L->rect = malloc(sizeof(struct loc_rect) * (size_t)(p->n_ctas ? p->n_ctas * narr : 1));
    if (!L->rect)
        goto oom;
    struct ptx_slice_rect r[LOC_MAX_ARRAYS];
    for (uint64_t c = 0; c < p->n_ctas; c++) {
        if (ptx_slice_cta_rects(s, &env, lay, c, r) != 0) {
            /* cannot evaluate (a parameter outside the buffer): no locality for this kernel */
            p->narrays = 0;
            ptx_slice_free(s);
            return p;
        }
        for (unsigned a = 0; a < narr; a++) {
            L->rect[c * narr + a] = (struct loc_rect){r[a].x, r[a].y, r[a].w, r[a].h};
            extent_add(&p->extent[a], &L->rect[c * narr + a]);
        }
    }
    p->rect = L->rect;
    if (tiles) {
        uint64_t nent = p->n_ctas * narr;
        L->box_off = malloc(sizeof(uint32_t) * (size_t)(nent + 1));
        size_t na = s->naccess ? s->naccess : 1;
        struct ptx_slice_rect *acc = malloc(sizeof *acc * na);
        struct loc_rect *work = malloc(sizeof *work * na);
        int rc = L->box_off && acc && work && nent < UINT32_MAX ? 0 : -1;
        for (uint64_t c = 0; rc == 0 && c < p->n_ctas; c++)
            rc = build_boxes(L, s, &env, lay, c, acc, work);
        free(acc);
        free(work);
        if (rc != 0)
            goto oom;
        L->box_off[nent] = (uint32_t)L->nbox;
        p->box_off = L->box_off;
        p->box = L->box ? L->box : L->rect;   /* no box at all: an empty table, not NULL */
    }
    if (warps) {
        if (build_warps(L, s, &env, lay) != 0)
            goto oom;
        p->wpt_off = L->off;
        p->pts = L->pts;
    }
    ptx_slice_free(s);
    return p;
oom:
    ptx_slice_free(s);
    gpu_locality_free(p);
    snprintf(msg, n, "out of host memory for the access ranges");
    return NULL;
}

void gpu_locality_end(struct gpu *g)
{
    for (unsigned i = 0; i < g->n_sms; i++)
        sm_set_locality(g->sm[i], NULL);
    gpu_locality_free(g->loc);
    g->loc = NULL;
    free(g->cta_dispatched);
    g->cta_dispatched = NULL;
}

/* A locality-aware policy may declare boolean parameters the GPU reads when it slices the kernel:
   "loop_entry" (slice loop-carried addresses with their value on loop entry, PTX_SLICE_LOOP_ENTRY)
   and "tiles" (each CTA's boxes, struct cta_locality.box).  Parameter `param`'s value as the policy
   will see it; 0 when the policy has no such parameter. */
static int bool_param(const struct gpu *g, const char *kind, const char *name, const struct cfg_opt *opts,
                      size_t nopts, size_t state_size, const char *param)
{
    for (size_t i = 0; i < nopts; i++) {
        if (strcmp(opts[i].name, param) != 0 || opts[i].type != CFG_BOOL)
            continue;
        void *tmp = calloc(1, state_size ? state_size : 1);
        struct cfg_error err;
        int v = 0;
        if (tmp && policy_params_apply(g->pparams.arena ? &g->pparams : NULL, kind, name, opts, nopts, tmp, &err) == 0)
            memcpy(&v, (const char *)tmp + opts[i].offset, sizeof v);
        free(tmp);
        return v;
    }
    return 0;
}

int gpu_locality_begin(struct gpu *g, const struct ptx_grid *grid, char *msg, size_t n)
{
    gpu_locality_end(g);   /* what a failed launch left */
    const struct warp_sched_ops *wops = warp_sched_find(g->cfg.scheduler);
    bool cta_needs = g->cta_ops->needs_locality, warp_needs = wops && wops->needs_locality;
    uint64_t nctas = (uint64_t)grid->grid[0] * grid->grid[1] * grid->grid[2];
    if (g->cta_ops->pick_cta) {
        g->cta_dispatched = calloc(nctas ? (size_t)nctas : 1, 1);
        if (!g->cta_dispatched) {
            snprintf(msg, n, "out of host memory for the CTA queue");
            return -1;
        }
    }
    if (!cta_needs && !warp_needs)
        return 0;
    /* cache-line coordinates in the L1D's line size (the cache whose reuse the policies target) */
    struct cache_config cc;
    char cmsg[128];
    unsigned col = 0, line = 128;
    if (g->cfg.cache_dl1 && cache_config_parse(g->cfg.cache_dl1, &cc, cmsg, sizeof cmsg, &col) == 0 && cc.line_size)
        line = cc.line_size;
    unsigned flags = 0;
    bool tiles = false;
    if (cta_needs) {
        const struct cta_sched_ops *c = g->cta_ops;
        if (bool_param(g, "cta_sched", c->name, c->params, c->nparams, c->state_size, "loop_entry"))
            flags |= PTX_SLICE_LOOP_ENTRY;
        tiles = bool_param(g, "cta_sched", c->name, c->params, c->nparams, c->state_size, "tiles");
    }
    if (warp_needs && bool_param(g, "warp_sched", wops->name, wops->params, wops->nparams, wops->state_size,
                                 "loop_entry"))
        flags |= PTX_SLICE_LOOP_ENTRY;
    g->loc = gpu_locality_build(grid, line, warp_needs, tiles, flags, msg, n);
    if (!g->loc) {
        gpu_locality_end(g);
        return -1;
    }
    if (warp_needs)
        for (unsigned i = 0; i < g->n_sms; i++)
            sm_set_locality(g->sm[i], g->loc);
    return 0;
}
