// scp.cu - scalar products of many vector pairs (the CUDA SDK scalarProd
// structure, written from scratch).
//
// CTAs walk the vector pairs grid-stride (vector v, v + gridDim.x, ...).  For
// one pair the CTA keeps SCP_ACCUM partial sums in shared memory: accumulator
// k sums the products at positions k, k + SCP_ACCUM, k + 2*SCP_ACCUM, ... so
// consecutive threads read consecutive floats (coalesced, streamed once: no
// reuse).  A shared-memory tree then folds the accumulators into one value.
// Every thread owns SCP_ACCUM / blockDim.x accumulators, so the tree's first
// levels keep all threads busy and its last levels leave most of them idle at
// the barriers.

#define SCP_ACCUM 1024

extern "C" __global__ void scp_dot(const float *a, const float *b, float *c, int nvec, int len)
{
    __shared__ float acc[SCP_ACCUM];
    for (int v = blockIdx.x; v < nvec; v += gridDim.x) {
        const float *x = a + (size_t)v * len;
        const float *y = b + (size_t)v * len;
        for (int k = threadIdx.x; k < SCP_ACCUM; k += blockDim.x) {
            float s = 0.0f;
            // unrolled twice: two load pairs in flight per thread, 28 registers
            // (full unrolling takes 64 and halves the CTAs an SM can hold)
#pragma unroll 2
            for (int p = k; p < len; p += SCP_ACCUM)
                s = __fmaf_rn(x[p], y[p], s);   // explicit fma: the host replays the same rounding
            acc[k] = s;
        }
        for (int half = SCP_ACCUM / 2; half > 0; half >>= 1) {
            __syncthreads();
            for (int k = threadIdx.x; k < half; k += blockDim.x)
                acc[k] += acc[k + half];
        }
        __syncthreads();
        if (threadIdx.x == 0)
            c[v] = acc[0];
        __syncthreads();   // acc is reused by the next pair
    }
}
