// bankconf.cu - shared-memory bank conflicts: cycles per warp access by stride.
//
// CTA c reads shared words with a stride of 0 (c = 0: every lane the same
// word, a broadcast) or 2^(c-1) words (c = 1..6: strides 1, 2, 4, 8, 16, 32).
// Lane l of every warp reads word l * stride + k for k = 0..15, sixteen
// independent volatile loads into sixteen registers per round: with 32 banks
// of 4-byte words a stride of s (a power of two up to 32) puts s distinct
// words on one bank, so each access needs s passes, and a broadcast one.
// The loads do not depend on each other, so the LD/ST unit, busy for the
// passes of one access at a time, sets the rate; the loop control of one
// warp hides behind the loads of the others.
//
// `rounds` is scaled by the host so that every CTA runs about as long (more
// rounds for small strides).  One untimed warm-up round first (it loads the
// loop into the instruction cache), then the timed rounds between barriers;
// thread 0 records clock64 and %smid.  Each thread stores the sum of its
// last round's sixteen words (checked exactly against the CPU).

#define BANKCONF_WORDS (32 * 32 + 16)

extern "C" __global__ void bankconf(const unsigned *in, unsigned rounds_unit, unsigned *out, unsigned long long *clk)
{
    __shared__ unsigned s[BANKCONF_WORDS];
    for (unsigned i = threadIdx.x; i < BANKCONF_WORDS; i += blockDim.x)
        s[i] = in[i];
    unsigned stride = blockIdx.x == 0 ? 0u : 1u << (blockIdx.x - 1);
    // rounds_unit rounds at stride 32; more at smaller strides, fewer passes each
    unsigned rounds = rounds_unit * (stride ? 32u / stride : 32u);
    volatile unsigned *b = s + (threadIdx.x & 31) * stride;
    unsigned v0 = 0, v1 = 0, v2 = 0, v3 = 0, v4 = 0, v5 = 0, v6 = 0, v7 = 0;
    unsigned v8 = 0, v9 = 0, v10 = 0, v11 = 0, v12 = 0, v13 = 0, v14 = 0, v15 = 0;
    long long t0 = 0;
#pragma unroll 1
    for (int phase = 0; phase < 2; phase++) {
        unsigned n = phase == 0 ? 1u : rounds;
        __syncthreads();
        t0 = clock64();
#pragma unroll 1
        for (unsigned r = 0; r < n; r++) {
            v0 = b[0];
            v1 = b[1];
            v2 = b[2];
            v3 = b[3];
            v4 = b[4];
            v5 = b[5];
            v6 = b[6];
            v7 = b[7];
            v8 = b[8];
            v9 = b[9];
            v10 = b[10];
            v11 = b[11];
            v12 = b[12];
            v13 = b[13];
            v14 = b[14];
            v15 = b[15];
        }
    }
    __syncthreads();
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15;
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        clk[3 * blockIdx.x] = (unsigned long long)t0;
        clk[3 * blockIdx.x + 1] = (unsigned long long)t1;
        clk[3 * blockIdx.x + 2] = sm;
    }
}
