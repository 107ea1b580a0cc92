/* cli_pool.c - child processes run a fixed number at a time: the sweep machinery's runs
   (study_sweep.c) and pdp collect's jobs (pdp_collect.c). */
#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "cli.h"

int cli_pool_run(size_t njobs, unsigned parallel, pid_t (*start)(size_t idx, void *u),
                 void (*finished)(size_t idx, int wait_status, double secs, unsigned running, void *u),
                 void *u)
{
    struct { pid_t pid; size_t idx; double t0; } slot[CLI_POOL_MAX];
    if (parallel < 1)
        parallel = 1;
    if (parallel > CLI_POOL_MAX)
        parallel = CLI_POOL_MAX;
    unsigned running = 0;
    size_t next = 0;
    for (;;) {
        while (running < parallel && next < njobs) {
            size_t idx = next++;
            pid_t pid = start(idx, u);
            if (pid <= 0)
                continue;   /* nothing to run, or start() reported why it could not */
            slot[running].pid = pid;
            slot[running].idx = idx;
            slot[running].t0 = cli_now();
            running++;
        }
        if (running == 0)
            return 0;
        int ws = 0;
        pid_t pid = waitpid(-1, &ws, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        unsigned k = 0;
        while (k < running && slot[k].pid != pid)
            k++;
        if (k == running)
            continue;   /* not one of ours */
        size_t idx = slot[k].idx;
        double secs = cli_now() - slot[k].t0;
        slot[k] = slot[--running];
        finished(idx, ws, secs, running, u);
    }
}
