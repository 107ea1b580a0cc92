/* cmd_bench.c - `warpsim bench`: simulation speed per workload and in total.
 *
 * Each workload runs in its own child process so that its peak memory (max RSS)
 * is measured alone; the child sends its counters back through a pipe. */
#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "core/config.h"
#include "json.h"

struct bench_row {
    char name[32];
    int ok, verified;
    uint64_t thread_insns, warp_insns, cycles;
    double seconds;            /* inside kernel launches */
    double total_seconds;      /* whole driver, incl. inputs and CPU reference */
    long peak_kib;
};

static void bench_usage(FILE *f)
{
    fputs("usage: warpsim bench [--functional] [options]\n"
          "\n"
          "Run bundled workloads and print simulated warp instructions and (timing mode) simulated\n"
          "core cycles per host second (time inside kernel launches; sim_s), and each run's peak\n"
          "memory (max resident set of its process). total_s also counts input generation and the\n"
          "CPU reference check.  Timing mode uses the default machine (gtx480) unless --config.\n"
          "\n"
          "options:\n"
          "  --functional          measure the functional simulator instead of the timing model\n"
          "  --config FILE|PRESET  timing mode: the machine (see warpsim run --help)\n"
          "  --size tiny|small|paper  input size (default: small)\n"
          "  --workloads a,b,...   only these workloads (default: all)\n"
          "  --seed N              input seed (default: 1)\n"
          "  -o FILE               also write the table as JSON\n",
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
                     struct bench_row *row)
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
        cli_exec_workload(&x);
        struct bench_row r;
        memset(&r, 0, sizeof r);
        snprintf(r.name, sizeof r.name, "%s", wl->name);
        r.ok = x.status == WS_SUCCESS;
        r.verified = x.result.verified;
        r.thread_insns = x.stats.thread_insns;
        r.warp_insns = x.stats.warp_insns;
        r.cycles = x.stats.gpu_cycles;
        r.seconds = x.sim_seconds;
        r.total_seconds = x.host_seconds;
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
    row->peak_kib = ru.ru_maxrss;
    if (got != (ssize_t)sizeof *row) {
        memset(row, 0, sizeof *row);
        snprintf(row->name, sizeof row->name, "%s", wl->name);
        row->peak_kib = ru.ru_maxrss;
        return -1;
    }
    return 0;
}

static void print_row(const struct bench_row *r, int functional, const char *verified)
{
    double s = r->seconds > 0 ? r->seconds : 1e-9;
    if (functional)
        printf("%-13s %-8s %14" PRIu64 " %13" PRIu64 " %8.3f %8.3f %12.1f %12.2f %9.1f\n", r->name, verified,
               r->thread_insns, r->warp_insns, r->seconds, r->total_seconds, (double)r->thread_insns / s / 1e6,
               (double)r->warp_insns / s / 1e6, (double)r->peak_kib / 1024.0);
    else
        printf("%-13s %-8s %13" PRIu64 " %12" PRIu64 " %8.3f %8.3f %12.1f %12.1f %9.1f\n", r->name, verified,
               r->warp_insns, r->cycles, r->seconds, r->total_seconds, (double)r->warp_insns / s / 1e3,
               (double)r->cycles / s / 1e3, (double)r->peak_kib / 1024.0);
}

int cmd_bench(int argc, char **argv)
{
    struct wl_opts o;
    memset(&o, 0, sizeof o);
    o.size = WL_SMALL;
    o.seed = 1;
    o.log = stderr;
    const char *list = NULL, *out = NULL, *config = NULL;
    int functional = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(a)) {
            bench_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--functional") == 0) {
            functional = 1;
        } else if ((strcmp(a, "--size") == 0 || strcmp(a, "--workloads") == 0 || strcmp(a, "--seed") == 0 ||
                    strcmp(a, "-o") == 0 || strcmp(a, "--config") == 0) && !v) {
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
        } else if (strcmp(a, "-o") == 0) {
            out = v;
            i++;
        } else if (strcmp(a, "--config") == 0) {
            config = v;
            i++;
        } else {
            fprintf(stderr, "warpsim bench: unknown argument '%s' (see warpsim bench --help)\n", a);
            return EXIT_USAGE;
        }
    }
    if (functional && config) {
        fprintf(stderr, "warpsim bench: --config applies to timing mode; drop --functional\n");
        return EXIT_USAGE;
    }
    if (config) {
        /* check it once here rather than in every child */
        struct arena *a = arena_new(0);
        struct cfg c;
        char msg[1024];
        cfg_init(&c, a);
        int bad = cli_config_load(&c, config, msg, sizeof msg);
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
    printf("warpsim bench: %s simulation, size %s, seed %" PRIu64 ", one core%s%s\n",
           functional ? "functional" : "timing", wl_size_name(o.size), o.seed, config ? ", config " : "",
           config ? config : "");
    if (functional)
        printf("%-13s %-8s %14s %13s %8s %8s %12s %12s %9s\n", "workload", "verified", "thread_insn", "warp_insn",
               "sim_s", "total_s", "Mthr_insn/s", "Mwarp_insn/s", "peak_MiB");
    else
        printf("%-13s %-8s %13s %12s %8s %8s %12s %12s %9s\n", "workload", "verified", "warp_insn", "cycles", "sim_s",
               "total_s", "Kwarp_insn/s", "Kcycles/s", "peak_MiB");
    struct bench_row total;
    memset(&total, 0, sizeof total);
    snprintf(total.name, sizeof total.name, "total");
    for (size_t i = 0; i < wl_count() && n < 64; i++) {
        const struct workload *wl = wl_get(i);
        if (!selected(list, wl->name))
            continue;
        struct bench_row *r = &rows[n++];
        if (run_child(wl, &o, !functional, config, r) != 0 || !r->ok)
            failures++;
        print_row(r, functional, r->ok ? (r->verified ? "yes" : "NO") : "ERROR");
        fflush(stdout);
        total.thread_insns += r->thread_insns;
        total.warp_insns += r->warp_insns;
        total.cycles += r->cycles;
        total.seconds += r->seconds;
        total.total_seconds += r->total_seconds;
        if (r->peak_kib > total.peak_kib)
            total.peak_kib = r->peak_kib;
    }
    print_row(&total, functional, failures ? "NO" : "yes");
    printf("(rates are host-dependent; peak_MiB is the largest max-RSS of one workload's process)\n");
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f) {
            fprintf(stderr, "warpsim bench: cannot write %s\n", out);
            return EXIT_USAGE;
        }
        struct json j;
        json_begin(&j, f);
        json_str(&j, "mode", functional ? "functional" : "timing");
        if (config)
            json_str(&j, "config", config);
        json_str(&j, "size", wl_size_name(o.size));
        json_arr(&j, "rows");
        for (size_t i = 0; i <= n; i++) {
            const struct bench_row *r = i < n ? &rows[i] : &total;
            json_obj(&j, NULL);
            json_str(&j, "workload", r->name);
            json_bool(&j, "verified", i < n ? r->ok && r->verified : !failures);
            json_u64(&j, "thread_insns", r->thread_insns);
            json_u64(&j, "warp_insns", r->warp_insns);
            json_dbl(&j, "simulation_seconds", r->seconds);
            json_dbl(&j, "total_seconds", r->total_seconds);
            json_dbl(&j, "thread_insn_per_sec", r->seconds > 0 ? (double)r->thread_insns / r->seconds : 0);
            json_dbl(&j, "warp_insn_per_sec", r->seconds > 0 ? (double)r->warp_insns / r->seconds : 0);
            if (!functional) {
                json_u64(&j, "gpu_sim_cycle", r->cycles);
                json_dbl(&j, "cycles_per_sec", r->seconds > 0 ? (double)r->cycles / r->seconds : 0);
            }
            json_u64(&j, "peak_rss_kib", (uint64_t)r->peak_kib);
            json_close(&j);
        }
        json_close(&j);
        json_end(&j);
        fclose(f);
    }
    return failures ? EXIT_SIM_ERROR : EXIT_OK;
}
