#!/usr/bin/env bash
# `warpsim sweep` and `warpsim study`: grid expansion and run names, resume
# (complete results are skipped, missing or truncated ones rerun), the job
# lists for GNU parallel and Slurm, failures, a tiny real sweep (2 workloads x
# 2 policies), the studies' plumbing at tiny size and the reuse of a sibling
# study's or sweep's runs (docs/studies.md).
# Usage: sweep_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"
cd "$tmp" || exit 1
fp() {  # fingerprint of the sweep's results, host timings left out (they differ from run to run)
    for f in s/*.json; do grep -v -E 'seconds|simulation_(rate|time)|_per_sec' "$f"; done | md5sum
}
csv_col() {  # csv_col FILE COLUMN_NAME: that column of every data row (no quoted commas in these files)
    awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"
}

# ---- usage ----
expect_rc 0 "sweep --help" "$W" sweep --help
grep -q -- "--emit parallel|slurm" "$tmp/out" && ok || bad "sweep --help describes --emit"
expect_rc 0 "study --help" "$W" study --help
expect_rc 2 "sweep without workloads" "$W" sweep --warp-sched gto
expect_rc 2 "sweep unknown workload" "$W" sweep --workloads nosuch
grep -q "unknown workload 'nosuch'" "$tmp/err" && ok || bad "unknown workload message"
expect_rc 2 "sweep unknown warp scheduler" "$W" sweep --workloads vecadd --warp-sched gto,nosuch
grep -q "warp scheduler 'nosuch' is not registered" "$tmp/err" && ok || bad "unknown policy message: $(cat "$tmp/err")"
expect_rc 2 "sweep --set without =" "$W" sweep --workloads vecadd --set gpgpu_n_clusters
expect_rc 2 "sweep bad --emit format" "$W" sweep --workloads vecadd --emit make jobs.txt
expect_rc 2 "sweep -j 0" "$W" sweep --workloads vecadd -j 0
expect_rc 2 "unknown study" "$W" study nosuch
expect_rc 2 "study unknown workload" "$W" study las --workloads nosuch

# ---- grid expansion and names (--list runs nothing) ----
expect_rc 0 "grid --list" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --set gpgpu_n_clusters=2,4 \
    --size tiny -o g --list
[ "$(grep -c '^todo ' "$tmp/out")" -eq 8 ] && ok || bad "2 x 2 x 2 grid lists 8 runs: $(cat "$tmp/out")"
# order: workloads outermost, the last --set fastest
first3=$(grep '^todo ' "$tmp/out" | head -3 | awk '{print $2}' | tr '\n' ' ')
want="vecadd_tiny_w-lrr_gpgpu_n_clusters=2 vecadd_tiny_w-lrr_gpgpu_n_clusters=4"
want="$want vecadd_tiny_w-gto_gpgpu_n_clusters=2 "
[ "$first3" = "$want" ] \
    && ok || bad "grid order / names: $first3"
grep -q "^todo  *bfs_tiny_w-gto_gpgpu_n_clusters=4$" "$tmp/out" && ok || bad "last run name"
grep -q "^8 runs, 0 done, 8 to run" "$tmp/out" && ok || bad "--list summary"
[ ! -e g ] || [ -z "$(ls g)" ] && ok || bad "--list wrote results"
# two --set dimensions, a preset and a CTA scheduler: 1 x 1 x 1 x 3 x 2
expect_rc 0 "grid with two --set" "$W" sweep --workloads mm --configs gtx480 --cta-sched rr \
    --set gpgpu_n_clusters=2,4,8 --set gpgpu_num_sched_per_core=1,2 --size tiny -o g --list
[ "$(grep -c '^todo ' "$tmp/out")" -eq 6 ] && ok || bad "3 x 2 grid lists 6 runs"
grep -q "^todo  *mm_tiny_c-gtx480_t-rr_gpgpu_n_clusters=8_gpgpu_num_sched_per_core=2$" "$tmp/out" && ok \
    || bad "name with config, CTA scheduler and two options: $(cat "$tmp/out")"
# duplicates collapse; --fixed keeps commas
expect_rc 0 "duplicate grid points" "$W" sweep --workloads vecadd,vecadd --size tiny -o g --list
[ "$(grep -c '^todo ' "$tmp/out")" -eq 1 ] && ok || bad "duplicate workloads collapse to one run"
expect_rc 0 "--fixed with commas" "$W" sweep --workloads vecadd --fixed "gpgpu_cache:dl1=32:128:4,L:L:m:N:H,A:32:8,8" \
    --size tiny -o g --list
[ "$(grep -c '^todo ' "$tmp/out")" -eq 1 ] && ok || bad "--fixed is one value"
grep -q "^todo  *vecadd_tiny_gpgpu_cache-dl1=.*_h[0-9a-f]\{8\}$" "$tmp/out" && ok \
    || bad "a value with unsafe characters gets a hash: $(cat "$tmp/out")"
# config files: the base name plus a hash of the path (stable; different directories differ)
mkdir -p c1 c2
cp "$SRC/configs/gtx480.config" c1/m.config
cp "$SRC/configs/gtx480.config" c2/m.config
"$W" sweep --workloads vecadd --configs c1/m.config,c2/m.config --size tiny -o g --list >"$tmp/l1"
"$W" sweep --workloads vecadd --configs c1/m.config,c2/m.config --size tiny -o g --list >"$tmp/l2"
n1=$(grep '^todo ' "$tmp/l1" | awk '{print $2}' | sort -u | wc -l)
[ "$n1" -eq 2 ] && ok || bad "two config files of the same name give two runs"
grep -q "^todo  *vecadd_tiny_c-m_h[0-9a-f]\{8\}$" "$tmp/l1" && ok || bad "config file name: $(cat "$tmp/l1")"
cmp -s "$tmp/l1" "$tmp/l2" && ok || bad "names are not stable"

# ---- a tiny real sweep: 2 workloads x 2 warp schedulers ----
expect_rc 0 "tiny sweep" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny -j 2 --name t -o s
[ -f s/t.csv ] && ok || bad "combined CSV s/t.csv"
[ "$(wc -l <s/t.csv)" -eq 5 ] && ok || bad "CSV has a header and 4 rows: $(cat s/t.csv)"
[ "$(csv_col s/t.csv verified | sort -u)" = "1" ] && ok || bad "every run verified"
[ "$(csv_col s/t.csv status | sort -u)" = "WS_SUCCESS" ] && ok || bad "every run succeeded"
[ "$(csv_col s/t.csv state | sort -u)" = "ran" ] && ok || bad "state ran"
for n in vecadd_tiny_w-lrr vecadd_tiny_w-gto bfs_tiny_w-lrr bfs_tiny_w-gto; do
    [ -s "s/$n.json" ] && [ -s "s/$n.config" ] && [ -s "s/$n.timeseries.csv" ] && [ -s "s/$n.log" ] && ok \
        || bad "files of run $n"
done
if command -v python3 >/dev/null; then
    python3 -m json.tool s/bfs_tiny_w-gto.json >/dev/null && ok || bad "result is not valid JSON"
fi
# the CSV holds what a direct run measures (same cycles: the sweep adds nothing to a run)
direct=$("$W" run bfs --size tiny --warp-sched gto | sed -n 's/^gpu_tot_sim_cycle = //p' | head -1)
swept=$(csv_col s/t.csv gpu_sim_cycle | sed -n 4p)
[ -n "$direct" ] && [ "$direct" = "$swept" ] && ok || bad "swept cycles $swept != direct run $direct"
[ "$(csv_col s/t.csv name | sed -n 4p)" = "bfs_tiny_w-gto" ] && ok || bad "CSV row order follows the grid"
grep -q "finished 4 runs" "$tmp/err" && ok || bad "progress summary: $(tail -2 "$tmp/err")"

# ---- resume ----
md5_before=$(fp)
raw_before=$(md5sum s/*.json | md5sum)   # host timings included: a rerun would change them
expect_rc 0 "rerun: nothing to do" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny -j 2 --name t -o s
grep -q "4 runs: 4 done before, 0 to run" "$tmp/err" && ok || bad "resume skips complete runs: $(cat "$tmp/err")"
[ "$(md5sum s/*.json | md5sum)" = "$raw_before" ] && ok || bad "results rewritten on resume"
[ "$(csv_col s/t.csv state | sort -u)" = "cached" ] && ok || bad "state cached"
rm s/vecadd_tiny_w-gto.json
head -c 200 s/bfs_tiny_w-lrr.json >s/cut && mv s/cut s/bfs_tiny_w-lrr.json   # a run killed while writing
expect_rc 0 "--list after damage" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny --name t -o s \
    --list
[ "$(grep -c '^todo ' "$tmp/out")" -eq 2 ] && ok || bad "missing and truncated results are todo: $(cat "$tmp/out")"
expect_rc 0 "resume" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny -j 2 --name t -o s
grep -q "4 runs: 2 done before, 2 to run" "$tmp/err" && ok || bad "resume reruns exactly 2: $(cat "$tmp/err")"
[ "$(csv_col s/t.csv state | tr '\n' ' ')" = "cached ran ran cached " ] && ok || bad "states after resume"
[ "$(fp)" = "$md5_before" ] && ok || bad "rerun results differ (determinism)"
expect_rc 0 "--force" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny -j 2 --name t -o s --force
grep -q "4 runs: 0 done before, 4 to run" "$tmp/err" && ok || bad "--force reruns everything"

# ---- job lists ----
rm s/vecadd_tiny_w-lrr.json s/bfs_tiny_w-gto.json
expect_rc 0 "emit parallel" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny --name t -o s \
    --emit parallel jobs.txt
[ "$(wc -l <jobs.txt)" -eq 2 ] && ok || bad "job list has the 2 missing runs: $(cat jobs.txt)"
grep -q "run vecadd --size tiny --warp-sched lrr -o s/vecadd_tiny_w-lrr.json >s/vecadd_tiny_w-lrr.log 2>&1$" jobs.txt \
    && ok || bad "job line: $(head -1 jobs.txt)"
grep -q "^cd $tmp && " jobs.txt && ok || bad "jobs start in the sweep's directory: $(head -1 jobs.txt)"
[ ! -e s/vecadd_tiny_w-lrr.json ] && ok || bad "--emit ran something"
(cd / && bash "$tmp/jobs.txt") && ok || bad "running the job list"   # as parallel would, from anywhere
expect_rc 0 "collect after parallel" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny --name t -o s
grep -q "4 done before, 0 to run" "$tmp/err" && ok || bad "results of the job list are picked up"
[ "$(fp)" = "$md5_before" ] && ok || bad "job-list results differ"
rm s/vecadd_tiny_w-gto.json s/bfs_tiny_w-lrr.json s/bfs_tiny_w-gto.json
expect_rc 0 "emit slurm" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny --name t -o s \
    --emit slurm job.sh
grep -q "^#SBATCH --array=0-2$" job.sh && ok || bad "Slurm array of 3 tasks: $(grep SBATCH job.sh)"
head -1 job.sh | grep -q "^#!/bin/bash" && ok || bad "Slurm script shebang"
[ -x job.sh ] && ok || bad "Slurm script executable"
bash -n job.sh && ok || bad "Slurm script syntax"
for i in 0 1 2; do (cd / && SLURM_ARRAY_TASK_ID=$i WARPSIM="$W" bash "$tmp/job.sh") || bad "Slurm task $i"; done
(cd / && SLURM_ARRAY_TASK_ID=3 bash "$tmp/job.sh" 2>/dev/null) && bad "Slurm task 3 should not exist" || ok
expect_rc 0 "collect after slurm" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny --name t -o s
grep -q "4 done before, 0 to run" "$tmp/err" && ok || bad "results of the array tasks are picked up"
[ "$(fp)" = "$md5_before" ] && ok || bad "array results differ"

# ---- a failing run: recorded, reported, retried next time ----
expect_rc 1 "sweep with a bad option value" "$W" sweep --workloads vecadd --fixed gpgpu_n_clusters=x --size tiny \
    -o f --name f
[ "$(csv_col f/f.csv state)" = "no_result" ] && [ "$(csv_col f/f.csv exit_code)" = "2" ] && ok \
    || bad "failed run in the CSV: $(cat f/f.csv)"
grep -q "FAILED (exit 2" "$tmp/err" && ok || bad "failure named in the progress output: $(cat "$tmp/err")"
grep -q "gpgpu_n_clusters" f/*.log && ok || bad "the run's log has its error"
expect_rc 1 "failed run is retried" "$W" sweep --workloads vecadd --fixed gpgpu_n_clusters=x --size tiny -o f --name f
grep -q "1 to run" "$tmp/err" && ok || bad "a run without a result runs again"

# ---- studies at tiny size: tables, CSV, report, caching, phases, missing policies ----
expect_rc 0 "study las" "$W" study las --workloads vecadd,transpose --size tiny -j 2 -o sl
grep -q "^Normalised IPC (Fig. 5.1)" "$tmp/out" && ok || bad "las prints its IPC table"
grep -q "^L1D miss rate (Fig. 5.2)" "$tmp/out" && ok || bad "las prints its miss-rate table"
grep -q "^Comparison with seed 003" "$tmp/out" && ok || bad "las compares with the seed"
grep -q "^agreement with the seed: [0-9] of 5 comparisons agree" "$tmp/out" && ok || bad "las agreement summary"
grep -q "^transpose  *II  *[0-9.]*  *1.00 " "$tmp/out" && ok \
    || bad "las row: RR normalised to 1.00: $(grep transpose "$tmp/out")"
[ -s sl/las_ipc.csv ] && [ -s sl/las_l1d.csv ] && [ -s sl/las.txt ] && [ -s sl/runs.csv ] && ok || bad "las files"
head -1 sl/las_ipc.csv | grep -q "^workload,group,RR IPC,RR,BCS,LAS-CTA,LAS-CTA+warp$" && ok \
    || bad "las CSV header: $(head -1 sl/las_ipc.csv)"
[ "$(grep -c . sl/runs.csv)" -eq 9 ] && ok || bad "las: 2 workloads x 4 schedulers"
grep -q "^L2 slices:" "$tmp/out" && bad "las: no input here concentrates on one L2 slice: $(grep '^L2 slices' "$tmp/out")" || ok
# a baseline whose launches load one slice 3.5 times the mean (the run's JSON edited) is named under the groups
rrjson=sl/runs/transpose_tiny_c-las-15sm_w-gto_t-rr.json
grep -q '"hottest_over_mean_per_launch": ' "$rrjson" && ok || bad "las: the RR run records the slices' concentration"
sed -i 's/"hottest_over_mean_per_launch": [0-9.e+-]*/"hottest_over_mean_per_launch": 3.5/' "$rrjson"
expect_rc 0 "study las again (cached)" "$W" study las --workloads vecadd,transpose --size tiny -j 2 -o sl
grep -q "8 runs: 8 done before, 0 to run" "$tmp/err" && ok || bad "a study reuses its runs: $(head -2 "$tmp/err")"
grep -q "^L2 slices: .*: transpose 3.5x (their inputs' strides map to one slice" "$tmp/out" && ok \
    || bad "las names the concentrated input: $(grep -A1 '^groups' "$tmp/out")"
# --tiles: only the two locality-aware columns run again, with the extension's parameter
expect_rc 0 "study las --tiles" "$W" study las --workloads transpose --size tiny -j 2 -o sl --tiles
grep -q "4 runs: 2 done before, 2 to run" "$tmp/err" && ok || bad "las --tiles reruns only LAS: $(head -2 "$tmp/err")"
grep -q "^LAS-CTA with a box per tile" "$tmp/out" && ok || bad "las --tiles says so in the report"
[ "$(ls sl/runs/ | grep -c 'transpose_tiny.*t-las_cta_sched.las.tiles=1.json$')" -eq 2 ] && ok \
    || bad "las --tiles run names: $(ls sl/runs/ | grep transpose)"
expect_rc 2 "--tiles for another study" "$W" study dyncta --tiles
grep -q "tiles applies to study las only" "$tmp/err" && ok || bad "--tiles elsewhere: $(cat "$tmp/err")"
# --max-cycles: a window of every run; runs stopped there are results (vecadd tiny runs 4,784 cycles here)
expect_rc 0 "study las --max-cycles" "$W" study las --workloads vecadd --size tiny -j 2 -o slw --max-cycles 2000
grep -q "^window: the first 2000 core cycles of every run" "$tmp/out" && ok || bad "las window named in the report"
grep -q "^vecadd  *III  *[0-9.]*  *1.00  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$tmp/out" && ok \
    || bad "las window row has numbers: $(grep '^vecadd' "$tmp/out" | head -1)"
[ "$(grep -c ',stopped at limit,0,.*,2000,' slw/runs.csv)" -eq 4 ] && ok || bad "window runs stop at 2000: $(cat slw/runs.csv)"
grep -q "FAILED" "$tmp/err" && bad "window runs reported as failures: $(cat "$tmp/err")" || ok
# one group only: the others' comparison numbers say n/a, not nan
grep -q "here:  Type-I: BCS n/a, LAS-CTA n/a" "$tmp/out" && ok || bad "empty group: $(grep 'Type-I:' "$tmp/out")"
grep -qi "nan" "$tmp/out" && bad "nan in the report: $(grep -i nan "$tmp/out" | head -2)" || ok
expect_rc 2 "--max-cycles for caws" "$W" study caws --max-cycles 1000
grep -q "max-cycles applies to studies las and dyncta only" "$tmp/err" && ok || bad "--max-cycles elsewhere: $(cat "$tmp/err")"
grep -q "^Normalised IPC (Fig. 5.1)" sl/las.txt && ok || bad "las report file has the tables"
# a policy left out: its column says so, with the reason, never silently
expect_rc 0 "study las without bcs" "$W" study las --workloads vecadd --size tiny -j 2 -o sl --skip-policy bcs
grep -q "column BCS not available: left out by --skip-policy bcs" "$tmp/out" && ok || bad "missing policy reason"
grep -q "^vecadd  *III  *[0-9.]*  *1.00  *n/a " "$tmp/out" && ok \
    || bad "missing policy cell n/a: $(grep '^vecadd' "$tmp/out")"
# phases written as jobs one at a time, then collected
expect_rc 0 "study caws emit (phase 1)" "$W" study caws --workloads bfs --size tiny -o sc --emit parallel cj.txt
[ "$(wc -l <cj.txt)" -eq 1 ] && grep -q -- "--warp-sched lrr .*--warps " cj.txt && ok \
    || bad "caws phase 1: the LRR oracle run: $(cat cj.txt)"
bash cj.txt || bad "caws phase 1 jobs"
expect_rc 0 "study caws emit (phase 2)" "$W" study caws --workloads bfs --size tiny -o sc --emit parallel cj.txt
oracle=sc/runs/bfs_tiny_c-gtx480_w-lrr_t-rr_warps.warps.csv
[ "$(wc -l <cj.txt)" -eq 6 ] && grep -q "warp_sched.caws_avg.oracle=$oracle" cj.txt \
    && ok || bad "caws phase 2: 6 runs, CAWS with the oracle: $(cat cj.txt)"
bash cj.txt || bad "caws phase 2 jobs"
expect_rc 0 "study caws collect" "$W" study caws --workloads bfs --size tiny -j 2 -o sc
grep -q "^Criticality inversion (Table 3.3)" "$tmp/out" && ok || bad "caws prints the inversion table"
grep -q "^bfs  *1.00  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$tmp/out" && ok \
    || bad "caws IPC row: $(grep '^bfs' "$tmp/out" | head -1)"
grep -q "^bfs  *2  *1.00  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$tmp/out" && ok \
    || bad "caws first-round row (2 launches: bfs_expand, bfs_advance): $(grep '^bfs' "$tmp/out")"
grep -q "^\[[a-z ]*\] ...and in the seed's window, BFS's first round" "$tmp/out" && ok \
    || bad "caws compares the first round with the seed"
grep -q "^The same spread over the CTAs whose warps all executed the same number of instructions" "$tmp/out" \
    && [ -s sc/caws_spread_equal_work.csv ] && ok || bad "caws prints the equal-work spread"
# Fig. 3.6: the LRR-critical warp and its CTA under each policy, "saved crit / saved CTA / share%" per cell
grep -q "^bfs  *-\{0,1\}[0-9.]*/-\{0,1\}[0-9.]*/[0-9]*%  *-\{0,1\}[0-9.]*/" "$tmp/out" && [ -s sc/caws_critical_warp.csv ] \
    && ok || bad "caws prints the critical-warp table: $(grep -A3 'LRR-critical warp' "$tmp/out")"
grep -q "0 to run" "$tmp/err" && ok || bad "caws collect ran nothing new"
expect_rc 0 "study dyncta" "$W" study dyncta --workloads vecadd --size tiny -j 2 -o sd
grep -q "^Normalised IPC: static CTA limit n" "$tmp/out" && ok || bad "dyncta prints its IPC table"
grep -q "^vecadd  *Type-.  *4  " "$tmp/out" && ok \
    || bad "dyncta finds N = 4 for vecadd on dyncta-30core: $(grep '^vecadd' "$tmp/out" | head -1)"
grep -q "DYNCTA's average n lands near opt" "$tmp/out" && ok || bad "dyncta compares with the seed"
[ -s sd/dyncta_ipc.csv ] && [ -s sd/dyncta_metrics.csv ] && [ -s sd/dyncta.txt ] && ok || bad "dyncta files"
# the share of DYNCTA's instructions issued by paused CTAs: a number in [0, 1] for vecadd
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "paused insns DYN") c = i }
         $1 == "vecadd" { v = $c } END { exit !(c && v != "" && v + 0 >= 0 && v + 0 <= 1 && v ~ /^[0-9.]+$/) }' \
    sd/dyncta_metrics.csv && ok || bad "dyncta: paused-instruction share: $(head -1 sd/dyncta_metrics.csv)"

# ---- the cache studies of 000 ch. 5 at tiny size: l1-size, then ctrlc on a fixed list ----
"$W" study --help | grep -q "^  l1-size " && "$W" study --help | grep -q "^  ctrlc " && ok \
    || bad "study --help lists l1-size and ctrlc"
expect_rc 0 "study l1-size" "$W" study l1-size --workloads kmeans,wc,binopt --size tiny -j 2 -o s1
grep -q "^L1D size sensitivity (Fig. 5.1, Table 5.3)" "$tmp/out" && ok || bad "l1-size prints its table"
want="workload,seed,cycles 16KB,cycles 32KB,cycles 64KB,cycles off,32KB,64KB,off,class,seed class,verdict"
[ "$(head -1 s1/l1-size.csv)" = "$want" ] && ok || bad "l1-size CSV header: $(head -1 s1/l1-size.csv)"
[ "$(grep -c . s1/l1-size.csv)" -eq 5 ] && ok || bad "l1-size CSV: 3 workloads and GMEAN"
[ "$(grep -c . s1/runs.csv)" -eq 13 ] && ok || bad "l1-size: 3 workloads x 4 L1D configurations"
grep -q "^binopt  *BO  *[0-9]*  *[0-9]*  *[0-9]*  *[0-9]*  *1.00  *1.00  *[0-9.]*  *NS  *NS  *agrees$" "$tmp/out" \
    && ok || bad "l1-size row: $(grep '^binopt' "$tmp/out")"
[ -s s1/runs/binopt_tiny_c-gtx480_warpsim_l1d_bypass=all.json ] && ok || bad "l1-size: the L1D-off run"
grep -q "^\[agrees    \] binopt (seed BO) is not cache-sensitive" "$tmp/out" && ok || bad "l1-size compares classes"
grep -q "^\[.*\] kmeans (seed KMN) runs faster with the L1D off" "$tmp/out" && ok || bad "l1-size: the L1D-off check"
grep -q "^agreement with the seed: [0-9] of 4 comparisons agree" "$tmp/out" && ok || bad "l1-size agreement summary"
[ -s s1/l1-size.txt ] && ok || bad "l1-size report file"
expect_rc 0 "study ctrlc" "$W" study ctrlc --workloads kmeans,wc --size tiny -j 2 -o s2
for t in "Speedup over the 16 KB L1D (Fig. 5.7)" \
    "L1D MPKI (warp instructions), normalised to the 16 KB L1D (Fig. 5.8)" \
    "L1-to-L2 traffic (L1_to_L2_bytes), normalised to the 16 KB L1D (Fig. 5.9)" \
    "Zero-reuse fraction of the evicted L1D lines (Fig. 5.10)"; do
    grep -qF "$t" "$tmp/out" && ok || bad "ctrlc prints: $t"
done
head -1 s2/ctrlc_speedup.csv | grep -q "^workload,cycles 16KB,64KB,PC-based,Ctrl-C,SRRIP,SHiP,32KB$" && ok \
    || bad "ctrlc speedup CSV header: $(head -1 s2/ctrlc_speedup.csv)"
head -1 s2/ctrlc_zero_reuse.csv | grep -q "^workload,16KB,PC-based,Ctrl-C,SRRIP,SHiP,32KB$" && ok \
    || bad "ctrlc zero-reuse CSV header: $(head -1 s2/ctrlc_zero_reuse.csv)"
[ -s s2/ctrlc_mpki.csv ] && [ -s s2/ctrlc_traffic.csv ] && [ -s s2/ctrlc.txt ] && ok || bad "ctrlc files"
[ "$(grep -c . s2/runs.csv)" -eq 13 ] && ok || bad "ctrlc: 2 workloads x 6 configurations"
grep -q "^wc  *[0-9]*  *-  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$tmp/out" && ok \
    || bad "ctrlc speedup row: $(grep '^wc' "$tmp/out" | head -1)"
grep -q "Ctrl-C cuts the fraction of zero-reuse lines" "$tmp/out" && grep -q "Ctrl-C outperforms PC-based" "$tmp/out" \
    && ok || bad "ctrlc compares with the seed"
grep -q "^agreement with the seed: [0-9] of 7 comparisons agree" "$tmp/out" && ok || bad "ctrlc agreement summary"
# two phases written as jobs (the baseline first), then collected from the cache
expect_rc 0 "study ctrlc emit (phase 1)" "$W" study ctrlc --workloads kmeans --size tiny -o s3 --emit parallel xj.txt
[ "$(wc -l <xj.txt)" -eq 1 ] && ! grep -q -- "--set" xj.txt && ok || bad "ctrlc phase 1: the baseline: $(cat xj.txt)"
bash xj.txt || bad "ctrlc phase 1 jobs"
expect_rc 0 "study ctrlc emit (phase 2)" "$W" study ctrlc --workloads kmeans --size tiny -o s3 --emit parallel xj.txt
[ "$(wc -l <xj.txt)" -eq 5 ] && grep -q "warpsim_l1d_bypass=ctrlc" xj.txt && grep -q "warpsim_l1d_repl=ship" xj.txt \
    && ok || bad "ctrlc phase 2: 5 runs: $(cat xj.txt)"

# ---- CAWA (000 sec. 4.3) at tiny size: one phase of 7 schedulers / L1D policies, then --emit on the cache ----
"$W" study --help | grep -q "^  cawa " && ok || bad "study --help lists cawa"
expect_rc 0 "study cawa" "$W" study cawa --workloads bfs --size tiny -j 2 -o s4
for t in "Speedup over LRR (Fig. 4.10, 4.13, 4.16)" "L1D MPKI (warp instructions), normalised to LRR (Fig. 4.11, 4.15)" \
    "Critical-warp L1D hit rate (Fig. 4.14) and CPL accuracy (Fig. 4.12)"; do
    grep -qF "$t" "$tmp/out" && ok || bad "cawa prints: $t"
done
head -1 s4/cawa_speedup.csv | grep -q "^workload,cycles LRR,GTO,2-Level,gCAWS,CAWA,LRR+CACP,GTO+CACP$" && ok \
    || bad "cawa speedup CSV header: $(head -1 s4/cawa_speedup.csv)"
head -1 s4/cawa_critical.csv | grep -q "^workload,crit hit gCAWS,crit hit CAWA,CAWA/gCAWS,.*,CPL acc CAWA$" && ok \
    || bad "cawa critical CSV header: $(head -1 s4/cawa_critical.csv)"
[ -s s4/cawa_mpki.csv ] && [ -s s4/cawa.txt ] && ok || bad "cawa files"
[ "$(grep -c . s4/runs.csv)" -eq 8 ] && ok || bad "cawa: 1 workload x 7 runs"
[ -s s4/runs/bfs_tiny_c-gtx480_w-gto_t-rr_warpsim_l1d_repl=cacp.json ] && ok || bad "cawa: the GTO+CACP run"
grep -q "^bfs  *[0-9]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$tmp/out" && ok \
    || bad "cawa speedup row: $(grep '^bfs' "$tmp/out" | head -1)"
grep -q "CAWA speeds the Sens applications up over LRR" "$tmp/out" && grep -q "CACP adds to gCAWS" "$tmp/out" \
    && grep -q "CPL marks the critical warp as slow" "$tmp/out" && ok || bad "cawa compares with the seed"
grep -q "^agreement with the seed: [0-9] of 9 comparisons agree" "$tmp/out" && ok || bad "cawa agreement summary"
expect_rc 0 "study cawa emit" "$W" study cawa --workloads kmeans --size tiny -o s5 --emit parallel wj.txt
[ "$(wc -l <wj.txt)" -eq 7 ] && grep -q -- "--warp-sched cawa" wj.txt && grep -q "warpsim_l1d_repl=cacp" wj.txt \
    && ok || bad "cawa emit: 7 runs: $(cat wj.txt)"


# ---- reuse: a run missing here but complete in a sibling study-*/runs/ or sweep-*/ is copied, not run ----
mkdir -p r
expect_rc 0 "study l1-size (source of reuse)" "$W" study l1-size --workloads kmeans --size tiny -j 1 \
    -o r/study-l1
b=kmeans_tiny_c-gtx480   # the 16 KB baseline, shared
b32=$(cd r/study-l1/runs && ls ${b}_gpgpu_cache-dl1=64-*.json | sed 's/\.json$//')   # the 32 KB one, shared
# --emit: the reusable runs are copied first, only the others are written (phase 1 is all copied, so the
# same invocation goes on to phase 2; study-x-em sorts after study-l1, which stays the first source below)
expect_rc 0 "study ctrlc --emit beside l1-size" "$W" study ctrlc --workloads kmeans --size tiny -o r/study-x-em \
    --emit parallel r/em.txt
[ "$(wc -l <r/em.txt)" -eq 4 ] && ! grep -q "gpgpu_cache" r/em.txt && ok \
    || bad "emit: the 4 runs to make: $(cat r/em.txt)"
cmp -s "r/study-l1/runs/$b32.json" "r/study-x-em/runs/$b32.json" \
    && cmp -s "r/study-l1/runs/$b.log" "r/study-x-em/runs/$b.log" && ok || bad "emit copied the reusable runs"
expect_rc 0 "study ctrlc beside it" "$W" study ctrlc --workloads kmeans --size tiny -j 1 -o r/study-cc
[ -n "$b32" ] && [ -s "r/study-cc/runs/$b32.json" ] && ok || bad "ctrlc has l1-size's 32 KB run: $(ls r/study-cc/runs)"
grep -q "^$b,.*,reused,,WS_SUCCESS,1," r/study-cc/runs.csv \
    && grep -q "^$b32,.*,reused,,WS_SUCCESS,1," r/study-cc/runs.csv && ok \
    || bad "shared runs are reused in runs.csv: $(cat r/study-cc/runs.csv)"
[ "$(grep -c ',reused,' r/study-cc/runs.csv)" -eq 2 ] && [ "$(grep -c ',ran,0,' r/study-cc/runs.csv)" -eq 4 ] && ok \
    || bad "ctrlc: 2 runs reused, 4 ran: $(cut -c1-60 r/study-cc/runs.csv)"
grep -q "1 runs: 0 done before, 1 reused from r/study-l1/runs, 0 to run" "$tmp/err" && ok \
    || bad "progress names the reuse: $(head -3 "$tmp/err")"
grep -q "\] $b reused from r/study-l1/runs/$" "$tmp/err" && ok || bad "progress line of the reused run"
grep -q "^2 of 6 runs reused from r/study-l1/runs " "$tmp/out" && ok || bad "summary line: $(tail -2 "$tmp/out")"
for f in "$b" "$b32"; do
    for x in json config log timeseries.csv; do
        [ -f "r/study-cc/runs/$f.$x" ] && [ ! -L "r/study-cc/runs/$f.$x" ] \
            && cmp -s "r/study-l1/runs/$f.$x" "r/study-cc/runs/$f.$x" && ok || bad "copy of $f.$x"
    done
done
# no child ran for them: a run writes its own output paths into its log
grep -q "r/study-l1/runs/$b" "r/study-cc/runs/$b.log" && ok || bad "the reused log is l1-size's"
# the next time they are this study's own (cached); --no-reuse runs them in a fresh sibling
expect_rc 0 "study ctrlc again" "$W" study ctrlc --workloads kmeans --size tiny -j 1 -o r/study-cc
[ "$(grep -c ',cached,' r/study-cc/runs.csv)" -eq 6 ] && ! grep -q "runs reused" "$tmp/out" && ok \
    || bad "copies are cached the next time: $(cut -c1-60 r/study-cc/runs.csv)"
expect_rc 0 "study ctrlc --no-reuse" "$W" study ctrlc --workloads kmeans --size tiny -j 1 -o r/study-nr --no-reuse
[ "$(grep -c ',ran,0,' r/study-nr/runs.csv)" -eq 6 ] && ! grep -q ',reused,' r/study-nr/runs.csv && ok \
    || bad "--no-reuse runs everything: $(cut -c1-60 r/study-nr/runs.csv)"
grep -q "r/study-nr/runs/$b" "r/study-nr/runs/$b.log" && ok || bad "--no-reuse: the baseline ran here"
cmp -s "r/study-l1/runs/$b.json" "r/study-nr/runs/$b.json" && bad "--no-reuse copied the result" || ok
# sweeps: --list says reuse, a sweep's runs (at the top of sweep-*/) are found too, --force runs everything
expect_rc 0 "sweep --list beside the studies" "$W" sweep --workloads kmeans,vecadd --configs gtx480 --size tiny -j 1 \
    -o r/sweep-a --list
grep -q "^reuse  *$b$" "$tmp/out" && grep -q "^todo  *vecadd_tiny_c-gtx480$" "$tmp/out" \
    && grep -q "^2 runs, 0 done, 1 to reuse from r/study-cc/runs, 1 to run" "$tmp/out" && ok \
    || bad "--list shows the reusable run: $(cat "$tmp/out")"
[ ! -e r/sweep-a ] && ok || bad "--list copied something"
expect_rc 0 "sweep beside the studies" "$W" sweep --workloads kmeans,vecadd --configs gtx480 --size tiny -j 1 \
    -o r/sweep-a --name a
[ "$(csv_col r/sweep-a/a.csv state | tr '\n' ' ')" = "reused ran " ] && ok || bad "sweep states: $(cat r/sweep-a/a.csv)"
[ "$(csv_col r/sweep-a/a.csv exit_code | tr '\n' ' ')" = " 0 " ] && ok || bad "a reused run has no exit code"
grep -q "^1 runs reused from r/study-cc/runs " "$tmp/out" && ok || bad "sweep summary: $(cat "$tmp/out")"
expect_rc 0 "second sweep" "$W" sweep --workloads vecadd --configs gtx480 --size tiny -j 1 -o r/sweep-b --name b
[ "$(csv_col r/sweep-b/b.csv state)" = "reused" ] \
    && cmp -s r/sweep-a/vecadd_tiny_c-gtx480.log r/sweep-b/vecadd_tiny_c-gtx480.log && ok \
    || bad "a sweep's run is reused from sweep-a/: $(cat r/sweep-b/b.csv)"
expect_rc 0 "sweep --no-reuse" "$W" sweep --workloads vecadd --configs gtx480 --size tiny -j 1 -o r/sweep-c --name c \
    --no-reuse
[ "$(csv_col r/sweep-c/c.csv state)" = "ran" ] && ok || bad "sweep --no-reuse runs it"
rm -r r/sweep-c
expect_rc 0 "sweep --force" "$W" sweep --workloads vecadd --configs gtx480 --size tiny -j 1 -o r/sweep-c --name c \
    --force
[ "$(csv_col r/sweep-c/c.csv state)" = "ran" ] && ok || bad "sweep --force runs it"
"$W" sweep --help | grep -q -- "--no-reuse" && "$W" study --help | grep -q -- "--no-reuse" && ok \
    || bad "--help: --no-reuse"

finish
