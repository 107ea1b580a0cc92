#!/usr/bin/env bash
# `warpsim study hetero` (seed 004 on the CPU-GPU chip) at tiny size with the
# smallest matrix (one GPU workload, one CPU mix): the runs it makes (the
# baseline with its alone runs, the others --no-alone), its tables and CSV
# files, the numbers in them against the runs' own JSON, the measured
# workload-type rule, caching, --emit, --skip-policy and usage errors
# (docs/studies.md "hetero").
# Usage: study_hetero_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"
cd "$tmp" || exit 1
csv_col() {  # csv_col FILE COLUMN_NAME: that column of every data row (no quoted commas in these files)
    awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"
}
cell() {  # cell FILE ROW COLUMN_NAME: one cell of a table CSV (first column = row name)
    awk -F, -v r="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                                 $1 == r { print $k }' "$1"
}
jnum() {  # jnum FILE KEY: the last number (timing.totals comes after the kernels) of "KEY": in a JSON file
    grep -o "\"$2\": *[-0-9.e+]*" "$1" | tail -1 | sed 's/.*: *//'
}
near() {  # near A B TOL: |A - B| <= TOL
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'
}

# ---- usage ----
"$W" study --help | grep -q "^  hetero " && "$W" study --help | grep -q -- "--mixes A,B" \
    && "$W" study --help | grep -q -- "--full" && ok || bad "study --help lists hetero, --mixes, --full"
expect_rc 2 "unknown mix" "$W" study hetero --mixes L1,X9 --size tiny -o u
expect_err "unknown CPU mix X9" "unknown mix message"
expect_rc 2 "--mixes without a value" "$W" study hetero --mixes

# ---- the smallest matrix: vecadd x H1 ----
expect_rc 0 "study hetero" "$W" study hetero --workloads vecadd --mixes H1 --size tiny -j 2 -o h
for t in "^GPU workload type (004 Table II), measured" "^Baseline GTO per workload" \
         "^GPU performance: IPC normalised to the baseline GTO (Fig. 16" "^CPU performance: WS_CPU normalised" \
         "^Congestion normalised to the baseline (Fig. 18)" "^Average active warp limit per core" \
         "^Overall system speedup OSS(alpha)" "^Shared vs partitioned network (Fig. 3-5)" \
         "^Comparison with seed 004"; do
    grep -q "$t" "$tmp/out" && ok || bad "hetero prints '$t'"
done
grep -q "^agreement with the seed: [0-9]* of 19 comparisons agree, [0-9]* differ, [0-9]* cannot tell" "$tmp/out" \
    && ok || bad "hetero agreement summary: $(grep agreement "$tmp/out")"
grep -q "^\[cannot tell\] Dedicated MCs" "$tmp/out" \
    && grep -q "dedicated MCs (004 Fig. 4-5: 4G4C, 7G1C): not in this study yet" "$tmp/out" && ok \
    || bad "dedicated MCs are reported as not in the study"
for c in types baseline gpu cpu congestion warp_limit oss network; do
    [ -s "h/hetero_$c.csv" ] && ok || bad "hetero_$c.csv written"
done
[ -s h/hetero.txt ] && grep -q "^Overall system speedup" h/hetero.txt && ok || bad "report file"
head -1 h/hetero_gpu.csv | grep -q "^pair,DYNCTA,CM-CPU,CM-BAL1,CM-BAL2,CM-BAL3,CM-BAL4,SWL-4,SWL-6,SWL-8,SWL-16$" \
    && ok || bad "GPU CSV header: $(head -1 h/hetero_gpu.csv)"
head -1 h/hetero_network.csv | grep -q "^pair,GPU 3G1C,GPU 2G2C,CPU 3G1C,CPU 2G2C,dedicated MCs$" && ok \
    || bad "network CSV header: $(head -1 h/hetero_network.csv)"
[ "$(cell h/hetero_network.csv vecadd/H1 'dedicated MCs')" = "n/a" ] && ok || bad "dedicated MCs cell n/a"

# the runs: 13 configurations + CM-CPU with its own alone runs; only those two have alone runs
[ "$(grep -c . h/runs.csv)" -eq 15 ] && ok || bad "14 runs: $(cut -d, -f1 h/runs.csv)"
[ "$(grep -c ',ran,0,WS_SUCCESS,1,' h/runs.csv)" -eq 14 ] && ok || bad "all 14 ran and verified"
base=h/runs/vecadd_tiny_c-hetero-7tile_w-gto_warpsim_cpu_apps=H1.json
s4=h/runs/vecadd_tiny_c-hetero-7tile_w-swl_warpsim_cpu_apps=H1_warp_sched.swl.limit=4_noalone.json
cmcpu=$(ls h/runs/vecadd_tiny_c-hetero-7tile_w-swl_warpsim_cpu_apps=H1_warpsim_cm=cm_cpu_noalone_h*.json)
[ -s "$base" ] && [ -s "$s4" ] && [ -s "$cmcpu" ] && ok || bad "run names: $(ls h/runs | grep json)"
[ "$(grep -l '"hetero":' h/runs/*.json | wc -l)" -eq 2 ] && ok || bad "alone runs only in the baseline and the check"
[ "$(grep -l -- '--no-alone' h/runs/*.json | wc -l)" -eq 12 ] && ok || bad "12 runs with --no-alone"
cmd='"command": "warpsim run vecadd --size tiny --config hetero-7tile --warp-sched swl'
cmd="$cmd --set warpsim_cpu_apps=H1 --set warpsim_cm=cm_cpu --no-alone -o "
grep -q -- "$cmd" "$cmcpu" && ok || bad "CM-CPU's command line: $(grep '"command"' "$cmcpu")"

# the numbers against the runs' JSON
near "$(cell h/hetero_baseline.csv vecadd/H1 WS_CPU)" "$(jnum "$base" WS_CPU)" 0.006 && ok \
    || bad "baseline WS_CPU = the run's: $(cell h/hetero_baseline.csv vecadd/H1 WS_CPU) vs $(jnum "$base" WS_CPU)"
near "$(cell h/hetero_baseline.csv vecadd/H1 SU_GPU)" "$(jnum "$base" SU_GPU)" 0.0006 && ok \
    || bad "baseline SU_GPU = the run's: $(cell h/hetero_baseline.csv vecadd/H1 SU_GPU) vs $(jnum "$base" SU_GPU)"
r4=$(awk -v a="$(jnum "$s4" gpu_ipc)" -v b="$(jnum "$base" gpu_ipc)" 'BEGIN { printf "%.2f", a / b }')
[ "$(cell h/hetero_gpu.csv vecadd/H1 SWL-4)" = "$r4" ] && [ "$(cell h/hetero_types.csv vecadd 'r(4)')" = "$r4" ] \
    && ok || bad "SWL-4 GPU = IPC ratio $r4: $(cell h/hetero_gpu.csv vecadd/H1 SWL-4)"
lim=$(awk -v a="$(jnum "$cmcpu" cm_avg_warp_limit)" 'BEGIN { printf "%.1f", a }')
[ "$(cell h/hetero_warp_limit.csv vecadd/H1 CM-CPU)" = "$lim" ] && ok \
    || bad "CM-CPU warp limit $lim: $(cell h/hetero_warp_limit.csv vecadd/H1 CM-CPU)"
# OSS(0) is the CPU side, OSS(1) the GPU side
for c in CM-CPU CM-BAL1 SWL-4 DYNCTA; do
    near "$(cell h/hetero_oss.csv 0.0 "$c")" "$(cell h/hetero_cpu.csv vecadd/H1 "$c")" 0.006 \
        && near "$(cell h/hetero_oss.csv 1.0 "$c")" "$(cell h/hetero_gpu.csv vecadd/H1 "$c")" 0.006 && ok \
        || bad "OSS(0) = CPU and OSS(1) = GPU for $c"
done
# one pair: every group row equals it
[ "$(cell h/hetero_gpu.csv 'all (1)' CM-BAL1)" = "$(cell h/hetero_gpu.csv vecadd/H1 CM-BAL1)" ] && ok \
    || bad "the mean of one pair is the pair"
# the type rule applied to the printed r(N)
want=$(awk -F, 'NR == 2 { l = $4 > $5 ? $4 : $5; l = l > $6 ? l : $6;
                           print (l > 1.05 ? "Type-L" : $6 < 0.95 ? "Type-H" : "Type-M") }' h/hetero_types.csv)
[ "$(cell h/hetero_types.csv vecadd type)" = "$want" ] && ok \
    || bad "type rule: $want vs $(cell h/hetero_types.csv vecadd type)"
head -1 h/hetero_types.csv | grep -q "^workload,004 type,004 opt,r(4),r(6),r(8),r(16),r(48),opt,type$" && ok \
    || bad "types CSV header: $(head -1 h/hetero_types.csv)"
grep -q "^Alone runs: vecadd/H1 under CM-CPU, WS_CPU with its own alone runs [0-9.]*, with the baseline's" \
    "$tmp/out" && ok || bad "the alone-run check line"

# cached the second time; a manager left out is n/a, never silently
expect_rc 0 "study hetero again (cached)" "$W" study hetero --workloads vecadd --mixes H1 --size tiny -j 2 -o h
grep -q "14 runs: 14 done before, 0 to run" "$tmp/err" && ok || bad "hetero reuses its runs: $(head -2 "$tmp/err")"
expect_rc 0 "study hetero without cm_bal2" "$W" study hetero --workloads vecadd --mixes H1 --size tiny -j 2 -o h \
    --skip-policy cm_bal2
grep -q "CM-BAL2: left out by --skip-policy cm_bal2" "$tmp/out" && ok || bad "missing manager reason"
[ "$(cell h/hetero_gpu.csv vecadd/H1 CM-BAL2)" = "n/a" ] && ok || bad "missing manager cell n/a"
# --emit: the jobs, the baseline and the check with alone runs, the rest without
expect_rc 0 "study hetero emit" "$W" study hetero --workloads mm --mixes L1 --size tiny -o e --emit parallel hj.txt
[ "$(wc -l <hj.txt)" -eq 14 ] && [ "$(grep -c -- '--no-alone' hj.txt)" -eq 12 ] \
    && grep -q -- "--set warpsim_mesh_partition=3G1C --no-alone" hj.txt && ok || bad "emitted jobs: $(cat hj.txt)"

finish
