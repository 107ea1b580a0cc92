/*
 * cache.c - the tag array, MSHR table and write/allocation policies of
 * mem/cache.h (the cache string parser is in cache_config.c).
 *
 * Layout: one flat array per line attribute, set-major (line = set * assoc +
 * way), so that a set's valid[] and reserved[] bytes are contiguous and can
 * be handed to the replacement policy as they are.  Tags are full block
 * addresses (the hashed index functions are not invertible, and a 64-bit
 * compare is as cheap as a shifted one).
 *
 * Line states:   invalid            valid=0 reserved=0
 *                pending (on miss)  valid=0 reserved=1 (allocated, fill in flight)
 *                valid / dirty      valid=1 reserved=0 (dirty=1 for modified)
 *
 * Counting (struct cache_stats): an access refused with
 * CACHE_RESERVATION_FAIL counts only in res_fail and one of its reasons (the
 * caller retries it, and the retry that gets in is counted then); every
 * accepted access counts once in accesses, in reads or writes, and in exactly
 * one of hits (line valid), hit_reserved (merged into a pending MSHR entry) or
 * misses (read_misses/write_misses; this includes misses that allocate nothing
 * and policy bypasses).  evictions counts valid lines replaced to make room
 * (not write-evict invalidations nor cache_invalidate_all), dirty_evictions
 * those of them that were dirty (reported through *wb_addr), fills the
 * cache_fill() calls, bypasses the misses or fills a replacement policy
 * declined to allocate (REPL_BYPASS).  bypassed counts the read misses the
 * bypass policy (policy/bypass.h) sent below unallocated (also in misses),
 * evicted_never_reused the evictions of lines that saw no hit (nor merge)
 * after their fill (each line carries a reuse byte for it).
 *
 * Bypass: the policy is asked on a read miss that would fetch its block,
 * only once the miss could allocate (a free MSHR entry, and on miss a set
 * with an evictable way): a miss that must wait for resources waits as under
 * no bypassing, and the policy is asked again when it is retried.  A
 * bypassed miss takes no MSHR entry and returns CACHE_MISS_NO_ALLOC (the
 * caller sends the request itself below and the reply goes straight to the
 * waiter, as GPGPU-Sim's -gpgpu_gmem_skip_L1D global loads).  Bypassed
 * misses to the same block are not merged (each goes below).  With
 * cache_set_bypass_mshr(c, true) a bypassed read instead takes an MSHR entry
 * of its own with no line (m_noalloc) and returns CACHE_MISS: later reads of
 * the block merge into it, its fill wakes them and allocates nothing; under
 * allocate-on-miss a write-allocating miss of that block waits (reservation
 * failure) until the fill.
 *
 * Allocation: on miss (m) a read miss reserves its victim at once (a dirty
 * victim is reported by that access); on fill (f) and streaming (s) only an
 * MSHR entry is taken and the victim is chosen when the data arrives (a dirty
 * victim is reported by cache_fill).  Streaming gets an MSHR of at least one
 * entry per line, so that in practice the MSHR does not limit its misses.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "policy/bypass.h"
#include "policy/params.h"
#include "policy/repl.h"

#define CACHE_NO_LINE UINT32_MAX
#define CACHE_BYP_PCS_LOG2 6
#define CACHE_BYP_PCS (1u << CACHE_BYP_PCS_LOG2)   /* distinct PCs counted one by one */

struct cache {
    struct cache_config cfg;
    const char *name;
    struct arena *arena;           /* for cache_set_repl */

    /* geometry */
    uint32_t nsets, assoc, line_log2, set_bits;
    uint32_t fold_first;           /* CI_FERMI_HASH: the first shift of the fold (set_bits << j) */
    uint64_t line_mask;            /* ~(line_size - 1) */
    bool sets_pow2;
    uint8_t alloc;                 /* effective: CA_ON_MISS or CA_ON_FILL (streaming = on fill) */

    /* tag array, [nsets * assoc] */
    uint64_t *blk;
    uint8_t *valid, *dirty, *reserved;
    uint32_t *line_mshr;           /* MSHR entry of a pending line */

    uint16_t *ipoly;               /* [8][256] GF(2) residues of each address byte (CI_IPOLY only) */

    /* replacement */
    const struct repl_ops *repl;
    void *repl_st;
    size_t repl_cap;
    /* bypass: NULL for "none" (no hook is called) */
    const struct bypass_ops *byp;
    void *byp_st;
    size_t byp_cap;
    uint8_t *reused;               /* [nsets * assoc] a hit since the line's fill */
    bool byp_mshr;                 /* a bypassed read takes an MSHR entry (cache_set_bypass_mshr) */
    uint32_t byp_inflight;         /* MSHR entries of bypassed reads in flight */
    /* bypassed misses per PC: open-addressed, CACHE_BYP_PCS entries, the rest in byp_pc_other */
    uint32_t *byp_pc;              /* PC + 1, 0 = empty */
    uint64_t *byp_pc_n;
    uint64_t byp_pc_other;

    /* MSHR table: entries kept in a free stack; lookup by block scans the busy ones */
    uint32_t m_n, m_merge, m_used;
    uint64_t *m_blk;
    uint8_t *m_busy, *m_dirty;     /* m_dirty: a write merged in, the line is dirty after its fill */
    uint8_t *m_noalloc;            /* a bypassed read's entry: the fill allocates nothing */
    uint32_t *m_line;              /* reserved line (on-miss) or CACHE_NO_LINE */
    uint32_t *m_pc;                /* PC of the access that opened the entry (policies see it at fill) */
    uint32_t *m_nw;                /* waiters so far (may not exceed m_merge) */
    uint64_t *m_w;                 /* [m_n * m_merge] waiters in arrival order */
    uint32_t *m_free;
    uint32_t m_nfree;

    /* the access in progress called a policy hook that may change the policy's state; the last
       refusal did not (cache_refusal_repeats) */
    bool hooked, refusal_repeats;

    struct cache_stats st;
};

/* Irreducible polynomials over GF(2) of degree 1..16 (bit d set for x^d). */
static const uint32_t cache_ipoly_poly[17] = {
    0, 0x3, 0x7, 0xB, 0x13, 0x25, 0x43, 0x83, 0x11D, 0x211, 0x409, 0x805, 0x1053, 0x201B, 0x4443, 0x8003, 0x1100B,
};

static uint32_t cache_log2(uint64_t v)
{
    uint32_t l = 0;
    while (((uint64_t)1 << l) < v)
        l++;
    return l;
}

static void *cache_zalloc(struct arena *a, size_t n, size_t sz)
{
    size_t bytes = n * sz;
    void *p = arena_alloc(a, bytes ? bytes : 1);
    SIM_ASSERT(p);
    return p;
}

/* Residue tables for the IPOLY index: set = (block number) mod P(x), computed
   as the XOR of the residues of its bytes (x^i mod P for every bit i). */
static void cache_ipoly_init(struct cache *c)
{
    uint32_t d = c->set_bits, p = cache_ipoly_poly[d];
    uint32_t r[64];
    uint32_t cur = 1;   /* x^0 */
    for (int i = 0; i < 64; i++) {
        r[i] = d ? cur : 0;
        cur <<= 1;
        if (d && (cur >> d) & 1)
            cur ^= p;
    }
    c->ipoly = cache_zalloc(c->arena, 8 * 256, sizeof *c->ipoly);
    for (uint32_t k = 0; k < 8; k++)
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t v = 0;
            for (uint32_t j = 0; j < 8; j++)
                if (b >> j & 1)
                    v ^= r[k * 8 + j];
            c->ipoly[k * 256 + b] = (uint16_t)v;
        }
}

static uint32_t cache_set_index(const struct cache *c, uint64_t addr)
{
    uint64_t bn = addr >> c->line_log2;   /* block number */
    uint64_t mask = ((uint64_t)1 << c->set_bits) - 1;
    switch (c->cfg.index) {
    case CI_FERMI_HASH: {
        /* Fold every higher group of set_bits bits of the block number into
           the index: strides that are a multiple of nsets lines, which all
           land in one set under linear indexing, spread over the sets. */
        if (!c->set_bits)
            return 0;
        /* the XOR of all groups in log steps: after x ^= x >> (set_bits << j) each of the low
           2^j groups holds the XOR of the groups congruent to it mod 2^j (cache_fold_first) */
        uint64_t x = bn;
        for (uint32_t sh = c->fold_first; sh >= c->set_bits; sh >>= 1)
            x ^= x >> sh;
        return (uint32_t)(x & mask);
    }
    case CI_XOR:
        /* only the lowest tag bits are XORed into the index */
        return (uint32_t)((bn ^ (bn >> c->set_bits)) & mask);
    case CI_IPOLY: {
        uint32_t s = 0;
        for (uint32_t k = 0; k < 8; k++)
            s ^= c->ipoly[k * 256 + ((bn >> (8 * k)) & 0xff)];
        return s;
    }
    default:
        return c->sets_pow2 ? (uint32_t)(bn & mask) : (uint32_t)(bn % c->nsets);
    }
}

/* Allocate (or reuse) the policy's state, zero it, apply its parameter table
   (defaults, then pp's "repl.<name>.*" values), then init it. */
static int cache_repl_setup(struct cache *c, const struct repl_ops *ops, const struct policy_params *pp,
                            char *msg, size_t n)
{
    SIM_ASSERT(ops && ops->state_size && ops->init && ops->victim && ops->on_hit && ops->on_fill);
    struct cfg_error err;
    memset(&err, 0, sizeof err);
    if (ops->nparams) {
        /* validate on a scratch state first (the parameters live in the state's head, which a
           1 x 1 state holds): a refusal leaves the cache's current policy untouched */
        void *scratch = calloc(1, ops->state_size(1, 1));
        int rc = scratch ? policy_params_apply(pp, "repl", ops->name, ops->params, ops->nparams, scratch, &err) : -1;
        free(scratch);
        if (rc != 0) {
            if (msg && n)
                snprintf(msg, n, "%s: %s", c->name, err.msg[0] ? err.msg : "out of host memory");
            return -1;
        }
    }
    size_t need = ops->state_size(c->nsets, c->assoc);
    if (need > c->repl_cap || !c->repl_st) {
        c->repl_st = cache_zalloc(c->arena, need, 1);
        c->repl_cap = need;
    }
    memset(c->repl_st, 0, need);
    if (ops->nparams && policy_params_apply(pp, "repl", ops->name, ops->params, ops->nparams, c->repl_st, &err) != 0)
        SIM_ASSERT(0);   /* the same values applied to the scratch state */
    c->repl = ops;
    ops->init(c->repl_st, c->nsets, c->assoc);
    return 0;
}

void cache_set_repl(struct cache *c, const struct repl_ops *ops)
{
    int rc = cache_repl_setup(c, ops, NULL, NULL, 0);
    SIM_ASSERT(rc == 0);   /* a policy's defaults always apply (test_repl_rrip checks every registered one) */
}

int cache_set_repl_name(struct cache *c, const char *name, const struct policy_params *pp, char *msg, size_t n)
{
    const char *want = name && name[0] ? name : cache_config_repl_name(&c->cfg);
    const struct repl_ops *ops = repl_find(want);
    if (!ops) {
        char names[256];
        repl_names(names, sizeof names);
        if (msg && n)
            snprintf(msg, n, "%s: unknown replacement policy '%s' (valid: %s)", c->name, want, names);
        return -1;
    }
    return cache_repl_setup(c, ops, pp, msg, n);
}

const char *cache_repl_name(const struct cache *c) { return c->repl->name; }

int cache_set_bypass_name(struct cache *c, const char *name, const struct policy_params *pp, char *msg, size_t n)
{
    const char *want = name && name[0] ? name : "none";
    const struct bypass_ops *ops = bypass_find(want);
    if (!ops) {
        char names[256];
        bypass_names(names, sizeof names);
        if (msg && n)
            snprintf(msg, n, "%s: unknown bypass policy '%s' (valid: %s)", c->name, want, names);
        return -1;
    }
    SIM_ASSERT(ops->state_size && ops->init && ops->should_bypass);
    struct cfg_error err;
    memset(&err, 0, sizeof err);
    if (ops->nparams) {
        /* validate on a scratch state first (as cache_repl_setup) */
        void *scratch = calloc(1, ops->state_size(1, 1));
        int rc = scratch ? policy_params_apply(pp, "bypass", ops->name, ops->params, ops->nparams, scratch, &err) : -1;
        free(scratch);
        if (rc != 0) {
            if (msg && n)
                snprintf(msg, n, "%s: %s", c->name, err.msg[0] ? err.msg : "out of host memory");
            return -1;
        }
    }
    if (strcmp(ops->name, "none") == 0) {
        c->byp = NULL;   /* the default: no hook on the access path */
        return 0;
    }
    size_t need = ops->state_size(c->nsets, c->assoc);
    if (need > c->byp_cap || !c->byp_st) {
        c->byp_st = cache_zalloc(c->arena, need, 1);
        c->byp_cap = need;
    }
    if (!c->byp_pc) {
        c->byp_pc = cache_zalloc(c->arena, CACHE_BYP_PCS, sizeof *c->byp_pc);
        c->byp_pc_n = cache_zalloc(c->arena, CACHE_BYP_PCS, sizeof *c->byp_pc_n);
    }
    memset(c->byp_st, 0, need);
    if (ops->nparams && policy_params_apply(pp, "bypass", ops->name, ops->params, ops->nparams, c->byp_st, &err) != 0)
        SIM_ASSERT(0);   /* the same values applied to the scratch state */
    c->byp = ops;
    ops->init(c->byp_st, c->nsets, c->assoc);
    return 0;
}

const char *cache_bypass_name(const struct cache *c) { return c->byp ? c->byp->name : "none"; }

void cache_set_bypass_mshr(struct cache *c, bool on)
{
    SIM_ASSERT(!c->byp_inflight);   /* setup time */
    c->byp_mshr = on;
}

int cache_bypass_pc_info(const struct cache *c, uint32_t pc, struct bypass_pc_info *out)
{
    if (!c->byp || !c->byp->pc_info)
        return -1;
    c->byp->pc_info(c->byp_st, pc, out);
    return 0;
}

unsigned cache_bypass_pcs(const struct cache *c, uint32_t *pcs, uint64_t *counts, unsigned max, uint64_t *other)
{
    unsigned k = 0;
    if (other)
        *other = c->byp_pc_other;
    if (!c->byp_pc)
        return 0;
    /* in PC order (deterministic, independent of the hash) */
    uint32_t last = 0;   /* PC + 1 of the previous entry written */
    while (k < max) {
        uint32_t best = 0;
        uint64_t n = 0;
        for (uint32_t i = 0; i < CACHE_BYP_PCS; i++)
            if (c->byp_pc[i] > last && (!best || c->byp_pc[i] < best)) {
                best = c->byp_pc[i];
                n = c->byp_pc_n[i];
            }
        if (!best)
            break;
        pcs[k] = best - 1;
        counts[k++] = n;
        last = best;
    }
    return k;
}

struct cache *cache_new(struct arena *a, const struct cache_config *cfg, const char *name)
{
    SIM_ASSERT(cfg->nsets && cfg->assoc && cfg->line_size && !(cfg->line_size & (cfg->line_size - 1)));
    SIM_ASSERT(cfg->mshr_entries && cfg->mshr_max_merge);
    struct cache *c = cache_zalloc(a, 1, sizeof *c);
    c->cfg = *cfg;
    c->arena = a;
    c->name = arena_strdup(a, name ? name : "cache");
    c->nsets = cfg->nsets;
    c->assoc = cfg->assoc;
    c->line_log2 = cache_log2(cfg->line_size);
    c->line_mask = ~((uint64_t)cfg->line_size - 1);
    c->sets_pow2 = !(cfg->nsets & (cfg->nsets - 1));
    c->set_bits = cache_log2(cfg->nsets);
    SIM_ASSERT(cfg->index == CI_LINEAR || (c->sets_pow2 && (cfg->index != CI_IPOLY || c->set_bits <= 16)));
    c->alloc = cfg->alloc == CA_ON_MISS ? CA_ON_MISS : CA_ON_FILL;

    size_t nl = (size_t)c->nsets * c->assoc;
    c->blk = cache_zalloc(a, nl, sizeof *c->blk);
    c->valid = cache_zalloc(a, nl, 1);
    c->dirty = cache_zalloc(a, nl, 1);
    c->reserved = cache_zalloc(a, nl, 1);
    c->line_mshr = cache_zalloc(a, nl, sizeof *c->line_mshr);
    c->reused = cache_zalloc(a, nl, 1);
    if (cfg->index == CI_IPOLY)
        cache_ipoly_init(c);
    if (c->set_bits) {
        /* set_bits << j for the least j with set_bits << (j + 1) >= 64: the fold's groups of a
           64-bit block number, halved at each step until one is left */
        c->fold_first = c->set_bits;
        while ((c->fold_first << 1) < 64)
            c->fold_first <<= 1;
    }

    c->m_n = cfg->mshr_entries;
    if (cfg->alloc == CA_STREAMING && nl > c->m_n)
        c->m_n = (uint32_t)nl;
    c->m_merge = cfg->mshr_max_merge;
    c->m_blk = cache_zalloc(a, c->m_n, sizeof *c->m_blk);
    c->m_busy = cache_zalloc(a, c->m_n, 1);
    c->m_dirty = cache_zalloc(a, c->m_n, 1);
    c->m_noalloc = cache_zalloc(a, c->m_n, 1);
    c->m_line = cache_zalloc(a, c->m_n, sizeof *c->m_line);
    c->m_pc = cache_zalloc(a, c->m_n, sizeof *c->m_pc);
    c->m_nw = cache_zalloc(a, c->m_n, sizeof *c->m_nw);
    c->m_w = cache_zalloc(a, (size_t)c->m_n * c->m_merge, sizeof *c->m_w);
    c->m_free = cache_zalloc(a, c->m_n, sizeof *c->m_free);
    /* stack popped from the top: lowest entry index first (deterministic) */
    for (uint32_t i = 0; i < c->m_n; i++)
        c->m_free[i] = c->m_n - 1 - i;
    c->m_nfree = c->m_n;

    /* the cache string's letter (L = lru, F = fifo) until the owner names another
       (room for the longest message cache_set_repl_name can write, so -O3 sees no truncation) */
    char msg[512];
    int rc = cache_set_repl_name(c, NULL, NULL, msg, sizeof msg);
    SIM_ASSERT(rc == 0);
    return c;
}

static const struct {
    const char *name;
    size_t off;
    const char *doc;
} cache_stat_tab[] = {
#define CS(f, d) {#f, offsetof(struct cache_stats, f), d}
    CS(accesses, "accesses accepted (hits + hit_reserved + misses)"),
    CS(hits, "accesses that found the line valid"),
    CS(hit_reserved, "accesses merged into a pending miss (MSHR)"),
    CS(misses, "accesses that found the line neither valid nor pending"),
    CS(res_fail, "accesses refused (reservation failure), retried by the caller"),
    CS(res_fail_mshr, "reservation failures: no free MSHR entry"),
    CS(res_fail_merge, "reservation failures: MSHR entry's merge list full"),
    CS(res_fail_line, "reservation failures: every way of the set pending"),
    CS(reads, "accepted reads"),
    CS(writes, "accepted writes"),
    CS(read_misses, "reads that missed"),
    CS(write_misses, "writes that missed"),
    CS(evictions, "valid lines replaced"),
    CS(dirty_evictions, "dirty lines replaced (written back)"),
    CS(fills, "line fills from below"),
    CS(bypasses, "misses or fills the replacement policy did not allocate"),
    CS(bypassed, "read misses the bypass policy sent below without allocating"),
    CS(evicted_never_reused, "valid lines replaced that saw no hit after their fill"),
    CS(crit_accesses, "reads by warps predicted critical (CAWA)"),
    CS(crit_hits, "reads by critical warps that hit"),
    CS(crit_part_hits, "reads by critical warps that hit a way of the critical partition (CACP)"),
    CS(nc_accesses, "reads by warps not predicted critical"),
    CS(nc_hits, "reads by non-critical warps that hit"),
    CS(nc_part_hits, "reads by non-critical warps that hit a way of the non-critical partition (CACP)"),
#undef CS
};

void cache_reg_stats(struct cache *c, struct stats *s, const char *prefix)
{
    for (size_t i = 0; i < sizeof cache_stat_tab / sizeof cache_stat_tab[0]; i++)
        stats_reg(s, (const uint64_t *)(const void *)((const char *)&c->st + cache_stat_tab[i].off),
                  cache_stat_tab[i].doc, "%s.%s", prefix, cache_stat_tab[i].name);
}

const struct cache_config *cache_cfg(const struct cache *c) { return &c->cfg; }
const struct cache_stats *cache_stats(const struct cache *c) { return &c->st; }
uint64_t cache_block(const struct cache *c, uint64_t addr) { return addr & c->line_mask; }
unsigned cache_mshr_used(const struct cache *c) { return c->m_used; }

/* Way of block `b` in `set` that is valid or pending, or -1. */
static int cache_find(const struct cache *c, uint32_t set, uint64_t b)
{
    size_t base = (size_t)set * c->assoc;
    for (uint32_t w = 0; w < c->assoc; w++) {
        size_t l = base + w;
        if (c->blk[l] == b && (c->valid[l] | c->reserved[l]))   /* tag first: rarely equal */
            return (int)w;
    }
    return -1;
}

uint32_t cache_set_of(const struct cache *c, uint64_t addr)
{
    return cache_set_index(c, addr & c->line_mask);
}

bool cache_probe(const struct cache *c, uint64_t addr)
{
    uint64_t b = addr & c->line_mask;
    uint32_t set = cache_set_index(c, b);
    int w = cache_find(c, set, b);
    return w >= 0 && c->valid[(size_t)set * c->assoc + (uint32_t)w];
}

static uint32_t cache_mshr_find(const struct cache *c, uint64_t b)
{
    for (uint32_t i = 0; i < c->m_n; i++)
        if (c->m_busy[i] && c->m_blk[i] == b)
            return i;
    return CACHE_NO_LINE;
}

/* A hit (or a merge into the pending line) on way `way` of `set`. */
static inline void cache_on_hit(struct cache *c, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    c->reused[(size_t)set * c->assoc + way] = 1;
    c->repl->on_hit(c->repl_st, set, way, pc, now);
    if (c->byp && c->byp->on_hit)
        c->byp->on_hit(c->byp_st, set, way, pc, now);
}

/* Way `way` of `set` (re)allocated for a new block brought in by `pc`. */
static inline void cache_on_fill(struct cache *c, uint32_t set, uint32_t way, uint32_t pc, sim_cycle now)
{
    c->reused[(size_t)set * c->assoc + way] = 0;
    c->repl->on_fill(c->repl_st, set, way, pc, now);
    if (c->byp && c->byp->on_fill)
        c->byp->on_fill(c->byp_st, set, way, pc, now);
}

/* Valid way `way` of `set` leaves the cache (replacement or write-evict). */
static inline void cache_on_evict(struct cache *c, uint32_t set, uint32_t way, sim_cycle now)
{
    if (c->repl->on_evict)
        c->repl->on_evict(c->repl_st, set, way, now);
    if (c->byp && c->byp->on_evict)
        c->byp->on_evict(c->byp_st, set, way, now);
}

/* Ask the policy for a victim in `set`: a way, REPL_BYPASS, or -2 (all pending). */
static int cache_victim(struct cache *c, uint32_t set, uint32_t pc, uint64_t b, sim_cycle now)
{
    size_t base = (size_t)set * c->assoc;
    struct repl_set_view v = {set, c->assoc, c->valid + base, c->reserved + base};
    c->hooked |= !c->repl->victim_pure;
    int w = c->repl->victim(c->repl_st, &v, pc, b, now);
    SIM_ASSERT(w == REPL_BYPASS || w == -2 || (w >= 0 && (uint32_t)w < c->assoc && !c->reserved[base + (uint32_t)w]));
    return w;
}

/* Empty line `l` (way `way` of `set`) for a new block; report a dirty victim. */
static void cache_evict(struct cache *c, uint32_t set, uint32_t way, sim_cycle now, uint64_t *wb_addr)
{
    size_t l = (size_t)set * c->assoc + way;
    if (!c->valid[l])
        return;
    c->st.evictions++;
    if (!c->reused[l])
        c->st.evicted_never_reused++;
    if (c->dirty[l]) {
        c->st.dirty_evictions++;
        SIM_ASSERT(wb_addr);   /* a cache that can hold dirty lines needs a write-back path */
        *wb_addr = c->blk[l];
    }
    cache_on_evict(c, set, way, now);
    c->valid[l] = 0;
    c->dirty[l] = 0;
}

static uint32_t cache_mshr_alloc(struct cache *c, uint64_t b, uint32_t line, bool dirty, uint32_t pc,
                                 uint64_t waiter)
{
    SIM_ASSERT(c->m_nfree);
    uint32_t m = c->m_free[--c->m_nfree];
    c->m_busy[m] = 1;
    c->m_blk[m] = b;
    c->m_dirty[m] = dirty;
    c->m_noalloc[m] = 0;
    c->m_line[m] = line;
    c->m_pc[m] = pc;
    c->m_nw[m] = 1;
    c->m_w[(size_t)m * c->m_merge] = waiter;
    c->m_used++;
    return m;
}

void cache_count_refusals(struct cache *c, enum cache_fail why, uint64_t n)
{
    c->st.res_fail += n;
    if (why == CF_MSHR_FULL)
        c->st.res_fail_mshr += n;
    else if (why == CF_MERGE_FULL)
        c->st.res_fail_merge += n;
    else
        c->st.res_fail_line += n;
}

bool cache_refusal_repeats(const struct cache *c) { return c->refusal_repeats; }

static enum cache_result cache_refuse(struct cache *c, enum cache_fail why, enum cache_fail *fail)
{
    cache_count_refusals(c, why, 1);
    c->refusal_repeats = !c->hooked;
    if (fail)
        *fail = why;
    return CACHE_RESERVATION_FAIL;
}

/* Count an accepted access by its tag outcome. */
static void cache_count(struct cache *c, bool is_write, enum cache_result tag_outcome)
{
    c->st.accesses++;
    if (is_write)
        c->st.writes++;
    else
        c->st.reads++;
    if (tag_outcome == CACHE_HIT) {
        c->st.hits++;
    } else if (tag_outcome == CACHE_HIT_RESERVED) {
        c->st.hit_reserved++;
    } else {
        c->st.misses++;
        if (is_write)
            c->st.write_misses++;
        else
            c->st.read_misses++;
    }
}

/* A miss that needs the line from below (read, or write-allocate fetch).
   `dirty`: the line is to be dirty once filled. */
/* Count a bypassed miss of `pc` in the per-PC table. */
static void cache_count_bypass(struct cache *c, uint32_t pc)
{
    c->st.bypassed++;
    uint32_t key = pc + 1, h = (pc * 2654435761u) >> (32 - CACHE_BYP_PCS_LOG2);
    for (uint32_t i = 0; i < CACHE_BYP_PCS; i++) {
        uint32_t k = (h + i) & (CACHE_BYP_PCS - 1);
        if (c->byp_pc[k] == key || !c->byp_pc[k]) {
            c->byp_pc[k] = key;
            c->byp_pc_n[k]++;
            return;
        }
    }
    c->byp_pc_other++;
}

/* The bypass policy's decision for a read miss that could allocate now. */
static bool cache_ask_bypass(struct cache *c, uint32_t set, uint64_t b, uint32_t pc, uint32_t warp, bool local,
                             sim_cycle now)
{
    struct bypass_access a = {b, pc, warp, set, 0, local};
    c->hooked = true;
    if (!c->byp->should_bypass(c->byp_st, &a, now))
        return false;
    cache_count(c, false, CACHE_MISS);
    cache_count_bypass(c, pc);
    return true;
}

/* A bypassed read: no line; with bypass_mshr an MSHR entry of its own (the caller fetches the
   block as for CACHE_MISS, and the fill allocates nothing), else nothing at all. */
static enum cache_result cache_bypass_miss(struct cache *c, uint64_t b, uint32_t pc, uint64_t waiter)
{
    if (!c->byp_mshr)
        return CACHE_MISS_NO_ALLOC;
    uint32_t m = cache_mshr_alloc(c, b, CACHE_NO_LINE, false, pc, waiter);
    c->m_noalloc[m] = 1;
    c->byp_inflight++;
    return CACHE_MISS;
}

static bool cache_set_all_reserved(const struct cache *c, uint32_t set)
{
    const uint8_t *r = c->reserved + (size_t)set * c->assoc;
    for (uint32_t w = 0; w < c->assoc; w++)
        if (!r[w])
            return false;
    return true;
}

static enum cache_result cache_fetch_miss(struct cache *c, uint32_t set, uint64_t b, bool is_write, bool dirty,
                                          bool local, uint32_t pc, uint32_t warp, uint64_t waiter, sim_cycle now,
                                          uint64_t *wb_addr, enum cache_fail *fail)
{
    if (c->alloc == CA_ON_FILL) {
        uint32_t m = cache_mshr_find(c, b);
        if (m != CACHE_NO_LINE) {
            if (c->m_nw[m] >= c->m_merge)
                return cache_refuse(c, CF_MERGE_FULL, fail);
            c->m_w[(size_t)m * c->m_merge + c->m_nw[m]++] = waiter;
            c->m_dirty[m] |= dirty;
            cache_count(c, is_write, CACHE_HIT_RESERVED);
            return CACHE_HIT_RESERVED;
        }
        if (!c->m_nfree)
            return cache_refuse(c, CF_MSHR_FULL, fail);
        if (c->byp && !is_write && cache_ask_bypass(c, set, b, pc, warp, local, now))
            return cache_bypass_miss(c, b, pc, waiter);
        cache_mshr_alloc(c, b, CACHE_NO_LINE, dirty, pc, waiter);
        cache_count(c, is_write, CACHE_MISS);
        return CACHE_MISS;
    }
    /* on miss: the tag lookup already showed the block is not pending here; a bypassed read
       of it may be in flight in an MSHR entry of its own (bypass_mshr) */
    if (c->byp_inflight) {
        uint32_t m = cache_mshr_find(c, b);
        if (m != CACHE_NO_LINE) {
            if (is_write)   /* a write-allocate miss waits until the bypassed read is back */
                return cache_refuse(c, CF_MSHR_FULL, fail);
            if (c->m_nw[m] >= c->m_merge)
                return cache_refuse(c, CF_MERGE_FULL, fail);
            c->m_w[(size_t)m * c->m_merge + c->m_nw[m]++] = waiter;
            cache_count(c, false, CACHE_HIT_RESERVED);
            return CACHE_HIT_RESERVED;
        }
    }
    if (c->byp && !is_write) {
        if (!c->m_nfree)
            return cache_refuse(c, CF_MSHR_FULL, fail);
        if (cache_set_all_reserved(c, set))
            return cache_refuse(c, CF_NO_LINE, fail);
        if (cache_ask_bypass(c, set, b, pc, warp, local, now))
            return cache_bypass_miss(c, b, pc, waiter);
    }
    int w = cache_victim(c, set, pc, b, now);
    if (w == -2)
        return cache_refuse(c, CF_NO_LINE, fail);
    if (w != REPL_BYPASS && !c->m_nfree)
        return cache_refuse(c, CF_MSHR_FULL, fail);
    cache_count(c, is_write, CACHE_MISS);
    if (w == REPL_BYPASS) {
        c->st.bypasses++;
        return CACHE_MISS_NO_ALLOC;
    }
    uint32_t way = (uint32_t)w;
    size_t l = (size_t)set * c->assoc + way;
    cache_evict(c, set, way, now, wb_addr);
    c->blk[l] = b;
    c->reserved[l] = 1;
    c->line_mshr[l] = cache_mshr_alloc(c, b, (uint32_t)l, dirty, pc, waiter);
    cache_on_fill(c, set, way, pc, now);
    return CACHE_MISS;
}

enum cache_result cache_access_ex(struct cache *c, uint64_t addr, bool is_write, bool local, uint32_t pc,
                                  uint64_t waiter, sim_cycle now, uint64_t *wb_addr, enum cache_fail *fail)
{
    return cache_access_w(c, addr, is_write, local, pc, CACHE_NO_WARP, waiter, now, wb_addr, fail);
}

/* An accepted read by warp `warp` (hit_way: the way it hit, -1 for a miss or a merge). */
static void cache_count_warp(struct cache *c, uint32_t warp, bool critical, uint32_t set, int hit_way)
{
    if (warp == CACHE_NO_WARP)
        return;
    int part = hit_way >= 0 && c->repl->way_critical ? c->repl->way_critical(c->repl_st, set, (uint32_t)hit_way) : -1;
    if (critical) {
        c->st.crit_accesses++;
        c->st.crit_hits += hit_way >= 0;
        c->st.crit_part_hits += part == 1;
    } else {
        c->st.nc_accesses++;
        c->st.nc_hits += hit_way >= 0;
        c->st.nc_part_hits += part == 0;
    }
}

enum cache_result cache_access_w(struct cache *c, uint64_t addr, bool is_write, bool local, uint32_t pc, uint32_t warp,
                                 uint64_t waiter, sim_cycle now, uint64_t *wb_addr, enum cache_fail *fail)
{
    return cache_access_wc(c, addr, is_write, local, pc, warp, false, waiter, now, wb_addr, fail);
}

enum cache_result cache_access_wc(struct cache *c, uint64_t addr, bool is_write, bool local, uint32_t pc,
                                  uint32_t warp, bool critical, uint64_t waiter, sim_cycle now, uint64_t *wb_addr,
                                  enum cache_fail *fail)
{
    if (wb_addr)
        *wb_addr = UINT64_MAX;
    if (fail)
        *fail = CF_NONE;
    uint64_t b = addr & c->line_mask;
    c->hooked = c->repl->on_access != NULL;
    if (c->repl->on_access) {
        struct repl_access a = {.addr = b, .pc = pc, .warp = warp, .critical = critical, .is_write = is_write};
        c->repl->on_access(c->repl_st, &a);
    }
    uint32_t set = cache_set_index(c, b);
    int w = cache_find(c, set, b);
    size_t l = w >= 0 ? (size_t)set * c->assoc + (uint32_t)w : 0;
    bool present = w >= 0 && c->valid[l];
    bool pending = w >= 0 && c->reserved[l];

    if (!is_write) {
        if (present) {
            cache_on_hit(c, set, (uint32_t)w, pc, now);
            cache_count(c, false, CACHE_HIT);
            cache_count_warp(c, warp, critical, set, w);
            return CACHE_HIT;
        }
        if (pending) {
            uint32_t m = c->line_mshr[l];
            if (c->m_nw[m] >= c->m_merge)
                return cache_refuse(c, CF_MERGE_FULL, fail);
            c->m_w[(size_t)m * c->m_merge + c->m_nw[m]++] = waiter;
            cache_on_hit(c, set, (uint32_t)w, pc, now);
            cache_count(c, false, CACHE_HIT_RESERVED);
            cache_count_warp(c, warp, critical, set, -1);
            return CACHE_HIT_RESERVED;
        }
        enum cache_result r = cache_fetch_miss(c, set, b, false, false, local, pc, warp, waiter, now, wb_addr, fail);
        if (r != CACHE_RESERVATION_FAIL)
            cache_count_warp(c, warp, critical, set, -1);
        return r;
    }

    bool write_back = c->cfg.wr == CW_WRITE_BACK || (c->cfg.wr == CW_LOCAL_WB_GLOBAL_WT && local);
    if (!write_back) {
        /* write-through / write-evict / read-only: the write always goes below */
        if (present) {
            if (c->cfg.wr == CW_WRITE_EVICT) {
                cache_on_evict(c, set, (uint32_t)w, now);
                c->valid[l] = 0;
                c->dirty[l] = 0;
            } else {
                cache_on_hit(c, set, (uint32_t)w, pc, now);
            }
            cache_count(c, true, CACHE_HIT);
            return CACHE_HIT;
        }
        cache_count(c, true, CACHE_MISS);
        return CACHE_MISS_NO_ALLOC;
    }

    /* write-back */
    if (present) {
        c->dirty[l] = 1;
        cache_on_hit(c, set, (uint32_t)w, pc, now);
        cache_count(c, true, CACHE_HIT);
        return CACHE_HIT;
    }
    if (c->cfg.wralloc == CWA_NONE) {
        cache_count(c, true, CACHE_MISS);
        return CACHE_MISS_NO_ALLOC;
    }
    if (pending) {
        uint32_t m = c->line_mshr[l];
        if (c->m_nw[m] >= c->m_merge)
            return cache_refuse(c, CF_MERGE_FULL, fail);
        c->m_w[(size_t)m * c->m_merge + c->m_nw[m]++] = waiter;
        c->m_dirty[m] = 1;
        cache_on_hit(c, set, (uint32_t)w, pc, now);
        cache_count(c, true, CACHE_HIT_RESERVED);
        return CACHE_HIT_RESERVED;
    }
    if (c->cfg.wralloc != CWA_LAZY_FETCH)
        return cache_fetch_miss(c, set, b, true, true, local, pc, warp, waiter, now, wb_addr, fail);

    /* lazy fetch-on-read: the written line is installed at once, without
       fetching; a pending fetch of the same block (on-fill mode) absorbs it. */
    if (c->alloc == CA_ON_FILL && cache_mshr_find(c, b) != CACHE_NO_LINE)
        return cache_fetch_miss(c, set, b, true, true, local, pc, warp, waiter, now, wb_addr, fail);
    if (c->byp_inflight && cache_mshr_find(c, b) != CACHE_NO_LINE)
        return cache_refuse(c, CF_MSHR_FULL, fail);   /* wait for the bypassed read of the block */
    int v = cache_victim(c, set, pc, b, now);
    if (v == -2)
        return cache_refuse(c, CF_NO_LINE, fail);
    cache_count(c, true, CACHE_MISS);
    if (v == REPL_BYPASS) {
        c->st.bypasses++;
        return CACHE_MISS_NO_ALLOC;
    }
    size_t vl = (size_t)set * c->assoc + (uint32_t)v;
    cache_evict(c, set, (uint32_t)v, now, wb_addr);
    c->blk[vl] = b;
    c->valid[vl] = 1;
    c->dirty[vl] = 1;
    cache_on_fill(c, set, (uint32_t)v, pc, now);
    return CACHE_HIT;
}

enum cache_result cache_access(struct cache *c, uint64_t addr, bool is_write, uint32_t pc, uint64_t waiter,
                               sim_cycle now, uint64_t *wb_addr, enum cache_fail *fail)
{
    return cache_access_ex(c, addr, is_write, false, pc, waiter, now, wb_addr, fail);
}

bool cache_fill_may_write_back(const struct cache *c, uint64_t addr)
{
    uint64_t b = addr & c->line_mask;
    uint32_t set = cache_set_index(c, b);
    if (c->alloc == CA_ON_MISS) {
        int w = cache_find(c, set, b);
        if (w >= 0 && c->reserved[(size_t)set * c->assoc + (uint32_t)w])
            return false;
    }
    uint32_t m = cache_mshr_find(c, b);
    if (m != CACHE_NO_LINE && c->m_noalloc[m])
        return c->m_dirty[m];
    if (m != CACHE_NO_LINE && c->m_line[m] != CACHE_NO_LINE)
        return false;
    return true;   /* allocate-on-fill chooses its victim now, and it may be dirty */
}

unsigned cache_fill(struct cache *c, uint64_t addr, sim_cycle now, uint64_t *waiters, unsigned max,
                    uint64_t *wb_addr)
{
    if (wb_addr)
        *wb_addr = UINT64_MAX;
    uint64_t b = addr & c->line_mask;
    uint32_t set = cache_set_index(c, b);
    uint32_t m;
    if (c->alloc == CA_ON_MISS) {
        int w = cache_find(c, set, b);
        if (w >= 0 && c->reserved[(size_t)set * c->assoc + (uint32_t)w]) {
            m = c->line_mshr[(size_t)set * c->assoc + (uint32_t)w];
        } else {
            m = c->byp_inflight ? cache_mshr_find(c, b) : CACHE_NO_LINE;
            SIM_ASSERT(m != CACHE_NO_LINE && c->m_noalloc[m]);   /* fill without a miss */
        }
    } else {
        m = cache_mshr_find(c, b);
        SIM_ASSERT(m != CACHE_NO_LINE);   /* fill without a miss */
    }
    SIM_ASSERT(c->m_busy[m] && c->m_blk[m] == b);
    c->st.fills++;

    if (c->m_noalloc[m]) {
        /* a bypassed read (bypass_mshr): hand the data to the waiters, keep nothing; a write
           merged into it (allocate-on-fill) goes below */
        c->m_noalloc[m] = 0;
        c->byp_inflight--;
        SIM_ASSERT(!c->m_dirty[m] || wb_addr);
        if (c->m_dirty[m] && wb_addr)
            *wb_addr = b;
    } else if (c->m_line[m] != CACHE_NO_LINE) {
        size_t l = c->m_line[m];
        c->reserved[l] = 0;
        c->valid[l] = 1;
        c->dirty[l] = c->m_dirty[m];
    } else {
        int w = cache_victim(c, set, c->m_pc[m], b, now);
        if (w >= 0) {
            size_t l = (size_t)set * c->assoc + (uint32_t)w;
            cache_evict(c, set, (uint32_t)w, now, wb_addr);
            c->blk[l] = b;
            c->valid[l] = 1;
            c->dirty[l] = c->m_dirty[m];
            cache_on_fill(c, set, (uint32_t)w, c->m_pc[m], now);
        } else {
            c->st.bypasses++;   /* REPL_BYPASS (or, on-fill with nothing evictable) */
            SIM_ASSERT(!c->m_dirty[m] || wb_addr);
            if (c->m_dirty[m] && wb_addr)
                *wb_addr = b;   /* a written line that is not kept must still go below */
        }
    }

    unsigned n = c->m_nw[m];
    const uint64_t *src = c->m_w + (size_t)m * c->m_merge;
    for (unsigned i = 0; i < n && i < max; i++)
        waiters[i] = src[i];
    c->m_busy[m] = 0;
    c->m_nw[m] = 0;
    c->m_free[c->m_nfree++] = m;
    c->m_used--;
    return n;
}

void cache_invalidate_all(struct cache *c)
{
    /* Pending lines stay reserved: their fills are still in flight and will
       validate them.  Dirty lines are dropped without write-back: the cache
       holds tags only, the functional memory already has the data (as
       GPGPU-Sim's kernel-boundary L1 invalidation). */
    size_t nl = (size_t)c->nsets * c->assoc;
    for (size_t l = 0; l < nl; l++) {
        c->valid[l] = 0;
        c->dirty[l] = 0;
    }
}
