"""warpsim's results in pandas, and figures and HTML reports with matplotlib.

    import warpsim
    run = warpsim.load("build/bfs-small.json")      # Run: .totals, .kernels, .timeseries, .warps, .config
    sweep = warpsim.load_sweep("results/sweep-default")   # Sweep: .runs (the sweep CSV), .run(name)
    study = warpsim.load_study("results/study-dyncta")    # Study: .tables, .checks, .runs

Importable from the source tree (PYTHONPATH=python, or from the tree's root through its warpsim.py) or installed
(pip install ./python).  `python3 -m warpsim.report PATH...` writes an HTML report; docs/report.md describes both.

pandas and matplotlib come from Debian's packages (python3-pandas, python3-matplotlib), which only Debian's own
interpreter sees.  Another interpreter of the same Python version without pandas of its own (a pyenv or
virtualenv python3 first on PATH) is given Debian's /usr/lib/python3/dist-packages at the end of sys.path
(`_debian_dist_packages`): only when the compiled modules there are built for this interpreter (their file
suffix, e.g. .cpython-311-x86_64-linux-gnu.so, is one it loads), and after its own directories, so that none of
its own packages is replaced.
"""

import importlib
import importlib.machinery
import os
import sys

DEBIAN_DIST_PACKAGES = "/usr/lib/python3/dist-packages"


def _debian_dist_packages(path=DEBIAN_DIST_PACKAGES):
    """path, when it holds a pandas that this interpreter can load and is not yet on sys.path; else None."""
    libs = os.path.join(path, "pandas", "_libs")
    if path in sys.path or not os.path.isdir(libs):
        return None
    suffixes = [s for s in importlib.machinery.EXTENSION_SUFFIXES if s.startswith(".cpython-")]
    if not any(f.endswith(s) for f in os.listdir(libs) for s in suffixes):
        return None   # built for another Python version (or ABI)
    return path


def _ensure_pandas():
    try:
        importlib.import_module("pandas")
        return
    except ImportError:
        pass
    extra = _debian_dist_packages()
    if extra is None:
        return   # importing .data below says what is missing
    sys.path.append(extra)
    importlib.invalidate_caches()
    try:
        importlib.import_module("pandas")
    except ImportError:
        sys.path.remove(extra)   # not loadable after all: .data's import says why


_ensure_pandas()

from .data import Run, Study, Sweep, flatten, load, load_study, load_sweep, read_config, read_json  # noqa: E402

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
