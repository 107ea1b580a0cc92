/* cpu_src.c - instruction sources for the CPU core (cpu/cpu_core.h): a trace file, an array. */
#include <stdio.h>
#include <string.h>

#include "cpu/cpu_core.h"

struct src_file {
    struct trace_reader *t;
    const char *path;
    char err[512];
};

static int file_next(void *ctx, struct trace_rec *r)
{
    struct src_file *f = ctx;
    if (!f->t)
        return -1;   /* a failed reopen: err says why */
    int rc = trace_next(f->t, r);
    if (rc < 0)
        snprintf(f->err, sizeof f->err, "%s", trace_error(f->t));
    return rc;
}

static int file_rewind(void *ctx)
{
    /* the reader streams compressed data and cannot seek: start it again */
    struct src_file *f = ctx;
    if (f->t)
        trace_close(f->t);
    f->t = trace_open(f->path, f->err, sizeof f->err);
    return f->t ? 0 : -1;
}

static const char *file_error(void *ctx)
{
    return ((struct src_file *)ctx)->err;
}

struct cpu_src *cpu_src_file(struct arena *a, const char *path, char *err, size_t n)
{
    struct src_file *f = arena_alloc(a, sizeof *f);
    struct cpu_src *s = arena_alloc(a, sizeof *s);
    SIM_ASSERT(f && s);
    f->path = arena_strdup(a, path);
    f->t = trace_open(path, err, n);
    if (!f->t)
        return NULL;
    *s = (struct cpu_src){f, file_next, file_rewind, file_error};
    return s;
}

void cpu_src_file_close(struct cpu_src *s)
{
    struct src_file *f = s ? s->ctx : NULL;
    if (f && f->t) {
        trace_close(f->t);
        f->t = NULL;
    }
}

struct src_array {
    const struct trace_rec *recs;
    uint64_t n, pos;
};

static int array_next(void *ctx, struct trace_rec *r)
{
    struct src_array *s = ctx;
    if (s->pos >= s->n)
        return 0;
    *r = s->recs[s->pos++];
    return 1;
}

static int array_rewind(void *ctx)
{
    ((struct src_array *)ctx)->pos = 0;
    return 0;
}

static const char *array_error(void *ctx)
{
    (void)ctx;
    return "";
}

struct cpu_src *cpu_src_array(struct arena *a, const struct trace_rec *recs, uint64_t n)
{
    struct src_array *st = arena_alloc(a, sizeof *st);
    struct cpu_src *s = arena_alloc(a, sizeof *s);
    SIM_ASSERT(st && s);
    st->recs = recs;
    st->n = n;
    *s = (struct cpu_src){st, array_next, array_rewind, array_error};
    return s;
}
