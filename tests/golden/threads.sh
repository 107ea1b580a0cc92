#!/usr/bin/env bash
# Threads do not change results: run one bundled workload in timing mode with --threads 1, 2 and 4
# and compare, exactly, the statistics (every kernel's), the time series and the per-warp file.
# Host-dependent lines (host time, simulation rate) are left out.
#   usage: threads.sh WARPSIM_BINARY NAME [SIZE]   (SIZE: tiny by default)
set -u
W=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") NAME=$2 SIZE=${3:-tiny}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
for t in 1 2 4; do
    # the same file names in every run (the report names them), one directory per thread count
    mkdir "$dir/t$t"
    (cd "$dir/t$t" && "$W" run "$NAME" --size "$SIZE" --seed 1 --kernel-stats --threads "$t" \
        --timeseries ts.csv --warps warps.csv >out.txt 2>err.txt)
    rc=$?
    for f in ts.csv warps.csv out.txt err.txt; do mv "$dir/t$t/$f" "$dir/${f%.*}$t.${f##*.}" 2>/dev/null; done
    if [ "$rc" -ne 0 ]; then
        echo "FAIL: warpsim run $NAME --size $SIZE --threads $t exited with $rc" >&2
        tail -5 "$dir/err$t.txt" >&2
        exit 1
    fi
    grep -v -E '^(host_seconds|gpgpu_simulation_)' "$dir/out$t.txt" >"$dir/stats$t.txt"
    if [ "$t" != 1 ]; then
        for f in stats ts warps; do
            ext=txt
            [ "$f" = stats ] || ext=csv
            if ! cmp -s "$dir/${f}1.$ext" "$dir/$f$t.$ext"; then
                echo "FAIL: $NAME --size $SIZE: $f with --threads $t differs from --threads 1" >&2
                diff "$dir/${f}1.$ext" "$dir/$f$t.$ext" | head -10 >&2
                fail=1
            fi
        done
    fi
done
[ "$fail" -eq 0 ] && echo "threads $NAME ($SIZE): 1, 2 and 4 threads identical"
exit $fail
