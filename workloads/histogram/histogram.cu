// histogram.cu - 256-bin histogram of a byte stream.
//
// Every CTA builds a private histogram in shared memory with shared-memory
// atomics (threads of a warp that hit the same bin serialise there), then
// merges it into the global histogram with one global atomic per non-empty
// bin.  The input is read as 32-bit words in a grid-stride loop (coalesced,
// four bytes per load); the 0-3 bytes after the last whole word are counted
// by the first threads of CTA 0.

#define BINS 256

extern "C" __global__ void histogram256(unsigned *__restrict__ hist, const unsigned char *__restrict__ bytes, int n)
{
    __shared__ unsigned s_hist[BINS];

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads();

    const unsigned *words = reinterpret_cast<const unsigned *>(bytes);
    const int n_words = n >> 2;
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n_words; i += stride) {
        const unsigned w = words[i];
        atomicAdd(&s_hist[w & 0xffu], 1u);
        atomicAdd(&s_hist[(w >> 8) & 0xffu], 1u);
        atomicAdd(&s_hist[(w >> 16) & 0xffu], 1u);
        atomicAdd(&s_hist[w >> 24], 1u);
    }
    if (blockIdx.x == 0 && (int)threadIdx.x < (n & 3))
        atomicAdd(&s_hist[bytes[(n_words << 2) + threadIdx.x]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        const unsigned count = s_hist[b];
        if (count != 0)
            atomicAdd(&hist[b], count);
    }
}
