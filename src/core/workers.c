/* workers.c - see workers.h. */
#include "core/workers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* spins before a member sleeps until the next round */
#define WORKERS_SPINS 20000u
/* while spinning, give the core away every this many + 1 spins: with more threads than free
   cores the member (or caller) being waited for may be the one that is not running */
#define WORKERS_YIELD_MASK 255u

struct workers {
    unsigned n;
    pthread_t *th;
    workers_fn fn;
    void *arg;
    _Atomic uint64_t round;      /* bumped to start a round */
    _Atomic unsigned done;       /* members other than 0 that finished the round */
    _Atomic unsigned sleepers;
    _Atomic int quit;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

struct member {
    struct workers *w;
    unsigned id;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void *member_main(void *p)
{
    struct member *m = p;
    struct workers *w = m->w;
    unsigned id = m->id;
    free(m);
    uint64_t seen = 0;
    for (;;) {
        unsigned spins = 0;
        while (atomic_load(&w->round) == seen && !atomic_load(&w->quit) && spins < WORKERS_SPINS) {
            cpu_relax();
            if ((++spins & WORKERS_YIELD_MASK) == 0)
                sched_yield();   /* more threads than free cores: let the one we wait for run */
        }
        if (atomic_load(&w->round) == seen && !atomic_load(&w->quit)) {
            pthread_mutex_lock(&w->mu);
            /* count as a sleeper before the last look, so workers_run either sees us or we see it */
            atomic_fetch_add(&w->sleepers, 1);
            while (atomic_load(&w->round) == seen && !atomic_load(&w->quit))
                pthread_cond_wait(&w->cv, &w->mu);
            atomic_fetch_sub(&w->sleepers, 1);
            pthread_mutex_unlock(&w->mu);
        }
        if (atomic_load(&w->quit))
            return NULL;
        seen = atomic_load(&w->round);
        w->fn(w->arg, id);
        atomic_fetch_add(&w->done, 1);
    }
}

struct workers *workers_new(unsigned n)
{
    if (n == 0)
        n = 1;
    struct workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->n = n;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    w->th = calloc(n, sizeof *w->th);
    if (!w->th) {
        workers_free(w);
        return NULL;
    }
    for (unsigned i = 1; i < n; i++) {
        struct member *m = malloc(sizeof *m);
        if (m) {
            m->w = w;
            m->id = i;
        }
        if (!m || pthread_create(&w->th[i], NULL, member_main, m) != 0) {
            free(m);
            w->n = i;   /* the threads started so far are joined */
            workers_free(w);
            return NULL;
        }
    }
    return w;
}

void workers_free(struct workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    atomic_store(&w->quit, 1);
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    for (unsigned i = 1; w->th && i < w->n; i++)
        pthread_join(w->th[i], NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w->th);
    free(w);
}

unsigned workers_count(const struct workers *w) { return w ? w->n : 1; }

unsigned workers_run(struct workers *w, workers_fn fn, void *arg)
{
    if (!w || w->n <= 1) {
        fn(arg, 0);
        return 0;
    }
    w->fn = fn;
    w->arg = arg;
    atomic_store(&w->done, 0);
    atomic_fetch_add(&w->round, 1);   /* sequentially consistent: orders fn/arg before it */
    if (atomic_load(&w->sleepers)) {
        pthread_mutex_lock(&w->mu);
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
    }
    fn(arg, 0);
    unsigned spins = 0, yields = 0;
    while (atomic_load(&w->done) != w->n - 1) {
        cpu_relax();
        if ((++spins & WORKERS_YIELD_MASK) == 0) {
            sched_yield();   /* a member was descheduled: let it run */
            yields++;
        }
    }
    return yields;
}

unsigned workers_cpus(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}
