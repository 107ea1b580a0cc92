/* cmd_trace.c - `warpsim trace`: inspect ChampSim instruction traces (src/cpu/trace.h, docs/traces.md),
   generate synthetic ones (src/cpu/tracegen.h) and run them on the CPU core model (docs/cpu.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "core/host_clock.h"
#include "cpu/cpu_mem_fixed.h"
#include "cpu/trace.h"
#include "cpu/tracegen.h"

static const char trace_help[] =
    "usage: warpsim trace info FILE...\n"
    "       warpsim trace gen PROFILE -o FILE [--insns N] [--seed S]\n"
    "       warpsim trace gen --list\n"
    "       warpsim trace run FILE [--insns N] [--warmup N] [--loop] [--json]\n"
    "\n"
    "CPU instruction traces in ChampSim's format (the input of the trace-driven\n"
    "CPU cores; docs/traces.md, docs/cpu.md).  A trace is a stream of 64-byte\n"
    "little-endian records with no header:\n"
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
    "                 compressed stream), after the other files.\n"
    "  gen PROFILE    write a synthetic trace standing in for a CPU application of\n"
    "                 Kayiran et al. MICRO 2014 (004) Table III, calibrated to its L2\n"
    "                 MPKI, then print the MPKI it achieves on the modelled core.\n"
    "                 -o FILE      output (.gz or .xz: compressed; required)\n"
    "                 --insns N    instructions (default 1000000)\n"
    "                 --seed S     generator seed (default 1; same seed, same trace)\n"
    "                 --list       the profiles with their target MPKI, and the\n"
    "                              14-application mixes of 004 Table IV\n"
    "  run FILE       run a trace on one out-of-order core (004 Table I: 3-wide,\n"
    "                 128-entry ROB, 32 KB L1D, 256 KB L2) over a fixed-latency memory\n"
    "                 (200 cycles, one 128 B line per 4 cycles) and print IPC, L1/L2\n"
    "                 MPKI, branch mispredictions, cycles and the simulation rate.\n"
    "                 --insns N    stop after N instructions (default: the whole trace)\n"
    "                 --warmup N   measure after the first N instructions (default 0)\n"
    "                 --loop       restart the trace at its end (needs --insns)\n"
    "                 --json       one JSON object instead of text\n"
    "Usage errors (unknown profile, bad option, unreadable file) exit 2.";

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

static void trace_gen_list(void)
{
    size_t np, nm;
    const struct tracegen_profile *p = tracegen_profiles(&np);
    const struct tracegen_mix *m = tracegen_mixes(&nm);
    printf("profiles (004 Table III: target L2 MPKI, type; pattern and footprint of the L2-missing data):\n");
    for (size_t i = 0; i < np; i++)
        printf("  %-11s %6.1f  %c  %-6s %4u MB\n", p[i].name, p[i].mpki, p[i].cls,
               tracegen_pattern_name((enum tracegen_pattern)p[i].pattern), (unsigned)p[i].footprint_mb);
    printf("mixes (004 Table IV, 14 applications each):\n");
    for (size_t i = 0; i < nm; i++) {
        printf("  %-3s", m[i].name);
        for (int k = 0; k < TRACEGEN_MIX_APPS; k++)
            printf("%s%s", k ? ", " : " ", m[i].apps[k]);
        printf("\n");
    }
}

/* the value of option argv[*i] (advances *i), or NULL after a message */
static const char *trace_opt_value(const char *sub, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "warpsim trace %s: option %s needs a value\n", sub, argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static int trace_gen(int argc, char **argv)
{
    const char *profile = NULL, *out = NULL;
    uint64_t insns = 1000000, seed = 1;
    int list = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (!(out = trace_opt_value("gen", argc, argv, &i)))
                return EXIT_USAGE;
        } else if (strcmp(a, "--insns") == 0) {
            if (!(v = trace_opt_value("gen", argc, argv, &i)) || cli_parse_u64("trace gen", "--insns", v, &insns) != 0)
                return EXIT_USAGE;
            if (insns == 0) {
                fprintf(stderr, "warpsim trace gen: option --insns must be at least 1\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--seed") == 0) {
            if (!(v = trace_opt_value("gen", argc, argv, &i)) || cli_parse_u64("trace gen", "--seed", v, &seed) != 0)
                return EXIT_USAGE;
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim trace gen: unknown option '%s'; see warpsim trace --help\n", a);
            return EXIT_USAGE;
        } else if (!profile) {
            profile = a;
        } else {
            fprintf(stderr, "warpsim trace gen: more than one profile given ('%s', '%s')\n", profile, a);
            return EXIT_USAGE;
        }
    }
    if (list) {
        trace_gen_list();
        return EXIT_OK;
    }
    if (!profile) {
        fprintf(stderr, "warpsim trace gen: no profile given; warpsim trace gen --list shows them\n");
        return EXIT_USAGE;
    }
    const struct tracegen_profile *p = tracegen_find(profile);
    if (!p) {
        size_t np;
        const struct tracegen_profile *all = tracegen_profiles(&np);
        fprintf(stderr, "warpsim trace gen: unknown profile '%s'; valid:", profile);
        for (size_t k = 0; k < np; k++)
            fprintf(stderr, "%s %s", k ? "," : "", all[k].name);
        fprintf(stderr, "\n");
        return EXIT_USAGE;
    }
    if (!out) {
        fprintf(stderr, "warpsim trace gen: no output file given (-o FILE)\n");
        return EXIT_USAGE;
    }
    char err[512];
    double t0 = host_clock_seconds();
    if (tracegen_write(p, seed, insns, out, err, sizeof err) != 0) {
        fprintf(stderr, "warpsim trace gen: %s\n", err);
        return EXIT_USAGE;
    }
    double t1 = host_clock_seconds();
    struct cpu_core_summary s;
    uint64_t warmup = tracegen_default_warmup(insns);
    if (tracegen_measure(p, seed, insns, warmup, &s, err, sizeof err) != 0) {
        fprintf(stderr, "warpsim trace gen: measuring %s: %s\n", p->name, err);
        return EXIT_SIM_ERROR;
    }
    printf("%s: %s, %" PRIu64 " instructions, seed %" PRIu64 " (%.2f s)\n", out, p->name, insns, seed, t1 - t0);
    printf("  target L2 MPKI    %.1f (004 Table III, %c-MPKI)\n", p->mpki, p->cls);
    printf("  achieved L2 MPKI  %.3f (%+.1f%%; default core, fixed-latency memory, after %" PRIu64
           " warm-up instructions)\n",
           s.l2_mpki, p->mpki > 0 ? 100.0 * (s.l2_mpki - p->mpki) / p->mpki : 0.0, warmup);
    printf("  L1 MPKI           %.3f\n", s.l1_mpki);
    printf("  IPC               %.3f\n", s.ipc);
    return EXIT_OK;
}

static int trace_run(int argc, char **argv)
{
    const char *path = NULL;
    uint64_t insns = 0, warmup = 0;
    int json = 0, loop = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--loop") == 0) {
            loop = 1;
        } else if (strcmp(a, "--insns") == 0) {
            if (!(v = trace_opt_value("run", argc, argv, &i)) || cli_parse_u64("trace run", "--insns", v, &insns) != 0)
                return EXIT_USAGE;
        } else if (strcmp(a, "--warmup") == 0) {
            if (!(v = trace_opt_value("run", argc, argv, &i)) ||
                cli_parse_u64("trace run", "--warmup", v, &warmup) != 0)
                return EXIT_USAGE;
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim trace run: unknown option '%s'; see warpsim trace --help\n", a);
            return EXIT_USAGE;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "warpsim trace run: more than one trace given ('%s', '%s')\n", path, a);
            return EXIT_USAGE;
        }
    }
    if (!path) {
        fprintf(stderr, "warpsim trace run: no trace file given\n");
        return EXIT_USAGE;
    }
    if (loop && !insns) {
        fprintf(stderr, "warpsim trace run: option --loop needs --insns (the run would never end)\n");
        return EXIT_USAGE;
    }
    char err[512];
    struct arena *a = arena_new(0);
    if (!a) {
        fprintf(stderr, "warpsim trace run: out of memory\n");
        return EXIT_SIM_ERROR;
    }
    int rc = EXIT_OK;
    struct cpu_src *src = cpu_src_file(a, path, err, sizeof err);
    if (!src) {
        fprintf(stderr, "warpsim trace run: %s\n", err);
        arena_free(a);
        return EXIT_USAGE;
    }
    struct cpu_core_params cp;
    cpu_core_params_default(&cp);
    cp.quota = insns;
    cp.loop = loop != 0;
    struct cpu_mem_fixed_params mp;
    cpu_mem_fixed_params_default(&mp);
    struct mem_req_pool pool;
    struct cpu_core *c = NULL;
    if (mem_req_pool_init(&pool, a, 256) == 0)
        c = cpu_core_new(a, &cp, src, &pool, err, sizeof err);
    if (!c) {
        fprintf(stderr, "warpsim trace run: %s\n", err);
        cpu_src_file_close(src);
        arena_free(a);
        return EXIT_SIM_ERROR;
    }
    struct cpu_core_summary s;
    double t0 = host_clock_seconds();
    if (cpu_run_fixed(c, cpu_mem_fixed_new(a, &mp, &pool), warmup, 0, &s, err, sizeof err) != 0) {
        /* a trace that cannot be read is the user's input: a usage error */
        fprintf(stderr, "warpsim trace run: %s\n", err);
        rc = cpu_core_error(c)[0] ? EXIT_USAGE : EXIT_SIM_ERROR;
    }
    double secs = host_clock_seconds() - t0;
    uint64_t total = cpu_core_stats(c)->insns;
    double rate = secs > 0 ? (double)total / secs : 0.0;
    if (rc == EXIT_OK && json) {
        struct json j;
        json_begin(&j, stdout);
        json_str(&j, "trace", path);
        json_u64(&j, "warmup", warmup);
        json_u64(&j, "instructions", s.insns);
        json_u64(&j, "cycles", s.cycles);
        json_dbl(&j, "ipc", s.ipc);
        json_u64(&j, "l1d_accesses", s.l1_accesses);
        json_u64(&j, "l1d_misses", s.l1_misses);
        json_dbl(&j, "l1d_mpki", s.l1_mpki);
        json_u64(&j, "l2_reads", s.l2_accesses);
        json_u64(&j, "l2_read_misses", s.l2_misses);
        json_dbl(&j, "l2_mpki", s.l2_mpki);
        json_u64(&j, "branch_mispredicts", s.mispredicts);
        json_dbl(&j, "mispredicts_pki", s.mispredicts_pki);
        json_u64(&j, "rob_full_cycles", s.rob_full_cycles);
        json_u64(&j, "mem_stall_cycles", s.mem_stall_cycles);
        json_dbl(&j, "host_seconds", secs);
        json_dbl(&j, "insns_per_host_second", rate);
        json_end(&j);
    } else if (rc == EXIT_OK) {
        printf("%s\n", path);
        printf("  instructions        %" PRIu64 "%s\n", s.insns, warmup ? " (after the warm-up)" : "");
        printf("  cycles              %" PRIu64 "\n", s.cycles);
        printf("  IPC                 %.4f\n", s.ipc);
        printf("  L1D MPKI            %.3f (%" PRIu64 " misses / %" PRIu64 " accesses)\n", s.l1_mpki, s.l1_misses,
               s.l1_accesses);
        printf("  L2 MPKI             %.3f (%" PRIu64 " read misses / %" PRIu64 " reads)\n", s.l2_mpki, s.l2_misses,
               s.l2_accesses);
        printf("  branch mispredicts  %" PRIu64 " (%.2f per kilo-instruction)\n", s.mispredicts, s.mispredicts_pki);
        printf("  ROB-full cycles     %" PRIu64 "\n", s.rob_full_cycles);
        printf("  memory stall cycles %" PRIu64 "\n", s.mem_stall_cycles);
        printf("  simulation rate     %.0f instructions per host second (%.2f s)\n", rate, secs);
    }
    cpu_src_file_close(src);
    arena_free(a);
    return rc;
}

int cmd_trace(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            puts(trace_help);
            return EXIT_OK;
        }
    if (argc >= 2 && strcmp(argv[1], "gen") == 0)
        return trace_gen(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "run") == 0)
        return trace_run(argc, argv);
    if (argc < 2 || strcmp(argv[1], "info") != 0) {
        if (argc < 2)
            fprintf(stderr, "warpsim trace: missing subcommand (info, gen, run); see warpsim trace --help\n");
        else
            fprintf(stderr, "warpsim trace: unknown subcommand '%s' (valid: info, gen, run); see warpsim trace --help\n",
                    argv[1]);
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
