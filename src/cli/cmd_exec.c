/* cmd_exec.c - `warpsim exec [options] -- PROGRAM ARGS`: run an unmodified CUDA program (built with
   `nvcc -cudart shared`) on the simulated GPU through warpsim's libcudart.so (src/cudart,
   docs/cudart.md).  The machine is configured here as for `warpsim run`, written as an effective
   configuration file and handed to the library in the environment with the output options; the
   program's stdout is its own, warpsim's report goes to stderr or to -o FILE as JSON. */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "core/arena.h"
#include "core/config.h"
#include "host/ws_internal.h"
#include "sys/gpu.h"

int cmd_exec(int argc, char **argv);

#define GPGPUSIM_CWD_CONFIG "gpgpusim.config"

static void exec_usage(FILE *f)
{
    fputs("usage: warpsim exec [options] [--] PROGRAM [ARGS...]\n"
          "\n"
          "Run a CUDA program on the simulated GPU, unmodified: warpsim's CUDA runtime library\n"
          "(libcudart.so.13, or libcudart.so.12 for a program linked by CUDA 12: the one the program's\n"
          "dynamic section names) takes the place of NVIDIA's.  Build the program with\n"
          "  nvcc -cudart shared -gencode arch=compute_75,code=compute_75 ...\n"
          "(the fatbinary must hold PTX; docs/cudart.md).  The program's output is its own; warpsim's\n"
          "statistics are printed to stderr when it exits (or written with -o).  The exit status is\n"
          "the program's.\n"
          "\n"
          "options (as `warpsim run`):\n"
          "  --config FILE|PRESET     machine configuration (default: ./gpgpusim.config when the working\n"
          "                           directory has one, as for GPGPU-Sim; else the built-in GTX480)\n"
          "  --set OPTION=VALUE       override one option; repeatable, applied after --config\n"
          "  --warp-sched, --cta-sched, --l1-repl, --l2-repl, --l1-bypass, --l2-bypass, --cm NAME\n"
          "                           policies (warpsim list --policies)\n"
          "  --threads N              host threads that tick the SMs (= --set warpsim_threads=N)\n"
          "  --functional             functional simulation only (no timing; fast)\n"
          "  -o, --output FILE        write the report as JSON to FILE (and NAME.config, the effective\n"
          "                           configuration, and NAME.timeseries.csv beside it)\n"
          "  --timeseries FILE.csv    time series;  --warps FILE.csv: one row per finished warp\n"
          "  --kernel-stats           every kernel's full statistics in the text report\n"
          "  --max-warp-insns N, --max-cycles N, --max-seconds S   launch limits (as run; 0 = none)\n"
          "  --warn-unknown-options   unknown config options warn instead of failing\n"
          "  --quiet                  no report\n"
          "\n"
          "The library is looked up beside this executable (BUILD/cudart/) unless WARPSIM_CUDART_DIR\n"
          "names its directory.  Without warpsim exec: LD_LIBRARY_PATH=BUILD/cudart ./program\n"
          "(the WARPSIM_CUDART_* variables of docs/cudart.md configure it).\n",
          f);
}

static void beside(char *dst, size_t n, const char *out, const char *suffix)
{
    size_t l = strlen(out);
    if (l > 5 && strcmp(out + l - 5, ".json") == 0)
        l -= 5;
    snprintf(dst, n, "%.*s%s", (int)l, out, suffix);
}

/* The program's file as execvp finds it: a name without '/' is looked up in PATH. */
static int resolve_program(const char *prog, char *path, size_t n)
{
    if (strchr(prog, '/')) {
        snprintf(path, n, "%s", prog);
        return access(path, R_OK) == 0 ? 0 : -1;
    }
    const char *p = getenv("PATH");
    if (!p || !*p)
        p = "/usr/local/bin:/usr/bin:/bin";
    while (*p) {
        const char *c = strchr(p, ':');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        snprintf(path, n, "%.*s/%s", (int)(l ? l : 1), l ? p : ".", prog);
        if (access(path, X_OK) == 0)
            return 0;
        p += l + (c ? 1 : 0);
    }
    return -1;
}

/* The CUDA runtime major version a program asks for: 12 or 13 from a DT_NEEDED entry
   libcudart.so.12 / libcudart.so.13 of its dynamic section (64-bit little-endian ELF), 0 when it
   names neither (not ELF, no dynamic section, static runtime, a script).  Reads the section headers:
   the SHT_DYNAMIC section and the string table its sh_link names. */
static int program_cudart_major(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return 0;
    int major = 0;
    Elf64_Ehdr eh;
    if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum > 4096)
        goto out;
    Elf64_Shdr *sh = calloc(eh.e_shnum, sizeof *sh);
    if (!sh)
        goto out;
    if (fseek(f, (long)eh.e_shoff, SEEK_SET) != 0 || fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum)
        goto out_sh;
    for (unsigned i = 0; i < eh.e_shnum && !major; i++) {
        if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= eh.e_shnum)
            continue;
        const Elf64_Shdr *ss = &sh[sh[i].sh_link];
        if (sh[i].sh_size > (1u << 24) || ss->sh_size > (1u << 26))
            continue;
        size_t nd = (size_t)(sh[i].sh_size / sizeof(Elf64_Dyn));
        Elf64_Dyn *dyn = calloc(nd ? nd : 1, sizeof *dyn);
        char *str = malloc((size_t)ss->sh_size + 1);
        if (dyn && str && fseek(f, (long)sh[i].sh_offset, SEEK_SET) == 0 && fread(dyn, sizeof *dyn, nd, f) == nd &&
            fseek(f, (long)ss->sh_offset, SEEK_SET) == 0 && fread(str, 1, (size_t)ss->sh_size, f) == ss->sh_size) {
            str[ss->sh_size] = '\0';
            for (size_t k = 0; k < nd && dyn[k].d_tag != DT_NULL; k++) {
                if (dyn[k].d_tag != DT_NEEDED || dyn[k].d_un.d_val >= ss->sh_size)
                    continue;
                const char *name = str + dyn[k].d_un.d_val;
                if (strcmp(name, "libcudart.so.12") == 0)
                    major = 12;
                else if (strcmp(name, "libcudart.so.13") == 0)
                    major = 13;
            }
        }
        free(dyn);
        free(str);
    }
out_sh:
    free(sh);
out:
    fclose(f);
    return major;
}

/* The directory holding libcudart.so.MAJOR: WARPSIM_CUDART_DIR, else beside the executable. */
static int find_lib_dir(char *dir, size_t n, int major)
{
    const char *e = getenv("WARPSIM_CUDART_DIR");
    char path[PATH_MAX + 128];
    if (e && *e) {
        snprintf(dir, n, "%s", e);
        snprintf(path, sizeof path, "%s/libcudart.so.%d", dir, major);
        return access(path, R_OK) == 0 ? 0 : -1;
    }
    char exe[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l <= 0)
        return -1;
    exe[l] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    static const char *const subdirs[] = {"cudart", "../lib/warpsim"};
    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s/libcudart.so.%d", exe, subdirs[i], major);
        if (access(path, R_OK) == 0) {
            snprintf(dir, n, "%s/%s", exe, subdirs[i]);
            return 0;
        }
    }
    snprintf(dir, n, "%s/cudart", exe);
    return -1;
}

struct exec_opts {
    const char *config, *warp_sched, *cta_sched, *l1_repl, *l2_repl, *l1_bypass, *l2_bypass, *cm;
    const char *set_names[CLI_MAX_SETS], *set_values[CLI_MAX_SETS];
    unsigned nset;
    int warn_unknown;
};

/* Validate the machine as `run` builds it and write its effective configuration to f. */
static int write_config(const struct exec_opts *o, FILE *f, char *msg, size_t n)
{
    struct arena *a = arena_new(0);
    if (!a) {
        snprintf(msg, n, "out of host memory");
        return -1;
    }
    struct cfg c;
    cfg_init(&c, a);
    int rc = cli_config_load(&c, o->config, msg, n);
    if (rc == 0) {
        if (o->warp_sched)
            cfg_set(&c, "gpgpu_scheduler", o->warp_sched, "--warp-sched");
        else if (o->cm && strcmp(o->cm, "none") != 0)
            cfg_set(&c, "gpgpu_scheduler", "swl", "--cm");
        if (o->cm)
            cfg_set(&c, "warpsim_cm", o->cm, "--cm");
        if (o->cta_sched)
            cfg_set(&c, "warpsim_cta_scheduler", o->cta_sched, "--cta-sched");
        if (o->l1_repl)
            cfg_set(&c, "warpsim_l1d_repl", o->l1_repl, "--l1-repl");
        if (o->l2_repl)
            cfg_set(&c, "warpsim_l2_repl", o->l2_repl, "--l2-repl");
        if (o->l1_bypass)
            cfg_set(&c, "warpsim_l1d_bypass", o->l1_bypass, "--l1-bypass");
        if (o->l2_bypass)
            cfg_set(&c, "warpsim_l2_bypass", o->l2_bypass, "--l2-bypass");
        for (unsigned i = 0; rc == 0 && i < o->nset; i++)
            if (cfg_set(&c, o->set_names[i], o->set_values[i], "--set") != 0) {
                snprintf(msg, n, "--set %s=%s: not an option assignment", o->set_names[i], o->set_values[i]);
                rc = -1;
            }
    }
    ws_ctx *ctx = NULL;
    if (rc == 0) {
        ws_ctx_opts co = {WS_MODE_TIMING, 0, NULL};
        if (ws_create_ex(&ctx, &co, msg, n) != WS_SUCCESS)
            rc = -1;
        else if (ws_set_timing_config(ctx, &c, o->warn_unknown, stderr) != WS_SUCCESS) {
            snprintf(msg, n, "%s", wsGetErrorMessage(ctx));
            rc = -1;
        }
    }
    if (rc == 0) {
        gpu_config_write(f, gpu_config(ws_gpu(ctx)));
        gpu_write_policy_params(ws_gpu(ctx), f);
    }
    wsDestroy(ctx);
    arena_free(a);
    return rc;
}

static int needs_value(const char *a)
{
    static const char *const opts[] = {"--config", "--set", "--warp-sched", "--cta-sched", "--l1-repl", "--l2-repl",
                                       "--l1-bypass", "--l2-bypass", "--cm", "--threads", "-o", "--output",
                                       "--timeseries", "--warps", "--max-warp-insns", "--max-cycles",
                                       "--max-seconds"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(a, opts[i]) == 0)
            return 1;
    return 0;
}

int cmd_exec(int argc, char **argv)
{
    struct exec_opts o;
    memset(&o, 0, sizeof o);
    const char *out = NULL, *ts = NULL, *warps = NULL;
    const char *max_insns = NULL, *max_cycles = NULL, *max_seconds = NULL;
    int functional = 0, kernel_stats = 0, quiet = 0, prog = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            prog = i + 1;
            break;
        }
        if (a[0] != '-') {
            prog = i;
            break;
        }
        if (cli_is_help(a)) {
            exec_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--functional") == 0) {
            functional = 1;
        } else if (strcmp(a, "--kernel-stats") == 0) {
            kernel_stats = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--warn-unknown-options") == 0) {
            o.warn_unknown = 1;
        } else if (needs_value(a)) {
            if (!v) {
                fprintf(stderr, "warpsim exec: option %s needs a value\n", a);
                return EXIT_USAGE;
            }
            i++;
            uint64_t u;
            double d;
            if (strcmp(a, "--config") == 0)
                o.config = v;
            else if (strcmp(a, "--set") == 0 || strcmp(a, "--threads") == 0) {
                const char *eq = strchr(v, '=');
                int threads = strcmp(a, "--threads") == 0;
                if ((!threads && (!eq || eq == v)) || o.nset == CLI_MAX_SETS) {
                    fprintf(stderr, "warpsim exec: --set expects OPTION=VALUE (at most %d), got '%s'\n",
                            CLI_MAX_SETS, v);
                    return EXIT_USAGE;
                }
                if (threads) {
                    o.set_names[o.nset] = "warpsim_threads";
                    o.set_values[o.nset++] = v;
                } else {
                    argv[i][eq - v] = '\0';
                    o.set_names[o.nset] = argv[i];
                    o.set_values[o.nset++] = argv[i] + (eq - v) + 1;
                }
            } else if (strcmp(a, "--warp-sched") == 0)
                o.warp_sched = v;
            else if (strcmp(a, "--cta-sched") == 0)
                o.cta_sched = v;
            else if (strcmp(a, "--l1-repl") == 0)
                o.l1_repl = v;
            else if (strcmp(a, "--l2-repl") == 0)
                o.l2_repl = v;
            else if (strcmp(a, "--l1-bypass") == 0)
                o.l1_bypass = v;
            else if (strcmp(a, "--l2-bypass") == 0)
                o.l2_bypass = v;
            else if (strcmp(a, "--cm") == 0)
                o.cm = v;
            else if (strcmp(a, "--timeseries") == 0)
                ts = v;
            else if (strcmp(a, "--warps") == 0)
                warps = v;
            else if (strcmp(a, "--max-warp-insns") == 0) {
                if (cli_parse_u64("exec", a, v, &u) != 0)
                    return EXIT_USAGE;
                max_insns = v;
            } else if (strcmp(a, "--max-cycles") == 0) {
                if (cli_parse_u64("exec", a, v, &u) != 0)
                    return EXIT_USAGE;
                max_cycles = v;
            } else if (strcmp(a, "--max-seconds") == 0) {
                if (cli_parse_seconds("exec", a, v, &d) != 0)
                    return EXIT_USAGE;
                max_seconds = v;
            } else
                out = v;
        } else {
            fprintf(stderr, "warpsim exec: unknown option '%s' (see warpsim exec --help)\n", a);
            return EXIT_USAGE;
        }
    }
    if (prog < 0 || prog >= argc) {
        fprintf(stderr, "warpsim exec: which program? usage: warpsim exec [options] -- PROGRAM [ARGS...]\n");
        return EXIT_USAGE;
    }
    if (functional && (o.config || o.nset || o.warp_sched || o.cta_sched || o.cm || o.l1_repl || o.l2_repl ||
                       o.l1_bypass || o.l2_bypass || ts || warps || max_cycles)) {
        fprintf(stderr, "warpsim exec: --config, --set, the policies, --timeseries, --warps and --max-cycles apply "
                        "to timing mode; drop --functional\n");
        return EXIT_USAGE;
    }
    /* the library the program was linked against: libcudart.so.12 or .13 (both are built into the same
       directory, so the dynamic loader takes the one its DT_NEEDED names; this checks it is there) */
    char progpath[PATH_MAX + 64];
    int major = resolve_program(argv[prog], progpath, sizeof progpath) == 0 ? program_cudart_major(progpath) : 0;
    if (!major)
        major = 13;
    char libdir[PATH_MAX + 64];
    if (find_lib_dir(libdir, sizeof libdir, major) != 0) {
        fprintf(stderr, "warpsim exec: warpsim's CUDA runtime library (libcudart.so.%d) is not in %s; build the "
                        "%s target, or set WARPSIM_CUDART_DIR to its directory\n", major, libdir,
                major == 12 ? "warpsim_cudart12" : "warpsim_cudart");
        return EXIT_USAGE;
    }
    /* the results file opens before the run (a typo in its directory must not cost a simulation) */
    char cfg_out[PATH_MAX] = "", ts_default[PATH_MAX];
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f) {
            fprintf(stderr, "warpsim exec: -o %s: cannot write: %s\n", out, strerror(errno));
            return EXIT_USAGE;
        }
        fclose(f);
        if (!functional) {
            beside(cfg_out, sizeof cfg_out, out, ".config");
            if (!ts) {
                beside(ts_default, sizeof ts_default, out, ".timeseries.csv");
                ts = ts_default;
            }
        }
    }
    /* GPGPU-Sim reads gpgpusim.config from the working directory; so does `warpsim exec` when no --config
       names a machine (docs/config.md, "GPGPU-Sim configs") */
    struct stat cst;
    if (!functional && !o.config && stat(GPGPUSIM_CWD_CONFIG, &cst) == 0 && S_ISREG(cst.st_mode)) {
        o.config = GPGPUSIM_CWD_CONFIG;
        fprintf(stderr, "warpsim exec: using ./" GPGPUSIM_CWD_CONFIG " from the working directory (--config "
                        "chooses another machine)\n");
    }
    /* the machine: validated now, handed over as its effective configuration */
    char cfg_tmp[] = "/tmp/warpsim-exec-XXXXXX";
    int have_cfg = 0;
    if (!functional) {
        int fd = mkstemp(cfg_tmp);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            fprintf(stderr, "warpsim exec: cannot create a temporary file: %s\n", strerror(errno));
            if (fd >= 0)
                close(fd);
            return EXIT_USAGE;
        }
        have_cfg = 1;
        char msg[4096];
        int rc = write_config(&o, f, msg, sizeof msg);
        if (fclose(f) != 0 && rc == 0) {
            snprintf(msg, sizeof msg, "cannot write %s", cfg_tmp);
            rc = -1;
        }
        if (rc != 0) {
            fprintf(stderr, "warpsim exec: %s\n", msg);
            unlink(cfg_tmp);
            if (out)
                remove(out);
            return EXIT_USAGE;
        }
    }
    /* the environment the library reads (docs/cudart.md) */
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t ll = strlen(libdir) + (old ? strlen(old) : 0) + 2;
    char *ldp = malloc(ll);
    if (!ldp)
        return EXIT_SIM_ERROR;
    snprintf(ldp, ll, "%s%s%s", libdir, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", ldp, 1);
    free(ldp);
    static const char *const vars[] = {"WARPSIM_CUDART_CONFIG", "WARPSIM_CUDART_FUNCTIONAL", "WARPSIM_CUDART_OUTPUT",
                                       "WARPSIM_CUDART_TIMESERIES", "WARPSIM_CUDART_WARPS",
                                       "WARPSIM_CUDART_KERNEL_STATS", "WARPSIM_CUDART_QUIET",
                                       "WARPSIM_CUDART_MAX_WARP_INSNS", "WARPSIM_CUDART_MAX_CYCLES",
                                       "WARPSIM_CUDART_MAX_SECONDS"};
    const char *vals[] = {have_cfg ? cfg_tmp : NULL, functional ? "1" : NULL, out, ts, warps,
                          kernel_stats ? "1" : NULL, quiet ? "1" : NULL, max_insns, max_cycles, max_seconds};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        if (vals[i])
            setenv(vars[i], vals[i], 1);
        else
            unsetenv(vars[i]);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpsim exec: fork: %s\n", strerror(errno));
        if (have_cfg)
            unlink(cfg_tmp);
        return EXIT_SIM_ERROR;
    }
    if (pid == 0) {
        execvp(argv[prog], argv + prog);
        fprintf(stderr, "warpsim exec: cannot run %s: %s\n", argv[prog], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (WIFSIGNALED(status))
        fprintf(stderr, "warpsim exec: %s was killed by signal %d (%s)\n", argv[prog], WTERMSIG(status),
                strsignal(WTERMSIG(status)));
    if (have_cfg && cfg_out[0]) {   /* keep the effective configuration beside the results */
        FILE *in = fopen(cfg_tmp, "r"), *f = fopen(cfg_out, "w");
        if (in && f) {
            fprintf(f, "# warpsim exec ... -- %s (effective configuration; reproduce with --config %s)\n",
                    argv[prog], cfg_out);
            char buf[4096];
            size_t got;
            while ((got = fread(buf, 1, sizeof buf, in)) > 0)
                fwrite(buf, 1, got, f);
        }
        if (in)
            fclose(in);
        if (f)
            fclose(f);
    }
    if (have_cfg)
        unlink(cfg_tmp);
    if (out) {
        struct stat st;
        if (stat(out, &st) == 0 && st.st_size == 0)
            fprintf(stderr, "warpsim exec: %s wrote no report to %s (it never used the device, or it does not "
                            "load warpsim's libcudart.so: was it built with nvcc -cudart shared?)\n",
                    argv[prog], out);
        else if (!quiet)
            fprintf(stderr, "warpsim exec: results written to %s\n", out);
    }
    return rc;
}
