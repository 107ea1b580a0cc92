"""Differences between runs: statistics (absolute, relative, speedup), configuration options and policy
parameters.  `python3 -m warpsim.compare A.json B.json [...] [--html out.html]`; `warpsim compare --html`
runs this module (the text table of `warpsim compare` itself is written in C and needs no Python).
"""

import argparse
import math
import sys

import pandas as pd

from . import data, plots
from .html import Page

# statistics where fewer is faster: speedup = A / B; where more is faster: B / A
_LOWER_FASTER = ("gpu_sim_cycle", "gpu_tot_sim_cycle")
_HIGHER_FASTER = ("gpu_ipc", "gpu_warp_ipc", "gpu_tot_ipc")
# host timings differ from run to run: not statistics of the simulated machine
_HOST = ("host.", "seconds", "simulation_rate", "simulation_time", "_per_sec", "engine_")


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def run_values(run):
    """The run's scalar statistics by dotted name: timing.totals, stats, hetero metrics."""
    vals = {}
    for src in (run.totals, run.stats):   # a name in both: the timing totals' value
        for k, v in src.items():
            if _is_num(v) and k not in vals:
                vals[k] = float(v)
    for k, v in data.flatten(run.raw.get("hetero", {})).items():
        if _is_num(v):
            vals["hetero." + k] = float(v)
    return vals


def _policy_option(name):
    return "." in name or any(s in name for s in ("sched", "_repl", "bypass", "warpsim_cm"))


def options(run):
    """Configuration options of the run: the effective configuration beside it, else what the JSON
    records (config preset, --set, policies)."""
    if run.config is not None:
        return dict(run.config)
    out = {}
    for k, v in run.meta.items():
        if k in ("config", "warp_sched", "cta_sched", "cm", "cpu_apps", "size", "seed", "input") or \
                k.startswith("set_"):
            out[k[4:] if k.startswith("set_") else k] = v
    return out


def compare(runs, all_stats=False, include_host=False):
    """(stats, config, policy) DataFrames of what differs between the runs (the first is the reference,
    A).  stats: statistic, one column per run, then for each other run abs. difference, relative
    difference and speedup where the statistic is a time or a rate of the whole run."""
    names = [r.name for r in runs]
    if len(set(names)) < len(names):
        names = ["%s (%d)" % (n, i + 1) for i, n in enumerate(names)]
    vals = [run_values(r) for r in runs]
    keys = [k for k in vals[0]] + [k for v in vals[1:] for k in v if k not in vals[0]]
    rows = []
    for k in keys:
        if not include_host and any(h in k for h in _HOST):
            continue
        xs = [v.get(k, math.nan) for v in vals]
        same = all((x == xs[0]) or (math.isnan(x) and math.isnan(xs[0])) for x in xs)
        if same and not all_stats:
            continue
        row = {"statistic": k}
        for n, x in zip(names, xs):
            row[n] = x
        a = xs[0]
        for n, x in zip(names[1:], xs[1:]):
            row["%s - A" % n if len(names) > 2 else "abs diff"] = x - a
            row["%s rel" % n if len(names) > 2 else "rel diff"] = (x - a) / a if a else math.nan
            sp = math.nan
            if k in _LOWER_FASTER and x and a:
                sp = a / x
            elif k in _HIGHER_FASTER and a:
                sp = x / a
            row["%s speedup" % n if len(names) > 2 else "speedup"] = sp
        rows.append(row)
    stats = pd.DataFrame(rows)
    opts = [options(r) for r in runs]
    okeys = [k for k in opts[0]] + [k for o in opts[1:] for k in o if k not in opts[0]]
    cfg, pol = [], []
    for k in okeys:
        xs = [o.get(k, "(unset)") for o in opts]
        if all(x == xs[0] for x in xs):
            continue
        row = {"option": k}
        row.update({n: x for n, x in zip(names, xs)})
        (pol if _policy_option(k) else cfg).append(row)
    cols = ["option"] + names
    return stats, pd.DataFrame(cfg, columns=cols), pd.DataFrame(pol, columns=cols)


def text(runs, stats, cfg, pol):
    out = ["runs: " + ", ".join("%s = %s" % (chr(65 + i) if i < 26 else str(i), r.path)
                                for i, r in enumerate(runs))]
    for title, df in (("statistics that differ", stats), ("configuration options that differ", cfg),
                      ("policy parameters that differ", pol)):
        out.append("\n%s: %s" % (title, "none" if df.empty else "%d" % len(df)))
        if not df.empty:
            out.append(df.to_string(index=False, float_format=lambda v: "%.6g" % v))
    return "\n".join(out)


_PLOT_STATS = ["gpu_sim_cycle", "gpu_ipc", "L1D_total_cache_miss_rate", "L2_total_cache_miss_rate",
               "lat_rt_avg", "dram_bw_util", "util", "RACT", "gpu_occupancy"]


def html_page(runs, stats, cfg, pol, title=None):
    page = Page(title or "warpsim compare: " + " vs. ".join(r.name for r in runs))
    page.h(2, "Runs")
    page.table(pd.DataFrame([{"run": chr(65 + i) if i < 26 else str(i), "name": r.name, "path": r.path,
                              "workload": r.meta.get("workload"), "status": r.meta.get("status"),
                              "verified": r.meta.get("verified")} for i, r in enumerate(runs)]))
    fig = plots.compare_bars(runs, [s for s in _PLOT_STATS if any(not math.isnan(
        float(r.stat(s))) if plots._num(r.stat(s)) else False for r in runs)],
        "Key statistics relative to run A (%s)" % runs[0].name)
    if fig is not None:
        page.figure(fig, "Each statistic of every run divided by run A's (1 = equal).")
    ts = [r for r in runs if r.timeseries is not None and "ipc" in r.timeseries.columns]
    if len(ts) >= 2:
        import matplotlib.pyplot as plt
        f, ax = plt.subplots(figsize=(8.0, 3.6), layout="constrained")
        ax.set_title("IPC over time", loc="left", fontsize=11)
        for r in ts:
            ax.plot(r.timeseries["cycle"], r.timeseries["ipc"], lw=1.1, drawstyle="steps-pre", label=r.name)
        plots._cycle_axis(ax)
        ax.set_ylabel("IPC (thread insns / core cycle)")
        ax.set_ylim(bottom=0)
        ax.legend(loc="best")
        page.figure(f, "IPC per time-series sample of each run.")
    for t, df in (("Statistics that differ", stats), ("Configuration options that differ", cfg),
                  ("Policy parameters that differ", pol)):
        page.h(2, "%s (%d)" % (t, len(df)))
        if df.empty:
            page.p("none", cls="note")
        else:
            page.table(df)
    return page


def main(argv=None):
    ap = argparse.ArgumentParser(prog="warpsim compare", description="What differs between runs.")
    ap.add_argument("runs", nargs="+", metavar="RUN.json")
    ap.add_argument("--html", metavar="FILE", help="also write an HTML page with plots")
    ap.add_argument("--all", action="store_true", help="list every statistic, equal ones too")
    ap.add_argument("--host", action="store_true", help="include the host timings")
    a = ap.parse_args(argv)
    if len(a.runs) < 2:
        print("warpsim compare: give two or more result files", file=sys.stderr)
        return 2
    try:
        runs = [data.load(p) for p in a.runs]
    except (OSError, ValueError) as e:
        print("warpsim compare: %s" % e, file=sys.stderr)
        return 2
    stats, cfg, pol = compare(runs, a.all, a.host)
    if a.html:
        page = html_page(runs, stats, cfg, pol)
        try:
            page.write(a.html)
        except OSError as e:
            print("warpsim compare: cannot write %s: %s" % (a.html, e.strerror), file=sys.stderr)
            return 2
        print("comparison written to %s (%d figures)" % (a.html, page.nfig))
    else:
        print(text(runs, stats, cfg, pol))
    return 0


if __name__ == "__main__":
    sys.exit(main())
