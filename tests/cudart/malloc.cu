// malloc.cu - malloc/free in kernels: blocks that outlive the launch, freed by another kernel,
// distinct and non-overlapping; the heap's size from cudaDeviceSetLimit, NULL when it is exhausted.
#include <cstdio>

__global__ void alloc(int **ptrs, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    ptrs[t] = p;
    if (p)
        for (int i = 0; i < n; i++)
            p[i] = t * 1000 + i;
}

__global__ void check_free(int **ptrs, int n, int *bad)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = ptrs[t];
    if (!p) {
        atomicAdd(bad, 1);
        return;
    }
    for (int i = 0; i < n; i++)
        if (p[i] != t * 1000 + i)
            atomicAdd(bad, 1);
    free(p);
}

__global__ void exhaust(int *got)
{
    void *p = malloc(1 << 20);
    if (p)
        atomicAdd(got, 1);
}

int main()
{
    const int threads = 96, n = 10;
    size_t heap = 0;
    cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    cudaError_t set = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20);
    size_t heap2 = 0;
    cudaDeviceGetLimit(&heap2, cudaLimitMallocHeapSize);
    printf("heap: default %zu, set to %zu (%s)\n", heap, heap2, cudaGetErrorName(set));
    int **ptrs, *bad, *got;
    cudaMalloc(&ptrs, threads * sizeof(int *));
    cudaMalloc(&bad, sizeof(int));
    cudaMalloc(&got, sizeof(int));
    cudaMemset(bad, 0, sizeof(int));
    cudaMemset(got, 0, sizeof(int));
    alloc<<<3, 32>>>(ptrs, n);
    int *h[threads];
    cudaMemcpy(h, ptrs, sizeof h, cudaMemcpyDeviceToHost);
    int overlap = 0;
    for (int i = 0; i < threads; i++)
        for (int j = 0; j < threads; j++)
            if (i != j && h[i] && h[j] && h[i] <= h[j] && h[j] < h[i] + n)
                overlap++;
    check_free<<<3, 32>>>(ptrs, n, bad);
    int nbad = -1, ngot = -1;
    cudaMemcpy(&nbad, bad, sizeof nbad, cudaMemcpyDeviceToHost);
    exhaust<<<1, 64>>>(got);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&ngot, got, sizeof ngot, cudaMemcpyDeviceToHost);
    printf("malloc/free across kernels: %s (%d wrong, %d overlapping)\n", nbad == 0 && overlap == 0 ? "PASSED" : "FAILED",
           nbad, overlap);
    printf("exhausted: %d of 64 blocks of 1 MiB from a 4 MiB heap, the rest NULL (%s)\n", ngot, cudaGetErrorName(e));
    return nbad == 0 && overlap == 0 && ngot >= 1 && ngot <= 4 && e == cudaSuccess && heap == (8u << 20) ? 0 : 1;
}
