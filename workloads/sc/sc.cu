// sc.cu - the pgain step of streamcluster (the Rodinia streamcluster
// structure, written from scratch): for one candidate centre x, every point
// computes its weighted distance to x and decides whether it would switch to
// x; the CTA then sums the cost changes per current centre ("slot") in shared
// memory and writes SC_MAXK-wide partial sums per CTA for the host.
//
// Memory layout as in Rodinia: coordinates transposed, coord[d * n + i], so
// the lanes of a warp read consecutive points (coalesced); the points are
// streamed once per launch.  The candidate's coordinates are staged in shared
// memory and read as broadcasts.  assign[i] is the point index of i's centre
// and center_table maps it to a slot: a data-dependent double gather.
//
// Per-CTA gain sums, deterministic and without atomics: every thread posts
// (slot, value) to shared memory; then lane s of warp w sums the values of
// slot s among warp w's 32 entries, in entry order, and finally thread s adds
// the per-warp sums in warp order.  Slot nslots - 1 collects the savings of
// the points that switch to x.  Distances use explicit fma in coordinate
// order, so the host can replay every value bit for bit.

#define SC_BLOCK 256
#define SC_WARPS (SC_BLOCK / 32)
#define SC_MAXK 32     // slots: current centres + 1 <= 32, one per lane
#define SC_MAXDIM 256

extern "C" __global__ void sc_pgain(const float *coord, const float *weight, const float *cost, const int *assign,
                                    const int *center_table, int *switch_membership, float *work, int n, int dim,
                                    int nslots, int x)
{
    __shared__ float cand[SC_MAXDIM];
    __shared__ int slot[SC_BLOCK];
    __shared__ float val[SC_BLOCK];
    __shared__ float part[SC_WARPS][SC_MAXK];
    int tid = threadIdx.x;
    int i = blockIdx.x * SC_BLOCK + tid;
    for (int d = tid; d < dim; d += SC_BLOCK)
        cand[d] = coord[(size_t)d * n + x];
    __syncthreads();

    int s = -1;
    float v = 0.0f;
    if (i < n) {
        float dist = 0.0f;
        // modest unrolling keeps the kernel at 22 registers (full unrolling: 48,
        // which would halve the CTAs an SM holds)
#pragma unroll 2
        for (int d = 0; d < dim; d++) {
            float diff = coord[(size_t)d * n + i] - cand[d];
            dist = __fmaf_rn(diff, diff, dist);
        }
        float x_cost = dist * weight[i];
        float c = cost[i];
        if (x_cost < c) {   // cheaper at x: the point switches, saving c - x_cost
            switch_membership[i] = 1;
            s = nslots - 1;
            v = c - x_cost;
        } else {            // stays: closing its centre would cost x_cost - c
            switch_membership[i] = 0;
            s = center_table[assign[i]];
            v = x_cost - c;
        }
    }
    slot[tid] = s;
    val[tid] = v;
    __syncthreads();

    int lane = tid & 31, w = tid >> 5;
    if (lane < nslots) {
        float sum = 0.0f;
#pragma unroll 4
        for (int j = w * 32; j < w * 32 + 32; j++)
            if (slot[j] == lane)
                sum += val[j];
        part[w][lane] = sum;
    }
    __syncthreads();
    if (tid < nslots) {
        float sum = 0.0f;
        for (int k = 0; k < SC_WARPS; k++)
            sum += part[k][tid];
        work[(size_t)blockIdx.x * nslots + tid] = sum;
    }
}
