/*
 * workers.h - a fixed team of host threads that run one function together,
 * round after round: the caller is member 0 and returns when every member has
 * finished the round.  Between rounds a member spins briefly (a round of the
 * timing loop lasts microseconds), then sleeps, so an idle team costs no CPU.
 */
#ifndef WARPSIM_WORKERS_H
#define WARPSIM_WORKERS_H

typedef void (*workers_fn)(void *arg, unsigned member);

struct workers;

/* A team of n members (n - 1 new threads).  NULL when a thread cannot be started. */
struct workers *workers_new(unsigned n);
void workers_free(struct workers *w);
unsigned workers_count(const struct workers *w);
/* fn(arg, m) on every member m = 0..n-1 (0 on the calling thread); returns when all are done.
   What the members wrote is visible to the caller afterwards, and what the caller wrote before
   is visible to them.  Returns how often the caller gave its core away while it waited for a
   member (0 when they kept pace): a sign that the team has fewer free cores than members. */
unsigned workers_run(struct workers *w, workers_fn fn, void *arg);
/* The number of CPUs this process may run on (at least 1). */
unsigned workers_cpus(void);

#endif
