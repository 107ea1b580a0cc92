// sm.cu - MapReduce string match (the Mars SM application, written from its
// description): find every occurrence of a set of keywords in every line of a
// text.
//
// One thread per line (Mars gives every map task one line).  The keywords
// (up to SM_MAX_KW of up to SM_MAX_LEN bytes) are staged in shared memory, their
// first bytes and lengths then kept in registers.  A thread walks its line
// byte by byte; where the byte equals a keyword's first byte and the keyword
// fits before the line end, it compares the rest (overlapping occurrences
// count).  Per line and keyword it writes the number of occurrences and the
// offset of the first one (0xffffffff for none), in keyword-major arrays so
// that a warp's stores coalesce.  Lines differ in
// length, so the lanes of a warp run different trip counts, and their byte
// reads lie a line (about 100 bytes) apart.

#define SM_MAX_KW 8
#define SM_MAX_LEN 16

extern "C" __global__ void sm_match(const unsigned char *__restrict__ text, const unsigned *__restrict__ line_off,
                                    int n_lines, const unsigned char *__restrict__ kw, const int *__restrict__ kw_len,
                                    int n_kw, unsigned *__restrict__ counts, unsigned *__restrict__ first)
{
    __shared__ unsigned char skw[SM_MAX_KW][SM_MAX_LEN];
    __shared__ int slen[SM_MAX_KW];
    for (int i = threadIdx.x; i < SM_MAX_KW * SM_MAX_LEN; i += blockDim.x)
        skw[i / SM_MAX_LEN][i % SM_MAX_LEN] = kw[i];
    if (threadIdx.x < SM_MAX_KW)
        slen[threadIdx.x] = threadIdx.x < n_kw ? kw_len[threadIdx.x] : (1 << 20);   // an unused keyword never fits
    __syncthreads();
    const int line = blockIdx.x * blockDim.x + threadIdx.x;
    if (line >= n_lines)
        return;
    const unsigned start = line_off[line], end = line_off[line + 1];
    unsigned cnt[SM_MAX_KW], pos[SM_MAX_KW], head[SM_MAX_KW];
    int len[SM_MAX_KW];
#pragma unroll
    for (int k = 0; k < SM_MAX_KW; k++) {   // first bytes and lengths in registers
        cnt[k] = 0u;
        pos[k] = 0xffffffffu;
        head[k] = skw[k][0];
        len[k] = slen[k];
    }
    for (unsigned p = start; p < end; p++) {
        const unsigned c = text[p];
#pragma unroll
        for (int k = 0; k < SM_MAX_KW; k++) {
            if (c == head[k] && p + len[k] <= end) {
                int j = 1;
                while (j < len[k] && text[p + j] == skw[k][j])
                    j++;
                if (j == len[k]) {
                    if (cnt[k] == 0u)
                        pos[k] = p - start;
                    cnt[k]++;
                }
            }
        }
    }
#pragma unroll
    for (int k = 0; k < SM_MAX_KW; k++)
        if (k < n_kw) {
            counts[(size_t)k * n_lines + line] = cnt[k];
            first[(size_t)k * n_lines + line] = pos[k];
        }
}
