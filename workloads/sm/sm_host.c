/*
 * sm_host.c - driver for the MapReduce string match (workloads/sm/sm.cu, Mars SM; 000 Tables 4.2/5.3).
 *
 * Input: lines of 4..30 words (4..12 at tiny size) drawn from a vocabulary of
 * random lower-case words (Zipf-like frequencies), about 120 bytes a line, and 8
 * keywords of 3..9 letters.  One word in 40 is replaced by a keyword, either
 * alone or glued inside a vocabulary word ("xxKEYWORDyy"); one keyword is
 * periodic ("abab...") and is sometimes written twice overlapping, and the
 * 3-letter keywords also occur by chance.  One thread matches one line.
 * Check: a CPU scan of every line position against every keyword with memcmp
 * (per line and keyword: the number of occurrences, overlapping ones
 * included, and the offset of the first).  Exact.
 */
#include <string.h>

#include "common/wl_util.h"

#define SM_BLOCK 128
#define SM_MAX_KW 8
#define SM_MAX_LEN 16

struct sm_input {
    char *text;
    uint32_t *off;   /* n_lines + 1 line starts */
    int n_lines;
    unsigned char kw[SM_MAX_KW * SM_MAX_LEN];
    int32_t kw_len[SM_MAX_KW];
};

static void sm_word(struct wl_rng *rng, char *w, uint32_t len)
{
    for (uint32_t j = 0; j < len; j++)
        w[j] = (char)('a' + wl_rng_below(rng, 26));
    w[len] = '\0';
}

static void sm_generate(struct sm_input *in, struct wl_rng *rng, int n_lines, int v, uint32_t max_words)
{
    char *vocab = wl_alloc((size_t)v * 16);
    for (int i = 0; i < v; i++)
        sm_word(rng, vocab + (size_t)i * 16, 1 + wl_rng_below(rng, 4) + wl_rng_below(rng, 5) + wl_rng_below(rng, 5));
    memset(in->kw, 0, sizeof in->kw);
    for (int k = 0; k < SM_MAX_KW; k++) {
        uint32_t len = k < 2 ? 3 : 4 + wl_rng_below(rng, 6);
        char w[SM_MAX_LEN + 1];
        sm_word(rng, w, len);
        if (k == SM_MAX_KW - 1) {   /* periodic: "abababababa" holds it 3 times */
            memcpy(w, "abababa", 8);
            len = 7;
        }
        memcpy(in->kw + k * SM_MAX_LEN, w, len);
        in->kw_len[k] = (int32_t)len;
    }
    in->n_lines = n_lines;
    in->off = wl_alloc(((size_t)n_lines + 1) * sizeof(uint32_t));
    in->text = wl_alloc((size_t)n_lines * 512 + 64);
    size_t at = 0;
    for (int l = 0; l < n_lines; l++) {
        in->off[l] = (uint32_t)at;
        uint32_t n_words = 4 + wl_rng_below(rng, max_words - 3);
        for (uint32_t i = 0; i < n_words; i++) {
            if (i)
                in->text[at++] = ' ';
            if (wl_rng_below(rng, 40) == 0) {
                uint32_t k = wl_rng_below(rng, SM_MAX_KW), glue = wl_rng_below(rng, 3);
                if (glue)
                    in->text[at++] = (char)('a' + wl_rng_below(rng, 26));
                memcpy(in->text + at, in->kw + k * SM_MAX_LEN, (size_t)in->kw_len[k]);
                at += (size_t)in->kw_len[k];
                if (k == SM_MAX_KW - 1 && glue == 2) {
                    memcpy(in->text + at, "baba", 4);   /* overlapping repeats */
                    at += 4;
                }
                if (glue)
                    in->text[at++] = (char)('a' + wl_rng_below(rng, 26));
            } else {
                double u = (double)wl_rng_u32(rng) / 4294967296.0;
                const char *w = vocab + (size_t)((double)v * u * u) * 16;
                size_t len = strlen(w);
                memcpy(in->text + at, w, len);
                at += len;
            }
        }
        in->text[at++] = '\n';
    }
    in->off[n_lines] = (uint32_t)at;
    memset(in->text + at, 0, 64);
    free(vocab);
}

static void sm_reference(const struct sm_input *in, uint32_t *counts, uint32_t *first)
{
    size_t n = (size_t)in->n_lines;
    for (size_t l = 0; l < n; l++)
        for (size_t k = 0; k < SM_MAX_KW; k++) {
            uint32_t c = 0, f = 0xffffffffu;
            size_t len = (size_t)in->kw_len[k];
            for (size_t p = in->off[l]; p + len <= in->off[l + 1]; p++)
                if (memcmp(in->text + p, in->kw + k * SM_MAX_LEN, len) == 0) {
                    if (!c)
                        f = (uint32_t)(p - in->off[l]);
                    c++;
                }
            counts[k * n + l] = c;
            first[k * n + l] = f;
        }
}

static ws_status sm_device(ws_ctx *ctx, ws_module *mod, ws_devptr *d, const struct sm_input *in, uint32_t *counts,
                           uint32_t *first, unsigned *launches)
{
    int n = in->n_lines, n_kw = SM_MAX_KW;
    size_t out = (size_t)n * SM_MAX_KW * sizeof(uint32_t);
    WL_TRY(wl_upload(ctx, &d[0], in->text, (size_t)in->off[n] + 64));
    WL_TRY(wl_upload(ctx, &d[1], in->off, ((size_t)n + 1) * sizeof(uint32_t)));
    WL_TRY(wl_upload(ctx, &d[2], in->kw, sizeof in->kw));
    WL_TRY(wl_upload(ctx, &d[3], in->kw_len, sizeof in->kw_len));
    WL_TRY(wl_upload(ctx, &d[4], NULL, out));
    WL_TRY(wl_upload(ctx, &d[5], NULL, out));
    void *args[] = {&d[0], &d[1], &n, &d[2], &d[3], &n_kw, &d[4], &d[5]};
    WL_TRY(wsLaunchKernel(ctx, mod, "sm_match", ws_dim((unsigned)((n + SM_BLOCK - 1) / SM_BLOCK), 1, 1),
                          ws_dim(SM_BLOCK, 1, 1), 0, args));
    (*launches)++;
    WL_TRY(wsMemcpyDtoH(ctx, counts, d[4], out));
    return wsMemcpyDtoH(ctx, first, d[5], out);
}

static ws_status sm_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: 320K lines, about 32 MB of text (Mars SM's inputs run from 32 to 256 MB) */
    int n_lines = WL_BY_SIZE(o, 320, 24000, 320000), v = WL_BY_SIZE(o, 800, 8000, 40000);
    struct sm_input in;
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    sm_generate(&in, &rng, n_lines, v, (uint32_t)WL_BY_SIZE(o, 12, 30, 30));
    size_t n_out = (size_t)n_lines * SM_MAX_KW;
    uint32_t *counts = wl_alloc(n_out * sizeof(uint32_t)), *first = wl_alloc(n_out * sizeof(uint32_t));
    uint32_t *rcounts = wl_alloc(n_out * sizeof(uint32_t)), *rfirst = wl_alloc(n_out * sizeof(uint32_t));
    ws_devptr d[6] = {0, 0, 0, 0, 0, 0};
    ws_status st = sm_device(ctx, mod, d, &in, counts, first, &r->launches);
    if (st == WS_SUCCESS) {
        sm_reference(&in, rcounts, rfirst);
        wl_check_u32(r, "occurrences per line and keyword", counts, rcounts, n_out);
        wl_check_u32(r, "first offsets", first, rfirst, n_out);
        if (o->verbose) {
            fprintf(o->log, "sm: %d lines, %u bytes; occurrences per keyword:", n_lines, in.off[n_lines]);
            for (size_t k = 0; k < SM_MAX_KW; k++) {
                uint64_t t = 0;
                for (size_t l = 0; l < (size_t)n_lines; l++)
                    t += rcounts[k * (size_t)n_lines + l];
                fprintf(o->log, " %.*s=%llu", in.kw_len[k], (const char *)in.kw + k * SM_MAX_LEN,
                        (unsigned long long)t);
            }
            fprintf(o->log, "\n");
        }
    }
    for (int i = 0; i < 6; i++)
        if (d[i])
            wsFree(ctx, d[i]);
    free(in.text);
    free(in.off);
    free(counts);
    free(first);
    free(rcounts);
    free(rfirst);
    return st;
}

const struct workload wl_sm = {
    .name = "sm",
    .summary = "MapReduce string match (Mars SM; 000 Tables 4.2/5.3): one thread per text line, byte-wise "
               "first-byte filter and compare against 8 keywords in shared memory, per-line counts and offsets",
    .tolerance = "exact",
    .run = sm_run,
};
