/*
 * study_l1size.c - `warpsim study l1-size`: seed 000 (Lee) Fig. 5.1 and
 * Table 5.3, the sensitivity of every application workload to the L1D size.
 *
 * Four runs per workload on the gtx480 preset: the 16 KB baseline
 * (32:128:4, 000 Table 5.1), a 32 KB and a 64 KB L1D (64 and 128 sets: the
 * line size, the associativity and every other field of the cache string are
 * the baseline's), and no L1D for global loads (`--l1-bypass all`, set as
 * warpsim_l1d_bypass=all: every read miss bypasses, so nothing is ever
 * allocated).  Speedup = cycles of the 16 KB run / cycles of the other;
 * cache-sensitive (CS) when 64 KB gives more than 1.2x (000 sec. 5.3).
 * The classification is compared with 000 Table 5.3 where the seed has the
 * same application and its class is legible in the seed text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "study.h"

#define L1_MAXW 64
#define L1_SENSITIVE 1.2

enum { L1_16 = 0, L1_32, L1_64, L1_OFF, L1_NC };
static const char *const l1_head[L1_NC] = {"16KB", "32KB", "64KB", "off"};

const char *l1s_dl1(int kb)
{
    switch (kb) {
    case 32:
        return "64:128:4,L:L:m:N:H,A:32:8,8";
    case 64:
        return "128:128:4,L:L:m:N:H,A:32:8,8";
    default:
        return "32:128:4,L:L:m:N:H,A:32:8,8";
    }
}

void l1s_all_apps(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < wl_count(); i++) {
        const struct workload *w = wl_get(i);
        if (w->micro)
            continue;
        used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s", used ? "," : "", w->name);
    }
}

const char *l1s_seed(const char *wl, int *seed_class)
{
    /* 000 Table 5.3 lists the NS group first (its label on BO, the first row)
       and the CS group after it; the text of the seed lost the CS label's
       row, but sec. 5.4 names FLD a CS application, so FLD and every row
       after it (SS, BFS, STR, ELL, PRK, MM, KMN) are CS.  Between BO and FLD
       the class is not legible (-1).  SR1/SR2 are both srad here; PVR (Mars
       page view rank) is not pvc (page view count). */
    static const struct { const char *name, *abbr; int cls; } tab[] = {
        {"binopt", "BO", 0},     {"pathfinder", "PTH", -1}, {"hotspot", "HOT", -1}, {"backprop", "BP", -1},
        {"fwt", "FWT", -1},      {"heartwall", "HTW", -1},  {"srad", "SR1/SR2", -1}, {"nw", "NW", -1},
        {"sc", "SC", -1},        {"btree", "BT", -1},       {"dct", "DCT", -1},      {"wc", "WC", -1},
        {"mis", "MIS", -1},      {"color", "CLR", -1},      {"pf", "PF", -1},        {"bc", "BC", -1},
        {"sssp_csr", "CSR", -1}, {"fw", "FLD", 1},          {"ssc", "SS", 1},        {"bfs", "BFS", 1},
        {"sm", "STR", 1},        {"sssp_ell", "ELL", 1},    {"pagerank", "PRK", 1},  {"mm", "MM", 1},
        {"kmeans", "KMN", 1},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(tab[i].name, wl) == 0) {
            *seed_class = tab[i].cls;
            return tab[i].abbr;
        }
    *seed_class = -1;
    return "";
}

int study_l1size(const struct st_opts *o)
{
    const char *cfg = o->config ? o->config : "gtx480";
    char apps[2048];
    l1s_all_apps(apps, sizeof apps);
    const char *names[L1_MAXW];
    char skipped[512];
    size_t nw = st_workloads(o, apps, names, L1_MAXW, skipped, sizeof skipped);
    if (nw == 0) {
        fprintf(stderr, "warpsim study l1-size: no workload to run\n");
        return EXIT_USAGE;
    }
    char why_off[512];
    st_policy_check(o, "bypass", "all", NULL, why_off, sizeof why_off);

    struct sw_list l;
    st_list_init(&l, o);
    long run[L1_MAXW][L1_NC];
    for (size_t i = 0; i < nw; i++) {
        for (int c = 0; c < L1_NC; c++) {
            run[i][c] = -1;
            if (c == L1_OFF && why_off[0])
                continue;
            struct sw_run r = {.workload = names[i], .size = o->size, .config = cfg, .nset = c != L1_16};
            if (c == L1_32 || c == L1_64) {
                r.set_name[0] = "gpgpu_cache:dl1";
                r.set_value[0] = l1s_dl1(c == L1_32 ? 32 : 64);
            } else if (c == L1_OFF) {
                r.set_name[0] = "warpsim_l1d_bypass";
                r.set_value[0] = "all";
            }
            run[i][c] = sw_add(&l, &r);
        }
    }
    int ph = st_phase(o, &l, 0, "study l1-size");
    if (ph != 0) {
        sw_list_free(&l);
        return ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
    }

    double sp[L1_NC][L1_MAXW];
    int cls[L1_MAXW];
    for (size_t i = 0; i < nw; i++) {
        const struct sw_metrics *b = st_m(&l, run[i][L1_16]);
        for (int c = 0; c < L1_NC; c++) {
            const struct sw_metrics *m = st_m(&l, run[i][c]);
            sp[c][i] = m && b && m->cycles > 0 ? b->cycles / m->cycles : NAN;
        }
        cls[i] = isfinite(sp[L1_64][i]) ? sp[L1_64][i] > L1_SENSITIVE : -1;
    }

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    struct st_table *t = calloc(1, sizeof *t);
    if (!f || !t) {
        if (f)
            fclose(f);
        free(text);
        free(t);
        sw_list_free(&l);
        return EXIT_SIM_ERROR;
    }
    fprintf(f, "\n==== study l1-size: seed 000 (Lee) Fig. 5.1, Table 5.3 ====\n");
    fprintf(f, "config %s, size %s; L1D 16 KB = %s (baseline), 32 KB = %s, 64 KB = %s (sets scaled, 4 ways, "
               "128 B lines), off = --l1-bypass all.\n",
            cfg, o->size, l1s_dl1(16), l1s_dl1(32), l1s_dl1(64));
    fprintf(f, "speedup = cycles(16 KB) / cycles; CS (cache-sensitive) when 64 KB > %.1fx.\n", L1_SENSITIVE);
    if (skipped[0])
        fprintf(f, "workloads not bundled in this build, skipped: %s\n", skipped);
    if (why_off[0])
        fprintf(f, "column off not available: %s\n", why_off);

    st_table_init(t, "\nL1D size sensitivity (Fig. 5.1, Table 5.3)");
    unsigned cw = st_col(t, "workload"), cs = st_col(t, "seed"), cc[L1_NC], cx[L1_NC];
    for (int c = 0; c < L1_NC; c++) {
        char h[ST_CELL];
        snprintf(h, sizeof h, "cycles %s", l1_head[c]);
        cc[c] = st_col(t, h);
    }
    for (int c = L1_32; c < L1_NC; c++)
        cx[c] = st_col(t, l1_head[c]);
    unsigned ccl = st_col(t, "class"), csc = st_col(t, "seed class"), cv = st_col(t, "verdict");
    (void)cw;
    unsigned score[3] = {0, 0, 0};
    size_t ncs = 0;
    double cs64[L1_MAXW];
    for (size_t i = 0; i < nw; i++) {
        unsigned r = st_row(t, names[i]);
        int scl;
        const char *abbr = l1s_seed(names[i], &scl);
        st_setf(t, r, cs, "%s", abbr[0] ? abbr : "-");
        for (int c = 0; c < L1_NC; c++) {
            const struct sw_metrics *m = st_m(&l, run[i][c]);
            if (m)
                st_setf(t, r, cc[c], "%.0f", m->cycles);
            else
                st_setf(t, r, cc[c], "%s", run[i][c] < 0 ? "n/a" : "fail");
        }
        for (int c = L1_32; c < L1_NC; c++)
            st_cell(t, r, cx[c], &l, run[i][c], sp[c][i]);
        st_setf(t, r, ccl, "%s", cls[i] < 0 ? "?" : cls[i] ? "CS" : "NS");
        cs64[i] = cls[i] == 1 ? sp[L1_64][i] : NAN;
        ncs += cls[i] == 1;
        st_setf(t, r, csc, "%s", !abbr[0] ? "-" : scl < 0 ? "?" : scl ? "CS" : "NS");
        int v = !abbr[0] ? -2 : scl < 0 || cls[i] < 0 ? -1 : cls[i] == scl;
        st_setf(t, r, cv, "%s", v == -2 ? "-" : v < 0 ? "cannot tell" : v ? "agrees" : "differs");
    }
    double gm[L1_NC];
    for (int c = L1_32; c < L1_NC; c++)
        gm[c] = st_gmean(sp[c], nw);
    unsigned rg = st_row(t, "GMEAN");
    t->rule_before[rg] = 1;
    for (int c = L1_32; c < L1_NC; c++)
        st_setnum(t, rg, cx[c], gm[c], 2, "n/a");
    st_print(t, f);
    fprintf(f, "\ncache-sensitive here: %zu of %zu workloads", ncs, nw);
    if (ncs) {
        fprintf(f, " (");
        for (size_t i = 0, k = 0; i < nw; i++)
            if (cls[i] == 1)
                fprintf(f, "%s%s", k++ ? ", " : "", names[i]);
        fprintf(f, "); their 64 KB speedup: arithmetic mean %.2fx, geometric %.2fx", st_amean(cs64, nw),
                st_gmean(cs64, nw));
    }
    fprintf(f, "\n");

    fprintf(f, "\nComparison with seed 000 (class by the 64 KB speedup; speedups by the %.0f%% margin):\n", 2.0);
    char msr[512], claim[256], paper[256];
    for (size_t i = 0; i < nw; i++) {
        int scl;
        const char *abbr = l1s_seed(names[i], &scl);
        if (!abbr[0])
            continue;
        snprintf(claim, sizeof claim, "%s (seed %s) is %s", names[i], abbr,
                 scl < 0 ? "CS or NS (class not legible in the seed text)"
                 : scl   ? "cache-sensitive"
                         : "not cache-sensitive");
        snprintf(paper, sizeof paper, "%s in 000 Table 5.3 (CS: > 1.2x with a 64 KB L1D)",
                 scl < 0 ? "?" : scl ? "CS" : "NS");
        snprintf(msr, sizeof msr, "64 KB %.2fx, 32 KB %.2fx: %s", sp[L1_64][i], sp[L1_32][i],
                 cls[i] < 0 ? "no result" : cls[i] ? "CS" : "NS");
        st_check(f, score, scl < 0 || cls[i] < 0 ? -1 : cls[i] == scl, claim, paper, msr);
    }
    /* 000 sec. 5.1: MM, PRK and KMN gain from turning the L1D off */
    static const char *const off_wl[] = {"mm", "pagerank", "kmeans"};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < nw; i++) {
            if (strcmp(names[i], off_wl[k]) != 0)
                continue;
            int scl;
            const char *abbr = l1s_seed(names[i], &scl);
            snprintf(claim, sizeof claim, "%s (seed %s) runs faster with the L1D off", names[i], abbr);
            snprintf(msr, sizeof msr, "off %.2fx", sp[L1_OFF][i]);
            st_check(f, score, isfinite(sp[L1_OFF][i]) ? sp[L1_OFF][i] > 1.02 : -1, claim,
                     "MM, PRK and KMN benefit from turning off the L1D (Fig. 5.1)", msr);
        }
    st_score(f, score);
    fclose(f);
    st_report_out(o, "l1-size", text);
    free(text);
    char path[1100];
    snprintf(path, sizeof path, "%s/l1-size.csv", o->dir);
    st_write_csv(t, path);
    printf("table written to %s/l1-size.csv; runs in %s/runs/ (runs.csv)\n", o->dir, o->dir);
    free(t);
    int rc = st_status(o, &l);
    sw_list_free(&l);
    return rc;
}
