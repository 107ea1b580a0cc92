#!/usr/bin/env bash
# HeteroPDP from the command line (docs/heteropdp.md): features of a bundled kernel, the published
# model's predictions checked by an independent evaluator, training on synthetic measurements,
# the schedule decision on a hand-made model, and clear errors (exit 2, FILE:LINE) on bad input.
#   usage: pdp_test.sh WARPSIM_BINARY SOURCE_DIR
set -u
W=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$SRC" || fail "no source dir $SRC"
MODEL=models/heteropdp-i7-3770-s9150.model

# ---- help, unknown subcommands, the command not built yet
"$W" pdp --help >"$T/h.txt" 2>&1 || fail "pdp --help: exit $?"
grep -q "warpsim pdp schedule" "$T/h.txt" || fail "pdp --help lacks the schedule usage"
"$W" --help | grep -q "pdp SUB" || fail "warpsim --help does not list pdp"
"$W" pdp >/dev/null 2>&1; [ $? -eq 2 ] || fail "bare 'pdp' should exit 2"
"$W" pdp frobnicate >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "unknown subcommand: exit not 2"
grep -q "collect, features, train, predict, schedule" "$T/e.txt" || fail "unknown subcommand: no list of subcommands"
"$W" pdp collect --size huge >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "pdp collect --size huge: exit not 2"
grep -q "tiny or small" "$T/e.txt" || fail "pdp collect: bad --size not explained"
"$W" pdp collect --kernels nosuch --out "$T/x" >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "pdp collect: unknown kernel: exit not 2"
"$W" pdp collect --coruns nosuch --out "$T/x" >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "pdp collect: unknown profile: exit not 2"
"$W" pdp collect --help | grep -q "bubble.csv" || fail "pdp collect --help"
"$W" pdp collect --help | grep -q -- "--grid-scales" || fail "pdp collect --help lacks --grid-scales"
for g in 0 -1 x 1,,2000; do
    "$W" pdp collect --grid-scales "$g" --out "$T/x" >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "--grid-scales $g: exit not 2"
    grep -q -- "--grid-scales" "$T/e.txt" || fail "--grid-scales $g: the message does not name the option"
done

# ---- features: the bundled workload and its PTX file agree; every static class is counted
"$W" pdp features --workload vecadd --json >"$T/f1.json" || fail "features --workload vecadd"
"$W" pdp features --ptx workloads/vecadd/vecadd.ptx --json >"$T/f2.json" || fail "features --ptx"
python3 - "$T/f1.json" "$T/f2.json" <<'PY' || fail "features: --workload and --ptx differ, or implausible counts"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["features"] == b["features"], (a["features"], b["features"])
f = a["features"]
assert a["kernel"] == "vecadd"
# both views count the same instructions (the CPU view leaves out barriers, none in vecadd)
cpu = sum(f[k] for k in ("cpu_salu", "cpu_smem", "cpu_valu", "cpu_vmem", "cpu_branch", "cpu_atomic"))
gpu = sum(f[k] for k in ("gpu_mem", "gpu_int", "gpu_fp", "gpu_math", "gpu_branch", "gpu_barrier"))
assert cpu == gpu and cpu > 20, (cpu, gpu)
assert f["cpu_vmem"] > 0 and f["cpu_valu"] > f["cpu_salu"] and f["gpu_fp"] > 0 and f["cpu_atomic"] == 0
assert f["threads"] == 0 and f["buffer_bytes"] == 0
PY
"$W" pdp features --workload histogram --list >"$T/l.txt" || fail "features --list"
grep -q "atomic" "$T/l.txt" || fail "histogram's listing shows no atomic instruction"
"$W" pdp features --workload bfs --kernel nosuch >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "unknown kernel: exit not 2"
grep -q "its kernels: bfs_expand" "$T/e.txt" || fail "unknown kernel: kernels not listed: $(cat "$T/e.txt")"
"$W" pdp features --workload nosuch >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown workload: exit not 2"
printf '.version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  frob.u32 %%r1;\n}\n' >"$T/bad.ptx"
"$W" pdp features --ptx "$T/bad.ptx" >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "bad PTX: exit not 2"
grep -q "bad.ptx:6:" "$T/e.txt" || fail "bad PTX: no FILE:LINE: $(cat "$T/e.txt")"

# ---- predict with the published model; an independent evaluation of the model file
ARGS="--workload vecadd --threads 4096 --bytes 49152 --llc-misses 20000 --dram-util 0.25"
"$W" pdp predict --model heteropdp-i7-3770-s9150 $ARGS --json >"$T/p.json" || fail "predict (model by name)"
"$W" pdp predict --model "$MODEL" $ARGS >"$T/p.txt" || fail "predict (model by path)"
grep -q "co-located" "$T/p.txt" || fail "predict text lacks the co-located row"
python3 - "$T/p.json" "$MODEL" <<'PY' || fail "predict differs from an independent evaluation of the model file"
import json, sys
p = json.load(open(sys.argv[1]))
x = dict(p["features"]); x["1"] = 1.0
models, cur = {}, None
for line in open(sys.argv[2]):
    t = line.split("#")[0].split()
    if not t: continue
    if t[0] == "model": cur = t[1] + "_" + t[2]; models[cur] = 0.0
    elif t[0] == "term": models[cur] += float(t[3]) * x[t[1]] * x[t[2]]
assert len(models) == 4
for k, v in models.items():
    got = p["time"][k]
    assert abs(got - v) <= 1e-9 * max(1.0, abs(v)), (k, got, v)
PY
"$W" pdp predict --model "$MODEL" --workload vecadd --bytes 1 >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "predict without --threads: exit not 2"
grep -q -- "--threads is required" "$T/e.txt" || fail "predict without --threads: unclear message"
"$W" pdp predict --model "$T/none.model" $ARGS >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "missing model: exit not 2"

# ---- malformed model file: FILE:LINE
printf 'heteropdp-model 1\nmodel cpu alone\nterm threads 1 0.5\nterm threads warp_size 1\nend\n' >"$T/bad.model"
"$W" pdp predict --model "$T/bad.model" $ARGS >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "bad model: exit not 2"
grep -q "bad.model:4: error: unknown factor 'warp_size'" "$T/e.txt" || fail "bad model: $(cat "$T/e.txt")"

# ---- schedule on a hand-made model: times cpu 1.0/1.5, gpu 0.5/0.6 (alone/co-located)
cat >"$T/hand.model" <<'EOF'
heteropdp-model 1
name hand
model cpu alone
term threads 1 1e-3
end
model gpu alone
term buffer_bytes 1 1e-6
end
model cpu coloc
term threads 1 1.5e-3
end
model gpu coloc
term buffer_bytes 1 1.2e-6
end
EOF
H="--model $T/hand.model --workload vecadd --threads 1000 --bytes 500000"
"$W" pdp schedule $H --corun mcf,1.3,1.1 --json >"$T/s1.json" || fail "schedule"
"$W" pdp schedule $H --corun mcf,1.3,1.1,2 --json >"$T/s2.json" || fail "schedule weighted"
"$W" pdp schedule $H --corun mcf,1.3,1.1 >"$T/s.txt" || fail "schedule text"
grep -q "decision co-located: gpu" "$T/s.txt" || fail "schedule text: $(cat "$T/s.txt")"
python3 - "$T/s1.json" "$T/s2.json" <<'PY' || fail "schedule arithmetic or decision"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
near = lambda x, y: abs(x - y) < 1e-12
t = a["time"]
assert near(t["cpu_alone"], 1.0) and near(t["gpu_alone"], 0.5) and near(t["cpu_coloc"], 1.5) and near(t["gpu_coloc"], 0.6), t
k = a["applications"][0]
assert near(k["slowdown_cpu"], 1.5) and near(k["slowdown_gpu"], 1.2), k
assert near(a["fairness"]["cpu"], 1.3 / 1.5) and near(a["fairness"]["gpu"], 1.1 / 1.2), a["fairness"]
assert a["decision"]["alone"] == "gpu" and a["decision"]["coloc"] == "gpu" and not a["decision"]["weighted"]
# mcf weighted 2: cpu {1.5, 2.6}, gpu {1.2, 2.2}
assert near(b["weighted_fairness"]["cpu"], 1.5 / 2.6) and near(b["weighted_fairness"]["gpu"], 1.2 / 2.2)
assert b["decision"]["weighted"] and b["decision"]["coloc"] == "cpu" and b["decision"]["coloc_fairness"] == "gpu"
PY
"$W" pdp schedule $H --corun mcf,abc,1 >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "bad --corun: exit not 2"
grep -q "NAME,SD_CPU,SD_GPU" "$T/e.txt" || fail "bad --corun: unclear message"

# ---- train on synthetic measurements (30 kernels x 6 launches, 1% noise), then predict with it
python3 - "$T/train.csv" <<'PY' || fail "could not write the training CSV"
import random, sys
random.seed(3)
cols = ["kernel", "threads", "buffer_bytes", "cpu_salu", "cpu_smem", "cpu_valu", "cpu_vmem", "cpu_branch",
        "cpu_atomic", "gpu_mem", "gpu_int", "gpu_fp", "gpu_math", "gpu_branch", "gpu_barrier", "llc_misses",
        "dram_util", "time_cpu_alone", "time_gpu_alone", "time_cpu_coloc", "time_gpu_coloc", "note"]
with open(sys.argv[1], "w") as f:
    f.write("# synthetic\n" + ",".join(cols) + "\n")
    for k in range(30):
        st = {c: random.randint(1, 60) for c in cols[3:15]}
        for r in range(6):
            x = dict(st, threads=random.choice([256, 1024, 4096, 16384, 65536]) * (r + 1),
                     buffer_bytes=random.randint(10**4, 10**7), llc_misses=random.randint(0, 10**6),
                     dram_util=random.random())
            n = lambda: 1 + 0.01 * random.gauss(0, 1)
            ca = (2e-6 * x["threads"] * x["cpu_valu"] + 1e-8 * x["buffer_bytes"] * x["cpu_vmem"] / 10 + 0.01 * x["cpu_branch"])
            ga = (3e-7 * x["threads"] * x["gpu_fp"] + 4e-8 * x["buffer_bytes"] + 0.02 * x["gpu_mem"])
            cc = ca + 1e-6 * x["llc_misses"] * x["cpu_vmem"] / 10
            gc = ga * 1.0 + 0.5 * x["dram_util"] * x["buffer_bytes"] * 1e-7
            row = [f"k{k}"] + [str(x[c]) for c in cols[1:17]] + [f"{ca*n():.9g}", f"{ga*n():.9g}", f"{cc*n():.9g}", f"{gc*n():.9g}", "x"]
            f.write(",".join(row) + "\n")
PY
"$W" pdp train "$T/train.csv" -o "$T/syn.model" --json >"$T/t.json" 2>"$T/t.err" || fail "train: $(cat "$T/t.err")"
"$W" pdp train "$T/train.csv" -o "$T/syn2.model" --name syn >"$T/t.txt" 2>&1 || fail "train (text)"
grep -q "ignored column(s): note" "$T/t.txt" || fail "train: the ignored column is not mentioned"
cmp -s "$T/syn.model" "$T/syn2.model" || fail "train is not deterministic"
python3 - "$T/t.json" <<'PY' || fail "train: cross-validated R^2 too low"
import json, sys
t = json.load(open(sys.argv[1]))
assert set(t["models"]) == {"cpu_alone", "gpu_alone", "cpu_coloc", "gpu_coloc"}, t["models"].keys()
for k, m in t["models"].items():
    assert m["cv_r2"] > 0.99 and m["cv_mape"] < 0.05 and m["cv_folds"] == 32, (k, m)
    assert m["kernels"] == 30 and m["kernels_kept"] >= 21, (k, m)
PY
grep -q "^model gpu coloc" "$T/syn.model" && grep -q "^stat cv_r2" "$T/syn.model" || fail "model file lacks models or stats"
# the relative fit: the same exact-shaped data is fitted as well, and the note says how
"$W" pdp train "$T/train.csv" -o "$T/rel.model" --relative --json >"$T/r.json" 2>"$T/r.err" || fail "train --relative: $(cat "$T/r.err")"
grep -q "^note .*relative errors" "$T/rel.model" || fail "train --relative: the model's note does not say so"
grep -q "^note .*absolute errors" "$T/syn.model" || fail "train: the model's note does not name the absolute fit"
python3 - "$T/r.json" <<'PY' || fail "train --relative: cross-validated R^2 too low"
import json, sys
for k, m in json.load(open(sys.argv[1]))["models"].items():
    assert m["cv_r2"] > 0.99 and m["cv_mape"] < 0.05, (k, m)
PY
# a new launch: 8192 threads, 1 MB, salu 5 smem 3 valu 20 vmem 10 branch 4 / mem 12 int 30 fp 8
F="--feature cpu_salu=5 --feature cpu_smem=3 --feature cpu_valu=20 --feature cpu_vmem=10 --feature cpu_branch=4
   --feature cpu_atomic=0 --feature gpu_mem=12 --feature gpu_int=30 --feature gpu_fp=8 --feature gpu_math=0
   --feature gpu_branch=4 --feature gpu_barrier=0"
"$W" pdp predict --model "$T/syn.model" --workload vecadd $F --threads 8192 --bytes 1000000 --llc-misses 5e5 \
    --dram-util 0.5 --json >"$T/q.json" || fail "predict with the trained model"
python3 - "$T/q.json" <<'PY' || fail "the trained model predicts far from the truth"
import json, sys
t = json.load(open(sys.argv[1]))["time"]
ca = 2e-6 * 8192 * 20 + 1e-8 * 1e6 * 10 / 10 + 0.01 * 4
ga = 3e-7 * 8192 * 8 + 4e-8 * 1e6 + 0.02 * 12
truth = {"cpu_alone": ca, "gpu_alone": ga, "cpu_coloc": ca + 1e-6 * 5e5 * 10 / 10, "gpu_coloc": ga + 0.5 * 0.5 * 1e6 * 1e-7}
for k, v in truth.items():
    assert abs(t[k] - v) / v < 0.1, (k, t[k], v)
PY
"$W" pdp train "$T/train.csv" -o "$T/x.model" --folds 1 >/dev/null 2>&1; [ $? -eq 2 ] || fail "--folds 1: exit not 2"

# ---- malformed CSV: FILE:LINE
printf 'kernel,threads,time_cpu_alone\na,1,2\nb,2\n' >"$T/bad.csv"
"$W" pdp train "$T/bad.csv" -o "$T/x.model" >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "bad CSV: exit not 2"
grep -q "bad.csv:3: error: 2 fields, the header has 3" "$T/e.txt" || fail "bad CSV: $(cat "$T/e.txt")"
printf 'kernel,threads,time_cpu_alone\na,1,2\nb,two,3\n' >"$T/bad2.csv"
"$W" pdp train "$T/bad2.csv" -o "$T/x.model" >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "bad number: exit not 2"
grep -q "bad2.csv:3: error: column 2 'threads': 'two' is not a number" "$T/e.txt" || fail "bad number: $(cat "$T/e.txt")"
"$W" pdp train "$T/none.csv" -o "$T/x.model" >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing CSV: exit not 2"
[ ! -e "$T/x.model" ] || fail "a failed train wrote a model file"
# ---- the simulated campaign, reduced (2 kernels, 1 co-runner, short co-runner runs) -> train -> schedule;
#      vecadd (grid-stride) also at the default grid scale 0.25, mm (fixed grid) only at its own grid
"$W" pdp collect --kernels vecadd,mm --coruns mcf --quota 20000 --out "$T/col" --jobs 2 --quiet \
    || fail "pdp collect (reduced): exit $?"
python3 - "$T/col/pdp.csv" "$T/col/bubble.csv" <<'PY' || fail "pdp collect: implausible CSV or table"
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
need = ["kernel", "threads", "buffer_bytes", "cpu_salu", "cpu_smem", "cpu_valu", "cpu_vmem", "cpu_branch",
        "cpu_atomic", "gpu_mem", "gpu_int", "gpu_fp", "gpu_math", "gpu_branch", "gpu_barrier", "llc_misses",
        "dram_util", "time_cpu_alone", "time_gpu_alone", "time_cpu_coloc", "time_gpu_coloc", "co1_sd_cpu", "co1_sd_gpu"]
assert all(c in rows[0] for c in need), [c for c in need if c not in rows[0]]
assert len(rows) == 6, len(rows)                      # (vecadd x 2 grids, mm) x (alone, beside mcf)
cases = sorted((r["kernel"], r["size"], r["grid_scale"], float(r["threads"])) for r in rows if r["corunners"] == "")
assert cases == [("mm", "tiny", "1", 5120.0), ("vecadd", "tiny", "0.25", 3072.0), ("vecadd", "tiny", "1", 12288.0)], cases
# the thread axis: same kernel, same input, different threads spawned on both targets and different times
v = {r["grid_scale"]: r for r in rows if r["kernel"] == "vecadd" and r["corunners"] == ""}
assert v["1"]["buffer_bytes"] == v["0.25"]["buffer_bytes"] and v["1"]["transfer_in_bytes"] == v["0.25"]["transfer_in_bytes"]
assert v["1"]["gpu_kernel_s"] != v["0.25"]["gpu_kernel_s"] and v["1"]["time_cpu_alone"] != v["0.25"]["time_cpu_alone"]
for r in rows:
    alone = r["corunners"] == ""
    assert (r["time_cpu_alone"] != "") == alone and (r["time_gpu_alone"] != "") == alone
    assert float(r["time_cpu_coloc"]) > 0 and float(r["time_gpu_coloc"]) > 0
    assert float(r["threads"]) > 0 and float(r["buffer_bytes"]) > 0 and float(r["cpu_vmem"]) > 0
    # GPU target = transfers + kernel; the transfers move the lines the kernel reads and writes
    assert abs(float(r["gpu_alone_s"]) - float(r["transfer_s_alone"]) - float(r["gpu_kernel_s"])) < 1e-12
    assert float(r["transfer_in_bytes"]) > 0 and float(r["transfer_out_bytes"]) > 0
    if alone:
        assert float(r["llc_misses"]) == 0 and float(r["time_cpu_coloc"]) == float(r["time_cpu_alone"])
    else:
        assert r["corunners"] == "mcf" and r["kernel_cores"] == "3"
        assert float(r["llc_misses"]) > 0 and 0 < float(r["dram_util"]) < 1
        assert float(r["co1_sd_cpu"]) > 0.9 and float(r["co1_sd_gpu"]) >= 1.0
        assert float(r["transfer_s_coloc"]) >= float(r["transfer_s_alone"]) * 0.999
t = [r for r in csv.DictReader(open(sys.argv[2]))]
assert any(r["kind"] == "dma" and r["app"] == "mcf" for r in t)
cpu = sorted((float(r["footprint"]), float(r["slowdown"])) for r in t if r["kind"] == "cpu")
assert len(cpu) == 5 and cpu[-1][1] > cpu[0][1] > 0.9, cpu    # more pressure, more slowdown
PY
# the scaled grid's GPU run is a sweep run of its own, its name and command line carrying the factor
grep -q -- '--grid-scale 0.25' "$T/col/runs/vecadd_tiny_c-pdp-s9150_g0.25.json" 2>/dev/null \
    || fail "no GPU run vecadd_tiny_c-pdp-s9150_g0.25 with --grid-scale 0.25: $(ls "$T/col/runs")"
[ -s "$T/col/jobs/trace-vecadd-tiny-g0.25-c4.json" ] || fail "no trace job of vecadd at grid scale 0.25: $(ls "$T/col/jobs")"
# resumable: a rerun runs nothing and writes the same CSV
cp "$T/col/pdp.csv" "$T/col1.csv"
"$W" pdp collect --kernels vecadd,mm --coruns mcf --quota 20000 --out "$T/col" --jobs 2 >"$T/re.txt" 2>&1 \
    || fail "pdp collect rerun"
grep -q "host\] [0-9]* jobs: [0-9]* done before, 0 to run" "$T/re.txt" || fail "rerun ran jobs again: $(cat "$T/re.txt")"
cmp -s "$T/col/pdp.csv" "$T/col1.csv" || fail "the rerun's CSV differs"
"$W" pdp train "$T/col/pdp.csv" -o "$T/col.model" >/dev/null 2>&1 || fail "pdp train on the collected CSV"
"$W" pdp schedule --model "$T/col.model" --workload vecadd --threads 12288 --bytes 600000 --llc-misses 1e4 \
    --dram-util 0.07 --bubble "$T/col/bubble.csv" --corun-app mcf >"$T/s.txt" || fail "pdp schedule (bubble)"
for w in "co-located" "from the Bubble-up table" "mcf" "fairness (min/max)" "decision alone:" "decision co-located:"; do
    grep -q "$w" "$T/s.txt" || fail "schedule output lacks '$w': $(cat "$T/s.txt")"
done
"$W" pdp schedule --model "$T/col.model" --workload vecadd --threads 12288 --bytes 600000 \
    --bubble "$T/col/bubble.csv" --corun-app mcf,2 --json >"$T/s.json" || fail "pdp schedule --json (bubble)"
python3 - "$T/s.json" "$T/col/bubble.csv" <<'PY' || fail "schedule's table slowdowns differ from the table"
import csv, json, math, sys
s = json.load(open(sys.argv[1]))
t = [r for r in csv.DictReader(open(sys.argv[2]))]
app = s["applications"][1]
assert app["name"] == "mcf" and app["weight"] == 2 and s["cpu_cores"] == 3
# CPU: log2 interpolation at 200000 bytes per core between the measured footprints around it
pts = sorted((float(r["footprint"]), float(r["slowdown"])) for r in t if r["kind"] == "cpu")
x = math.log2(600000 / 3)
lo = max(p for p in pts if math.log2(p[0]) <= x); hi = min(p for p in pts if math.log2(p[0]) >= x)
want = lo[1] + (hi[1] - lo[1]) * (x - math.log2(lo[0])) / (math.log2(hi[0]) - math.log2(lo[0]))
assert abs(app["slowdown_cpu"] - want) < 1e-9, (app, want)
# GPU: T / (tx / s_dma + T - tx), tx = 2 x 10 us + bytes / (8e9 * 16 * 128/130 / 8 * 0.8)
sd = [float(r["slowdown"]) for r in t if r["kind"] == "dma"][0]
T = s["time"]["gpu_coloc"]; tx = min(2e-5 + 600000 / (8e9 * 16 * 128 / 130 / 8 * 0.8), T)
assert abs(app["slowdown_gpu"] - T / (tx / sd + T - tx)) < 1e-9
assert s["decision"]["weighted"] and s["decision"]["coloc"] in ("cpu", "gpu")
PY
"$W" pdp schedule --model "$T/col.model" --workload vecadd --threads 1 --bytes 1 --corun-app mcf >/dev/null 2>&1
[ $? -eq 2 ] || fail "--corun-app without --bubble: exit not 2"
"$W" pdp schedule --model "$T/col.model" --workload vecadd --threads 1 --bytes 1 --bubble "$T/col/bubble.csv" \
    --corun-app lbm >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "an application not in the table: exit not 2"
printf 'app,kind,cores,footprint,slowdown\nmcf,cpu,3,1000,-1\n' >"$T/badb.csv"
"$W" pdp schedule --model "$T/col.model" --workload vecadd --threads 1 --bytes 1 --bubble "$T/badb.csv" \
    --corun-app mcf >"$T/e.txt" 2>&1; [ $? -eq 2 ] || fail "bad table: exit not 2"
grep -q "badb.csv:2:16: error: expected a slowdown" "$T/e.txt" || fail "bad table: no FILE:LINE:COL: $(cat "$T/e.txt")"

# ---- the study (000 Fig. 6.7-6.14) on a reduced campaign: three kernels, one co-runner
"$W" study heteropdp --size tiny --workloads vecadd,mm,histogram --mixes mcf -j 2 -o "$T/hp" >"$T/hp.txt" 2>"$T/hp.err" \
    || fail "study heteropdp: exit $?: $(tail -3 "$T/hp.err")"
grep -q "^Target selection (Fig. 6.7, 6.13)" "$T/hp.txt" || fail "study heteropdp prints no target-selection table"
grep -q "^agreement with the seed: [0-9] of 9 comparisons" "$T/hp.txt" || fail "study heteropdp: no agreement line"
[ -s "$T/hp/report.html" ] && [ -s "$T/hp/heteropdp.txt" ] || fail "study heteropdp: report files missing"
python3 - "$T/hp/cases.csv" <<'PY' || fail "study heteropdp: cases.csv"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert sorted({r["kernel"] for r in rows}) == ["histogram", "mm", "vecadd"], rows
# the thread axis (default grid scales 1,0.25): vecadd and histogram take a grid scale, mm does not
cases = sorted((r["kernel"], float(r["grid_scale"]), r["corunners"]) for r in rows)
want = sorted((k, g, co) for k, gs in (("histogram", (1, 0.25)), ("mm", (1,)), ("vecadd", (1, 0.25)))
              for g in gs for co in ("", "mcf"))
assert cases == want, cases
# out-of-sample predictions (each kernel's models trained on the other two) exist and are positive
pred = [float(r["pred_cpu_alone"]) for r in rows]
assert any(math.isfinite(p) and p > 0 for p in pred), pred
assert all(r["optimal"] in ("CPU", "GPU") for r in rows), rows
PY

echo "pdp_test: ok"
