// gaussian.cu - forward elimination of a dense linear system A x = b without
// pivoting (the Rodinia gaussian structure, written from scratch).  The host
// launches gaussian_fan1 and gaussian_fan2 once per pivot column t and does
// the back substitution itself.
//
// gaussian_fan1: one thread per row below the pivot computes its multiplier
//   m[row][t] = a[row][t] / a[t][t]: a column walk, one float per matrix row.
// gaussian_fan2: a 2-D grid over the whole matrix every step (the grid does
//   not shrink; threads outside the trailing submatrix exit at once).  x of
//   the thread picks the row and y the column, so the lanes of a warp touch
//   16 different rows (a stride of n floats): column-major access, 16 memory
//   segments per warp access instead of 1.  The threads of column t also
//   update b.
// The multiply-subtracts use explicit fma so the host can replay the rounding.

extern "C" __global__ void gaussian_fan1(float *m, const float *a, int n, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1 - t)
        return;
    int row = i + 1 + t;
    m[(size_t)row * n + t] = a[(size_t)row * n + t] / a[(size_t)t * n + t];
}

extern "C" __global__ void gaussian_fan2(const float *m, float *a, float *b, int n, int t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n - 1 - t || y >= n - t)
        return;
    int row = x + 1 + t, col = y + t;
    float mult = m[(size_t)row * n + t];
    a[(size_t)row * n + col] = __fmaf_rn(-mult, a[(size_t)t * n + col], a[(size_t)row * n + col]);
    if (y == 0)
        b[row] = __fmaf_rn(-mult, b[t], b[row]);
}
