// sad.cu - sum of absolute differences for H.264 motion estimation (the Parboil SAD application).
//
// For every 16x16 macroblock of the current frame and every search offset
// (dx, dy) in [-range, range]^2, compute the SAD between the macroblock's
// pixels and the reference frame's pixels displaced by (dx, dy), for all the
// H.264 partition shapes: sixteen 4x4 blocks, then 8x4, 4x8 and 8x8 sums,
// then 16x8, 8x16 and 16x16 sums.
//
// sad_4x4: a CTA per macroblock and slice of blockDim.x search offsets
// (blockIdx.z); the macroblock is staged in shared memory (every lane then
// reads the same byte: a broadcast) and each thread takes one search offset,
// reading the reference frame through a 2D texture
// (clamp addressing handles offsets that leave the frame).  Neighbouring
// lanes have neighbouring dx, so their texels are neighbours: 2D locality in
// the texture cache.  The absolute differences use the sad instruction.
// sad_8x8 and sad_16x16 combine the smaller SADs; offsets are the fastest
// index of every output array, so their loads and stores are coalesced.
// All outputs are 16-bit (a 16x16 SAD is at most 65280).

extern "C" __global__ void sad_4x4(const unsigned char *__restrict__ cur, int width, cudaTextureObject_t ref,
                                   int range, unsigned short *__restrict__ sad4)
{
    __shared__ unsigned char s_mb[256];
    const int mbx = blockIdx.x, mby = blockIdx.y;
    const int mb = mby * gridDim.x + mbx;
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        s_mb[i] = cur[(mby * 16 + (i >> 4)) * width + mbx * 16 + (i & 15)];
    __syncthreads();

    const int side = 2 * range + 1, npos = side * side;
    const int pos = blockIdx.z * blockDim.x + threadIdx.x;
    if (pos < npos) {
        const int x0 = mbx * 16 + pos % side - range;
        const int y0 = mby * 16 + pos / side - range;
        for (int by = 0; by < 4; by++) {
            unsigned acc[4] = {0u, 0u, 0u, 0u};
            // one row of 16 texels per iteration: unrolling the rows too would
            // make the loop body larger than the 2 KB instruction cache
#pragma unroll 1
            for (int y = 0; y < 4; y++) {
                const int row = by * 4 + y;
                const float fy = (float)(y0 + row);
#pragma unroll
                for (int x = 0; x < 16; x++) {
                    const unsigned r = tex2D<unsigned char>(ref, (float)(x0 + x), fy);
                    acc[x >> 2] = __usad(r, s_mb[row * 16 + x], acc[x >> 2]);
                }
            }
#pragma unroll
            for (int bx = 0; bx < 4; bx++)
                sad4[(size_t)(mb * 16 + by * 4 + bx) * npos + pos] = (unsigned short)acc[bx];
        }
    }
}

// sad8 per macroblock: 8 8x4 (row-major over 4 rows x 2), 8 4x8 (2 rows x 4), 4 8x8 (2 x 2)
extern "C" __global__ void sad_8x8(const unsigned short *__restrict__ sad4, int npos,
                                   unsigned short *__restrict__ sad8)
{
    const int mb = blockIdx.y;
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < npos; pos += gridDim.x * blockDim.x) {
        unsigned v[16];
#pragma unroll
        for (int b = 0; b < 16; b++)
            v[b] = sad4[(size_t)(mb * 16 + b) * npos + pos];
        unsigned short *out = sad8 + (size_t)mb * 20 * npos + pos;
#pragma unroll
        for (int by = 0; by < 4; by++)
#pragma unroll
            for (int h = 0; h < 2; h++)
                out[(size_t)(by * 2 + h) * npos] = (unsigned short)(v[by * 4 + 2 * h] + v[by * 4 + 2 * h + 1]);
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int bx = 0; bx < 4; bx++)
                out[(size_t)(8 + h * 4 + bx) * npos] = (unsigned short)(v[8 * h + bx] + v[8 * h + 4 + bx]);
#pragma unroll
        for (int qy = 0; qy < 2; qy++)
#pragma unroll
            for (int qx = 0; qx < 2; qx++) {
                const int b = qy * 8 + qx * 2;
                out[(size_t)(16 + qy * 2 + qx) * npos] = (unsigned short)(v[b] + v[b + 1] + v[b + 4] + v[b + 5]);
            }
    }
}

// sad16 per macroblock: 2 16x8 (top, bottom), 2 8x16 (left, right), 1 16x16
extern "C" __global__ void sad_16x16(const unsigned short *__restrict__ sad8, int npos,
                                     unsigned short *__restrict__ sad16)
{
    const int mb = blockIdx.y;
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < npos; pos += gridDim.x * blockDim.x) {
        const unsigned short *q = sad8 + (size_t)(mb * 20 + 16) * npos + pos;
        const unsigned q00 = q[0], q01 = q[npos], q10 = q[2 * (size_t)npos], q11 = q[3 * (size_t)npos];
        unsigned short *out = sad16 + (size_t)mb * 5 * npos + pos;
        out[0] = (unsigned short)(q00 + q01);
        out[npos] = (unsigned short)(q10 + q11);
        out[2 * (size_t)npos] = (unsigned short)(q00 + q10);
        out[3 * (size_t)npos] = (unsigned short)(q01 + q11);
        out[4 * (size_t)npos] = (unsigned short)(q00 + q01 + q10 + q11);
    }
}
