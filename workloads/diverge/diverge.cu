// diverge.cu - the cost of branch divergence: a warp taking 1, 2, ..., 32 paths.
//
// One warp per CTA; in CTA c lane l follows path l mod 2^c, so the warp has
// 2^c distinct paths (1, 2, 4, 8, 16, 32 for c = 0..5).  Each iteration walks
// the same loop over p = 0..31 and a lane runs the body when p is its path:
// a scalar thread runs exactly one body per iteration whatever the others do,
// so any extra time with more paths is SIMT serialisation.  The body is a
// dependent chain of DIVERGE_CHAIN multiply-adds written as inline PTX, so the
// compiler can neither fold the chain nor merge or predicate the bodies.
// One untimed warm-up iteration (instruction cache), then `iters` timed ones;
// lane 0 records clock64 and %smid.  Every lane stores its final value
// (checked exactly against the same recurrence on the CPU).

#define DIVERGE_MAD asm volatile("mad.lo.u32 %0, %0, 1664525, %1;" : "+r"(x) : "r"(p))
#define DIVERGE_MAD4 DIVERGE_MAD; DIVERGE_MAD; DIVERGE_MAD; DIVERGE_MAD

extern "C" __global__ void diverge(const unsigned *seed, unsigned iters, unsigned *out, unsigned long long *clk)
{
    unsigned lane = threadIdx.x & 31;
    unsigned path = lane & ((1u << blockIdx.x) - 1u);
    unsigned x = seed[blockIdx.x * 32 + lane];
    long long t0 = 0;
#pragma unroll 1
    for (int phase = 0; phase < 2; phase++) {
        unsigned n = phase == 0 ? 1u : iters;
        t0 = clock64();
#pragma unroll 1
        for (unsigned i = 0; i < n; i++) {
#pragma unroll 1
            for (unsigned p = 0; p < 32; p++) {
                if (path == p) {
                    DIVERGE_MAD4;
                    DIVERGE_MAD4;
                    DIVERGE_MAD4;
                    DIVERGE_MAD4;
                }
            }
        }
    }
    // the store reads x: the clock is read after the last chain completed
    out[blockIdx.x * 32 + lane] = x;
    long long t1 = clock64();
    if (lane == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        clk[3 * blockIdx.x] = (unsigned long long)t0;
        clk[3 * blockIdx.x + 1] = (unsigned long long)t1;
        clk[3 * blockIdx.x + 2] = sm;
    }
}
