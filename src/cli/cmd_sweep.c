/* cmd_sweep.c - `warpsim sweep`: a grid of workloads x configs x policies x
   parameter values, run as parallel `warpsim run` children (study_sweep.c). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "study.h"

static void sweep_usage(FILE *f)
{
    fputs("usage: warpsim sweep --workloads A,B [options]\n"
          "\n"
          "Run a grid of timing runs (workloads x configs x warp schedulers x CTA schedulers x\n"
          "option values) as parallel `warpsim run` processes.  Each run writes DIR/NAME.json (+ .config,\n"
          ".timeseries.csv, .log); NAME is derived from the run's parameters, so running the same sweep\n"
          "again skips the runs whose result is complete (an interrupted sweep resumes).  At the end\n"
          "DIR/SWEEP.csv holds one row per run with its parameters and key statistics.\n"
          "A run missing in DIR but complete under the same NAME beside it, in DIR/../study-*/runs/ or\n"
          "DIR/../sweep-*/ (another study or sweep made it), is copied from there instead of being run\n"
          "(state `reused`; a result of an older simulator build is taken like a cached one).\n"
          "\n"
          "grid (comma-separated lists; every combination is one run):\n"
          "  --workloads A,B          bundled workloads (required; see warpsim list)\n"
          "  --configs X,Y            configs: built-in presets or files (default: the built-in gtx480)\n"
          "  --warp-sched A,B         warp schedulers (default: the config's)\n"
          "  --cta-sched C,D          CTA schedulers (default: the config's)\n"
          "  --set OPTION=V1,V2,...   one more grid dimension: the option takes each value in turn\n"
          "                           (GPGPU-Sim names or dotted policy parameters, e.g.\n"
          "                           --set cta_sched.static.n=1,2,3,4); repeatable\n"
          "  --fixed OPTION=VALUE     set an option for every run, value taken verbatim (for values\n"
          "                           with commas, e.g. cache geometries); repeatable\n"
          "  --size tiny|small|paper  input size (default: small)\n"
          "  --seed N                 input seed (default: 1)\n"
          "  --warps                  also write each run's per-warp records (NAME.warps.csv)\n"
          "\n"
          "execution:\n"
          "  -j, --jobs N             runs at a time (default: the number of CPUs)\n"
          "  --name SWEEP             name of the sweep (default: default)\n"
          "  -o, --out DIR            output directory (default: results/sweep-SWEEP)\n"
          "  --list                   print the runs and whether each is done, reusable or to run;\n"
          "                           run and copy nothing\n"
          "  --force                  run every run again, even those with a complete result (here or\n"
          "                           in a sibling directory)\n"
          "  --no-reuse               never copy runs from sibling directories (run them here)\n"
          "  --retry-failed           run again the runs whose result is not a verified success\n"
          "  --emit parallel|slurm FILE\n"
          "                           write the runs still to do as a job list for GNU parallel\n"
          "                           (`parallel -j N < FILE`) or as a Slurm job-array script\n"
          "                           (`sbatch FILE`) instead of running them (reusable runs are\n"
          "                           copied first, not written); the same sweep command\n"
          "                           afterwards collects the results into the CSV\n"
          "  -q, --quiet              no progress output\n"
          "\n"
          "exit status: 0 every run verified, 1 some run failed or did not verify (see its .log),\n"
          "2 usage error\n",
          f);
}

/* split a comma list into l's strings */
static size_t split_list(struct sw_list *l, const char *s, const char **out, size_t max)
{
    size_t n = 0;
    const char *p = s;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len && n < max) {
            char tmp[1024];
            snprintf(tmp, sizeof tmp, "%.*s", (int)len, p);
            out[n++] = sw_str(l, tmp);
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return n;
}

#define SWEEP_MAX_AXIS 256

struct sweep_dim {
    const char *name;
    const char *vals[SWEEP_MAX_AXIS];
    size_t n;
};

int cmd_sweep(int argc, char **argv)
{
    struct sw_list l;
    memset(&l, 0, sizeof l);
    const char *wls[SWEEP_MAX_AXIS], *cfgs[SWEEP_MAX_AXIS], *wss[SWEEP_MAX_AXIS], *css[SWEEP_MAX_AXIS];
    size_t nwl = 0, ncfg = 0, nws = 0, ncs = 0;
    struct sweep_dim *dims = calloc(SW_MAX_SETS, sizeof *dims);
    size_t ndims = 0;
    const char *size = "small", *name = "default", *out = NULL, *emit_fmt = NULL, *emit_path = NULL;
    uint64_t seed = 0, jobs = 0;
    int warps = 0, list_only = 0, force = 0, retry = 0, quiet = 0, no_reuse = 0, rc = EXIT_USAGE;
    if (!dims)
        return EXIT_SIM_ERROR;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(a)) {
            sweep_usage(stdout);
            rc = EXIT_OK;
            goto out;
        } else if (strcmp(a, "--warps") == 0) {
            warps = 1;
        } else if (strcmp(a, "--list") == 0) {
            list_only = 1;
        } else if (strcmp(a, "--force") == 0) {
            force = 1;
        } else if (strcmp(a, "--retry-failed") == 0) {
            retry = 1;
        } else if (strcmp(a, "--no-reuse") == 0) {
            no_reuse = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--emit") == 0) {
            if (!v || i + 2 >= argc) {
                fprintf(stderr, "warpsim sweep: --emit needs a format (parallel or slurm) and a file\n");
                goto out;
            }
            emit_fmt = v;
            emit_path = argv[i + 2];
            i += 2;
            if (strcmp(emit_fmt, "parallel") != 0 && strcmp(emit_fmt, "slurm") != 0) {
                fprintf(stderr, "warpsim sweep: --emit takes parallel or slurm, got '%s'\n", emit_fmt);
                goto out;
            }
        } else if (strcmp(a, "--workloads") == 0 || strcmp(a, "--configs") == 0 || strcmp(a, "--warp-sched") == 0 ||
                   strcmp(a, "--cta-sched") == 0 || strcmp(a, "--set") == 0 || strcmp(a, "--fixed") == 0 ||
                   strcmp(a, "--size") == 0 || strcmp(a, "--seed") == 0 || strcmp(a, "-j") == 0 ||
                   strcmp(a, "--jobs") == 0 || strcmp(a, "--name") == 0 || strcmp(a, "-o") == 0 ||
                   strcmp(a, "--out") == 0) {
            if (!v) {
                fprintf(stderr, "warpsim sweep: option %s needs a value\n", a);
                goto out;
            }
            i++;
            if (strcmp(a, "--workloads") == 0) {
                nwl += split_list(&l, v, wls + nwl, SWEEP_MAX_AXIS - nwl);
            } else if (strcmp(a, "--configs") == 0) {
                ncfg += split_list(&l, v, cfgs + ncfg, SWEEP_MAX_AXIS - ncfg);
            } else if (strcmp(a, "--warp-sched") == 0) {
                nws += split_list(&l, v, wss + nws, SWEEP_MAX_AXIS - nws);
            } else if (strcmp(a, "--cta-sched") == 0) {
                ncs += split_list(&l, v, css + ncs, SWEEP_MAX_AXIS - ncs);
            } else if (strcmp(a, "--set") == 0 || strcmp(a, "--fixed") == 0) {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v || !eq[1]) {
                    fprintf(stderr, "warpsim sweep: %s expects OPTION=VALUE%s, got '%s'\n", a,
                            a[2] == 's' ? "[,VALUE...]" : "", v);
                    goto out;
                }
                if (ndims == SW_MAX_SETS) {
                    fprintf(stderr, "warpsim sweep: more than %d --set/--fixed options\n", SW_MAX_SETS);
                    goto out;
                }
                char opt[256];
                snprintf(opt, sizeof opt, "%.*s", (int)(eq - v), v);
                struct sweep_dim *d = &dims[ndims++];
                d->name = sw_str(&l, opt);
                if (a[2] == 'f') {
                    d->vals[0] = sw_str(&l, eq + 1);
                    d->n = 1;
                } else {
                    d->n = split_list(&l, eq + 1, d->vals, SWEEP_MAX_AXIS);
                }
                if (d->n == 0) {
                    fprintf(stderr, "warpsim sweep: %s %s has no values\n", a, v);
                    goto out;
                }
            } else if (strcmp(a, "--size") == 0) {
                enum wl_size sz;
                if (wl_size_parse(v, &sz) != 0) {
                    fprintf(stderr, "warpsim sweep: --size must be tiny, small or paper, got '%s'\n", v);
                    goto out;
                }
                size = v;
            } else if (strcmp(a, "--seed") == 0) {
                if (cli_parse_u64("sweep", a, v, &seed) != 0)
                    goto out;
            } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
                if (cli_parse_u64("sweep", a, v, &jobs) != 0)
                    goto out;
                if (jobs == 0 || jobs > 256) {
                    fprintf(stderr, "warpsim sweep: %s must be 1..256\n", a);
                    goto out;
                }
            } else if (strcmp(a, "--name") == 0) {
                for (const char *p = v; *p; p++)
                    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p)) {
                        fprintf(stderr, "warpsim sweep: --name may use letters, digits, '.', '_', '-', got '%s'\n",
                                v);
                        goto out;
                    }
                name = v;
            } else {
                out = v;
            }
        } else if (a[0] == '-') {
            cli_unknown_option("sweep", a, sweep_usage);
            goto out;
        } else {
            fprintf(stderr, "warpsim sweep: unknown argument '%s' (see warpsim sweep --help)\n", a);
            goto out;
        }
    }
    if (nwl == 0) {
        fprintf(stderr, "warpsim sweep: which workloads? (--workloads A,B; see warpsim list)\n");
        goto out;
    }
    for (size_t i = 0; i < nwl; i++)
        if (!wl_find(wls[i])) {
            fprintf(stderr, "warpsim sweep: unknown workload '%s'; bundled workloads:", wls[i]);
            for (size_t k = 0; k < wl_count(); k++)
                fprintf(stderr, " %s", wl_get(k)->name);
            fputc('\n', stderr);
            goto out;
        }
    /* policy names are checked here, so a typo fails the sweep at once rather than every run */
    for (size_t i = 0; i < nws + ncs; i++) {
        int warp = i < nws;
        const char *pn = warp ? wss[i] : css[i - nws];
        char why[512];
        st_policy_check(NULL, warp ? "warp_sched" : "cta_sched", pn, NULL, why, sizeof why);
        if (why[0]) {
            fprintf(stderr, "warpsim sweep: %s\n", why);
            goto out;
        }
    }
    if (jobs == 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = nc > 0 ? (uint64_t)nc : 1;
    }
    char dir[1024];
    if (out)
        snprintf(dir, sizeof dir, "%s", out);
    else
        snprintf(dir, sizeof dir, "results/sweep-%s", name);

    /* the grid: workloads outermost, then configs, warp and CTA schedulers, then the --set dimensions */
    if (ncfg == 0)
        cfgs[ncfg++] = NULL;
    if (nws == 0)
        wss[nws++] = NULL;
    if (ncs == 0)
        css[ncs++] = NULL;
    size_t total = nwl * ncfg * nws * ncs;   /* each factor <= 256 */
    for (size_t d = 0; d < ndims && total <= 100000; d++)
        total *= dims[d].n;
    if (total > 100000) {
        fprintf(stderr, "warpsim sweep: the grid has more than 100000 runs, more than this tool will plan\n");
        goto out;
    }
    for (size_t k = 0; k < total; k++) {
        size_t rest = k;
        struct sw_run r;
        memset(&r, 0, sizeof r);
        for (size_t d = ndims; d-- > 0;) {   /* last dimension varies fastest */
            r.set_name[d] = dims[d].name;
            r.set_value[d] = dims[d].vals[rest % dims[d].n];
            rest /= dims[d].n;
        }
        r.nset = (unsigned)ndims;
        r.cta_sched = css[rest % ncs];
        rest /= ncs;
        r.warp_sched = wss[rest % nws];
        rest /= nws;
        r.config = cfgs[rest % ncfg];
        rest /= ncfg;
        r.workload = wls[rest];
        r.size = size;
        r.seed = seed;
        r.warps = warps;
        if (sw_add(&l, &r) < 0) {
            rc = EXIT_SIM_ERROR;
            goto out;
        }
    }

    struct sw_exec x = {.dir = dir, .jobs = (unsigned)jobs, .quiet = quiet, .label = "sweep"};
    for (size_t i = 0; i < l.n; i++) {
        struct sw_run *r = &l.r[i];
        if (!force)
            sw_probe(&x, r);
        if (retry && r->state == SW_CACHED &&
            !(r->m.verified && strcmp(r->m.status, "WS_SUCCESS") == 0))
            r->state = SW_PENDING;
    }
    /* runs another study or sweep beside this one made: copied (taken as they are), except for --list,
       which only names them; --retry-failed takes only verified successes */
    int reuse_flags = (list_only ? 0 : SW_REUSE_COPY) | (retry ? SW_REUSE_GOOD : 0);
    size_t nreused = force || no_reuse ? 0 : sw_reuse(&x, dir, &l, 0, l.n, reuse_flags);
    char from[2048];
    sw_reuse_sources(&l, 0, l.n, from, sizeof from);
    if (list_only) {
        size_t ndone = 0;
        for (size_t i = 0; i < l.n; i++) {
            const struct sw_run *r = &l.r[i];
            printf("%-8s %s\n", r->state == SW_CACHED ? "done" : r->reused_from ? "reuse" : "todo", r->name);
            ndone += r->state == SW_CACHED;
        }
        if (nreused)
            printf("%zu runs, %zu done, %zu to reuse from %s, %zu to run; results in %s/\n", l.n, ndone, nreused,
                   from, l.n - ndone - nreused, dir);
        else
            printf("%zu runs, %zu done, %zu to run; results in %s/\n", l.n, ndone, l.n - ndone, dir);
        rc = EXIT_OK;
        goto out;
    }
    if (emit_fmt) {
        char exe[PATH_MAX];
        ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (el <= 0) {
            fprintf(stderr, "warpsim sweep: cannot find its own binary: %s\n", strerror(errno));
            rc = EXIT_SIM_ERROR;
            goto out;
        }
        exe[el] = '\0';
        int k = sw_emit(&x, &l, emit_fmt, emit_path, exe);
        if (k < 0) {
            rc = EXIT_SIM_ERROR;
            goto out;
        }
        if (nreused)
            printf("%zu runs reused from %s (copied into %s/)\n", nreused, from, dir);
        printf("%d of %zu runs written to %s (%s); results will go to %s/\n", k, l.n, emit_path, emit_fmt, dir);
        if (k)
            printf("afterwards, the same warpsim sweep command (without --emit) writes the combined CSV\n");
        rc = EXIT_OK;
        goto out;
    }
    int bad = sw_execute(&x, &l, 0, l.n);
    if (bad < 0) {
        rc = EXIT_SIM_ERROR;
        goto out;
    }
    char csv[1100];
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, name);
    if (sw_write_csv(&x, &l, csv) != 0) {
        rc = EXIT_SIM_ERROR;
        goto out;
    }
    if (nreused)
        printf("%zu runs reused from %s (copied into %s/; --no-reuse runs them here instead)\n", nreused, from,
               dir);
    printf("%zu runs (%d without a verified result); combined results: %s\n", l.n, bad, csv);
    rc = bad ? EXIT_VERIFY_FAILED : EXIT_OK;
out:
    free(dims);
    sw_list_free(&l);
    return rc;
}
