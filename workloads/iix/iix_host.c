/*
 * iix_host.c - driver for the MapReduce inverted index (workloads/iix/iix.cu, Mars IIX).
 *
 * Input: synthetic HTML documents of 1-8 KB: words (some of them "href",
 * "here", "three": near-misses of the pattern), paragraphs, bold text,
 * images (src=, not a link) and links <a href="http://www.siteS.org/SEC/pN.html">
 * whose targets follow a skewed popularity (a few URLs are linked from
 * everywhere, most rarely).  Every document is padded with spaces to whole
 * 256-byte chunks.
 *
 * The host scans the per-URL counts into posting-list offsets between the
 * two kernels (MapReduce's group step).  Check: the GPU index, read as
 * (URL hash, sorted list of linking documents) in hash order, must equal the
 * one made from the generator's record of every link it wrote (not by
 * scanning the text), grouped by sorting.  Exact.
 */
#include <string.h>

#include "common/wl_util.h"

#define IIX_BLOCK 128
#define IIX_CHUNK 256

struct iix_input {
    int n_docs, n_urls;
    unsigned char *text;
    size_t text_bytes;       /* whole chunks, plus slack */
    int n_chunks;
    int32_t *chunk_doc;
    uint32_t *link_hash, *link_doc;   /* every link the generator wrote */
    size_t n_links;
};

static const char *const iix_sections[] = {"news", "wiki", "blog", "shop", "docs", "forum", "misc", "video"};
static const char *const iix_words[] = {
    "the", "of", "and", "a", "to", "in", "is", "you", "that", "it", "he", "was", "for", "on", "are", "as",
    "with", "his", "they", "at", "be", "this", "have", "from", "or", "one", "had", "by", "word", "but", "not",
    "what", "all", "were", "we", "when", "your", "can", "said", "there", "use", "an", "each", "which", "she",
    "do", "how", "their", "if", "will", "up", "other", "about", "out", "many", "then", "them", "these", "so",
    "href", "here", "three", "hr", "hrefs", "shelf", "thread", "hello", "html", "http", "header", "share",
};
#define IIX_NWORDS (sizeof iix_words / sizeof iix_words[0])

static uint32_t iix_fnv(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint32_t)(unsigned char)*s) * 16777619u;
    return h ? h : 1u;
}

static int iix_url(char *buf, size_t cap, uint32_t u)
{
    return snprintf(buf, cap, "http://www.site%u.org/%s/p%u.html", u % 61u, iix_sections[(u / 61u) % 8u], u);
}

static void iix_generate(struct iix_input *in, uint64_t seed)
{
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    size_t cap = (size_t)in->n_docs * (8192 + 1024) + 64;
    in->text = wl_alloc(cap);
    size_t link_cap = cap / 40 + 1;
    in->link_hash = wl_alloc(link_cap * sizeof(uint32_t));
    in->link_doc = wl_alloc(link_cap * sizeof(uint32_t));
    in->chunk_doc = wl_alloc(cap / IIX_CHUNK * sizeof(int32_t));
    char *t = (char *)in->text;
    size_t at = 0, nl = 0;
    char url[96];
    for (int d = 0; d < in->n_docs; d++) {
        size_t start = at, target = 1024 + wl_rng_below(&rng, 7168);
        at += (size_t)sprintf(t + at, "<html><head><title>document %d</title></head><body>\n<p>", d);
        while (at - start < target) {
            uint32_t roll = wl_rng_below(&rng, 100);
            const char *w = iix_words[wl_rng_below(&rng, (uint32_t)IIX_NWORDS)];
            if (roll < 70) {
                at += (size_t)sprintf(t + at, "%s ", w);
            } else if (roll < 75) {
                at += (size_t)sprintf(t + at, "</p>\n<p>");
            } else if (roll < 78) {
                at += (size_t)sprintf(t + at, "<b>%s</b> ", w);
            } else if (roll < 81) {
                at += (size_t)sprintf(t + at, "<img src=\"/img/%u.png\" alt=\"%s\"> ", wl_rng_below(&rng, 1000), w);
            } else if (roll < 88) {
                double x = (double)wl_rng_u32(&rng) / 4294967296.0;
                uint32_t u = (uint32_t)((double)in->n_urls * x * x);   /* skewed: URL 0 most linked */
                iix_url(url, sizeof url, u);
                at += (size_t)sprintf(t + at, "<a href=\"%s\">%s</a> ", url, w);
                in->link_hash[nl] = iix_fnv(url);
                in->link_doc[nl++] = (uint32_t)d;
            } else {
                at += (size_t)sprintf(t + at, "%s, ", w);
            }
        }
        at += (size_t)sprintf(t + at, "</p>\n</body></html>\n");
        size_t padded = (at + IIX_CHUNK - 1) / IIX_CHUNK * IIX_CHUNK;
        memset(t + at, ' ', padded - at);
        for (size_t c = start / IIX_CHUNK; c < padded / IIX_CHUNK; c++)
            in->chunk_doc[c] = d;
        at = padded;
    }
    in->n_chunks = (int)(at / IIX_CHUNK);
    memset(t + at, 0, 64);   /* the pattern test reads a few bytes past the last chunk */
    in->text_bytes = at + 64;
    in->n_links = nl;
}

static int iix_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}
static int iix_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Reference index: (hash, doc) pairs sorted; keys/counts per distinct hash and
   the docs in (hash, doc) order.  Returns the number of distinct URLs. */
static size_t iix_reference(const struct iix_input *in, uint32_t *keys, uint32_t *counts, uint32_t *docs)
{
    uint64_t *pairs = wl_alloc(in->n_links * sizeof(uint64_t) + 1);
    for (size_t i = 0; i < in->n_links; i++)
        pairs[i] = (uint64_t)in->link_hash[i] << 32 | in->link_doc[i];
    qsort(pairs, in->n_links, sizeof *pairs, iix_cmp_u64);
    size_t nk = 0;
    for (size_t i = 0; i < in->n_links; i++) {
        uint32_t h = (uint32_t)(pairs[i] >> 32);
        docs[i] = (uint32_t)pairs[i];
        if (nk > 0 && keys[nk - 1] == h) {
            counts[nk - 1]++;
        } else {
            keys[nk] = h;
            counts[nk++] = 1;
        }
    }
    free(pairs);
    return nk;
}

struct iix_dev {
    ws_devptr text, chunk_doc, url_key, url_count, pair_slot, pair_doc, n_pairs, url_off, url_fill, postings;
};

struct iix_out {
    uint32_t *key, *count, *off, *postings;   /* per slot, and the posting array */
    uint32_t n_pairs;
};

static ws_status iix_device(ws_ctx *ctx, ws_module *mod, struct iix_dev *d, const struct iix_input *in,
                            int url_bits, struct iix_out *out, unsigned *launches)
{
    size_t slots = (size_t)1 << url_bits, np = in->n_links ? in->n_links : 1;
    WL_TRY(wl_upload(ctx, &d->text, in->text, in->text_bytes));
    WL_TRY(wl_upload(ctx, &d->chunk_doc, in->chunk_doc, (size_t)in->n_chunks * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d->url_key, NULL, slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->url_count, NULL, slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->pair_slot, NULL, np * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->pair_doc, NULL, np * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->n_pairs, NULL, sizeof(uint32_t)));

    int n_chunks = in->n_chunks, chunk = IIX_CHUNK;
    void *map_args[] = {&d->text, &d->chunk_doc, &n_chunks, &chunk, &d->url_key, &d->url_count, &url_bits,
                        &d->pair_slot, &d->pair_doc, &d->n_pairs};
    unsigned ctas = (unsigned)((n_chunks + IIX_BLOCK - 1) / IIX_BLOCK);
    WL_TRY(wsLaunchKernel(ctx, mod, "iix_map", ws_dim(ctas, 1, 1), ws_dim(IIX_BLOCK, 1, 1), 0, map_args));
    (*launches)++;
    WL_TRY(wsMemcpyDtoH(ctx, &out->n_pairs, d->n_pairs, sizeof(uint32_t)));
    if (out->n_pairs != in->n_links)
        return WS_SUCCESS;   /* the caller reports the mismatch */
    WL_TRY(wsMemcpyDtoH(ctx, out->key, d->url_key, slots * sizeof(uint32_t)));
    WL_TRY(wsMemcpyDtoH(ctx, out->count, d->url_count, slots * sizeof(uint32_t)));

    /* group step on the host: exclusive scan of the counts */
    uint32_t sum = 0;
    for (size_t s = 0; s < slots; s++) {
        out->off[s] = sum;
        sum += out->count[s];
    }
    WL_TRY(wl_upload(ctx, &d->url_off, out->off, slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->url_fill, NULL, slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->postings, NULL, np * sizeof(uint32_t)));
    int n_pairs = (int)out->n_pairs;
    void *grp_args[] = {&d->pair_slot, &d->pair_doc, &n_pairs, &d->url_off, &d->url_fill, &d->postings};
    unsigned gctas = (unsigned)((n_pairs + IIX_BLOCK - 1) / IIX_BLOCK);
    if (gctas > 0) {
        WL_TRY(wsLaunchKernel(ctx, mod, "iix_group", ws_dim(gctas, 1, 1), ws_dim(IIX_BLOCK, 1, 1), 0, grp_args));
        (*launches)++;
    }
    return wsMemcpyDtoH(ctx, out->postings, d->postings, np * sizeof(uint32_t));
}

/* GPU index in hash order: keys/counts per URL, each posting list sorted. */
static size_t iix_canonical(const struct iix_out *out, size_t slots, uint32_t *keys, uint32_t *counts, uint32_t *docs)
{
    uint64_t *order = wl_alloc(slots * sizeof(uint64_t));
    size_t nk = 0;
    for (size_t s = 0; s < slots; s++)
        if (out->key[s] != 0)
            order[nk++] = (uint64_t)out->key[s] << 32 | s;
    qsort(order, nk, sizeof *order, iix_cmp_u64);
    size_t nd = 0;
    for (size_t k = 0; k < nk; k++) {
        uint32_t s = (uint32_t)order[k];
        keys[k] = out->key[s];
        counts[k] = out->count[s];
        memcpy(docs + nd, out->postings + out->off[s], out->count[s] * sizeof(uint32_t));
        qsort(docs + nd, out->count[s], sizeof(uint32_t), iix_cmp_u32);
        nd += out->count[s];
    }
    free(order);
    return nk;
}

static ws_status iix_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct iix_input in;
    memset(&in, 0, sizeof in);
    /* paper: 40000 documents, about 180 MB of HTML */
    in.n_docs = WL_BY_SIZE(o, 24, 1000, 40000);
    in.n_urls = WL_BY_SIZE(o, 300, 10000, 200000);
    iix_generate(&in, o->seed);

    int url_bits = 4;
    while ((1 << url_bits) < 2 * in.n_urls)   /* load factor at most 1/2 */
        url_bits++;
    size_t slots = (size_t)1 << url_bits, np = in.n_links + 1;
    struct iix_out out;
    out.key = wl_alloc(slots * sizeof(uint32_t));
    out.count = wl_alloc(slots * sizeof(uint32_t));
    out.off = wl_alloc(slots * sizeof(uint32_t));
    out.postings = wl_alloc(np * sizeof(uint32_t));
    out.n_pairs = 0;
    uint32_t *keys = wl_alloc(slots * sizeof(uint32_t)), *counts = wl_alloc(slots * sizeof(uint32_t));
    uint32_t *docs = wl_alloc(np * sizeof(uint32_t));
    uint32_t *ref_keys = wl_alloc(np * sizeof(uint32_t)), *ref_counts = wl_alloc(np * sizeof(uint32_t));
    uint32_t *ref_docs = wl_alloc(np * sizeof(uint32_t));

    struct iix_dev d;
    memset(&d, 0, sizeof d);
    ws_status st = iix_device(ctx, mod, &d, &in, url_bits, &out, &r->launches);
    if (st == WS_SUCCESS) {
        uint32_t want_pairs = (uint32_t)in.n_links;
        if (wl_check_u32(r, "links found", &out.n_pairs, &want_pairs, 1)) {
            uint32_t n_ref = (uint32_t)iix_reference(&in, ref_keys, ref_counts, ref_docs);
            uint32_t n_got = (uint32_t)iix_canonical(&out, slots, keys, counts, docs);
            if (wl_check_u32(r, "distinct URLs", &n_got, &n_ref, 1)) {
                wl_check_u32(r, "URL hashes", keys, ref_keys, n_ref);
                wl_check_u32(r, "links per URL", counts, ref_counts, n_ref);
                wl_check_u32(r, "posting lists", docs, ref_docs, in.n_links);
            }
            if (o->verbose)
                fprintf(o->log, "iix: %d documents, %zu bytes, %d chunks, %zu links to %u URLs\n", in.n_docs,
                        in.text_bytes, in.n_chunks, in.n_links, n_ref);
        }
    }
    ws_devptr *bufs[] = {&d.text, &d.chunk_doc, &d.url_key, &d.url_count, &d.pair_slot,
                         &d.pair_doc, &d.n_pairs, &d.url_off, &d.url_fill, &d.postings};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    free(out.key);
    free(out.count);
    free(out.off);
    free(out.postings);
    free(keys);
    free(counts);
    free(docs);
    free(ref_keys);
    free(ref_counts);
    free(ref_docs);
    free(in.text);
    free(in.chunk_doc);
    free(in.link_hash);
    free(in.link_doc);
    return st;
}

const struct workload wl_iix = {
    .name = "iix",
    .summary = "MapReduce inverted index (Mars IIX; 001 IIX, expected Type-M): byte-wise pattern matching of "
               "HTML chunks for links, atomicCAS URL table, atomic counting-sort grouping",
    .tolerance = "exact",
    .run = iix_run,
};
