// reduce.cu - warp-shuffle reductions (CUDA-SDK "reduction" style, final variant).
//
// Each thread accumulates a grid-stride slice of the input in a register, the
// 32 lanes of a warp combine their values with a shuffle tree, every warp
// leader parks its warp's sum in shared memory, and the first warp reduces
// those with shuffles again.  Lane 0 of warp 0 stores the CTA's partial and
// adds it into the global result with one atomic per CTA.
//
// reduce_u32 uses shfl.down (the classic tree: lane 0 ends with the sum);
// reduce_f32 uses shfl.bfly (xor butterfly: every lane ends with the sum), so
// the two kernels exercise two shuffle modes, integer and float atomics.

#define FULL_MASK 0xffffffffu

extern "C" __global__ void reduce_u32(const unsigned *in, unsigned n, unsigned *partials, unsigned *result)
{
    __shared__ unsigned warp_sums[32];
    unsigned tid = threadIdx.x;
    unsigned lane = tid & 31u;
    unsigned warp = tid >> 5;
    unsigned nwarps = (blockDim.x + 31u) >> 5;

    // unsigned arithmetic wraps mod 2^32, so the sum is exact and order-independent
    unsigned sum = 0;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];

    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(FULL_MASK, sum, off);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = lane < nwarps ? warp_sums[lane] : 0u;
        for (int off = 16; off > 0; off >>= 1)
            sum += __shfl_down_sync(FULL_MASK, sum, off);
        if (lane == 0) {
            partials[blockIdx.x] = sum;
            atomicAdd(result, sum);
        }
    }
}

extern "C" __global__ void reduce_f32(const float *in, unsigned n, float *partials, float *result)
{
    __shared__ float warp_sums[32];
    unsigned tid = threadIdx.x;
    unsigned lane = tid & 31u;
    unsigned warp = tid >> 5;
    unsigned nwarps = (blockDim.x + 31u) >> 5;

    float sum = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];

    for (int mask = 16; mask > 0; mask >>= 1)
        sum += __shfl_xor_sync(FULL_MASK, sum, mask);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = lane < nwarps ? warp_sums[lane] : 0.0f;
        for (int mask = 16; mask > 0; mask >>= 1)
            sum += __shfl_xor_sync(FULL_MASK, sum, mask);
        if (lane == 0) {
            partials[blockIdx.x] = sum;
            atomicAdd(result, sum);
        }
    }
}
