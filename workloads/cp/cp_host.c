/*
 * cp_host.c - driver for the Coulombic potential slice (workloads/cp/cp.cu).
 *
 * Input: atoms at random positions in a box over the lattice, charges in
 * [-1, 1] (so contributions of both signs cancel, as in a molecule), none
 * closer to the slice than a quarter of the lattice spacing; the slice lies
 * halfway up the box.  The host precomputes every atom's dz^2 for the slice
 * and uploads the atoms in chunks of at most CP_MAXATOMS to constant memory,
 * one launch per chunk.
 *
 * Check: a double-precision CPU sum over all atoms for every point.  The GPU
 * adds float terms of both signs with an approximate rsqrt (relative error
 * ~1e-7 per term) and a float running sum (error growing with the number of
 * terms), so the error is bounded relative to the sum of magnitudes
 * S = sum |q| / r, not to the (possibly cancelling) result: both sides are
 * divided by S before comparing, with an absolute tolerance of 1e-5.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define CP_UNROLL 8
#define CP_MAXATOMS 4000
#define CP_BX 16
#define CP_BY 8

static ws_status cp_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d_grid, const float *atoms, int natoms,
                           int chunk, int nx, int ny, float spacing, float *grid, unsigned *launches)
{
    size_t npts = (size_t)nx * (size_t)ny;
    WL_TRY(wl_upload(ctx, d_grid, NULL, npts * sizeof(float)));
    ws_dim3 g = ws_dim((unsigned)(nx / (CP_BX * CP_UNROLL)), (unsigned)(ny / CP_BY), 1);
    for (int first = 0; first < natoms; first += chunk) {
        int n = natoms - first < chunk ? natoms - first : chunk;
        WL_TRY(wsMemcpyToSymbol(ctx, mod, "cp_atoms", atoms + 4 * (size_t)first, (size_t)n * 4 * sizeof(float), 0));
        void *args[] = {d_grid, &nx, &spacing, &n};
        WL_TRY(wsLaunchKernel(ctx, mod, "cp_energy", g, ws_dim(CP_BX, CP_BY, 1), 0, args));
        (*launches)++;
    }
    return wsMemcpyDtoH(ctx, grid, *d_grid, npts * sizeof(float));
}

static ws_status cp_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* nx a multiple of 128 (16 threads x 8 points), ny of 8; paper: a 512 x 512 slice, 4000 atoms */
    int nx = WL_BY_SIZE(o, 128, 512, 512), ny = WL_BY_SIZE(o, 32, 512, 512);
    int natoms = WL_BY_SIZE(o, 96, 256, 4000);
    int chunk = WL_BY_SIZE(o, 64, 128, CP_MAXATOMS);   /* tiny/small: two launches, to exercise the chunking */
    const float spacing = 0.1f;
    size_t npts = (size_t)nx * (size_t)ny;
    float *atoms = wl_alloc((size_t)natoms * 4 * sizeof(float));
    double *ax = wl_alloc((size_t)natoms * 3 * sizeof(double));   /* x, y, z for the reference */
    float *grid = wl_alloc(npts * sizeof(float)), *want = wl_alloc(npts * sizeof(float));
    float *gotn = wl_alloc(npts * sizeof(float));

    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    const float wx = spacing * (float)nx, wy = spacing * (float)ny, depth = 2.0f, zs = 1.0f;
    for (int a = 0; a < natoms; a++) {
        float x = wl_rng_float(&rng, 0.0f, wx), y = wl_rng_float(&rng, 0.0f, wy), z;
        do
            z = wl_rng_float(&rng, 0.0f, depth);
        while (fabsf(z - zs) < 0.25f * spacing);
        float q = wl_rng_float(&rng, -1.0f, 1.0f);
        float dz = z - zs;
        atoms[4 * a + 0] = x;
        atoms[4 * a + 1] = y;
        atoms[4 * a + 2] = dz * dz;
        atoms[4 * a + 3] = q;
        ax[3 * a + 0] = x;
        ax[3 * a + 1] = y;
        ax[3 * a + 2] = dz;
    }

    ws_devptr d_grid = 0;
    ws_status st = cp_device(ctx, mod, &d_grid, atoms, natoms, chunk, nx, ny, spacing, grid, &r->launches);
    if (st == WS_SUCCESS) {
        double worst_rel = 0.0;
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                /* the lattice coordinates as the kernel forms them (float products) */
                double px = (double)(spacing * (float)i), py = (double)(spacing * (float)j);
                double e = 0.0, s = 0.0;
                for (int a = 0; a < natoms; a++) {
                    double dx = px - ax[3 * a], dy = py - ax[3 * a + 1], dz = ax[3 * a + 2];
                    double t = (double)atoms[4 * a + 3] / sqrt(dx * dx + dy * dy + dz * dz);
                    e += t;
                    s += fabs(t);
                }
                size_t p = (size_t)j * (size_t)nx + (size_t)i;
                want[p] = (float)(e / s);
                gotn[p] = (float)((double)grid[p] / s);
                double rel = fabs((double)grid[p] - e) / s;
                worst_rel = rel > worst_rel ? rel : worst_rel;
            }
        wl_check_f32(r, "potential / sum|q/r|", gotn, want, npts, 0.0, 1e-5);
        if (o->verbose)
            fprintf(o->log, "cp: %dx%d lattice, %d atoms in launches of %d; worst error / sum|q/r| = %.3g\n", nx, ny,
                    natoms, chunk, worst_rel);
    }
    if (d_grid) wsFree(ctx, d_grid);
    free(atoms);
    free(ax);
    free(grid);
    free(want);
    free(gotn);
    return st;
}

const struct workload wl_cp = {
    .name = "cp",
    .summary = "Coulombic potential on a lattice slice (Parboil CP; 001 CP, expected Type-C): atoms broadcast "
               "from constant memory, rsqrt-bound, 8 points per thread",
    .tolerance = "abs 1e-5 of sum|q/r| per point (float terms of both signs, approximate rsqrt, vs double)",
    .run = cp_run,
};
