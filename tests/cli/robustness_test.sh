#!/usr/bin/env bash
# What a user hits at the edges: runs that never end stop at their limits, bad
# numbers and bad input files are exit 2 with a message that names the option or
# the file (and line), faults of the simulated program stay exit 3.
# Usage: robustness_test.sh WARPSIM_BINARY SOURCE_DIR
TEST_TIMEOUT=120
. "$(dirname "$0")/testlib.sh"
FOREVER=$SRC/tests/cli/data/forever_vecadd.ptx

# ---- limits: a kernel that never terminates ----
expect_rc 3 "functional insn limit" "$W" run vecadd --size tiny --functional --ptx "$FOREVER" --max-warp-insns 200000
expect_err "kernel 'vecadd' stopped at the limit of 200000 warp instructions per launch: 200000 warp instructions issued, 0 of 48 CTAs completed" "functional insn limit"
expect_err "--max-warp-insns, --max-cycles or --max-seconds (0 = no limit)" "limit hint"
expect_rc 3 "timing cycle limit" "$W" run vecadd --size tiny --ptx "$FOREVER" --max-cycles 4000 -o "$tmp/lim.json"
expect_err "stopped at the limit of 4000 core cycles per launch" "timing cycle limit"
# the statistics up to the stop are reported, in the text and the JSON
grep -q "^gpu_tot_sim_cycle = 4000$" "$tmp/out" && ok || bad "statistics up to the cycle limit: $(grep gpu_tot_sim_cycle "$tmp/out")"
grep -q '"status": "WS_ERROR_LIMIT"' "$tmp/lim.json" && ok || bad "JSON status of a limited run"
grep -q '"gpu_sim_cycle": 4000' "$tmp/lim.json" && ok || bad "JSON cycles of a limited run"
expect_rc 3 "timing insn limit" "$W" run vecadd --size tiny --ptx "$FOREVER" --max-warp-insns 30000
expect_err "stopped at the limit of 30000 warp instructions per launch" "timing insn limit"
start=$(date +%s)
expect_rc 3 "time limit (timing)" "$W" run vecadd --size tiny --ptx "$FOREVER" --max-seconds 1 --max-warp-insns 0
expect_err "kernel 'vecadd' stopped at the host time limit" "time limit (timing)"
expect_rc 3 "time limit (functional)" "$W" run vecadd --size tiny --functional --ptx "$FOREVER" --max-seconds 0.5 --max-warp-insns 0
expect_err "stopped at the host time limit" "time limit (functional)"
[ $(( $(date +%s) - start )) -lt 30 ] && ok || bad "time limits took $(( $(date +%s) - start )) s"
# defaults are on and stated
"$W" run --help >"$tmp/out"
grep -q -- "--max-warp-insns N.*(default: 2000000000" "$tmp/out" && ok || bad "help states the default insn limit"
grep -q -- "--max-seconds S.*(default: 14400)" "$tmp/out" && ok || bad "help states the default time limit"
expect_rc 2 "--max-cycles in functional mode" "$W" run vecadd --size tiny --functional --max-cycles 5
expect_err "--max-cycles applies to timing mode" "--max-cycles functional"

# ---- numbers: no signs, blanks, junk or overflow ----
for v in " -1" "-1" "+5" "12x" "1e3" "" "0x"; do
    expect_rc 2 "--seed '$v'" "$W" run vecadd --size tiny --functional --seed "$v"
    expect_err "option --seed expects a non-negative integer" "--seed '$v'"
done
expect_rc 2 "--seed overflow" "$W" run vecadd --size tiny --functional --seed 18446744073709551616
expect_err "is larger than 18446744073709551615" "--seed overflow"
expect_rc 0 "--seed max" "$W" run vecadd --size tiny --functional --seed 18446744073709551615
expect_rc 0 "--seed hex" "$W" run vecadd --size tiny --functional --seed 0x10
for v in "-1" "nan" "inf" "1e3" "x" " 1"; do
    expect_rc 2 "--max-seconds '$v'" "$W" run vecadd --size tiny --functional --max-seconds "$v"
    expect_err "option --max-seconds expects seconds" "--max-seconds '$v'"
done
expect_rc 2 "--max-warp-insns junk" "$W" run vecadd --size tiny --functional --max-warp-insns 10k
expect_err "option --max-warp-insns expects a non-negative integer" "--max-warp-insns junk"

# ---- PTX files ----
: >"$tmp/empty.ptx"
expect_rc 1 "ptx-check of an empty file" "$W" ptx-check "$tmp/empty.ptx"
expect_err "empty.ptx:1:1: error: empty PTX module: expected a '.version' directive first" "empty PTX"
printf '.target sm_75\n' >"$tmp/nohdr.ptx"
expect_rc 1 "ptx-check of a headerless file" "$W" ptx-check "$tmp/nohdr.ptx"
expect_err "nohdr.ptx:1:1: error: expected '.version' as the first directive" "headerless PTX"
expect_rc 2 "ptx-check /dev/zero" "$W" ptx-check /dev/zero
expect_err "/dev/zero: error: cannot load: larger than the limit of 268435456 bytes" "ptx-check /dev/zero"
expect_rc 2 "ptx-check of a directory" "$W" ptx-check "$tmp"
expect_err "is a directory, not a file" "ptx-check directory"
expect_rc 2 "run --ptx empty" "$W" run vecadd --size tiny --functional --ptx "$tmp/empty.ptx"
expect_err "warpsim run: --ptx: $tmp/empty.ptx:1:1: error: empty PTX module" "run --ptx empty"
expect_rc 2 "run --ptx /dev/zero" "$W" run vecadd --size tiny --functional --ptx /dev/zero
expect_err "larger than the limit" "run --ptx /dev/zero"
expect_rc 2 "run --ptx missing" "$W" run vecadd --size tiny --functional --ptx "$tmp/none.ptx"
expect_err "none.ptx: no such file" "run --ptx missing"

# ---- workload input files ----
expect_rc 2 "--input for a workload without input" "$W" run vecadd --size tiny --functional --input "$tmp/empty.ptx"
expect_err "workload 'vecadd' generates its inputs and reads no file; workloads that read one: bfs" "--input ignored"
printf '3\n0 1\n1 1\n2 0\n0\n2\n1 1\nx 1\n' >"$tmp/bad.graph"
expect_rc 2 "malformed graph" "$W" run bfs --functional --input "$tmp/bad.graph"
expect_err "warpsim run: --input: $tmp/bad.graph:8:1: error: expected an integer (edge destination)" "malformed graph"
expect_rc 2 "graph /dev/zero" "$W" run bfs --functional --input /dev/zero
expect_err "/dev/zero: error: larger than the limit of 1073741824 bytes" "graph /dev/zero"
expect_rc 2 "graph directory" "$W" run bfs --functional --input "$tmp"
expect_err "is a directory, not a file" "graph directory"
# a graph with no edges at all (one node, the source) runs and verifies
printf '1\n0 0\n0\n0\n' >"$tmp/edgeless.graph"
expect_rc 0 "edgeless graph" "$W" run bfs --functional --input "$tmp/edgeless.graph"
expect_rc 0 "edgeless graph (timing)" "$W" run bfs --input "$tmp/edgeless.graph"
printf '3\n0 0\n0 0\n0 0\n1\n0\n' >"$tmp/edgeless3.graph"
expect_rc 0 "three isolated nodes" "$W" run bfs --functional --input "$tmp/edgeless3.graph"

# ---- policy input files (the CAWS oracle): bad input, exit 2, bounded reads ----
printf 'a,b\n1,2\n' >"$tmp/bad.csv"
expect_rc 2 "malformed oracle" "$W" run vecadd --size tiny --warp-sched caws_blk --set warp_sched.caws_blk.oracle="$tmp/bad.csv"
expect_err "bad.csv:1: the header has no 'kernel_id' column" "malformed oracle"
expect_rc 2 "oracle /dev/zero" "$W" run vecadd --size tiny --warp-sched caws_blk --set warp_sched.caws_blk.oracle=/dev/zero
expect_err "/dev/zero: cannot read the oracle file (larger than the limit" "oracle /dev/zero"
: >"$tmp/empty.csv"
expect_rc 2 "empty oracle" "$W" run vecadd --size tiny --warp-sched caws_blk --set warp_sched.caws_blk.oracle="$tmp/empty.csv"
expect_err "empty.csv: empty file (expected a per-warp file)" "empty oracle"
# a CTA that cannot fit the configured machine is a configuration error too
expect_rc 2 "CTA larger than the SM" "$W" run vecadd --size tiny --set gpgpu_shader_core_pipeline=128:32
expect_err "does not fit on an SM" "CTA larger than the SM"

# ---- output files ----
expect_rc 2 "-o into a missing directory" "$W" run vecadd --size tiny -o "$tmp/nodir/r.json"
expect_err "warpsim run: -o $tmp/nodir/r.json: cannot write: No such file or directory" "-o missing directory"
grep -q "timeseries" "$tmp/err" && bad "-o error names the derived time-series file" || ok

finish
