/*
 * wl_fixture.h - run a bundled workload through the host API in a test:
 * fx_slurp() reads a file whole; fx_run_workload() loads the workload's PTX
 * into a context the test has configured (overrides, outputs, idle skipping,
 * hooks) and runs its driver at tiny size, seed 1, output checked against the
 * CPU reference (res->verified).  With apply_ptxas the PTX gets ptxas's
 * register counts as `warpsim run` applies them (so CTA residency matches the
 * command line).
 */
#ifndef WARPSIM_WL_FIXTURE_H
#define WARPSIM_WL_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/ws_internal.h"
#include "workload.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

/* The file at path, NUL-terminated (at most 4 MiB), or NULL; free() it. */
static inline char *fx_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 22);
    if (buf)
        buf[fread(buf, 1, (1 << 22) - 1, f)] = '\0';
    fclose(f);
    return buf;
}

static inline ws_status fx_run_workload(ws_ctx *ctx, const char *wl, int apply_ptxas, struct wl_result *res)
{
    const struct workload *w = wl_find(wl);
    size_t len = 0;
    const char *text = wl_ptx_text(wl, &len);
    ws_module *mod = NULL;
    if (!w || !text)
        return WS_ERROR_NOT_FOUND;
    ws_status st = wsModuleLoadData(ctx, &mod, text, len, wl);
    if (st != WS_SUCCESS)
        return st;
    if (apply_ptxas) {
        char path[512];
        snprintf(path, sizeof path, "%s/workloads/%s/%s.ptxas", WARPSIM_SOURCE_DIR, wl, wl);
        char *ptxas = fx_slurp(path);
        if (ptxas) {
            st = ws_module_apply_ptxas(mod, ptxas, strlen(ptxas));
            free(ptxas);
            if (st != WS_SUCCESS)
                return st;
        }
    }
    struct wl_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.size = WL_TINY;
    wo.seed = 1;
    wo.log = stderr;
    res->verified = 1;   /* drivers clear it on a mismatch */
    return w->run(ctx, mod, &wo, res);
}

#endif
