// array.cu - CUDA arrays: cudaMallocArray (2D float, 1D int), 2D and linear copies to and from
// them, cudaArrayGetInfo, texture objects over them (point sampling, unnormalised coordinates),
// and an array created with cudaArraySurfaceLoadStore (surfaces over it: surface.cu).
#include <cstdio>

// cudaMemcpyToArray / FromArray are deprecated, and tested here on purpose
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

__global__ void read2d(cudaTextureObject_t t, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void read1d(cudaTextureObject_t t, int *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < n)
        out[x] = tex1D<int>(t, x + 0.5f);
}

int main()
{
    const int w = 37, h = 20, n = 300;
    static float in2[h][w], out2[h][w], back2[h][w];
    static int in1[n], out1[n], back1[n];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            in2[y][x] = y * 100.0f + x;
    for (int i = 0; i < n; i++)
        in1[i] = 7 * i - 50;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>(), id = cudaCreateChannelDesc<int>();
    cudaArray_t a2, a1;
    if (cudaMallocArray(&a2, &fd, w, h) != cudaSuccess || cudaMallocArray(&a1, &id, n) != cudaSuccess)
        return 2;
    cudaMemcpy2DToArray(a2, 0, 0, in2, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
    cudaMemcpyToArray(a1, 0, 0, in1, sizeof in1, cudaMemcpyHostToDevice);
    cudaChannelFormatDesc gd;
    cudaExtent ext;
    unsigned fl = 99;
    cudaArrayGetInfo(&gd, &ext, &fl, a2);
    cudaTextureObject_t t2 = 0, t1 = 0;
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a2;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaError_t c2 = cudaCreateTextureObject(&t2, &rd, &td, NULL);
    rd.res.array.array = a1;
    cudaError_t c1 = cudaCreateTextureObject(&t1, &rd, &td, NULL);
    float *d2;
    int *d1;
    cudaMalloc(&d2, sizeof out2);
    cudaMalloc(&d1, sizeof out1);
    read2d<<<dim3((w + 31) / 32, h), 32>>>(t2, d2, w, h);
    read1d<<<(n + 127) / 128, 128>>>(t1, d1, n);
    cudaMemcpy(out2, d2, sizeof out2, cudaMemcpyDeviceToHost);
    cudaMemcpy(out1, d1, sizeof out1, cudaMemcpyDeviceToHost);
    cudaMemcpy2DFromArray(back2, w * sizeof(float), a2, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost);
    cudaMemcpyFromArray(back1, a1, 0, 0, sizeof back1, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            wrong += out2[y][x] != in2[y][x] || back2[y][x] != in2[y][x];
    for (int i = 0; i < n; i++)
        wrong += out1[i] != in1[i] || back1[i] != in1[i];
    cudaArray_t s;
    cudaError_t surf = cudaMallocArray(&s, &fd, 4, 4, cudaArraySurfaceLoadStore);
    printf("arrays: %s (%d wrong), info %zux%zu x=%d flags %u, textures %s %s, surface array: %s\n",
           wrong == 0 ? "PASSED" : "FAILED", wrong, ext.width, ext.height, gd.x, fl, cudaGetErrorName(c2),
           cudaGetErrorName(c1), cudaGetErrorName(surf));
    cudaDestroyTextureObject(t2);
    cudaDestroyTextureObject(t1);
    cudaError_t f = cudaFreeArray(a2);
    cudaFreeArray(a1);
    return wrong == 0 && f == cudaSuccess && c1 == cudaSuccess && c2 == cudaSuccess ? 0 : 1;
}
