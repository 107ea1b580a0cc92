/*
 * standalone_main.c - a main() for the fuzz harnesses when libFuzzer is not
 * linked in (every ordinary build, gcc or clang): calls
 * LLVMFuzzerTestOneInput once on every file named on the command line and on
 * every regular file of every directory named there (not recursive, in name
 * order, dot files skipped).  A crash, sanitizer report or leak in the harness
 * fails the run like any other test; the last "running FILE" line says which
 * input it was.
 *
 *     fuzz_ptx_load_replay tests/fuzz/regressions/ptx_load build/fuzz-corpus/ptx_load
 *
 * Exit status: 0 when every input ran, 1 when a path could not be read, 2 usage.
 * With -v every input is announced before it runs (else only the count is
 * printed at the end).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose;

/* Read a whole file into a malloc'ed buffer of exactly its size (1 byte for an
   empty file, so the pointer is never NULL).  -1 on error. */
static int slurp(const char *path, uint8_t **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return -1;
    }
    /* an exact-size copy, so ASan sees reads past the end of the input */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    *out = exact;
    *len = n;
    return 0;
}

static int run_file(const char *path, unsigned long *count)
{
    uint8_t *data = NULL;
    size_t len = 0;
    if (slurp(path, &data, &len) != 0) {
        fprintf(stderr, "fuzz replay: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (verbose) {
        fprintf(stderr, "running %s (%zu bytes)\n", path, len);
        fflush(stderr);
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    (*count)++;
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int run_dir(const char *dir, unsigned long *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fuzz replay: cannot open directory %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn) {
                rc = -1;
                break;
            }
            names = nn;
            cap = nc;
        }
        names[n] = strdup(de->d_name);
        if (!names[n]) {
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(pl);
        struct stat st;
        if (!p) {
            rc = -1;
        } else {
            snprintf(p, pl, "%s/%s", dir, names[i]);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && run_file(p, count) != 0)
                rc = -1;
        }
        free(p);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        verbose = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] FILE|DIR...\n", argv[0]);
        return 2;
    }
    unsigned long count = 0;
    int rc = 0;
    for (int i = first; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz replay: %s: %s\n", argv[i], strerror(errno));
            rc = 1;
        } else if (S_ISDIR(st.st_mode)) {
            if (run_dir(argv[i], &count) != 0)
                rc = 1;
        } else if (run_file(argv[i], &count) != 0) {
            rc = 1;
        }
    }
    printf("%s: %lu inputs executed\n", argv[0], count);
    return rc;
}
