// kmeans.cu - the assignment step of k-means clustering (the Rodinia kmeans
// structure, written from scratch).
//
// kmeans_invert transposes the point-major input (features[p*nf + f]) into a
// feature-major copy (inv[f*np + p]).  kmeans_assign then gives each thread one
// point: consecutive threads read consecutive addresses (coalesced), while one
// thread walks its features with a stride of npoints elements.  Centroids live
// in __constant__ memory: every lane of a warp reads the same centroid element
// at the same time, the broadcast case the constant cache is built for.

#define KMEANS_MAX_CENTROID_FLOATS 4096

__constant__ float kmeans_centroids[KMEANS_MAX_CENTROID_FLOATS];

extern "C" __global__ void kmeans_invert(const float *features, float *inv, int npoints, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    for (int f = 0; f < nfeatures; f++)
        inv[f * npoints + p] = features[p * nfeatures + f];
}

extern "C" __global__ void kmeans_assign(const float *inv, int *membership, int npoints, int nclusters,
                                         int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    int best = 0;
    float best_dist = 3.402823466e38f;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            float diff = inv[f * npoints + p] - kmeans_centroids[c * nfeatures + f];
            // explicit fused multiply-add so the host reference (fmaf) rounds identically
            dist = __fmaf_rn(diff, diff, dist);
        }
        if (dist < best_dist) {   // strict: the lowest index wins a tie, as on the host
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}
