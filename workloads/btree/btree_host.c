/*
 * btree_host.c - driver for btree.cu: B+tree point and range lookups
 * (Rodinia b+tree findK and findRangeK; 000's BT, memory-intensive).
 *
 * Input: nrec distinct sorted keys (random gaps) with random values, bulk
 * loaded into a tree of fan-out BT_FAN whose nodes are filled to a random
 * 55-100% (an insertion-built tree is not packed either).  Point queries: half
 * existing keys, half random values (mostly absent, some outside the key
 * range).  Range queries: a random start and a width of up to ~2 leaves.
 * Check: exact, against binary searches on the sorted key array (value or
 * -1; lower-bound rank and number of keys in [lo, hi]).
 */
#include <limits.h>
#include <string.h>

#include "common/wl_util.h"

#define BT_FAN 256 /* must match btree.cu */
#define BT_SLOTS (BT_FAN + 1)

struct bt_tree {
    int nnodes, height;
    int32_t *keys, *idx, *base;   /* BT_SLOTS per node for keys/idx; one per node for base */
};

/* Split `count` items into nodes of random fill; returns the number of nodes,
   sizes[] gets each node's item count. */
static int bt_split(int count, int32_t *sizes, struct wl_rng *rng)
{
    int nodes = 0;
    while (count > 0) {
        int want = BT_FAN * 55 / 100 + (int)wl_rng_below(rng, (uint32_t)(BT_FAN - BT_FAN * 55 / 100 + 1));
        int take = count < want ? count : want;
        sizes[nodes++] = take;
        count -= take;
    }
    return nodes;
}

/* Bulk load, bottom-up; the root ends up at node 0 (levels stored root first). */
static void bt_build(struct bt_tree *t, const int32_t *keys, int nrec, struct wl_rng *rng)
{
    /* level sizes, bottom-up */
    int32_t *sizes = wl_alloc((size_t)nrec * sizeof(int32_t));
    int level_nodes[32], nlev = 0;
    int32_t *lev_sizes[32];
    int count = nrec;
    do {
        int nn = bt_split(count, sizes, rng);
        lev_sizes[nlev] = wl_alloc((size_t)nn * sizeof(int32_t));
        memcpy(lev_sizes[nlev], sizes, (size_t)nn * sizeof(int32_t));
        level_nodes[nlev++] = nn;
        count = nn;
    } while (count > 1);
    t->height = nlev;
    t->nnodes = 0;
    for (int l = 0; l < nlev; l++)
        t->nnodes += level_nodes[l];
    t->keys = wl_alloc((size_t)t->nnodes * BT_SLOTS * sizeof(int32_t));
    t->idx = wl_alloc((size_t)t->nnodes * BT_SLOTS * sizeof(int32_t));
    t->base = wl_alloc((size_t)t->nnodes * sizeof(int32_t));
    for (size_t i = 0; i < (size_t)t->nnodes * BT_SLOTS; i++) {
        t->keys[i] = INT_MAX;
        t->idx[i] = 0;
    }
    /* first node of each level: levels from the top (level nlev-1 = root) down */
    int first[32], at = 0;
    for (int l = nlev - 1; l >= 0; l--) {
        first[l] = at;
        at += level_nodes[l];
    }
    /* leaves */
    int32_t *minkey = wl_alloc((size_t)level_nodes[0] * sizeof(int32_t));
    int rank = 0;
    for (int nd = 0; nd < level_nodes[0]; nd++) {
        int node = first[0] + nd;
        t->base[node] = rank;
        minkey[nd] = keys[rank];
        for (int j = 0; j < lev_sizes[0][nd]; j++, rank++) {
            t->keys[(size_t)node * BT_SLOTS + (size_t)j] = keys[rank];
            t->idx[(size_t)node * BT_SLOTS + (size_t)j] = rank;
        }
    }
    /* internal levels: children are the level below, in order */
    for (int l = 1; l < nlev; l++) {
        int child = 0;
        for (int nd = 0; nd < level_nodes[l]; nd++) {
            int node = first[l] + nd;
            t->base[node] = -1;
            int m0 = minkey[child];
            for (int j = 0; j < lev_sizes[l][nd]; j++, child++) {
                t->keys[(size_t)node * BT_SLOTS + (size_t)j] = minkey[child];
                t->idx[(size_t)node * BT_SLOTS + (size_t)j] = first[l - 1] + child;
            }
            minkey[nd] = m0;   /* nd < child: the entries still needed are not overwritten */
        }
    }
    free(minkey);
    for (int l = 0; l < nlev; l++)
        free(lev_sizes[l]);
    free(sizes);
}

static int bt_lower_bound(const int32_t *keys, int n, int32_t q)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (keys[mid] < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct bt_io {
    int nk, nr;
    int32_t *q, *ans, *lo, *hi, *start, *count;
};

static ws_status bt_device(ws_ctx *ctx, ws_module *mod, const struct bt_tree *t, const int32_t *values, int nrec,
                           struct bt_io *io, struct wl_result *r, ws_devptr *d)
{
    size_t slots = (size_t)t->nnodes * BT_SLOTS * sizeof(int32_t);
    WL_TRY(wl_upload(ctx, &d[0], t->keys, slots));
    WL_TRY(wl_upload(ctx, &d[1], t->idx, slots));
    WL_TRY(wl_upload(ctx, &d[2], t->base, (size_t)t->nnodes * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d[3], values, (size_t)nrec * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d[4], io->q, (size_t)io->nk * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d[5], NULL, (size_t)io->nk * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d[6], io->lo, (size_t)io->nr * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d[7], io->hi, (size_t)io->nr * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d[8], NULL, (size_t)io->nr * sizeof(int32_t)));
    WL_TRY(wl_upload(ctx, &d[9], NULL, (size_t)io->nr * sizeof(int32_t)));
    int height = t->height;
    void *kargs[] = {&d[0], &d[1], &d[3], &height, &d[4], &d[5]};
    WL_TRY(wsLaunchKernel(ctx, mod, "btree_findk", ws_dim((unsigned)io->nk, 1, 1), ws_dim(BT_FAN, 1, 1), 0, kargs));
    void *rargs[] = {&d[0], &d[1], &d[2], &height, &d[6], &d[7], &d[8], &d[9]};
    WL_TRY(wsLaunchKernel(ctx, mod, "btree_findrange", ws_dim((unsigned)io->nr, 1, 1), ws_dim(BT_FAN, 1, 1), 0,
                          rargs));
    r->launches += 2;
    WL_TRY(wsMemcpyDtoH(ctx, io->ans, d[5], (size_t)io->nk * sizeof(int32_t)));
    WL_TRY(wsMemcpyDtoH(ctx, io->start, d[8], (size_t)io->nr * sizeof(int32_t)));
    WL_TRY(wsMemcpyDtoH(ctx, io->count, d[9], (size_t)io->nr * sizeof(int32_t)));
    return WS_SUCCESS;
}

static ws_status bt_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: Rodinia's mil.txt tree (1M records) with its command file's 10000 findK and 6000 findRangeK queries */
    int nrec = WL_BY_SIZE(o, 65536, 262144, 1000000);
    struct bt_io io;
    memset(&io, 0, sizeof io);
    io.nk = WL_BY_SIZE(o, 48, 2400, 10000);
    io.nr = WL_BY_SIZE(o, 24, 1200, 6000);
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    int32_t *keys = wl_alloc((size_t)nrec * sizeof(int32_t)), *values = wl_alloc((size_t)nrec * sizeof(int32_t));
    int32_t k = (int32_t)wl_rng_below(&rng, 1000);
    for (int i = 0; i < nrec; i++) {
        k += 1 + (int32_t)wl_rng_below(&rng, 8);
        keys[i] = k;
        values[i] = (int32_t)(wl_rng_u32(&rng) >> 1);
    }
    int32_t kmin = keys[0], kmax = keys[nrec - 1];
    struct bt_tree t;
    bt_build(&t, keys, nrec, &rng);

    io.q = wl_alloc((size_t)io.nk * sizeof(int32_t));
    io.ans = wl_alloc((size_t)io.nk * sizeof(int32_t));
    io.lo = wl_alloc((size_t)io.nr * sizeof(int32_t));
    io.hi = wl_alloc((size_t)io.nr * sizeof(int32_t));
    io.start = wl_alloc((size_t)io.nr * sizeof(int32_t));
    io.count = wl_alloc((size_t)io.nr * sizeof(int32_t));
    uint32_t span = (uint32_t)(kmax - kmin) + 200u;
    for (int i = 0; i < io.nk; i++)
        io.q[i] = (i & 1) ? keys[wl_rng_below(&rng, (uint32_t)nrec)] : kmin - 100 + (int32_t)wl_rng_below(&rng, span);
    for (int i = 0; i < io.nr; i++) {
        io.lo[i] = kmin - 100 + (int32_t)wl_rng_below(&rng, span);
        io.hi[i] = io.lo[i] + (int32_t)wl_rng_below(&rng, 9 * BT_FAN);   /* mean gap 4.5: up to ~2 leaves */
    }
    if (o->verbose)
        fprintf(o->log, "btree: %d records, fan-out %d, height %d, %d nodes; %d point and %d range queries\n", nrec,
                BT_FAN, t.height, t.nnodes, io.nk, io.nr);

    ws_devptr d[10];
    memset(d, 0, sizeof d);
    ws_status st = bt_device(ctx, mod, &t, values, nrec, &io, r, d);
    if (st == WS_SUCCESS) {
        int32_t *want = wl_alloc((size_t)(io.nk > io.nr ? io.nk : io.nr) * sizeof(int32_t));
        for (int i = 0; i < io.nk; i++) {
            int p = bt_lower_bound(keys, nrec, io.q[i]);
            want[i] = p < nrec && keys[p] == io.q[i] ? values[p] : -1;
        }
        wl_check_i32(r, "findK values", io.ans, want, (size_t)io.nk);
        for (int i = 0; i < io.nr; i++)
            want[i] = bt_lower_bound(keys, nrec, io.lo[i]);
        wl_check_i32(r, "findRangeK start ranks", io.start, want, (size_t)io.nr);
        for (int i = 0; i < io.nr; i++) {
            int64_t end = (int64_t)bt_lower_bound(keys, nrec, io.hi[i] == INT_MAX ? INT_MAX : io.hi[i] + 1);
            want[i] = (int32_t)(end - want[i]);
        }
        wl_check_i32(r, "findRangeK counts", io.count, want, (size_t)io.nr);
        free(want);
    }
    for (int i = 0; i < 10; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(keys);
    free(values);
    free(t.keys);
    free(t.idx);
    free(t.base);
    free(io.q);
    free(io.ans);
    free(io.lo);
    free(io.hi);
    free(io.start);
    free(io.count);
    return st;
}

const struct workload wl_btree = {
    .name = "btree",
    .summary = "B+tree point and range lookups (Rodinia b+tree findK/findRangeK; 000 BT, expected Type-M): one "
               "CTA per query, data-dependent node gathers, shared-memory broadcast of the next node",
    .tolerance = "exact",
    .run = bt_run,
};
