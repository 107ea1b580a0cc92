/*
 * gpu_cpu.c - the CPU cores of the heterogeneous chip (gpu_cpu.h): their
 * parameters and applications from the config, their creation, the
 * measurement protocol and the results.  The engine (gpu_run.c) ticks them in
 * their clock domain and moves their requests through the networks.
 */
#include "sys/gpu_cpu.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpu/tracegen.h"
#include "sys/gpu_int.h"

#define GPU_CPU_ADDR_SHIFT 44   /* core i's addresses + (i + 1) << 44: disjoint from the GPU's and each other's */

int gpu_cpu_core_params(const struct gpu_config *g, unsigned core, struct cpu_core_params *p)
{
    cpu_core_params_default(p);
    p->width = g->cpu_width;
    p->rob_size = g->cpu_rob;
    p->l1_lat = g->cpu_l1_lat;
    p->l2_lat = g->cpu_l2_lat;
    p->mispredict_penalty = g->cpu_mispredict;
    p->l1d = g->cpu_l1d;
    p->l2 = g->cpu_l2;
    /* the cores run until the chip stops them: a trace starts again at its end */
    p->loop = true;
    p->quota = UINT64_MAX;
    p->id = (uint16_t)core;
    return 0;
}

/* ---- -warpsim_cpu_apps ---------------------------------------------------------------------- */

typedef int (*app_fn)(void *user, const char *name, bool is_file);

/* Call fn for every application of the list in order (mixes expanded).  0, or -1 with msg. */
static int apps_each(const char *apps, app_fn fn, void *user, char *msg, size_t len)
{
    const char *s = apps ? apps : "";
    while (*s) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        const char *e = s;
        while (*e && *e != ',')
            e++;
        size_t l = (size_t)(e - s);
        while (l && s[l - 1] == ' ')
            l--;
        char item[1024];
        if (l >= sizeof item) {
            snprintf(msg, len, "an item of %zu characters is too long", l);
            return -1;
        }
        memcpy(item, s, l);
        item[l] = '\0';
        s = e;
        if (!strcmp(item, "-") || !strcmp(item, "idle")) {   /* a core left idle */
            if (fn(user, NULL, false))
                return -1;
            continue;
        }
        const struct tracegen_mix *mix = tracegen_find_mix(item);
        if (mix) {
            for (unsigned k = 0; k < TRACEGEN_MIX_APPS; k++)
                if (fn(user, mix->apps[k], false))
                    return -1;
            continue;
        }
        if (tracegen_find(item)) {
            if (fn(user, tracegen_find(item)->name, false))
                return -1;
            continue;
        }
        if (access(item, R_OK) != 0) {
            snprintf(msg, len,
                     "'%.200s' is neither a profile (warpsim trace gen --list), a mix (L1, L2, M1, M2, H1, H2) nor a "
                     "readable trace file",
                     item);
            return -1;
        }
        if (fn(user, item, true))
            return -1;
    }
    return 0;
}

static int count_app(void *user, const char *name, bool is_file)
{
    (void)name;
    (void)is_file;
    ++*(unsigned *)user;
    return 0;
}

int gpu_cpu_apps_check(const char *apps, unsigned *n, char *msg, size_t len)
{
    *n = 0;
    return apps_each(apps, count_app, n, msg, len);
}

/* ---- creation --------------------------------------------------------------------------------- */

/* a source whose memory addresses are moved by `off` (the core's own region) */
struct off_src {
    struct cpu_src *in;
    uint64_t off;
};

static int off_next(void *ctx, struct trace_rec *r)
{
    struct off_src *o = ctx;
    int rc = o->in->next(o->in->ctx, r);
    if (rc == 1) {
        for (unsigned k = 0; k < TRACE_NUM_DST_MEM; k++)
            if (r->dst_mem[k])
                r->dst_mem[k] += o->off;
        for (unsigned k = 0; k < TRACE_NUM_SRC_MEM; k++)
            if (r->src_mem[k])
                r->src_mem[k] += o->off;
    }
    return rc;
}

static int off_rewind(void *ctx)
{
    struct off_src *o = ctx;
    return o->in->rewind ? o->in->rewind(o->in->ctx) : -1;
}

static const char *off_error(void *ctx)
{
    struct off_src *o = ctx;
    return o->in->error ? o->in->error(o->in->ctx) : "";
}

struct mk {
    struct gpu *g;
    unsigned next;
    char *msg;
    size_t len;
};

static int make_core(void *user, const char *name, bool is_file)
{
    struct mk *m = user;
    struct gpu *g = m->g;
    unsigned i = m->next++;
    if (!name)
        return 0;   /* idle */
    struct gpu_cpu_slot *k = &g->cpu[i];
    struct arena *a = g->arena;
    struct cpu_src *in;
    if (is_file) {
        in = cpu_src_file(a, name, m->msg, m->len);
        if (!in)
            return -1;
        k->file = in;
    } else {
        /* one seed for every core: a profile is the same stream on any core, so its alone run (on core 0)
           is its own baseline wherever it ran in the shared run (its addresses still differ per core) */
        struct tracegen *tg = tracegen_new(a, tracegen_find(name), g->cfg.cpu_seed);
        in = tracegen_src(a, tg, UINT64_MAX);
    }
    struct off_src *o = arena_alloc(a, sizeof *o);
    struct cpu_src *src = arena_alloc(a, sizeof *src);
    if (!o || !src || !in) {
        snprintf(m->msg, m->len, "out of host memory");
        return -1;
    }
    *o = (struct off_src){in, (uint64_t)(i + 1) << GPU_CPU_ADDR_SHIFT};
    *src = (struct cpu_src){o, off_next, off_rewind, off_error};
    struct cpu_core_params p;
    gpu_cpu_core_params(&g->cfg, i, &p);
    k->core = cpu_core_new(a, &p, src, &g->cpu_pool, m->msg, m->len);
    if (!k->core)
        return -1;
    k->app = arena_strdup(a, name);
    cpu_core_reg_stats(k->core, &g->stats);
    g->cpu_active++;
    return 0;
}

int gpu_cpus_new(struct gpu *g, char *msg, size_t n)
{
    g->n_cpus = g->cfg.cpu_cores;
    if (!g->n_cpus)
        return 0;
    g->cpu = arena_alloc(g->arena, sizeof *g->cpu * g->n_cpus);
    if (!g->cpu || mem_req_pool_init(&g->cpu_pool, g->arena, 256) != 0) {
        snprintf(msg, n, "out of host memory");
        return -1;
    }
    memset(g->cpu, 0, sizeof *g->cpu * g->n_cpus);
    for (unsigned i = 0; i < g->n_cpus; i++)
        g->cpu[i].done_cycle = SIM_NEVER;
    struct mk m = {g, 0, msg, n};
    char what[400] = "";
    if (apps_each(g->cfg.cpu_apps, make_core, &m, what, sizeof what) != 0) {
        if (what[0])
            snprintf(msg, n, "-warpsim_cpu_apps: %s", what);
        return -1;
    }
    return 0;
}

/* ---- the protocol --------------------------------------------------------------------------- */

/* From now on each busy core counts its quota. */
void gpu_cpus_start_measure(struct gpu *g, sim_cycle cpu_now)
{
    g->cpu_phase = GPU_CPU_MEASURING;
    g->cpu_pending = 0;
    g->ts_cpu_cycle = cpu_now;
    for (unsigned i = 0; i < g->n_cpus; i++) {
        struct gpu_cpu_slot *k = &g->cpu[i];
        if (!k->core)
            continue;
        cpu_core_sample(k->core, &k->s0);
        k->ts_insns = k->s0.core.insns;   /* the time series starts with the GPU too */
        k->start_cycle = cpu_now;
        k->done_cycle = SIM_NEVER;
        k->lat_sum0 = k->lat_sum;
        k->lat_cnt0 = k->lat_cnt;
        g->cpu_pending++;
    }
}

/* -warpsim_cpu_quota 0: the measurement of every core ends with the GPU's last kernel (CPU cycle c). */
void gpu_cpus_end_window(struct gpu *g, sim_cycle c)
{
    for (unsigned i = 0; i < g->n_cpus; i++) {
        struct gpu_cpu_slot *k = &g->cpu[i];
        if (!k->core || k->done_cycle != SIM_NEVER)
            continue;
        cpu_core_sample(k->core, &k->s1);
        k->done_cycle = c;
        k->lat_sum1 = k->lat_sum;
        k->lat_cnt1 = k->lat_cnt;
    }
    g->cpu_pending = 0;
    g->cpu_phase = GPU_CPU_DONE;
}

/* After core i's tick at CPU cycle c: has it reached its quota? */
void gpu_cpus_note(struct gpu *g, unsigned i, sim_cycle c)
{
    struct gpu_cpu_slot *k = &g->cpu[i];
    if (g->cpu_phase != GPU_CPU_MEASURING || k->done_cycle != SIM_NEVER || !g->cfg.cpu_quota)
        return;
    if (cpu_core_stats(k->core)->insns - k->s0.core.insns < g->cfg.cpu_quota)
        return;
    cpu_core_sample(k->core, &k->s1);
    k->done_cycle = c;
    k->lat_sum1 = k->lat_sum;
    k->lat_cnt1 = k->lat_cnt;
    if (--g->cpu_pending == 0)
        g->cpu_phase = GPU_CPU_DONE;
}

bool gpu_cpus_warm(const struct gpu *g)
{
    for (unsigned i = 0; i < g->n_cpus; i++)
        if (g->cpu[i].core && cpu_core_stats(g->cpu[i].core)->insns < g->cfg.cpu_warmup && !cpu_core_done(g->cpu[i].core))
            return false;
    return true;
}

unsigned gpu_cpu_count(const struct gpu *g) { return g->n_cpus; }

uint64_t gpu_cpu_total_insns(const struct gpu *g)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < g->n_cpus; i++)
        if (g->cpu[i].core)
            n += cpu_core_stats(g->cpu[i].core)->insns;
    return n;
}

bool gpu_cpu_result(const struct gpu *g, unsigned i, struct gpu_cpu_result *out)
{
    memset(out, 0, sizeof *out);
    if (i >= g->n_cpus || !g->cpu[i].core)
        return false;
    const struct gpu_cpu_slot *k = &g->cpu[i];
    out->app = k->app;
    if (k->done_cycle == SIM_NEVER)
        return false;
    struct cpu_core_summary s;
    cpu_core_summarize(&k->s0, &k->s1, &s);
    out->insns = s.insns;
    out->start_insns = k->s0.core.insns;
    out->cycles = k->done_cycle - k->start_cycle + 1;
    out->ipc = (double)out->insns / (double)out->cycles;
    out->l2_mpki = s.l2_mpki;
    uint64_t nlat = k->lat_cnt1 - k->lat_cnt0;
    out->avg_mem_latency = nlat ? (double)(k->lat_sum1 - k->lat_sum0) / (double)nlat : 0;
    return true;
}
