/* cmd_bench.c - `warpsim bench`: simulation speed per workload and in total.
 *
 * Each workload runs in its own child process so that its peak memory (max RSS)
 * and its CPU time are measured alone; the child sends its counters back
 * through a pipe.  The headline rates divide by host CPU seconds (user +
 * system, every thread) spent inside kernel launches: on a shared machine wall
 * time moves with other load, CPU time much less. */
#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "core/config.h"
#include "core/json.h"
#include "sys/gpu_config.h"

struct bench_row {
    char name[32];
    int ok, verified;
    uint64_t thread_insns, warp_insns, cycles;
    double cpu_seconds;        /* host CPU (user + system, all threads) inside kernel launches */
    double seconds;            /* wall seconds inside kernel launches */
    double total_seconds;      /* wall seconds of the whole driver, incl. inputs and CPU reference */
    double proc_cpu_seconds;   /* user + system of the whole child process (wait4) */
    long peak_kib;
    uint64_t cpu_insns;        /* --cpu-mix: instructions the chip's CPU cores retired */
};

/* what the table is about (header line and JSON) */
struct bench_setup {
    int functional;
    const char *config;
    struct wl_opts *o;
    int threads_given;         /* --threads N */
    unsigned threads;          /* warpsim_threads of the runs (timing): --threads, else the config's */
    const char *cpu_mix;       /* --cpu-mix: CPU applications on the chip's cores (hetero presets) */
};

static void bench_usage(FILE *f)
{
    fputs("usage: warpsim bench [--functional] [options]\n"
          "\n"
          "Run bundled workloads, each in its own process, and print the simulation speed: thousands of\n"
          "simulated warp instructions (Kwarp) and, in timing mode, core cycles (Kcyc) per host second.\n"
          "The headline rates (/cpu_s) divide by the host CPU seconds spent inside kernel launches\n"
          "(sim_cpu_s: user + system, every thread of the process), since wall time on a shared machine\n"
          "moves with other load; the /wall_s rates divide by the wall seconds inside launches\n"
          "(sim_wall_s).  total_wall_s also counts input generation and the CPU reference check;\n"
          "proc_cpu_s is the whole process's user + system time; peak_MiB its peak memory (max RSS).\n"
          "Timing mode uses the default machine (gtx480) unless --config.\n"
          "\n"
          "options:\n"
          "  --functional          measure the functional simulator instead of the timing model\n"
          "  --config FILE|PRESET  timing mode: the machine (see warpsim run --help)\n"
          "  --threads N           timing mode: host threads per run (= warpsim run --set warpsim_threads=N;\n"
          "                        0: one per CPU core; default: the config's)\n"
          "  --size tiny|small|paper  input size (default: small)\n"
          "  --workloads a,b,...   only these workloads (default: all)\n"
          "  --seed N              input seed (default: 1)\n"
          "  --cpu-mix MIX         timing mode on a CPU-GPU chip (--config hetero-7tile or hetero-small):\n"
          "                        the CPU cores run MIX (as warpsim run --cpu-mix; no alone runs) and the\n"
          "                        table adds the CPU instructions simulated and both rates per process\n"
          "                        CPU second (GPU warp instructions, CPU instructions)\n"
          "  --json                print the table as JSON on stdout instead of text\n"
          "  -o FILE               also write the table as JSON to FILE\n",
          f);
}

static int selected(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (e ? 1 : 0);
    }
    return 0;
}

static int run_child(const struct workload *wl, const struct wl_opts *o, int timing, const char *config,
                     const char *threads, const char *cpu_mix, struct bench_row *row)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        struct wl_exec x;
        memset(&x, 0, sizeof x);
        x.wl = wl;
        x.opts = *o;
        x.timing = timing;
        x.config = config;
        if (threads) {   /* as `warpsim run --set warpsim_threads=N` */
            x.set_names[0] = "warpsim_threads";
            x.set_values[0] = threads;
            x.nset = 1;
        }
        x.cpu_apps = cpu_mix;
        cli_exec_workload(&x);
        struct bench_row r;
        memset(&r, 0, sizeof r);
        snprintf(r.name, sizeof r.name, "%s", wl->name);
        r.ok = x.status == WS_SUCCESS;
        r.verified = x.result.verified;
        r.thread_insns = x.stats.thread_insns;
        r.warp_insns = x.stats.warp_insns;
        r.cycles = x.stats.gpu_cycles;
        r.cpu_seconds = x.sim_cpu_seconds;
        r.seconds = x.sim_seconds;
        r.total_seconds = x.host_seconds;
        r.cpu_insns = x.cpu_insns;
        cli_exec_free(&x);
        if (!r.ok)
            fprintf(stderr, "warpsim bench: %s failed: %s\n", wl->name, x.error);
        ssize_t wr = write(fd[1], &r, sizeof r);
        _exit(wr == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], row, sizeof *row);
    close(fd[0]);
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (wait4(pid, &st, 0, &ru) < 0)
        return -1;
    if (got != (ssize_t)sizeof *row) {
        memset(row, 0, sizeof *row);
        snprintf(row->name, sizeof row->name, "%s", wl->name);
    }
    row->peak_kib = ru.ru_maxrss;
    row->proc_cpu_seconds = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                            (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    return got == (ssize_t)sizeof *row ? 0 : -1;
}

static double rate(double n, double seconds) { return seconds > 0 ? n / seconds : 0; }

/* Text table.  Functional mode has no cycles; it shows thread instructions instead. */
static void print_header(const struct bench_setup *b)
{
    const struct wl_opts *o = b->o;
    char threads[64];
    if (b->functional)
        snprintf(threads, sizeof threads, "one thread (functional executor)");
    else if (b->threads_given)
        snprintf(threads, sizeof threads, "threads %u", b->threads);
    else
        snprintf(threads, sizeof threads, "threads: config default (%u)", b->threads);
    printf("warpsim bench: %s simulation, size %s, seed %" PRIu64 ", %s%s%s\n",
           b->functional ? "functional" : "timing", wl_size_name(o->size), o->seed, threads,
           b->config ? ", config " : "", b->config ? b->config : "");
    printf("%-13s %-8s %13s %12s %9s %10s %12s %10s %11s %12s", "workload", "verified",
           b->functional ? "thread_insn" : "warp_insn", b->functional ? "warp_insn" : "cycles", "sim_cpu_s", "sim_wall_s",
           "total_wall_s", "proc_cpu_s", "Kwarp/cpu_s", "Kwarp/wall_s");
    if (!b->functional)
        printf(" %10s %11s", "Kcyc/cpu_s", "Kcyc/wall_s");
    printf(" %9s", "peak_MiB");
    if (b->cpu_mix)
        printf(" %12s %14s %14s", "cpu_insn", "Kwarp/proc_s", "Kcpu_i/proc_s");
    putchar('\n');
}

static void print_row(const struct bench_row *r, int functional, const char *verified, int hetero)
{
    printf("%-13s %-8s %13" PRIu64 " %12" PRIu64 " %9.3f %10.3f %12.3f %10.3f %11.1f %12.1f", r->name, verified,
           functional ? r->thread_insns : r->warp_insns, functional ? r->warp_insns : r->cycles, r->cpu_seconds,
           r->seconds, r->total_seconds, r->proc_cpu_seconds, rate((double)r->warp_insns, r->cpu_seconds) / 1e3,
           rate((double)r->warp_insns, r->seconds) / 1e3);
    if (!functional)
        printf(" %10.1f %11.1f", rate((double)r->cycles, r->cpu_seconds) / 1e3, rate((double)r->cycles, r->seconds) / 1e3);
    printf(" %9.1f", (double)r->peak_kib / 1024.0);
    if (hetero)   /* the CPU cores also run outside kernel launches (warm-up, the rest of their quota) */
        printf(" %12" PRIu64 " %14.1f %14.1f", r->cpu_insns, rate((double)r->warp_insns, r->proc_cpu_seconds) / 1e3,
               rate((double)r->cpu_insns, r->proc_cpu_seconds) / 1e3);
    putchar('\n');
}

/* The table as JSON (--json on stdout, -o FILE).  The *_per_sec rates of older versions stay, with
   their meaning (wall seconds inside launches), beside the explicit *_per_cpu_sec / *_per_wall_sec. */
static void write_json(FILE *f, const struct bench_setup *b, const struct bench_row *rows, size_t n,
                       const struct bench_row *total, int failures)
{
    struct json j;
    json_begin(&j, f);
    json_str(&j, "mode", b->functional ? "functional" : "timing");
    if (b->config)
        json_str(&j, "config", b->config);
    if (b->cpu_mix)
        json_str(&j, "cpu_mix", b->cpu_mix);
    json_str(&j, "size", wl_size_name(b->o->size));
    json_u64(&j, "seed", b->o->seed);
    json_u64(&j, "threads", b->functional ? 1 : b->threads);
    json_str(&j, "threads_from", b->functional ? "functional executor" : b->threads_given ? "--threads" : "config");
    json_arr(&j, "rows");
    for (size_t i = 0; i <= n; i++) {
        const struct bench_row *r = i < n ? &rows[i] : total;
        json_obj(&j, NULL);
        json_str(&j, "workload", r->name);
        json_bool(&j, "verified", i < n ? r->ok && r->verified : !failures);
        json_u64(&j, "thread_insns", r->thread_insns);
        json_u64(&j, "warp_insns", r->warp_insns);
        if (!b->functional)
            json_u64(&j, "gpu_sim_cycle", r->cycles);
        json_dbl(&j, "cpu_seconds", r->cpu_seconds);
        json_dbl(&j, "simulation_seconds", r->seconds);
        json_dbl(&j, "total_seconds", r->total_seconds);
        json_dbl(&j, "proc_cpu_seconds", r->proc_cpu_seconds);
        json_dbl(&j, "warp_insn_per_cpu_sec", rate((double)r->warp_insns, r->cpu_seconds));
        json_dbl(&j, "warp_insn_per_wall_sec", rate((double)r->warp_insns, r->seconds));
        json_dbl(&j, "thread_insn_per_cpu_sec", rate((double)r->thread_insns, r->cpu_seconds));
        json_dbl(&j, "thread_insn_per_wall_sec", rate((double)r->thread_insns, r->seconds));
        if (!b->functional) {
            json_dbl(&j, "cycles_per_cpu_sec", rate((double)r->cycles, r->cpu_seconds));
            json_dbl(&j, "cycles_per_wall_sec", rate((double)r->cycles, r->seconds));
        }
        json_dbl(&j, "thread_insn_per_sec", rate((double)r->thread_insns, r->seconds));
        json_dbl(&j, "warp_insn_per_sec", rate((double)r->warp_insns, r->seconds));
        if (!b->functional)
            json_dbl(&j, "cycles_per_sec", rate((double)r->cycles, r->seconds));
        json_u64(&j, "peak_rss_kib", (uint64_t)r->peak_kib);
        if (b->cpu_mix) {
            json_u64(&j, "cpu_insns", r->cpu_insns);
            json_dbl(&j, "warp_insn_per_proc_cpu_sec", rate((double)r->warp_insns, r->proc_cpu_seconds));
            json_dbl(&j, "cpu_insn_per_proc_cpu_sec", rate((double)r->cpu_insns, r->proc_cpu_seconds));
        }
        json_close(&j);
    }
    json_close(&j);
    json_end(&j);
}

int cmd_bench(int argc, char **argv)
{
    struct wl_opts o;
    memset(&o, 0, sizeof o);
    o.size = WL_SMALL;
    o.seed = 1;
    o.log = stderr;
    const char *list = NULL, *out = NULL, *config = NULL, *cpu_mix = NULL;
    int functional = 0, json_stdout = 0, threads_given = 0;
    uint64_t threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(a)) {
            bench_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--functional") == 0) {
            functional = 1;
        } else if (strcmp(a, "--json") == 0) {
            json_stdout = 1;
        } else if ((strcmp(a, "--size") == 0 || strcmp(a, "--workloads") == 0 || strcmp(a, "--seed") == 0 ||
                    strcmp(a, "-o") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "--threads") == 0 ||
                    strcmp(a, "--cpu-mix") == 0) && !v) {
            fprintf(stderr, "warpsim bench: option %s needs a value\n", a);
            return EXIT_USAGE;
        } else if (strcmp(a, "--size") == 0) {
            if (wl_size_parse(v, &o.size) != 0) {
                fprintf(stderr, "warpsim bench: --size must be tiny, small or paper, got '%s'\n", v);
                return EXIT_USAGE;
            }
            i++;
        } else if (strcmp(a, "--workloads") == 0) {
            list = v;
            i++;
        } else if (strcmp(a, "--seed") == 0) {
            if (cli_parse_u64("bench", a, v, &o.seed) != 0)
                return EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--threads") == 0) {
            if (cli_parse_u64("bench", a, v, &threads) != 0)
                return EXIT_USAGE;
            threads_given = 1;
            i++;
        } else if (strcmp(a, "-o") == 0) {
            out = v;
            i++;
        } else if (strcmp(a, "--config") == 0) {
            config = v;
            i++;
        } else if (strcmp(a, "--cpu-mix") == 0) {
            cpu_mix = v;
            i++;
        } else if (a[0] == '-') {
            cli_unknown_option("bench", a, bench_usage);
            return EXIT_USAGE;
        } else {
            fprintf(stderr, "warpsim bench: unknown argument '%s' (see warpsim bench --help)\n", a);
            return EXIT_USAGE;
        }
    }
    if (functional && (config || threads_given || cpu_mix)) {
        fprintf(stderr, "warpsim bench: --config, --threads and --cpu-mix apply to timing mode; drop --functional\n");
        return EXIT_USAGE;
    }
    char threads_text[32] = "";
    if (threads_given)
        snprintf(threads_text, sizeof threads_text, "%" PRIu64, threads);
    struct bench_setup b = {functional, config, &o, threads_given, 1, cpu_mix};
    if (!functional) {
        /* check the machine once here rather than in every child, and learn its thread count */
        struct arena *a = arena_new(0);
        struct cfg c;
        struct gpu_config gc;
        struct cfg_error e;
        char msg[1024];
        memset(&e, 0, sizeof e);
        cfg_init(&c, a);
        int bad = cli_config_load(&c, config, msg, sizeof msg);
        if (!bad && threads_given && cfg_set(&c, "warpsim_threads", threads_text, "--threads") != 0) {
            snprintf(msg, sizeof msg, "--threads %s: out of host memory", threads_text);
            bad = 1;
        }
        if (!bad && cpu_mix && cfg_set(&c, "warpsim_cpu_apps", cpu_mix, "--cpu-mix") != 0) {
            snprintf(msg, sizeof msg, "--cpu-mix %s: out of host memory", cpu_mix);
            bad = 1;
        }
        if (!bad && gpu_config_load(&gc, &c, &e) != 0) {
            cfg_error_format(&e, msg, sizeof msg);
            bad = 1;
        }
        if (!bad)
            b.threads = gc.threads;
        arena_free(a);
        if (bad) {
            fprintf(stderr, "warpsim bench: %s\n", msg);
            return EXIT_USAGE;
        }
    }
    if (list) {
        for (const char *p = list; *p;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            int found = 0;
            for (size_t i = 0; i < wl_count(); i++)
                found |= strlen(wl_get(i)->name) == len && strncmp(wl_get(i)->name, p, len) == 0;
            if (!found) {
                fprintf(stderr, "warpsim bench: unknown workload '%.*s' in --workloads\n", (int)len, p);
                return EXIT_USAGE;
            }
            p += len + (e ? 1 : 0);
        }
    }

    struct bench_row rows[64];
    size_t n = 0;
    int failures = 0;
    if (!json_stdout) {
        print_header(&b);
        fflush(stdout);
    }
    struct bench_row total;
    memset(&total, 0, sizeof total);
    snprintf(total.name, sizeof total.name, "total");
    for (size_t i = 0; i < wl_count() && n < 64; i++) {
        const struct workload *wl = wl_get(i);
        if (!selected(list, wl->name))
            continue;
        struct bench_row *r = &rows[n++];
        if (run_child(wl, &o, !functional, config, threads_given ? threads_text : NULL, cpu_mix, r) != 0 || !r->ok)
            failures++;
        if (!json_stdout) {
            print_row(r, functional, r->ok ? (r->verified ? "yes" : "NO") : "ERROR", cpu_mix != NULL);
            fflush(stdout);
        }
        total.thread_insns += r->thread_insns;
        total.warp_insns += r->warp_insns;
        total.cycles += r->cycles;
        total.cpu_seconds += r->cpu_seconds;
        total.seconds += r->seconds;
        total.total_seconds += r->total_seconds;
        total.proc_cpu_seconds += r->proc_cpu_seconds;
        total.cpu_insns += r->cpu_insns;
        if (r->peak_kib > total.peak_kib)
            total.peak_kib = r->peak_kib;
    }
    if (json_stdout) {
        write_json(stdout, &b, rows, n, &total, failures);
        fflush(stdout);
    } else {
        print_row(&total, functional, failures ? "NO" : "yes", cpu_mix != NULL);
        printf("(the /cpu_s rates are the headline: host CPU seconds inside kernel launches, user + system of every\n"
               " thread; wall time on a shared machine moves with other load, CPU time much less.  Kwarp = 1000 warp\n"
               " instructions, Kcyc = 1000 core cycles; total_wall_s also counts inputs and the CPU reference,\n"
               " proc_cpu_s is the whole process; peak_MiB is the largest max-RSS of one workload's process;\n"
               " rates are host-dependent)\n");
    }
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f) {
            fprintf(stderr, "warpsim bench: cannot write %s\n", out);
            return EXIT_USAGE;
        }
        write_json(f, &b, rows, n, &total, failures);
        fclose(f);
    }
    return failures ? EXIT_SIM_ERROR : EXIT_OK;
}
