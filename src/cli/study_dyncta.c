/*
 * study_dyncta.c - `warpsim study dyncta`: seed 001 (Kayiran et al., PACT'13)
 * Fig. 1, 9, 10 and 11 on the bundled workloads.
 *
 * Phase 1 runs the baseline of every workload (dyncta-30core, load-balanced
 * round-robin CTA scheduling with the maximum CTAs per core, round-robin warp
 * scheduling: 001 Table I) and reads N, the CTAs of a kernel the core's
 * resources allow, from its time series (column sm<i>_n: the CTA limit,
 * which is N when no policy lowers it).  Phase 2 runs the static limits
 * n = 1..N-1 (n = N is the baseline), DYNCTA, two-level warp scheduling and
 * DYNCTA + two-level.  docs/studies.md discusses the results.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "study.h"

/* 001's applications where it found its gains first (KM, PVC, IIX, SCP,
   SAD), then a streaming kernel, compute-heavier ones (MM, pathfinder, CP)
   and an irregular one; chosen to keep the study within minutes at --size
   small (docs/studies.md); workloads not bundled are skipped with a note */
#define DY_DEFAULT "kmeans,pvc,iix,scp,sad,vecadd,mm,pathfinder,cp,bfs"
#define DY_MAXW 32
#define DY_MAXN 8     /* -gpgpu_shader_cta of the presets: the hard limit */
#define DY_BASE_WS "lrr"

struct dy_wl {
    const char *name;
    long base, stat[DY_MAXN + 1], dyn, tl, dyntl;   /* run indices, -1 = not run */
    unsigned N;                                     /* 0 = unknown */
    int n_observed;                                 /* N from resident CTAs (no sm<i>_n column) */
    double ipc[DY_MAXN + 1];                        /* normalised IPC at static n (NAN = none) */
    unsigned opt;
    double avg_n;       /* 001's window: samples while CTAs of the launch are still being issued */
    double avg_n_all;   /* every sample with a kernel running */
};

static void dy_reason(FILE *f, const char *what, const char *why)
{
    if (why[0])
        fprintf(f, "  %s: not available: %s\n", what, why);
}

int study_dyncta(const struct st_opts *o)
{
    const char *cfg = o->config ? o->config : "dyncta-30core";
    const char *names[DY_MAXW];
    char skipped[512];
    size_t nw = st_workloads(o, DY_DEFAULT, names, DY_MAXW, skipped, sizeof skipped);
    if (nw == 0) {
        fprintf(stderr, "warpsim study dyncta: no workload to run\n");
        return EXIT_USAGE;
    }
    char why_static[512], why_dyn[512], why_tl[512];
    st_policy_check(o, "cta_sched", "static", "n", why_static, sizeof why_static);
    st_policy_check(o, "cta_sched", "dyncta", NULL, why_dyn, sizeof why_dyn);
    st_policy_check(o, "warp_sched", "two_level", NULL, why_tl, sizeof why_tl);

    struct sw_list l;
    st_list_init(&l, o);
    struct dy_wl *w = calloc(nw, sizeof *w);
    if (!w)
        return EXIT_SIM_ERROR;
    int rc = EXIT_OK;
    for (size_t i = 0; i < nw; i++) {
        w[i].name = names[i];
        w[i].dyn = w[i].tl = w[i].dyntl = -1;
        for (unsigned n = 0; n <= DY_MAXN; n++) {
            w[i].stat[n] = -1;
            w[i].ipc[n] = NAN;
        }
        struct sw_run r = {.workload = names[i], .size = o->size, .config = cfg, .warp_sched = DY_BASE_WS,
                           .cta_sched = "rr"};
        w[i].base = sw_add(&l, &r);
    }
    int ph = st_phase(o, &l, 0, "study dyncta (1/2: baselines)");
    if (ph != 0) {
        rc = ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
        goto out;
    }

    /* N from the baselines' time series */
    for (size_t i = 0; i < nw; i++) {
        char ts[1200];
        double mx = 0, mean = 0;
        st_run_path(o, &l, w[i].base, ".timeseries.csv", ts, sizeof ts);
        if (!st_m(&l, w[i].base))
            continue;
        if (st_ts_column(ts, "n", &mx, &mean) != 0 || mx < 1) {
            if (st_ts_column(ts, "ctas", &mx, &mean) != 0 || mx < 1)
                continue;
            w[i].n_observed = 1;
        }
        w[i].N = mx > DY_MAXN ? DY_MAXN : (unsigned)mx;
    }
    size_t first2 = l.n;
    for (size_t i = 0; i < nw; i++) {
        if (!st_m(&l, w[i].base))
            continue;
        struct sw_run r = {.workload = w[i].name, .size = o->size, .config = cfg, .warp_sched = DY_BASE_WS};
        if (!why_static[0])
            for (unsigned n = 1; n < w[i].N; n++) {
                char v[16];
                snprintf(v, sizeof v, "%u", n);
                r.cta_sched = "static";
                r.nset = 1;
                r.set_name[0] = "cta_sched.static.n";
                r.set_value[0] = v;
                w[i].stat[n] = sw_add(&l, &r);
            }
        r.nset = 0;
        if (!why_dyn[0]) {
            r.cta_sched = "dyncta";
            w[i].dyn = sw_add(&l, &r);
        }
        if (!why_tl[0]) {
            r.cta_sched = "rr";
            r.warp_sched = "two_level";
            w[i].tl = sw_add(&l, &r);
            if (!why_dyn[0]) {
                r.cta_sched = "dyncta";
                w[i].dyntl = sw_add(&l, &r);
            }
        }
    }
    ph = st_phase(o, &l, first2, "study dyncta (2/2: static n, DYNCTA, two-level)");
    if (ph != 0) {
        rc = ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
        goto out;
    }

    /* ---- derived numbers ---- */
    unsigned maxN = 1;
    for (size_t i = 0; i < nw; i++) {
        struct dy_wl *d = &w[i];
        maxN = d->N > maxN ? d->N : maxN;
        if (!st_m(&l, d->base) || d->N == 0)
            continue;
        d->ipc[d->N] = 1.0;   /* n = N is the baseline itself */
        for (unsigned n = 1; n < d->N; n++)
            d->ipc[n] = st_norm(&l, d->stat[n], d->base);
        /* opt: the best static n; ties go to the larger n (the limit did not bind) */
        int complete = 1;
        d->opt = d->N;
        for (unsigned n = d->N; n >= 1; n--) {
            if (!isfinite(d->ipc[n]))
                complete = 0;
            else if (d->ipc[n] > d->ipc[d->opt])
                d->opt = n;
        }
        if (!complete)
            d->opt = 0;   /* cannot tell */
        d->avg_n = d->avg_n_all = NAN;
        char ts[1200];
        double mx, mean;
        st_run_path(o, &l, d->dyn, ".timeseries.csv", ts, sizeof ts);
        if (st_m(&l, d->dyn) && st_ts_column(ts, "n", &mx, &mean) == 0)
            d->avg_n_all = mean;
        /* 001 sec. V-A: "we do not show average n beyond the point where all the CTAs are issued to the
           cores, since there is nothing to modulate" */
        if (st_m(&l, d->dyn) && st_ts_column_while(ts, "n", "ctas_unissued", &mx, &mean) == 0)
            d->avg_n = mean;
    }

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    if (!f) {
        rc = EXIT_SIM_ERROR;
        goto out;
    }
    fprintf(f, "\n==== study dyncta: seed 001 (Kayiran et al., PACT'13) Fig. 1, 9, 10, 11 ====\n");
    fprintf(f, "config %s, size %s; baseline: CTA scheduler rr with the maximum CTAs per core (N), warp "
               "scheduler %s.\nIPC = thread instructions per core cycle, normalised to the baseline.\n",
            cfg, o->size, DY_BASE_WS);
    st_window_note(f, o);
    if (skipped[0])
        fprintf(f, "workloads not bundled in this build, skipped: %s\n", skipped);
    if (why_static[0] || why_dyn[0] || why_tl[0]) {
        fprintf(f, "columns not available:\n");
        dy_reason(f, "static n (n < N) and opt", why_static);
        dy_reason(f, "DYNCTA and DYNCTA+TL", why_dyn);
        dy_reason(f, "two-level (TL) and DYNCTA+TL", why_tl);
    }

    /* table 1: normalised IPC (Fig. 1 and 10) */
    struct st_table *t = calloc(1, sizeof *t);
    struct st_table *t2 = calloc(1, sizeof *t2);
    if (!t || !t2) {
        free(t);
        free(t2);
        fclose(f);
        free(text);
        rc = EXIT_SIM_ERROR;
        goto out;
    }
    st_table_init(t, "\nNormalised IPC: static CTA limit n (Fig. 1; n = N is the baseline), opt, two-level, "
                     "DYNCTA (Fig. 10)");
    st_col(t, "workload");
    unsigned c_type = st_col(t, "type"), c_N = st_col(t, "N"), c_n[DY_MAXN + 1];
    for (unsigned n = 1; n <= maxN; n++) {
        char h[16];
        snprintf(h, sizeof h, "n=%u", n);
        c_n[n] = st_col(t, h);
    }
    unsigned c_opt = st_col(t, "opt"), c_tl = st_col(t, "TL"), c_dyn = st_col(t, "DYNCTA"),
             c_dtl = st_col(t, "DYNCTA+TL");
    double v_n[DY_MAXN + 1][DY_MAXW], v_opt[DY_MAXW], v_tl[DY_MAXW], v_dyn[DY_MAXW], v_dtl[DY_MAXW];
    for (size_t i = 0; i < nw; i++) {
        struct dy_wl *d = &w[i];
        unsigned r = st_row(t, d->name);
        const struct sw_metrics *b = st_m(&l, d->base);
        st_setf(t, r, c_type, "%s", b ? b->type_hint : "fail");
        if (d->N)
            st_setf(t, r, c_N, "%u%s", d->N, d->n_observed ? "*" : "");
        else
            st_setf(t, r, c_N, "?");
        for (unsigned n = 1; n <= maxN; n++) {
            v_n[n][i] = n <= d->N ? d->ipc[n] : NAN;
            if (n <= d->N)
                st_cell(t, r, c_n[n], &l, n == d->N ? d->base : d->stat[n], d->ipc[n]);
        }
        v_opt[i] = d->opt ? d->ipc[d->opt] : NAN;
        if (d->opt)
            st_setf(t, r, c_opt, "%.2f", v_opt[i]);
        else
            st_setf(t, r, c_opt, "%s", why_static[0] ? "n/a" : "fail");
        v_tl[i] = st_norm(&l, d->tl, d->base);
        v_dyn[i] = st_norm(&l, d->dyn, d->base);
        v_dtl[i] = st_norm(&l, d->dyntl, d->base);
        st_cell(t, r, c_tl, &l, d->tl, v_tl[i]);
        st_cell(t, r, c_dyn, &l, d->dyn, v_dyn[i]);
        st_cell(t, r, c_dtl, &l, d->dyntl, v_dtl[i]);
    }
    for (int g = 0; g < 2; g++) {
        unsigned r = st_row(t, g ? "GMEAN" : "AMEAN");
        t->rule_before[r] = g == 0;
        double (*mean)(const double *, size_t) = g ? st_gmean : st_amean;
        for (unsigned n = 1; n <= maxN; n++)
            st_setnum(t, r, c_n[n], mean(v_n[n], nw), 2, "n/a");
        st_setnum(t, r, c_opt, mean(v_opt, nw), 2, "n/a");
        st_setnum(t, r, c_tl, mean(v_tl, nw), 2, "n/a");
        st_setnum(t, r, c_dyn, mean(v_dyn, nw), 2, "n/a");
        st_setnum(t, r, c_dtl, mean(v_dtl, nw), 2, "n/a");
    }
    st_print(t, f);
    int any_obs = 0;
    for (size_t i = 0; i < nw; i++)
        any_obs |= w[i].n_observed;
    if (any_obs)
        fprintf(f, "(N* = the most CTAs seen resident: this build's time series has no CTA-limit column)\n");
    fprintf(f, "(n/a = policy not in this build, fail = no verified result: see the run's .log in runs/)\n");

    /* table 2: N / opt / average n (Fig. 9), lat_rt and util (Fig. 11), L1D miss rate */
    st_table_init(t2, "\nCTAs per core (Fig. 9), DYNCTA's effect on lat_rt and util (Fig. 11), L1D miss rate");
    st_col(t2, "workload");
    unsigned d_N = st_col(t2, "N"), d_opt = st_col(t2, "opt"), d_avg = st_col(t2, "DYNCTA avg n"),
             d_avga = st_col(t2, "avg n whole run"),
             d_lat = st_col(t2, "lat_rt base"), d_latc = st_col(t2, "lat_rt DYN/base"),
             d_util = st_col(t2, "util DYN/base"), d_ract = st_col(t2, "RACT base"), d_ractd = st_col(t2, "RACT DYN"),
             d_l1 = st_col(t2, "L1D base"), d_l1o = st_col(t2, "L1D opt"), d_l1d = st_col(t2, "L1D DYN"),
             d_pau = st_col(t2, "paused insns DYN");
    double a_N[DY_MAXW], a_opt[DY_MAXW], a_avg[DY_MAXW], a_avga[DY_MAXW], a_latc[DY_MAXW], a_utilc[DY_MAXW], a_l1[DY_MAXW],
        a_l1o[DY_MAXW], a_l1d[DY_MAXW], a_ract[DY_MAXW], a_ractd[DY_MAXW], a_lat[DY_MAXW], a_pau[DY_MAXW];
    for (size_t i = 0; i < nw; i++) {
        struct dy_wl *d = &w[i];
        unsigned r = st_row(t2, d->name);
        const struct sw_metrics *b = st_m(&l, d->base), *dy = st_m(&l, d->dyn);
        const struct sw_metrics *op = d->opt ? (d->opt == d->N ? b : st_m(&l, d->stat[d->opt])) : NULL;
        a_N[i] = d->N ? (double)d->N : NAN;
        a_opt[i] = d->opt ? (double)d->opt : NAN;
        a_avg[i] = d->avg_n;
        a_avga[i] = d->avg_n_all;
        a_lat[i] = b ? b->lat_rt : NAN;
        a_latc[i] = b && dy && b->lat_rt > 0 ? dy->lat_rt / b->lat_rt : NAN;
        a_utilc[i] = b && dy && b->util > 0 ? dy->util / b->util : NAN;
        a_ract[i] = b ? b->ract : NAN;
        a_ractd[i] = dy ? dy->ract : NAN;
        a_l1[i] = b ? b->l1d_miss_rate : NAN;
        a_l1o[i] = op ? op->l1d_miss_rate : NAN;
        a_l1d[i] = dy ? dy->l1d_miss_rate : NAN;
        /* the share of DYNCTA's warp instructions that paused CTAs issued (deprioritised, not stopped) */
        a_pau[i] = dy && dy->warp_insns > 0 ? dy->paused_warp_insns / dy->warp_insns : NAN;
        if (d->N)
            st_setf(t2, r, d_N, "%u%s", d->N, d->n_observed ? "*" : "");
        else
            st_setf(t2, r, d_N, "?");
        if (d->opt)
            st_setf(t2, r, d_opt, "%u", d->opt);
        else
            st_setf(t2, r, d_opt, "%s", why_static[0] ? "n/a" : "fail");
        if (isfinite(d->avg_n))
            st_setf(t2, r, d_avg, "%.2f", d->avg_n);
        else   /* "none": every CTA was issued before the first sample, nothing to modulate */
            st_setf(t2, r, d_avg, "%s",
                    d->dyn < 0                   ? "n/a"
                    : !st_m(&l, d->dyn)          ? "fail"
                    : isfinite(d->avg_n_all)     ? "none"
                                                 : "no column");
        if (isfinite(d->avg_n_all))
            st_setf(t2, r, d_avga, "%.2f", d->avg_n_all);
        else
            st_setf(t2, r, d_avga, "%s", d->dyn < 0 ? "n/a" : st_m(&l, d->dyn) ? "no column" : "fail");
        st_setnum(t2, r, d_lat, a_lat[i], 0, "fail");
        st_cell(t2, r, d_latc, &l, d->dyn, a_latc[i]);
        st_cell(t2, r, d_util, &l, d->dyn, a_utilc[i]);
        st_cell(t2, r, d_ract, &l, d->base, a_ract[i]);
        st_cell(t2, r, d_ractd, &l, d->dyn, a_ractd[i]);
        st_cell(t2, r, d_l1, &l, d->base, a_l1[i]);
        st_setnum(t2, r, d_l1o, a_l1o[i], 2, why_static[0] ? "n/a" : "fail");
        st_cell(t2, r, d_l1d, &l, d->dyn, a_l1d[i]);
        st_cell(t2, r, d_pau, &l, d->dyn, a_pau[i]);
    }
    {
        unsigned r = st_row(t2, "AMEAN");
        t2->rule_before[r] = 1;
        const double *cols[] = {a_N,  a_opt, a_avg, a_avga, a_lat, a_latc, a_utilc,
                                a_ract, a_ractd, a_l1, a_l1o, a_l1d, a_pau};
        const unsigned ids[] = {d_N,   d_opt,  d_avg, d_avga, d_lat, d_latc, d_util,
                                d_ract, d_ractd, d_l1, d_l1o, d_l1d, d_pau};
        for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++)
            st_setnum(t2, r, ids[k], st_amean(cols[k], nw), ids[k] == d_lat ? 0 : 2, "n/a");
    }
    st_print(t2, f);

    /* ---- how close to the seed ---- */
    unsigned score[3] = {0, 0, 0};
    fprintf(f, "\nComparison with seed 001 (qualitative):\n");
    char msr[512];
    {
        unsigned mn = 0, mfew = 0, cn = 0, cmax = 0;
        for (size_t i = 0; i < nw; i++) {
            const struct sw_metrics *b = st_m(&l, w[i].base);
            if (!b || !w[i].opt)
                continue;
            if (strcmp(b->type_hint, "Type-M") == 0) {
                mn++;
                mfew += w[i].opt < w[i].N;
            } else if (strcmp(b->type_hint, "Type-C") == 0) {
                cn++;
                cmax += w[i].opt == w[i].N;
            }
        }
        snprintf(msr, sizeof msr, "%u of %u Type-M workloads have opt < N; %u of %u Type-C have opt = N", mfew, mn,
                 cmax, cn);
        /* both halves of 001's observation; a half without workloads does not decide */
        st_check(f, score, mn ? 2 * mfew >= mn && (cn == 0 || 2 * cmax >= cn) : -1,
                 "Memory-intensive (Type-M) workloads prefer fewer CTAs than the maximum, compute-intensive (Type-C) the maximum",
                 "most Type-M applications run best below N (Fig. 1, 9); Type-C ones mostly at N", msr);
    }
    double am_opt = st_amean(v_opt, nw), gm_opt = st_gmean(v_opt, nw);
    double am_dyn = st_amean(v_dyn, nw), gm_dyn = st_gmean(v_dyn, nw);
    double am_tl = st_amean(v_tl, nw), am_dtl = st_amean(v_dtl, nw);
    snprintf(msr, sizeof msr, "optimal static n: %.2fx mean, %.2fx geometric mean", am_opt, gm_opt);
    st_check(f, score, isfinite(gm_opt) ? gm_opt > 1.02 : -1, "The optimal CTA limit beats the maximum (CUDA default)",
             "1.39x mean, 1.25x geometric mean over 31 applications (Fig. 1)", msr);
    snprintf(msr, sizeof msr, "DYNCTA: %.2fx mean, %.2fx geometric mean", am_dyn, gm_dyn);
    st_check(f, score, isfinite(gm_dyn) ? gm_dyn > 1.02 : -1, "DYNCTA improves IPC over the baseline",
             "1.28x mean, 1.18x geometric mean (Fig. 10)", msr);
    /* below a 2% potential there is nothing to capture: cannot tell */
    double captured = isfinite(am_opt) && am_opt > 1.02 ? (am_dyn - 1.0) / (am_opt - 1.0) : NAN;
    snprintf(msr, sizeof msr, "DYNCTA gets %.0f%% of the optimal static limit's gain (%.2fx vs %.2fx)",
             100.0 * captured, am_dyn, am_opt);
    st_check(f, score, isfinite(captured) ? captured >= 0.5 : -1, "DYNCTA comes close to the optimal static limit",
             "28% of the potential 39% (72% of it)", msr);
    {
        double aN = st_amean(a_N, nw), aopt = st_amean(a_opt, nw), aavg = st_amean(a_avg, nw);
        unsigned near = 0, cnt = 0;
        for (size_t i = 0; i < nw; i++)
            if (isfinite(a_avg[i]) && isfinite(a_opt[i])) {
                cnt++;
                near += fabs(a_avg[i] - a_opt[i]) <= 1.0;
            }
        snprintf(msr, sizeof msr, "average N %.2f, opt %.2f, DYNCTA's n %.2f while CTAs are issued; %u of %u workloads within 1 of opt",
                 aN, aopt, aavg, near, cnt);
        st_check(f, score, cnt ? 2 * near >= cnt : -1, "DYNCTA's average n lands near opt",
                 "average N 5.38, opt 2.93, DYNCTA 2.69 (Fig. 9)", msr);
    }
    snprintf(msr, sizeof msr, "DYNCTA %.2fx vs two-level %.2fx (mean): %+.1f%%; geometric means %.2fx vs %.2fx",
             am_dyn, am_tl, 100.0 * (am_dyn / am_tl - 1.0), gm_dyn, st_gmean(v_tl, nw));
    st_check(f, score, isfinite(am_dyn) && isfinite(am_tl) ? am_dyn > 1.02 * am_tl : -1,
             "DYNCTA outperforms two-level scheduling", "by 12.5% on average (sec. V-A)", msr);
    snprintf(msr, sizeof msr, "DYNCTA+TL %.2fx vs DYNCTA %.2fx and TL %.2fx (mean)", am_dtl, am_dyn, am_tl);
    st_check(f, score,
             isfinite(am_dtl) && isfinite(am_dyn) && isfinite(am_tl) ? am_dtl >= fmax(am_dyn, am_tl) - 0.01 : -1,
             "DYNCTA and two-level combine", "\"can be used in tandem to boost performance further\" (sec. V-A)",
             msr);
    double latc = st_amean(a_latc, nw), utilc = st_amean(a_utilc, nw);
    snprintf(msr, sizeof msr, "lat_rt %+.0f%% on average", 100.0 * (latc - 1.0));
    st_check(f, score, isfinite(latc) ? latc < 0.98 : -1, "DYNCTA lowers the round-trip memory latency lat_rt",
             "-33% on average (Fig. 11)", msr);
    snprintf(msr, sizeof msr, "util %+.1f%% on average", 100.0 * (utilc - 1.0));
    st_check(f, score, isfinite(utilc) ? utilc > 0.95 : -1, "DYNCTA keeps the cores busy (util)",
             "util mostly unchanged, up by 12-28% where it balances load (Fig. 11)", msr);
    double l1b = st_amean(a_l1, nw), l1d = st_amean(a_l1d, nw);
    snprintf(msr, sizeof msr, "L1D miss rate %.0f%% -> %.0f%% (mean)", 100.0 * l1b, 100.0 * l1d);
    st_check(f, score, isfinite(l1b) && isfinite(l1d) ? l1d < l1b - 0.005 : -1, "Fewer CTAs lower the L1D miss rate",
             "71% -> 64% on average with DYNCTA (sec. V-A)", msr);
    st_score(f, score);
    fclose(f);
    st_report_out(o, "dyncta", text);
    free(text);
    char path[1100];
    snprintf(path, sizeof path, "%s/dyncta_ipc.csv", o->dir);
    st_write_csv(t, path);
    snprintf(path, sizeof path, "%s/dyncta_metrics.csv", o->dir);
    st_write_csv(t2, path);
    printf("tables written to %s/dyncta_ipc.csv, %s/dyncta_metrics.csv; runs in %s/runs/ (runs.csv)\n", o->dir,
           o->dir, o->dir);
    free(t);
    free(t2);
    rc = st_status(o, &l);
out:
    free(w);
    sw_list_free(&l);
    return rc;
}
