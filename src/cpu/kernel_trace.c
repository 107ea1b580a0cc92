/* kernel_trace.c - a GPU kernel's CPU instruction stream and its time on CPU cores (cpu/kernel_trace.h). */
#include "cpu/kernel_trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe/ptx/ptx_exec.h"
#include "fe/ptx/ptx_mem.h"

const char *kt_class_name(enum kt_class c)
{
    static const char *const names[KT_CLASS_COUNT] = {"vector ALU", "vector memory", "scalar", "branch", "atomic"};
    return (unsigned)c < KT_CLASS_COUNT ? names[c] : "?";
}

/* ---- one instruction ------------------------------------------------------------------ */

#define KT_CORE_REGION 26   /* per-core share of a window: 64 MiB */

uint64_t kt_cpu_addr(const struct kt_where *w, uint8_t space, uint64_t addr, unsigned lane)
{
    if (space == WS_SPACE_GLOBAL || space == WS_SPACE_TEX || space == WS_SPACE_NONE || addr >= PTX_GLOBAL_BASE)
        return addr;
    /* a window address or an offset in its space */
    uint64_t off = addr >= PTX_WIN_CONST ? addr & (PTX_WIN_SIZE - 1) : addr;
    uint64_t core = (uint64_t)(w->core % KT_MAX_CORES) << KT_CORE_REGION;
    uint64_t mask = ((uint64_t)1 << KT_CORE_REGION) - 1;
    switch (space) {
    case WS_SPACE_SHARED:
        return PTX_WIN_SHARED + core + (off & mask);
    case WS_SPACE_LOCAL: {
        uint64_t item = (uint64_t)w->wid * PTX_WARP_SIZE + lane;
        return PTX_WIN_LOCAL + core + ((item * w->local_stride + off) & mask);
    }
    case WS_SPACE_CONST:
        return PTX_WIN_CONST + off;
    case WS_SPACE_PARAM:
    default:
        return PTX_WIN_PARAM + off;
    }
}

static uint32_t batch_bits(unsigned simd, unsigned batch)
{
    unsigned lo = batch * simd;
    if (lo >= PTX_WARP_SIZE)
        return 0;
    uint32_t m = simd >= 32 ? 0xffffffffu : ((1u << simd) - 1u);
    return m << lo;
}

static void rec_regs(struct trace_rec *r, const struct warp_inst *wi, int with_dst)
{
    if (with_dst)
        for (unsigned i = 0; i < wi->ndst && i < TRACE_NUM_DST_REGS; i++)
            r->dst_regs[i] = kt_cpu_reg(wi->dst[i]);
    for (unsigned i = 0; i < wi->nsrc && i < TRACE_NUM_SRC_REGS; i++)
        r->src_regs[i] = kt_cpu_reg(wi->src[i]);
}

static int put(const struct kt_sink *s, unsigned core, const struct trace_rec *r, enum kt_class c, int *n)
{
    if (s->emit(s->user, core, r, c) != 0)
        return -1;
    (*n)++;
    return 0;
}

int kt_translate(const struct warp_inst *wi, unsigned simd, unsigned batch, const struct kt_where *w,
                 const struct kt_sink *sink)
{
    uint32_t bits = batch_bits(simd, batch);
    uint32_t live = wi->issue_mask & bits, act = wi->active_mask & bits;
    if (!live || wi->cls == WI_NOP)
        return 0;
    uint64_t ip = KT_IP_BASE + ((uint64_t)wi->func << 20) + (uint64_t)wi->pc * 8u;
    struct trace_rec r;
    int n = 0;
    memset(&r, 0, sizeof r);
    r.ip = ip;
    switch ((enum wi_class)wi->cls) {
    case WI_LD: case WI_ST: case WI_TEX: {
        /* the distinct lines of the batch's active lanes, each by its first lane's address */
        uint64_t addr[32], line[32];
        unsigned na = 0;
        for (uint32_t m = act; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint64_t a = kt_cpu_addr(w, wi->space, wi->addr[l], l);
            uint64_t ln = a / KT_LINE;
            unsigned k = 0;
            while (k < na && line[k] != ln)
                k++;
            if (k == na) {
                line[na] = ln;
                addr[na++] = a ? a : 1;   /* 0 means "none" in a record */
            }
        }
        int store = wi->cls == WI_ST || wi->is_write;
        unsigned per = store ? TRACE_NUM_DST_MEM : TRACE_NUM_SRC_MEM;
        unsigned i = 0;
        do {   /* at least one record: a batch with no active lane is a masked-off access */
            memset(&r, 0, sizeof r);
            r.ip = ip + (i / per);
            rec_regs(&r, wi, !store);
            for (unsigned k = 0; k < per && i < na; k++, i++) {
                if (store)
                    r.dst_mem[k] = addr[i];
                else
                    r.src_mem[k] = addr[i];
            }
            if (put(sink, w->core, &r, KT_VMEM, &n))
                return -1;
        } while (i < na);
        return n;
    }
    case WI_ATOM:
        if (!act) {
            rec_regs(&r, wi, 1);
            return put(sink, w->core, &r, KT_SCALAR, &n) ? -1 : n;
        }
        for (uint32_t m = act; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint64_t a = kt_cpu_addr(w, wi->space, wi->addr[l], l);
            memset(&r, 0, sizeof r);
            r.ip = ip;
            rec_regs(&r, wi, 1);
            r.src_mem[0] = r.dst_mem[0] = a ? a : 1;
            if (put(sink, w->core, &r, KT_ATOMIC, &n))
                return -1;
        }
        return n;
    case WI_BRANCH:
        r.is_branch = 1;
        r.branch_taken = (wi->taken_mask & act) != 0;
        rec_regs(&r, wi, 0);
        return put(sink, w->core, &r, KT_BRANCH, &n) ? -1 : n;
    case WI_CALL: case WI_RET:
        if (wi->cls == WI_RET && (int)wi->func == w->kfunc)
            goto loop_edge;
        r.is_branch = 1;
        r.branch_taken = 1;
        return put(sink, w->core, &r, KT_SCALAR, &n) ? -1 : n;
    case WI_BARRIER: case WI_EXIT:
    loop_edge:
        /* the back edge of the runtime's loop over the work-item batches */
        r.is_branch = 1;
        r.branch_taken = !w->last;
        r.src_regs[0] = KT_LOOP_REG;
        r.dst_regs[0] = KT_LOOP_REG;
        return put(sink, w->core, &r, KT_SCALAR, &n) ? -1 : n;
    case WI_MEMBAR:
        return put(sink, w->core, &r, KT_SCALAR, &n) ? -1 : n;
    default:   /* ALU, FP32, FP64, SFU, WARP */
        rec_regs(&r, wi, 1);
        return put(sink, w->core, &r, KT_VALU, &n) ? -1 : n;
    }
}

/* ---- whole launches --------------------------------------------------------------------- */

static int count_emit(void *user, unsigned core, const struct trace_rec *r, enum kt_class c)
{
    struct kt_tracer *t = user;
    if (t->sink.emit(t->sink.user, core, r, c) != 0) {
        t->sink_failed = 1;
        return -1;
    }
    t->st.records[core]++;
    t->st.by_class[c]++;
    return 0;
}

int kt_tracer_init(struct kt_tracer *t, unsigned simd, unsigned cores, const struct kt_sink *sink, char *msg,
                   size_t n)
{
    memset(t, 0, sizeof *t);
    if (simd < 1 || simd > PTX_WARP_SIZE) {
        snprintf(msg, n, "SIMD width %u: must be 1 to %u", simd, (unsigned)PTX_WARP_SIZE);
        return -1;
    }
    if (cores < 1 || cores > KT_MAX_CORES) {
        snprintf(msg, n, "%u cores: must be 1 to %u", cores, (unsigned)KT_MAX_CORES);
        return -1;
    }
    t->buf = malloc(sizeof *t->buf * KT_REGION_CAP);
    if (!t->buf) {
        snprintf(msg, n, "out of host memory");
        return -1;
    }
    t->simd = simd;
    t->cores = cores;
    t->only_launch = -1;
    t->sink = *sink;
    return 0;
}

void kt_tracer_free(struct kt_tracer *t)
{
    free(t->buf);
    t->buf = NULL;
}

/* Emit the buffered region of warp w: batch after batch. */
static int emit_region(struct kt_tracer *t, const struct ptx_cta *c, const struct ptx_warp *w, unsigned core,
                       int last_warp)
{
    struct kt_sink cs = {count_emit, t};
    unsigned nb = (PTX_WARP_SIZE + t->simd - 1) / t->simd;
    struct kt_where wh = {core, w->wid, w->local_stride, 0, c->g->ki->func};
    unsigned last_b = nb;
    for (unsigned b = 0; b < nb; b++)
        if (w->valid & batch_bits(t->simd, b))
            last_b = b;
    for (unsigned b = 0; b < nb; b++) {
        if (!(w->valid & batch_bits(t->simd, b)))
            continue;
        wh.last = last_warp && b == last_b;
        for (size_t i = 0; i < t->nbuf; i++)
            if (kt_translate(&t->buf[i], t->simd, b, &wh, &cs) < 0)
                return -1;
    }
    t->nbuf = 0;
    return 0;
}

static int sink_fail(struct ptx_grid *g)
{
    g->err = PTX_EXEC_FAILED;
    snprintf(g->msg, sizeof g->msg, "kernel '%s': writing its CPU trace failed", g->kfunc->name);
    return -1;
}

static int run_cta(struct kt_tracer *t, struct ptx_cta *c, unsigned core)
{
    struct ptx_grid *g = c->g;
    uint32_t last_warp = c->nwarps ? c->nwarps - 1 : 0;
    for (;;) {
        int progress = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            struct ptx_warp *w = &c->warps[i];
            if (w->status != PTX_WARP_READY)
                continue;
            progress = 1;
            t->nbuf = 0;
            /* one region: until the warp reaches a barrier or exits */
            while (w->status == PTX_WARP_READY) {
                if (ptx_grid_check_limits(g, g->ctas_done, UINT64_MAX, 0))
                    return -1;
                if (t->nbuf == KT_REGION_CAP && emit_region(t, c, w, core, 0) != 0)
                    return sink_fail(g);
                uint64_t before = w->issued;
                struct warp_inst *wi = &t->buf[t->nbuf];
                int st = ptx_warp_step(w, wi);
                if (st == PTX_WARP_FAULT || g->err)
                    return -1;
                if (w->issued == before)
                    continue;   /* settled its stack without executing */
                t->nbuf++;
                t->st.warp_insns++;
                if (wi->cls == WI_BARRIER)
                    break;   /* the region ends here even when this warp released the barrier */
            }
            if (emit_region(t, c, w, core, i == last_warp) != 0)
                return sink_fail(g);
        }
        if (c->warps_done == c->nwarps)
            return 0;
        if (!progress)
            return ptx_cta_run(c);   /* nothing can run: reports the deadlock as the functional driver does */
    }
}

int kt_run_grid(void *user, struct ptx_grid *g)
{
    struct kt_tracer *t = user;
    int idx = t->launch_index++;
    if (t->only_launch >= 0 && idx != t->only_launch)
        return ptx_grid_run(g);
    t->st.launches++;
    t->st.threads += (uint64_t)g->grid[0] * g->grid[1] * g->grid[2] * g->block[0] * g->block[1] * g->block[2];
    if (g->mem && g->mem->in_use > t->st.mem_bytes)
        t->st.mem_bytes = g->mem->in_use;
    struct ptx_cta c;
    if (ptx_cta_alloc(&c, g)) {
        g->err = PTX_EXEC_NOMEM;
        snprintf(g->msg, sizeof g->msg, "out of host memory for a CTA of kernel '%s'", g->kfunc->name);
        return -1;
    }
    int rc = 0;
    uint64_t linear = 0;
    uint32_t id[3];
    for (id[2] = 0; id[2] < g->grid[2] && !rc; id[2]++)
        for (id[1] = 0; id[1] < g->grid[1] && !rc; id[1]++)
            for (id[0] = 0; id[0] < g->grid[0] && !rc; id[0]++, linear++) {
                unsigned core = (unsigned)(linear % t->cores);
                ptx_cta_start(&c, id);
                rc = run_cta(t, &c, core);
                if (!rc) {
                    g->ctas_done++;
                    t->st.ctas++;
                    t->st.ctas_per_core[core]++;
                }
            }
    ptx_cta_free(&c);
    return rc;
}

/* ---- per-core trace files ----------------------------------------------------------------- */

struct kt_files {
    unsigned n;
    struct trace_writer *w[KT_MAX_CORES];
    char path[KT_MAX_CORES][1024];
};

static int files_emit(void *user, unsigned core, const struct trace_rec *r, enum kt_class c)
{
    struct kt_files *f = user;
    (void)c;
    if (core >= f->n || !f->w[core])
        return -1;
    return trace_write(f->w[core], r);
}

struct kt_files *kt_files_open(const char *dir, unsigned cores, int compress, char *err, size_t n)
{
    if (cores < 1 || cores > KT_MAX_CORES) {
        snprintf(err, n, "%u cores: must be 1 to %u", cores, (unsigned)KT_MAX_CORES);
        return NULL;
    }
    struct kt_files *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, n, "out of host memory");
        return NULL;
    }
    f->n = cores;
    for (unsigned i = 0; i < cores; i++) {
        int len = snprintf(f->path[i], sizeof f->path[i], "%s/core%u.trace%s", dir, i, compress ? ".gz" : "");
        if (len < 0 || (size_t)len >= sizeof f->path[i]) {
            snprintf(err, n, "%s: directory name too long", dir);
            kt_files_close(f, NULL, 0);
            return NULL;
        }
        f->w[i] = trace_create(f->path[i], err, n);
        if (!f->w[i]) {
            kt_files_close(f, NULL, 0);
            return NULL;
        }
    }
    return f;
}

struct kt_sink kt_files_sink(struct kt_files *f)
{
    struct kt_sink s = {files_emit, f};
    return s;
}

const char *kt_files_path(const struct kt_files *f, unsigned core)
{
    return core < f->n ? f->path[core] : NULL;
}

int kt_files_close(struct kt_files *f, char *err, size_t n)
{
    int rc = 0;
    if (!f)
        return 0;
    for (unsigned i = 0; i < f->n; i++) {
        if (!f->w[i])
            continue;
        char e[600];
        if (trace_finish(f->w[i], e, sizeof e) != 0 && rc == 0) {
            rc = -1;
            if (err && n)
                snprintf(err, n, "%s", e);
        }
    }
    free(f);
    return rc;
}

/* ---- the traces on CPU cores ------------------------------------------------------------- */

int kt_run_cores(const char *const *paths, unsigned n, const struct cpu_mem_fixed_params *mp,
                 struct kt_core_result *res, uint64_t *total_cycles, char *err, size_t errn)
{
    if (n < 1 || n > KT_MAX_CORES) {
        snprintf(err, errn, "%u cores: must be 1 to %u", n, (unsigned)KT_MAX_CORES);
        return -1;
    }
    struct arena *a = arena_new(0);
    if (!a) {
        snprintf(err, errn, "out of host memory");
        return -1;
    }
    struct cpu_mem_fixed_params dp;
    if (!mp) {
        cpu_mem_fixed_params_default(&dp);
        mp = &dp;
    }
    struct cpu_core *core[KT_MAX_CORES] = {0};
    struct cpu_src *src[KT_MAX_CORES] = {0};
    sim_cycle done_at[KT_MAX_CORES];
    struct mem_req_pool pool;
    int rc = 0;
    memset(res, 0, sizeof *res * n);
    *total_cycles = 0;
    if (mem_req_pool_init(&pool, a, 256) != 0) {
        snprintf(err, errn, "out of host memory");
        arena_free(a);
        return -1;
    }
    struct cpu_mem_fixed *mem = cpu_mem_fixed_new(a, mp, &pool);
    unsigned busy = 0;
    for (unsigned i = 0; i < n && rc == 0; i++) {
        done_at[i] = SIM_NEVER;
        if (!paths[i])
            continue;
        src[i] = cpu_src_file(a, paths[i], err, errn);
        if (!src[i]) {
            rc = -1;
            break;
        }
        struct cpu_core_params cp;
        cpu_core_params_default(&cp);
        cp.id = (uint16_t)i;
        core[i] = cpu_core_new(a, &cp, src[i], &pool, err, errn);
        if (!core[i])
            rc = -1;
        else
            busy++;
    }
    sim_cycle now = 0;
    while (rc == 0 && busy) {
        struct mem_req *r;
        while ((r = cpu_mem_fixed_reply(mem, now)) != NULL) {
            SIM_ASSERT(r->sm < n && core[r->sm]);
            cpu_core_mem_reply(core[r->sm], r, now);
        }
        sim_cycle next = cpu_mem_fixed_next(mem);
        for (unsigned i = 0; i < n; i++) {
            if (!core[i] || done_at[i] != SIM_NEVER)
                continue;
            cpu_core_tick(core[i], now);
            while ((r = cpu_core_mem_peek(core[i], now)) != NULL && cpu_mem_fixed_send(mem, r, now))
                cpu_core_mem_pop(core[i]);
            if (cpu_core_done(core[i])) {
                done_at[i] = now;
                busy--;
                continue;
            }
            next = sim_min(next, cpu_core_next_event(core[i], now));
            sim_cycle out_next = cpu_core_mem_next(core[i]);
            if (out_next != SIM_NEVER)
                next = sim_min(next, sim_max(out_next, now + 1));
        }
        next = sim_min(next, cpu_mem_fixed_next(mem));
        if (busy && next == SIM_NEVER) {
            snprintf(err, errn, "CPU cores made no progress at cycle %llu (internal error)", (unsigned long long)now);
            rc = -1;
            break;
        }
        now = sim_max(next, now + 1);
    }
    for (unsigned i = 0; i < n; i++) {
        if (!core[i])
            continue;
        if (rc == 0 && cpu_core_error(core[i])[0]) {
            snprintf(err, errn, "%s", cpu_core_error(core[i]));
            rc = -1;
        }
        struct cpu_core_sample s0, s1;
        struct cpu_core_summary s;
        memset(&s0, 0, sizeof s0);
        cpu_core_sample(core[i], &s1);
        cpu_core_summarize(&s0, &s1, &s);
        res[i].insns = s.insns;
        res[i].cycles = done_at[i] == SIM_NEVER ? 0 : done_at[i] + 1;
        res[i].ipc = res[i].cycles ? (double)res[i].insns / (double)res[i].cycles : 0;
        res[i].l1_misses = s.l1_misses;
        res[i].l2_misses = s.l2_misses;
        if (res[i].cycles > *total_cycles)
            *total_cycles = res[i].cycles;
    }
    for (unsigned i = 0; i < n; i++)
        if (src[i])
            cpu_src_file_close(src[i]);
    arena_free(a);
    return rc;
}
