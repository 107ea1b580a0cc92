// wc.cu - MapReduce word count (the Mars WC application, written from its
// description).
//
// The map phase gives every thread one fixed-size chunk of the text.  A word
// (a maximal run of ASCII letters, case-folded) belongs to the chunk in which
// it starts: a thread first skips the tail of a word running in from the
// previous chunk, then tokenises byte by byte, finishing its last word past
// the chunk end.  Each word is hashed (FNV-1a over the lower-case letters) and
// counted in a global open-addressing table: atomicCAS claims an empty slot for
// the hash, atomicAdd counts.  A warp's 32 threads read bytes WC chunk-size
// apart (a cache line each, re-read for the next bytes: L1 locality within a
// thread, none across the warp) and then hit the table at random slots, with
// frequent words (Zipf-distributed) contending on their counters.  The reduce
// phase compacts the table into a dense (hash, count) list with an atomic
// output cursor.

__device__ __forceinline__ bool wc_letter(unsigned c)
{
    return ((c | 0x20u) - 'a') < 26u;
}

extern "C" __global__ void wc_map(const unsigned char *__restrict__ text, int n_bytes, int chunk,
                                  unsigned *keys, unsigned *counts, int bits)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const long long start = (long long)t * chunk;
    if (start >= n_bytes)
        return;
    const long long end = start + chunk < n_bytes ? start + chunk : n_bytes;
    long long p = start;
    if (p > 0 && wc_letter(text[p - 1]))
        while (p < end && wc_letter(text[p]))   // a word of the previous chunk
            p++;
    const unsigned mask = (1u << bits) - 1u;
    while (p < end) {
        unsigned c = text[p];
        if (!wc_letter(c)) {
            p++;
            continue;
        }
        unsigned h = 2166136261u;
        do {   // the text is followed by a non-letter, so this stops
            h = (h ^ (c | 0x20u)) * 16777619u;
            c = text[++p];
        } while (wc_letter(c));
        if (h == 0u)
            h = 1u;   // 0 marks an empty slot
        unsigned s = (h * 0x9E3779B1u) >> (32 - bits);
        for (;;) {
            const unsigned prev = atomicCAS(&keys[s], 0u, h);
            if (prev == 0u || prev == h) {
                atomicAdd(&counts[s], 1u);
                break;
            }
            s = (s + 1u) & mask;
        }
    }
}

extern "C" __global__ void wc_reduce(const unsigned *__restrict__ keys, const unsigned *__restrict__ counts,
                                     int slots, unsigned *out_key, unsigned *out_count, unsigned *n_out)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < slots; i += gridDim.x * blockDim.x) {
        const unsigned k = keys[i];
        if (k != 0u) {
            const unsigned at = atomicAdd(n_out, 1u);
            out_key[at] = k;
            out_count[at] = counts[i];
        }
    }
}
