// bc.cu - betweenness centrality from a few sources (Brandes' algorithm, the
// structure of Pannotia's BC), pull-based and atomic-free, written from scratch.
//
// Per source s:
//  - bc_init:     depth = -1, sigma = 0, delta = 0; depth[s] = 0, sigma[s] = 1.
//  - bc_forward:  one launch per BFS level L: an unvisited node sums sigma over
//                 its neighbours at depth L; if it has any, it gets depth L+1
//                 and that path count.  Nodes visited in this launch go from
//                 -1 to L+1, never to L, so the reads are race-free.
//  - bc_backward: one launch per level L, deepest first: a node at depth L
//                 accumulates delta = sum over neighbours w at depth L+1 of
//                 sigma[v] / sigma[w] * (1 + delta[w]) and adds it to bc[v]
//                 (not for s).
// Only a node's own thread writes its values and neighbours are summed in CSR
// order with pinned rounding (no contraction), so a CPU replay is bit-exact.

extern "C" __global__ void bc_init(int *depth, float *sigma, float *delta, int source, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes)
        return;
    depth[v] = v == source ? 0 : -1;
    sigma[v] = v == source ? 1.0f : 0.0f;
    delta[v] = 0.0f;
}

extern "C" __global__ void bc_forward(const int *rowptr, const int *col, int *depth, float *sigma, int level,
                                      int *more, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || depth[v] >= 0)
        return;
    float paths = 0.0f;
    int found = 0;
    int last = rowptr[v + 1];
    for (int e = rowptr[v]; e < last; e++) {
        int u = col[e];
        if (depth[u] == level) {
            paths = __fadd_rn(paths, sigma[u]);
            found = 1;
        }
    }
    if (found) {
        depth[v] = level + 1;
        sigma[v] = paths;
        *more = 1;
    }
}

extern "C" __global__ void bc_backward(const int *rowptr, const int *col, const int *depth, const float *sigma,
                                       float *delta, float *bc, int level, int source, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || depth[v] != level)
        return;
    float sv = sigma[v], acc = 0.0f;
    int last = rowptr[v + 1];
    for (int e = rowptr[v]; e < last; e++) {
        int w = col[e];
        if (depth[w] == level + 1)
            acc = __fmaf_rn(__fdiv_rn(sv, sigma[w]), __fadd_rn(1.0f, delta[w]), acc);
    }
    delta[v] = acc;
    if (v != source)
        bc[v] = __fadd_rn(bc[v], acc);
}
