/* test_config_bounds.c - load-time validation: cache-string bounds, the machine's implied host
   memory (-warpsim_max_model_mib), config file size limits and directories, policy parameters
   checked at load (bounds, cross-checks, parameters of policies that are not selected). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem/cache.h"
#include "policy/params.h"
#include "sys/gpu_config.h"
#include "sys/gpu_int.h"
#include "test.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

static const char *b_fmt(const struct cfg_error *e)
{
    static char buf[2048];
    cfg_error_format(e, buf, sizeof buf);
    return buf;
}

/* Load text (as "x.config") plus --set overrides ("name=value" pairs, NULL-terminated) and the
   machine; formatted error or "". */
static const char *b_load(struct arena *a, struct gpu_config *g, const char *text, const char *const *sets)
{
    static char buf[2048];
    struct cfg c;
    struct cfg_error err;
    cfg_init(&c, a);
    buf[0] = '\0';
    if (text && cfg_load_text(&c, text, strlen(text), "x.config", &err))
        goto fail;
    for (size_t i = 0; sets && sets[i]; i++) {
        char name[256];
        const char *eq = strchr(sets[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - sets[i]), sets[i]);
        if (cfg_set(&c, name, eq + 1, "--set"))
            abort();
    }
    if (gpu_config_load(g, &c, &err))
        goto fail;
    return buf;
fail:
    snprintf(buf, sizeof buf, "%s", b_fmt(&err));
    return buf;
}

/* ---- cache strings ---------------------------------------------------------- */

static void b_cache_bad(const char *s, const char *want, unsigned want_col)
{
    struct cache_config c;
    char msg[256] = "";
    unsigned col = 0;
    int rc = cache_config_parse(s, &c, msg, sizeof msg, &col);
    if (rc != -1 || strcmp(msg, want) != 0 || col != want_col) {
        fprintf(stderr, "  \"%s\": rc %d msg \"%s\" col %u; want \"%s\" col %u\n", s, rc, msg, col, want, want_col);
        test_failed_now_ = 1;
    }
}

TEST(cache_string_bounds)
{
    b_cache_bad("32:128:4,L:L:m:N:H,A:4000000000:8,8",
                "MSHR entries: expected an integer in [1, 65536], got 4000000000", 22);
    b_cache_bad("32:128:4,L:L:m:N:H,A:32:2000,8", "MSHR max merge: expected an integer in [1, 1024], got 2000", 25);
    b_cache_bad("32:128:4,L:L:m:N:H,A:32:8,100000", "miss queue size: expected an integer in [1, 65536], got 100000",
                27);
    b_cache_bad("2097152:128:4,L:L:m:N:L,A:32:8,8", "number of sets: expected an integer in [1, 1048576], got 2097152",
                1);
    b_cache_bad("32:128:2048,L:L:m:N:L,A:32:8,8", "associativity: expected an integer in [1, 1024], got 2048", 8);
    b_cache_bad("32:8192:4,L:L:m:N:L,A:32:8,8", "line size 8192 is out of range: expected a power of two in [16, 4096]",
                4);
    b_cache_bad("32:8:4,L:L:m:N:L,A:32:8,8", "line size 8 is out of range: expected a power of two in [16, 4096]", 4);
    b_cache_bad("1048576:128:64,L:L:m:N:H,A:32:8,8",
                "1048576 sets x 64 ways = 67108864 lines, more than 16777216 (the most one cache may have)", 1);
    b_cache_bad("32:128:4,L:L:m:N:H,A:65536:1024,8",
                "65536 MSHR entries x 1024 max merge = 67108864 waiters, more than 16777216 (the most one cache may "
                "have)",
                22);
    /* the largest legal values still parse */
    struct cache_config c;
    char msg[256];
    unsigned col;
    CHECK_EQ_INT(cache_config_parse("16384:16:1024,L:B:m:N:L,A:65536:256,65536", &c, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(cache_config_parse("1048576:4096:16,L:B:m:N:L,A:16384:1024,1", &c, msg, sizeof msg, &col), 0);
    /* the host-memory estimate of one cache: tags + state per line, MSHR entries with their waiters */
    CHECK_EQ_INT(cache_config_parse("64:128:16,L:B:m:W:L,A:256:64,16", &c, msg, sizeof msg, &col), 0);
    uint64_t b = cache_config_host_bytes(&c);
    CHECK(b > 1024u * 23 + 256u * 64 * 8 && b < 2 * (1024u * 23 + 256u * 64 * 8) + 4096);
}

TEST(cache_bounds_through_the_machine_config)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    CHECK_EQ_STR(b_load(a, &g, "\n  -gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:4000000000:8,8", NULL),
                 "x.config:2:3: error: -gpgpu_cache:dl1: MSHR entries: expected an integer in [1, 65536], got "
                 "4000000000 (at character 22 of '32:128:4,L:L:m:N:H,A:4000000000:8,8')");
    const char *s1[] = {"gpgpu_cache:dl2=1048576:128:64,L:B:m:W:L,A:256:64,16", NULL};
    CHECK_EQ_STR(b_load(a, &g, NULL, s1),
                 "--set: error: -gpgpu_cache:dl2: 1048576 sets x 64 ways = 67108864 lines, more than 16777216 (the "
                 "most one cache may have) (at character 1 of '1048576:128:64,L:B:m:W:L,A:256:64,16')");
    arena_free(a);
}

/* ---- the machine's host memory ------------------------------------------------ */

TEST(model_memory_limit_names_the_dominating_option)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    /* 512 L2 slices of 1M lines: about 12 GiB */
    const char *s1[] = {"gpgpu_n_mem=64", "gpgpu_n_sub_partition_per_mchannel=8",
                        "gpgpu_cache:dl2=8192:128:128,L:B:m:W:L,A:256:64,16", NULL};
    const char *e = b_load(a, &g, NULL, s1);
    CHECK(strncmp(e, "--set: error: -gpgpu_cache:dl2: the simulated machine would take about ", 70) == 0);
    CHECK(strstr(e, "more than -warpsim_max_model_mib 4096; the largest part is this option's: 512 L2 slices x ") !=
          NULL);
    /* per-SM caches: 15 SMs of a 1M-set x 16-way L1D */
    const char *s2[] = {"gpgpu_cache:dl1=1048576:128:16,L:L:m:N:H,A:32:8,8", NULL};
    e = b_load(a, &g, NULL, s2);
    CHECK(strncmp(e, "--set: error: -gpgpu_cache:dl1: the simulated machine would take about ", 70) == 0);
    CHECK(strstr(e, "the largest part is this option's: 15 SMs x 368.0 MiB") != NULL);
    /* the limit is an option: the GTX480 takes a few MiB (SM state dominates), so 1 MiB is too little,
       and raising the limit admits the big machine; positioned at the limit when nothing else was set */
    e = b_load(a, &g, "-warpsim_max_model_mib 1", NULL);
    CHECK(strncmp(e, "x.config:1:1: error: -gpgpu_n_clusters: the simulated machine would take about ", 79) == 0);
    CHECK(strstr(e, "more than -warpsim_max_model_mib 1;") != NULL);
    CHECK_EQ_STR(b_load(a, &g, "-warpsim_max_model_mib 8000", s2), "");
    CHECK_EQ_INT(g.max_model_mib, 8000);
    CHECK_EQ_STR(b_load(a, &g, "-warpsim_max_model_mib 0", NULL),
                 "x.config:1:1: error: -warpsim_max_model_mib: expected an integer in [1, 1048576], got '0'");
    arena_free(a);
}

TEST(model_memory_of_the_presets_and_estimate_accuracy)
{
    static const char *const presets[] = {"gtx480.config", "gtx480-l1d16way.config", "dyncta-30core.config",
                                          "las-15sm.config"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        struct arena *a = arena_new(0);
        struct cfg c;
        struct cfg_error err;
        struct gpu_config g;
        char path[512];
        snprintf(path, sizeof path, "%s/configs/%s", WARPSIM_SOURCE_DIR, presets[i]);
        cfg_init(&c, a);
        REQUIRE(cfg_load_file(&c, path, &err) == 0);
        REQUIRE(gpu_config_load(&g, &c, &err) == 0);
        CHECK_EQ_INT(g.max_model_mib, 4096);
        struct gpu_model_mem m;
        gpu_config_model_mem(&g, &m);
        CHECK(m.total > (1u << 20) && m.total < (16u << 20));
        arena_free(a);
    }
    /* the estimate follows what gpu_new allocates (its arena's 1 MiB chunks leave some slack) */
    static const char *const machines[] = {
        "",
        "-gpgpu_cache:dl1 4096:128:16,L:L:m:N:H,A:32:8,8",
        "-gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:4096:512,8",
        "-gpgpu_n_mem 32 -gpgpu_n_sub_partition_per_mchannel 4 -gpgpu_cache:dl2 512:128:64,L:B:m:W:L,A:256:64,16",
        "-gpgpu_n_clusters 64 -gpgpu_n_cores_per_cluster 4",
        "-gpgpu_n_mem 16 -gpgpu_n_sub_partition_per_mchannel 4 -gpgpu_l2_rop_latency 100000",
    };
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++) {
        struct arena *a = arena_new(0);
        struct gpu_config g;
        REQUIRE(b_load(a, &g, machines[i], NULL)[0] == '\0');
        struct gpu_model_mem m;
        gpu_config_model_mem(&g, &m);
        char msg[256];
        struct gpu *gp = gpu_new(&g, msg, sizeof msg);
        REQUIRE(gp != NULL);
        double ratio = (double)arena_bytes(gp->arena) / (double)m.total;
        if (!(ratio > 0.6 && ratio < 1.6))
            T_FAIL_("'%s': estimated %llu bytes, gpu_new took %zu", machines[i], (unsigned long long)m.total,
                    arena_bytes(gp->arena));
        gpu_free(gp);
        arena_free(a);
    }
}

TEST(threads_per_sm_bounded_by_the_warp_masks)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    CHECK_EQ_STR(b_load(a, &g, "-gpgpu_shader_core_pipeline 4096:32", NULL),
                 "x.config:1:1: error: -gpgpu_shader_core_pipeline: threads per SM must be a multiple of 32 in [32, "
                 "2048], got 4096");
    CHECK_EQ_STR(b_load(a, &g, "-gpgpu_shader_core_pipeline 2048:32", NULL), "");
    CHECK_EQ_INT(g.max_warps_per_core, 64);
    arena_free(a);
}

/* ---- config files: size limit, devices, directories ---------------------------- */

static char b_dir[64];

static const char *b_path(const char *name)
{
    static char p[4][256];
    static int k;
    if (!b_dir[0]) {
        snprintf(b_dir, sizeof b_dir, "/tmp/warpsim_bndXXXXXX");
        if (!mkdtemp(b_dir))
            abort();
    }
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", b_dir, name);
    return p[k];
}

static void b_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fputs(text, f);
    fclose(f);
}

/* A file of `bytes` blanks (valid config text: nothing in it). */
static void b_write_blank(const char *path, size_t bytes)
{
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    static char blk[65536];
    memset(blk, ' ', sizeof blk);
    blk[sizeof blk - 1] = '\n';
    for (size_t n = 0; n < bytes; n += sizeof blk)
        fwrite(blk, 1, bytes - n < sizeof blk ? bytes - n : sizeof blk, f);
    fclose(f);
}

static const char *b_file_err(const char *path)
{
    static char buf[2048];
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    cfg_init(&c, a);
    buf[0] = '\0';
    if (cfg_load_file(&c, path, &err))
        snprintf(buf, sizeof buf, "%s", b_fmt(&err));
    arena_free(a);
    return buf;
}

TEST(config_file_size_limit_and_devices)
{
    char want[2048], inc[256];
    /* /dev/zero: reading stops at the limit */
    CHECK_EQ_STR(b_file_err("/dev/zero"),
                 "/dev/zero: error: the file is larger than 16 MiB (the limit for a config file; reading stopped "
                 "there)");
    snprintf(inc, sizeof inc, "%s", b_path("inc_zero.config"));
    b_write(inc, "-gpgpu_n_clusters 4\n  -config /dev/zero\n");
    snprintf(want, sizeof want,
             "%s:2:3: error: -config: '/dev/zero' is larger than 16 MiB (the limit for a config file; reading stopped "
             "there)",
             inc);
    CHECK_EQ_STR(b_file_err(inc), want);
    /* a regular file one byte over the limit; exactly at the limit is fine */
    const char *big = b_path("big.config");
    b_write_blank(big, (16u << 20) + 1);
    snprintf(want, sizeof want,
             "%s: error: the file is larger than 16 MiB (the limit for a config file; reading stopped there)", big);
    CHECK_EQ_STR(b_file_err(big), want);
    b_write_blank(big, 16u << 20);
    CHECK_EQ_STR(b_file_err(big), "");
    /* includes together: five 16 MiB includes pass the 64 MiB of one load */
    snprintf(inc, sizeof inc, "%s", b_path("five.config"));
    b_write(inc, "-config big.config\n-config big.config\n-config big.config\n-config big.config\n"
                 "-config big.config\n");
    snprintf(want, sizeof want,
             "%s:4:1: error: -config: '%s/big.config' takes this config and its includes beyond 64 MiB (the limit; "
             "reading stopped there)",
             inc, b_dir);
    CHECK_EQ_STR(b_file_err(inc), want);
    unlink(big);
    unlink(inc);
    unlink(b_path("inc_zero.config"));
}

TEST(config_directory_is_a_directory)
{
    char want[2048], inc[256], sub[256];
    snprintf(sub, sizeof sub, "%s", b_path("sub.d"));
    REQUIRE(mkdir(sub, 0700) == 0 || access(sub, F_OK) == 0);
    snprintf(want, sizeof want, "%s: error: is a directory, not a config file", sub);
    CHECK_EQ_STR(b_file_err(sub), want);
    snprintf(inc, sizeof inc, "%s", b_path("inc_dir.config"));
    b_write(inc, "# a directory\n-gpgpu_n_clusters 4   -config sub.d\n");
    snprintf(want, sizeof want, "%s:2:23: error: -config: '%s/sub.d' is a directory, not a config file", inc, b_dir);
    CHECK_EQ_STR(b_file_err(inc), want);
    unlink(inc);
    rmdir(sub);
    rmdir(b_dir);
}

/* ---- policy parameters at load time ------------------------------------------------ */

/* Load text + overrides, then policy_params_check with the machine's selected policies;
   formatted error or "" and the warnings in *warned (malloc'ed). */
static const char *b_policy(const char *text, const char *const *sets, char **warned)
{
    static char buf[2048];
    struct arena *a = arena_new(0);
    struct gpu_config g;
    buf[0] = '\0';
    struct cfg c;
    struct cfg_error err;
    cfg_init(&c, a);
    if (text && cfg_load_text(&c, text, strlen(text), "p.config", &err))
        goto fail;
    for (size_t i = 0; sets && sets[i]; i++) {
        char name[256];
        const char *eq = strchr(sets[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - sets[i]), sets[i]);
        cfg_set(&c, name, eq + 1, "--set");
    }
    if (gpu_config_load(&g, &c, &err))
        goto fail;
    struct policy_machine pm = {g.n_cores, g.max_cta_per_core, g.max_warps_per_core, g.num_sched_per_core};
    size_t len = 0;
    FILE *w = open_memstream(warned, &len);
    int rc = policy_params_check(&c, g.scheduler, g.cta_scheduler, &pm, w, &err);
    fclose(w);
    if (rc == 0 && cfg_check_unused(&c, 0, NULL, &err) == 0) {
        arena_free(a);
        return buf;
    }
fail:
    snprintf(buf, sizeof buf, "%s", b_fmt(&err));
    arena_free(a);
    return buf;
}

TEST(policy_parameters_checked_at_load)
{
    char *w = NULL;
    const char *s1[] = {"gpgpu_scheduler=swl", "warp_sched.swl.limit=0", NULL};
    CHECK_EQ_STR(b_policy(NULL, s1, &w),
                 "--set: error: -warp_sched.swl.limit: expected an integer in [1, 64], got '0'");
    free(w);
    const char *s2[] = {"warpsim_cta_scheduler=static", "cta_sched.static.n=100000", NULL};
    CHECK_EQ_STR(b_policy(NULL, s2, &w),
                 "--set: error: -cta_sched.static.n: expected an integer in [0, 64], got '100000'");
    free(w);
    /* above the machine's CTA limit: n could never bind */
    CHECK_EQ_STR(b_policy("-warpsim_cta_scheduler static\n-cta_sched.static.n 9\n", NULL, &w),
                 "p.config:2:1: error: -cta_sched.static.n: 9 exceeds the CTAs an SM may hold (-gpgpu_shader_cta 8); "
                 "0 = N, the most the resources allow");
    free(w);
    CHECK_EQ_STR(b_policy("-warpsim_cta_scheduler static -gpgpu_shader_cta 16\n-cta_sched.static.n 9\n", NULL, &w), "");
    free(w);
    CHECK_EQ_STR(b_policy("-warpsim_cta_scheduler dyncta\n  -cta_sched.dyncta.period 0\n", NULL, &w),
                 "p.config:2:3: error: -cta_sched.dyncta.period: expected an integer in [1, 4000000000], got '0'");
    free(w);
    /* the cross-check of DYNCTA's thresholds, at whichever of them the config set */
    CHECK_EQ_STR(b_policy("-warpsim_cta_scheduler dyncta\n-cta_sched.dyncta.t_mem_l 500\n", NULL, &w),
                 "p.config:2:1: error: -cta_sched.dyncta.t_mem_l: 500 exceeds t_mem_h (384): C_mem below t_mem_l grows "
                 "n, at or above t_mem_h shrinks it (Algorithm 1), so t_mem_l <= t_mem_h");
    free(w);
    CHECK_EQ_STR(b_policy("-warpsim_cta_scheduler dyncta\n\n -cta_sched.dyncta.t_mem_h 100\n", NULL, &w),
                 "p.config:3:2: error: -cta_sched.dyncta.t_mem_l: 128 exceeds t_mem_h (100): C_mem below t_mem_l grows "
                 "n, at or above t_mem_h shrinks it (Algorithm 1), so t_mem_l <= t_mem_h");
    free(w);
    const char *s3[] = {"warpsim_cta_scheduler=dyncta", "cta_sched.dyncta.t_mem_l=0", "cta_sched.dyncta.t_mem_h=0",
                        "cta_sched.dyncta.t_idle=4000000000", "cta_sched.dyncta.period=256", NULL};
    CHECK_EQ_STR(b_policy(NULL, s3, &w), "");   /* the tests' "driven to pause" setting */
    CHECK_EQ_STR(w, "");
    free(w);
}

TEST(parameter_of_an_unselected_policy_warns)
{
    char *w = NULL;
    const char *s1[] = {"cta_sched.dyncta.t_idle=5", NULL};
    CHECK_EQ_STR(b_policy(NULL, s1, &w), "");
    CHECK_EQ_STR(w, "--set: warning: -cta_sched.dyncta.t_idle: a parameter of CTA scheduler 'dyncta', which is not "
                    "selected (-warpsim_cta_scheduler is rr): ignored\n");
    free(w);
    /* one line per parameter (its last occurrence), from a file with its position; a bad value of an
       unselected policy is not checked */
    CHECK_EQ_STR(b_policy("-gpgpu_scheduler gto\n-warp_sched.swl.limit 8\n  -warp_sched.swl.limit 0\n"
                          "-warp_sched.gto.x 1\n",
                          NULL, &w),
                 "p.config:4:1: error: -warp_sched.gto.x: gto has no such parameter (its parameters: none)");
    free(w);
    CHECK_EQ_STR(b_policy("-gpgpu_scheduler gto\n-warp_sched.swl.limit 8\n  -warp_sched.swl.limit 0\n", NULL, &w), "");
    CHECK_EQ_STR(w, "p.config:3:3: warning: -warp_sched.swl.limit: a parameter of warp scheduler 'swl', which is not "
                    "selected (-gpgpu_scheduler is gto): ignored\n");
    free(w);
    /* the selected policy's parameters are silent */
    const char *s2[] = {"gpgpu_scheduler=swl", "warp_sched.swl.limit=4", NULL};
    CHECK_EQ_STR(b_policy(NULL, s2, &w), "");
    CHECK_EQ_STR(w, "");
    free(w);
}

TEST_MAIN()
