// backprop.cu - one training step of a two-layer perceptron, GPU part
// (Rodinia "backprop" style).  The input layer is large (n_in units plus a
// bias unit 0 fixed at 1), the hidden layer has BP_HID units (plus bias 0).
// Weights are row-major [n_in + 1][BP_HID + 1]: row i = input unit i,
// column j = hidden unit j (column 0 unused, it would feed the hidden bias).
//
// bp_layer_forward: CTA (16 x 16) owns 16 input rows x 16 hidden columns.
// Each thread forms input[i] * w[i][j]; the 16 products of a column are then
// summed by an interleaved tree in shared memory (stride 1, 2, 4, 8: the
// active rows thin out, so warps diverge), and row 0 stores one partial sum
// per hidden unit per CTA.  The host adds the partials of all CTAs.
//
// bp_adjust_weights: delta rule with momentum on the same tiling,
//   dw = eta * delta[j] * input[i] + momentum * oldw[i][j];  w += dw;  oldw = dw
// plus the bias row 0 (input 1.0), handled by the first row of CTA 0.

#define BP_HID 16
#define BP_TILE 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

extern "C" __global__ void bp_layer_forward(const float *input, const float *w, float *partial)
{
    __shared__ float in_tile[BP_TILE];
    __shared__ float prod[BP_TILE][BP_HID];

    int tx = threadIdx.x;                    // hidden unit tx + 1
    int ty = threadIdx.y;                    // input row within the tile
    int row = 1 + blockIdx.y * BP_TILE + ty; // input unit (1-based)

    if (tx == 0)
        in_tile[ty] = input[row];
    __syncthreads();

    prod[ty][tx] = w[row * (BP_HID + 1) + tx + 1] * in_tile[ty];
    __syncthreads();

    for (int stride = 1; stride < BP_TILE; stride *= 2) {
        if (ty % (2 * stride) == 0)
            prod[ty][tx] += prod[ty + stride][tx];
        __syncthreads();
    }

    if (ty == 0)
        partial[blockIdx.y * BP_HID + tx] = prod[0][tx];
}

extern "C" __global__ void bp_adjust_weights(const float *delta, const float *input, float *w, float *oldw)
{
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = 1 + blockIdx.y * BP_TILE + ty;
    int col = tx + 1;
    int idx = row * (BP_HID + 1) + col;

    float dw = BP_ETA * delta[col] * input[row] + BP_MOMENTUM * oldw[idx];
    w[idx] += dw;
    oldw[idx] = dw;

    // the bias weights (input unit 0 == 1.0) once, by the first tile row of CTA 0
    if (blockIdx.y == 0 && ty == 0) {
        float db = BP_ETA * delta[col] + BP_MOMENTUM * oldw[col];
        w[col] += db;
        oldw[col] = db;
    }
}
