/* fuzz_ptx_run.c - load fuzzed PTX and launch every kernel with bounded work (fuzz_ptx_run.h). */
#include "fuzz_ptx_run.h"

#include <stdlib.h>
#include <string.h>

#include "host/ws_internal.h"

/* grids of at most 4 CTAs, blocks of at most 64 threads (partial warps included) */
static const unsigned grid_shapes[8][3] = {
    {1, 1, 1}, {2, 1, 1}, {4, 1, 1}, {2, 2, 1}, {1, 2, 1}, {1, 1, 2}, {3, 1, 1}, {1, 2, 2},
};
static const unsigned block_shapes[8][3] = {
    {32, 1, 1}, {64, 1, 1}, {1, 1, 1}, {33, 1, 1}, {8, 8, 1}, {4, 4, 4}, {16, 2, 1}, {7, 3, 1},
};

/* The value of parameter i: pointers (64-bit integer parameters) at one of the
   two buffers, other scalars small numbers, aggregates zero with a pointer in
   their first 8 bytes.  Deterministic in (seed, i). */
static void fill_param(uint8_t *dst, const struct ptx_param *p, uint32_t i, unsigned seed, const ws_devptr bufs[2])
{
    uint32_t small = 1u + (seed + 7u * i) % 64u;
    memset(dst, 0, p->size);
    switch (p->size) {
    case 1: {
        uint8_t v = (uint8_t)small;
        memcpy(dst, &v, 1);
        break;
    }
    case 2: {
        uint16_t v = (uint16_t)small;
        memcpy(dst, &v, 2);
        break;
    }
    case 4:
        if (p->type == PT_F32) {
            float v = (float)small * 0.5f;
            memcpy(dst, &v, 4);
        } else {
            memcpy(dst, &small, 4);
        }
        break;
    case 8:
        if (p->type == PT_F64) {
            double v = (double)small * 0.25;
            memcpy(dst, &v, 8);
        } else if (p->type == PT_B64 || p->type == PT_U64 || p->type == PT_S64) {
            memcpy(dst, &bufs[(seed + i) % 2u], 8);
        } else {
            uint64_t v = small;
            memcpy(dst, &v, 8);
        }
        break;
    default:
        if (p->size >= 8)
            memcpy(dst, &bufs[(seed + i) % 2u], 8);
        break;
    }
}

static void launch_one(ws_ctx *ctx, ws_module *mod, const struct ptx_func *f, const uint8_t *hdr,
                       const ws_devptr bufs[2])
{
    unsigned seed = hdr[3];
    const unsigned *gs = grid_shapes[hdr[0] % 8u];
    const unsigned *bs = block_shapes[hdr[1] % 8u];
    ws_dim3 grid = ws_dim(gs[0], gs[1], gs[2]);
    ws_dim3 block = ws_dim(bs[0], bs[1], bs[2]);
    /* a kernel that requires its block shape gets it when that is small enough */
    if (f->reqntid[0]) {
        uint64_t x = f->reqntid[0], y = f->reqntid[1] ? f->reqntid[1] : 1, z = f->reqntid[2] ? f->reqntid[2] : 1;
        if (x * y * z <= 64)
            block = ws_dim((unsigned)x, (unsigned)y, (unsigned)z);
    }
    unsigned dyn = (hdr[2] % 4u) * 64u;

    uint32_t np = f->nparams;
    void **args = calloc(np ? np : 1, sizeof *args);
    int ok = args != NULL;
    for (uint32_t i = 0; ok && i < np; i++) {
        const struct ptx_param *p = &f->params[i];
        args[i] = malloc(p->size ? p->size : 1);
        if (!args[i])
            ok = 0;
        else
            fill_param(args[i], p, i, seed, bufs);
    }
    if (ok)
        (void)wsLaunchKernel(ctx, mod, f->name, grid, block, dyn, args);
    for (uint32_t i = 0; args && i < np; i++)
        free(args[i]);
    free(args);
}

unsigned fuzz_ptx_run(ws_ctx *ctx, const uint8_t *data, size_t size)
{
    if (size < FUZZ_PTX_HEADER || size > FUZZ_PTX_MAX_INPUT)
        return 0;
    const uint8_t *hdr = data;
    ws_module *mod = NULL;
    if (wsModuleLoadData(ctx, &mod, (const char *)data + FUZZ_PTX_HEADER, size - FUZZ_PTX_HEADER, "fuzz.ptx") !=
        WS_SUCCESS)
        return 0;

    /* two small device buffers of small integers (indices stay mostly in range) */
    ws_devptr bufs[2] = {0, 0};
    for (int b = 0; b < 2; b++) {
        if (wsMalloc(ctx, &bufs[b], FUZZ_PTX_BUF_BYTES) != WS_SUCCESS)
            return 0;
        uint32_t init[FUZZ_PTX_BUF_BYTES / 4];
        for (uint32_t k = 0; k < FUZZ_PTX_BUF_BYTES / 4; k++)
            init[k] = (k * (uint32_t)(b + 1) + hdr[3]) & 63u;
        wsMemcpyHtoD(ctx, bufs[b], init, sizeof init);
    }

    /* the kernels in declaration order, starting at the one bits 3-7 of byte 1 choose
       (after a failed launch a timing-mode machine runs nothing more) */
    const struct ptx_module *pm = ws_module_ptx(mod);
    uint32_t nentries = 0;
    for (uint32_t i = 0; pm && i < pm->nfuncs; i++)
        if (pm->funcs[i].is_entry && !pm->funcs[i].is_extern && pm->funcs[i].name)
            nentries++;
    unsigned launched = 0;
    uint32_t skip = nentries ? (uint32_t)(hdr[1] >> 3) % nentries : 0;
    uint32_t limit = nentries < FUZZ_PTX_MAX_KERNELS ? nentries : FUZZ_PTX_MAX_KERNELS;
    for (uint32_t k = 0; launched < limit && k < 2 * pm->nfuncs; k++) {
        const struct ptx_func *f = &pm->funcs[k % pm->nfuncs];
        if (!f->is_entry || f->is_extern || !f->name)
            continue;
        if (skip) {
            skip--;
            continue;
        }
        ws_stats st;
        if (wsGetStats(ctx, &st) != WS_SUCCESS || st.warp_insns >= FUZZ_PTX_INSN_BUDGET)
            break;
        ws_set_insn_limit(ctx, FUZZ_PTX_INSN_BUDGET - st.warp_insns);
        launch_one(ctx, mod, f, hdr, bufs);
        launched++;
    }
    wsFree(ctx, bufs[0]);
    wsFree(ctx, bufs[1]);
    /* the module goes with the context (wsDestroy) */
    return launched;
}
