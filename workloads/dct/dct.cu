// dct.cu - 8x8 block DCT-II of an image and its quantised inverse (the CUDA SDK
// "dct8x8" application, separable form, written from its description).
//
// A CTA of 32 x 8 threads owns a 32 x 32 pixel tile (sixteen 8x8 blocks), four
// pixels per thread (rows ty, ty+8, ty+16, ty+24).  The tile is loaded into
// shared memory with coalesced row reads; the row pass multiplies every 8-pixel
// row segment by the DCT matrix (coefficients in constant memory) into a second
// shared tile; the column pass does the same down each 8-pixel column and
// writes the coefficients out.  Each output is an explicit fmaf chain in
// k = 0..7 order, so a CPU replay rounds identically.  The inverse kernel first
// quantises every coefficient (q * rintf(c / q), a JPEG-style table) and then
// applies the transposed matrix in the same two passes.

#define DCT_TILE 32

__constant__ float dct_c[64];   // dct_c[u * 8 + k] = a(u) cos((2k + 1) u pi / 16)
__constant__ float dct_q[64];   // quantisation steps, [v * 8 + u]

__device__ __forceinline__ void dct_pass(float (*dst)[DCT_TILE + 1], float (*src)[DCT_TILE + 1], int inverse,
                                         int rows)
{
    const int tx = threadIdx.x;
    for (int r = threadIdx.y; r < DCT_TILE; r += 8) {
        // rows != 0: transform along x (within the row); else along y (within the column)
        const int o = rows ? (tx & 7) : (r & 7);
        float acc = 0.0f;
        for (int k = 0; k < 8; k++) {
            const float c = inverse ? dct_c[k * 8 + o] : dct_c[o * 8 + k];
            const float v = rows ? src[r][(tx & ~7) + k] : src[(r & ~7) + k][tx];
            acc = fmaf(c, v, acc);
        }
        dst[r][tx] = acc;
    }
}

extern "C" __global__ void dct_forward(const float *__restrict__ img, float *__restrict__ coef, int width)
{
    __shared__ float a[DCT_TILE][DCT_TILE + 1], b[DCT_TILE][DCT_TILE + 1];
    const int x0 = blockIdx.x * DCT_TILE, y0 = blockIdx.y * DCT_TILE;
    for (int r = threadIdx.y; r < DCT_TILE; r += 8)
        a[r][threadIdx.x] = img[(size_t)(y0 + r) * width + x0 + threadIdx.x];
    __syncthreads();
    dct_pass(b, a, 0, 1);
    __syncthreads();
    dct_pass(a, b, 0, 0);
    for (int r = threadIdx.y; r < DCT_TILE; r += 8)
        coef[(size_t)(y0 + r) * width + x0 + threadIdx.x] = a[r][threadIdx.x];
}

extern "C" __global__ void dct_inverse(const float *__restrict__ coef, float *__restrict__ out, int width)
{
    __shared__ float a[DCT_TILE][DCT_TILE + 1], b[DCT_TILE][DCT_TILE + 1];
    const int x0 = blockIdx.x * DCT_TILE, y0 = blockIdx.y * DCT_TILE;
    for (int r = threadIdx.y; r < DCT_TILE; r += 8) {
        const float q = dct_q[(r & 7) * 8 + (threadIdx.x & 7)];
        const float c = coef[(size_t)(y0 + r) * width + x0 + threadIdx.x];
        a[r][threadIdx.x] = q * rintf(c / q);
    }
    __syncthreads();
    dct_pass(b, a, 1, 0);   // columns first: undo the forward order
    __syncthreads();
    dct_pass(a, b, 1, 1);
    for (int r = threadIdx.y; r < DCT_TILE; r += 8)
        out[(size_t)(y0 + r) * width + x0 + threadIdx.x] = a[r][threadIdx.x];
}
