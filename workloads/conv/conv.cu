// conv.cu - separable 2-D convolution (the CUDA SDK convolutionSeparable
// structure, written from scratch): a row pass then a column pass with a
// (2 CONV_R + 1)-tap filter in __constant__ memory (every lane reads the same
// tap: a broadcast), zero outside the image.
//
// Row pass: a CTA of CONV_ROW_BX x CONV_ROW_BY threads stages CONV_ROW_BY image
// rows of CONV_STEPS * CONV_ROW_BX outputs plus a CONV_ROW_BX-wide halo on each
// side in shared memory (coalesced row loads), then every thread produces
// CONV_STEPS outputs CONV_ROW_BX apart.  Column pass: the same along columns,
// a CTA covering CONV_COL_BX columns and CONV_STEPS * CONV_COL_BY rows; the
// tile is stored transposed with one padding float per row so the lanes of a
// warp (consecutive columns) hit different banks.  Neighbouring CTAs share
// their halos: row-major inter-CTA locality (003's Type-I).
// The taps are summed with explicit fma from -CONV_R to +CONV_R, the order the
// host replays.  The tap loop is unrolled (the taps become immediates of the
// constant bank) but the loop over the CONV_STEPS outputs is not: unrolled
// both ways each kernel is ~3.5 KB of code, larger than the GTX480's 2 KB L1I,
// and instruction-fetch misses would dominate the run.

#define CONV_R 8
#define CONV_TAPS (2 * CONV_R + 1)
#define CONV_STEPS 8
#define CONV_HALO 1
#define CONV_ROW_BX 16
#define CONV_ROW_BY 4
#define CONV_COL_BX 16
#define CONV_COL_BY 8

__constant__ float conv_filter[CONV_TAPS];

// w must be a multiple of CONV_STEPS * CONV_ROW_BX, h of CONV_ROW_BY
extern "C" __global__ void conv_rows(float *dst, const float *src, int w, int h)
{
    __shared__ float tile[CONV_ROW_BY][(CONV_STEPS + 2 * CONV_HALO) * CONV_ROW_BX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = (blockIdx.x * CONV_STEPS - CONV_HALO) * CONV_ROW_BX + tx;
    int y = blockIdx.y * CONV_ROW_BY + ty;
    const float *in = src + (size_t)y * w;
#pragma unroll
    for (int i = 0; i < CONV_STEPS + 2 * CONV_HALO; i++) {
        int x = x0 + i * CONV_ROW_BX;
        tile[ty][tx + i * CONV_ROW_BX] = (x >= 0 && x < w) ? in[x] : 0.0f;
    }
    __syncthreads();
    float *out = dst + (size_t)y * w;
#pragma unroll 1   // see the top comment
    for (int i = CONV_HALO; i < CONV_HALO + CONV_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -CONV_R; j <= CONV_R; j++)
            sum = __fmaf_rn(conv_filter[CONV_R - j], tile[ty][tx + i * CONV_ROW_BX + j], sum);
        out[x0 + i * CONV_ROW_BX] = sum;
    }
}

// h must be a multiple of CONV_STEPS * CONV_COL_BY, w of CONV_COL_BX
extern "C" __global__ void conv_cols(float *dst, const float *src, int w, int h)
{
    __shared__ float tile[CONV_COL_BX][(CONV_STEPS + 2 * CONV_HALO) * CONV_COL_BY + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * CONV_COL_BX + tx;
    int y0 = (blockIdx.y * CONV_STEPS - CONV_HALO) * CONV_COL_BY + ty;
#pragma unroll
    for (int i = 0; i < CONV_STEPS + 2 * CONV_HALO; i++) {
        int y = y0 + i * CONV_COL_BY;
        tile[tx][ty + i * CONV_COL_BY] = (y >= 0 && y < h) ? src[(size_t)y * w + x] : 0.0f;
    }
    __syncthreads();
#pragma unroll 1   // see the top comment
    for (int i = CONV_HALO; i < CONV_HALO + CONV_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -CONV_R; j <= CONV_R; j++)
            sum = __fmaf_rn(conv_filter[CONV_R - j], tile[tx][ty + i * CONV_COL_BY + j], sum);
        dst[(size_t)(y0 + i * CONV_COL_BY) * w + x] = sum;
    }
}
