"""`python3 -m warpsim.report PATH... [-o report.html] [--stat S] [--baseline NAME]`: one self-contained HTML
page (figures as inline SVG) for runs (NAME.json), sweeps (a directory or its CSV) and studies (a study's
directory).  `warpsim report` runs this module; docs/report.md describes the page.
"""

import argparse
import math
import os
import sys

from . import data, plots
from .html import Page

_KEY_STATS = [
    ("gpu_sim_cycle", "core cycles"), ("gpu_sim_insn", "thread instructions"),
    ("gpu_sim_warp_insn", "warp instructions"), ("gpu_ipc", "thread insns / core cycle"),
    ("gpu_warp_ipc", "warp insns / core cycle"), ("gpu_occupancy", "% of the warp slots"),
    ("L1D_total_cache_miss_rate", "fraction"), ("L2_total_cache_miss_rate", "fraction"),
    ("dram_bw_util", "fraction of DRAM cycles"), ("dram_row_buffer_hit_rate", "fraction"),
    ("lat_rt_avg", "core cycles"), ("util", "fraction"), ("RACT", "fraction of resident warps active"),
    ("C_idle", "cycles"),
    ("C_mem", "cycles"), ("type_hint", ""),
]

_CAPTIONS = {
    "ts_ipc": "IPC per time-series sample (-warpsim_sample_interval core cycles); grey bands: alternate kernels.",
    "ts_occupancy": "CTAs and warps resident on the SMs at the end of every sample: the mean over the SMs, "
                    "the band from the least to the most loaded SM.",
    "ts_miss_rates": "L1D and L2 miss rates of the accesses in each sample.",
    "ts_dram": "Share of the DRAM cycles in which a channel's data bus was busy, per sample.",
    "ts_policy": "The policies' own state per sample (CTA limit, paused CTAs, the warp scheduler's column, "
                 "warp limits, congestion, CPU IPC: whichever the run has).",
    "stall_breakdown": "Whole run: scheduler cycles without an issue, by reason (docs/timing.md).",
    "lat_rt_hist": "Whole run: round-trip latency of the memory requests from the SMs.",
    "warp_spread": "From the per-warp file: execution time of every warp, and per CTA the spread between "
                   "its slowest and fastest warp.",
}


def run_section(page, run, level=2):
    m = run.meta
    page.h(level, "Run %s" % run.name)
    page.kv([(k, m[k]) for k in ("workload", "size", "seed", "mode", "config", "warp_sched", "cta_sched", "cm",
                                  "cpu_apps", "status", "verified", "command") if k in m]
            + [(k, v) for k, v in m.items() if k.startswith("set_")])
    rows = []
    for k, unit in _KEY_STATS:
        v = run.stat(k, None)
        if v is not None and not (isinstance(v, float) and math.isnan(v)):
            rows.append((k, v, unit))
    if rows:
        import pandas as pd
        page.h(level + 1, "Totals")
        page.table(pd.DataFrame(rows, columns=["statistic", "value", "unit"]))
    if len(run.kernels) > 1 and "name" in run.kernels.columns:
        cols = [c for c in ("kernel_id", "name", "gpu_sim_cycle", "gpu_sim_insn", "gpu_ipc",
                            "L1D_total_cache_miss_rate", "L2_total_cache_miss_rate", "lat_rt_avg")
                if c in run.kernels.columns]
        page.h(level + 1, "Kernels")
        page.table(run.kernels[cols])
    figs = plots.run_figures(run)
    if not figs:
        page.p("No figures: the run has no time series, per-warp file or timing statistics (a functional run, "
               "or files not beside the JSON).", cls="note")
    for name, fig in figs:
        page.figure(fig, _CAPTIONS.get(name))
    missing = []
    if run.timeseries is None:
        missing.append("time series (NAME.timeseries.csv: `warpsim run -o` writes it)")
    if run.warps is None:
        missing.append("per-warp file (NAME.warps.csv: `warpsim run --warps`)")
    if missing and run.meta.get("mode") == "timing":
        page.p("Not in this run's files: %s." % "; ".join(missing), cls="note")


def sweep_section(page, sweep, stat, baseline, level=2):
    page.h(level, "Sweep %s" % sweep.name)
    page.p("%d runs from %s; configurations told apart by: %s." % (
        len(sweep.runs), sweep.path, ", ".join(sweep.configurations()) or "(one configuration)"))
    stats = [x for x in stat.split(",") if x] if stat else ["gpu_ipc"]
    for s in stats:
        fig, tab = plots.sweep_bars(sweep, s, baseline)   # KeyError: no such statistic or baseline
        if fig is not None:
            page.figure(fig, "%s per workload (groups) and configuration (bars)%s." % (
                s, ", normalised to the baseline %s; GMEAN: geometric mean" % baseline if baseline else ""))
        page.table(tab.reset_index())
    bad = sweep.runs[(sweep.runs.get("status") != "WS_SUCCESS") | (sweep.runs.get("verified") != 1)] \
        if "status" in sweep.runs.columns and "verified" in sweep.runs.columns else None
    if bad is not None and len(bad):
        page.p("%d runs without a verified result (their cells are empty): %s" % (
            len(bad), ", ".join(bad["name"].astype(str).head(20))), cls="note")


def _verdict_class(row):
    v = str(row.get("verdict", ""))
    return "agrees" if v == "agrees" else "differs" if v == "differs" else "cannot"


_STUDY_TITLES = {
    "dyncta": "seed 001 (Kayiran et al., PACT'13) Fig. 1, 9, 10, 11",
    "las": "seed 003 (Chen) Fig. 5.1, 5.2, Table 5.1",
    "caws": "seed 000 (Lee) Fig. 3.5, Table 3.3",
    "l1-size": "seed 000 (Lee) Fig. 5.1, Table 5.3",
    "ctrlc": "seed 000 (Lee) Fig. 5.7-5.10",
    "cawa": "seed 000 (Lee) Fig. 4.10-4.16",
    "hetero": "seed 004 (Kayiran et al., MICRO'14) Fig. 3, 15-20",
    "heteropdp": "HeteroPDP (000, Lee) Fig. 6.7-6.14",
}


def study_section(page, st, level=2):
    page.h(level, "Study %s: %s" % (st.name, _STUDY_TITLES.get(st.name, "")))
    if st.runs is not None:
        r = st.runs.runs
        ok = int(((r.get("status") == "WS_SUCCESS") & (r.get("verified") == 1)).sum()) \
            if "status" in r.columns and "verified" in r.columns else len(r)
        page.p("%d runs (%d verified) under %s." % (len(r), ok, os.path.join(st.dir, "runs")))
    if st.setup:   # how the runs were made: machine, size, baseline, options (one paragraph)
        page.p(" ".join(st.setup))
    if len(st.checks):
        page.h(level + 1, "The seed's numbers beside the measured ones")
        page.table(st.checks.rename(columns={"paper": "seed reports", "here": "measured here"}),
                   row_class=_verdict_class)
    for caption, fig in plots.study_figures(st):
        page.figure(fig, caption)
    for stem, tab in st.tables.items():
        page.h(level + 1, "Table %s (%s.csv)" % (stem, stem))
        page.table(tab)
    if not st.tables:
        page.p("The study wrote no tables yet (its runs may still be missing).", cls="note")


def default_output(paths):
    if len(paths) == 1:
        p = paths[0]
        if os.path.isdir(p):
            return os.path.join(p, "report.html")
        return os.path.splitext(p)[0] + ".report.html"
    return "report.html"


def build(paths, stat=None, baseline=None, title=None):
    kinds = []
    for p in paths:
        k = data.kind_of(p)
        if k is None:
            raise ValueError("%s: not a run's JSON, a sweep (directory or CSV) or a study directory" % p)
        kinds.append(k)
    if title is None:
        title = "warpsim report: " + ", ".join(os.path.basename(os.path.normpath(p)) for p in paths)
    page = Page(title)
    for p, k in zip(paths, kinds):
        if k == "run":
            run_section(page, data.load(p))
        elif k == "sweep":
            sweep_section(page, data.load_sweep(p), stat, baseline)
        else:
            study_section(page, data.load_study(p))
    return page


def main(argv=None):
    ap = argparse.ArgumentParser(prog="warpsim report",
                                 description="One self-contained HTML page (inline SVG figures) for runs, "
                                             "sweeps and studies.")
    ap.add_argument("paths", nargs="+", metavar="PATH",
                    help="a run's NAME.json, a sweep's directory or CSV, or a study's directory")
    ap.add_argument("-o", "--output", help="the HTML file (default: DIR/report.html for a directory, "
                                           "NAME.report.html beside a file, report.html for several)")
    ap.add_argument("--stat", help="sweeps: the statistic, a column of the sweep CSV (default gpu_ipc); several "
                                   "separated by commas: one chart each")
    ap.add_argument("--baseline", help="sweeps: normalise to this configuration (a value of a parameter "
                                       "column, e.g. lrr)")
    ap.add_argument("--title", help="the page's title")
    a = ap.parse_args(argv)
    try:
        page = build(a.paths, a.stat, a.baseline, a.title)
    except (ValueError, OSError, KeyError) as e:
        print("warpsim report: %s" % (e.args[0] if e.args else e), file=sys.stderr)
        return 2
    out = a.output or default_output(a.paths)
    try:
        page.write(out)
    except OSError as e:
        print("warpsim report: cannot write %s: %s" % (out, e.strerror), file=sys.stderr)
        return 2
    print("report written to %s (%d figures)" % (out, page.nfig))
    return 0


if __name__ == "__main__":
    sys.exit(main())
