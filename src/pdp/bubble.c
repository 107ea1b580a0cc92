/* bubble.c - the Bubble-up style slowdown table of native CPU applications (bubble.h). */
#include "pdp/bubble.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"
#include "cpu/trace.h"

int pdp_bubble_add(struct pdp_bubble_table *t, const char *app, int dma, unsigned cores, double footprint,
                   double slowdown)
{
    if (t->n >= PDP_BUBBLE_MAX || !app || !app[0] || strlen(app) >= sizeof t->e[0].app || strchr(app, ',') ||
        !(slowdown > 0) || !(slowdown <= PDP_BUBBLE_MAX_SLOWDOWN) || !(footprint >= 0) || !isfinite(footprint) ||
        (!dma && !cores))
        return -1;
    struct pdp_bubble_entry *e = &t->e[t->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->app, sizeof e->app, "%s", app);
    e->dma = dma ? 1 : 0;
    e->cores = dma ? 1 : cores;
    e->footprint = dma ? 0 : footprint;
    e->slowdown = slowdown;
    return 0;
}

int pdp_bubble_write(const struct pdp_bubble_table *t, FILE *f)
{
    fprintf(f, "app,kind,cores,footprint,slowdown\n");
    for (size_t i = 0; i < t->n; i++) {
        const struct pdp_bubble_entry *e = &t->e[i];
        fprintf(f, "%s,%s,%u,%.17g,%.17g\n", e->app, e->dma ? "dma" : "cpu", e->cores, e->footprint, e->slowdown);
    }
    return ferror(f) ? -1 : 0;
}

int pdp_bubble_parse(struct pdp_bubble_table *t, const char *text, size_t len, const char *name, char *msg,
                     size_t n)
{
    memset(t, 0, sizeof *t);
    if (n)
        msg[0] = '\0';
    const char *p = text, *end = text + len;
    unsigned ln = 0;
    int header = 0;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t ll = (size_t)((eol ? eol : end) - p);
        ln++;
        char line[512];
        if (ll >= sizeof line) {
            snprintf(msg, n, "%s:%u: error: line longer than %zu characters", name, ln, sizeof line - 1);
            return -1;
        }
        const char *nul = memchr(p, '\0', ll);
        if (nul) {
            snprintf(msg, n, "%s:%u:%zu: error: NUL byte in the table", name, ln, (size_t)(nul - p) + 1);
            return -1;
        }
        memcpy(line, p, ll);
        line[ll] = '\0';
        p = eol ? eol + 1 : end;
        line[strcspn(line, "\r")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        if (!header) {
            if (strcmp(line, "app,kind,cores,footprint,slowdown") != 0) {
                snprintf(msg, n, "%s:%u:1: error: expected the header app,kind,cores,footprint,slowdown", name, ln);
                return -1;
            }
            header = 1;
            continue;
        }
        /* APP,cpu|dma,CORES,FOOTPRINT,SLOWDOWN: the column of the first field that is wrong */
        const char *fld[5];
        size_t flen[5];
        unsigned nf = 0;
        for (const char *q = line;; nf++) {
            const char *c = strchr(q, ',');
            if (nf < 5) {
                fld[nf] = q;
                flen[nf] = c ? (size_t)(c - q) : strlen(q);
            }
            if (!c)
                break;
            q = c + 1;
        }
        nf++;
        static const char *const what[5] = {"an application name (no comma, under 48 characters)", "cpu or dma",
                                            "a core count", "a footprint in bytes (a number >= 0)",
                                            "a slowdown (a number > 0 and at most 1e6)"};
        int bad = nf > 5 ? 5 : -1;
        char app[64] = "", tmp[64];
        unsigned long cores = 0;
        double num[2] = {0, 0};
        int dma = 0;
        for (unsigned k = 0; k < 5 && bad < 0; k++) {
            if (k >= nf || flen[k] == 0 || flen[k] >= sizeof tmp) {
                bad = (int)k;
                break;
            }
            memcpy(tmp, fld[k], flen[k]);
            tmp[flen[k]] = '\0';
            char *e = NULL;
            if (k == 0) {
                if (flen[k] >= sizeof t->e[0].app)
                    bad = 0;
                else
                    memcpy(app, tmp, flen[k] + 1);
            } else if (k == 1) {
                if (strcmp(tmp, "cpu") != 0 && strcmp(tmp, "dma") != 0)
                    bad = 1;
                dma = tmp[0] == 'd';
            } else if (k == 2) {
                cores = strtoul(tmp, &e, 10);
                if (*e || tmp[0] == '-' || cores > 4096 || (!dma && cores == 0))
                    bad = 2;
            } else {
                num[k - 3] = strtod(tmp, &e);
                if (*e || !isfinite(num[k - 3]) ||
                    (k == 3 ? !(num[0] >= 0) : !(num[1] > 0 && num[1] <= PDP_BUBBLE_MAX_SLOWDOWN)))
                    bad = (int)k;
            }
        }
        if (bad >= 0 || pdp_bubble_add(t, app, dma, (unsigned)cores, num[0], num[1]) != 0) {
            size_t col = bad < 0 ? 1 : bad < 5 && (unsigned)bad < nf ? (size_t)(fld[bad] - line) + 1 : strlen(line) + 1;
            if (bad == 5)
                snprintf(msg, n, "%s:%u:%zu: error: more than 5 fields (APP,cpu|dma,CORES,FOOTPRINT,SLOWDOWN)",
                         name, ln, (size_t)(fld[4] - line) + flen[4] + 1);
            else if (bad >= 0)
                snprintf(msg, n, "%s:%u:%zu: error: expected %s (row APP,cpu|dma,CORES,FOOTPRINT,SLOWDOWN)", name,
                         ln, col, what[bad]);
            else
                snprintf(msg, n, "%s:%u:1: error: more than %d rows", name, ln, PDP_BUBBLE_MAX);
            return -1;
        }
    }
    if (!header) {
        snprintf(msg, n, "%s: error: empty slowdown table", name);
        return -1;
    }
    return 0;
}

int pdp_bubble_load(struct pdp_bubble_table *t, const char *path, char *msg, size_t n)
{
    memset(t, 0, sizeof *t);
    size_t len = 0;
    char *text = file_read_all(path, FILE_LIMIT_INPUT, &len, NULL, msg, n);
    if (!text)
        return -1;
    int rc = pdp_bubble_parse(t, text, len, path, msg, n);
    free(text);
    return rc;
}

int pdp_bubble_has(const struct pdp_bubble_table *t, const char *app)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->e[i].app, app) == 0)
            return 1;
    return 0;
}

double pdp_bubble_cpu(const struct pdp_bubble_table *t, const char *app, unsigned cores, double footprint)
{
    /* the measured core count nearest to `cores` (ties: the larger) */
    unsigned best = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct pdp_bubble_entry *e = &t->e[i];
        if (e->dma || strcmp(e->app, app) != 0)
            continue;
        long d = labs((long)e->cores - (long)cores), db = labs((long)best - (long)cores);
        if (!best || d < db || (d == db && e->cores > best))
            best = e->cores;
    }
    if (!best)
        return NAN;
    /* the measured footprints just below and above (log2 interpolation, clamped) */
    double x = log2(footprint > 1 ? footprint : 1);
    const struct pdp_bubble_entry *lo = NULL, *hi = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const struct pdp_bubble_entry *e = &t->e[i];
        if (e->dma || e->cores != best || strcmp(e->app, app) != 0)
            continue;
        double ex = log2(e->footprint > 1 ? e->footprint : 1);
        if (ex <= x && (!lo || ex > log2(lo->footprint > 1 ? lo->footprint : 1)))
            lo = e;
        if (ex >= x && (!hi || ex < log2(hi->footprint > 1 ? hi->footprint : 1)))
            hi = e;
    }
    if (!lo)
        return hi->slowdown;
    if (!hi)
        return lo->slowdown;
    double xl = log2(lo->footprint > 1 ? lo->footprint : 1), xh = log2(hi->footprint > 1 ? hi->footprint : 1);
    if (xh <= xl)
        return lo->slowdown;
    return lo->slowdown + (hi->slowdown - lo->slowdown) * (x - xl) / (xh - xl);
}

double pdp_bubble_gpu(const struct pdp_bubble_table *t, const char *app, double t_x, double t_total)
{
    const struct pdp_bubble_entry *d = NULL;
    for (size_t i = 0; i < t->n && !d; i++)
        if (t->e[i].dma && strcmp(t->e[i].app, app) == 0)
            d = &t->e[i];
    if (!d || !(t_total > 0) || !(t_x >= 0) || !isfinite(t_total) || !isfinite(t_x))
        return NAN;
    if (t_x > t_total)
        t_x = t_total;
    return t_total / (t_x / d->slowdown + (t_total - t_x));
}

int pdp_bubble_trace(const char *path, uint64_t footprint, uint64_t recs, uint64_t base, char *err, size_t n)
{
    struct trace_writer *w = trace_create(path, err, n);
    if (!w)
        return -1;
    uint64_t lines = footprint / 128;
    if (!lines)
        lines = 1;
    /* an odd stride near lines * 0.618 visits every line of a power-of-two count once per round */
    uint64_t stride = (uint64_t)((double)lines * 0.6180339887) | 1u;
    uint64_t pos = 0;
    struct trace_rec r;
    int rc = 0;
    for (uint64_t i = 0; i < recs && rc == 0; i += 2) {
        memset(&r, 0, sizeof r);
        r.ip = 0x300000;
        r.src_mem[0] = base + (pos % lines) * 128;
        r.dst_regs[0] = 2;
        pos += stride;
        rc = trace_write(w, &r);
        if (rc == 0 && i + 1 < recs) {
            memset(&r, 0, sizeof r);
            r.ip = 0x300008;
            r.dst_regs[0] = 3;
            r.src_regs[0] = 3;
            rc = trace_write(w, &r);
        }
    }
    if (trace_finish(w, err, n) != 0 || rc != 0)
        return -1;
    return 0;
}
