// btree.cu - B+tree lookups (the Rodinia b+tree findK / findRangeK
// structure, written from scratch).  One CTA per query, one thread per key
// slot of a node: at every level all threads compare the query with their
// slot's separator in parallel, the one whose range holds it publishes the
// child through shared memory, and the CTA moves down together.  The node
// visited next depends on the data (a dependent gather per level); the upper
// levels are shared by every query, the leaves are scattered.
//
// Tree layout (struct of arrays, BT_FAN + 1 slots per node):
//   keys[node * (BT_FAN + 1) + j]  internal: smallest key under child j;
//                                  leaf: the records' keys, sorted;
//                                  unused slots and slot BT_FAN hold INT_MAX
//   idx [node * (BT_FAN + 1) + j]  internal: child node; leaf: record index
//   base[node]                     leaf: rank of its first key among all keys
// All leaves are at depth height - 1; node 0 is the root.

#define BT_FAN 256
#define BT_SLOTS (BT_FAN + 1)

// The slot of `node` whose range holds q; slot 0 also takes keys below the
// node's first separator.  Exactly one thread answers.
__device__ __forceinline__ bool bt_holds(const int *k, int j, int q)
{
    return (j == 0 || k[j] <= q) && q < k[j + 1];
}

extern "C" __global__ void btree_findk(const int *keys, const int *idx, const int *values, int height,
                                       const int *queries, int *ans)
{
    __shared__ int node;
    int j = threadIdx.x;
    int q = queries[blockIdx.x];
    if (j == 0)
        node = 0;
    __syncthreads();
    for (int level = 0; level < height - 1; level++) {
        const int *k = keys + (size_t)node * BT_SLOTS;
        int child = bt_holds(k, j, q) ? idx[(size_t)node * BT_SLOTS + j] : -1;
        __syncthreads();   // everyone has read `node`
        if (child >= 0)
            node = child;
        __syncthreads();
    }
    const int *k = keys + (size_t)node * BT_SLOTS;
    if (j == 0)
        ans[blockIdx.x] = -1;   // not found, unless a slot matches after the barrier
    __syncthreads();
    if (k[j] == q)
        ans[blockIdx.x] = values[idx[(size_t)node * BT_SLOTS + j]];
}

// For [lo, hi]: start = rank of the first key >= lo, count = number of keys in
// [lo, hi].  The two root-to-leaf paths are walked in the same loop.
extern "C" __global__ void btree_findrange(const int *keys, const int *idx, const int *base, int height,
                                           const int *lo, const int *hi, int *start, int *count)
{
    __shared__ int node_lo, node_hi, first, last;
    int j = threadIdx.x;
    int a = lo[blockIdx.x], b = hi[blockIdx.x];
    if (j == 0) {
        node_lo = 0;
        node_hi = 0;
    }
    __syncthreads();
    for (int level = 0; level < height - 1; level++) {
        int nl = node_lo, nh = node_hi;
        int cl = bt_holds(keys + (size_t)nl * BT_SLOTS, j, a) ? idx[(size_t)nl * BT_SLOTS + j] : -1;
        int ch = bt_holds(keys + (size_t)nh * BT_SLOTS, j, b) ? idx[(size_t)nh * BT_SLOTS + j] : -1;
        __syncthreads();
        if (cl >= 0)
            node_lo = cl;
        if (ch >= 0)
            node_hi = ch;
        __syncthreads();
    }
    int nl = node_lo, nh = node_hi;
    const int *kl = keys + (size_t)nl * BT_SLOTS, *kh = keys + (size_t)nh * BT_SLOTS;
    if (j == 0) {
        // defaults: lo is above every key of its leaf (the next leaf's first
        // key follows; slot BT_FAN's sentinel covers partly filled leaves,
        // this covers full ones); hi is below every key of its leaf (only the
        // leftmost leaf, when hi is below the smallest key)
        first = base[nl] + BT_FAN;
        last = base[nh] - 1;
    }
    __syncthreads();
    if (kl[j] >= a && (j == 0 || kl[j - 1] < a))
        first = base[nl] + j;
    if (kh[j] <= b && kh[j + 1] > b)
        last = base[nh] + j;
    __syncthreads();
    if (j == 0) {
        start[blockIdx.x] = first;
        count[blockIdx.x] = last >= first ? last - first + 1 : 0;
    }
}
