/*
 * fuzz_trace.c - libFuzzer harness: the ChampSim trace reader (src/cpu/trace.h) on plain, gzip and
 * xz input.  The input is written to a temporary file (the reader takes a path and detects the
 * compression from the first bytes) and read to its end.  Checks: trace_next answers 1, 0 or -1 and
 * keeps answering -1 after an error with a non-empty message; the count of records read matches
 * the records returned; a plain input yields exactly size / 64 records, fails on a partial last
 * record and otherwise decodes to what trace_decode gives for its bytes, and every record read
 * re-encodes to the same 64 bytes.  Inputs over 256 KiB are ignored.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/trace.h"

#define FUZZ_MAX_INPUT (256u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what)
{
    fprintf(stderr, "fuzz_trace: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    char path[] = "/tmp/fuzz_trace_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(fd);
    if (done != size) {
        unlink(path);
        return 0;
    }
    char err[128];
    struct trace_reader *t = trace_open(path, err, sizeof err);
    if (!t) {
        unlink(path);
        if (!memchr(err, '\0', sizeof err) || !err[0])
            fz_fail("trace_open failed without a terminated message");
        return 0;
    }
    int plain = !(size >= 2 && data[0] == 0x1f && data[1] == 0x8b) &&
                !(size >= 6 && memcmp(data, "\xfd" "7zXZ\0", 6) == 0);
    uint64_t n = 0;
    struct trace_rec r;
    int rc;
    while ((rc = trace_next(t, &r)) == 1) {
        unsigned char b[TRACE_REC_BYTES];
        trace_encode(&r, b);
        if (plain) {
            if ((n + 1) * TRACE_REC_BYTES > size)
                fz_fail("a plain trace gave more records than it holds");
            if (memcmp(b, data + n * TRACE_REC_BYTES, TRACE_REC_BYTES) != 0)
                fz_fail("a plain record does not re-encode to its bytes");
        }
        struct trace_rec again;
        trace_decode(b, &again);
        unsigned char b2[TRACE_REC_BYTES];
        trace_encode(&again, b2);
        if (memcmp(b, b2, TRACE_REC_BYTES) != 0)
            fz_fail("decode and encode do not round-trip");
        n++;
    }
    if (rc != 0 && rc != -1)
        fz_fail("trace_next answered neither 1, 0 nor -1");
    if (trace_records_read(t) != n)
        fz_fail("trace_records_read differs from the records returned");
    if (rc == -1) {
        if (!trace_error(t)[0])
            fz_fail("an error without a message");
        if (trace_next(t, &r) != -1)
            fz_fail("trace_next recovered after an error");
    }
    if (plain) {
        if (rc == 0 && (size % TRACE_REC_BYTES != 0 || n != size / TRACE_REC_BYTES))
            fz_fail("a plain trace ended cleanly with a partial record or records missing");
        if (rc == -1 && size % TRACE_REC_BYTES == 0)
            fz_fail("a whole plain trace failed");
    }
    trace_close(t);
    unlink(path);
    return 0;
}
