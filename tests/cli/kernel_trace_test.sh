#!/usr/bin/env bash
# A bundled GPU kernel on the simulated CPU cores (docs/heteropdp.md "Kernels on the CPU"):
# `warpsim trace from-kernel` runs the workload functionally (its outputs verify), writes one
# ChampSim trace per core whose record counts add up, the traces run (trace run, --run on the
# fixed memory, --chip on the CPU-GPU chip's memory system), the stream is deterministic, the SIMD
# width and the core count shape it, and bad options are usage errors.
#   usage: kernel_trace_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"

# vecadd tiny on 4 cores, SIMD 8: verified, four traces, records add up
expect_rc 0 "from-kernel vecadd" "$W" trace from-kernel vecadd --size tiny --cores 4 --simd 8 -o "$tmp/v"
cp "$tmp/out" "$tmp/v.txt"
grep -q "^vecadd (tiny): verified, 1 launch traced, 48 work-groups" "$tmp/v.txt" && ok || bad "no verified summary: $(head -2 "$tmp/v.txt")"
for c in 0 1 2 3; do [ -s "$tmp/v/core$c.trace.gz" ] && ok || bad "no trace for core $c"; done
[ ! -e "$tmp/v/core4.trace.gz" ] && ok || bad "a fifth trace for 4 cores"
total=$(awk '/CPU records/ {print $3}' "$tmp/v.txt")
sum=0
for c in 0 1 2 3; do
    expect_rc 0 "trace info core$c" "$W" trace info "$tmp/v/core$c.trace.gz"
    n=$(awk '/records/ {print $2}' "$tmp/out")
    per=$(awk -v c="$c" '$1 == "core" && $2 == c {print $(NF-1)}' "$tmp/v.txt")
    [ "$n" = "$per" ] && ok || bad "core$c: trace info says $n records, from-kernel $per"
    sum=$((sum + n))
done
[ "$sum" = "$total" ] && [ "$sum" -gt 10000 ] && ok || bad "records: per-core sum $sum, total $total"
# vecadd reads two inputs and writes one output: loads and stores are there, on real global addresses
expect_rc 0 "trace info core0" "$W" trace info "$tmp/v/core0.trace.gz"
loads=$(awk '/^  loads/ {print $2}' "$tmp/out"); stores=$(awk '/^  stores/ {print $2}' "$tmp/out")
[ "$loads" -gt 0 ] && [ "$stores" -gt 0 ] && [ "$loads" -gt "$stores" ] && ok || bad "loads $loads stores $stores"

# the traces run on a core (trace run)
expect_rc 0 "trace run core1" "$W" trace run "$tmp/v/core1.trace.gz" --json
python3 - "$tmp/out" "$(awk '$1 == "core" && $2 == 1 {print $(NF-1)}' "$tmp/v.txt")" <<'PY' && ok || bad "trace run of core1 wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["instructions"] == int(sys.argv[2]), (d["instructions"], sys.argv[2])
assert d["cycles"] > 0 and 0 < d["ipc"] <= 3, d
PY

# deterministic: the same stream again
expect_rc 0 "from-kernel vecadd again" "$W" trace from-kernel vecadd --size tiny --cores 4 --simd 8 -o "$tmp/v2"
cmp -s <(gzip -dc "$tmp/v/core2.trace.gz") <(gzip -dc "$tmp/v2/core2.trace.gz") && ok || bad "streams differ between runs"

# --run: the kernel's CPU time on the fixed memory; JSON agrees with the records
expect_rc 0 "from-kernel --run --json" "$W" trace from-kernel vecadd --cores 4 -o "$tmp/r" --run --json
python3 - "$tmp/out" "$total" <<'PY' && ok || bad "--run JSON wrong: $(head -c 300 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verified"] is True and d["cores"] == 4 and d["simd"] == 8
assert d["records"] == int(sys.argv[2]) == d["cpu_instructions"], d
assert sum(d[k] for k in d if k.startswith("records_")) == d["records"]
assert d["cpu_memory"] == "fixed"
assert d["cpu_cycles"] > d["records"] / 4 / 3, d         # at most 3 instructions per cycle per core
assert abs(d["cpu_seconds"] - d["cpu_cycles"] / 2e9) < 1e-12, d
assert 0 < d["cpu_ipc"] <= 12
PY
cycles4=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpu_cycles"])' "$tmp/out")

# one core takes longer than four
expect_rc 0 "from-kernel --cores 1 --run" "$W" trace from-kernel vecadd --cores 1 -o "$tmp/r1" --run --json
cycles1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpu_cycles"])' "$tmp/out")
[ "$cycles1" -gt $((cycles4 * 2)) ] && ok || bad "1 core $cycles1 cycles vs 4 cores $cycles4"

# SIMD width 4 makes more records than 8 (twice the vector ALU records)
expect_rc 0 "from-kernel --simd 4" "$W" trace from-kernel vecadd --cores 4 --simd 4 -o "$tmp/s4" --json
alu8=$(awk '/vector ALU/ {print $3}' "$tmp/v.txt")
alu4=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["records_vector_alu"])' "$tmp/out")
[ "$alu4" = "$((alu8 * 2))" ] && ok || bad "vector ALU records: simd 4 $alu4, simd 8 $alu8"

# a kernel with barriers and shared memory (mm) and one with atomics (histogram) verify and run
expect_rc 0 "from-kernel mm --run" "$W" trace from-kernel mm --cores 2 -o "$tmp/mm" --run
grep -q "verified" "$tmp/out" && grep -q "CPU time" "$tmp/out" && ok || bad "mm: $(head -3 "$tmp/out")"
expect_rc 0 "from-kernel histogram" "$W" trace from-kernel histogram --cores 2 -o "$tmp/h" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verified"] and d["records_atomic"] > 0, d' \
    "$tmp/out" && ok || bad "histogram: no atomic records"

# on the CPU-GPU chip's memory system
expect_rc 0 "from-kernel --chip hetero-small" "$W" trace from-kernel vecadd -o "$tmp/c" --chip hetero-small --json
python3 - "$tmp/out" <<'PY' && ok || bad "--chip JSON wrong: $(head -c 300 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cores"] == 3 and d["cpu_memory"] == "hetero-small", d
assert d["cpu_instructions"] == d["records"] and d["cpu_cycles"] > d["records"] / 9, d
PY

# --launch: only the chosen launch; a launch that does not exist is a usage error
expect_rc 0 "from-kernel reduce --launch 1" "$W" trace from-kernel reduce --cores 2 --launch 1 -o "$tmp/l1"
grep -q "1 launch traced" "$tmp/out" && ok || bad "--launch 1: $(head -1 "$tmp/out")"
expect_rc 2 "from-kernel --launch 99" "$W" trace from-kernel vecadd --launch 99 -o "$tmp/l99"
expect_err "nothing traced" "--launch 99"

# usage errors
expect_rc 2 "no -o" "$W" trace from-kernel vecadd
expect_err "no output directory" "no -o"
expect_rc 2 "unknown workload" "$W" trace from-kernel nosuch -o "$tmp/x"
expect_err "unknown workload 'nosuch'" "unknown workload"
expect_rc 2 "--simd 0" "$W" trace from-kernel vecadd --simd 0 -o "$tmp/x"
expect_rc 2 "--simd 64" "$W" trace from-kernel vecadd --simd 64 -o "$tmp/x"
expect_rc 2 "--cores 65" "$W" trace from-kernel vecadd --cores 65 -o "$tmp/x"
expect_rc 2 "--chip with too many cores" "$W" trace from-kernel vecadd --chip hetero-small --cores 4 -o "$tmp/x"
expect_err "has 3 CPU cores" "--chip --cores 4"
expect_rc 2 "--chip of a GPU-only machine" "$W" trace from-kernel vecadd --chip gtx480 -o "$tmp/x"
expect_rc 2 "unknown option" "$W" trace from-kernel vecadd --bogus -o "$tmp/x"
: >"$tmp/file"
expect_rc 2 "-o a file" "$W" trace from-kernel vecadd -o "$tmp/file"
expect_err "cannot create directory" "-o a file"

finish
