/*
 * host_clock.h - the host's monotonic clock in seconds, for simulation-rate
 * reports and wall-clock limits.  Never feeds simulated state: statistics do
 * not depend on it.
 */
#ifndef WARPSIM_HOST_CLOCK_H
#define WARPSIM_HOST_CLOCK_H

#include <time.h>

static inline double host_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds (user + system) the whole process has used, every thread counted: the
   simulation-rate figure that other load on a shared machine moves least */
static inline double host_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
