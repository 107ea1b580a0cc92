/*
 * fuzz_ptx_timing.c - libFuzzer harness: PTX loaded and every kernel launched
 * in TIMING mode (the cycle-level model: SMs, caches, crossbar, L2, DRAM and
 * the scheduling policies driving the executor).  Same input layout and
 * bounds as fuzz_ptx_exec (fuzz_ptx_run.h), on a one-SM machine that stops
 * after 20000 core cycles in total (-gpgpu_max_cycle) or 5000 cycles without
 * progress (-warpsim_deadlock_cycles).  Bits 2-4 of byte 2 pick the warp
 * scheduler, bits 5-7 the CTA scheduler.  After the launches the statistics
 * reports are written (to memory) as `warpsim run` does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_ptx_run.h"
#include "host/ws_internal.h"
#include "sys/gpu.h"
#include "warpsim/warpsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const warp_scheds[8] = {"lrr", "gto", "gcaws", "two_level", "swl", "las", "caws_blk", "lrr"};
static const char *const cta_scheds[8] = {"rr", "static", "dyncta", "bcs", "las", "rr", "rr", "rr"};

/* Run `what` with f open on a memory buffer, then drop the text. */
#define TO_MEMORY(what)                                      \
    do {                                                     \
        char *buf_ = NULL;                                   \
        size_t len_ = 0;                                     \
        FILE *f = open_memstream(&buf_, &len_);              \
        if (f) {                                             \
            what;                                            \
            fclose(f);                                       \
        }                                                    \
        free(buf_);                                          \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FUZZ_PTX_HEADER || size > FUZZ_PTX_MAX_INPUT)
        return 0;
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    char msg[512];
    if (ws_create_ex(&ctx, &o, msg, sizeof msg) != WS_SUCCESS)
        return 0;
    const char *const names[] = {"gpgpu_n_clusters", "gpgpu_max_cycle", "warpsim_deadlock_cycles", "gpgpu_scheduler",
                                 "warpsim_cta_scheduler"};
    const char *const values[] = {"1", "20000", "5000", warp_scheds[(data[2] >> 2) & 7u],
                                  cta_scheds[(data[2] >> 5) & 7u]};
    if (ws_set_config_overrides(ctx, 5, names, values) != WS_SUCCESS) {
        /* the overrides are fixed and valid: a failure here is a harness bug */
        fprintf(stderr, "fuzz_ptx_timing: config overrides failed: %s\n", wsGetErrorMessage(ctx));
        abort();
    }
    if (fuzz_ptx_run(ctx, data, size)) {
        struct gpu *g = ws_gpu(ctx);
        TO_MEMORY(gpu_report_text_ex(g, f, 1));
        TO_MEMORY(gpu_report_json(g, f, 2));
        TO_MEMORY((gpu_config_write(f, gpu_config(g)), gpu_write_policy_params(g, f)));
    }
    wsDestroy(ctx);
    return 0;
}
