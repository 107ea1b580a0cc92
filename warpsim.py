"""`import warpsim` from the root of warpsim's source tree.

warpsim's Python package (results into pandas, figures, HTML reports; docs/report.md) lives in python/warpsim, so
that `pip install ./python` installs it alone.  Python looks in the current directory first, so from the root of
the tree

    python3 -c "import warpsim; print(warpsim.load('build/bfs-small.json'))"

finds this file instead.  It puts python/ first on sys.path, imports the package from there and hands that over
in its own place: sys.modules["warpsim"] is then the package itself (`from warpsim import plots`, `python3 -m
warpsim.report` work as with PYTHONPATH=python).  When PYTHONPATH names a directory holding a warpsim package
(`warpsim report` puts the package it chose there), that one is used, as it would be without this file.
Elsewhere, use PYTHONPATH=/path/to/warpsim/python or `pip install ./python`.
"""

import importlib
import os
import sys


def _load_package(name):
    root = os.path.dirname(os.path.abspath(__file__))

    def is_root(entry):
        return os.path.abspath(entry or os.curdir) == root

    pkg_dir = os.path.join(root, "python")
    chosen = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
              if p and not is_root(p) and os.path.isfile(os.path.join(p, "warpsim", "__init__.py"))]
    # in front of the tree's root, which would find this file again; PYTHONPATH's choice stays where it was
    front = os.path.abspath(chosen[0]) if chosen else pkg_dir
    sys.path.insert(0, front)
    del sys.modules[name]
    try:
        return importlib.import_module(name)
    finally:
        if chosen:
            sys.path.remove(front)


if __name__ == "__main__":
    sys.exit("warpsim.py is not a program: `import warpsim` (docs/report.md); the command is build/warpsim")
sys.modules[__name__] = _load_package(__name__)
