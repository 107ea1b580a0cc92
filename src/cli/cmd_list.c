/* cmd_list.c - `warpsim list`: the bundled workloads (applications, then microbenchmarks). */
#include <string.h>

#include "cli.h"
#include "core/config.h"
#include "policy/params.h"
#include "sys/gpu_config.h"

int cmd_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            puts("usage: warpsim list [--policies [--names KIND] | --options | --presets]\n\nList the bundled workloads with what each computes and how its "
                 "output is checked:\nthe applications, then the microbenchmarks that calibrate the timing model "
                 "(docs/microbench.md).\n\n  --policies       list the warp schedulers, CTA schedulers, concurrency managers and cache "
                 "replacement\n                   and bypass policies with their parameters and defaults\n  --names KIND     "
                 "after --policies: only the names of one kind (warp_sched,\n                   cta_sched, repl, bypass, cm), one "
                 "a line (for scripts)\n  --options        list every machine option (-gpgpu_*, -warpsim_*, ...) with its type,\n"
                 "                   default, range and meaning (docs/config.md)\n"
                 "  --presets        list the built-in machine presets (--config NAME) with what each is");
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--presets") == 0) {
            cli_preset_list(stdout);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--options") == 0) {
            cfg_list(stdout, gpu_config_opts, gpu_config_nopts);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--policies") == 0) {
            if (i + 1 < argc && strcmp(argv[i + 1], "--names") == 0) {
                /* --policies --names KIND: the registered names, one a line (for scripts) */
                if (i + 3 != argc) {
                    fprintf(stderr, "warpsim list: --policies --names needs one kind (warp_sched, cta_sched, repl, bypass, cm)\n");
                    return EXIT_USAGE;
                }
                if (policy_list_names(stdout, argv[i + 2]) != 0) {
                    fprintf(stderr, "warpsim list: unknown policy kind '%s' (valid: warp_sched, cta_sched, repl, bypass, cm)\n",
                            argv[i + 2]);
                    return EXIT_USAGE;
                }
                return EXIT_OK;
            }
            if (i + 1 != argc) {
                fprintf(stderr, "warpsim list: unexpected argument '%s'\n", argv[i + 1]);
                return EXIT_USAGE;
            }
            policy_list(stdout);
            return EXIT_OK;
        }
        fprintf(stderr, "warpsim list: unexpected argument '%s'\n", argv[i]);
        return EXIT_USAGE;
    }
    /* the applications, then the microbenchmarks in a section of their own:
       they calibrate the timing model rather than represent a workload class */
    size_t napps = 0, nmicro = 0;
    printf("%-13s %s\n", "workload", "what it computes and stresses / how its output is checked");
    for (size_t i = 0; i < wl_count(); i++) {
        const struct workload *w = wl_get(i);
        if (w->micro)
            continue;
        printf("%-13s %s\n%-13s check: %s\n", w->name, w->summary, "", w->tolerance);
        napps++;
    }
    for (size_t i = 0; i < wl_count(); i++) {
        const struct workload *w = wl_get(i);
        if (!w->micro)
            continue;
        if (nmicro++ == 0)
            printf("\nmicrobenchmarks: latencies, bandwidths, bank conflicts, atomics, divergence and CTA launch "
                   "against the\nconfiguration (cycle numbers need timing mode)\n");
        printf("%-13s %s\n%-13s check: %s\n", w->name, w->summary, "", w->tolerance);
    }
    printf("\n%zu workloads", napps);
    if (nmicro)
        printf(" and %zu microbenchmarks", nmicro);
    printf(". Run one with: warpsim run NAME --size tiny|small|paper [--functional]\n");
    return EXIT_OK;
}
