#!/usr/bin/env bash
# The Python package's unit tests (tests/python/test_*.py) with a Python that has pandas and matplotlib:
# $WARPSIM_PYTHON, else Debian's /usr/bin/python3, else python3.  Exit 77 (ctest: skipped) when none has them.
# Usage: run.sh SOURCE_DIR
set -u
src=${1:-$(dirname "$0")/../..}
for py in ${WARPSIM_PYTHON:-} /usr/bin/python3 python3; do
    if "$py" -c "import pandas, matplotlib" >/dev/null 2>&1; then
        cd "$src/tests/python" || exit 1
        exec env MPLBACKEND=Agg PYTHONDONTWRITEBYTECODE=1 "$py" -m unittest -q test_warpsim
    fi
done
echo "python_unit: skipped: no Python 3 with pandas and matplotlib (apt-get install python3-pandas python3-matplotlib, or scripts/deps.sh)"
exit 77
