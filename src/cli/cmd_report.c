/*
 * cmd_report.c - `warpsim report PATH...`: one self-contained HTML page of
 * runs, sweeps and studies, drawn by the Python package python/warpsim
 * (pandas + matplotlib; `python3 -m warpsim.report`).  Also what the other
 * commands share to call it: finding a Python that imports pandas and
 * matplotlib, finding the package, and the report a study writes at its end.
 *
 * The interpreter: $WARPSIM_PYTHON, else /usr/bin/python3 (Debian's, which
 * sees python3-pandas and python3-matplotlib), else python3 on PATH; the
 * first that imports both.  The package: the first of
 * $WARPSIM_PYTHONPATH, EXE_DIR/../share/warpsim/python (an installed
 * warpsim), the source tree's python/ (its path compiled in as
 * WARPSIM_PYTHON_DIR) and EXE_DIR/../python (a build directory inside the
 * source tree) that holds warpsim/report.py; it goes in front of PYTHONPATH.
 * With none, the interpreter's own (pip-installed) package is used.
 * docs/report.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#ifndef WARPSIM_PYTHON_DIR
#define WARPSIM_PYTHON_DIR ""
#endif

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Run argv (argv[0] looked up on PATH when it has no '/') with PYTHONPATH = pydir[:old] when pydir is
   given; stdout and stderr to /dev/null when quiet.  Returns the exit status, 127 when it could not run,
   128 + N for a signal. */
static int py_spawn(char *const argv[], const char *pydir, int quiet)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        if (quiet) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                close(fd);
            }
        }
        if (pydir && pydir[0]) {
            const char *old = getenv("PYTHONPATH");
            size_t n = strlen(pydir) + (old ? strlen(old) : 0) + 2;
            char *pp = malloc(n);
            if (pp) {
                snprintf(pp, n, "%s%s%s", pydir, old && old[0] ? ":" : "", old && old[0] ? old : "");
                setenv("PYTHONPATH", pp, 1);
            }
        }
        setenv("MPLBACKEND", "Agg", 1);
        setenv("PYTHONDONTWRITEBYTECODE", "1", 1);   /* no __pycache__ in the source tree */
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 127;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* The directory that holds the package warpsim/ (see the head comment), or "" */
static void py_package_dir(char *buf, size_t n)
{
    char exe[PATH_MAX], cand[4][PATH_MAX + 64];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[el > 0 ? el : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    const char *env = getenv("WARPSIM_PYTHONPATH");
    snprintf(cand[0], sizeof cand[0], "%s", env ? env : "");
    snprintf(cand[1], sizeof cand[1], "%s/../share/warpsim/python", exe);
    snprintf(cand[2], sizeof cand[2], "%s", WARPSIM_PYTHON_DIR);
    snprintf(cand[3], sizeof cand[3], "%s/../python", exe);
    for (int i = 0; i < 4; i++) {
        char probe[PATH_MAX + 100];
        if (!cand[i][0] || (i != 0 && i != 2 && !exe[0]))
            continue;
        snprintf(probe, sizeof probe, "%.*s/warpsim/report.py", (int)(PATH_MAX + 63), cand[i]);
        if (is_file(probe)) {
            char real[PATH_MAX];
            snprintf(buf, n, "%s", realpath(cand[i], real) ? real : cand[i]);
            return;
        }
    }
    buf[0] = '\0';
}

/* 0 when py finds every module of the comma list mods (found, not imported: fast), 127 when py does not
   run, else 1 */
static int py_finds(const char *py, const char *pydir, const char *mods)
{
    char code[512];
    snprintf(code, sizeof code,
             "import importlib.util as u, sys\n"
             "sys.exit(0 if all(u.find_spec(m) for m in '%s'.split(',')) else 1)",
             mods);
    char *argv[] = {(char *)py, "-c", code, NULL};
    int rc = py_spawn(argv, pydir, 1);
    return rc == 0 ? 0 : rc == 127 ? 127 : 1;
}

int cli_python_find(char *py, size_t npy, char *pydir, size_t npd, char *why, size_t nwhy)
{
    py_package_dir(pydir, npd);
    const char *env = getenv("WARPSIM_PYTHON");
    const char *cands[3];
    int nc = 0;
    if (env && env[0])
        cands[nc++] = env;
    else {
        cands[nc++] = "/usr/bin/python3";
        cands[nc++] = "python3";
    }
    const char *first = NULL;
    for (int i = 0; i < nc; i++) {
        if (strchr(cands[i], '/') && !is_file(cands[i]))
            continue;
        int rc = py_finds(cands[i], pydir, "pandas,matplotlib,warpsim.report");
        if (rc == 127)
            continue;   /* not there (or not a Python) */
        if (!first)
            first = cands[i];
        if (rc == 0) {
            snprintf(py, npy, "%s", cands[i]);
            return 0;
        }
    }
    if (!first) {
        snprintf(why, nwhy, "no Python 3 found (%s%s); install python3 python3-pandas python3-matplotlib "
                            "(Debian/Ubuntu; scripts/deps.sh does it) or set WARPSIM_PYTHON",
                 env && env[0] ? "does not run: WARPSIM_PYTHON=" : "tried /usr/bin/python3, python3 on PATH",
                 env && env[0] ? env : "");
        return -1;
    }
    /* name what the first interpreter lacks */
    const char *lack = py_finds(first, pydir, "pandas") != 0       ? "pandas (python3-pandas)"
                       : py_finds(first, pydir, "matplotlib") != 0 ? "matplotlib (python3-matplotlib)"
                                                                   : NULL;
    if (lack)
        snprintf(why, nwhy, "%s cannot import %s; install python3-pandas and python3-matplotlib "
                            "(Debian/Ubuntu; scripts/deps.sh does it) or point WARPSIM_PYTHON at a Python "
                            "that has them",
                 first, lack);
    else
        snprintf(why, nwhy, "%s cannot import the package warpsim (python/warpsim of the source tree, "
                            "looked for in %s): set WARPSIM_PYTHONPATH to the source tree's python/ "
                            "directory or pip install it",
                 first, pydir[0] ? pydir : "$WARPSIM_PYTHONPATH, EXE_DIR/../share/warpsim/python, EXE_DIR/../python");
    return -1;
}

int cli_python_run(const char *cmd, const char *module, int argc, char **argv)
{
    char py[PATH_MAX], pydir[PATH_MAX], why[PATH_MAX + 512];
    if (cli_python_find(py, sizeof py, pydir, sizeof pydir, why, sizeof why) != 0) {
        fprintf(stderr, "warpsim %s: needs Python 3 with pandas and matplotlib: %s\n", cmd, why);
        return EXIT_USAGE;
    }
    char **av = calloc((size_t)argc + 4, sizeof *av);
    if (!av)
        return EXIT_SIM_ERROR;
    av[0] = py;
    av[1] = "-m";
    av[2] = (char *)module;
    for (int i = 0; i < argc; i++)
        av[3 + i] = argv[i];
    int rc = py_spawn(av, pydir, 0);
    free(av);
    if (rc == 127) {
        fprintf(stderr, "warpsim %s: could not run %s -m %s\n", cmd, py, module);
        return EXIT_SIM_ERROR;
    }
    return rc == 0 ? EXIT_OK : rc == 2 ? EXIT_USAGE : EXIT_SIM_ERROR;
}

void cli_study_report(const char *dir)
{
    char py[PATH_MAX], pydir[PATH_MAX], why[PATH_MAX + 512];
    if (getenv("WARPSIM_NO_REPORT") && getenv("WARPSIM_NO_REPORT")[0] == '1')
        return;
    if (cli_python_find(py, sizeof py, pydir, sizeof pydir, why, sizeof why) != 0) {
        fprintf(stderr, "warpsim study: no HTML report: %s\n", why);
        return;
    }
    char out[PATH_MAX + 16];
    snprintf(out, sizeof out, "%s/report.html", dir);
    char *av[] = {py, "-m", "warpsim.report", (char *)dir, "-o", out, NULL};
    if (py_spawn(av, pydir, 0) != 0)
        fprintf(stderr, "warpsim study: the HTML report of %s failed (the study's tables and CSV files are "
                        "written; `warpsim report %s` retries)\n",
                dir, dir);
}

static void report_usage(FILE *f)
{
    fputs("usage: warpsim report PATH... [-o report.html] [--stat NAME] [--baseline NAME] [--title T]\n"
          "\n"
          "Write one self-contained HTML page (figures as inline SVG, no network needed to open it) for\n"
          "each PATH, in order:\n"
          "  RUN.json     a run (`warpsim run -o RUN.json`): IPC, CTAs and warps per SM, L1D/L2 miss\n"
          "               rates, DRAM bandwidth and the policies' state over time (RUN.timeseries.csv),\n"
          "               stall breakdown, lat_rt histogram, per-warp execution-time spread\n"
          "               (RUN.warps.csv, from --warps): whatever the run's files contain\n"
          "  DIR or CSV   a sweep (`warpsim sweep`): bar charts of a statistic per workload and\n"
          "               configuration, normalised to --baseline\n"
          "  DIR          a study (`warpsim study NAME`): the figures that mirror the seed's, the seed's\n"
          "               numbers beside the measured ones, the study's tables\n"
          "\n"
          "options:\n"
          "  -o, --output FILE   the page (default: DIR/report.html, RUN.report.html, or report.html\n"
          "                      for several paths)\n"
          "  --stat NAME[,NAME]  sweeps: the statistic, a column of the sweep CSV (default gpu_ipc);\n"
          "                      several: one chart each\n"
          "  --baseline NAME     sweeps: normalise to the configuration with this value (e.g. lrr)\n"
          "  --title T           the page's title\n"
          "\n"
          "Needs Python 3 with pandas and matplotlib (Debian: python3-pandas python3-matplotlib;\n"
          "scripts/deps.sh installs them): $WARPSIM_PYTHON, else /usr/bin/python3, else python3 on\n"
          "PATH.  The Python package is the source tree's python/warpsim (docs/report.md).\n"
          "\n"
          "exit status: 0 written, 2 bad input or no suitable Python, 3 the report failed\n",
          f);
}

int cmd_report(int argc, char **argv)
{
    int npaths = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            report_usage(stdout);
            return EXIT_OK;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--stat") == 0 ||
            strcmp(a, "--baseline") == 0 || strcmp(a, "--title") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim report: option %s needs a value\n", a);
                return EXIT_USAGE;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim report: unknown option '%s' (see warpsim report --help)\n", a);
            return EXIT_USAGE;
        } else {
            npaths++;
        }
    }
    if (npaths == 0) {
        fprintf(stderr, "warpsim report: what to report? (a run's JSON, a sweep or a study directory; see "
                        "warpsim report --help)\n");
        return EXIT_USAGE;
    }
    return cli_python_run("report", "warpsim.report", argc - 1, argv + 1);
}
