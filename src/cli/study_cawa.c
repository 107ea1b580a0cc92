/*
 * study_cawa.c - `warpsim study cawa`: seed 000 (Lee) sec. 4.3, Fig. 4.10-4.16,
 * CAWA (CPL + gCAWS + CACP) on the seed's Sens applications.
 *
 * One phase: LRR (the baseline), GTO, two-level, gCAWS, CAWA (--warp-sched
 * cawa = gCAWS with CACP in the L1D), and CACP under LRR and GTO
 * (warpsim_l1d_repl=cacp: without CPL in those schedulers no warp is
 * critical, docs/policies.md).  CTA scheduler rr, as the caws study.
 * Reported per run (timing.totals of the JSON, src/sys/gpu_report.c):
 * speedup (cycles) over LRR, L1D_MPKI_warp, the critical-warp L1D hit rate
 * (L1D_crit_warp_hit_rate, over L1D_crit_warp_accesses) and the CPL
 * accuracy (CPL_prediction_accuracy, over CPL_slowest_warp_samples).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "study.h"

/* 000 Table 4.2's Sens applications that this build bundles: BFS, BT, HTW, KMN, NW, SR1, SC_small */
#define CW_DEFAULT "bfs,btree,heartwall,kmeans,nw,srad,sc"
#define CW_MAXW 32

enum { CW_LRR = 0, CW_GTO, CW_TL, CW_GCAWS, CW_CAWA, CW_LRR_CACP, CW_GTO_CACP, CW_NP };
static const char *const cw_sched[CW_NP] = {"lrr", "gto", "two_level", "gcaws", "cawa", "lrr", "gto"};
static const char *const cw_head[CW_NP] = {"LRR", "GTO", "2-Level", "gCAWS", "CAWA", "LRR+CACP", "GTO+CACP"};

enum { CW_MPKI = 0, CW_CHR, CW_CACC, CW_CPART, CW_NCHR, CW_ACC, CW_SAMP, CW_NX };
static const char *const cw_stat[CW_NX] = {
    "timing.totals.L1D_MPKI_warp",           "timing.totals.L1D_crit_warp_hit_rate",
    "timing.totals.L1D_crit_warp_accesses",  "timing.totals.L1D_crit_partition_hit_rate",
    "timing.totals.L1D_noncrit_warp_hit_rate", "timing.totals.CPL_prediction_accuracy",
    "timing.totals.CPL_slowest_warp_samples"};

/* the statistics of run idx (NAN when it has no verified result or, for the
   critical-warp rates and the CPL accuracy, when nothing was counted) */
static void cw_read(const struct st_opts *o, const struct sw_list *l, long idx, double *x)
{
    st_run_stats(o, l, idx, cw_stat, CW_NX, x);
    if (!(x[CW_CACC] > 0))
        x[CW_CHR] = x[CW_CPART] = NAN;   /* no critical warp: no critical-warp hit rate */
    if (!(x[CW_SAMP] > 0))
        x[CW_ACC] = NAN;                 /* no CPL: no accuracy */
}

int study_cawa(const struct st_opts *o)
{
    const char *cfg = o->config ? o->config : "gtx480";
    const char *names[CW_MAXW];
    char skipped[512];
    size_t nw = st_workloads(o, CW_DEFAULT, names, CW_MAXW, skipped, sizeof skipped);
    if (nw == 0) {
        fprintf(stderr, "warpsim study cawa: no workload to run\n");
        return EXIT_USAGE;
    }
    char why[CW_NP][512];
    for (int p = 0; p < CW_NP; p++) {
        st_policy_check(o, "warp_sched", cw_sched[p], NULL, why[p], sizeof why[p]);
        if (!why[p][0] && (p == CW_LRR_CACP || p == CW_GTO_CACP || p == CW_CAWA))
            st_policy_check(o, "repl", "cacp", NULL, why[p], sizeof why[p]);
    }

    struct sw_list l;
    memset(&l, 0, sizeof l);
    long run[CW_MAXW][CW_NP];
    for (size_t i = 0; i < nw; i++)
        for (int p = 0; p < CW_NP; p++) {
            run[i][p] = -1;
            if (why[p][0])
                continue;
            struct sw_run r = {.workload = names[i], .size = o->size, .config = cfg, .warp_sched = cw_sched[p],
                               .cta_sched = "rr"};
            if (p == CW_LRR_CACP || p == CW_GTO_CACP) {
                r.nset = 1;
                r.set_name[0] = "warpsim_l1d_repl";
                r.set_value[0] = "cacp";
            }
            run[i][p] = sw_add(&l, &r);
        }
    int ph = st_phase(o, &l, 0, "study cawa (LRR, GTO, two-level, gCAWS, CAWA, CACP under LRR and GTO)");
    if (ph != 0) {
        sw_list_free(&l);
        return ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
    }

    double sp[CW_NP][CW_MAXW], x[CW_NP][CW_MAXW][CW_NX], mpki[CW_NP][CW_MAXW], xs[CW_NX][CW_NP][CW_MAXW];
    double cacp_lrr[CW_MAXW], cacp_gto[CW_MAXW], chr_ratio[CW_MAXW];
    for (size_t i = 0; i < nw; i++) {
        const struct sw_metrics *b = st_m(&l, run[i][CW_LRR]);
        for (int p = 0; p < CW_NP; p++) {
            const struct sw_metrics *m = st_m(&l, run[i][p]);
            sp[p][i] = m && b && m->cycles > 0 ? b->cycles / m->cycles : NAN;
            cw_read(o, &l, run[i][p], x[p][i]);
            for (int k = 0; k < CW_NX; k++)
                xs[k][p][i] = x[p][i][k];
        }
        for (int p = 0; p < CW_NP; p++) {
            double v0 = x[CW_LRR][i][CW_MPKI];
            mpki[p][i] = v0 > 0 ? x[p][i][CW_MPKI] / v0 : NAN;
        }
        /* CACP's own effect: the same scheduler with and without it */
        const struct sw_metrics *g = st_m(&l, run[i][CW_GTO]), *gc = st_m(&l, run[i][CW_GTO_CACP]),
                                *lc = st_m(&l, run[i][CW_LRR_CACP]);
        cacp_lrr[i] = b && lc && lc->cycles > 0 ? b->cycles / lc->cycles : NAN;
        cacp_gto[i] = g && gc && gc->cycles > 0 ? g->cycles / gc->cycles : NAN;
        double h0 = x[CW_GCAWS][i][CW_CHR], h1 = x[CW_CAWA][i][CW_CHR];
        chr_ratio[i] = h0 > 0 && isfinite(h1) ? h1 / h0 : NAN;
    }

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    struct st_table *t[3];
    for (int k = 0; k < 3; k++)
        t[k] = calloc(1, sizeof *t[k]);
    if (!f || !t[0] || !t[1] || !t[2]) {
        if (f)
            fclose(f);
        free(text);
        for (int k = 0; k < 3; k++)
            free(t[k]);
        sw_list_free(&l);
        return EXIT_SIM_ERROR;
    }
    fprintf(f, "\n==== study cawa: seed 000 (Lee) sec. 4.3, Fig. 4.10-4.16 ====\n");
    fprintf(f, "config %s, size %s, CTA scheduler rr; CAWA = --warp-sched cawa (gCAWS + CACP in the L1D); "
               "X+CACP = --l1-repl cacp under X, where no warp is critical (no CPL in lrr/gto).\n",
            cfg, o->size);
    if (skipped[0])
        fprintf(f, "workloads not bundled in this build, skipped: %s\n", skipped);
    for (int p = 0; p < CW_NP; p++)
        if (why[p][0])
            fprintf(f, "column %s not available: %s\n", cw_head[p], why[p]);

    st_table_init(t[0], "\nSpeedup over LRR (Fig. 4.10, 4.13, 4.16)");
    st_table_init(t[1], "\nL1D MPKI (warp instructions), normalised to LRR (Fig. 4.11, 4.15)");
    st_table_init(t[2], "\nCritical-warp L1D hit rate (Fig. 4.14) and CPL accuracy (Fig. 4.12)");
    for (int k = 0; k < 3; k++)
        st_col(t[k], "workload");
    unsigned c0[CW_NP], c1[CW_NP];
    unsigned ccyc = st_col(t[0], "cycles LRR");
    unsigned cmp0 = st_col(t[1], "MPKI LRR");
    for (int p = 1; p < CW_NP; p++) {
        c0[p] = st_col(t[0], cw_head[p]);
        c1[p] = st_col(t[1], cw_head[p]);
    }
    unsigned h_g = st_col(t[2], "crit hit gCAWS"), h_c = st_col(t[2], "crit hit CAWA"),
             h_r = st_col(t[2], "CAWA/gCAWS"), h_p = st_col(t[2], "crit-part hit CAWA"),
             h_n = st_col(t[2], "noncrit hit CAWA"), a_g = st_col(t[2], "CPL acc gCAWS"),
             a_c = st_col(t[2], "CPL acc CAWA");
    for (size_t i = 0; i < nw; i++) {
        unsigned r0 = st_row(t[0], names[i]), r1 = st_row(t[1], names[i]), r2 = st_row(t[2], names[i]);
        const struct sw_metrics *b = st_m(&l, run[i][CW_LRR]);
        if (b)
            st_setf(t[0], r0, ccyc, "%.0f", b->cycles);
        else
            st_cell(t[0], r0, ccyc, &l, run[i][CW_LRR], NAN);
        st_cell(t[1], r1, cmp0, &l, run[i][CW_LRR], x[CW_LRR][i][CW_MPKI]);
        for (int p = 1; p < CW_NP; p++) {
            st_cell(t[0], r0, c0[p], &l, run[i][p], sp[p][i]);
            st_cell(t[1], r1, c1[p], &l, run[i][p], mpki[p][i]);
        }
        const long g = run[i][CW_GCAWS], c = run[i][CW_CAWA];
        const double *xg = x[CW_GCAWS][i], *xc = x[CW_CAWA][i];
        const struct { unsigned col; long idx; double v; } cells[] = {
            {h_g, g, xg[CW_CHR]}, {h_c, c, xc[CW_CHR]},   {h_r, c, chr_ratio[i]},
            {h_p, c, xc[CW_CPART]}, {h_n, c, xc[CW_NCHR]}, {a_g, g, xg[CW_ACC]}, {a_c, c, xc[CW_ACC]}};
        for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++) {
            if (isfinite(cells[k].v))
                st_setf(t[2], r2, cells[k].col, "%.2f", cells[k].v);
            else if (st_m(&l, cells[k].idx))
                st_setf(t[2], r2, cells[k].col, "-");   /* ran, but nothing counted */
            else
                st_cell(t[2], r2, cells[k].col, &l, cells[k].idx, NAN);
        }
    }
    double gm[CW_NP], am[CW_NP];
    for (int p = 0; p < CW_NP; p++) {
        gm[p] = st_gmean(sp[p], nw);
        am[p] = st_amean(mpki[p], nw);
    }
    unsigned r0 = st_row(t[0], "GMEAN"), r1 = st_row(t[1], "AMEAN"), r2 = st_row(t[2], "AMEAN");
    t[0]->rule_before[r0] = t[1]->rule_before[r1] = t[2]->rule_before[r2] = 1;
    for (int p = 1; p < CW_NP; p++) {
        st_setnum(t[0], r0, c0[p], gm[p], 2, "n/a");
        st_setnum(t[1], r1, c1[p], am[p], 2, "n/a");
    }
    double m_hg = st_amean(xs[CW_CHR][CW_GCAWS], nw), m_hc = st_amean(xs[CW_CHR][CW_CAWA], nw),
           m_hr = st_amean(chr_ratio, nw), m_hp = st_amean(xs[CW_CPART][CW_CAWA], nw),
           m_hn = st_amean(xs[CW_NCHR][CW_CAWA], nw), m_ag = st_amean(xs[CW_ACC][CW_GCAWS], nw),
           m_ac = st_amean(xs[CW_ACC][CW_CAWA], nw);
    st_setnum(t[2], r2, h_g, m_hg, 2, "n/a");
    st_setnum(t[2], r2, h_c, m_hc, 2, "n/a");
    st_setnum(t[2], r2, h_r, m_hr, 2, "n/a");
    st_setnum(t[2], r2, h_p, m_hp, 2, "n/a");
    st_setnum(t[2], r2, h_n, m_hn, 2, "n/a");
    st_setnum(t[2], r2, a_g, m_ag, 2, "n/a");
    st_setnum(t[2], r2, a_c, m_ac, 2, "n/a");
    for (int k = 0; k < 3; k++)
        st_print(t[k], f);
    double gm_cl = st_gmean(cacp_lrr, nw), gm_cg = st_gmean(cacp_gto, nw);
    fprintf(f, "\nCACP's own effect (same scheduler without it): LRR+CACP / LRR %.2fx, GTO+CACP / GTO %.2fx, "
               "CAWA / gCAWS %.2fx (geometric means)\n",
            gm_cl, gm_cg, isfinite(gm[CW_CAWA]) && gm[CW_GCAWS] > 0 ? gm[CW_CAWA] / gm[CW_GCAWS] : NAN);

    unsigned score[3] = {0, 0, 0};
    char msr[512];
    fprintf(f, "\nComparison with seed 000 (means over the %zu workloads above; speedups and normalised MPKI by a "
               "2%% margin, rates by half a percentage point):\n",
            nw);
    snprintf(msr, sizeof msr, "CAWA %.2fx (geometric mean)", gm[CW_CAWA]);
    st_check(f, score, isfinite(gm[CW_CAWA]) ? gm[CW_CAWA] > 1.02 : -1,
             "CAWA speeds the Sens applications up over LRR", "+23% (Fig. 4.10)", msr);
    snprintf(msr, sizeof msr, "CAWA %.2fx, GTO %.2fx, two-level %.2fx", gm[CW_CAWA], gm[CW_GTO], gm[CW_TL]);
    st_check(f, score,
             isfinite(gm[CW_CAWA]) && isfinite(gm[CW_GTO]) && isfinite(gm[CW_TL])
                 ? gm[CW_CAWA] > gm[CW_GTO] * 1.02 && gm[CW_CAWA] > gm[CW_TL] * 1.02
                 : -1,
             "CAWA beats GTO and two-level", "CAWA +23%, GTO +16%, 2-Level -2% (sec. 4.3.2)", msr);
    snprintf(msr, sizeof msr, "GTO %.2fx, two-level %.2fx", gm[CW_GTO], gm[CW_TL]);
    st_check(f, score, isfinite(gm[CW_GTO]) && isfinite(gm[CW_TL]) ? gm[CW_GTO] > gm[CW_TL] * 1.02 : -1,
             "GTO beats two-level on the Sens applications", "GTO +16%, 2-Level -2% (sec. 4.3.2)", msr);
    snprintf(msr, sizeof msr, "gCAWS %.2fx (geometric mean)", gm[CW_GCAWS]);
    st_check(f, score, isfinite(gm[CW_GCAWS]) ? gm[CW_GCAWS] > 1.02 : -1,
             "gCAWS alone speeds them up (part of CAWA's gain)", "about +18%: CAWA +23% is 5% over gCAWS (Fig. 4.13)",
             msr);
    snprintf(msr, sizeof msr, "CAWA %.2fx vs gCAWS %.2fx", gm[CW_CAWA], gm[CW_GCAWS]);
    st_check(f, score,
             isfinite(gm[CW_CAWA]) && isfinite(gm[CW_GCAWS]) ? gm[CW_CAWA] > gm[CW_GCAWS] * 1.02 : -1,
             "CACP adds to gCAWS (CAWA beats gCAWS)", "+5% (sec. 4.3.4)", msr);
    snprintf(msr, sizeof msr, "%+.1f%% CAWA, %+.1f%% GTO, %+.1f%% two-level (mean of the normalised MPKI)",
             100.0 * (am[CW_CAWA] - 1), 100.0 * (am[CW_GTO] - 1), 100.0 * (am[CW_TL] - 1));
    st_check(f, score,
             isfinite(am[CW_CAWA]) && isfinite(am[CW_GTO]) && isfinite(am[CW_TL])
                 ? am[CW_CAWA] < 0.98 && am[CW_CAWA] <= am[CW_GTO] && am[CW_CAWA] <= am[CW_TL]
                 : -1,
             "CAWA cuts the L1D MPKI, the most of CAWA, GTO and two-level", "KMN -26.2% (Fig. 4.11)", msr);
    snprintf(msr, sizeof msr, "critical-warp hit rate %.2f (CAWA) vs %.2f (gCAWS, LRU), ratio %.2fx", m_hc, m_hg,
             m_hr);
    st_check(f, score, isfinite(m_hc) && isfinite(m_hg) ? m_hc > m_hg + 0.005 : -1,
             "CACP raises the critical warps' L1D hit rate", "2.46x mean, KMN 7.22x over the baseline (Fig. 4.14)",
             msr);
    snprintf(msr, sizeof msr, "LRR+CACP %.2fx over LRR, GTO+CACP %.2fx over GTO", gm_cl, gm_cg);
    st_check(f, score, isfinite(gm_cl) && isfinite(gm_cg) ? gm_cl > 1.02 && gm_cg > 1.02 : -1,
             "CACP helps under LRR and GTO too (here without CPL: nothing is critical)",
             "+2% to +16.5% (Fig. 4.16)", msr);
    snprintf(msr, sizeof msr, "%.0f%% (CAWA), %.0f%% (gCAWS) (arithmetic mean over the workloads)", 100.0 * m_ac,
             100.0 * m_ag);
    st_check(f, score, isfinite(m_ac) ? m_ac > 0.505 : -1,
             "CPL marks the critical warp as slow (above half of its CTA) most of the time", "73% (Fig. 4.12)",
             msr);
    st_score(f, score);
    fclose(f);
    st_report_out(o, "cawa", text);
    free(text);
    static const char *const csv[3] = {"speedup", "mpki", "critical"};
    char path[1100];
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/cawa_%s.csv", o->dir, csv[k]);
        st_write_csv(t[k], path);
        free(t[k]);
    }
    printf("tables written to %s/cawa_{speedup,mpki,critical}.csv; runs in %s/runs/ (runs.csv)\n", o->dir, o->dir);
    int rc = st_status(o, &l);
    sw_list_free(&l);
    return rc;
}
