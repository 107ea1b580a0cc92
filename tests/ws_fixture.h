/*
 * ws_fixture.h - a context with one PTX module loaded, for tests that run
 * kernels through the host API.  fx_open(&f, ptx, len, "name.ptx") ... then
 * fx_buf() for device buffers and fx_launch() for launches (failures print
 * the API's message).
 */
#ifndef WARPSIM_WS_FIXTURE_H
#define WARPSIM_WS_FIXTURE_H

#include <stdio.h>

#include "warpsim/warpsim.h"


struct fx {
    ws_ctx *ctx;
    ws_module *mod;
};

static inline int fx_open(struct fx *f, const char *text, size_t len, const char *name)
{
    f->ctx = NULL;
    f->mod = NULL;
    if (wsCreate(&f->ctx, NULL) != WS_SUCCESS)
        return -1;
    ws_status st = wsModuleLoadData(f->ctx, &f->mod, text, len, name);
    if (st != WS_SUCCESS) {
        fprintf(stderr, "  load failed: %s: %s\n", wsStatusName(st), wsGetErrorMessage(f->ctx));
        wsDestroy(f->ctx);
        f->ctx = NULL;
        return -1;
    }
    return 0;
}

static inline ws_devptr fx_buf(struct fx *f, const void *host, size_t n)
{
    ws_devptr p = 0;
    if (wsMalloc(f->ctx, &p, n) != WS_SUCCESS)
        return 0;
    if (host)
        wsMemcpyHtoD(f->ctx, p, host, n);
    else
        wsMemset(f->ctx, p, 0, n);
    return p;
}

static inline ws_status fx_launch(struct fx *f, const char *k, ws_dim3 g, ws_dim3 b, void **args)
{
    ws_status st = wsLaunchKernel(f->ctx, f->mod, k, g, b, 0, args);
    if (st != WS_SUCCESS)
        fprintf(stderr, "  launch %s: %s\n%s\n", k, wsStatusName(st), wsGetErrorMessage(f->ctx));
    return st;
}


#endif
