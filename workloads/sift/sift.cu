// sift.cu - the front end of SIFT (Lowe's scale-invariant feature transform,
// written from scratch): a Gaussian scale space built by separable blurs and
// the detection of scale-space extrema of the difference of Gaussians.
//
// sift_blur is one 1-D Gaussian pass, along rows (dir 0) or down columns
// (dir 1), optionally subsampling by `step` along that direction (the next
// octave starts from every other pixel of the previous octave's level s).
// A CTA is a strip of SIFT_BX consecutive pixels of one output row that reads
// its taps straight from global memory, edges clamped.  In the row pass the
// CTAs that share source lines are neighbours in launch order; in the column
// pass a thread reads down its column, and the CTAs that read the same rows
// are a whole grid row (gridDim.x CTAs) apart: the column-wise access mix that
// puts SIFT in 003's Type-II.
//
// sift_extrema forms the four DoG layers D_j = G_{j+1} - G_j of an octave
// (five Gaussian levels, two intervals) in a 3x3 window around its pixel and
// flags the pixel if D_1 or D_2 there is a strict maximum or minimum of its
// 26 neighbours in space and scale and above the contrast threshold in
// magnitude: bit 0/1 = maximum/minimum in D_1, bit 2/3 = in D_2.  The number
// of extrema is added to a global counter.
//
// The taps of every filter live in __constant__ memory (broadcast reads) and
// are summed with explicit fma from -R to +R, the order the host replays.

#define SIFT_BX 128
#define SIFT_MAX_COEF 256

__constant__ float sift_coef[SIFT_MAX_COEF];

extern "C" __global__ void sift_blur(float *__restrict__ dst, const float *__restrict__ src, int dst_w,
                                     int dst_h, int src_w, int src_h, int dir, int step, int radius, int coef)
{
    int x = blockIdx.x * SIFT_BX + threadIdx.x;
    int y = blockIdx.y;
    if (x >= dst_w || y >= dst_h)
        return;
    // the 1-D line the taps walk: its first element, its stride, its length and the centre on it
    const float *line;
    int stride, len, pos;
    if (dir == 0) {
        line = src + y * src_w;
        stride = 1;
        len = src_w;
        pos = x * step;
    } else {
        line = src + x;
        stride = src_w;
        len = src_h;
        pos = y * step;
    }
    const float *c = sift_coef + coef;
    float sum = 0.0f;
    for (int k = -radius; k <= radius; k++) {
        int p = min(max(pos + k, 0), len - 1);
        sum = __fmaf_rn(*c++, line[p * stride], sum);
    }
    dst[y * dst_w + x] = sum;
}

// is v a strict extremum of the 3x3x3 block lo (scale below), mid (its own scale, v at [4]), hi?
__device__ __forceinline__ int sift_extremum(float v, const float *lo, const float *mid, const float *hi)
{
    bool is_max = true, is_min = true;
#pragma unroll
    for (int i = 0; i < 9; i++) {
        is_max = is_max && v > lo[i] && v > hi[i] && (i == 4 || v > mid[i]);
        is_min = is_min && v < lo[i] && v < hi[i] && (i == 4 || v < mid[i]);
    }
    return (is_max ? 1 : 0) | (is_min ? 2 : 0);
}

extern "C" __global__ void sift_extrema(int *__restrict__ flags, unsigned *__restrict__ count,
                                        const float *__restrict__ g0, const float *__restrict__ g1,
                                        const float *__restrict__ g2, const float *__restrict__ g3,
                                        const float *__restrict__ g4, int w, int h, float thr)
{
    int x = blockIdx.x * SIFT_BX + threadIdx.x;
    int y = blockIdx.y;
    if (x >= w || y >= h)
        return;
    int f = 0;
    if (x >= 1 && x < w - 1 && y >= 1 && y < h - 1) {
        const float *g[5] = {g0, g1, g2, g3, g4};
        float a[9], b[9], d[4][9];
#pragma unroll
        for (int i = 0; i < 9; i++)
            a[i] = g[0][(y - 1 + i / 3) * w + x - 1 + i % 3];
#pragma unroll
        for (int j = 0; j < 4; j++) {
#pragma unroll
            for (int i = 0; i < 9; i++) {
                b[i] = g[j + 1][(y - 1 + i / 3) * w + x - 1 + i % 3];
                d[j][i] = __fsub_rn(b[i], a[i]);
                a[i] = b[i];
            }
        }
        if (fabsf(d[1][4]) > thr)
            f |= sift_extremum(d[1][4], d[0], d[1], d[2]);
        if (fabsf(d[2][4]) > thr)
            f |= sift_extremum(d[2][4], d[1], d[2], d[3]) << 2;
        if (f)
            atomicAdd(count, (unsigned)__popc(f));
    }
    flags[y * w + x] = f;
}
