// vecadd.cu - an ordinary CUDA program for warpsim's CUDA runtime library (tests/cudart/run.sh):
// device properties, cudaMalloc/cudaMemcpy/cudaMemset, pinned host memory, a stream with async
// copies, events around the kernel (simulated time), the <<<>>> launch and cudaLaunchKernel.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            printf("FAILED %s: %s (%s)\n", #call, cudaGetErrorName(e_), cudaGetErrorString(e_)); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void scale(float *c, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] *= s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000;
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("devices %d, SMs %d (attribute %d), warp %d\n", count, prop.multiProcessorCount, sms, prop.warpSize);

    size_t bytes = n * sizeof(float);
    float *ha, *hb, *hc;
    CHECK(cudaMallocHost((void **)&ha, bytes));
    CHECK(cudaHostAlloc((void **)&hb, bytes, cudaHostAllocDefault));
    hc = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        ha[i] = (float)i;
        hb[i] = 2.0f * (float)(n - i);
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemset(dc, 0, bytes));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpyAsync(da, ha, bytes, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyDefault));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, s));
    vadd<<<(n + 127) / 128, 128, 0, s>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    float two = 2.0f;
    void *args[] = {&dc, &two, &n};
    CHECK(cudaLaunchKernel((const void *)scale, dim3(4), dim3(64), args, 0, s));
    CHECK(cudaEventRecord(stop, s));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpyAsync(hc, dc, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (hc[i] != 2.0f * (ha[i] + hb[i]))
            bad++;
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, vadd));
    CHECK(cudaFuncSetCacheConfig(vadd, cudaFuncCachePreferL1));
    printf("vecadd n=%d: %s (%d wrong), kernel time %s\n", n, bad ? "FAILED" : "PASSED", bad,
           ms > 0 ? "positive" : "zero");
    printf("elapsed_ms = %.6f\n", ms);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFreeHost(ha));
    CHECK(cudaFreeHost(hb));
    free(hc);
    CHECK(cudaDeviceSynchronize());
    return bad ? 1 : 0;
}
