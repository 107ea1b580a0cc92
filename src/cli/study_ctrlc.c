/*
 * study_ctrlc.c - `warpsim study ctrlc`: seed 000 (Lee) Fig. 5.7-5.10, L1D
 * management on the cache-sensitive workloads.
 *
 * Phase 1 (only without --workloads) classifies every application workload
 * as the l1-size study does: the 16 KB baseline and a 64 KB L1D, CS when
 * 64 KB gives more than 1.2x.  Phase 2 runs on the CS workloads (or on the
 * --workloads list as given): PC-based bypassing (--l1-bypass pcbased),
 * Ctrl-C (--l1-bypass ctrlc), SRRIP and SHiP replacement (--l1-repl), and a
 * 32 KB L1D (64 sets), each against the 16 KB LRU baseline without bypassing.
 * Reported per run (timing.totals of the JSON, src/sys/gpu_report.c):
 * speedup (cycles), L1D_MPKI_warp, L1_to_L2_bytes and
 * L1D_zero_reuse_fraction (evicted lines never hit after their fill).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "study.h"

#define CC_MAXW 64

enum { CC_BASE = 0, CC_PC, CC_CTRLC, CC_SRRIP, CC_SHIP, CC_32, CC_NP };
static const char *const cc_head[CC_NP] = {"16KB", "PC-based", "Ctrl-C", "SRRIP", "SHiP", "32KB"};
static const char *const cc_kind[CC_NP] = {NULL, "bypass", "bypass", "repl", "repl", NULL};
static const char *const cc_policy[CC_NP] = {NULL, "pcbased", "ctrlc", "srrip", "ship", NULL};

enum { CC_MPKI = 0, CC_TRAFFIC, CC_ZERO, CC_EVICTED, CC_NX };
static const char *const cc_stat[CC_NX] = {"timing.totals.L1D_MPKI_warp", "timing.totals.L1_to_L2_bytes",
                                           "timing.totals.L1D_zero_reuse_fraction",
                                           "timing.totals.L1D_evicted_lines"};

static struct sw_run cc_proto(const struct st_opts *o, const char *cfg, const char *wl, int p)
{
    struct sw_run r = {.workload = wl, .size = o->size, .config = cfg};
    if (p == CC_PC || p == CC_CTRLC) {
        r.nset = 1;
        r.set_name[0] = "warpsim_l1d_bypass";
        r.set_value[0] = cc_policy[p];
    } else if (p == CC_SRRIP || p == CC_SHIP) {
        r.nset = 1;
        r.set_name[0] = "warpsim_l1d_repl";
        r.set_value[0] = cc_policy[p];
    } else if (p == CC_32) {
        r.nset = 1;
        r.set_name[0] = "gpgpu_cache:dl1";
        r.set_value[0] = l1s_dl1(32);
    }
    return r;
}

int study_ctrlc(const struct st_opts *o)
{
    const char *cfg = o->config ? o->config : "gtx480";
    char apps[2048];
    l1s_all_apps(apps, sizeof apps);
    const char *cand[CC_MAXW];
    char skipped[512];
    size_t nc = st_workloads(o, apps, cand, CC_MAXW, skipped, sizeof skipped);
    if (nc == 0) {
        fprintf(stderr, "warpsim study ctrlc: no workload to run\n");
        return EXIT_USAGE;
    }
    char why[CC_NP][512];
    for (int p = 0; p < CC_NP; p++) {
        why[p][0] = '\0';
        if (cc_kind[p])
            st_policy_check(o, cc_kind[p], cc_policy[p], NULL, why[p], sizeof why[p]);
    }

    struct sw_list l;
    st_list_init(&l, o);
    /* phase 1: which workloads are cache-sensitive (skipped for a fixed list) */
    int classify = o->workloads == NULL;
    long base[CC_MAXW], big[CC_MAXW];
    double sp64[CC_MAXW];
    for (size_t i = 0; i < nc; i++) {
        struct sw_run r = cc_proto(o, cfg, cand[i], CC_BASE);
        base[i] = sw_add(&l, &r);
        big[i] = -1;
        sp64[i] = NAN;
        if (classify) {
            r.nset = 1;
            r.set_name[0] = "gpgpu_cache:dl1";
            r.set_value[0] = l1s_dl1(64);
            big[i] = sw_add(&l, &r);
        }
    }
    int ph = st_phase(o, &l, 0, classify ? "study ctrlc (1/2: 16 KB and 64 KB, which workloads are CS)"
                                         : "study ctrlc (1/2: 16 KB baselines)");
    if (ph != 0) {
        sw_list_free(&l);
        return ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
    }
    const char *names[CC_MAXW];
    size_t nw = 0;
    long run[CC_MAXW][CC_NP];
    double cls64[CC_MAXW];
    for (size_t i = 0; i < nc; i++) {
        if (classify) {
            const struct sw_metrics *a = st_m(&l, base[i]), *b = st_m(&l, big[i]);
            sp64[i] = a && b && b->cycles > 0 ? a->cycles / b->cycles : NAN;
            if (!(sp64[i] > 1.2))
                continue;
        }
        cls64[nw] = sp64[i];
        run[nw][CC_BASE] = base[i];
        names[nw++] = cand[i];
    }
    size_t first2 = l.n;
    for (size_t i = 0; i < nw; i++)
        for (int p = CC_PC; p < CC_NP; p++) {
            run[i][p] = -1;
            if (why[p][0] || !st_m(&l, run[i][CC_BASE]))
                continue;
            struct sw_run r = cc_proto(o, cfg, names[i], p);
            run[i][p] = sw_add(&l, &r);
        }
    ph = st_phase(o, &l, first2, "study ctrlc (2/2: PC-based, Ctrl-C, SRRIP, SHiP, 32 KB)");
    if (ph != 0) {
        sw_list_free(&l);
        return ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
    }

    double sp[CC_NP][CC_MAXW], x[CC_NP][CC_MAXW][CC_NX], nx[CC_NP][CC_NX][CC_MAXW];
    for (size_t i = 0; i < nw; i++) {
        const struct sw_metrics *b = st_m(&l, run[i][CC_BASE]);
        for (int p = 0; p < CC_NP; p++) {
            const struct sw_metrics *m = st_m(&l, run[i][p]);
            sp[p][i] = m && b && m->cycles > 0 ? b->cycles / m->cycles : NAN;
            st_run_stats(o, &l, run[i][p], cc_stat, CC_NX, x[p][i]);
        }
        for (int p = 0; p < CC_NP; p++)
            for (int k = 0; k < CC_NX; k++) {
                double v = x[p][i][k], v0 = x[CC_BASE][i][k];
                /* MPKI and traffic relative to the baseline; zero-reuse as a fraction */
                nx[p][k][i] = k == CC_ZERO ? v : v0 > 0 ? v / v0 : NAN;
            }
        /* no line evicted: no zero-reuse fraction (the report's 0 would read as "every line reused") */
        for (int p = 0; p < CC_NP; p++)
            if (!(x[p][i][CC_EVICTED] > 0))
                nx[p][CC_ZERO][i] = NAN;
    }

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    struct st_table *t[4];
    for (int k = 0; k < 4; k++)
        t[k] = calloc(1, sizeof *t[k]);
    if (!f || !t[0] || !t[1] || !t[2] || !t[3]) {
        if (f)
            fclose(f);
        free(text);
        for (int k = 0; k < 4; k++)
            free(t[k]);
        sw_list_free(&l);
        return EXIT_SIM_ERROR;
    }
    fprintf(f, "\n==== study ctrlc: seed 000 (Lee) Fig. 5.7-5.10 ====\n");
    fprintf(f, "config %s, size %s; baseline 16 KB L1D (%s), LRU, no bypassing; 32KB = %s.\n", cfg, o->size,
            l1s_dl1(16), l1s_dl1(32));
    if (classify) {
        fprintf(f, "workloads: the cache-sensitive ones (64 KB L1D > 1.2x) among %zu application workloads: ", nc);
        for (size_t i = 0; i < nw; i++)
            fprintf(f, "%s%s", i ? ", " : "", names[i]);
        fprintf(f, "%s\n", nw ? "" : "none");
    } else {
        fprintf(f, "workloads: as given by --workloads (not classified)\n");
    }
    if (skipped[0])
        fprintf(f, "workloads not bundled in this build, skipped: %s\n", skipped);
    for (int p = 0; p < CC_NP; p++)
        if (why[p][0])
            fprintf(f, "column %s not available: %s\n", cc_head[p], why[p]);

    st_table_init(t[0], "\nSpeedup over the 16 KB L1D (Fig. 5.7)");
    st_table_init(t[1], "\nL1D MPKI (warp instructions), normalised to the 16 KB L1D (Fig. 5.8)");
    st_table_init(t[2], "\nL1-to-L2 traffic (L1_to_L2_bytes), normalised to the 16 KB L1D (Fig. 5.9)");
    st_table_init(t[3], "\nZero-reuse fraction of the evicted L1D lines (Fig. 5.10)");
    unsigned col[4][CC_NP + 2];
    for (int k = 0; k < 4; k++)
        st_col(t[k], "workload");
    col[0][CC_NP] = st_col(t[0], "cycles 16KB");
    col[0][CC_NP + 1] = st_col(t[0], "64KB");
    col[1][CC_NP] = st_col(t[1], "MPKI 16KB");
    col[2][CC_NP] = st_col(t[2], "MB 16KB");
    for (int k = 0; k < 4; k++)
        for (int p = k == 3 ? 0 : 1; p < CC_NP; p++)
            col[k][p] = st_col(t[k], cc_head[p]);
    for (size_t i = 0; i < nw; i++) {
        unsigned r[4];
        for (int k = 0; k < 4; k++)
            r[k] = st_row(t[k], names[i]);
        const struct sw_metrics *b = st_m(&l, run[i][CC_BASE]);
        if (b)
            st_setf(t[0], r[0], col[0][CC_NP], "%.0f", b->cycles);
        else
            st_setf(t[0], r[0], col[0][CC_NP], "fail");
        st_setnum(t[0], r[0], col[0][CC_NP + 1], cls64[i], 2, "-");
        st_cell(t[1], r[1], col[1][CC_NP], &l, run[i][CC_BASE], x[CC_BASE][i][CC_MPKI]);
        st_cell(t[2], r[2], col[2][CC_NP], &l, run[i][CC_BASE], x[CC_BASE][i][CC_TRAFFIC] / 1e6);
        for (int p = 0; p < CC_NP; p++) {
            if (p > 0) {
                st_cell(t[0], r[0], col[0][p], &l, run[i][p], sp[p][i]);
                st_cell(t[1], r[1], col[1][p], &l, run[i][p], nx[p][CC_MPKI][i]);
                st_cell(t[2], r[2], col[2][p], &l, run[i][p], nx[p][CC_TRAFFIC][i]);
            }
            if (isfinite(nx[p][CC_ZERO][i]))
                st_setf(t[3], r[3], col[3][p], "%.1f%%", 100.0 * nx[p][CC_ZERO][i]);
            else if (st_m(&l, run[i][p]))
                st_setf(t[3], r[3], col[3][p], "no evict");
            else
                st_cell(t[3], r[3], col[3][p], &l, run[i][p], NAN);
        }
    }
    double gm[CC_NP], am[CC_NP][CC_NX];
    for (int p = 0; p < CC_NP; p++) {
        gm[p] = st_gmean(sp[p], nw);
        for (int k = 0; k < CC_NX; k++)
            am[p][k] = st_amean(nx[p][k], nw);
    }
    for (int k = 0; k < 4; k++) {
        unsigned r = st_row(t[k], k == 0 ? "GMEAN" : "AMEAN");
        t[k]->rule_before[r] = 1;
        for (int p = k == 3 ? 0 : 1; p < CC_NP; p++) {
            double v = k == 0 ? gm[p] : am[p][k - 1];
            if (k == 3 && isfinite(v))
                st_setf(t[k], r, col[k][p], "%.1f%%", 100.0 * v);
            else
                st_setnum(t[k], r, col[k][p], v, 2, "n/a");
        }
    }
    for (int k = 0; k < 4; k++)
        st_print(t[k], f);

    unsigned score[3] = {0, 0, 0};
    char msr[512];
    fprintf(f, "\nComparison with seed 000 (means over the %zu workloads above; speedups by a 2%% margin, "
               "fractions by half a percentage point):\n",
            nw);
    snprintf(msr, sizeof msr, "Ctrl-C %.2fx (geometric mean)", gm[CC_CTRLC]);
    st_check(f, score, isfinite(gm[CC_CTRLC]) ? gm[CC_CTRLC] > 1.02 : -1,
             "Ctrl-C speeds the cache-sensitive workloads up", "1.42x mean (Fig. 5.7)", msr);
    snprintf(msr, sizeof msr, "PC-based %.2fx (geometric mean)", gm[CC_PC]);
    st_check(f, score, isfinite(gm[CC_PC]) ? gm[CC_PC] > 1.02 : -1,
             "PC-based bypassing speeds them up", "1.23x mean (sec. 5.4)", msr);
    snprintf(msr, sizeof msr, "Ctrl-C %.2fx vs PC-based %.2fx", gm[CC_CTRLC], gm[CC_PC]);
    st_check(f, score, isfinite(gm[CC_CTRLC]) && isfinite(gm[CC_PC]) ? gm[CC_CTRLC] > gm[CC_PC] * 1.02 : -1,
             "Ctrl-C outperforms PC-based bypassing", "1.42x vs 1.23x (sec. 5.4)", msr);
    snprintf(msr, sizeof msr, "Ctrl-C %.2fx vs 32 KB %.2fx", gm[CC_CTRLC], gm[CC_32]);
    st_check(f, score,
             isfinite(gm[CC_CTRLC]) && isfinite(gm[CC_32]) ? gm[CC_CTRLC] >= gm[CC_32] * 0.90 && gm[CC_CTRLC] > 1.02
                                                             : -1,
             "Ctrl-C comes close to a 32 KB L1D (within 10% of its speedup)",
             "\"a significant speedup that is close to using a double sized (32kB) L1D\" (sec. 5.4)", msr);
    snprintf(msr, sizeof msr, "%.1f%% -> %.1f%% (arithmetic mean)", 100.0 * am[CC_BASE][CC_ZERO],
             100.0 * am[CC_CTRLC][CC_ZERO]);
    st_check(f, score,
             isfinite(am[CC_BASE][CC_ZERO]) && isfinite(am[CC_CTRLC][CC_ZERO])
                 ? am[CC_CTRLC][CC_ZERO] < am[CC_BASE][CC_ZERO] - 0.005
                 : -1,
             "Ctrl-C cuts the fraction of zero-reuse lines", "79.5% -> 30.8% (Fig. 5.10)", msr);
    snprintf(msr, sizeof msr, "%+.1f%% (mean of the normalised traffic)", 100.0 * (am[CC_CTRLC][CC_TRAFFIC] - 1));
    st_check(f, score, isfinite(am[CC_CTRLC][CC_TRAFFIC]) ? am[CC_CTRLC][CC_TRAFFIC] < 0.98 : -1,
             "Ctrl-C cuts the L1-to-L2 traffic", "-43.7% (Fig. 5.9)", msr);
    snprintf(msr, sizeof msr, "%+.1f%% (mean of the normalised MPKI)", 100.0 * (am[CC_CTRLC][CC_MPKI] - 1));
    st_check(f, score, isfinite(am[CC_CTRLC][CC_MPKI]) ? am[CC_CTRLC][CC_MPKI] < 0.98 : -1,
             "Ctrl-C cuts the L1D MPKI", "-9.9% (Fig. 5.8)", msr);
    st_score(f, score);
    fclose(f);
    st_report_out(o, "ctrlc", text);
    free(text);
    static const char *const csv[4] = {"speedup", "mpki", "traffic", "zero_reuse"};
    char path[1100];
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "%s/ctrlc_%s.csv", o->dir, csv[k]);
        st_write_csv(t[k], path);
        free(t[k]);
    }
    printf("tables written to %s/ctrlc_{speedup,mpki,traffic,zero_reuse}.csv; runs in %s/runs/ (runs.csv)\n",
           o->dir, o->dir);
    int rc = st_status(o, &l);
    sw_list_free(&l);
    return rc;
}
