// color.cu - graph colouring, Jones-Plassmann style with random priorities
// (the algorithm of Pannotia's colouring), written from scratch.
//
// color[v] = -1 while uncoloured.  Each round:
//  - color_select: an uncoloured node whose priority beats every uncoloured
//    neighbour's (hash of id and seed, ties broken by id) is a candidate;
//    any uncoloured node asks the host for another round.  A node resumes
//    its neighbour scan where it last found a blocking neighbour: the ones
//    before it are coloured or of lower priority and stay so, which makes the
//    scans of all rounds together linear in the degree.
//  - color_assign: each candidate takes the smallest colour no neighbour has
//    (first fit, scanning 32 colours at a time with a bit mask).  Candidates
//    are never adjacent, so the colours a candidate sees are final.
// The result is the same for every execution order.

__device__ __forceinline__ unsigned int color_hash(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

extern "C" __global__ void color_init(const int *rowptr, unsigned int *prio, int *color, int *scan,
                                      unsigned int seed, int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes)
        return;
    prio[v] = color_hash((unsigned int)v ^ seed);
    color[v] = -1;
    scan[v] = rowptr[v];
}

extern "C" __global__ void color_select(const int *rowptr, const int *col, const unsigned int *prio,
                                        const int *color, int *scan, unsigned char *cand, int *more,
                                        int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes)
        return;
    unsigned char is_max = 0;
    if (color[v] < 0) {
        *more = 1;
        unsigned int pv = prio[v];
        is_max = 1;
        int last = rowptr[v + 1];
        for (int e = scan[v]; e < last; e++) {
            int u = col[e];
            if (color[u] < 0) {
                unsigned int pu = prio[u];
                if (pu > pv || (pu == pv && u > v)) {
                    is_max = 0;
                    scan[v] = e;
                    break;
                }
            }
        }
    }
    cand[v] = is_max;
}

extern "C" __global__ void color_assign(const int *rowptr, const int *col, const unsigned char *cand, int *color,
                                        int num_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_nodes || !cand[v])
        return;
    int first = rowptr[v], last = rowptr[v + 1];
    for (int base = 0;; base += 32) {
        unsigned int used = 0;
        for (int e = first; e < last; e++) {
            int c = color[col[e]] - base;
            if (c >= 0 && c < 32)
                used |= 1u << c;
        }
        if (used != 0xffffffffu) {
            color[v] = base + __ffs(~used) - 1;
            return;
        }
    }
}
