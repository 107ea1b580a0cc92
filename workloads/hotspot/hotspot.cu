// hotspot.cu - transient thermal simulation of a chip (Rodinia "hotspot" style).
//
// The chip is a rows x cols grid of cells with a temperature and a dissipated
// power.  Each time step every cell moves towards the weighted average of its
// four neighbours, its own power input and the ambient temperature.  Cells on
// the chip border use themselves in place of the missing neighbour.
//
// Pyramid tiling: a CTA of TILE x TILE threads loads a tile that overlaps its
// neighbours by `iters` cells on each side (the halo), then runs `iters` time
// steps entirely in shared memory.  After step i only the cells at least i+1
// away from the tile edge are still correct, so each step computes a smaller
// square; the CTA finally writes its (TILE - 2*iters)^2 interior.  This trades
// redundant computation in the halo for fewer launches and global round trips.

#define TILE 16

extern "C" __global__ void hotspot_pyramid(const float *__restrict__ power, const float *__restrict__ temp_src,
                                           float *__restrict__ temp_dst, int cols, int rows, int iters,
                                           int border, float step_div_cap, float rx_1, float ry_1, float rz_1,
                                           float amb_temp)
{
    __shared__ float s_temp[TILE][TILE];
    __shared__ float s_power[TILE][TILE];
    __shared__ float s_next[TILE][TILE];

    const int tx = threadIdx.x, ty = threadIdx.y;
    // Each CTA owns an interior of `inner` x `inner` cells; its tile starts
    // `border` cells up and left of that interior.
    const int inner = TILE - 2 * border;
    const int tile_x0 = blockIdx.x * inner - border;
    const int tile_y0 = blockIdx.y * inner - border;
    const int gx = tile_x0 + tx, gy = tile_y0 + ty;

    if (gx >= 0 && gx < cols && gy >= 0 && gy < rows) {
        const int g = gy * cols + gx;
        s_temp[ty][tx] = temp_src[g];
        s_power[ty][tx] = power[g];
    }
    __syncthreads();

    // The part of the tile that lies on the chip; neighbours are clamped into
    // it, which reproduces the "border cell uses itself" rule at chip edges.
    const int lo_x = tile_x0 < 0 ? -tile_x0 : 0;
    const int lo_y = tile_y0 < 0 ? -tile_y0 : 0;
    const int hi_x = tile_x0 + TILE > cols ? cols - 1 - tile_x0 : TILE - 1;
    const int hi_y = tile_y0 + TILE > rows ? rows - 1 - tile_y0 : TILE - 1;

    const int west = tx - 1 < lo_x ? lo_x : tx - 1;
    const int east = tx + 1 > hi_x ? hi_x : tx + 1;
    const int north = ty - 1 < lo_y ? lo_y : ty - 1;
    const int south = ty + 1 > hi_y ? hi_y : ty + 1;
    const bool on_chip = tx >= lo_x && tx <= hi_x && ty >= lo_y && ty <= hi_y;

    bool computed = false;
    for (int i = 0; i < iters; i++) {
        computed = false;
        if (on_chip && tx >= i + 1 && tx <= TILE - 2 - i && ty >= i + 1 && ty <= TILE - 2 - i) {
            const float t = s_temp[ty][tx];
            const float vert = (s_temp[south][tx] + s_temp[north][tx] - 2.0f * t) * ry_1;
            const float horiz = (s_temp[ty][east] + s_temp[ty][west] - 2.0f * t) * rx_1;
            const float amb = (amb_temp - t) * rz_1;
            s_next[ty][tx] = t + step_div_cap * (s_power[ty][tx] + vert + horiz + amb);
            computed = true;
        }
        __syncthreads();
        if (i == iters - 1)
            break;
        if (computed)
            s_temp[ty][tx] = s_next[ty][tx];
        __syncthreads();
    }

    // Only the interior is written: with fewer steps than `border` (the last
    // launch) halo cells are also correct, but they belong to another CTA.
    if (computed && tx >= border && tx < TILE - border && ty >= border && ty < TILE - border)
        temp_dst[gy * cols + gx] = s_next[ty][tx];
}
