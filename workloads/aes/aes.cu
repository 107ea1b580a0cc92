// aes.cu - AES-128 encryption in ECB mode with T-tables (001's AES application).
//
// One thread encrypts one 16-byte block.  The state is four 32-bit columns
// (byte r of column c = state row r, little-endian, as the bytes lie in
// memory).  A full round is, per output column c,
//     t_c = T0[s_c.b0] ^ T1[s_(c+1).b1] ^ T2[s_(c+2).b2] ^ T3[s_(c+3).b3] ^ rk
// (SubBytes, ShiftRows and MixColumns folded into four 256-entry tables; T1-T3
// are byte rotations of T0).  The host supplies T0, the S-box and the
// expanded key in constant memory; every CTA first builds T0-T3 and the
// S-box in shared memory, where the data-dependent lookups of a warp spread
// over the banks (conflicts when lanes pick different words of one bank).
// The round keys stay in constant memory: every lane reads the same word, a
// broadcast.  The last round (no MixColumns) uses the S-box bytes.

__constant__ unsigned aes_te0[256];
__constant__ unsigned char aes_sbox[256];
__constant__ unsigned aes_rk[44];

__device__ __forceinline__ unsigned aes_rotl8(unsigned x) { return (x << 8) | (x >> 24); }

extern "C" __global__ void aes_encrypt_ecb(const uint4 *__restrict__ in, uint4 *__restrict__ out, int n_blocks)
{
    __shared__ unsigned t0[256], t1[256], t2[256], t3[256];
    __shared__ unsigned char sbox[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        const unsigned v = aes_te0[i];
        t0[i] = v;
        t1[i] = aes_rotl8(v);
        t2[i] = aes_rotl8(aes_rotl8(v));
        t3[i] = aes_rotl8(aes_rotl8(aes_rotl8(v)));
        sbox[i] = aes_sbox[i];
    }
    __syncthreads();

    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= n_blocks)
        return;
    const uint4 pt = in[b];
    unsigned s0 = pt.x ^ aes_rk[0], s1 = pt.y ^ aes_rk[1], s2 = pt.z ^ aes_rk[2], s3 = pt.w ^ aes_rk[3];
    for (int round = 1; round < 10; round++) {
        const unsigned *rk = aes_rk + 4 * round;
        const unsigned u0 = t0[s0 & 0xff] ^ t1[(s1 >> 8) & 0xff] ^ t2[(s2 >> 16) & 0xff] ^ t3[s3 >> 24] ^ rk[0];
        const unsigned u1 = t0[s1 & 0xff] ^ t1[(s2 >> 8) & 0xff] ^ t2[(s3 >> 16) & 0xff] ^ t3[s0 >> 24] ^ rk[1];
        const unsigned u2 = t0[s2 & 0xff] ^ t1[(s3 >> 8) & 0xff] ^ t2[(s0 >> 16) & 0xff] ^ t3[s1 >> 24] ^ rk[2];
        const unsigned u3 = t0[s3 & 0xff] ^ t1[(s0 >> 8) & 0xff] ^ t2[(s1 >> 16) & 0xff] ^ t3[s2 >> 24] ^ rk[3];
        s0 = u0;
        s1 = u1;
        s2 = u2;
        s3 = u3;
    }
    // last round: SubBytes and ShiftRows only
    uint4 ct;
    ct.x = ((unsigned)sbox[s0 & 0xff] | (unsigned)sbox[(s1 >> 8) & 0xff] << 8 |
            (unsigned)sbox[(s2 >> 16) & 0xff] << 16 | (unsigned)sbox[s3 >> 24] << 24) ^ aes_rk[40];
    ct.y = ((unsigned)sbox[s1 & 0xff] | (unsigned)sbox[(s2 >> 8) & 0xff] << 8 |
            (unsigned)sbox[(s3 >> 16) & 0xff] << 16 | (unsigned)sbox[s0 >> 24] << 24) ^ aes_rk[41];
    ct.z = ((unsigned)sbox[s2 & 0xff] | (unsigned)sbox[(s3 >> 8) & 0xff] << 8 |
            (unsigned)sbox[(s0 >> 16) & 0xff] << 16 | (unsigned)sbox[s1 >> 24] << 24) ^ aes_rk[42];
    ct.w = ((unsigned)sbox[s3 & 0xff] | (unsigned)sbox[(s0 >> 8) & 0xff] << 8 |
            (unsigned)sbox[(s1 >> 16) & 0xff] << 16 | (unsigned)sbox[s2 >> 24] << 24) ^ aes_rk[43];
    out[b] = ct;
}
