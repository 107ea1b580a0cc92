// pchase.cu - pointer-chasing latency microbenchmark.
//
// One thread follows a chain of pointers in global memory: every element holds
// the device address of the next one, so each load's address is the previous
// load's result and the loads cannot overlap.  The time between two
// consecutive loads is therefore the load-to-use latency of the level of the
// memory hierarchy the chain lives in (L1, L2 or DRAM: the host driver picks the
// working set and the stride).  The chain is stored as full 64-bit addresses,
// not indices, so no address arithmetic sits between two hops.
//
// The kernel first walks `warm_rounds` x 32 hops (to bring an L1- or L2-sized chain into
// the cache, or to leave every DRAM bank with some row open), then times
// `rounds` x 32 hops with clock64().  The 32 hops of a round are unrolled so
// the loop counter and branch of a round issue under the latency of the
// round's last load instead of adding to every hop.
//
// out[0] = clock64 before the first timed hop, out[1] = clock64 after the
// last timed hop's value arrived, out[2] = the final pointer (checked against
// the CPU walk of the same chain).

#define PCHASE_UNROLL 32

extern "C" __global__ void pchase(const unsigned long long *chain, unsigned warm_rounds, unsigned rounds,
                                  unsigned long long *out)
{
    unsigned long long p = (unsigned long long)chain;
    long long t0 = 0, t1 = 0;
    // Phase 0 warms up, phase 1 is timed.  Both run the SAME loop code, so the
    // warm-up also brings the loop into the instruction cache: a cold I-cache
    // line met in the timed phase would stall fetch for a memory round trip.
#pragma unroll 1
    for (int phase = 0; phase < 2; phase++) {
        unsigned n = phase == 0 ? warm_rounds : rounds;
#pragma unroll 1
        for (unsigned r = 0; r < n; r++) {
#pragma unroll
            for (int j = 0; j < PCHASE_UNROLL; j++)
                p = *(const unsigned long long *)p;
        }
        // The store reads p, so neither it nor the clock read after it can
        // issue before the phase's last load returned.
        out[2] = p;
        long long now = clock64();
        if (phase == 0)
            t0 = now;
        else
            t1 = now;
    }
    out[0] = (unsigned long long)t0;
    out[1] = (unsigned long long)t1;
}
