/*
 * calib_fixture.h - what the calibration tests (test_latency.c, test_microbench.c) share: the GTX480
 * preset loaded as a struct gpu_config, from whose fields a test derives what a probe must measure,
 * and a timing-mode context running the same machine with a microbenchmark's PTX.
 */
#ifndef WARPSIM_TESTS_CALIB_FIXTURE_H
#define WARPSIM_TESTS_CALIB_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "warpsim/warpsim.h"
#include "host/ws_internal.h"
#include "core/arena.h"
#include "core/config.h"
#include "mem/cache.h"
#include "sys/gpu_config.h"

#define CALIB_PRESET WARPSIM_SOURCE_DIR "/configs/gtx480.config"

struct calib {
    struct arena *arena;       /* owns the config's strings */
    struct gpu_config g;
    ws_ctx *ctx;
    ws_module *mod;
};

static inline void calib_close(struct calib *t)
{
    if (t->ctx)
        wsDestroy(t->ctx);
    if (t->arena)
        arena_free(t->arena);
    memset(t, 0, sizeof *t);
}

/* Load the preset (for the expectations), with one option overridden when name is not NULL, and a
   timing-mode context running the same machine with the workload's PTX (wl NULL: the configuration
   only).  0 or -1 (reported on stderr). */
static inline int calib_open(struct calib *t, const char *wl, const char *name, const char *value)
{
    memset(t, 0, sizeof *t);
    t->arena = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    cfg_init(&c, t->arena);
    if (cfg_load_file(&c, CALIB_PRESET, &err) != 0 || (name && cfg_set(&c, name, value, "test") != 0) ||
        gpu_config_load(&t->g, &c, &err) != 0) {
        char buf[1024];
        cfg_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "  %s\n", buf);
        return -1;
    }
    if (!wl)
        return 0;
    ws_ctx_opts o = {.mode = WS_MODE_TIMING, .num_sms = 0, .config_path = CALIB_PRESET};
    ws_status st = wsCreate(&t->ctx, &o);
    if (st == WS_SUCCESS && name)
        st = ws_set_config_overrides(t->ctx, 1, &name, &value);
    if (st != WS_SUCCESS) {
        fprintf(stderr, "  timing-mode context: %s%s%s\n", wsStatusName(st), t->ctx ? ": " : "",
                t->ctx ? wsGetErrorMessage(t->ctx) : "");
        return -1;
    }
    /* from the source tree, as `warpsim run` does: loading the file also applies its ptxas report
       (NAME.ptxas), whose register counts decide occupancy */
    char path[512];
    snprintf(path, sizeof path, "%s/workloads/%s/%s.ptx", WARPSIM_SOURCE_DIR, wl, wl);
    if (wsModuleLoadFile(t->ctx, &t->mod, path) != WS_SUCCESS) {
        fprintf(stderr, "  loading %s: %s\n", path, wsGetErrorMessage(t->ctx));
        return -1;
    }
    return 0;
}

/* The line size of a cache configuration string (0 when it does not parse). */
static inline unsigned calib_line(const char *cache_string)
{
    struct cache_config cc;
    char msg[128];
    unsigned col;
    return cache_config_parse(cache_string, &cc, msg, sizeof msg, &col) == 0 ? cc.line_size : 0;
}

#endif
