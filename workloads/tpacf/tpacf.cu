// tpacf.cu - two-point angular correlation histograms (the Parboil TPACF
// benchmark, written from its description).
//
// Points are unit vectors on the sky.  For two point sets A and B the kernel
// counts, for every pair (a, b), the bin of their angular separation: the dot
// product a.b is compared against the bin edges, stored as cosines in
// descending order, with a binary search (a few data-dependent steps over the
// edge table in shared memory).  A CTA owns TPACF_BLOCK points of A, one per
// thread (grid x), and a chunk of TPACF_CHUNK points of B (grid y), which it
// streams through shared memory in tiles of TPACF_BLOCK points.  Counts go to
// per-warp shared-memory histograms (shared atomics), which the CTA sums and
// writes out as its own row (the host adds the rows in 64-bit: paper-size
// totals exceed 2^32).  For the autocorrelation (A = B)
// only pairs j > i count.  The dot product is an explicit fmaf chain so that
// the CPU reference bins every pair identically.

#define TPACF_BLOCK 128
#define TPACF_CHUNK 512
#define TPACF_MAX_EDGES 64
#define TPACF_WARPS (TPACF_BLOCK / 32)

extern "C" __global__ void tpacf_hist(const float *__restrict__ ax, const float *__restrict__ ay,
                                      const float *__restrict__ az, int na, const float *__restrict__ bx,
                                      const float *__restrict__ by, const float *__restrict__ bz, int nb, int self,
                                      const float *__restrict__ edges, int n_edges, unsigned *__restrict__ rows)
{
    __shared__ float sx[TPACF_BLOCK], sy[TPACF_BLOCK], sz[TPACF_BLOCK];
    __shared__ float se[TPACF_MAX_EDGES];
    __shared__ unsigned hist[TPACF_WARPS][TPACF_MAX_EDGES + 1];
    const int tid = threadIdx.x, warp = tid >> 5;
    const int n_bins = n_edges + 1;   // bin 0: closer than edge 0; bin n_edges: beyond the last edge
    for (int i = tid; i < n_edges; i += TPACF_BLOCK)
        se[i] = edges[i];
    for (int i = tid; i < TPACF_WARPS * (TPACF_MAX_EDGES + 1); i += TPACF_BLOCK)
        (&hist[0][0])[i] = 0u;
    const int i = blockIdx.x * TPACF_BLOCK + tid;
    const bool mine = i < na;
    float px = 0.0f, py = 0.0f, pz = 0.0f;
    if (mine) {
        px = ax[i];
        py = ay[i];
        pz = az[i];
    }
    // autocorrelation: tiles that end before this CTA's first point hold no pair j > i
    const int chunk0 = blockIdx.y * TPACF_CHUNK;
    const int chunk1 = chunk0 + TPACF_CHUNK < nb ? chunk0 + TPACF_CHUNK : nb;
    int first_tile = chunk0;
    if (self && (int)(blockIdx.x * TPACF_BLOCK) > first_tile)
        first_tile = blockIdx.x * TPACF_BLOCK;
    for (int t0 = first_tile; t0 < chunk1; t0 += TPACF_BLOCK) {
        __syncthreads();
        if (t0 + tid < chunk1) {
            sx[tid] = bx[t0 + tid];
            sy[tid] = by[t0 + tid];
            sz[tid] = bz[t0 + tid];
        }
        __syncthreads();
        const int cnt = chunk1 - t0 < TPACF_BLOCK ? chunk1 - t0 : TPACF_BLOCK;
        if (!mine)
            continue;
        for (int k = 0; k < cnt; k++) {
            if (self && t0 + k <= i)
                continue;
            const float d = fmaf(px, sx[k], fmaf(py, sy[k], pz * sz[k]));
            // first edge with d > edge (edges descend): the count of edges with edge >= d
            int lo = 0, hi = n_edges;
            while (lo < hi) {
                const int mid = (lo + hi) >> 1;
                if (se[mid] >= d)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            atomicAdd(&hist[warp][lo], 1u);
        }
    }
    __syncthreads();
    for (int b = tid; b < n_bins; b += TPACF_BLOCK) {
        unsigned sum = 0;
        for (int w = 0; w < TPACF_WARPS; w++)
            sum += hist[w][b];
        rows[((size_t)blockIdx.y * gridDim.x + blockIdx.x) * n_bins + b] = sum;
    }
}
