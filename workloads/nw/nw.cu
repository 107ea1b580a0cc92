// nw.cu - Needleman-Wunsch global sequence alignment (Rodinia "nw" style).
//
// score is an (n+1) x (n+1) matrix whose row 0 and column 0 hold the gap
// penalties; cell (i, j) = max(score(i-1, j-1) + ref(i, j),
//                              score(i, j-1) - penalty, score(i-1, j) - penalty).
// Every cell depends on its upper-left neighbours, so the matrix is cut into
// 16 x 16 blocks that are processed as a wavefront: one launch per block
// anti-diagonal, one CTA of 16 threads per block on it (1 CTA on the first and
// last diagonals, n/16 in the middle).  Inside a block the same wavefront runs
// over the 31 cell anti-diagonals of the shared-memory tile, with a barrier
// between them; thread tx owns column tx+1 of the tile.

#define NB 16

extern "C" __global__ void nw_block_diagonal(int *__restrict__ score, const int *__restrict__ ref, int cols,
                                             int diag, int n_blocks, int penalty)
{
    __shared__ int s_ref[NB][NB];
    __shared__ int s_sc[NB + 1][NB + 1];

    const int tx = threadIdx.x;
    const int bx = (diag < n_blocks ? 0 : diag - n_blocks + 1) + blockIdx.x; // block column
    const int by = diag - bx;                                                   // block row

    // base: the cell up-left of the block, i.e. the corner of its halo
    int *base = score + (by * NB) * cols + bx * NB;
    const int *rbase = ref + (by * NB + 1) * cols + bx * NB + 1;

    if (tx == 0)
        s_sc[0][0] = base[0];
    s_sc[0][tx + 1] = base[tx + 1];        // row above the block
    s_sc[tx + 1][0] = base[(tx + 1) * cols]; // column left of the block
    for (int ty = 0; ty < NB; ty++)
        s_ref[ty][tx] = rbase[ty * cols + tx];
    __syncthreads();

    // anti-diagonals that grow: m+1 cells, thread tx takes row m-tx+1
    for (int m = 0; m < NB; m++) {
        if (tx <= m) {
            const int x = tx + 1, y = m - tx + 1;
            const int diag_v = s_sc[y - 1][x - 1] + s_ref[y - 1][x - 1];
            const int left = s_sc[y][x - 1] - penalty;
            const int up = s_sc[y - 1][x] - penalty;
            s_sc[y][x] = max(diag_v, max(left, up));
        }
        __syncthreads();
    }
    // anti-diagonals that shrink: m+1 cells ending at the bottom-right corner
    for (int m = NB - 2; m >= 0; m--) {
        if (tx <= m) {
            const int x = tx + NB - m, y = NB - tx;
            const int diag_v = s_sc[y - 1][x - 1] + s_ref[y - 1][x - 1];
            const int left = s_sc[y][x - 1] - penalty;
            const int up = s_sc[y - 1][x] - penalty;
            s_sc[y][x] = max(diag_v, max(left, up));
        }
        __syncthreads();
    }

    for (int ty = 0; ty < NB; ty++)
        base[(ty + 1) * cols + tx + 1] = s_sc[ty + 1][tx + 1];
}
