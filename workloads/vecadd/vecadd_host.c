/*
 * vecadd_host.c - driver for vecadd.cu: c = a + b over floats.
 *
 * The grid is deliberately smaller than the element count so the kernel's
 * grid-stride loop runs several passes, and n is not a multiple of the grid
 * so the final pass leaves part of the last warps inactive.
 */
#include <string.h>

#include "common/wl_util.h"

struct vecadd_state {
    size_t n;
    float *a, *b, *c;          /* host inputs and the result copied back */
    ws_devptr da, db, dc;
};

static ws_status vecadd_device(ws_ctx *ctx, ws_module *mod, struct vecadd_state *s, unsigned grid,
                               struct wl_result *r)
{
    size_t bytes = s->n * sizeof(float);
    WL_TRY(wl_upload(ctx, &s->da, s->a, bytes));
    WL_TRY(wl_upload(ctx, &s->db, s->b, bytes));
    WL_TRY(wl_upload(ctx, &s->dc, NULL, bytes));
    int n = (int)s->n;
    void *args[] = {&s->da, &s->db, &s->dc, &n};
    WL_TRY(wsLaunchKernel(ctx, mod, "vecadd", ws_dim(grid, 1, 1), ws_dim(256, 1, 1), 0, args));
    r->launches++;
    return wsMemcpyDtoH(ctx, s->c, s->dc, bytes);
}

static ws_status vecadd_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct vecadd_state s;
    memset(&s, 0, sizeof s);
    /* sizes: ~0.6M / ~65M / ~180M thread instructions (about 11 per element) */
    s.n = WL_BY_SIZE(o, (size_t)50000, (size_t)6000037, (size_t)16000057);
    unsigned grid = WL_BY_SIZE(o, 48u, 480u, 1920u);   /* 256-thread CTAs; several passes each */
    /* --grid-scale: up to one element per thread */
    grid = wl_grid_ctas(o, grid, (unsigned)((s.n + 255) / 256));

    s.a = wl_alloc(s.n * sizeof(float));
    s.b = wl_alloc(s.n * sizeof(float));
    s.c = wl_alloc(s.n * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (size_t i = 0; i < s.n; i++) {
        s.a[i] = wl_rng_float(&rng, -100.0f, 100.0f);
        s.b[i] = wl_rng_float(&rng, -100.0f, 100.0f);
    }
    if (o->verbose)
        fprintf(o->log, "vecadd: n=%zu grid=%u block=256\n", s.n, grid);

    ws_status st = vecadd_device(ctx, mod, &s, grid, r);
    if (st == WS_SUCCESS) {
        /* one IEEE single-precision add per element on both sides: bit-identical */
        float *want = wl_alloc(s.n * sizeof(float));
        for (size_t i = 0; i < s.n; i++)
            want[i] = s.a[i] + s.b[i];
        wl_check_f32(r, "c", s.c, want, s.n, 0.0, 0.0);
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

const struct workload wl_vecadd = {
    .name = "vecadd",
    .summary = "c = a + b over floats, grid-stride loop: streaming coalesced loads/stores, tail divergence",
    .tolerance = "exact (one float add per element)",
    .run = vecadd_run,
    .grid_scale = 1,
};
