/*
 * run_counts.c - the warp instruction counts of earlier runs, for the progress line's ETA.
 *
 * A workload's warp instruction count depends only on its inputs (workload, size, seed, input file, PTX
 * file), never on the machine or the policies, so a count measured once - by a functional run or a timing
 * run - tells a later timing run of the same inputs how far it has come.  Counts live in a small text file,
 * one "<key>\t<warp insns>" line each, appended (O_APPEND: parallel sweeps may write at once) and read
 * last-line-wins:
 *
 *   $WARPSIM_CACHE_DIR/warp_insns.tsv, else $XDG_CACHE_HOME/warpsim/..., else ~/.cache/warpsim/...
 *
 * The file only ever feeds the ETA: a missing, unreadable or stale file changes nothing else.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

static int counts_path(char *path, size_t n, int create_dir)
{
    const char *dir = getenv("WARPSIM_CACHE_DIR");
    char base[1024];
    if (dir && *dir) {
        snprintf(base, sizeof base, "%s", dir);
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg && *xdg)
            snprintf(base, sizeof base, "%s/warpsim", xdg);
        else if (home && *home)
            snprintf(base, sizeof base, "%s/.cache/warpsim", home);
        else
            return -1;
        if (create_dir) {
            char parent[1024];
            snprintf(parent, sizeof parent, "%.1000s", base);
            char *slash = strrchr(parent, '/');
            if (slash && slash != parent) {
                *slash = '\0';
                if (mkdir(parent, 0777) != 0 && errno != EEXIST)
                    return -1;
            }
        }
    }
    if (create_dir && mkdir(base, 0777) != 0 && errno != EEXIST)
        return -1;
    int w = snprintf(path, n, "%s/warp_insns.tsv", base);
    return w > 0 && (size_t)w < n ? 0 : -1;
}

/* The key: every input that decides the instruction stream.  Tabs and newlines in paths become spaces. */
static void counts_key(const struct wl_exec *x, char *key, size_t n)
{
    snprintf(key, n, "%s size=%s seed=%" PRIu64 " input=%s ptx=%s", x->wl ? x->wl->name : "?",
             wl_size_name(x->opts.size), x->opts.seed, x->opts.input ? x->opts.input : "-",
             x->ptx_path ? x->ptx_path : "-");
    for (char *p = key; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
}

uint64_t cli_known_warp_insns(const struct wl_exec *x)
{
    char path[1100], key[2200], line[2400];
    if (counts_path(path, sizeof path, 0) != 0)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    counts_key(x, key, sizeof key);
    size_t kl = strlen(key);
    uint64_t found = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) == 0 && line[kl] == '\t') {
            char *end = NULL;
            unsigned long long v = strtoull(line + kl + 1, &end, 10);
            if (end != line + kl + 1 && (*end == '\n' || *end == '\0'))
                found = v;
        }
    }
    fclose(f);
    return found;
}

void cli_remember_warp_insns(const struct wl_exec *x, uint64_t warp_insns)
{
    if (!warp_insns || cli_known_warp_insns(x) == warp_insns)
        return;
    char path[1100], key[2200];
    if (counts_path(path, sizeof path, 1) != 0)
        return;
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    counts_key(x, key, sizeof key);
    fprintf(f, "%s\t%" PRIu64 "\n", key, warp_insns);
    fclose(f);
}
