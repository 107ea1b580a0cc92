/*
 * study_hetero.c - `warpsim study hetero`: seed 004 (Kayiran et al., MICRO
 * 2014) sec. 6 and 2.2 on the CPU-GPU chip (configs/hetero-7tile.config):
 * GPU workloads run beside the 14-application CPU mixes of 004 Table IV under
 * the baseline GTO scheduler, DYNCTA, CM-CPU, CM-BAL1..4, static warp limits
 * 4, 6, 8, 16 (swl) and two partitioned networks (3G1C, 2G2C).
 *
 * One phase.  Per (CPU mix, GPU workload) pair the baseline runs with its
 * alone runs (the GPU alone and each CPU application alone, sys/gpu_cpu.h,
 * cli/hetero_metrics.c); every other configuration runs --no-alone and is
 * measured against the baseline's alone IPCs:
 *   GPU speedup  = IPC(config) / IPC(baseline)        (004 Fig. 16, 20a)
 *   SU_GPU       = IPC(config) / IPC(GPU alone, GTO)
 *   WS_CPU       = sum over cores of IPC(config) / IPC(alone)  (Fig. 17, 20b)
 *   OSS(alpha)   = (1 - alpha) WS_CPU + alpha SU_GPU            (Fig. 19)
 * An alone IPC is measured over the instructions the baseline's core retired
 * while measured; another configuration's core retires other instructions
 * of the same synthetic trace, so the first pair also runs CM-CPU with its
 * own alone runs and the report prints both WS_CPU values (the error of
 * reusing the baseline's alone runs).
 *
 * GPU workload type (004 Table II) is measured, from the static-limit runs
 * of the study itself: r(N) = harmonic mean over the mixes of IPC(swl N) /
 * IPC(GTO, 48 warps).  Type-L when some N <= 8 gains more than 5%
 * (benefits from lower TLP), else Type-H when N = 8 loses more than 5%
 * (needs high TLP), else Type-M.  Means over pairs are harmonic (004 sec. 5)
 * for speedups and arithmetic for congestion ratios and warp limits.
 * docs/studies.md discusses the results.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "policy/cm.h"
#include "study.h"

/* the default: 004's MM (Type-H) and BFS (Type-M), and kmeans, which measured Type-L on the chip (a static
   limit of 4 warps: 1.48x GPU IPC beside H1) and runs in a third of IIX's time (004's Type-L); docs/studies.md */
#define HT_DEFAULT_WL "mm,bfs,kmeans"
#define HT_FULL_WL "backprop,hotspot,pathfinder,mm,blackscholes,pvc,bfs,iix"
#define HT_DEFAULT_MIX "L1,H1"
#define HT_FULL_MIX "L1,L2,M1,M2,H1,H2"
#define HT_CFG "hetero-7tile"
#define HT_MAXW 24
#define HT_MAXM 6
#define HT_MAXP (HT_MAXW * HT_MAXM)
#define HT_MAXCORES 64
#define HT_NALPHA 11

enum {
    C_BASE,
    C_DYN,
    C_CMCPU,
    C_BAL1,
    C_BAL2,
    C_BAL3,
    C_BAL4,
    C_S4,
    C_S6,
    C_S8,
    C_S16,
    C_N3G1C,
    C_N2G2C,
    NCONF
};
/* label, warp scheduler, CTA scheduler, --set name, --set value */
static const struct ht_conf {
    const char *label, *ws, *cta, *set, *val;
} ht_confs[NCONF] = {
    {"GTO", "gto", NULL, NULL, NULL},
    {"DYNCTA", "gto", "dyncta", NULL, NULL},
    {"CM-CPU", "swl", NULL, "warpsim_cm", "cm_cpu"},
    {"CM-BAL1", "swl", NULL, "warpsim_cm", "cm_bal1"},
    {"CM-BAL2", "swl", NULL, "warpsim_cm", "cm_bal2"},
    {"CM-BAL3", "swl", NULL, "warpsim_cm", "cm_bal3"},
    {"CM-BAL4", "swl", NULL, "warpsim_cm", "cm_bal4"},
    {"SWL-4", "swl", NULL, "warp_sched.swl.limit", "4"},
    {"SWL-6", "swl", NULL, "warp_sched.swl.limit", "6"},
    {"SWL-8", "swl", NULL, "warp_sched.swl.limit", "8"},
    {"SWL-16", "swl", NULL, "warp_sched.swl.limit", "16"},
    {"net 3G1C", "gto", NULL, "warpsim_mesh_partition", "3G1C"},
    {"net 2G2C", "gto", NULL, "warpsim_mesh_partition", "2G2C"},
};
/* the configurations compared with the baseline in the GPU / CPU tables */
static const int ht_cmp[] = {C_DYN, C_CMCPU, C_BAL1, C_BAL2, C_BAL3, C_BAL4, C_S4, C_S6, C_S8, C_S16};
#define HT_NCMP (sizeof ht_cmp / sizeof ht_cmp[0])
static const unsigned ht_swl_n[] = {4, 6, 8, 16};
static const int ht_swl_c[] = {C_S4, C_S6, C_S8, C_S16};

/* 004 Table II: type and optimal TLP of the applications warpsim bundles */
static const struct {
    const char *wl, *abbr, *type, *opt;
} ht_seed[] = {
    {"backprop", "BP", "Type-H", "48"},     {"hotspot", "HOT", "Type-H", "16-48"},
    {"pathfinder", "PATH", "Type-H", "48"}, {"mm", "MM", "Type-H", "16-48"},
    {"blackscholes", "BLK", "Type-M", "16"}, {"pvc", "PVC", "Type-M", "8"},
    {"bfs", "BFS", "Type-M", "6"},          {"iix", "IIX", "Type-L", "1"},
};

struct ht_val {
    double gpu_ipc, ws, su, smc, snet, sgpu, limit;
};

struct ht_pair {
    const char *mix, *wl;
    long run[NCONF];
    long check;                       /* CM-CPU with its own alone runs (first pair), -1 = none */
    double alone[HT_MAXCORES];        /* the baseline's alone IPC per core (NAN = not measured) */
    double gpu_alone;                 /* GPU alone IPC (GTO) */
    struct ht_val v[NCONF];           /* NAN where the run has no result */
    double check_ws;                  /* WS_CPU of the check run with its own alone runs */
};

static const char *ht_seed_type(const char *wl, const char **abbr, const char **opt)
{
    for (size_t i = 0; i < sizeof ht_seed / sizeof ht_seed[0]; i++)
        if (strcmp(ht_seed[i].wl, wl) == 0) {
            if (abbr)
                *abbr = ht_seed[i].abbr;
            if (opt)
                *opt = ht_seed[i].opt;
            return ht_seed[i].type;
        }
    if (abbr)
        *abbr = "-";
    if (opt)
        *opt = "-";
    return "-";
}

/* the mix's MPKI class: 'L', 'M', 'H' (004 Table IV) or '?' */
static char ht_mix_class(const char *mix)
{
    return mix[0] == 'L' || mix[0] == 'M' || mix[0] == 'H' ? mix[0] : '?';
}

static double ht_hmean(const double *v, size_t n)
{
    double s = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > 0) {
            s += 1.0 / v[i];
            k++;
        }
    return k ? (double)k / s : NAN;
}

static double ht_ratio(double a, double b)
{
    return isfinite(a) && isfinite(b) && b > 0 ? a / b : NAN;
}

/* number member `key` of the flat JSON object text [b, e) */
static double ht_member(const char *b, const char *e, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    size_t pl = strlen(pat);
    for (const char *p = b; p + pl < e; p++) {
        if (strncmp(p, pat, pl) != 0)
            continue;
        const char *q = p + pl;
        while (q < e && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'))
            q++;
        if (q >= e || *q != ':')
            continue;
        char *end = NULL;
        double v = strtod(q + 1, &end);
        if (end && end > q + 1 && end <= e)
            return v;
    }
    return NAN;
}

/* out[core] = member `key` of each object of the JSON array at path (flat
   objects with a "core" member); NAN for cores not listed.  -1 when the
   array is absent. */
static int ht_core_array(const char *text, const char *path, const char *key, double *out, unsigned max)
{
    for (unsigned i = 0; i < max; i++)
        out[i] = NAN;
    const char *p = jr_lookup(text, path);
    while (p && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    if (!p || *p != '[')
        return -1;
    int n = 0;
    for (p++;;) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' || *p == ',')
            p++;
        if (*p != '{')
            break;
        const char *e = strchr(p, '}');
        if (!e)
            return -1;
        double core = ht_member(p, e, "core"), v = ht_member(p, e, key);
        if (isfinite(core) && core >= 0 && core < max)
            out[(unsigned)core] = v;
        n++;
        p = e + 1;
    }
    return n;
}

static char *ht_json(const struct st_opts *o, const struct sw_list *l, long idx)
{
    if (!st_m(l, idx))
        return NULL;
    char path[1200];
    st_run_path(o, l, idx, ".json", path, sizeof path);
    return sw_read_file(path, NULL);
}

/* WS_CPU of a run against the alone IPCs (NAN when a measured core lacks one) */
static double ht_ws(const char *text, const double *alone)
{
    double ipc[HT_MAXCORES];
    if (ht_core_array(text, "timing.cpu.cores", "ipc", ipc, HT_MAXCORES) <= 0)
        return NAN;
    double ws = 0;
    unsigned k = 0;
    for (unsigned i = 0; i < HT_MAXCORES; i++) {
        if (!isfinite(alone[i]) || alone[i] <= 0)
            continue;
        if (!isfinite(ipc[i]) || ipc[i] <= 0)
            return NAN;
        ws += ipc[i] / alone[i];
        k++;
    }
    return k ? ws : NAN;
}

/* why a concurrency manager cannot be used ("" when it can) */
static void ht_cm_check(const struct st_opts *o, const char *name, char *why, size_t n)
{
    why[0] = '\0';
    size_t len = strlen(name);
    for (const char *p = o->skip ? o->skip : ""; *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0) {
            snprintf(why, n, "left out by --skip-policy %s", o->skip);
            return;
        }
        p += l + (c != NULL);
    }
    if (!cm_find(name)) {
        char names[256];
        cm_names(names, sizeof names);
        snprintf(why, n, "concurrency manager '%s' is not registered in this build (registered: %s)", name, names);
    }
}

/* split a comma list into out (at most max), copying into store */
static size_t ht_split(const char *list, char store[][16], size_t max, char *bad, size_t nbad)
{
    size_t n = 0, used = 0;
    bad[0] = '\0';
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len && len < 16 && n < max) {
            snprintf(store[n], 16, "%.*s", (int)len, p);
            static const char *const known[] = {"L1", "L2", "M1", "M2", "H1", "H2"};
            int ok = 0;
            for (size_t k = 0; k < 6; k++)
                ok |= strcmp(store[n], known[k]) == 0;
            if (ok)
                n++;
            else
                used += (size_t)snprintf(bad + used, used < nbad ? nbad - used : 0, "%s%s", used ? ", " : "",
                                         store[n]);
        } else if (len) {
            used += (size_t)snprintf(bad + used, used < nbad ? nbad - used : 0, "%s%.*s", used ? ", " : "",
                                     (int)len, p);
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return n;
}

/* rows of a per-pair table followed by group means: by GPU type, by CPU MPKI class, all */
struct ht_groups {
    const char *name[8];
    int gpu_type[8];       /* 'H', 'M', 'L' or 0 */
    char mpki[8];          /* 'L', 'M', 'H' or 0 */
    unsigned n;
};

static void ht_groups_init(struct ht_groups *g)
{
    static const char *const names[] = {"Type-H", "Type-M", "Type-L", "L-MPKI", "M-MPKI", "H-MPKI", "all"};
    static const int gt[] = {'H', 'M', 'L', 0, 0, 0, 0};
    static const char mp[] = {0, 0, 0, 'L', 'M', 'H', 0};
    g->n = 7;
    for (unsigned i = 0; i < 7; i++) {
        g->name[i] = names[i];
        g->gpu_type[i] = gt[i];
        g->mpki[i] = mp[i];
    }
}

/* the values of the pairs in group gi into sel; returns how many pairs */
static size_t ht_select(const struct ht_groups *g, unsigned gi, const struct ht_pair *pr, size_t np,
                        const char *wtype, const double *v, double *sel)
{
    size_t k = 0;
    for (size_t p = 0; p < np; p++) {
        int in = 1;
        if (g->gpu_type[gi])
            in = wtype[p] == g->gpu_type[gi];
        if (g->mpki[gi])
            in = ht_mix_class(pr[p].mix) == g->mpki[gi];
        sel[p] = in ? v[p] : NAN;
        k += (size_t)in;
    }
    return k;
}

int study_hetero(const struct st_opts *o)
{
    const char *cfg = o->config ? o->config : HT_CFG;
    const char *wnames[HT_MAXW];
    char skipped[512];
    size_t nw = st_workloads(o, o->full ? HT_FULL_WL : HT_DEFAULT_WL, wnames, HT_MAXW, skipped, sizeof skipped);
    char mixes[HT_MAXM][16], badmix[256];
    size_t nm = ht_split(o->mixes ? o->mixes : o->full ? HT_FULL_MIX : HT_DEFAULT_MIX, mixes, HT_MAXM, badmix,
                         sizeof badmix);
    if (badmix[0]) {
        fprintf(stderr, "warpsim study hetero: unknown CPU mix %s (004 Table IV: L1, L2, M1, M2, H1, H2)\n", badmix);
        return EXIT_USAGE;
    }
    if (nw == 0 || nm == 0) {
        fprintf(stderr, "warpsim study hetero: no workload or CPU mix to run\n");
        return EXIT_USAGE;
    }
    /* which configurations this build can run */
    char why[NCONF][512];
    for (int c = 0; c < NCONF; c++) {
        why[c][0] = '\0';
        if (c == C_DYN)
            st_policy_check(o, "cta_sched", "dyncta", NULL, why[c], sizeof why[c]);
        else if (c >= C_CMCPU && c <= C_BAL4)
            ht_cm_check(o, ht_confs[c].val, why[c], sizeof why[c]);
        else if (c >= C_S4 && c <= C_S16)
            st_policy_check(o, "warp_sched", "swl", "limit", why[c], sizeof why[c]);
    }
    if (why[C_CMCPU][0] == '\0' || why[C_BAL1][0] == '\0') {
        char w2[512];
        st_policy_check(o, "warp_sched", "swl", NULL, w2, sizeof w2);
        if (w2[0])
            for (int c = C_CMCPU; c <= C_BAL4; c++)
                memcpy(why[c], w2, sizeof w2);
    }

    size_t np = nm * nw;
    struct ht_pair *pr = calloc(np, sizeof *pr);
    char *wtype = calloc(np + 1, 1);
    if (!pr || !wtype) {
        free(pr);
        free(wtype);
        return EXIT_SIM_ERROR;
    }
    struct sw_list l;
    memset(&l, 0, sizeof l);
    int rc = EXIT_OK;
    for (size_t m = 0; m < nm; m++)
        for (size_t w = 0; w < nw; w++) {
            struct ht_pair *p = &pr[m * nw + w];
            p->mix = mixes[m];
            p->wl = wnames[w];
            p->check = -1;
            for (int c = 0; c < NCONF; c++) {
                p->run[c] = -1;
                if (why[c][0])
                    continue;
                const struct ht_conf *k = &ht_confs[c];
                struct sw_run r = {.workload = p->wl, .size = o->size, .config = cfg, .warp_sched = k->ws,
                                   .cta_sched = k->cta, .no_alone = c != C_BASE};
                r.set_name[r.nset] = "warpsim_cpu_apps";
                r.set_value[r.nset++] = p->mix;
                if (k->set) {
                    r.set_name[r.nset] = k->set;
                    r.set_value[r.nset++] = k->val;
                }
                p->run[c] = sw_add(&l, &r);
                if (c == C_CMCPU && m == 0 && w == 0) {
                    r.no_alone = 0;
                    p->check = sw_add(&l, &r);
                }
            }
        }
    int ph = st_phase(o, &l, 0, "study hetero");
    if (ph != 0) {
        rc = ph > 0 ? EXIT_OK : EXIT_SIM_ERROR;
        goto out;
    }

    /* ---- read the results ---- */
    for (size_t i = 0; i < np; i++) {
        struct ht_pair *p = &pr[i];
        for (unsigned k = 0; k < HT_MAXCORES; k++)
            p->alone[k] = NAN;
        p->gpu_alone = NAN;
        p->check_ws = NAN;
        char *bt = ht_json(o, &l, p->run[C_BASE]);
        if (bt) {
            ht_core_array(bt, "hetero.cpu", "ipc_alone", p->alone, HT_MAXCORES);
            if (jr_number(bt, "hetero.gpu_ipc_alone", &p->gpu_alone) != 0)
                p->gpu_alone = NAN;
            free(bt);
        }
        for (int c = 0; c < NCONF; c++) {
            struct ht_val *v = &p->v[c];
            v->gpu_ipc = v->ws = v->su = v->smc = v->snet = v->sgpu = v->limit = NAN;
            char *t = ht_json(o, &l, p->run[c]);
            if (!t)
                continue;
            double x;
            if (jr_number(t, "timing.totals.gpu_ipc", &x) == 0)
                v->gpu_ipc = x;
            if (jr_number(t, "timing.totals.stall_MC_per_cycle", &x) == 0)
                v->smc = x;
            if (jr_number(t, "timing.totals.stall_net_per_cycle", &x) == 0)
                v->snet = x;
            if (jr_number(t, "timing.totals.stall_GPU_per_warp_insn", &x) == 0)
                v->sgpu = x;
            if (c >= C_CMCPU && c <= C_BAL4 && jr_number(t, "timing.totals.cm_avg_warp_limit", &x) == 0 && x > 0)
                v->limit = x;
            v->ws = ht_ws(t, p->alone);
            v->su = ht_ratio(v->gpu_ipc, p->gpu_alone);
            free(t);
        }
        char *ct = ht_json(o, &l, p->check);
        if (ct) {
            if (jr_number(ct, "hetero.WS_CPU", &p->check_ws) != 0)
                p->check_ws = NAN;
            free(ct);
        }
    }
    /* ---- GPU workload types, measured: r(N) over the mixes ---- */
    double rN[HT_MAXW][4], ropt[HT_MAXW];
    unsigned optN[HT_MAXW];
    char wt[HT_MAXW];
    for (size_t w = 0; w < nw; w++) {
        wt[w] = '?';
        optN[w] = 0;
        ropt[w] = NAN;
        int complete = 1;
        for (int s = 0; s < 4; s++) {
            double v[HT_MAXM];
            for (size_t m = 0; m < nm; m++) {
                const struct ht_pair *p = &pr[m * nw + w];
                v[m] = ht_ratio(p->v[ht_swl_c[s]].gpu_ipc, p->v[C_BASE].gpu_ipc);
            }
            rN[w][s] = ht_hmean(v, nm);
            complete &= isfinite(rN[w][s]);
        }
        if (!complete)
            continue;
        optN[w] = 48;
        ropt[w] = 1.0;
        for (int s = 3; s >= 0; s--)
            if (rN[w][s] > ropt[w]) {
                ropt[w] = rN[w][s];
                optN[w] = ht_swl_n[s];
            }
        double best_low = fmax(rN[w][0], fmax(rN[w][1], rN[w][2]));
        wt[w] = best_low > 1.05 ? 'L' : rN[w][2] < 0.95 ? 'H' : 'M';
    }
    for (size_t i = 0; i < np; i++)
        wtype[i] = wt[i % nw];

    char *text = NULL;
    size_t textlen = 0;
    FILE *f = open_memstream(&text, &textlen);
    struct st_table *tb = calloc(8, sizeof *tb);
    if (!f || !tb) {
        if (f)
            fclose(f);
        free(text);
        free(tb);
        rc = EXIT_SIM_ERROR;
        goto out;
    }
    struct st_table *t_type = &tb[0], *t_base = &tb[1], *t_gpu = &tb[2], *t_cpu = &tb[3], *t_cong = &tb[4],
                    *t_lim = &tb[5], *t_oss = &tb[6], *t_net = &tb[7];
    fprintf(f, "\n==== study hetero: seed 004 (Kayiran et al., MICRO 2014) Fig. 3, 15-20 ====\n");
    fprintf(f, "config %s, size %s; CPU mixes %s (004 Table IV, 14 applications on the 14 CPU cores); "
               "baseline: GTO, 48 warps per core, shared network and MCs.\n",
            cfg, o->size, o->mixes ? o->mixes : o->full ? HT_FULL_MIX : HT_DEFAULT_MIX);
    fprintf(f, "GPU = IPC normalised to the baseline; CPU = WS_CPU (sum over the cores of IPC / IPC alone, the "
               "alone runs of the baseline) normalised to the baseline's.\n");
    if (skipped[0])
        fprintf(f, "workloads not bundled in this build, skipped: %s\n", skipped);
    {
        int any = 0;
        for (int c = 0; c < NCONF; c++)
            if (why[c][0]) {
                if (!any)
                    fprintf(f, "columns not available:\n");
                any = 1;
                fprintf(f, "  %s: %s\n", ht_confs[c].label, why[c]);
            }
    }
    fprintf(f, "  dedicated MCs (004 Fig. 4-5: 4G4C, 7G1C): not in this study yet; the machine has them "
               "(warpsim run ... --set warpsim_mc_partition=4G4C, docs/hetero.md)\n");

    /* table 1: workload types */
    st_table_init(t_type, "\nGPU workload type (004 Table II), measured: r(N) = GPU IPC with a static limit of N "
                          "warps / GTO's 48 (hmean over the mixes; Fig. 20a)");
    st_col(t_type, "workload");
    unsigned y_seed = st_col(t_type, "004 type"), y_sopt = st_col(t_type, "004 opt"), y_r[4];
    for (int s = 0; s < 4; s++) {
        char h[16];
        snprintf(h, sizeof h, "r(%u)", ht_swl_n[s]);
        y_r[s] = st_col(t_type, h);
    }
    unsigned y_48 = st_col(t_type, "r(48)"), y_opt = st_col(t_type, "opt"), y_t = st_col(t_type, "type");
    unsigned agree_type = 0, seed_typed = 0;
    for (size_t w = 0; w < nw; w++) {
        unsigned r = st_row(t_type, wnames[w]);
        const char *abbr, *sopt;
        const char *stype = ht_seed_type(wnames[w], &abbr, &sopt);
        st_setf(t_type, r, y_seed, "%s", stype);
        st_setf(t_type, r, y_sopt, "%s", sopt);
        for (int s = 0; s < 4; s++)
            st_setnum(t_type, r, y_r[s], rN[w][s], 2, "fail");
        st_setnum(t_type, r, y_48, isfinite(pr[w].v[C_BASE].gpu_ipc) ? 1.0 : NAN, 2, "fail");
        if (optN[w])
            st_setf(t_type, r, y_opt, "%u", optN[w]);
        else
            st_setf(t_type, r, y_opt, "?");
        st_setf(t_type, r, y_t, wt[w] == '?' ? "?" : "Type-%c", wt[w]);
        if (stype[0] == 'T' && wt[w] != '?') {
            seed_typed++;
            agree_type += stype[5] == wt[w];
        }
    }
    st_print(t_type, f);
    fprintf(f, "(rule: Type-L when some N <= 8 gains > 5%%; else Type-H when N = 8 loses > 5%%; else Type-M)\n");

    /* table 2: the baseline */
    st_table_init(t_base, "\nBaseline GTO per workload (GPU workload / CPU mix): SU_GPU, WS_CPU, congestion");
    st_col(t_base, "pair");
    unsigned b_t = st_col(t_base, "type"), b_ipc = st_col(t_base, "GPU IPC"), b_alone = st_col(t_base, "alone IPC"),
             b_su = st_col(t_base, "SU_GPU"), b_ws = st_col(t_base, "WS_CPU"), b_wsa = st_col(t_base, "WS/app"),
             b_mc = st_col(t_base, "stall_MC/cyc"), b_net = st_col(t_base, "stall_net/cyc"),
             b_g = st_col(t_base, "stall_GPU/insn");
    for (size_t i = 0; i < np; i++) {
        const struct ht_pair *p = &pr[i];
        char nm2[64];
        snprintf(nm2, sizeof nm2, "%s/%s", p->wl, p->mix);
        unsigned r = st_row(t_base, nm2);
        const struct ht_val *v = &p->v[C_BASE];
        unsigned napps = 0;
        for (unsigned k = 0; k < HT_MAXCORES; k++)
            napps += isfinite(p->alone[k]) && p->alone[k] > 0;
        const char *miss = st_missing(&l, p->run[C_BASE]);
        miss = miss[0] ? miss : "n/a";
        st_setf(t_base, r, b_t, wtype[i] == '?' ? "?" : "%c-%c", wtype[i], ht_mix_class(p->mix));
        st_setnum(t_base, r, b_ipc, v->gpu_ipc, 1, miss);
        st_setnum(t_base, r, b_alone, p->gpu_alone, 1, miss);
        st_setnum(t_base, r, b_su, v->su, 3, miss);
        st_setnum(t_base, r, b_ws, v->ws, 2, miss);
        st_setnum(t_base, r, b_wsa, napps ? v->ws / napps : NAN, 3, miss);
        st_setnum(t_base, r, b_mc, v->smc, 3, miss);
        st_setnum(t_base, r, b_net, v->snet, 3, miss);
        st_setnum(t_base, r, b_g, v->sgpu, 3, miss);
    }
    st_print(t_base, f);

    /* tables 3 and 4: GPU and CPU performance normalised to the baseline (Fig. 16, 17, 20) */
    struct ht_groups g;
    ht_groups_init(&g);
    double gpu_h[NCONF][8], cpu_h[NCONF][8];   /* group means, [conf][group] (NAN: no pair) */
    for (int c = 0; c < NCONF; c++)
        for (int k = 0; k < 8; k++)
            gpu_h[c][k] = cpu_h[c][k] = NAN;
    for (int which = 0; which < 2; which++) {
        struct st_table *t = which ? t_cpu : t_gpu;
        st_table_init(t, which ? "\nCPU performance: WS_CPU normalised to the baseline GTO (Fig. 17, 20b; "
                                 "group rows: harmonic means)"
                               : "\nGPU performance: IPC normalised to the baseline GTO (Fig. 16, 20a; group "
                                 "rows: harmonic means)");
        st_col(t, "pair");
        unsigned cc[HT_NCMP];
        for (size_t k = 0; k < HT_NCMP; k++)
            cc[k] = st_col(t, ht_confs[ht_cmp[k]].label);
        double v[HT_NCMP][HT_MAXP];
        for (size_t i = 0; i < np; i++) {
            const struct ht_pair *p = &pr[i];
            char nm2[64];
            snprintf(nm2, sizeof nm2, "%s/%s", p->wl, p->mix);
            unsigned r = st_row(t, nm2);
            for (size_t k = 0; k < HT_NCMP; k++) {
                int c = ht_cmp[k];
                v[k][i] = which ? ht_ratio(p->v[c].ws, p->v[C_BASE].ws)
                                : ht_ratio(p->v[c].gpu_ipc, p->v[C_BASE].gpu_ipc);
                const char *miss = st_missing(&l, p->run[c]);
                if (!miss[0])
                    miss = st_missing(&l, p->run[C_BASE]);
                st_setnum(t, r, cc[k], v[k][i], 2, miss[0] ? miss : "n/a");
            }
        }
        for (unsigned gi = 0; gi < g.n; gi++) {
            double sel[HT_MAXP];
            size_t cnt = ht_select(&g, gi, pr, np, wtype, v[0], sel);
            if (!cnt)
                continue;
            char rn[32];
            snprintf(rn, sizeof rn, "%s (%zu)", g.name[gi], cnt);
            unsigned r = st_row(t, rn);
            if (gi == 0 || gi == 3 || gi == 6)
                t->rule_before[r] = 1;
            for (size_t k = 0; k < HT_NCMP; k++) {
                ht_select(&g, gi, pr, np, wtype, v[k], sel);
                double mean = ht_hmean(sel, np);
                (which ? cpu_h : gpu_h)[ht_cmp[k]][gi] = mean;
                st_setnum(t, r, cc[k], mean, 2, "n/a");
            }
        }
        st_print(t, f);
    }
    const unsigned ALL = 6;   /* the "all" group */

    /* table 5: congestion (Fig. 18) */
    st_table_init(t_cong, "\nCongestion normalised to the baseline (Fig. 18): stall_MC, stall_net per cycle, "
                          "stall_GPU per warp insn (groups: arithmetic means; -: baseline 0)");
    st_col(t_cong, "pair");
    static const int cong_c[] = {C_DYN, C_CMCPU, C_BAL1};
    unsigned gcol[3][3];
    for (int q = 0; q < 3; q++)
        for (int k = 0; k < 3; k++) {
            char h[32];
            static const char *const qn[] = {"MC", "net", "GPU"};
            static const char *const cn[] = {"DYN", "CPU", "BAL1"};
            snprintf(h, sizeof h, "%s %s", qn[q], cn[k]);
            gcol[q][k] = st_col(t_cong, h);
        }
    double cong[3][3][HT_MAXP];
    for (size_t i = 0; i < np; i++) {
        const struct ht_pair *p = &pr[i];
        char nm2[64];
        snprintf(nm2, sizeof nm2, "%s/%s", p->wl, p->mix);
        unsigned r = st_row(t_cong, nm2);
        for (int q = 0; q < 3; q++)
            for (int k = 0; k < 3; k++) {
                const struct ht_val *a = &p->v[cong_c[k]], *b = &p->v[C_BASE];
                double x = q == 0 ? ht_ratio(a->smc, b->smc) : q == 1 ? ht_ratio(a->snet, b->snet)
                                                                      : ht_ratio(a->sgpu, b->sgpu);
                cong[q][k][i] = x;
                const char *miss = st_missing(&l, p->run[cong_c[k]]);
                st_setnum(t_cong, r, gcol[q][k], x, 2, miss[0] ? miss : "-");
            }
    }
    double cong_all[3][3] = {{NAN, NAN, NAN}, {NAN, NAN, NAN}, {NAN, NAN, NAN}};
    for (unsigned gi = 0; gi < g.n; gi++) {
        double sel[HT_MAXP];
        size_t cnt = ht_select(&g, gi, pr, np, wtype, cong[0][0], sel);
        if (!cnt)
            continue;
        char rn[32];
        snprintf(rn, sizeof rn, "%s (%zu)", g.name[gi], cnt);
        unsigned r = st_row(t_cong, rn);
        if (gi == 0 || gi == 3 || gi == 6)
            t_cong->rule_before[r] = 1;
        for (int q = 0; q < 3; q++)
            for (int k = 0; k < 3; k++) {
                ht_select(&g, gi, pr, np, wtype, cong[q][k], sel);
                double mean = st_amean(sel, np);
                if (gi == ALL)
                    cong_all[q][k] = mean;
                st_setnum(t_cong, r, gcol[q][k], mean, 2, "-");
            }
    }
    st_print(t_cong, f);

    /* table 6: average warp limit (Fig. 15) */
    st_table_init(t_lim, "\nAverage active warp limit per core under the managers (Fig. 15; baseline 48; group "
                         "rows: arithmetic means)");
    st_col(t_lim, "pair");
    unsigned lc[5];
    for (int c = C_CMCPU; c <= C_BAL4; c++)
        lc[c - C_CMCPU] = st_col(t_lim, ht_confs[c].label);
    double lim[5][HT_MAXP], lim_all[5] = {NAN, NAN, NAN, NAN, NAN};
    for (size_t i = 0; i < np; i++) {
        const struct ht_pair *p = &pr[i];
        char nm2[64];
        snprintf(nm2, sizeof nm2, "%s/%s", p->wl, p->mix);
        unsigned r = st_row(t_lim, nm2);
        for (int c = C_CMCPU; c <= C_BAL4; c++) {
            lim[c - C_CMCPU][i] = p->v[c].limit;
            const char *miss = st_missing(&l, p->run[c]);
            st_setnum(t_lim, r, lc[c - C_CMCPU], p->v[c].limit, 1, miss[0] ? miss : "?");
        }
    }
    for (unsigned gi = 0; gi < g.n; gi++) {
        double sel[HT_MAXP];
        size_t cnt = ht_select(&g, gi, pr, np, wtype, lim[0], sel);
        if (!cnt)
            continue;
        char rn[32];
        snprintf(rn, sizeof rn, "%s (%zu)", g.name[gi], cnt);
        unsigned r = st_row(t_lim, rn);
        if (gi == 0 || gi == 3 || gi == 6)
            t_lim->rule_before[r] = 1;
        for (int c = 0; c < 5; c++) {
            ht_select(&g, gi, pr, np, wtype, lim[c], sel);
            double mean = st_amean(sel, np);
            if (gi == ALL)
                lim_all[c] = mean;
            st_setnum(t_lim, r, lc[c], mean, 1, "n/a");
        }
    }
    st_print(t_lim, f);

    /* table 7: OSS over alpha (Fig. 19) */
    st_table_init(t_oss, "\nOverall system speedup OSS(alpha) = (1 - alpha) WS_CPU + alpha SU_GPU, normalised to "
                         "the baseline's (Fig. 19; harmonic mean over the pairs)");
    st_col(t_oss, "alpha");
    unsigned o_base = st_col(t_oss, "GTO OSS"), oc[HT_NCMP];
    for (size_t k = 0; k < HT_NCMP; k++)
        oc[k] = st_col(t_oss, ht_confs[ht_cmp[k]].label);
    double oss[HT_NALPHA][NCONF];
    for (int a = 0; a < HT_NALPHA; a++) {
        double alpha = a / 10.0;
        char rn[16];
        snprintf(rn, sizeof rn, "%.1f", alpha);
        unsigned r = st_row(t_oss, rn);
        double ob[HT_MAXP];
        for (size_t i = 0; i < np; i++)
            ob[i] = (1 - alpha) * pr[i].v[C_BASE].ws + alpha * pr[i].v[C_BASE].su;
        st_setnum(t_oss, r, o_base, ht_hmean(ob, np), 2, "n/a");
        for (size_t k = 0; k < HT_NCMP; k++) {
            int c = ht_cmp[k];
            double x[HT_MAXP];
            for (size_t i = 0; i < np; i++)
                x[i] = ht_ratio((1 - alpha) * pr[i].v[c].ws + alpha * pr[i].v[c].su, ob[i]);
            oss[a][c] = ht_hmean(x, np);
            st_setnum(t_oss, r, oc[k], oss[a][c], 3, "n/a");
        }
    }
    st_print(t_oss, f);
    fprintf(f, "(GTO OSS: the baseline's absolute OSS; WS_CPU sums 14 applications, so it dominates OSS below "
               "alpha = 1, as in 004's definition)\n");

    /* table 8: partitioned network (Fig. 3-5) */
    st_table_init(t_net, "\nShared vs partitioned network (Fig. 3-5), normalised to the shared network and MCs "
                         "(group rows: harmonic means)");
    st_col(t_net, "pair");
    unsigned n_g3 = st_col(t_net, "GPU 3G1C"), n_g2 = st_col(t_net, "GPU 2G2C"), n_c3 = st_col(t_net, "CPU 3G1C"),
             n_c2 = st_col(t_net, "CPU 2G2C"), n_mc = st_col(t_net, "dedicated MCs");
    double net[4][HT_MAXP], net_all[4] = {NAN, NAN, NAN, NAN};
    for (size_t i = 0; i < np; i++) {
        const struct ht_pair *p = &pr[i];
        char nm2[64];
        snprintf(nm2, sizeof nm2, "%s/%s", p->wl, p->mix);
        unsigned r = st_row(t_net, nm2);
        const struct ht_val *b = &p->v[C_BASE];
        net[0][i] = ht_ratio(p->v[C_N3G1C].gpu_ipc, b->gpu_ipc);
        net[1][i] = ht_ratio(p->v[C_N2G2C].gpu_ipc, b->gpu_ipc);
        net[2][i] = ht_ratio(p->v[C_N3G1C].ws, b->ws);
        net[3][i] = ht_ratio(p->v[C_N2G2C].ws, b->ws);
        const unsigned cols[4] = {n_g3, n_g2, n_c3, n_c2};
        for (int k = 0; k < 4; k++) {
            const char *miss = st_missing(&l, p->run[k % 2 ? C_N2G2C : C_N3G1C]);
            st_setnum(t_net, r, cols[k], net[k][i], 2, miss[0] ? miss : "n/a");
        }
        st_setf(t_net, r, n_mc, "n/a");
    }
    for (unsigned gi = 0; gi < g.n; gi++) {
        double sel[HT_MAXP];
        size_t cnt = ht_select(&g, gi, pr, np, wtype, net[0], sel);
        if (!cnt)
            continue;
        char rn[32];
        snprintf(rn, sizeof rn, "%s (%zu)", g.name[gi], cnt);
        unsigned r = st_row(t_net, rn);
        if (gi == 0 || gi == 3 || gi == 6)
            t_net->rule_before[r] = 1;
        const unsigned cols[4] = {n_g3, n_g2, n_c3, n_c2};
        for (int k = 0; k < 4; k++) {
            ht_select(&g, gi, pr, np, wtype, net[k], sel);
            double mean = ht_hmean(sel, np);
            if (gi == ALL)
                net_all[k] = mean;
            st_setnum(t_net, r, cols[k], mean, 2, "n/a");
        }
        st_setf(t_net, r, n_mc, "n/a");
    }
    st_print(t_net, f);

    /* the cost of reusing the baseline's alone runs */
    if (pr[0].check >= 0) {
        double own = pr[0].check_ws, reused = pr[0].v[C_CMCPU].ws;
        fprintf(f, "\nAlone runs: %s/%s under CM-CPU, WS_CPU with its own alone runs %.3f, with the baseline's "
                   "%.3f (%+.2f%%)\n",
                pr[0].wl, pr[0].mix, own, reused, 100.0 * (reused / own - 1.0));
    }
    fprintf(f, "(n/a = configuration not in this build, fail = no verified result: see the run's .log in runs/)\n");

    /* ---- how close to the seed ---- */
    unsigned score[3] = {0, 0, 0};
    char msr[512];
    fprintf(f, "\nComparison with seed 004 (qualitative; harmonic means over all %zu pairs; margins 2%%):\n", np);
    double g_cpu = gpu_h[C_CMCPU][ALL], c_cpu = cpu_h[C_CMCPU][ALL], g_b1 = gpu_h[C_BAL1][ALL],
           c_b1 = cpu_h[C_BAL1][ALL], g_b4 = gpu_h[C_BAL4][ALL], c_b4 = cpu_h[C_BAL4][ALL],
           g_dyn = gpu_h[C_DYN][ALL], c_dyn = cpu_h[C_DYN][ALL];
    snprintf(msr, sizeof msr, "CM-CPU: GPU %+.1f%%", 100.0 * (g_cpu - 1.0));
    st_check(f, score, isfinite(g_cpu) ? g_cpu < 0.98 : -1, "CM-CPU costs GPU performance",
             "-11% (Fig. 16)", msr);
    snprintf(msr, sizeof msr, "CM-CPU: CPU %+.1f%%", 100.0 * (c_cpu - 1.0));
    st_check(f, score, isfinite(c_cpu) ? c_cpu > 1.02 : -1, "CM-CPU improves CPU performance",
             "+24% (Fig. 17)", msr);
    snprintf(msr, sizeof msr, "CM-BAL1: GPU %+.1f%%", 100.0 * (g_b1 - 1.0));
    st_check(f, score, isfinite(g_b1) ? g_b1 > 1.02 : -1, "CM-BAL1 improves GPU performance",
             "+7% (Fig. 16)", msr);
    snprintf(msr, sizeof msr, "CM-BAL1: CPU %+.1f%%", 100.0 * (c_b1 - 1.0));
    st_check(f, score, isfinite(c_b1) ? c_b1 > 1.02 : -1, "CM-BAL1 improves CPU performance",
             "+7% (Fig. 17)", msr);
    snprintf(msr, sizeof msr, "GPU %.2f (CM-CPU) vs %.2f (CM-BAL1); CPU %.2f vs %.2f", g_cpu, g_b1, c_cpu, c_b1);
    st_check(f, score,
             isfinite(g_cpu) && isfinite(g_b1) && isfinite(c_cpu) && isfinite(c_b1)
                 ? g_b1 - g_cpu > 0.02 && c_cpu - c_b1 > 0.02
                 : -1,
             "CM-CPU favours the CPU and CM-BAL1 the GPU", "GPU -11% vs +7%, CPU +24% vs +7% (Fig. 16-17)", msr);
    snprintf(msr, sizeof msr, "CM-BAL1 -> CM-BAL4: GPU %.2f -> %.2f, CPU %.2f -> %.2f", g_b1, g_b4, c_b1, c_b4);
    st_check(f, score,
             isfinite(g_b1) && isfinite(g_b4) && isfinite(c_b1) && isfinite(c_b4)
                 ? g_b4 <= g_b1 + 0.02 && c_b4 >= c_b1 - 0.02 && (g_b1 - g_b4 > 0.02 || c_b4 - c_b1 > 0.02)
                 : -1,
             "A larger k trades GPU for CPU performance (the CM-BAL knob)",
             "GPU benefit falls and CPU benefit rises from CM-BAL1 to CM-BAL4 (Fig. 16-17)", msr);
    snprintf(msr, sizeof msr, "DYNCTA: GPU %+.1f%%, CPU %+.1f%%", 100.0 * (g_dyn - 1.0), 100.0 * (c_dyn - 1.0));
    st_check(f, score, isfinite(c_dyn) && isfinite(c_cpu) ? c_dyn < 1.05 && c_dyn < c_cpu : -1,
             "DYNCTA does little for the CPUs", "CPU +2%, well below CM-CPU (Fig. 17)", msr);
    snprintf(msr, sizeof msr, "average warp limit: CM-CPU %.1f, CM-BAL1 %.1f (margin: 1 warp)", lim_all[0],
             lim_all[1]);
    st_check(f, score, isfinite(lim_all[0]) && isfinite(lim_all[1]) ? lim_all[0] < lim_all[1] - 1.0 : -1,
             "CM-CPU throttles harder than CM-BAL1", "CM-CPU reduces concurrency very aggressively (Fig. 15)", msr);
    {
        char mc[32] = "n/a", nt[32] = "n/a";
        if (isfinite(cong_all[0][1]))
            snprintf(mc, sizeof mc, "x%.2f", cong_all[0][1]);
        if (isfinite(cong_all[1][1]))
            snprintf(nt, sizeof nt, "x%.2f", cong_all[1][1]);
        snprintf(msr, sizeof msr, "stall_MC per cycle %s, stall_net per cycle %s (means over the pairs whose "
                 "baseline is not 0)", mc, nt);
    }
    {
        double mc = cong_all[0][1], nt = cong_all[1][1];
        int v = isfinite(mc) ? mc < 0.95 : isfinite(nt) ? nt < 0.95 : -1;
        st_check(f, score, v, "CM-CPU lowers memory congestion (stall_MC; stall_net where stall_MC is 0)",
                 "stall_MC per cycle goes down significantly (Fig. 18)", msr);
    }
    snprintf(msr, sizeof msr, "stall_GPU per warp instruction x%.2f (CM-CPU), x%.2f (CM-BAL1)", cong_all[2][1],
             cong_all[2][2]);
    st_check(f, score,
             isfinite(cong_all[2][1]) && isfinite(cong_all[2][2]) ? cong_all[2][1] > 1.02 &&
                                                                        cong_all[2][2] < cong_all[2][1] - 0.02
                                                                  : -1,
             "CM-CPU raises stall_GPU per instruction, CM-BAL1 less",
             "stall_GPU per instruction up with CM-CPU, not with CM-BAL1 (Fig. 18)", msr);
    {
        double o0[4] = {1.0, oss[0][C_DYN], oss[0][C_CMCPU], oss[0][C_BAL1]};
        int best = isfinite(o0[2]) && o0[2] >= o0[0] && o0[2] >= o0[3] && (!isfinite(o0[1]) || o0[2] >= o0[1]);
        snprintf(msr, sizeof msr, "OSS(0): CM-CPU %.3f, CM-BAL1 %.3f, DYNCTA %.3f; OSS(1): CM-CPU %.3f",
                 oss[0][C_CMCPU], oss[0][C_BAL1], oss[0][C_DYN], oss[10][C_CMCPU]);
        st_check(f, score, isfinite(o0[2]) && isfinite(oss[10][C_CMCPU]) ? best && oss[10][C_CMCPU] < 1.0 : -1,
                 "CM-CPU has the best OSS at alpha = 0 and falls below the baseline at alpha = 1",
                 "CM-CPU best for small alpha, below the baseline for large alpha (Fig. 19)", msr);
    }
    {
        double mn = INFINITY;
        for (int a = 0; a < HT_NALPHA; a++)
            mn = fmin(mn, oss[a][C_BAL1]);
        snprintf(msr, sizeof msr, "CM-BAL1's normalised OSS is %.3f at its lowest alpha", mn);
        st_check(f, score, isfinite(mn) ? mn >= 1.0 : -1, "CM-BAL1 is at least the baseline for every alpha",
                 "CM-BAL1 improves OSS in a balanced way for all alpha (Fig. 19)", msr);
    }
    {
        double best = -INFINITY;
        for (int s = 0; s < 4; s++)
            best = fmax(best, gpu_h[ht_swl_c[s]][ALL]);
        snprintf(msr, sizeof msr, "GPU: CM-BAL1 %.2f, best static limit %.2f", g_b1, best);
        st_check(f, score, isfinite(g_b1) && isfinite(best) ? g_b1 > best + 0.02 : -1,
                 "CM-BAL1 beats every static warp limit on the GPU", "(Fig. 20a)", msr);
        double c4 = cpu_h[C_S4][ALL], g4 = gpu_h[C_S4][ALL];
        snprintf(msr, sizeof msr, "SWL-4: CPU %+.1f%%, GPU %+.1f%%", 100.0 * (c4 - 1.0), 100.0 * (g4 - 1.0));
        st_check(f, score, isfinite(c4) && isfinite(g4) ? c4 > 1.02 && g4 < 0.98 : -1,
                 "A static limit of 4 warps helps the CPUs at the GPU's expense", "(Fig. 20b)", msr);
    }
    snprintf(msr, sizeof msr, "%u of %u workloads of 004 Table II measure as the seed's type", agree_type,
             seed_typed);
    st_check(f, score, seed_typed ? 2 * agree_type >= seed_typed : -1,
             "The measured GPU workload types match 004 Table II", "(Table II)", msr);
    snprintf(msr, sizeof msr, "GPU x%.2f (3G1C), x%.2f (2G2C)", net_all[0], net_all[1]);
    st_check(f, score, isfinite(net_all[0]) && isfinite(net_all[1]) ? net_all[0] < 0.98 && net_all[1] < 0.98 : -1,
             "A partitioned network costs GPU performance",
             "the shared network suits the GPU (Fig. 3a)", msr);
    st_check(f, score, isfinite(net_all[0]) && isfinite(net_all[1]) ? net_all[0] > net_all[1] + 0.02 : -1,
             "More network resources for the GPU help it", "3G1C better than 2G2C for the GPU (Fig. 3a)", msr);
    snprintf(msr, sizeof msr, "CPU x%.2f (3G1C), x%.2f (2G2C)", net_all[2], net_all[3]);
    st_check(f, score, isfinite(net_all[2]) && isfinite(net_all[3]) ? fmax(net_all[2], net_all[3]) > 1.02 : -1,
             "A partitioned network helps the CPUs", "the partitioned network suits the CPU (Fig. 3b)", msr);
    st_check(f, score, -1, "Dedicated MCs cost GPU performance, 4G4C is best for the CPUs",
             "(Fig. 4-5)", "not available: no dedicated-MC option in this simulator");
    st_score(f, score);
    fclose(f);
    st_report_out(o, "hetero", text);
    free(text);
    {
        static const char *const csv[] = {"hetero_types", "hetero_baseline", "hetero_gpu", "hetero_cpu",
                                          "hetero_congestion", "hetero_warp_limit", "hetero_oss",
                                          "hetero_network"};
        for (int k = 0; k < 8; k++) {
            char path[1100];
            snprintf(path, sizeof path, "%s/%s.csv", o->dir, csv[k]);
            st_write_csv(&tb[k], path);
        }
        printf("tables written to %s/hetero_{types,baseline,gpu,cpu,congestion,warp_limit,oss,network}.csv; runs "
               "in %s/runs/ (runs.csv)\n",
               o->dir, o->dir);
    }
    free(tb);
    rc = st_status(o, &l);
out:
    free(pr);
    free(wtype);
    sw_list_free(&l);
    return rc;
}
