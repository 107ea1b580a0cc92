// ctarate.cu - the CTA launch rate: many CTAs that do (almost) nothing.
//
// ctarate_empty has no body: its CTAs cost only dispatch, a fetch and the
// exit, so a grid of them measures how fast the machine hands out CTAs.
// ctarate_tiny CTAs are one warp whose lane 0 writes one 16-byte record:
// the clock64 at its start, %smid and its CTA index (checked exactly), which
// lets the host measure the interval between CTA starts on each SM.

extern "C" __global__ void ctarate_empty() {}

extern "C" __global__ void ctarate_tiny(uint4 *rec)
{
    if (threadIdx.x == 0) {
        long long t = clock64();
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        rec[blockIdx.x] = make_uint4((unsigned)t, (unsigned)((unsigned long long)t >> 32), sm, blockIdx.x);
    }
}
