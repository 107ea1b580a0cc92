/*
 * ws_module.c - loading PTX into a context: parse, CFG analysis, per-kernel
 * analysis (rejects recursion), placement of module variables (.global in
 * device memory, .const in the module's own constant bank).
 */
#include "ws_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"

static ws_status ptx_fail(ws_ctx *ctx, ws_status st, const struct ptx_error *e)
{
    char buf[1024];
    ptx_error_format(e, buf, sizeof buf);
    return ws_fail(ctx, st, "%s", buf);
}

void ws_module_free(ws_module *m)
{
    if (!m)
        return;
    if (m->kinfo && m->pm)
        for (uint32_t i = 0; i < m->pm->nfuncs; i++)
            ptx_kinfo_free(&m->kinfo[i]);
    free(m->kinfo);
    free(m->cbank);
    free(m->name);
    ptx_module_free(m->pm);
    free(m);
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* Place .const variables in the module's bank and .global ones in device memory. */
static ws_status place_vars(ws_ctx *ctx, ws_module *m)
{
    struct ptx_module *pm = m->pm;
    uint64_t coff = 0;
    for (uint32_t s = 0; s < pm->nsyms; s++) {
        struct ptx_sym *y = &pm->syms[s];
        if (y->space != PS_CONST)
            continue;
        coff = align_up(coff, y->align ? y->align : 1);
        y->addr = coff;
        coff += y->size;
    }
    m->cbank_size = coff;
    m->cbank = calloc(coff ? (size_t)coff : 1, 1);
    if (!m->cbank)
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of host memory for the constant bank of '%s'", m->name);
    for (uint32_t s = 0; s < pm->nsyms; s++) {
        struct ptx_sym *y = &pm->syms[s];
        if (y->space == PS_CONST && y->init)
            memcpy(m->cbank + y->addr, y->init, (size_t)y->size);
    }
    for (uint32_t s = 0; s < pm->nsyms; s++) {
        struct ptx_sym *y = &pm->syms[s];
        if (y->space != PS_GLOBAL)
            continue;
        uint64_t addr;
        if (ptx_mem_alloc(&ctx->mem, y->size, y->name, &addr))
            return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of device memory for variable '%s' (%llu bytes)",
                           y->name, (unsigned long long)y->size);
        y->addr = addr;
        if (y->init) {
            uint8_t *p = ptx_mem_ptr(&ctx->mem, addr, y->size);
            if (p)
                memcpy(p, y->init, (size_t)y->size);
        }
    }
    return WS_SUCCESS;
}

/* Undo place_vars' device allocations when a load fails half-way. */
static void unplace_globals(ws_ctx *ctx, ws_module *m)
{
    for (uint32_t i = 0; i < ctx->mem.nallocs;) {
        struct ptx_mem_alloc *a = &ctx->mem.allocs[i];
        bool ours = false;
        for (uint32_t s = 0; s < m->pm->nsyms && !ours; s++)
            ours = m->pm->syms[s].space == PS_GLOBAL && a->label == m->pm->syms[s].name &&
                   a->base == m->pm->syms[s].addr;
        if (ours) {
            a->label = NULL; /* ptx_mem_free refuses labelled (variable) allocations */
            ptx_mem_free(&ctx->mem, a->base);
        } else {
            i++;
        }
    }
}

ws_status wsModuleLoadData(ws_ctx *ctx, ws_module **mod, const char *ptx_text, size_t len,
                           const char *name_for_messages)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!mod || !ptx_text)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsModuleLoadData: NULL module pointer or text");
    *mod = NULL;
    const char *name = name_for_messages ? name_for_messages : "<ptx>";
    ws_module *m = calloc(1, sizeof *m);
    if (!m)
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
    m->ctx = ctx;
    m->name = strdup(name);
    if (!m->name) {
        free(m);
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
    }
    struct ptx_error e;
    memset(&e, 0, sizeof e);
    m->pm = ptx_parse(ptx_text, len, m->name, &e);
    if (!m->pm) {
        ws_module_free(m);
        return ptx_fail(ctx, WS_ERROR_INVALID_PTX, &e);
    }
    if (ptx_cfg_analyze(m->pm, &e)) {
        ws_module_free(m);
        return ptx_fail(ctx, WS_ERROR_INVALID_PTX, &e);
    }
    struct ptx_module *pm = m->pm;
    memset(&e, 0, sizeof e);
    if (ptx_exec_check_calls(pm, &e)) {
        ws_status st = strstr(e.msg, "host memory") ? WS_ERROR_OUT_OF_MEMORY : WS_ERROR_UNSUPPORTED;
        ws_module_free(m);
        return ptx_fail(ctx, st, &e);
    }
    m->kinfo = calloc(pm->nfuncs ? pm->nfuncs : 1, sizeof *m->kinfo);
    if (!m->kinfo) {
        ws_module_free(m);
        return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
    }
    for (uint32_t i = 0; i < pm->nfuncs; i++) {
        m->kinfo[i].func = -1;
        if (!pm->funcs[i].is_entry || pm->funcs[i].is_extern)
            continue;
        memset(&e, 0, sizeof e);
        if (ptx_kinfo_build(pm, (int)i, &m->kinfo[i], &e)) {
            ws_status st = strstr(e.msg, "host memory") ? WS_ERROR_OUT_OF_MEMORY : WS_ERROR_UNSUPPORTED;
            ws_module_free(m);
            return ptx_fail(ctx, st, &e);
        }
    }
    ws_status st = place_vars(ctx, m);
    if (st != WS_SUCCESS) {
        unplace_globals(ctx, m);
        ws_module_free(m);
        return st;
    }
    m->next = ctx->mods;
    ctx->mods = m;
    *mod = m;
    return WS_SUCCESS;
}

/* FILE.ptx -> FILE.ptxas beside it (`make ptx` records ptxas -v there): the
   registers ptxas allocates decide how many CTAs fit on an SM in timing mode. */
static void apply_ptxas_beside(ws_module *m, const char *path)
{
    size_t n = strlen(path);
    if (n < 4 || strcmp(path + n - 4, ".ptx") != 0)
        return;
    char *p = malloc(n + 3);
    if (!p)
        return;
    snprintf(p, n + 3, "%sas", path);
    FILE *f = fopen(p, "rb");
    free(p);
    if (!f)
        return;
    char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ptx_ptxas_apply(m->pm, buf, len);
}

ws_status wsModuleLoadFile(ws_ctx *ctx, ws_module **mod, const char *path)
{
    if (!ctx)
        return WS_ERROR_INVALID_VALUE;
    if (!mod || !path)
        return ws_fail(ctx, WS_ERROR_INVALID_VALUE, "wsModuleLoadFile: NULL module pointer or path");
    *mod = NULL;
    size_t len = 0;
    enum file_read_err why;
    char msg[1024];
    char *buf = file_read_all(path, FILE_LIMIT_PTX, &len, &why, msg, sizeof msg);
    if (!buf)
        return ws_fail(ctx,
                       why == FILE_READ_NOT_FOUND ? WS_ERROR_NOT_FOUND
                       : why == FILE_READ_NOMEM   ? WS_ERROR_OUT_OF_MEMORY
                       : why == FILE_READ_IO || why == FILE_READ_IS_DIR ? WS_ERROR_IO
                                                  : WS_ERROR_INVALID_VALUE,
                       "%s", msg);
    ws_status st = wsModuleLoadData(ctx, mod, buf, len, path);
    free(buf);
    if (st == WS_SUCCESS)
        apply_ptxas_beside(*mod, path);
    return st;
}

ws_status ws_module_apply_ptxas(ws_module *mod, const char *text, size_t len)
{
    if (!mod || !text)
        return WS_ERROR_INVALID_VALUE;
    ptx_ptxas_apply(mod->pm, text, len);
    return WS_SUCCESS;
}

const struct ptx_sym *ws_module_sym(const ws_module *mod, const char *name)
{
    int s = ptx_find_sym(mod->pm, name);
    if (s < 0)
        return NULL;
    const struct ptx_sym *y = &mod->pm->syms[s];
    return y->space == PS_GLOBAL || y->space == PS_CONST ? y : NULL;
}

const struct ptx_module *ws_module_ptx(const ws_module *mod) { return mod ? mod->pm : NULL; }

const char *ws_module_name(const ws_module *mod) { return mod ? mod->name : NULL; }

const struct ptx_kinfo *ws_module_kinfo(const ws_module *mod, const char *kernel)
{
    if (!mod || !kernel)
        return NULL;
    int fi = ptx_find_func(mod->pm, kernel);
    if (fi < 0 || mod->kinfo[fi].func < 0)
        return NULL;
    return &mod->kinfo[fi];
}

ws_status ws_module_symbol(const ws_module *mod, const char *name, ws_devptr *addr, size_t *size, int *is_const)
{
    if (!mod || !name)
        return WS_ERROR_INVALID_VALUE;
    const struct ptx_sym *y = ws_module_sym(mod, name);
    if (!y)
        return WS_ERROR_NOT_FOUND;
    if (addr)
        *addr = y->addr;
    if (size)
        *size = (size_t)y->size;
    if (is_const)
        *is_const = y->space == PS_CONST;
    return WS_SUCCESS;
}

ws_status ws_module_make_managed(ws_module *mod, const char *name, ws_devptr *addr)
{
    if (!mod || !name)
        return WS_ERROR_INVALID_VALUE;
    ws_ctx *ctx = mod->ctx;
    int s = ptx_find_sym(mod->pm, name);
    struct ptx_sym *y = s >= 0 ? &mod->pm->syms[s] : NULL;
    if (!y || y->space != PS_GLOBAL)
        return ws_fail(ctx, WS_ERROR_NOT_FOUND, "no __managed__ (.global) variable '%s' in module '%s'", name,
                       mod->name);
    if (!ws_is_managed(ctx, y->addr)) {
        /* move it to host-aliased memory, with its current contents */
        uint64_t na;
        if (ws_mem_alloc_managed(ctx, y->size ? y->size : 1, y->name, &na))
            return ws_fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of memory for __managed__ variable '%s'", name);
        const uint8_t *old = ptx_mem_ptr(&ctx->mem, y->addr, y->size ? y->size : 1);
        uint8_t *nw = ptx_mem_ptr(&ctx->mem, na, y->size ? y->size : 1);
        if (old && nw && y->size)
            memcpy(nw, old, (size_t)y->size);
        for (size_t i = 0; i < ctx->mem.nallocs; i++) {
            struct ptx_mem_alloc *a = &ctx->mem.allocs[i];
            if (a->base == y->addr && a->label == y->name) {
                a->label = NULL; /* ptx_mem_free refuses labelled (variable) allocations */
                ptx_mem_free(&ctx->mem, a->base);
                break;
            }
        }
        y->addr = na;
    }
    if (addr)
        *addr = y->addr;
    return WS_SUCCESS;
}
