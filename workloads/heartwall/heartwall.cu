// heartwall.cu - heart-wall-like point tracking (after the Rodinia heartwall
// application, written from its description): every tracked point of the
// wall is followed from frame to frame by template matching.
//
// One launch per frame, one CTA of 256 threads per point.  The CTA loads the
// point's HW_TS x HW_TS template (cut from the first frame around the point's
// initial position) and the (HW_TS + 2 HW_R)^2 search window of the current
// frame around the point's previous position into shared memory.  Each of the
// first (2 HW_R + 1)^2 = 225 threads scores one displacement by normalised
// cross-correlation, accumulating sum I, sum I^2 and sum I T over the template
// in row-major order (explicit fmaf, so a CPU replay rounds identically); the
// template's own sums come from thread 0.  A shared-memory tree reduction picks
// the best score (the lowest displacement index on ties), and thread 0 writes
// the new position, clamped so the next window stays inside the frame.
// Compute-bound on shared-memory loads; the frame is read once per window
// (row segments of 30 floats, neighbouring points' windows overlapping).

#define HW_TS 16
#define HW_R 7
#define HW_SIDE (2 * HW_R + 1)
#define HW_WS (HW_TS + 2 * HW_R)
#define HW_NOFF (HW_SIDE * HW_SIDE)
#define HW_BLOCK 256

extern "C" __global__ void hw_track(const float *__restrict__ frame0, const float *__restrict__ frame, int w, int h,
                                    const int *__restrict__ pos0, const int *__restrict__ prev, int *__restrict__ next,
                                    float *__restrict__ best)
{
    __shared__ float tpl[HW_TS * HW_TS];
    __shared__ float win[HW_WS][HW_WS + 1];
    __shared__ float tstat[2];
    __shared__ float bv[HW_BLOCK];
    __shared__ int bi[HW_BLOCK];
    const int p = blockIdx.x, tid = threadIdx.x;
    const int tx0 = pos0[2 * p] - HW_TS / 2, ty0 = pos0[2 * p + 1] - HW_TS / 2;
    for (int i = tid; i < HW_TS * HW_TS; i += HW_BLOCK)
        tpl[i] = frame0[(size_t)(ty0 + i / HW_TS) * w + tx0 + i % HW_TS];
    const int px = prev[2 * p], py = prev[2 * p + 1];
    const int wx0 = px - HW_TS / 2 - HW_R, wy0 = py - HW_TS / 2 - HW_R;
    for (int i = tid; i < HW_WS * HW_WS; i += HW_BLOCK)
        win[i / HW_WS][i % HW_WS] = frame[(size_t)(wy0 + i / HW_WS) * w + wx0 + i % HW_WS];
    __syncthreads();
    if (tid == 0) {
        float st = 0.0f, stt = 0.0f;
        for (int i = 0; i < HW_TS * HW_TS; i++) {
            st += tpl[i];
            stt = fmaf(tpl[i], tpl[i], stt);
        }
        tstat[0] = st;
        tstat[1] = stt;
    }
    __syncthreads();
    float score = -2.0f;
    if (tid < HW_NOFF) {
        const int oy = tid / HW_SIDE, ox = tid % HW_SIDE;
        float si = 0.0f, sii = 0.0f, sit = 0.0f;
        for (int y = 0; y < HW_TS; y++)
            for (int x = 0; x < HW_TS; x++) {
                const float iv = win[oy + y][ox + x], tv = tpl[y * HW_TS + x];
                si += iv;
                sii = fmaf(iv, iv, sii);
                sit = fmaf(iv, tv, sit);
            }
        const float n = (float)(HW_TS * HW_TS);
        const float mi = si / n, mt = tstat[0] / n;
        const float num = fmaf(-mi, tstat[0], sit);
        const float vi = fmaf(-mi, si, sii), vt = fmaf(-mt, tstat[0], tstat[1]);
        const float den = sqrtf(vi * vt);
        if (den > 0.0f)
            score = num / den;
    }
    bv[tid] = score;
    bi[tid] = tid;
    for (int half = HW_BLOCK / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (tid < half) {
            const float v = bv[tid + half];
            const int j = bi[tid + half];
            if (v > bv[tid] || (v == bv[tid] && j < bi[tid])) {
                bv[tid] = v;
                bi[tid] = j;
            }
        }
    }
    if (tid == 0) {
        const int o = bi[0];
        int nx = px + o % HW_SIDE - HW_R, ny = py + o / HW_SIDE - HW_R;
        const int lo = HW_TS / 2 + HW_R;
        nx = nx < lo ? lo : nx > w - HW_TS / 2 - HW_R ? w - HW_TS / 2 - HW_R : nx;
        ny = ny < lo ? lo : ny > h - HW_TS / 2 - HW_R ? h - HW_TS / 2 - HW_R : ny;
        next[2 * p] = nx;
        next[2 * p + 1] = ny;
        best[p] = bv[0];
    }
}
