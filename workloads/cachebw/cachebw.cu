// cachebw.cu - load bandwidth of the L1D and of the L2.
//
// Every warp reads `loads` uint4s per lane per pass, 32 lanes side by side:
// each warp load is one fully coalesced 512-byte access (four whole 128-byte
// lines).  Three instructions per load (the load and two adds) are fewer
// than the LD/ST unit's four cycles per load, so the LD/ST unit, not the
// fetch stage or the schedulers, limits the rate.  The loads of a pass are
// unrolled by 8 with immediate offsets, so no address arithmetic sits
// between them.
//
// Warp w of CTA c starts at chunk (w + c) mod nwarps of `warp_stride` uint4s:
//   L1D level: warp_stride = 0, every warp of the CTA reads the same 8 KiB,
//              which one untimed warm-up pass brings into the L1D; the timed
//              passes then hit;
//   L2 level:  the warps of a CTA split the buffer, each CTA starting at a
//              different chunk so that the SMs spread over the L2 slices; one
//              pass per launch, so every line is read once per SM and misses
//              the (cold) L1D by construction.
// Two barriers around the timed passes; thread 0 records clock64 at both, and
// %smid, so the host can combine CTAs that shared an SM.  Each thread stores
// the sums of the first and of the last word of every uint4 it read (checked
// exactly against the CPU).

#define CACHEBW_UNROLL 8

// One 16-byte load per lane at byte offset OFF from q.  Written as inline PTX
// so that the compiler keeps all four words although only two feed the sums:
// two consuming instructions per load keep the instruction stream well below
// what the fetch stage delivers, leaving the LD/ST unit as the limit.
#define CACHEBW_LD(OFF)                                                                                  \
    do {                                                                                                 \
        unsigned x_, y_, z_, w_;                                                                         \
        asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4+" #OFF "];"                                 \
                     : "=r"(x_), "=r"(y_), "=r"(z_), "=r"(w_)                                            \
                     : "l"(q));                                                                          \
        sx += x_;                                                                                        \
        sw += w_;                                                                                        \
        (void)y_;                                                                                        \
        (void)z_;                                                                                        \
    } while (0)

// y_ and z_ are loaded for the bandwidth and deliberately not summed
#pragma nv_diag_suppress 550

extern "C" __global__ void cachebw_read(const uint4 *buf, unsigned warp_stride, unsigned loads, unsigned warm,
                                        unsigned passes, uint2 *sums, unsigned long long *clk)
{
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    const uint4 *p = buf + ((warp + blockIdx.x) % nwarps) * warp_stride + lane;
    unsigned sx = 0, sw = 0;
    long long t0 = 0;
#pragma unroll 1
    for (int phase = 0; phase < 2; phase++) {
        unsigned n = phase == 0 ? warm : passes;
        // all warps start the timed passes together, after the warm-up
        __syncthreads();
        t0 = clock64();
#pragma unroll 1
        for (unsigned r = 0; r < n; r++) {
            const uint4 *q = p;
#pragma unroll 1
            for (unsigned j = 0; j < loads; j += CACHEBW_UNROLL, q += CACHEBW_UNROLL * 32) {
                CACHEBW_LD(0);
                CACHEBW_LD(512);
                CACHEBW_LD(1024);
                CACHEBW_LD(1536);
                CACHEBW_LD(2048);
                CACHEBW_LD(2560);
                CACHEBW_LD(3072);
                CACHEBW_LD(3584);
            }
        }
    }
    // every warp has issued its last load and consumed it
    __syncthreads();
    long long t1 = clock64();
    sums[blockIdx.x * blockDim.x + threadIdx.x] = make_uint2(sx, sw);
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        clk[3 * blockIdx.x] = (unsigned long long)t0;
        clk[3 * blockIdx.x + 1] = (unsigned long long)t1;
        clk[3 * blockIdx.x + 2] = sm;
    }
}
