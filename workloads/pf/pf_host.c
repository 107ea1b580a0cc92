/*
 * pf_host.c - driver for pf.cu: a particle filter tracking a disk through a
 * synthetic video (Rodinia particlefilter, float version: 001's PFF, Type-M;
 * 000's PF).  Four launches per frame after the first.
 *
 * Input (all made on the host from the seed, as Rodinia's generator does): an
 * iszx x iszy x nfr video of 8-bit pixels, background 100 and a radius-5 disk
 * of 228 moving +1 in x and -2 in y per frame, plus Gaussian noise (sigma 5);
 * the Gaussian motion noise of every particle and frame and the resampling
 * offset u1 of every frame.
 *
 * Checks, frame by frame, each stage against the CPU evaluated from the GPU's
 * own inputs to that stage (the resampling is discontinuous: an ulp in a CDF
 * value may pick a neighbouring particle, so the stages are not chained on the
 * CPU):
 *  - moved positions: exact (fmaf replay);
 *  - normalised weights: the likelihood in float is exact (integer pixel
 *    arithmetic, one correctly rounded division per pixel, same order), the
 *    weight w*exp(lik) and its normalisation in double; CUDA's expf is within
 *    2 ulp and the float tree sum of n weights within log2(n) roundings, so
 *    rel 1e-5 (~80 ulp) is a safe and still tight bound;
 *  - CDF: against the double prefix sum of the GPU's normalised weights,
 *    abs 1e-5 (the scan adds at most log2(512) + n/512 roundings of values <= 1);
 *  - resampled positions: exact, the CPU's linear search on the GPU's CDF with
 *    the kernel's u (same float operations).
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define PF_BLOCK 128 /* these must match pf.cu */
#define PF_SCAN 512
#define PF_RADIUS 5

struct pf_state {
    int n, nfr, iszx, iszy, ndisk, nblocks;
    unsigned char *video;
    int32_t *disk;
    float *randx, *randy, *u1;    /* per frame */
    float *ax, *ay, *w, *cdf, *nx, *ny, *prev_x, *prev_y;
    float *want_x, *want_y;
    double *want_w, *want_cdf;
    ws_devptr d_video, d_disk, d_randx, d_randy, d_x[2], d_y[2], d_w, d_cdf, d_partial, d_total;
};

/* Standard normal deviate, approximately: the sum of 12 uniforms minus 6
   (Irwin-Hall; mean 0, variance 1).  Only additions, so every platform makes
   the same inputs (Box-Muller would depend on the C library's log and cos). */
static double pf_gauss(struct wl_rng *r)
{
    double s = 0.0;
    for (int i = 0; i < 12; i++)
        s += (double)(wl_rng_u64(r) >> 11) / 9007199254740992.0;
    return s - 6.0;
}

static void pf_make_video(struct pf_state *s, struct wl_rng *rng)
{
    for (int x = 0; x < s->iszx; x++)
        for (int y = 0; y < s->iszy; y++)
            for (int k = 0; k < s->nfr; k++) {
                int ox = s->iszx / 2 + k, oy = s->iszy / 2 - 2 * k;   /* the object's path */
                int dx = x - ox, dy = y - oy;
                double v = dx * dx + dy * dy < PF_RADIUS * PF_RADIUS ? 228.0 : 100.0;
                v += 5.0 * pf_gauss(rng);
                v = v < 0.0 ? 0.0 : v > 255.0 ? 255.0 : v;
                s->video[((size_t)x * (size_t)s->iszy + (size_t)y) * (size_t)s->nfr + (size_t)k] = (unsigned char)lrint(v);
            }
}

/* the likelihood of particle i at frame k (kernel order, float) */
static float pf_cpu_lik(const struct pf_state *s, float x, float y, int k)
{
    int cx = (int)rintf(x), cy = (int)rintf(y);
    int max_ind = s->iszx * s->iszy * s->nfr;
    float lik = 0.0f;
    for (int j = 0; j < s->ndisk; j++) {
        int ind = abs(((cx + s->disk[2 * j + 1]) * s->iszy + cy + s->disk[2 * j]) * s->nfr + k);
        if (ind >= max_ind)
            ind = 0;
        float v = (float)s->video[ind];
        float a = v - 100.0f, b = v - 228.0f;
        lik += (a * a - b * b) / 1250.0f;
    }
    return lik / (float)s->ndisk;
}

/* 1 if every element is within |got - want| <= rel |want| + abs (NaN fails) */
static int pf_close(const float *got, const double *want, int n, double rel, double abs_tol)
{
    for (int i = 0; i < n; i++)
        if (!(fabs((double)got[i] - want[i]) <= abs_tol + rel * fabs(want[i])))
            return 0;
    return 1;
}

static int pf_same(const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        if (!(got[i] == want[i]))
            return 0;
    return 1;
}

/* Compare one frame's results.  Checks silently and records through
   wl_check_* only on a mismatch (the first one is kept) or at the last frame
   (the note of what was verified).  Returns 0 on a mismatch. */
static int pf_check_frame(struct pf_state *s, int k, struct wl_result *r, int last)
{
    int n = s->n;
    double wsum = 0.0;
    for (int i = 0; i < n; i++) {
        s->want_x[i] = fmaf(5.0f, s->randx[(size_t)k * (size_t)n + (size_t)i], s->prev_x[i] + 1.0f);
        s->want_y[i] = fmaf(2.0f, s->randy[(size_t)k * (size_t)n + (size_t)i], s->prev_y[i] - 2.0f);
        /* weights entering every frame are 1/n (the initial ones and resampling's) */
        s->want_w[i] = (double)(1.0f / (float)n) * exp((double)pf_cpu_lik(s, s->want_x[i], s->want_y[i], k));
        wsum += s->want_w[i];
    }
    double cum = 0.0, worst = r->max_abs_err;
    for (int i = 0; i < n; i++) {
        s->want_w[i] /= wsum;
        cum += (double)s->w[i];   /* the prefix sum of the GPU's own normalised weights */
        s->want_cdf[i] = cum;
        worst = fmax(worst, fabs((double)s->w[i] - s->want_w[i]));
    }
    r->max_abs_err = worst;
    int ok = pf_same(s->ax, s->want_x, n) && pf_same(s->ay, s->want_y, n) &&
             pf_close(s->w, s->want_w, n, 1e-5, 0.0) && pf_close(s->cdf, s->want_cdf, n, 0.0, 1e-5);
    if (!ok || last) {
        char what[64];
        double *got = wl_alloc((size_t)n * sizeof(double));
        snprintf(what, sizeof what, "moved x (frame %d)", k);
        wl_check_f32(r, what, s->ax, s->want_x, (size_t)n, 0.0, 0.0);
        snprintf(what, sizeof what, "moved y (frame %d)", k);
        wl_check_f32(r, what, s->ay, s->want_y, (size_t)n, 0.0, 0.0);
        for (int i = 0; i < n; i++)
            got[i] = (double)s->w[i];
        snprintf(what, sizeof what, "normalised weights (frame %d)", k);
        wl_check_f64(r, what, got, s->want_w, (size_t)n, 1e-5, 0.0);
        for (int i = 0; i < n; i++)
            got[i] = (double)s->cdf[i];
        snprintf(what, sizeof what, "CDF (frame %d)", k);
        wl_check_f64(r, what, got, s->want_cdf, (size_t)n, 0.0, 1e-5);
        free(got);
    }
    if (!ok)
        return 0;

    /* resampling from the GPU's CDF */
    float u1 = s->u1[k];
    for (int i = 0; i < n; i++) {
        float u = u1 + (float)i / (float)n;
        int idx = n - 1;
        for (int j = 0; j < n; j++)
            if (s->cdf[j] >= u) {
                idx = j;
                break;
            }
        s->want_x[i] = s->ax[idx];
        s->want_y[i] = s->ay[idx];
    }
    int same = pf_same(s->nx, s->want_x, n) && pf_same(s->ny, s->want_y, n);
    if (!same || last) {
        char what[64];
        snprintf(what, sizeof what, "resampled x (frame %d)", k);
        wl_check_f32(r, what, s->nx, s->want_x, (size_t)n, 0.0, 0.0);
        snprintf(what, sizeof what, "resampled y (frame %d)", k);
        wl_check_f32(r, what, s->ny, s->want_y, (size_t)n, 0.0, 0.0);
    }
    return same;
}

static ws_status pf_frames(ws_ctx *ctx, ws_module *mod, struct pf_state *s, const struct wl_opts *o,
                           struct wl_result *r)
{
    int n = s->n;
    size_t fb = (size_t)n * sizeof(float);
    int cur = 0;
    for (int k = 1; k < s->nfr; k++) {
        ws_devptr rx = s->d_randx + (ws_devptr)((size_t)k * fb), ry = s->d_randy + (ws_devptr)((size_t)k * fb);
        void *largs[] = {&s->d_x[cur], &s->d_y[cur], &s->d_w, &rx, &ry, &s->d_video, &s->d_disk, &s->ndisk,
                         &s->iszx, &s->iszy, &s->nfr, &k, &s->n, &s->d_partial};
        WL_TRY(wsLaunchKernel(ctx, mod, "pf_likelihood", ws_dim((unsigned)s->nblocks, 1, 1), ws_dim(PF_BLOCK, 1, 1), 0,
                              largs));
        void *sargs[] = {&s->d_partial, &s->nblocks, &s->d_total};
        WL_TRY(wsLaunchKernel(ctx, mod, "pf_sum", ws_dim(1, 1, 1), ws_dim(PF_SCAN, 1, 1), 0, sargs));
        void *nargs[] = {&s->d_w, &s->d_cdf, &s->d_total, &s->n};
        WL_TRY(wsLaunchKernel(ctx, mod, "pf_normalize", ws_dim(1, 1, 1), ws_dim(PF_SCAN, 1, 1), 0, nargs));
        void *fargs[] = {&s->d_x[cur], &s->d_y[cur], &s->d_cdf, &s->u1[k], &s->n, &s->d_x[cur ^ 1], &s->d_y[cur ^ 1],
                         &s->d_w};
        /* read the normalised weights before find_index resets them */
        WL_TRY(wsMemcpyDtoH(ctx, s->w, s->d_w, fb));
        WL_TRY(wsLaunchKernel(ctx, mod, "pf_find_index", ws_dim((unsigned)s->nblocks, 1, 1), ws_dim(PF_BLOCK, 1, 1), 0,
                              fargs));
        r->launches += 4;
        WL_TRY(wsMemcpyDtoH(ctx, s->ax, s->d_x[cur], fb));
        WL_TRY(wsMemcpyDtoH(ctx, s->ay, s->d_y[cur], fb));
        WL_TRY(wsMemcpyDtoH(ctx, s->cdf, s->d_cdf, fb));
        WL_TRY(wsMemcpyDtoH(ctx, s->nx, s->d_x[cur ^ 1], fb));
        WL_TRY(wsMemcpyDtoH(ctx, s->ny, s->d_y[cur ^ 1], fb));
        if (!pf_check_frame(s, k, r, k == s->nfr - 1))
            break;
        if (o->verbose) {
            double ex = 0.0, ey = 0.0;
            for (int i = 0; i < n; i++) {
                ex += (double)s->ax[i] * (double)s->w[i];
                ey += (double)s->ay[i] * (double)s->w[i];
            }
            fprintf(o->log, "pf: frame %d: estimate (%.2f, %.2f), object at (%d, %d)\n", k, ex, ey, s->iszx / 2 + k,
                    s->iszy / 2 - 2 * k);
        }
        memcpy(s->prev_x, s->nx, fb);
        memcpy(s->prev_y, s->ny, fb);
        cur ^= 1;
    }
    return WS_SUCCESS;
}

static ws_status pf_device(ws_ctx *ctx, ws_module *mod, struct pf_state *s, const struct wl_opts *o,
                           struct wl_result *r)
{
    size_t fb = (size_t)s->n * sizeof(float), nvox = (size_t)s->iszx * (size_t)s->iszy * (size_t)s->nfr;
    WL_TRY(wl_upload(ctx, &s->d_video, s->video, nvox));
    WL_TRY(wl_upload(ctx, &s->d_disk, s->disk, (size_t)s->ndisk * 2 * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &s->d_randx, s->randx, fb * (size_t)s->nfr));
    WL_TRY(wl_upload(ctx, &s->d_randy, s->randy, fb * (size_t)s->nfr));
    WL_TRY(wl_upload(ctx, &s->d_x[0], s->prev_x, fb));
    WL_TRY(wl_upload(ctx, &s->d_y[0], s->prev_y, fb));
    WL_TRY(wl_upload(ctx, &s->d_x[1], NULL, fb));
    WL_TRY(wl_upload(ctx, &s->d_y[1], NULL, fb));
    WL_TRY(wl_upload(ctx, &s->d_w, s->w, fb));
    WL_TRY(wl_upload(ctx, &s->d_cdf, NULL, fb));
    WL_TRY(wl_upload(ctx, &s->d_partial, NULL, (size_t)s->nblocks * sizeof(float)));
    WL_TRY(wl_upload(ctx, &s->d_total, NULL, sizeof(float)));
    return pf_frames(ctx, mod, s, o, r);
}

static ws_status pf_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct pf_state s;
    memset(&s, 0, sizeof s);
    /* paper: Rodinia's run (128 x 128 x 10 video, 10000 particles) */
    s.iszx = s.iszy = WL_BY_SIZE(o, 64, 128, 128);
    s.nfr = WL_BY_SIZE(o, 3, 5, 10);
    s.n = WL_BY_SIZE(o, 400, 4096, 10000);
    s.nblocks = (s.n + PF_BLOCK - 1) / PF_BLOCK;
    int n = s.n;
    size_t fb = (size_t)n * sizeof(float);
    s.video = wl_alloc((size_t)s.iszx * (size_t)s.iszy * (size_t)s.nfr);
    s.disk = wl_alloc((2 * PF_RADIUS + 1) * (2 * PF_RADIUS + 1) * 2 * sizeof(int32_t));
    for (int dy = -PF_RADIUS; dy <= PF_RADIUS; dy++)
        for (int dx = -PF_RADIUS; dx <= PF_RADIUS; dx++)
            if (dx * dx + dy * dy < PF_RADIUS * PF_RADIUS) {
                s.disk[2 * s.ndisk] = dy;
                s.disk[2 * s.ndisk + 1] = dx;
                s.ndisk++;
            }
    s.randx = wl_alloc(fb * (size_t)s.nfr);
    s.randy = wl_alloc(fb * (size_t)s.nfr);
    s.u1 = wl_alloc((size_t)s.nfr * sizeof(float));
    float **bufs[] = {&s.ax, &s.ay, &s.w, &s.cdf, &s.nx, &s.ny, &s.prev_x, &s.prev_y, &s.want_x, &s.want_y};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        *bufs[i] = wl_alloc(fb);
    s.want_w = wl_alloc((size_t)n * sizeof(double));
    s.want_cdf = wl_alloc((size_t)n * sizeof(double));

    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    pf_make_video(&s, &rng);
    for (size_t i = 0; i < (size_t)n * (size_t)s.nfr; i++) {
        s.randx[i] = (float)pf_gauss(&rng);
        s.randy[i] = (float)pf_gauss(&rng);
    }
    for (int k = 0; k < s.nfr; k++)
        s.u1[k] = wl_rng_float(&rng, 0.0f, 1.0f) / (float)n;
    /* particles start on the object's first position, equally weighted */
    for (int i = 0; i < n; i++) {
        s.prev_x[i] = (float)(s.iszx / 2);
        s.prev_y[i] = (float)(s.iszy / 2);
        s.w[i] = 1.0f / (float)n;
    }
    if (o->verbose)
        fprintf(o->log, "pf: %d x %d x %d video, %d particles, %d-pixel disk\n", s.iszx, s.iszy, s.nfr, n, s.ndisk);

    ws_status st = pf_device(ctx, mod, &s, o, r);

    ws_devptr *dbufs[] = {&s.d_video, &s.d_disk, &s.d_randx, &s.d_randy, &s.d_x[0], &s.d_x[1],
                          &s.d_y[0],  &s.d_y[1], &s.d_w,     &s.d_cdf,   &s.d_partial, &s.d_total};
    for (size_t i = 0; i < sizeof dbufs / sizeof dbufs[0]; i++)
        if (*dbufs[i])
            wsFree(ctx, *dbufs[i]);
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(*bufs[i]);
    free(s.video);
    free(s.disk);
    free(s.randx);
    free(s.randy);
    free(s.u1);
    free(s.want_w);
    free(s.want_cdf);
    return st;
}

const struct workload wl_pf = {
    .name = "pf",
    .summary = "particle filter, float (Rodinia particlefilter; 001 PFF / 000 PF, expected Type-M): likelihood "
               "gathers from the video, expf, one-CTA sum and CDF scan, linear-search resampling (divergent loops)",
    .tolerance = "exact positions and resampling; weights rel 1e-5, CDF abs 1e-5 vs double",
    .run = pf_run,
};
