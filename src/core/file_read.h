/*
 * file_read.h - read a whole input file with a size limit.
 *
 * Every input warpsim reads whole (PTX, configs, graphs, CSVs) goes through
 * here, so that a directory, a device such as /dev/zero or a file larger than
 * the limit is a clear error instead of a read that grows memory until
 * allocation fails.
 */
#ifndef WARPSIM_FILE_READ_H
#define WARPSIM_FILE_READ_H

#include <stddef.h>

/* Default limits (bytes) of the project's input kinds. */
#define FILE_LIMIT_PTX (256u << 20)      /* nvcc's PTX of a large application is a few MiB */
#define FILE_LIMIT_CONFIG (16u << 20)
#define FILE_LIMIT_INPUT (1024u << 20)   /* workload inputs (graphs) */

enum file_read_err {
    FILE_READ_OK = 0,
    FILE_READ_NOT_FOUND,   /* no such file */
    FILE_READ_IS_DIR,      /* a directory */
    FILE_READ_IO,          /* cannot open or read (permissions, an I/O error) */
    FILE_READ_TOO_LARGE,   /* more than max_bytes */
    FILE_READ_NOMEM
};

/* Read the file at path.  Returns a malloc'ed buffer with a NUL after the
   *len bytes (the caller frees it), or NULL with *why set (why may be NULL),
   errno set (ENOENT, EISDIR, EFBIG for more than max_bytes, ENOMEM, or the
   error of open/read) and a message "PATH: reason" in msg (msg may be NULL).
   A device or pipe is read up to max_bytes + 1 bytes at most. */
char *file_read_all(const char *path, size_t max_bytes, size_t *len, enum file_read_err *why, char *msg,
                    size_t msg_size);

#endif
