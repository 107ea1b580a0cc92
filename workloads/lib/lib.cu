// lib.cu - LIBOR market model Monte Carlo (Giles' LIBOR benchmark; 001's LIB).
//
// One thread simulates one path of nn forward LIBOR rates over nmat
// timesteps of length delta (the rates are lognormal with volatility
// lambda[i] for the i-th rate ahead; the drift couples each rate to the
// rates before it), then values a portfolio of nopt receiver swaptions on the
// final rates and discounts the payoff back to time 0.  The rates and the
// portfolio's bond prices and annuities live in per-thread arrays indexed by
// loop variables: local memory, as in the original.  The normal variates
// z[n][path] are generated on the host (path index fastest: coalesced).
// Per step: a division and an exponential per remaining rate - float
// arithmetic and special-function throughput, with local-memory traffic.

#define LIB_NMAX 80
#define LIB_MMAX 40
#define LIB_OPTMAX 16

__constant__ float lib_lambda[LIB_NMAX];
__constant__ int lib_maturity[LIB_OPTMAX];
__constant__ float lib_swaprate[LIB_OPTMAX];

extern "C" __global__ void lib_portfolio(const float *__restrict__ z, float *__restrict__ value, int npath, int nn,
                                         int nmat, int nopt, float delta, float l0)
{
    const int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path >= npath)
        return;
    float L[LIB_NMAX], B[LIB_MMAX], S[LIB_MMAX];
    for (int i = 0; i < nn; i++)
        L[i] = l0;

    // path evolution
    const float sqrt_delta = sqrtf(delta);
    for (int n = 0; n < nmat; n++) {
        const float sqez = sqrt_delta * z[(size_t)n * npath + path];
        float v = 0.0f;
        for (int i = n + 1; i < nn; i++) {
            const float lam = lib_lambda[i - n - 1];
            const float con1 = delta * lam;
            v += con1 * L[i] / (1.0f + delta * L[i]);
            const float vrat = expf(con1 * v + lam * (sqez - 0.5f * con1));
            L[i] = L[i] * vrat;
        }
    }

    // zero-coupon bond prices and annuities from the first maturity on
    float b = 1.0f, s = 0.0f;
    for (int n = nmat; n < nn; n++) {
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[n - nmat] = b;
        S[n - nmat] = s;
    }
    // receiver swaptions: pay when the swap is worth less than par
    float v = 0.0f;
    for (int i = 0; i < nopt; i++) {
        const int m = lib_maturity[i] - 1;
        const float swapval = B[m] + lib_swaprate[i] * S[m] - 1.0f;
        if (swapval < 0.0f)
            v += -100.0f * swapval;
    }
    // discount to time 0 along the path
    for (int n = 0; n < nmat; n++)
        v = v / (1.0f + delta * L[n]);
    value[path] = v;
}
