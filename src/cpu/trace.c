/* trace.c - ChampSim instruction traces: streamed reading (plain, gzip, xz) and writing. */
#include "cpu/trace.h"

#include <errno.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define TRACE_BUF_BYTES (64u * 1024u)

const char *trace_comp_name(enum trace_comp c)
{
    switch (c) {
    case TRACE_GZIP: return "gzip";
    case TRACE_XZ: return "xz";
    default: return "plain";
    }
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

void trace_decode(const unsigned char b[TRACE_REC_BYTES], struct trace_rec *r)
{
    r->ip = get_u64(b);
    r->is_branch = b[8];
    r->branch_taken = b[9];
    for (int i = 0; i < TRACE_NUM_DST_REGS; i++)
        r->dst_regs[i] = b[10 + i];
    for (int i = 0; i < TRACE_NUM_SRC_REGS; i++)
        r->src_regs[i] = b[12 + i];
    for (int i = 0; i < TRACE_NUM_DST_MEM; i++)
        r->dst_mem[i] = get_u64(b + 16 + 8 * i);
    for (int i = 0; i < TRACE_NUM_SRC_MEM; i++)
        r->src_mem[i] = get_u64(b + 32 + 8 * i);
}

void trace_encode(const struct trace_rec *r, unsigned char b[TRACE_REC_BYTES])
{
    put_u64(b, r->ip);
    b[8] = r->is_branch;
    b[9] = r->branch_taken;
    for (int i = 0; i < TRACE_NUM_DST_REGS; i++)
        b[10 + i] = r->dst_regs[i];
    for (int i = 0; i < TRACE_NUM_SRC_REGS; i++)
        b[12 + i] = r->src_regs[i];
    for (int i = 0; i < TRACE_NUM_DST_MEM; i++)
        put_u64(b + 16 + 8 * i, r->dst_mem[i]);
    for (int i = 0; i < TRACE_NUM_SRC_MEM; i++)
        put_u64(b + 32 + 8 * i, r->src_mem[i]);
}

/* liblzma has no strerror: the messages of the xz tool for its return codes */
static const char *lzma_msg(lzma_ret ret)
{
    switch (ret) {
    case LZMA_MEM_ERROR: return "cannot allocate memory";
    case LZMA_MEMLIMIT_ERROR: return "memory usage limit reached";
    case LZMA_FORMAT_ERROR: return "file format not recognized";
    case LZMA_OPTIONS_ERROR: return "unsupported options";
    case LZMA_DATA_ERROR: return "compressed data is corrupt";
    case LZMA_BUF_ERROR: return "unexpected end of input";
    case LZMA_UNSUPPORTED_CHECK: return "unsupported integrity check";
    case LZMA_PROG_ERROR: return "internal error (bug)";
    default: return "unknown error";
    }
}

/* zlib's gzerror message is "PATH: reason": the reason */
static const char *gz_reason(const char *m, const char *path)
{
    size_t pl = strlen(path);
    if (m && strncmp(m, path, pl) == 0 && strncmp(m + pl, ": ", 2) == 0)
        m += pl + 2;
    return m && *m ? m : "corrupt stream";
}

static void fmt(char *dst, size_t n, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *dst, size_t n, const char *f, ...)
{
    if (!dst || n == 0)
        return;
    va_list ap;
    va_start(ap, f);
    vsnprintf(dst, n, f, ap);
    va_end(ap);
}

/* ======================================================================= reader */

struct trace_reader {
    char *path;
    enum trace_comp comp;
    FILE *f;                 /* plain and xz */
    gzFile gz;               /* gzip */
    lzma_stream xs;          /* xz */
    unsigned char *xin;      /* xz: compressed input buffer */
    int in_eof;              /* xz: the file is read to its end */
    int src_end;             /* the decompressed stream has ended */
    int failed;
    unsigned char *buf;      /* decompressed bytes: [pos, len) unread */
    size_t pos, len;
    uint64_t records;
    char err[512];
};

static void rd_fail(struct trace_reader *t, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void rd_fail(struct trace_reader *t, const char *f, ...)
{
    char m[400];
    va_list ap;
    va_start(ap, f);
    vsnprintf(m, sizeof m, f, ap);
    va_end(ap);
    snprintf(t->err, sizeof t->err, "%s: %s", t->path, m);
    t->failed = 1;
}

static void rd_free(struct trace_reader *t)
{
    if (!t)
        return;
    if (t->f)
        fclose(t->f);
    if (t->gz)
        gzclose(t->gz);
    if (t->comp == TRACE_XZ)
        lzma_end(&t->xs);
    free(t->xin);
    free(t->buf);
    free(t->path);
    free(t);
}

struct trace_reader *trace_open(const char *path, char *err, size_t n)
{
    fmt(err, n, "%s", "");
    FILE *f = fopen(path, "rb");
    if (!f) {
        fmt(err, n, "%s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char magic[6];
    size_t nm = fread(magic, 1, sizeof magic, f);
    if (nm < sizeof magic && ferror(f)) {
        fmt(err, n, "%s: read error: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    struct trace_reader *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path)) || !(t->buf = malloc(TRACE_BUF_BYTES))) {
        fmt(err, n, "%s: out of memory", path);
        fclose(f);
        rd_free(t);
        return NULL;
    }
    static const unsigned char xz_magic[6] = {0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00};
    if (nm >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        t->comp = TRACE_GZIP;
        fclose(f);
        errno = 0;
        t->gz = gzopen(path, "rb");
        if (!t->gz) {
            fmt(err, n, "%s: %s", path, errno ? strerror(errno) : "gzopen failed");
            rd_free(t);
            return NULL;
        }
        gzbuffer(t->gz, TRACE_BUF_BYTES);
    } else if (nm == sizeof magic && memcmp(magic, xz_magic, sizeof magic) == 0) {
        t->comp = TRACE_XZ;
        t->f = f;
        t->xs = (lzma_stream)LZMA_STREAM_INIT;
        t->xin = malloc(TRACE_BUF_BYTES);
        lzma_ret ret = t->xin ? lzma_stream_decoder(&t->xs, UINT64_MAX, LZMA_CONCATENATED) : LZMA_MEM_ERROR;
        if (ret != LZMA_OK) {
            fmt(err, n, "%s: xz: %s", path, lzma_msg(ret));
            rd_free(t);
            return NULL;
        }
        /* the magic bytes already read are the decoder's first input */
        memcpy(t->xin, magic, nm);
        t->xs.next_in = t->xin;
        t->xs.avail_in = nm;
    } else {
        t->comp = TRACE_PLAIN;
        t->f = f;
        memcpy(t->buf, magic, nm);
        t->len = nm;
    }
    return t;
}

/* Read up to cap decompressed bytes into p: the count, 0 at the end, -1 on error. */
static long src_read(struct trace_reader *t, unsigned char *p, size_t cap)
{
    if (t->comp == TRACE_PLAIN) {
        size_t got = fread(p, 1, cap, t->f);
        if (got < cap && ferror(t->f)) {
            rd_fail(t, "read error: %s", strerror(errno));
            return -1;
        }
        return (long)got;
    }
    if (t->comp == TRACE_GZIP) {
        int got = gzread(t->gz, p, (unsigned)cap);
        int errnum = Z_OK;
        const char *m = gzerror(t->gz, &errnum);
        if (got < 0 || errnum != Z_OK) {
            if (errnum == Z_ERRNO)
                rd_fail(t, "gzip: read error: %s", strerror(errno));
            else
                rd_fail(t, "gzip: %s", gz_reason(m, t->path));
            return -1;
        }
        return got;
    }
    /* xz */
    t->xs.next_out = p;
    t->xs.avail_out = cap;
    while (t->xs.avail_out > 0) {
        if (t->xs.avail_in == 0 && !t->in_eof) {
            size_t got = fread(t->xin, 1, TRACE_BUF_BYTES, t->f);
            if (got == 0) {
                if (ferror(t->f)) {
                    rd_fail(t, "read error: %s", strerror(errno));
                    return -1;
                }
                t->in_eof = 1;
            }
            t->xs.next_in = t->xin;
            t->xs.avail_in = got;
        }
        lzma_ret ret = lzma_code(&t->xs, t->in_eof ? LZMA_FINISH : LZMA_RUN);
        if (ret == LZMA_STREAM_END)
            break;
        if (ret != LZMA_OK) {
            rd_fail(t, "xz: %s", lzma_msg(ret));
            return -1;
        }
    }
    return (long)(cap - t->xs.avail_out);
}

int trace_next(struct trace_reader *t, struct trace_rec *r)
{
    if (t->failed)
        return -1;
    while (t->len - t->pos < TRACE_REC_BYTES && !t->src_end) {
        if (t->pos > 0) {   /* keep the partial record at the buffer's start */
            memmove(t->buf, t->buf + t->pos, t->len - t->pos);
            t->len -= t->pos;
            t->pos = 0;
        }
        long got = src_read(t, t->buf + t->len, TRACE_BUF_BYTES - t->len);
        if (got < 0)
            return -1;
        if (got == 0)
            t->src_end = 1;
        t->len += (size_t)got;
    }
    size_t have = t->len - t->pos;
    if (have == 0)
        return 0;
    if (have < TRACE_REC_BYTES) {
        rd_fail(t, "record %llu is truncated (%zu of %d bytes)", (unsigned long long)t->records, have,
                TRACE_REC_BYTES);
        return -1;
    }
    trace_decode(t->buf + t->pos, r);
    t->pos += TRACE_REC_BYTES;
    t->records++;
    return 1;
}

const char *trace_error(const struct trace_reader *t) { return t->err; }
uint64_t trace_records_read(const struct trace_reader *t) { return t->records; }
enum trace_comp trace_compression(const struct trace_reader *t) { return t->comp; }
void trace_close(struct trace_reader *t) { rd_free(t); }

/* ======================================================================= writer */

struct trace_writer {
    char *path;
    enum trace_comp comp;
    FILE *f;                 /* plain and xz */
    gzFile gz;
    lzma_stream xs;
    unsigned char *xout;     /* xz: compressed output buffer */
    int failed;
    char err[512];
};

static void wr_fail(struct trace_writer *w, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void wr_fail(struct trace_writer *w, const char *f, ...)
{
    if (w->failed)
        return;   /* keep the first error */
    char m[400];
    va_list ap;
    va_start(ap, f);
    vsnprintf(m, sizeof m, f, ap);
    va_end(ap);
    snprintf(w->err, sizeof w->err, "%s: %s", w->path, m);
    w->failed = 1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void wr_free(struct trace_writer *w)
{
    if (!w)
        return;
    if (w->comp == TRACE_XZ)
        lzma_end(&w->xs);
    free(w->xout);
    free(w->path);
    free(w);
}

struct trace_writer *trace_create(const char *path, char *err, size_t n)
{
    fmt(err, n, "%s", "");
    struct trace_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        fmt(err, n, "%s: out of memory", path);
        wr_free(w);
        return NULL;
    }
    w->comp = ends_with(path, ".gz") ? TRACE_GZIP : ends_with(path, ".xz") ? TRACE_XZ : TRACE_PLAIN;
    if (w->comp == TRACE_GZIP) {
        errno = 0;
        w->gz = gzopen(path, "wb");
        if (!w->gz) {
            fmt(err, n, "%s: %s", path, errno ? strerror(errno) : "gzopen failed");
            wr_free(w);
            return NULL;
        }
        gzbuffer(w->gz, TRACE_BUF_BYTES);
        return w;
    }
    if (w->comp == TRACE_XZ) {
        w->xs = (lzma_stream)LZMA_STREAM_INIT;
        w->xout = malloc(TRACE_BUF_BYTES);
        lzma_ret ret = w->xout ? lzma_easy_encoder(&w->xs, 1, LZMA_CHECK_CRC64) : LZMA_MEM_ERROR;
        if (ret != LZMA_OK) {
            fmt(err, n, "%s: xz: %s", path, lzma_msg(ret));
            wr_free(w);
            return NULL;
        }
        w->xs.next_out = w->xout;
        w->xs.avail_out = TRACE_BUF_BYTES;
    }
    w->f = fopen(path, "wb");
    if (!w->f) {
        fmt(err, n, "%s: %s", path, strerror(errno));
        wr_free(w);
        return NULL;
    }
    return w;
}

/* xz: run the encoder over in[len] (action LZMA_RUN) or to the stream's end (LZMA_FINISH) */
static int xz_pump(struct trace_writer *w, const unsigned char *in, size_t len, lzma_action action)
{
    w->xs.next_in = in;
    w->xs.avail_in = len;
    for (;;) {
        lzma_ret ret = lzma_code(&w->xs, action);
        if (ret != LZMA_OK && ret != LZMA_STREAM_END) {
            wr_fail(w, "xz: %s", lzma_msg(ret));
            return -1;
        }
        int done = action == LZMA_FINISH ? ret == LZMA_STREAM_END : w->xs.avail_in == 0;
        if (w->xs.avail_out == 0 || (done && action == LZMA_FINISH)) {
            size_t out = TRACE_BUF_BYTES - w->xs.avail_out;
            if (out && fwrite(w->xout, 1, out, w->f) != out) {
                wr_fail(w, "write error: %s", strerror(errno));
                return -1;
            }
            w->xs.next_out = w->xout;
            w->xs.avail_out = TRACE_BUF_BYTES;
        }
        if (done)
            return 0;
    }
}

int trace_write(struct trace_writer *w, const struct trace_rec *r)
{
    if (w->failed)
        return -1;
    unsigned char b[TRACE_REC_BYTES];
    trace_encode(r, b);
    if (w->comp == TRACE_GZIP) {
        if (gzwrite(w->gz, b, TRACE_REC_BYTES) != TRACE_REC_BYTES) {
            int errnum = Z_OK;
            const char *m = gzerror(w->gz, &errnum);
            if (errnum == Z_ERRNO)
                wr_fail(w, "gzip: write error: %s", strerror(errno));
            else
                wr_fail(w, "gzip: %s", gz_reason(m, w->path));
            return -1;
        }
        return 0;
    }
    if (w->comp == TRACE_XZ)
        return xz_pump(w, b, TRACE_REC_BYTES, LZMA_RUN);
    if (fwrite(b, 1, TRACE_REC_BYTES, w->f) != TRACE_REC_BYTES) {
        wr_fail(w, "write error: %s", strerror(errno));
        return -1;
    }
    return 0;
}

const char *trace_writer_error(const struct trace_writer *w) { return w->err; }

int trace_finish(struct trace_writer *w, char *err, size_t n)
{
    fmt(err, n, "%s", "");
    if (!w)
        return 0;
    if (w->comp == TRACE_XZ && !w->failed)
        xz_pump(w, NULL, 0, LZMA_FINISH);
    if (w->gz) {
        int rc = gzclose(w->gz);
        w->gz = NULL;
        if (rc != Z_OK)
            wr_fail(w, "gzip: close failed (%s)", rc == Z_ERRNO ? strerror(errno) : "zlib error");
    }
    if (w->f) {
        if (fclose(w->f) != 0)
            wr_fail(w, "write error: %s", strerror(errno));
        w->f = NULL;
    }
    int rc = w->failed ? -1 : 0;
    if (rc)
        fmt(err, n, "%s", w->err);
    wr_free(w);
    return rc;
}
