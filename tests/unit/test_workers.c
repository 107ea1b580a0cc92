/* test_workers.c - the thread team (src/core/workers.c) and the request pools' home rule. */
#include <stdint.h>
#include <string.h>

#include "core/arena.h"
#include "core/workers.h"
#include "mem/mem_req.h"
#include "test.h"

struct job {
    unsigned n;
    uint64_t round;
    uint64_t slot[8];          /* member m writes slot m only */
    unsigned long long seen[8];
};

static void member_job(void *arg, unsigned m)
{
    struct job *j = arg;
    /* what the caller wrote before the round is visible: every member sees this round's number */
    j->seen[m] += j->round;
    for (unsigned k = m; k < 64; k += j->n)
        j->slot[m] += k;
}

TEST(every_member_runs_every_round_and_sees_the_callers_writes)
{
    for (unsigned n = 1; n <= 4; n++) {
        struct workers *w = workers_new(n);
        REQUIRE(w != NULL);
        CHECK_EQ_INT(workers_count(w), n);
        struct job j;
        memset(&j, 0, sizeof j);
        j.n = n;
        const uint64_t rounds = 20000;
        unsigned long long want_seen = 0;
        for (uint64_t r = 1; r <= rounds; r++) {
            j.round = r;
            workers_run(w, member_job, &j);
            want_seen += r;
        }
        uint64_t total = 0;
        for (unsigned m = 0; m < n; m++) {
            CHECK_EQ_U64(j.seen[m], want_seen);   /* each member ran each round once, with its round number */
            total += j.slot[m];
        }
        CHECK_EQ_U64(total, rounds * (63u * 64u / 2u));   /* and the rounds covered 0..63 exactly once each */
        workers_free(w);
    }
}

TEST(an_idle_team_sleeps_and_wakes)
{
    struct workers *w = workers_new(2);
    REQUIRE(w != NULL);
    struct job j;
    memset(&j, 0, sizeof j);
    j.n = 2;
    j.round = 1;
    workers_run(w, member_job, &j);
    /* long enough for the member to give up spinning and sleep on the condition variable */
    for (volatile unsigned long i = 0; i < 50000000ul; i++)
        ;
    j.round = 2;
    workers_run(w, member_job, &j);
    CHECK_EQ_U64(j.seen[1], 3);
    workers_free(w);
}

TEST(a_request_goes_back_to_the_pool_it_came_from)
{
    struct arena *a = arena_new(0), *b = arena_new(0);
    REQUIRE(a && b);
    struct mem_req_pool sm, part;
    REQUIRE(mem_req_pool_init(&sm, a, 4) == 0);
    REQUIRE(mem_req_pool_init(&part, b, 4) == 0);
    struct mem_req *r = mem_req_alloc(&sm);
    REQUIRE(r != NULL);
    CHECK(r->home == &sm);
    mem_req_free(&part, r);   /* freed by a partition: back to the SM's pool */
    CHECK_EQ_U64(sm.retired, 1);
    CHECK_EQ_U64(part.retired, 0);
    CHECK(mem_req_alloc(&sm) == r);
    arena_free(a);
    arena_free(b);
}

TEST_MAIN()
