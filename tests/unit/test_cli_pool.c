/* test_cli_pool.c - the child-process pool of the sweep machinery and pdp collect (src/cli/cli_pool.c), and
   the CTA count of a grid-stride launch under --grid-scale (wl_grid_ctas, workloads/workload.h). */
#include <time.h>
#include <unistd.h>

#include "../src/cli/cli_pool.c"
#include "test.h"

/* cli_common.c's, which the unit tests do not link */
double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define NJ 12
struct pool_state {
    unsigned parallel;
    int started[NJ], finished[NJ], status[NJ];
    unsigned live, max_live;
    size_t order[NJ], norder;
};

static pid_t start(size_t idx, void *u)
{
    struct pool_state *p = u;
    if (idx % 4 == 3)
        return 0;   /* done before: never started */
    pid_t pid = fork();
    if (pid == 0) {
        usleep(20000 + 5000 * (unsigned)(idx % 3));   /* overlap, finishing out of order */
        _exit(idx % 5 == 0 ? 7 : 0);
    }
    if (pid < 0)
        return 0;
    p->started[idx]++;
    p->live++;
    if (p->live > p->max_live)
        p->max_live = p->live;
    return pid;
}

static void finished(size_t idx, int ws, double secs, unsigned running, void *u)
{
    struct pool_state *p = u;
    p->finished[idx]++;
    p->status[idx] = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    p->live--;
    if (running != p->live)
        p->status[idx] = -100;   /* the pool's count of children still running disagrees */
    if (!(secs > 0.01))
        p->status[idx] = -200;
    p->order[p->norder++] = idx;
}

static void run_pool(unsigned parallel)
{
    struct pool_state p;
    memset(&p, 0, sizeof p);
    p.parallel = parallel;
    REQUIRE(cli_pool_run(NJ, parallel, start, finished, &p) == 0);
    CHECK_EQ_INT(p.live, 0);
    CHECK(p.max_live <= (parallel ? parallel : 1));
    if (parallel >= 3)
        CHECK(p.max_live >= 2);   /* they did run side by side */
    for (size_t i = 0; i < NJ; i++) {
        int run = i % 4 != 3;
        CHECK_EQ_INT(p.started[i], run);
        CHECK_EQ_INT(p.finished[i], run);
        if (run)
            CHECK_EQ_INT(p.status[i], i % 5 == 0 ? 7 : 0);
    }
    CHECK_EQ_INT(p.norder, 9);
}

TEST(pool_one_at_a_time) { run_pool(1); }
TEST(pool_parallel) { run_pool(3); }
TEST(pool_zero_means_one) { run_pool(0); }

TEST(pool_empty)
{
    struct pool_state p;
    memset(&p, 0, sizeof p);
    CHECK_EQ_INT(cli_pool_run(0, 4, start, finished, &p), 0);
    CHECK_EQ_INT(p.norder, 0);
}

TEST(grid_ctas)
{
    struct wl_opts o;
    memset(&o, 0, sizeof o);
    CHECK_EQ_INT(wl_grid_ctas(&o, 48, 196), 48);          /* 0: the driver's grid */
    o.grid_scale = 1;
    CHECK_EQ_INT(wl_grid_ctas(&o, 48, 196), 48);
    o.grid_scale = 0.5;
    CHECK_EQ_INT(wl_grid_ctas(&o, 48, 196), 24);
    o.grid_scale = 0.25;
    CHECK_EQ_INT(wl_grid_ctas(&o, 30, 196), 8);           /* 7.5 rounds up */
    o.grid_scale = 0.001;
    CHECK_EQ_INT(wl_grid_ctas(&o, 48, 196), 1);           /* at least one CTA */
    o.grid_scale = 3;
    CHECK_EQ_INT(wl_grid_ctas(&o, 48, 196), 144);
    o.grid_scale = 1000;
    CHECK_EQ_INT(wl_grid_ctas(&o, 48, 196), 196);         /* no CTA without an element */
    CHECK_EQ_INT(wl_grid_ctas(&o, 480, 100), 480);        /* a cap below the driver's grid keeps it */
    o.grid_scale = 1e30;
    CHECK_EQ_INT(wl_grid_ctas(&o, 1, 4000000000u), 4000000000u);
}

TEST_MAIN()
