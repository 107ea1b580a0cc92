/*
 * cli.h - the warpsim command: subcommands and shared helpers.  The CLI parses
 * arguments and prints; the model lives below it.
 */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "warpsim/warpsim.h"
#include "workload.h"

/* exit codes */
enum { EXIT_OK = 0, EXIT_VERIFY_FAILED = 1, EXIT_USAGE = 2, EXIT_SIM_ERROR = 3 };

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_ptx_check(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* One workload execution, shared by run and bench. */
struct wl_exec {
    const struct workload *wl;
    struct wl_opts opts;
    const char *ptx_path;      /* NULL = embedded PTX */
    /* results */
    ws_status status;
    char error[4096];          /* API error message when status != WS_SUCCESS */
    struct wl_result result;
    ws_stats stats;
    double host_seconds;
};
/* Create a functional context, load the PTX, run the driver. Returns status. */
ws_status cli_exec_workload(struct wl_exec *x);

/* argument helpers: print "warpsim CMD: ..." and return -1 on a bad value */
int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
int cli_is_help(const char *a);
double cli_now(void);   /* monotonic seconds */

#endif
