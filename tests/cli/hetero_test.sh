#!/usr/bin/env bash
# The CPU-GPU chip from the command line (docs/hetero.md): a GPU workload with CPU applications on the
# hetero presets verifies and reports per-core CPU results and seed 004's metrics; ChampSim trace files
# (gzip and xz) run on CPU cores; a concurrency manager works on the chip; results are deterministic and
# the same with two host threads; bad inputs are clear errors.
#   usage: hetero_test.sh WARPSIM_BINARY SOURCE_DIR
set -u
W=$1 SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# a shared run on the small chip: the GPU output verifies, every core reports, the metrics print
"$W" run vecadd --size tiny --config hetero-small --cpu-mix mcf,omnetpp,perlbench -o "$T/a.json" >"$T/a.txt" 2>&1 \
    || fail "shared run: $(tail -5 "$T/a.txt")"
grep -q "verify = PASSED" "$T/a.txt" || fail "GPU output not verified on the chip"
for c in 0 1 2; do grep -q "^cpu$c = " "$T/a.txt" || fail "no result line for CPU core $c"; done
for k in SU_GPU WS_CPU; do grep -q "^$k = " "$T/a.txt" || fail "no $k line"; done
grep -q "^OSS(alpha) = 0.0:" "$T/a.txt" || fail "no OSS line"
python3 - "$T/a.json" <<'PY' || fail "JSON metrics wrong"
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hetero"]
assert 0 < h["SU_GPU"] <= 1.05, h["SU_GPU"]
assert len(h["cpu"]) == 3
for c in h["cpu"]:
    assert c["ipc_alone"] > 0 and 0 < c["ipc_shared"] <= c["ipc_alone"] * 1.05, c
ws = sum(c["ipc_shared"] / c["ipc_alone"] for c in h["cpu"])
assert abs(ws - h["WS_CPU"]) < 1e-3 * max(1, ws), (ws, h["WS_CPU"])
oss = {round(o["alpha"], 1): o["OSS"] for o in h["OSS"]}
assert abs(oss[0.0] - h["WS_CPU"]) < 1e-6 and abs(oss[1.0] - h["SU_GPU"]) < 1e-6
assert abs(oss[0.5] - 0.5 * (h["WS_CPU"] + h["SU_GPU"])) < 1e-6
cores = d["timing"]["cpu"]["cores"]
mcf = [c for c in cores if c["app"] == "mcf"][0]
pb = [c for c in cores if c["app"] == "perlbench"][0]
assert mcf["l2_mpki"] > 20 and pb["l2_mpki"] < 2 and pb["ipc"] > 5 * mcf["ipc"], (mcf, pb)
PY

# deterministic, and the same with two host threads
"$W" run vecadd --size tiny --config hetero-small --cpu-mix mcf,omnetpp,perlbench --threads 2 -o "$T/b.json" \
    >/dev/null 2>&1 || fail "run with --threads 2"
python3 - "$T/a.json" "$T/b.json" <<'PY' || fail "the chip's statistics differ between runs (1 vs 2 threads)"
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "simulation_time" not in k and "simulation_rate" not in k
                and "host" not in k and not k.startswith("set_") and k != "command"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
a, b = (strip(json.load(open(p))) for p in sys.argv[1:])
sys.exit(0 if a["timing"] == b["timing"] and a["hetero"] == b["hetero"] else 1)
PY

# ChampSim trace files, gzip and xz, on CPU cores; an idle core in between
"$W" trace gen omnetpp -o "$T/om.trace.gz" --insns 100000 >/dev/null 2>&1 || fail "trace gen gz"
"$W" trace gen perlbench -o "$T/pb.trace.xz" --insns 100000 >/dev/null 2>&1 || fail "trace gen xz"
"$W" run vecadd --size tiny --config hetero-small --cpu "$T/om.trace.gz,-,$T/pb.trace.xz" >"$T/c.txt" 2>&1 \
    || fail "trace files on CPU cores: $(tail -3 "$T/c.txt")"
grep -q "^cpu0 = $T/om.trace.gz: ipc" "$T/c.txt" || fail "gz trace not measured on core 0"
grep -q "^cpu2 = $T/pb.trace.xz: ipc" "$T/c.txt" || fail "xz trace not measured on core 2"
grep -q "^cpu1 = " "$T/c.txt" && fail "the idle core 1 reports a result"

# a concurrency manager on the chip: the congestion metrics and per-core limits
"$W" run vecadd --size tiny --config hetero-small --cpu-mix mcf,omnetpp,perlbench --cm cm_bal --no-alone \
    --timeseries "$T/d.csv" >"$T/d.txt" 2>&1 || fail "cm_bal on the chip: $(tail -3 "$T/d.txt")"
grep -q "^cm = cm_bal" "$T/d.txt" && grep -q "^stall_GPU = " "$T/d.txt" || fail "cm lines missing on the chip"
grep -q "^per_core.stall_GPU = [0-9]* [0-9]* [0-9]* [0-9]*$" "$T/d.txt" || fail "no per-core stall_GPU on the chip"
grep -q "^per_partition.stall_MC = [0-9]* [0-9]*$" "$T/d.txt" && grep -q "^per_partition.stall_net = " "$T/d.txt" \
    || fail "no per-partition stall_MC / stall_net on the chip"
grep -q "^SU_GPU" "$T/d.txt" && fail "--no-alone still ran the alone runs"
head -1 "$T/d.csv" | grep -q "sm0_warp_limit" || fail "time series lacks the warp limits"
python3 - "$T/d.csv" <<'PY' || fail "time series: CPU IPC per core missing or implausible"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(f"cpu{i}_ipc" in rows[0] for i in range(3))
mcf = [float(r["cpu0_ipc"]) for r in rows]; pb = [float(r["cpu2_ipc"]) for r in rows]
assert max(mcf) < 0.5 and sum(pb) / len(pb) > 5 * sum(mcf) / len(mcf), (mcf[:5], pb[:5])
PY

# dedicated memory channels (004 sec. 2.2): each class on its own channels; a bad split is an error
"$W" run vecadd --size tiny --config hetero-small --cpu-mix mcf,omnetpp,perlbench --set warpsim_mc_partition=1G1C \
    -o "$T/m.json" >"$T/m.txt" 2>&1 || fail "dedicated channels 1G1C: $(tail -3 "$T/m.txt")"
grep -q "verify = PASSED" "$T/m.txt" && grep -q "^WS_CPU = " "$T/m.txt" || fail "1G1C run incomplete"
"$W" run vecadd --size tiny --config hetero-small --cpu-mix mcf --set warpsim_mc_partition=2G1C >"$T/e0.txt" 2>&1
[ $? -eq 2 ] && grep -q "must equal -gpgpu_n_mem (2)" "$T/e0.txt" || fail "bad -warpsim_mc_partition: $(cat "$T/e0.txt")"

# the simulation rate of a chip run: GPU warp instructions and CPU instructions per host second
"$W" bench --size tiny --config hetero-small --cpu-mix mcf,perlbench --workloads vecadd --json >"$T/bench.json" \
    2>"$T/bench.err" || fail "bench --cpu-mix: $(cat "$T/bench.err")"
python3 - "$T/bench.json" <<'PY' || fail "bench --cpu-mix: no CPU instruction rate"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rows"][0]
assert d["cpu_mix"] == "mcf,perlbench" and r["verified"] and r["cpu_insns"] > 100000, r
assert r["cpu_insn_per_proc_cpu_sec"] > 0 and r["warp_insn_per_proc_cpu_sec"] > 0, r
PY

# errors: CPU applications on a machine without CPU cores, an unknown application, a truncated trace
"$W" run vecadd --size tiny --cpu-mix H1 >"$T/e1.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--cpu-mix on gtx480: exit $rc, want 2"
grep -q "hetero-7tile" "$T/e1.txt" || fail "--cpu-mix on gtx480: message does not point at the presets"
"$W" run vecadd --size tiny --config hetero-small --cpu-mix mcf,nosuchapp >"$T/e2.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "unknown CPU application: exit $rc, want 2"
grep -q "'nosuchapp' is neither a profile" "$T/e2.txt" || fail "unknown CPU application: $(cat "$T/e2.txt")"
"$W" trace gen perlbench -o "$T/full.trace" --insns 100 >/dev/null 2>&1 || fail "trace gen plain"
head -c $((64 * 50 + 17)) "$T/full.trace" >"$T/short.trace"
"$W" run vecadd --size tiny --config hetero-small --cpu "$T/short.trace" --no-alone >"$T/e3.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "a truncated trace: exit $rc, want 2 (bad input)"
grep -q "short.trace: record 50 is truncated (17 of 64 bytes)" "$T/e3.txt" || fail "truncated trace: message lacks the record: $(grep -i trunc "$T/e3.txt")"
# every machine option is listed, and docs/config.md's option reference has each of them
"$W" list --options >"$T/opts.txt" || fail "list --options"
grep -q "^-warpsim_cpu_cores .* uint .* \[0, 1024\]" "$T/opts.txt" || fail "list --options lacks -warpsim_cpu_cores"
missing=$(awk 'NR > 1 { print $1 }' "$T/opts.txt" | while read -r o; do grep -q "^| \`$o\` |" "$SRC/docs/config.md" || echo "$o"; done)
[ -z "$missing" ] || fail "docs/config.md's option reference lacks: $missing"
echo "hetero_test: ok"
