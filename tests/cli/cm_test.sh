#!/usr/bin/env bash
# The concurrency managers from the command line (docs/policies.md, "Concurrency managers"):
# --cm runs and verifies, selects swl, reports its lines and time-series columns, is deterministic;
# bad names and parameters are clear errors with exit code 2.
#   usage: cm_test.sh WARPSIM_BINARY SOURCE_DIR
set -u
W=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$W" run stream --size tiny --cm cm_cpu -o "$T/a.json" --timeseries "$T/a.csv" >"$T/a.txt" 2>&1 || fail "cm_cpu run: $(tail -3 "$T/a.txt")"
grep -q "verify = PASSED" "$T/a.txt" || fail "cm_cpu: output not verified"
grep -q "^cm = cm_cpu" "$T/a.txt" || fail "cm_cpu: no 'cm = cm_cpu' line in the report"
lim=$(sed -n 's/^cm_avg_warp_limit = //p' "$T/a.txt" | tail -1)
awk -v l="$lim" 'BEGIN { exit !(l > 0 && l < 48) }' || fail "cm_cpu on stream: average limit '$lim' not throttled"
head -1 "$T/a.csv" | grep -q ",stall_MC,stall_net," || fail "time series lacks stall_MC/stall_net"
head -1 "$T/a.csv" | grep -q ",sm0_stall_gpu,sm0_warp_limit" || fail "time series lacks per-core limit columns"
grep -q '"cm_decisions"' "$T/a.json" || fail "JSON lacks cm_decisions"

# same inputs, same statistics
"$W" run stream --size tiny --cm cm_cpu -o "$T/b.json" >/dev/null 2>&1 || fail "second run"
python3 - "$T/a.json" "$T/b.json" <<'PY' || fail "two identical cm_cpu runs differ"
import json, sys
def strip(x):   # host-dependent values (time, rates) aside
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "simulation_time" not in k and "simulation_rate" not in k and "host" not in k}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
a, b = (strip(json.load(open(p))["timing"]) for p in sys.argv[1:])
sys.exit(0 if a == b else 1)
PY

# CM-BAL with a parameter; the per-core limits are CM-BAL levels
"$W" run stream --size tiny --cm cm_bal --set cm.cm_bal.k=64 --timeseries "$T/c.csv" >"$T/c.txt" 2>&1 || fail "cm_bal run"
grep -q "verify = PASSED" "$T/c.txt" || fail "cm_bal: output not verified"
python3 - "$T/c.csv" <<'PY' || fail "cm_bal limits outside its levels"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
lv = {1, 2, 3, 4, 6, 8, 16, 24, 48, 0}
bad = [r["sm0_warp_limit"] for r in rows if int(r["sm0_warp_limit"]) not in lv]
sys.exit(1 if bad or not rows else 0)
PY

# errors: unknown manager, a scheduler that takes no limit, a bad parameter
"$W" run stream --size tiny --cm cm_fast >"$T/e1.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--cm cm_fast: exit $rc, want 2"
grep -q "cm_cpu" "$T/e1.txt" || fail "--cm cm_fast: message does not list the valid managers"
"$W" run stream --size tiny --cm cm_cpu --warp-sched gto >"$T/e2.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--cm with gto: exit $rc, want 2"
grep -q "takes no warp limit" "$T/e2.txt" || fail "--cm with gto: unclear message: $(cat "$T/e2.txt")"
"$W" run stream --size tiny --cm cm_bal --set cm.cm_bal.k=-5 >"$T/e3.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "cm.cm_bal.k=-5: exit $rc, want 2"
grep -q "cm.cm_bal.k" "$T/e3.txt" || fail "cm.cm_bal.k=-5: message does not name the parameter"
"$W" list --policies --names cm | grep -qx "cm_bal4" || fail "list --policies --names cm lacks cm_bal4"
echo "cm_test: ok"
