// bfs.cu - CSR breadth-first search in the style of Rodinia's: two kernels and a host loop that
// reads a __device__ "changed" flag back each level; the node count lives in a __constant__ set
// with cudaMemcpyToSymbol; events time the search (simulated).  Verified against a CPU BFS.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            printf("FAILED %s: %s\n", #call, cudaGetErrorName(e_));                     \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

__constant__ int c_nodes;
__device__ int d_changed;
__device__ int d_visits = 0;   // with an initial value, read back at the end

__global__ void expand(const int *row, const int *col, bool *frontier, bool *next, bool *visited, int *cost)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < c_nodes && frontier[v]) {
        frontier[v] = false;
        atomicAdd(&d_visits, 1);
        for (int e = row[v]; e < row[v + 1]; e++) {
            int u = col[e];
            if (!visited[u]) {
                cost[u] = cost[v] + 1;
                next[u] = true;
            }
        }
    }
}

__global__ void update(bool *frontier, bool *next, bool *visited)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < c_nodes && next[v]) {
        frontier[v] = true;
        visited[v] = true;
        next[v] = false;
        d_changed = 1;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    // a deterministic graph: a ring plus pseudo-random chords, 4 edges per node
    std::vector<int> row(n + 1), col;
    unsigned seed = 12345;
    for (int v = 0; v < n; v++) {
        row[v] = (int)col.size();
        col.push_back((v + 1) % n);
        for (int k = 0; k < 3; k++) {
            seed = seed * 1103515245u + 12345u;
            col.push_back((int)((seed >> 8) % (unsigned)n));
        }
    }
    row[n] = (int)col.size();
    int m = (int)col.size();

    int *drow, *dcol, *dcost;
    bool *dfront, *dnext, *dvis;
    CHECK(cudaMalloc(&drow, (n + 1) * sizeof(int)));
    CHECK(cudaMalloc(&dcol, m * sizeof(int)));
    CHECK(cudaMalloc(&dcost, n * sizeof(int)));
    CHECK(cudaMalloc(&dfront, n));
    CHECK(cudaMalloc(&dnext, n));
    CHECK(cudaMalloc(&dvis, n));
    CHECK(cudaMemcpy(drow, row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcol, col.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    std::vector<int> cost(n, -1);
    cost[0] = 0;
    std::vector<char> front(n, 0), vis(n, 0);
    front[0] = vis[0] = 1;
    CHECK(cudaMemcpy(dcost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dfront, front.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dvis, vis.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dnext, 0, n));
    CHECK(cudaMemcpyToSymbol(c_nodes, &n, sizeof n));
    int *changed_addr = nullptr;
    CHECK(cudaGetSymbolAddress((void **)&changed_addr, d_changed));

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventRecord(t0));
    int levels = 0, changed;
    do {
        changed = 0;
        CHECK(cudaMemcpyToSymbol(d_changed, &changed, sizeof changed));
        int threads = 256, blocks = (n + threads - 1) / threads;
        expand<<<blocks, threads>>>(drow, dcol, dfront, dnext, dvis, dcost);
        update<<<blocks, threads>>>(dfront, dnext, dvis);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyFromSymbol(&changed, d_changed, sizeof changed));
        levels++;
    } while (changed);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    int visits = 0, via_addr = -1;
    CHECK(cudaMemcpyFromSymbol(&visits, d_visits, sizeof visits));
    CHECK(cudaMemcpy(&via_addr, changed_addr, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> got(n);
    CHECK(cudaMemcpy(got.data(), dcost, n * sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference
    std::vector<int> ref(n, -1), q;
    ref[0] = 0;
    q.push_back(0);
    for (size_t h = 0; h < q.size(); h++)
        for (int e = row[q[h]]; e < row[q[h] + 1]; e++)
            if (ref[col[e]] < 0) {
                ref[col[e]] = ref[q[h]] + 1;
                q.push_back(col[e]);
            }
    int bad = 0, maxd = 0;
    for (int v = 0; v < n; v++) {
        bad += got[v] != ref[v];
        maxd = ref[v] > maxd ? ref[v] : maxd;
    }
    printf("bfs n=%d edges=%d levels=%d depth=%d visits=%d: %s (%d wrong)\n", n, m, levels, maxd, visits,
           bad || visits != (int)q.size() || via_addr != 0 ? "FAILED" : "PASSED", bad);
    printf("elapsed_ms = %.6f\n", ms);
    return bad ? 1 : 0;
}
