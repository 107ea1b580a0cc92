/* cli_common.c - helpers shared by the subcommands. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/config.h"
#include "cpu/kernel_trace.h"
#include "host/ws_internal.h"
#include "sys/gpu.h"

int cli_is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0; }

/* Digits only (decimal, or hex after 0x): strtoull alone would accept leading
   blanks and a sign, and turn " -1" into 2^64-1. */
int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    const char *d = s ? s : "";
    int hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
    size_t ndig = hex ? strspn(d + 2, "0123456789abcdefABCDEF") : strspn(d, "0123456789");
    if (ndig == 0 || d[(hex ? 2 : 0) + ndig] != '\0') {
        fprintf(stderr, "warpsim %s: option %s expects a non-negative integer (digits, or 0x and hex digits), got '%s'\n",
                cmd, opt, d);
        return -1;
    }
    errno = 0;
    unsigned long long v = strtoull(d, NULL, hex ? 16 : 10);
    if (errno == ERANGE) {
        fprintf(stderr, "warpsim %s: option %s: '%s' is larger than %llu\n", cmd, opt, d, (unsigned long long)UINT64_MAX);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_seconds(const char *cmd, const char *opt, const char *s, double *out)
{
    const char *d = s ? s : "";
    char *end = NULL;
    double v = 0;
    if (strspn(d, "0123456789.") == strlen(d) && *d)   /* no sign, blank, exponent, inf or nan */
        v = strtod(d, &end);
    if (!end || *end || !(v >= 0) || v > 1e12) {
        fprintf(stderr, "warpsim %s: option %s expects seconds (a non-negative number such as 600 or 0.5), got '%s'\n",
                cmd, opt, d);
        return -1;
    }
    *out = v;
    return 0;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Launch hook: fold each launch into its kernel's statistics; show progress. */
static void on_launch(void *user, const struct ws_launch_info *li)
{
    struct wl_exec *x = user;
    struct kernel_stats *k = NULL;
    for (unsigned i = 0; i < x->nkernels; i++)
        if (strcmp(x->kernels[i].name, li->kernel) == 0)
            k = &x->kernels[i];
    if (!k && x->nkernels < CLI_MAX_KERNELS) {
        k = &x->kernels[x->nkernels++];
        snprintf(k->name, sizeof k->name, "%s", li->kernel);
    }
    if (k) {
        k->launches++;
        k->ctas += li->ctas;
        k->thread_insns += li->thread_insns;
        k->warp_insns += li->warp_insns;
        for (int c = 0; c < PIC_COUNT; c++)
            k->iclass_warp[c] += li->iclass_warp[c];
        k->grid_x = li->grid.x, k->grid_y = li->grid.y, k->grid_z = li->grid.z;
        k->block_x = li->block.x, k->block_y = li->block.y, k->block_z = li->block.z;
        k->regs_per_thread = li->regs_per_thread;
        k->static_smem = li->static_smem;
        k->local_bytes = li->local_bytes;
    }
    for (int c = 0; c < PIC_COUNT; c++)
        x->iclass_warp[c] += li->iclass_warp[c];
    x->sim_seconds += li->wall_seconds;
    x->sim_cpu_seconds += li->cpu_seconds;
    if (x->progress == GPU_PROGRESS_TTY) {   /* plain-line mode: the timing model's periodic lines suffice */
        uint64_t total = 0;
        for (unsigned i = 0; i < x->nkernels; i++)
            total += x->kernels[i].warp_insns;
        fprintf(stderr, "\r[warpsim] %s: launch %llu (%s), %llu warp insns so far\033[K", x->wl->name,
                (unsigned long long)(k ? k->launches : 0), li->kernel, (unsigned long long)total);
        fflush(stderr);
    }
}

/* Build the timing machine: --config, then --warp-sched / --cta-sched / --l1-repl / --l2-repl, then --set
   (last wins). */
static ws_status setup_timing(ws_ctx *ctx, struct wl_exec *x)
{
    struct arena *a = arena_new(0);
    if (!a) {
        snprintf(x->error, sizeof x->error, "out of host memory");
        return WS_ERROR_OUT_OF_MEMORY;
    }
    struct cfg c;
    cfg_init(&c, a);
    ws_status st = WS_SUCCESS;
    if (cli_config_load(&c, x->config, x->error, sizeof x->error) != 0)
        st = WS_ERROR_INVALID_VALUE;
    if (st == WS_SUCCESS && x->warp_sched)
        cfg_set(&c, "gpgpu_scheduler", x->warp_sched, "--warp-sched");
    else if (st == WS_SUCCESS && x->cm && strcmp(x->cm, "none") != 0)   /* 004: SWL with GTO is what a manager drives */
        cfg_set(&c, "gpgpu_scheduler", "swl", "--cm");
    if (st == WS_SUCCESS && x->cm)
        cfg_set(&c, "warpsim_cm", x->cm, "--cm");
    if (st == WS_SUCCESS && x->cpu_apps)
        cfg_set(&c, "warpsim_cpu_apps", x->cpu_apps, "--cpu-mix");
    if (st == WS_SUCCESS && x->cta_sched)
        cfg_set(&c, "warpsim_cta_scheduler", x->cta_sched, "--cta-sched");
    if (st == WS_SUCCESS && x->l1_repl)
        cfg_set(&c, "warpsim_l1d_repl", x->l1_repl, "--l1-repl");
    if (st == WS_SUCCESS && x->l2_repl)
        cfg_set(&c, "warpsim_l2_repl", x->l2_repl, "--l2-repl");
    if (st == WS_SUCCESS && x->l1_bypass)
        cfg_set(&c, "warpsim_l1d_bypass", x->l1_bypass, "--l1-bypass");
    if (st == WS_SUCCESS && x->l2_bypass)
        cfg_set(&c, "warpsim_l2_bypass", x->l2_bypass, "--l2-bypass");
    for (unsigned i = 0; st == WS_SUCCESS && i < x->nset; i++)
        if (cfg_set(&c, x->set_names[i], x->set_values[i], "--set") != 0) {
            snprintf(x->error, sizeof x->error, "--set %s=%s: not an option assignment", x->set_names[i],
                     x->set_values[i]);
            st = WS_ERROR_INVALID_VALUE;
        }
    if (st == WS_SUCCESS) {
        st = ws_set_timing_config(ctx, &c, x->warn_unknown, stderr);
        if (st != WS_SUCCESS)
            snprintf(x->error, sizeof x->error, "%s", wsGetErrorMessage(ctx));
    }
    if (st == WS_SUCCESS && (x->timeseries_path || x->warps_path)) {
        st = ws_set_timing_outputs(ctx, x->timeseries_path, x->warps_path);
        if (st != WS_SUCCESS)
            snprintf(x->error, sizeof x->error, "%s", wsGetErrorMessage(ctx));
    }
    arena_free(a);
    return st;
}

/* Everything `f` writes, as a malloc'ed string. */
#define CAPTURE(dst, call)                          \
    do {                                            \
        char *buf_ = NULL;                          \
        size_t len_ = 0;                            \
        FILE *f = open_memstream(&buf_, &len_);     \
        if (f) {                                    \
            call;                                   \
            fclose(f);                              \
        }                                           \
        (dst) = buf_;                               \
    } while (0)

/* The workload's embedded PTX as a module of ctx, named as its source file in messages. */
static ws_status wl_module_load(ws_ctx *ctx, const struct workload *wl, ws_module **mod)
{
    size_t len = 0;
    const char *text = wl_ptx_text(wl->name, &len);
    char name[256];
    snprintf(name, sizeof name, "workloads/%s/%s.ptx", wl->name, wl->name);
    return text ? wsModuleLoadData(ctx, mod, text, len, name) : WS_ERROR_NOT_FOUND;
}

ws_status cli_exec_workload(struct wl_exec *x)
{
    ws_ctx *ctx = NULL;
    ws_module *mod = NULL;
    ws_ctx_opts co = {0};
    co.mode = x->timing ? WS_MODE_TIMING : WS_MODE_FUNCTIONAL;
    memset(&x->result, 0, sizeof x->result);
    memset(&x->stats, 0, sizeof x->stats);
    x->error[0] = '\0';
    x->setup_failed = 0;
    x->status = ws_create_ex(&ctx, &co, x->error, sizeof x->error);
    if (x->status != WS_SUCCESS) {
        if (!x->error[0])
            snprintf(x->error, sizeof x->error, "cannot create a simulation context: %s", wsStatusName(x->status));
        return x->status;
    }
    if (x->timing) {
        x->status = setup_timing(ctx, x);
        if (x->status != WS_SUCCESS) {
            x->setup_failed = 1;
            wsDestroy(ctx);
            return x->status;
        }
        gpu_set_progress(ws_gpu(ctx), (enum gpu_progress)x->progress);
        if (x->progress)
            gpu_set_progress_expect(ws_gpu(ctx), cli_known_warp_insns(x));
    }
    x->nkernels = 0;
    x->sim_seconds = 0;
    x->sim_cpu_seconds = 0;
    memset(x->iclass_warp, 0, sizeof x->iclass_warp);
    ws_set_launch_hook(ctx, on_launch, x);
    wsSetLimits(ctx, &x->limits);
    if (x->ptx_path) {
        x->status = wsModuleLoadFile(ctx, &mod, x->ptx_path);
        if (x->status != WS_SUCCESS) {   /* the user's PTX file: a bad input, not a simulation error */
            snprintf(x->error, sizeof x->error, "--ptx: %s", wsGetErrorMessage(ctx));
            x->setup_failed = 1;
            wsDestroy(ctx);
            return x->status;
        }
    } else {
        size_t len = 0;
        x->status = wl_module_load(ctx, x->wl, &mod);
        const char *pa = x->status == WS_SUCCESS ? cli_wl_ptxas_text(x->wl->name, &len) : NULL;
        if (pa)
            ws_module_apply_ptxas(mod, pa, len);
    }
    if (x->status == WS_SUCCESS) {
        x->result.verified = 1;
        double t0 = cli_now();
        x->status = x->wl->run(ctx, mod, &x->opts, &x->result);
        /* the chip's CPU cores finish their measured quotas after the GPU's last kernel */
        char cmsg[512];
        if (x->status == WS_SUCCESS && ws_gpu(ctx) && gpu_cpu_finish(ws_gpu(ctx), cmsg, sizeof cmsg) != 0) {
            x->status = WS_ERROR_LAUNCH_FAILED;
            snprintf(x->error, sizeof x->error, "%s", cmsg);
            x->cpu_failed = 1;
        }
        x->host_seconds = cli_now() - t0;
        if (x->status != WS_SUCCESS)
            x->result.verified = 0;
    }
    if (x->status != WS_SUCCESS && !x->cpu_failed)
        snprintf(x->error, sizeof x->error, "%s", wsGetErrorMessage(ctx));
    wsGetStats(ctx, &x->stats);
    struct gpu *g = ws_gpu(ctx);
    if (g) {
        x->gpu_cycles = gpu_total_cycles(g);
        x->cpu_insns = gpu_cpu_total_insns(g);
        x->n_cpu = gpu_cpu_count(g);
        x->cpu = x->n_cpu ? calloc(x->n_cpu, sizeof *x->cpu) : NULL;
        for (unsigned i = 0; x->cpu && i < x->n_cpu; i++) {
            (void)gpu_cpu_result(g, i, &x->cpu[i]);   /* cycles 0: not measured */
            if (x->cpu[i].app)   /* the context's memory goes: keep a copy */
                x->cpu[i].app = strdup(x->cpu[i].app);
        }
        CAPTURE(x->timing_text, gpu_report_text_ex(g, f, x->per_kernel_text));
        CAPTURE(x->timing_json, gpu_report_json(g, f, 2));
        CAPTURE(x->effective_config, (gpu_config_write(f, gpu_config(g)), gpu_write_policy_params(g, f)));
    }
    wsDestroy(ctx);
    if (x->progress == GPU_PROGRESS_TTY)
        fputs("\r\033[K", stderr);
    /* a verified run went through the whole instruction stream: its count is the next run's ETA */
    if (x->status == WS_SUCCESS && x->result.verified)
        cli_remember_warp_insns(x, x->stats.warp_insns);
    return x->status;
}

ws_ctx *cli_chip_cpu_run(struct cfg *c, const char *apps, uint64_t quota, const char *who, char *err, size_t en)
{
    char q[32];
    snprintf(q, sizeof q, "%" PRIu64, quota);
    if (cfg_set(c, "warpsim_cpu_apps", apps, who) != 0 || cfg_set(c, "warpsim_cpu_warmup", "0", who) != 0 ||
        cfg_set(c, "warpsim_cpu_quota", q, who) != 0) {
        snprintf(err, en, "out of host memory");
        return NULL;
    }
    ws_ctx *ctx = NULL;
    ws_ctx_opts co = {0};
    co.mode = WS_MODE_TIMING;
    if (ws_create_ex(&ctx, &co, err, en) != WS_SUCCESS) {
        if (ctx)
            wsDestroy(ctx);
        return NULL;
    }
    if (ws_set_timing_config(ctx, c, 0, stderr) != WS_SUCCESS) {
        snprintf(err, en, "%s", wsGetErrorMessage(ctx));
        wsDestroy(ctx);
        return NULL;
    }
    if (gpu_cpu_finish(ws_gpu(ctx), err, en) != 0) {
        wsDestroy(ctx);
        return NULL;
    }
    return ctx;
}

ws_status cli_traced_workload_run(const struct workload *wl, const struct wl_opts *o, struct kt_tracer *t,
                                  struct wl_result *res, char *err, size_t en)
{
    ws_ctx *ctx = NULL;
    ws_module *mod = NULL;
    ws_ctx_opts co = {0};
    co.mode = WS_MODE_FUNCTIONAL;
    memset(res, 0, sizeof *res);
    err[0] = '\0';
    ws_status st = wsCreate(&ctx, &co);
    if (st == WS_SUCCESS) {
        /* the limits of `warpsim run`: a kernel that never ends stops instead of tracing forever */
        ws_limits lim = {0};
        lim.max_warp_insns = CLI_DEFAULT_MAX_WARP_INSNS;
        lim.max_seconds = CLI_DEFAULT_MAX_SECONDS;
        wsSetLimits(ctx, &lim);
        ws_set_grid_runner(ctx, kt_run_grid, t);
        st = wl_module_load(ctx, wl, &mod);
    }
    if (st == WS_SUCCESS) {
        res->verified = 1;
        st = wl->run(ctx, mod, o, res);
    }
    if (st != WS_SUCCESS) {
        snprintf(err, en, "%s: %s", wl->name, ctx ? wsGetErrorMessage(ctx) : wsStatusName(st));
        res->verified = 0;
    }
    if (ctx)
        wsDestroy(ctx);
    return st;
}

int cli_exec_cpu_only(struct wl_exec *x, unsigned core, struct gpu_cpu_result *out)
{
    ws_ctx *ctx = NULL;
    ws_ctx_opts co = {0};
    co.mode = WS_MODE_TIMING;
    memset(out, 0, sizeof *out);
    x->error[0] = '\0';
    x->status = ws_create_ex(&ctx, &co, x->error, sizeof x->error);
    if (x->status == WS_SUCCESS)
        x->status = setup_timing(ctx, x);
    int rc = x->status == WS_SUCCESS ? 0 : -1;
    if (rc == 0 && gpu_cpu_finish(ws_gpu(ctx), x->error, sizeof x->error) != 0)
        rc = -1;
    if (rc == 0 && !gpu_cpu_result(ws_gpu(ctx), core, out)) {
        snprintf(x->error, sizeof x->error, "CPU core %u was not measured", core);
        rc = -1;
    }
    out->app = NULL;   /* the context's memory goes */
    wsDestroy(ctx);
    return rc;
}

void cli_exec_free(struct wl_exec *x)
{
    free(x->timing_text);
    free(x->timing_json);
    free(x->effective_config);
    for (unsigned i = 0; x->cpu && i < x->n_cpu; i++)
        free((char *)x->cpu[i].app);
    free(x->cpu);
    x->cpu = NULL;
    x->n_cpu = 0;
    x->timing_text = x->timing_json = x->effective_config = NULL;
}
