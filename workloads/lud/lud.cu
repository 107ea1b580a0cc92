// lud.cu - blocked LU decomposition without pivoting (the Rodinia lud
// structure, written from scratch).  A is n x n, row-major, n a multiple of
// LUD_BS; it is overwritten by L (unit lower, below the diagonal) and U.
//
// One step per LUD_BS-wide block column, at offset off:
//   lud_diagonal   one CTA factors the diagonal block in shared memory; the
//                  column updates are a triangle, so threads drop out as the
//                  factorisation moves right (divergence, a barrier per row);
//   lud_perimeter  one CTA per block to the right of / below the diagonal
//                  block: the first LUD_BS threads solve the U blocks of the
//                  block row (forward substitution down each column), the
//                  other LUD_BS threads the L blocks of the block column
//                  (each thread one row: row-strided shared accesses);
//   lud_internal   one LUD_BS x LUD_BS CTA per trailing block: A -= L_col * U_row
//                  from two shared tiles (the bulk of the work).
// The grids shrink every step: a long run of small, dependent kernels.
// The multiply-subtracts use explicit fma so their rounding does not depend on
// the compiler's contraction choices.

#define LUD_BS 16

extern "C" __global__ void lud_diagonal(float *m, int n, int off)
{
    __shared__ float s[LUD_BS][LUD_BS];
    int tx = threadIdx.x;
    float *base = m + (size_t)off * n + off;
    for (int i = 0; i < LUD_BS; i++)
        s[i][tx] = base[(size_t)i * n + tx];
    __syncthreads();
    for (int i = 0; i < LUD_BS - 1; i++) {
        if (tx > i) {   // L column i, rows below the diagonal
            float v = s[tx][i];
            for (int j = 0; j < i; j++)
                v = __fmaf_rn(-s[tx][j], s[j][i], v);
            s[tx][i] = v / s[i][i];
        }
        __syncthreads();
        if (tx > i) {   // U row i + 1, columns right of the diagonal
            float v = s[i + 1][tx];
            for (int j = 0; j <= i; j++)
                v = __fmaf_rn(-s[i + 1][j], s[j][tx], v);
            s[i + 1][tx] = v;
        }
        __syncthreads();
    }
    for (int i = 1; i < LUD_BS; i++)   // row 0 of the block is U already
        base[(size_t)i * n + tx] = s[i][tx];
}

extern "C" __global__ void lud_perimeter(float *m, int n, int off)
{
    __shared__ float dia[LUD_BS][LUD_BS];
    __shared__ float urow[LUD_BS][LUD_BS];   // block right of the diagonal block
    __shared__ float lcol[LUD_BS][LUD_BS];   // block below it
    int tx = threadIdx.x;
    int blk = (blockIdx.x + 1) * LUD_BS;
    float *base = m + (size_t)off * n + off;
    if (tx < LUD_BS) {
        int c = tx;
        for (int i = 0; i < LUD_BS / 2; i++)
            dia[i][c] = base[(size_t)i * n + c];
        for (int i = 0; i < LUD_BS; i++)
            urow[i][c] = base[(size_t)i * n + blk + c];
    } else {
        int c = tx - LUD_BS;
        for (int i = LUD_BS / 2; i < LUD_BS; i++)
            dia[i][c] = base[(size_t)i * n + c];
        for (int i = 0; i < LUD_BS; i++)
            lcol[i][c] = base[(size_t)(blk + i) * n + c];
    }
    __syncthreads();
    if (tx < LUD_BS) {
        // U = L_dia^-1 * A: forward substitution down column c (unit diagonal)
        int c = tx;
        for (int i = 1; i < LUD_BS; i++) {
            float v = urow[i][c];
            for (int j = 0; j < i; j++)
                v = __fmaf_rn(-dia[i][j], urow[j][c], v);
            urow[i][c] = v;
        }
    } else {
        // L = A * U_dia^-1: thread r solves row r left to right
        int r = tx - LUD_BS;
        for (int i = 0; i < LUD_BS; i++) {
            float v = lcol[r][i];
            for (int j = 0; j < i; j++)
                v = __fmaf_rn(-lcol[r][j], dia[j][i], v);
            lcol[r][i] = v / dia[i][i];
        }
    }
    __syncthreads();
    if (tx < LUD_BS) {
        int c = tx;
        for (int i = 1; i < LUD_BS; i++)
            base[(size_t)i * n + blk + c] = urow[i][c];
    } else {
        int c = tx - LUD_BS;
        for (int i = 0; i < LUD_BS; i++)
            base[(size_t)(blk + i) * n + c] = lcol[i][c];
    }
}

extern "C" __global__ void lud_internal(float *m, int n, int off)
{
    __shared__ float urow[LUD_BS][LUD_BS];
    __shared__ float lcol[LUD_BS][LUD_BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = off + (blockIdx.y + 1) * LUD_BS;
    int col = off + (blockIdx.x + 1) * LUD_BS;
    urow[ty][tx] = m[(size_t)(off + ty) * n + col + tx];
    lcol[ty][tx] = m[(size_t)(row + ty) * n + off + tx];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < LUD_BS; k++)
        sum = __fmaf_rn(lcol[ty][k], urow[k][tx], sum);
    m[(size_t)(row + ty) * n + col + tx] -= sum;
}
