/*
 * blackscholes_host.c - driver for Black-Scholes option pricing (workloads/blackscholes/blackscholes.cu).
 *
 * Inputs follow the CUDA SDK sample: spot 5..30, strike 1..100, expiry
 * 0.25..10 years, riskless rate 2%, volatility 30%.  The kernel walks the
 * options with a grid-stride loop (at most 480 CTAs of 128 threads, as the
 * SDK launches), so a thread prices several options.  The CPU reference
 * evaluates the same formula and the same CND polynomial in double precision
 * from the same float inputs.
 */
#include "common/wl_util.h"

#define BS_BLOCK 128
#define BS_MAX_CTAS 480
#define BS_RISKFREE 0.02f
#define BS_VOLATILITY 0.30f

/* Abramowitz & Stegun 26.2.17, the approximation the kernel uses: comparing
   against the exact erfc would add its 7.5e-8 error, but that is far below
   the float rounding that the tolerance is about anyway. */
static double bs_cnd(double d)
{
    const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = 0.39894228040143267794 * exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0 - c : c;
}

static void bs_reference(float *call, float *put, const float *spot, const float *strike, const float *years, size_t n)
{
    const double r = BS_RISKFREE, v = BS_VOLATILITY;
    for (size_t i = 0; i < n; i++) {
        double s = spot[i], x = strike[i], t = years[i];
        double vsqrt_t = v * sqrt(t);
        double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / vsqrt_t;
        double d2 = d1 - vsqrt_t;
        double disc = exp(-r * t);
        call[i] = (float)(s * bs_cnd(d1) - x * disc * bs_cnd(d2));
        put[i] = (float)(x * disc * (1.0 - bs_cnd(d2)) - s * (1.0 - bs_cnd(d1)));
    }
}

struct bs_dev {
    ws_devptr call, put, spot, strike, years;
};

static ws_status bs_device(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct bs_dev *d, const float *spot,
                           const float *strike, const float *years, float *call, float *put, int n,
                           unsigned *launches)
{
    size_t bytes = (size_t)n * sizeof(float);
    WL_TRY(wl_upload(ctx, &d->spot, spot, bytes));
    WL_TRY(wl_upload(ctx, &d->strike, strike, bytes));
    WL_TRY(wl_upload(ctx, &d->years, years, bytes));
    WL_TRY(wl_upload(ctx, &d->call, NULL, bytes));
    WL_TRY(wl_upload(ctx, &d->put, NULL, bytes));

    /* about two options per thread at tiny size, many at larger sizes */
    unsigned ctas = (unsigned)((n + 2 * BS_BLOCK - 1) / (2 * BS_BLOCK));
    if (ctas > BS_MAX_CTAS)
        ctas = BS_MAX_CTAS;
    /* --grid-scale: up to one option per thread */
    ctas = wl_grid_ctas(o, ctas, (unsigned)((n + BS_BLOCK - 1) / BS_BLOCK));
    float riskfree = BS_RISKFREE, volatility = BS_VOLATILITY;
    void *args[] = {&d->call, &d->put, &d->spot, &d->strike, &d->years, &riskfree, &volatility, &n};
    WL_TRY(wsLaunchKernel(ctx, mod, "blackscholes", ws_dim(ctas, 1, 1), ws_dim(BS_BLOCK, 1, 1), 0, args));
    (*launches)++;
    WL_TRY(wsMemcpyDtoH(ctx, call, d->call, bytes));
    return wsMemcpyDtoH(ctx, put, d->put, bytes);
}

static ws_status bs_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: the SDK sample's 4,000,000 options (one pricing pass) */
    int n = WL_BY_SIZE(o, 8000, 1000000, 4000000);
    size_t bytes = (size_t)n * sizeof(float);
    float *spot = wl_alloc(bytes), *strike = wl_alloc(bytes), *years = wl_alloc(bytes);
    float *call = wl_alloc(bytes), *put = wl_alloc(bytes);
    float *ref_call = wl_alloc(bytes), *ref_put = wl_alloc(bytes);

    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (int i = 0; i < n; i++) {
        spot[i] = wl_rng_float(&rng, 5.0f, 30.0f);
        strike[i] = wl_rng_float(&rng, 1.0f, 100.0f);
        years[i] = wl_rng_float(&rng, 0.25f, 10.0f);
    }

    struct bs_dev d = {0, 0, 0, 0, 0};
    ws_status st = bs_device(ctx, mod, o, &d, spot, strike, years, call, put, n, &r->launches);
    if (st == WS_SUCCESS) {
        bs_reference(ref_call, ref_put, spot, strike, years, (size_t)n);
        /* Float rounding of d1 (a few ulp after logf, sqrtf and two
           divisions) moves a price by at most spot * pdf(d1) * error(d1), about
           1e-5; the products and the final subtraction of prices up to 100 add a
           few ulp of 100 (7.6e-6 each).  A float emulation of the kernel on the
           CPU stays below 2e-5, a few percent of this tolerance. */
        wl_check_f32(r, "call prices", call, ref_call, (size_t)n, 1e-4, 1e-4);
        wl_check_f32(r, "put prices", put, ref_put, (size_t)n, 1e-4, 1e-4);
        if (o->verbose)
            fprintf(o->log, "blackscholes: %d options, max abs error %.3g\n", n, r->max_abs_err);
    }
    if (d.call) wsFree(ctx, d.call);
    if (d.put) wsFree(ctx, d.put);
    if (d.spot) wsFree(ctx, d.spot);
    if (d.strike) wsFree(ctx, d.strike);
    if (d.years) wsFree(ctx, d.years);
    free(spot);
    free(strike);
    free(years);
    free(call);
    free(put);
    free(ref_call);
    free(ref_put);
    return st;
}

const struct workload wl_blackscholes = {
    .name = "blackscholes",
    .summary = "Black-Scholes call/put pricing: expf/logf/sqrtf/div software sequences, grid-stride loop",
    .tolerance = "rel 1e-4 abs 1e-4 vs double reference (float rounding of d1 and of prices up to 100)",
    .run = bs_run,
    .grid_scale = 1,
};
