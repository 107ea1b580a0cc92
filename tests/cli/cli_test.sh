#!/usr/bin/env bash
# End-to-end checks of the warpsim command: exit codes, listings, result files,
# determinism of the statistics.  Usage: cli_test.sh WARPSIM_BINARY SOURCE_DIR
set -u
W=$1
SRC=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_rc() {  # expect_rc RC description cmd...
    local want=$1 what=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$what: exit $rc, expected $want; stderr: $(head -3 "$tmp/err")"; fi
}

expect_rc 0 "--help" "$W" --help
expect_rc 2 "no command" "$W"
expect_rc 2 "unknown command" "$W" frobnicate
grep -q "unknown command 'frobnicate'" "$tmp/err" && ok || bad "unknown command message"
for c in run list ptx-check bench; do expect_rc 0 "$c --help" "$W" $c --help; done

expect_rc 0 "list" "$W" list
n=$(grep -c -E '^[a-z]' "$tmp/out")
# header line + 14 workloads
[ "$n" -eq 15 ] && ok || bad "list shows $((n - 1)) workloads, expected 14"
grep -q "^14 workloads" "$tmp/out" && ok || bad "list total line"

expect_rc 2 "unknown workload" "$W" run nosuch --functional
grep -q "unknown workload 'nosuch'" "$tmp/err" && ok || bad "unknown workload message"
expect_rc 2 "bad size" "$W" run vecadd --size huge --functional
grep -q -- "--size must be tiny, small or paper, got 'huge'" "$tmp/err" && ok || bad "bad size message"
expect_rc 2 "bad seed" "$W" run vecadd --seed x1 --functional
expect_rc 2 "missing value" "$W" run vecadd --seed
expect_rc 2 "unknown option" "$W" run vecadd --frob
expect_rc 2 "timing not built" "$W" run vecadd --size tiny

# a functional run writes JSON with the verification result and counters
expect_rc 0 "run vecadd" "$W" run vecadd --size tiny --functional -o "$tmp/a.json"
grep -q '"verified": true' "$tmp/a.json" && ok || bad "JSON verified flag"
grep -q '"gpu_sim_insn": [1-9]' "$tmp/a.json" && ok || bad "JSON instruction count"
if command -v python3 >/dev/null; then
    python3 -m json.tool "$tmp/a.json" >/dev/null && ok || bad "result file is not valid JSON"
fi
# same inputs, same statistics
expect_rc 0 "run vecadd again" "$W" run vecadd --size tiny --functional -o "$tmp/b.json"
sed -n '/"stats"/,/}/p' "$tmp/a.json" >"$tmp/a.stats"
sed -n '/"stats"/,/}/p' "$tmp/b.json" >"$tmp/b.stats"
cmp -s "$tmp/a.stats" "$tmp/b.stats" && [ -s "$tmp/a.stats" ] && ok || bad "statistics differ between identical runs"

# ptx-check on a bundled kernel lists it with its parameters; on a missing file it fails
expect_rc 0 "ptx-check vecadd" "$W" ptx-check "$SRC/workloads/vecadd/vecadd.ptx"
grep -q "^.entry vecadd" "$tmp/out" && ok || bad "ptx-check lists the kernel"
expect_rc 1 "ptx-check missing file" "$W" ptx-check "$tmp/none.ptx"

# a PTX override whose kernel reads out of bounds is reported like a memory checker, exit 3
# (the kernel is told n is 64 elements larger than the buffers)
sed 's/^\(\s*ld.param.u32\s*%r12, \[vecadd_param_3\];\)$/\1\n\tadd.s32 %r12, %r12, 64;/' \
    "$SRC/workloads/vecadd/vecadd.ptx" >"$tmp/v.ptx"
grep -q 'add.s32 %r12, %r12, 64' "$tmp/v.ptx" && ok || bad "could not make the out-of-bounds kernel"
expect_rc 3 "out-of-bounds kernel" "$W" run vecadd --size tiny --functional --ptx "$tmp/v.ptx"
grep -q "Invalid __global__ read of size 4 bytes" "$tmp/err" && ok || bad "memory checker report: $(head -5 "$tmp/err")"
grep -q "in block (" "$tmp/err" && ok || bad "memory checker names the CTA"
# the unmodified PTX through --ptx runs and verifies
expect_rc 0 "run with --ptx" "$W" run vecadd --size tiny --functional --ptx "$SRC/workloads/vecadd/vecadd.ptx"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
