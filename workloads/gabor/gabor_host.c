/*
 * gabor_host.c - driver for gabor.cu: a Gabor filter bank on a grayscale
 * image (003's Gabor, one of its two computer-vision workloads).
 *
 * Filters: n_scales x n_orient complex Gabor kernels.  Scale s has radius
 * R = 2 + s ((2R+1)^2 taps: 5x5 up to 11x11), envelope sigma = (R + 1) / 2,
 * wavelength 2 sigma + 1, aspect ratio 0.5; orientation o is pi o / n_orient.
 * Taps are made on the host in double (the real part made zero-mean, both
 * parts divided by the envelope's sum) and rounded to float.
 * Image: a w x h synthetic scene in [0, 1]: a weak noise floor, four
 * sinusoidal gratings of random orientation and period (one per quadrant),
 * random bright and dark rectangles and discs (edges of every orientation).
 * Launches: for every scale, one gabor_filter per orientation (16 x 16 CTAs
 * over the image), then one gabor_max (strongest orientation per pixel).
 * Sizes: 48 x 32, 2 scales x 2 orientations (6 launches of 6 CTAs) /
 * 192 x 192, 4 x 4 (20 launches of 144) / 432 x 432, 4 x 16 (68 launches of 729 =
 * 49,572 CTAs; 003 Table 4.2's Gabor: 68 kernels, 49,017 CTAs).
 * Check: the reference replays the kernel's float operations (fmaf in the
 * same tap order, sqrtf(fmaf(re, re, im * im))), so the magnitudes are
 * expected bit-identical; they are checked within rel 1e-6 + abs 1e-7 (the
 * report's max_abs_err says how far they were); the per-pixel maxima within
 * the same tolerance and the strongest orientations exactly.
 */
#include <math.h>
#include <string.h>

#include "common/wl_util.h"

#define GABOR_TILE 16        /* these must match gabor.cu */
#define GABOR_MAX_COEF 9216
#define GABOR_PI 3.14159265358979323846

struct gabor_bank {
    int n_scales, n_orient;
    int radius[8];
    int offset[8][16]; /* re taps at offset, im taps at offset + side^2 */
    float coef[GABOR_MAX_COEF];
};

static void gabor_make_bank(struct gabor_bank *b, int n_scales, int n_orient)
{
    int at = 0;
    b->n_scales = n_scales;
    b->n_orient = n_orient;
    for (int s = 0; s < n_scales; s++) {
        int R = 2 + s, side = 2 * R + 1, taps = side * side;
        double sigma = 0.5 * (R + 1), lambda = 2.0 * sigma + 1.0, gamma = 0.5;
        b->radius[s] = R;
        for (int o = 0; o < n_orient; o++) {
            double th = GABOR_PI * o / n_orient, c = cos(th), sn = sin(th);
            double env[23 * 23], re[23 * 23], im[23 * 23], esum = 0.0, rsum = 0.0;
            for (int k = 0, dy = -R; dy <= R; dy++)
                for (int dx = -R; dx <= R; dx++, k++) {
                    double xp = dx * c + dy * sn, yp = -dx * sn + dy * c;
                    env[k] = exp(-(xp * xp + gamma * gamma * yp * yp) / (2.0 * sigma * sigma));
                    re[k] = env[k] * cos(2.0 * GABOR_PI * xp / lambda);
                    im[k] = env[k] * sin(2.0 * GABOR_PI * xp / lambda);
                    esum += env[k];
                    rsum += re[k];
                }
            if (at + 2 * taps > GABOR_MAX_COEF) { /* the sizes above use 8832 of 9216 */
                fprintf(stderr, "gabor: filter bank larger than gabor_coef\n");
                abort();
            }
            b->offset[s][o] = at;
            for (int k = 0; k < taps; k++) {
                b->coef[at + k] = (float)((re[k] - env[k] * rsum / esum) / esum); /* zero-mean real part */
                b->coef[at + taps + k] = (float)(im[k] / esum);
            }
            at += 2 * taps;
        }
    }
}

static void gabor_make_image(struct wl_rng *rng, float *img, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img[(size_t)y * (size_t)w + (size_t)x] = wl_rng_float(rng, 0.0f, 0.05f);
    for (int q = 0; q < 4; q++) { /* a grating per quadrant */
        double th = wl_rng_float(rng, 0.0f, (float)GABOR_PI), per = wl_rng_float(rng, 4.0f, 14.0f);
        double c = cos(th), sn = sin(th);
        int x0 = (q & 1) * (w / 2), y0 = (q >> 1) * (h / 2);
        for (int y = y0; y < y0 + h / 2; y++)
            for (int x = x0; x < x0 + w / 2; x++)
                img[(size_t)y * (size_t)w + (size_t)x] +=
                    (float)(0.25 + 0.2 * sin(2.0 * GABOR_PI * (x * c + y * sn) / per));
    }
    int shapes = 4 + (w * h) / 2048;
    for (int i = 0; i < shapes; i++) {
        int cx = (int)wl_rng_below(rng, (uint32_t)w), cy = (int)wl_rng_below(rng, (uint32_t)h);
        int rx = 2 + (int)wl_rng_below(rng, (uint32_t)(w / 8 + 1)), ry = 2 + (int)wl_rng_below(rng, (uint32_t)(h / 8 + 1));
        float v = wl_rng_float(rng, -0.3f, 0.45f);
        int disc = (int)wl_rng_below(rng, 2);
        for (int y = cy - ry; y <= cy + ry; y++)
            for (int x = cx - rx; x <= cx + rx; x++) {
                if (x < 0 || x >= w || y < 0 || y >= h)
                    continue;
                double ex = (double)(x - cx) / rx, ey = (double)(y - cy) / ry;
                if (disc && ex * ex + ey * ey > 1.0)
                    continue;
                float *p = &img[(size_t)y * (size_t)w + (size_t)x];
                *p = fminf(1.0f, fmaxf(0.0f, *p + v));
            }
    }
}

/* The reference of gabor_filter for one filter, in the kernel's operation order. */
static void gabor_cpu_filter(float *mag, const float *img, int w, int h, int R, const float *cre, const float *cim)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float re = 0.0f, im = 0.0f;
            int k = 0;
            for (int dy = -R; dy <= R; dy++) {
                int yy = y + dy < 0 ? 0 : y + dy > h - 1 ? h - 1 : y + dy;
                for (int dx = -R; dx <= R; dx++, k++) {
                    int xx = x + dx < 0 ? 0 : x + dx > w - 1 ? w - 1 : x + dx;
                    float v = img[(size_t)yy * (size_t)w + (size_t)xx];
                    re = fmaf(cre[k], v, re);
                    im = fmaf(cim[k], v, im);
                }
            }
            float sq = im * im;
            mag[(size_t)y * (size_t)w + (size_t)x] = sqrtf(fmaf(re, re, sq));
        }
}

static ws_status gabor_device(ws_ctx *ctx, ws_module *mod, const struct gabor_bank *b, const float *img, int w,
                              int h, float *mags, float *best, int32_t *arg, struct wl_result *r, ws_devptr *d)
{
    size_t plane = (size_t)w * (size_t)h, S = (size_t)b->n_scales, O = (size_t)b->n_orient;
    WL_TRY(wl_upload(ctx, &d[0], img, plane * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d[1], NULL, S * O * plane * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d[2], NULL, S * plane * sizeof(float)));
    WL_TRY(wl_upload(ctx, &d[3], NULL, S * plane * sizeof(int32_t)));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "gabor_coef", b->coef, sizeof b->coef, 0));
    ws_dim3 grid = ws_dim((unsigned)((w + GABOR_TILE - 1) / GABOR_TILE), (unsigned)((h + GABOR_TILE - 1) / GABOR_TILE), 1);
    ws_dim3 block = ws_dim(GABOR_TILE, GABOR_TILE, 1);
    for (int s = 0; s < b->n_scales; s++) {
        int R = b->radius[s];
        for (int o = 0; o < b->n_orient; o++) {
            ws_devptr out = d[1] + (((size_t)s * O + (size_t)o) * plane) * sizeof(float);
            int off = b->offset[s][o];
            void *args[] = {&out, &d[0], &w, &h, &R, &off};
            WL_TRY(wsLaunchKernel(ctx, mod, "gabor_filter", grid, block, 0, args));
            r->launches++;
        }
        ws_devptr bs = d[2] + (size_t)s * plane * sizeof(float), as = d[3] + (size_t)s * plane * sizeof(int32_t);
        ws_devptr ms = d[1] + (size_t)s * O * plane * sizeof(float);
        int n_orient = b->n_orient;
        void *args[] = {&bs, &as, &ms, &w, &h, &n_orient};
        WL_TRY(wsLaunchKernel(ctx, mod, "gabor_max", grid, block, 0, args));
        r->launches++;
    }
    WL_TRY(wsMemcpyDtoH(ctx, mags, d[1], S * O * plane * sizeof(float)));
    WL_TRY(wsMemcpyDtoH(ctx, best, d[2], S * plane * sizeof(float)));
    WL_TRY(wsMemcpyDtoH(ctx, arg, d[3], S * plane * sizeof(int32_t)));
    return WS_SUCCESS;
}

static ws_status gabor_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    int w = WL_BY_SIZE(o, 48, 192, 432), h = WL_BY_SIZE(o, 32, 192, 432);
    int n_scales = WL_BY_SIZE(o, 2, 4, 4), n_orient = WL_BY_SIZE(o, 2, 4, 16);
    size_t plane = (size_t)w * (size_t)h, S = (size_t)n_scales, O = (size_t)n_orient;
    struct gabor_bank *b = wl_alloc(sizeof *b);
    memset(b, 0, sizeof *b);
    gabor_make_bank(b, n_scales, n_orient);
    float *img = wl_alloc(plane * sizeof(float));
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    gabor_make_image(&rng, img, w, h);
    float *mags = wl_alloc(S * O * plane * sizeof(float)), *want = wl_alloc(S * O * plane * sizeof(float));
    float *best = wl_alloc(S * plane * sizeof(float)), *want_best = wl_alloc(S * plane * sizeof(float));
    int32_t *arg = wl_alloc(S * plane * sizeof(int32_t)), *want_arg = wl_alloc(S * plane * sizeof(int32_t));
    if (o->verbose)
        fprintf(o->log, "gabor: %d x %d image, %d scales x %d orientations, radii 2..%d\n", w, h, n_scales,
                n_orient, 1 + n_scales);

    ws_devptr d[4] = {0, 0, 0, 0};
    ws_status st = gabor_device(ctx, mod, b, img, w, h, mags, best, arg, r, d);
    if (st == WS_SUCCESS) {
        for (int s = 0; s < n_scales; s++) {
            int R = b->radius[s], taps = (2 * R + 1) * (2 * R + 1);
            for (int q = 0; q < n_orient; q++) {
                const float *c = b->coef + b->offset[s][q];
                gabor_cpu_filter(want + ((size_t)s * O + (size_t)q) * plane, img, w, h, R, c, c + taps);
            }
            for (size_t p = 0; p < plane; p++) {
                const float *m = want + (size_t)s * O * plane + p;
                float mx = m[0];
                int32_t a = 0;
                for (int q = 1; q < n_orient; q++)
                    if (m[(size_t)q * plane] > mx) {
                        mx = m[(size_t)q * plane];
                        a = q;
                    }
                want_best[(size_t)s * plane + p] = mx;
                want_arg[(size_t)s * plane + p] = a;
            }
        }
        wl_check_f32(r, "filter magnitudes", mags, want, S * O * plane, 1e-6, 1e-7);
        wl_check_f32(r, "strongest magnitude", best, want_best, S * plane, 1e-6, 1e-7);
        wl_check_i32(r, "strongest orientation", arg, want_arg, S * plane);
    }
    for (int i = 0; i < 4; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(b);
    free(img);
    free(mags);
    free(want);
    free(best);
    free(want_best);
    free(arg);
    free(want_arg);
    return st;
}

const struct workload wl_gabor = {
    .name = "gabor",
    .summary = "Gabor filter bank (003 Gabor; row-major inter-CTA locality, not typed in 003 Table 5.1): one "
               "launch per scale and orientation, 16x16 tiles reading their halos from global memory, then the "
               "strongest orientation per pixel",
    .tolerance = "rel 1e-6 + abs 1e-7 (same fma order: bit-identical expected); orientations exact",
    .run = gabor_run,
};
