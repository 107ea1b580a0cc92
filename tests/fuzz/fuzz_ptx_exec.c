/*
 * fuzz_ptx_exec.c - libFuzzer harness: PTX loaded and every kernel launched
 * in FUNCTIONAL mode (the SIMT executor and its memory checker).  The input's
 * first 4 bytes choose the launch shape (fuzz_ptx_run.h); grids have at most
 * 4 CTAs of at most 64 threads, at most 8 kernels are launched, and the whole
 * input may execute at most 20000 warp instructions (ws_set_insn_limit).
 * Memory-checker reports, traps, deadlocks and limit errors are expected
 * outcomes, not crashes.
 */
#include <stdint.h>

#include "fuzz_ptx_run.h"
#include "warpsim/warpsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FUZZ_PTX_HEADER || size > FUZZ_PTX_MAX_INPUT)
        return 0;
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_FUNCTIONAL, 4, NULL};
    if (wsCreate(&ctx, &o) != WS_SUCCESS)
        return 0;
    fuzz_ptx_run(ctx, data, size);
    ws_stats st;
    (void)wsGetStats(ctx, &st);
    wsDestroy(ctx);
    return 0;
}
