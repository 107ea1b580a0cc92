/*
 * test_tracegen.c - synthetic CPU traces (cpu/tracegen.h): 004 Table III's
 * applications and MPKI, Table IV's mixes, each profile's L2 MPKI on the
 * modelled core within 15% (or 0.1 absolute) of its target, determinism, and
 * round trips through .gz and .xz files (the records, and the same run on
 * the core from the file as from the generator).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "cpu/cpu_mem_fixed.h"
#include "cpu/tracegen.h"

static char t_dir[64];
static char t_files[8][128];
static int t_nfiles;

__attribute__((destructor)) static void t_cleanup(void)
{
    for (int i = 0; i < t_nfiles; i++)
        unlink(t_files[i]);
    if (t_dir[0])
        rmdir(t_dir);
}

static const char *t_path(const char *name)
{
    if (!t_dir[0]) {
        snprintf(t_dir, sizeof t_dir, "/tmp/warpsim_tgXXXXXX");
        if (!mkdtemp(t_dir))
            abort();
    }
    if (t_nfiles == 8)
        abort();
    snprintf(t_files[t_nfiles], sizeof t_files[0], "%s/%s", t_dir, name);
    return t_files[t_nfiles++];
}

TEST(table_iii_profiles)
{
    size_t n;
    const struct tracegen_profile *p = tracegen_profiles(&n);
    CHECK_EQ_INT(n, 34);
    CHECK_EQ_STR(p[0].name, "perlbench");
    CHECK_NEAR(p[0].mpki, 0.2, 1e-12);
    CHECK_EQ_STR(p[n - 1].name, "soplex");
    CHECK_NEAR(p[n - 1].mpki, 103.2, 1e-12);
    const struct tracegen_profile *m = tracegen_find("mcf");
    REQUIRE(m);
    CHECK_NEAR(m->mpki, 49.8, 1e-12);
    CHECK_EQ_INT(m->cls, 'H');
    CHECK(tracegen_find("libquantum") && tracegen_find("libquantum")->mpki == 12.5);
    CHECK(tracegen_find("nosuch") == NULL);
    CHECK(tracegen_find("cactusADM") == tracegen_find("cactus"));
    /* the table is sorted by MPKI and its classes follow 004's thresholds */
    for (size_t i = 0; i < n; i++) {
        if (i)
            CHECK(p[i].mpki >= p[i - 1].mpki);
        char want = p[i].mpki < 2 ? 'L' : p[i].mpki < 20 ? 'M' : 'H';
        if (p[i].cls != want)
            T_FAIL_("%s: class %c, MPKI %.1f", p[i].name, p[i].cls, p[i].mpki);
        CHECK(p[i].footprint_mb >= 1);   /* larger than the 256 KB L2 */
        CHECK(p[i].cal > 0.5 && p[i].cal <= 1.0);
    }
}

TEST(table_iv_mixes)
{
    size_t n;
    const struct tracegen_mix *m = tracegen_mixes(&n);
    CHECK_EQ_INT(n, 6);
    const char *names[] = {"L1", "L2", "M1", "M2", "H1", "H2"};
    for (size_t i = 0; i < n && i < 6; i++) {
        CHECK_EQ_STR(m[i].name, names[i]);
        CHECK(tracegen_find_mix(names[i]) == &m[i]);
        for (int k = 0; k < TRACEGEN_MIX_APPS; k++) {
            const struct tracegen_profile *p = tracegen_find(m[i].apps[k]);
            if (!p) {
                T_FAIL_("mix %s: unknown application '%s'", m[i].name, m[i].apps[k]);
                continue;
            }
            if (p->cls != names[i][0])
                T_FAIL_("mix %s holds %s of class %c", m[i].name, p->name, p->cls);
        }
    }
    const struct tracegen_mix *h2 = tracegen_find_mix("H2");
    REQUIRE(h2);
    int omnetpp = 0;
    for (int k = 0; k < TRACEGEN_MIX_APPS; k++)
        omnetpp += strcmp(h2->apps[k], "omnetpp") == 0;
    CHECK_EQ_INT(omnetpp, 5);
    CHECK(tracegen_find_mix("X1") == NULL);
}

TEST(achieved_mpki_near_target)
{
    size_t n;
    const struct tracegen_profile *p = tracegen_profiles(&n);
    uint64_t insns = 150000;
    for (size_t i = 0; i < n; i++) {
        struct cpu_core_summary s;
        char err[256];
        if (tracegen_measure(&p[i], 1, insns, UINT64_MAX, &s, err, sizeof err) != 0) {
            T_FAIL_("%s: %s", p[i].name, err);
            continue;
        }
        double tol = p[i].mpki * 0.15 > 0.1 ? p[i].mpki * 0.15 : 0.1;
        if (!(s.l2_mpki >= p[i].mpki - tol && s.l2_mpki <= p[i].mpki + tol))
            T_FAIL_("%s: L2 MPKI %.3f, target %.1f", p[i].name, s.l2_mpki, p[i].mpki);
        CHECK(s.insns >= insns - tracegen_default_warmup(insns) - 3);
        CHECK(s.ipc > 0.02 && s.ipc <= 3.0);
        CHECK(s.l1_mpki >= s.l2_mpki);
    }
    /* another seed, a few profiles of each class */
    const char *some[] = {"gcc", "cactus", "astar", "lbm", "omnetpp", "soplex"};
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        const struct tracegen_profile *q = tracegen_find(some[i]);
        REQUIRE(q);
        struct cpu_core_summary s;
        char err[256];
        REQUIRE(tracegen_measure(q, 77, insns, UINT64_MAX, &s, err, sizeof err) == 0);
        double tol = q->mpki * 0.15 > 0.1 ? q->mpki * 0.15 : 0.1;
        if (!(s.l2_mpki >= q->mpki - tol && s.l2_mpki <= q->mpki + tol))
            T_FAIL_("%s seed 77: L2 MPKI %.3f, target %.1f", q->name, s.l2_mpki, q->mpki);
    }
}

TEST(patterns_shape_performance)
{
    /* at similar MPKI a pointer chase has no memory-level parallelism: lower IPC than a stream */
    struct cpu_core_summary chase, stream;
    char err[256];
    REQUIRE(tracegen_measure(tracegen_find("xalan"), 1, 100000, UINT64_MAX, &chase, err, sizeof err) == 0);
    REQUIRE(tracegen_measure(tracegen_find("leslie3d"), 1, 100000, UINT64_MAX, &stream, err, sizeof err) == 0);
    CHECK(chase.ipc < stream.ipc);
    /* more misses, lower IPC */
    struct cpu_core_summary lo, hi;
    REQUIRE(tracegen_measure(tracegen_find("povray"), 1, 100000, UINT64_MAX, &lo, err, sizeof err) == 0);
    REQUIRE(tracegen_measure(tracegen_find("soplex"), 1, 100000, UINT64_MAX, &hi, err, sizeof err) == 0);
    CHECK(lo.ipc > 3 * hi.ipc);
}

static int recs_equal(const struct trace_rec *a, const struct trace_rec *b)
{
    unsigned char x[TRACE_REC_BYTES], y[TRACE_REC_BYTES];
    trace_encode(a, x);
    trace_encode(b, y);
    return memcmp(x, y, sizeof x) == 0;
}

TEST(deterministic)
{
    struct arena *a = arena_new(0);
    const struct tracegen_profile *p = tracegen_find("astar");
    REQUIRE(p);
    struct tracegen *g1 = tracegen_new(a, p, 5), *g2 = tracegen_new(a, p, 5), *g3 = tracegen_new(a, p, 6);
    int same = 1, differ = 0;
    uint64_t branches = 0, loads = 0, stores = 0;
    for (int i = 0; i < 20000; i++) {
        struct trace_rec r1, r2, r3;
        tracegen_next(g1, &r1);
        tracegen_next(g2, &r2);
        tracegen_next(g3, &r3);
        same &= recs_equal(&r1, &r2);
        differ |= !recs_equal(&r1, &r3);
        branches += r1.is_branch;
        loads += r1.src_mem[0] != 0;
        stores += r1.dst_mem[0] != 0;
    }
    CHECK(same);
    CHECK(differ);
    CHECK(branches > 1000 && loads > 3000 && stores > 1000);
    /* reset replays the same records */
    struct trace_rec first, again;
    tracegen_reset(g1);
    tracegen_next(g1, &first);
    tracegen_reset(g1);
    tracegen_next(g1, &again);
    CHECK(recs_equal(&first, &again));
    /* the measurement too */
    struct cpu_core_summary s1, s2;
    char err[256];
    REQUIRE(tracegen_measure(p, 5, 50000, 10000, &s1, err, sizeof err) == 0);
    REQUIRE(tracegen_measure(p, 5, 50000, 10000, &s2, err, sizeof err) == 0);
    CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
    arena_free(a);
}

static void round_trip(const char *name, enum trace_comp comp)
{
    const struct tracegen_profile *p = tracegen_find("omnetpp");
    REQUIRE(p);
    const char *path = t_path(name);
    uint64_t n = 40000;
    char err[512];
    REQUIRE(tracegen_write(p, 3, n, path, err, sizeof err) == 0);
    struct trace_reader *t = trace_open(path, err, sizeof err);
    REQUIRE(t);
    CHECK_EQ_INT(trace_compression(t), comp);
    struct arena *a = arena_new(0);
    struct tracegen *g = tracegen_new(a, p, 3);
    struct trace_rec r, want;
    uint64_t k = 0;
    int ok = 1, rc;
    while ((rc = trace_next(t, &r)) == 1) {
        tracegen_next(g, &want);
        ok &= recs_equal(&r, &want);
        k++;
    }
    CHECK_EQ_INT(rc, 0);
    CHECK_EQ_U64(k, n);
    CHECK(ok);
    trace_close(t);

    /* the core gives the same result from the file as from the generator */
    struct cpu_core_summary from_gen, from_file;
    REQUIRE(tracegen_measure(p, 3, n, 8000, &from_gen, err, sizeof err) == 0);
    struct cpu_core_params cp;
    cpu_core_params_default(&cp);
    struct cpu_mem_fixed_params mp;
    cpu_mem_fixed_params_default(&mp);
    struct mem_req_pool pool;
    REQUIRE(mem_req_pool_init(&pool, a, 64) == 0);
    struct cpu_src *src = cpu_src_file(a, path, err, sizeof err);
    REQUIRE(src);
    struct cpu_core *c = cpu_core_new(a, &cp, src, &pool, err, sizeof err);
    REQUIRE(c);
    CHECK_EQ_INT(cpu_run_fixed(c, cpu_mem_fixed_new(a, &mp, &pool), 8000, 0, &from_file, err, sizeof err), 0);
    CHECK(memcmp(&from_gen, &from_file, sizeof from_gen) == 0);
    cpu_src_file_close(src);
    arena_free(a);
}

TEST(round_trip_gz) { round_trip("t.trace.gz", TRACE_GZIP); }
TEST(round_trip_xz) { round_trip("t.trace.xz", TRACE_XZ); }

TEST(file_source_loops)
{
    /* a file source restarts the trace by reopening it */
    const struct tracegen_profile *p = tracegen_find("gcc");
    const char *path = t_path("loop.trace");
    char err[512];
    REQUIRE(tracegen_write(p, 1, 1000, path, err, sizeof err) == 0);
    struct arena *a = arena_new(0);
    struct cpu_core_params cp;
    cpu_core_params_default(&cp);
    cp.quota = 3500;
    cp.loop = true;
    struct cpu_mem_fixed_params mp;
    cpu_mem_fixed_params_default(&mp);
    struct mem_req_pool pool;
    REQUIRE(mem_req_pool_init(&pool, a, 64) == 0);
    struct cpu_src *src = cpu_src_file(a, path, err, sizeof err);
    REQUIRE(src);
    struct cpu_core *c = cpu_core_new(a, &cp, src, &pool, err, sizeof err);
    REQUIRE(c);
    struct cpu_core_summary s;
    CHECK_EQ_INT(cpu_run_fixed(c, cpu_mem_fixed_new(a, &mp, &pool), 0, 0, &s, err, sizeof err), 0);
    CHECK_EQ_U64(s.insns, 3500);
    CHECK_EQ_U64(cpu_core_stats(c)->loops, 3);
    cpu_src_file_close(src);
    arena_free(a);
}

TEST(unwritable_path)
{
    char err[512];
    CHECK(tracegen_write(tracegen_find("gcc"), 1, 10, "/nonexistent-dir/t.trace", err, sizeof err) != 0);
    CHECK(strstr(err, "/nonexistent-dir/t.trace") != NULL);
}

TEST_MAIN()
