#!/usr/bin/env bash
# Golden statistics: run one bundled workload at tiny size in timing mode on the
# default machine (gtx480) and compare its statistics, exactly, with the stored
# tests/golden/NAME.txt.  Host-dependent lines (host time, simulation rate) are
# left out.  Any change to the timing model that changes a number fails this
# test on purpose: check the change is intended, then regenerate with
# tests/golden/update.sh BUILD/warpsim.
#   usage: check.sh WARPSIM_BINARY SOURCE_DIR NAME
set -u
W=$1 SRC=$2 NAME=$3
want="$SRC/tests/golden/$NAME.txt"
got=$(mktemp)
trap 'rm -f "$got"' EXIT
"$SRC/tests/golden/run_one.sh" "$W" "$NAME" >"$got"
rc=$?
if [ "$rc" -ne 0 ]; then
    echo "FAIL: warpsim run $NAME exited with $rc" >&2
    exit 1
fi
if ! diff -u "$want" "$got"; then
    echo "FAIL: $NAME statistics differ from $want (regenerate with tests/golden/update.sh if intended)" >&2
    exit 1
fi
echo "golden $NAME: identical"
