/*
 * study_las.c - `warpsim study las`: seed 003 (Chen, locality-aware CTA and
 * warp scheduling) Fig. 5.1, Fig. 5.2 and Table 5.1 on the bundled workloads.
 *
 * Four schedulers on the las-15sm preset (003 Table 4.1), all with GTO as the
 * warp scheduler of the CTA-only columns: RR (the baseline), BCS (two
 * consecutive CTAs per SM), the locality-aware CTA scheduler, and the
 * locality-aware CTA scheduler with the locality-aware two-level warp
 * scheduler.  Workloads are grouped by their inter-CTA locality as 003
 * Table 5.1 does: Type-I row-major (consecutive CTAs share lines), Type-II
 * column-major / mixed / random, Type-III none.  The groups are those of
 * warpsim's kernels (read from their indexing), which may differ from the
 * thesis's versions of the same benchmarks (docs/studies.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "study.h"

#define LA_DEFAULT "hotspot,srad,conv,pathfinder,gabor,transpose,lud,gaussian,mm,sift,nw,nn,vecadd"
#define LA_MAXW 32

/* 1 = Type-I, 2 = Type-II, 3 = Type-III, 0 = not classified.  From the
   indexing of warpsim's kernels (docs/workloads.md, column "003 locality"). */
static int la_group(const char *wl)
{
    static const struct { const char *name; int type; } tab[] = {
        /* stencils and convolutions: a CTA's halo overlaps its x-neighbours' tiles */
        {"hotspot", 1}, {"srad", 1}, {"pathfinder", 1}, {"conv", 1}, {"gabor", 1},
        /* the CTAs that share data are a grid row apart (transpose's output columns, lud's and gaussian's
           column walks, ssc's "j" vectors), or the sharing is mixed (mm: A rows along x, B columns along y;
           sad) or data-dependent (bfs, spmv) */
        {"transpose", 2}, {"lud", 2}, {"gaussian", 2}, {"ssc", 2}, {"mm", 2}, {"sad", 2}, {"bfs", 2},
        {"spmv", 2},
        /* sift's column blur pass: the CTAs that share lines are a grid row apart (003 Table 5.1: Type-II) */
        {"sift", 2},
        /* every CTA reads its own data, or shared data is read by every CTA alike */
        {"nw", 3}, {"vecadd", 3}, {"histogram", 3}, {"backprop", 3}, {"reduce", 3}, {"kmeans", 3},
        {"blackscholes", 3}, {"scp", 3}, {"pvc", 3}, {"iix", 3}, {"sc", 3}, {"btree", 3}, {"aes", 3},
        {"lib", 3}, {"cp", 3}, {"pf", 3}, {"stream", 3}, {"pchase", 3}, {"nn", 3},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(tab[i].name, wl) == 0)
            return tab[i].type;
    return 0;
}

static const char *const la_group_name[] = {"unclassified", "Type-I (row-major)", "Type-II (column/mixed)",
                                            "Type-III (none)"};

enum { LA_RR = 0, LA_BCS, LA_LAS, LA_LASW, LA_NP };
static const char *const la_head[LA_NP] = {"RR", "BCS", "LAS-CTA", "LAS-CTA+warp"};

int study_las(const struct st_opts *o)
{
    const char *cfg = o->config ? o->config : "las-15sm";
    const char *names[LA_MAXW];
    char skipped[512];
    size_t nw = st_workloads(o, LA_DEFAULT, names, LA_MAXW, skipped, sizeof skipped);
    if (nw == 0) {
        fprintf(stderr, "warpsim study las: no workload to run\n");
        return EXIT_USAGE;
    }
    /* sort by group (stable), so the table reads like Fig. 5.1 */
    const char *sorted[LA_MAXW];
    size_t ns = 0;
    for (int g = 1; g <= 4; g++)
        for (size_t i = 0; i < nw; i++)
            if (la_group(names[i]) == g % 4)
                sorted[ns++] = names[i];
    char why[LA_NP][512];
    why[LA_RR][0] = '\0';
    st_policy_check(o, "cta_sched", "bcs", NULL, why[LA_BCS], sizeof why[LA_BCS]);
    st_policy_check(o, "cta_sched", "las", NULL, why[LA_LAS], sizeof why[LA_LAS]);
    st_policy_check(o, "warp_sched", "las", NULL, why[LA_LASW], sizeof why[LA_LASW]);
    if (why[LA_LAS][0] && !why[LA_LASW][0])
        snprintf(why[LA_LASW], sizeof why[LA_LASW], "needs the locality-aware CTA scheduler (see LAS-CTA)");

    struct sw_list l;
    st_list_init(&l, o);
    long run[LA_MAXW][LA_NP];
    for (size_t i = 0; i < ns; i++)
        for (int p = 0; p < LA_NP; p++) {
            run[i][p] = -1;
            if (why[p][0])
                continue;
            struct sw_run r = {.workload = sorted[i], .size = o->size, .config = cfg, .warp_sched = "gto"};
            r.cta_sched = p == LA_RR ? "rr" : p == LA_BCS ? "bcs" : "las";
            if (p == LA_LASW)
                r.warp_sched = "las";
            if (o->tiles && (p == LA_LAS || p == LA_LASW)) {
                r.set_name[0] = "cta_sched.las.tiles";
                r.set_value[0] = "1";
                r.nset = 1;
            }
            run[i][p] = sw_add(&l, &r);
        }
    int ph = st_phase(o, &l, 0, "study las");
    if (ph != 0) {
        sw_list_free(&l);
        return ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
    }

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    struct st_table *t = calloc(1, sizeof *t), *t2 = calloc(1, sizeof *t2);
    if (!f || !t || !t2) {
        if (f)
            fclose(f);
        free(text);
        free(t);
        free(t2);
        sw_list_free(&l);
        return EXIT_SIM_ERROR;
    }
    fprintf(f, "\n==== study las: seed 003 (Chen, locality-aware scheduling) Fig. 5.1, 5.2, Table 5.1 ====\n");
    fprintf(f, "config %s, size %s; baseline: RR CTA scheduler with the GTO warp scheduler (IPC normalised to it);\n"
               "LAS-CTA = locality-aware CTA scheduler (+GTO), +warp = with the locality-aware two-level warp "
               "scheduler.\n",
            cfg, o->size);
    st_window_note(f, o);
    if (o->tiles)
        fprintf(f, "LAS-CTA with a box per tile a CTA touches (cta_sched.las.tiles=1, an extension; the seed "
                   "uses one rectangle per array).\n");
    if (skipped[0])
        fprintf(f, "workloads not bundled in this build, skipped: %s\n", skipped);
    for (int p = 0; p < LA_NP; p++)
        if (why[p][0])
            fprintf(f, "column %s not available: %s\n", la_head[p], why[p]);

    st_table_init(t, "\nNormalised IPC (Fig. 5.1)");
    st_table_init(t2, "\nL1D miss rate (Fig. 5.2)");
    struct st_table *tabs[2] = {t, t2};
    unsigned cg[2], cp[2][LA_NP], cabs = 0;
    for (int k = 0; k < 2; k++) {
        st_col(tabs[k], "workload");
        cg[k] = st_col(tabs[k], "group");
        if (k == 0)
            cabs = st_col(t, "RR IPC");
        for (int p = 0; p < LA_NP; p++)
            cp[k][p] = st_col(tabs[k], la_head[p]);
    }
    double ipc[LA_NP][LA_MAXW], miss[LA_NP][LA_MAXW];
    int grp[LA_MAXW];
    for (size_t i = 0; i < ns; i++) {
        grp[i] = la_group(sorted[i]);
        for (int k = 0; k < 2; k++) {
            unsigned r = st_row(tabs[k], sorted[i]);
            st_setf(tabs[k], r, cg[k], "%s", grp[i] ? (grp[i] == 1 ? "I" : grp[i] == 2 ? "II" : "III") : "?");
            if (k == 0) {
                const struct sw_metrics *b = st_m(&l, run[i][LA_RR]);
                st_setnum(t, r, cabs, b ? b->ipc : NAN, 1, "fail");
            }
            for (int p = 0; p < LA_NP; p++) {
                const struct sw_metrics *m = st_m(&l, run[i][p]);
                double v = k == 0 ? st_norm(&l, run[i][p], run[i][LA_RR]) : m ? m->l1d_miss_rate : NAN;
                if (k == 0)
                    ipc[p][i] = v;
                else
                    miss[p][i] = v;
                st_cell(tabs[k], r, cp[k][p], &l, run[i][p], v);
            }
        }
    }
    /* group means: arithmetic and geometric for IPC, arithmetic for miss rates */
    double gm_ipc[4][LA_NP], am_ipc[4][LA_NP], am_miss[4][LA_NP];
    for (int gi = 0; gi < 4; gi++) {
        int g = (gi + 1) % 4;   /* Type-I, II, III, then every workload */
        double tmp[LA_MAXW];
        size_t cnt = 0;
        for (size_t i = 0; i < ns; i++)
            cnt += grp[i] == g || g == 0;
        for (int p = 0; p < LA_NP; p++) {
            for (int k = 0; k < 2; k++) {
                size_t m = 0;
                for (size_t i = 0; i < ns; i++)
                    if (g == 0 || grp[i] == g)   /* g == 0: every workload */
                        tmp[m++] = k == 0 ? ipc[p][i] : miss[p][i];
                if (k == 0) {
                    am_ipc[g][p] = st_amean(tmp, m);
                    gm_ipc[g][p] = st_gmean(tmp, m);
                } else {
                    am_miss[g][p] = st_amean(tmp, m);
                }
            }
        }
        if (cnt == 0)
            continue;
        static const char *const gl[4] = {"all", "Type-I", "Type-II", "Type-III"};
        char label[64];
        for (int k = 0; k < 2; k++)
            for (int mk = 0; mk < (k == 0 ? 2 : 1); mk++) {
                snprintf(label, sizeof label, "%s %s", gl[g], mk ? "GMEAN" : "AMEAN");
                unsigned r = st_row(tabs[k], label);
                tabs[k]->rule_before[r] = mk == 0 && (g == 0 || r == ns);
                for (int p = 0; p < LA_NP; p++)
                    st_setnum(tabs[k], r, cp[k][p], k ? am_miss[g][p] : mk ? gm_ipc[g][p] : am_ipc[g][p], 2,
                              "n/a");
            }
    }
    st_print(t, f);
    st_print(t2, f);
    fprintf(f, "groups: ");
    for (int g = 1; g <= 3; g++) {
        fprintf(f, "%s%s:", g > 1 ? "; " : "", la_group_name[g]);
        for (size_t i = 0; i < ns; i++)
            if (grp[i] == g)
                fprintf(f, " %s", sorted[i]);
    }
    fprintf(f, "\n");
    /* inputs whose strides send a launch's requests to one L2 slice: their time is that slice's, whatever
       the CTA scheduler does (docs/studies.md, ablations a3 and q) */
    int conc_head = 0;
    for (size_t i = 0; i < ns; i++) {
        const struct sw_metrics *b = st_m(&l, run[i][LA_RR]);
        if (!b || !(b->slice_conc >= 2.0))
            continue;
        fprintf(f, "%s %s %.1fx", conc_head ? "," : "L2 slices: under RR one slice takes several times the mean "
                                                     "request count (per launch, weighted by its cycles):",
                sorted[i], b->slice_conc);
        conc_head = 1;
    }
    if (conc_head)
        fprintf(f, " (their inputs' strides map to one slice: docs/studies.md, ablation q)\n");

    unsigned score[3] = {0, 0, 0};
    fprintf(f, "\nComparison with seed 003 (qualitative):\n");
    char msr[512];
    snprintf(msr, sizeof msr, "Type-I: BCS %.2fx, LAS-CTA %.2fx (geometric mean over RR)", gm_ipc[1][LA_BCS],
             gm_ipc[1][LA_LAS]);
    st_check(f, score,
             isfinite(gm_ipc[1][LA_BCS]) && isfinite(gm_ipc[1][LA_LAS])
                 ? gm_ipc[1][LA_LAS] >= 1.0 && fabs(gm_ipc[1][LA_LAS] - gm_ipc[1][LA_BCS]) <= 0.05
                 : -1,
             "Row-major (Type-I) workloads: the locality-aware CTA scheduler matches BCS, both help",
             "LAS-CTA about 3% above BCS; both dispatch consecutive CTAs together (sec. 5.1)", msr);
    snprintf(msr, sizeof msr, "Type-II: LAS-CTA %.2fx vs BCS %.2fx (geometric mean): %+.0f%%", gm_ipc[2][LA_LAS],
             gm_ipc[2][LA_BCS], 100.0 * (gm_ipc[2][LA_LAS] / gm_ipc[2][LA_BCS] - 1.0));
    st_check(f, score,
             isfinite(gm_ipc[2][LA_BCS]) && isfinite(gm_ipc[2][LA_LAS])
                 ? gm_ipc[2][LA_LAS] > 1.02 * gm_ipc[2][LA_BCS]   /* the 2% margin of every speedup check */
                 : -1,
             "Column-major / mixed (Type-II) workloads: the locality-aware CTA scheduler beats BCS",
             "+24-26% over BCS (sec. 5, 5.1)", msr);
    snprintf(msr, sizeof msr, "Type-III: LAS-CTA %.2fx, BCS %.2fx (geometric mean)", gm_ipc[3][LA_LAS],
             gm_ipc[3][LA_BCS]);
    st_check(f, score, isfinite(gm_ipc[3][LA_LAS]) ? fabs(gm_ipc[3][LA_LAS] - 1.0) <= 0.03 : -1,
             "No inter-CTA locality (Type-III): the locality-aware CTA scheduler has no effect",
             "no effect; BCS loses 8% on NN by delaying dispatch (sec. 5.1)", msr);
    {
        double a = st_gmean((double[]){gm_ipc[1][LA_LASW] / gm_ipc[1][LA_LAS], gm_ipc[2][LA_LASW] / gm_ipc[2][LA_LAS]},
                            2);
        snprintf(msr, sizeof msr, "+warp over LAS-CTA: Type-I %+.1f%%, Type-II %+.1f%%",
                 100.0 * (gm_ipc[1][LA_LASW] / gm_ipc[1][LA_LAS] - 1.0),
                 100.0 * (gm_ipc[2][LA_LASW] / gm_ipc[2][LA_LAS] - 1.0));
        st_check(f, score, isfinite(a) ? a > 1.02 : -1, "The locality-aware warp scheduler adds a little on top",
                 "+3% on average for Type-I and II (sec. 5.2)", msr);
    }
    snprintf(msr, sizeof msr, "Type-II L1D miss rate: RR %.0f%%, BCS %.0f%%, LAS-CTA %.0f%%", 100.0 * am_miss[2][LA_RR],
             100.0 * am_miss[2][LA_BCS], 100.0 * am_miss[2][LA_LAS]);
    st_check(f, score,
             isfinite(am_miss[2][LA_LAS]) && isfinite(am_miss[2][LA_BCS])
                 ? am_miss[2][LA_LAS] < am_miss[2][LA_BCS] - 0.005   /* half a percentage point */
                 : -1,
             "The locality-aware CTA scheduler lowers the L1D miss rate where BCS cannot (Type-II)",
             "10% lower miss rate than BCS (sec. 5.1)", msr);
    st_score(f, score);
    fclose(f);
    st_report_out(o, "las", text);
    free(text);
    char path[1100];
    snprintf(path, sizeof path, "%s/las_ipc.csv", o->dir);
    st_write_csv(t, path);
    snprintf(path, sizeof path, "%s/las_l1d.csv", o->dir);
    st_write_csv(t2, path);
    printf("tables written to %s/las_ipc.csv, %s/las_l1d.csv; runs in %s/runs/ (runs.csv)\n", o->dir, o->dir,
           o->dir);
    free(t);
    free(t2);
    int rc = st_status(o, &l);
    sw_list_free(&l);
    return rc;
}
