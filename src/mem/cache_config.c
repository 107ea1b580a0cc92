/*
 * cache_config.c - parser of GPGPU-Sim-style cache strings (mem/cache.h):
 *
 *   "[<type>:]<nsets>:<line>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>[:<index>],
 *    <mshr_type>:<mshr_entries>:<mshr_max_merge>,<miss_queue>[(:|,)anything]"
 *
 * GPGPU-Sim 4.x writes a cache type first: N (normal) or S (sectored, 32-byte
 * sectors of each line).  warpsim's caches fill whole lines, so both load as
 * the same cache (sectored requests are -warpsim_coalesce_sector's business).
 * MSHR types: A (associative) and F (texture FIFO), and 4.x's sectored
 * variants S (= A) and T (= F).  What follows the miss queue size (4.x's
 * result FIFO entries and data port width) is accepted and not used.
 *
 * Every error names the field and gives the 1-based column where that field
 * starts (or where it was expected, for a missing one), so a config loader can
 * point at the character inside the option's value.
 *
 * Bounds (they keep one cache simulable; the whole machine's memory is checked
 * by gpu_config_load against -warpsim_max_model_mib):
 *   sets [1, 2^20], line size a power of two in [16, 4096], ways [1, 1024],
 *   sets x ways at most 2^24 lines, MSHR entries [1, 65536], MSHR max merge
 *   [1, 1024], entries x merge at most 2^24 waiters, miss queue [1, 65536].
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mem/cache.h"

/* Fields in string order; the parser walks this table. */
enum cfld {
    F_NSETS = 0, F_LINE, F_ASSOC, F_REP, F_WR, F_ALLOC, F_WRALLOC, F_INDEX, F_MSHR, F_MSHR_N, F_MSHR_MERGE,
    F_MISSQ, F_COUNT
};

struct cfld_desc {
    const char *name;
    char sep_after;            /* separator that must follow the field ('\0' for the last one) */
    const char *letters;       /* accepted letters for a letter field, NULL for a number */
    const char *expect;        /* the letters as listed in messages */
    uint32_t max;              /* largest value of a number field (the smallest is 1) */
};

#define CACHE_MAX_LINES (1u << 24)     /* sets x ways */
#define CACHE_MAX_WAITERS (1u << 24)   /* MSHR entries x max merge */
#define CACHE_MIN_LINE 16u

static const struct cfld_desc cfld_tab[F_COUNT] = {
    [F_NSETS] = {"number of sets", ':', NULL, NULL, 1u << 20},
    [F_LINE] = {"line size", ':', NULL, NULL, 4096},
    [F_ASSOC] = {"associativity", ',', NULL, NULL, 1024},
    [F_REP] = {"replacement policy", ':', "LF", "L or F", 0},
    [F_WR] = {"write policy", ':', "TBELR", "T, B, E, L or R", 0},
    [F_ALLOC] = {"allocation policy", ':', "mfs", "m, f or s", 0},
    [F_WRALLOC] = {"write-allocate policy", ':', "NWFL", "N, W, F or L", 0},
    [F_INDEX] = {"set index function", ',', "LHPX", "L, H, P or X", 0},
    [F_MSHR] = {"MSHR type", ':', "AFST", "A or F", 0},   /* S, T: 4.x sectored spellings of A, F */
    [F_MSHR_N] = {"MSHR entries", ':', NULL, NULL, 65536},
    [F_MSHR_MERGE] = {"MSHR max merge", ',', NULL, NULL, 1024},
    [F_MISSQ] = {"miss queue size", '\0', NULL, NULL, 65536},
};

struct cparse {
    const char *s;
    size_t pos;
    char *msg;
    size_t n;
    unsigned *col;
};

__attribute__((format(printf, 3, 4))) static int cparse_fail(struct cparse *p, size_t at, const char *fmt, ...)
{
    if (p->msg && p->n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->msg, p->n, fmt, ap);
        va_end(ap);
    }
    if (p->col)
        *p->col = (unsigned)at + 1;
    return -1;
}

/* Copy of the token [from, to) for messages, shortened when long. */
static void cparse_tok(const struct cparse *p, size_t from, size_t to, char *buf, size_t n)
{
    size_t len = to - from;
    if (len >= n)
        len = n - 1;
    memcpy(buf, p->s + from, len);
    buf[len] = '\0';
}

static bool cparse_is_sep(char ch) { return ch == ':' || ch == ','; }

/* Parse field f at p->pos; on success leaves pos after the field (not after its separator). */
static int cparse_field(struct cparse *p, enum cfld f, uint32_t *num, char *letter)
{
    const struct cfld_desc *d = &cfld_tab[f];
    size_t start = p->pos, end = start;
    while (p->s[end] && !cparse_is_sep(p->s[end]))
        end++;
    char tok[24];
    cparse_tok(p, start, end, tok, sizeof tok);
    if (end == start)
        return cparse_fail(p, start, "missing %s", d->name);
    p->pos = end;
    if (d->letters) {
        if (end - start != 1)
            return cparse_fail(p, start, "%s: expected one letter, got \"%s\"", d->name, tok);
        if (!strchr(d->letters, p->s[start]))
            return cparse_fail(p, start, "%s: unknown letter '%c' (expected %s)", d->name, p->s[start], d->expect);
        *letter = p->s[start];
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = start; i < end; i++) {
        char ch = p->s[i];
        if (ch < '0' || ch > '9')
            return cparse_fail(p, start, "%s: expected a number, got \"%s\"", d->name, tok);
        v = v * 10 + (uint64_t)(ch - '0');
        if (v > UINT32_MAX)
            return cparse_fail(p, start, "%s: number too large \"%s\"", d->name, tok);
    }
    if (v == 0)
        return cparse_fail(p, start, "%s must be at least 1", d->name);
    if (f == F_LINE && (v & (v - 1)) == 0 && (v < CACHE_MIN_LINE || v > d->max))
        return cparse_fail(p, start, "line size %s is out of range: expected a power of two in [%u, %u]", tok,
                           CACHE_MIN_LINE, d->max);
    if (f != F_LINE && v > d->max)
        return cparse_fail(p, start, "%s: expected an integer in [1, %u], got %s", d->name, d->max, tok);
    *num = (uint32_t)v;
    return 0;
}

/* The separator after field f (p->pos points at it). */
static int cparse_sep(struct cparse *p, enum cfld f)
{
    char want = cfld_tab[f].sep_after, got = p->s[p->pos];
    if (got == want) {
        p->pos++;
        return 0;
    }
    if (got == '\0')   /* string ended early: the next field is missing */
        return cparse_fail(p, p->pos, "missing %s", cfld_tab[f + 1].name);
    return cparse_fail(p, p->pos, "expected '%c' after the %s, got '%c'", want, cfld_tab[f].name, got);
}

static bool cfg_pow2(uint32_t v) { return v && !(v & (v - 1)); }

int cache_config_parse(const char *s, struct cache_config *out, char *msg, size_t n, unsigned *col)
{
    struct cparse p = {s ? s : "", 0, msg, n, col};
    uint32_t num[F_COUNT] = {0};
    char let[F_COUNT] = {0};
    size_t at[F_COUNT] = {0};
    if (msg && n)
        msg[0] = '\0';
    bool no_index = false;
    /* GPGPU-Sim 4.x's cache type prefix */
    if (p.s[0] && p.s[1] == ':' && !(p.s[0] >= '0' && p.s[0] <= '9')) {
        if (p.s[0] != 'N' && p.s[0] != 'S')
            return cparse_fail(&p, 0, "cache type: unknown letter '%c' (expected N or S)", p.s[0]);
        p.pos = 2;
    }
    for (int f = 0; f < F_COUNT; f++) {
        at[f] = p.pos;
        if (f == F_INDEX && no_index) {
            let[f] = 'L';   /* older 4-letter form without the index function: linear */
            continue;
        }
        if (cparse_field(&p, (enum cfld)f, &num[f], &let[f]) < 0)
            return -1;
        if (f == F_WRALLOC && p.s[p.pos] == ',') {
            no_index = true;
            p.pos++;
            continue;
        }
        if (f == F_MISSQ)
            break;   /* anything after the miss queue (':' or ',' by construction) is ignored */
        if (cparse_sep(&p, (enum cfld)f) < 0)
            return -1;
    }
    if (!cfg_pow2(num[F_LINE]))
        return cparse_fail(&p, at[F_LINE], "line size %u is not a power of two", num[F_LINE]);
    if ((uint64_t)num[F_NSETS] * num[F_ASSOC] > CACHE_MAX_LINES)
        return cparse_fail(&p, at[F_NSETS],
                           "%u sets x %u ways = %llu lines, more than %u (the most one cache may have)",
                           num[F_NSETS], num[F_ASSOC], (unsigned long long)num[F_NSETS] * num[F_ASSOC],
                           CACHE_MAX_LINES);
    if ((uint64_t)num[F_MSHR_N] * num[F_MSHR_MERGE] > CACHE_MAX_WAITERS)
        return cparse_fail(&p, at[F_MSHR_N],
                           "%u MSHR entries x %u max merge = %llu waiters, more than %u (the most one cache may have)",
                           num[F_MSHR_N], num[F_MSHR_MERGE], (unsigned long long)num[F_MSHR_N] * num[F_MSHR_MERGE],
                           CACHE_MAX_WAITERS);
    if (let[F_INDEX] != 'L' && !cfg_pow2(num[F_NSETS]))
        return cparse_fail(&p, at[F_INDEX],
                           "set index function '%c' needs a power-of-two number of sets, got %u", let[F_INDEX],
                           num[F_NSETS]);
    if (let[F_INDEX] == 'P' && num[F_NSETS] > 65536)
        return cparse_fail(&p, at[F_INDEX], "set index function 'P' supports at most 65536 sets, got %u",
                           num[F_NSETS]);

    struct cache_config c;
    memset(&c, 0, sizeof c);
    c.nsets = num[F_NSETS];
    c.line_size = num[F_LINE];
    c.assoc = num[F_ASSOC];
    c.rep = let[F_REP];
    switch (let[F_WR]) {
    case 'T': c.wr = CW_WRITE_THROUGH; break;
    case 'B': c.wr = CW_WRITE_BACK; break;
    case 'E': c.wr = CW_WRITE_EVICT; break;
    case 'L': c.wr = CW_LOCAL_WB_GLOBAL_WT; break;
    default: c.wr = CW_READ_ONLY; break;
    }
    c.alloc = let[F_ALLOC] == 'm' ? CA_ON_MISS : let[F_ALLOC] == 'f' ? CA_ON_FILL : CA_STREAMING;
    switch (let[F_WRALLOC]) {
    case 'N': c.wralloc = CWA_NONE; break;
    case 'W': c.wralloc = CWA_WRITE; break;
    case 'F': c.wralloc = CWA_FETCH_ON_WRITE; break;
    default: c.wralloc = CWA_LAZY_FETCH; break;
    }
    switch (let[F_INDEX]) {
    case 'L': c.index = CI_LINEAR; break;
    case 'H': c.index = CI_FERMI_HASH; break;
    case 'P': c.index = CI_IPOLY; break;
    default: c.index = CI_XOR; break;
    }
    c.mshr_kind = let[F_MSHR] == 'A' || let[F_MSHR] == 'S' ? CM_ASSOC : CM_FIFO;
    c.mshr_entries = num[F_MSHR_N];
    c.mshr_max_merge = num[F_MSHR_MERGE];
    c.miss_queue = num[F_MISSQ];
    if (out)
        *out = c;
    return 0;
}

const char *cache_config_repl_name(const struct cache_config *c) { return c && c->rep == 'F' ? "fifo" : "lru"; }

/* What cache_new() allocates for this geometry (mem/cache.c's layout: per
   line the tag, valid/dirty/reserved bytes, the pending line's MSHR index and
   the replacement state (LRU/FIFO stamp, 8 bytes, the largest of the
   registered policies: SRRIP/BRRIP keep 1); per MSHR entry block, busy, dirty, line, pc, waiter
   count, free-stack slot and max_merge waiters; streaming caches get an MSHR
   entry per line). */
uint64_t cache_config_host_bytes(const struct cache_config *c)
{
    uint64_t lines = (uint64_t)c->nsets * c->assoc;
    uint64_t mshr = c->mshr_entries;
    if (c->alloc == CA_STREAMING && lines > mshr)
        mshr = lines;
    uint64_t b = 1024;   /* the struct, name, stamp-state header, alignment */
    b += lines * (8 + 1 + 1 + 1 + 4 + 8);
    b += mshr * (8 + 1 + 1 + 4 + 4 + 4 + 4 + 8 * (uint64_t)c->mshr_max_merge);
    if (c->index == CI_IPOLY)
        b += 8 * 256 * 2;
    return b;
}
