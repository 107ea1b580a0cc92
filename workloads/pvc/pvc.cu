// pvc.cu - MapReduce page-view count (the Mars PVC application).
//
// The input is a web server log: one text line per request,
//     IP - - [date] "GET /url?query HTTP/1.1" status bytes
// The map phase runs one thread per line (Mars gives every map task one
// record): it parses the dotted-quad IP, hashes the URL path byte by byte
// (FNV-1a, the query string ignored), skips to the status code and, for a
// successful request, emits the view.  A page view counts once per visitor,
// so the map first deduplicates (URL, IP) pairs in a global open-addressing
// hash set (64-bit atomicCAS), and only a first view increments the URL's
// counter in a second hash table (32-bit atomicCAS on the key, atomicAdd on
// the count).  Every thread reads its own line byte by byte (addresses tens
// of bytes apart across a warp) and then probes two tables at random slots:
// irregular, memory-bound, with popular pages contending on their counters.
// The reduce phase compacts the count table into a dense (url, views) list
// with an atomic output cursor.

extern "C" __global__ void pvc_map(const unsigned char *__restrict__ log, const unsigned *__restrict__ rec_off,
                                   int n_rec, unsigned long long *seen, int seen_bits, unsigned *url_key,
                                   unsigned *url_views, int url_bits)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_rec)
        return;
    const unsigned char *p = log + rec_off[r];

    // client IP "a.b.c.d"
    unsigned ip = 0, part = 0;
    for (unsigned char c = *p++; c != ' '; c = *p++) {
        if (c == '.') {
            ip = (ip << 8) | part;
            part = 0;
        } else {
            part = part * 10u + (unsigned)(c - '0');
        }
    }
    ip = (ip << 8) | part;

    // the request: skip the identity fields and the date up to the quote, then the method
    while (*p++ != '"')
        ;
    while (*p++ != ' ')
        ;
    // URL path up to the query string or the protocol
    unsigned h = 2166136261u;
    for (unsigned char c = *p; c != ' ' && c != '?'; c = *++p)
        h = (h ^ c) * 16777619u;
    if (h == 0)
        h = 1; // 0 marks an empty slot
    while (*p++ != '"')
        ;
    const int status = (p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0');
    if (status != 200)
        return; // errors and redirects are not page views

    // first view of this page by this visitor?
    const unsigned long long key = ((unsigned long long)h << 32) | ip;
    const unsigned seen_mask = (1u << seen_bits) - 1u;
    unsigned s = ((unsigned)(key >> 32) * 0x9E3779B1u ^ (unsigned)key * 0x85EBCA77u) >> (32 - seen_bits);
    for (;;) {
        const unsigned long long prev = atomicCAS(&seen[s], 0ull, key);
        if (prev == 0ull)
            break;
        if (prev == key)
            return; // a repeat view
        s = (s + 1u) & seen_mask;
    }

    // count it under the URL
    const unsigned url_mask = (1u << url_bits) - 1u;
    unsigned u = (h * 0x9E3779B1u) >> (32 - url_bits);
    for (;;) {
        const unsigned prev = atomicCAS(&url_key[u], 0u, h);
        if (prev == 0u || prev == h) {
            atomicAdd(&url_views[u], 1u);
            return;
        }
        u = (u + 1u) & url_mask;
    }
}

extern "C" __global__ void pvc_reduce(const unsigned *__restrict__ url_key, const unsigned *__restrict__ url_views,
                                      int slots, unsigned *out_key, unsigned *out_views, unsigned *n_out)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < slots; i += gridDim.x * blockDim.x) {
        const unsigned k = url_key[i];
        if (k != 0u) {
            const unsigned at = atomicAdd(n_out, 1u);
            out_key[at] = k;
            out_views[at] = url_views[i];
        }
    }
}
