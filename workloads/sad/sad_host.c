/*
 * sad_host.c - driver for the H.264 motion-estimation SADs (workloads/sad/sad.cu, Parboil SAD).
 *
 * Input: two frames of a synthetic video: a smooth "scene" (value noise on an
 * 8-pixel lattice, so blocks have structure and the SAD surface has a
 * minimum) plus per-frame grain; the reference frame is the scene moved by a
 * global motion vector.  The reference frame is read through a 2D texture
 * with clamp addressing, as in Parboil.
 *
 * Check: the CPU computes every SAD of every partition shape directly from
 * the pixels (clamping coordinates into the frame), not by combining smaller
 * SADs as the kernels do.  Exact.
 */
#include <string.h>

#include "common/wl_util.h"

#define SAD_BLOCK 128

/* the 41 partitions of a macroblock in the kernels' output order:
   x, y, w, h in pixels; [0,16) 4x4, [16,24) 8x4, [24,32) 4x8, [32,36) 8x8,
   [36,38) 16x8, [38,40) 8x16, [40] 16x16 */
struct sad_part { int x, y, w, h; };

static int sad_parts(struct sad_part *p)
{
    int n = 0;
    for (int by = 0; by < 4; by++)
        for (int bx = 0; bx < 4; bx++)
            p[n++] = (struct sad_part){bx * 4, by * 4, 4, 4};
    for (int by = 0; by < 4; by++)
        for (int h = 0; h < 2; h++)
            p[n++] = (struct sad_part){h * 8, by * 4, 8, 4};
    for (int v = 0; v < 2; v++)
        for (int bx = 0; bx < 4; bx++)
            p[n++] = (struct sad_part){bx * 4, v * 8, 4, 8};
    for (int qy = 0; qy < 2; qy++)
        for (int qx = 0; qx < 2; qx++)
            p[n++] = (struct sad_part){qx * 8, qy * 8, 8, 8};
    p[n++] = (struct sad_part){0, 0, 16, 8};
    p[n++] = (struct sad_part){0, 8, 16, 8};
    p[n++] = (struct sad_part){0, 0, 8, 16};
    p[n++] = (struct sad_part){8, 0, 8, 16};
    p[n++] = (struct sad_part){0, 0, 16, 16};
    return n;
}

static uint32_t sad_hash(uint64_t seed, int64_t x, int64_t y)
{
    struct wl_rng r;
    wl_rng_seed(&r, seed ^ ((uint64_t)x * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)y * 0xC2B2AE3D27D4EB4Full));
    return wl_rng_u32(&r);
}

/* scene brightness at (x, y): bilinear value noise on an 8-pixel lattice */
static int sad_scene(uint64_t seed, int x, int y)
{
    int cx = x >> 3, cy = y >> 3, fx = x & 7, fy = y & 7;   /* arithmetic shift: floor for negatives */
    int v00 = (int)(sad_hash(seed, cx, cy) & 255u), v10 = (int)(sad_hash(seed, cx + 1, cy) & 255u);
    int v01 = (int)(sad_hash(seed, cx, cy + 1) & 255u), v11 = (int)(sad_hash(seed, cx + 1, cy + 1) & 255u);
    int top = v00 * (8 - fx) + v10 * fx, bot = v01 * (8 - fx) + v11 * fx;
    return (top * (8 - fy) + bot * fy) >> 6;
}

static void sad_frames(uint64_t seed, int w, int h, uint8_t *cur, uint8_t *ref)
{
    int mvx = 3, mvy = -2;   /* global motion between the frames */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int grain_c = (int)(sad_hash(seed + 1, x, y) % 9u) - 4;
            int grain_r = (int)(sad_hash(seed + 2, x, y) % 9u) - 4;
            int c = sad_scene(seed, x, y) + grain_c, r = sad_scene(seed, x + mvx, y + mvy) + grain_r;
            cur[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
            ref[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
        }
}

/* SADs of every partition, macroblock and offset, in the kernels' layouts:
   out4[(mb*16+k)*npos+pos], out8[(mb*20+k-16)*npos+pos], out16[(mb*5+k-36)*npos+pos] */
static void sad_reference(const uint8_t *cur, const uint8_t *ref, int w, int h, int range, uint32_t *out4,
                          uint32_t *out8, uint32_t *out16)
{
    struct sad_part parts[41];
    int np = sad_parts(parts), side = 2 * range + 1, npos = side * side, mbw = w / 16, mbh = h / 16;
    for (int mb = 0; mb < mbw * mbh; mb++) {
        int mx = (mb % mbw) * 16, my = (mb / mbw) * 16;
        for (int pos = 0; pos < npos; pos++) {
            int dx = pos % side - range, dy = pos / side - range;
            for (int k = 0; k < np; k++) {
                uint32_t s = 0;
                for (int y = parts[k].y; y < parts[k].y + parts[k].h; y++)
                    for (int x = parts[k].x; x < parts[k].x + parts[k].w; x++) {
                        int rx = mx + x + dx, ry = my + y + dy;
                        rx = rx < 0 ? 0 : rx >= w ? w - 1 : rx;
                        ry = ry < 0 ? 0 : ry >= h ? h - 1 : ry;
                        int d = (int)cur[(size_t)(my + y) * (size_t)w + (size_t)(mx + x)] -
                                (int)ref[(size_t)ry * (size_t)w + (size_t)rx];
                        s += (uint32_t)(d < 0 ? -d : d);
                    }
                if (k < 16)
                    out4[(size_t)(mb * 16 + k) * (size_t)npos + (size_t)pos] = s;
                else if (k < 36)
                    out8[(size_t)(mb * 20 + k - 16) * (size_t)npos + (size_t)pos] = s;
                else
                    out16[(size_t)(mb * 5 + k - 36) * (size_t)npos + (size_t)pos] = s;
            }
        }
    }
}

struct sad_dev {
    ws_devptr cur, ref, sad4, sad8, sad16;
    ws_texobj tex;
};

static ws_status sad_device(ws_ctx *ctx, ws_module *mod, struct sad_dev *d, const uint8_t *cur, const uint8_t *ref,
                            int w, int h, int range, uint16_t *sad4, uint16_t *sad8, uint16_t *sad16,
                            unsigned *launches)
{
    int side = 2 * range + 1, npos = side * side, n_mb = (w / 16) * (h / 16);
    size_t frame = (size_t)w * (size_t)h, n4 = (size_t)n_mb * 16 * (size_t)npos;
    size_t n8 = (size_t)n_mb * 20 * (size_t)npos, n16 = (size_t)n_mb * 5 * (size_t)npos;
    WL_TRY(wl_upload(ctx, &d->cur, cur, frame));
    WL_TRY(wl_upload(ctx, &d->ref, ref, frame));
    WL_TRY(wl_upload(ctx, &d->sad4, NULL, n4 * sizeof(uint16_t)));
    WL_TRY(wl_upload(ctx, &d->sad8, NULL, n8 * sizeof(uint16_t)));
    WL_TRY(wl_upload(ctx, &d->sad16, NULL, n16 * sizeof(uint16_t)));
    ws_tex_desc td;
    memset(&td, 0, sizeof td);
    td.base = d->ref;
    td.format = WS_TEX_UNSIGNED;
    td.channels = 1;
    td.bits_per_channel = 8;
    td.width = (size_t)w;
    td.height = (size_t)h;
    td.pitch_bytes = (size_t)w;
    WL_TRY(wsCreateTextureObject(ctx, &d->tex, &td));

    void *a4[] = {&d->cur, &w, &d->tex, &range, &d->sad4};
    unsigned slices = (unsigned)((npos + SAD_BLOCK - 1) / SAD_BLOCK);   /* offsets per CTA: SAD_BLOCK */
    WL_TRY(wsLaunchKernel(ctx, mod, "sad_4x4", ws_dim((unsigned)(w / 16), (unsigned)(h / 16), slices),
                          ws_dim(SAD_BLOCK, 1, 1), 0, a4));
    (*launches)++;
    ws_dim3 grid = ws_dim((unsigned)((npos + SAD_BLOCK - 1) / SAD_BLOCK), (unsigned)n_mb, 1);
    void *a8[] = {&d->sad4, &npos, &d->sad8};
    WL_TRY(wsLaunchKernel(ctx, mod, "sad_8x8", grid, ws_dim(SAD_BLOCK, 1, 1), 0, a8));
    (*launches)++;
    void *a16[] = {&d->sad8, &npos, &d->sad16};
    WL_TRY(wsLaunchKernel(ctx, mod, "sad_16x16", grid, ws_dim(SAD_BLOCK, 1, 1), 0, a16));
    (*launches)++;
    WL_TRY(wsMemcpyDtoH(ctx, sad4, d->sad4, n4 * sizeof(uint16_t)));
    WL_TRY(wsMemcpyDtoH(ctx, sad8, d->sad8, n8 * sizeof(uint16_t)));
    return wsMemcpyDtoH(ctx, sad16, d->sad16, n16 * sizeof(uint16_t));
}

static void sad_widen(const uint16_t *in, uint32_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i];
}

static ws_status sad_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* small: a QCIF frame with Parboil's +-16 search; paper: a CIF frame, +-16 */
    int w = WL_BY_SIZE(o, 48, 176, 352), h = WL_BY_SIZE(o, 32, 144, 288);
    int range = WL_BY_SIZE(o, 6, 16, 16);
    int side = 2 * range + 1, npos = side * side, n_mb = (w / 16) * (h / 16);
    size_t frame = (size_t)w * (size_t)h, n4 = (size_t)n_mb * 16 * (size_t)npos;
    size_t n8 = (size_t)n_mb * 20 * (size_t)npos, n16 = (size_t)n_mb * 5 * (size_t)npos;
    uint8_t *cur = wl_alloc(frame), *ref = wl_alloc(frame);
    uint16_t *g4 = wl_alloc(n4 * sizeof(uint16_t)), *g8 = wl_alloc(n8 * sizeof(uint16_t));
    uint16_t *g16 = wl_alloc(n16 * sizeof(uint16_t));
    uint32_t *got = wl_alloc(n8 * sizeof(uint32_t));   /* n8 is the largest */
    uint32_t *w4 = wl_alloc(n4 * sizeof(uint32_t)), *w8 = wl_alloc(n8 * sizeof(uint32_t));
    uint32_t *w16 = wl_alloc(n16 * sizeof(uint32_t));
    sad_frames(o->seed, w, h, cur, ref);

    struct sad_dev d;
    memset(&d, 0, sizeof d);
    ws_status st = sad_device(ctx, mod, &d, cur, ref, w, h, range, g4, g8, g16, &r->launches);
    if (st == WS_SUCCESS) {
        sad_reference(cur, ref, w, h, range, w4, w8, w16);
        sad_widen(g4, got, n4);
        wl_check_u32(r, "4x4 SADs", got, w4, n4);
        sad_widen(g8, got, n8);
        wl_check_u32(r, "8x4/4x8/8x8 SADs", got, w8, n8);
        sad_widen(g16, got, n16);
        wl_check_u32(r, "16x8/8x16/16x16 SADs", got, w16, n16);
        if (o->verbose) {
            /* the best 16x16 offset of the first macroblock: the global motion if the scene is textured */
            uint32_t best = UINT32_MAX;
            int at = 0;
            for (int pos = 0; pos < npos; pos++)
                if (w16[4 * (size_t)npos + (size_t)pos] < best) {
                    best = w16[4 * (size_t)npos + (size_t)pos];
                    at = pos;
                }
            fprintf(o->log, "sad: %dx%d frame, %d macroblocks, %d offsets; macroblock 0 best at (%d,%d) SAD %u\n",
                    w, h, n_mb, npos, at % side - range, at / side - range, best);
        }
    }
    if (d.tex) wsDestroyTextureObject(ctx, d.tex);
    ws_devptr *bufs[] = {&d.cur, &d.ref, &d.sad4, &d.sad8, &d.sad16};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    free(cur);
    free(ref);
    free(g4);
    free(g8);
    free(g16);
    free(got);
    free(w4);
    free(w8);
    free(w16);
    return st;
}

const struct workload wl_sad = {
    .name = "sad",
    .summary = "H.264 motion-estimation SADs (Parboil SAD; 001 SAD, expected Type-M): 2D texture reads over a "
               "search window, sad.u32, 7 partition shapes in 3 kernels",
    .tolerance = "exact",
    .run = sad_run,
};
