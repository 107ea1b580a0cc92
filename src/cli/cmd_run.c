/* cmd_run.c - `warpsim run WORKLOAD`: run a bundled workload, verify, report. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/json.h"
#include "policy/cta_sched.h"
#include "policy/bypass.h"
#include "policy/cm.h"
#include "policy/repl.h"
#include "policy/warp_sched.h"
#include "sys/gpu_config.h"
#include "sys/gpu.h"

static void run_usage(FILE *f)
{
    fputs("usage: warpsim run WORKLOAD [options]\n"
          "\n"
          "Run a bundled workload (see `warpsim list`): make its inputs, launch its kernels on the\n"
          "simulated GPU and check the outputs against a CPU reference.  The kernels run on the\n"
          "cycle-level timing model (a GTX480-class GPU unless --config says otherwise).\n"
          "\n"
          "options:\n"
          "  --size tiny|small|paper  input size (default: small). tiny = seconds, for tests;\n"
          "                           small = experiments on a laptop; paper = close to the papers' inputs\n"
          "  --functional             functional simulation only (instruction counts, no timing; fast)\n"
          "  --seed N                 seed for the generated inputs (default: 1)\n"
          "  --input FILE             workload input file, for the workloads that read one\n"
          "                           (bfs: a graph in Rodinia's text format; others generate theirs)\n"
          "  --grid-scale F           launch F x the workload's CTAs for the same input (F > 0, at most 1000;\n"
          "                           rounded, at least 1 CTA, at most one element per thread): the threads\n"
          "                           spawned vary apart from the input size.  Only the workloads whose\n"
          "                           kernels use grid-stride loops: vecadd, histogram, blackscholes, reduce\n"
          "  --ptx FILE               use this PTX instead of the bundled one (same kernel names)\n"
          "  -o, --output FILE        write the results as JSON to FILE (timing statistics included);\n"
          "                           in timing mode also NAME.config (the effective configuration,\n"
          "                           `--config NAME.config` reproduces the run) and NAME.timeseries.csv\n"
          "\n"
          "limits (a kernel that never terminates must not hang the run; 0 turns a limit off):\n"
          "  --max-warp-insns N       stop a launch after N warp instructions (default: " CLI_STR(CLI_DEFAULT_MAX_WARP_INSNS) ",\n"
          "                           over ten times the largest launch of the bundled paper inputs)\n"
          "  --max-cycles N           timing mode: stop a launch after N core cycles (default: 0)\n"
          "  --max-seconds S          stop after S host seconds spent in launches (default: " CLI_STR(CLI_DEFAULT_MAX_SECONDS) ")\n"
          "                           A run stopped at a limit exits 3, names the kernel and how far it\n"
          "                           got, and (timing mode) reports the statistics up to that point.\n"
          "                           GPGPU-Sim's -gpgpu_max_cycle, -gpgpu_max_insn and -gpgpu_max_cta\n"
          "                           (--set, or in a config) stop the whole run instead: the statistics\n"
          "                           so far, status \"stopped at limit\", outputs not verified, exit 0\n"
          "  -v, --verbose            print the driver's notes\n"
          "  -q, --quiet              no progress on stderr (timing runs print it once they have taken\n"
          "                           2 s: one updating line on a terminal, a plain line every 10 s\n"
          "                           otherwise, with an ETA when an earlier run of the same inputs\n"
          "                           counted the instructions; docs/timing.md \"Progress\")\n"
          "\n"
          "timing options:\n"
          "  --config FILE|PRESET     machine configuration in gpgpusim.config syntax: a file, or a\n"
          "                           built-in preset (warpsim list --presets: gtx480, dyncta-30core,\n"
          "                           las-15sm, hetero-7tile, gtx480-gpgpusim4, ...)\n"
          "  --set OPTION=VALUE       override one option (GPGPU-Sim names, e.g. gpgpu_n_clusters=4);\n"
          "                           repeatable, applied after --config in order\n"
          "  --warp-sched NAME        warp scheduler (= --set gpgpu_scheduler=NAME)\n"
          "  --cta-sched NAME         CTA scheduler (= --set warpsim_cta_scheduler=NAME)\n"
          "  --l1-repl NAME           L1D replacement policy (= --set warpsim_l1d_repl=NAME)\n"
          "  --l2-repl NAME           L2 replacement policy (= --set warpsim_l2_repl=NAME);\n"
          "                           names: warpsim list --policies\n"
          "  --l1-bypass NAME         L1D bypass policy (= --set warpsim_l1d_bypass=NAME): none, all,\n"
          "                           pcbased, ctrlc, ... (warpsim list --policies)\n"
          "  --l2-bypass NAME         L2 bypass policy (= --set warpsim_l2_bypass=NAME)\n"
          "  --cpu-mix NAME|LIST      what the chip's CPU cores run (= --set warpsim_cpu_apps=...): a mix\n"
          "                           of seed 004 (L1, L2, M1, M2, H1, H2), profiles (warpsim trace gen\n"
          "                           --list) or ChampSim trace files, comma-separated, one per core; needs\n"
          "                           a machine with CPU cores (--config hetero-7tile, hetero-small);\n"
          "                           --cpu is the same option.  The run then also runs the GPU alone and\n"
          "                           each application alone and prints SU_GPU, WS_CPU and OSS (004 sec. 5)\n"
          "  --no-alone               skip those alone runs (no SU_GPU / WS_CPU / OSS)\n"
          "  --cm NAME                concurrency manager (= --set warpsim_cm=NAME): none, cm_cpu,\n"
          "                           cm_bal, cm_bal1..4 (seed 004); selects --warp-sched swl unless\n"
          "                           given; parameters: --set cm.cm_bal.k=64 (warpsim list --policies)\n"
          "  --threads N              host threads that tick the SMs (= --set warpsim_threads=N; 0: one\n"
          "                           per CPU core, at most one per 4 SMs); the statistics are the same\n"
          "                           for every N (default 1; on 2 cores 2 threads measured slower than 1:\n"
          "                           docs/performance.md)\n"
          "  --timeseries FILE.csv    time series every -warpsim_sample_interval core cycles\n"
          "                           (default with -o: beside it as NAME.timeseries.csv)\n"
          "  --warps FILE.csv         one row per finished warp (times, instructions, stall breakdown)\n"
          "  --kernel-stats           print every kernel's full statistics, not just the totals\n"
          "  --warn-unknown-options   unknown config options warn instead of failing\n"
          "\n"
          "exit status: 0 verified or stopped at a -gpgpu_max_* limit, 1 output mismatch, 2 bad input (usage,\n"
          "configuration, input file), 3 simulation error (memory checker, deadlock, watchdog, a limit above)\n",
          f);
}

/* The run stopped at one of GPGPU-Sim's limits (-gpgpu_max_cycle/_insn/_cta): not an error. */
static int stopped_at_limit(const struct wl_exec *x)
{
    return x->status == WS_ERROR_LIMIT && strstr(x->error, GPU_SIM_LIMIT_TAG) != NULL;
}

static void write_json(FILE *f, const struct wl_exec *x, int functional, const char *cmdline,
                       const struct hetero_metrics *hm)
{
    struct json j;
    json_begin(&j, f);
    json_str(&j, "warpsim_version", warpsim_version);
    json_str(&j, "warpsim_commit", warpsim_commit);
    json_str(&j, "command", cmdline);
    json_str(&j, "workload", x->wl->name);
    json_str(&j, "size", wl_size_name(x->opts.size));
    json_u64(&j, "seed", x->opts.seed);
    json_str(&j, "input", x->opts.input);
    if (x->opts.grid_scale > 0)
        json_dbl(&j, "grid_scale", x->opts.grid_scale);   /* absent: the workload's own grid */
    json_str(&j, "mode", functional ? "functional" : "timing");
    if (!functional) {
        json_str(&j, "config", x->config ? x->config : "gtx480 (built-in defaults)");
        for (unsigned i = 0; i < x->nset; i++) {
            char key[160];
            snprintf(key, sizeof key, "set_%s", x->set_names[i]);
            json_str(&j, key, x->set_values[i]);
        }
        if (x->warp_sched)
            json_str(&j, "warp_sched", x->warp_sched);
        if (x->cta_sched)
            json_str(&j, "cta_sched", x->cta_sched);
        if (x->cm)
            json_str(&j, "cm", x->cm);
        if (x->cpu_apps)
            json_str(&j, "cpu_apps", x->cpu_apps);
    }
    int at_limit = stopped_at_limit(x);
    json_str(&j, "status", at_limit ? "stopped at limit" : wsStatusName(x->status));
    if (at_limit)
        json_str(&j, "limit", x->error);
    else if (x->status != WS_SUCCESS)
        json_str(&j, "error", x->error);
    json_bool(&j, "verified", at_limit ? 0 : x->result.verified);
    json_str(&j, "verify_detail", at_limit ? "not verified: the simulation stopped at a limit" : x->result.detail);
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
    if (x->timing_json)
        json_raw_obj(&j, "timing", x->timing_json);
    if (hm)
        cli_hetero_json(&j, hm);
    json_obj(&j, "host");
    json_dbl(&j, "seconds", x->host_seconds);
    json_dbl(&j, "simulation_seconds", x->sim_seconds);
    json_dbl(&j, "thread_insn_per_sec", x->sim_seconds > 0 ? (double)x->stats.thread_insns / x->sim_seconds : 0);
    json_dbl(&j, "warp_insn_per_sec", x->sim_seconds > 0 ? (double)x->stats.warp_insns / x->sim_seconds : 0);
    json_close(&j);
    json_end(&j);
}

/* "a/b/out.json" -> "a/b/out" + suffix */
static void beside(char *dst, size_t n, const char *out, const char *suffix)
{
    size_t l = strlen(out);
    if (l > 5 && strcmp(out + l - 5, ".json") == 0)
        l -= 5;
    snprintf(dst, n, "%.*s%s", (int)l, out, suffix);
}

/* warp: 1 warp scheduler, 0 CTA scheduler, 2 replacement policy, 3 bypass policy, 4 concurrency manager */
static int check_policy(const char *what, const char *name, int warp)
{
    if ((warp == 1 && warp_sched_find(name)) || (warp == 0 && cta_sched_find(name)) ||
        (warp == 2 && repl_find(name)) || (warp == 3 && bypass_find(name)) || (warp == 4 && cm_find(name)))
        return 0;
    char names[512];
    if (warp == 4)
        cm_names(names, sizeof names);
    else if (warp == 1)
        warp_sched_names(names, sizeof names);
    else if (warp == 2)
        repl_names(names, sizeof names);
    else if (warp == 3)
        bypass_names(names, sizeof names);
    else
        cta_sched_names(names, sizeof names);
    fprintf(stderr, "warpsim run: unknown %s '%s'; valid: %s\n", what, name, names);
    return -1;
}

int cmd_run(int argc, char **argv)
{
    struct wl_exec x;
    memset(&x, 0, sizeof x);
    x.opts.size = WL_SMALL;
    x.opts.seed = 1;
    x.opts.log = stderr;
    x.limits.max_warp_insns = CLI_DEFAULT_MAX_WARP_INSNS;
    x.limits.max_seconds = CLI_DEFAULT_MAX_SECONDS;
    const char *out = NULL, *name = NULL;
    int functional = 0, no_alone = 0, quiet = 0;
    char cmdline[2048] = "warpsim";
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
        } else if (strcmp(a, "--no-alone") == 0) {
            no_alone = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            x.opts.verbose = 1;
        } else if (strcmp(a, "--kernel-stats") == 0) {
            x.per_kernel_text = 1;
        } else if (strcmp(a, "--warn-unknown-options") == 0) {
            x.warn_unknown = 1;
        } else if (strcmp(a, "--size") == 0 || strcmp(a, "--seed") == 0 || strcmp(a, "--input") == 0 ||
                   strcmp(a, "--ptx") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                   strcmp(a, "--max-warp-insns") == 0 || strcmp(a, "--max-cycles") == 0 ||
                   strcmp(a, "--max-seconds") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "--set") == 0 ||
                   strcmp(a, "--warp-sched") == 0 || strcmp(a, "--cta-sched") == 0 || strcmp(a, "--cm") == 0 ||
                   strcmp(a, "--cpu-mix") == 0 || strcmp(a, "--cpu") == 0 ||
                   strcmp(a, "--l1-repl") == 0 || strcmp(a, "--l2-repl") == 0 ||
                   strcmp(a, "--l1-bypass") == 0 || strcmp(a, "--l2-bypass") == 0 ||
                   strcmp(a, "--timeseries") == 0 || strcmp(a, "--warps") == 0 || strcmp(a, "--threads") == 0 ||
                   strcmp(a, "--grid-scale") == 0) {
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
                if (cli_parse_u64("run", a, v, &x.limits.max_warp_insns) != 0)
                    return EXIT_USAGE;
            } else if (strcmp(a, "--max-cycles") == 0) {
                if (cli_parse_u64("run", a, v, &x.limits.max_cycles) != 0)
                    return EXIT_USAGE;
            } else if (strcmp(a, "--max-seconds") == 0) {
                if (cli_parse_seconds("run", a, v, &x.limits.max_seconds) != 0)
                    return EXIT_USAGE;
            } else if (strcmp(a, "--input") == 0) {
                x.opts.input = v;
            } else if (strcmp(a, "--ptx") == 0) {
                x.ptx_path = v;
            } else if (strcmp(a, "--config") == 0) {
                x.config = v;
            } else if (strcmp(a, "--set") == 0) {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v) {
                    fprintf(stderr, "warpsim run: --set expects OPTION=VALUE, got '%s'\n", v);
                    return EXIT_USAGE;
                }
                if (x.nset == CLI_MAX_SETS) {
                    fprintf(stderr, "warpsim run: more than %d --set options\n", CLI_MAX_SETS);
                    return EXIT_USAGE;
                }
                /* argv strings live as long as the run: split in place */
                argv[i][eq - v] = '\0';
                x.set_names[x.nset] = argv[i];
                x.set_values[x.nset++] = argv[i] + (eq - v) + 1;
            } else if (strcmp(a, "--warp-sched") == 0) {
                if (check_policy("warp scheduler", v, 1) != 0)
                    return EXIT_USAGE;
                x.warp_sched = v;
            } else if (strcmp(a, "--cpu-mix") == 0 || strcmp(a, "--cpu") == 0) {
                x.cpu_apps = v;
            } else if (strcmp(a, "--cm") == 0) {
                if (check_policy("concurrency manager", v, 4) != 0)
                    return EXIT_USAGE;
                x.cm = v;
            } else if (strcmp(a, "--cta-sched") == 0) {
                if (check_policy("CTA scheduler", v, 0) != 0)
                    return EXIT_USAGE;
                x.cta_sched = v;
            } else if (strcmp(a, "--l1-repl") == 0 || strcmp(a, "--l2-repl") == 0) {
                if (check_policy("replacement policy", v, 2) != 0)
                    return EXIT_USAGE;
                if (a[2] == 'l' && a[3] == '1')
                    x.l1_repl = v;
                else
                    x.l2_repl = v;
            } else if (strcmp(a, "--l1-bypass") == 0 || strcmp(a, "--l2-bypass") == 0) {
                if (check_policy("bypass policy", v, 3) != 0)
                    return EXIT_USAGE;
                if (a[3] == '1')
                    x.l1_bypass = v;
                else
                    x.l2_bypass = v;
            } else if (strcmp(a, "--threads") == 0) {
                char *end = NULL;
                unsigned long t = strtoul(v, &end, 10);
                if (!*v || *end || v[0] == '-' || t > 256 || x.nset >= CLI_MAX_SETS) {
                    fprintf(stderr, "warpsim run: --threads takes a number of host threads from 0 (one per CPU "
                                    "core) to 256, got '%s'\n", v);
                    return EXIT_USAGE;
                }
                x.set_names[x.nset] = "warpsim_threads";   /* as --set warpsim_threads=N, in order */
                x.set_values[x.nset++] = v;
            } else if (strcmp(a, "--grid-scale") == 0) {
                char *end = NULL;
                double g = strtod(v, &end);
                if (!*v || *end || !(g > 0) || g > 1000) {
                    fprintf(stderr, "warpsim run: --grid-scale expects a number above 0 and at most 1000 (a factor "
                                    "on the workload's CTA count), got '%s'\n", v);
                    return EXIT_USAGE;
                }
                x.opts.grid_scale = g;
            } else if (strcmp(a, "--timeseries") == 0) {
                x.timeseries_path = v;
            } else if (strcmp(a, "--warps") == 0) {
                x.warps_path = v;
            } else {
                out = v;
            }
        } else if (a[0] == '-') {
            cli_unknown_option("run", a, run_usage);
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
    if (functional && (x.config || x.nset || x.warp_sched || x.cta_sched || x.cm || x.cpu_apps || x.l1_repl || x.l2_repl ||
                       x.l1_bypass || x.l2_bypass || x.timeseries_path || x.warps_path)) {
        fprintf(stderr, "warpsim run: --config, --set, --warp-sched, --cta-sched, --cm, --cpu-mix, --l1-repl, --l2-repl, "
                        "--l1-bypass, --l2-bypass, --timeseries and --warps apply to timing mode; drop --functional\n");
        return EXIT_USAGE;
    }
    if (x.opts.grid_scale > 0 && !x.wl->grid_scale) {
        /* a fixed-shape kernel would compute something else (or fault) on another grid */
        fprintf(stderr, "warpsim run: --grid-scale: workload '%s' launches the grid its input needs (its kernels "
                        "do not loop with grid strides); workloads that take it:", x.wl->name);
        for (size_t i = 0; i < wl_count(); i++)
            if (wl_get(i)->grid_scale)
                fprintf(stderr, " %s", wl_get(i)->name);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    if (x.opts.input && !x.wl->input_format) {
        fprintf(stderr, "warpsim run: --input: workload '%s' generates its inputs and reads no file; workloads that "
                        "read one:", x.wl->name);
        for (size_t i = 0; i < wl_count(); i++)
            if (wl_get(i)->input_format)
                fprintf(stderr, " %s (%s)", wl_get(i)->name, wl_get(i)->input_format);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    if (functional && x.limits.max_cycles) {
        fprintf(stderr, "warpsim run: --max-cycles applies to timing mode; drop --functional or use --max-warp-insns\n");
        return EXIT_USAGE;
    }
    char ts_default[1024], cfg_out[1024] = "";
    x.timing = !functional;
    if (x.timing && out) {
        if (!x.timeseries_path) {
            beside(ts_default, sizeof ts_default, out, ".timeseries.csv");
            x.timeseries_path = ts_default;
        }
        beside(cfg_out, sizeof cfg_out, out, ".config");
    }

    /* the results file opens before the run: a typo in its directory must not cost a whole simulation,
       nor be reported under the name of a file derived from it */
    FILE *json_out = NULL;
    if (out && !(json_out = fopen(out, "w"))) {
        fprintf(stderr, "warpsim run: -o %s: cannot write: %s\n", out, strerror(errno));
        return EXIT_USAGE;
    }

    x.progress = quiet ? GPU_PROGRESS_OFF : isatty(2) ? GPU_PROGRESS_TTY : GPU_PROGRESS_LINES;
    cli_exec_workload(&x);
    if (x.setup_failed || x.result.bad_input) {
        if (x.setup_failed)
            fprintf(stderr, "warpsim run: %s\n", x.error);
        else
            fprintf(stderr, "warpsim run: --input: %s\n", x.result.detail);
        cli_exec_free(&x);
        if (json_out) {
            fclose(json_out);
            remove(out);
        }
        return EXIT_USAGE;
    }

    printf("warpsim: %s (size %s, seed %" PRIu64 ", %s)\n", x.wl->name, wl_size_name(x.opts.size), x.opts.seed,
           functional ? "functional" : "timing");
    const int at_limit = stopped_at_limit(&x);
    if (at_limit) {
        printf("status = stopped at limit (%s)\n", strstr(x.error, GPU_SIM_LIMIT_TAG) + strlen(GPU_SIM_LIMIT_TAG));
    } else if (x.status != WS_SUCCESS) {
        fprintf(stderr, "warpsim run: %s failed: %s\n%s\n", x.wl->name, wsStatusName(x.status), x.error);
        if (x.status == WS_ERROR_LIMIT)
            fprintf(stderr, "warpsim run: raise the limit or turn it off with --max-warp-insns, --max-cycles or "
                            "--max-seconds (0 = no limit)%s\n",
                    functional ? "" : "; the statistics below cover the run up to the stop");
    }
    printf("kernels_launched = %" PRIu64 "\n", x.stats.kernels_launched);
    printf("ctas_executed = %" PRIu64 "\n", x.stats.ctas_executed);
    printf("gpu_sim_insn = %" PRIu64 "\n", x.stats.thread_insns);
    printf("gpu_sim_warp_insn = %" PRIu64 "\n", x.stats.warp_insns);
    if (!functional)
        printf("gpu_tot_sim_cycle = %" PRIu64 "\n", x.stats.gpu_cycles);
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
    if (x.sim_seconds > 0 && !functional)
        printf("gpgpu_simulation_rate_cycles = %.0f cycles/s\n", (double)x.stats.gpu_cycles / x.sim_seconds);
    if (x.timing_text) {
        printf("\n==== timing statistics ====\n");
        fputs(x.timing_text, stdout);
    }
    if (at_limit)
        printf("verify = NOT VERIFIED (the simulation stopped at a limit; the statistics cover the run up to it)\n");
    else if (x.status == WS_SUCCESS)
        printf("verify = %s (%s)\n", x.result.verified ? "PASSED" : "FAILED", x.result.detail);
    /* on the CPU-GPU chip: the alone runs and seed 004's metrics */
    struct hetero_metrics *hm = calloc(1, sizeof *hm);
    if (hm && !functional && !no_alone && x.n_cpu && x.status == WS_SUCCESS) {
        char herr[4200];
        if (cli_hetero_metrics(&x, hm, herr, sizeof herr) != 0) {
            fprintf(stderr, "warpsim run: %s\n", herr);
            x.status = WS_ERROR_LAUNCH_FAILED;
        }
        cli_hetero_print(stdout, hm);
    }
    /* a launch rejected as configured (a policy's parameters or input file, a CTA that does not fit the
       machine, a --ptx kernel whose parameters differ from the workload's) is bad input, not a fault of
       the simulated program */
    int rc = at_limit                           ? EXIT_OK
             : x.status == WS_ERROR_INVALID_VALUE ? EXIT_USAGE
             : x.status != WS_SUCCESS           ? EXIT_SIM_ERROR
             : x.result.verified                ? EXIT_OK
                                                : EXIT_VERIFY_FAILED;
    if (json_out) {
        write_json(json_out, &x, functional, cmdline, hm);
        if (fclose(json_out) != 0) {
            fprintf(stderr, "warpsim run: -o %s: write failed: %s\n", out, strerror(errno));
            rc = rc ? rc : EXIT_USAGE;
        } else {
            printf("results written to %s\n", out);
        }
    }
    if (cfg_out[0] && x.effective_config) {
        FILE *f = fopen(cfg_out, "w");
        if (!f) {
            fprintf(stderr, "warpsim run: cannot write %s\n", cfg_out);
            rc = rc ? rc : EXIT_USAGE;
        } else {
            char gs[48] = "";
            if (x.opts.grid_scale > 0)
                snprintf(gs, sizeof gs, " --grid-scale %.17g", x.opts.grid_scale);
            fprintf(f, "# %s\n# reproduce: warpsim run %s --size %s --seed %" PRIu64 "%s --config %s\n", cmdline,
                    x.wl->name, wl_size_name(x.opts.size), x.opts.seed, gs, cfg_out);
            fputs(x.effective_config, f);
            fclose(f);
            printf("effective configuration written to %s\n", cfg_out);
        }
    }
    if (x.timeseries_path && x.timing)
        printf("time series written to %s\n", x.timeseries_path);
    if (x.warps_path && x.timing)
        printf("per-warp records written to %s\n", x.warps_path);
    cli_exec_free(&x);
    free(hm);
    return rc;
}
