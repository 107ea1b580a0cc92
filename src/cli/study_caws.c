/*
 * study_caws.c - `warpsim study caws`: seed 000 (Lee) Fig. 3.5 and Table 3.3
 * on workloads with warp execution-time disparity, BFS first.
 *
 * Phase 1 runs LRR, the baseline, writing the per-warp file that is the
 * CAWS schedulers' oracle ("per-warp execution times from an earlier RR
 * run", 000 sec. 3.5).  Phase 2 runs GTO, two-level, CAWS-blk, CAWS-SM,
 * CAWS-avg (-warp_sched.caws_*.oracle = that file) and gCAWS.  Every run
 * writes its per-warp file: the per-CTA spread of warp execution times and
 * the criticality inversions (the oracle's slowest warp of a CTA ending up
 * in the faster half of it) come from those.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "study.h"

#define CA_DEFAULT "bfs,kmeans,srad,backprop,btree"
#define CA_MAXW 32

enum { CA_LRR = 0, CA_GTO, CA_TL, CA_BLK, CA_SM, CA_AVG, CA_GCAWS, CA_NP };
static const char *const ca_policy[CA_NP] = {"lrr", "gto", "two_level", "caws_blk", "caws_sm", "caws_avg", "gcaws"};
static const char *const ca_head[CA_NP] = {"LRR", "GTO", "2-Level", "CAWS-blk", "CAWS-SM", "CAWS-avg", "gCAWS"};

/* 000 sec. 3.5 measures "only the first round of kernel execution": the launches from the first up to
   the first repeat of a kernel name (BFS: one bfs_expand and one bfs_advance).  IPC over that window
   from the run's per-launch statistics, the number of launches in it in *nk; NAN without a result. */
static double ca_first_round_ipc(const struct st_opts *o, const struct sw_list *l, long idx, unsigned *nk)
{
    *nk = 0;
    if (!st_m(l, idx))
        return NAN;
    char path[1200];
    st_run_path(o, l, idx, ".json", path, sizeof path);
    char *text = sw_read_file(path, NULL);
    if (!text)
        return NAN;
    char seen[8][128];
    double insns = 0, cycles = 0;
    unsigned k = 0;
    for (; k < 8; k++) {
        char key[96], name[128];
        double ins, cyc;
        snprintf(key, sizeof key, "timing.kernels.%u.kernel_name", k);
        if (jr_string(text, key, name, sizeof name) != 0)
            break;
        int again = 0;
        for (unsigned i = 0; i < k; i++)
            again |= strcmp(seen[i], name) == 0;
        if (again)
            break;
        snprintf(key, sizeof key, "timing.kernels.%u.gpu_sim_insn", k);
        int bad = jr_number(text, key, &ins) != 0;
        snprintf(key, sizeof key, "timing.kernels.%u.gpu_sim_cycle", k);
        bad |= jr_number(text, key, &cyc) != 0;
        if (bad)
            break;
        snprintf(seen[k], sizeof seen[k], "%s", name);
        insns += ins;
        cycles += cyc;
    }
    free(text);
    *nk = k;
    return k && cycles > 0 ? insns / cycles : NAN;
}

int study_caws(const struct st_opts *o)
{
    const char *cfg = o->config ? o->config : "gtx480";
    const char *names[CA_MAXW];
    char skipped[512];
    size_t nw = st_workloads(o, CA_DEFAULT, names, CA_MAXW, skipped, sizeof skipped);
    if (nw == 0) {
        fprintf(stderr, "warpsim study caws: no workload to run\n");
        return EXIT_USAGE;
    }
    char why[CA_NP][512];
    for (int p = 0; p < CA_NP; p++)
        st_policy_check(o, "warp_sched", ca_policy[p], p >= CA_BLK && p <= CA_AVG ? "oracle" : NULL, why[p],
                        sizeof why[p]);

    struct sw_list l;
    memset(&l, 0, sizeof l);
    long run[CA_MAXW][CA_NP];
    for (size_t i = 0; i < nw; i++) {
        for (int p = 0; p < CA_NP; p++)
            run[i][p] = -1;
        struct sw_run r = {.workload = names[i], .size = o->size, .config = cfg, .warp_sched = "lrr",
                           .cta_sched = "rr", .warps = 1};
        run[i][CA_LRR] = sw_add(&l, &r);
    }
    int ph = st_phase(o, &l, 0, "study caws (1/2: LRR baselines and oracles)");
    if (ph != 0) {
        sw_list_free(&l);
        return ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
    }
    size_t first2 = l.n;
    char oracle[CA_MAXW][1200];
    for (size_t i = 0; i < nw; i++) {
        st_run_path(o, &l, run[i][CA_LRR], ".warps.csv", oracle[i], sizeof oracle[i]);
        if (!st_m(&l, run[i][CA_LRR]))
            continue;   /* no baseline: nothing to normalise to */
        for (int p = CA_GTO; p < CA_NP; p++) {
            if (why[p][0])
                continue;
            struct sw_run r = {.workload = names[i], .size = o->size, .config = cfg, .warp_sched = ca_policy[p],
                               .cta_sched = "rr", .warps = 1};
            char pname[64];
            if (p >= CA_BLK && p <= CA_AVG) {
                snprintf(pname, sizeof pname, "warp_sched.%s.oracle", ca_policy[p]);
                r.nset = 1;
                r.set_name[0] = pname;
                r.set_value[0] = oracle[i];
            }
            run[i][p] = sw_add(&l, &r);
        }
    }
    ph = st_phase(o, &l, first2, "study caws (2/2: GTO, two-level, CAWS, gCAWS)");
    if (ph != 0) {
        sw_list_free(&l);
        return ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
    }

    /* per-warp spreads and inversions; IPC over the seed's window */
    double ipc[CA_NP][CA_MAXW], spread[CA_NP][CA_MAXW], inv[CA_NP][CA_MAXW], win[CA_NP][CA_MAXW],
        speq[CA_NP][CA_MAXW];
    struct st_crit_gain cg[CA_NP][CA_MAXW];
    unsigned win_k[CA_MAXW];
    for (size_t i = 0; i < nw; i++) {
        double base = ca_first_round_ipc(o, &l, run[i][CA_LRR], &win_k[i]);
        for (int p = 0; p < CA_NP; p++) {
            unsigned k = 0;
            double w = ca_first_round_ipc(o, &l, run[i][p], &k);
            win[p][i] = k == win_k[i] ? w / base : NAN;
        }
    }
    for (size_t i = 0; i < nw; i++)
        for (int p = 0; p < CA_NP; p++) {
            ipc[p][i] = st_norm(&l, run[i][p], run[i][CA_LRR]);
            spread[p][i] = inv[p][i] = speq[p][i] = NAN;
            cg[p][i] = (struct st_crit_gain){NAN, NAN, NAN, 0};
            if (!st_m(&l, run[i][p]))
                continue;
            char path[1200];
            double sp, iv, se;
            st_run_path(o, &l, run[i][p], ".warps.csv", path, sizeof path);
            if (p != CA_LRR && st_m(&l, run[i][CA_LRR]) && st_crit_gain(path, oracle[i], &cg[p][i]) != 0)
                cg[p][i] = (struct st_crit_gain){NAN, NAN, NAN, 0};
            if (st_warp_spread(path, p == CA_LRR ? NULL : oracle[i], &sp, &iv, &se) == 0) {
                spread[p][i] = sp;
                inv[p][i] = iv;
                speq[p][i] = se;
            }
        }

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    struct st_table *t = calloc(1, sizeof *t), *t2 = calloc(1, sizeof *t2), *t3 = calloc(1, sizeof *t3),
                    *t4 = calloc(1, sizeof *t4), *t5 = calloc(1, sizeof *t5), *t6 = calloc(1, sizeof *t6);
    if (!f || !t || !t2 || !t3 || !t4 || !t5 || !t6) {
        if (f)
            fclose(f);
        free(text);
        free(t);
        free(t2);
        free(t3);
        free(t4);
        free(t5);
        free(t6);
        sw_list_free(&l);
        return EXIT_SIM_ERROR;
    }
    fprintf(f, "\n==== study caws: seed 000 (Lee) Fig. 3.5, Table 3.3 ====\n");
    fprintf(f, "config %s, size %s, CTA scheduler rr; IPC normalised to LRR; CAWS-* use the LRR run's per-warp "
               "execution times as oracle.\n",
            cfg, o->size);
    if (skipped[0])
        fprintf(f, "workloads not bundled in this build, skipped: %s\n", skipped);
    for (int p = 0; p < CA_NP; p++)
        if (why[p][0])
            fprintf(f, "column %s not available: %s\n", ca_head[p], why[p]);

    st_table_init(t, "\nNormalised IPC (Fig. 3.5)");
    st_table_init(t2, "\nPer-warp execution-time spread: mean over CTAs of (slowest - fastest) / fastest warp");
    st_table_init(t3, "\nCriticality inversion (Table 3.3): CTAs whose LRR-slowest warp ends in the faster half");
    st_col(t, "workload");
    st_col(t2, "workload");
    st_col(t3, "workload");
    unsigned c1[CA_NP], c2[CA_NP], c3[CA_NP];
    for (int p = 0; p < CA_NP; p++) {
        c1[p] = st_col(t, ca_head[p]);
        c2[p] = st_col(t2, ca_head[p]);
        if (p != CA_LRR)
            c3[p] = st_col(t3, ca_head[p]);
    }
    for (size_t i = 0; i < nw; i++) {
        unsigned r1 = st_row(t, names[i]), r2 = st_row(t2, names[i]), r3 = st_row(t3, names[i]);
        for (int p = 0; p < CA_NP; p++) {
            st_cell(t, r1, c1[p], &l, run[i][p], ipc[p][i]);
            st_cell(t2, r2, c2[p], &l, run[i][p], spread[p][i]);
            if (p == CA_LRR)
                continue;
            if (isfinite(inv[p][i]))
                st_setf(t3, r3, c3[p], "%.1f%%", 100.0 * inv[p][i]);
            else
                st_cell(t3, r3, c3[p], &l, run[i][p], NAN);
        }
    }
    double am[CA_NP], gm[CA_NP], sp_am[CA_NP], inv_am[CA_NP];
    for (int p = 0; p < CA_NP; p++) {
        am[p] = st_amean(ipc[p], nw);
        gm[p] = st_gmean(ipc[p], nw);
        sp_am[p] = st_amean(spread[p], nw);
        inv_am[p] = st_amean(inv[p], nw);
    }
    for (int g = 0; g < 2; g++) {
        unsigned r = st_row(t, g ? "GMEAN" : "AMEAN");
        t->rule_before[r] = g == 0;
        for (int p = 0; p < CA_NP; p++)
            st_setnum(t, r, c1[p], g ? gm[p] : am[p], 2, "n/a");
    }
    unsigned r2 = st_row(t2, "AMEAN"), r3 = st_row(t3, "AMEAN");
    t2->rule_before[r2] = t3->rule_before[r3] = 1;
    for (int p = 0; p < CA_NP; p++) {
        st_setnum(t2, r2, c2[p], sp_am[p], 2, "n/a");
        if (p != CA_LRR) {
            if (isfinite(inv_am[p]))
                st_setf(t3, r3, c3[p], "%.1f%%", 100.0 * inv_am[p]);
            else
                st_setf(t3, r3, c3[p], "n/a");
        }
    }
    st_print(t, f);

    /* the seed's window: the first round of kernel execution only */
    st_table_init(t4, "\nNormalised IPC in 000's window, the first round of kernel execution (sec. 3.5: launches "
                      "up to the first repeated kernel)");
    st_col(t4, "workload");
    unsigned c4k = st_col(t4, "launches"), c4[CA_NP];
    for (int p = 0; p < CA_NP; p++)
        c4[p] = st_col(t4, ca_head[p]);
    for (size_t i = 0; i < nw; i++) {
        unsigned r = st_row(t4, names[i]);
        if (win_k[i])
            st_setf(t4, r, c4k, "%u", win_k[i]);
        else
            st_setf(t4, r, c4k, "n/a");
        for (int p = 0; p < CA_NP; p++)
            st_cell(t4, r, c4[p], &l, run[i][p], win[p][i]);
    }
    st_print(t4, f);
    st_print(t2, f);

    /* the same spread where it is not a difference in work (BFS: warps whose nodes are not in the frontier
       leave after a few instructions, so a CTA's warps differ in work by up to three orders of magnitude) */
    st_table_init(t5, "\nThe same spread over the CTAs whose warps all executed the same number of instructions");
    st_col(t5, "workload");
    unsigned c5[CA_NP];
    for (int p = 0; p < CA_NP; p++)
        c5[p] = st_col(t5, ca_head[p]);
    for (size_t i = 0; i < nw; i++) {
        unsigned r = st_row(t5, names[i]);
        for (int p = 0; p < CA_NP; p++)
            st_cell(t5, r, c5[p], &l, run[i][p], speq[p][i]);
    }
    st_print(t5, f);
    st_print(t3, f);

    /* Fig. 3.6 follows one BFS CTA's critical warp from RR to oracle CAWS-avg: here every CTA's */
    st_table_init(t6, "\nThe LRR-critical warp of each CTA and the CTA under each policy (Fig. 3.6): mean over CTAs of "
                      "the time saved against LRR, critical warp / CTA, and the share of CTAs whose critical warp "
                      "gains 20% or more");
    st_col(t6, "workload");
    unsigned c6[CA_NP];
    for (int p = 0; p < CA_NP; p++)
        if (p != CA_LRR)
            c6[p] = st_col(t6, ca_head[p]);
    for (size_t i = 0; i < nw; i++) {
        unsigned r = st_row(t6, names[i]);
        for (int p = 0; p < CA_NP; p++) {
            if (p == CA_LRR)
                continue;
            if (isfinite(cg[p][i].crit))
                st_setf(t6, r, c6[p], "%.1f/%.1f/%.0f%%", 100.0 * cg[p][i].crit, 100.0 * cg[p][i].cta,
                        100.0 * cg[p][i].share20);
            else
                st_cell(t6, r, c6[p], &l, run[i][p], NAN);
        }
    }
    st_print(t6, f);
    fprintf(f, "(percent: time saved by the LRR run's slowest warp of a CTA / by the CTA, mean over CTAs; then the "
               "share of CTAs whose critical warp saves at least 20%%)\n");

    /* the seed's numbers are for BFS: compare on BFS when it ran, else on the means */
    size_t b = nw;
    for (size_t i = 0; i < nw; i++)
        if (strcmp(names[i], "bfs") == 0)
            b = i;
    const char *on = b < nw ? "BFS" : "the mean over the workloads";
    double x[CA_NP], xi[CA_NP], xs[CA_NP];
    for (int p = 0; p < CA_NP; p++) {
        x[p] = b < nw ? ipc[p][b] : gm[p];
        xi[p] = b < nw ? inv[p][b] : inv_am[p];
        xs[p] = b < nw ? spread[p][b] : sp_am[p];
    }
    unsigned score[3] = {0, 0, 0};
    fprintf(f, "\nComparison with seed 000 (qualitative, on %s):\n", on);
    char msr[512];
    snprintf(msr, sizeof msr, "CAWS-blk %.2fx, CAWS-SM %.2fx, CAWS-avg %.2fx", x[CA_BLK], x[CA_SM], x[CA_AVG]);
    int have3 = isfinite(x[CA_BLK]) && isfinite(x[CA_SM]) && isfinite(x[CA_AVG]);
    /* a speed-up within 2% is noise between schedules, not a gain (the margin of the other studies' checks) */
    st_check(f, score, have3 ? x[CA_BLK] > 1.02 && x[CA_SM] > 1.02 && x[CA_AVG] > 1.02 : -1,
             "Oracle CAWS speeds BFS up over LRR", "CAWS-blk 1.16x, CAWS-SM 1.18x, CAWS-avg 1.21x (Table 3.3)", msr);
    double xw[CA_NP];
    for (int p = 0; p < CA_NP; p++)
        xw[p] = b < nw ? win[p][b] : NAN;
    snprintf(msr, sizeof msr, "first round: CAWS-blk %.2fx, CAWS-SM %.2fx, CAWS-avg %.2fx", xw[CA_BLK], xw[CA_SM],
             xw[CA_AVG]);
    int havew = isfinite(xw[CA_BLK]) && isfinite(xw[CA_SM]) && isfinite(xw[CA_AVG]);
    st_check(f, score, havew ? xw[CA_BLK] > 1.02 && xw[CA_SM] > 1.02 && xw[CA_AVG] > 1.02 : -1,
             "...and in the seed's window, BFS's first round of kernel execution",
             "CAWS-blk 1.16x, CAWS-SM 1.18x, CAWS-avg 1.21x (Table 3.3, first round only)", msr);
    snprintf(msr, sizeof msr, "CAWS-blk %.2fx, CAWS-SM %.2fx, CAWS-avg %.2fx", x[CA_BLK], x[CA_SM], x[CA_AVG]);
    /* an ordering of three equal numbers says nothing: the claim needs CAWS-avg to gain */
    st_check(f, score, have3 ? x[CA_AVG] >= x[CA_SM] && x[CA_AVG] >= x[CA_BLK] && x[CA_AVG] > 1.01 : -1,
             "CAWS-avg is the best of the three (and gains)", "CAWS-avg > CAWS-SM > CAWS-blk (Fig. 3.5)", msr);
    snprintf(msr, sizeof msr, "inversions: CAWS-blk %.1f%%, CAWS-SM %.1f%%, CAWS-avg %.1f%%", 100.0 * xi[CA_BLK],
             100.0 * xi[CA_SM], 100.0 * xi[CA_AVG]);
    st_check(f, score,
             isfinite(xi[CA_BLK]) && isfinite(xi[CA_SM]) && isfinite(xi[CA_AVG])
                 ? xi[CA_AVG] <= xi[CA_SM] && xi[CA_SM] <= xi[CA_BLK]
                 : -1,
             "Criticality inversions: fewest under CAWS-avg, most under CAWS-blk",
             "CAWS-blk 8.89%, CAWS-SM 2.22%, CAWS-avg 0% (Table 3.3)", msr);
    snprintf(msr, sizeof msr, "spread: LRR %.2f, CAWS-avg %.2f, CAWS-SM %.2f, CAWS-blk %.2f", xs[CA_LRR],
             xs[CA_AVG], xs[CA_SM], xs[CA_BLK]);
    st_check(f, score, isfinite(xs[CA_LRR]) && isfinite(xs[CA_AVG]) ? xs[CA_AVG] < 0.98 * xs[CA_LRR] : -1,
             "CAWS narrows the execution-time disparity between warps",
             "the critical warp of a BFS CTA runs 28.4% faster under CAWS-avg (Fig. 3.6)", msr);
    double xe = b < nw ? speq[CA_LRR][b] : NAN;
    snprintf(msr, sizeof msr, "LRR: %.0f%% in CTAs whose warps did the same work, %.0f%% over all CTAs", 100.0 * xe,
             100.0 * xs[CA_LRR]);
    /* "about 20%": read as 10% to 30% */
    st_check(f, score, isfinite(xe) ? xe >= 0.10 && xe <= 0.30 : -1,
             "Warps of a CTA that do the same work differ in execution time by about 20%",
             "about 20% between the fastest and the slowest warp of a BFS CTA (sec. 3.4)", msr);
    /* the seed's claim is over its Sens applications: the means over the workloads here */
    snprintf(msr, sizeof msr, "GTO %.2fx, two-level %.2fx (geometric mean over the workloads)", gm[CA_GTO],
             gm[CA_TL]);
    st_check(f, score, isfinite(gm[CA_GTO]) && isfinite(gm[CA_TL]) ? gm[CA_GTO] > gm[CA_TL] + 0.01 : -1,
             "GTO beats two-level on these (disparity-sensitive) workloads",
             "GTO +16%, 2-Level -2% over LRR on the Sens applications (sec. 4.3.2)", msr);
    snprintf(msr, sizeof msr, "gCAWS %.2fx vs best oracle CAWS %.2fx", x[CA_GCAWS], fmax(x[CA_AVG], x[CA_SM]));
    st_check(f, score, isfinite(x[CA_GCAWS]) && have3 ? x[CA_GCAWS] < fmax(fmax(x[CA_AVG], x[CA_SM]), x[CA_BLK]) : -1,
             "On a small kernel like BFS, oracle CAWS beats gCAWS (prediction has no time to train)",
             "CAWS (oracle) best on BFS, BT, NW (Fig. 4.13)", msr);
    st_score(f, score);
    fclose(f);
    st_report_out(o, "caws", text);
    free(text);
    char path[1100];
    snprintf(path, sizeof path, "%s/caws_ipc.csv", o->dir);
    st_write_csv(t, path);
    snprintf(path, sizeof path, "%s/caws_spread.csv", o->dir);
    st_write_csv(t2, path);
    snprintf(path, sizeof path, "%s/caws_inversion.csv", o->dir);
    st_write_csv(t3, path);
    snprintf(path, sizeof path, "%s/caws_ipc_first_round.csv", o->dir);
    st_write_csv(t4, path);
    snprintf(path, sizeof path, "%s/caws_spread_equal_work.csv", o->dir);
    st_write_csv(t5, path);
    snprintf(path, sizeof path, "%s/caws_critical_warp.csv", o->dir);
    st_write_csv(t6, path);
    printf("tables written to %s/caws_{ipc,ipc_first_round,spread,spread_equal_work,inversion,critical_warp}.csv; runs in "
           "%s/runs/ (runs.csv)\n",
           o->dir, o->dir);
    free(t);
    free(t2);
    free(t3);
    free(t4);
    free(t5);
    free(t6);
    int rc = st_status(o, &l);
    sw_list_free(&l);
    return rc;
}
