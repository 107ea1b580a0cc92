// nn.cu - nearest neighbour (Rodinia "nn" structure, written from scratch):
// a database of records, each a (latitude, longitude) pair of floats, and one
// target point; one thread per record computes the Euclidean distance from
// its record to the target and stores it.  The host then picks the k
// records with the smallest distances.
//
// Every record is read once and every distance written once: consecutive
// CTAs touch consecutive, disjoint 2 KB slices of the records, so there is no
// reuse between CTAs at all (003's Type-III).  The distance is written with
// explicit round-to-nearest intrinsics so the host can replay it exactly:
// sqrt(fma(dlat, dlat, dlng * dlng)).

struct latlong {
    float lat, lng;
};

extern "C" __global__ void nn_euclid(const latlong *__restrict__ recs, float *__restrict__ dist, int n,
                                     float lat, float lng)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        latlong r = recs[i];
        float dlat = __fsub_rn(lat, r.lat);
        float dlng = __fsub_rn(lng, r.lng);
        dist[i] = __fsqrt_rn(__fmaf_rn(dlat, dlat, __fmul_rn(dlng, dlng)));
    }
}
