#!/usr/bin/env bash
# End-to-end checks of the warpsim command: exit codes, listings, result files,
# determinism of the statistics.  Usage: cli_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"

expect_rc 0 "--help" "$W" --help
expect_rc 2 "no command" "$W"
expect_rc 2 "unknown command" "$W" frobnicate
grep -q "unknown command 'frobnicate'" "$tmp/err" && ok || bad "unknown command message"
for c in run list ptx-check bench; do expect_rc 0 "$c --help" "$W" $c --help; done

expect_rc 0 "list" "$W" list
# the applications come first, the microbenchmarks in their own section after them
n=$(sed '/^microbenchmarks:/,$d' "$tmp/out" | grep -c -E '^[a-z]')
# header line + one line per application of workloads/registry.def (the microbenchmarks are its
# last lines, from pchase on)
nmicro=$(sed -n '/^X(pchase)/,$p' "$SRC/workloads/registry.def" | grep -c '^X(')
napps=$(( $(grep -c '^X(' "$SRC/workloads/registry.def") - nmicro ))
[ "$n" -eq $((napps + 1)) ] && ok || bad "list shows $((n - 1)) workloads, expected $napps"
grep -q "^$napps workloads and $nmicro microbenchmarks" "$tmp/out" && ok || bad "list total line"
m=$(sed -n '/^microbenchmarks:/,$p' "$tmp/out" | grep -c -E '^(pchase|stream|cachebw|bankconf|atomics|diverge|ctarate) ')
[ "$m" -eq 7 ] && [ "$m" -eq "$nmicro" ] && ok || bad "list shows $m of the $nmicro microbenchmarks in their section"

expect_rc 0 "list --presets" "$W" list --presets
for c in "$SRC"/configs/*.config; do
    n=$(basename "$c" .config)
    grep -qE "^$n +[a-zA-Z]" "$tmp/out" && ok || bad "list --presets lacks $n (or its description)"
done
grep -q "^$(ls "$SRC"/configs/*.config | wc -l) built-in presets" "$tmp/out" && ok || bad "list --presets count line"

expect_rc 2 "unknown workload" "$W" run nosuch --functional
grep -q "unknown workload 'nosuch'" "$tmp/err" && ok || bad "unknown workload message"
expect_rc 2 "bad size" "$W" run vecadd --size huge --functional
grep -q -- "--size must be tiny, small or paper, got 'huge'" "$tmp/err" && ok || bad "bad size message"
expect_rc 2 "bad seed" "$W" run vecadd --seed x1 --functional
expect_rc 2 "missing value" "$W" run vecadd --seed
expect_rc 2 "unknown option" "$W" run vecadd --frob
expect_err "unknown option '--frob' (see warpsim run --help)" "unknown option with nothing near it"
expect_rc 2 "misspelt option" "$W" run vecadd --sise tiny
expect_err "unknown option '--sise'; did you mean '--size'?" "nearest option suggested"
expect_rc 2 "misspelt bench option" "$W" bench --thread 2
expect_err "did you mean '--threads'?" "nearest bench option suggested"
expect_rc 0 "--name=value" "$W" run vecadd --size=tiny --functional
grep -q "^warpsim: vecadd (size tiny," "$tmp/out" && ok || bad "--size=tiny taken as --size tiny: $(head -1 "$tmp/out")"
expect_rc 0 "--set=NAME=VALUE" "$W" run vecadd --size tiny -q --set=gpgpu_n_clusters=2 -o "$tmp/s2.json"
grep -qE "^-gpgpu_n_clusters +2$" "$tmp/s2.config" && ok || bad "--set=gpgpu_n_clusters=2 not applied"
expect_rc 0 "--version" "$W" --version
grep -qE "^warpsim [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]{7,}(\+dirty)?|^warpsim [0-9]+\.[0-9]+\.[0-9]+ \(commit unknown\)" "$tmp/out" &&
    ok || bad "--version: $(cat "$tmp/out")"

# ---- timing mode (the default of run) ----
expect_rc 0 "timing run" "$W" run vecadd --size tiny
grep -q "^gpu_tot_sim_cycle = [1-9]" "$tmp/out" && ok || bad "timing run prints gpu_tot_sim_cycle"
grep -q "^L2_total_cache_miss_rate = " "$tmp/out" && ok || bad "timing run prints the statistics"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "timing run verifies"
expect_rc 2 "unknown warp scheduler" "$W" run vecadd --size tiny --warp-sched nosuch
grep -q "unknown warp scheduler 'nosuch'; valid: .*lrr.*gto" "$tmp/err" && ok || bad "warp scheduler list: $(cat "$tmp/err")"
expect_rc 2 "unknown CTA scheduler" "$W" run vecadd --size tiny --cta-sched nosuch
grep -q "unknown CTA scheduler 'nosuch'; valid: .*rr" "$tmp/err" && ok || bad "CTA scheduler list: $(cat "$tmp/err")"
expect_rc 2 "unknown preset" "$W" run vecadd --size tiny --config nosuch
grep -q "no built-in preset of that name (presets: .*dyncta-30core.*gtx480" "$tmp/err" && ok || bad "preset list: $(cat "$tmp/err")"
expect_rc 2 "bad --set value" "$W" run vecadd --size tiny --set gpgpu_n_clusters=x
grep -q "gpgpu_n_clusters" "$tmp/err" && ok || bad "bad --set names the option: $(cat "$tmp/err")"
expect_rc 2 "unknown --set option" "$W" run vecadd --size tiny --set no_such_option=1
grep -q "no_such_option" "$tmp/err" && ok || bad "unknown option named: $(cat "$tmp/err")"
expect_rc 2 "--set without =" "$W" run vecadd --size tiny --set gpgpu_n_clusters
expect_rc 2 "timing options with --functional" "$W" run vecadd --size tiny --functional --warp-sched gto
# a preset by name (embedded, includes resolved) and by path
expect_rc 0 "preset by name" "$W" run vecadd --size tiny --config dyncta-30core --warp-sched gto
grep -q "^per_core.N_act = \([0-9]* \)\{29\}[0-9]*$" "$tmp/out" && ok || bad "dyncta-30core has 30 cores"
expect_rc 0 "preset by path" "$W" run vecadd --size tiny --config "$SRC/configs/las-15sm.config"
# results: JSON with the timing statistics, the effective config and the time series beside it
expect_rc 0 "timing run -o" "$W" run bfs --size tiny --warp-sched gto --set gpgpu_n_clusters=8 \
    -o "$tmp/t.json" --warps "$tmp/t.warps.csv"
grep -q '"timing": {' "$tmp/t.json" && ok || bad "JSON has the timing statistics"
grep -q '"gpu_sim_cycle": [1-9]' "$tmp/t.json" && ok || bad "JSON gpu_sim_cycle"
grep -q '"RACT": ' "$tmp/t.json" && ok || bad "JSON RACT"
if command -v python3 >/dev/null; then
    python3 -m json.tool "$tmp/t.json" >/dev/null && ok || bad "timing result file is not valid JSON"
fi
[ -s "$tmp/t.config" ] && grep -q "^-gpgpu_n_clusters *8" "$tmp/t.config" && ok || bad "effective config beside -o"
head -1 "$tmp/t.timeseries.csv" | grep -q "^kernel_id,kernel,cycle,interval_cycles,ipc" && ok || bad "time series beside -o"
head -1 "$tmp/t.warps.csv" | grep -q "^kernel_id,kernel,sm,cta,warp" && ok || bad "per-warp file"
# ctas_unissued: CTAs of the launch not yet dispatched; falls to 0 once all are issued and stays there
expect_rc 0 "time series ctas_unissued" "$W" run vecadd --size tiny --cta-sched dyncta \
    --set warpsim_sample_interval=300 -q -o "$tmp/cu.json"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ctas_unissued") c = i; if (!c) exit 1; next }
         { if ($c > prev && NR > 2) exit 1; if ($c > 0) pos++; else zero++; prev = $c }
         END { exit !(pos > 0 && zero > 0 && prev == 0) }' "$tmp/cu.timeseries.csv" && ok \
    || bad "ctas_unissued column: $(head -3 "$tmp/cu.timeseries.csv")"
[ "$(wc -l <"$tmp/t.warps.csv")" -gt 8 ] && ok || bad "per-warp file has rows"
# the effective config reproduces the run exactly
expect_rc 0 "rerun from the effective config" "$W" run bfs --size tiny --config "$tmp/t.config" -o "$tmp/u.json"
sed -n '/"timing": {/,/"host"/p' "$tmp/t.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/t.stats"
sed -n '/"timing": {/,/"host"/p' "$tmp/u.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/u.stats"
cmp -s "$tmp/t.stats" "$tmp/u.stats" && [ -s "$tmp/t.stats" ] && ok || bad "effective config does not reproduce the statistics"
# bench in timing mode: CPU-second rates first, then wall-second rates
expect_rc 0 "bench timing" "$W" bench --size tiny --workloads vecadd
grep -q "sim_cpu_s .*sim_wall_s .*proc_cpu_s .*Kwarp/cpu_s .*Kwarp/wall_s .*Kcyc/cpu_s .*Kcyc/wall_s .*peak_MiB" \
    "$tmp/out" && grep -q "^vecadd *yes" "$tmp/out" && ok || bad "bench timing table: $(head -3 "$tmp/out")"
grep -q "^warpsim bench: timing simulation, .*threads: config default" "$tmp/out" && ok || bad "bench header: $(head -1 "$tmp/out")"
# --json: the table as JSON on stdout (and nothing else there)
expect_rc 0 "bench --json" "$W" bench --size tiny --workloads vecadd --json
if command -v python3 >/dev/null; then
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "timing" and "threads" in d, d.keys()
r = d["rows"][0]
assert r["workload"] == "vecadd" and r["verified"] is True, r
for k in ("warp_insns", "gpu_sim_cycle", "cpu_seconds", "simulation_seconds", "total_seconds", "proc_cpu_seconds",
          "warp_insn_per_cpu_sec", "warp_insn_per_wall_sec", "cycles_per_cpu_sec", "cycles_per_wall_sec", "peak_rss_kib"):
    assert k in r, k
assert r["warp_insns"] > 0 and r["cpu_seconds"] > 0 and r["warp_insn_per_cpu_sec"] > 0, r
assert d["rows"][-1]["workload"] == "total", d["rows"][-1]
' "$tmp/out" && ok || bad "bench --json fields: $(head -c 300 "$tmp/out")"
fi
# --threads N is warpsim_threads=N for every run; a bad value is a usage error naming the option
expect_rc 0 "bench --threads 2" "$W" bench --size tiny --workloads vecadd --threads 2 -o "$tmp/bench.json"
grep -q "^warpsim bench: timing simulation, .*threads 2" "$tmp/out" && grep -q "^vecadd *yes" "$tmp/out" && ok ||
    bad "bench --threads header: $(head -2 "$tmp/out")"
grep -q '"threads": 2,' "$tmp/bench.json" && ok || bad "bench -o records the thread count"
expect_rc 2 "bench --threads x" "$W" bench --size tiny --workloads vecadd --threads x
expect_err "--threads" "bench --threads x names the option"
expect_rc 2 "bench --threads -1" "$W" bench --size tiny --workloads vecadd --threads -1
expect_err "--threads" "bench --threads -1 names the option"
expect_rc 2 "bench --threads with --functional" "$W" bench --size tiny --workloads vecadd --functional --threads 2

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
expect_rc 2 "ptx-check missing file" "$W" ptx-check "$tmp/none.ptx"

# a PTX override whose kernel reads out of bounds is reported like a memory checker, exit 3
# (the kernel is told n is 64 elements larger than the buffers)
sed 's/^\(\s*ld.param.u32\s*%r12, \[vecadd_param_3\];\)$/\1\n\tadd.s32 %r12, %r12, 64;/' \
    "$SRC/workloads/vecadd/vecadd.ptx" >"$tmp/v.ptx"
grep -q 'add.s32 %r12, %r12, 64' "$tmp/v.ptx" && ok || bad "could not make the out-of-bounds kernel"
expect_rc 3 "out-of-bounds kernel" "$W" run vecadd --size tiny --functional --ptx "$tmp/v.ptx"
grep -q "Invalid __global__ read of size 4 bytes" "$tmp/err" && ok || bad "memory checker report: $(head -5 "$tmp/err")"
grep -q "in block (" "$tmp/err" && ok || bad "memory checker names the CTA"
# the same in timing mode: the executor's fault stops the simulated GPU with the same report
expect_rc 3 "out-of-bounds kernel (timing)" "$W" run vecadd --size tiny -q --ptx "$tmp/v.ptx"
grep -q "Invalid __global__ read of size 4 bytes" "$tmp/err" && ok || bad "timing memory checker report: $(head -5 "$tmp/err")"
# with several threads the same fault is reported, and the statistics up to it are the same
grep -v seconds "$tmp/err" >"$tmp/err1"
expect_rc 3 "out-of-bounds kernel (timing, 3 threads)" "$W" run vecadd --size tiny -q --ptx "$tmp/v.ptx" --threads 3
grep -v seconds "$tmp/err" >"$tmp/err3"
cmp -s "$tmp/err1" "$tmp/err3" && ok || bad "the fault report with 3 threads differs: $(diff "$tmp/err1" "$tmp/err3" | head -5)"
expect_rc 2 "--threads out of range" "$W" run vecadd --size tiny --threads 300
grep -q -- "--threads" "$tmp/err" && ok || bad "--threads error names the option: $(head -2 "$tmp/err")"
# the unmodified PTX through --ptx runs and verifies
expect_rc 0 "run with --ptx" "$W" run vecadd --size tiny --functional --ptx "$SRC/workloads/vecadd/vecadd.ptx"

# ---- trace info: ChampSim instruction traces (docs/traces.md) ----
expect_rc 0 "trace --help" "$W" trace --help
grep -q "ChampSim" "$tmp/out" && ok || bad "trace --help names ChampSim"
expect_rc 2 "trace without a subcommand" "$W" trace
if command -v python3 >/dev/null && command -v gzip >/dev/null; then
    # 100 records: a branch every 5th (every 10th taken), a store every 4th to its own line,
    # a load every 3rd 8 bytes x i apart (13 lines): 25 + 13 distinct lines
    python3 - "$tmp/t.trace" <<'PY'
import struct, sys
with open(sys.argv[1], 'wb') as f:
    for i in range(100):
        f.write(struct.pack('<QBB2B4B2Q4Q', 0x400000 + 4 * i, int(i % 5 == 0), int(i % 10 == 0), 1, 0, 2, 3, 0, 0,
                            0x1000 + 64 * i if i % 4 == 0 else 0, 0, 0x8000 + 8 * i if i % 3 == 0 else 0, 0, 0, 0))
PY
    gzip -k "$tmp/t.trace"
    expect_rc 0 "trace info plain + gzip" "$W" trace info "$tmp/t.trace" "$tmp/t.trace.gz"
    [ "$(grep -c '^  records  *100$' "$tmp/out")" -eq 2 ] && ok || bad "trace info record counts: $(grep records "$tmp/out")"
    grep -q '^  compression  *gzip$' "$tmp/out" && ok || bad "trace info detects gzip"
    grep -q '^  branches  *20 (taken 10)$' "$tmp/out" && ok || bad "trace info branches: $(grep branches "$tmp/out")"
    grep -q '^  loads  *34 ' "$tmp/out" && grep -q '^  stores  *25 ' "$tmp/out" && ok || bad "trace info loads/stores"
    grep -q '^  lines  *38 ' "$tmp/out" && ok || bad "trace info distinct lines: $(grep lines "$tmp/out")"
    head -c 1000 "$tmp/t.trace" >"$tmp/short.trace"
    expect_rc 2 "trace info on a truncated trace" "$W" trace info "$tmp/short.trace"
    expect_err "$tmp/short.trace: record 15 is truncated (40 of 64 bytes)" "truncated trace message"
fi

# ---- trace gen / trace run: synthetic CPU traces on the CPU core model (docs/cpu.md) ----
expect_rc 0 "trace gen --list" "$W" trace gen --list
grep -q '^  soplex  *103.2  H ' "$tmp/out" && ok || bad "trace gen --list shows soplex's target MPKI"
[ "$(grep -c -E '^  [A-Za-z0-9]+ +[0-9]+\.[0-9]  [LMH] ' "$tmp/out")" -eq 34 ] && ok || bad "trace gen --list: 34 profiles"
grep -q '^  H2  omnetpp, omnetpp' "$tmp/out" && ok || bad "trace gen --list shows the mixes"
expect_rc 0 "trace gen" "$W" trace gen libquantum -o "$tmp/lq.trace.gz" --insns 60000 --seed 3
grep -q 'target L2 MPKI    12.5' "$tmp/out" && ok || bad "trace gen prints the target"
mpki=$(sed -n 's/^  achieved L2 MPKI  \([0-9.]*\).*/\1/p' "$tmp/out")
awk -v m="$mpki" 'BEGIN { exit !(m > 12.5 * 0.85 && m < 12.5 * 1.15) }' && ok || bad "trace gen achieved MPKI '$mpki' not near 12.5"
expect_rc 0 "trace info on a generated trace" "$W" trace info "$tmp/lq.trace.gz"
grep -q '^  records  *60000$' "$tmp/out" && ok || bad "generated trace has 60000 records"
expect_rc 0 "trace run" "$W" trace run "$tmp/lq.trace.gz"
grep -q '^  instructions  *60000$' "$tmp/out" && ok || bad "trace run retires the whole trace"
grep -q '^  IPC  *0\.[0-9]' "$tmp/out" && grep -q '^  L2 MPKI ' "$tmp/out" && grep -q '^  branch mispredicts ' "$tmp/out" \
    && grep -q 'instructions per host second' "$tmp/out" && ok || bad "trace run output: $(head -3 "$tmp/out")"
cp "$tmp/out" "$tmp/run1"
expect_rc 0 "trace run again" "$W" trace run "$tmp/lq.trace.gz"
[ "$(grep -v 'host second' "$tmp/out")" = "$(grep -v 'host second' "$tmp/run1")" ] && ok || bad "trace run is deterministic"
expect_rc 0 "trace run --json --loop" "$W" trace run "$tmp/lq.trace.gz" --json --insns 100000 --loop
grep -q '"instructions": 100000' "$tmp/out" && grep -q '"l2_mpki": ' "$tmp/out" && ok || bad "trace run --json: $(head -5 "$tmp/out")"
expect_rc 2 "trace gen unknown profile" "$W" trace gen nosuch -o "$tmp/x.trace"
expect_err "unknown profile 'nosuch'; valid: perlbench" "trace gen unknown profile message"
expect_rc 2 "trace gen without -o" "$W" trace gen mcf
expect_err "no output file given (-o FILE)" "trace gen without -o message"
expect_rc 2 "trace gen bad --insns" "$W" trace gen mcf -o "$tmp/x.trace" --insns 12x
expect_err "option --insns expects a non-negative integer" "trace gen bad --insns message"
expect_rc 2 "trace run unknown option" "$W" trace run "$tmp/lq.trace.gz" --frob
expect_err "unknown option '--frob'" "trace run unknown option message"
expect_rc 2 "trace run missing file" "$W" trace run "$tmp/none.trace"
expect_err "$tmp/none.trace: " "trace run missing file message"
expect_rc 2 "trace run --loop without --insns" "$W" trace run "$tmp/lq.trace.gz" --loop
# ---- progress: the ETA's instruction count is remembered after a verified run, per inputs ----
expect_rc 0 "functional run remembers its count" "$W" run vecadd --size tiny --functional
n=$(sed -n 's/^gpu_sim_warp_insn = //p' "$tmp/out")
grep -qxF "$(printf 'vecadd size=tiny seed=1 input=- ptx=-\t%s' "$n")" "$WARPSIM_CACHE_DIR/warp_insns.tsv" && ok ||
    bad "count of vecadd tiny not remembered: $(cat "$WARPSIM_CACHE_DIR/warp_insns.tsv" 2>&1)"
expect_rc 0 "timing run, same inputs" "$W" run vecadd --size tiny --seed 7 -q
[ "$(grep -c '^vecadd size=tiny seed=7 ' "$WARPSIM_CACHE_DIR/warp_insns.tsv")" -eq 1 ] && ok || bad "a second seed is a second key"
[ ! -s "$tmp/err" ] && ok || bad "--quiet run wrote to stderr: $(head -2 "$tmp/err")"
expect_rc 0 "the same run again" "$W" run vecadd --size tiny --seed 7 -q
[ "$(grep -c '^vecadd size=tiny seed=7 ' "$WARPSIM_CACHE_DIR/warp_insns.tsv")" -eq 1 ] && ok || bad "a known count is not appended again"

if command -v python3 >/dev/null && [ -f "$tmp/short.trace" ]; then
    expect_rc 2 "trace run on a truncated trace" "$W" trace run "$tmp/short.trace"
    expect_err "$tmp/short.trace: record 15 is truncated (40 of 64 bytes)" "trace run truncated trace message"
fi

finish
