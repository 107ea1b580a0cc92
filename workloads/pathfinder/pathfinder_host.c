/*
 * pathfinder_host.c - driver for pathfinder.cu: minimum path cost from the top
 * row to every column of the bottom row of a grid of small integer weights,
 * advancing `pyramid` rows per launch and ping-ponging two row buffers.
 * Integers: the result must match the CPU dynamic programme exactly.
 */
#include <string.h>

#include "common/wl_util.h"

#define PF_BLOCK 256u

static int pf_min(int a, int b) { return a < b ? a : b; }

/* Straightforward row-by-row DP over the whole grid. */
static void pf_reference(const int *wall, int rows, int cols, int *out)
{
    int *prev = wl_alloc((size_t)cols * sizeof *prev);
    memcpy(out, wall, (size_t)cols * sizeof *out);
    for (int r = 1; r < rows; r++) {
        memcpy(prev, out, (size_t)cols * sizeof *prev);
        for (int c = 0; c < cols; c++) {
            int best = prev[c];
            if (c > 0)
                best = pf_min(best, prev[c - 1]);
            if (c + 1 < cols)
                best = pf_min(best, prev[c + 1]);
            out[c] = wall[(size_t)r * (size_t)cols + (size_t)c] + best;
        }
    }
    free(prev);
}

static ws_status pf_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* tiny: rows-1 = 29 is not a multiple of the pyramid height, so the last launch is shorter */
    int cols = WL_BY_SIZE(o, 1500, 40000, 100000);
    int rows = WL_BY_SIZE(o, 30, 100, 100);
    int pyramid = WL_BY_SIZE(o, 8, 20, 20);
    size_t ncell = (size_t)rows * (size_t)cols;
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);

    int *wall = wl_alloc(ncell * sizeof *wall);
    for (size_t i = 0; i < ncell; i++)
        wall[i] = (int)wl_rng_below(&rng, 10);   /* Rodinia uses weights 0..9 */
    int *got = wl_alloc((size_t)cols * sizeof *got);
    int *want = wl_alloc((size_t)cols * sizeof *want);

    ws_status st = WS_SUCCESS;
    ws_devptr d_wall = 0, d_buf[2] = {0, 0};
    int cur = 0;
#define PF_TRY(call) do { st = (call); if (st != WS_SUCCESS) goto out; } while (0)
    PF_TRY(wl_upload(ctx, &d_wall, wall, ncell * sizeof *wall));
    PF_TRY(wl_upload(ctx, &d_buf[0], wall, (size_t)cols * sizeof *wall));   /* row 0 is the start */
    PF_TRY(wl_upload(ctx, &d_buf[1], NULL, (size_t)cols * sizeof *wall));

    unsigned inner = PF_BLOCK - 2u * (unsigned)pyramid;
    unsigned grid = ((unsigned)cols + inner - 1u) / inner;
    for (int t = 1; t < rows; t += pyramid) {
        int steps = pf_min(pyramid, rows - t);
        int start_row = t;
        /* a shorter last launch has a thinner halo, so wider strips and fewer CTAs */
        unsigned strip = PF_BLOCK - 2u * (unsigned)steps;
        unsigned g = ((unsigned)cols + strip - 1u) / strip;
        void *args[] = {&d_wall, &d_buf[cur], &d_buf[1 - cur], &cols, &start_row, &steps};
        PF_TRY(wsLaunchKernel(ctx, mod, "pathfinder_pyramid", ws_dim(g, 1, 1), ws_dim(PF_BLOCK, 1, 1), 0, args));
        r->launches++;
        cur = 1 - cur;
    }
    PF_TRY(wsMemcpyDtoH(ctx, got, d_buf[cur], (size_t)cols * sizeof *got));

    pf_reference(wall, rows, cols, want);
    wl_check_i32(r, "bottom-row path costs", got, want, (size_t)cols);
    if (o->verbose)
        fprintf(o->log, "pathfinder: %d rows x %d cols, pyramid %d, %u CTAs per full launch, %u launches\n", rows,
                cols, pyramid, grid, r->launches);
out:
#undef PF_TRY
    /* on failure leave the buffers to the context teardown so the error message stays */
    if (st == WS_SUCCESS)
        st = wsFree(ctx, d_wall);
    if (st == WS_SUCCESS)
        st = wsFree(ctx, d_buf[0]);
    if (st == WS_SUCCESS)
        st = wsFree(ctx, d_buf[1]);
    free(wall);
    free(got);
    free(want);
    return st;
}

const struct workload wl_pathfinder = {
    .name = "pathfinder",
    .summary = "row-by-row min-cost path DP, shared-memory pyramid with halo (Rodinia pathfinder)",
    .tolerance = "exact",
    .run = pf_run,
};
