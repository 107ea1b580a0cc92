/* cli_common.c - helpers shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "host/ws_internal.h"

int cli_is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0; }

int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!s || !*s || *s == '-') {
        fprintf(stderr, "warpsim %s: option %s expects a non-negative integer, got '%s'\n", cmd, opt, s ? s : "");
        return -1;
    }
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) {
        fprintf(stderr, "warpsim %s: option %s expects a non-negative integer, got '%s'\n", cmd, opt, s);
        return -1;
    }
    *out = (uint64_t)v;
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
    if (x->progress) {
        uint64_t total = 0;
        for (unsigned i = 0; i < x->nkernels; i++)
            total += x->kernels[i].warp_insns;
        fprintf(stderr, "\r[warpsim] %s: launch %llu (%s), %llu warp insns so far   ", x->wl->name,
                (unsigned long long)(k ? k->launches : 0), li->kernel, (unsigned long long)total);
        fflush(stderr);
    }
}

ws_status cli_exec_workload(struct wl_exec *x)
{
    ws_ctx *ctx = NULL;
    ws_module *mod = NULL;
    ws_ctx_opts co = {0};
    co.mode = WS_MODE_FUNCTIONAL;
    memset(&x->result, 0, sizeof x->result);
    memset(&x->stats, 0, sizeof x->stats);
    x->error[0] = '\0';
    x->status = wsCreate(&ctx, &co);
    if (x->status != WS_SUCCESS) {
        snprintf(x->error, sizeof x->error, "cannot create a simulation context: %s", wsStatusName(x->status));
        return x->status;
    }
    x->nkernels = 0;
    x->sim_seconds = 0;
    memset(x->iclass_warp, 0, sizeof x->iclass_warp);
    ws_set_launch_hook(ctx, on_launch, x);
    ws_set_insn_limit(ctx, x->max_warp_insns);
    if (x->ptx_path) {
        x->status = wsModuleLoadFile(ctx, &mod, x->ptx_path);
    } else {
        size_t len = 0;
        const char *text = wl_ptx_text(x->wl->name, &len);
        char name[256];
        snprintf(name, sizeof name, "workloads/%s/%s.ptx", x->wl->name, x->wl->name);
        x->status = text ? wsModuleLoadData(ctx, &mod, text, len, name) : WS_ERROR_NOT_FOUND;
    }
    if (x->status == WS_SUCCESS) {
        x->result.verified = 1;
        double t0 = cli_now();
        x->status = x->wl->run(ctx, mod, &x->opts, &x->result);
        x->host_seconds = cli_now() - t0;
        if (x->status != WS_SUCCESS)
            x->result.verified = 0;
    }
    if (x->status != WS_SUCCESS)
        snprintf(x->error, sizeof x->error, "%s", wsGetErrorMessage(ctx));
    wsGetStats(ctx, &x->stats);
    wsDestroy(ctx);
    if (x->progress)
        fputs("\r\033[K", stderr);
    return x->status;
}
