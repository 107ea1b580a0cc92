// tex.cu - texture objects over linear memory (tex1Dfetch) and pitched 2D memory (tex2D, point
// sampling at unnormalised coordinates), and a refused descriptor (linear filtering).
#include <cstdio>

__global__ void fetch1d(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, i) * 2.0f;
}

__global__ void fetch2d(cudaTextureObject_t t, int *out, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h)
        out[y * w + x] = tex2D<int>(t, x + 0.5f, y + 0.5f);
}

int main()
{
    const int n = 300, w = 40, h = 9;
    float hin[n], hout[n];
    for (int i = 0; i < n; i++)
        hin[i] = 0.25f * (float)i;
    float *din, *dout;
    cudaMalloc(&din, sizeof hin);
    cudaMalloc(&dout, sizeof hout);
    cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = din;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = sizeof hin;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t1 = 0;
    cudaError_t e1 = cudaCreateTextureObject(&t1, &rd, &td, nullptr);
    fetch1d<<<(n + 127) / 128, 128>>>(t1, dout, n);
    cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
    int bad1 = 0;
    for (int i = 0; i < n; i++)
        bad1 += hout[i] != 0.5f * (float)i;

    static int img[h][w], back[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img[y][x] = 1000 * y + x;
    int *dimg, *d2;
    size_t pitch;
    cudaMallocPitch((void **)&dimg, &pitch, w * sizeof(int), h);
    cudaMemcpy2D(dimg, pitch, img, w * sizeof(int), w * sizeof(int), h, cudaMemcpyHostToDevice);
    cudaMalloc(&d2, sizeof back);
    cudaResourceDesc rd2 = {};
    rd2.resType = cudaResourceTypePitch2D;
    rd2.res.pitch2D.devPtr = dimg;
    rd2.res.pitch2D.desc = cudaCreateChannelDesc<int>();
    rd2.res.pitch2D.width = w;
    rd2.res.pitch2D.height = h;
    rd2.res.pitch2D.pitchInBytes = pitch;
    cudaTextureObject_t t2 = 0;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    cudaError_t e2 = cudaCreateTextureObject(&t2, &rd2, &td, nullptr);
    fetch2d<<<h, w>>>(t2, d2, w, h);
    cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost);
    int bad2 = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            bad2 += back[y][x] != img[y][x];

    cudaTextureObject_t t3 = 0;
    td.filterMode = cudaFilterModeLinear;
    cudaError_t e3 = cudaCreateTextureObject(&t3, &rd, &td, nullptr);
    cudaGetLastError();
    printf("tex1Dfetch %s (%d wrong), tex2D %s (%d wrong), linear filtering: %s\n",
           e1 == cudaSuccess && !bad1 ? "PASSED" : "FAILED", bad1, e2 == cudaSuccess && !bad2 ? "PASSED" : "FAILED",
           bad2, cudaGetErrorName(e3));
    cudaDestroyTextureObject(t1);
    cudaDestroyTextureObject(t2);
    return bad1 || bad2 || e1 || e2 || e3 != cudaErrorNotSupported ? 1 : 0;
}
