// fwt.cu - fast Walsh-Hadamard transform and dyadic convolution (the CUDA SDK
// "fastWalshTransform" algorithm, written from its description).
//
// The transform of N = 2^L floats applies L butterfly levels, strides N/2,
// N/4, ..., 1, each (a, b) -> (a + b, a - b).  Two consecutive levels (strides
// 2s and s) form one radix-4 butterfly over x[i], x[i+s], x[i+2s], x[i+3s].
// Levels with strides of at least FWT_ELEM (2048 elements) are global passes,
// one launch each, one radix-4 butterfly per thread (every thread touches four
// cache lines N/4 apart in the first passes: DRAM-streaming); the last 10 or
// 11 levels run in one launch with a 2048-element (8 KB) shared-memory tile per
// CTA, radix-4 steps and a final radix-2 step when the level count is odd.
// The levels are always applied in decreasing stride order, so a textbook
// radix-2 loop in that order rounds identically.
//
// Dyadic convolution as in the SDK: transform the data and the (zero-padded)
// kernel, multiply element-wise (times 1/N), transform the product again.

#define FWT_LOG2_ELEM 11
#define FWT_ELEM (1 << FWT_LOG2_ELEM)

// one global radix-4 pass over strides 2s and s (s = 1 << log2s), N/4 threads
extern "C" __global__ void fwt_global4(float *d, int log2s, int quarter_n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= quarter_n)
        return;
    const int s = 1 << log2s;
    const int lo = t & (s - 1);
    const int base = ((t - lo) << 2) + lo;   // groups of 4s elements, lo inside the group
    float *p = d + base;
    const float x0 = p[0], x1 = p[s], x2 = p[2 * s], x3 = p[3 * s];
    const float a0 = x0 + x2, a2 = x0 - x2, a1 = x1 + x3, a3 = x1 - x3;
    p[0] = a0 + a1;
    p[s] = a0 - a1;
    p[2 * s] = a2 + a3;
    p[3 * s] = a2 - a3;
}

// the last log2n levels (10 or 11) of every 2^log2n-element segment, in shared memory; 256 threads
extern "C" __global__ void fwt_shared(float *d, int log2n)
{
    __shared__ float s[FWT_ELEM];
    const int n = 1 << log2n;
    float *seg = d + (size_t)blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i] = seg[i];
    int stride = n >> 2;
    for (; stride > 0; stride >>= 2) {   // radix-4 over strides 2*stride and stride
        __syncthreads();
        for (int t = threadIdx.x; t < (n >> 2); t += blockDim.x) {
            const int lo = t & (stride - 1);
            const int base = ((t - lo) << 2) + lo;
            const float x0 = s[base], x1 = s[base + stride], x2 = s[base + 2 * stride], x3 = s[base + 3 * stride];
            const float a0 = x0 + x2, a2 = x0 - x2, a1 = x1 + x3, a3 = x1 - x3;
            s[base] = a0 + a1;
            s[base + stride] = a0 - a1;
            s[base + 2 * stride] = a2 + a3;
            s[base + 3 * stride] = a2 - a3;
        }
    }
    __syncthreads();
    if (log2n & 1) {   // the stride-1 level left over
        for (int t = threadIdx.x; t < (n >> 1); t += blockDim.x) {
            const float a = s[2 * t], b = s[2 * t + 1];
            s[2 * t] = a + b;
            s[2 * t + 1] = a - b;
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        seg[i] = s[i];
}

// d[i] *= k[i] * (1/N), grid-stride
extern "C" __global__ void fwt_modulate(float *d, const float *__restrict__ k, int n)
{
    const float rcp_n = 1.0f / (float)n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        d[i] *= k[i] * rcp_n;
}
