// assert.cu - assert in a kernel: every failing thread prints the device's message on stderr, the
// kernel stops, the next synchronisation returns cudaErrorAssert (710) and so does every later call.
#include <cassert>
#include <cstdio>

__global__ void check(const int *v, int n)
{
    int i = threadIdx.x;
    assert(v[i] < n);
}

int main()
{
    int *v, h[8];
    for (int i = 0; i < 8; i++)
        h[i] = i;
    cudaMalloc(&v, sizeof h);
    cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
    check<<<1, 8>>>(v, 8);   // passes
    cudaError_t ok = cudaDeviceSynchronize();
    check<<<1, 8>>>(v, 6);   // threads 6 and 7 fail
    cudaError_t sync = cudaDeviceSynchronize();
    int *x;
    cudaError_t again = cudaMalloc(&x, 4);
    printf("passing assert: %s; failing assert: %s (%d), then %s\n", cudaGetErrorName(ok), cudaGetErrorName(sync),
           (int)sync, cudaGetErrorName(again));
    return ok == cudaSuccess && sync == cudaErrorAssert && again == cudaErrorAssert ? 0 : 1;
}
