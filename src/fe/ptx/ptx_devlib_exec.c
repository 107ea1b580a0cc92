/*
 * ptx_devlib_exec.c - the executor's side of the device library (ptx_devlib.h):
 * a call of `vprintf`, `malloc`, `free` or `__assertfail` reads its arguments
 * lane by lane from the call site, does the work for the active lanes in lane
 * order and writes the return values, without pushing a frame.
 */
#include "ptx_devlib.h"
#include "ptx_exec_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- simulated memory as one lane sees it -------------------------------------------- */

struct lane_view {
    struct ptx_warp *w;
    uint32_t lane;
};

static size_t lane_read(void *user, uint64_t addr, void *buf, size_t n)
{
    const struct lane_view *lv = user;
    struct ptx_warp *w = lv->w;
    struct ptx_grid *g = w->g;
    uint64_t off = 0, limit = 0;
    const uint8_t *base = NULL;
    switch (ptx_mem_generic_space(addr, &off)) {
    case PS_GLOBAL: {
        const struct ptx_mem_alloc *a = ptx_mem_find(g->mem, off);
        if (!a)
            return 0;
        base = a->data;
        limit = a->size;
        off -= a->base;
        break;
    }
    case PS_LOCAL:
        base = w->local + lv->lane * w->local_stride;
        limit = w->local_top;
        break;
    case PS_SHARED:
        base = w->cta->smem;
        limit = w->cta->smem_size;
        break;
    case PS_CONST:
        base = g->cbank;
        limit = g->cbank_size;
        break;
    case PS_PARAM:
        base = g->params;
        limit = g->param_bytes;
        break;
    default:
        return 0;
    }
    if (!base || off >= limit)
        return 0;
    size_t k = limit - off < n ? (size_t)(limit - off) : n;
    memcpy(buf, base + off, k);
    return k;
}

/* ---- arguments and return values of the call site ------------------------------------- */

/* argument i of the call for lane l (its first 8 bytes, zero-extended) */
static uint64_t call_arg(struct ptx_warp *w, const struct ptx_frame *fr, const struct ptx_call *call,
                         const struct ptx_func *f, unsigned i, uint32_t l)
{
    if (i >= call->nargs || i >= f->nparams)
        return 0;
    uint64_t size = f->params[i].size < 8 ? f->params[i].size : 8;
    uint64_t v = 0;
    if (call->arg_is_reg && call->arg_is_reg[i]) {
        v = fr->regs[(size_t)call->args[i] * PTX_WARP_SIZE + l];
    } else {
        const struct ptx_sym *s = &w->g->mod->syms[call->args[i]];
        if (s->space == PS_PARAM) {
            if (s->addr + size <= w->g->param_bytes)
                memcpy(&v, w->g->params + s->addr, size);
        } else {
            memcpy(&v, w->pstack + l * w->param_stride + fr->param_base + s->addr, size);
        }
    }
    return v & exec_type_mask((unsigned)size * 8);
}

/* return value 0 of the call for lane l */
static void call_ret(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_call *call, uint32_t l, uint64_t v)
{
    if (call->nrets == 0)
        return;
    if (call->ret_is_reg && call->ret_is_reg[0]) {
        uint64_t mk = exec_type_mask(exec_reg_bits(fr, call->rets[0]));
        fr->regs[(size_t)call->rets[0] * PTX_WARP_SIZE + l] = v & mk;
    } else {
        const struct ptx_sym *s = &w->g->mod->syms[call->rets[0]];
        uint64_t n = s->size < 8 ? s->size : 8;
        uint8_t *d = w->pstack + l * w->param_stride + fr->param_base + s->addr;
        memset(d, 0, (size_t)s->size);
        memcpy(d, &v, (size_t)n);
    }
}

/* ---- the calls ---------------------------------------------------------------------------- */

static int dev_printf(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_call *call,
                      const struct ptx_func *f, uint32_t m)
{
    struct ptx_devlib *d = w->g->dev;
    FOR_LANES(m, l) {
        uint64_t fmt = call_arg(w, fr, call, f, 0, l), args = call_arg(w, fr, call, f, 1, l);
        struct lane_view lv = {w, l};
        int r;
        if (d) {
            size_t before = d->out.len;
            r = ptx_devprintf_format(&d->out, lane_read, &lv, fmt, args);
            if (d->out.len > d->fifo_size) {   /* the FIFO is full: the record is lost */
                d->out.len = before;
                if (d->out.p)
                    d->out.p[before] = '\0';
                d->dropped++;
            }
        } else {   /* no owner for the output: formatted for the return value, then dropped */
            struct ptx_devbuf tmp = {0};
            r = ptx_devprintf_format(&tmp, lane_read, &lv, fmt, args);
            free(tmp.p);
        }
        call_ret(w, fr, call, l, (uint64_t)(int64_t)r);
    }
    return PTX_WARP_READY;
}

static int dev_malloc(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_call *call,
                      const struct ptx_func *f, uint32_t m)
{
    struct ptx_devlib *d = w->g->dev;
    FOR_LANES(m, l) {
        uint64_t size = call_arg(w, fr, call, f, 0, l), off = 0, p = 0;
        if (d && d->heap_base) {
            d->mallocs++;
            if (ptx_devheap_alloc(d, size, &off) == 0)
                p = d->heap_base + off;
            else
                d->failed_mallocs++;
        }
        call_ret(w, fr, call, l, p);
    }
    return PTX_WARP_READY;
}

static int dev_free(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in,
                    const struct ptx_call *call, const struct ptx_func *f, uint32_t m)
{
    struct ptx_devlib *d = w->g->dev;
    /* check every lane first, so a faulting free has no effect */
    FOR_LANES(m, l) {
        uint64_t p = call_arg(w, fr, call, f, 0, l);
        if (p == 0)
            continue;
        bool ok = d && d->heap_base && p >= d->heap_base && p - d->heap_base < d->heap_size;
        if (ok) {
            ok = false;
            for (size_t i = 0; i < d->nblks && !ok; i++)
                ok = d->blks[i].off == p - d->heap_base;
        }
        if (!ok) {
            char what[160];
            snprintf(what, sizeof what, "Invalid free: 0x%" PRIx64 " is not the start of a block that the device's "
                     "malloc returned (or it was freed already)", p);
            return exec_fail(w, in, (int)l, PTX_EXEC_ILLEGAL_ADDRESS, what, NULL);
        }
        /* two lanes freeing the same block: the second one is a double free */
        FOR_LANES(m & ((1u << l) - 1u), k) {
            if (call_arg(w, fr, call, f, 0, k) == p) {
                char what[160];
                snprintf(what, sizeof what, "Invalid free: 0x%" PRIx64 " is freed by two threads of the warp", p);
                return exec_fail(w, in, (int)l, PTX_EXEC_ILLEGAL_ADDRESS, what, NULL);
            }
        }
    }
    FOR_LANES(m, l) {
        uint64_t p = call_arg(w, fr, call, f, 0, l);
        if (p && ptx_devheap_free(d, p - d->heap_base) == 0)
            d->frees++;
    }
    return PTX_WARP_READY;
}

static int dev_assert(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in,
                      const struct ptx_call *call, const struct ptx_func *f, uint32_t m)
{
    struct ptx_devlib *d = w->g->dev;
    const struct ptx_cta *c = w->cta;
    char first[512] = "";
    FOR_LANES(m, l) {
        struct lane_view lv = {w, l};
        char msg[256] = "", file[256] = "", func[256] = "";
        uint64_t a_msg = call_arg(w, fr, call, f, 0, l), a_file = call_arg(w, fr, call, f, 1, l);
        uint64_t line = call_arg(w, fr, call, f, 2, l), a_func = call_arg(w, fr, call, f, 3, l);
        /* the strings, NUL-terminated within the buffers */
        size_t n;
        n = a_msg ? lane_read(&lv, a_msg, msg, sizeof msg - 1) : 0;
        msg[n] = '\0';
        n = a_file ? lane_read(&lv, a_file, file, sizeof file - 1) : 0;
        file[n] = '\0';
        n = a_func ? lane_read(&lv, a_func, func, sizeof func - 1) : 0;
        func[n] = '\0';
        char text[1024];
        int k = snprintf(text, sizeof text,
                         "%s:%" PRIu64 ": %s: block: [%u,%u,%u], thread: [%" PRIu64 ",%" PRIu64 ",%" PRIu64
                         "] Assertion `%s` failed.\n",
                         file, line, func, c->ctaid[0], c->ctaid[1], c->ctaid[2], w->tid[0][l], w->tid[1][l],
                         w->tid[2][l], msg);
        size_t len = k < 0 ? 0 : (size_t)k < sizeof text ? (size_t)k : sizeof text - 1;
        if (!first[0] && len)
            snprintf(first, sizeof first, "%.*s", (int)(len - 1), text);
        if (d) {
            d->asserts++;
            (void)ptx_devbuf_put(&d->err, text, len);
        }
    }
    char what[640];
    snprintf(what, sizeof what, "Device-side assertion failed: %s", first);
    return exec_fail(w, in, -1, PTX_EXEC_TRAP, what, NULL);
}

int exec_devlib_call(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in,
                     const struct ptx_call *call, const struct ptx_func *f, uint32_t m)
{
    if (!f->name)
        return -1;
    if (strcmp(f->name, "vprintf") == 0)
        return dev_printf(w, fr, call, f, m);
    if (strcmp(f->name, "malloc") == 0)
        return dev_malloc(w, fr, call, f, m);
    if (strcmp(f->name, "free") == 0)
        return dev_free(w, fr, in, call, f, m);
    if (strcmp(f->name, "__assertfail") == 0)
        return dev_assert(w, fr, in, call, f, m);
    return -1;
}
