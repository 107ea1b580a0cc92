/*
 * test_hetero.c - the CPU-GPU chip (sys/gpu_cpu.h, docs/hetero.md) through the host API:
 * dedicated memory channels keep each class's requests on its own channels (a GPU run reaches
 * only the GPU's sub-partitions, a CPU-only run only the CPU's; shared channels see both); a
 * CPU-only run's measurement covers exactly its quota and is the same with and without idle
 * skipping; the GPU's output verifies beside CPU traffic and a kernel ends on the SMs' own requests.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wl_fixture.h"
#include "core/config.h"
#include "sys/gpu.h"
#include "sys/gpu_cpu.h"
#include "sys/gpu_int.h"

struct chip {
    struct arena *a;
    ws_ctx *ctx;
    struct gpu *g;
};

/* hetero-small with extra options (gpgpusim.config text) */
static int chip_open(struct chip *c, const char *extra)
{
    memset(c, 0, sizeof *c);
    c->a = arena_new(0);
    struct cfg cf;
    struct cfg_error err;
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    char msg[512];
    if (!c->a)
        return -1;
    cfg_init(&cf, c->a);
    if (cfg_load_file(&cf, WARPSIM_SOURCE_DIR "/configs/hetero-small.config", &err) != 0 ||
        cfg_load_text(&cf, extra, strlen(extra), "test.config", &err) != 0 ||
        ws_create_ex(&c->ctx, &o, msg, sizeof msg) != WS_SUCCESS || ws_set_timing_config(c->ctx, &cf, 0, NULL) != WS_SUCCESS) {
        fprintf(stderr, "  chip: %s %s\n", err.msg, c->ctx ? wsGetErrorMessage(c->ctx) : "");
        return -1;
    }
    c->g = ws_gpu(c->ctx);
    return 0;
}

static void chip_close(struct chip *c)
{
    if (c->ctx)
        wsDestroy(c->ctx);
    arena_free(c->a);
}

static uint64_t part_requests(const struct gpu *g, unsigned p) { return partition_get_stats(g->part[p])->requests; }

TEST(dedicated_channels_keep_each_class_on_its_own)
{
    struct chip c;
    /* the GPU alone (CPU cores idle) on 1G1C: only sub-partition 0 */
    REQUIRE(chip_open(&c, "-warpsim_mc_partition 1G1C\n") == 0);
    struct wl_result res;
    memset(&res, 0, sizeof res);
    CHECK(fx_run_workload(c.ctx, "vecadd", 1, &res) == WS_SUCCESS);
    CHECK(res.verified);
    CHECK(part_requests(c.g, 0) > 100);
    CHECK_EQ_U64(part_requests(c.g, 1), 0);
    chip_close(&c);
    /* one CPU core alone on 1G1C: only sub-partition 1 */
    REQUIRE(chip_open(&c, "-warpsim_mc_partition 1G1C\n-warpsim_cpu_apps mcf\n-warpsim_cpu_quota 3000\n") == 0);
    char msg[512];
    CHECK(gpu_cpu_finish(c.g, msg, sizeof msg) == 0);
    CHECK_EQ_U64(part_requests(c.g, 0), 0);
    CHECK(part_requests(c.g, 1) > 50);
    chip_close(&c);
    /* shared channels: the same CPU run reaches both */
    REQUIRE(chip_open(&c, "-warpsim_cpu_apps mcf\n-warpsim_cpu_quota 3000\n") == 0);
    CHECK(gpu_cpu_finish(c.g, msg, sizeof msg) == 0);
    CHECK(part_requests(c.g, 0) > 20);
    CHECK(part_requests(c.g, 1) > 20);
    chip_close(&c);
}

TEST(cpu_only_run_measures_its_quota_and_ignores_idle_skipping)
{
    struct gpu_cpu_result r[2];
    for (int skip = 0; skip < 2; skip++) {
        struct chip c;
        REQUIRE(chip_open(&c, "-warpsim_cpu_apps omnetpp,-,perlbench\n-warpsim_cpu_warmup 5000\n"
                              "-warpsim_cpu_quota 20000\n") == 0);
        gpu_set_idle_skip(c.g, skip != 0);
        char msg[512];
        REQUIRE(gpu_cpu_finish(c.g, msg, sizeof msg) == 0);
        struct gpu_cpu_result idle;
        CHECK(!gpu_cpu_result(c.g, 1, &idle) && idle.app == NULL);   /* core 1 idled */
        REQUIRE(gpu_cpu_result(c.g, 0, &r[skip]));
        CHECK(r[skip].insns >= 20000 && r[skip].insns < 20000 + 4);   /* the quota, to the retire width */
        CHECK(r[skip].start_insns >= 5000);
        CHECK(r[skip].ipc > 0 && r[skip].ipc < 1);
        CHECK(r[skip].l2_mpki > 15);
        chip_close(&c);
    }
    CHECK_EQ_U64(r[0].cycles, r[1].cycles);
    CHECK_EQ_U64(r[0].insns, r[1].insns);
}

TEST(gpu_verifies_beside_cpu_traffic)
{
    struct chip c;
    REQUIRE(chip_open(&c, "-warpsim_cpu_apps mcf,omnetpp,soplex\n") == 0);
    struct wl_result res;
    memset(&res, 0, sizeof res);
    CHECK(fx_run_workload(c.ctx, "bfs", 1, &res) == WS_SUCCESS);
    CHECK(res.verified);
    char msg[512];
    CHECK(gpu_cpu_finish(c.g, msg, sizeof msg) == 0);
    for (unsigned i = 0; i < 3; i++) {
        struct gpu_cpu_result r;
        CHECK(gpu_cpu_result(c.g, i, &r));
        CHECK(r.insns > 0 && r.avg_mem_latency > 0);
    }
    /* every SM request was answered at each kernel's end (the CPU cores' may still be in flight) */
    uint64_t sm_inflight = 0;
    for (unsigned i = 0; i < c.g->n_sms; i++)
        sm_inflight += mem_req_in_flight(&c.g->sm_pool[i]);
    CHECK_EQ_U64(sm_inflight, 0);
    chip_close(&c);
}

TEST_MAIN()
