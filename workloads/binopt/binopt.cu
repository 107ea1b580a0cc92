// binopt.cu - binomial option pricing (the CUDA SDK "binomialOptions"
// application, written from its description): European calls on a
// Cox-Ross-Rubinstein tree, one option per CTA.
//
// The CTA fills the n+1 leaf payoffs max(S exp(vdt (2i - n)) - X, 0) into a
// shared-memory buffer (n <= BINOPT_MAX_STEPS), then walks the tree backwards
// between two buffers: at level i every node j < i becomes
// pu_df * v[j+1] + pd_df * v[j] (an explicit fmaf, so a CPU replay rounds the
// same way), then one barrier.  n levels of a barrier each, with fewer and
// fewer active threads towards the root (the last 128 levels run in four warps
// or fewer, most of them idle).  Compute- and barrier-bound; global memory is
// touched only for the option's five parameters and its price.

#define BINOPT_MAX_STEPS 2048

extern "C" __global__ void binopt_price(const float *__restrict__ spot, const float *__restrict__ strike,
                                        const float *__restrict__ vdt, const float *__restrict__ pu_df,
                                        const float *__restrict__ pd_df, float *__restrict__ price, int n)
{
    __shared__ float buf[2][BINOPT_MAX_STEPS + 1];
    const int opt = blockIdx.x;
    const float s = spot[opt], x = strike[opt], dt = vdt[opt], pu = pu_df[opt], pd = pd_df[opt];
    for (int i = threadIdx.x; i <= n; i += blockDim.x) {
        const float d = s * expf(dt * (float)(2 * i - n)) - x;
        buf[0][i] = d > 0.0f ? d : 0.0f;
    }
    __syncthreads();
    int cur = 0;
    for (int level = n; level > 0; level--) {
        const float *src = buf[cur];
        float *dst = buf[cur ^ 1];
        for (int j = threadIdx.x; j < level; j += blockDim.x)
            dst[j] = fmaf(pu, src[j + 1], pd * src[j]);
        cur ^= 1;
        __syncthreads();
    }
    if (threadIdx.x == 0)
        price[opt] = buf[cur][0];
}
