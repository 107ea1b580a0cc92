/* bubble.c - the Bubble-up style slowdown table of native CPU applications (bubble.h). */
#include "pdp/bubble.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/trace.h"

int pdp_bubble_add(struct pdp_bubble_table *t, const char *app, int dma, unsigned cores, double footprint,
                   double slowdown)
{
    if (t->n >= PDP_BUBBLE_MAX || !app || !app[0] || strlen(app) >= sizeof t->e[0].app || strchr(app, ',') ||
        !(slowdown > 0) || !isfinite(slowdown) || !(footprint >= 0) || !isfinite(footprint) || (!dma && !cores))
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

int pdp_bubble_load(struct pdp_bubble_table *t, const char *path, char *msg, size_t n)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, n, "%s: cannot open the slowdown table", path);
        return -1;
    }
    char line[512];
    unsigned ln = 0;
    int header = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        if (!header) {
            if (strcmp(line, "app,kind,cores,footprint,slowdown") != 0) {
                snprintf(msg, n, "%s:%u: error: expected the header app,kind,cores,footprint,slowdown", path, ln);
                rc = -1;
                break;
            }
            header = 1;
            continue;
        }
        char app[64], kind[16];
        unsigned cores;
        double fp, sd;
        char extra;
        if (sscanf(line, "%63[^,],%15[^,],%u,%lf,%lf%c", app, kind, &cores, &fp, &sd, &extra) != 5 ||
            (strcmp(kind, "cpu") != 0 && strcmp(kind, "dma") != 0) ||
            pdp_bubble_add(t, app, kind[0] == 'd', cores, fp, sd) != 0) {
            snprintf(msg, n,
                     "%s:%u: error: expected APP,cpu|dma,CORES,FOOTPRINT,SLOWDOWN (positive slowdown, at most %d "
                     "rows)",
                     path, ln, PDP_BUBBLE_MAX);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && !header) {
        snprintf(msg, n, "%s: error: empty slowdown table", path);
        rc = -1;
    }
    fclose(f);
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
