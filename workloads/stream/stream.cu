// stream.cu - STREAM-style triad for DRAM bandwidth: a[i] = b[i] + s * c[i].
//
// Every thread moves whole float4s (16 bytes), so a warp's load or store is
// one fully coalesced 512-byte access: four 128-byte lines, no partial lines.
// A grid-stride loop lets a fixed grid that fills the GPU sweep arrays far
// larger than the L2, so nearly every byte comes from / goes to DRAM.  The
// fused multiply-add is written explicitly so the CPU reference (fmaf) is
// bit-identical.

extern "C" __global__ void stream_triad(float4 *a, const float4 *b, const float4 *c, float s, int n4)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 x = b[i], y = c[i], r;
        r.x = __fmaf_rn(s, y.x, x.x);
        r.y = __fmaf_rn(s, y.y, x.y);
        r.z = __fmaf_rn(s, y.z, x.z);
        r.w = __fmaf_rn(s, y.w, x.w);
        a[i] = r;
    }
}
