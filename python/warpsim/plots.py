"""Figures of runs, sweeps and studies with matplotlib (Agg backend: no display needed).

Every function returns a matplotlib Figure, or None when the data it needs is absent.  Axes carry units,
figures with several series a legend.  docs/report.md lists the figures.
"""

import math
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

__all__ = [
    "ts_ipc", "ts_occupancy", "ts_miss_rates", "ts_dram", "ts_policy", "stall_breakdown", "lat_rt_hist",
    "partitions", "warp_spread", "sweep_bars", "grouped_bars", "study_figures", "run_figures", "compare_bars",
]

plt.rcParams.update({
    "figure.figsize": (8.0, 3.6),
    "figure.dpi": 100,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "font.size": 10,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "svg.fonttype": "none",     # text stays text in the SVG: smaller, searchable
    "svg.hashsalt": "warpsim",  # deterministic ids
})

_SM_COL = re.compile(r"^sm(\d+)_(.+)$")


def _fig(title, height=3.6, width=8.0):
    fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    ax.set_title(title, loc="left", fontsize=11)
    return fig, ax


def _cycle_axis(ax, label="core cycle"):
    """x axis in core cycles, ticks written 500k, 1M (no offset factor to look for)"""
    ax.set_xlabel(label)
    ax.xaxis.set_major_formatter(matplotlib.ticker.EngFormatter(sep=""))


def _legend_top(ax, *handles):
    """the legend above the axes, right of the (left-aligned) title: never over the data"""
    ax.legend(*handles, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=2, borderaxespad=0.2)


def _kernel_spans(ax, ts):
    """Shade alternate kernels' stretches of the time series and name them when there are few."""
    if "kernel_id" not in ts.columns or ts.empty:
        return
    ids = ts["kernel_id"].to_numpy()
    cyc = ts["cycle"].to_numpy()
    start = 0
    spans = []
    for i in range(1, len(ids) + 1):
        if i == len(ids) or ids[i] != ids[start]:
            lo = cyc[start] - ts["interval_cycles"].iloc[start] if "interval_cycles" in ts else cyc[start]
            spans.append((lo, cyc[i - 1], ts["kernel"].iloc[start] if "kernel" in ts else ""))
            start = i
    if len(spans) < 2:
        return
    for k, (lo, hi, _) in enumerate(spans):
        if k % 2:
            ax.axvspan(lo, hi, color="0.5", alpha=0.08, lw=0)


def _sm_frame(ts, suffix):
    cols = [c for c in ts.columns if (_SM_COL.match(c) and _SM_COL.match(c).group(2) == suffix)]
    return ts[cols] if cols else None


def ts_ipc(run):
    ts = run.timeseries
    if ts is None or ts.empty or "ipc" not in ts:
        return None
    fig, ax = _fig("IPC over time")
    ax.plot(ts["cycle"], ts["ipc"], lw=1.2, drawstyle="steps-pre", label="IPC (thread insns / core cycle)")
    if "warp_ipc" in ts:
        ax.plot(ts["cycle"], ts["warp_ipc"], lw=1.0, drawstyle="steps-pre", label="warp IPC (warp insns / core cycle)")
    _kernel_spans(ax, ts)
    _cycle_axis(ax)
    ax.set_ylabel("instructions / cycle")
    ax.set_ylim(bottom=0)
    _legend_top(ax)
    return fig


def ts_occupancy(run):
    ts = run.timeseries
    if ts is None or ts.empty:
        return None
    ctas, warps = _sm_frame(ts, "ctas"), _sm_frame(ts, "warps")
    if ctas is None and warps is None:
        return None
    fig, ax = _fig("Resident CTAs and warps per SM")
    ax2 = ax.twinx() if (ctas is not None and warps is not None) else None
    if ctas is not None:
        ax.plot(ts["cycle"], ctas.mean(axis=1), color="C0", lw=1.2, label="CTAs, mean over SMs (left)")
        ax.fill_between(ts["cycle"], ctas.min(axis=1), ctas.max(axis=1), color="C0", alpha=0.15, lw=0)
        ax.set_ylabel("CTAs per SM")
    if warps is not None:
        a = ax2 if ax2 is not None else ax
        a.plot(ts["cycle"], warps.mean(axis=1), color="C1", lw=1.2, label="warps, mean over SMs (right)")
        a.fill_between(ts["cycle"], warps.min(axis=1), warps.max(axis=1), color="C1", alpha=0.15, lw=0)
        a.set_ylabel("warps per SM")
        a.set_ylim(bottom=0)
        if ax2 is not None:
            ax2.grid(False)
            ax2.spines["right"].set_visible(True)
    ax.set_ylim(bottom=0)
    _cycle_axis(ax)
    handles = ax.get_legend_handles_labels()
    if ax2 is not None:
        h2 = ax2.get_legend_handles_labels()
        handles = (handles[0] + h2[0], handles[1] + h2[1])
    _legend_top(ax, *handles)
    _kernel_spans(ax, ts)
    return fig


def ts_miss_rates(run):
    ts = run.timeseries
    if ts is None or ts.empty or not {"l1d_miss_rate", "l2_miss_rate"} & set(ts.columns):
        return None
    fig, ax = _fig("Cache miss rates over time")
    for c, lab in (("l1d_miss_rate", "L1D miss rate"), ("l2_miss_rate", "L2 miss rate")):
        if c in ts:
            ax.plot(ts["cycle"], 100.0 * ts[c], lw=1.2, label=lab)
    _kernel_spans(ax, ts)
    _cycle_axis(ax)
    ax.set_ylabel("miss rate (%)")
    ax.set_ylim(0, 105)
    _legend_top(ax)
    return fig


def ts_dram(run):
    ts = run.timeseries
    if ts is None or ts.empty or "dram_bw_util" not in ts:
        return None
    fig, ax = _fig("DRAM bandwidth utilisation over time")
    ax.plot(ts["cycle"], 100.0 * ts["dram_bw_util"], lw=1.2, color="C2",
            label="DRAM data bus busy (% of DRAM cycles, all channels)")
    _kernel_spans(ax, ts)
    _cycle_axis(ax)
    ax.set_ylabel("bandwidth utilisation (%)")
    ax.set_ylim(0, 105)
    _legend_top(ax)
    return fig


_POLICY_LABEL = {
    "n": "CTA limit n per SM",
    "paused": "paused CTAs per SM",
    "warp_limit": "warp limit per SM (concurrency manager)",
    "stall_gpu": "stall_GPU per SM (cycles in the sample)",
}


def ts_policy(run):
    """The policies' state: every per-SM column beyond CTAs and warps (CTA limit, paused CTAs, the warp
    scheduler's own column, the concurrency manager's warp limit), the congestion columns and the CPU
    cores' IPC, one panel each."""
    ts = run.timeseries
    if ts is None or ts.empty:
        return None
    suffixes = []
    for c in ts.columns:
        m = _SM_COL.match(c)
        if m and m.group(2) not in ("ctas", "warps") and m.group(2) not in suffixes:
            suffixes.append(m.group(2))
    panels = []
    for s in suffixes:
        f = _sm_frame(ts, s)
        if f is not None and f.notna().any().any():
            panels.append((_POLICY_LABEL.get(s, "%s per SM (warp scheduler's state)" % s), f, True))
    other = [c for c in ("stall_MC", "stall_net") if c in ts.columns]
    if other:
        panels.append(("congestion (stall cycles per L2 cycle)", ts[other], False))
    cpu = [c for c in ts.columns if re.match(r"^cpu\d+_ipc$", c)]
    if cpu:
        panels.append(("CPU cores' IPC (insns / CPU cycle)", ts[cpu], False))
    if not panels:
        return None
    fig, axes = plt.subplots(len(panels), 1, figsize=(8.0, 1.9 * len(panels) + 0.8), sharex=True,
                             layout="constrained", squeeze=False)
    axes[0][0].set_title("Policies' state over time", loc="left", fontsize=11)
    for (label, f, per_sm), row in zip(panels, axes):
        ax = row[0]
        if per_sm:
            ax.plot(ts["cycle"], f.mean(axis=1), lw=1.2, label="mean over SMs")
            ax.fill_between(ts["cycle"], f.min(axis=1), f.max(axis=1), alpha=0.15, lw=0, label="min to max")
        else:
            for c in f.columns:
                ax.plot(ts["cycle"], f[c], lw=1.0, label=c)
        ax.set_ylabel(label, fontsize=8)
        ax.legend(loc="upper right", ncol=min(4, max(1, len(f.columns) if not per_sm else 2)))
        _kernel_spans(ax, ts)
    _cycle_axis(axes[-1][0])
    return fig


def stall_breakdown(run):
    t = run.totals
    keys = [k for k in t.index if k.startswith("stall_breakdown.")]
    vals = [(k.split(".", 1)[1], float(t[k])) for k in keys if _num(t[k])]
    vals = [(k, v) for k, v in vals if v > 0]
    if not vals:
        return None
    vals.sort(key=lambda kv: kv[1])
    total = sum(v for _, v in vals)
    fig, ax = _fig("Stall breakdown (why a scheduler issued nothing)", height=0.35 * len(vals) + 1.4)
    names = [k for k, _ in vals]
    pct = [100.0 * v / total for _, v in vals]
    bars = ax.barh(names, pct, color="C3", label="share of the stalled scheduler cycles")
    for b, (_, v) in zip(bars, vals):
        ax.text(b.get_width(), b.get_y() + b.get_height() / 2, " %.1f%% (%d)" % (b.get_width(), v),
                va="center", fontsize=8)
    ax.set_xlabel("share of the stalled scheduler cycles (%)")
    ax.set_xlim(0, max(pct) * 1.3)
    ax.legend(loc="lower right")
    return fig


def _num(v):
    try:
        return math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def lat_rt_hist(run):
    t = run.totals
    if "lat_rt_hist" not in t.index:
        return None
    h = np.asarray(t["lat_rt_hist"], dtype=float)
    if h.size == 0 or h.sum() <= 0:
        return None
    bucket = float(t["lat_rt_hist_bucket_cycles"]) if "lat_rt_hist_bucket_cycles" in t.index else 1.0
    last = int(np.nonzero(h)[0].max()) + 1
    h = h[:last]
    edges = np.arange(last) * bucket
    fig, ax = _fig("Round-trip latency of memory requests (lat_rt)")
    ax.bar(edges, h, width=bucket, align="edge", color="C4", label="requests per %g-cycle bucket" % bucket)
    if "lat_rt_avg" in t.index and _num(t["lat_rt_avg"]):
        ax.axvline(float(t["lat_rt_avg"]), color="k", ls="--", lw=1,
                   label="mean %.0f cycles" % float(t["lat_rt_avg"]))
    ax.set_xlabel("lat_rt (core cycles; the last bucket holds everything above)")
    ax.set_ylabel("requests")
    ax.legend(loc="best")
    return fig


def _worst_launch(run):
    """The kernels' own concentration, which the run's totals average away when each launch has another
    hot slice: the simulator's cycle-weighted mean over the launches (hottest_over_mean_per_launch), and
    the worst launch among those with at least 1% of the cycles."""
    k, t = run.kernels, run.totals
    key = "per_partition.hottest_over_mean_per_launch"
    if (k is None or k.empty or key not in t.index or not _num(t[key])
            or not {"per_partition.hottest_over_mean", "gpu_sim_cycle"} <= set(k.columns)):
        return ""
    cyc = pd.to_numeric(k["gpu_sim_cycle"], errors="coerce").fillna(0).to_numpy()
    hot = pd.to_numeric(k["per_partition.hottest_over_mean"], errors="coerce").fillna(0).to_numpy()
    hot = np.where(cyc >= 0.01 * cyc.sum(), hot, 0)
    i = int(hot.argmax())
    if hot[i] <= 0:
        return ""
    name = str(k["kernel_name"].iloc[i]) if "kernel_name" in k.columns else ""
    return "per launch: %.2fx (mean over the cycles), at most %.2fx (launch %d, %s)" % (float(t[key]), hot[i],
                                                                                           i + 1, name)


def partitions(run):
    """Requests per memory sub-partition (L2 slice) and the request network's latency to each: a slice far
    above the others (inputs whose strides map to one slice) bounds the run by itself."""
    t = run.totals
    if "per_partition.requests" not in t.index:
        return None
    req = np.asarray(t["per_partition.requests"], dtype=float)
    if req.size == 0 or req.sum() <= 0:
        return None
    lat = t["per_partition.icnt_req_lat_avg"] if "per_partition.icnt_req_lat_avg" in t.index else None
    mean = req.mean()
    hot = int(req.argmax())
    fig, axes = plt.subplots(1, 2 if lat is not None else 1, figsize=(8.0, 3.5), layout="constrained",
                             squeeze=False)
    title = "Memory sub-partitions (L2 slices): slice %d takes %.2fx the mean" % (hot, req[hot] / mean)
    worst = _worst_launch(run)
    if worst:
        title += "\n%s" % worst
    fig.suptitle(title, x=0.01, ha="left", fontsize=11)
    x = np.arange(req.size)
    colors = ["C3" if i == hot and req[hot] > 1.5 * mean else "C0" for i in x]
    axes[0][0].bar(x, req, color=colors, label="requests")
    axes[0][0].axhline(mean, color="k", ls="--", lw=1, label="mean %.0f" % mean)
    axes[0][0].set_xlabel("sub-partition")
    axes[0][0].set_ylabel("requests")
    axes[0][0].legend(loc="best")
    if lat is not None:
        axes[0][1].bar(x, np.asarray(lat, dtype=float), color=colors)
        axes[0][1].set_xlabel("sub-partition")
        axes[0][1].set_ylabel("request latency (icnt cycles)")
    for a in axes[0]:
        a.set_xticks(x if x.size <= 16 else x[::max(1, x.size // 16)])
    return fig


def warp_spread(run):
    w = run.warps
    if w is None or w.empty or not {"start", "end", "cta"} <= set(w.columns):
        return None
    w = w.copy()
    w["time"] = w["end"] - w["start"]
    keys = [k for k in ("kernel_id", "cta") if k in w.columns]
    g = w.groupby(keys)["time"]
    spread = ((g.max() - g.min()) / g.min().where(g.min() > 0)).dropna()
    fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.4), layout="constrained")
    fig.suptitle("Per-warp execution time (end - start) and its spread within CTAs", x=0.01, ha="left",
                 fontsize=11)
    axes[0].hist(w["time"], bins=min(50, max(5, len(w) // 4)), color="C0", label="%d warps" % len(w))
    axes[0].set_xlabel("warp execution time (core cycles)")
    axes[0].xaxis.set_major_formatter(matplotlib.ticker.EngFormatter(sep=""))
    axes[0].set_ylabel("warps (log scale)")
    axes[0].set_yscale("log")
    axes[0].legend(loc="best")
    if len(spread):
        axes[1].hist(spread, bins=min(40, max(5, len(spread) // 4)), color="C1",
                     label="%d CTAs, mean %.2f" % (len(spread), spread.mean()))
        axes[1].legend(loc="best")
    axes[1].set_xlabel("(slowest - fastest) / fastest warp of a CTA")
    axes[1].set_ylabel("CTAs (log scale)")
    axes[1].set_yscale("log")
    return fig


def run_figures(run):
    """Every figure the run's files allow, as (title, Figure) pairs."""
    out = []
    for f in (ts_ipc, ts_occupancy, ts_miss_rates, ts_dram, ts_policy, stall_breakdown, lat_rt_hist,
              partitions, warp_spread):
        fig = f(run)
        if fig is not None:
            out.append((f.__name__, fig))
    return out


# ---------------------------------------------------------------- bars


def grouped_bars(df, title, ylabel, ref=None, label_col=None, width=None, ylim=None, annotate=None):
    """Bars of every numeric column of df per row (the rows' labels in label_col or the index); a
    dashed line at ref (e.g. 1.0 for normalised values)."""
    df = df.copy()
    if label_col is not None:
        df = df.set_index(label_col)
    df = df.select_dtypes(include=[np.number]).dropna(how="all", axis=1).dropna(how="all", axis=0)
    if df.empty or df.notna().sum().sum() == 0:
        return None
    n_rows, n_cols = df.shape
    w = width or max(6.0, min(16.0, 1.2 + 0.22 * n_rows * max(1, n_cols)))
    fig, ax = _fig(title, width=w)
    x = np.arange(n_rows)
    bw = 0.8 / max(1, n_cols)
    cmap = plt.get_cmap("tab10" if n_cols <= 10 else "tab20")
    for i, c in enumerate(df.columns):
        vals = df[c].to_numpy(dtype=float)
        ax.bar(x - 0.4 + bw * (i + 0.5), np.nan_to_num(vals, nan=0.0), bw, label=str(c), color=cmap(i % cmap.N))
    ax.set_xticks(x)
    ax.set_xticklabels([str(i) for i in df.index], rotation=30 if n_rows > 6 else 0, ha="right" if n_rows > 6
                       else "center")
    if ref is not None:
        ax.axhline(ref, color="k", lw=0.8, ls="--")
    ax.set_ylabel(ylabel)
    finite = df.to_numpy(dtype=float)
    finite = finite[np.isfinite(finite)]
    label_fmt = "%.0f" if finite_max(df) >= 100 else "%.2f"
    if ylim:
        ax.set_ylim(*ylim)
    elif ref is not None and finite.size and finite.min() > 0.5 * ref and finite.max() < 2.0 * ref:
        # normalised values close to the reference: zoom in, or the differences are invisible
        lo, hi = min(finite.min(), ref), max(finite.max(), ref)
        pad = max(0.02 * ref, 0.15 * (hi - lo))
        ax.set_ylim(max(0.0, lo - pad), hi + pad)
        label_fmt = "%.3f"
        ax.set_ylabel("%s\n(axis does not start at 0)" % ylabel)
    if annotate is None:
        annotate = n_rows * n_cols <= 12
    if annotate:
        for cont in ax.containers:
            ax.bar_label(cont, fmt=label_fmt, fontsize=6, padding=1)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), ncol=1 if n_cols <= 12 else 2)
    return fig


def finite_max(df):
    v = df.to_numpy(dtype=float)
    v = v[np.isfinite(v)]
    return float(np.abs(v).max()) if v.size else 0.0


def sweep_bars(sweep, stat="gpu_ipc", baseline=None, by=None):
    """Bars of one statistic per workload (groups) and configuration (bars), normalised to the
    configuration named `baseline` (a value of one of the parameter columns, or a run-name fragment)
    when given.  Returns (Figure, DataFrame of the plotted values)."""
    df = sweep.runs.copy()
    if stat not in df.columns:
        raise KeyError("statistic %r is not a column of %s (columns: %s)" % (
            stat, sweep.path, ", ".join(df.columns)))
    cols = by or sweep.configurations()
    if cols:
        df["configuration"] = df[cols].astype(str).agg(" ".join, axis=1)
    else:
        df["configuration"] = df.get("config", pd.Series(["run"] * len(df))).astype(str)
    tab = df.pivot_table(index="workload", columns="configuration", values=stat, aggfunc="first", sort=False)
    ylabel = _stat_unit(stat)
    title = "%s per workload and configuration" % stat
    if baseline:
        base_col = None
        for c in tab.columns:
            if c == baseline or baseline in str(c).split(" "):
                base_col = c
                break
        if base_col is None:
            for c in tab.columns:
                if baseline in str(c):
                    base_col = c
                    break
        if base_col is None:
            raise KeyError("baseline %r names none of the configurations: %s" % (baseline, ", ".join(
                map(str, tab.columns))))
        tab = tab.div(tab[base_col], axis=0)
        ylabel = "%s normalised to %s" % (stat, base_col)
        title = "%s per workload, normalised to %s" % (stat, base_col)
        gm = tab.apply(lambda s: float(np.exp(np.log(s[s > 0]).mean())) if (s > 0).any() else np.nan)
        tab.loc["GMEAN"] = gm
    fig = grouped_bars(tab, title, ylabel, ref=1.0 if baseline else None)
    return fig, tab


def _stat_unit(stat):
    units = {
        "gpu_ipc": "IPC (thread insns / core cycle)", "gpu_warp_ipc": "warp IPC (warp insns / cycle)",
        "gpu_sim_cycle": "core cycles", "gpu_sim_insn": "thread instructions",
        "gpu_sim_warp_insn": "warp instructions", "gpu_occupancy": "occupancy (% of warp slots)",
        "L1D_miss_rate": "L1D miss rate (fraction)",
        "L2_miss_rate": "L2 miss rate (fraction)", "lat_rt_avg": "lat_rt (core cycles)",
        "util": "util (fraction)", "dram_bw_util": "DRAM bandwidth utilisation (fraction)",
        "host_seconds": "host seconds", "RACT": "RACT (fraction of warps active)", "C_idle": "C_idle (cycles)",
        "C_mem": "C_mem (cycles)",
    }
    return units.get(stat, stat)


def compare_bars(runs, stats, title="Statistics relative to the first run"):
    """Bars of each statistic of every run relative to the first run (1.0 = equal)."""
    rows = {}
    for r in runs:
        rows[r.label() if len({x.label() for x in runs}) == len(runs) else r.name] = {
            s: float(r.stat(s)) if _num(r.stat(s)) else np.nan for s in stats}
    df = pd.DataFrame(rows).T
    base = df.iloc[0]
    rel = df.div(base.where(base != 0), axis=1)
    rel = rel.loc[:, rel.notna().any()]
    if rel.empty:
        return None
    return grouped_bars(rel.T, title, "value / value of %s" % df.index[0], ref=1.0, width=8.0)


# ---------------------------------------------------------------- studies


def _rows_and_means(df):
    """Split a study table into the workload rows and the mean rows (AMEAN, GMEAN, group means)."""
    lab = df.columns[0]
    is_mean = df[lab].astype(str).str.contains("MEAN", regex=False)   # AMEAN, GMEAN, group means
    return df[~is_mean], df[is_mean]


def _cols(df, pattern):
    return [c for c in df.columns[1:] if re.search(pattern, str(c))]


def _study_dyncta(st):
    figs = []
    ipc = st.tables.get("dyncta_ipc")
    if ipc is not None:
        rows = ipc.drop(columns=[c for c in ("type", "N") if c in ipc.columns])
        ncols = [c for c in rows.columns[1:] if re.fullmatch(r"n=?\d+", str(c))]
        if ncols:
            figs.append(("Fig. 1: IPC with a static CTA limit n per core, normalised to the maximum (N)",
                         grouped_bars(rows[[rows.columns[0]] + ncols], "001 Fig. 1: IPC vs. CTA limit n "
                                      "(normalised to n = N)", "IPC / IPC at N", ref=1.0,
                                      label_col=rows.columns[0])))
        sel = [c for c in ("opt", "TL", "DYNCTA", "DYNCTA+TL") if c in rows.columns]
        if sel:
            figs.append(("Fig. 10: speedup of opt, two-level, DYNCTA and DYNCTA + two-level",
                         grouped_bars(rows[[rows.columns[0]] + sel], "001 Fig. 10: speedup over the baseline",
                                      "IPC / IPC of the baseline", ref=1.0, label_col=rows.columns[0])))
    met = st.tables.get("dyncta_metrics")
    if met is not None:
        rows, _ = _rows_and_means(met)
        sel = [c for c in ("N", "opt", "DYNCTA avg n") if c in rows.columns]
        if sel:
            figs.append(("Fig. 9: CTAs per core: N, opt and DYNCTA's average n",
                         grouped_bars(rows[[rows.columns[0]] + sel], "001 Fig. 9: CTAs per core",
                                      "CTAs per core", label_col=rows.columns[0])))
        sel = [c for c in ("lat_rt DYN/base", "util DYN/base") if c in met.columns]
        if sel:
            figs.append(("Fig. 11: DYNCTA's lat_rt and util relative to the baseline",
                         grouped_bars(met[[met.columns[0]] + sel], "001 Fig. 11: lat_rt and util under DYNCTA",
                                      "DYNCTA / baseline", ref=1.0, label_col=met.columns[0])))
        sel = [c for c in ("L1D base", "L1D opt", "L1D DYN") if c in met.columns]
        if sel:
            figs.append(("L1D miss rate: baseline, opt and DYNCTA",
                         grouped_bars(met[[met.columns[0]] + sel], "L1D miss rate",
                                      "L1D miss rate (fraction of accesses)", label_col=met.columns[0])))
    return figs


def _study_las(st):
    figs = []
    for stem, tab in st.tables.items():
        rows = tab
        low = stem.lower()
        if "miss" in low or "l1d" in low:
            title, ylabel, ref = "003 Fig. 5.2: L1D miss rate", "L1D miss rate", None
        elif "ipc" in low:
            title, ylabel, ref = "003 Fig. 5.1: IPC normalised to RR", "IPC / IPC of RR", 1.0
            rows = tab.drop(columns=[c for c in tab.columns[1:] if re.search(r"\bIPC\b|abs", str(c))])
        else:
            title, ylabel, ref = stem, "value", None
        figs.append((title, grouped_bars(rows, title, ylabel, ref=ref, label_col=rows.columns[0])))
    return figs


def _study_caws(st):
    figs = []
    spec = {"caws_ipc": ("000 Fig. 3.5: IPC normalised to LRR", "IPC / IPC of LRR", 1.0),
            "caws_spread": ("Per-warp execution-time spread within CTAs", "(slowest - fastest) / fastest",
                            None),
            "caws_inversion": ("000 Table 3.3: criticality inversion", "CTAs (%)", None)}
    captions = {"caws_inversion": "000 Table 3.3: CTAs whose slowest warp under LRR ends in the faster half of "
                                  "its CTA under the policy (criticality inversion)"}
    order = [k for k in spec if k in st.tables] + [k for k in st.tables if k not in spec]
    for stem in order:
        tab = st.tables[stem]
        title, ylabel, ref = spec.get(stem, (stem, "value", None))
        figs.append((captions.get(stem, title), grouped_bars(tab, title, ylabel, ref=ref,
                                                             label_col=tab.columns[0])))
    return figs


def _generic_table(stem, tab):
    """A table of any study: the columns of similar scale together (ratios near 1 in one chart), the
    others one chart each."""
    figs = []
    lab = tab.columns[0]
    num = [c for c in tab.columns[1:] if pd.api.types.is_numeric_dtype(tab[c]) and tab[c].notna().any()]
    if not num:
        return figs
    small = [c for c in num if tab[c].abs().max() <= 5]
    big = [c for c in num if c not in small]
    if small:
        figs.append(("%s: %s" % (stem, ", ".join(map(str, small))),
                     grouped_bars(tab[[lab] + small], "%s: %s" % (stem, ", ".join(map(str, small))),
                                  "value (ratios: 1 = the baseline)", label_col=lab)))
    # the other columns: those within a factor of 20 of each other in one chart ("cycles 16KB", "cycles
    # 32KB"; the warp limits of several managers), in their table order
    peak = {c: float(tab[c].abs().max()) for c in big}
    groups = []
    for c in sorted(big, key=lambda k: peak[k]):
        if groups and peak[c] <= 20 * peak[groups[-1][0]]:
            groups[-1].append(c)
        else:
            groups.append([c])
    for cols in groups[:6]:
        cols = [c for c in big if c in cols]
        words = {str(c).split(" ")[0] for c in cols}
        name = words.pop() if len(words) == 1 and len(cols) > 1 else ", ".join(map(str, cols))
        ylabel = name if len(name) <= 40 else "value"
        figs.append(("%s: %s" % (stem, ", ".join(map(str, cols))),
                     grouped_bars(tab[[lab] + cols], "%s: %s" % (stem, name if len(name) <= 60 else "values"),
                                  ylabel, label_col=lab)))
    return figs


def study_figures(st):
    """The figures of a study, as (caption, Figure) pairs: those that mirror the seed's for dyncta, las
    and caws, a generic chart per table otherwise."""
    special = {"dyncta": _study_dyncta, "las": _study_las, "caws": _study_caws}
    figs = special[st.name](st) if st.name in special else []
    if not figs:
        for stem, tab in st.tables.items():
            figs += _generic_table(stem, tab)
    return [(c, f) for c, f in figs if f is not None]
