// pathfinder.cu - minimum-cost path through a grid of weights, one row at a
// time (Rodinia "pathfinder" style dynamic programming).
//
// cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1])
// (neighbours outside the grid are ignored).
//
// One launch advances `steps` rows.  A CTA of PF_BLOCK threads loads a strip
// of the previous row that is wider than the columns it finalises by `steps`
// halo columns on each side; every step the valid part of the strip shrinks
// by one column per side (a pyramid), so after `steps` rows the inner
// PF_BLOCK - 2*steps columns are exact without any communication between
// CTAs.  Halo columns are recomputed redundantly by the neighbouring CTAs.

#define PF_BLOCK 256

extern "C" __global__ void pathfinder_pyramid(const int *wall, const int *src, int *dst, int cols,
                                              int start_row, int steps)
{
    __shared__ int prev[PF_BLOCK];
    __shared__ int cur[PF_BLOCK];

    int tx = threadIdx.x;
    int inner = PF_BLOCK - 2 * steps;
    int strip_left = (int)blockIdx.x * inner - steps;   // grid column of tx == 0
    int col = strip_left + tx;
    // strip positions that lie inside the grid; the edges clamp to these
    int valid_lo = strip_left < 0 ? -strip_left : 0;
    int valid_hi = cols - 1 - strip_left < PF_BLOCK - 1 ? cols - 1 - strip_left : PF_BLOCK - 1;
    bool inside = tx >= valid_lo && tx <= valid_hi;

    if (inside)
        prev[tx] = src[col];
    __syncthreads();

    bool computed = false;
    for (int i = 0; i < steps; i++) {
        computed = false;
        // tx must be inside the shrinking pyramid and inside the grid
        if (tx >= i + 1 && tx <= PF_BLOCK - 2 - i && inside) {
            int left = tx - 1 < valid_lo ? tx : tx - 1;
            int right = tx + 1 > valid_hi ? tx : tx + 1;
            int best = min(prev[left], min(prev[tx], prev[right]));
            cur[tx] = best + wall[(start_row + i) * cols + col];
            computed = true;
        }
        __syncthreads();
        if (i == steps - 1)
            break;
        if (computed)
            prev[tx] = cur[tx];
        __syncthreads();
    }
    // after the last step exactly the inner columns hold final values
    if (computed)
        dst[col] = cur[tx];
}
