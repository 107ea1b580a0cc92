/*
 * lib_host.c - driver for the LIBOR market model Monte Carlo (workloads/lib/lib.cu).
 *
 * Parameters of Giles' LIBOR test case: rates L0 = 5%, timestep 0.25 years,
 * volatility 0.2 for every rate, a portfolio of 15 swaptions (three strikes
 * 4.5/5/5.5% at each of five maturities).  small/paper: 80 rates, 40
 * timesteps, maturities 4-40 steps; tiny: 40 rates, 20 timesteps, maturities
 * scaled to 2-20.  Normal variates from Box-Muller on the deterministic
 * generator, stored as float.
 *
 * Check: a double-precision CPU evaluation of the same model from the same
 * float variates and float parameters.  The GPU works in float with an
 * approximate exponential (ex2.approx after a multiply by log2 e); over the
 * 40 x 80 rate updates a rate's relative error grows to about 1e-5, and the
 * payoff sums up to 15 terms 100 x (1 - B - K S), differences of numbers
 * near 1, so a path's error could in principle reach 15 x 100 x 1e-5; in
 * practice the rounding errors do not line up and the largest error over
 * seeds 1-3 at tiny and small size is 2-4e-4 (printed with -v).  Values range
 * from 0 to ~300 (mean ~47 at small size).  Tolerance: abs 2e-3 + rel 1e-4
 * per path, about 5x the measured error.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define LIB_NMAX 80
#define LIB_OPTMAX 16
#define LIB_NOPT 15

struct lib_model {
    int npath, nn, nmat, nopt;
    float delta, l0;
    float lambda[LIB_NMAX];
    int32_t maturity[LIB_OPTMAX];
    float swaprate[LIB_OPTMAX];
};

static double lib_path_ref(const struct lib_model *m, const float *z, int path)
{
    double L[LIB_NMAX], B[LIB_NMAX], S[LIB_NMAX];
    const double delta = m->delta;
    for (int i = 0; i < m->nn; i++)
        L[i] = m->l0;
    for (int n = 0; n < m->nmat; n++) {
        double sqez = sqrt(delta) * z[(size_t)n * (size_t)m->npath + (size_t)path];
        double v = 0.0;
        for (int i = n + 1; i < m->nn; i++) {
            double lam = m->lambda[i - n - 1], con1 = delta * lam;
            v += con1 * L[i] / (1.0 + delta * L[i]);
            L[i] *= exp(con1 * v + lam * (sqez - 0.5 * con1));
        }
    }
    double b = 1.0, s = 0.0;
    for (int n = m->nmat; n < m->nn; n++) {
        b /= 1.0 + delta * L[n];
        s += delta * b;
        B[n - m->nmat] = b;
        S[n - m->nmat] = s;
    }
    double v = 0.0;
    for (int i = 0; i < m->nopt; i++) {
        int k = m->maturity[i] - 1;
        double swapval = B[k] + (double)m->swaprate[i] * S[k] - 1.0;
        if (swapval < 0.0)
            v += -100.0 * swapval;
    }
    for (int n = 0; n < m->nmat; n++)
        v /= 1.0 + delta * L[n];
    return v;
}

static ws_status lib_device(ws_ctx *ctx, ws_module *mod, const struct lib_model *m, ws_devptr *d_z, ws_devptr *d_v,
                            const float *z, float *value, unsigned block, unsigned *launches)
{
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "lib_lambda", m->lambda, sizeof m->lambda, 0));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "lib_maturity", m->maturity, sizeof m->maturity, 0));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "lib_swaprate", m->swaprate, sizeof m->swaprate, 0));
    size_t nz = (size_t)m->nmat * (size_t)m->npath;
    WL_TRY(wl_upload(ctx, d_z, z, nz * sizeof(float)));
    WL_TRY(wl_upload(ctx, d_v, NULL, (size_t)m->npath * sizeof(float)));
    int npath = m->npath, nn = m->nn, nmat = m->nmat, nopt = m->nopt;
    float delta = m->delta, l0 = m->l0;
    void *args[] = {d_z, d_v, &npath, &nn, &nmat, &nopt, &delta, &l0};
    unsigned ctas = ((unsigned)npath + block - 1) / block;
    WL_TRY(wsLaunchKernel(ctx, mod, "lib_portfolio", ws_dim(ctas, 1, 1), ws_dim(block, 1, 1), 0, args));
    (*launches)++;
    return wsMemcpyDtoH(ctx, value, *d_v, (size_t)npath * sizeof(float));
}

static ws_status lib_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    static const int32_t mat80[LIB_NOPT] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
    static const float rates[3] = {0.045f, 0.05f, 0.055f};
    struct lib_model m;
    memset(&m, 0, sizeof m);
    /* small: 64 CTAs of 64 paths, the grid of the LIB run in 001; paper: 8x more paths */
    m.npath = WL_BY_SIZE(o, 128, 4096, 32768);
    unsigned block = WL_BY_SIZE(o, 32u, 64u, 64u);
    m.nn = WL_BY_SIZE(o, 40, 80, 80);
    m.nmat = m.nn / 2;
    m.nopt = LIB_NOPT;
    m.delta = 0.25f;
    m.l0 = 0.05f;
    for (int i = 0; i < LIB_NMAX; i++)
        m.lambda[i] = 0.2f;
    for (int i = 0; i < LIB_NOPT; i++) {
        m.maturity[i] = mat80[i] * (m.nn - m.nmat) / 40;
        m.swaprate[i] = rates[i % 3];
    }

    size_t nz = (size_t)m.nmat * (size_t)m.npath;
    float *z = wl_alloc(nz * sizeof(float));
    float *value = wl_alloc((size_t)m.npath * sizeof(float)), *want = wl_alloc((size_t)m.npath * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (size_t i = 0; i < nz; i += 2) {
        /* Box-Muller; u1 in (0, 1] so the log is finite */
        double u1 = ((double)(wl_rng_u64(&rng) >> 11) + 1.0) / 9007199254740992.0;
        double u2 = (double)(wl_rng_u64(&rng) >> 11) / 9007199254740992.0;
        double rad = sqrt(-2.0 * log(u1)), th = 6.283185307179586 * u2;
        z[i] = (float)(rad * cos(th));
        if (i + 1 < nz)
            z[i + 1] = (float)(rad * sin(th));
    }

    ws_devptr d_z = 0, d_v = 0;
    ws_status st = lib_device(ctx, mod, &m, &d_z, &d_v, z, value, block, &r->launches);
    if (st == WS_SUCCESS) {
        double mean = 0.0, vmax = 0.0;
        for (int p = 0; p < m.npath; p++) {
            double v = lib_path_ref(&m, z, p);
            want[p] = (float)v;
            mean += v;
            vmax = v > vmax ? v : vmax;
        }
        wl_check_f32(r, "portfolio value per path", value, want, (size_t)m.npath, 1e-4, 2e-3);
        if (o->verbose)
            fprintf(o->log, "lib: %d paths, %d rates, %d steps, %d swaptions: mean value %.6f, largest %.6f, "
                    "max abs error %.3g\n", m.npath, m.nn, m.nmat, m.nopt, mean / m.npath, vmax, r->max_abs_err);
    }
    if (d_z) wsFree(ctx, d_z);
    if (d_v) wsFree(ctx, d_v);
    free(z);
    free(value);
    free(want);
    return st;
}

const struct workload wl_lib = {
    .name = "lib",
    .summary = "LIBOR market model Monte Carlo (CUDA SDK / Giles LIBOR; 001 LIB, expected Type-M): per-path "
               "rate evolution in local-memory arrays, div and ex2 per update, swaption portfolio",
    .tolerance = "abs 2e-3 + rel 1e-4 per path (float with approximate exp vs a double reference; values 0-300)",
    .run = lib_run,
};
