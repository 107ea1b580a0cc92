/*
 * host_vecadd.c - a host program of its own linked against the installed warpsim library
 * (tests/cli/install_test.sh; README "Using warpsim from your own C program").
 *
 *     cc host_vecadd.c -o host_vecadd $(pkg-config --cflags --libs --static warpsim)
 *     ./host_vecadd vecadd.ptx [timing|functional]
 *
 * Loads the PTX of workloads/vecadd (c[i] = a[i] + b[i]), runs it on the simulated GPU (the cycle-level
 * timing model by default) and checks every element against the host's sum.  Exit status 0 when they all
 * match, 1 on a mismatch, 2 on an error from the API (its message is printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <warpsim/warpsim.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        ws_status st_ = (call);                                                                \
        if (st_ != WS_SUCCESS) {                                                               \
            fprintf(stderr, "host_vecadd: %s: %s: %s\n", #call, wsStatusName(st_),             \
                    ctx ? wsGetErrorMessage(ctx) : "");                                        \
            return 2;                                                                          \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: host_vecadd VECADD.ptx [timing|functional]\n");
        return 2;
    }
    ws_ctx_opts opts = {WS_MODE_TIMING, 0, NULL};
    if (argc == 3 && strcmp(argv[2], "functional") == 0)
        opts.mode = WS_MODE_FUNCTIONAL;

    enum { N = 10007, BLOCK = 128, GRID = 16 };   /* a grid-stride loop: several passes, a partial last one */
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(N - i) * 0.25f;
    }

    ws_ctx *ctx = NULL;
    ws_module *mod = NULL;
    ws_devptr da = 0, db = 0, dc = 0;
    CHECK(wsCreate(&ctx, &opts));
    CHECK(wsModuleLoadFile(ctx, &mod, argv[1]));
    CHECK(wsMalloc(ctx, &da, sizeof a));
    CHECK(wsMalloc(ctx, &db, sizeof b));
    CHECK(wsMalloc(ctx, &dc, sizeof c));
    CHECK(wsMemcpyHtoD(ctx, da, a, sizeof a));
    CHECK(wsMemcpyHtoD(ctx, db, b, sizeof b));
    CHECK(wsMemset(ctx, dc, 0, sizeof c));
    int n = N;
    void *args[] = {&da, &db, &dc, &n};
    CHECK(wsLaunchKernel(ctx, mod, "vecadd", ws_dim(GRID, 1, 1), ws_dim(BLOCK, 1, 1), 0, args));
    CHECK(wsMemcpyDtoH(ctx, c, dc, sizeof c));

    int bad = 0;
    for (int i = 0; i < N; i++) {
        if (c[i] != a[i] + b[i]) {
            if (bad++ < 5)
                fprintf(stderr, "host_vecadd: c[%d] = %g, expected %g\n", i, (double)c[i], (double)(a[i] + b[i]));
        }
    }
    ws_stats s;
    CHECK(wsGetStats(ctx, &s));
    printf("vecadd n=%d: %s; %llu kernel(s), %llu CTAs, %llu warp instructions, %llu GPU cycles\n", N,
           bad ? "MISMATCH" : "ok", (unsigned long long)s.kernels_launched, (unsigned long long)s.ctas_executed,
           (unsigned long long)s.warp_insns, (unsigned long long)s.gpu_cycles);
    CHECK(wsFree(ctx, da));
    CHECK(wsFree(ctx, db));
    CHECK(wsFree(ctx, dc));
    wsDestroy(ctx);
    return bad ? 1 : 0;
}
