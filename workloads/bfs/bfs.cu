// bfs.cu - level-synchronous breadth-first search over a CSR-like graph,
// frontier-mask style (the Rodinia BFS algorithm, written from scratch).
//
// Each level runs two kernels over all nodes:
//  - bfs_expand: nodes in the current frontier clear their mask bit and visit
//    their neighbours; unvisited neighbours get cost = my cost + 1 and are put
//    into the "updating" mask.  Every frontier node is at the same level, so
//    racing writers always store the same cost value.
//  - bfs_advance: nodes in the updating mask join the next frontier, become
//    visited, and raise the global flag that tells the host to run another level.
// The irregular per-node degree makes the expand loop diverge inside warps,
// and the neighbour reads are data-dependent gathers.

struct bfs_node {
    int start;   // first edge index of this node
    int degree;  // number of outgoing edges
};

extern "C" __global__ void bfs_expand(const bfs_node *nodes, const int *edges, unsigned char *frontier,
                                      unsigned char *updating, const unsigned char *visited, int *cost,
                                      int num_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= num_nodes || !frontier[tid])
        return;
    frontier[tid] = 0;
    int first = nodes[tid].start;
    int last = first + nodes[tid].degree;
    int next_cost = cost[tid] + 1;
    for (int e = first; e < last; e++) {
        int nb = edges[e];
        if (!visited[nb]) {
            cost[nb] = next_cost;
            updating[nb] = 1;
        }
    }
}

extern "C" __global__ void bfs_advance(unsigned char *frontier, unsigned char *updating,
                                       unsigned char *visited, int *more, int num_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= num_nodes || !updating[tid])
        return;
    frontier[tid] = 1;
    visited[tid] = 1;
    updating[tid] = 0;
    *more = 1;
}
