#!/bin/sh
# caws_wl.sh WARPSIM WORKLOAD - the CAWS warp schedulers need an oracle: run the
# workload at tiny size with lrr writing its per-warp file, then under caws_blk,
# caws_sm and caws_avg on that oracle; every run must verify (exit 0).
set -u
ws=$1
wl=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/ws_caws_XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
if ! "$ws" run "$wl" --size tiny --warp-sched lrr --warps "$dir/oracle.csv" > "$dir/lrr.out" 2>&1; then
    echo "caws_wl: $wl: the lrr run for the oracle failed:"; tail -5 "$dir/lrr.out"; exit 1
fi
rc=0
for v in caws_blk caws_sm caws_avg; do
    if ! "$ws" run "$wl" --size tiny --warp-sched $v --set "warp_sched.$v.oracle=$dir/oracle.csv" > "$dir/$v.out" 2>&1; then
        echo "caws_wl: $wl: $v failed:"; tail -5 "$dir/$v.out"; rc=1
    else
        grep -h "^verify" "$dir/$v.out" | sed "s/^/$v: /"
    fi
done
exit $rc
