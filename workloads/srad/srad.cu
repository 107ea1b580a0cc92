// srad.cu - speckle reducing anisotropic diffusion (Rodinia "srad" style).
//
// J = exp(image / 255) (srad_extract), then per iteration, with q0sqr (the
// speckle scale, from ROI statistics computed by the host):
//   srad_diffusion: one 16x16 tile per CTA with a one-pixel halo in shared
//     memory (clamped at the image border); per pixel the four directional
//     differences, the normalised gradient and Laplacian, the instantaneous
//     coefficient of variation q^2 and the diffusion coefficient
//     c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), clamped to [0, 1].
//   srad_update: divergence of c * gradient, using c of this pixel (north and
//     west faces) and of the south and east neighbours (shared-memory tile
//     with a south/east halo), J += lambda/4 * divergence.
// Finally out = 255 * log(J) (srad_compress).
// Image sizes are multiples of SR_TILE; row-major, rows x cols.

#define SR_TILE 16

extern "C" __global__ void srad_extract(const float *img, float *J, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        J[i] = expf(img[i] / 255.0f);
}

extern "C" __global__ void srad_diffusion(const float *J, float *dN, float *dS, float *dW, float *dE, float *C,
                                          int rows, int cols, float q0sqr)
{
    __shared__ float tile[SR_TILE + 2][SR_TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * SR_TILE + ty;
    int c = blockIdx.x * SR_TILE + tx;
    int idx = r * cols + c;

    tile[ty + 1][tx + 1] = J[idx];
    // halo: edge threads fetch the neighbouring row/column, clamped to the image
    if (ty == 0)
        tile[0][tx + 1] = J[(r > 0 ? r - 1 : r) * cols + c];
    if (ty == SR_TILE - 1)
        tile[SR_TILE + 1][tx + 1] = J[(r < rows - 1 ? r + 1 : r) * cols + c];
    if (tx == 0)
        tile[ty + 1][0] = J[r * cols + (c > 0 ? c - 1 : c)];
    if (tx == SR_TILE - 1)
        tile[ty + 1][SR_TILE + 1] = J[r * cols + (c < cols - 1 ? c + 1 : c)];
    __syncthreads();

    float jc = tile[ty + 1][tx + 1];
    float n = tile[ty][tx + 1] - jc;
    float s = tile[ty + 2][tx + 1] - jc;
    float w = tile[ty + 1][tx] - jc;
    float e = tile[ty + 1][tx + 2] - jc;

    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float coef = 1.0f / (1.0f + den);
    if (coef < 0.0f)
        coef = 0.0f;
    else if (coef > 1.0f)
        coef = 1.0f;

    dN[idx] = n;
    dS[idx] = s;
    dW[idx] = w;
    dE[idx] = e;
    C[idx] = coef;
}

extern "C" __global__ void srad_update(float *J, const float *dN, const float *dS, const float *dW, const float *dE,
                                       const float *C, int rows, int cols, float lambda)
{
    __shared__ float ct[SR_TILE + 1][SR_TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * SR_TILE + ty;
    int c = blockIdx.x * SR_TILE + tx;
    int idx = r * cols + c;

    ct[ty][tx] = C[idx];
    if (ty == SR_TILE - 1)
        ct[SR_TILE][tx] = C[(r < rows - 1 ? r + 1 : r) * cols + c];
    if (tx == SR_TILE - 1)
        ct[ty][SR_TILE] = C[r * cols + (c < cols - 1 ? c + 1 : c)];
    __syncthreads();

    float cn = ct[ty][tx];
    float cs = ct[ty + 1][tx];
    float cw = ct[ty][tx];
    float ce = ct[ty][tx + 1];
    float div = cn * dN[idx] + cs * dS[idx] + cw * dW[idx] + ce * dE[idx];
    J[idx] = J[idx] + 0.25f * lambda * div;
}

extern "C" __global__ void srad_compress(const float *J, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = logf(J[i]) * 255.0f;
}
