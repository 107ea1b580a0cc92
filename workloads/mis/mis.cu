// mis.cu - maximal independent set, Luby style with fixed random priorities
// (the algorithm of Pannotia's MIS), written from scratch.
//
// Node states: 0 undecided, 1 in the set, 2 out (a neighbour is in the set).
// Priorities are a hash of the node id and a seed; ties are broken by the id,
// so "u beats v" is a strict total order.  Each round:
//  - mis_select: an undecided node that beats every undecided neighbour is a
//    candidate (written to a separate array, so no thread sees this round's
//    decisions).
//  - mis_update: candidates join the set; an undecided node with a candidate
//    neighbour drops out; any node still undecided asks for another round.
// Two candidates are never adjacent, so the set stays independent, and the
// result is the same for every execution order.

__device__ __forceinline__ unsigned int mis_hash(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

extern "C" __global__ void mis_init(unsigned int *prio, unsigned char *status, unsigned int seed, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes)
        return;
    prio[v] = mis_hash((unsigned int)v ^ seed);
    status[v] = 0;
}

extern "C" __global__ void mis_select(const int *rowptr, const int *col, const unsigned int *prio,
                                      const unsigned char *status, unsigned char *cand, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes)
        return;
    unsigned char is_max = 0;
    if (status[v] == 0) {
        unsigned int pv = prio[v];
        is_max = 1;
        int last = rowptr[v + 1];
        for (int e = rowptr[v]; e < last; e++) {
            int u = col[e];
            if (status[u] == 0) {
                unsigned int pu = prio[u];
                if (pu > pv || (pu == pv && u > v)) {
                    is_max = 0;
                    break;
                }
            }
        }
    }
    cand[v] = is_max;
}

extern "C" __global__ void mis_update(const int *rowptr, const int *col, const unsigned char *cand,
                                      unsigned char *status, int *more, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || status[v] != 0)
        return;
    if (cand[v]) {
        status[v] = 1;
        return;
    }
    int last = rowptr[v + 1];
    for (int e = rowptr[v]; e < last; e++)
        if (cand[col[e]]) {
            status[v] = 2;
            return;
        }
    *more = 1;
}
