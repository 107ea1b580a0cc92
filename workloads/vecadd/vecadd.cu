// vecadd.cu - c[i] = a[i] + b[i] over floats.
//
// The simplest sanity workload: a grid-stride loop, so every thread handles
// several elements and the last pass leaves the tail warps partly inactive
// when n is not a multiple of the grid size.

extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}
