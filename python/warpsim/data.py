"""Readers of warpsim's result files into pandas.

A run (`warpsim run ... -o NAME.json`) leaves NAME.json, NAME.config, NAME.timeseries.csv and, with --warps,
NAME.warps.csv; a sweep leaves one such set per run plus SWEEP.csv; a study leaves NAME.txt, one CSV per table,
runs.csv and the runs under runs/.  docs/report.md describes the objects returned here.
"""

import glob
import json
import math
import os
import re

import pandas as pd

__all__ = ["Run", "Sweep", "Study", "load", "load_sweep", "load_study", "read_json", "read_config", "flatten"]

# A JSON string, or a bare non-finite number as C's printf writes it (nan, -nan, inf, -inf)
_NONFINITE = re.compile(r'("(?:[^"\\]|\\.)*")|(?<![A-Za-z0-9_.])(-?)(nan|inf(?:inity)?)(?![A-Za-z0-9_])',
                        re.IGNORECASE)


def _fix_nonfinite(text):
    def sub(m):
        if m.group(1) is not None:
            return m.group(1)
        if m.group(3).lower() == "nan":
            return "NaN"
        return "-Infinity" if m.group(2) else "Infinity"
    return _NONFINITE.sub(sub, text)


def read_json(path):
    """A result file as a dict.  Accepts the non-finite numbers C writes (nan, inf) as well as JSON's
    usual extensions (NaN, Infinity)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError:
        return json.loads(_fix_nonfinite(text))


def flatten(obj, prefix=""):
    """Nested dicts as one dict of dotted keys.  Scalars are kept; lists of scalars stay lists; lists of
    objects are left out (they are tables of their own: kernels, CPU cores)."""
    out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            key = prefix + str(k)
            if isinstance(v, dict):
                out.update(flatten(v, key + "."))
            elif isinstance(v, list):
                if all(not isinstance(x, (dict, list)) for x in v):
                    out[key] = v
            else:
                out[key] = v
    return out


def read_config(path):
    """An effective configuration (gpgpusim.config syntax: `-option value`, # comments) as an ordered
    dict of option -> value (strings, quotes removed)."""
    opts = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or not line.startswith("-"):
                continue
            parts = line[1:].split(None, 1)
            val = parts[1].strip() if len(parts) > 1 else ""
            if "#" in val and not val.startswith('"'):
                val = val.split("#", 1)[0].strip()
            if len(val) >= 2 and val[0] == val[-1] == '"':
                val = val[1:-1]
            opts[parts[0]] = val
    return opts


def _stem(path):
    return path[:-5] if path.endswith(".json") else path


def _read_csv(path):
    try:
        return pd.read_csv(path)
    except (OSError, ValueError, pd.errors.EmptyDataError):
        return None


def _option_value(command, option):
    if not command:
        return None
    words = command.split()
    for i, w in enumerate(words[:-1]):
        if w == option:
            return words[i + 1]
    return None


def _beside_or_named(json_path, suffix, command, option):
    """NAME<suffix> beside the JSON file, else the file the run's command line named (relative to the
    JSON's directory, then to the current directory)."""
    cand = [_stem(json_path) + suffix]
    named = _option_value(command, option)
    if named:
        cand += [os.path.join(os.path.dirname(json_path), named), named]
    for c in cand:
        if os.path.isfile(c):
            return c
    return None


class Run:
    """One `warpsim run` result.

    meta        dict: workload, size, seed, mode, config, warp_sched, cta_sched, status, verified, ...
    stats       pandas Series: the run's counters (`stats` of the JSON, flattened)
    totals      pandas Series: `timing.totals` flattened (dotted names: stall_breakdown.X); empty when
                functional.  Per-SM and histogram arrays are lists (totals["lat_rt_hist"])
    kernels     DataFrame, one row per kernel: the timing section of each kernel when the run was timed,
                else the JSON's `kernels` list
    timeseries  DataFrame of NAME.timeseries.csv (one row per sample), or None
    warps       DataFrame of NAME.warps.csv (one row per finished warp), or None
    config      dict of NAME.config's options (the effective configuration), or None
    raw         the whole JSON document as a dict
    """

    def __init__(self, path):
        self.path = path
        self.raw = read_json(path)
        d = self.raw
        self.name = os.path.basename(_stem(path))
        self.meta = {k: v for k, v in d.items() if not isinstance(v, (dict, list))}
        self.stats = pd.Series(flatten(d.get("stats", {})), dtype=object)
        timing = d.get("timing") or {}
        self.totals = pd.Series(flatten(timing.get("totals", {})), dtype=object)
        tk = timing.get("kernels")
        if isinstance(tk, list) and tk:
            self.kernels = pd.DataFrame([flatten(k) for k in tk])
        else:
            self.kernels = pd.DataFrame([flatten(k) for k in d.get("kernels", [])])
        cmd = d.get("command", "")
        ts = _beside_or_named(path, ".timeseries.csv", cmd, "--timeseries")
        wp = _beside_or_named(path, ".warps.csv", cmd, "--warps")
        cf = _stem(path) + ".config"
        self.timeseries_path, self.warps_path = ts, wp
        self.timeseries = _read_csv(ts) if ts else None
        self.warps = _read_csv(wp) if wp else None
        self.config = read_config(cf) if os.path.isfile(cf) else None

    def stat(self, name, default=math.nan):
        """A statistic by name: timing.totals first, then the run's counters, then the top level."""
        for src in (self.totals, self.stats):
            if name in src.index:
                return src[name]
        return self.meta.get(name, default)

    def label(self):
        """A short label: workload and the policies that differ from the defaults."""
        parts = [str(self.meta.get("workload", self.name))]
        for k in ("warp_sched", "cta_sched", "cm"):
            if self.meta.get(k):
                parts.append(str(self.meta[k]))
        for k, v in self.meta.items():
            if k.startswith("set_"):
                parts.append("%s=%s" % (k[4:], v))
        return " ".join(parts)

    def frames(self):
        """The DataFrames of the run by name (those present)."""
        out = {"totals": self.totals.to_frame("value"), "kernels": self.kernels}
        if self.timeseries is not None:
            out["timeseries"] = self.timeseries
        if self.warps is not None:
            out["warps"] = self.warps
        return out

    def __repr__(self):
        m = self.meta
        lines = ["warpsim run %s: %s (size %s, %s) status %s, verified %s" % (
            self.name, m.get("workload"), m.get("size"), m.get("mode"), m.get("status"), m.get("verified"))]
        for k in ("gpu_sim_cycle", "gpu_sim_insn", "gpu_ipc", "L1D_total_cache_miss_rate",
                  "L2_total_cache_miss_rate", "lat_rt_avg", "dram_bw_util"):
            v = self.stat(k, None)
            if v is not None:
                lines.append("  %-28s %s" % (k, v))
        lines.append("  kernels: %d rows; timeseries: %s; warps: %s; config: %s" % (
            len(self.kernels),
            "%d samples x %d columns" % self.timeseries.shape if self.timeseries is not None else "none",
            "%d warps" % len(self.warps) if self.warps is not None else "none",
            "%d options" % len(self.config) if self.config is not None else "none"))
        return "\n".join(lines)


def load(path):
    """A run's result file (NAME.json) and the files beside it, as a Run."""
    return Run(path)


def _numeric_table(df):
    """A study table: first column = row label, the others numeric where they parse ("n/a", "fail" ->
    NaN)."""
    if df is None or df.empty:
        return df
    df = df.copy()
    for c in df.columns[1:]:
        col = df[c]
        if col.dtype == object and col.astype(str).str.endswith("%").any():
            col = col.astype(str).str.rstrip("%")   # "53.1%" -> 53.1 (percent)
        conv = pd.to_numeric(col, errors="coerce")
        if conv.notna().any() or df[c].isna().all():
            df[c] = conv
    return df


class Sweep:
    """A sweep's combined CSV (`warpsim sweep`: DIR/SWEEP.csv; a study's DIR/runs.csv).

    runs   DataFrame, one row per run: parameters, state, status, the key statistics, the result file
    dir    the directory of the runs' files
    """

    def __init__(self, path):
        if os.path.isdir(path):
            csvs = sorted(p for p in glob.glob(os.path.join(path, "*.csv"))
                          if _is_sweep_csv(p))
            if not csvs:
                raise FileNotFoundError("%s: no sweep CSV (a CSV with name, workload and state columns)" % path)
            path = csvs[0]
        self.path = path
        self.dir = os.path.dirname(path) or "."
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.runs = pd.read_csv(path)

    def run(self, name):
        """Load one run of the sweep by its name (the CSV's `name` column) as a Run."""
        row = self.runs[self.runs["name"] == name]
        cand = []
        for col in ("result", "file"):   # the result file's path as the sweep recorded it
            if not row.empty and col in row.columns and isinstance(row.iloc[0][col], str):
                cand.append(row.iloc[0][col])
        cand += [os.path.join(self.dir, name + ".json"), os.path.join(self.dir, "runs", name + ".json")]
        for c in cand:
            if os.path.isfile(c):
                return Run(c)
        raise FileNotFoundError("run %s: no result file (%s)" % (name, ", ".join(cand)))

    def configurations(self):
        """The columns that tell the runs of one workload apart (those with more than one value)."""
        skip = {"name", "workload", "state", "exit_code", "status", "verified", "type_hint", "file", "result", "size"}
        stats_start = list(self.runs.columns).index("state") if "state" in self.runs.columns else len(
            self.runs.columns)
        params = [c for c in self.runs.columns[:stats_start] if c not in skip]
        return [c for c in params if self.runs[c].nunique(dropna=False) > 1]

    def __repr__(self):
        return "warpsim sweep %s: %d runs (%s)\n%s" % (self.name, len(self.runs), self.path,
                                                       self.runs.head(10).to_string())


def _is_sweep_csv(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.readline().strip().split(",")
    except OSError:
        return False
    return "name" in head and "workload" in head and "state" in head


def load_sweep(path):
    """A sweep directory (or its CSV) as a Sweep."""
    return Sweep(path)


STUDIES = ("dyncta", "las", "caws", "l1-size", "ctrlc", "cawa", "hetero", "heteropdp")
_CHECK = re.compile(r"^\[(agrees|differs|cannot tell)\s*\]\s*(.*)$")


def parse_checks(text):
    """The comparison lines of a study report ("[agrees    ] claim / paper: ... / here: ...") as a
    DataFrame with columns verdict, claim, paper, here."""
    rows = []
    cur = None
    for line in text.splitlines():
        m = _CHECK.match(line.strip())
        if m:
            cur = {"verdict": m.group(1), "claim": m.group(2).strip(), "paper": "", "here": ""}
            rows.append(cur)
            continue
        s = line.strip()
        if cur is not None and s.startswith("paper:"):
            cur["paper"] = s[6:].strip()
        elif cur is not None and s.startswith("here:"):
            cur["here"] = s[5:].strip()
        elif cur is not None and s and line.startswith(" " * 13) and cur["here"]:
            cur["here"] += " " + s
        else:
            cur = None if not s or not line.startswith(" ") else cur
    return pd.DataFrame(rows, columns=["verdict", "claim", "paper", "here"])


def parse_setup(text):
    """The opening paragraph of a study report (its machine, input size, baseline and options), a list of
    lines: the lines after the "==== study NAME: ..." title (heteropdp: its title and campaign lines) up to
    the first blank line; [] when the text does not open with such a title."""
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].startswith("==== study "):
        i += 1
    elif not (i < len(lines) and lines[i].startswith("HeteroPDP ")):
        return []
    out = []
    while i < len(lines) and lines[i].strip():
        out.append(lines[i].strip())
        i += 1
    return out


class Study:
    """A study's directory (`warpsim study NAME`: results/study-NAME).

    name    the study (dyncta, las, caws, l1-size, ctrlc, cawa, hetero), from NAME.txt
    text    the printed report (NAME.txt)
    tables  dict: table name (the CSV's file stem, e.g. "dyncta_ipc") -> DataFrame; the first column holds
            the row labels (workloads, AMEAN, GMEAN, ...), cells that say n/a or fail are NaN
    checks  DataFrame of the comparisons with the seed: verdict, claim, paper (the seed's number), here
    setup   the report's opening lines (machine, input size, baseline, options such as las --tiles)
    runs    Sweep of runs.csv (its .runs DataFrame: one row per run), or None
    """

    def __init__(self, path):
        self.dir = path
        self.name = None
        self.text = ""
        for s in STUDIES:
            p = os.path.join(path, s + ".txt")
            if os.path.isfile(p):
                self.name = s
                with open(p, encoding="utf-8", errors="replace") as f:
                    self.text = f.read()
                break
        if self.name is None:
            base = os.path.basename(os.path.normpath(path))
            self.name = base[6:] if base.startswith("study-") else base
        self.tables = {}
        for p in sorted(glob.glob(os.path.join(path, "*.csv"))):
            stem = os.path.splitext(os.path.basename(p))[0]
            if stem == "runs" or _is_sweep_csv(p):
                continue
            df = _read_csv(p)
            if df is not None:
                self.tables[stem] = _numeric_table(df)
        self.checks = parse_checks(self.text)
        self.setup = parse_setup(self.text)
        runs_csv = os.path.join(path, "runs.csv")
        self.runs = Sweep(runs_csv) if os.path.isfile(runs_csv) else None
        if self.runs is not None:
            self.runs.dir = os.path.join(path, "runs")

    def __repr__(self):
        lines = ["warpsim study %s (%s): %d tables, %d comparisons with the seed, %s runs" % (
            self.name, self.dir, len(self.tables), len(self.checks),
            len(self.runs.runs) if self.runs is not None else "no")]
        for k, v in self.tables.items():
            lines.append("  %s: %d rows x %d columns" % (k, v.shape[0], v.shape[1]))
        return "\n".join(lines)


def load_study(path):
    """A study directory as a Study."""
    return Study(path)


def kind_of(path):
    """What a path holds: "run" (a result JSON), "sweep" (a sweep directory or CSV), "study" (a study
    directory), or None."""
    if os.path.isfile(path):
        if path.endswith(".json"):
            return "run"
        if path.endswith(".csv") and _is_sweep_csv(path):
            return "sweep"
        return None
    if os.path.isdir(path):
        if any(os.path.isfile(os.path.join(path, s + ".txt")) for s in STUDIES) or (
                os.path.isfile(os.path.join(path, "runs.csv")) and os.path.isdir(os.path.join(path, "runs"))):
            return "study"
        if any(_is_sweep_csv(p) for p in glob.glob(os.path.join(path, "*.csv"))):
            return "sweep"
    return None
