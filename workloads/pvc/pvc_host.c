/*
 * pvc_host.c - driver for the MapReduce page-view count (workloads/pvc/pvc.cu, Mars PVC).
 *
 * Input: a synthetic web-server log in the common log format.  Page
 * popularity is heavily skewed (a few pages take most views, as in real
 * logs), a quarter of the requests repeat a recent (visitor, page) pair (a
 * reload, which must not count twice), some URLs carry a query string (which
 * must not split a page), and some requests fail (404/304/500: no view).
 * Check: the GPU's (URL hash, distinct viewers) list, sorted by hash, must
 * equal a CPU count made from the generator's own record of every request
 * (not by parsing the text): the pairs are deduplicated by sorting instead of
 * hashing.  Exact.
 */
#include <string.h>

#include "common/wl_util.h"

#define PVC_BLOCK 256

struct pvc_input {
    int n_rec, n_pages;
    unsigned char *log;      /* the log text (NUL-padded) */
    size_t log_bytes;
    uint32_t *rec_off;       /* start of every line */
    uint32_t *rec_ip;        /* what the generator wrote, for the reference */
    uint32_t *rec_page;
    uint16_t *rec_status;
    uint32_t *page_hash;     /* FNV-1a of every page's path */
};

static const char *const pvc_sections[] = {"news", "sports", "tech", "blog", "shop", "video", "docs", "forum"};
static const char *const pvc_months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/* the path of page p; e.g. /tech/article-1234.html */
static int pvc_path(char *buf, size_t cap, uint32_t p)
{
    const char *sec = pvc_sections[p % 8u];
    return snprintf(buf, cap, "/%s/%s-%u.html", sec, (p & 8u) ? "article" : "item", p);
}

static uint32_t pvc_fnv(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint32_t)(unsigned char)*s) * 16777619u;
    return h ? h : 1u;
}

static void pvc_generate(struct pvc_input *in, uint64_t seed, int n_visitors)
{
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    uint32_t *visitor_ip = wl_alloc((size_t)n_visitors * sizeof(uint32_t));
    for (int v = 0; v < n_visitors; v++)
        visitor_ip[v] = wl_rng_u32(&rng);
    in->page_hash = wl_alloc((size_t)in->n_pages * sizeof(uint32_t));
    char path[64];
    for (int p = 0; p < in->n_pages; p++) {
        pvc_path(path, sizeof path, (uint32_t)p);
        in->page_hash[p] = pvc_fnv(path);
    }

    size_t n = (size_t)in->n_rec;
    in->rec_off = wl_alloc(n * sizeof(uint32_t));
    in->rec_ip = wl_alloc(n * sizeof(uint32_t));
    in->rec_page = wl_alloc(n * sizeof(uint32_t));
    in->rec_status = wl_alloc(n * sizeof(uint16_t));
    size_t cap = n * 160 + 64;
    in->log = wl_alloc(cap);
    size_t at = 0;
    uint32_t t = 0;   /* seconds since the start of the log */
    for (size_t r = 0; r < n; r++) {
        uint32_t ip, page;
        if (r > 0 && wl_rng_below(&rng, 4) == 0) {
            /* a reload: the same visitor and page as a recent request */
            size_t back = 1 + wl_rng_below(&rng, r < 64 ? (uint32_t)r : 64u);
            ip = in->rec_ip[r - back];
            page = in->rec_page[r - back];
        } else {
            double u = (double)wl_rng_u32(&rng) / 4294967296.0;
            page = (uint32_t)((double)in->n_pages * u * u * u);   /* skewed: page 0 is the most popular */
            ip = visitor_ip[wl_rng_below(&rng, (uint32_t)n_visitors)];
        }
        uint32_t roll = wl_rng_below(&rng, 100);
        uint16_t status = roll < 85 ? 200 : roll < 92 ? 304 : roll < 97 ? 404 : 500;
        in->rec_ip[r] = ip;
        in->rec_page[r] = page;
        in->rec_status[r] = status;
        in->rec_off[r] = (uint32_t)at;

        t += wl_rng_below(&rng, 3);
        pvc_path(path, sizeof path, page);
        char query[32] = "";
        uint32_t q = wl_rng_below(&rng, 10);
        if (q < 2)
            snprintf(query, sizeof query, "?sid=%08x", wl_rng_u32(&rng));
        else if (q == 2)
            snprintf(query, sizeof query, "?ref=%s", pvc_sections[wl_rng_below(&rng, 8)]);
        int w = snprintf((char *)in->log + at, cap - at,
                         "%u.%u.%u.%u - - [%02u/%s/2009:%02u:%02u:%02u -0700] \"GET %s%s HTTP/1.1\" %u %u\n",
                         ip >> 24, (ip >> 16) & 255u, (ip >> 8) & 255u, ip & 255u, 1u + (t / 86400u) % 28u,
                         pvc_months[(t / (86400u * 28u)) % 12u], (t / 3600u) % 24u, (t / 60u) % 60u, t % 60u, path,
                         query, (unsigned)status, status == 200 ? 200u + wl_rng_below(&rng, 60000) : 0u);
        at += (size_t)w;
    }
    memset(in->log + at, 0, cap - at > 64 ? 64 : cap - at);
    in->log_bytes = at + 64;
    free(visitor_ip);
}

static int pvc_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Reference: distinct (page hash, IP) pairs of successful requests, then the
   number of pairs per page hash, both by sorting.  Returns the number of URLs. */
static size_t pvc_reference(const struct pvc_input *in, uint32_t *keys, uint32_t *views)
{
    uint64_t *pairs = wl_alloc((size_t)in->n_rec * sizeof(uint64_t));
    size_t np = 0;
    for (int r = 0; r < in->n_rec; r++)
        if (in->rec_status[r] == 200)
            pairs[np++] = (uint64_t)in->page_hash[in->rec_page[r]] << 32 | in->rec_ip[r];
    qsort(pairs, np, sizeof *pairs, pvc_cmp_u64);
    size_t nk = 0;
    for (size_t i = 0; i < np; i++) {
        if (i > 0 && pairs[i] == pairs[i - 1])
            continue;
        uint32_t h = (uint32_t)(pairs[i] >> 32);
        if (nk > 0 && keys[nk - 1] == h) {
            views[nk - 1]++;
        } else {
            keys[nk] = h;
            views[nk++] = 1;
        }
    }
    free(pairs);
    return nk;
}

struct pvc_dev {
    ws_devptr log, off, seen, url_key, url_views, out_key, out_views, n_out;
};

static ws_status pvc_device(ws_ctx *ctx, ws_module *mod, struct pvc_dev *d, const struct pvc_input *in,
                            int seen_bits, int url_bits, uint32_t *keys, uint32_t *views, uint32_t *n_out,
                            unsigned *launches)
{
    int url_slots = 1 << url_bits;
    WL_TRY(wl_upload(ctx, &d->log, in->log, in->log_bytes));
    WL_TRY(wl_upload(ctx, &d->off, in->rec_off, (size_t)in->n_rec * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->seen, NULL, ((size_t)1 << seen_bits) * sizeof(uint64_t)));
    WL_TRY(wl_upload(ctx, &d->url_key, NULL, (size_t)url_slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->url_views, NULL, (size_t)url_slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->out_key, NULL, (size_t)url_slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->out_views, NULL, (size_t)url_slots * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d->n_out, NULL, sizeof(uint32_t)));

    int n_rec = in->n_rec;
    void *map_args[] = {&d->log, &d->off, &n_rec, &d->seen, &seen_bits, &d->url_key, &d->url_views, &url_bits};
    unsigned ctas = (unsigned)((n_rec + PVC_BLOCK - 1) / PVC_BLOCK);
    WL_TRY(wsLaunchKernel(ctx, mod, "pvc_map", ws_dim(ctas, 1, 1), ws_dim(PVC_BLOCK, 1, 1), 0, map_args));
    (*launches)++;

    void *red_args[] = {&d->url_key, &d->url_views, &url_slots, &d->out_key, &d->out_views, &d->n_out};
    unsigned rctas = (unsigned)((url_slots + PVC_BLOCK - 1) / PVC_BLOCK);
    if (rctas > 60)
        rctas = 60;
    WL_TRY(wsLaunchKernel(ctx, mod, "pvc_reduce", ws_dim(rctas, 1, 1), ws_dim(PVC_BLOCK, 1, 1), 0, red_args));
    (*launches)++;

    WL_TRY(wsMemcpyDtoH(ctx, n_out, d->n_out, sizeof(uint32_t)));
    if (*n_out > (uint32_t)url_slots)
        *n_out = (uint32_t)url_slots;
    WL_TRY(wsMemcpyDtoH(ctx, keys, d->out_key, (size_t)*n_out * sizeof(uint32_t)));
    return wsMemcpyDtoH(ctx, views, d->out_views, (size_t)*n_out * sizeof(uint32_t));
}

static int pvc_bits_for(int n)
{
    int b = 4;
    while ((1 << b) < 2 * n)   /* load factor at most 1/2 */
        b++;
    return b;
}

static ws_status pvc_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    struct pvc_input in;
    memset(&in, 0, sizeof in);
    /* paper: a log of a million requests (about 100 MB of text) */
    in.n_rec = WL_BY_SIZE(o, 3000, 64000, 1000000);
    in.n_pages = WL_BY_SIZE(o, 400, 6000, 60000);
    int n_visitors = WL_BY_SIZE(o, 600, 10000, 150000);
    pvc_generate(&in, o->seed, n_visitors);

    int seen_bits = pvc_bits_for(in.n_rec), url_bits = pvc_bits_for(in.n_pages);
    size_t slots = (size_t)1 << url_bits;
    uint32_t *keys = wl_alloc(slots * sizeof(uint32_t)), *views = wl_alloc(slots * sizeof(uint32_t));
    uint32_t *ref_keys = wl_alloc((size_t)in.n_pages * sizeof(uint32_t));
    uint32_t *ref_views = wl_alloc((size_t)in.n_pages * sizeof(uint32_t));
    uint32_t n_out = 0;

    struct pvc_dev d;
    memset(&d, 0, sizeof d);
    ws_status st = pvc_device(ctx, mod, &d, &in, seen_bits, url_bits, keys, views, &n_out, &r->launches);
    if (st == WS_SUCCESS) {
        uint32_t n_ref = (uint32_t)pvc_reference(&in, ref_keys, ref_views);
        /* sort the GPU's list by key (its order is the atomic cursor's) */
        uint64_t *kv = wl_alloc((size_t)n_out * sizeof(uint64_t) + 1);
        for (uint32_t i = 0; i < n_out; i++)
            kv[i] = (uint64_t)keys[i] << 32 | views[i];
        qsort(kv, n_out, sizeof *kv, pvc_cmp_u64);
        for (uint32_t i = 0; i < n_out; i++) {
            keys[i] = (uint32_t)(kv[i] >> 32);
            views[i] = (uint32_t)kv[i];
        }
        free(kv);
        if (wl_check_u32(r, "number of URLs viewed", &n_out, &n_ref, 1)) {
            wl_check_u32(r, "URL hashes", keys, ref_keys, n_ref);
            wl_check_u32(r, "distinct views per URL", views, ref_views, n_ref);
        }
        if (o->verbose) {
            uint32_t top = 0;
            for (uint32_t i = 0; i < n_ref; i++)
                top = ref_views[i] > top ? ref_views[i] : top;
            fprintf(o->log, "pvc: %d requests (%zu bytes of log), %u URLs viewed, most viewed %u\n", in.n_rec,
                    in.log_bytes, n_ref, top);
        }
    }
    ws_devptr *bufs[] = {&d.log, &d.off, &d.seen, &d.url_key, &d.url_views, &d.out_key, &d.out_views, &d.n_out};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i])
            wsFree(ctx, *bufs[i]);
    free(keys);
    free(views);
    free(ref_keys);
    free(ref_views);
    free(in.log);
    free(in.rec_off);
    free(in.rec_ip);
    free(in.rec_page);
    free(in.rec_status);
    free(in.page_hash);
    return st;
}

const struct workload wl_pvc = {
    .name = "pvc",
    .summary = "MapReduce page-view count (Mars PVC; 001 PVC, expected Type-M): per-line log parsing, URL "
               "hashing, atomicCAS hash tables with contended counters",
    .tolerance = "exact",
    .run = pvc_run,
};
