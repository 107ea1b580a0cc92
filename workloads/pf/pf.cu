// pf.cu - one frame of a particle filter tracking a bright disk in a video
// (the Rodinia particlefilter float structure, written from scratch).  The
// host generates the video and every random number and launches, per frame:
//
//   pf_likelihood  per particle: move by the motion model plus host-made
//                  Gaussian noise, then gather the disk of pixels around the
//                  rounded position from the video (frame index fastest, as in
//                  Rodinia: a data-dependent gather with a stride of nfr
//                  bytes), score them, weight *= exp(likelihood), and a
//                  shared-memory tree sums the CTA's weights;
//   pf_sum         one CTA adds the per-CTA sums;
//   pf_normalize   one CTA divides the weights by the sum and builds their
//                  cumulative distribution with a chunked shared-memory scan
//                  (the serial bottleneck of the algorithm, as in Rodinia);
//   pf_find_index  systematic resampling: particle i takes the position of the
//                  first particle whose CDF reaches u1 + i/n, found by a linear
//                  search (data-dependent trip counts: divergence), and the
//                  weights are reset to 1/n.

#define PF_BLOCK 128
#define PF_SCAN 512

extern "C" __global__ void pf_likelihood(float *ax, float *ay, float *w, const float *randx, const float *randy,
                                         const unsigned char *video, const int *disk, int ndisk, int iszx, int iszy,
                                         int nfr, int frame, int n, float *partial)
{
    __shared__ float sums[PF_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * PF_BLOCK + tid;
    float wi = 0.0f;
    if (i < n) {
        // motion model: +1 in x, -2 in y per frame, plus noise
        float x = __fmaf_rn(5.0f, randx[i], ax[i] + 1.0f);
        float y = __fmaf_rn(2.0f, randy[i], ay[i] - 2.0f);
        ax[i] = x;
        ay[i] = y;
        int cx = (int)rintf(x), cy = (int)rintf(y);
        int max_ind = iszx * iszy * nfr;
        float lik = 0.0f;
        for (int j = 0; j < ndisk; j++) {
            int ind = abs(((cx + disk[2 * j + 1]) * iszy + cy + disk[2 * j]) * nfr + frame);
            if (ind >= max_ind)
                ind = 0;
            float v = (float)video[ind];
            float a = v - 100.0f, b = v - 228.0f;
            // log-likelihood ratio object (228) vs background (100), noise sigma 25
            lik += (a * a - b * b) / 1250.0f;
        }
        lik = lik / (float)ndisk;
        wi = w[i] * expf(lik);
        w[i] = wi;
    }
    sums[tid] = wi;
    for (int half = PF_BLOCK / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (tid < half)
            sums[tid] += sums[tid + half];
    }
    if (tid == 0)
        partial[blockIdx.x] = sums[0];
}

extern "C" __global__ void pf_sum(const float *partial, int nparts, float *total)
{
    __shared__ float sums[PF_SCAN];
    int tid = threadIdx.x;
    float s = 0.0f;
    for (int k = tid; k < nparts; k += PF_SCAN)
        s += partial[k];
    sums[tid] = s;
    for (int half = PF_SCAN / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (tid < half)
            sums[tid] += sums[tid + half];
    }
    if (tid == 0)
        total[0] = sums[0];
}

extern "C" __global__ void pf_normalize(float *w, float *cdf, const float *total, int n)
{
    __shared__ float buf[2][PF_SCAN];
    __shared__ float carry;
    int tid = threadIdx.x;
    float sum = total[0];
    if (tid == 0)
        carry = 0.0f;
    for (int base = 0; base < n; base += PF_SCAN) {
        int i = base + tid;
        float v = 0.0f;
        if (i < n) {
            v = w[i] / sum;
            w[i] = v;
        }
        // Hillis-Steele inclusive scan, ping-ponging between two buffers
        int cur = 0;
        buf[0][tid] = v;
        for (int off = 1; off < PF_SCAN; off <<= 1) {
            __syncthreads();
            float s = buf[cur][tid];
            if (tid >= off)
                s += buf[cur][tid - off];
            buf[cur ^ 1][tid] = s;
            cur ^= 1;
        }
        __syncthreads();
        if (i < n)
            cdf[i] = carry + buf[cur][tid];
        __syncthreads();   // everyone has read carry
        if (tid == 0)
            carry += buf[cur][PF_SCAN - 1];
    }
}

extern "C" __global__ void pf_find_index(const float *ax, const float *ay, const float *cdf, float u1, int n,
                                         float *nx, float *ny, float *w)
{
    int i = blockIdx.x * PF_BLOCK + threadIdx.x;
    if (i >= n)
        return;
    float u = u1 + (float)i / (float)n;
    int idx = n - 1;   // rounding can leave the last CDF value just below u
    for (int j = 0; j < n; j++)
        if (cdf[j] >= u) {
            idx = j;
            break;
        }
    nx[i] = ax[idx];
    ny[i] = ay[idx];
    w[i] = 1.0f / (float)n;
}
