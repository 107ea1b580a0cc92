/*
 * hetero_metrics.c - seed 004's performance metrics of a run on the CPU-GPU
 * chip (sec. 5), from the shared run and the alone runs it needs:
 *   SU_GPU = IPC of the GPU workload with the CPU applications / IPC alone
 *            (the same machine, the CPU cores idle);
 *   WS_CPU = sum over the CPU applications of IPC shared / IPC alone, an
 *            application alone being it on one core of the same machine, no
 *            GPU kernel, the other cores idle (weighted speedup);
 *   OSS(a) = (1 - a) x WS_CPU + a x SU_GPU for a = 0, 0.1, ..., 1.
 * The CPU IPCs are each core's over its measured quota (sys/gpu_cpu.h).  An
 * application's alone IPC is measured on the core it ran on in the shared
 * run (the same distance to the memory nodes), the other cores idle ("-"),
 * over the same instructions: warmed up to the count at which the shared
 * run's measurement began, measured over as many as it retired then.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/json.h"

/* a copy of the shared run's settings with one more --set at the end (it wins) */
static void with_set(struct wl_exec *y, const struct wl_exec *x, const char *name, const char *value)
{
    memset(y, 0, sizeof *y);
    y->wl = x->wl;
    y->opts = x->opts;
    y->opts.log = NULL;
    y->ptx_path = x->ptx_path;
    y->limits = x->limits;
    y->timing = 1;
    y->config = x->config;
    y->warp_sched = x->warp_sched;
    y->cta_sched = x->cta_sched;
    y->cm = x->cm;
    y->l1_repl = x->l1_repl;
    y->l2_repl = x->l2_repl;
    y->l1_bypass = x->l1_bypass;
    y->l2_bypass = x->l2_bypass;
    y->cpu_apps = x->cpu_apps;
    y->warn_unknown = x->warn_unknown;
    y->nset = 0;
    for (unsigned i = 0; i < x->nset && y->nset < CLI_MAX_SETS - 1; i++) {
        y->set_names[y->nset] = x->set_names[i];
        y->set_values[y->nset++] = x->set_values[i];
    }
    y->set_names[y->nset] = name;
    y->set_values[y->nset++] = value;
}

int cli_hetero_metrics(const struct wl_exec *x, struct hetero_metrics *m, char *err, size_t n)
{
    memset(m, 0, sizeof *m);
    unsigned measured = 0;
    for (unsigned i = 0; i < x->n_cpu; i++)
        measured += x->cpu[i].app && x->cpu[i].cycles;
    if (!measured || x->status != WS_SUCCESS || !x->stats.gpu_cycles)
        return 0;   /* nothing to compare */
    /* the GPU alone: the same run, the CPU cores idle */
    struct wl_exec *y = calloc(1, sizeof *y);
    if (!y) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    with_set(y, x, "warpsim_cpu_apps", "");
    cli_exec_workload(y);
    if (y->status != WS_SUCCESS || !y->stats.gpu_cycles) {
        snprintf(err, n, "the GPU-alone run failed: %s", y->error);
        cli_exec_free(y);
        free(y);
        return -1;
    }
    m->gpu_cycles_alone = y->stats.gpu_cycles;
    m->gpu_ipc_alone = (double)y->stats.thread_insns / (double)y->stats.gpu_cycles;
    m->gpu_ipc_shared = (double)x->stats.thread_insns / (double)x->stats.gpu_cycles;
    m->su_gpu = m->gpu_ipc_shared / m->gpu_ipc_alone;
    cli_exec_free(y);

    /* each CPU application alone on its core */
    m->n_apps = 0;
    for (unsigned i = 0; i < x->n_cpu && m->n_apps < HETERO_MAX_APPS; i++) {
        const struct gpu_cpu_result *r = &x->cpu[i];
        if (!r->app || !r->cycles || !r->insns)
            continue;
        struct hetero_app *a = &m->app[m->n_apps++];
        a->core = i;
        a->app = r->app;
        a->ipc_shared = r->ipc;
        /* the application on its own core, the others idle: "-,-,...,app" */
        size_t len = 2 * (size_t)i + strlen(r->app) + 1;
        char *apps = malloc(len);
        if (!apps) {
            snprintf(err, n, "out of host memory");
            free(y);
            return -1;
        }
        apps[0] = '\0';
        for (unsigned k = 0; k < i; k++)
            strcat(apps, "-,");
        strcat(apps, r->app);
        with_set(y, x, "warpsim_cpu_apps", apps);
        /* measured over the same instructions as in the shared run: warmed up to where that began */
        char warm[32], quota[32];
        snprintf(warm, sizeof warm, "%llu", (unsigned long long)r->start_insns);
        snprintf(quota, sizeof quota, "%llu", (unsigned long long)r->insns);
        if (y->nset + 2 <= CLI_MAX_SETS) {
            y->set_names[y->nset] = "warpsim_cpu_warmup";
            y->set_values[y->nset++] = warm;
            y->set_names[y->nset] = "warpsim_cpu_quota";
            y->set_values[y->nset++] = quota;
        }
        struct gpu_cpu_result alone;
        int arc = cli_exec_cpu_only(y, i, &alone);
        free(apps);
        if (arc != 0 || !alone.cycles) {
            snprintf(err, n, "the alone run of CPU application %s (core %u) failed: %s", r->app, i, y->error);
            free(y);
            return -1;
        }
        a->ipc_alone = alone.ipc;
    }
    free(y);
    for (unsigned k = 0; k < m->n_apps; k++)
        m->ws_cpu += m->app[k].ipc_shared / m->app[k].ipc_alone;
    for (unsigned s = 0; s <= 10; s++) {
        double alpha = s / 10.0;
        m->oss[s] = (1 - alpha) * m->ws_cpu + alpha * m->su_gpu;
    }
    m->valid = 1;
    return 0;
}

void cli_hetero_print(FILE *f, const struct hetero_metrics *m)
{
    if (!m->valid)
        return;
    fprintf(f, "\n==== CPU-GPU metrics (seed 004 sec. 5) ====\n");
    fprintf(f, "gpu_ipc_shared = %.4f\ngpu_ipc_alone = %.4f\nSU_GPU = %.4f\n", m->gpu_ipc_shared, m->gpu_ipc_alone,
            m->su_gpu);
    for (unsigned k = 0; k < m->n_apps; k++)
        fprintf(f, "cpu%u %s: ipc_shared %.4f, ipc_alone %.4f, speedup %.4f\n", m->app[k].core, m->app[k].app,
                m->app[k].ipc_shared, m->app[k].ipc_alone, m->app[k].ipc_shared / m->app[k].ipc_alone);
    fprintf(f, "WS_CPU = %.4f (over %u applications; %.4f per application)\n", m->ws_cpu, m->n_apps,
            m->n_apps ? m->ws_cpu / m->n_apps : 0);
    fprintf(f, "OSS(alpha) =");
    for (unsigned s = 0; s <= 10; s++)
        fprintf(f, " %.1f:%.4f", s / 10.0, m->oss[s]);
    fputc('\n', f);
}

void cli_hetero_json(struct json *j, const struct hetero_metrics *m)
{
    if (!m->valid)
        return;
    json_obj(j, "hetero");
    json_dbl(j, "gpu_ipc_shared", m->gpu_ipc_shared);
    json_dbl(j, "gpu_ipc_alone", m->gpu_ipc_alone);
    json_u64(j, "gpu_cycles_alone", m->gpu_cycles_alone);
    json_dbl(j, "SU_GPU", m->su_gpu);
    json_dbl(j, "WS_CPU", m->ws_cpu);
    json_u64(j, "cpu_apps", m->n_apps);
    json_arr(j, "cpu");
    for (unsigned k = 0; k < m->n_apps; k++) {
        json_obj(j, NULL);
        json_u64(j, "core", m->app[k].core);
        json_str(j, "app", m->app[k].app);
        json_dbl(j, "ipc_shared", m->app[k].ipc_shared);
        json_dbl(j, "ipc_alone", m->app[k].ipc_alone);
        json_close(j);
    }
    json_close(j);
    json_arr(j, "OSS");
    for (unsigned s = 0; s <= 10; s++) {
        json_obj(j, NULL);
        json_dbl(j, "alpha", s / 10.0);
        json_dbl(j, "OSS", m->oss[s]);
        json_close(j);
    }
    json_close(j);
    json_close(j);
}
