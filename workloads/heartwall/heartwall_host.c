/*
 * heartwall_host.c - driver for heart-wall tracking (workloads/heartwall/heartwall.cu, after Rodinia
 * heartwall; 000 Tables 4.2/5.3).
 *
 * Input: a synthetic ultrasound-like frame sequence: a speckle texture (value
 * noise on an 8-pixel lattice, bilinearly interpolated) with two bright rings
 * (the inner and outer heart wall), scaled about the image centre by
 * 1 + 0.08 sin(2 pi f / 20) in frame f (the wall contracts and relaxes), plus
 * fresh pixel noise in every frame.  Tracked points sit on the two rings (Rodinia
 * tracks 20 inner and 31 outer points); each moves at most a few pixels per
 * frame, inside the +-7 pixel search.  One launch per frame after the first,
 * one CTA per point.
 * Check: a CPU replay of the kernel in float (the same accumulation order and
 * fmaf, IEEE sqrt and division, the same tie-break and clamp), so the tracked
 * positions of every point in every frame are compared exactly and the best
 * scores with tolerance 0.  With -v: the mean distance to the true motion.
 */
#include <string.h>

#include "common/wl_util.h"

#define HW_TS 16
#define HW_R 7
#define HW_SIDE (2 * HW_R + 1)
#define HW_BLOCK 256

static float hw_noise(const float *lat, int lw, int lh, double x, double y)
{
    int ix = (int)floor(x / 8.0), iy = (int)floor(y / 8.0);
    if (ix < 0 || iy < 0 || ix > lw - 2 || iy > lh - 2)
        return 50.0f;
    double fx = x / 8.0 - ix, fy = y / 8.0 - iy;
    const float *a = lat + (size_t)iy * (size_t)lw + (size_t)ix;
    return (float)((a[0] * (1 - fx) + a[1] * fx) * (1 - fy) + (a[lw] * (1 - fx) + a[lw + 1] * fx) * fy);
}

static double hw_scale(int f)
{
    return 1.0 + 0.08 * sin(2.0 * M_PI * f / 20.0);   /* at most 0.025 a frame: 5.3 px on the paper outer ring */
}

static void hw_frames(float *fr, int w, int h, int nf, struct wl_rng *rng)
{
    int lw = w * 3 / 20 + 6, lh = h * 3 / 20 + 6;   /* 1.2 x the frame: the scaled texture stays on it */
    float *lat = wl_alloc((size_t)lw * (size_t)lh * sizeof(float));
    for (size_t i = 0; i < (size_t)lw * (size_t)lh; i++)
        lat[i] = wl_rng_float(rng, 0.0f, 100.0f);
    double cx = w / 2.0, cy = h / 2.0, m = (w < h ? w : h);
    for (int f = 0; f < nf; f++) {
        double s = hw_scale(f) / hw_scale(0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double u = cx + (x - cx) / s, v = cy + (y - cy) / s;   /* material coordinates */
                double r = sqrt((u - cx) * (u - cx) + (v - cy) * (v - cy)) / m;
                double ring = 120.0 * (exp(-(r - 0.22) * (r - 0.22) / 0.0008) +
                                       exp(-(r - 0.36) * (r - 0.36) / 0.0008));
                fr[((size_t)f * (size_t)h + (size_t)y) * (size_t)w + (size_t)x] =
                    (float)(ring + hw_noise(lat, lw, lh, u + 0.1 * w + 8.0, v + 0.1 * h + 8.0) +
                            wl_rng_float(rng, -6.0f, 6.0f));
            }
    }
    free(lat);
}

/* CPU replay of one CTA */
static void hw_replay(const float *f0, const float *fr, int w, int h, const int *p0, const int *prev, int *next,
                      float *best)
{
    float tpl[HW_TS * HW_TS], st = 0.0f, stt = 0.0f, bvv = -2.0f;
    int bo = 0;
    for (int i = 0; i < HW_TS * HW_TS; i++) {
        tpl[i] = f0[(size_t)(p0[1] - HW_TS / 2 + i / HW_TS) * (size_t)w + (size_t)(p0[0] - HW_TS / 2 + i % HW_TS)];
        st += tpl[i];
        stt = fmaf(tpl[i], tpl[i], stt);
    }
    for (int o = 0; o < HW_SIDE * HW_SIDE; o++) {
        int x0 = prev[0] - HW_TS / 2 - HW_R + o % HW_SIDE, y0 = prev[1] - HW_TS / 2 - HW_R + o / HW_SIDE;
        float si = 0.0f, sii = 0.0f, sit = 0.0f, score = -2.0f;
        for (int y = 0; y < HW_TS; y++)
            for (int x = 0; x < HW_TS; x++) {
                float iv = fr[(size_t)(y0 + y) * (size_t)w + (size_t)(x0 + x)], tv = tpl[y * HW_TS + x];
                si += iv;
                sii = fmaf(iv, iv, sii);
                sit = fmaf(iv, tv, sit);
            }
        float n = (float)(HW_TS * HW_TS), mi = si / n, mt = st / n;
        float num = fmaf(-mi, st, sit), vi = fmaf(-mi, si, sii), vt = fmaf(-mt, st, stt);
        float den = sqrtf(vi * vt);
        if (den > 0.0f)
            score = num / den;
        if (score > bvv) {
            bvv = score;
            bo = o;
        }
    }
    int lo = HW_TS / 2 + HW_R, nx = prev[0] + bo % HW_SIDE - HW_R, ny = prev[1] + bo / HW_SIDE - HW_R;
    next[0] = nx < lo ? lo : nx > w - HW_TS / 2 - HW_R ? w - HW_TS / 2 - HW_R : nx;
    next[1] = ny < lo ? lo : ny > h - HW_TS / 2 - HW_R ? h - HW_TS / 2 - HW_R : ny;
    *best = bvv;
}

static ws_status hw_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d, const float *fr, int w, int h, int nf, int np,
                           int *pos, float *best, unsigned *launches)
{
    size_t fbytes = (size_t)w * (size_t)h * sizeof(float), pbytes = (size_t)np * 2 * sizeof(int);
    WL_TRY(wl_upload(ctx, &d[0], fr, fbytes * (size_t)nf));
    WL_TRY(wl_upload(ctx, &d[1], pos, pbytes * (size_t)nf));   /* frame 0's positions set, the rest filled */
    WL_TRY(wl_upload(ctx, &d[2], NULL, (size_t)np * (size_t)nf * sizeof(float)));
    for (int f = 1; f < nf; f++) {
        ws_devptr cur = d[0] + (ws_devptr)f * fbytes, prev = d[1] + (ws_devptr)(f - 1) * pbytes;
        ws_devptr next = prev + pbytes, b = d[2] + (ws_devptr)f * (ws_devptr)np * sizeof(float);
        void *args[] = {&d[0], &cur, &w, &h, &d[1], &prev, &next, &b};
        WL_TRY(wsLaunchKernel(ctx, mod, "hw_track", ws_dim((unsigned)np, 1, 1), ws_dim(HW_BLOCK, 1, 1), 0, args));
        (*launches)++;
    }
    WL_TRY(wsMemcpyDtoH(ctx, pos, d[1], pbytes * (size_t)nf));
    return wsMemcpyDtoH(ctx, best, d[2], (size_t)np * (size_t)nf * sizeof(float));
}

static ws_status hw_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: Rodinia's 104 frames of 609 x 590 pixels with 20 + 31 points */
    int w = WL_BY_SIZE(o, 160, 320, 609), h = WL_BY_SIZE(o, 160, 320, 590);
    int nf = WL_BY_SIZE(o, 3, 12, 104), n_in = WL_BY_SIZE(o, 3, 20, 20), n_out = WL_BY_SIZE(o, 5, 31, 31);
    int np = n_in + n_out;
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    float *fr = wl_alloc((size_t)w * (size_t)h * (size_t)nf * sizeof(float));
    hw_frames(fr, w, h, nf, &rng);
    size_t npos = (size_t)np * 2 * (size_t)nf;
    int *pos = wl_alloc(npos * sizeof(int)), *ref = wl_alloc(npos * sizeof(int));
    size_t nb = (size_t)np * (size_t)nf * sizeof(float);
    float *best = wl_alloc(nb), *rbest = wl_alloc(nb);
    memset(pos, 0, npos * sizeof(int));
    memset(best, 0, nb);
    memset(rbest, 0, nb);
    double m = (w < h ? w : h);
    for (int p = 0; p < np; p++) {
        double rad = (p < n_in ? 0.22 : 0.36) * m;
        double a = 2.0 * M_PI * (p < n_in ? p : p - n_in) / (p < n_in ? n_in : n_out);
        pos[2 * p] = (int)lround(w / 2.0 + rad * cos(a));
        pos[2 * p + 1] = (int)lround(h / 2.0 + rad * sin(a));
    }
    memcpy(ref, pos, npos * sizeof(int));
    ws_devptr d[3] = {0, 0, 0};
    ws_status st = hw_device(ctx, mod, d, fr, w, h, nf, np, pos, best, &r->launches);
    if (st == WS_SUCCESS) {
        size_t fsz = (size_t)w * (size_t)h;
        double err = 0;
        for (int f = 1; f < nf; f++)
            for (int p = 0; p < np; p++) {
                int *prev = ref + ((size_t)(f - 1) * (size_t)np + (size_t)p) * 2, *next = prev + 2 * np;
                hw_replay(fr, fr + (size_t)f * fsz, w, h, ref + 2 * p, prev, next,
                          &rbest[(size_t)f * (size_t)np + (size_t)p]);
                double s = hw_scale(f) / hw_scale(0);   /* where the point truly is */
                err += hypot(next[0] - (w / 2.0 + (ref[2 * p] - w / 2.0) * s),
                             next[1] - (h / 2.0 + (ref[2 * p + 1] - h / 2.0) * s));
            }
        wl_check_i32(r, "tracked positions", pos, ref, npos);
        wl_check_f32(r, "best scores", best, rbest, (size_t)np * (size_t)nf, 0.0, 0.0);
        if (o->verbose)
            fprintf(o->log, "heartwall: %d frames of %d x %d, %d points, mean distance to the true motion %.2f px\n",
                    nf, w, h, np, err / ((nf - 1) * np));
    }
    for (int i = 0; i < 3; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(fr);
    free(pos);
    free(ref);
    free(best);
    free(rbest);
    return st;
}

const struct workload wl_heartwall = {
    .name = "heartwall",
    .summary = "heart-wall point tracking (after Rodinia heartwall; 000 Tables 4.2/5.3): one CTA per point and "
               "frame, normalised cross-correlation of a 16x16 template over a +-7 px shared-memory window, argmax",
    .tolerance = "exact (positions; scores replayed in the same float order)",
    .run = hw_run,
};
