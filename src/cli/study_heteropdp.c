/*
 * study_heteropdp.c - `warpsim study heteropdp`: HeteroPDP's evaluation (seed 000 sec. 6.5, Fig.
 * 6.7-6.14) on the simulated campaign of `pdp collect` (pdp_collect.c; docs/heteropdp.md,
 * docs/studies.md).
 *
 * The campaign (kernels x sizes x grid scales x co-runner sets) runs in DIR/collect (resumable).
 * Every case is then predicted out of sample: the four models are trained (as `pdp train`: 32
 * folds, selection) on the campaign without the case's kernel at its size, every grid scale of it
 * (or without the kernel altogether), the co-runners' slowdowns come
 * from the Bubble-up table, and the predicted decision is compared with the oracle's (the decision
 * from the measured times and slowdowns).  Reported: target-selection accuracy alone and co-located
 * with one and two co-runners, the [predicted, optimal] breakdown (Fig. 6.7, 6.13), the error CDF of
 * the four time models (Fig. 6.8), speedups of always-CPU, always-GPU, HeteroPDP and the oracle
 * alone (Fig. 6.9) and co-located with fairness (Fig. 6.10, 6.14), and the weight-ratio sweep
 * 0.5-2.5 (Fig. 6.11-6.12).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pdp/decide.h"
#include "pdp/model.h"
#include "pdp_collect.h"
#include "study.h"
#include "sys/pcie.h"

#define HP_NW 5
static const double hp_weights[HP_NW] = {0.5, 1.0, 1.5, 2.0, 2.5};

struct hp_case {
    double pred[PDP_NTARGETS][PDP_NSCENS];   /* out-of-sample predictions */
    double sd_tab[PC_MAX_CO][PDP_NTARGETS];  /* the co-runners' slowdowns from the table */
};

/* The decision for row r from times t and co-runner slowdowns sd, co-runner weight w. */
/* sd: the co-runners' slowdowns, [co-runner][target] flattened */
static int hp_decide(const struct pc_row *r, double t[PDP_NTARGETS][PDP_NSCENS], const double *sd, double w,
                     struct pdp_schedule_out *out)
{
    struct pdp_corunner co[PC_MAX_CO];
    memset(co, 0, sizeof co);
    for (unsigned a = 0; a < r->nco; a++) {
        snprintf(co[a].name, sizeof co[a].name, "%s", r->co[a]);
        co[a].slowdown[PDP_CPU] = sd[a * PDP_NTARGETS + PDP_CPU];
        co[a].slowdown[PDP_GPU] = sd[a * PDP_NTARGETS + PDP_GPU];
        co[a].weight = w;
    }
    struct pdp_schedule_in in;
    memset(&in, 0, sizeof in);
    memcpy(in.time, t, sizeof in.time);
    in.kernel_weight = 1;
    in.co = co;
    in.nco = r->nco;
    in.ref = PDP_REF_TARGET;
    return pdp_schedule(&in, out);
}

static void hp_measured(const struct pc_row *r, double t[PDP_NTARGETS][PDP_NSCENS])
{
    for (int k = 0; k < PDP_NTARGETS; k++) {
        t[k][PDP_ALONE] = r->t_alone[k];
        t[k][PDP_COLOC] = r->t_coloc[k];
    }
}

static double hp_share(const double *err, size_t n, double cut)
{
    size_t in = 0, m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(err[i])) {
            m++;
            in += err[i] <= cut;
        }
    return m ? (double)in / (double)m : NAN;
}

static int hp_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double hp_median(const double *err, size_t n)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; v && i < n; i++)
        if (isfinite(err[i]))
            v[m++] = err[i];
    double r = NAN;
    if (m) {
        qsort(v, m, sizeof *v, hp_cmp);
        r = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
    }
    free(v);
    return r;
}

/* rows i and j belong to the same held-out group: the same kernel (and size, when by_size) */
static int hp_same(const struct pc_row *a, const struct pc_row *b, int by_size)
{
    return strcmp(a->kernel, b->kernel) == 0 && (!by_size || strcmp(a->size, b->size) == 0);
}

/* Out-of-sample predictions of every row into cs: the models trained without the row's kernel at its
   size (by_size) or without the kernel altogether. */
static int hp_predict(const struct pc_campaign *c, struct hp_case *cs, int by_size, const struct st_opts *o)
{
    struct pc_campaign sub;
    memset(&sub, 0, sizeof sub);
    sub.rows = malloc((c->n ? c->n : 1) * sizeof *sub.rows);
    struct pdp_modelset *ms = malloc(sizeof *ms);
    struct pdp_train_report *rep = malloc(sizeof *rep);
    int rc = sub.rows && ms && rep ? 0 : -1;
    for (size_t i = 0; i < c->n; i++)
        for (int t = 0; t < PDP_NTARGETS; t++)
            for (int s = 0; s < PDP_NSCENS; s++)
                cs[i].pred[t][s] = NAN;
    for (size_t i = 0; rc == 0 && i < c->n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = !hp_same(&c->rows[j], &c->rows[i], by_size);
        if (!first)
            continue;
        sub.n = 0;
        for (size_t j = 0; j < c->n; j++)
            if (!hp_same(&c->rows[j], &c->rows[i], by_size))
                sub.rows[sub.n++] = c->rows[j];
        struct pdp_dataset d;
        char msg[512];
        struct pdp_train_opts to;
        pdp_train_opts_default(&to);
        to.intercept = o->intercept != 0;
        to.relative = o->relative != 0;
        if (pc_dataset(&sub, &d, msg, sizeof msg) != 0 || pdp_train(&d, &to, "loko", ms, rep, msg, sizeof msg) != 0) {
            fprintf(stderr, "warpsim study heteropdp: training without %s %s: %s\n", c->rows[i].kernel,
                    by_size ? c->rows[i].size : "(all sizes)", msg);
            pdp_dataset_free(&d);
            continue;   /* its cases stay unpredicted */
        }
        pdp_dataset_free(&d);
        for (size_t j = 0; j < c->n; j++)
            if (hp_same(&c->rows[j], &c->rows[i], by_size))
                for (int t = 0; t < PDP_NTARGETS; t++)
                    for (int s = 0; s < PDP_NSCENS; s++)
                        cs[j].pred[t][s] = pdp_model_predict(&ms->m[t][s], &c->rows[j].x);
    }
    free(sub.rows);
    free(ms);
    free(rep);
    return rc;
}

/* The table's co-runner slowdowns of every row (GPU: beside the predicted GPU time). */
static void hp_table(const struct pc_campaign *c, struct hp_case *cs)
{
    struct pcie_params pp;
    pcie_params_default(&pp);
    for (size_t i = 0; i < c->n; i++) {
        const struct pc_row *r = &c->rows[i];
        double tx = 2 * pp.latency_s + (r->in_bytes + r->out_bytes) / pcie_bandwidth(&pp);
        for (unsigned a = 0; a < r->nco; a++) {
            cs[i].sd_tab[a][PDP_CPU] =
                pdp_bubble_cpu(&c->bubble, r->co[a], r->kernel_cores, r->x.v[PDP_F_BUFFER_BYTES] / r->kernel_cores);
            cs[i].sd_tab[a][PDP_GPU] = pdp_bubble_gpu(&c->bubble, r->co[a], tx, cs[i].pred[PDP_GPU][PDP_COLOC]);
        }
    }
}

/* Accuracy alone / with co-runners (equal weights) and the four models' shares within 20%. */
static void hp_summary(const struct pc_campaign *c, const struct hp_case *cs, double acc[2], double w20[2][2])
{
    unsigned n[2] = {0, 0}, ok[2] = {0, 0}, m[2][2] = {{0, 0}, {0, 0}}, in[2][2] = {{0, 0}, {0, 0}};
    for (size_t i = 0; i < c->n; i++) {
        const struct pc_row *r = &c->rows[i];
        double tm[PDP_NTARGETS][PDP_NSCENS], tp[PDP_NTARGETS][PDP_NSCENS];
        hp_measured(r, tm);
        memcpy(tp, cs[i].pred, sizeof tp);
        struct pdp_schedule_out om, op;
        int oc = hp_decide(r, tm, &r->sd_co[0][0], 1, &om);
        int pc = hp_decide(r, tp, &cs[i].sd_tab[0][0], 1, &op);
        int g = r->nco ? 1 : 0;
        int opt = g ? oc : om.alone, pred = g ? pc : op.alone;
        if (pred < 0)
            pred = PDP_GPU;
        n[g]++;
        ok[g] += pred == opt;
        int s = g ? PDP_COLOC : PDP_ALONE;
        for (int t = 0; t < PDP_NTARGETS; t++) {
            double meas = g ? r->t_coloc[t] : r->t_alone[t];
            double e = fabs(cs[i].pred[t][s] - meas) / meas;
            if (isfinite(e)) {
                m[t][s]++;
                in[t][s] += e <= 0.2;
            }
        }
    }
    for (int g = 0; g < 2; g++)
        acc[g] = n[g] ? (double)ok[g] / n[g] : NAN;
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 2; s++)
            w20[t][s] = m[t][s] ? (double)in[t][s] / m[t][s] : NAN;
}

static const char *hp_t(int t) { return t == PDP_CPU ? "CPU" : t == PDP_GPU ? "GPU" : "none"; }

int study_heteropdp(const struct st_opts *o)
{
    if (o->emit_format) {
        fprintf(stderr, "warpsim study heteropdp: --emit is not supported (its simulations are `pdp collect` jobs; "
                        "run the study, it resumes)\n");
        return EXIT_USAGE;
    }
    if (strcmp(o->size, "tiny") != 0 && strcmp(o->size, "small") != 0) {
        fprintf(stderr, "warpsim study heteropdp: --size tiny or small\n");
        return EXIT_USAGE;
    }
    char cdir[1100];
    snprintf(cdir, sizeof cdir, "%s/collect", o->dir);
    struct pc_opts po;
    memset(&po, 0, sizeof po);
    po.size = o->size;
    po.dir = cdir;
    po.jobs = o->jobs;
    po.kernels = o->workloads;
    po.coruns = o->mixes;
    po.grid_scales = o->grid_scales ? o->grid_scales : PC_DEFAULT_GRID_SCALES;
    po.quiet = o->quiet;
    struct pc_campaign c;
    int crc = pc_collect(&po, &c);
    if (c.n == 0) {
        pc_campaign_free(&c);
        return crc ? crc : EXIT_SIM_ERROR;
    }
    struct hp_case *cs = calloc(c.n, sizeof *cs);
    double *err[PDP_NTARGETS][PDP_NSCENS];
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++)
            err[t][s] = calloc(c.n, sizeof(double));
    double *tab_err = calloc(2 * PC_MAX_CO * c.n + 1, sizeof(double));
    struct hp_case *cs_k = calloc(c.n, sizeof *cs_k);   /* whole kernels held out */
    if (!cs || !cs_k || !tab_err || !err[0][0] || !err[0][1] || !err[1][0] || !err[1][1] ||
        hp_predict(&c, cs, 1, o) != 0 || hp_predict(&c, cs_k, 0, o) != 0) {
        fprintf(stderr, "warpsim study heteropdp: out of host memory\n");
        pc_campaign_free(&c);
        return EXIT_SIM_ERROR;
    }
    hp_table(&c, cs);
    hp_table(&c, cs_k);
    size_t ntab = 0;
    for (size_t i = 0; i < c.n; i++) {
        const struct pc_row *r = &c.rows[i];
        for (unsigned a = 0; a < r->nco; a++) {
            for (int t = 0; t < PDP_NTARGETS; t++)
                tab_err[ntab++] = fabs(cs[i].sd_tab[a][t] - r->sd_co[a][t]) / r->sd_co[a][t];
        }
        for (int t = 0; t < PDP_NTARGETS; t++) {
            err[t][PDP_ALONE][i] = r->nco == 0 ? fabs(cs[i].pred[t][PDP_ALONE] - r->t_alone[t]) / r->t_alone[t] : NAN;
            err[t][PDP_COLOC][i] = r->nco > 0 ? fabs(cs[i].pred[t][PDP_COLOC] - r->t_coloc[t]) / r->t_coloc[t] : NAN;
        }
    }

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    if (!f) {
        pc_campaign_free(&c);
        return EXIT_SIM_ERROR;
    }
    size_t nkern = 0, nscaled = 0, nalone = 0, n1 = 0, n2 = 0;
    for (size_t i = 0; i < c.n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(c.rows[j].kernel, c.rows[i].kernel) != 0;
        nkern += first ? 1u : 0u;
        nscaled += c.rows[i].nco == 0 && c.rows[i].grid_scale != 1.0 ? 1u : 0u;
        nalone += c.rows[i].nco == 0 ? 1u : 0u;
        n1 += c.rows[i].nco == 1 ? 1u : 0u;
        n2 += c.rows[i].nco == 2 ? 1u : 0u;
    }
    fprintf(f, "HeteroPDP (seed 000 ch. 6) on the simulated i7-3770 + FirePro S9150 machine (configs/pdp-host, "
               "pdp-s9150; docs/heteropdp.md)\n");
    fprintf(f, "campaign: %s/pdp.csv: %zu kernels x sizes x grid scales = %zu cases alone (%zu of them on a scaled "
               "grid), %zu with one co-runner, %zu with two; predictions leave the case's kernel at its size (every grid "
               "scale of it) out of training (the kernel at its other size stays in, as the seed's training set had "
               "kernels at several input sizes)%s%s\n",
            cdir, nkern, nalone, nscaled, n1, n2,
            o->intercept ? "; the time models have a constant term (--intercept)" : "",
            o->relative ? "; they are fitted to relative errors (--relative)" : "");

    /* ---- Fig. 6.7 / 6.13: target selection ---- */
    unsigned conf[3][2][2];   /* [alone, one, two][pred][opt] */
    unsigned nval[3] = {0, 0, 0}, nok[3] = {0, 0, 0}, nnone[3] = {0, 0, 0};
    memset(conf, 0, sizeof conf);
    /* speedups over the kernel on the CPU (alone) and fairness (co-located) */
    double sp[4] = {0, 0, 0, 0}, lsp[4] = {0, 0, 0, 0};   /* always CPU, always GPU, HeteroPDP, oracle */
    double fair[2][4], ksp[2][4], csp[2][4];
    memset(fair, 0, sizeof fair);
    memset(ksp, 0, sizeof ksp);
    memset(csp, 0, sizeof csp);
    for (size_t i = 0; i < c.n; i++) {
        const struct pc_row *r = &c.rows[i];
        double tm[PDP_NTARGETS][PDP_NSCENS];
        hp_measured(r, tm);
        struct pdp_schedule_out om, op;
        hp_decide(r, tm, &r->sd_co[0][0], 1, &om);
        int pco = hp_decide(r, cs[i].pred, &cs[i].sd_tab[0][0], 1, &op);
        int g = r->nco == 0 ? 0 : r->nco == 1 ? 1 : 2;
        int opt = g == 0 ? om.alone : om.coloc;
        int pred = g == 0 ? op.alone : pco;
        if (opt < 0)
            continue;   /* not measured (cannot happen for a row of the campaign) */
        nval[g]++;
        if (pred < 0) {
            nnone[g]++;
            pred = PDP_GPU;   /* no valid prediction: the runtime's default, offload */
        }
        nok[g] += pred == opt;
        conf[g][pred][opt]++;
        if (g == 0) {
            double ch[4] = {r->t_alone[PDP_CPU], r->t_alone[PDP_GPU], r->t_alone[pred], r->t_alone[opt]};
            for (int k = 0; k < 4; k++) {
                sp[k] += r->t_alone[PDP_CPU] / ch[k];
                lsp[k] += log(r->t_alone[PDP_CPU] / ch[k]);
            }
        } else {
            int tg[4] = {PDP_CPU, PDP_GPU, pred, opt};
            for (int k = 0; k < 4; k++) {
                fair[g - 1][k] += om.fairness[tg[k]];
                ksp[g - 1][k] += r->t_coloc[PDP_CPU] / r->t_coloc[tg[k]];
                double s = 0;
                for (unsigned a = 0; a < r->nco; a++)
                    s += r->sd_co[a][PDP_CPU] / r->sd_co[a][tg[k]];
                csp[g - 1][k] += s / r->nco;
            }
        }
    }
    static const char *const gname[3] = {"alone", "one co-runner", "two co-runners"};
    struct st_table *t = malloc(sizeof *t);
    if (!t) {
        fclose(f);
        free(text);
        pc_campaign_free(&c);
        return EXIT_SIM_ERROR;
    }
    st_table_init(t, "\nTarget selection (Fig. 6.7, 6.13): share of cases whose predicted target is the optimal one; "
                     "[predicted, optimal]");
    st_col(t, "scenario");
    unsigned cn = st_col(t, "cases"), ca = st_col(t, "accuracy"), cc = st_col(t, "[CPU,CPU]"),
             cg = st_col(t, "[CPU,GPU]"), cgc = st_col(t, "[GPU,CPU]"), cgg = st_col(t, "[GPU,GPU]"),
             cnn = st_col(t, "no prediction");
    double acc[3];
    for (int g = 0; g < 3; g++) {
        acc[g] = nval[g] ? (double)nok[g] / (double)nval[g] : NAN;
        if (!nval[g])
            continue;
        unsigned row = st_row(t, gname[g]);
        st_setf(t, row, cn, "%u", nval[g]);
        st_setnum(t, row, ca, 100 * acc[g], 0, "-");
        unsigned cols[2][2] = {{cc, cg}, {cgc, cgg}};
        for (int p = 0; p < 2; p++)
            for (int q = 0; q < 2; q++)
                st_setf(t, row, cols[p][q], "%u", conf[g][p][q]);
        st_setf(t, row, cnn, "%u", nnone[g]);
    }
    st_print(t, f);
    fprintf(f, "(accuracy in %%; co-located: the target of highest fairness, Eq. 6.1, from the predicted kernel times and "
               "the table's co-runner slowdowns vs from the measured ones; no prediction: neither predicted time was "
               "positive, counted as GPU)\n");

    /* ---- Fig. 6.8: error CDF ---- */
    st_table_init(t, "\nPrediction error of the four time models (Fig. 6.8), out of sample: share of cases within 10%, "
                     "20%, 50%");
    st_col(t, "model");
    unsigned e10 = st_col(t, "<=10%"), e20 = st_col(t, "<=20%"), e50 = st_col(t, "<=50%"), emed = st_col(t, "median");
    static const char *const mname[2][2] = {{"(1) CPU alone", "(3) CPU co-located"},
                                            {"(2) GPU alone", "(4) GPU co-located"}};
    double w20[2][2];
    for (int s = 0; s < PDP_NSCENS; s++)
        for (int k = 0; k < PDP_NTARGETS; k++) {
            unsigned row = st_row(t, mname[k][s]);
            w20[k][s] = hp_share(err[k][s], c.n, 0.2);
            st_setnum(t, row, e10, 100 * hp_share(err[k][s], c.n, 0.1), 0, "-");
            st_setnum(t, row, e20, 100 * w20[k][s], 0, "-");
            st_setnum(t, row, e50, 100 * hp_share(err[k][s], c.n, 0.5), 0, "-");
            st_setnum(t, row, emed, 100 * hp_median(err[k][s], c.n), 1, "-");
        }
    unsigned row = st_row(t, "co-runner table");
    st_setnum(t, row, e10, 100 * hp_share(tab_err, ntab, 0.1), 0, "-");
    st_setnum(t, row, e20, 100 * hp_share(tab_err, ntab, 0.2), 0, "-");
    st_setnum(t, row, e50, 100 * hp_share(tab_err, ntab, 0.5), 0, "-");
    st_setnum(t, row, emed, 100 * hp_median(tab_err, ntab), 1, "-");
    st_print(t, f);
    fprintf(f, "(percent; |predicted - measured| / measured; the table row: the Bubble-up slowdowns of the co-runners "
               "against the measured ones, both targets)\n");

    /* ---- Fig. 6.9: speedup alone ---- */
    static const char *const pol[4] = {"always CPU", "always GPU", "HeteroPDP", "oracle"};
    st_table_init(t, "\nKernel speedup alone over running it on the CPU (Fig. 6.9)");
    st_col(t, "target policy");
    unsigned sa = st_col(t, "mean"), sg = st_col(t, "geomean");
    double spm[4];
    for (int k = 0; k < 4; k++) {
        spm[k] = nval[0] ? sp[k] / nval[0] : NAN;
        row = st_row(t, pol[k]);
        st_setnum(t, row, sa, spm[k], 2, "-");
        st_setnum(t, row, sg, nval[0] ? exp(lsp[k] / nval[0]) : NAN, 2, "-");
    }
    st_print(t, f);
    double gap = spm[3] - spm[1] > 1e-12 ? (spm[2] - spm[1]) / (spm[3] - spm[1]) : NAN;
    fprintf(f, "HeteroPDP bridges %.0f%% of the gap between always-GPU and the oracle (arithmetic means)\n", 100 * gap);

    /* ---- Fig. 6.10 / 6.14: co-located ---- */
    for (int g = 0; g < 2; g++) {
        if (!nval[g + 1])
            continue;
        char title[200];
        snprintf(title, sizeof title,
                 "\nCo-located with %s (Fig. %s): speedups over the kernel on the CPU, and fairness (Eq. 6.1)",
                 g ? "two co-runners" : "one co-runner", g ? "6.14" : "6.10");
        st_table_init(t, title);
        st_col(t, "target policy");
        unsigned ck = st_col(t, "kernel"), cc2 = st_col(t, "co-runners"), cav = st_col(t, "average"),
                 cf = st_col(t, "fairness");
        for (int k = 0; k < 4; k++) {
            double nn = (double)nval[g + 1];
            row = st_row(t, pol[k]);
            st_setnum(t, row, ck, ksp[g][k] / nn, 2, "-");
            st_setnum(t, row, cc2, csp[g][k] / nn, 2, "-");
            st_setnum(t, row, cav, (ksp[g][k] + csp[g][k]) / (2 * nn), 2, "-");
            st_setnum(t, row, cf, fair[g][k] / nn, 3, "-");
        }
        st_print(t, f);
    }
    fprintf(f, "(arithmetic means over the cases; a co-runner's speedup is its slowdown with the kernel on the CPU over "
               "its slowdown with the kernel where the policy put it)\n");

    /* ---- Fig. 6.11-6.12: weight ratio ---- */
    st_table_init(t, "\nWeight ratio of the co-runner (one co-runner; kernel weight 1; Fig. 6.11-6.12): the weighted "
                     "fairness decides (Eq. 6.3-6.4)");
    st_col(t, "weight");
    unsigned wa = st_col(t, "accuracy"), wo = st_col(t, "oracle GPU"), wp = st_col(t, "HeteroPDP GPU"),
             wk = st_col(t, "kernel sp."), wc = st_col(t, "co-runner sp."), wf = st_col(t, "wfair HPDP"),
             wfo = st_col(t, "wfair oracle"), wfg = st_col(t, "wfair GPU");
    double wacc[HP_NW], wog[HP_NW];
    for (int w = 0; w < HP_NW; w++) {
        unsigned n = 0, ok = 0, og = 0, pg = 0;
        double k_s = 0, c_s = 0, wf_p = 0, wf_o = 0, wf_g = 0;
        for (size_t i = 0; i < c.n; i++) {
            const struct pc_row *r = &c.rows[i];
            if (r->nco != 1)
                continue;
            double tm[PDP_NTARGETS][PDP_NSCENS];
            hp_measured(r, tm);
            struct pdp_schedule_out om, op;
            int opt = hp_decide(r, tm, &r->sd_co[0][0], hp_weights[w], &om);
            int pred = hp_decide(r, cs[i].pred, &cs[i].sd_tab[0][0], hp_weights[w], &op);
            if (pred < 0)
                pred = PDP_GPU;
            if (opt < 0)
                continue;
            n++;
            ok += pred == opt;
            og += opt == PDP_GPU;
            pg += pred == PDP_GPU;
            k_s += r->t_coloc[PDP_CPU] / r->t_coloc[pred];
            c_s += r->sd_co[0][PDP_CPU] / r->sd_co[0][pred];
            wf_p += om.wfairness[pred];
            wf_o += om.wfairness[opt];
            wf_g += om.wfairness[PDP_GPU];
        }
        char lab[32];
        snprintf(lab, sizeof lab, "%.1f", hp_weights[w]);
        row = st_row(t, lab);
        wacc[w] = n ? (double)ok / n : NAN;
        wog[w] = n ? (double)og / n : NAN;
        st_setnum(t, row, wa, 100 * wacc[w], 0, "-");
        st_setnum(t, row, wo, 100 * wog[w], 0, "-");
        st_setnum(t, row, wp, n ? 100.0 * pg / n : NAN, 0, "-");
        st_setnum(t, row, wk, n ? k_s / n : NAN, 2, "-");
        st_setnum(t, row, wc, n ? c_s / n : NAN, 2, "-");
        st_setnum(t, row, wf, n ? wf_p / n : NAN, 3, "-");
        st_setnum(t, row, wfo, n ? wf_o / n : NAN, 3, "-");
        st_setnum(t, row, wfg, n ? wf_g / n : NAN, 3, "-");
    }
    st_print(t, f);
    fprintf(f, "(accuracy and GPU shares in %%; speedups over the kernel on the CPU; weighted fairness of the chosen "
               "target, measured)\n");

    /* ---- whole kernels held out ---- */
    {
        double ak[2], wk2[2][2];
        hp_summary(&c, cs_k, ak, wk2);
        st_table_init(t, "\nHolding out whole kernels (every size) instead: target selection and shares within 20%");
        st_col(t, "held out");
        unsigned k1 = st_col(t, "acc. alone"), k2 = st_col(t, "acc. co-loc."), k3 = st_col(t, "(1) <=20%"),
                 k4 = st_col(t, "(2) <=20%"), k5 = st_col(t, "(3) <=20%"), k6 = st_col(t, "(4) <=20%");
        double ac[2], wc2[2][2];
        hp_summary(&c, cs, ac, wc2);
        for (int m = 0; m < 2; m++) {
            double *a = m ? ak : ac;
            double(*w)[2] = m ? wk2 : wc2;
            row = st_row(t, m ? "kernel" : "kernel at size");
            st_setnum(t, row, k1, 100 * a[0], 0, "-");
            st_setnum(t, row, k2, 100 * a[1], 0, "-");
            st_setnum(t, row, k3, 100 * w[0][0], 0, "-");
            st_setnum(t, row, k4, 100 * w[1][0], 0, "-");
            st_setnum(t, row, k5, 100 * w[0][1], 0, "-");
            st_setnum(t, row, k6, 100 * w[1][1], 0, "-");
        }
        st_print(t, f);
        fprintf(f, "(percent; co-located: one and two co-runners together)\n");
    }

    /* ---- per case ---- */
    char p[1200];
    snprintf(p, sizeof p, "%s/cases.csv", o->dir);
    FILE *cf = fopen(p, "w");
    if (cf) {
        fprintf(cf, "kernel,size,grid_scale,corunners,meas_cpu_alone,meas_gpu_alone,meas_cpu_coloc,meas_gpu_coloc,pred_cpu_alone,"
                    "pred_gpu_alone,pred_cpu_coloc,pred_gpu_coloc,co1_sd_cpu,co1_sd_gpu,co1_tab_cpu,co1_tab_gpu,"
                    "optimal,predicted\n");
        for (size_t i = 0; i < c.n; i++) {
            const struct pc_row *r = &c.rows[i];
            double tm[PDP_NTARGETS][PDP_NSCENS];
            hp_measured(r, tm);
            struct pdp_schedule_out om, op;
            int opt = hp_decide(r, tm, &r->sd_co[0][0], 1, &om);
            int pred = hp_decide(r, cs[i].pred, &cs[i].sd_tab[0][0], 1, &op);
            if (r->nco == 0) {
                opt = om.alone;
                pred = op.alone;
            }
            fprintf(cf, "%s,%s,%g,", r->kernel, r->size, r->grid_scale);
            for (unsigned a = 0; a < r->nco; a++)
                fprintf(cf, "%s%s", a ? "+" : "", r->co[a]);
            fprintf(cf, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", r->t_alone[0], r->t_alone[1], r->t_coloc[0],
                    r->t_coloc[1], cs[i].pred[0][0], cs[i].pred[1][0], cs[i].pred[0][1], cs[i].pred[1][1]);
            if (r->nco)
                fprintf(cf, ",%.4f,%.4f,%.4f,%.4f", r->sd_co[0][0], r->sd_co[0][1], cs[i].sd_tab[0][0],
                        cs[i].sd_tab[0][1]);
            else
                fprintf(cf, ",,,,");
            fprintf(cf, ",%s,%s\n", hp_t(opt), hp_t(pred));
        }
        fclose(cf);
        fprintf(f, "per case: %s\n", p);
    }

    /* ---- the seed ---- */
    unsigned score[3] = {0, 0, 0};
    char msr[256];
    fprintf(f, "\nComparison with seed 000 (sec. 6.5):\n");
    snprintf(msr, sizeof msr, "%.0f%% of %u", 100 * acc[0], nval[0]);
    st_check(f, score, isfinite(acc[0]) ? fabs(acc[0] - 0.80) <= 0.15 : -1, "target selection alone (within 15 points)",
             "80% (Fig. 6.7a)", msr);
    snprintf(msr, sizeof msr, "%.0f%% of %u", 100 * acc[1], nval[1]);
    st_check(f, score, isfinite(acc[1]) ? fabs(acc[1] - 0.72) <= 0.15 : -1,
             "target selection co-located (within 15 points)", "72% (Fig. 6.7b)", msr);
    snprintf(msr, sizeof msr, "(1) %.0f%%, (2) %.0f%%, (3) %.0f%%, (4) %.0f%%", 100 * w20[0][0], 100 * w20[1][0],
             100 * w20[0][1], 100 * w20[1][1]);
    int v20 = 1, u20 = 0;
    static const double seed20[2][2] = {{0.73, 0.68}, {0.70, 0.72}};
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < 2; s++) {
            if (!isfinite(w20[k][s]))
                u20 = 1;
            else if (fabs(w20[k][s] - seed20[k][s]) > 0.2)
                v20 = 0;
        }
    st_check(f, score, u20 ? -1 : v20, "time models within 20% error (each within 20 points)",
             "73%, 70%, 68%, 72% (Fig. 6.8)", msr);
    snprintf(msr, sizeof msr, "always-GPU %.2fx, HeteroPDP %.2fx, oracle %.2fx", spm[1], spm[2], spm[3]);
    st_check(f, score, isfinite(spm[2]) ? spm[2] > spm[1] : -1, "HeteroPDP beats always offloading to the GPU alone",
             "3.0x vs 2.5x over the CPU (Fig. 6.9)", msr);
    snprintf(msr, sizeof msr, "%.0f%%", 100 * gap);
    st_check(f, score, isfinite(gap) ? gap >= 0.5 : -1, "share of the always-GPU-to-oracle gap bridged (at least half)",
             "72%", msr);
    double fh = nval[1] ? fair[0][2] / nval[1] : NAN, fg = nval[1] ? fair[0][1] / nval[1] : NAN;
    snprintf(msr, sizeof msr, "fairness %.3f vs always-GPU %.3f", fh, fg);
    st_check(f, score, isfinite(fh) && isfinite(fg) ? fh >= fg : -1,
             "HeteroPDP's co-located fairness is at least always-GPU's", "improves fairness (Fig. 6.10)", msr);
    snprintf(msr, sizeof msr, "oracle picks the GPU in %.0f%% at 0.5, %.0f%% at 2.5", 100 * wog[0],
             100 * wog[HP_NW - 1]);
    st_check(f, score, isfinite(wog[0]) && isfinite(wog[HP_NW - 1]) ? wog[HP_NW - 1] >= wog[0] : -1,
             "a heavier co-runner weight moves the optimal target to the GPU", "Fig. 6.5, 6.11", msr);
    double wm = 0;
    int wn = 0;
    for (int w = 0; w < HP_NW; w++)
        if (isfinite(wacc[w])) {
            wm += wacc[w];
            wn++;
        }
    wm = wn ? wm / wn : NAN;
    snprintf(msr, sizeof msr, "%.0f%% (mean over 0.5-2.5)", 100 * wm);
    st_check(f, score, isfinite(wm) ? fabs(wm - 0.75) <= 0.15 : -1,
             "target selection over the weight ratios (within 15 points)", "75% (Fig. 6.11)", msr);
    snprintf(msr, sizeof msr, "%.0f%% of %u", 100 * acc[2], nval[2]);
    st_check(f, score, isfinite(acc[2]) ? fabs(acc[2] - 0.70) <= 0.15 : -1,
             "target selection with two co-runners (within 15 points)", "70% (Fig. 6.13)", msr);
    st_score(f, score);
    fclose(f);
    st_report_out(o, "heteropdp", text);
    free(text);
    free(t);
    for (int k = 0; k < PDP_NTARGETS; k++)
        for (int s = 0; s < PDP_NSCENS; s++)
            free(err[k][s]);
    free(tab_err);
    free(cs);
    free(cs_k);
    pc_campaign_free(&c);
    return crc;
}
