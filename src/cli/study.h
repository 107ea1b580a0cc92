/*
 * study.h - `warpsim sweep` and `warpsim study`: grids of runs executed as
 * child processes (`warpsim run ... -o DIR/NAME.json`), one JSON result per
 * run, resumable, and the seeds' studies as recipes on top (docs/studies.md).
 *
 * Layering: this is the CLI's experiment machinery.  It never touches the
 * simulator's internals: a run is a child `warpsim run` (the same binary,
 * /proc/self/exe), and results are read back from the files that run writes
 * (JSON, NAME.timeseries.csv, NAME.warps.csv).  The only library calls are the
 * policy and workload registries, to say up front which columns of a study
 * cannot be produced by this build.
 *
 * Prefixes: jr_ (JSON reader, core/json_read.c), sw_ (runs, execution, CSV,
 * emit: study_sweep.c), st_ (study tables, means, helpers: cmd_study.c).
 */
#ifndef WARPSIM_CLI_STUDY_H
#define WARPSIM_CLI_STUDY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/json.h"   /* jr_*: the JSON reader */

/* Whole file as a NUL-terminated malloc'ed string (NULL if unreadable). */
char *sw_read_file(const char *path, size_t *len);

/* ---- one run of a grid ---- */
#define SW_MAX_SETS 16
#define SW_NAME_MAX 200

enum sw_state {
    SW_PENDING = 0,   /* not started */
    SW_CACHED,        /* a complete result file existed: not run again */
    SW_RAN,           /* ran in this invocation (exit status in exit_code) */
    SW_NORESULT,      /* ran (or was found) without a complete result file */
    SW_REUSED,        /* taken from another study's or sweep's directory (sw_reuse) */
};

/* The few numbers the studies and the combined CSV use, from the run's JSON. */
struct sw_metrics {
    int ok;                     /* JSON read */
    char status[48];            /* "WS_SUCCESS", "WS_ERROR_DEADLOCK", ... */
    int verified;
    char type_hint[16];
    double cycles, thread_insns, warp_insns, ipc, warp_ipc;
    double l1d_miss_rate, l2_miss_rate, lat_rt, util, ract, c_idle, c_mem, idle_ratio, dram_bw_util, occupancy;
    double host_seconds;
    double paused_warp_insns;   /* warpsim_paused_cta_warp_insn (CTA pausing); NaN in older results */
    double slice_conc;          /* per_partition.hottest_over_mean_per_launch; NaN in older results */
};

struct sw_run {
    /* what to run (strings owned by the run list's arena-like string store) */
    const char *workload, *size, *config, *warp_sched, *cta_sched;   /* NULL = the default */
    uint64_t seed;              /* 0 = the default (1) */
    const char *set_name[SW_MAX_SETS], *set_value[SW_MAX_SETS];
    unsigned nset;
    int warps;                  /* also write NAME.warps.csv (per-warp records) */
    int no_alone;               /* run --no-alone (CPU-GPU chip: skip the alone runs; name gets _noalone) */
    double grid_scale;          /* run --grid-scale (0 or 1 = the workload's grid; name gets _gF) */
    char name[SW_NAME_MAX];     /* file stem, derived from the above (sw_name) */
    /* outcome */
    enum sw_state state;
    int exit_code;              /* of the child (-1 = killed by a signal / not run) */
    double seconds;             /* wall time of the child */
    struct sw_metrics m;
    const char *reused_from;    /* the runs directory its result was (or, with --list, would be)
                                   copied from (sw_reuse), a string of the list; NULL = none */
};

struct sw_list {
    struct sw_run *r;
    size_t n, cap;
    char **strs;                /* strings copied in by sw_str */
    size_t nstrs, capstrs;
    size_t *slot, nslot;        /* open-addressing index of r by name (1 + index, 0 = empty) */
    uint64_t max_cycles;        /* study --max-cycles: every run added stops after this many core cycles
                                   (gpgpu_max_cycle), and a run stopped there counts as a result; 0 = none */
};

void sw_list_free(struct sw_list *l);
/* A copy of s owned by the list. */
const char *sw_str(struct sw_list *l, const char *s);
/* Append a run (fields copied; name derived).  Identical runs (same name) are
   added once: returns the index of the existing one.  -1 on bad input, with
   a message on stderr. */
long sw_add(struct sw_list *l, const struct sw_run *proto);
/* Stable file stem of a run: readable parameters, plus a hash of the full
   parameter text when the readable part lost information (file paths,
   characters outside [A-Za-z0-9._-], length). */
void sw_name(const struct sw_run *r, char *buf, size_t n);

/* ---- executing a list ---- */
struct sw_exec {
    const char *dir;            /* output directory (created) */
    unsigned jobs;              /* parallel children */
    int quiet;                  /* no progress line */
    const char *label;          /* progress prefix ("sweep", "study dyncta") */
};

/* Path of a run's file with the given suffix (".json", ".log", ...). */
void sw_path(const struct sw_exec *x, const struct sw_run *r, const char *suffix, char *buf, size_t n);
/* Read back a run's result (state SW_CACHED when complete).  Runs whose
   result is complete are never run again. */
void sw_probe(const struct sw_exec *x, struct sw_run *r);
/* Reuse of runs made by other studies and sweeps.  home is the directory of
   this study or sweep (for a study DIR, whose runs are DIR/runs = x->dir; for
   a sweep, DIR = x->dir); its siblings DIR/../study-* hold runs in runs/,
   DIR/../sweep-* at their top.  For each run of l[first..first+count) still
   SW_PENDING, the siblings are searched in name order for NAME.json complete
   as sw_probe judges it (with SW_REUSE_GOOD only a verified success).  With
   SW_REUSE_COPY the run's files are copied into x->dir (NAME.json last) and
   the run becomes SW_REUSED with its metrics read back; without it (--list)
   the run stays SW_PENDING and only reused_from is set.  A run whose copy
   fails stays SW_PENDING (it runs).  Returns the number of runs found. */
enum { SW_REUSE_COPY = 1, SW_REUSE_GOOD = 2 };
size_t sw_reuse(const struct sw_exec *x, const char *home, struct sw_list *l, size_t first, size_t count,
                int flags);
/* Where the runs of l[first..first+count) with reused_from set came from:
   "results/study-l1-size/runs" or "A (12), B (3)" into buf; returns their
   number (0: buf is ""). */
size_t sw_reuse_sources(const struct sw_list *l, size_t first, size_t count, char *buf, size_t n);
/* Run every run of l[first..first+count) still SW_PENDING (the caller
   probes first, or does not, to force), `jobs` at a time, with a progress
   line, reading each result as its child ends.  Returns the number of runs in
   the range without a verified result (failed, unverified, no JSON), -1 on
   error. */
int sw_execute(const struct sw_exec *x, struct sw_list *l, size_t first, size_t count);
/* argv of the child for run r (argv[0] = "warpsim"); returns argc.  Strings
   live in buf (size n). */
int sw_argv(const struct sw_exec *x, const struct sw_run *r, char **argv, int max, char *buf, size_t n);

/* Combined CSV: one row per run with its parameters and key metrics. */
int sw_write_csv(const struct sw_exec *x, const struct sw_list *l, const char *path);
/* Job list for GNU parallel (one shell command per line) or a Slurm
   job-array script, of the runs without a complete result.  exe = the
   warpsim binary to call.  Returns the number of jobs written, -1 on error. */
int sw_emit(const struct sw_exec *x, const struct sw_list *l, const char *format, const char *path, const char *exe);

/* mkdir -p */
int sw_mkdirs(const char *path);

/* ---- studies (cmd_study.c + study_<name>.c) ---- */
struct st_opts {
    const char *size;           /* default "small" */
    unsigned jobs;
    const char *dir;            /* results/study-<name> */
    const char *workloads;      /* comma list overriding the recipe's, or NULL */
    const char *config;         /* overrides the recipe's preset, or NULL */
    const char *emit_format, *emit_path;   /* write jobs instead of running (phase by phase) */
    const char *skip;           /* comma list of policy names whose columns are left out */
    int quiet;
    int no_reuse;               /* --no-reuse: never take runs from sibling directories (sw_reuse) */
    const char *mixes;          /* study hetero: comma list of CPU mixes (004 Table IV), or NULL */
    int full;                   /* study hetero --full: the whole workload x mix matrix */
    const char *grid_scales;    /* study heteropdp: factors on the scalable kernels' CTA counts (pdp collect
                                   --grid-scales), or NULL for its default */
    int intercept;              /* study heteropdp --intercept: the time models get a constant term */
    int relative;               /* study heteropdp --relative: they are fitted to relative errors */
    uint64_t max_cycles;        /* --max-cycles: a window of each run (las, dyncta); 0 = the whole run */
    int tiles;                  /* study las --tiles: the locality-aware CTA scheduler gets a box per tile
                                   (cta_sched.las.tiles=1, an extension) */
};

/* Column / row table printed as text and written as CSV. */
#define ST_MAX_COLS 24
#define ST_MAX_ROWS 96
#define ST_CELL 24
struct st_table {
    char title[160];
    unsigned ncols, nrows;
    char head[ST_MAX_COLS][ST_CELL];
    char cell[ST_MAX_ROWS][ST_MAX_COLS][ST_CELL];
    int rule_before[ST_MAX_ROWS];   /* print a separator line before this row */
};
void st_table_init(struct st_table *t, const char *title);
unsigned st_col(struct st_table *t, const char *head);
unsigned st_row(struct st_table *t, const char *first);
void st_setf(struct st_table *t, unsigned row, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* v with prec decimals, or `missing` when v is not finite */
void st_setnum(struct st_table *t, unsigned row, unsigned col, double v, int prec, const char *missing);
void st_print(const struct st_table *t, FILE *f);
int st_write_csv(const struct st_table *t, const char *path);

/* Means over the finite, present values (NAN marks "not available"). */
double st_amean(const double *v, size_t n);
double st_gmean(const double *v, size_t n);   /* positive values only */

/* Why a policy cannot be used ("" when it can): named in o->skip (o may be
   NULL), not registered in this build, or (param != NULL) it has no such
   parameter. */
void st_policy_check(const struct st_opts *o, const char *kind, const char *name, const char *param, char *why,
                     size_t n);
/* Split the recipe's default workload list (or opts->workloads), dropping
   workloads this build does not bundle (noted in *skipped). */
size_t st_workloads(const struct st_opts *o, const char *defaults, const char **out, size_t max, char *skipped,
                    size_t nskipped);

/* Run (or, with --emit, write out) one phase of a study.  Returns 0 when
   the study may go on to use the results, 1 when it stopped after emitting
   jobs, -1 on error. */
int st_phase(const struct st_opts *o, struct sw_list *l, size_t first, const char *label);

/* Time series of a run: max and cycle-weighted mean over the samples of the
   per-SM column "sm<i>_<col>" (mean over SMs per sample).  -1 when absent. */
int st_ts_column(const char *tspath, const char *col, double *max, double *mean);
/* The same over the samples whose global column `gate` is above 0 only (e.g. "ctas_unissued"); -1 when
   the file has no such column. */
int st_ts_column_while(const char *tspath, const char *col, const char *gate, double *max, double *mean);

/* Per-warp file of a run: mean over CTAs of (slowest - fastest) / fastest
   warp execution time (end - start); and, given a reference file (the
   oracle run), the fraction of CTAs whose slowest warp is another warp than
   the reference's slowest.  -1 when unreadable.  spread_equal (may be NULL): the same mean over the CTAs whose
   warps all executed the same number of instructions (the disparity that is not a difference in work). */
int st_warp_spread(const char *path, const char *ref_path, double *spread, double *inversion, double *spread_equal);

/* Given the reference run's per-warp file too: over the CTAs of both, the mean of 1 - (time here / time in the
   reference) of the reference's slowest warp (crit) and of the CTA (cta: its slowest warp, whichever it is), and
   the share of the CTAs whose reference-slowest warp is at least 20% faster here (000 Fig. 3.6 follows one CTA's
   critical warp from RR to oracle CAWS-avg).  -1 when either file is unreadable. */
struct st_crit_gain {
    double crit, cta, share20;
    size_t ctas;
};
int st_crit_gain(const char *path, const char *ref_path, struct st_crit_gain *out);

/* Whether run r of list l has a result the list counts: a verified success, or with the list's window
   (study --max-cycles) a run stopped there. */
int sw_result_ok(const struct sw_list *l, const struct sw_run *r);
/* The metrics of run idx when it has a result the list counts (sw_result_ok), else NULL. */
const struct sw_metrics *st_m(const struct sw_list *l, long idx);
/* What a table shows instead of a number for run idx: "n/a" (not run: the
   policy is missing), "fail" (no verified result), "" (has a result). */
const char *st_missing(const struct sw_list *l, long idx);
/* IPC of run idx over IPC of run base (NAN when either has no result). */
double st_norm(const struct sw_list *l, long idx, long base);
/* A number with 2 decimals, or st_missing(l, idx) when v is not finite. */
void st_cell(struct st_table *t, unsigned row, unsigned col, const struct sw_list *l, long idx, double v);
/* After a study's tables: a line on stdout naming the runs reused from
   other directories in this invocation, if any; then EXIT_OK, or
   EXIT_VERIFY_FAILED with a note on stdout when some run of l has no
   verified result. */
int st_status(const struct st_opts *o, const struct sw_list *l);
/* A study's run list with the options every run takes (--max-cycles); say so in the report f. */
void st_list_init(struct sw_list *l, const struct st_opts *o);
void st_window_note(FILE *f, const struct st_opts *o);
/* One line of the comparison with the seed: verdict 1 agrees, 0 differs,
   -1 cannot tell (not enough results); counted in score[verdict + 1]. */
void st_check(FILE *f, unsigned score[3], int verdict, const char *claim, const char *paper, const char *measured);
/* "agreement with the seed: A of N comparisons agree, D differ, U cannot tell" */
void st_score(FILE *f, const unsigned score[3]);
/* Print the report (tables and checks) held in text to stdout and into
   DIR/NAME.txt. */
void st_report_out(const struct st_opts *o, const char *name, const char *text);
/* Runs directory of a study (DIR/runs) and the path of a run's file there. */
void st_run_path(const struct st_opts *o, const struct sw_list *l, long idx, const char *suffix, char *buf,
                 size_t n);
/* Statistics names[0..n) (JSON paths such as "timing.totals.L1D_MPKI_warp") of run
   idx's result file into x; NAN for each one when the run has no verified result
   and for any the file lacks. */
void st_run_stats(const struct st_opts *o, const struct sw_list *l, long idx, const char *const *names, int n,
                  double *x);

/* the subcommands (main.c) */
int cmd_sweep(int argc, char **argv);
int cmd_study(int argc, char **argv);

int study_dyncta(const struct st_opts *o);
int study_las(const struct st_opts *o);
int study_caws(const struct st_opts *o);
int study_l1size(const struct st_opts *o);
int study_ctrlc(const struct st_opts *o);
int study_cawa(const struct st_opts *o);
int study_hetero(const struct st_opts *o);
int study_heteropdp(const struct st_opts *o);   /* study_heteropdp.c: HeteroPDP (seed 000 ch. 6) */

/* Shared by the two cache studies (study_l1size.c). */
/* "--set gpgpu_cache:dl1" value of a kb KB L1D: the GTX480's 32:128:4 string
   with the number of sets scaled (kb / 16 * 32 sets, 4 ways, 128 B lines). */
const char *l1s_dl1(int kb);
/* Comma list of every application workload of this build (no
   microbenchmarks), in registry order. */
void l1s_all_apps(char *buf, size_t n);
/* The seed's (000 Table 5.3) abbreviation of a workload ("" when 000 has no
   such application) and its class there: 1 cache-sensitive, 0 not, -1 not
   legible in the seed text (docs/studies.md). */
const char *l1s_seed(const char *wl, int *seed_class);

#endif
