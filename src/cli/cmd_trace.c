/* cmd_trace.c - `warpsim trace`: inspect ChampSim instruction traces (src/cpu/trace.h, docs/traces.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpu/trace.h"

static const char trace_help[] =
    "usage: warpsim trace info FILE...\n"
    "\n"
    "Inspect CPU instruction traces in ChampSim's format (the input of trace-driven\n"
    "CPU cores; docs/traces.md).  A trace is a stream of 64-byte little-endian\n"
    "records with no header:\n"
    "  uint64 ip; uint8 is_branch; uint8 branch_taken;\n"
    "  uint8 destination_registers[2]; uint8 source_registers[4];\n"
    "  uint64 destination_memory[2]; uint64 source_memory[4]\n"
    "where zero means \"none\" for a register or an address.  Files may be plain,\n"
    "gzip- or xz-compressed (detected from the file's first bytes) and are\n"
    "streamed, never loaded whole.\n"
    "\n"
    "  info FILE...   per file: compression, records, branches (taken), instructions\n"
    "                 with a load (a source memory address) / a store (a destination\n"
    "                 memory address), distinct 64-byte lines touched.  Exit 2 on a\n"
    "                 file that cannot be read (missing, truncated record, corrupt\n"
    "                 compressed stream), after the other files.";

/* a set of 64-byte line numbers (open addressing; UINT64_MAX marks an empty slot:
   addr >> 6 never reaches it) */
struct line_set {
    uint64_t *slot;
    size_t cap, count;
};

static size_t ls_hash(uint64_t v, size_t mask)
{
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdULL;
    v ^= v >> 33;
    return (size_t)v & mask;
}

static int ls_grow(struct line_set *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 1024;
    uint64_t *ns = malloc(ncap * sizeof *ns);
    if (!ns)
        return -1;
    memset(ns, 0xff, ncap * sizeof *ns);
    for (size_t i = 0; i < s->cap; i++) {
        if (s->slot[i] == UINT64_MAX)
            continue;
        size_t h = ls_hash(s->slot[i], ncap - 1);
        while (ns[h] != UINT64_MAX)
            h = (h + 1) & (ncap - 1);
        ns[h] = s->slot[i];
    }
    free(s->slot);
    s->slot = ns;
    s->cap = ncap;
    return 0;
}

static int ls_add(struct line_set *s, uint64_t line)
{
    if ((s->count + 1) * 2 > s->cap && ls_grow(s) != 0)
        return -1;
    size_t h = ls_hash(line, s->cap - 1);
    while (s->slot[h] != UINT64_MAX) {
        if (s->slot[h] == line)
            return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->slot[h] = line;
    s->count++;
    return 0;
}

static int trace_info(const char *path)
{
    char err[512];
    struct trace_reader *t = trace_open(path, err, sizeof err);
    if (!t) {
        fprintf(stderr, "warpsim trace: %s\n", err);
        return -1;
    }
    uint64_t branches = 0, taken = 0, loads = 0, stores = 0;
    struct line_set lines = {0};
    struct trace_rec r;
    int rc;
    while ((rc = trace_next(t, &r)) == 1) {
        branches += r.is_branch != 0;
        taken += r.is_branch != 0 && r.branch_taken != 0;
        int ld = 0, st = 0;
        for (int i = 0; i < TRACE_NUM_SRC_MEM; i++)
            if (r.src_mem[i]) {
                ld = 1;
                if (ls_add(&lines, r.src_mem[i] >> 6) != 0)
                    goto oom;
            }
        for (int i = 0; i < TRACE_NUM_DST_MEM; i++)
            if (r.dst_mem[i]) {
                st = 1;
                if (ls_add(&lines, r.dst_mem[i] >> 6) != 0)
                    goto oom;
            }
        loads += (uint64_t)ld;
        stores += (uint64_t)st;
    }
    if (rc < 0) {
        fprintf(stderr, "warpsim trace: %s\n", trace_error(t));
        free(lines.slot);
        trace_close(t);
        return -1;
    }
    printf("%s\n", path);
    printf("  compression   %s\n", trace_comp_name(trace_compression(t)));
    printf("  records       %" PRIu64 "\n", trace_records_read(t));
    printf("  branches      %" PRIu64 " (taken %" PRIu64 ")\n", branches, taken);
    printf("  loads         %" PRIu64 " (instructions with a source memory address)\n", loads);
    printf("  stores        %" PRIu64 " (instructions with a destination memory address)\n", stores);
    printf("  lines         %zu (distinct 64-byte lines touched)\n", lines.count);
    free(lines.slot);
    trace_close(t);
    return 0;
oom:
    fprintf(stderr, "warpsim trace: %s: out of memory counting distinct lines\n", path);
    free(lines.slot);
    trace_close(t);
    return -1;
}

int cmd_trace(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            puts(trace_help);
            return EXIT_OK;
        }
    if (argc < 2 || strcmp(argv[1], "info") != 0) {
        if (argc < 2)
            fprintf(stderr, "warpsim trace: missing subcommand (info); see warpsim trace --help\n");
        else
            fprintf(stderr, "warpsim trace: unknown subcommand '%s' (valid: info); see warpsim trace --help\n", argv[1]);
        return EXIT_USAGE;
    }
    if (argc < 3) {
        fprintf(stderr, "warpsim trace info: no trace file given\n");
        return EXIT_USAGE;
    }
    int bad = 0;
    for (int i = 2; i < argc; i++)
        if (trace_info(argv[i]) != 0)
            bad = 1;
    return bad ? EXIT_USAGE : EXIT_OK;
}
