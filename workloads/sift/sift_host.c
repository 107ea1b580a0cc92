/*
 * sift_host.c - driver for sift.cu: the scale-space front end of SIFT
 * (003's SIFT, a Type-II workload: the column passes read down columns).
 *
 * Scale space (Lowe 2004): two intervals per octave, five Gaussian levels
 * G_0..G_4 at sigma 1.6 * 2^(i/2), so four DoG layers and extrema sought in
 * the middle two.  Octave 0 starts from the input image, taken to be blurred
 * by 0.5 already (G_0 = blur by sqrt(1.6^2 - 0.5^2)); octave o > 0 starts from
 * every other pixel of octave o-1's G_2 (a 1-tap pass pair with step 2).  Each
 * further level blurs the previous one by the incremental sigma
 * sqrt(sigma_i^2 - sigma_{i-1}^2).  Filters: radius ceil(3 sigma) (5, 5, 7, 10,
 * 14), taps exp(-k^2 / 2 sigma^2) in double, normalised, rounded to float.
 * Each blur is a sift_blur row pass into a scratch image, then a column pass.
 * Extrema: |D| > 0.01 (Lowe's pre-threshold 0.5 x 0.04 / intervals for
 * pixel values in [0, 1]) and a strict maximum or minimum of the 26 neighbours.
 * Image: a w x h scene in [0, 1]: a gentle gradient, random Gaussian blobs
 * (sigma 1.5-8 px, bright and dark) and a weak uniform noise.
 * Launches per octave: 10 sift_blur (5 pass pairs) + 1 sift_extrema, CTAs of
 * 128 pixels of one row.  Sizes: 128 x 16, 2 octaves (22 launches, 272 CTAs) /
 * 512 x 256, 2 octaves (22 launches, 14,336 CTAs) / 2048 x 1174, 2 octaves
 * (22 launches, 262,976 CTAs; 003 Table 4.2's SIFT: "2 kernels", 263,164 CTAs).
 * Check: the reference replays the kernel's float operations (fmaf from -R to
 * +R with clamped edges, the same subtractions and comparisons), so every
 * Gaussian level is expected bit-identical and is checked within rel 1e-6 +
 * abs 1e-7; the extremum flags of every pixel and the extremum count exactly.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define SIFT_BX 128 /* these must match sift.cu */
#define SIFT_MAX_COEF 256
#define SIFT_LEVELS 5
#define SIFT_SIGMA0 1.6
#define SIFT_THR 0.01f
#define SIFT_MAX_OCT 4

struct sift_filt {
    int radius, offset;
};

/* Filter 0: octave 0's first blur; 1..4: the level increments; 5: the identity (subsampling). */
static void sift_make_filters(struct sift_filt *f, float *coef)
{
    int at = 0;
    for (int i = 0; i < 6; i++) {
        double sig = i == 0 ? sqrt(SIFT_SIGMA0 * SIFT_SIGMA0 - 0.25)
                     : i < 5 ? SIFT_SIGMA0 * pow(2.0, (i - 1) / 2.0) /* sqrt(s_i^2 - s_{i-1}^2) = s_{i-1} */
                             : 0.0;
        int R = i < 5 ? (int)ceil(3.0 * sig) : 0;
        double t[64], sum = 0.0;
        for (int k = -R; k <= R; k++)
            sum += t[k + R] = R ? exp(-(double)k * k / (2.0 * sig * sig)) : 1.0;
        f[i].radius = R;
        f[i].offset = at;
        for (int k = 0; k <= 2 * R; k++)
            coef[at++] = (float)(t[k] / sum);
    }
}

static void sift_make_image(struct wl_rng *rng, float *img, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img[(size_t)y * (size_t)w + (size_t)x] =
                0.3f + 0.2f * (float)x / (float)w + 0.1f * (float)y / (float)h + wl_rng_float(rng, 0.0f, 0.02f);
    int blobs = 8 + (w * h) / 128;
    for (int b = 0; b < blobs; b++) {
        double cx = wl_rng_float(rng, 0.0f, (float)w), cy = wl_rng_float(rng, 0.0f, (float)h);
        double s = wl_rng_float(rng, 1.2f, 6.0f), a = wl_rng_float(rng, -0.4f, 0.4f);
        int r = (int)ceil(3.0 * s);
        for (int y = (int)cy - r; y <= (int)cy + r; y++)
            for (int x = (int)cx - r; x <= (int)cx + r; x++) {
                if (x < 0 || x >= w || y < 0 || y >= h)
                    continue;
                double dx = x - cx, dy = y - cy;
                img[(size_t)y * (size_t)w + (size_t)x] += (float)(a * exp(-(dx * dx + dy * dy) / (2.0 * s * s)));
            }
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        img[i] = fminf(1.0f, fmaxf(0.0f, img[i]));
}

/* The reference of one sift_blur launch. */
static void sift_cpu_blur(float *dst, const float *src, int dst_w, int dst_h, int src_w, int src_h, int dir, int step,
                          int R, const float *c)
{
    for (int y = 0; y < dst_h; y++)
        for (int x = 0; x < dst_w; x++) {
            const float *line = dir == 0 ? src + (size_t)y * (size_t)src_w : src + x;
            size_t stride = dir == 0 ? 1 : (size_t)src_w;
            int len = dir == 0 ? src_w : src_h, pos = dir == 0 ? x * step : y * step;
            float sum = 0.0f;
            for (int k = -R; k <= R; k++) {
                int p = pos + k < 0 ? 0 : pos + k > len - 1 ? len - 1 : pos + k;
                sum = fmaf(c[k + R], line[(size_t)p * stride], sum);
            }
            dst[(size_t)y * (size_t)dst_w + (size_t)x] = sum;
        }
}

static int sift_cpu_extremum(float v, const float *lo, const float *mid, const float *hi)
{
    int is_max = 1, is_min = 1;
    for (int i = 0; i < 9; i++) {
        is_max = is_max && v > lo[i] && v > hi[i] && (i == 4 || v > mid[i]);
        is_min = is_min && v < lo[i] && v < hi[i] && (i == 4 || v < mid[i]);
    }
    return (is_max ? 1 : 0) | (is_min ? 2 : 0);
}

/* The reference of sift_extrema; returns the number of extrema. */
static unsigned sift_cpu_extrema(int32_t *flags, float *const g[SIFT_LEVELS], int w, int h)
{
    unsigned n = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int f = 0;
            if (x >= 1 && x < w - 1 && y >= 1 && y < h - 1) {
                float d[4][9];
                for (int j = 0; j < 4; j++)
                    for (int i = 0; i < 9; i++) {
                        size_t p = (size_t)(y - 1 + i / 3) * (size_t)w + (size_t)(x - 1 + i % 3);
                        d[j][i] = g[j + 1][p] - g[j][p];
                    }
                if (fabsf(d[1][4]) > SIFT_THR)
                    f |= sift_cpu_extremum(d[1][4], d[0], d[1], d[2]);
                if (fabsf(d[2][4]) > SIFT_THR)
                    f |= sift_cpu_extremum(d[2][4], d[1], d[2], d[3]) << 2;
                for (int b = 0; b < 4; b++)
                    n += (unsigned)((f >> b) & 1);
            }
            flags[(size_t)y * (size_t)w + (size_t)x] = f;
        }
    return n;
}

struct sift_oct {
    int w, h;
    size_t px;
    size_t gpos, fpos; /* offsets of its levels (floats) and flags (ints) in the host arrays */
};

struct sift_dev {
    ws_devptr img, tmp, gauss, flags, count;
};

static ws_status sift_blur_launch(ws_ctx *ctx, ws_module *mod, ws_devptr dst, ws_devptr src, int dst_w, int dst_h,
                                  int src_w, int src_h, int dir, int step, const struct sift_filt *f,
                                  struct wl_result *r)
{
    int R = f->radius, off = f->offset;
    void *args[] = {&dst, &src, &dst_w, &dst_h, &src_w, &src_h, &dir, &step, &R, &off};
    ws_dim3 grid = ws_dim((unsigned)((dst_w + SIFT_BX - 1) / SIFT_BX), (unsigned)dst_h, 1);
    WL_TRY(wsLaunchKernel(ctx, mod, "sift_blur", grid, ws_dim(SIFT_BX, 1, 1), 0, args));
    r->launches++;
    return WS_SUCCESS;
}

static ws_status sift_device(ws_ctx *ctx, ws_module *mod, const float *img, const struct sift_oct *oc, int n_oct,
                             const struct sift_filt *filt, const float *coef, float *gauss, int32_t *flags,
                             unsigned *count, struct wl_result *r, struct sift_dev *d)
{
    size_t gtotal = oc[n_oct - 1].gpos + SIFT_LEVELS * oc[n_oct - 1].px, ftotal = oc[n_oct - 1].fpos + oc[n_oct - 1].px;
    WL_TRY(wl_upload(ctx, &d->img, img, oc[0].px * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d->tmp, NULL, oc[0].px * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d->gauss, NULL, gtotal * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d->flags, NULL, ftotal * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d->count, NULL, sizeof(unsigned)));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "sift_coef", coef, SIFT_MAX_COEF * sizeof(float), 0));
    for (int o = 0; o < n_oct; o++) {
        int w = oc[o].w, h = oc[o].h;
        ws_devptr g[SIFT_LEVELS];
        for (int i = 0; i < SIFT_LEVELS; i++)
            g[i] = d->gauss + (oc[o].gpos + (size_t)i * oc[o].px) * sizeof(float);
        if (o == 0) {
            WL_TRY(sift_blur_launch(ctx, mod, d->tmp, d->img, w, h, w, h, 0, 1, &filt[0], r));
            WL_TRY(sift_blur_launch(ctx, mod, g[0], d->tmp, w, h, w, h, 1, 1, &filt[0], r));
        } else { /* every other pixel of the previous octave's G_2 */
            int pw = oc[o - 1].w, ph = oc[o - 1].h;
            ws_devptr src = d->gauss + (oc[o - 1].gpos + 2 * oc[o - 1].px) * sizeof(float);
            WL_TRY(sift_blur_launch(ctx, mod, d->tmp, src, w, ph, pw, ph, 0, 2, &filt[5], r));
            WL_TRY(sift_blur_launch(ctx, mod, g[0], d->tmp, w, h, w, ph, 1, 2, &filt[5], r));
        }
        for (int i = 1; i < SIFT_LEVELS; i++) {
            WL_TRY(sift_blur_launch(ctx, mod, d->tmp, g[i - 1], w, h, w, h, 0, 1, &filt[i], r));
            WL_TRY(sift_blur_launch(ctx, mod, g[i], d->tmp, w, h, w, h, 1, 1, &filt[i], r));
        }
        ws_devptr fl = d->flags + oc[o].fpos * sizeof(int32_t);
        float thr = SIFT_THR;
        void *args[] = {&fl, &d->count, &g[0], &g[1], &g[2], &g[3], &g[4], &w, &h, &thr};
        ws_dim3 grid = ws_dim((unsigned)((w + SIFT_BX - 1) / SIFT_BX), (unsigned)h, 1);
        WL_TRY(wsLaunchKernel(ctx, mod, "sift_extrema", grid, ws_dim(SIFT_BX, 1, 1), 0, args));
        r->launches++;
    }
    WL_TRY(wsMemcpyDtoH(ctx, gauss, d->gauss, gtotal * sizeof(float)));
    WL_TRY(wsMemcpyDtoH(ctx, flags, d->flags, ftotal * sizeof(int32_t)));
    WL_TRY(wsMemcpyDtoH(ctx, count, d->count, sizeof(unsigned)));
    return WS_SUCCESS;
}

static ws_status sift_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    int w = WL_BY_SIZE(o, 128, 512, 2048), h = WL_BY_SIZE(o, 16, 256, 1174);
    int n_oct = 2;
    struct sift_oct oc[SIFT_MAX_OCT];
    size_t gpos = 0, fpos = 0;
    for (int i = 0; i < n_oct; i++) {
        oc[i].w = i ? oc[i - 1].w / 2 : w;
        oc[i].h = i ? oc[i - 1].h / 2 : h;
        oc[i].px = (size_t)oc[i].w * (size_t)oc[i].h;
        oc[i].gpos = gpos;
        oc[i].fpos = fpos;
        gpos += SIFT_LEVELS * oc[i].px;
        fpos += oc[i].px;
    }
    struct sift_filt filt[6];
    float coef[SIFT_MAX_COEF];
    memset(coef, 0, sizeof coef);
    sift_make_filters(filt, coef);
    float *img = wl_alloc(oc[0].px * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    sift_make_image(&rng, img, w, h);
    float *gauss = wl_alloc(gpos * sizeof(float)), *want = wl_alloc(gpos * sizeof(float));
    float *tmp = wl_alloc(oc[0].px * sizeof(float));
    int32_t *flags = wl_alloc(fpos * sizeof(int32_t)), *want_flags = wl_alloc(fpos * sizeof(int32_t));
    unsigned count = 0;
    if (o->verbose)
        fprintf(o->log, "sift: %d x %d image, %d octaves of %d levels, blur radii %d %d %d %d %d\n", w, h, n_oct,
                SIFT_LEVELS, filt[0].radius, filt[1].radius, filt[2].radius, filt[3].radius, filt[4].radius);

    struct sift_dev d = {0, 0, 0, 0, 0};
    ws_status st = sift_device(ctx, mod, img, oc, n_oct, filt, coef, gauss, flags, &count, r, &d);
    if (st == WS_SUCCESS) {
        unsigned want_count = 0;
        for (int i = 0; i < n_oct; i++) {
            float *g[SIFT_LEVELS];
            for (int l = 0; l < SIFT_LEVELS; l++)
                g[l] = want + oc[i].gpos + (size_t)l * oc[i].px;
            if (i == 0) {
                sift_cpu_blur(tmp, img, w, h, w, h, 0, 1, filt[0].radius, coef + filt[0].offset);
                sift_cpu_blur(g[0], tmp, w, h, w, h, 1, 1, filt[0].radius, coef + filt[0].offset);
            } else {
                int pw = oc[i - 1].w, ph = oc[i - 1].h;
                const float *src = want + oc[i - 1].gpos + 2 * oc[i - 1].px;
                sift_cpu_blur(tmp, src, oc[i].w, ph, pw, ph, 0, 2, 0, coef + filt[5].offset);
                sift_cpu_blur(g[0], tmp, oc[i].w, oc[i].h, oc[i].w, ph, 1, 2, 0, coef + filt[5].offset);
            }
            for (int l = 1; l < SIFT_LEVELS; l++) {
                int W = oc[i].w, H = oc[i].h;
                sift_cpu_blur(tmp, g[l - 1], W, H, W, H, 0, 1, filt[l].radius, coef + filt[l].offset);
                sift_cpu_blur(g[l], tmp, W, H, W, H, 1, 1, filt[l].radius, coef + filt[l].offset);
            }
            want_count += sift_cpu_extrema(want_flags + oc[i].fpos, g, oc[i].w, oc[i].h);
        }
        wl_check_f32(r, "Gaussian levels", gauss, want, gpos, 1e-6, 1e-7);
        wl_check_i32(r, "extremum flags", flags, want_flags, fpos);
        wl_check_u32(r, "extremum count", &count, &want_count, 1);
        if (o->verbose)
            fprintf(o->log, "sift: %u extrema (reference %u)\n", count, want_count);
    }
    ws_devptr *dp[] = {&d.img, &d.tmp, &d.gauss, &d.flags, &d.count};
    for (int i = 0; i < 5; i++)
        if (*dp[i])
            wsFree(ctx, *dp[i]);
    free(img);
    free(gauss);
    free(want);
    free(tmp);
    free(flags);
    free(want_flags);
    return st;
}

const struct workload wl_sift = {
    .name = "sift",
    .summary = "SIFT front end (003 SIFT, Type-II: column passes read down columns): Gaussian scale space by "
               "separable row and column blur launches, 2 octaves, DoG 3x3x3 extremum detection",
    .tolerance = "Gaussian levels rel 1e-6 + abs 1e-7 (same fma order: bit-identical expected); extremum "
                 "flags and count exact",
    .run = sift_run,
};
