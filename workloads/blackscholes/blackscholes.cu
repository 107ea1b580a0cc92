// blackscholes.cu - European option pricing with the Black-Scholes formula
// (CUDA SDK "BlackScholes" style).
//
// For each option (spot S, strike X, years to expiry T; riskless rate R and
// volatility V shared) compute the call and put prices.  The cumulative normal
// distribution uses the 5-term polynomial approximation of Abramowitz & Stegun
// (26.2.17, |error| < 7.5e-8).  Per option: one logf, two expf, one sqrtf, and
// IEEE divisions, all without fast-math, so nvcc emits its full-precision
// software sequences (ex2.approx with range reduction, a logf polynomial with
// a rarely taken special-value branch, div.rn / rcp.rn / sqrt.rn); the sign
// test in the CND becomes a select.

#define A1 0.31938153f
#define A2 -0.356563782f
#define A3 1.781477937f
#define A4 -1.821255978f
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267794f

__device__ __forceinline__ float cnd(float d)
{
    const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    const float poly = k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5))));
    float c = RSQRT2PI * expf(-0.5f * d * d) * poly;
    if (d > 0.0f)
        c = 1.0f - c;
    return c;
}

extern "C" __global__ void blackscholes(float *__restrict__ call, float *__restrict__ put,
                                        const float *__restrict__ spot, const float *__restrict__ strike,
                                        const float *__restrict__ years, float riskfree, float volatility, int n)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float s = spot[i], x = strike[i], t = years[i];
        const float sqrt_t = sqrtf(t);
        const float d1 = (logf(s / x) + (riskfree + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
        const float d2 = d1 - volatility * sqrt_t;
        const float cnd1 = cnd(d1), cnd2 = cnd(d2);
        const float disc = expf(-riskfree * t);
        call[i] = s * cnd1 - x * disc * cnd2;
        put[i] = x * disc * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}
