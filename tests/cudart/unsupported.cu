// unsupported.cu - a call warpsim does not provide fails with cudaErrorNotSupported and a stderr
// line naming it; the program goes on and its kernels still run.
#include <cstdio>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }

int main()
{
    cudaGraph_t g;
    cudaError_t e = cudaGraphCreate(&g, 0);
    printf("cudaGraphCreate -> %s\n", cudaGetErrorName(e));
    cudaError_t last = cudaGetLastError();
    printf("cudaGetLastError -> %s, then %s\n", cudaGetErrorName(last), cudaGetErrorName(cudaGetLastError()));
    int *d, h[32];
    if (cudaMalloc(&d, sizeof h) != cudaSuccess)
        return 1;
    fill<<<1, 32>>>(d, 100);
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    int ok = 1;
    for (int i = 0; i < 32; i++)
        ok &= h[i] == 100 + i;
    printf("kernel after the unsupported call: %s\n", ok ? "PASSED" : "FAILED");
    return e == cudaErrorNotSupported && ok ? 0 : 1;
}
