// iix.cu - MapReduce inverted index (the Mars IIX application).
//
// The input is a collection of HTML documents; the index maps every link
// target (the URL in href="...") to the documents that link to it.
//
// Map: one thread per 256-byte chunk of text (a document is padded to whole
// chunks, so a chunk belongs to one document).  The thread scans its chunk
// byte by byte with a pattern matcher for href=" (a link starting in the
// chunk may run on into the next one), hashing the URL (FNV-1a) as it reads
// it; at the closing quote it emits (URL, document): it finds or claims the
// URL's slot in a global open-addressing table with atomicCAS, counts the
// link there with atomicAdd and appends the pair to a global list through an
// atomic cursor.  Threads of a warp read addresses 256 bytes apart, one byte
// at a time: memory-bound; only the emission of a found link diverges.
//
// Group/reduce: after the host turns the per-URL counts into offsets (an
// exclusive scan), one thread per emitted pair scatters its document id into
// the URL's posting list with an atomic fill cursor per URL (a counting
// sort): random atomics and stores into the posting array.

extern "C" __global__ void iix_map(const unsigned char *__restrict__ text, const int *__restrict__ chunk_doc,
                                   int n_chunks, int chunk, unsigned *url_key, unsigned *url_count, int url_bits,
                                   unsigned *pair_slot, unsigned *pair_doc, unsigned *n_pairs)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n_chunks)
        return;
    const unsigned doc = (unsigned)chunk_doc[c];
    const unsigned char *p = text + (size_t)c * (size_t)chunk;
    const unsigned char *const end = p + chunk;
    const unsigned mask = (1u << url_bits) - 1u;

    // A small matcher per byte, the same steps on every lane: state 0-5 =
    // bytes of href=" matched so far, 6 = inside the URL (hashing it).  A
    // link that starts in the chunk is followed past the chunk's end.
    const unsigned long long pattern = 0x223D66657268ull; // "href=\"" little-endian
    int state = 0;
    unsigned h = 0;
    for (; p < end || state != 0; p++) {
        const unsigned ch = *p;
        if (state == 6) {
            if (ch != '"') {
                h = (h ^ ch) * 16777619u;
                continue;
            }
            state = 0;
            if (h == 0)
                h = 1; // 0 marks an empty slot
            unsigned s = (h * 0x9E3779B1u) >> (32 - url_bits);
            for (;;) {
                const unsigned prev = atomicCAS(&url_key[s], 0u, h);
                if (prev == 0u || prev == h)
                    break;
                s = (s + 1u) & mask;
            }
            atomicAdd(&url_count[s], 1u);
            const unsigned at = atomicAdd(n_pairs, 1u);
            pair_slot[at] = s;
            pair_doc[at] = doc;
        } else {
            state = ch == ((pattern >> (8 * state)) & 0xffu) ? state + 1 : (ch == 'h' ? 1 : 0);
            h = 2166136261u;
        }
    }
}

extern "C" __global__ void iix_group(const unsigned *__restrict__ pair_slot, const unsigned *__restrict__ pair_doc,
                                     int n_pairs, const unsigned *__restrict__ url_off, unsigned *url_fill,
                                     unsigned *postings)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_pairs)
        return;
    const unsigned s = pair_slot[i];
    const unsigned pos = url_off[s] + atomicAdd(&url_fill[s], 1u);
    postings[pos] = pair_doc[i];
}
