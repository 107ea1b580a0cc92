// gabor.cu - a bank of complex Gabor filters applied to a grayscale image
// (written from scratch): one launch of gabor_filter per filter (scale s,
// orientation o) computes, for every pixel, the response magnitude
//     |sum_{dy,dx} g_{s,o}(dy, dx) * img(y + dy, x + dx)|
// of the complex kernel g = re + i im of (2R+1) x (2R+1) taps, R growing with
// the scale; the image is clamped at its edges.  One launch of gabor_max per
// scale then picks, per pixel, the strongest orientation and its magnitude
// (the orientation feature map).
//
// CTAs are 16 x 16 pixel tiles that read the image straight from global
// memory (no shared-memory staging), so the (R-wide) halo a tile needs is
// fetched again by its neighbours: the x-neighbour (the next CTA in launch
// order) shares the same cache lines, the y-neighbour (a grid row later)
// shares 2R of its rows.  That inter-CTA reuse is what 003's locality-aware
// CTA scheduler tries to keep within one SM's L1.
//
// The taps of the whole bank live in __constant__ memory (every lane of a warp
// reads the same tap: a broadcast); a launch gets its filter's offset.  Taps
// are summed with explicit fma in row-major tap order and the magnitude with
// round-to-nearest intrinsics, which is the order the host replays.

#define GABOR_TILE 16
#define GABOR_MAX_COEF 9216 // re and im taps of every filter of the largest bank (36 KB)

__constant__ float gabor_coef[GABOR_MAX_COEF];

// mag = |(img * g)(x, y)| for the filter whose re taps start at coef, im taps at coef + (2R+1)^2
extern "C" __global__ void gabor_filter(float *__restrict__ mag, const float *__restrict__ img, int w, int h,
                                        int radius, int coef)
{
    int x = blockIdx.x * GABOR_TILE + threadIdx.x;
    int y = blockIdx.y * GABOR_TILE + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int side = 2 * radius + 1;
    const float *cre = gabor_coef + coef, *cim = cre + side * side;
    float re = 0.0f, im = 0.0f;
    for (int dy = -radius; dy <= radius; dy++) {
        const float *row = img + min(max(y + dy, 0), h - 1) * w;  // 32-bit index: images below 2^31 pixels
        for (int dx = -radius; dx <= radius; dx++) {
            float v = row[min(max(x + dx, 0), w - 1)];
            re = __fmaf_rn(*cre++, v, re);
            im = __fmaf_rn(*cim++, v, im);
        }
    }
    mag[(size_t)y * w + x] = __fsqrt_rn(__fmaf_rn(re, re, __fmul_rn(im, im)));
}

// best[p] = max over the n_orient magnitude planes mags[o * w * h + p]; arg[p] = the first o reaching it
extern "C" __global__ void gabor_max(float *__restrict__ best, int *__restrict__ arg,
                                     const float *__restrict__ mags, int w, int h, int n_orient)
{
    int x = blockIdx.x * GABOR_TILE + threadIdx.x;
    int y = blockIdx.y * GABOR_TILE + threadIdx.y;
    if (x >= w || y >= h)
        return;
    size_t p = (size_t)y * w + x, plane = (size_t)w * h;
    float m = mags[p];
    int a = 0;
#pragma unroll 1 // a light kernel: keep its registers (and so its residency) low
    for (int o = 1; o < n_orient; o++) {
        float v = mags[o * plane + p];
        if (v > m) {
            m = v;
            a = o;
        }
    }
    best[p] = m;
    arg[p] = a;
}
