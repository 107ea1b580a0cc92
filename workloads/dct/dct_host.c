/*
 * dct_host.c - driver for the 8x8 DCT (workloads/dct/dct.cu, CUDA SDK dct8x8; 000 Tables 4.2/5.3).
 *
 * Input: a synthetic 8-bit grey image (smooth gradients, a few discs and
 * texture noise, values 0..255 stored as floats), W x H multiples of 32.  The
 * GPU computes the forward DCT of every 8x8 block, then quantises with the JPEG
 * luminance table and reconstructs the image with the inverse DCT.  Check: a
 * CPU replay of both kernels in float: each output is the same fmaf chain over
 * k = 0..7 in the same pass order, and the quantiser uses the same IEEE
 * division and round-to-nearest-even, so the results are expected to be bit
 * identical; the stated tolerance (abs 1e-3, rel 1e-6) only admits rounding
 * noise, far below one grey level or a quantisation step.  The reference is
 * also checked to reconstruct the image to within a few grey levels (a DCT
 * sanity check independent of the kernels' order).
 */
#include <string.h>

#include "common/wl_util.h"

#define DCT_TILE 32

static const float dct_jpeg_q[64] = {16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
                                     14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
                                     18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
                                     49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};

/* one separable pass over an 8x8 block: rows (along x) or columns (along y) */
static void dct_ref_pass(float *dst, int dw, const float *src, int sw, const float *c, int inverse, int rows)
{
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            int o = rows ? x : y;
            float acc = 0.0f;
            for (int k = 0; k < 8; k++) {
                float cc = inverse ? c[k * 8 + o] : c[o * 8 + k];
                float v = rows ? src[y * sw + k] : src[k * sw + x];
                acc = fmaf(cc, v, acc);
            }
            dst[y * dw + x] = acc;
        }
}

static void dct_reference(const float *img, float *coef, float *out, size_t w, size_t h, const float *c)
{
    float t[64], u[64];
    int iw = (int)w;
    for (size_t by = 0; by < h; by += 8)
        for (size_t bx = 0; bx < w; bx += 8) {
            size_t at = by * w + bx;
            dct_ref_pass(t, 8, img + at, iw, c, 0, 1);
            dct_ref_pass(coef + at, iw, t, 8, c, 0, 0);
            for (size_t y = 0; y < 8; y++)
                for (size_t x = 0; x < 8; x++) {
                    float q = dct_jpeg_q[y * 8 + x];
                    u[y * 8 + x] = q * rintf(coef[at + y * w + x] / q);
                }
            dct_ref_pass(t, 8, u, 8, c, 1, 0);
            dct_ref_pass(out + at, iw, t, 8, c, 1, 1);
        }
}

static ws_status dct_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d, const float *img, float *coef, float *out,
                            int w, int h, const float *c, unsigned *launches)
{
    size_t bytes = (size_t)w * (size_t)h * sizeof(float);
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "dct_c", c, 64 * sizeof(float), 0));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "dct_q", dct_jpeg_q, sizeof dct_jpeg_q, 0));
    WL_TRY(wl_upload(ctx, &d[0], img, bytes));
    WL_TRY(wl_upload(ctx, &d[1], NULL, bytes));
    WL_TRY(wl_upload(ctx, &d[2], NULL, bytes));
    ws_dim3 grid = ws_dim((unsigned)(w / DCT_TILE), (unsigned)(h / DCT_TILE), 1), block = ws_dim(32, 8, 1);
    void *fa[] = {&d[0], &d[1], &w};
    WL_TRY(wsLaunchKernel(ctx, mod, "dct_forward", grid, block, 0, fa));
    void *ia[] = {&d[1], &d[2], &w};
    WL_TRY(wsLaunchKernel(ctx, mod, "dct_inverse", grid, block, 0, ia));
    *launches += 2;
    WL_TRY(wsMemcpyDtoH(ctx, coef, d[1], bytes));
    return wsMemcpyDtoH(ctx, out, d[2], bytes);
}

static ws_status dct_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: the SDK sample's 512 x 512 image, four times over (a 1024 x 1024 frame) */
    int w = WL_BY_SIZE(o, 128, 512, 1024), h = WL_BY_SIZE(o, 64, 512, 1024);
    size_t n = (size_t)w * (size_t)h, bytes = n * sizeof(float);
    float *img = wl_alloc(bytes), *coef = wl_alloc(bytes), *out = wl_alloc(bytes);
    float *rcoef = wl_alloc(bytes), *rout = wl_alloc(bytes);
    float c[64];
    for (int u = 0; u < 8; u++)
        for (int k = 0; k < 8; k++)
            c[u * 8 + k] = (float)((u ? sqrt(2.0 / 8.0) : sqrt(1.0 / 8.0)) * cos((2 * k + 1) * u * M_PI / 16.0));

    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    double cx[6], cy[6], rad[6], lev[6];
    for (int i = 0; i < 6; i++) {
        cx[i] = wl_rng_below(&rng, (uint32_t)w);
        cy[i] = wl_rng_below(&rng, (uint32_t)h);
        rad[i] = 4 + wl_rng_below(&rng, (uint32_t)(w / 4));
        lev[i] = wl_rng_float(&rng, -80.0f, 80.0f);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = 40.0 + 120.0 * x / w + 50.0 * sin(y * 0.05) + wl_rng_float(&rng, -12.0f, 12.0f);
            for (int i = 0; i < 6; i++)
                if ((x - cx[i]) * (x - cx[i]) + (y - cy[i]) * (y - cy[i]) < rad[i] * rad[i])
                    v += lev[i];
            img[(size_t)y * (size_t)w + (size_t)x] = (float)(v < 0 ? 0 : v > 255 ? 255 : (int)v);
        }

    ws_devptr d[3] = {0, 0, 0};
    ws_status st = dct_device(ctx, mod, d, img, coef, out, w, h, c, &r->launches);
    if (st == WS_SUCCESS) {
        dct_reference(img, rcoef, rout, (size_t)w, (size_t)h, c);
        wl_check_f32(r, "DCT coefficients", coef, rcoef, n, 1e-6, 1e-3);
        wl_check_f32(r, "reconstructed image", out, rout, n, 1e-6, 1e-3);
        double worst = 0;
        for (size_t i = 0; i < n; i++)
            worst = fmax(worst, fabs((double)rout[i] - img[i]));
        if (worst > 64.0 && r->verified) {   /* JPEG quality-50 quantisation stays well inside this */
            r->verified = 0;
            snprintf(r->detail, sizeof r->detail, "reference reconstruction off by %.1f grey levels", worst);
        }
        if (o->verbose)
            fprintf(o->log, "dct: %d x %d image, reconstruction error up to %.1f grey levels\n", w, h, worst);
    }
    for (int i = 0; i < 3; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(img);
    free(coef);
    free(out);
    free(rcoef);
    free(rout);
    return st;
}

const struct workload wl_dct = {
    .name = "dct",
    .summary = "8x8 block DCT, JPEG quantisation and inverse DCT of an image (CUDA SDK dct8x8; 000 Tables 4.2/5.3): "
               "separable passes over 32x32 shared-memory tiles, coefficients in constant memory",
    .tolerance = "rel 1e-6 abs 1e-3 vs a float replay of the kernels (bit-identical in practice)",
    .run = dct_run,
};
