#!/usr/bin/env bash
# warpsim run --grid-scale (docs/cli.md, docs/heteropdp.md "The training campaign"): the workloads whose
# kernels loop with grid strides launch a scaled grid for the same input and still verify; the others
# refuse the option (exit 2, the option named); the run's JSON and .config record it.
#   usage: grid_scale_test.sh WARPSIM_BINARY SOURCE_DIR
set -u
W=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$SRC" || fail "no source dir $SRC"

"$W" run --help | grep -q -- "--grid-scale F" || fail "run --help lacks --grid-scale"

# ---- vecadd at half its grid: verified, half the CTAs and threads, the option in the JSON and .config
"$W" run vecadd --size tiny -q -o "$T/d.json" >/dev/null || fail "vecadd tiny: exit $?"
"$W" run vecadd --size tiny -q --grid-scale 0.5 -o "$T/h.json" >"$T/h.txt" || fail "vecadd --grid-scale 0.5: exit $?"
grep -q "verify = PASSED" "$T/h.txt" || fail "vecadd --grid-scale 0.5 did not verify: $(cat "$T/h.txt")"
python3 - "$T/d.json" "$T/h.json" <<'PY' || fail "vecadd --grid-scale 0.5: CTAs, threads or JSON options wrong"
import json, sys
d, h = (json.load(open(p)) for p in sys.argv[1:])
assert h["verified"] is True and h["grid_scale"] == 0.5 and "grid_scale" not in d
kd, kh = d["kernels"][0], h["kernels"][0]
assert kd["ctas"] == 48 and kh["ctas"] == 24, (kd["ctas"], kh["ctas"])
assert kh["ctas"] * kh["block_threads"] < kd["ctas"] * kd["block_threads"]
assert "--grid-scale 0.5" in h["command"]
# the same elements in fewer threads: more loop passes per thread, the same loads and stores
assert h["stats"]["gpu_sim_insn"] != d["stats"]["gpu_sim_insn"]
PY
grep -q "^# reproduce: warpsim run vecadd --size tiny --seed 1 --grid-scale 0.5 --config" "$T/h.config" \
    || fail "the .config's reproduce line lacks --grid-scale: $(head -2 "$T/h.config")"

# ---- every workload that takes it verifies below and above its grid (functional: the outputs)
for wl in vecadd histogram blackscholes reduce; do
    for g in 0.01 0.25 3 1000; do
        "$W" run "$wl" --size tiny --functional -q --grid-scale $g -o "$T/$wl-$g.json" >"$T/o.txt" 2>&1 \
            || fail "$wl --grid-scale $g: exit $?: $(cat "$T/o.txt")"
    done
    python3 - "$wl" "$T/$wl-0.01.json" "$T/$wl-0.25.json" "$T/$wl-3.json" "$T/$wl-1000.json" <<'PY' \
        || fail "$wl: the CTA counts do not follow --grid-scale"
import json, sys
c = [sum(k["ctas"] for k in json.load(open(p))["kernels"]) for p in sys.argv[2:]]
assert c[0] >= 1 and c[0] < c[1] < c[2] <= c[3], (sys.argv[1], c)   # at least 1 CTA; capped above
PY
done

# ---- the CPU side (trace from-kernel): the same grid, its work-groups and work-items
"$W" trace from-kernel vecadd -o "$T/tr" --grid-scale 0.25 --json >"$T/tr.json" || fail "trace from-kernel --grid-scale"
python3 - "$T/tr.json" <<'PY' || fail "trace from-kernel --grid-scale 0.25: not 12 work-groups, or not verified"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["verified"] is True and t["ctas"] == 12 and t["grid_scale"] == 0.25, t
PY
"$W" trace from-kernel mm -o "$T/tr2" --grid-scale 0.5 >"$T/e.txt" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q -- "--grid-scale: workload 'mm'" "$T/e.txt" || fail "trace from-kernel mm --grid-scale: exit $rc"

# ---- refused where the kernels do not loop with grid strides, and bad factors
"$W" run mm --size tiny --grid-scale 0.5 >"$T/e.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "mm --grid-scale: exit $rc, not 2"
grep -q -- "--grid-scale: workload 'mm'" "$T/e.txt" || fail "mm --grid-scale: message: $(cat "$T/e.txt")"
grep -q "vecadd" "$T/e.txt" || fail "mm --grid-scale: the message does not list the workloads that take it"
for g in 0 -1 abc 1001 nan; do
    "$W" run vecadd --size tiny --grid-scale "$g" >"$T/e.txt" 2>&1; rc=$?
    [ $rc -eq 2 ] || fail "--grid-scale $g: exit $rc, not 2"
    grep -q -- "--grid-scale expects" "$T/e.txt" || fail "--grid-scale $g: message: $(cat "$T/e.txt")"
done

echo "grid_scale_test: ok"
