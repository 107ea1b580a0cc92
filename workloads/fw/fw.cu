// fw.cu - Floyd-Warshall all-pairs shortest paths on a dense n x n integer
// distance matrix (the algorithm of Pannotia's FW), written from scratch.
//
// One launch per intermediate node k; thread (i, j) of a 2D grid of 16 x 16
// CTAs does dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j]).  Row k and
// column k do not change during step k (dist[k][k] = 0), so updating in place
// is race-free.  "No path" is a large value whose double still fits an int.

extern "C" __global__ void fw_step(int *dist, int n, int k)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    int via = dist[i * n + k] + dist[k * n + j];
    if (via < dist[i * n + j])
        dist[i * n + j] = via;
}
