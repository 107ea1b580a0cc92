/*
 * sc_host.c - driver for sc.cu: streamcluster's local search (Rodinia
 * streamcluster; 000 SC, memory-intensive): for a series of random candidate
 * centres x the GPU evaluates pgain (which points would switch to x, and per
 * current centre what closing it would cost); the host decides from the
 * per-CTA sums whether opening x (and closing some centres) lowers the total
 * cost, updates assignments and costs and uploads them for the next launch,
 * as Rodinia's host code does.
 *
 * Input: weighted points around random true cluster centres in [0,1)^dim, a
 * few initial centres drawn from the points, facility cost z chosen so that
 * candidates both get accepted and get rejected.
 * Check: at every launch, switch flags (exact) and per-CTA per-slot sums
 * (exact: the reference computes the same float distances with fmaf in
 * coordinate order and adds the values in the kernel's entry/warp order),
 * evaluated from the same state the GPU saw.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define SC_BLOCK 256 /* these must match sc.cu */
#define SC_WARPS (SC_BLOCK / 32)
#define SC_MAXK 32
#define SC_MAXDIM 256

struct sc_state {
    int n, dim, nblocks;
    float *coord;          /* transposed: coord[d*n + i] */
    float *weight, *cost;
    int32_t *assign;       /* point index of each point's centre */
    int32_t *center_table; /* slot of a centre point (0 elsewhere) */
    int32_t *centers;      /* point index per slot */
    int k;                 /* open centres; slots = k + 1 */
    int32_t *sw, *want_sw; /* switch flags from the GPU / the reference */
    float *work, *want_work;
    uint8_t *is_center;
    ws_devptr d_coord, d_weight, d_cost, d_assign, d_table, d_sw, d_work;
};

/* The weighted squared distance of point i to point x, in the kernel's order. */
static float sc_cost_to(const struct sc_state *s, int i, int x)
{
    float dist = 0.0f;
    for (int d = 0; d < s->dim; d++) {
        float diff = s->coord[(size_t)d * (size_t)s->n + (size_t)i] - s->coord[(size_t)d * (size_t)s->n + (size_t)x];
        dist = fmaf(diff, diff, dist);
    }
    return dist * s->weight[i];
}

/* pgain on the host: per point the switch decision and its (slot, value),
   then the per-CTA sums in the kernel's order. */
static void sc_cpu_pgain(struct sc_state *s, int x, int32_t *slot, float *val)
{
    int nslots = s->k + 1;
    for (int i = 0; i < s->nblocks * SC_BLOCK; i++) {
        slot[i] = -1;
        val[i] = 0.0f;
        if (i >= s->n)
            continue;
        float xc = sc_cost_to(s, i, x), c = s->cost[i];
        s->want_sw[i] = xc < c;
        slot[i] = xc < c ? nslots - 1 : s->center_table[s->assign[i]];
        val[i] = xc < c ? c - xc : xc - c;
    }
    for (int b = 0; b < s->nblocks; b++)
        for (int sl = 0; sl < nslots; sl++) {
            float total = 0.0f;
            for (int w = 0; w < SC_WARPS; w++) {
                float part = 0.0f;
                for (int j = b * SC_BLOCK + w * 32; j < b * SC_BLOCK + w * 32 + 32; j++)
                    if (slot[j] == sl)
                        part += val[j];
                total += part;
            }
            s->want_work[(size_t)b * (size_t)nslots + (size_t)sl] = total;
        }
}

/* Open x if it pays: returns 1 if the state changed. */
static int sc_apply(struct sc_state *s, int x, double z, uint8_t *closed)
{
    int nslots = s->k + 1;
    double open_gain = 0.0, gain;
    for (int b = 0; b < s->nblocks; b++)
        open_gain += s->work[(size_t)b * (size_t)nslots + (size_t)s->k];
    gain = open_gain - z;
    int nclosed = 0;
    for (int c = 0; c < s->k; c++) {
        double close_cost = 0.0;
        for (int b = 0; b < s->nblocks; b++)
            close_cost += s->work[(size_t)b * (size_t)nslots + (size_t)c];
        closed[c] = close_cost < z;   /* its remaining points move to x for less than z */
        if (closed[c]) {
            gain += z - close_cost;
            nclosed++;
        }
    }
    if (gain <= 0.0 || s->k + 1 - nclosed > SC_MAXK - 1)
        return 0;
    for (int i = 0; i < s->n; i++)
        if (s->sw[i] || closed[s->center_table[s->assign[i]]]) {
            s->assign[i] = x;
            s->cost[i] = sc_cost_to(s, i, x);
        }
    int k = 0;
    for (int c = 0; c < s->k; c++) {
        if (closed[c])
            s->is_center[s->centers[c]] = 0;
        else
            s->centers[k++] = s->centers[c];
    }
    s->centers[k++] = x;
    s->is_center[x] = 1;
    s->k = k;
    for (int c = 0; c < k; c++)
        s->center_table[s->centers[c]] = c;
    return 1;
}

static ws_status sc_device(ws_ctx *ctx, ws_module *mod, struct sc_state *s, int ncand, double z, struct wl_rng *rng,
                           const struct wl_opts *o, struct wl_result *r)
{
    size_t n = (size_t)s->n;
    WL_TRY(wl_upload(ctx, &s->d_coord, s->coord, n * (size_t)s->dim * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_weight, s->weight, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_cost, NULL, n * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_assign, NULL, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_table, NULL, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_sw, NULL, n * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_work, NULL, (size_t)s->nblocks * SC_MAXK * sizeof(float)));
    int32_t *slot = wl_alloc((size_t)s->nblocks * SC_BLOCK * sizeof(int32_t));
    float *val = wl_alloc((size_t)s->nblocks * SC_BLOCK * sizeof(float));
    uint8_t closed[SC_MAXK];
    int accepted = 0;
    ws_status st = WS_SUCCESS;
    for (int it = 0; it < ncand && st == WS_SUCCESS; it++) {
        int x = (int)wl_rng_below(rng, (uint32_t)s->n);
        while (s->is_center[x])
            x = (x + 1) % s->n;
        int nslots = s->k + 1;
        size_t nwork = (size_t)s->nblocks * (size_t)nslots;
        /* the state changes on the host between launches: upload it, as Rodinia does */
        if ((st = wsMemcpyHtoD(ctx, s->d_cost, s->cost, n * sizeof(float))) != WS_SUCCESS ||
            (st = wsMemcpyHtoD(ctx, s->d_assign, s->assign, n * sizeof(int32_t))) != WS_SUCCESS ||
            (st = wsMemcpyHtoD(ctx, s->d_table, s->center_table, n * sizeof(int32_t))) != WS_SUCCESS)
            break;
        void *args[] = {&s->d_coord, &s->d_weight, &s->d_cost, &s->d_assign, &s->d_table, &s->d_sw, &s->d_work,
                        &s->n, &s->dim, &nslots, &x};
        st = wsLaunchKernel(ctx, mod, "sc_pgain", ws_dim((unsigned)s->nblocks, 1, 1), ws_dim(SC_BLOCK, 1, 1), 0, args);
        if (st != WS_SUCCESS)
            break;
        r->launches++;
        if ((st = wsMemcpyDtoH(ctx, s->sw, s->d_sw, n * sizeof(int32_t))) != WS_SUCCESS ||
            (st = wsMemcpyDtoH(ctx, s->work, s->d_work, nwork * sizeof(float))) != WS_SUCCESS)
            break;
        sc_cpu_pgain(s, x, slot, val);
        char what[2][64];
        snprintf(what[0], sizeof what[0], "switch flags (candidate %d)", it + 1);
        snprintf(what[1], sizeof what[1], "per-CTA gains (candidate %d)", it + 1);
        int bad = memcmp(s->sw, s->want_sw, n * sizeof(int32_t)) != 0;
        for (size_t j = 0; j < nwork && !bad; j++)
            bad = s->work[j] != s->want_work[j];   /* exact: NaN or any difference fails */
        if (bad || it + 1 == ncand) {   /* record the first failure, or note the last exact match */
            wl_check_i32(r, what[0], s->sw, s->want_sw, n);
            wl_check_f32(r, what[1], s->work, s->want_work, nwork, 0.0, 0.0);
            if (bad)
                break;
        }
        int ok = sc_apply(s, x, z, closed);
        accepted += ok;
        if (o->verbose)
            fprintf(o->log, "sc: candidate %d (point %d): %s, %d centres\n", it + 1, x, ok ? "opened" : "rejected",
                    s->k);
    }
    if (o->verbose)
        fprintf(o->log, "sc: %d of %d candidates opened\n", accepted, ncand);
    free(slot);
    free(val);
    return st;
}

static ws_status sc_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct sc_state s;
    memset(&s, 0, sizeof s);
    /* paper: Rodinia's default streamcluster input dimensions (65536 points, 256 dims) */
    s.n = WL_BY_SIZE(o, 2000, 65536, 65536);
    s.dim = WL_BY_SIZE(o, 16, 32, 256);
    int ncand = WL_BY_SIZE(o, 4, 6, 24);
    int k0 = 8, ntrue = 24;
    s.nblocks = (s.n + SC_BLOCK - 1) / SC_BLOCK;
    size_t n = (size_t)s.n;
    s.coord = wl_alloc(n * (size_t)s.dim * sizeof(float));
    s.weight = wl_alloc(n * sizeof(float));
    s.cost = wl_alloc(n * sizeof(float));
    s.assign = wl_alloc(n * sizeof(int32_t));
    s.center_table = wl_alloc(n * sizeof(int32_t));
    s.centers = wl_alloc(SC_MAXK * sizeof(int32_t));
    s.sw = wl_alloc(n * sizeof(int32_t));
    s.want_sw = wl_alloc(n * sizeof(int32_t));
    s.work = wl_alloc((size_t)s.nblocks * SC_MAXK * sizeof(float));
    s.want_work = wl_alloc((size_t)s.nblocks * SC_MAXK * sizeof(float));
    s.is_center = wl_alloc(n);
    memset(s.center_table, 0, n * sizeof(int32_t));
    memset(s.is_center, 0, n);

    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    float *truec = wl_alloc((size_t)ntrue * (size_t)s.dim * sizeof(float));
    for (size_t j = 0; j < (size_t)ntrue * (size_t)s.dim; j++)
        truec[j] = wl_rng_float(&rng, 0.0f, 1.0f);
    for (int i = 0; i < s.n; i++) {
        uint32_t c = wl_rng_below(&rng, (uint32_t)ntrue);
        for (int d = 0; d < s.dim; d++)
            s.coord[(size_t)d * n + (size_t)i] =
                truec[c * (size_t)s.dim + (size_t)d] + wl_rng_float(&rng, -0.15f, 0.15f);
        s.weight[i] = wl_rng_float(&rng, 1.0f, 2.0f);
    }
    free(truec);
    /* initial centres: k0 random points, every point assigned to the nearest */
    s.k = k0;
    for (int c = 0; c < k0; c++) {
        int x = (int)wl_rng_below(&rng, (uint32_t)s.n);
        while (s.is_center[x])
            x = (x + 1) % s.n;
        s.is_center[x] = 1;
        s.centers[c] = x;
        s.center_table[x] = c;
    }
    double total = 0.0;
    for (int i = 0; i < s.n; i++) {
        s.cost[i] = INFINITY;
        for (int c = 0; c < k0; c++) {
            float xc = sc_cost_to(&s, i, s.centers[c]);
            if (xc < s.cost[i]) {
                s.cost[i] = xc;
                s.assign[i] = s.centers[c];
            }
        }
        total += s.cost[i];
    }
    /* facility cost: a few percent of the initial service cost of one centre */
    double z = 0.05 * total / k0;
    if (o->verbose)
        fprintf(o->log, "sc: %d points, %d dims, %d initial centres, %d candidates, z = %g\n", s.n, s.dim, k0, ncand,
                z);

    ws_status st = sc_device(ctx, mod, &s, ncand, z, &rng, o, r);

    ws_devptr *bufs[] = {&s.d_coord, &s.d_weight, &s.d_cost, &s.d_assign, &s.d_table, &s.d_sw, &s.d_work};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    free(s.coord);
    free(s.weight);
    free(s.cost);
    free(s.assign);
    free(s.center_table);
    free(s.centers);
    free(s.sw);
    free(s.want_sw);
    free(s.work);
    free(s.want_work);
    free(s.is_center);
    return st;
}

const struct workload wl_sc = {
    .name = "sc",
    .summary = "streamcluster pgain (Rodinia streamcluster; 000 SC, expected Type-M): transposed coordinates "
               "streamed per candidate, centre gathers, per-CTA gain sums in shared memory, host local search",
    .tolerance = "exact (switch flags; gains replay the kernel's fma and summation order)",
    .run = sc_run,
};
