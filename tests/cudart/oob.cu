// oob.cu - an out-of-bounds store: warpsim's memory checker stops the kernel, the error is
// cudaErrorIllegalAddress at the next synchronisation and sticks, as on a GPU; a launch with a bad
// configuration fails with cudaErrorInvalidConfiguration without poisoning the context.
#include <cstdio>

__global__ void write_past(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i + n] = i;   // every thread writes past the end
}

__global__ void ok(int *p) { p[threadIdx.x] = 1; }

int main()
{
    int *d;
    if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess)
        return 2;
    ok<<<1, 2048>>>(d);   // more than 1024 threads per block
    cudaError_t cfg = cudaGetLastError();
    cudaError_t after_cfg = cudaDeviceSynchronize();
    printf("bad configuration: %s, then %s\n", cudaGetErrorName(cfg), cudaGetErrorName(after_cfg));
    write_past<<<2, 64>>>(d, 64);
    cudaError_t sync = cudaDeviceSynchronize();
    cudaError_t again = cudaMemset(d, 0, 4);
    printf("out of bounds: %s, then %s\n", cudaGetErrorName(sync), cudaGetErrorName(again));
    return cfg == cudaErrorInvalidConfiguration && after_cfg == cudaSuccess && sync == cudaErrorIllegalAddress &&
                   again == cudaErrorIllegalAddress
               ? 0
               : 1;
}
