/*
 * wc_host.c - driver for the MapReduce word count (workloads/wc/wc.cu, Mars WC; 000 Tables 4.2/5.3).
 *
 * Input: synthetic text drawn from a vocabulary of random lower-case words of
 * 1..12 letters with Zipf-like frequencies (word i of V about as often as
 * 1/(i+1)); one word in eight is capitalised (the kernel folds case), words
 * are separated by spaces, ", ", ". " or newlines.  The vocabulary is drawn so
 * that every word's FNV-1a hash is distinct and non-zero, so the GPU's table
 * keyed by hash counts words exactly.  Each thread tokenises a 128-byte chunk.
 * Check: the GPU's (hash, count) list, sorted by hash, must equal the counts
 * the generator recorded while writing the text (not a re-parse).  Exact.
 */
#include <string.h>

#include "common/wl_util.h"

#define WC_BLOCK 256
#define WC_CHUNK 128
#define WC_MAXLEN 12

static uint32_t wc_fnv(const char *w)
{
    uint32_t h = 2166136261u;
    for (; *w; w++)
        h = (h ^ (uint32_t)(unsigned char)*w) * 16777619u;
    return h ? h : 1u;
}

/* V distinct words with distinct hashes; words[i] is WC_MAXLEN + 1 bytes */
static void wc_vocab(struct wl_rng *rng, int v, char *words, uint32_t *hash)
{
    size_t slots = 4;
    while (slots < 4 * (size_t)v)
        slots <<= 1;
    uint32_t *set = wl_alloc(slots * sizeof(uint32_t));
    memset(set, 0, slots * sizeof(uint32_t));
    for (int i = 0; i < v;) {
        char *w = words + (size_t)i * (WC_MAXLEN + 1);
        uint32_t len = 1 + wl_rng_below(rng, 4) + wl_rng_below(rng, 5) + wl_rng_below(rng, 5);
        for (uint32_t j = 0; j < len; j++)
            w[j] = (char)('a' + wl_rng_below(rng, 26));
        w[len] = '\0';
        uint32_t h = wc_fnv(w);
        size_t s = (h * 0x9E3779B1u) & (slots - 1);
        while (set[s] != 0 && set[s] != h)
            s = (s + 1) & (slots - 1);
        if (set[s] == h)
            continue;   /* the same word or the same hash: draw another */
        set[s] = h;
        hash[i++] = h;
    }
    free(set);
}

/* writes the text, returns its length (a NUL pad follows); count[i] = occurrences of word i */
static size_t wc_text(struct wl_rng *rng, int v, const char *words, size_t target, char *text, uint32_t *count)
{
    size_t at = 0;
    while (at < target) {
        double u = (double)wl_rng_u32(rng) / 4294967296.0;
        int i = (int)(pow((double)v + 1.0, u)) - 1;   /* P(i) ~ 1/(i+1) */
        if (i >= v)
            i = v - 1;
        count[i]++;
        const char *w = words + (size_t)i * (WC_MAXLEN + 1);
        size_t len = strlen(w);
        memcpy(text + at, w, len);
        if (wl_rng_below(rng, 8) == 0)
            text[at] = (char)(text[at] - 'a' + 'A');
        at += len;
        uint32_t sep = wl_rng_below(rng, 20);
        if (sep < 16)
            text[at++] = ' ';
        else if (sep < 19) {
            text[at++] = sep == 16 ? ',' : '.';
            text[at++] = ' ';
        } else
            text[at++] = '\n';
    }
    memset(text + at, 0, 64);
    return at;
}

static int wc_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* sort n (key, value) pairs by key, in place */
static void wc_sort_pairs(uint32_t *k, uint32_t *v, size_t n)
{
    uint64_t *kv = wl_alloc(n * sizeof(uint64_t) + 1);
    for (size_t i = 0; i < n; i++)
        kv[i] = (uint64_t)k[i] << 32 | v[i];
    qsort(kv, n, sizeof *kv, wc_cmp_u64);
    for (size_t i = 0; i < n; i++) {
        k[i] = (uint32_t)(kv[i] >> 32);
        v[i] = (uint32_t)kv[i];
    }
    free(kv);
}

static ws_status wc_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d, const char *text, int n_bytes, int bits,
                           uint32_t *keys, uint32_t *counts, uint32_t *n_out, unsigned *launches)
{
    int slots = 1 << bits, chunk = WC_CHUNK;
    WL_TRY(wl_upload(ctx, &d[0], text, (size_t)n_bytes + 64));
    for (int i = 1; i < 5; i++)
        WL_TRY(wl_upload(ctx, &d[i], NULL, (size_t)slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d[5], NULL, sizeof(uint32_t)));
    int threads = (n_bytes + WC_CHUNK - 1) / WC_CHUNK;
    void *margs[] = {&d[0], &n_bytes, &chunk, &d[1], &d[2], &bits};
    WL_TRY(wsLaunchKernel(ctx, mod, "wc_map", ws_dim((unsigned)((threads + WC_BLOCK - 1) / WC_BLOCK), 1, 1),
                          ws_dim(WC_BLOCK, 1, 1), 0, margs));
    void *rargs[] = {&d[1], &d[2], &slots, &d[3], &d[4], &d[5]};
    unsigned rctas = (unsigned)((slots + WC_BLOCK - 1) / WC_BLOCK);
    WL_TRY(wsLaunchKernel(ctx, mod, "wc_reduce", ws_dim(rctas > 60 ? 60 : rctas, 1, 1), ws_dim(WC_BLOCK, 1, 1), 0,
                          rargs));
    *launches += 2;
    WL_TRY(wsMemcpyDtoH(ctx, n_out, d[5], sizeof(uint32_t)));
    if (*n_out > (uint32_t)slots)
        *n_out = (uint32_t)slots;
    WL_TRY(wsMemcpyDtoH(ctx, keys, d[3], *n_out * sizeof(uint32_t)));
    return wsMemcpyDtoH(ctx, counts, d[4], *n_out * sizeof(uint32_t));
}

static ws_status wc_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: 32 MB of text (Mars WC's inputs run from 16 to 256 MB) */
    size_t target = WL_BY_SIZE(o, (size_t)48 << 10, (size_t)4 << 20, (size_t)32 << 20);
    int v = WL_BY_SIZE(o, 800, 8000, 40000);
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    char *words = wl_alloc((size_t)v * (WC_MAXLEN + 1));
    uint32_t *hash = wl_alloc((size_t)v * sizeof(uint32_t)), *count = wl_alloc((size_t)v * sizeof(uint32_t));
    memset(count, 0, (size_t)v * sizeof(uint32_t));
    wc_vocab(&rng, v, words, hash);
    char *text = wl_alloc(target + 2 * WC_MAXLEN + 64);
    int n_bytes = (int)wc_text(&rng, v, words, target, text, count);

    int bits = 4;
    while ((1 << bits) < 2 * v)
        bits++;
    size_t slots = (size_t)1 << bits;
    uint32_t *keys = wl_alloc(slots * sizeof(uint32_t)), *counts = wl_alloc(slots * sizeof(uint32_t)), n_out = 0;
    ws_devptr d[6] = {0, 0, 0, 0, 0, 0};
    ws_status st = wc_device(ctx, mod, d, text, n_bytes, bits, keys, counts, &n_out, &r->launches);
    if (st == WS_SUCCESS) {
        uint32_t n_ref = 0, total = 0;
        for (int i = 0; i < v; i++)
            if (count[i]) {
                hash[n_ref] = hash[i];
                count[n_ref++] = count[i];
                total += count[i];
            }
        wc_sort_pairs(hash, count, n_ref);
        wc_sort_pairs(keys, counts, n_out);
        if (wl_check_u32(r, "distinct words", &n_out, &n_ref, 1)) {
            wl_check_u32(r, "word hashes", keys, hash, n_ref);
            wl_check_u32(r, "word counts", counts, count, n_ref);
        }
        if (o->verbose)
            fprintf(o->log, "wc: %d bytes, %u words, %u distinct\n", n_bytes, total, n_ref);
    }
    for (int i = 0; i < 6; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(words);
    free(hash);
    free(count);
    free(text);
    free(keys);
    free(counts);
    return st;
}

const struct workload wl_wc = {
    .name = "wc",
    .summary = "MapReduce word count (Mars WC; 000 Tables 4.2/5.3): byte-wise tokenising of 128-byte chunks per "
               "thread, atomicCAS hash table of words with contended atomicAdd counters",
    .tolerance = "exact",
    .run = wc_run,
};
