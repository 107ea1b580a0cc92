// mm.cu - C = A * B for row-major float matrices (A is m x k, B is k x n),
// tiled through shared memory in 16x16 tiles (the classic CUDA-SDK scheme,
// written from scratch).
//
// Each 16x16 thread block computes one 16x16 tile of C.  Per step it stages a
// tile of A and a tile of B in shared memory (one element per thread, zero
// outside the matrix so any size works), waits at a barrier, accumulates 16
// products from shared memory, and waits again before the tiles are reused.

#define MM_TILE 16

extern "C" __global__ void mm_tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[MM_TILE][MM_TILE];
    __shared__ float bs[MM_TILE][MM_TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * MM_TILE + ty;
    int col = blockIdx.x * MM_TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < k; t += MM_TILE) {
        int ac = t + tx;   // column of A this thread stages
        int br = t + ty;   // row of B this thread stages
        as[ty][tx] = (row < m && ac < k) ? a[row * k + ac] : 0.0f;
        bs[ty][tx] = (br < k && col < n) ? b[br * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < MM_TILE; i++)
            sum = __fmaf_rn(as[ty][i], bs[i][tx], sum);
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}
