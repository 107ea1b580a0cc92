/*
 * mm_host.c - driver for mm.cu: C = A * B with 16x16 shared-memory tiles.
 *
 * The sizes are not multiples of 16 (except where noted), so the edge CTAs
 * stage zero padding and skip their out-of-range stores.  Check: a plain
 * triple loop on the CPU that accumulates each C element with fmaf over k in
 * increasing order, which is exactly the kernel's order (tile by tile, 16
 * products per tile, padding adds fma(0, 0, sum) = sum), so the results are
 * expected to be bit-identical; the tolerance only allows for rounding noise.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define MM_TILE 16

struct mm_state {
    int m, n, k;
    float *a, *b, *c;
    ws_devptr da, db, dc;
};

static ws_status mm_device(ws_ctx *ctx, ws_module *mod, struct mm_state *s, struct wl_result *r)
{
    size_t abytes = (size_t)s->m * (size_t)s->k * sizeof(float);
    size_t bbytes = (size_t)s->k * (size_t)s->n * sizeof(float);
    size_t cbytes = (size_t)s->m * (size_t)s->n * sizeof(float);
    WL_TRY(wl_upload(ctx, &s->da, s->a, abytes));
    WL_TRY(wl_upload(ctx, &s->db, s->b, bbytes));
    WL_TRY(wl_upload(ctx, &s->dc, NULL, cbytes));
    void *args[] = {&s->da, &s->db, &s->dc, &s->m, &s->n, &s->k};
    ws_dim3 grid = ws_dim((unsigned)((s->n + MM_TILE - 1) / MM_TILE), (unsigned)((s->m + MM_TILE - 1) / MM_TILE), 1);
    WL_TRY(wsLaunchKernel(ctx, mod, "mm_tiled", grid, ws_dim(MM_TILE, MM_TILE, 1), 0, args));
    r->launches++;
    return wsMemcpyDtoH(ctx, s->c, s->dc, cbytes);
}

static ws_status mm_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct mm_state s;
    memset(&s, 0, sizeof s);
    /* tiny: 4x5 CTAs with partial tiles in every dimension; small: 25x24 CTAs,
       ~260M thread instructions; paper: the common 1024^3 case */
    s.m = WL_BY_SIZE(o, 64, 392, 1024);
    s.n = WL_BY_SIZE(o, 72, 384, 1024);
    s.k = WL_BY_SIZE(o, 100, 384, 1024);
    size_t na = (size_t)s.m * (size_t)s.k, nb = (size_t)s.k * (size_t)s.n, nc = (size_t)s.m * (size_t)s.n;
    s.a = wl_alloc(na * sizeof(float));
    s.b = wl_alloc(nb * sizeof(float));
    s.c = wl_alloc(nc * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (size_t i = 0; i < na; i++)
        s.a[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    for (size_t i = 0; i < nb; i++)
        s.b[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    if (o->verbose)
        fprintf(o->log, "mm: C(%dx%d) = A(%dx%d) * B(%dx%d), %dx%d tiles\n", s.m, s.n, s.m, s.k, s.k, s.n, MM_TILE,
                MM_TILE);

    ws_status st = mm_device(ctx, mod, &s, r);
    if (st == WS_SUCCESS) {
        float *want = wl_alloc(nc * sizeof(float));
        for (int i = 0; i < s.m; i++)
            for (int j = 0; j < s.n; j++) {
                float sum = 0.0f;
                for (int kk = 0; kk < s.k; kk++)
                    sum = fmaf(s.a[(size_t)i * (size_t)s.k + (size_t)kk], s.b[(size_t)kk * (size_t)s.n + (size_t)j],
                               sum);
                want[(size_t)i * (size_t)s.n + (size_t)j] = sum;
            }
        wl_check_f32(r, "C", s.c, want, nc, 1e-5, 1e-6);
        free(want);
    }
    if (s.da) wsFree(ctx, s.da);
    if (s.db) wsFree(ctx, s.db);
    if (s.dc) wsFree(ctx, s.dc);
    free(s.a);
    free(s.b);
    free(s.c);
    return st;
}

const struct workload wl_mm = {
    .name = "mm",
    .summary = "tiled float matrix multiply, 16x16 shared-memory tiles with __syncthreads: shared-memory reuse, "
               "barriers, partial edge tiles",
    .tolerance = "rel 1e-5 + abs 1e-6 (CPU uses fmaf in the kernel's k order: bit-identical expected)",
    .run = mm_run,
};
