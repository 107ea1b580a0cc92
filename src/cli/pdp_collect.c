/*
 * pdp_collect.c - `warpsim pdp collect`: HeteroPDP's training campaign in simulation (seed 000 sec.
 * 6.2-6.4 on the Table 6.1 machine; docs/heteropdp.md, "The training campaign").
 *
 * For every kernel (a bundled workload at an input size) and every set of co-runners:
 *   CPU target  the kernel's CPU instruction stream (cpu/kernel_trace.h: work-groups over the cores,
 *               SIMD batches of 8 work-items) runs on the host chip (configs/pdp-host.config: 4 cores
 *               at 3.4 GHz, 8 MB LLC, DDR3-1600) on all 4 cores alone, on 4 - n cores beside n
 *               co-runners (synthetic profiles, cpu/tracegen.h) on the other cores;
 *   GPU target  transfer in + kernel + transfer out: the kernel on the discrete GPU
 *               (configs/pdp-s9150.config, a child `warpsim run` through the sweep machinery), the
 *               transfers over PCIe 3.0 x16 (sys/pcie.h) of the global lines the kernel reads (in)
 *               and writes (out); beside co-runners the transfers slow down as the DMA stream on the
 *               host chip slows down (its rate beside them over its rate alone);
 *   features    000 Table 6.4: threads (work-items), buffer bytes (device memory allocated at the
 *               launch), the static counts of the PTX, the co-runners' LLC misses per millisecond and
 *               host DRAM utilisation measured alone;
 *   co-runners  their slowdowns (IPC alone / IPC beside the kernel) with the kernel on each target;
 *   table       the Bubble-up style table (pdp/bubble.h): each co-runner against contention
 *               generators on 1-3 cores at growing footprints, and against the DMA stream.
 *
 * Every simulation is a job whose result is a small JSON file (DIR/jobs/NAME.json, written whole and
 * renamed into place): a rerun skips the jobs whose file is complete, like the sweep machinery's runs
 * (DIR/runs/, the GPU runs, are the sweep machinery's own).  Jobs run N at a time in child processes.
 */
#include "pdp_collect.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "core/config.h"
#include "core/stats.h"
#include "cpu/kernel_trace.h"
#include "cpu/trace.h"
#include "cpu/tracegen.h"
#include "fe/ptx/ptx_mem.h"
#include "host/ws_internal.h"
#include "core/json.h"
#include "study.h"
#include "sys/gpu.h"
#include "sys/gpu_cpu.h"
#include "sys/gpu_config.h"
#include "sys/pcie.h"

#define PC_HOST_CONFIG "pdp-host"
#define PC_GPU_CONFIG "pdp-s9150"
#define PC_SIMD 8
#define PC_DMA_PACE 5          /* branches per line of the DMA stream (docs/heteropdp.md: ~12 GB/s alone) */
#define PC_MAX_SETS 16
#define PC_MAX_KERNELS 64
#define PC_MAX_GS 8            /* grid scales per kernel */

static const char collect_help[] =
    "usage: warpsim pdp collect [--size tiny|small] [--out DIR] [--jobs N] [--kernels A,B,...]\n"
    "                           [--coruns SET,SET,...] [--grid-scales F,F,...] [--bubble-apps A,B,...]\n"
    "                           [--quota N] [--quiet]\n"
    "\n"
    "HeteroPDP's training campaign in simulation (docs/heteropdp.md): every kernel (bundled workload at\n"
    "the size) on the host CPU (configs/pdp-host.config: 4 cores at 3.4 GHz, 8 MB LLC, DDR3-1600) and on\n"
    "the discrete GPU behind PCIe 3.0 x16 (configs/pdp-s9150.config), alone and beside each set of\n"
    "co-running CPU applications (synthetic profiles: warpsim trace gen --list), with the features of\n"
    "000 Table 6.4 and the co-runners' slowdowns; and each co-runner's Bubble-up slowdown table.\n"
    "Writes DIR/pdp.csv (the columns `pdp train` reads, and more) and DIR/bubble.csv (for `pdp\n"
    "schedule --bubble`).  Jobs run N at a time; a rerun skips the finished ones.\n"
    "\n"
    "  --size S          tiny (default; a few minutes) or small\n"
    "  --out DIR         results directory (default results/pdp-collect-SIZE)\n"
    "  --jobs N          simulations at a time (default: the online CPUs)\n"
    "  --kernels LIST    workloads (default: the size's list)\n"
    "  --coruns LIST     co-runner sets, a set being APP or APP+APP (default tiny: mcf,perlbench;\n"
    "                    small: the seed's six SPEC applications and two pairs)\n"
    "  --grid-scales L   thread counts apart from the input: each workload whose kernels loop with grid\n"
    "                    strides (warpsim run --grid-scale) also runs with its CTA count x each factor\n"
    "                    (default 1,0.25; 1 = the workload's own grid, the only one of the others)\n"
    "  --bubble-apps L   applications of the slowdown table (default: every co-runner)\n"
    "  --quota N         instructions of the co-runners' alone, DMA and table runs (default tiny\n"
    "                    150000, small 400000; smaller is faster and noisier)\n"
    "  --quiet           no progress lines\n";

static const char *const tiny_kernels = "vecadd,mm,histogram,blackscholes,spmv,transpose";
static const char *const small_kernels =
    "vecadd,mm,histogram,blackscholes,spmv,transpose,kmeans,hotspot,reduce,conv,cp,scp,srad,pathfinder";
static const char *const tiny_coruns = "mcf,perlbench";
static const char *const small_coruns = "mcf,lbm,bzip2,calculix,perlbench,xalan,mcf+perlbench,lbm+bzip2";

/* ---- small helpers --------------------------------------------------------------------------- */

/* snprintf that truncates silently: paths and names here are bounded by their buffers on purpose */
static void pc_fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pc_fmt(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

static int mkdir_p(const char *path)
{
    return sw_mkdirs(path);
}

static size_t split(const char *list, char out[][64], size_t max)
{
    size_t n = 0;
    const char *s = list;
    while (s && *s && n < max) {
        while (*s == ',' || *s == ' ')
            s++;
        if (!*s)
            break;
        size_t l = strcspn(s, ",");
        pc_fmt(out[n], 64, "%.*s", (int)(l < 63 ? l : 63), s);
        n++;
        s += l;
    }
    return n;
}

/* a set "mcf+perlbench" into its applications */
static unsigned set_apps(const char *set, char app[PC_MAX_CO][32])
{
    unsigned n = 0;
    const char *s = set;
    while (*s && n < PC_MAX_CO) {
        size_t l = strcspn(s, "+");
        pc_fmt(app[n++], 32, "%.*s", (int)(l < 31 ? l : 31), s);
        s += l;
        if (*s == '+')
            s++;
    }
    return n;
}

static double jnum(const char *text, const char *key)
{
    double v;
    return text && jr_number(text, key, &v) == 0 ? v : NAN;
}

static char *job_text(const char *dir, const char *name)
{
    char p[1200];
    pc_fmt(p, sizeof p, "%s/jobs/%s.json", dir, name);
    char *t = sw_read_file(p, NULL);
    if (t && (!jr_valid(t) || !jr_lookup(t, "status"))) {
        free(t);
        t = NULL;
    }
    return t;
}

/* ---- distinct global lines a kernel reads and writes (its PCIe transfers) ----------------------- */

struct lset {
    uint64_t *v;
    size_t cap, n;
};

static int lset_add(struct lset *s, uint64_t x)
{
    x++;   /* 0 marks an empty slot */
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        uint64_t *nv = calloc(cap, sizeof *nv);
        if (!nv)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->v[i]) {
                size_t h = (size_t)((s->v[i] * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
                while (nv[h])
                    h = (h + 1) & (cap - 1);
                nv[h] = s->v[i];
            }
        free(s->v);
        s->v = nv;
        s->cap = cap;
    }
    size_t h = (size_t)((x * 0x9e3779b97f4a7c15ull) >> 20) & (s->cap - 1);
    while (s->v[h]) {
        if (s->v[h] == x)
            return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->v[h] = x;
    s->n++;
    return 0;
}

struct tr_sink {
    struct kt_sink inner;
    struct lset rd, wr;
    int oom;
};

static int tr_emit(void *user, unsigned core, const struct trace_rec *r, enum kt_class cls)
{
    struct tr_sink *t = user;
    for (unsigned k = 0; k < TRACE_NUM_SRC_MEM; k++)
        if (r->src_mem[k] >= PTX_GLOBAL_BASE && lset_add(&t->rd, r->src_mem[k] / KT_LINE))
            t->oom = 1;
    for (unsigned k = 0; k < TRACE_NUM_DST_MEM; k++)
        if (r->dst_mem[k] >= PTX_GLOBAL_BASE && lset_add(&t->wr, r->dst_mem[k] / KT_LINE))
            t->oom = 1;
    return t->inner.emit(t->inner.user, core, r, cls);
}

/* ---- jobs --------------------------------------------------------------------------------------- */

enum job_kind { JOB_TRACE = 0, JOB_HOST };

struct job {
    enum job_kind kind;
    char name[160];
    /* trace: the workload, its size, its grid scale and the core count */
    char wl[48], size[8];
    double grid_scale;
    unsigned cores;
    /* host: what each CPU core of the host chip runs ("-": idle) and the quota */
    char app[PC_HOST_CORES + 1][512];
    uint64_t quota;
};

struct jobs {
    struct job *j;
    size_t n, cap;
};

static struct job *job_add(struct jobs *l, enum job_kind kind, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->j[i].name, name) == 0)
            return NULL;   /* already listed */
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        struct job *nj = realloc(l->j, cap * sizeof *nj);
        if (!nj) {
            fprintf(stderr, "warpsim pdp collect: out of host memory\n");
            exit(EXIT_SIM_ERROR);
        }
        l->j = nj;
        l->cap = cap;
    }
    struct job *j = &l->j[l->n++];
    memset(j, 0, sizeof *j);
    j->kind = kind;
    pc_fmt(j->name, sizeof j->name, "%s", name);
    for (unsigned i = 0; i <= PC_HOST_CORES; i++)
        pc_fmt(j->app[i], sizeof j->app[i], "-");
    return j;
}

/* The kernel's CPU traces: DIR/traces/NAME/core<i>.trace.gz, and its meta data as the job's JSON. */
static int run_trace_job(const struct pc_opts *o, const struct job *jb, FILE *out, char *err, size_t en)
{
    const struct workload *wl = wl_find(jb->wl);
    enum wl_size size;
    if (!wl || wl_size_parse(jb->size, &size) != 0) {
        pc_fmt(err, en, "unknown workload '%s' or size '%s'", jb->wl, jb->size);
        return -1;
    }
    char dir[1200];
    pc_fmt(dir, sizeof dir, "%s/traces/%s", o->dir, jb->name);
    if (mkdir_p(dir) != 0) {
        pc_fmt(err, en, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    struct kt_files *files = kt_files_open(dir, jb->cores, 1, err, en);
    if (!files)
        return -1;
    struct tr_sink ts;
    memset(&ts, 0, sizeof ts);
    ts.inner = kt_files_sink(files);
    struct kt_sink sink = {tr_emit, &ts};
    struct kt_tracer t;
    if (kt_tracer_init(&t, PC_SIMD, jb->cores, &sink, err, en) != 0) {
        kt_files_close(files, NULL, 0);
        return -1;
    }
    struct wl_opts wo = {0};
    wo.size = size;
    wo.seed = 1;
    wo.log = stderr;
    wo.grid_scale = jb->grid_scale;
    struct wl_result res;
    int rc = 0;
    if (cli_traced_workload_run(wl, &wo, &t, &res, err, en) != WS_SUCCESS) {
        rc = -1;
    } else if (!res.verified) {
        pc_fmt(err, en, "%s: the output did not verify", wl->name);
        rc = -1;
    } else if (ts.oom) {
        pc_fmt(err, en, "out of host memory");
        rc = -1;
    }
    if (kt_files_close(files, rc ? NULL : err, en) != 0)
        rc = -1;
    if (rc == 0) {
        struct json j;
        json_begin(&j, out);
        json_str(&j, "status", "ok");
        json_str(&j, "workload", wl->name);
        json_str(&j, "size", jb->size);
        if (jb->grid_scale > 0 && jb->grid_scale != 1.0)
            json_dbl(&j, "grid_scale", jb->grid_scale);
        json_u64(&j, "cores", jb->cores);
        json_u64(&j, "simd", PC_SIMD);
        json_u64(&j, "threads", t.st.threads);
        json_u64(&j, "mem_bytes", t.st.mem_bytes);
        json_u64(&j, "in_bytes", (uint64_t)(ts.rd.n * KT_LINE));
        json_u64(&j, "out_bytes", (uint64_t)(ts.wr.n * KT_LINE));
        uint64_t mx = 0, tot = 0;
        for (unsigned i = 0; i < jb->cores; i++) {
            char k[24];
            pc_fmt(k, sizeof k, "rec%u", i);
            json_u64(&j, k, t.st.records[i]);
            mx = t.st.records[i] > mx ? t.st.records[i] : mx;
            tot += t.st.records[i];
        }
        json_u64(&j, "max_records", mx);
        json_u64(&j, "records", tot);
        json_end(&j);
    }
    kt_tracer_free(&t);
    free(ts.rd.v);
    free(ts.wr.v);
    return rc;
}

/* CPU cores of the host chip running the job's applications over its quota (no GPU kernel): each
   core's measured instructions, cycles and IPC, the LLC's read misses and the DRAM data bus
   utilisation over the run. */
static int run_host_job(const struct job *jb, FILE *out, char *err, size_t en)
{
    struct arena *a = arena_new(0);
    if (!a) {
        pc_fmt(err, en, "out of host memory");
        return -1;
    }
    struct cfg c;
    cfg_init(&c, a);
    int rc = cli_config_load(&c, PC_HOST_CONFIG, err, en);
    char apps[(PC_HOST_CORES + 1) * 520] = "";
    size_t pos = 0;
    for (unsigned i = 0; i <= PC_HOST_CORES; i++)
    {
        pc_fmt(apps + pos, sizeof apps - pos, "%s%s", i ? "," : "", jb->app[i]);
        pos += strlen(apps + pos);
    }
    ws_ctx *ctx = rc == 0 ? cli_chip_cpu_run(&c, apps, jb->quota, "pdp collect", err, en) : NULL;
    if (!ctx)
        rc = -1;
    struct gpu *g = rc == 0 ? ws_gpu(ctx) : NULL;
    if (rc == 0) {
        const struct gpu_config *gc = gpu_config(g);
        struct json j;
        json_begin(&j, out);
        json_str(&j, "status", "ok");
        json_u64(&j, "quota", jb->quota);
        json_dbl(&j, "cpu_mhz", gc->cpu_clock_mhz);
        uint64_t maxc = 0;
        for (unsigned i = 0; i <= PC_HOST_CORES; i++) {
            struct gpu_cpu_result r;
            if (!gpu_cpu_result(g, i, &r))
                continue;
            char k[3][24];
            pc_fmt(k[0], sizeof k[0], "insns%u", i);
            pc_fmt(k[1], sizeof k[1], "cycles%u", i);
            pc_fmt(k[2], sizeof k[2], "ipc%u", i);
            json_u64(&j, k[0], r.insns);
            json_u64(&j, k[1], r.cycles);
            json_dbl(&j, k[2], r.ipc);
            maxc = r.cycles > maxc ? r.cycles : maxc;
        }
        const struct stats *s = gpu_stats(g);
        uint64_t miss = stats_sum(s, "", ".l2_read_misses");
        uint64_t busy = stats_sum(s, "", ".data_busy_cycles");
        double secs = (double)maxc / (gc->cpu_clock_mhz * 1e6);
        double dram_cycles = secs * 1e12 / (double)gc->ps_dram;
        json_dbl(&j, "seconds", secs);
        json_u64(&j, "llc_misses", miss);
        json_u64(&j, "dram_busy", busy);
        json_dbl(&j, "dram_util", dram_cycles > 0 ? (double)busy / (dram_cycles * (double)gc->n_mem) : 0.0);
        json_end(&j);
    }
    if (ctx)
        wsDestroy(ctx);
    arena_free(a);
    return rc;
}

/* run_jobs' children (cli_pool_run) */
struct pc_pool {
    const struct pc_opts *o;
    const struct jobs *l;
    const char *label, *jdir;
    char *pend;                  /* the jobs without a result when the pool started */
    size_t done, todo, failed;
    double t_start;
};

/* A child running job idx, writing DIR/jobs/NAME.json (and .log) */
static pid_t pc_pool_start(size_t idx, void *u)
{
    struct pc_pool *p = u;
    if (!p->pend[idx])
        return 0;
    const struct pc_opts *o = p->o;
    const char *jdir = p->jdir;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        const struct job *jb = &p->l->j[idx];
        char path[1300], tmp[1310], logp[1300], err[2048] = "";
        pc_fmt(path, sizeof path, "%s/%s.json", jdir, jb->name);
        pc_fmt(tmp, sizeof tmp, "%s.tmp", path);
        pc_fmt(logp, sizeof logp, "%s/%s.log", jdir, jb->name);
        int fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        FILE *f = fopen(tmp, "w");
        int rc = f ? 0 : -1;
        if (!f)
            pc_fmt(err, sizeof err, "cannot write %s: %s", tmp, strerror(errno));
        if (rc == 0)
            rc = jb->kind == JOB_TRACE ? run_trace_job(o, jb, f, err, sizeof err)
                                       : run_host_job(jb, f, err, sizeof err);
        if (f && fclose(f) != 0 && rc == 0) {
            pc_fmt(err, sizeof err, "cannot write %s", tmp);
            rc = -1;
        }
        if (rc == 0 && rename(tmp, path) != 0) {
            pc_fmt(err, sizeof err, "cannot rename %s: %s", tmp, strerror(errno));
            rc = -1;
        }
        if (rc != 0) {
            unlink(tmp);
            fprintf(stderr, "warpsim pdp collect: job %s: %s\n", jb->name, err);
        }
        fflush(stderr);
        _exit(rc == 0 ? 0 : 1);
    }
    if (pid < 0) {
        fprintf(stderr, "warpsim pdp collect: fork: %s\n", strerror(errno));
        p->pend[idx] = 0;
        p->done++, p->failed++;
        return 0;
    }
    return pid;
}

static void pc_pool_finished(size_t idx, int ws, double secs, unsigned running, void *u)
{
    struct pc_pool *p = u;
    (void)running;
    p->done++;
    int ok = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    if (!ok)
        p->failed++;
    if (!p->o->quiet || !ok)
        fprintf(stderr, "[pdp collect %s] %zu/%zu %s %s %.1fs, elapsed %.0fs%s%s%s\n", p->label, p->done, p->todo,
                p->l->j[idx].name, ok ? "ok" : "FAILED", secs, cli_now() - p->t_start, ok ? "" : " (see ",
                ok ? "" : p->jdir, ok ? "" : "/NAME.log)");
}

/* Run the pending jobs, o->jobs at a time, each in a child process writing DIR/jobs/NAME.json.
   Returns the number of jobs without a result. */
static size_t run_jobs(const struct pc_opts *o, const struct jobs *l, const char *label)
{
    char jdir[1100];
    pc_fmt(jdir, sizeof jdir, "%s/jobs", o->dir);
    if (mkdir_p(jdir) != 0) {
        fprintf(stderr, "warpsim pdp collect: cannot create %s: %s\n", jdir, strerror(errno));
        return l->n;
    }
    size_t todo = 0;
    char *pend = calloc(l->n ? l->n : 1, 1);
    if (!pend)
        return l->n;
    for (size_t i = 0; i < l->n; i++) {
        char *t = job_text(o->dir, l->j[i].name);
        pend[i] = !t;
        todo += !t;
        free(t);
    }
    unsigned jobs = o->jobs ? o->jobs : 1;
    if (!o->quiet)
        fprintf(stderr, "[pdp collect %s] %zu jobs: %zu done before, %zu to run, %u at a time\n", label, l->n,
                l->n - todo, todo, jobs);
    if (jobs > 64)
        jobs = 64;
    struct pc_pool p = {o, l, label, jdir, pend, 0, todo, 0, cli_now()};
    (void)cli_pool_run(l->n, jobs, pc_pool_start, pc_pool_finished, &p);   /* what did not finish is missing */
    free(pend);
    size_t missing = 0;
    for (size_t i = 0; i < l->n; i++) {
        char *t = job_text(o->dir, l->j[i].name);
        missing += !t;
        free(t);
    }
    return missing;
}

/* ---- the campaign ------------------------------------------------------------------------------ */

struct kinfo {
    char wl[48];
    struct pdp_features stat;    /* static counts */
    int ok;
};

static int static_features(const char *wl, struct pdp_features *x, char *err, size_t en)
{
    size_t len = 0;
    const char *text = wl_ptx_text(wl, &len);
    if (!text) {
        pc_fmt(err, en, "workload '%s' has no embedded PTX", wl);
        return -1;
    }
    char src[256];
    pc_fmt(src, sizeof src, "workloads/%s/%s.ptx", wl, wl);
    struct ptx_error pe;
    memset(&pe, 0, sizeof pe);
    struct ptx_module *m = ptx_parse(text, len, src, &pe);
    if (m && ptx_cfg_analyze(m, &pe) != 0) {
        ptx_module_free(m);
        m = NULL;
    }
    if (!m) {
        ptx_error_format(&pe, err, en);
        return -1;
    }
    memset(x, 0, sizeof *x);
    int rc = pdp_features_from_ptx(m, -1, x, err, en);
    ptx_module_free(m);
    return rc;
}

/* One kernel of the campaign: a workload at an input size, launched with its grid x gs (1: its own
   grid).  tag names its jobs: "vecadd-tiny", "vecadd-tiny-g0.25" (the default grid keeps the names
   campaigns had before the thread axis, so they resume). */
struct pc_case {
    size_t k;                    /* index in the kernel list */
    const char *size;
    double gs;
    char tag[96];
    long gidx;                   /* its GPU run */
};

static void trace_name(char *buf, size_t n, const char *tag, unsigned cores)
{
    pc_fmt(buf, n, "trace-%s-c%u", tag, cores);
}

/* "1,0.25" into at most max distinct factors; -1 with a message on a bad one */
static int parse_scales(const char *list, double *out, size_t max, size_t *n)
{
    char item[PC_MAX_GS * 2][64];
    size_t ni = split(list, item, PC_MAX_GS * 2);
    *n = 0;
    for (size_t i = 0; i < ni; i++) {
        char *end = NULL;
        double g = strtod(item[i], &end);
        if (!item[i][0] || *end || !(g > 0) || g > 1000) {
            fprintf(stderr, "warpsim pdp collect: --grid-scales expects factors above 0 and at most 1000, got '%s'\n",
                    item[i]);
            return -1;
        }
        int dup = 0;
        for (size_t q = 0; q < *n; q++)
            dup |= out[q] == g;
        if (dup)
            continue;
        if (*n == max) {
            fprintf(stderr, "warpsim pdp collect: --grid-scales: at most %zu factors\n", max);
            return -1;
        }
        out[(*n)++] = g;
    }
    if (*n == 0) {
        fprintf(stderr, "warpsim pdp collect: --grid-scales: no factor given\n");
        return -1;
    }
    return 0;
}

/* core i's trace of a trace job, or "-" when the core got no work-group */
static void trace_core(char *buf, size_t n, const struct pc_opts *o, const char *tname, const char *meta,
                       unsigned i)
{
    char key[32];
    pc_fmt(key, sizeof key, "rec%u", i);
    if (!(jnum(meta, key) > 0))
        pc_fmt(buf, n, "-");
    else
        pc_fmt(buf, n, "%s/traces/%s/core%u.trace.gz", o->dir, tname, i);
}

/* The quota of a kernel run: its longest per-core trace, so that every kernel core is measured over
   its first pass (cold caches, as the kernel runs once), capped at qa: a longer kernel is measured
   over its first qa instructions per core and its time extrapolated to its trace (cycles x length /
   instructions; traces of millions of records would otherwise make the co-runners run as long).
   The co-runners are measured over as many instructions, beside the kernel (whose traces loop
   until the slowest co-runner has its quota). */
static uint64_t quota_for(const char *meta, uint64_t qa)
{
    double m = jnum(meta, "max_records");
    uint64_t q = m > 0 ? (uint64_t)m : 1;
    return q < qa ? q : qa;
}

/* co-runners of a set on cores first.. of a host job */
static void place_set(struct job *j, const char *set, unsigned first)
{
    char app[PC_MAX_CO][32];
    unsigned n = set_apps(set, app);
    for (unsigned k = 0; k < n && first + k < PC_HOST_CORES; k++)
        pc_fmt(j->app[first + k], sizeof j->app[0], "%s", app[k]);
}

static void set_label(char *buf, size_t n, const char *set)
{
    pc_fmt(buf, n, "%s", set);
    for (char *p = buf; *p; p++)
        if (*p == '+')
            *p = '_';
}

/* the kernel's CPU time in a host job: the slowest kernel core's time for its own trace */
static double kernel_seconds(const char *host, const char *meta, unsigned cores)
{
    double mhz = jnum(host, "cpu_mhz"), t = 0;
    for (unsigned i = 0; i < cores; i++) {
        char k[32];
        pc_fmt(k, sizeof k, "rec%u", i);
        double len = jnum(meta, k);
        if (!(len > 0))
            continue;
        pc_fmt(k, sizeof k, "cycles%u", i);
        double cy = jnum(host, k);
        pc_fmt(k, sizeof k, "insns%u", i);
        double in = jnum(host, k);
        double s = cy * len / in / (mhz * 1e6);
        if (!(s > 0) || !isfinite(s))
            return NAN;
        t = s > t ? s : t;
    }
    return t > 0 ? t : NAN;
}

static double core_ipc(const char *host, unsigned i)
{
    char k[32];
    pc_fmt(k, sizeof k, "ipc%u", i);
    return jnum(host, k);
}

static double gpu_core_mhz(void)
{
    struct arena *a = arena_new(0);
    double mhz = NAN;
    if (!a)
        return mhz;
    struct cfg c;
    cfg_init(&c, a);
    char err[512];
    if (cli_config_load(&c, PC_GPU_CONFIG, err, sizeof err) == 0) {
        const struct cfg_entry *e = cfg_find(&c, "gpgpu_clock_domains");
        if (e)
            mhz = strtod(e->value[0] == '"' ? e->value + 1 : e->value, NULL);
    }
    arena_free(a);
    return mhz;
}

void pc_campaign_free(struct pc_campaign *c)
{
    free(c->rows);
    memset(c, 0, sizeof *c);
}

int pc_collect(const struct pc_opts *o, struct pc_campaign *camp)
{
    memset(camp, 0, sizeof *camp);
    int small = strcmp(o->size, "small") == 0;
    uint64_t qa = o->quota ? o->quota : small ? 400000 : 150000;   /* co-runners' instructions alone */
    char kern[PC_MAX_KERNELS][64], sets[PC_MAX_SETS][64], bapps[PC_MAX_SETS][64];
    size_t nk = split(o->kernels ? o->kernels : small ? small_kernels : tiny_kernels, kern, PC_MAX_KERNELS);
    size_t ns = split(o->coruns ? o->coruns : small ? small_coruns : tiny_coruns, sets, PC_MAX_SETS);
    /* the sizes of each kernel: tiny runs tiny; small runs tiny and small */
    const char *sizes[2] = {"tiny", "small"};
    unsigned nsz = small ? 2 : 1;
    for (size_t i = 0; i < nk; i++)
        if (!wl_find(kern[i])) {
            fprintf(stderr, "warpsim pdp collect: unknown workload '%s' (warpsim list)\n", kern[i]);
            return EXIT_USAGE;
        }
    /* the thread axis (000 ch. 6: kernels run with varying numbers of threads, apart from the input):
       each grid scale for the workloads whose kernels loop with grid strides, their own grid for the
       others */
    double gsl[PC_MAX_GS];
    size_t ngs = 1;
    gsl[0] = 1;
    if (o->grid_scales && parse_scales(o->grid_scales, gsl, PC_MAX_GS, &ngs) != 0)
        return EXIT_USAGE;
    size_t nb = 0;
    if (o->bubble_apps)
        nb = split(o->bubble_apps, bapps, PC_MAX_SETS);
    for (size_t i = 0; i < ns; i++) {
        char app[PC_MAX_CO][32];
        unsigned n = set_apps(sets[i], app);
        if (!n || strlen(sets[i]) > 40) {
            fprintf(stderr, "warpsim pdp collect: bad co-runner set '%s'\n", sets[i]);
            return EXIT_USAGE;
        }
        for (unsigned k = 0; k < n; k++) {
            if (!tracegen_find(app[k])) {
                fprintf(stderr, "warpsim pdp collect: unknown profile '%s' (warpsim trace gen --list)\n", app[k]);
                return EXIT_USAGE;
            }
            int have = 0;
            for (size_t b = 0; b < nb; b++)
                have |= strcmp(bapps[b], app[k]) == 0;
            if (!have && !o->bubble_apps && nb < PC_MAX_SETS)
                pc_fmt(bapps[nb++], 64, "%s", app[k]);
        }
    }
    for (size_t b = 0; b < nb; b++)
        if (!tracegen_find(bapps[b])) {
            fprintf(stderr, "warpsim pdp collect: unknown profile '%s' (warpsim trace gen --list)\n", bapps[b]);
            return EXIT_USAGE;
        }
    char tdir[1100];
    pc_fmt(tdir, sizeof tdir, "%s/traces", o->dir);
    if (mkdir_p(tdir) != 0) {
        fprintf(stderr, "warpsim pdp collect: cannot create %s: %s\n", tdir, strerror(errno));
        return EXIT_USAGE;
    }
    struct pc_case *cases = calloc(nk * nsz * (ngs + 1) + 1, sizeof *cases);
    size_t ncase = 0;
    if (!cases) {
        fprintf(stderr, "warpsim pdp collect: out of host memory\n");
        return EXIT_SIM_ERROR;
    }
    for (size_t k = 0; k < nk; k++)
        for (unsigned z = 0; z < nsz; z++) {
            int scaled = wl_find(kern[k])->grid_scale;
            size_t first = ncase;
            for (size_t g = 0; g < (scaled ? ngs : 1); g++) {
                double gs = scaled ? gsl[g] : 1.0;
                int dup = 0;
                for (size_t q = first; q < ncase; q++)
                    dup |= cases[q].gs == gs;
                if (dup)
                    continue;
                struct pc_case *cs = &cases[ncase++];
                cs->k = k;
                cs->size = sizes[z];
                cs->gs = gs;
                if (gs == 1.0)
                    pc_fmt(cs->tag, sizeof cs->tag, "%s-%s", kern[k], sizes[z]);
                else
                    pc_fmt(cs->tag, sizeof cs->tag, "%s-%s-g%g", kern[k], sizes[z], gs);
            }
        }
    double t0 = cli_now();

    /* 1. the discrete GPU's kernel times: child `warpsim run`s through the sweep machinery */
    struct sw_list gl;
    memset(&gl, 0, sizeof gl);
    for (size_t ci = 0; ci < ncase; ci++) {
        struct pc_case *cs = &cases[ci];
        struct sw_run r;
        memset(&r, 0, sizeof r);
        r.workload = sw_str(&gl, kern[cs->k]);
        r.size = sw_str(&gl, cs->size);
        r.config = sw_str(&gl, PC_GPU_CONFIG);
        r.grid_scale = cs->gs;
        cs->gidx = sw_add(&gl, &r);
        if (cs->gidx < 0) {
            sw_list_free(&gl);
            free(cases);
            return EXIT_USAGE;
        }
    }
    char rdir[1100];
    pc_fmt(rdir, sizeof rdir, "%s/runs", o->dir);
    struct sw_exec x = {rdir, o->jobs, o->quiet, "pdp collect gpu"};
    for (size_t i = 0; i < gl.n; i++)
        sw_probe(&x, &gl.r[i]);
    if (sw_execute(&x, &gl, 0, gl.n) < 0) {
        sw_list_free(&gl);
        free(cases);
        return EXIT_SIM_ERROR;
    }

    /* 2. the kernels' CPU traces on 4 cores and on the cores left by each set's co-runners */
    struct jobs tl = {0}, hl = {0};
    for (size_t ci = 0; ci < ncase; ci++) {
        const struct pc_case *cs = &cases[ci];
        unsigned used[PC_HOST_CORES + 1] = {0};
        used[PC_HOST_CORES] = 1;
        for (size_t s = 0; s < ns; s++) {
            char app[PC_MAX_CO][32];
            used[PC_HOST_CORES - set_apps(sets[s], app)] = 1;
        }
        for (unsigned c = 1; c <= PC_HOST_CORES; c++) {
            if (!used[c])
                continue;
            char name[160];
            trace_name(name, sizeof name, cs->tag, c);
            struct job *j = job_add(&tl, JOB_TRACE, name);
            if (j) {
                pc_fmt(j->wl, sizeof j->wl, "%s", kern[cs->k]);
                pc_fmt(j->size, sizeof j->size, "%s", cs->size);
                j->grid_scale = cs->gs;
                j->cores = c;
            }
        }
    }
    size_t bad = run_jobs(o, &tl, "traces");

    /* 3. the contention generators' and the DMA engine's streams */
    const uint64_t bub_fp[] = {64u << 10, 512u << 10, 2u << 20, 8u << 20, 32u << 20};
    const unsigned nfp = sizeof bub_fp / sizeof bub_fp[0];
    char dma_path[1200];
    pc_fmt(dma_path, sizeof dma_path, "%s/dma-p%u.trace.gz", tdir, PC_DMA_PACE);
    struct stat sb;
    char err[1024];
    if (stat(dma_path, &sb) != 0) {
        char tmp[1300];
        pc_fmt(tmp, sizeof tmp, "%s.tmp.gz", dma_path);
        if (!pcie_dma_trace(tmp, 64ull << 20, 0, PC_DMA_PACE, err, sizeof err) || rename(tmp, dma_path) != 0) {
            fprintf(stderr, "warpsim pdp collect: the DMA stream: %s\n", err);
            bad++;
        }
    }
    for (unsigned f = 0; f < nfp && nb; f++) {
        char p[1200], tmp[1300];
        pc_fmt(p, sizeof p, "%s/bubble-%" PRIu64 "k-%" PRIu64 ".trace.gz", tdir, bub_fp[f] >> 10, qa);
        if (stat(p, &sb) == 0)
            continue;
        pc_fmt(tmp, sizeof tmp, "%s.tmp.gz", p);
        if (pdp_bubble_trace(tmp, bub_fp[f], 2 * qa, 0, err, sizeof err) != 0 || rename(tmp, p) != 0) {
            fprintf(stderr, "warpsim pdp collect: a contention generator: %s\n", err);
            bad++;
        }
    }

    /* 4. the host chip's runs */
    char name[160], lab[64];
    /* the co-runners alone (features, slowdown references) and beside the DMA stream */
    struct job *j;
    for (size_t s = 0; s < ns; s++) {
        char app[PC_MAX_CO][32];
        unsigned n = set_apps(sets[s], app), first = PC_HOST_CORES - n;
        set_label(lab, sizeof lab, sets[s]);
        pc_fmt(name, sizeof name, "alone-%s-q%" PRIu64, lab, qa);
        if ((j = job_add(&hl, JOB_HOST, name))) {
            place_set(j, sets[s], first);
            j->quota = qa;
        }
        pc_fmt(name, sizeof name, "dma-%s-q%" PRIu64, lab, qa);
        if ((j = job_add(&hl, JOB_HOST, name))) {
            place_set(j, sets[s], first);
            pc_fmt(j->app[PC_DMA_CORE], sizeof j->app[0], "%s", dma_path);
            j->quota = qa;
        }
    }
    pc_fmt(name, sizeof name, "dma-none-q%" PRIu64, qa);
    if ((j = job_add(&hl, JOB_HOST, name))) {
        pc_fmt(j->app[PC_DMA_CORE], sizeof j->app[0], "%s", dma_path);
        j->quota = qa;
    }
    /* the slowdown table: each application on core 3 beside generators on cores 0..c-1, for the core
       counts a kernel gets beside co-runners (4 - the sets' sizes) */
    unsigned bub_cores[PC_HOST_CORES + 1] = {0};
    for (size_t s = 0; s < ns; s++) {
        char app[PC_MAX_CO][32];
        bub_cores[PC_HOST_CORES - set_apps(sets[s], app)] = 1;
    }
    for (size_t b = 0; b < nb; b++) {
        pc_fmt(name, sizeof name, "alone-%s-q%" PRIu64, bapps[b], qa);
        if ((j = job_add(&hl, JOB_HOST, name))) {
            pc_fmt(j->app[PC_HOST_CORES - 1], sizeof j->app[0], "%s", bapps[b]);
            j->quota = qa;
        }
        pc_fmt(name, sizeof name, "dma-%s-q%" PRIu64, bapps[b], qa);
        if ((j = job_add(&hl, JOB_HOST, name))) {
            pc_fmt(j->app[PC_HOST_CORES - 1], sizeof j->app[0], "%s", bapps[b]);
            pc_fmt(j->app[PC_DMA_CORE], sizeof j->app[0], "%s", dma_path);
            j->quota = qa;
        }
        for (unsigned c = 1; c < PC_HOST_CORES; c++)
            for (unsigned f = 0; f < nfp && bub_cores[c]; f++) {
                pc_fmt(name, sizeof name, "bubble-%s-c%u-f%" PRIu64 "k-q%" PRIu64, bapps[b], c, bub_fp[f] >> 10, qa);
                if (!(j = job_add(&hl, JOB_HOST, name)))
                    continue;
                pc_fmt(j->app[PC_HOST_CORES - 1], sizeof j->app[0], "%s", bapps[b]);
                for (unsigned i = 0; i < c; i++)
                    pc_fmt(j->app[i], sizeof j->app[0], "%s/bubble-%" PRIu64 "k-%" PRIu64 ".trace.gz", tdir,
                             bub_fp[f] >> 10, qa);
                j->quota = qa;
            }
    }
    /* the kernels on the CPU, alone and beside each set */
    for (size_t ci = 0; ci < ncase; ci++) {
        const struct pc_case *cs = &cases[ci];
        char tn[160];
        trace_name(tn, sizeof tn, cs->tag, PC_HOST_CORES);
        char *meta = job_text(o->dir, tn);
        if (!meta)
            continue;
        uint64_t q = quota_for(meta, qa);
        pc_fmt(name, sizeof name, "cpu-%s-c4-none", cs->tag);
        if ((j = job_add(&hl, JOB_HOST, name))) {
            for (unsigned i = 0; i < PC_HOST_CORES; i++)
                trace_core(j->app[i], sizeof j->app[0], o, tn, meta, i);
            j->quota = q;
        }
        free(meta);
        for (size_t s = 0; s < ns; s++) {
            char app[PC_MAX_CO][32];
            unsigned n = set_apps(sets[s], app), c = PC_HOST_CORES - n;
            trace_name(tn, sizeof tn, cs->tag, c);
            meta = job_text(o->dir, tn);
            if (!meta)
                continue;
            q = quota_for(meta, qa);
            set_label(lab, sizeof lab, sets[s]);
            pc_fmt(name, sizeof name, "cpu-%s-c%u-%s", cs->tag, c, lab);
            if ((j = job_add(&hl, JOB_HOST, name))) {
                for (unsigned i = 0; i < c; i++)
                    trace_core(j->app[i], sizeof j->app[0], o, tn, meta, i);
                place_set(j, sets[s], c);
                j->quota = q;
            }
            pc_fmt(name, sizeof name, "alone-%s-q%" PRIu64, lab, q);
            if ((j = job_add(&hl, JOB_HOST, name))) {
                place_set(j, sets[s], c);
                j->quota = q;
            }
            free(meta);
        }
    }
    bad += run_jobs(o, &hl, "host");

    /* 5. read everything back */
    struct pcie_params pp;
    pcie_params_default(&pp);
    double gmhz = gpu_core_mhz();
    char *dma0 = NULL;
    pc_fmt(name, sizeof name, "dma-none-q%" PRIu64, qa);
    dma0 = job_text(o->dir, name);
    double dma_rate0 = core_ipc(dma0, PC_DMA_CORE);
    size_t cap = ncase * (ns + 1);
    camp->rows = calloc(cap ? cap : 1, sizeof *camp->rows);
    if (!camp->rows) {
        free(dma0);
        sw_list_free(&gl);
        free(tl.j);
        free(hl.j);
        free(cases);
        return EXIT_SIM_ERROR;
    }
    size_t skipped = 0;
    for (size_t k = 0; k < nk; k++) {
        struct pdp_features stat;
        if (static_features(kern[k], &stat, err, sizeof err) != 0) {
            fprintf(stderr, "warpsim pdp collect: %s\n", err);
            bad++;
            continue;
        }
        for (size_t ci = 0; ci < ncase; ci++) {
            const struct pc_case *cs = &cases[ci];
            if (cs->k != k)
                continue;
            const struct sw_metrics *gm = st_m(&gl, cs->gidx);
            char tn[160];
            trace_name(tn, sizeof tn, cs->tag, PC_HOST_CORES);
            char *meta4 = job_text(o->dir, tn);
            pc_fmt(name, sizeof name, "cpu-%s-c4-none", cs->tag);
            char *h4 = job_text(o->dir, name);
            double tk = gm ? gm->cycles / (gmhz * 1e6) : NAN;
            double t_cpu = kernel_seconds(h4, meta4, PC_HOST_CORES);
            double inb = jnum(meta4, "in_bytes"), outb = jnum(meta4, "out_bytes");
            if (!(tk > 0) || !(t_cpu > 0) || !(inb >= 0) || !(outb >= 0)) {
                skipped += ns + 1;
                free(meta4);
                free(h4);
                continue;
            }
            double tx = pcie_transfer_seconds(&pp, (uint64_t)inb) + pcie_transfer_seconds(&pp, (uint64_t)outb);
            struct pc_row base;
            memset(&base, 0, sizeof base);
            pc_fmt(base.kernel, sizeof base.kernel, "%s", kern[k]);
            pc_fmt(base.size, sizeof base.size, "%s", cs->size);
            base.grid_scale = cs->gs;
            base.x = stat;
            base.x.v[PDP_F_THREADS] = jnum(meta4, "threads");
            base.x.v[PDP_F_BUFFER_BYTES] = jnum(meta4, "mem_bytes");
            base.t_alone[PDP_CPU] = t_cpu;
            base.t_alone[PDP_GPU] = tx + tk;
            base.gpu_kernel_s = tk;
            base.in_bytes = inb;
            base.out_bytes = outb;
            base.t_x_alone = tx;
            /* alone: co-located with nothing */
            struct pc_row *r = &camp->rows[camp->n++];
            *r = base;
            r->kernel_cores = PC_HOST_CORES;
            r->t_coloc[PDP_CPU] = t_cpu;
            r->t_coloc[PDP_GPU] = tx + tk;
            r->t_x_coloc = tx;
            free(meta4);
            free(h4);
            for (size_t s = 0; s < ns; s++) {
                char app[PC_MAX_CO][32];
                unsigned n = set_apps(sets[s], app), c = PC_HOST_CORES - n;
                set_label(lab, sizeof lab, sets[s]);
                trace_name(tn, sizeof tn, cs->tag, c);
                char *meta = job_text(o->dir, tn);
                uint64_t q = quota_for(meta, qa);
                pc_fmt(name, sizeof name, "cpu-%s-c%u-%s", cs->tag, c, lab);
                char *hk = job_text(o->dir, name);
                pc_fmt(name, sizeof name, "alone-%s-q%" PRIu64, lab, q);
                char *alq = job_text(o->dir, name);
                pc_fmt(name, sizeof name, "alone-%s-q%" PRIu64, lab, qa);
                char *ala = job_text(o->dir, name);
                pc_fmt(name, sizeof name, "dma-%s-q%" PRIu64, lab, qa);
                char *dm = job_text(o->dir, name);
                struct pc_row row = base;
                row.nco = n;
                row.kernel_cores = c;
                for (unsigned a = 0; a < n; a++)
                    pc_fmt(row.co[a], sizeof row.co[a], "%s", app[a]);
                double secs = jnum(ala, "seconds");
                row.x.v[PDP_F_LLC_MISSES] = jnum(ala, "llc_misses") / (secs * 1e3);
                row.x.v[PDP_F_DRAM_UTIL] = jnum(ala, "dram_util");
                row.t_coloc[PDP_CPU] = kernel_seconds(hk, meta, c);
                double sx = dma_rate0 / core_ipc(dm, PC_DMA_CORE);   /* the transfers' slowdown */
                double tin = inb > 0 ? pp.latency_s + inb / pcie_bandwidth(&pp) * sx : 0;
                double tout = outb > 0 ? pp.latency_s + outb / pcie_bandwidth(&pp) * sx : 0;
                row.t_x_coloc = tin + tout;
                row.t_coloc[PDP_GPU] = tin + tk + tout;
                int ok = row.t_coloc[PDP_CPU] > 0 && row.t_coloc[PDP_GPU] > 0 && isfinite(row.x.v[PDP_F_LLC_MISSES]) &&
                         isfinite(row.x.v[PDP_F_DRAM_UTIL]);
                for (unsigned a = 0; a < n; a++) {
                    unsigned core = c + a;
                    row.sd_co[a][PDP_CPU] = core_ipc(alq, core) / core_ipc(hk, core);
                    double rdma = core_ipc(ala, core) / core_ipc(dm, core);
                    row.sd_co[a][PDP_GPU] =
                        row.t_coloc[PDP_GPU] / (row.t_x_coloc / rdma + tk);
                    ok = ok && row.sd_co[a][PDP_CPU] > 0 && row.sd_co[a][PDP_GPU] > 0;
                }
                if (ok)
                    camp->rows[camp->n++] = row;
                else
                    skipped++;
                free(meta);
                free(hk);
                free(alq);
                free(ala);
                free(dm);
            }
        }
    }
    /* the slowdown table */
    for (size_t b = 0; b < nb; b++) {
        pc_fmt(name, sizeof name, "alone-%s-q%" PRIu64, bapps[b], qa);
        char *al = job_text(o->dir, name);
        double ipc0 = core_ipc(al, PC_HOST_CORES - 1);
        pc_fmt(name, sizeof name, "dma-%s-q%" PRIu64, bapps[b], qa);
        char *dm = job_text(o->dir, name);
        if (pdp_bubble_add(&camp->bubble, bapps[b], 1, 1, 0, ipc0 / core_ipc(dm, PC_HOST_CORES - 1)) != 0)
            bad++;
        free(dm);
        for (unsigned c = 1; c < PC_HOST_CORES; c++)
            for (unsigned f = 0; f < nfp && bub_cores[c]; f++) {
                pc_fmt(name, sizeof name, "bubble-%s-c%u-f%" PRIu64 "k-q%" PRIu64, bapps[b], c, bub_fp[f] >> 10, qa);
                char *bt = job_text(o->dir, name);
                if (pdp_bubble_add(&camp->bubble, bapps[b], 0, c, (double)bub_fp[f],
                                   ipc0 / core_ipc(bt, PC_HOST_CORES - 1)) != 0)
                    bad++;
                free(bt);
            }
        free(al);
    }
    free(dma0);

    /* 6. the files */
    char p[1200];
    pc_fmt(p, sizeof p, "%s/pdp.csv", o->dir);
    FILE *f = fopen(p, "w");
    if (!f) {
        fprintf(stderr, "warpsim pdp collect: cannot write %s: %s\n", p, strerror(errno));
        bad++;
    } else {
        fprintf(f, "# warpsim pdp collect --size %s: seconds; alone times in the rows without co-runners "
                   "(docs/heteropdp.md)\n",
                o->size);
        fprintf(f, "kernel,size,grid_scale");
        for (int i = 0; i < PDP_F_COUNT; i++)
            fprintf(f, ",%s", pdp_feat_name((enum pdp_feat)i));
        fprintf(f, ",time_cpu_alone,time_gpu_alone,time_cpu_coloc,time_gpu_coloc,corunners,kernel_cores,"
                   "gpu_kernel_s,transfer_in_bytes,transfer_out_bytes,transfer_s_alone,transfer_s_coloc,"
                   "cpu_alone_s,gpu_alone_s,co1,co1_sd_cpu,co1_sd_gpu,co2,co2_sd_cpu,co2_sd_gpu\n");
        for (size_t i = 0; i < camp->n; i++) {
            const struct pc_row *r = &camp->rows[i];
            fprintf(f, "%s,%s,%g", r->kernel, r->size, r->grid_scale);
            for (int q = 0; q < PDP_F_COUNT; q++)
                fprintf(f, ",%.10g", r->x.v[q]);
            if (r->nco == 0)
                fprintf(f, ",%.10g,%.10g", r->t_alone[PDP_CPU], r->t_alone[PDP_GPU]);
            else
                fprintf(f, ",,");
            fprintf(f, ",%.10g,%.10g,", r->t_coloc[PDP_CPU], r->t_coloc[PDP_GPU]);
            for (unsigned a = 0; a < r->nco; a++)
                fprintf(f, "%s%s", a ? "+" : "", r->co[a]);
            fprintf(f, ",%u,%.10g,%.0f,%.0f,%.10g,%.10g,%.10g,%.10g", r->kernel_cores, r->gpu_kernel_s, r->in_bytes,
                    r->out_bytes, r->t_x_alone, r->t_x_coloc, r->t_alone[PDP_CPU], r->t_alone[PDP_GPU]);
            for (unsigned a = 0; a < PC_MAX_CO; a++) {
                if (a < r->nco)
                    fprintf(f, ",%s,%.10g,%.10g", r->co[a], r->sd_co[a][PDP_CPU], r->sd_co[a][PDP_GPU]);
                else
                    fprintf(f, ",,,");
            }
            fprintf(f, "\n");
        }
        if (fclose(f) != 0)
            bad++;
    }
    pc_fmt(p, sizeof p, "%s/bubble.csv", o->dir);
    f = fopen(p, "w");
    if (!f || pdp_bubble_write(&camp->bubble, f) != 0)
        bad++;
    if (f && fclose(f) != 0)
        bad++;
    if (!o->quiet)
        fprintf(stderr, "[pdp collect] %zu rows (%zu cases not measured), %zu table entries, %.1fs; wrote %s/pdp.csv "
                        "and %s/bubble.csv\n",
                camp->n, skipped, camp->bubble.n, cli_now() - t0, o->dir, o->dir);
    sw_list_free(&gl);
    free(tl.j);
    free(hl.j);
    free(cases);
    if (bad || skipped) {
        fprintf(stderr, "warpsim pdp collect: %zu jobs or files failed and %zu cases are missing; rerun to retry "
                        "(finished jobs are kept)\n",
                bad, skipped);
        return camp->n ? EXIT_VERIFY_FAILED : EXIT_SIM_ERROR;
    }
    return EXIT_OK;
}

int pc_dataset(const struct pc_campaign *c, struct pdp_dataset *d, char *msg, size_t n)
{
    pdp_dataset_init(d);
    for (size_t i = 0; i < c->n; i++) {
        const struct pc_row *r = &c->rows[i];
        double y[PDP_NTARGETS][PDP_NSCENS];
        for (int t = 0; t < PDP_NTARGETS; t++) {
            y[t][PDP_ALONE] = r->nco == 0 ? r->t_alone[t] : NAN;
            y[t][PDP_COLOC] = r->t_coloc[t];
        }
        char g[64];
        pc_fmt(g, sizeof g, "%s", r->kernel);
        if (pdp_dataset_add(d, &r->x, y, g, msg, n) != 0)
            return -1;
    }
    return 0;
}

int cmd_pdp_collect(int argc, char **argv)
{
    struct pc_opts o;
    memset(&o, 0, sizeof o);
    o.size = "tiny";
    o.grid_scales = PC_DEFAULT_GRID_SCALES;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = ncpu > 0 ? (unsigned)ncpu : 1;
    char dir[600] = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(collect_help, stdout);
            return EXIT_OK;
        }
        if (strcmp(a, "--quiet") == 0) {
            o.quiet = 1;
            continue;
        }
        const char *opts[] = {"--size",    "--out",    "-o",          "--jobs", "-j",
                              "--kernels", "--coruns", "--bubble-apps", "--quota", "--grid-scales"};
        int known = 0;
        for (size_t q = 0; q < sizeof opts / sizeof opts[0]; q++)
            known |= strcmp(a, opts[q]) == 0;
        if (!known) {
            fprintf(stderr, "warpsim pdp collect: unknown option '%s' (see warpsim pdp collect --help)\n", a);
            return EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "warpsim pdp collect: option %s needs a value\n", a);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        if (strcmp(a, "--size") == 0) {
            if (strcmp(v, "tiny") != 0 && strcmp(v, "small") != 0) {
                fprintf(stderr, "warpsim pdp collect: --size expects tiny or small, got '%s'\n", v);
                return EXIT_USAGE;
            }
            o.size = v;
        } else if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) {
            pc_fmt(dir, sizeof dir, "%s", v);
        } else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
            uint64_t jn;
            if (cli_parse_u64("pdp collect", a, v, &jn) != 0 || jn < 1 || jn > 64) {
                fprintf(stderr, "warpsim pdp collect: --jobs expects 1 to 64\n");
                return EXIT_USAGE;
            }
            o.jobs = (unsigned)jn;
        } else if (strcmp(a, "--kernels") == 0) {
            o.kernels = v;
        } else if (strcmp(a, "--quota") == 0) {
            if (cli_parse_u64("pdp collect", a, v, &o.quota) != 0 || o.quota < 1000 || o.quota > 100000000) {
                fprintf(stderr, "warpsim pdp collect: --quota expects 1000 to 100000000 instructions\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--coruns") == 0) {
            o.coruns = v;
        } else if (strcmp(a, "--grid-scales") == 0) {
            o.grid_scales = v;
        } else {
            o.bubble_apps = v;
        }
    }
    if (!dir[0])
        pc_fmt(dir, sizeof dir, "results/pdp-collect-%s", o.size);
    o.dir = dir;
    struct pc_campaign c;
    int rc = pc_collect(&o, &c);
    pc_campaign_free(&c);
    return rc;
}
