// sssp_csr.cu - single-source shortest paths by Bellman-Ford style relaxation
// over a weighted CSR graph (the algorithm of Pannotia's SSSP: relax every
// active edge, repeat until no distance changes), written from scratch.
//
// Each round runs two kernels over all nodes:
//  - sssp_relax: a node whose distance dropped last round (active) relaxes its
//    out-edges with atomicMin on the neighbour's distance; a neighbour that got
//    a smaller distance is flagged for the next round.
//  - sssp_advance: flagged nodes become the next round's active set and raise
//    the flag that tells the host to run another round.
// Distances only ever decrease and the fixed point is unique, so the result
// does not depend on the order of the atomics.

extern "C" __global__ void sssp_relax(const int *rowptr, const int *col, const int *weight, int *dist,
                                      unsigned char *active, unsigned char *updated, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !active[v])
        return;
    active[v] = 0;
    int dv = dist[v];
    int last = rowptr[v + 1];
    for (int e = rowptr[v]; e < last; e++) {
        int u = col[e];
        int nd = dv + weight[e];
        if (nd < dist[u]) {              // cheap test first: most relaxations fail
            int old = atomicMin(&dist[u], nd);
            if (nd < old)
                updated[u] = 1;
        }
    }
}

extern "C" __global__ void sssp_advance(unsigned char *active, unsigned char *updated, int *more, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !updated[v])
        return;
    updated[v] = 0;
    active[v] = 1;
    *more = 1;
}
