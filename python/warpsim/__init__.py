"""warpsim's results in pandas, and figures and HTML reports with matplotlib.

    import warpsim
    run = warpsim.load("build/bfs-small.json")      # Run: .totals, .kernels, .timeseries, .warps, .config
    sweep = warpsim.load_sweep("results/sweep-default")   # Sweep: .runs (the sweep CSV), .run(name)
    study = warpsim.load_study("results/study-dyncta")    # Study: .tables, .checks, .runs

Importable from the source tree (PYTHONPATH=python) or installed (pip install ./python).
`python3 -m warpsim.report PATH...` writes an HTML report; docs/report.md describes both.
"""

from .data import Run, Study, Sweep, flatten, load, load_study, load_sweep, read_config, read_json

__version__ = "0.1"
__all__ = ["Run", "Sweep", "Study", "load", "load_sweep", "load_study", "read_json", "read_config", "flatten",
           "write_report"]


def write_report(paths, output=None, stat=None, baseline=None, title=None):
    """Write the HTML report of runs, sweeps or studies (paths: one or a list); returns its path."""
    from . import report as _report
    if isinstance(paths, str):
        paths = [paths]
    page = _report.build(list(paths), stat, baseline, title)
    out = output or _report.default_output(list(paths))
    page.write(out)
    return out

