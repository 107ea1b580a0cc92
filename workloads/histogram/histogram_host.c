/*
 * histogram_host.c - driver for the 256-bin byte histogram (workloads/histogram/histogram.cu).
 *
 * The bytes are skewed the way image and text data are: a third of them come
 * from four "background" values, the rest from a bell-shaped spread around 128
 * (sum of four uniform bytes).  So lanes of a warp often hit the same
 * shared-memory bin, which is the contention a histogram kernel is about.  The
 * byte count is not a multiple of 4, so the tail path runs as well.
 */
#include "common/wl_util.h"

#define HG_BINS 256
#define HG_BLOCK 256

static void hg_make_bytes(struct wl_rng *rng, uint8_t *b, size_t n)
{
    static const uint8_t hot[4] = {0x00, 0x20, 0xff, 0x7f};
    for (size_t i = 0; i < n; i++) {
        uint32_t u = wl_rng_u32(rng);
        if (u % 3 == 0) {
            b[i] = hot[(u >> 8) & 3];
        } else {
            uint32_t v = wl_rng_u32(rng);
            /* mean of four bytes: 0..255, bell-shaped around 127.5 */
            b[i] = (uint8_t)(((v & 0xff) + ((v >> 8) & 0xff) + ((v >> 16) & 0xff) + (v >> 24)) >> 2);
        }
    }
}

static ws_status hg_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d_bytes, ws_devptr *d_hist, const uint8_t *bytes,
                           int n, unsigned ctas, uint32_t *hist, unsigned *launches)
{
    WL_TRY(wl_upload(ctx, d_bytes, bytes, (size_t)n));
    WL_TRY(wl_upload(ctx, d_hist, NULL, HG_BINS * sizeof(uint32_t)));
    void *args[] = {d_hist, d_bytes, &n};
    WL_TRY(wsLaunchKernel(ctx, mod, "histogram256", ws_dim(ctas, 1, 1), ws_dim(HG_BLOCK, 1, 1), 0, args));
    (*launches)++;
    return wsMemcpyDtoH(ctx, hist, *d_hist, HG_BINS * sizeof(uint32_t));
}

static ws_status hg_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: the CUDA SDK histogram sample's 64 MiB input; its 240 partial
       histograms become 240 CTAs here. */
    int n = WL_BY_SIZE(o, (1 << 18) + 3, (16 << 20) + 1, 64 << 20);
    unsigned ctas = WL_BY_SIZE(o, 16u, 120u, 240u);
    /* --grid-scale: up to one input word per thread (the tail bytes are CTA 0's, which always exists) */
    ctas = wl_grid_ctas(o, ctas, (unsigned)(((unsigned)n / 4 + HG_BLOCK - 1) / HG_BLOCK));

    uint8_t *bytes = wl_alloc((size_t)n);
    uint32_t hist[HG_BINS], ref[HG_BINS] = {0};
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    hg_make_bytes(&rng, bytes, (size_t)n);

    ws_devptr d_bytes = 0, d_hist = 0;
    ws_status st = hg_device(ctx, mod, &d_bytes, &d_hist, bytes, n, ctas, hist, &r->launches);
    if (st == WS_SUCCESS) {
        for (int i = 0; i < n; i++)
            ref[bytes[i]]++;
        wl_check_u32(r, "histogram bins", hist, ref, HG_BINS);
        if (o->verbose) {
            uint32_t top = 0;
            for (int b = 0; b < HG_BINS; b++)
                top = ref[b] > top ? ref[b] : top;
            fprintf(o->log, "histogram: %d bytes, %u CTAs, fullest bin %u (%.1f%%)\n", n, ctas, top,
                    100.0 * top / n);
        }
    }
    if (d_bytes) wsFree(ctx, d_bytes);
    if (d_hist) wsFree(ctx, d_hist);
    free(bytes);
    return st;
}

const struct workload wl_histogram = {
    .name = "histogram",
    .summary = "256-bin byte histogram: per-CTA shared-memory atomics on skewed data, merged with global atomics",
    .tolerance = "exact",
    .run = hg_run,
    .grid_scale = 1,
};
