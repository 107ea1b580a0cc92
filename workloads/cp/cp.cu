// cp.cu - Coulombic potential on a 2D lattice slice (Parboil cp; 001's CP).
//
// Every lattice point (x, y) of a slice at height z accumulates
//     sum over atoms of q / sqrt((x - ax)^2 + (y - ay)^2 + (z - az)^2).
// The atoms sit in constant memory as (x, y, dz^2, q) with dz^2 already
// computed for the slice; every lane of a warp reads the same atom at the
// same time, so each read is one broadcast.  A thread computes 8 points of
// one lattice row, blockDim.x points apart (so the final read-modify-write
// of the grid is coalesced), sharing the y/z part of the distance between
// them: per atom and point, a subtract, two fused multiply-adds and a
// reciprocal square root.  Atoms come in launches of at most CP_MAXATOMS,
// each adding its chunk's contribution to the grid.

#define CP_UNROLL 8
#define CP_MAXATOMS 4000

__constant__ float4 cp_atoms[CP_MAXATOMS];

extern "C" __global__ void cp_energy(float *__restrict__ grid, int nx, float spacing, int natoms)
{
    const int xi = blockIdx.x * blockDim.x * CP_UNROLL + threadIdx.x;
    const int yi = blockIdx.y * blockDim.y + threadIdx.y;
    const float y = spacing * (float)yi;
    float x[CP_UNROLL], e[CP_UNROLL];
#pragma unroll
    for (int k = 0; k < CP_UNROLL; k++) {
        x[k] = spacing * (float)(xi + k * (int)blockDim.x);
        e[k] = 0.0f;
    }
    for (int a = 0; a < natoms; a++) {
        const float4 at = cp_atoms[a];
        const float dy = y - at.y;
        const float dyz2 = dy * dy + at.z;
#pragma unroll
        for (int k = 0; k < CP_UNROLL; k++) {
            const float dx = x[k] - at.x;
            e[k] += at.w * rsqrtf(dx * dx + dyz2);
        }
    }
    float *row = grid + (size_t)yi * (size_t)nx + (size_t)xi;
#pragma unroll
    for (int k = 0; k < CP_UNROLL; k++)
        row[k * blockDim.x] += e[k];
}
