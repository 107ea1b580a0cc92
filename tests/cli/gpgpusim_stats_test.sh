#!/usr/bin/env bash
# GPGPU-Sim's statistics as a collection script reads them: the regular expressions below are the kind an
# Accel-Sim/GPGPU-Sim stats list holds (first group = the value), applied line by line to warpsim's text report
# of a two-kernel workload.  Each must match in every kernel's section and in the totals with a plausible value,
# and the values must agree with each other (totals = sums of the kernels, IPC = insn / cycle, ...).
# Then -gpgpu_max_cycle, -gpgpu_max_insn and -gpgpu_max_cta: each stops a tiny run with the statistics,
# "stopped at limit", outputs not verified, exit 0.
#   usage: gpgpusim_stats_test.sh WARPSIM_BINARY [SOURCE_DIR]
. "$(dirname "$0")/testlib.sh"

WL=backprop   # two kernels, one launch each

# name|regex (ERE as GNU sed -E reads it; \s, \[ and \/ as in Python's re)
cat >"$tmp/stats.list" <<'EOF'
kernel_name|kernel_name\s*=\s*(.*)
kernel_launch_uid|kernel_launch_uid\s*=\s*(.*)
gpu_sim_cycle|gpu_sim_cycle\s*=\s*(.*)
gpu_sim_insn|gpu_sim_insn\s*=\s*(.*)
gpu_ipc|gpu_ipc\s*=\s*(.*)
gpu_tot_sim_cycle|gpu_tot_sim_cycle\s*=\s*(.*)
gpu_tot_sim_insn|gpu_tot_sim_insn\s*=\s*(.*)
gpu_tot_ipc|gpu_tot_ipc\s*=\s*(.*)
gpu_occupancy|gpu_occupancy\s*=\s*(.*)%
gpu_tot_occupancy|gpu_tot_occupancy\s*=\s*(.*)%
gpgpu_n_tot_w_icount|gpgpu_n_tot_w_icount\s*=\s*(.*)
gpu_stall_dramfull|gpu_stall_dramfull\s*=\s*(.*)
gpu_stall_icnt2sh|gpu_stall_icnt2sh\s*=\s*(.*)
L2_BW|L2_BW\s*=\s*(.*)+GB\/Sec
L2_BW_total|L2_BW_total\s*=\s*(.*)+GB\/Sec
L1D_total_cache_accesses|L1D_total_cache_accesses\s*=\s*(.*)
L1D_total_cache_misses|L1D_total_cache_misses\s*=\s*(.*)
L1D_total_cache_miss_rate|L1D_total_cache_miss_rate\s*=\s*(.*)
L1D_total_cache_pending_hits|L1D_total_cache_pending_hits\s*=\s*(.*)
L1D_total_cache_reservation_fails|L1D_total_cache_reservation_fails\s*=\s*(.*)
L2_total_cache_accesses|L2_total_cache_accesses\s*=\s*(.*)
L2_total_cache_misses|L2_total_cache_misses\s*=\s*(.*)
L2_total_cache_miss_rate|L2_total_cache_miss_rate\s*=\s*(.*)
L2_total_cache_pending_hits|L2_total_cache_pending_hits\s*=\s*(.*)
L2_total_cache_reservation_fails|L2_total_cache_reservation_fails\s*=\s*(.*)
L1D_R_HIT|\s+L1D_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*)
L1D_R_MISS|\s+L1D_cache_stats_breakdown\[GLOBAL_ACC_R\]\[MISS\]\s*=\s*(.*)
L1D_R_TOTAL|\s+L1D_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]\s*=\s*(.*)
L2_R_HIT|\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*)
L2_R_HITRES|\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT_RESERVED\]\s*=\s*(.*)
L2_R_MISS|\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[MISS\]\s*=\s*(.*)
L2_R_TOTAL|\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]\s*=\s*(.*)
L2_W_HIT|\s+L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[HIT\]\s*=\s*(.*)
L2_W_TOTAL|\s+L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[TOTAL_ACCESS\]\s*=\s*(.*)
CORE_R_TOTAL|\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]\s*=\s*(.*)
CORE_R_HIT|\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*)
CORE_R_MSHR|\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT_RESERVED\]\s*=\s*(.*)
CORE_W_TOTAL|\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[TOTAL_ACCESS\]\s*=\s*(.*)
CORE_I_TOTAL|\s+Total_core_cache_stats_breakdown\[INST_ACC_R\]\[TOTAL_ACCESS\]\s*=\s*(.*)
dram_reads|total dram reads\s*=\s*(.*)
dram_writes|total dram writes\s*=\s*(.*)
sim_time|gpgpu_simulation_time\s*=.*\(([0-9]+) sec\).*
rate_insn|gpgpu_simulation_rate\s+=\s+(.*)\s+\(inst\/sec\)
rate_cycle|gpgpu_simulation_rate\s+=\s+(.*)\s+\(cycle\/sec\)
EOF

expect_rc 0 "$WL --kernel-stats" "$W" run "$WL" --size tiny --kernel-stats -o "$tmp/r.json"
cp "$tmp/out" "$tmp/report.txt"

# Split the timing report into sections: k1, k2, ... and tot (the lines after each "---- ... ----" header).
awk -v d="$tmp" '
    /^---- kernel [0-9]+: / { n++; f = d "/sec_k" n; next }
    /^---- totals: /        { f = d "/sec_tot"; next }
    f                       { print > f }' "$tmp/report.txt"
nk=$(ls "$tmp"/sec_k* 2>/dev/null | wc -l)
[ "$nk" -eq 2 ] && ok || bad "$WL: expected 2 kernel sections, found $nk"
sections="k1 k2 tot"

# v SECTION NAME: the first group of NAME's regex on the section's first matching line ("" if none)
v() {
    local re
    re=$(awk -F'|' -v n="$2" '$1 == n { sub(/^[^|]*\|/, ""); print; exit }' "$tmp/stats.list")
    sed -E -n "s/.*${re}.*/\\1/p" "$tmp/sec_$1" | head -1 | sed -E 's/^[[:space:]]+|[[:space:]]+$//g'
}
num()  { [[ "$1" =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
int()  { [[ "$1" =~ ^[0-9]+$ ]]; }
# near A B: |A - B| <= 1e-3 * max(1, |B|) (values printed with 4 decimals)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; if (m < 1) m = 1;
                                          exit !(d <= 1e-3 * m) }'; }

# every regex matches in every section (kernel_launch_uid: kernels only) with a number
while IFS='|' read -r name re; do
    for s in $sections; do
        [ "$name" = kernel_launch_uid ] && [ "$s" = tot ] && continue
        val=$(v "$s" "$name")
        if [ "$name" = kernel_name ]; then
            [ -n "$val" ] && ok || bad "$s: $name does not match"
        elif num "$val"; then ok
        else bad "$s: '$re' gives '$val', not a number"
        fi
    done
done <"$tmp/stats.list"

# consistency
[ "$(v k1 kernel_launch_uid)" = 1 ] && [ "$(v k2 kernel_launch_uid)" = 2 ] && ok || bad "kernel_launch_uid 1, 2"
i1=$(v k1 gpu_sim_insn) i2=$(v k2 gpu_sim_insn) it=$(v tot gpu_tot_sim_insn)
c1=$(v k1 gpu_sim_cycle) c2=$(v k2 gpu_sim_cycle) ct=$(v tot gpu_tot_sim_cycle)
if int "$i1" && int "$i2" && int "$it" && int "$c1" && int "$c2" && int "$ct"; then
    [ $((i1 + i2)) -eq "$it" ] && ok || bad "gpu_tot_sim_insn $it != $i1 + $i2"
    [ $((c1 + c2)) -eq "$ct" ] && ok || bad "gpu_tot_sim_cycle $ct != $c1 + $c2"
    [ "$(v k2 gpu_tot_sim_insn)" = "$it" ] && ok || bad "the last kernel's gpu_tot_sim_insn is not the run's"
    [ "$(v k1 gpu_tot_sim_insn)" = "$i1" ] && ok || bad "the first kernel's gpu_tot_sim_insn is not its own"
    [ "$i1" -gt 0 ] && [ "$i2" -gt 0 ] && ok || bad "a kernel with no instructions"
    near "$(v tot gpu_tot_ipc)" "$(awk -v a="$it" -v b="$ct" 'BEGIN { print a / b }')" && ok ||
        bad "gpu_tot_ipc $(v tot gpu_tot_ipc) != $it / $ct"
    near "$(v k1 gpu_ipc)" "$(awk -v a="$i1" -v b="$c1" 'BEGIN { print a / b }')" && ok || bad "gpu_ipc of kernel 1"
    near "$(v k2 gpu_tot_ipc)" "$(v tot gpu_tot_ipc)" && ok || bad "the last kernel's gpu_tot_ipc is not the run's"
else
    bad "instruction or cycle counts missing: $i1 $i2 $it / $c1 $c2 $ct"
fi
for s in $sections; do
    o=$(v "$s" gpu_occupancy)
    awk -v o="$o" 'BEGIN { exit !(o > 0 && o <= 100) }' && ok || bad "$s: gpu_occupancy $o% not in (0, 100]"
    [ "$(v "$s" gpgpu_n_tot_w_icount)" = "$(sed -n 's/^gpu_tot_sim_warp_insn = //p' "$tmp/sec_$s")" ] && ok ||
        bad "$s: gpgpu_n_tot_w_icount != gpu_tot_sim_warp_insn"
    a=$(sed -n 's/^warpsim_active_lane_insn = //p' "$tmp/sec_$s")
    [ -n "$a" ] && [ "$a" -ge "$(sed -n 's/^gpu_sim_insn = //p' "$tmp/sec_$s")" ] && ok ||
        bad "$s: warpsim_active_lane_insn '$a' < gpu_sim_insn"
    awk -v b="$(v "$s" L2_BW)" 'BEGIN { exit !(b > 0) }' && ok || bad "$s: L2_BW not positive"
    rt=$(v "$s" L2_R_TOTAL)
    [ "$rt" -eq $(($(v "$s" L2_R_HIT) + $(v "$s" L2_R_HITRES) + $(v "$s" L2_R_MISS))) ] && ok ||
        bad "$s: L2 GLOBAL_ACC_R TOTAL_ACCESS != HIT + HIT_RESERVED + MISS"
    [ $((rt + $(v "$s" L2_W_TOTAL))) -eq "$(v "$s" L2_total_cache_accesses)" ] && ok ||
        bad "$s: the L2 table's accesses != L2_total_cache_accesses"
    [ "$(v "$s" CORE_R_TOTAL)" = "$(v "$s" L1D_R_TOTAL)" ] && ok || bad "$s: Total_core GLOBAL_ACC_R != the L1D's"
    [ "$(v "$s" L1D_R_MISS)" -le "$(v "$s" L1D_total_cache_misses)" ] && ok || bad "$s: L1D read misses > misses"
    [ "$(v "$s" dram_reads)" = "$(sed -n 's/^dram_reads = //p' "$tmp/sec_$s")" ] && ok || bad "$s: total dram reads"
done
# the cumulative lines of the last kernel are the run's
[ "$(v k2 gpu_tot_occupancy)" = "$(v tot gpu_occupancy)" ] && ok || bad "the last kernel's gpu_tot_occupancy"
[ "$(v k2 L2_BW_total)" = "$(v tot L2_BW)" ] && ok || bad "the last kernel's L2_BW_total"

# the JSON result: the same statistics under "timing"
for key in '"gpu_tot_occupancy"' '"gpgpu_n_tot_w_icount"' '"gpu_stall_dramfull"' '"gpu_stall_icnt2sh"' '"L2_BW"' \
           '"L2_cache_stats_breakdown"' '"Total_core_cache_stats_breakdown"' '"GLOBAL_ACC_R"' '"TOTAL_ACCESS"' \
           '"warpsim_active_lane_insn"' '"kernel_launch_uid"'; do
    grep -q "$key" "$tmp/r.json" && ok || bad "JSON lacks $key"
done

# reservation failures by reason (JSON only): in every kernel and the totals the three reasons add up to
# the total, and backprop's L1D fails for all three at tiny size
jv() { grep -o "\"$1\": *[0-9]*" "$tmp/r.json" | sed 's/.*: *//'; }
for c in L1D L2; do
    paste <(jv ${c}_total_cache_reservation_fails) <(jv ${c}_reservation_fails_mshr) \
          <(jv ${c}_reservation_fails_merge) <(jv ${c}_reservation_fails_line) >"$tmp/rf_$c"
    [ "$(wc -l <"$tmp/rf_$c")" -eq 3 ] && ok || bad "$c: expected the reasons for 2 kernels and the totals"
    awk 'NF != 4 || $1 != $2 + $3 + $4 { exit 1 }' "$tmp/rf_$c" && ok ||
        bad "$c: reservation failures by reason do not add up: $(tr '\n' ';' <"$tmp/rf_$c")"
done
awk 'END { exit !($2 > 0 && $3 > 0 && $4 > 0) }' "$tmp/rf_L1D" && ok || bad "L1D: a reason never counted on $WL"

# ---- the run's limits ------------------------------------------------------------------------------
# stopped: exit 0, the statistics, the status line, not verified
limit_run() {   # OPTION=VALUE DESCRIPTION
    expect_rc 0 "$2" "$W" run vecadd --size tiny --set "$1" -o "$tmp/l.json"
    grep -q "^status = stopped at limit (-${1%%=*} " "$tmp/out" && ok ||
        bad "$2: no status line: $(grep -m1 status "$tmp/out")"
    grep -q '^verify = NOT VERIFIED' "$tmp/out" && ok || bad "$2: not reported as unverified"
    grep -q '^verify = PASSED' "$tmp/out" && bad "$2: verified anyway" || ok
    grep -q '^gpu_tot_sim_cycle = [1-9]' "$tmp/out" && ok || bad "$2: no statistics"
    grep -q '^kernel 1 vecadd: .*(stopped at limit)' "$tmp/out" && ok || bad "$2: kernel line not marked"
    grep -q '"status": "stopped at limit"' "$tmp/l.json" && ok || bad "$2: JSON status"
    grep -q '"verified": false' "$tmp/l.json" && ok || bad "$2: JSON verified"
}
limit_run gpgpu_max_cycle=500 "-gpgpu_max_cycle"
grep -q '^gpu_tot_sim_cycle = 500$' "$tmp/out" && ok || bad "-gpgpu_max_cycle 500: $(grep -m1 gpu_tot_sim_cycle "$tmp/out")"
limit_run gpgpu_max_insn=20000 "-gpgpu_max_insn"
n=$(sed -n 's/^gpu_sim_insn = //p' "$tmp/out" | head -1)
[ -n "$n" ] && [ "$n" -ge 20000 ] && [ "$n" -lt 60000 ] && ok || bad "-gpgpu_max_insn 20000 stopped at '$n' thread insns"
limit_run gpgpu_max_cta=5 "-gpgpu_max_cta"
grep -q '^ctas_completed = 5$' "$tmp/out" && ok || bad "-gpgpu_max_cta 5: $(grep -m1 ctas_completed "$tmp/out")"
# a limit the run does not reach changes nothing
expect_rc 0 "limits not reached" "$W" run vecadd --size tiny --set gpgpu_max_cta=100000 --set gpgpu_max_insn=1000000000
grep -q '^verify = PASSED' "$tmp/out" && ok || bad "limits not reached: not verified"
# the per-launch limits stay errors
expect_rc 3 "--max-cycles" "$W" run vecadd --size tiny --max-cycles 500
# the options are listed
"$W" list --options >"$tmp/opts" 2>&1
for o in gpgpu_max_cycle gpgpu_max_insn gpgpu_max_cta; do
    grep -q -- "$o" "$tmp/opts" && ok || bad "warpsim list --options lacks $o"
done
finish
