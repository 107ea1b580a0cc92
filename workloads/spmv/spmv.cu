// spmv.cu - y = A * x for a sparse matrix in CSR form, one thread per row
// ("scalar CSR", as in SHOC / Bell & Garland, written from scratch).
//
// Row lengths are skewed, so lanes of a warp run very different trip counts
// (loop divergence), and x[cols[j]] is a data-dependent gather.

extern "C" __global__ void spmv_csr_scalar(int nrows, const int *rowptr, const int *cols, const float *vals,
                                           const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows)
        return;
    int end = rowptr[row + 1];
    float sum = 0.0f;
    for (int j = rowptr[row]; j < end; j++)
        sum = __fmaf_rn(vals[j], x[cols[j]], sum);   // same rounding as the host's fmaf
    y[row] = sum;
}
