/*
 * las_warp.c - locality-aware two-level warp scheduler (003 sec. 3.4, fig.
 * 3.10-3.14), registered as "las"; docs/policies.md has the details.
 *
 * Encoding (sec. 3.4.1): per array, the extent is split into at most 2^M
 * regions; a CTA's M-bit region vector names the region of its rectangle's
 * upper-left line; a warp's N-bit subregion vector marks the subregions of
 * that region its lines fall in.  Inter-warp locality (fig. 3.14): 0 when the
 * region vectors differ, else the shared 1 bits, summed over arrays; the
 * locality degree table (fig. 3.13) is updated when a warp arrives.
 * Issue (sec. 3.4.2, fig. 3.12): greedy on the last issued warp, then the
 * active warps by locality with it; a long stall (L1 miss, barrier) demotes,
 * the ready pending warp with the most locality with the active group is
 * promoted; a CTA lagging the newest by more than starve x N goes first.
 * Demotion and promotion reach a fixed point within one order() call, so a
 * repeated call on unchanged views changes nothing.
 */
#include <string.h>

#include "policy/cta_sched.h"
#include "policy/warp_sched.h"

#define LW_MAX 64
#define LW_NONE 0xffffu

struct lw_geo {                 /* one array's encoding grid */
    int64_t ex, ey;             /* extent origin */
    int64_t cw, ch;             /* region cell size (lines) */
    int64_t rx;                 /* regions across */
    int64_t sw, sh;             /* subregion cell size */
    int64_t nx;                 /* subregions across */
};

struct lw_state {
    /* parameters */
    unsigned active_size, region_bits, subregion_bits, starve;
    int loop_entry;             /* read by the GPU when it slices the kernel (sys/gpu_locality.c) */
    /* kernel */
    const struct cta_locality *loc;
    unsigned max_ctas, cta_warps, narrays;
    struct lw_geo geo[LOC_MAX_ARRAYS];
    /* per view index */
    uint64_t key[LW_MAX];       /* age of the warp the entry describes (UINT64_MAX: none) */
    uint8_t active[LW_MAX];
    uint16_t region[LW_MAX][LOC_MAX_ARRAYS];
    uint32_t sub[LW_MAX][LOC_MAX_ARRAYS];
    uint8_t deg[LW_MAX][LW_MAX];   /* locality degree table */
    uint32_t gdeg[LW_MAX];      /* locality of each warp with the active group (sum of its table entries) */
    int nactive;
    int last_slot;              /* slot of the last issued warp, -1 before any */
};

static const struct cfg_opt lw_params[] = {
    CFG_OPT("active_size", CFG_UINT, struct lw_state, active_size, "8", 1, 64,
            "warps in the active group of each scheduler"),
    CFG_OPT("region_bits", CFG_UINT, struct lw_state, region_bits, "10", 0, 16,
            "M: region-vector bits per array (2^M regions; the seed evaluates at most 10)"),
    CFG_OPT("subregion_bits", CFG_UINT, struct lw_state, subregion_bits, "16", 1, 32,
            "N: subregion-vector bits per array (N subregions per region; the seed evaluates 16)"),
    CFG_OPT("starve", CFG_UINT, struct lw_state, starve, "2", 1, 1024,
            "starvation timeout: a CTA older than the newest by more than starve x N CTAs goes first (seed: 2N)"),
    CFG_OPT("loop_entry", CFG_BOOL, struct lw_state, loop_entry, "0", 0, 1,
            "also slice loop-carried addresses, with their first iteration's lines (extension; see cta_sched.las)"),
};

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void lw_geometry(struct lw_state *s, unsigned a, const struct loc_rect *e)
{
    struct lw_geo *g = &s->geo[a];
    unsigned m = s->region_bits, mx = e->h > 1 ? (m + 1) / 2 : m, my = m - mx;
    int64_t rx = (int64_t)1 << mx, ry = (int64_t)1 << my;
    int64_t w = e->w > 0 ? e->w : 1, h = e->h > 0 ? e->h : 1;
    rx = rx < w ? rx : w;
    ry = ry < h ? ry : h;
    g->ex = e->x;
    g->ey = e->y;
    g->cw = ceil_div(w, rx);
    g->ch = ceil_div(h, ry);
    g->rx = ceil_div(w, g->cw);
    int64_t n = s->subregion_bits, ny = 1;
    if (g->ch > 1)
        while ((ny + 1) * (ny + 1) <= n)
            ny++;
    int64_t nx = n / ny;
    nx = nx < g->cw ? nx : g->cw;
    ny = ny < g->ch ? ny : g->ch;
    g->sw = ceil_div(g->cw, nx);
    g->sh = ceil_div(g->ch, ny);
    g->nx = ceil_div(g->cw, g->sw);
}

static int lw_init(void *st, const struct sm_view *sm)
{
    struct lw_state *s = st;
    unsigned as = s->active_size ? s->active_size : 8, rb = s->region_bits, sb = s->subregion_bits;
    unsigned sv = s->starve ? s->starve : 2;   /* params are applied before init */
    int le = s->loop_entry;
    memset(s, 0, sizeof *s);
    s->loop_entry = le;
    s->active_size = as;
    s->region_bits = rb;
    s->subregion_bits = sb ? sb : 16;
    s->starve = sv;
    s->last_slot = -1;
    for (int i = 0; i < LW_MAX; i++)
        s->key[i] = UINT64_MAX;
    s->loc = sm->loc;
    s->max_ctas = sm->max_ctas ? sm->max_ctas : 1;
    s->cta_warps = sm->cta_warps ? sm->cta_warps : 1;
    s->narrays = s->loc ? s->loc->narrays : 0;
    for (unsigned a = 0; a < s->narrays; a++)
        lw_geometry(s, a, &s->loc->extent[a]);
    return 0;
}

/* Region and subregion vectors of the warp in view i (sec. 3.4.1). */
static void lw_encode(struct lw_state *s, int i, const struct warp_view *v)
{
    const struct cta_locality *l = s->loc;
    for (unsigned a = 0; a < LOC_MAX_ARRAYS; a++) {
        s->region[i][a] = LW_NONE;
        s->sub[i][a] = 0;
    }
    if (!l || v->cta_linear >= l->n_ctas || v->warp_in_cta >= l->cta_warps)
        return;
    for (unsigned a = 0; a < s->narrays; a++) {
        const struct lw_geo *g = &s->geo[a];
        const struct loc_rect *r = &l->rect[(uint64_t)v->cta_linear * l->narrays + a];
        if (r->w <= 0)
            continue;
        int64_t rx = (r->x - g->ex) / g->cw, ry = (r->y - g->ey) / g->ch;
        s->region[i][a] = (uint16_t)(ry * g->rx + rx);
        if (!l->wpt_off)
            continue;
        int64_t ox = g->ex + rx * g->cw, oy = g->ey + ry * g->ch;
        uint64_t e = ((uint64_t)v->cta_linear * l->cta_warps + v->warp_in_cta) * l->narrays + a;
        uint32_t sub = 0;
        for (uint32_t p = l->wpt_off[e]; p < l->wpt_off[e + 1]; p++) {
            int64_t x = l->pts[p].x - ox, y = l->pts[p].y - oy;
            if (x < 0 || y < 0 || x >= g->cw || y >= g->ch)
                continue;   /* outside its CTA's region */
            int64_t bit = (y / g->sh) * g->nx + x / g->sw;
            if (bit >= 0 && bit < 32)
                sub |= 1u << bit;
        }
        s->sub[i][a] = sub;
    }
}

/* Inter-warp locality of views i and j (fig. 3.14). */
static unsigned lw_locality(const struct lw_state *s, int i, int j)
{
    unsigned sum = 0;
    for (unsigned a = 0; a < s->narrays; a++)
        if (s->region[i][a] != LW_NONE && s->region[i][a] == s->region[j][a])
            sum += (unsigned)__builtin_popcount(s->sub[i][a] & s->sub[j][a]);
    return sum;
}

static int lw_long_stall(const struct warp_view *v) { return v->waiting_miss || v->at_barrier; }

static int lw_older(const struct warp_view *a, const struct warp_view *b)
{
    return a->age != b->age ? a->age < b->age : a->slot < b->slot;
}

/* Move view i into or out of the active group, keeping every warp's locality
   with the group (gdeg) current. */
static void lw_set_active(struct lw_state *s, int i, int on, int n)
{
    if (s->active[i] == on)
        return;
    s->active[i] = (uint8_t)on;
    s->nactive += on ? 1 : -1;
    for (int j = 0; j < n; j++)
        s->gdeg[j] = on ? s->gdeg[j] + s->deg[j][i] : s->gdeg[j] - s->deg[j][i];
}

/* Bring the table and the groups up to date with the views. */
static void lw_update(struct lw_state *s, const struct warp_view *w, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t k = w[i].valid ? w[i].age : UINT64_MAX;
        if (k == s->key[i])
            continue;
        /* another warp (or none) in this slot: it starts pending */
        lw_set_active(s, i, 0, n);
        s->key[i] = k;
        lw_encode(s, i, &w[i]);
        uint32_t g = 0;
        for (int j = 0; j < n; j++) {
            unsigned d = k != UINT64_MAX && j != i && s->key[j] != UINT64_MAX ? lw_locality(s, i, j) : 0;
            d = d < 255 ? d : 255;
            if (s->active[j])   /* i is pending: only its own sum and the active warps' entries change */
                g += d;
            s->deg[i][j] = s->deg[j][i] = (uint8_t)d;
        }
        s->gdeg[i] = g;
    }
    for (int i = 0; i < n; i++)
        if (s->active[i] && (!w[i].valid || lw_long_stall(&w[i])))
            lw_set_active(s, i, 0, n);
    while (s->nactive < (int)s->active_size) {
        /* ready first, then unpaused, then the most locality with the group, then oldest */
        int best = -1;
        for (int i = 0; i < n; i++) {
            if (!w[i].valid || s->active[i] || lw_long_stall(&w[i]))
                continue;
            const struct warp_view *a = &w[i], *b = best >= 0 ? &w[best] : NULL;
            int better = !b;
            if (!better && a->ready != b->ready)
                better = a->ready > b->ready;
            else if (!better && a->cta_paused != b->cta_paused)
                better = a->cta_paused < b->cta_paused;
            else if (!better && s->gdeg[i] != s->gdeg[best])
                better = s->gdeg[i] > s->gdeg[best];
            else if (!better)
                better = lw_older(a, b);
            if (better)
                best = i;
        }
        if (best < 0)
            break;
        lw_set_active(s, best, 1, n);
    }
}

static int lw_order(void *st, const struct warp_view *w, int n, int *order, sim_cycle now)
{
    struct lw_state *s = st;
    (void)now;
    if (n > LW_MAX)
        n = LW_MAX;
    lw_update(s, w, n);
    int k = 0, last = -1;
    uint8_t used[LW_MAX] = {0};
    /* starved CTAs first, oldest first */
    uint64_t newest = 0, oldest = UINT64_MAX;
    for (int i = 0; i < n; i++)
        if (w[i].valid) {
            uint64_t a = w[i].age / s->cta_warps;
            newest = a > newest ? a : newest;
            oldest = a < oldest ? a : oldest;
        }
    uint64_t limit = (uint64_t)s->starve * s->max_ctas;
    while (oldest != UINT64_MAX && newest - oldest > limit) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (w[i].valid && !used[i] && newest - w[i].age / s->cta_warps > limit &&
                (best < 0 || lw_older(&w[i], &w[best])))
                best = i;
        if (best < 0)
            break;
        used[best] = 1;
        order[k++] = best;
    }
    /* greedy: the last issued warp */
    for (int i = 0; i < n && s->last_slot >= 0; i++)
        if (w[i].valid && (int)w[i].slot == s->last_slot)
            last = i;
    if (last >= 0 && s->active[last] && !used[last]) {
        used[last] = 1;
        order[k++] = last;
    }
    /* then the other active warps by locality with it, then oldest (insertion sort of a short list) */
    int k0 = k;
    for (int i = 0; i < n; i++) {
        if (!s->active[i] || used[i] || !w[i].valid)
            continue;
        unsigned di = last >= 0 ? s->deg[last][i] : 0;
        int j = k++;
        while (j > k0) {
            int p = order[j - 1];
            unsigned dp = last >= 0 ? s->deg[last][p] : 0;
            if (di != dp ? di < dp : !lw_older(&w[i], &w[p]))
                break;
            order[j] = p;
            j--;
        }
        order[j] = i;
    }
    return k;
}

static void lw_on_issue(void *st, const struct warp_view *w, const struct warp_inst *in, sim_cycle now)
{
    (void)in;
    (void)now;
    ((struct lw_state *)st)->last_slot = w->slot;
}

static double lw_sample(const void *st) { return (double)((const struct lw_state *)st)->nactive; }

const struct warp_sched_ops warp_sched_las_ops = {
    .name = "las",
    .doc = "locality-aware two-level (003 sec. 3.4): greedy then highest inter-warp locality in the active "
           "group; long stalls demoted, the pending warp closest to the group promoted; starvation timeout",
    .state_size = sizeof(struct lw_state),
    .params = lw_params,
    .nparams = sizeof lw_params / sizeof lw_params[0],
    .init = lw_init,
    .order = lw_order,
    .on_issue = lw_on_issue,
    .on_stall = NULL,
    .needs_ready = 1,
    .sample_max = 0,
    .sample_name = "active_warps",
    .sample = lw_sample,
    .fini = NULL,
    .needs_rank = 0,
    .needs_locality = 1,
};
