/* cmd_run.c - `warpsim run WORKLOAD`: run a bundled workload, verify, report. */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"

static void run_usage(FILE *f)
{
    fputs("usage: warpsim run WORKLOAD [options]\n"
          "\n"
          "Run a bundled workload (see `warpsim list`): make its inputs, launch its kernels on the\n"
          "simulated GPU and check the outputs against a CPU reference.\n"
          "\n"
          "options:\n"
          "  --size tiny|small|paper  input size (default: small). tiny = seconds, for tests;\n"
          "                           small = experiments on a laptop; paper = close to the papers' inputs\n"
          "  --functional             functional simulation only (instruction counts, no timing)\n"
          "  --seed N                 seed for the generated inputs (default: 1)\n"
          "  --input FILE             workload input file (bfs: a graph in Rodinia's text format)\n"
          "  --ptx FILE               use this PTX instead of the bundled one (same kernel names)\n"
          "  -o, --output FILE        write the results as JSON to FILE\n"
          "  --max-warp-insns N       fail a launch that issues more than N warp instructions\n"
          "                           (catches kernels that never terminate; default: no limit)\n"
          "  -v, --verbose            print the driver's notes\n"
          "\n"
          "exit status: 0 verified, 1 output mismatch, 2 usage error, 3 simulation error\n",
          f);
}

static void write_json(FILE *f, const struct wl_exec *x, int functional, const char *cmdline)
{
    struct json j;
    json_begin(&j, f);
    json_str(&j, "warpsim_version", "0.1");
    json_str(&j, "command", cmdline);
    json_str(&j, "workload", x->wl->name);
    json_str(&j, "size", wl_size_name(x->opts.size));
    json_u64(&j, "seed", x->opts.seed);
    json_str(&j, "input", x->opts.input);
    json_str(&j, "mode", functional ? "functional" : "timing");
    json_str(&j, "status", wsStatusName(x->status));
    if (x->status != WS_SUCCESS)
        json_str(&j, "error", x->error);
    json_bool(&j, "verified", x->result.verified);
    json_str(&j, "verify_detail", x->result.detail);
    json_str(&j, "tolerance", x->wl->tolerance);
    json_dbl(&j, "max_abs_err", x->result.max_abs_err);
    json_obj(&j, "stats");
    json_u64(&j, "kernels_launched", x->stats.kernels_launched);
    json_u64(&j, "ctas_executed", x->stats.ctas_executed);
    json_u64(&j, "gpu_sim_insn", x->stats.thread_insns);
    json_u64(&j, "gpu_sim_warp_insn", x->stats.warp_insns);
    json_u64(&j, "gpu_sim_cycle", x->stats.gpu_cycles);
    json_obj(&j, "warp_insn_by_class");
    for (int c = 0; c < PIC_COUNT; c++)
        if (x->iclass_warp[c])
            json_u64(&j, ptx_iclass_name((enum ptx_iclass)c), x->iclass_warp[c]);
    json_close(&j);
    json_close(&j);
    json_arr(&j, "kernels");
    for (unsigned i = 0; i < x->nkernels; i++) {
        const struct kernel_stats *k = &x->kernels[i];
        char grid[64];
        snprintf(grid, sizeof grid, "%u,%u,%u", k->grid_x, k->grid_y, k->grid_z);
        json_obj(&j, NULL);
        json_str(&j, "name", k->name);
        json_u64(&j, "launches", k->launches);
        json_u64(&j, "ctas", k->ctas);
        json_u64(&j, "gpu_sim_insn", k->thread_insns);
        json_u64(&j, "gpu_sim_warp_insn", k->warp_insns);
        json_str(&j, "last_grid", grid);
        json_u64(&j, "block_threads", (uint64_t)k->block_x * k->block_y * k->block_z);
        json_u64(&j, "ptx_regs_per_thread", k->regs_per_thread);
        json_u64(&j, "static_smem_bytes", k->static_smem);
        json_u64(&j, "local_bytes_per_thread", k->local_bytes);
        json_close(&j);
    }
    json_close(&j);
    json_obj(&j, "host");
    json_dbl(&j, "seconds", x->host_seconds);
    json_dbl(&j, "simulation_seconds", x->sim_seconds);
    json_dbl(&j, "thread_insn_per_sec", x->sim_seconds > 0 ? (double)x->stats.thread_insns / x->sim_seconds : 0);
    json_dbl(&j, "warp_insn_per_sec", x->sim_seconds > 0 ? (double)x->stats.warp_insns / x->sim_seconds : 0);
    json_close(&j);
    json_end(&j);
}

int cmd_run(int argc, char **argv)
{
    struct wl_exec x;
    memset(&x, 0, sizeof x);
    x.opts.size = WL_SMALL;
    x.opts.seed = 1;
    x.opts.log = stderr;
    const char *out = NULL, *name = NULL;
    int functional = 0;
    char cmdline[1024] = "warpsim";
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(cmdline);
        snprintf(cmdline + used, sizeof cmdline - used, " %s", argv[i]);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(a)) {
            run_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--functional") == 0) {
            functional = 1;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            x.opts.verbose = 1;
        } else if (strcmp(a, "--size") == 0 || strcmp(a, "--seed") == 0 || strcmp(a, "--input") == 0 ||
                   strcmp(a, "--ptx") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                   strcmp(a, "--max-warp-insns") == 0) {
            if (!v) {
                fprintf(stderr, "warpsim run: option %s needs a value\n", a);
                return EXIT_USAGE;
            }
            i++;
            if (strcmp(a, "--size") == 0) {
                if (wl_size_parse(v, &x.opts.size) != 0) {
                    fprintf(stderr, "warpsim run: --size must be tiny, small or paper, got '%s'\n", v);
                    return EXIT_USAGE;
                }
            } else if (strcmp(a, "--seed") == 0) {
                if (cli_parse_u64("run", a, v, &x.opts.seed) != 0)
                    return EXIT_USAGE;
            } else if (strcmp(a, "--max-warp-insns") == 0) {
                if (cli_parse_u64("run", a, v, &x.max_warp_insns) != 0)
                    return EXIT_USAGE;
            } else if (strcmp(a, "--input") == 0) {
                x.opts.input = v;
            } else if (strcmp(a, "--ptx") == 0) {
                x.ptx_path = v;
            } else {
                out = v;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim run: unknown option '%s' (see warpsim run --help)\n", a);
            return EXIT_USAGE;
        } else if (!name) {
            name = a;
        } else {
            fprintf(stderr, "warpsim run: unexpected argument '%s' (one workload per run)\n", a);
            return EXIT_USAGE;
        }
    }
    if (!name) {
        fprintf(stderr, "warpsim run: which workload? (see warpsim list)\n");
        return EXIT_USAGE;
    }
    x.wl = wl_find(name);
    if (!x.wl) {
        fprintf(stderr, "warpsim run: unknown workload '%s'; bundled workloads:", name);
        for (size_t i = 0; i < wl_count(); i++)
            fprintf(stderr, " %s", wl_get(i)->name);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    if (!functional) {
        fprintf(stderr, "warpsim run: the timing model is not part of this build yet; "
                        "pass --functional for a functional run\n");
        return EXIT_USAGE;
    }

    x.progress = isatty(2);
    cli_exec_workload(&x);

    printf("warpsim: %s (size %s, seed %" PRIu64 ", %s)\n", x.wl->name, wl_size_name(x.opts.size), x.opts.seed,
           functional ? "functional" : "timing");
    if (x.status != WS_SUCCESS) {
        fprintf(stderr, "warpsim run: %s failed: %s\n%s\n", x.wl->name, wsStatusName(x.status), x.error);
    }
    printf("kernels_launched = %" PRIu64 "\n", x.stats.kernels_launched);
    printf("ctas_executed = %" PRIu64 "\n", x.stats.ctas_executed);
    printf("gpu_sim_insn = %" PRIu64 "\n", x.stats.thread_insns);
    printf("gpu_sim_warp_insn = %" PRIu64 "\n", x.stats.warp_insns);
    printf("avg_active_threads_per_warp_insn = %.2f\n",
           x.stats.warp_insns ? (double)x.stats.thread_insns / (double)x.stats.warp_insns : 0.0);
    printf("host_seconds = %.3f (in kernel launches: %.3f)\n", x.host_seconds, x.sim_seconds);
    for (unsigned i = 0; i < x.nkernels; i++) {
        const struct kernel_stats *k = &x.kernels[i];
        printf("kernel %s: launches = %" PRIu64 ", ctas = %" PRIu64 ", block = (%u,%u,%u), gpu_sim_insn = %" PRIu64
               ", gpu_sim_warp_insn = %" PRIu64 "\n",
               k->name, k->launches, k->ctas, k->block_x, k->block_y, k->block_z, k->thread_insns, k->warp_insns);
    }
    printf("warp_insn_by_class =");
    for (int c = 0; c < PIC_COUNT; c++)
        if (x.iclass_warp[c])
            printf(" %s:%" PRIu64, ptx_iclass_name((enum ptx_iclass)c), x.iclass_warp[c]);
    printf("\n");
    if (x.sim_seconds > 0)
        printf("gpgpu_simulation_rate = %.0f thread insn/s, %.0f warp insn/s\n",
               (double)x.stats.thread_insns / x.sim_seconds, (double)x.stats.warp_insns / x.sim_seconds);
    if (x.status == WS_SUCCESS)
        printf("verify = %s (%s)\n", x.result.verified ? "PASSED" : "FAILED", x.result.detail);
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f) {
            fprintf(stderr, "warpsim run: cannot write %s\n", out);
            return EXIT_USAGE;
        }
        write_json(f, &x, functional, cmdline);
        fclose(f);
        printf("results written to %s\n", out);
    }
    if (x.status != WS_SUCCESS)
        return EXIT_SIM_ERROR;
    return x.result.verified ? EXIT_OK : EXIT_VERIFY_FAILED;
}
