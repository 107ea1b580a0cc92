/* test_gpu_config.c - the machine option table, presets, derived values, DRAM timing parser. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/dram.h"
#include "sys/gpu_config.h"
#include "test.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

/* Load a preset (path relative to the source dir) plus extra text; returns the
   formatted error or "" (and checks that nothing was left unused). */
static const char *g_load(struct arena *a, struct gpu_config *g, const char *preset, const char *extra)
{
    static char buf[1024];
    struct cfg c;
    struct cfg_error err;
    cfg_init(&c, a);
    buf[0] = '\0';
    if (preset) {
        char path[512];
        snprintf(path, sizeof path, "%s/configs/%s", WARPSIM_SOURCE_DIR, preset);
        if (cfg_load_file(&c, path, &err))
            goto fail;
    }
    if (extra && cfg_load_text(&c, extra, strlen(extra), "x.config", &err))
        goto fail;
    if (gpu_config_load(g, &c, &err) || cfg_check_unused(&c, 0, NULL, &err))
        goto fail;
    return buf;
fail:
    cfg_error_format(&err, buf, sizeof buf);
    return buf;
}

/* The effective config as text (malloc'ed). */
static char *g_text(const struct gpu_config *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    gpu_config_write(f, g);
    fclose(f);
    return buf;
}

/* Every field equal: strings by content, everything else by bytes. */
static int g_same(const struct gpu_config *x, const struct gpu_config *y)
{
    struct gpu_config a = *x, b = *y;
    for (size_t i = 0; i < gpu_config_nopts; i++) {
        if (gpu_config_opts[i].type != CFG_STRING)
            continue;
        const char **pa = (const char **)(void *)((char *)&a + gpu_config_opts[i].offset);
        const char **pb = (const char **)(void *)((char *)&b + gpu_config_opts[i].offset);
        if (strcmp(*pa, *pb) != 0)
            return 0;
        *pa = *pb = NULL;
    }
    return memcmp(&a, &b, sizeof a) == 0;
}

static void g_check_gtx480(const struct gpu_config *g)
{
    CHECK_EQ_INT(g->n_cores, 15);
    CHECK_EQ_INT(g->max_threads_per_core, 1536);
    CHECK_EQ_INT(g->warp_size, 32);
    CHECK_EQ_INT(g->max_warps_per_core, 48);
    CHECK_EQ_INT(g->max_cta_per_core, 8);
    CHECK_EQ_INT(g->num_sched_per_core, 2);
    CHECK_EQ_INT(g->registers_per_core, 32768);
    CHECK_EQ_INT(g->shmem_size, 48 * 1024);
    CHECK_EQ_INT(g->n_mem, 6);
    CHECK_EQ_INT(g->n_sub_partitions, 6);
    CHECK_EQ_U64(g->ps_core, 1429);   /* 1e6 / 700 = 1428.57 */
    CHECK_EQ_U64(g->ps_icnt, 1429);
    CHECK_EQ_U64(g->ps_l2, 1429);
    CHECK_EQ_U64(g->ps_dram, 1082);   /* 1e6 / 924 = 1082.25 */
    CHECK_EQ_INT(g->dram.nbk, 16);
    CHECK_EQ_INT(g->dram.nbkgrp, 4);
    CHECK_EQ_INT(g->dram.tCCD, 2);
    CHECK_EQ_INT(g->dram.tCCDL, 3);
    CHECK_EQ_INT(g->dram.tRRD, 6);
    CHECK_EQ_INT(g->dram.tRCD, 12);
    CHECK_EQ_INT(g->dram.tRAS, 28);
    CHECK_EQ_INT(g->dram.tRP, 12);
    CHECK_EQ_INT(g->dram.tRC, 40);
    CHECK_EQ_INT(g->dram.tCL, 12);
    CHECK_EQ_INT(g->dram.tWL, 4);
    CHECK_EQ_INT(g->dram.tCDLR, 5);
    CHECK_EQ_INT(g->dram.tWR, 12);
    CHECK_EQ_INT(g->dram.tRTPL, 2);
    CHECK_EQ_INT(g->lat_int[OPL_ADD], 4);
    CHECK_EQ_INT(g->lat_int[OPL_DIV], 145);
    CHECK_EQ_INT(g->ii_int[OPL_MUL], 2);
    CHECK_EQ_INT(g->lat_fp[OPL_DIV], 39);
    CHECK_EQ_INT(g->ii_fp[OPL_DIV], 4);
    CHECK_EQ_INT(g->lat_dp[OPL_MAX], 19);
    CHECK_EQ_INT(g->ii_dp[OPL_DIV], 130);
    CHECK_EQ_STR(g->cache_dl1, "32:128:4,L:L:m:N:H,A:32:8,8");
    CHECK_EQ_STR(g->cache_dl2, "64:128:16,L:B:m:W:L,A:256:64,16");
    CHECK_EQ_STR(g->scheduler, "lrr");
    CHECK_EQ_STR(g->cta_scheduler, "rr");
    CHECK_EQ_INT(g->icnt_flit_size, 32);
    CHECK_EQ_INT(g->dram_burst_length, 8);
    CHECK_EQ_INT(g->dram_data_command_freq_ratio, 4);
    CHECK_EQ_INT(g->frfcfs_queue_size, 16);
}

TEST(defaults_are_the_gtx480)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    CHECK_EQ_STR(g_load(a, &g, NULL, NULL), "");
    g_check_gtx480(&g);
    arena_free(a);
}

/* The built-in defaults are the gtx480 preset, every option. */
TEST(preset_gtx480_equals_defaults)
{
    struct arena *a = arena_new(0);
    struct gpu_config d, g;
    CHECK_EQ_STR(g_load(a, &d, NULL, NULL), "");
    CHECK_EQ_STR(g_load(a, &g, "gtx480.config", NULL), "");
    g_check_gtx480(&g);
    CHECK(g_same(&d, &g));
    char *td = g_text(&d), *tg = g_text(&g);
    CHECK_EQ_STR(td, tg);
    free(td);
    free(tg);
    arena_free(a);
}

/* The calibration documented in configs/gtx480.config and docs/config.md:
   unloaded L2 hit ~120 and DRAM row hit ~220 core cycles. */
TEST(preset_gtx480_latency_arithmetic)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    REQUIRE(g_load(a, &g, "gtx480.config", NULL)[0] == '\0');
    unsigned reply_flits = 128 / g.icnt_flit_size;
    CHECK_EQ_INT(g.l2_rop_latency, 0);
    CHECK_EQ_INT(g.dram_latency, 0);
    unsigned l2 = g.l1d_latency + (1 + g.icnt_latency) + 1 + g.l2_hit_latency + (reply_flits + g.icnt_latency);
    CHECK_EQ_INT(l2, 119);
    uint64_t dram_ps =
        (uint64_t)(g.dram.tCL + g.dram_burst_length / g.dram_data_command_freq_ratio + g.dram_return_latency) *
        g.ps_dram;
    double dram = g.l1d_latency + (1 + g.icnt_latency) + 1 + (double)dram_ps / (double)g.ps_core + 1 +
                  (reply_flits + g.icnt_latency);
    CHECK_NEAR(dram, 220.0, 0.5);
    arena_free(a);
}

/* A config in GPGPU-Sim's terms (it sets -gpgpu_l2_rop_latency or -dram_latency) gets GPGPU-Sim's
   latency model alone: warpsim's hit pipeline and return path drop to 0 unless it sets them too.  The
   GTX480's unloaded latencies through GPGPU-Sim's queues: ROP 100 core cycles before the L2 (an L2 hit
   119, as the preset's), DRAM latency 89 core cycles before the DRAM scheduler (a row hit ~220). */
TEST(gpgpusim_terms_latency_arithmetic)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    REQUIRE(g_load(a, &g, NULL, "-gpgpu_l2_rop_latency 100\n-dram_latency 89\n")[0] == '\0');
    CHECK_EQ_INT(g.l2_hit_latency, 0);
    CHECK_EQ_INT(g.dram_return_latency, 0);
    unsigned reply_flits = 128 / g.icnt_flit_size;
    unsigned l2 = g.l1d_latency + (1 + g.icnt_latency) + g.l2_rop_latency + 1 + (reply_flits + g.icnt_latency);
    CHECK_EQ_INT(l2, 119);
    double dram_core = (double)((uint64_t)(g.dram.tCL + g.dram_burst_length / g.dram_data_command_freq_ratio) *
                                g.ps_dram) / (double)g.ps_core;
    double dram = g.l1d_latency + (1 + g.icnt_latency) + g.l2_rop_latency + 1 + g.dram_latency + dram_core + 1 +
                  (reply_flits + g.icnt_latency);
    CHECK_NEAR(dram, 220.0, 0.5);
    /* one of the two is enough; a warpsim latency the config sets is kept */
    REQUIRE(g_load(a, &g, NULL, "-dram_latency 50\n-warpsim_dram_return_latency 7\n")[0] == '\0');
    CHECK_EQ_INT(g.l2_hit_latency, 0);
    CHECK_EQ_INT(g.dram_return_latency, 7);
    CHECK_EQ_INT(g.l2_rop_latency, 0);
    arena_free(a);
}

/* Every preset that sets a latency keeps warpsim's own (hit pipeline, return
   path) and leaves GPGPU-Sim's queues off, so its timing is what it was
   before -gpgpu_l2_rop_latency and -dram_latency took GPGPU-Sim's meaning. */
TEST(presets_keep_their_latencies)
{
    static const struct {
        const char *file;
        unsigned hit, ret;
    } want[] = {{"gtx480.config", 100, 250},         {"gtx480-l1d16way.config", 100, 250},
                {"dyncta-30core.config", 97, 220},   {"las-15sm.config", 100, 250},
                {"dyncta-56core-mesh.config", 97, 220}, {"dyncta-110core-mesh.config", 97, 220},
                {"hetero-7tile.config", 100, 250},   {"hetero-small.config", 100, 250},
                {"gtx480-gpgpusim4.config", 120, 291}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct arena *a = arena_new(0);
        struct gpu_config g;
        const char *e = g_load(a, &g, want[i].file, NULL);
        if (e[0]) {
            T_FAIL_("%s: %s", want[i].file, e);
        } else {
            CHECK_EQ_INT(g.l2_hit_latency, want[i].hit);
            CHECK_EQ_INT(g.dram_return_latency, want[i].ret);
            CHECK_EQ_INT(g.l2_rop_latency, 0);
            CHECK_EQ_INT(g.dram_latency, 0);
        }
        arena_free(a);
    }
}

TEST(preset_gtx480_l1d16way)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    CHECK_EQ_STR(g_load(a, &g, "gtx480-l1d16way.config", NULL), "");
    CHECK_EQ_STR(g.cache_dl1, "8:128:16,L:L:m:N:L,A:32:8,8");
    CHECK_EQ_INT(g.n_cores, 15);
    CHECK_EQ_INT(g.max_warps_per_core, 48);
    CHECK_EQ_STR(g.cache_dl2, "64:128:16,L:B:m:W:L,A:256:64,16");
    arena_free(a);
}

TEST(preset_dyncta_30core)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    CHECK_EQ_STR(g_load(a, &g, "dyncta-30core.config", NULL), "");
    CHECK_EQ_INT(g.n_clusters, 10);
    CHECK_EQ_INT(g.n_cores_per_cluster, 3);
    CHECK_EQ_INT(g.n_cores, 30);
    CHECK_EQ_INT(g.max_threads_per_core, 1024);
    CHECK_EQ_INT(g.max_warps_per_core, 32);
    CHECK_EQ_INT(g.registers_per_core, 32684);
    CHECK_EQ_INT(g.shmem_size, 32768);
    CHECK_EQ_INT(g.simd_width, 8);
    CHECK_EQ_STR(g.scheduler, "lrr");
    CHECK_EQ_INT(g.n_mem, 8);
    CHECK_EQ_INT(g.n_sub_partitions, 8);
    CHECK_EQ_INT(g.icnt_flit_size, 16);
    CHECK_EQ_INT(g.frfcfs_queue_size, 128);
    CHECK_EQ_INT(g.dram_burst_length, 4);
    CHECK_EQ_INT(g.dram_data_command_freq_ratio, 2);
    CHECK_EQ_U64(g.ps_core, 769);     /* 1300 MHz */
    CHECK_EQ_U64(g.ps_icnt, 1538);    /* 650 MHz */
    CHECK_EQ_U64(g.ps_l2, 1538);
    CHECK_EQ_U64(g.ps_dram, 1250);    /* 800 MHz */
    CHECK_EQ_INT(g.dram.nbk, 4);
    CHECK_EQ_INT(g.dram.nbkgrp, 1);
    CHECK_EQ_INT(g.dram.tCL, 10);
    CHECK_EQ_INT(g.dram.tRP, 10);
    CHECK_EQ_INT(g.dram.tRC, 35);
    CHECK_EQ_INT(g.dram.tRAS, 25);
    CHECK_EQ_INT(g.dram.tRCD, 12);
    CHECK_EQ_INT(g.dram.tRRD, 8);
    CHECK_EQ_INT(g.dram.tCDLR, 6);
    CHECK_EQ_INT(g.dram.tWR, 11);
    CHECK_EQ_INT(g.dram.tCCDL, 0);
    CHECK_EQ_INT(g.dram.tRTPL, 0);
    CHECK_EQ_STR(g.cache_dl1, "64:64:8,L:L:m:N:L,A:64:8,8");      /* 32 KB 8-way 64 B, 64 MSHRs */
    CHECK_EQ_STR(g.cache_dl2, "256:64:16,L:B:m:W:L,A:256:64,16"); /* 256 KB 16-way 64 B */
    CHECK_EQ_INT(g.ii_dp[OPL_ADD], 32);
    arena_free(a);
}

TEST(preset_las_15sm)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    CHECK_EQ_STR(g_load(a, &g, "las-15sm.config", NULL), "");
    CHECK_EQ_INT(g.n_cores, 15);
    CHECK_EQ_INT(g.max_warps_per_core, 48);
    CHECK_EQ_INT(g.max_cta_per_core, 8);
    CHECK_EQ_STR(g.scheduler, "gto");
    CHECK_EQ_STR(g.cta_scheduler, "rr");
    CHECK_EQ_INT(g.n_mem, 6);
    CHECK_EQ_INT(g.n_sub_partitions, 12);
    CHECK_EQ_STR(g.cache_dl2, "64:128:8,L:B:m:W:L,A:256:64,16");   /* 12 x 64 KB = 768 KB */
    CHECK_EQ_INT(g.frfcfs_queue_size, 16);
    CHECK_EQ_INT(g.dram.tRRD, 6);
    CHECK_EQ_INT(g.dram.tRAS, 28);
    arena_free(a);
}

TEST(round_trip_every_preset)
{
    static const char *const presets[] = {"gtx480.config", "gtx480-l1d16way.config", "dyncta-30core.config",
                                          "las-15sm.config", "dyncta-56core-mesh.config",
                                          "dyncta-110core-mesh.config", "gtx480-gpgpusim4.config"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        struct arena *a = arena_new(0);
        struct gpu_config g, back;
        REQUIRE(g_load(a, &g, presets[i], NULL)[0] == '\0');
        char *text = g_text(&g);
        CHECK_EQ_STR(g_load(a, &back, NULL, text), "");
        if (!g_same(&g, &back))
            T_FAIL_("%s: written config reads back differently", presets[i]);
        char *again = g_text(&back);
        CHECK_EQ_STR(again, text);
        free(text);
        free(again);
        arena_free(a);
    }
}

TEST(overrides_win_over_preset)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    struct cfg c;
    struct cfg_error err;
    cfg_init(&c, a);
    REQUIRE(cfg_load_file(&c, WARPSIM_SOURCE_DIR "/configs/gtx480.config", &err) == 0);
    REQUIRE(cfg_set(&c, "gpgpu_n_clusters", "4", NULL) == 0);
    REQUIRE(cfg_set(&c, "gpgpu_clock_domains", "1000:500:250:2000", NULL) == 0);
    REQUIRE(gpu_config_load(&g, &c, &err) == 0);
    CHECK_EQ_INT(g.n_cores, 4);
    CHECK_EQ_U64(g.ps_core, 1000);
    CHECK_EQ_U64(g.ps_icnt, 2000);
    CHECK_EQ_U64(g.ps_l2, 4000);
    CHECK_EQ_U64(g.ps_dram, 500);
    REQUIRE(cfg_set(&c, "gpgpu_shader_cta", "0", NULL) == 0);
    CHECK_EQ_INT(gpu_config_load(&g, &c, &err), -1);
    char buf[512];
    cfg_error_format(&err, buf, sizeof buf);
    CHECK_EQ_STR(buf, "command line: error: -gpgpu_shader_cta: expected an integer in [1, 64], got '0'");
    arena_free(a);
}

TEST(bad_values_name_option_and_position)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"-gpgpu_n_clusters x", "x.config:1:1: error: -gpgpu_n_clusters: expected an integer in [1, 256], got 'x'"},
        {"\n  -gpgpu_shader_core_pipeline 1536:16",
         "x.config:2:3: error: -gpgpu_shader_core_pipeline: warp size must be 32 (the executor runs 32-thread warps), "
         "got 16"},
        {"-gpgpu_shader_core_pipeline 1536",
         "x.config:1:1: error: -gpgpu_shader_core_pipeline: expected '<threads>:<warp size>', got '1536'"},
        {"-gpgpu_shader_core_pipeline 1000:32",
         "x.config:1:1: error: -gpgpu_shader_core_pipeline: threads per SM must be a multiple of 32 in [32, 2048], "
         "got 1000"},
        {"-ptx_opcode_latency_int 4,13,4,5",
         "x.config:1:1: error: -ptx_opcode_latency_int: expected 5 or 6 comma-separated integers in [1, 10000] "
         "(ADD,MAX,MUL,MAD,DIV[,SHFL]), got '4,13,4,5'"},
        {"-ptx_opcode_initiation_int 1,2,2,1,8,4,4",
         "x.config:1:1: error: -ptx_opcode_initiation_int: expected 5 or 6 comma-separated integers in [1, 10000] "
         "(ADD,MAX,MUL,MAD,DIV[,SHFL]), got '1,2,2,1,8,4,4'"},
        {"-gpgpu_scheduler two_level_active:6:0",
         "x.config:1:1: error: -gpgpu_scheduler: expected 'two_level_active:<active warps>:<inner order>:<outer "
         "order>', got 'two_level_active:6:0'"},
        {"-ptx_opcode_initiation_fp 1,2,1,1,4,5",
         "x.config:1:1: error: -ptx_opcode_initiation_fp: expected 5 comma-separated integers in [1, 10000] "
         "(ADD,MAX,MUL,MAD,DIV), got '1,2,1,1,4,5'"},
        {"-ptx_opcode_latency_dp 8,0,8,8,330",
         "x.config:1:1: error: -ptx_opcode_latency_dp: expected 5 comma-separated integers in [1, 10000] "
         "(ADD,MAX,MUL,MAD,DIV), got '8,0,8,8,330'"},
        {"-gpgpu_clock_domains 700:700:700",
         "x.config:1:1: error: -gpgpu_clock_domains: expected 4 clocks in MHz in [1, 100000] as "
         "'<core>:<icnt>:<l2>:<dram>', got '700:700:700'"},
        {"-gpgpu_clock_domains 700:0:700:924",
         "x.config:1:1: error: -gpgpu_clock_domains: expected 4 clocks in MHz in [1, 100000] as "
         "'<core>:<icnt>:<l2>:<dram>', got '700:0:700:924'"},
        {"-gpgpu_dram_timing_opt nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:tFAW=20",
         "x.config:1:1: error: -gpgpu_dram_timing_opt: unknown key 'tFAW' (expected nbk, CCD, RRD, RCD, RAS, RP, RC, "
         "CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL) (at character 70)"},
        {"-gpgpu_dram_timing_opt nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:WL=4:CDLR=5:WR=12",
         "x.config:1:1: error: -gpgpu_dram_timing_opt: missing key 'CL' (at character 63)"},
        {"-gpgpu_dram_timing_opt nbk=16:CCD=2:RRD=6:RCD=x:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
         "x.config:1:1: error: -gpgpu_dram_timing_opt: RCD: expected an integer in [0, 1000], got 'x' (at character "
         "24)"},
        {"-gpgpu_n_sub_partition_per_mchannel 3",
         "x.config:1:1: error: -gpgpu_n_sub_partition_per_mchannel: expected a power of two, got 3"},
        {"-gpgpu_dram_burst_length 6",
         "x.config:1:1: error: -gpgpu_dram_burst_length (6) must be a multiple of -dram_data_command_freq_ratio (4)"},
        {"-warpsim_simd_width 12", "x.config:1:1: error: -warpsim_simd_width: expected a divisor of 32, got 12"},
        {"-warpsim_coalesce_sector 48",
         "x.config:1:1: error: -warpsim_coalesce_sector: expected 0 or a power of two in [4, 128] (the L1D line), "
         "got 48"},
        {"-warpsim_icnt_input_buffer 4",
         "x.config:1:1: error: -warpsim_icnt_input_buffer: 4 flits cannot hold a 128-byte line in 32-byte flits "
         "(needs 5)"},
        {"-icnt_flit_size 8",
         "x.config:1:1: error: -warpsim_icnt_input_buffer: 16 flits cannot hold a 128-byte line in 8-byte flits "
         "(needs 17)"},
        {"-gpgpu_cache:dl2 64:64:16,L:B:m:W:L,A:256:64,16",
         "x.config:1:1: error: -gpgpu_cache:dl1: line size 128 exceeds the L2 line size 64 (-gpgpu_cache:dl2)"},
        {"-gpgpu_scheduler \"\"", "x.config:1:1: error: -gpgpu_scheduler: empty policy name"},
        {"-gpgpu_num_sched_per_core 4 -gpgpu_shader_core_pipeline 96:32",
         "x.config:1:1: error: -gpgpu_num_sched_per_core (4) exceeds the warps per SM (3)"},
        {"-gpgpu_n_clusters 15 -gpgpu_nclusters 2", "x.config:1:22: error: unknown option '-gpgpu_nclusters' (did you mean '-gpgpu_n_clusters'?)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_EQ_STR(g_load(a, &g, NULL, cases[i].text), cases[i].want);
    /* errors from strings other developers parse: the option and its position are ours */
    const char *e = g_load(a, &g, NULL, "-a 1\n-gpgpu_cache:dl1 32:x:4,L:L:m:N:H,A:32:8,8");
    CHECK(strncmp(e, "x.config:2:1: error: -gpgpu_cache:dl1: ", 39) == 0);
    e = g_load(a, &g, NULL, "-gpgpu_mem_addr_mapping nonsense");
    CHECK(strncmp(e, "x.config:1:1: error: -gpgpu_mem_addr_mapping: ", 46) == 0);
    arena_free(a);
}

TEST(dram_timing_parse_direct)
{
    struct dram_timing t;
    char msg[256];
    unsigned col = 0;
    REQUIRE(dram_timing_parse("nbk=8:CCD=1:RRD=2:RCD=3:RAS=4:RP=5:RC=6:CL=7:WL=8:CDLR=9:WR=10:CCDL=11:RTPL=12:nbkgrp=2",
                              &t, msg, sizeof msg, &col) == 0);
    CHECK_EQ_INT(t.nbk, 8);
    CHECK_EQ_INT(t.tCCD, 1);
    CHECK_EQ_INT(t.tRRD, 2);
    CHECK_EQ_INT(t.tRCD, 3);
    CHECK_EQ_INT(t.tRAS, 4);
    CHECK_EQ_INT(t.tRP, 5);
    CHECK_EQ_INT(t.tRC, 6);
    CHECK_EQ_INT(t.tCL, 7);
    CHECK_EQ_INT(t.tWL, 8);
    CHECK_EQ_INT(t.tCDLR, 9);
    CHECK_EQ_INT(t.tWR, 10);
    CHECK_EQ_INT(t.tCCDL, 11);
    CHECK_EQ_INT(t.tRTPL, 12);
    CHECK_EQ_INT(t.nbkgrp, 2);

    CHECK_EQ_INT(dram_timing_parse("nbk=8:CCD=1:CL=7:CL=8", &t, msg, sizeof msg, &col), -1);
    CHECK_EQ_STR(msg, "key 'CL' given twice");
    CHECK_EQ_INT(col, 18);
    CHECK_EQ_INT(dram_timing_parse("nbk=8:cl=7", &t, msg, sizeof msg, &col), -1);   /* case-sensitive */
    CHECK(strncmp(msg, "unknown key 'cl'", 16) == 0);
    CHECK_EQ_INT(col, 7);
    CHECK_EQ_INT(dram_timing_parse("nbk=8:CCD", &t, msg, sizeof msg, &col), -1);
    CHECK_EQ_STR(msg, "expected 'key=value', got 'CCD'");
    CHECK_EQ_INT(col, 7);
    CHECK_EQ_INT(dram_timing_parse("nbk=0:CCD=1", &t, msg, sizeof msg, &col), -1);
    CHECK_EQ_STR(msg, "nbk: expected an integer in [1, 64], got '0'");
    CHECK_EQ_INT(col, 5);
    CHECK_EQ_INT(dram_timing_parse("nbk=6:CCD=1:RRD=2:RCD=3:RAS=4:RP=5:RC=6:CL=7:WL=8:CDLR=9:WR=10:nbkgrp=4", &t, msg,
                                   sizeof msg, &col),
                 -1);
    CHECK_EQ_STR(msg, "nbk (6) must be a multiple of nbkgrp (4)");
    CHECK_EQ_INT(dram_timing_parse("", &t, msg, sizeof msg, &col), -1);
    CHECK_EQ_INT(col, 1);
}

TEST(option_table_is_complete_and_listed)
{
    /* every option has a default, a doc line and a unique name; cfg_list prints them all */
    for (size_t i = 0; i < gpu_config_nopts; i++) {
        CHECK(gpu_config_opts[i].def != NULL);
        CHECK(gpu_config_opts[i].doc != NULL && gpu_config_opts[i].doc[0]);
        for (size_t k = 0; k < i; k++)
            if (strcmp(gpu_config_opts[i].name, gpu_config_opts[k].name) == 0)
                T_FAIL_("duplicate option %s", gpu_config_opts[i].name);
    }
    CHECK_EQ_INT(gpu_config_nopts, 109);   /* + -warpsim_l1d_repl, -warpsim_l2_repl, the two bypass policies, bypass_mshr;
                                            + -warpsim_l1{i,c,t}_repl, -warpsim_l1{i,c,t}_bypass; + -warpsim_threads;
                                            + -warpsim_cm; + -warpsim_icnt and nine -warpsim_mesh_*;
                                            + thirteen -warpsim_cpu_*, -warpsim_mesh_cpu_nodes,
                                            -warpsim_mc_partition; + -gpgpu_max_insn, -gpgpu_max_cta;
                                            + -gpgpu_n_mem_per_ctrlr; + -warpsim_l2_hit_latency,
                                            -warpsim_dram_return_latency; + -warpsim_icnt_vcs,
                                            -warpsim_icnt_input_speedup; + -warpsim_cta_pause_stops;
                                            + -warpsim_c_idle_fetch */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f != NULL);
    cfg_list(f, gpu_config_opts, gpu_config_nopts);
    fclose(f);
    CHECK(strstr(buf, "-gpgpu_dram_timing_opt ") != NULL);
    CHECK(strstr(buf, "-gpgpu_clock_domains ") != NULL);
    free(buf);
}

/* ---- GPGPU-Sim 4.x configs ---------------------------------------------------- */

/* Load text with gpu_config_load only (policy parameters stay for the GPU to take). */
static const char *g_load_raw(struct arena *a, struct cfg *c, struct gpu_config *g, const char *text)
{
    static char buf[1024];
    struct cfg_error err;
    cfg_init(c, a);
    buf[0] = '\0';
    if (cfg_load_text(c, text, strlen(text), "x.config", &err) || gpu_config_load(g, c, &err))
        cfg_error_format(&err, buf, sizeof buf);
    return buf;
}

TEST(gpgpusim4_syntax_loads)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    struct gpu_config g;
    CHECK_EQ_STR(g_load_raw(a, &c, &g,
                            "-gpgpu_ptx_sim_mode 0\n"
                            "-ptx_opcode_latency_int 4,13,4,5,145,32\n"
                            "-ptx_opcode_initiation_int 1,2,2,1,8,4\n"
                            "-gpgpu_cache:dl1  N:32:128:4,L:L:m:N:H,S:64:8,8\n"
                            "-gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32\n"
                            "-gpgpu_tex_cache:l1 N:4:128:24,L:R:m:N:L,T:128:4,128:2\n"
                            "-gpgpu_scheduler two_level_active:6:0:1\n"
                            "-gpgpu_n_mem_per_ctrlr 2\n"
                            "-gpgpu_dram_buswidth 4\n"
                            "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
                            "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
                            "-gpgpu_l2_rop_latency 120\n"
                            "-dram_latency 100\n"
                            "-power_simulation_enabled 1   # not modelled\n"),
                 "");
    /* GPGPU-Sim's meaning: ROP and DRAM latency queues in core cycles, nothing of warpsim's on top */
    CHECK_EQ_INT(g.l2_rop_latency, 120);
    CHECK_EQ_INT(g.dram_latency, 100);
    CHECK_EQ_INT(g.l2_hit_latency, 0);
    CHECK_EQ_INT(g.dram_return_latency, 0);
    CHECK_EQ_INT(g.lat_int[OPL_DIV], 145);
    CHECK_EQ_INT(g.ii_int[OPL_MAD], 1);
    CHECK_EQ_INT(g.dram_chip_buswidth, 4);
    CHECK_EQ_INT(g.n_mem_per_ctrlr, 2);
    CHECK_EQ_INT(g.dram_buswidth, 8);
    CHECK_EQ_INT(g.dram.tCL, 12);
    CHECK_EQ_INT(g.dram.tRTPL, 2);
    /* two_level_active:6:0:1 is warpsim's two_level with an active group of 6, placed where it was written */
    CHECK_EQ_STR(g.scheduler, "two_level");
    const struct cfg_entry *p = cfg_find(&c, "warp_sched.two_level.active_size");
    REQUIRE(p != NULL);
    CHECK_EQ_STR(p->value, "6");
    CHECK_EQ_INT(p->line, 7);
    CHECK_EQ_INT(c.e[0].used, CFG_IGNORED);
    CHECK_EQ_INT(cfg_find(&c, "power_simulation_enabled")->used, CFG_IGNORED);
    struct cache_config cc;
    char msg[160];
    unsigned col;
    REQUIRE(cache_config_parse(g.cache_dl1, &cc, msg, sizeof msg, &col) == 0);
    CHECK_EQ_INT(cc.nsets, 32);
    CHECK_EQ_INT(cc.mshr_kind, CM_ASSOC);
    CHECK_EQ_INT(cc.mshr_entries, 64);
    REQUIRE(cache_config_parse(g.cache_tex, &cc, msg, sizeof msg, &col) == 0);
    CHECK_EQ_INT(cc.mshr_kind, CM_FIFO);
    CHECK_EQ_INT(cc.assoc, 24);
    REQUIRE(cache_config_parse(g.cache_dl2, &cc, msg, sizeof msg, &col) == 0);
    CHECK_EQ_INT(cc.assoc, 8);
    CHECK_EQ_INT(cc.miss_queue, 4);
    /* a later explicit parameter wins over the one the scheduler string implies */
    CHECK_EQ_STR(g_load_raw(a, &c, &g,
                            "-gpgpu_scheduler two_level_active:6:0:1\n-warp_sched.two_level.active_size 4\n"),
                 "");
    CHECK_EQ_STR(cfg_find(&c, "warp_sched.two_level.active_size")->value, "4");
    /* warp_limiting:<order>:<warps> is swl with that limit; registered names stay as they are */
    CHECK_EQ_STR(g_load_raw(a, &c, &g, "-gpgpu_scheduler warp_limiting:2:12\n"), "");
    CHECK_EQ_STR(g.scheduler, "swl");
    CHECK_EQ_STR(cfg_find(&c, "warp_sched.swl.limit")->value, "12");
    CHECK_EQ_STR(g_load_raw(a, &c, &g, "-gpgpu_scheduler gto\n"), "");
    CHECK_EQ_STR(g.scheduler, "gto");
    CHECK(cfg_find(&c, "warp_sched.two_level.active_size") == NULL);
    /* six values only where GPGPU-Sim has six */
    CHECK_EQ_STR(g_load_raw(a, &c, &g, "-ptx_opcode_latency_fp 4,13,4,5,39,7\n"),
                 "x.config:1:1: error: -ptx_opcode_latency_fp: expected 5 comma-separated integers in [1, 10000] "
                 "(ADD,MAX,MUL,MAD,DIV), got '4,13,4,5,39,7'");
    arena_free(a);
}

TEST(gpgpusim4_cache_strings)
{
    struct cache_config cc;
    char msg[160];
    unsigned col = 0;
    CHECK_EQ_INT(cache_config_parse("S:1:128:256,L:L:s:N:L,A:256:8,16:0,32", &cc, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(cc.assoc, 256);
    CHECK_EQ_INT(cc.alloc, CA_STREAMING);
    CHECK_EQ_INT(cache_config_parse("N:64:128:16,L:R:f:N:L,S:2:48,4", &cc, msg, sizeof msg, &col), 0);
    CHECK_EQ_INT(cc.mshr_kind, CM_ASSOC);
    CHECK_EQ_INT(cc.mshr_max_merge, 48);
    CHECK_EQ_INT(cache_config_parse("X:32:128:4,L:L:m:N:H,A:32:8,8", &cc, msg, sizeof msg, &col), -1);
    CHECK_EQ_STR(msg, "cache type: unknown letter 'X' (expected N or S)");
    CHECK_EQ_INT(col, 1);
    /* positions stay those of the whole string */
    CHECK_EQ_INT(cache_config_parse("N:32:128:4,L:L:m:N:H,Q:32:8,8", &cc, msg, sizeof msg, &col), -1);
    CHECK_EQ_INT(col, 22);
}

TEST(gpgpusim_ignored_table)
{
    /* an option is either modelled (the machine's table) or ignored, never both; no duplicates */
    CHECK(gpgpusim_ignored_nopts > 150);
    for (size_t i = 0; i < gpgpusim_ignored_nopts; i++) {
        for (size_t k = 0; k < gpu_config_nopts; k++)
            if (strcmp(gpgpusim_ignored_opts[i], gpu_config_opts[k].name) == 0)
                T_FAIL_("-%s is both modelled and ignored", gpgpusim_ignored_opts[i]);
        for (size_t k = 0; k < i; k++)
            if (strcmp(gpgpusim_ignored_opts[i], gpgpusim_ignored_opts[k]) == 0)
                T_FAIL_("-%s is listed twice", gpgpusim_ignored_opts[i]);
    }
}

TEST(preset_gtx480_gpgpusim4)
{
    struct arena *a = arena_new(0);
    struct gpu_config g;
    REQUIRE(g_load(a, &g, "gtx480-gpgpusim4.config", NULL)[0] == '\0');
    CHECK_EQ_INT(g.n_cores, 15);
    CHECK_EQ_INT(g.n_sub_partitions, 12);
    CHECK_EQ_INT(g.dram_buswidth, 8);
    CHECK_EQ_INT(g.frfcfs_queue_size, 64);
    CHECK_EQ_INT(g.l2_queue, 64);
    CHECK_EQ_INT(g.icnt_flit_size, 40);
    CHECK_EQ_STR(g.scheduler, "gto");
    /* GPGPU-Sim's 120 + 100 core cycles on a miss, in 924 MHz DRAM cycles */
    CHECK_EQ_INT(g.l2_hit_latency, 120);
    CHECK_EQ_INT(g.dram_return_latency,
                 (unsigned)((120.0 + 100.0) * (double)g.ps_core / (double)g.ps_dram + 0.5));
    CHECK_EQ_INT(g.dram_latency, 0);
    arena_free(a);
}

TEST_MAIN()
