// pitch.cu - pitched 2D memory (cudaMallocPitch, cudaMemcpy2D both ways, cudaMemset2D), a kernel that
// walks the rows by the pitch, and the occupancy calculator (also through CUDA's own
// cudaOccupancyMaxPotentialBlockSize template).
#include <cstdio>

__global__ void add_rows(float *m, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)m + y * pitch);
        row[x] += (float)y;
    }
}

int main()
{
    const int w = 100, h = 37;
    static float host[h][w], back[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            host[y][x] = (float)x;
    float *d;
    size_t pitch = 0;
    if (cudaMallocPitch((void **)&d, &pitch, w * sizeof(float), h) != cudaSuccess)
        return 2;
    cudaMemset2D(d, pitch, 0xff, pitch, h);
    cudaMemcpy2D(d, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
    add_rows<<<dim3((w + 63) / 64, h), 64>>>(d, pitch, w, h);
    cudaError_t e = cudaMemcpy2D(back, w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            bad += back[y][x] != (float)(x + y);
    cudaError_t pe = cudaMemcpy2D(d, 16, host, 16, 32, 2, cudaMemcpyHostToDevice);   // width > pitch
    int blocks = 0, min_grid = 0, best = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_rows, 256, 0);
    cudaError_t oe = cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, add_rows, 0, 0);
    printf("pitch %s (multiple of 256: %s), 2D copies %s (%d wrong), bad pitch: %s\n", pitch >= w * sizeof(float) ? "ok" : "SHORT",
           pitch % 256 == 0 ? "yes" : "no", e == cudaSuccess && !bad ? "PASSED" : "FAILED", bad, cudaGetErrorName(pe));
    printf("occupancy: %d blocks of 256 per SM, potential block size %d, min grid %d (%s)\n", blocks, best, min_grid,
           cudaGetErrorName(oe));
    cudaFree(d);
    return bad || e != cudaSuccess || oe != cudaSuccess ? 1 : 0;
}
