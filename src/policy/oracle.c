/* oracle.c - the per-warp file of an earlier run as oracle criticality (oracle.h). */
#include "policy/oracle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"

/* the columns the oracle needs, found by name in the header */
enum { OC_KERNEL = 0, OC_CTA, OC_WARP, OC_START, OC_END, OC_COUNT };
static const char *const oc_names[OC_COUNT] = {"kernel_id", "cta", "warp", "start", "end"};

#define ORACLE_HINT "produce it with: warpsim run WORKLOAD --warp-sched lrr --warps FILE.csv"

static int oracle_fail(char *msg, size_t n, const char *path, unsigned long line, const char *why, const char *what)
{
    if (line)
        snprintf(msg, n, "%s:%lu: %s%s", path, line, why, what ? what : "");
    else
        snprintf(msg, n, "%s: %s%s", path, why, what ? what : "");
    return -1;
}

/* Split line (modified in place) at commas; returns the field count (at most max). */
static unsigned oracle_split(char *line, char **f, unsigned max)
{
    unsigned k = 0;
    char *p = line;
    size_t l = strlen(p);
    while (l && (p[l - 1] == '\n' || p[l - 1] == '\r'))
        p[--l] = '\0';
    for (;;) {
        if (k < max)
            f[k] = p;
        k++;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return k;
}

/* Strict unsigned decimal: digits only, no sign, no spaces, fits in 64 bits. */
static int oracle_u64(const char *s, uint64_t *v)
{
    if (!*s)
        return -1;
    uint64_t x = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

static int oracle_cmp(const void *pa, const void *pb)
{
    const struct oracle_warp *a = pa, *b = pb;
    if (a->kernel_id != b->kernel_id)
        return a->kernel_id < b->kernel_id ? -1 : 1;
    if (a->cta != b->cta)
        return a->cta < b->cta ? -1 : 1;
    if (a->warp != b->warp)
        return a->warp < b->warp ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;   /* duplicates: file order */
}

#define ORACLE_MAX_FIELDS 64

int oracle_load(struct oracle *o, const char *path, unsigned kernel_id, char *msg, size_t n)
{
    memset(o, 0, sizeof *o);
    if (!path || !*path)
        return oracle_fail(msg, n, "(none)", 0, "no oracle file given; ", ORACLE_HINT);
    /* read whole with a size limit (a device or a huge file is an error, not an endless read) */
    size_t text_len = 0;
    char why_read[512];
    char *text = file_read_all(path, FILE_LIMIT_INPUT, &text_len, NULL, why_read, sizeof why_read);
    if (text && text_len == 0) {
        free(text);
        return oracle_fail(msg, n, path, 0, "empty file (expected a per-warp file); ", ORACLE_HINT);
    }
    FILE *f = text ? fmemopen(text, text_len, "r") : NULL;
    if (!f) {
        char why[600];
        snprintf(why, sizeof why, "cannot read the oracle file (%s); ",
                 text ? strerror(errno) : why_read + strlen(path) + 2);
        free(text);
        return oracle_fail(msg, n, path, 0, why, ORACLE_HINT);
    }
    char *buf = NULL;
    size_t cap = 0;
    char *fld[ORACLE_MAX_FIELDS];
    int col[OC_COUNT];
    unsigned nhdr = 0;
    unsigned long line = 0;
    size_t ncap = 0;
    int rc = 0;
    for (;;) {
        ssize_t got = getline(&buf, &cap, f);
        if (got < 0)
            break;
        line++;
        if (line == 1) {
            nhdr = oracle_split(buf, fld, ORACLE_MAX_FIELDS);
            if (nhdr > ORACLE_MAX_FIELDS) {
                rc = oracle_fail(msg, n, path, line, "too many columns in the header", NULL);
                break;
            }
            for (int c = 0; c < OC_COUNT; c++) {
                col[c] = -1;
                for (unsigned i = 0; i < nhdr; i++)
                    if (strcmp(fld[i], oc_names[c]) == 0)
                        col[c] = (int)i;
                if (col[c] < 0) {
                    char why[128];
                    snprintf(why, sizeof why, "the header has no '%s' column (not a per-warp file?); ", oc_names[c]);
                    rc = oracle_fail(msg, n, path, line, why, ORACLE_HINT);
                    break;
                }
            }
            if (rc)
                break;
            continue;
        }
        if (buf[0] == '\n' || buf[0] == '\0' || (buf[0] == '\r' && buf[1] == '\n'))
            continue;   /* a trailing empty line */
        unsigned nf = oracle_split(buf, fld, ORACLE_MAX_FIELDS);
        if (nf != nhdr) {
            char why[96];
            snprintf(why, sizeof why, "%u fields, the header has %u", nf, nhdr);
            rc = oracle_fail(msg, n, path, line, why, NULL);
            break;
        }
        uint64_t v[OC_COUNT];
        for (int c = 0; c < OC_COUNT && !rc; c++)
            if (oracle_u64(fld[col[c]], &v[c]) != 0) {
                char why[160];
                snprintf(why, sizeof why, "column '%s': expected an unsigned integer, got '%.40s'", oc_names[c],
                         fld[col[c]]);
                rc = oracle_fail(msg, n, path, line, why, NULL);
            }
        if (rc)
            break;
        if (v[OC_KERNEL] == 0 || v[OC_KERNEL] > UINT32_MAX || v[OC_WARP] > UINT32_MAX) {
            rc = oracle_fail(msg, n, path, line, "kernel_id or warp out of range", NULL);
            break;
        }
        if (v[OC_END] < v[OC_START]) {
            rc = oracle_fail(msg, n, path, line, "end is before start", NULL);
            break;
        }
        if (kernel_id && v[OC_KERNEL] != kernel_id)
            continue;
        if (o->n == ncap) {
            size_t nc = ncap ? ncap * 2 : 256;
            struct oracle_warp *nw = realloc(o->w, nc * sizeof *nw);
            if (!nw) {
                rc = oracle_fail(msg, n, path, line, "out of memory", NULL);
                break;
            }
            o->w = nw;
            ncap = nc;
        }
        o->w[o->n++] = (struct oracle_warp){(uint32_t)v[OC_KERNEL], (uint32_t)v[OC_WARP], v[OC_CTA],
                                           v[OC_END] - v[OC_START], (uint32_t)line, 0};
    }
    if (!rc && ferror(f))
        rc = oracle_fail(msg, n, path, 0, "read error", NULL);
    if (!rc && line == 0)
        rc = oracle_fail(msg, n, path, 0, "empty file (expected a per-warp file); ", ORACLE_HINT);
    free(buf);
    fclose(f);
    free(text);
    if (!rc && o->n) {
        qsort(o->w, o->n, sizeof *o->w, oracle_cmp);
        for (size_t i = 1; i < o->n && !rc; i++) {
            const struct oracle_warp *a = &o->w[i - 1], *b = &o->w[i];
            if (a->kernel_id == b->kernel_id && a->cta == b->cta && a->warp == b->warp) {
                char why[128];
                snprintf(why, sizeof why, "warp %u of CTA %llu of kernel %u is already at line %u", b->warp,
                         (unsigned long long)b->cta, b->kernel_id, a->line);
                rc = oracle_fail(msg, n, path, b->line, why, NULL);
            }
        }
    }
    if (rc)
        oracle_free(o);
    return rc;
}

void oracle_free(struct oracle *o)
{
    free(o->w);
    o->w = NULL;
    o->n = 0;
}

/* first record not below the key */
static size_t oracle_lower(const struct oracle *o, unsigned kernel_id, uint64_t cta, unsigned warp)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct oracle_warp *m = &o->w[mid];
        int below = m->kernel_id != kernel_id ? m->kernel_id < kernel_id
                    : m->cta != cta           ? m->cta < cta
                                              : m->warp < warp;
        if (below)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t oracle_cta(const struct oracle *o, unsigned kernel_id, uint64_t cta, size_t *count)
{
    size_t i = oracle_lower(o, kernel_id, cta, 0), j = i;
    while (j < o->n && o->w[j].kernel_id == kernel_id && o->w[j].cta == cta)
        j++;
    *count = j - i;
    return i;
}

int64_t oracle_time(const struct oracle *o, unsigned kernel_id, uint64_t cta, unsigned warp)
{
    size_t i = oracle_lower(o, kernel_id, cta, warp);
    if (i < o->n && o->w[i].kernel_id == kernel_id && o->w[i].cta == cta && o->w[i].warp == warp)
        return o->w[i].time > INT64_MAX ? INT64_MAX : (int64_t)o->w[i].time;
    return -1;
}

size_t oracle_kernel_count(const struct oracle *o, unsigned kernel_id)
{
    size_t i = oracle_lower(o, kernel_id, 0, 0), j = i;
    while (j < o->n && o->w[j].kernel_id == kernel_id)
        j++;
    return j - i;
}
