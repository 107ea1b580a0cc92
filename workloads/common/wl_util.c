/* wl_util.c - result checking and upload helpers for the host drivers. */
#include "wl_util.h"

#include <string.h>

static void note_ok(struct wl_result *r, const char *what, size_t n, const char *how)
{
    if (!r->verified)
        return;
    size_t used = strlen(r->detail);
    if (used < sizeof r->detail - 1)
        snprintf(r->detail + used, sizeof r->detail - used, "%s%s: %zu values %s", used ? "; " : "",
                 what, n, how);
}

static void note_bad(struct wl_result *r, const char *fmt_what, size_t i, const char *got, const char *want)
{
    if (r->verified || r->detail[0] == '\0' || strstr(r->detail, "mismatch") == NULL)
        snprintf(r->detail, sizeof r->detail, "%s mismatch at [%zu]: got %s, expected %s", fmt_what, i, got,
                 want);
    r->verified = 0;
}

int wl_check_i32(struct wl_result *r, const char *what, const int32_t *got, const int32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            char g[32], w[32];
            snprintf(g, sizeof g, "%d", got[i]);
            snprintf(w, sizeof w, "%d", want[i]);
            note_bad(r, what, i, g, w);
            return 0;
        }
    }
    note_ok(r, what, n, "exact");
    return 1;
}

int wl_check_u32(struct wl_result *r, const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            char g[32], w[32];
            snprintf(g, sizeof g, "%u", got[i]);
            snprintf(w, sizeof w, "%u", want[i]);
            note_bad(r, what, i, g, w);
            return 0;
        }
    }
    note_ok(r, what, n, "exact");
    return 1;
}

static int check_f(struct wl_result *r, const char *what, size_t n, double rel_tol, double abs_tol,
                   double (*get)(const void *, size_t), const void *got, const void *want)
{
    for (size_t i = 0; i < n; i++) {
        double g = get(got, i), w = get(want, i);
        double err = fabs(g - w);
        if (!(err <= abs_tol + rel_tol * fabs(w))) {   /* NaN fails */
            char gs[48], ws[48];
            snprintf(gs, sizeof gs, "%.9g", g);
            snprintf(ws, sizeof ws, "%.9g", w);
            note_bad(r, what, i, gs, ws);
            return 0;
        }
        if (err > r->max_abs_err)
            r->max_abs_err = err;
    }
    char how[96];
    snprintf(how, sizeof how, "within rel %.1e abs %.1e", rel_tol, abs_tol);
    note_ok(r, what, n, how);
    return 1;
}

static double get_f32(const void *p, size_t i) { return (double)((const float *)p)[i]; }
static double get_f64(const void *p, size_t i) { return ((const double *)p)[i]; }

int wl_check_f32(struct wl_result *r, const char *what, const float *got, const float *want, size_t n,
                 double rel_tol, double abs_tol)
{
    return check_f(r, what, n, rel_tol, abs_tol, get_f32, got, want);
}

int wl_check_f64(struct wl_result *r, const char *what, const double *got, const double *want, size_t n,
                 double rel_tol, double abs_tol)
{
    return check_f(r, what, n, rel_tol, abs_tol, get_f64, got, want);
}

ws_status wl_upload(ws_ctx *ctx, ws_devptr *dst, const void *src, size_t n)
{
    WL_TRY(wsMalloc(ctx, dst, n));
    if (src)
        return wsMemcpyHtoD(ctx, *dst, src, n);
    return wsMemset(ctx, *dst, 0, n);
}

ws_status wl_rounds_until_done(ws_ctx *ctx, ws_module *mod, ws_devptr d_flag, const char *ka, void **args_a,
                               const char *kb, void **args_b, ws_dim3 grid, ws_dim3 block, size_t max_rounds,
                               int32_t *rounds, struct wl_result *r)
{
    int32_t more = 1;
    *rounds = 0;
    while (more && (size_t)*rounds <= max_rounds) {
        more = 0;
        WL_TRY(wsMemcpyHtoD(ctx, d_flag, &more, sizeof more));
        WL_TRY(wsLaunchKernel(ctx, mod, ka, grid, block, 0, args_a));
        WL_TRY(wsLaunchKernel(ctx, mod, kb, grid, block, 0, args_b));
        r->launches += 2;
        WL_TRY(wsMemcpyDtoH(ctx, &more, d_flag, sizeof more));
        (*rounds)++;
    }
    return WS_SUCCESS;
}

void *wl_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "warpsim: out of host memory allocating %zu bytes\n", n);
        exit(2);
    }
    return p;
}
