// ssc.cu - MapReduce similarity score (the Mars SSC application).
//
// Every document is a dense feature vector (term weights); the output is the
// cosine similarity of every pair of documents,
//     score[i][j] = <a_i, a_j> / sqrt(|a_i|^2 |a_j|^2).
// As in Mars, a map task is one pair: one thread per (i, j), no sharing of
// vectors through shared memory.  A CTA row holds one document i (the same
// address across a warp: one transaction) against 128 documents j, so every
// load of a_j touches 32 different rows of the feature matrix, a row of
// 4*dim bytes apart: uncoalesced, and far more lines live at once than the L1
// holds.  The norms are computed per pair, as the map task does.
//
// The loop runs in feature order with one fused multiply-add per term and
// IEEE sqrt and division, so a CPU doing the same operations in the same
// order gets the same bits.

extern "C" __global__ void ssc_score(const float *__restrict__ feat, int n_docs, int dim, float *__restrict__ score)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y;
    if (j >= n_docs)
        return;
    const float *a = feat + (size_t)i * (size_t)dim;
    const float *b = feat + (size_t)j * (size_t)dim;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int k = 0; k < dim; k++) {
        const float x = a[k], y = b[k];
        dot = __fmaf_rn(x, y, dot);
        na = __fmaf_rn(x, x, na);
        nb = __fmaf_rn(y, y, nb);
    }
    const float den = __fmul_rn(na, nb);
    score[(size_t)i * (size_t)n_docs + (size_t)j] = den > 0.0f ? __fdiv_rn(dot, __fsqrt_rn(den)) : 0.0f;
}
