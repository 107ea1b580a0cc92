/* file_read.c - whole-file reads with a size limit (file_read.h). */
#include "file_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *fail(enum file_read_err *why, enum file_read_err e, char *msg, size_t n, const char *path,
                  const char *reason, int err_no)
{
    errno = err_no;
    if (why)
        *why = e;
    if (msg && n)
        snprintf(msg, n, "%s: %s", path, reason);
    return NULL;
}

char *file_read_all(const char *path, size_t max_bytes, size_t *len, enum file_read_err *why, char *msg,
                    size_t msg_size)
{
    if (len)
        *len = 0;
    if (why)
        *why = FILE_READ_OK;
    struct stat st;
    if (stat(path, &st) != 0) {
        int en = errno;
        return fail(why, en == ENOENT || en == ENOTDIR ? FILE_READ_NOT_FOUND : FILE_READ_IO, msg, msg_size, path,
                    en == ENOENT ? "no such file" : strerror(en), en);
    }
    if (S_ISDIR(st.st_mode))
        return fail(why, FILE_READ_IS_DIR, msg, msg_size, path, "is a directory, not a file", EISDIR);
    char reason[128];
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > (uint64_t)max_bytes) {
        snprintf(reason, sizeof reason, "larger than the limit of %zu bytes for this kind of input", max_bytes);
        return fail(why, FILE_READ_TOO_LARGE, msg, msg_size, path, reason, EFBIG);
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        int en = errno;
        return fail(why, FILE_READ_IO, msg, msg_size, path, strerror(en), en);
    }
    /* devices and pipes have no size: read up to the limit and one byte more */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) {
            fclose(f);
            return fail(why, FILE_READ_NOMEM, msg, msg_size, path, "out of host memory", ENOMEM);
        }
        size_t want = cap - n;
        if (n + want > max_bytes + 1)
            want = max_bytes + 1 - n;
        size_t got = want ? fread(buf + n, 1, want, f) : 0;
        n += got;
        if (n > max_bytes) {
            fclose(f);
            free(buf);
            snprintf(reason, sizeof reason, "larger than the limit of %zu bytes for this kind of input", max_bytes);
            return fail(why, FILE_READ_TOO_LARGE, msg, msg_size, path, reason, EFBIG);
        }
        if (got < want)
            break;
        if (n == cap) {
            cap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return fail(why, FILE_READ_IO, msg, msg_size, path, "read error", EIO);
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}
