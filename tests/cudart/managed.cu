// managed.cu - managed memory: cudaMallocManaged and __managed__ variables read and written by the
// host and by kernels through the same pointers; cudaPointerGetAttributes, the managed-memory
// attribute, prefetch (accepted), the limits of the printf FIFO and the heap; mapped host memory
// (cudaHostAllocMapped, cudaHostGetDevicePointer) written by a kernel.
#include <cstdio>

__managed__ int counter = 5;
__managed__ float table[4] = {1, 2, 3, 4};

__global__ void twice_plus(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * 2 + counter;
    if (i == 0) {
        counter += 1;
        table[0] = table[3] * 10;
    }
}

__global__ void fill(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 3 * i;
}

int main()
{
    const int n = 1000;
    int *data;
    if (cudaMallocManaged(&data, n * sizeof(int)) != cudaSuccess)
        return 2;
    for (int i = 0; i < n; i++)
        data[i] = i;
    printf("counter starts at %d, table[3] = %g\n", counter, table[3]);
    counter = 7;
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    cudaError_t pf = cudaMemPrefetchAsync(data, n * sizeof(int), loc, 0, 0);
    twice_plus<<<(n + 127) / 128, 128>>>(data, n);
    cudaError_t e = cudaDeviceSynchronize();
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += data[i] != 2 * i + 7;
    // a managed buffer as the source of an ordinary copy
    int *dev, back[4];
    cudaMalloc(&dev, sizeof back);
    cudaError_t cp = cudaMemcpy(dev, data + 10, sizeof back, cudaMemcpyDefault);
    cudaMemcpy(back, dev, sizeof back, cudaMemcpyDeviceToHost);
    cudaPointerAttributes a;
    cudaPointerGetAttributes(&a, data);
    int attr = -1;
    cudaDeviceGetAttribute(&attr, cudaDevAttrManagedMemory, 0);
    size_t fifo = 0, heap = 0;
    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
    cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    int ok = e == cudaSuccess && wrong == 0 && counter == 8 && table[0] == 40.0f && back[0] == 27 && cp == cudaSuccess &&
             a.type == cudaMemoryTypeManaged && attr == 1 && pf == cudaSuccess;
    printf("managed %s (%d wrong), counter %d, table[0] %g, copy %d, pointer type %d, attribute %d\n",
           ok ? "PASSED" : "FAILED", wrong, counter, table[0], back[0], (int)a.type, attr);
    printf("limits: printf FIFO %zu, heap %zu\n", fifo, heap);
    cudaError_t fr = cudaFree(data);
    printf("cudaFree(managed): %s\n", cudaGetErrorName(fr));
    // mapped host memory: the kernel writes it through the device pointer, the host reads it
    int *h = NULL, *hd = NULL;
    cudaError_t ha = cudaHostAlloc(&h, 256 * sizeof(int), cudaHostAllocMapped);
    cudaError_t gd = cudaHostGetDevicePointer((void **)&hd, h, 0);
    fill<<<2, 128>>>(hd, 256);
    cudaDeviceSynchronize();
    int mwrong = 0;
    for (int i = 0; ha == cudaSuccess && i < 256; i++)
        mwrong += h[i] != 3 * i;
    cudaError_t fh = cudaFreeHost(h);
    printf("mapped host memory: %s (%d wrong; %s %s %s)\n", mwrong == 0 && ha == cudaSuccess && gd == cudaSuccess &&
           fh == cudaSuccess ? "PASSED" : "FAILED", mwrong, cudaGetErrorName(ha), cudaGetErrorName(gd),
           cudaGetErrorName(fh));
    return ok && fr == cudaSuccess && mwrong == 0 && fh == cudaSuccess ? 0 : 1;
}
