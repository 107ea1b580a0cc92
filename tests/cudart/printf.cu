// printf.cu - device printf: formats, widths and precisions, divergent lanes (one warp prints in
// lane order, the branches in program order), printf's return value (the number of arguments),
// and the output coming out at synchronisation, after what the host printed before it.
#include <cstdio>

__global__ void fmt(const char *word, int *ret)
{
    int t = threadIdx.x;
    int r = -1;
    if (t % 3 == 0)
        r = printf("t%02d: %-6s|%5.2f|%x|%c|%lld\n", t, word, t * 0.25f, t * 17, 'a' + t, (long long)t << 40);
    if (t == 4)
        r = printf("t%d: %e %g %u %o %s %i %%\n", t, 1234.5, 0.0001, 4000000000u, 64, "lit", -t);
    if (t == 7)
        r = printf("t7: no arguments\n");
    ret[t] = r;
}

// several blocks and warps: lanes 0 and 16 of every warp
__global__ void many()
{
    if (threadIdx.x % 16 == 0)
        printf("block %d warp %d lane %d\n", blockIdx.x, threadIdx.x / 32, threadIdx.x % 32);
}

int main()
{
    char *word;
    int *ret, h[8];
    cudaMalloc(&word, 8);
    cudaMalloc(&ret, sizeof h);
    cudaMemcpy(word, "warp", 5, cudaMemcpyHostToDevice);
    fmt<<<1, 8>>>(word, ret);
    printf("host: launched\n");
    fflush(stdout);
    cudaError_t e = cudaDeviceSynchronize();
    printf("host: synchronised (%s)\n", cudaGetErrorName(e));
    cudaMemcpy(h, ret, sizeof h, cudaMemcpyDeviceToHost);
    printf("returns:");
    for (int i = 0; i < 8; i++)
        printf(" %d", h[i]);
    printf("\n");
    fflush(stdout);
    many<<<3, 64>>>();
    e = cudaDeviceSynchronize();
    printf("host: done (%s)\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
