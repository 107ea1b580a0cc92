/*
 * test_trace.c - ChampSim instruction traces (cpu/trace.h): the 64-byte
 * little-endian record layout, round trips through plain, gzip and xz files
 * (larger than the reader's buffer), a truncated last record (plain and inside
 * a gzip stream) named by its index, corrupt and cut-short gzip and xz streams
 * failing with a message, an empty file, a missing file.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "test.h"
#include "cpu/trace.h"

#define N_RECS 5000   /* 320000 bytes: several refills of the 64 KiB buffer */

static char t_dir[64];
static char t_made[32][64];
static int t_nmade;

__attribute__((destructor)) static void t_cleanup(void)
{
    char p[4400];   /* generous: gcc's truncation analysis cannot bound the names */
    for (int i = 0; i < t_nmade; i++) {
        snprintf(p, sizeof p, "%s/%s", t_dir, t_made[i]);
        unlink(p);
    }
    if (t_dir[0])
        rmdir(t_dir);
}

/* the path of NAME in the test's temporary directory (remembered for removal) */
static const char *t_path(const char *name)
{
    static char p[8][256];
    static int k;
    if (!t_dir[0]) {
        snprintf(t_dir, sizeof t_dir, "/tmp/warpsim_traceXXXXXX");
        if (!mkdtemp(t_dir))
            abort();
    }
    int seen = 0;
    for (int i = 0; i < t_nmade; i++)
        seen |= strcmp(t_made[i], name) == 0;
    if (!seen && t_nmade < 32)
        snprintf(t_made[t_nmade++], sizeof t_made[0], "%s", name);
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", t_dir, name);
    return p[k];
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* record i: varied fields, many of them zero ("none") */
static void t_rec(uint64_t i, struct trace_rec *r)
{
    memset(r, 0, sizeof *r);
    r->ip = 0x400000 + 4 * i + (i % 7 == 0 ? 0xffff000000000000ULL : 0);
    r->is_branch = (uint8_t)(i % 5 == 0);
    r->branch_taken = (uint8_t)(r->is_branch && i % 10 == 0);
    for (int k = 0; k < TRACE_NUM_DST_REGS; k++)
        r->dst_regs[k] = (uint8_t)(rng() % 3 ? rng() : 0);
    for (int k = 0; k < TRACE_NUM_SRC_REGS; k++)
        r->src_regs[k] = (uint8_t)(rng() % 2 ? rng() : 0);
    for (int k = 0; k < TRACE_NUM_DST_MEM; k++)
        r->dst_mem[k] = i % 4 == (uint64_t)k ? rng() : 0;
    for (int k = 0; k < TRACE_NUM_SRC_MEM; k++)
        r->src_mem[k] = (i + (uint64_t)k) % 3 == 0 ? rng() : 0;
}

static int same(const struct trace_rec *a, const struct trace_rec *b)
{
    unsigned char x[TRACE_REC_BYTES], y[TRACE_REC_BYTES];
    trace_encode(a, x);
    trace_encode(b, y);
    return memcmp(x, y, sizeof x) == 0;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n)
        abort();
    fclose(f);
}

static unsigned char *read_bytes(const char *path, size_t *n)
{
    long sz = file_size(path);
    if (sz < 0)
        abort();
    unsigned char *p = malloc((size_t)sz + 1);
    FILE *f = fopen(path, "rb");
    if (!p || !f || fread(p, 1, (size_t)sz, f) != (size_t)sz)
        abort();
    fclose(f);
    *n = (size_t)sz;
    return p;
}

static int write_trace(const char *path, uint64_t n)
{
    char err[512];
    struct trace_writer *w = trace_create(path, err, sizeof err);
    if (!w) {
        fprintf(stderr, "  %s\n", err);
        return -1;
    }
    rng_state = 0x9e3779b97f4a7c15ULL;
    struct trace_rec r;
    for (uint64_t i = 0; i < n; i++) {
        t_rec(i, &r);
        if (trace_write(w, &r) != 0)
            break;
    }
    int rc = trace_finish(w, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "  %s\n", err);
    return rc;
}

/* read PATH to its end: 1 if every record matches t_rec and the count is n */
static void check_read(const char *path, uint64_t n, enum trace_comp comp)
{
    char err[512];
    struct trace_reader *t = trace_open(path, err, sizeof err);
    REQUIRE(t != NULL);
    CHECK_EQ_INT(trace_compression(t), comp);
    rng_state = 0x9e3779b97f4a7c15ULL;
    struct trace_rec got, want;
    uint64_t i = 0, bad = 0;
    int rc;
    while ((rc = trace_next(t, &got)) == 1) {
        t_rec(i++, &want);
        bad += !same(&got, &want);
    }
    CHECK_EQ_INT(rc, 0);
    CHECK_EQ_STR(trace_error(t), "");
    CHECK_EQ_U64(bad, 0);
    CHECK_EQ_U64(i, n);
    CHECK_EQ_U64(trace_records_read(t), n);
    CHECK_EQ_INT(trace_next(t, &got), 0);   /* the end stays the end */
    trace_close(t);
}

/* read PATH until it stops: the last trace_next result, with the message in err */
static int drain(const char *path, char *err, size_t n, uint64_t *records)
{
    struct trace_reader *t = trace_open(path, err, n);
    if (!t)
        return -2;
    struct trace_rec r;
    int rc;
    while ((rc = trace_next(t, &r)) == 1)
        ;
    snprintf(err, n, "%s", trace_error(t));
    *records = trace_records_read(t);
    if (rc < 0 && trace_next(t, &r) != -1)   /* errors are sticky */
        rc = -3;
    trace_close(t);
    return rc;
}

TEST(record_layout_is_little_endian_packed)
{
    struct trace_rec r = {0};
    r.ip = 0x0102030405060708ULL;
    r.is_branch = 1;
    r.branch_taken = 1;
    r.dst_regs[0] = 0x11;
    r.dst_regs[1] = 0x12;
    for (int k = 0; k < 4; k++)
        r.src_regs[k] = (uint8_t)(0x20 + k);
    r.dst_mem[1] = 0xa1a2a3a4a5a6a7a8ULL;
    r.src_mem[3] = 0xb1ULL << 56;
    unsigned char b[TRACE_REC_BYTES];
    trace_encode(&r, b);
    CHECK_EQ_INT(b[0], 0x08);
    CHECK_EQ_INT(b[7], 0x01);
    CHECK_EQ_INT(b[8], 1);
    CHECK_EQ_INT(b[9], 1);
    CHECK_EQ_INT(b[10], 0x11);
    CHECK_EQ_INT(b[11], 0x12);
    CHECK_EQ_INT(b[12], 0x20);
    CHECK_EQ_INT(b[15], 0x23);
    CHECK_EQ_INT(b[16], 0);
    CHECK_EQ_INT(b[24], 0xa8);
    CHECK_EQ_INT(b[31], 0xa1);
    CHECK_EQ_INT(b[62], 0);
    CHECK_EQ_INT(b[63], 0xb1);
    struct trace_rec d;
    trace_decode(b, &d);
    CHECK(same(&r, &d));
    CHECK_EQ_U64(d.ip, r.ip);
    CHECK_EQ_U64(d.dst_mem[1], r.dst_mem[1]);
    CHECK_EQ_U64(d.src_mem[3], r.src_mem[3]);
}

TEST(round_trip_plain)
{
    const char *p = t_path("t.trace");
    REQUIRE(write_trace(p, N_RECS) == 0);
    CHECK_EQ_INT(file_size(p), N_RECS * TRACE_REC_BYTES);
    check_read(p, N_RECS, TRACE_PLAIN);
}

TEST(round_trip_gzip)
{
    const char *p = t_path("t.trace.gz");
    REQUIRE(write_trace(p, N_RECS) == 0);
    size_t n;
    unsigned char *b = read_bytes(p, &n);
    CHECK(n > 2 && b[0] == 0x1f && b[1] == 0x8b);
    free(b);
    check_read(p, N_RECS, TRACE_GZIP);
}

TEST(round_trip_xz)
{
    const char *p = t_path("t.trace.xz");
    REQUIRE(write_trace(p, N_RECS) == 0);
    size_t n;
    unsigned char *b = read_bytes(p, &n);
    CHECK(n > 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0);
    free(b);
    check_read(p, N_RECS, TRACE_XZ);
    /* the compression comes from the content, not the name */
    const char *q = t_path("xz_named_plain");
    REQUIRE(write_trace(q, 3) == 0);
    check_read(q, 3, TRACE_PLAIN);
}

TEST(truncated_last_record)
{
    const char *p = t_path("trunc.trace");
    REQUIRE(write_trace(p, 3) == 0);
    FILE *f = fopen(p, "ab");
    REQUIRE(f != NULL);
    fwrite("0123456789", 1, 10, f);
    fclose(f);
    char err[512], want[512];
    uint64_t n = 0;
    CHECK_EQ_INT(drain(p, err, sizeof err, &n), -1);
    CHECK_EQ_U64(n, 3);
    snprintf(want, sizeof want, "%s: record 3 is truncated (10 of 64 bytes)", p);
    CHECK_EQ_STR(err, want);

    /* a lone byte that begins like gzip's magic is a plain, truncated record 0 */
    const char *q = t_path("one_byte");
    write_bytes(q, "\x1f", 1);
    CHECK_EQ_INT(drain(q, err, sizeof err, &n), -1);
    snprintf(want, sizeof want, "%s: record 0 is truncated (1 of 64 bytes)", q);
    CHECK_EQ_STR(err, want);
}

TEST(truncated_record_inside_gzip)
{
    const char *p = t_path("trunc.gz");
    unsigned char raw[130];
    for (size_t i = 0; i < sizeof raw; i++)
        raw[i] = (unsigned char)i;
    gzFile g = gzopen(p, "wb");
    REQUIRE(g != NULL);
    CHECK_EQ_INT(gzwrite(g, raw, sizeof raw), (int)sizeof raw);
    CHECK_EQ_INT(gzclose(g), Z_OK);
    char err[512], want[512];
    uint64_t n = 0;
    CHECK_EQ_INT(drain(p, err, sizeof err, &n), -1);
    CHECK_EQ_U64(n, 2);
    snprintf(want, sizeof want, "%s: record 2 is truncated (2 of 64 bytes)", p);
    CHECK_EQ_STR(err, want);
}

/* write a compressed trace, damage it (overwrite the middle, or cut it in half) and read it */
static void corrupt_case(const char *name, const char *tag, int cut)
{
    const char *p = t_path(name);
    REQUIRE(write_trace(p, N_RECS) == 0);
    size_t n;
    unsigned char *b = read_bytes(p, &n);
    REQUIRE(n > 200);
    if (cut)
        n /= 2;
    else
        for (size_t i = n / 2; i < n / 2 + 32; i++)
            b[i] ^= 0x5a;
    write_bytes(p, b, n);
    free(b);
    char err[512];
    uint64_t recs = 0;
    CHECK_EQ_INT(drain(p, err, sizeof err, &recs), -1);
    CHECK(recs < N_RECS);
    CHECK(strncmp(err, p, strlen(p)) == 0);
    if (!strstr(err, tag))
        T_FAIL_("message lacks '%s': %s", tag, err);
    if (strstr(err + strlen(p), p))
        T_FAIL_("the message names the file twice: %s", err);
    if (strstr(err, "truncated"))
        T_FAIL_("a damaged stream is not a truncated record: %s", err);
}

TEST(corrupt_gzip) { corrupt_case("bad.trace.gz", ": gzip: ", 0); }
TEST(cut_short_gzip) { corrupt_case("cut.trace.gz", ": gzip: ", 1); }
TEST(corrupt_xz) { corrupt_case("bad.trace.xz", ": xz: ", 0); }
TEST(cut_short_xz) { corrupt_case("cut.trace.xz", ": xz: unexpected end of input", 1); }

TEST(empty_file)
{
    const char *p = t_path("empty.trace");
    write_bytes(p, "", 0);
    char err[512];
    uint64_t n = 7;
    CHECK_EQ_INT(drain(p, err, sizeof err, &n), 0);
    CHECK_EQ_U64(n, 0);
    CHECK_EQ_STR(err, "");
    /* an empty trace written compressed also reads as 0 records */
    const char *q = t_path("empty.trace.xz");
    REQUIRE(write_trace(q, 0) == 0);
    check_read(q, 0, TRACE_XZ);
    const char *g = t_path("empty.trace.gz");
    REQUIRE(write_trace(g, 0) == 0);
    check_read(g, 0, TRACE_GZIP);
}

TEST(missing_file_and_unwritable_path)
{
    char err[512];
    const char *p = t_path("nonexistent");
    CHECK(trace_open(p, err, sizeof err) == NULL);
    CHECK(strstr(err, p) == err);
    CHECK(strstr(err, "No such file") != NULL);
    CHECK(trace_create("/nonexistent_dir/x.trace.xz", err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent_dir/x.trace.xz: ") == err);
}

TEST_MAIN()
