/*
 * cli.h - the warpsim command: subcommands and shared helpers.  The CLI parses
 * arguments and prints; the model lives below it.
 */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/version.h"
#include "fe/ptx/ptx_ir.h"
#include "warpsim/warpsim.h"
#include "workload.h"
#include "sys/gpu_cpu.h"

/* Default limits of `warpsim run` (--max-warp-insns, --max-seconds): a kernel
   that never terminates stops within minutes (functional) or an hour or so
   (timing) instead of hanging.  The largest launch of a bundled workload at
   paper size issues under 2e8 warp instructions. */
#define CLI_DEFAULT_MAX_WARP_INSNS 2000000000
#define CLI_DEFAULT_MAX_SECONDS 14400
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

/* exit codes */
enum { EXIT_OK = 0, EXIT_VERIFY_FAILED = 1, EXIT_USAGE = 2, EXIT_SIM_ERROR = 3 };

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_ptx_check(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_trace(int argc, char **argv);   /* cmd_trace.c */
int cmd_pdp(int argc, char **argv);     /* cmd_pdp.c: HeteroPDP */
int cmd_report(int argc, char **argv);  /* cmd_report.c: HTML report (Python: pandas + matplotlib) */
int cmd_compare(int argc, char **argv); /* cmd_compare.c */
/* The Python side (cmd_report.c, docs/report.md): find a Python 3 that imports pandas, matplotlib and the
   package python/warpsim (0, or -1 with a message naming what is missing and how to get it); run
   `PYTHON -m module argv...` (the exit code of `warpsim CMD`); write DIR/report.html at the end of a study
   (or one stderr line saying why not). */
int cli_python_find(char *py, size_t npy, char *pydir, size_t npd, char *why, size_t nwhy);
int cli_python_run(const char *cmd, const char *module, int argc, char **argv);
void cli_study_report(const char *dir);

/* Statistics of one kernel (by name) summed over its launches. */
#define CLI_MAX_KERNELS 32
struct kernel_stats {
    char name[256];
    uint64_t launches, ctas, thread_insns, warp_insns;
    uint64_t iclass_warp[PIC_COUNT];
    unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z;   /* of the last launch */
    uint32_t regs_per_thread;
    uint64_t static_smem, local_bytes;
};

/* One workload execution, shared by run and bench. */
struct wl_exec {
    const struct workload *wl;
    struct wl_opts opts;
    const char *ptx_path;      /* NULL = embedded PTX */
    /* results */
    ws_status status;
    char error[4096];          /* API error message when status != WS_SUCCESS */
    struct wl_result result;
    ws_stats stats;
    double host_seconds;       /* whole driver: inputs, launches, copies, CPU reference */
    double sim_seconds;        /* wall seconds inside kernel launches only: the simulation rate's denominator */
    double sim_cpu_seconds;    /* host CPU seconds (user + system, all threads) inside kernel launches */
    struct kernel_stats kernels[CLI_MAX_KERNELS];
    unsigned nkernels;
    uint64_t iclass_warp[PIC_COUNT];
    int progress;              /* enum gpu_progress: progress on stderr during timing launches */
    ws_limits limits;          /* --max-warp-insns, --max-cycles, --max-seconds (0 = none) */

    /* timing mode (the default of `run`; functional when timing == 0) */
    int timing;
    const char *config;        /* --config: a file, or a preset name (configs/NAME.config, built in) */
#define CLI_MAX_SETS 128
    const char *set_names[CLI_MAX_SETS], *set_values[CLI_MAX_SETS];   /* --set name=value, in order */
    unsigned nset;
    const char *warp_sched, *cta_sched;   /* --warp-sched / --cta-sched */
    const char *l1_repl, *l2_repl;        /* --l1-repl / --l2-repl */
    const char *l1_bypass, *l2_bypass;    /* --l1-bypass / --l2-bypass */
    const char *cm;                       /* --cm: concurrency manager (implies --warp-sched swl) */
    const char *cpu_apps;                 /* --cpu-mix / --cpu: -warpsim_cpu_apps */
    /* the chip's CPU cores after a timing run (malloc'ed, cli_exec_free); cpu_failed: they stopped */
    int cpu_failed;
    uint64_t gpu_cycles;
    uint64_t cpu_insns;                   /* retired by every CPU core in the whole run */
    unsigned n_cpu;
    struct gpu_cpu_result *cpu;
    const char *timeseries_path, *warps_path;
    int warn_unknown;          /* unknown config options warn instead of failing */
    int per_kernel_text;       /* text report: every kernel's full section */
    /* timing results, captured before the context goes away (malloc'ed, cli_exec_free) */
    int setup_failed;          /* the configuration or the --ptx file was rejected (a usage error) */
    char *timing_text;         /* gpu_report_text */
    char *timing_json;         /* gpu_report_json body */
    char *effective_config;    /* gpu_config_write */
    uint64_t peak_host_bytes;  /* unused by run; bench measures RSS */
};
/* Free what cli_exec_workload captured. */
void cli_exec_free(struct wl_exec *x);

/* Warp instruction counts of earlier runs of the same inputs (run_counts.c), for the progress ETA:
   0 when unknown.  Remembered after a run that finished. */
uint64_t cli_known_warp_insns(const struct wl_exec *x);
void cli_remember_warp_insns(const struct wl_exec *x, uint64_t warp_insns);

/* Timing configuration (cli_config.c): load --config (an existing file, else a
   built-in preset by name, with or without ".config") into c.  -1 + message. */
struct cfg;
int cli_config_load(struct cfg *c, const char *spec, char *msg, size_t n);
/* "gtx480, gtx480-l1d16way, ..." */
void cli_preset_names(char *buf, size_t n);
/* Every built-in preset with its description line (warpsim list --presets). */
void cli_preset_list(FILE *f);
/* The bundled workload's `ptxas -v` report, embedded at build time (NULL if none). */
const char *cli_wl_ptxas_text(const char *workload, size_t *len);
/* Text of a built-in preset (NULL if none). */
const char *cli_preset_text(const char *name, size_t *len);
/* Create a context (functional, or timing with x->config etc.), load the PTX,
   run the driver.  Returns status. */
ws_status cli_exec_workload(struct wl_exec *x);

/* argument helpers: print "warpsim CMD: ..." and return -1 on a bad value */
int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
int cli_parse_seconds(const char *cmd, const char *opt, const char *s, double *out);
int cli_is_help(const char *a);
/* cli_args.c: "--name=value" becomes "--name" "value" in argv (up to a "--"; -1 when out of memory);
   an unknown option's message names the nearest option of the command's --help text, if one is close */
int cli_split_long_options(int *argc, char ***argv);
int cli_nearest_option(void (*usage)(FILE *), const char *given, char *best, size_t n);
void cli_unknown_option(const char *cmd, const char *given, void (*usage)(FILE *));
double cli_now(void);   /* monotonic seconds */


/* ---- seed 004's metrics of a run on the CPU-GPU chip (hetero_metrics.c) ---- */
#define HETERO_MAX_APPS 1024
struct hetero_app {
    unsigned core;
    const char *app;           /* points into the shared run's results */
    double ipc_shared, ipc_alone;
};
struct hetero_metrics {
    int valid;                 /* the shared run had measured CPU cores and the alone runs worked */
    double gpu_ipc_shared, gpu_ipc_alone, su_gpu, ws_cpu;
    uint64_t gpu_cycles_alone;
    double oss[11];            /* alpha = 0, 0.1, ..., 1 */
    unsigned n_apps;
    struct hetero_app app[HETERO_MAX_APPS];
};
/* The GPU-alone run and each distinct application's alone run, then SU_GPU, WS_CPU, OSS.  0 (valid = 0
   when the run had no measured CPU core), or -1 with err. */
int cli_hetero_metrics(const struct wl_exec *x, struct hetero_metrics *m, char *err, size_t n);
void cli_hetero_print(FILE *f, const struct hetero_metrics *m);
struct json;
void cli_hetero_json(struct json *j, const struct hetero_metrics *m);
/* Only the CPU cores of the machine x describes (no workload, no kernel): warm-up and quota; core `core`'s
   result in *out.  0, or -1 with x->error. */
int cli_exec_cpu_only(struct wl_exec *x, unsigned core, struct gpu_cpu_result *out);
/* The chip of config c with only its CPU cores running: apps (a core each, "-" idle) measured over
   quota instructions each from the start (-warpsim_cpu_quota, -warpsim_cpu_warmup 0), run to the end.
   The context (read ws_gpu(ctx), then wsDestroy), or NULL with err; `who` names the caller in c. */
struct cfg;
ws_ctx *cli_chip_cpu_run(struct cfg *c, const char *apps, uint64_t quota, const char *who, char *err, size_t en);
/* Jobs 0..njobs-1 as child processes, up to `parallel` (1..CLI_POOL_MAX) at a time, started in index
   order: start(idx) forks job idx and returns the child's pid, or 0 when the job is not to run (done
   before) or could not start (start says so and counts it); finished(idx, status, secs, running) when
   the child ends, with its waitpid status, its wall seconds and the children still running.  Returns
   when every started child has ended: 0, or -1 when waitpid failed (errno). */
#define CLI_POOL_MAX 256
int cli_pool_run(size_t njobs, unsigned parallel, pid_t (*start)(size_t idx, void *u),
                 void (*finished)(size_t idx, int wait_status, double secs, unsigned running, void *u),
                 void *u);
/* A bundled workload run functionally with every launch going through the kernel tracer t
   (cpu/kernel_trace.h, kt_run_grid): its embedded PTX, the driver with options o, the limits of
   `warpsim run`.  The driver's status, *res (verified, detail); when the status is not WS_SUCCESS,
   err = "WORKLOAD: message" and res->verified = 0.  `trace from-kernel` and `pdp collect`. */
struct kt_tracer;
ws_status cli_traced_workload_run(const struct workload *wl, const struct wl_opts *o, struct kt_tracer *t,
                                  struct wl_result *res, char *err, size_t en);

#endif
