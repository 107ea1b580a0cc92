/*
 * gpu.c - assembly of the simulated GPU (gpu.h): SMs, the request and reply
 * crossbars, memory sub-partitions and DRAM channels built from a struct
 * gpu_config, the statistics registry, outputs.  The clock engine is in
 * gpu_run.c, the reports in gpu_report.c.
 *
 * Counter names registered here (components add theirs under these prefixes):
 *   sm<i>.*           SM i (its L1 caches under sm<i>.l1d, ...)
 *   icnt_req.*, icnt_rep.*   the request and reply networks (crossbars or meshes)
 *   part<p>.*         memory sub-partition p (its L2 slice under part<p>.l2)
 *   dram<c>.*         DRAM channel c
 *   gpu.*             whole-GPU counters kept by the engine (lat_rt, occupancy)
 */
#include "gpu_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/workers.h"
#include "mem/cache.h"
#include "policy/bypass.h"
#include "policy/repl.h"
#include "policy/warp_sched.h"

const struct gpu_config *gpu_config(const struct gpu *g) { return &g->cfg; }
const struct stats *gpu_stats(const struct gpu *g) { return &g->stats; }
uint64_t gpu_total_cycles(const struct gpu *g) { return g->tot_cycles; }
void gpu_set_progress(struct gpu *g, enum gpu_progress mode) { g->progress = (uint8_t)mode; }
void gpu_set_progress_expect(struct gpu *g, uint64_t warp_insns) { g->progress_expect = warp_insns; }
void gpu_set_idle_skip(struct gpu *g, bool on) { g->idle_skip = on; }

/* The config's strings point into the caller's cfg arena: copy them into ours
   so the GPU does not depend on the cfg's lifetime. */
static int copy_strings(struct gpu *g)
{
    for (size_t i = 0; i < gpu_config_nopts; i++) {
        const struct cfg_opt *o = &gpu_config_opts[i];
        if (o->type != CFG_STRING)
            continue;
        const char **p = (const char **)(void *)((char *)&g->cfg + o->offset);
        if (*p && !(*p = arena_strdup(g->arena, *p)))
            return -1;
    }
    return 0;
}

/* Host threads for the SMs: the option's count, or with 0 one per CPU, at most one per
   GPU_SMS_PER_THREAD SMs (a thread with fewer SMs spends more on the rounds' hand-offs than it
   saves); never more than the SMs. */
#define GPU_SMS_PER_THREAD 4
unsigned gpu_threads_for(unsigned option, unsigned n_sms)
{
    unsigned n = option;
    if (n == 0) {
        n = workers_cpus();
        unsigned cap = n_sms / GPU_SMS_PER_THREAD;
        n = n < cap ? n : cap;
    }
    n = n < n_sms ? n : n_sms;
    return n ? n : 1;
}

struct gpu *gpu_new(const struct gpu_config *cfg, char *msg, size_t n)
{
    if (n)
        msg[0] = '\0';
    struct gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(msg, n, "out of host memory");
        return NULL;
    }
    g->cfg = *cfg;
    g->arena = arena_new(1u << 20);
    if (!g->arena || copy_strings(g) != 0) {
        snprintf(msg, n, "out of host memory");
        gpu_free(g);
        return NULL;
    }
    const struct gpu_config *c = &g->cfg;
    g->n_sms = c->n_cores;
    g->n_chan = c->n_mem;
    g->n_parts = c->n_sub_partitions;
    if (g->n_sms == 0 || g->n_sms > 65535 || g->n_chan == 0 || g->n_parts == 0 || g->n_parts > 65535 ||
        g->n_parts != g->n_chan * c->n_sub_partition_per_mchannel) {
        snprintf(msg, n, "invalid machine: %u SMs, %u memory channels, %u sub-partitions", g->n_sms, g->n_chan,
                 g->n_parts);
        gpu_free(g);
        return NULL;
    }
    if (!c->ps_core || !c->ps_icnt || !c->ps_l2 || !c->ps_dram) {
        snprintf(msg, n, "invalid -gpgpu_clock_domains '%s': every clock needs a period", c->clock_domains);
        gpu_free(g);
        return NULL;
    }
    char names[256];
    if (!warp_sched_find(c->scheduler)) {
        warp_sched_names(names, sizeof names);
        snprintf(msg, n, "unknown warp scheduler '%s' (-gpgpu_scheduler); valid: %s", c->scheduler ? c->scheduler : "",
                 names);
        gpu_free(g);
        return NULL;
    }
    g->cta_ops = cta_sched_find(c->cta_scheduler);
    if (!g->cta_ops) {
        cta_sched_names(names, sizeof names);
        snprintf(msg, n, "unknown CTA scheduler '%s' (-warpsim_cta_scheduler); valid: %s",
                 c->cta_scheduler ? c->cta_scheduler : "", names);
        gpu_free(g);
        return NULL;
    }
    char emsg[256];
    unsigned col = 0;
    /* dedicated channels (-warpsim_mc_partition): each class spreads its addresses over its own channels
       with the same mapping string, so a sub-partition sees the addresses of one map only */
    unsigned gch = c->mc_gpu ? c->mc_gpu : c->n_mem, cch = c->mc_gpu ? c->mc_cpu : c->n_mem;
    if (addr_map_parse(&g->map, c->mem_addr_mapping, gch, c->n_sub_partition_per_mchannel, c->dram.nbk, emsg,
                       sizeof emsg, &col) != 0 ||
        addr_map_parse(&g->map_cpu, c->mem_addr_mapping, cch, c->n_sub_partition_per_mchannel, c->dram.nbk, emsg,
                       sizeof emsg, &col) != 0) {
        snprintf(msg, n, "-gpgpu_mem_addr_mapping \"%s\": column %u: %s", c->mem_addr_mapping, col, emsg);
        gpu_free(g);
        return NULL;
    }
    g->cpu_part0 = c->mc_gpu ? c->mc_gpu * c->n_sub_partition_per_mchannel : 0;

    struct arena *a = g->arena;
    stats_init(&g->stats, a);
    if (mem_req_pool_init(&g->pool, a, 1024) != 0)
        goto oom;
    g->sm_pool = arena_alloc(a, sizeof *g->sm_pool * g->n_sms);
    g->sm_arena = arena_alloc(a, sizeof *g->sm_arena * g->n_sms);
    g->due = arena_alloc(a, sizeof *g->due * g->n_sms);
    g->due_rc = arena_alloc(a, g->n_sms);
    if (!g->sm_pool || !g->sm_arena || !g->due || !g->due_rc)
        goto oom;
    for (unsigned i = 0; i < g->n_sms; i++) {
        g->sm_arena[i] = arena_new(0);
        if (!g->sm_arena[i] || mem_req_pool_init(&g->sm_pool[i], g->sm_arena[i], 256) != 0)
            goto oom;
    }
    g->sm = arena_alloc(a, sizeof *g->sm * g->n_sms);
    g->dram = arena_alloc(a, sizeof *g->dram * g->n_chan);
    g->part = arena_alloc(a, sizeof *g->part * g->n_parts);
    g->part_busy = arena_alloc(a, (g->n_parts + 7u) & ~7u);   /* whole words for part_busy_any */
    g->views = arena_alloc(a, sizeof *g->views * g->n_sms);
    g->cta_track_per_sm = 2 * (c->max_cta_per_core ? c->max_cta_per_core : 1);
    g->cta_track = arena_alloc(a, sizeof *g->cta_track * g->n_sms * g->cta_track_per_sm);
    g->ctr_res_warp_cycles_sm = arena_alloc(a, sizeof(uint64_t) * g->n_sms);
    g->res_since = arena_alloc(a, sizeof(sim_cycle) * g->n_sms);
    g->active_warps = arena_alloc(a, sizeof(unsigned) * g->n_sms);
    g->smt = arena_alloc(a, sizeof *g->smt * g->n_sms);
    g->inj_refused = arena_alloc(a, sizeof *g->inj_refused * g->n_sms);
    g->inj_version = arena_alloc(a, sizeof *g->inj_version * g->n_sms);
    g->hist = arena_alloc(a, sizeof(uint64_t) * GPU_HIST_BUCKETS);
    g->cta_state = arena_alloc(a, g->cta_ops->state_size ? g->cta_ops->state_size : 1);
    if (g->part_busy)
        memset(g->part_busy, 0, (g->n_parts + 7u) & ~7u);
    if (!g->sm || !g->dram || !g->part || !g->part_busy || !g->views || !g->cta_track || !g->ctr_res_warp_cycles_sm || !g->res_since ||
        !g->active_warps || !g->smt || !g->inj_refused || !g->inj_version || !g->hist || !g->cta_state)
        goto oom;

    char pfx[32];
    for (unsigned i = 0; i < g->n_sms; i++) {
        g->sm[i] = sm_new(a, c, i, &g->map, &g->sm_pool[i]);
        if (!g->sm[i])
            goto oom;
        snprintf(pfx, sizeof pfx, "sm%u", i);
        sm_reg_stats(g->sm[i], &g->stats, pfx);
        sm_set_warp_done_hook(g->sm[i], gpu_warp_done, g);
        sm_set_times_slot(g->sm[i], &g->smt[i]);
    }
    g->req_net = icnt_new_gpu(a, c, false, "icnt_req");
    g->rep_net = icnt_new_gpu(a, c, true, "icnt_rep");
    if (!g->req_net || !g->rep_net)
        goto oom;
    icnt_reg_stats(g->req_net, &g->stats, "icnt_req");
    icnt_reg_stats(g->rep_net, &g->stats, "icnt_rep");
    for (unsigned ch = 0; ch < g->n_chan; ch++) {
        g->dram[ch] = dram_new(a, c, ch);
        if (!g->dram[ch])
            goto oom;
        snprintf(pfx, sizeof pfx, "dram%u", ch);
        dram_reg_stats(g->dram[ch], &g->stats, pfx);
    }
    for (unsigned p = 0; p < g->n_parts; p++) {
        g->part[p] = partition_new(a, c, p, g->dram[p / c->n_sub_partition_per_mchannel],
                                   c->mc_gpu && p >= g->cpu_part0 ? &g->map_cpu : &g->map, &g->pool);
        if (!g->part[p])
            goto oom;
        snprintf(pfx, sizeof pfx, "part%u", p);
        partition_reg_stats(g->part[p], &g->stats, pfx);
        partition_publish_busy(g->part[p], &g->part_busy[p]);
    }
    if (gpu_cpus_new(g, msg, n) != 0) {
        gpu_free(g);
        return NULL;
    }
    stats_reg(&g->stats, &g->ctr_lat_rt_sum, "lat_rt: core cycles from a request leaving its SM to its reply "
              "reaching the SM, summed", "gpu.lat_rt_sum");
    stats_reg(&g->stats, &g->ctr_lat_rt_cnt, "replies delivered to SMs", "gpu.lat_rt_count");
    stats_reg(&g->stats, &g->ctr_res_warp_cycles, "active warps (holding a slot) summed over core cycles and SMs",
              "gpu.active_warp_cycles");
    for (unsigned i = 0; i < GPU_HIST_BUCKETS; i++)
        stats_reg(&g->stats, &g->hist[i], "lat_rt histogram bucket", "gpu.lat_rt_hist%u", i);
    stats_reg(&g->stats, &g->ctr_mem_req_alloc, "memory requests allocated (at the last kernel end)",
              "gpu.mem_req_allocated");
    stats_reg(&g->stats, &g->ctr_mem_req_retired, "memory requests retired (at the last kernel end)",
              "gpu.mem_req_retired");

    g->nsum = GS_FIXED + g->n_sms * PC_COUNT + GPU_HIST_BUCKETS + g->n_parts * PP_COUNT;
    g->sum_start = arena_alloc(a, sizeof(uint64_t) * g->nsum);
    g->sum_now = arena_alloc(a, sizeof(uint64_t) * g->nsum);
    g->sum_prev_sample = arena_alloc(a, sizeof(uint64_t) * g->nsum);
    if (!g->sum_start || !g->sum_now || !g->sum_prev_sample)
        goto oom;

    g->per[GD_CORE] = c->ps_core;
    g->per[GD_ICNT] = c->ps_icnt;
    g->per[GD_L2] = c->ps_l2;
    g->per[GD_DRAM] = c->ps_dram;
    g->per[GD_CPU] = c->ps_cpu;   /* edges only with CPU cores (gpu_run.c, edge_time) */
    for (int d = 0; d < GD_COUNT; d++) {
        g->cyc[d] = 0;
        g->last_tick[d] = SIM_NEVER;
        gpu_set_edge(g, d);
    }
    g->idle_skip = true;
    unsigned nt = gpu_threads_for(c->threads, g->n_sms);
    if (nt > 1) {
        g->team = workers_new(nt);
        if (!g->team) {
            snprintf(msg, n, "cannot start %u host threads (-warpsim_threads %u)", nt, c->threads);
            gpu_free(g);
            return NULL;
        }
        for (unsigned i = 0; i < g->n_sms; i++)
            sm_count_own(g->sm[i], true);
    }
    return g;

oom:
    snprintf(msg, n, "out of host memory building the simulated GPU");
    gpu_free(g);
    return NULL;
}

void gpu_free(struct gpu *g)
{
    if (!g)
        return;
    if (g->ts)
        fclose(g->ts);
    if (g->warps)
        fclose(g->warps);
    free(g->ts_path);
    free(g->warps_path);
    for (unsigned k = 0; k < g->nkernels; k++)
        free(g->kernels[k].sum);
    free(g->kernels);
    workers_free(g->team);
    for (unsigned i = 0; g->sm && i < g->n_sms; i++)
        sm_release(g->sm[i]);
    for (unsigned i = 0; g->sm_arena && i < g->n_sms; i++)
        if (g->sm_arena[i])
            arena_free(g->sm_arena[i]);
    gpu_locality_free(g->loc);   /* left by a failed launch (gpu_locality.c) */
    for (unsigned i = 0; g->cpu && i < g->n_cpus; i++)
        if (g->cpu[i].file)
            cpu_src_file_close(g->cpu[i].file);
    free(g->cta_dispatched);
    if (g->pparams.arena)
        arena_free(g->pparams.arena);
    if (g->arena)
        arena_free(g->arena);
    free(g);
}

int gpu_set_policy_params(struct gpu *g, struct cfg *c, struct cfg_error *err)
{
    if (g->pparams.arena)
        arena_free(g->pparams.arena);
    g->pparams.arena = arena_new(0);
    if (!g->pparams.arena) {
        snprintf(err->msg, sizeof err->msg, "out of host memory");
        return -1;
    }
    if (policy_params_collect(&g->pparams, c, err) != 0)
        return -1;
    for (unsigned i = 0; i < g->n_sms; i++)
        sm_set_policy_params(g->sm[i], &g->pparams);
    /* replacement and bypass parameters: re-create the policy state of every cache (the SMs'
       four, GPU_CACHE_L1D..TEX, and the L2 slices) whose policy has any (setup time: nothing
       has been accessed yet) */
    for (unsigned i = 0; i < g->n_sms + g->n_parts; i++) {
        for (unsigned k = 0; k < (i < g->n_sms ? 4u : 1u); k++) {
            struct cache *ca = i < g->n_sms ? sm_cache(g->sm[i], k) : partition_l2(g->part[i - g->n_sms]);
            const struct repl_ops *ro = ca ? repl_find(cache_repl_name(ca)) : NULL;
            const struct bypass_ops *bo = ca ? bypass_find(cache_bypass_name(ca)) : NULL;
            char msg[sizeof err->msg];
            if ((ro && ro->nparams && cache_set_repl_name(ca, ro->name, &g->pparams, msg, sizeof msg) != 0) ||
                (bo && bo->nparams && cache_set_bypass_name(ca, bo->name, &g->pparams, msg, sizeof msg) != 0)) {
                memset(err, 0, sizeof *err);
                snprintf(err->file, sizeof err->file, "%s", "command line");
                snprintf(err->msg, sizeof err->msg, "%s", msg);
                return -1;
            }
        }
    }
    return 0;
}

/* Apply the parameters to a scratch state of the policy and print its values. */
static void write_params(const struct gpu *g, FILE *f, const char *kind, const char *name, const struct cfg_opt *p,
                         size_t np, size_t state_size)
{
    if (!np)
        return;
    void *st = calloc(1, state_size ? state_size : 1);
    struct cfg_error e;
    if (st && policy_params_apply(g->pparams.arena ? &g->pparams : NULL, kind, name, p, np, st, &e) == 0)
        policy_params_write(f, kind, name, p, np, st);
    free(st);
}

void gpu_write_policy_params(const struct gpu *g, FILE *f)
{
    const struct warp_sched_ops *w = warp_sched_find(g->cfg.scheduler);
    if (w)
        write_params(g, f, "warp_sched", w->name, w->params, w->nparams, w->state_size);
    write_params(g, f, "cta_sched", g->cta_ops->name, g->cta_ops->params, g->cta_ops->nparams, g->cta_ops->state_size);
    /* every replacement policy in use, once (the parameters live in the state's fixed head) */
    for (unsigned i = 0; i < GPU_NCACHES; i++) {
        const struct repl_ops *r = repl_find(g->cfg.repl_name[i]);
        int seen = 0;
        for (unsigned j = 0; j < i && r; j++)
            seen |= repl_find(g->cfg.repl_name[j]) == r;
        if (r && !seen)
            write_params(g, f, "repl", r->name, r->params, r->nparams, r->state_size(1, 1));
    }
    /* every bypass policy in use, once */
    for (unsigned i = 0; i < GPU_NCACHES; i++) {
        const struct bypass_ops *b = bypass_find(g->cfg.bypass_name[i]);
        int seen = 0;
        for (unsigned j = 0; j < i && b; j++)
            seen |= bypass_find(g->cfg.bypass_name[j]) == b;
        if (b && !seen)
            write_params(g, f, "bypass", b->name, b->params, b->nparams, b->state_size(1, 1));
    }
}

/* Open (truncate) an output now, so that a bad path is reported before the run. */
static int open_output(FILE **f, char **path, const char *want, const char *what, char *msg, size_t n)
{
    if (*f) {
        fclose(*f);
        *f = NULL;
    }
    free(*path);
    *path = NULL;
    if (!want)
        return 0;
    *path = strdup(want);
    *f = fopen(want, "w");
    if (!*path || !*f) {
        snprintf(msg, n, "cannot write the %s file '%s'", what, want);
        if (*f)
            fclose(*f);
        *f = NULL;
        return -1;
    }
    return 0;
}

int gpu_set_outputs(struct gpu *g, const char *timeseries_csv, const char *warps_csv, char *msg, size_t n)
{
    if (open_output(&g->ts, &g->ts_path, timeseries_csv, "time series", msg, n) != 0)
        return -1;
    g->ts_header_done = 0;
    if (open_output(&g->warps, &g->warps_path, warps_csv, "per-warp", msg, n) != 0)
        return -1;
    g->warps_header_done = 0;
    return 0;
}
