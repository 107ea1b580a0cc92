/*
 * fuzz_ptx_load.c - libFuzzer harness: the PTX loader (lexer, parser,
 * validation, CFG analysis, call checks, per-kernel layout) on arbitrary text,
 * in a functional context.  Every input gets a fresh context.  Inputs over
 * 64 KiB are ignored.  A rejected module is an expected outcome; what must
 * not happen is a crash, a sanitizer report or a leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "host/ws_internal.h"
#include "warpsim/warpsim.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    ws_ctx *ctx = NULL;
    if (wsCreate(&ctx, NULL) != WS_SUCCESS)
        return 0;
    ws_module *mod = NULL;
    ws_status st = wsModuleLoadData(ctx, &mod, (const char *)data, size, "fuzz.ptx");
    if (st == WS_SUCCESS) {
        /* what `warpsim ptx-check` lists: kernels, their parameters and layout */
        const struct ptx_module *pm = ws_module_ptx(mod);
        for (uint32_t i = 0; pm && i < pm->nfuncs; i++) {
            const struct ptx_func *f = &pm->funcs[i];
            if (f->is_entry && f->name)
                (void)ws_module_kinfo(mod, f->name);
        }
        (void)ws_module_name(mod);
        (void)ws_mem_in_use(ctx);
    } else {
        /* the message must be a terminated string */
        (void)strlen(wsGetErrorMessage(ctx));
    }
    wsDestroy(ctx);
    return 0;
}
