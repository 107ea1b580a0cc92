/*
 * nw_host.c - driver for Needleman-Wunsch (workloads/nw/nw.cu).
 *
 * Two random protein-like sequences of length n (an alphabet of 24 symbols)
 * are aligned with a symmetric substitution table in the range of BLOSUM62
 * (matches +4..+11, mismatches -4..+3; generated from the seed, not the real
 * table) and a linear gap penalty of 10, as in Rodinia's default run.  As in
 * Rodinia the host builds the reference matrix ref(i, j) = sub[a_i][b_j] and
 * the score matrix with its gap-penalty borders; the GPU fills the rest one
 * block anti-diagonal per launch.  The CPU reference is the textbook DP.
 */
#include "common/wl_util.h"

#define NW_NB 16        /* must match NB in nw.cu */
#define NW_ALPHABET 24
#define NW_PENALTY 10

static void nw_make_table(struct wl_rng *rng, int sub[NW_ALPHABET][NW_ALPHABET])
{
    for (int a = 0; a < NW_ALPHABET; a++) {
        sub[a][a] = 4 + (int)wl_rng_below(rng, 8);
        for (int b = 0; b < a; b++)
            sub[a][b] = sub[b][a] = -4 + (int)wl_rng_below(rng, 8);
    }
}

static ws_status nw_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d_score, ws_devptr *d_ref, const int32_t *score,
                           const int32_t *ref, int32_t *out, int n, unsigned *launches)
{
    int cols = n + 1, nb = n / NW_NB, penalty = NW_PENALTY;
    size_t bytes = (size_t)cols * (size_t)cols * sizeof(int32_t);
    WL_TRY(wl_upload(ctx, d_score, score, bytes));
    WL_TRY(wl_upload(ctx, d_ref, ref, bytes));
    for (int diag = 0; diag < 2 * nb - 1; diag++) {
        int blocks = (diag < nb ? diag : 2 * nb - 2 - diag) + 1;
        void *args[] = {d_score, d_ref, &cols, &diag, &nb, &penalty};
        WL_TRY(wsLaunchKernel(ctx, mod, "nw_block_diagonal", ws_dim((unsigned)blocks, 1, 1), ws_dim(NW_NB, 1, 1), 0,
                              args));
        (*launches)++;
    }
    return wsMemcpyDtoH(ctx, out, *d_score, bytes);
}

static int nw_max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

static ws_status nw_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: Rodinia's default run, 2048 x 2048 with penalty 10 */
    int n = WL_BY_SIZE(o, 128, 1536, 2048); /* multiple of NW_NB */
    size_t cols = (size_t)n + 1, cells = cols * cols;

    int sub[NW_ALPHABET][NW_ALPHABET];
    uint8_t *seq_a = wl_alloc((size_t)n), *seq_b = wl_alloc((size_t)n);
    int32_t *ref = wl_alloc(cells * sizeof(int32_t));
    int32_t *score = wl_alloc(cells * sizeof(int32_t));
    int32_t *out = wl_alloc(cells * sizeof(int32_t));

    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    nw_make_table(&rng, sub);
    for (int i = 0; i < n; i++) {
        seq_a[i] = (uint8_t)wl_rng_below(&rng, NW_ALPHABET);
        seq_b[i] = (uint8_t)wl_rng_below(&rng, NW_ALPHABET);
    }
    /* row/column 0 of ref are unused (0); score starts with only its borders */
    for (size_t i = 1; i < cols; i++)
        for (size_t j = 1; j < cols; j++)
            ref[i * cols + j] = sub[seq_a[i - 1]][seq_b[j - 1]];
    for (size_t k = 0; k < cols; k++) {
        score[k] = -(int32_t)k * NW_PENALTY;
        score[k * cols] = -(int32_t)k * NW_PENALTY;
    }

    ws_devptr d_score = 0, d_ref = 0;
    ws_status st = nw_device(ctx, mod, &d_score, &d_ref, score, ref, out, n, &r->launches);
    if (st == WS_SUCCESS) {
        for (size_t i = 1; i < cols; i++)
            for (size_t j = 1; j < cols; j++)
                score[i * cols + j] = nw_max3(score[(i - 1) * cols + j - 1] + sub[seq_a[i - 1]][seq_b[j - 1]],
                                              score[i * cols + j - 1] - NW_PENALTY,
                                              score[(i - 1) * cols + j] - NW_PENALTY);
        wl_check_i32(r, "score matrix", out, score, cells);
        if (o->verbose)
            fprintf(o->log, "nw: %d x %d, %u launches, alignment score %d\n", n, n, r->launches,
                    score[cells - 1]);
    }
    if (d_score) wsFree(ctx, d_score);
    if (d_ref) wsFree(ctx, d_ref);
    free(seq_a);
    free(seq_b);
    free(ref);
    free(score);
    free(out);
    return st;
}

const struct workload wl_nw = {
    .name = "nw",
    .summary = "Needleman-Wunsch wavefront: one launch per 16x16-block diagonal (1..n/16 CTAs of 16 threads), "
               "shared tile, a barrier per cell diagonal",
    .tolerance = "exact",
    .run = nw_run,
};
