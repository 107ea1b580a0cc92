/*
 * binopt_host.c - driver for binomial option pricing (workloads/binopt/binopt.cu, CUDA SDK
 * binomialOptions; 000 Tables 4.2/5.3).
 *
 * Input: European calls with the SDK sample's ranges (spot 5..30, strike
 * 1..100, expiry 0.25..10 years, riskless rate 6%, volatility 10%).  The host
 * derives each option's tree parameters in double, as the SDK does (dt = T/n,
 * vdt = V sqrt(dt), u = e^vdt, pu = (e^(R dt) - 1/u) / (u - 1/u), both
 * probabilities times the discount e^(-R dt)), and passes them as floats; one
 * CTA of 128 threads prices one option.
 * Check: a CPU replay of the kernel in float (the same fmaf per node, the same
 * level order).  Only the leaves can differ: CUDA's expf is within 2 ulp and
 * glibc's is correctly rounded, and a leaf error reaches the root scaled by the
 * leaf's (discounted) probability, so about 2.4e-7 of the price; re-rounding of
 * slightly different intermediates adds a random walk of half-ulps over the n
 * levels.  Tolerance rel 1e-4 abs 1e-5 (measured well below; see -v).  With -v
 * the prices are also compared with the closed-form Black-Scholes price.
 */
#include "common/wl_util.h"

#define BINOPT_BLOCK 128
#define BINOPT_R 0.06
#define BINOPT_V 0.10

struct binopt_in {
    float *s, *x, *t, *vdt, *pu, *pd;
};

static float binopt_replay(float s, float x, float vdt, float pu, float pd, int n, float *a, float *b)
{
    for (int i = 0; i <= n; i++) {
        float d = s * expf(vdt * (float)(2 * i - n)) - x;
        a[i] = d > 0.0f ? d : 0.0f;
    }
    for (int level = n; level > 0; level--) {
        for (int j = 0; j < level; j++)
            b[j] = fmaf(pu, a[j + 1], pd * a[j]);
        float *t = a;
        a = b;
        b = t;
    }
    return a[0];
}

static double binopt_bs(double s, double x, double t)
{
    double sq = BINOPT_V * sqrt(t);
    double d1 = (log(s / x) + (BINOPT_R + 0.5 * BINOPT_V * BINOPT_V) * t) / sq, d2 = d1 - sq;
    return s * 0.5 * erfc(-d1 / sqrt(2.0)) - x * exp(-BINOPT_R * t) * 0.5 * erfc(-d2 / sqrt(2.0));
}

static ws_status binopt_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d, const struct binopt_in *in, int n_opt,
                               int steps, float *price, unsigned *launches)
{
    size_t bytes = (size_t)n_opt * sizeof(float);
    WL_TRY(wl_upload(ctx, &d[0], in->s, bytes));
    WL_TRY(wl_upload(ctx, &d[1], in->x, bytes));
    WL_TRY(wl_upload(ctx, &d[2], in->vdt, bytes));
    WL_TRY(wl_upload(ctx, &d[3], in->pu, bytes));
    WL_TRY(wl_upload(ctx, &d[4], in->pd, bytes));
    WL_TRY(wl_upload(ctx, &d[5], NULL, bytes));
    void *args[] = {&d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &steps};
    WL_TRY(wsLaunchKernel(ctx, mod, "binopt_price", ws_dim((unsigned)n_opt, 1, 1), ws_dim(BINOPT_BLOCK, 1, 1), 0,
                          args));
    (*launches)++;
    return wsMemcpyDtoH(ctx, price, d[5], bytes);
}

static ws_status binopt_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: the SDK sample's 1024 options on 2048-step trees */
    int n_opt = WL_BY_SIZE(o, 30, 90, 1024), steps = WL_BY_SIZE(o, 128, 512, 2048);
    size_t bytes = (size_t)n_opt * sizeof(float);
    struct binopt_in in;
    float **arr[] = {&in.s, &in.x, &in.t, &in.vdt, &in.pu, &in.pd};
    for (int i = 0; i < 6; i++)
        *arr[i] = wl_alloc(bytes);
    float *price = wl_alloc(bytes), *ref = wl_alloc(bytes);
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (int i = 0; i < n_opt; i++) {
        in.s[i] = wl_rng_float(&rng, 5.0f, 30.0f);
        in.x[i] = wl_rng_float(&rng, 1.0f, 100.0f);
        in.t[i] = wl_rng_float(&rng, 0.25f, 10.0f);
        double dt = (double)in.t[i] / steps, vdt = BINOPT_V * sqrt(dt), rdt = BINOPT_R * dt;
        double up = exp(vdt), dn = exp(-vdt), df = exp(-rdt);
        double pu = (exp(rdt) - dn) / (up - dn);
        in.vdt[i] = (float)vdt;
        in.pu[i] = (float)(pu * df);
        in.pd[i] = (float)((1.0 - pu) * df);
    }

    ws_devptr d[6] = {0, 0, 0, 0, 0, 0};
    ws_status st = binopt_device(ctx, mod, d, &in, n_opt, steps, price, &r->launches);
    if (st == WS_SUCCESS) {
        float *a = wl_alloc((size_t)(steps + 1) * sizeof(float)), *b = wl_alloc((size_t)(steps + 1) * sizeof(float));
        double bs_err = 0;
        for (int i = 0; i < n_opt; i++) {
            ref[i] = binopt_replay(in.s[i], in.x[i], in.vdt[i], in.pu[i], in.pd[i], steps, a, b);
            bs_err = fmax(bs_err, fabs(ref[i] - binopt_bs(in.s[i], in.x[i], in.t[i])));
        }
        wl_check_f32(r, "option prices", price, ref, (size_t)n_opt, 1e-4, 1e-5);
        if (o->verbose)
            fprintf(o->log,
                    "binopt: %d options, %d steps; max |GPU - replay| %.3g, max |replay - Black-Scholes| %.3g\n", n_opt,
                    steps, r->max_abs_err, bs_err);
        free(a);
        free(b);
    }
    for (int i = 0; i < 6; i++) {
        if (d[i])
            wsFree(ctx, d[i]);
        free(*arr[i]);
    }
    free(price);
    free(ref);
    return st;
}

const struct workload wl_binopt = {
    .name = "binopt",
    .summary = "binomial option pricing (CUDA SDK binomialOptions; 000 Tables 4.2/5.3): one option per CTA, backward "
               "induction over a 2 x (n+1)-float shared-memory tree, a barrier per level",
    .tolerance = "rel 1e-4 abs 1e-5 vs a float replay of the kernel (only expf's last bits differ)",
    .run = binopt_run,
};
