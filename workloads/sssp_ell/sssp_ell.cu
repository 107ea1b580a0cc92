// sssp_ell.cu - the sssp_csr algorithm (Bellman-Ford style relaxation with
// atomicMin until no distance changes) over an ELLPACK graph layout: every
// node has `width` neighbour slots, stored column-major (slot k of node v at
// k * num_nodes + v) so the lanes of a warp read consecutive words; unused
// slots hold -1 and end the node's list.  Written from scratch.

extern "C" __global__ void sssp_ell_relax(const int *ell_col, const int *ell_w, int width, int *dist,
                                          unsigned char *active, unsigned char *updated, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !active[v])
        return;
    active[v] = 0;
    int dv = dist[v];
    for (int k = 0; k < width; k++) {
        size_t slot = (size_t)k * num_nodes + v;
        int u = ell_col[slot];
        if (u < 0)
            break;
        int nd = dv + ell_w[slot];
        if (nd < dist[u]) {
            int old = atomicMin(&dist[u], nd);
            if (nd < old)
                updated[u] = 1;
        }
    }
}

extern "C" __global__ void sssp_ell_advance(unsigned char *active, unsigned char *updated, int *more,
                                            int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !updated[v])
        return;
    updated[v] = 0;
    active[v] = 1;
    *more = 1;
}
