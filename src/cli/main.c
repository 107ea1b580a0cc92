/* main.c - `warpsim` entry point: dispatch to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "study.h"

int cmd_exec(int argc, char **argv);   /* cmd_exec.c */

static void usage(FILE *f)
{
    fputs("usage: warpsim <command> [options]\n"
          "\n"
          "warpsim simulates NVIDIA GPUs running real CUDA kernels (compiled to PTX), alone or on a CPU-GPU\n"
          "chip beside out-of-order CPU cores running ChampSim traces (--config hetero-7tile --cpu-mix H1).\n"
          "\n"
          "commands:\n"
          "  run WORKLOAD    run a bundled workload and verify its output against a CPU reference\n"
          "  list            list the bundled workloads (--policies: the policies; --options: every option)\n"
          "  ptx-check FILE  parse and validate a PTX file; print its kernels and resources\n"
          "  bench           measure simulation speed on the bundled workloads\n"
          "  sweep           run a grid of workloads x configs x policies x parameters in parallel\n"
          "  study NAME      reproduce a seed study (dyncta, las, caws, l1-size, ctrlc, cawa, hetero) and\n"
          "                  compare with the paper\n"
          "  trace info FILE summarise a ChampSim CPU instruction trace (plain, gzip or xz)\n"
          "  trace gen|run   generate a synthetic CPU trace; run one on the CPU core model\n"
          "  trace from-kernel WORKLOAD  a GPU kernel as CPU traces (SIMD batches); time it on CPU cores\n"
          "  pdp SUB         HeteroPDP: kernel features, train/predict/schedule CPU-vs-GPU (pdp --help)\n"
          "  exec -- PROG    run an unmodified CUDA program (nvcc -cudart shared) on the simulated GPU\n"
          "  report PATH...  one HTML page of plots for runs, sweeps or studies (needs Python: pandas,\n"
          "                  matplotlib)\n"
          "  compare A B...  what differs between runs: statistics, configuration, policy parameters\n"
          "\n"
          "`warpsim COMMAND --help` describes a command's options; `warpsim --version` prints the\n"
          "version and the git commit of the build.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (cli_split_long_options(&argc, &argv) != 0) {
        fprintf(stderr, "warpsim: out of memory\n");
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (cli_is_help(cmd)) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0 || strcmp(cmd, "version") == 0) {
        printf("warpsim %s (commit %s)\n", warpsim_version, warpsim_commit);
        return EXIT_OK;
    }
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(cmd, "ptx-check") == 0)
        return cmd_ptx_check(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "sweep") == 0)
        return cmd_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "study") == 0)
        return cmd_study(argc - 1, argv + 1);
    if (strcmp(cmd, "trace") == 0)
        return cmd_trace(argc - 1, argv + 1);
    if (strcmp(cmd, "pdp") == 0)
        return cmd_pdp(argc - 1, argv + 1);
    if (strcmp(cmd, "exec") == 0)
        return cmd_exec(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0)
        return cmd_report(argc - 1, argv + 1);
    if (strcmp(cmd, "compare") == 0)
        return cmd_compare(argc - 1, argv + 1);
    fprintf(stderr,
            "warpsim: unknown command '%s' (commands: run, list, ptx-check, bench, sweep, study, trace, pdp, exec, report, compare; see warpsim --help)\n",
            cmd);
    return EXIT_USAGE;
}
