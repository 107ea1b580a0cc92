// pagerank.cu - PageRank by power iteration, each iteration a pull-based
// sparse matrix-vector product over the transposed (in-edge) CSR graph
// (the algorithm of Pannotia's PageRank), written from scratch.
//
//  - pr_contrib: contrib[u] = rank[u] / outdeg[u] (0 for a node without
//    out-edges: its rank leaks, as in the plain formulation).
//  - pr_pull:    rank'[v] = (1 - d) / n + d * sum of contrib[u] over the
//    in-neighbours u of v, summed in CSR order.
// The rounding intrinsics pin every float operation (no contraction or
// reassociation), so a CPU loop in the same order gets the same bits.

extern "C" __global__ void pr_contrib(const float *rank, const int *outdeg, float *contrib, int num_nodes)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= num_nodes)
        return;
    int deg = outdeg[u];
    contrib[u] = deg > 0 ? __fdiv_rn(rank[u], (float)deg) : 0.0f;
}

extern "C" __global__ void pr_pull(const int *in_rowptr, const int *in_col, const float *contrib, float base,
                                   float damping, float *rank_out, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes)
        return;
    float sum = 0.0f;
    int last = in_rowptr[v + 1];
    for (int e = in_rowptr[v]; e < last; e++)
        sum = __fadd_rn(sum, contrib[in_col[e]]);
    rank_out[v] = __fmaf_rn(damping, sum, base);
}
