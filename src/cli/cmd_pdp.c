/* cmd_pdp.c - `warpsim pdp`: HeteroPDP (seed 000 ch. 6, docs/heteropdp.md): a kernel's
   features, training the four execution-time models, predicting and scheduling. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "core/json.h"
#include "pdp/bubble.h"
#include "pdp/decide.h"
#include "pdp/features.h"
#include "pdp/model.h"
#include "pdp_collect.h"
#include "sys/pcie.h"

static const char pdp_help[] =
    "usage: warpsim pdp features (--ptx FILE | --workload NAME) [--kernel NAME] [--list] [--json]\n"
    "       warpsim pdp train DATA.csv -o MODEL [--folds K] [--seed S] [--no-select] [--min-keep F]\n"
    "                         [--min-gain G] [--intercept] [--relative] [--name NAME] [--json]\n"
    "       warpsim pdp predict --model MODEL (--ptx FILE | --workload NAME) [--kernel NAME]\n"
    "                         --threads N --bytes B [--llc-misses X] [--dram-util U] [--json]\n"
    "       warpsim pdp schedule --model MODEL (--ptx FILE | --workload NAME) [--kernel NAME]\n"
    "                         --threads N --bytes B [--llc-misses X] [--dram-util U]\n"
    "                         [--corun NAME,SD_CPU,SD_GPU[,WEIGHT]]... [--weight W]\n"
    "                         [--bubble TABLE --corun-app NAME[,WEIGHT]]... [--cpu-cores N]\n"
    "                         [--transfer-bytes B] [--slowdown-ref target|best] [--json]\n"
    "       warpsim pdp collect [--size tiny|small] [--out DIR] [--jobs N] ...  (pdp collect --help)\n"
    "\n"
    "HeteroPDP (Lee, ASU 2017, ch. 6 and App. A; docs/heteropdp.md) predicts an OpenCL-style\n"
    "kernel's execution time on the host CPU and on a discrete GPU, alone and co-located with\n"
    "native CPU applications, with linear regression over the kernel's features and their\n"
    "pairwise products, and picks the target: the least time alone, the highest fairness\n"
    "(min/max slowdown of all co-located applications) co-located.\n"
    "\n"
    "  features   the kernel's feature vector (000 Table 6.4): static instruction counts of its\n"
    "             PTX in the CPU view (scalar/vector ALU and MEM, branch, atomic) and the GPU view\n"
    "             (memory, integer, float, special math, branch, barrier), and the dynamic and\n"
    "             co-located features given.  --list: every instruction with its two classes.\n"
    "             Without --kernel a module with several kernels is counted whole.\n"
    "  train      fit the four models (cpu|gpu x alone|coloc, those whose time column the CSV has)\n"
    "             by least squares (LAPACK) and cross-validate them (K folds, default 32);\n"
    "             training-set selection drops whole kernels (the CSV's `kernel` column) while\n"
    "             that raises the cross-validated R^2 by more than --min-gain (default 0.001),\n"
    "             keeping at least --min-keep of them (default 0.7; --no-select keeps all);\n"
    "             --intercept adds a constant term; --relative minimises relative instead of\n"
    "             absolute errors (each row weighted by 1/time; for kernels whose times span\n"
    "             orders of magnitude).  CSV columns: the feature names (see\n"
    "             `features`), time_cpu_alone, time_gpu_alone, time_cpu_coloc, time_gpu_coloc,\n"
    "             kernel; other columns are ignored.  Writes MODEL (a text file).\n"
    "  predict    the four predicted times (in the model's time unit)\n"
    "  schedule   predicted times, the kernel's slowdown on each target (Eq. 6.6), each\n"
    "             co-runner's, the fairness (Eq. 6.1) and weighted fairness (Eq. 6.3-6.4) of\n"
    "             each choice, and the decisions alone and co-located\n"
    "  collect    the simulated training campaign: writes the CSV `train` reads and the slowdown\n"
    "             table `schedule --bubble` reads (warpsim pdp collect --help)\n"
    "\n"
    "  --model MODEL      a model file; a bare NAME also tries models/NAME.model (the seed's\n"
    "                     published coefficients: heteropdp-i7-3770-s9150)\n"
    "  --ptx FILE         the kernel's PTX;  --workload NAME  a bundled workload's PTX\n"
    "  --kernel NAME      the .entry to count (default: the only one, or all of them)\n"
    "  --threads N        work-items (threads) the launch spawns      (required to predict)\n"
    "  --bytes B          bytes of the launch's memory buffers        (required to predict)\n"
    "  --llc-misses X     LLC misses of the co-running applications   (default 0)\n"
    "  --dram-util U      their host DRAM bandwidth utilisation       (default 0)\n"
    "  --feature NAME=V   set any feature by name (overrides the PTX counts)\n"
    "  --corun NAME,SD_CPU,SD_GPU[,WEIGHT]   a co-located native CPU application: its slowdown\n"
    "                     when the kernel runs on the CPU and on the GPU (a Bubble-up table's or\n"
    "                     measured), and its weight (default 1); up to 16\n"
    "  --bubble TABLE     a Bubble-up slowdown table (pdp collect's DIR/bubble.csv) for:\n"
    "  --corun-app NAME[,WEIGHT]  a co-runner whose slowdowns come from the table: with the\n"
    "                     kernel on the CPU at the kernel's cores and buffer bytes per core, on\n"
    "                     the GPU beside its PCIe transfers within the predicted GPU time\n"
    "  --cpu-cores N      cores the kernel gets on the CPU (default 4 - co-runners)\n"
    "  --transfer-bytes B bytes moved over PCIe (default --bytes)\n"
    "  --weight W         the kernel's own weight (default 1); any weight other than 1 makes the\n"
    "                     weighted fairness decide\n"
    "  --slowdown-ref R   target: Eq. 6.6 per target (default); best: co-located time over the\n"
    "                     least alone time of either target\n"
    "  --json             one JSON object instead of text\n"
    "Exit status: 0, or 2 on a usage error or a malformed PTX, CSV or model file (FILE:LINE).";

/* ---- options shared by features / predict / schedule ------------------------------------ */

struct kin {
    const char *ptx, *workload, *kernel, *model;
    struct pdp_features x;
    bool given[PDP_F_COUNT];
    char source[512];        /* the PTX file (or the workload's) */
    char kernels[512];       /* what was counted */
    struct pdp_corunner co[PDP_MAX_CORUN];
    size_t nco;
    double weight;
    enum pdp_slowdown_ref ref;
    int json, list;
    /* co-runners whose slowdowns come from a Bubble-up table (--bubble, --corun-app) */
    const char *bubble;
    char app[PDP_MAX_CORUN][64];
    double app_weight[PDP_MAX_CORUN];
    size_t napp;
    double cpu_cores, transfer_bytes;   /* 0: 4 - co-runners; buffer_bytes */
};

static int parse_nonneg(const char *cmd, const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : NAN;
    if (!s || end == s || *end != '\0' || !isfinite(v) || v < 0) {
        fprintf(stderr, "warpsim pdp %s: option %s expects a non-negative number, got '%s'\n", cmd, opt,
                s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_corun(const char *cmd, const char *s, struct pdp_corunner *c)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    char *f[5];
    int n = 0;
    for (char *p = buf; n < 5;) {
        f[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    memset(c, 0, sizeof *c);
    c->weight = 1;
    double v[3] = {0, 0, 1};
    bool ok = (n == 3 || n == 4) && f[0][0];
    for (int i = 1; ok && i < n; i++) {
        char *end;
        v[i - 1] = strtod(f[i], &end);
        ok = end != f[i] && *end == '\0' && isfinite(v[i - 1]) && v[i - 1] > 0;
    }
    if (!ok) {
        fprintf(stderr,
                "warpsim pdp %s: --corun expects NAME,SD_CPU,SD_GPU[,WEIGHT] with positive numbers "
                "(e.g. mcf,1.35,1.08 or mcf,1.35,1.08,2), got '%s'\n",
                cmd, s);
        return -1;
    }
    snprintf(c->name, sizeof c->name, "%.*s", (int)sizeof c->name - 1, f[0]);
    c->slowdown[PDP_CPU] = v[0];
    c->slowdown[PDP_GPU] = v[1];
    c->weight = v[2];
    return 0;
}

/* 1 = consumed (i advanced past a value), 0 = not ours, -1 = error */
static int kin_option(const char *cmd, struct kin *k, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    static const struct { const char *opt; int feat; } num[] = {
        {"--threads", PDP_F_THREADS}, {"--bytes", PDP_F_BUFFER_BYTES},
        {"--llc-misses", PDP_F_LLC_MISSES}, {"--dram-util", PDP_F_DRAM_UTIL}};
    if (strcmp(a, "--json") == 0) {
        k->json = 1;
        return 1;
    }
    if (strcmp(a, "--list") == 0) {
        k->list = 1;
        return 1;
    }
    bool takes = false;
    const char *val_opts[] = {"--ptx",        "--workload",   "--kernel",    "--model",          "--feature",
                              "--corun",      "--weight",     "--slowdown-ref", "--threads",      "--bytes",
                              "--llc-misses", "--dram-util",  "--bubble",    "--corun-app",      "--cpu-cores",
                              "--transfer-bytes"};
    for (size_t q = 0; q < sizeof val_opts / sizeof val_opts[0]; q++)
        takes = takes || strcmp(a, val_opts[q]) == 0;
    if (!takes)
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "warpsim pdp %s: option %s needs a value\n", cmd, a);
        return -1;
    }
    const char *v = argv[++*i];
    if (strcmp(a, "--ptx") == 0)
        k->ptx = v;
    else if (strcmp(a, "--workload") == 0)
        k->workload = v;
    else if (strcmp(a, "--kernel") == 0)
        k->kernel = v;
    else if (strcmp(a, "--model") == 0)
        k->model = v;
    else if (strcmp(a, "--feature") == 0) {
        const char *eq = strchr(v, '=');
        char name[64];
        size_t l = eq ? (size_t)(eq - v) : 0;
        snprintf(name, sizeof name, "%.*s", (int)(l < sizeof name ? l : sizeof name - 1), v);
        int f = eq ? pdp_feat_lookup(name) : -1;
        if (f < 0) {
            char names[512];
            pdp_feat_names(names, sizeof names);
            fprintf(stderr, "warpsim pdp %s: --feature expects NAME=VALUE with NAME one of: %s; got '%s'\n", cmd,
                    names, v);
            return -1;
        }
        if (parse_nonneg(cmd, "--feature", eq + 1, &k->x.v[f]))
            return -1;
        k->given[f] = true;
    } else if (strcmp(a, "--corun") == 0) {
        if (k->nco == PDP_MAX_CORUN) {
            fprintf(stderr, "warpsim pdp %s: at most %d --corun applications\n", cmd, PDP_MAX_CORUN);
            return -1;
        }
        if (parse_corun(cmd, v, &k->co[k->nco]))
            return -1;
        k->nco++;
    } else if (strcmp(a, "--bubble") == 0) {
        k->bubble = v;
    } else if (strcmp(a, "--corun-app") == 0) {
        if (k->napp == PDP_MAX_CORUN) {
            fprintf(stderr, "warpsim pdp %s: at most %d --corun-app applications\n", cmd, PDP_MAX_CORUN);
            return -1;
        }
        const char *comma = strchr(v, ',');
        size_t l = comma ? (size_t)(comma - v) : strlen(v);
        double w = 1;
        char *end = NULL;
        if (comma)
            w = strtod(comma + 1, &end);
        if (!l || l >= sizeof k->app[0] || (comma && (end == comma + 1 || *end || !(w > 0) || !isfinite(w)))) {
            fprintf(stderr, "warpsim pdp %s: --corun-app expects NAME[,WEIGHT] (a positive weight), got '%s'\n", cmd,
                    v);
            return -1;
        }
        memcpy(k->app[k->napp], v, l);
        k->app[k->napp][l] = '\0';
        k->app_weight[k->napp++] = w;
    } else if (strcmp(a, "--cpu-cores") == 0 || strcmp(a, "--transfer-bytes") == 0) {
        double *dst = a[2] == 'c' ? &k->cpu_cores : &k->transfer_bytes;
        if (parse_nonneg(cmd, a, v, dst))
            return -1;
        if (dst == &k->cpu_cores && (*dst < 1 || *dst > 64 || *dst != floor(*dst))) {
            fprintf(stderr, "warpsim pdp %s: --cpu-cores expects 1 to 64\n", cmd);
            return -1;
        }
    } else if (strcmp(a, "--weight") == 0) {
        if (parse_nonneg(cmd, a, v, &k->weight))
            return -1;
        if (!(k->weight > 0)) {
            fprintf(stderr, "warpsim pdp %s: --weight must be positive\n", cmd);
            return -1;
        }
    } else if (strcmp(a, "--slowdown-ref") == 0) {
        if (strcmp(v, "target") == 0)
            k->ref = PDP_REF_TARGET;
        else if (strcmp(v, "best") == 0)
            k->ref = PDP_REF_BEST;
        else {
            fprintf(stderr, "warpsim pdp %s: --slowdown-ref expects target or best, got '%s'\n", cmd, v);
            return -1;
        }
    } else {
        for (size_t q = 0; q < sizeof num / sizeof num[0]; q++)
            if (strcmp(a, num[q].opt) == 0) {
                if (parse_nonneg(cmd, a, v, &k->x.v[num[q].feat]))
                    return -1;
                k->given[num[q].feat] = true;
            }
    }
    return 1;
}

static void list_kernels(const struct ptx_module *m, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < m->nfuncs && at < n; i++)
        if (m->funcs[i].is_entry) {
            int w = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", m->funcs[i].name);
            if (w < 0)
                break;
            at += (size_t)w;
        }
}

/* Parse the PTX of --ptx or --workload; NULL after printing the error (*rc set). */
static struct ptx_module *kin_module(const char *cmd, struct kin *k, int *rc)
{
    *rc = EXIT_USAGE;
    if (!!k->ptx == !!k->workload) {
        fprintf(stderr, "warpsim pdp %s: give the kernel's PTX with --ptx FILE or --workload NAME (one of them)\n",
                cmd);
        return NULL;
    }
    struct ptx_error err;
    memset(&err, 0, sizeof err);
    struct ptx_module *m;
    if (k->workload) {
        if (!wl_find(k->workload)) {
            fprintf(stderr, "warpsim pdp %s: no bundled workload '%s' (warpsim list names them)\n", cmd, k->workload);
            return NULL;
        }
        size_t len = 0;
        const char *text = wl_ptx_text(k->workload, &len);
        snprintf(k->source, sizeof k->source, "workloads/%s/%s.ptx", k->workload, k->workload);
        m = text ? ptx_parse(text, len, k->source, &err) : NULL;
        if (!text) {
            fprintf(stderr, "warpsim pdp %s: workload '%s' has no embedded PTX\n", cmd, k->workload);
            return NULL;
        }
    } else {
        snprintf(k->source, sizeof k->source, "%s", k->ptx);
        m = ptx_parse_file(k->ptx, &err);
    }
    if (m && ptx_cfg_analyze(m, &err) != 0) {
        ptx_module_free(m);
        m = NULL;
    }
    if (!m) {
        char line[1024];
        ptx_error_format(&err, line, sizeof line);
        fprintf(stderr, "%s\n", line);
        return NULL;
    }
    *rc = EXIT_OK;
    return m;
}

/* The kernel's features: PTX counts, then the options' values.  *fi_out: the kernel or -1. */
static int kin_features(const char *cmd, struct kin *k, struct ptx_module *m, int *fi_out)
{
    int fi = -1;
    char all[400];
    list_kernels(m, all, sizeof all);
    if (k->kernel) {
        fi = ptx_find_func(m, k->kernel);
        if (fi < 0 || !m->funcs[fi].is_entry) {
            fprintf(stderr, "warpsim pdp %s: %s has no kernel '%s' (its kernels: %s)\n", cmd, k->source, k->kernel,
                    all[0] ? all : "none");
            return EXIT_USAGE;
        }
    } else {
        unsigned ne = 0;
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (m->funcs[i].is_entry) {
                ne++;
                fi = (int)i;
            }
        if (ne != 1)
            fi = -1;
    }
    snprintf(k->kernels, sizeof k->kernels, "%s%s", fi >= 0 ? m->funcs[fi].name : "all kernels: ",
             fi >= 0 ? "" : all);
    struct pdp_features px;
    memset(&px, 0, sizeof px);
    char msg[512];
    if (pdp_features_from_ptx(m, fi, &px, msg, sizeof msg)) {
        fprintf(stderr, "warpsim pdp %s: %s\n", cmd, msg);
        return EXIT_USAGE;
    }
    for (int f = 0; f < PDP_F_COUNT; f++)
        if (!k->given[f])
            k->x.v[f] = px.v[f];
    *fi_out = fi;
    return EXIT_OK;
}

static void print_features_text(const struct kin *k)
{
    printf("kernel   %s (%s)\n", k->kernels, k->source);
    for (int f = 0; f < PDP_F_COUNT; f++)
        printf("  %-13s %14.6g   %s%s\n", pdp_feat_name((enum pdp_feat)f), k->x.v[f],
               pdp_feat_desc((enum pdp_feat)f), k->given[f] ? " (given)" : "");
}

static void json_features(struct json *j, const struct kin *k)
{
    json_str(j, "kernel", k->kernels);
    json_str(j, "source", k->source);
    json_obj(j, "features");
    for (int f = 0; f < PDP_F_COUNT; f++)
        json_dbl(j, pdp_feat_name((enum pdp_feat)f), k->x.v[f]);
    json_close(j);
}

static void list_insns(const struct ptx_module *m, int fi)
{
    /* the functions counted: the kernel(s) and what they call */
    uint8_t *seen = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    if (!seen)
        return;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            bool root = fi >= 0 ? i == (uint32_t)fi : m->funcs[i].is_entry;
            if (!seen[i] && root) {
                seen[i] = 1;
                grew = true;
            }
            if (!seen[i])
                continue;
            for (uint32_t c = 0; c < m->funcs[i].ncalls; c++) {
                int32_t ce = m->funcs[i].calls[c].callee;
                if (ce >= 0 && (uint32_t)ce < m->nfuncs && !seen[ce]) {
                    seen[ce] = 1;
                    grew = true;
                }
            }
        }
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct ptx_func *f = &m->funcs[i];
        if (!seen[i] || f->ninsns == 0)
            continue;
        uint8_t *cc = malloc(f->ninsns), *gc = malloc(f->ninsns);
        char msg[256];
        if (cc && gc && pdp_classify_func(m, i, cc, gc, msg, sizeof msg) == 0) {
            printf("%s %s\n  %-8s %-12s %-7s %s\n", f->is_entry ? ".entry" : ".func", f->name, "line", "opcode", "cpu",
                   "gpu");
            for (uint32_t k = 0; k < f->ninsns; k++)
                printf("  %-8u %-12s %-7s %s\n", f->insns[k].line, ptx_opcode_name((enum ptx_opcode)f->insns[k].op),
                       pdp_cpu_class_name((enum pdp_cpu_class)cc[k]), pdp_gpu_class_name((enum pdp_gpu_class)gc[k]));
        }
        free(cc);
        free(gc);
    }
    free(seen);
}

static int cmd_pdp_features(int argc, char **argv)
{
    struct kin k;
    memset(&k, 0, sizeof k);
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            puts(pdp_help);
            return EXIT_OK;
        }
        int r = kin_option("features", &k, argc, argv, &i);
        if (r < 0)
            return EXIT_USAGE;
        if (r == 0) {
            fprintf(stderr, "warpsim pdp features: unknown option '%s' (see warpsim pdp --help)\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    int rc;
    struct ptx_module *m = kin_module("features", &k, &rc);
    if (!m)
        return rc;
    int fi;
    rc = kin_features("features", &k, m, &fi);
    if (rc == EXIT_OK) {
        if (k.json) {
            struct json j;
            json_begin(&j, stdout);
            json_features(&j, &k);
            json_end(&j);
        } else {
            print_features_text(&k);
            if (k.list)
                list_insns(m, fi);
        }
    }
    ptx_module_free(m);
    return rc;
}

/* --model: a file, or models/NAME.model */
static int load_model(const char *cmd, const char *spec, struct pdp_modelset *ms, char *used, size_t usedn)
{
    char msg[1024];
    if (!spec) {
        fprintf(stderr, "warpsim pdp %s: which model? --model MODEL (e.g. --model heteropdp-i7-3770-s9150)\n", cmd);
        return EXIT_USAGE;
    }
    struct stat sb;
    snprintf(used, usedn, "%s", spec);
    if (stat(spec, &sb) != 0 && !strchr(spec, '/')) {
        char alt[600];
        snprintf(alt, sizeof alt, "models/%s.model", spec);
        if (stat(alt, &sb) == 0)
            snprintf(used, usedn, "%s", alt);
    }
    if (pdp_modelset_load(ms, used, msg, sizeof msg)) {
        fprintf(stderr, "%s\n", msg);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int predict_common(const char *cmd, int argc, char **argv, struct kin *k, struct pdp_modelset *ms,
                          char *model_path, size_t mpn, double time[PDP_NTARGETS][PDP_NSCENS])
{
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            puts(pdp_help);
            return -1;
        }
        int r = kin_option(cmd, k, argc, argv, &i);
        if (r < 0)
            return EXIT_USAGE;
        if (r == 0) {
            fprintf(stderr, "warpsim pdp %s: unknown option '%s' (see warpsim pdp --help)\n", cmd, argv[i]);
            return EXIT_USAGE;
        }
    }
    if (k->list) {
        fprintf(stderr, "warpsim pdp %s: --list belongs to `pdp features`\n", cmd);
        return EXIT_USAGE;
    }
    if (!k->given[PDP_F_THREADS] || !k->given[PDP_F_BUFFER_BYTES]) {
        fprintf(stderr,
                "warpsim pdp %s: %s is required (the launch's dynamic features: --threads N work-items, "
                "--bytes B of memory buffers)\n",
                cmd, !k->given[PDP_F_THREADS] ? "--threads" : "--bytes");
        return EXIT_USAGE;
    }
    int rc = load_model(cmd, k->model, ms, model_path, mpn);
    if (rc)
        return rc;
    struct ptx_module *m = kin_module(cmd, k, &rc);
    if (!m)
        return rc;
    int fi;
    rc = kin_features(cmd, k, m, &fi);
    ptx_module_free(m);
    if (rc)
        return rc;
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++)
            time[t][s] = pdp_model_predict(&ms->m[t][s], &k->x);
    return EXIT_OK;
}

static void print_times_text(const struct pdp_modelset *ms, double time[PDP_NTARGETS][PDP_NSCENS])
{
    printf("predicted execution time (the model's unit)\n");
    printf("  %-12s %14s %14s\n", "", "cpu", "gpu");
    for (int s = 0; s < PDP_NSCENS; s++) {
        printf("  %-12s", s == PDP_ALONE ? "alone" : "co-located");
        for (int t = 0; t < PDP_NTARGETS; t++) {
            if (!ms->m[t][s].present)
                printf(" %14s", "(no model)");
            else
                printf(" %14.6g", time[t][s]);
        }
        printf("\n");
    }
}

static void json_times(struct json *j, double time[PDP_NTARGETS][PDP_NSCENS])
{
    json_obj(j, "time");
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++) {
            char key[32];
            snprintf(key, sizeof key, "%s_%s", pdp_target_name((enum pdp_target)t), pdp_scen_name((enum pdp_scen)s));
            json_dbl(j, key, time[t][s]);
        }
    json_close(j);
}

/* what predict and schedule start from: the kernel and options, the model set (malloc; free it), its
   file, the predicted times */
struct prediction {
    struct kin k;
    struct pdp_modelset *ms;
    char mp[700];
    double time[PDP_NTARGETS][PDP_NSCENS];
};

/* predict_common on a fresh p->k (weight `weight`) and a model set of its own: EXIT_OK with p->ms, or
   the command's exit status with p->ms NULL (the command ends here) */
static int predict_alloc(const char *cmd, int argc, char **argv, double weight, struct prediction *p)
{
    memset(&p->k, 0, sizeof p->k);
    p->k.weight = weight;
    p->ms = malloc(sizeof *p->ms);
    if (!p->ms)
        return EXIT_SIM_ERROR;
    int rc = predict_common(cmd, argc, argv, &p->k, p->ms, p->mp, sizeof p->mp, p->time);
    if (rc != EXIT_OK) {
        free(p->ms);
        p->ms = NULL;
    }
    return rc < 0 ? EXIT_OK : rc;
}

/* The head of predict's and schedule's reports: the model, the kernel's features, the predicted
   times; as JSON when j (begun here), else as text. */
static void report_head(struct json *j, struct prediction *p)
{
    const struct kin *k = &p->k;
    if (j) {
        json_begin(j, stdout);
        json_str(j, "model", p->ms->name);
        json_str(j, "model_file", p->mp);
        json_features(j, k);
        json_times(j, p->time);
    } else {
        printf("model    %s (%s)\n", p->ms->name, p->mp);
        print_features_text(k);
        print_times_text(p->ms, p->time);
    }
}

static int cmd_pdp_predict(int argc, char **argv)
{
    struct prediction p;
    int rc = predict_alloc("predict", argc, argv, 0, &p);
    if (!p.ms)
        return rc;
    struct json j;
    report_head(p.k.json ? &j : NULL, &p);
    if (p.k.json)
        json_end(&j);
    free(p.ms);
    return EXIT_OK;
}

/* a number, or "-" when it is undefined */
static const char *num(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.4g", v);
    return buf;
}

static const char *target_or_none(int t) { return t < 0 ? "none" : pdp_target_name((enum pdp_target)t); }

/* The --corun-app co-runners' slowdowns from the --bubble table (pdp/bubble.h): with the kernel on the
   CPU, at its pressure (the cores it gets, its buffer bytes per core); on the GPU, beside its PCIe
   transfers (2 x latency + transfer bytes / bandwidth) within the predicted co-located GPU time. */
static int bubble_coruns(struct prediction *p)
{
    struct kin *k = &p->k;
    if (!k->bubble || !k->napp) {
        fprintf(stderr, "warpsim pdp schedule: --corun-app needs --bubble TABLE and the other way round "
                        "(the table `pdp collect` writes: DIR/bubble.csv)\n");
        return EXIT_USAGE;
    }
    if (k->nco + k->napp > PDP_MAX_CORUN) {
        fprintf(stderr, "warpsim pdp schedule: at most %d co-runners in all\n", PDP_MAX_CORUN);
        return EXIT_USAGE;
    }
    struct pdp_bubble_table *t = malloc(sizeof *t);
    char msg[1024];
    if (!t)
        return EXIT_SIM_ERROR;
    if (pdp_bubble_load(t, k->bubble, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        free(t);
        return EXIT_USAGE;
    }
    size_t nall = k->nco + k->napp;
    double cores = k->cpu_cores > 0 ? k->cpu_cores : (nall < PC_HOST_CORES ? (double)(PC_HOST_CORES - nall) : 1);
    k->cpu_cores = cores;
    double bytes = k->transfer_bytes > 0 ? k->transfer_bytes : k->x.v[PDP_F_BUFFER_BYTES];
    k->transfer_bytes = bytes;
    struct pcie_params pp;
    pcie_params_default(&pp);
    double tx = bytes > 0 ? 2 * pp.latency_s + bytes / pcie_bandwidth(&pp) : 0;
    for (size_t i = 0; i < k->napp; i++) {
        if (!pdp_bubble_has(t, k->app[i])) {
            fprintf(stderr, "warpsim pdp schedule: %s has no entries for '%s'\n", k->bubble, k->app[i]);
            free(t);
            return EXIT_USAGE;
        }
        struct pdp_corunner *c = &k->co[k->nco++];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%s", k->app[i]);
        c->weight = k->app_weight[i];
        c->slowdown[PDP_CPU] = pdp_bubble_cpu(t, k->app[i], (unsigned)cores, k->x.v[PDP_F_BUFFER_BYTES] / cores);
        c->slowdown[PDP_GPU] = pdp_bubble_gpu(t, k->app[i], tx, p->time[PDP_GPU][PDP_COLOC]);
    }
    free(t);
    return EXIT_OK;
}

static int cmd_pdp_schedule(int argc, char **argv)
{
    struct prediction p;
    int rc = predict_alloc("schedule", argc, argv, 1, &p);
    if (!p.ms)
        return rc;
    if (p.k.napp || p.k.bubble) {
        rc = bubble_coruns(&p);
        if (rc != EXIT_OK) {
            free(p.ms);
            return rc;
        }
    }
    const struct kin *k = &p.k;
    struct pdp_schedule_in in;
    memset(&in, 0, sizeof in);
    memcpy(in.time, p.time, sizeof in.time);
    in.kernel_weight = k->weight;
    in.co = k->co;
    in.nco = k->nco;
    in.ref = k->ref;
    struct pdp_schedule_out out;
    int decision = pdp_schedule(&in, &out);
    struct json j;
    report_head(k->json ? &j : NULL, &p);
    if (k->json) {
        json_str(&j, "slowdown_ref", k->ref == PDP_REF_BEST ? "best" : "target");
        if (k->napp) {
            json_str(&j, "bubble", k->bubble);
            json_dbl(&j, "cpu_cores", k->cpu_cores);
            json_dbl(&j, "transfer_bytes", k->transfer_bytes);
        }
        json_arr(&j, "applications");
        json_obj(&j, NULL);
        json_str(&j, "name", "kernel");
        json_dbl(&j, "weight", k->weight);
        json_dbl(&j, "slowdown_cpu", out.kernel_slowdown[PDP_CPU]);
        json_dbl(&j, "slowdown_gpu", out.kernel_slowdown[PDP_GPU]);
        json_close(&j);
        for (size_t i = 0; i < k->nco; i++) {
            json_obj(&j, NULL);
            json_str(&j, "name", k->co[i].name);
            json_dbl(&j, "weight", k->co[i].weight);
            json_dbl(&j, "slowdown_cpu", k->co[i].slowdown[PDP_CPU]);
            json_dbl(&j, "slowdown_gpu", k->co[i].slowdown[PDP_GPU]);
            json_close(&j);
        }
        json_close(&j);
        json_obj(&j, "fairness");
        json_dbl(&j, "cpu", out.fairness[PDP_CPU]);
        json_dbl(&j, "gpu", out.fairness[PDP_GPU]);
        json_close(&j);
        json_obj(&j, "weighted_fairness");
        json_dbl(&j, "cpu", out.wfairness[PDP_CPU]);
        json_dbl(&j, "gpu", out.wfairness[PDP_GPU]);
        json_close(&j);
        json_obj(&j, "decision");
        json_str(&j, "alone", target_or_none(out.alone));
        json_str(&j, "coloc_fairness", target_or_none(out.coloc));
        json_str(&j, "coloc_weighted_fairness", target_or_none(out.coloc_weighted));
        json_str(&j, "coloc", target_or_none(decision));
        json_bool(&j, "weighted", out.weighted);
        json_close(&j);
        json_end(&j);
    } else {
        printf("slowdown (co-located / alone%s; the kernel's from the models, the co-runners' %s)\n",
               k->ref == PDP_REF_BEST ? " on the faster target" : ", per target",
               k->napp ? "from the Bubble-up table" : "given");
        if (k->napp)
            printf("  table %s: kernel on the CPU: %g cores, %.4g bytes per core; on the GPU: %.4g transfer bytes\n",
                   k->bubble, k->cpu_cores, k->x.v[PDP_F_BUFFER_BYTES] / k->cpu_cores, k->transfer_bytes);
        printf("  %-20s %8s %14s %14s\n", "application", "weight", "kernel on cpu", "kernel on gpu");
        char a[32], b[32];
        printf("  %-20s %8.3g %14s %14s\n", "kernel", k->weight, num(a, sizeof a, out.kernel_slowdown[PDP_CPU]),
               num(b, sizeof b, out.kernel_slowdown[PDP_GPU]));
        for (size_t i = 0; i < k->nco; i++)
            printf("  %-20s %8.3g %14s %14s\n", k->co[i].name, k->co[i].weight, num(a, sizeof a, k->co[i].slowdown[PDP_CPU]),
                   num(b, sizeof b, k->co[i].slowdown[PDP_GPU]));
        printf("  %-29s %14s %14s\n", "fairness (min/max)", num(a, sizeof a, out.fairness[PDP_CPU]),
               num(b, sizeof b, out.fairness[PDP_GPU]));
        printf("  %-29s %14s %14s\n", "weighted fairness", num(a, sizeof a, out.wfairness[PDP_CPU]),
               num(b, sizeof b, out.wfairness[PDP_GPU]));
        printf("decision alone:      %s (least predicted time)\n", target_or_none(out.alone));
        printf("decision co-located: %s (highest %sfairness%s)\n", target_or_none(decision),
               out.weighted ? "weighted " : "", k->nco ? "" : "; no co-runner given, ties go to the lower co-located time");
        if (isnan(out.kernel_slowdown[PDP_CPU]) || isnan(out.kernel_slowdown[PDP_GPU]))
            printf("note: a predicted time that is not positive gives no slowdown; that target is not chosen\n");
    }
    free(p.ms);
    return EXIT_OK;
}

static int cmd_pdp_train(int argc, char **argv)
{
    const char *csv = NULL, *out = NULL, *name = NULL;
    struct pdp_train_opts o;
    pdp_train_opts_default(&o);
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            puts(pdp_help);
            return EXIT_OK;
        }
        bool val = strcmp(a, "-o") == 0 || strcmp(a, "--folds") == 0 || strcmp(a, "--seed") == 0 ||
                   strcmp(a, "--min-keep") == 0 || strcmp(a, "--min-gain") == 0 || strcmp(a, "--name") == 0;
        if (val && i + 1 >= argc) {
            fprintf(stderr, "warpsim pdp train: option %s needs a value\n", a);
            return EXIT_USAGE;
        }
        if (strcmp(a, "-o") == 0) {
            out = argv[++i];
        } else if (strcmp(a, "--name") == 0) {
            name = argv[++i];
        } else if (strcmp(a, "--folds") == 0) {
            uint64_t v;
            if (cli_parse_u64("pdp train", a, argv[++i], &v))
                return EXIT_USAGE;
            if (v < 2 || v > 100000) {
                fprintf(stderr, "warpsim pdp train: --folds must be 2..100000, got %s\n", argv[i]);
                return EXIT_USAGE;
            }
            o.folds = (unsigned)v;
        } else if (strcmp(a, "--seed") == 0) {
            if (cli_parse_u64("pdp train", a, argv[++i], &o.seed))
                return EXIT_USAGE;
        } else if (strcmp(a, "--min-keep") == 0) {
            char *end;
            double v = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !(v > 0 && v <= 1)) {
                fprintf(stderr, "warpsim pdp train: --min-keep expects a fraction in (0, 1], got '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
            o.min_keep = v;
        } else if (strcmp(a, "--min-gain") == 0) {
            char *end;
            double v = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !(v >= 0 && v < 1)) {
                fprintf(stderr, "warpsim pdp train: --min-gain expects a number in [0, 1), got '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
            o.min_gain = v;
        } else if (strcmp(a, "--no-select") == 0) {
            o.select = false;
        } else if (strcmp(a, "--intercept") == 0) {
            o.intercept = true;
        } else if (strcmp(a, "--relative") == 0) {
            o.relative = true;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim pdp train: unknown option '%s' (see warpsim pdp --help)\n", a);
            return EXIT_USAGE;
        } else if (csv) {
            fprintf(stderr, "warpsim pdp train: one CSV file at a time\n");
            return EXIT_USAGE;
        } else {
            csv = a;
        }
    }
    if (!csv || !out) {
        fprintf(stderr, "warpsim pdp train: usage: warpsim pdp train DATA.csv -o MODEL (%s missing)\n",
                !csv ? "DATA.csv" : "-o MODEL");
        return EXIT_USAGE;
    }
    struct pdp_dataset d;
    pdp_dataset_init(&d);
    char msg[1024];
    if (pdp_dataset_load_csv(&d, csv, msg, sizeof msg)) {
        fprintf(stderr, "%s\n", msg);
        pdp_dataset_free(&d);
        return EXIT_USAGE;
    }
    if (d.ignored[0] && !json)
        fprintf(stderr, "warpsim pdp train: %s: ignored column(s): %s\n", csv, d.ignored);
    struct pdp_modelset *ms = malloc(sizeof *ms);
    struct pdp_train_report *rep = malloc(sizeof *rep);
    int rc = EXIT_OK;
    if (!ms || !rep) {
        rc = EXIT_SIM_ERROR;
        goto out;
    }
    char nb[128];
    if (!name) {   /* the output file's base name */
        const char *b = strrchr(out, '/');
        b = b ? b + 1 : out;
        snprintf(nb, sizeof nb, "%s", b);
        char *dot = strrchr(nb, '.');
        if (dot && dot != nb)
            *dot = '\0';
        name = nb;
    }
    if (pdp_train(&d, &o, name, ms, rep, msg, sizeof msg)) {
        fprintf(stderr, "%s\n", msg);
        rc = EXIT_USAGE;
        goto out;
    }
    FILE *f = fopen(out, "w");
    if (!f || pdp_modelset_write(ms, f) != 0 || fclose(f) != 0) {
        fprintf(stderr, "warpsim pdp train: cannot write %s: %s\n", out, strerror(errno));
        rc = EXIT_USAGE;
        goto out;
    }
    if (json) {
        struct json j;
        json_begin(&j, stdout);
        json_str(&j, "data", csv);
        json_str(&j, "model_file", out);
        json_u64(&j, "rows", d.n);
        json_u64(&j, "folds", o.folds);
        json_u64(&j, "seed", o.seed);
        json_bool(&j, "select", o.select);
        json_obj(&j, "models");
        for (int t = 0; t < PDP_NTARGETS; t++)
            for (int s = 0; s < PDP_NSCENS; s++) {
                if (!rep->trained[t][s])
                    continue;
                char key[32];
                snprintf(key, sizeof key, "%s_%s", pdp_target_name((enum pdp_target)t),
                         pdp_scen_name((enum pdp_scen)s));
                const struct pdp_model *m = &ms->m[t][s];
                json_obj(&j, key);
                json_u64(&j, "terms", m->nterms);
                json_u64(&j, "rank", m->st.rank);
                json_u64(&j, "rows", m->st.rows);
                json_u64(&j, "kernels", rep->groups[t][s]);
                json_u64(&j, "kernels_kept", rep->groups_kept[t][s]);
                json_str(&j, "dropped", rep->dropped[t][s]);
                json_dbl(&j, "r2", m->st.r2);
                json_dbl(&j, "cv_r2_all", rep->cv_all[t][s].r2);
                json_dbl(&j, "cv_r2", rep->cv_kept[t][s].r2);
                json_dbl(&j, "cv_mape", rep->cv_kept[t][s].mape);
                json_dbl(&j, "cv_within20", rep->cv_kept[t][s].within20);
                json_u64(&j, "cv_folds", rep->cv_kept[t][s].folds);
                json_close(&j);
            }
        json_close(&j);
        json_end(&j);
    } else {
        printf("trained %s from %s (%zu rows, %zu kernels; %u-fold cross validation, seed %llu, selection %s)\n",
               out, csv, d.n, d.ngroups, o.folds, (unsigned long long)o.seed, o.select ? "on" : "off");
        printf("  %-10s %5s %5s %6s %9s %9s %9s %8s %8s %9s\n", "model", "terms", "rank", "rows", "kernels",
               "cvR2_all", "cvR2", "cvMAPE", "within20", "R2_fit");
        for (int t = 0; t < PDP_NTARGETS; t++)
            for (int s = 0; s < PDP_NSCENS; s++) {
                if (!rep->trained[t][s])
                    continue;
                const struct pdp_model *m = &ms->m[t][s];
                char key[32], kern[32];
                snprintf(key, sizeof key, "%s %s", pdp_target_name((enum pdp_target)t),
                         pdp_scen_name((enum pdp_scen)s));
                snprintf(kern, sizeof kern, "%zu/%zu", rep->groups_kept[t][s], rep->groups[t][s]);
                printf("  %-10s %5u %5u %6zu %9s %9.4f %9.4f %7.1f%% %7.1f%% %9.4f\n", key, m->nterms, m->st.rank,
                       m->st.rows, kern, rep->cv_all[t][s].r2, rep->cv_kept[t][s].r2,
                       100 * rep->cv_kept[t][s].mape, 100 * rep->cv_kept[t][s].within20, m->st.r2);
                if (rep->dropped[t][s][0])
                    printf("    dropped: %s\n", rep->dropped[t][s]);
            }
    }
out:
    free(ms);
    free(rep);
    pdp_dataset_free(&d);
    return rc;
}

int cmd_pdp(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "%s\n", pdp_help);
        return EXIT_USAGE;
    }
    if (cli_is_help(argv[1])) {
        puts(pdp_help);
        return EXIT_OK;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "features") == 0)
        return cmd_pdp_features(argc - 1, argv + 1);
    if (strcmp(sub, "train") == 0)
        return cmd_pdp_train(argc - 1, argv + 1);
    if (strcmp(sub, "predict") == 0)
        return cmd_pdp_predict(argc - 1, argv + 1);
    if (strcmp(sub, "schedule") == 0)
        return cmd_pdp_schedule(argc - 1, argv + 1);
    if (strcmp(sub, "collect") == 0)
        return cmd_pdp_collect(argc - 1, argv + 1);
    fprintf(stderr, "warpsim pdp: unknown subcommand '%s' (collect, features, train, predict, schedule; see warpsim pdp --help)\n",
            sub);
    return EXIT_USAGE;
}
