/*
 * fuzz_config.c - libFuzzer harness: the gpgpusim.config parser
 * (src/core/config.h) and the machine configuration built from it
 * (src/sys/gpu_config.h, sys/gpu.h), the way ws_set_timing_config does it:
 * load, apply the option table with value parsing, range checks and the
 * cross-option validation, build the machine, take the policy parameters,
 * report unknown options, write the effective config.
 *
 * Input: MAIN [NUL OTHER].  MAIN is written to DIR/main.config and loaded with
 * cfg_load_file; OTHER (when there is a NUL) to DIR/other.config, so
 * `-config other.config` lines include it (and `-config main.config` makes a
 * cycle).  DIR is one mkdtemp directory per process, removed at exit; both
 * files are rewritten (or removed) for every input, so nothing carries over.
 * To keep the harness hermetic (an include could name /dev/zero or a FIFO),
 * inputs in which a line with "-config" also holds a ".." or a '/' that is
 * not part of "./" are ignored; so are inputs in which a line with "cpu_apps"
 * holds any '/' (an item of -warpsim_cpu_apps that is no profile or mix is a
 * trace file's path, relative to the working directory, which gpu_new
 * opens).  Inputs over 64 KiB are ignored.
 *
 * The same MAIN text is also parsed with cfg_load_text under the same name;
 * when the file load succeeds the two entry lists must be identical.  A
 * machine config that validates must survive a round trip through its
 * effective config (gpu_config_write, load again, write again: same text),
 * which is what `warpsim run --config RESULT.config` relies on.
 *
 * The machine is only built (gpu_new) when it is small: at most 16 SMs,
 * 32 L2 slices and 16 CPU cores, caches (the CPU cores' too) of at most 64K
 * lines / 8 MiB with at most 4096 MSHR entries and 64K merge slots, so one
 * input costs milliseconds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/config.h"
#include "mem/cache.h"
#include "sys/gpu.h"
#include "sys/gpu_config.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The per-process directory and its two file names (set once, never changed). */
static char fz_dir[64];
static char fz_main[96];
static char fz_other[96];

static void fz_cleanup(void)
{
    if (!fz_dir[0])
        return;
    unlink(fz_main);
    unlink(fz_other);
    rmdir(fz_dir);
}

static int fz_setup(void)
{
    if (fz_dir[0])
        return 0;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > 32)
        tmp = "/tmp";
    char d[sizeof fz_dir];
    snprintf(d, sizeof d, "%s/fuzz_config.XXXXXX", tmp);
    if (!mkdtemp(d))
        return -1;
    memcpy(fz_dir, d, sizeof fz_dir);
    snprintf(fz_main, sizeof fz_main, "%s/main.config", fz_dir);
    snprintf(fz_other, sizeof fz_other, "%s/other.config", fz_dir);
    atexit(fz_cleanup);
    return 0;
}

static int fz_write(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(p, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Could the text name a file outside the directory?  An include's file name is
   on the line of its `-config` (the parser takes a value from the same line
   only), so: a line that contains "-config" and also ".." or a '/' that is not
   the one of "./" (absolute paths, subdirectories).  The trace files of
   -warpsim_cpu_apps are named relative to the working directory, so a line
   that contains "cpu_apps" may hold no '/' at all (a bare name is a file or
   directory of the working directory, which the fuzzer does not write; ".."
   alone is a directory, which no trace reader accepts).  Other lines may hold
   anything, comments with paths included. */
static int fz_escapes(const uint8_t *p, size_t n)
{
    size_t ls = 0;
    while (ls < n) {
        const uint8_t *nl = memchr(p + ls, '\n', n - ls);
        size_t le = nl ? (size_t)(nl - p) : n;
        int inc = 0, apps = 0, bad = 0, slash = 0;
        for (size_t i = ls; i < le; i++) {
            if (p[i] == '-' && le - i >= 7 && memcmp(p + i, "-config", 7) == 0)
                inc = 1;
            if (p[i] == 'c' && le - i >= 8 && memcmp(p + i, "cpu_apps", 8) == 0)
                apps = 1;
            if (p[i] == '.' && i + 1 < le && p[i + 1] == '.')
                bad = 1;
            if (p[i] == '/' && (i == ls || p[i - 1] != '.'))
                bad = 1;
            if (p[i] == '/')
                slash = 1;
        }
        if ((inc && bad) || (apps && slash))
            return 1;
        ls = le + 1;
    }
    return 0;
}

/* Small enough to build in milliseconds (see the header comment). */
static int fz_machine_small(const struct gpu_config *g)
{
    if (g->n_cores > 16 || g->n_sub_partitions > 32 || g->cpu_cores > 16)
        return 0;
    const char *caches[7] = {g->cache_dl1, g->cache_il1, g->cache_const, g->cache_tex, g->cache_dl2,
                             g->cpu_l1d,   g->cpu_l2};
    for (int i = 0; i < 7; i++) {
        struct cache_config cc;
        char msg[256];
        unsigned col = 0;
        if (cache_config_parse(caches[i], &cc, msg, sizeof msg, &col) != 0)
            return 0;
        uint64_t lines = (uint64_t)cc.nsets * cc.assoc;
        if (lines > 65536 || cache_config_bytes(&cc) > (8u << 20) || cc.mshr_entries > 4096 ||
            (uint64_t)cc.mshr_entries * cc.mshr_max_merge > 65536 || cc.miss_queue > 4096)
            return 0;
    }
    return 1;
}

/* Everything written to f, dropped. */
#define TO_MEMORY(what)                                      \
    do {                                                     \
        char *buf_ = NULL;                                   \
        size_t len_ = 0;                                     \
        FILE *f = open_memstream(&buf_, &len_);              \
        if (f) {                                             \
            what;                                            \
            fclose(f);                                       \
        }                                                    \
        free(buf_);                                          \
    } while (0)

/* The effective config of a machine, as written beside every result. */
static char *fz_effective(const struct gpu_config *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    gpu_config_write(f, g);
    fclose(f);
    return buf;
}

/* `warpsim run --config EFFECTIVE.config` must reproduce the machine: the
   effective config loads, validates and writes itself again unchanged. */
static void fz_round_trip(const struct gpu_config *g)
{
    char *text = fz_effective(g);
    if (!text)
        return;
    struct arena *a = arena_new(0);
    if (!a) {
        free(text);
        return;
    }
    struct cfg c;
    cfg_init(&c, a);
    struct cfg_error e;
    memset(&e, 0, sizeof e);
    struct gpu_config g2;
    char msg[1024];
    if (cfg_load_text(&c, text, strlen(text), "effective.config", &e) != 0 || gpu_config_load(&g2, &c, &e) != 0) {
        cfg_error_format(&e, msg, sizeof msg);
        fprintf(stderr, "fuzz_config: the effective config does not load again: %s\n--- effective config:\n%s", msg,
                text);
        abort();
    }
    char *again = fz_effective(&g2);
    if (again && strcmp(text, again) != 0) {
        fprintf(stderr, "fuzz_config: the effective config changes when loaded again\n--- first:\n%s--- again:\n%s",
                text, again);
        abort();
    }
    free(again);
    arena_free(a);
    free(text);
}

static int fz_same_entries(const struct cfg *a, const struct cfg *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++) {
        const struct cfg_entry *x = &a->e[i], *y = &b->e[i];
        if (strcmp(x->name, y->name) || strcmp(x->value, y->value) || strcmp(x->file, y->file) ||
            x->line != y->line || x->col != y->col)
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT || fz_escapes(data, size) || fz_setup() != 0)
        return 0;
    const uint8_t *nul = memchr(data, 0, size);
    size_t main_len = nul ? (size_t)(nul - data) : size;
    if (fz_write(fz_main, data, main_len) != 0)
        return 0;
    if (nul) {
        if (fz_write(fz_other, nul + 1, size - main_len - 1) != 0)
            return 0;
    } else {
        unlink(fz_other);
    }

    struct arena *a = arena_new(0);
    if (!a)
        return 0;
    struct cfg c;
    cfg_init(&c, a);
    struct cfg_error e;
    memset(&e, 0, sizeof e);
    char buf[1024];
    int rc = cfg_load_file(&c, fz_main, &e);

    /* the same text through cfg_load_text: same entries whenever the file loads */
    struct cfg t;
    cfg_init(&t, a);
    struct cfg_error te;
    memset(&te, 0, sizeof te);
    int trc = cfg_load_text(&t, (const char *)data, main_len, fz_main, &te);
    if (rc == 0 && (trc != 0 || !fz_same_entries(&c, &t))) {
        cfg_error_format(&te, buf, sizeof buf);
        fprintf(stderr, "fuzz_config: cfg_load_file succeeded but cfg_load_text %s (%s)\n",
                trc ? "failed" : "gave other entries", trc ? buf : "");
        abort();
    }
    if (trc)
        cfg_error_format(&te, buf, sizeof buf);

    if (rc != 0) {
        cfg_error_format(&e, buf, sizeof buf);
    } else {
        struct gpu_config gc;
        if (gpu_config_load(&gc, &c, &e) != 0) {
            cfg_error_format(&e, buf, sizeof buf);
        } else {
            fz_round_trip(&gc);
            if (fz_machine_small(&gc)) {
                struct gpu *g = gpu_new(&gc, buf, sizeof buf);
                if (g) {
                    if (gpu_set_policy_params(g, &c, &e) != 0) {
                        cfg_error_format(&e, buf, sizeof buf);
                    } else {
                        TO_MEMORY((void)cfg_check_unused(&c, 1, f, &e));
                        if (cfg_check_unused(&c, 0, NULL, &e) != 0)
                            cfg_error_format(&e, buf, sizeof buf);
                        TO_MEMORY((gpu_config_write(f, gpu_config(g)), gpu_write_policy_params(g, f)));
                    }
                    gpu_free(g);
                }
            }
        }
    }
    arena_free(a);
    return 0;
}
