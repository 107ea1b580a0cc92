/*
 * reduce_host.c - driver for the warp-shuffle reductions in reduce.cu.
 *
 * Two launches over the same kind of input: reduce_u32 (shfl.down tree,
 * integer atomicAdd) and reduce_f32 (shfl.bfly butterfly, float atomicAdd).
 * Each CTA also stores its partial sum, which makes the checks exact:
 * - u32: partials and total are sums mod 2^32, independent of order.
 * - f32: the reference replays the kernel's exact addition order per CTA
 *   (per-thread grid-stride sums, xor butterfly, warp sums, butterfly again),
 *   so each partial must match bit for bit under IEEE round-to-nearest.  The
 *   float total depends on the order the CTAs' atomics land, which the
 *   program does not fix, so it is checked against the double sum of the
 *   partials within the worst-case float summation bound
 *   (ctas * 2^-24 * sum|partial|).
 */
#include <string.h>

#include "common/wl_util.h"

#define RD_BLOCK 256u
#define RD_WARPS (RD_BLOCK / 32u)

/* CPU replay of reduce_f32's order for one CTA. */
static float rd_cta_f32(const float *in, unsigned n, unsigned cta, unsigned grid)
{
    float lane_val[RD_BLOCK];
    unsigned stride = grid * RD_BLOCK;
    for (unsigned t = 0; t < RD_BLOCK; t++) {
        float s = 0.0f;
        for (unsigned i = cta * RD_BLOCK + t; i < n; i += stride)
            s += in[i];
        lane_val[t] = s;
    }
    float warp_sum[32];
    for (unsigned w = 0; w < RD_WARPS; w++) {
        float *v = lane_val + w * 32u;
        for (unsigned m = 16; m > 0; m >>= 1) {
            float nv[32];
            for (unsigned l = 0; l < 32; l++)
                nv[l] = v[l] + v[l ^ m];
            memcpy(v, nv, sizeof nv);
        }
        warp_sum[w] = v[0];
    }
    float v[32];
    for (unsigned l = 0; l < 32; l++)
        v[l] = l < RD_WARPS ? warp_sum[l] : 0.0f;
    for (unsigned m = 16; m > 0; m >>= 1) {
        float nv[32];
        for (unsigned l = 0; l < 32; l++)
            nv[l] = v[l] + v[l ^ m];
        memcpy(v, nv, sizeof nv);
    }
    return v[0];
}

static ws_status rd_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* tiny: n not a multiple of the grid stride, so tail threads get one element fewer */
    unsigned n = WL_BY_SIZE(o, 100000u, 1u << 23, 1u << 24);
    unsigned grid = WL_BY_SIZE(o, 40u, 120u, 240u);
    /* --grid-scale: up to one element per thread; the partials and their reference follow the grid */
    grid = wl_grid_ctas(o, grid, (n + RD_BLOCK - 1) / RD_BLOCK);
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);

    uint32_t *in_u = wl_alloc((size_t)n * sizeof *in_u);
    float *in_f = wl_alloc((size_t)n * sizeof *in_f);
    for (unsigned i = 0; i < n; i++)
        in_u[i] = wl_rng_u32(&rng);   /* full range: the sum wraps many times */
    for (unsigned i = 0; i < n; i++)
        in_f[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    uint32_t *part_u = wl_alloc(grid * sizeof *part_u);
    float *part_f = wl_alloc(grid * sizeof *part_f);
    uint32_t *want_u = wl_alloc(grid * sizeof *want_u);
    float *want_f = wl_alloc(grid * sizeof *want_f);
    uint32_t total_u = 0;
    float total_f = 0.0f;

    ws_status st = WS_SUCCESS;
    ws_devptr d_in_u = 0, d_in_f = 0, d_part_u = 0, d_part_f = 0, d_tot_u = 0, d_tot_f = 0;
#define RD_TRY(call) do { st = (call); if (st != WS_SUCCESS) goto out; } while (0)
    RD_TRY(wl_upload(ctx, &d_in_u, in_u, (size_t)n * sizeof *in_u));
    RD_TRY(wl_upload(ctx, &d_in_f, in_f, (size_t)n * sizeof *in_f));
    RD_TRY(wl_upload(ctx, &d_part_u, NULL, grid * sizeof *part_u));
    RD_TRY(wl_upload(ctx, &d_part_f, NULL, grid * sizeof *part_f));
    RD_TRY(wl_upload(ctx, &d_tot_u, NULL, sizeof total_u));
    RD_TRY(wl_upload(ctx, &d_tot_f, NULL, sizeof total_f));

    void *args_u[] = {&d_in_u, &n, &d_part_u, &d_tot_u};
    RD_TRY(wsLaunchKernel(ctx, mod, "reduce_u32", ws_dim(grid, 1, 1), ws_dim(RD_BLOCK, 1, 1), 0, args_u));
    r->launches++;
    void *args_f[] = {&d_in_f, &n, &d_part_f, &d_tot_f};
    RD_TRY(wsLaunchKernel(ctx, mod, "reduce_f32", ws_dim(grid, 1, 1), ws_dim(RD_BLOCK, 1, 1), 0, args_f));
    r->launches++;

    RD_TRY(wsMemcpyDtoH(ctx, part_u, d_part_u, grid * sizeof *part_u));
    RD_TRY(wsMemcpyDtoH(ctx, part_f, d_part_f, grid * sizeof *part_f));
    RD_TRY(wsMemcpyDtoH(ctx, &total_u, d_tot_u, sizeof total_u));
    RD_TRY(wsMemcpyDtoH(ctx, &total_f, d_tot_f, sizeof total_f));

    /* u32 reference: CTA c owns elements c*B + t + k*grid*B */
    memset(want_u, 0, grid * sizeof *want_u);
    uint32_t want_total_u = 0;
    for (unsigned i = 0; i < n; i++) {
        want_u[(i / RD_BLOCK) % grid] += in_u[i];
        want_total_u += in_u[i];
    }
    wl_check_u32(r, "u32 partials", part_u, want_u, grid);
    wl_check_u32(r, "u32 total", &total_u, &want_total_u, 1);

    double sum_p = 0.0, sum_abs = 0.0;
    for (unsigned c = 0; c < grid; c++) {
        want_f[c] = rd_cta_f32(in_f, n, c, grid);
        sum_p += (double)want_f[c];
        sum_abs += fabs((double)want_f[c]);
    }
    wl_check_f32(r, "f32 partials", part_f, want_f, grid, 0.0, 0.0);
    double got_total = (double)total_f;
    double bound = (double)grid * ldexp(1.0, -24) * sum_abs;
    wl_check_f64(r, "f32 total", &got_total, &sum_p, 1, 0.0, bound);
    if (o->verbose)
        fprintf(o->log, "reduce: n=%u grid=%u block=%u u32 total=%u f32 total=%.9g (double %.9g)\n", n, grid,
                RD_BLOCK, total_u, (double)total_f, sum_p);
out:
#undef RD_TRY
    /* device buffers: released here on success; after a failure the context
       teardown frees them and the failing call's message stays the last one */
    if (st == WS_SUCCESS) {
        ws_devptr bufs[] = {d_in_u, d_in_f, d_part_u, d_part_f, d_tot_u, d_tot_f};
        for (size_t i = 0; i < sizeof bufs / sizeof bufs[0] && st == WS_SUCCESS; i++)
            st = wsFree(ctx, bufs[i]);
    }
    free(in_u);
    free(in_f);
    free(part_u);
    free(part_f);
    free(want_u);
    free(want_f);
    return st;
}

const struct workload wl_reduce = {
    .name = "reduce",
    .summary = "warp-shuffle sum reduction (shfl.down u32 + shfl.bfly f32), one atomic per CTA",
    .tolerance = "exact (u32 and f32 per-CTA partials, same order); f32 total: ctas*2^-24*sum|partial|",
    .run = rd_run,
    .grid_scale = 1,
};
