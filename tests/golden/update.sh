#!/usr/bin/env bash
# Regenerate the golden statistics after an intended change of the timing model:
#   tests/golden/update.sh build/warpsim
# then review `git diff tests/golden` before committing.
set -eu
W=$1
DIR=$(cd "$(dirname "$0")" && pwd)
for name in vecadd bfs mm; do
    "$DIR/run_one.sh" "$W" "$name" >"$DIR/$name.txt"
    echo "wrote $DIR/$name.txt"
done
