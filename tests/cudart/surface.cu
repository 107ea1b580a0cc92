// surface.cu - surface objects over CUDA arrays (cudaArraySurfaceLoadStore): a 2D float surface
// written by one kernel (surf2Dwrite) and read by another (surf2Dread), checked on the host both
// through the reading kernel and by copying the array back; a 1D int surface read and written in
// place (surf1Dread / surf1Dwrite), its clamp and zero boundary modes; last, an out-of-range
// write in the default trap mode, which stops the kernel like the memory checker.
#include <cstdio>

__global__ void write2d(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h)
        surf2Dwrite(y * 1000.0f + x, s, x * (int)sizeof(float), y);
}

__global__ void read2d(cudaSurfaceObject_t s, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float v;
        surf2Dread(&v, s, x * (int)sizeof(float), y);
        out[y * w + x] = v + 0.5f;
    }
}

__global__ void update1d(cudaSurfaceObject_t s, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < n) {
        int v = surf1Dread<int>(s, x * 4);
        surf1Dwrite(2 * v + 1, s, x * 4);
    }
}

// one thread: reads below and past the ends in clamp and zero modes, a dropped and a clamped write
__global__ void edges1d(cudaSurfaceObject_t s, int n, int *out)
{
    out[0] = surf1Dread<int>(s, -8, cudaBoundaryModeClamp);
    out[1] = surf1Dread<int>(s, (n + 5) * 4, cudaBoundaryModeClamp);
    out[2] = surf1Dread<int>(s, (n + 5) * 4, cudaBoundaryModeZero);
    out[3] = surf1Dread<int>(s, -4, cudaBoundaryModeZero);
    surf1Dwrite(12345, s, (n + 10) * 4, cudaBoundaryModeZero);
    surf1Dwrite(777, s, (n + 3) * 4, cudaBoundaryModeClamp);
}

__global__ void write_past(cudaSurfaceObject_t s, int w)
{
    surf2Dwrite(1.0f, s, (w + (int)threadIdx.x) * (int)sizeof(float), 0);
}

int main()
{
    const int w = 45, h = 19, n = 100;
    static float out2[h][w], back2[h][w];
    static int in1[n], back1[n];
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>(), id = cudaCreateChannelDesc<int>();
    cudaArray_t a2, a1;
    if (cudaMallocArray(&a2, &fd, w, h, cudaArraySurfaceLoadStore) != cudaSuccess ||
        cudaMallocArray(&a1, &id, n, 0, cudaArraySurfaceLoadStore) != cudaSuccess)
        return 2;
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a2;
    cudaSurfaceObject_t s2 = 0, s1 = 0;
    if (cudaCreateSurfaceObject(&s2, &rd) != cudaSuccess)
        return 3;
    rd.res.array.array = a1;
    if (cudaCreateSurfaceObject(&s1, &rd) != cudaSuccess)
        return 4;

    // 2D
    float *d2;
    cudaMalloc(&d2, sizeof out2);
    write2d<<<dim3((w + 31) / 32, h), 32>>>(s2, w, h);
    read2d<<<dim3((w + 15) / 16, h), 16>>>(s2, d2, w, h);
    cudaMemcpy(out2, d2, sizeof out2, cudaMemcpyDeviceToHost);
    cudaMemcpy2DFromArray(back2, w * sizeof(float), a2, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost);
    int wrong2 = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            wrong2 += out2[y][x] != y * 1000.0f + x + 0.5f || back2[y][x] != y * 1000.0f + x;
    printf("surface 2D %dx%d: %s (%d wrong)\n", w, h, wrong2 ? "FAILED" : "PASSED", wrong2);

    // 1D
    for (int i = 0; i < n; i++)
        in1[i] = 3 * i - 40;
    cudaMemcpy2DToArray(a1, 0, 0, in1, sizeof in1, sizeof in1, 1, cudaMemcpyHostToDevice);
    update1d<<<(n + 63) / 64, 64>>>(s1, n);
    int *dout, edge[4];
    cudaMalloc(&dout, sizeof edge);
    edges1d<<<1, 1>>>(s1, n, dout);
    cudaMemcpy(edge, dout, sizeof edge, cudaMemcpyDeviceToHost);
    cudaMemcpy2DFromArray(back1, sizeof back1, a1, 0, 0, sizeof back1, 1, cudaMemcpyDeviceToHost);
    int wrong1 = 0;
    for (int i = 0; i < n - 1; i++)
        wrong1 += back1[i] != 2 * in1[i] + 1;
    bool edges_ok = edge[0] == 2 * in1[0] + 1 && edge[1] == 2 * in1[n - 1] + 1 && edge[2] == 0 && edge[3] == 0 &&
                    back1[n - 1] == 777;
    printf("surface 1D %d: %s (%d wrong), clamp/zero %s\n", n, wrong1 ? "FAILED" : "PASSED", wrong1,
           edges_ok ? "PASSED" : "FAILED");
    if (!edges_ok)
        printf("edges: %d %d %d %d last %d\n", edge[0], edge[1], edge[2], edge[3], back1[n - 1]);

    cudaError_t d1 = cudaDestroySurfaceObject(s1);
    // trap mode (the default): a write past the right edge is an illegal address, and sticks
    write_past<<<1, 32>>>(s2, w);
    cudaError_t trap = cudaDeviceSynchronize();
    printf("surface trap: %s\n", cudaGetErrorName(trap));
    return wrong2 == 0 && wrong1 == 0 && edges_ok && d1 == cudaSuccess && trap == cudaErrorIllegalAddress ? 0 : 1;
}
