/* cmd_list.c - `warpsim list`: the bundled workloads. */
#include <string.h>

#include "cli.h"

int cmd_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            puts("usage: warpsim list\n\nList the bundled workloads with what each computes and how its output is "
                 "checked.");
            return EXIT_OK;
        }
        fprintf(stderr, "warpsim list: unexpected argument '%s'\n", argv[i]);
        return EXIT_USAGE;
    }
    printf("%-13s %s\n", "workload", "what it computes and stresses / how its output is checked");
    for (size_t i = 0; i < wl_count(); i++) {
        const struct workload *w = wl_get(i);
        printf("%-13s %s\n%-13s check: %s\n", w->name, w->summary, "", w->tolerance);
    }
    printf("\n%zu workloads. Run one with: warpsim run NAME --size tiny|small|paper --functional\n", wl_count());
    return EXIT_OK;
}
