// transpose.cu - naive matrix transpose, one element per thread.
//
// in is rows x cols, row-major; out is cols x rows, row-major.  Threads of a
// warp take consecutive columns of one input row, so their loads are
// coalesced, but each stores into a different output row (a stride of `rows`
// elements): the textbook uncoalesced-store pattern that the shared-memory
// tiled transpose was invented to avoid.

extern "C" __global__ void transpose_naive(unsigned *__restrict__ out, const unsigned *__restrict__ in, int rows,
                                           int cols)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x; // column in `in`
    const int y = blockIdx.y * blockDim.y + threadIdx.y; // row in `in`
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}
