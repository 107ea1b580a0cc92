// atomics.cu - global atomic throughput: one address against distinct ones.
//
// Every thread adds 1 to a counter of its own or a shared one with
// atomicAdd and sums the old values it gets back (so each atomic is a real
// read-modify-write whose reply is waited for).  Eight atomics per step are
// issued before their results are used, so a warp keeps eight in flight.
// The counter a thread uses depends on `mode`:
//   0  one address for the whole grid: every warp access is one request to
//      one L2 slice;
//   1  a word per thread, consecutive: a warp access is one coalesced request
//      (one 128-byte block), the requests spread over the slices;
//   2  a word per thread, but the 32 lanes of a warp on 32 different lines
//      (word lane * 32 + warp mod 32 of its CTA's 1024-word region): a warp
//      access is 32 requests of one word.
// The old values a counter hands out are 0, 1, ..., n-1 in some order, so the
// sums are exact whatever the order: mode 0 checks the counter and the total
// of all threads' sums, modes 1 and 2 every counter and every thread's sum.
// One untimed atomic per thread first brings the counters' lines into the
// L2 (the CTA waits for its replies); thread 0 records clock64 around the
// timed steps, and %smid.

#define ATOMICS_STEP 8

extern "C" __global__ void atomics(unsigned *ctr, unsigned mode, unsigned iters, unsigned long long *sums,
                                   unsigned long long *clk)
{
    unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned *a = mode == 0   ? ctr
                  : mode == 1 ? ctr + gtid
                              : ctr + blockIdx.x * 1024u + lane * 32 + (warp & 31);
    __shared__ volatile unsigned long long warm[1024];
    unsigned long long s = atomicAdd(a, 1u);
    // the store reads s: the CTA's warm-up atomics have all returned before the clock starts
    warm[threadIdx.x] = s;
    __syncthreads();
    long long t0 = clock64();
    // iters is a multiple of ATOMICS_STEP
#pragma unroll 1
    for (unsigned i = 0; i < iters; i += ATOMICS_STEP) {
        unsigned o0 = atomicAdd(a, 1u);
        unsigned o1 = atomicAdd(a, 1u);
        unsigned o2 = atomicAdd(a, 1u);
        unsigned o3 = atomicAdd(a, 1u);
        unsigned o4 = atomicAdd(a, 1u);
        unsigned o5 = atomicAdd(a, 1u);
        unsigned o6 = atomicAdd(a, 1u);
        unsigned o7 = atomicAdd(a, 1u);
        s += (unsigned long long)o0 + o1 + o2 + o3 + o4 + o5 + o6 + o7;
    }
    __syncthreads();
    long long t1 = clock64();
    sums[gtid] = s;
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        clk[3 * blockIdx.x] = (unsigned long long)t0;
        clk[3 * blockIdx.x + 1] = (unsigned long long)t1;
        clk[3 * blockIdx.x + 2] = sm;
    }
}
