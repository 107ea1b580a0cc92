#!/usr/bin/env bash
# CAWA = CPL + gCAWS + CACP (docs/policies.md): --warp-sched cawa selects CACP for the L1D,
# verifies, and reports the partition hit rates; an explicit --l1-repl wins; cacp under a
# scheduler without criticality sees no critical warp.
# Usage: cawa_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"

expect_rc 0 "bfs tiny under cawa" "$W" run bfs --size tiny --warp-sched cawa
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "cawa: bfs verifies"
grep -q "^L1D_repl_policy = cacp$" "$tmp/out" && ok || bad "cawa selects cacp for the L1D"
for s in L1D_crit_warp_accesses L1D_crit_warp_hits L1D_crit_warp_hit_rate L1D_crit_partition_hits \
         L1D_crit_partition_hit_rate L1D_noncrit_warp_accesses L1D_noncrit_warp_hits L1D_noncrit_warp_hit_rate \
         L1D_noncrit_partition_hits L1D_noncrit_partition_hit_rate CPL_slowest_warp_samples \
         CPL_slowest_warp_samples_critical CPL_prediction_accuracy; do
    grep -q "^$s = " "$tmp/out" && ok || bad "cawa report has $s"
done
ca=$(sed -n 's/^L1D_crit_warp_accesses = //p' "$tmp/out" | tail -1)
[ -n "$ca" ] && [ "$ca" -gt 0 ] && ok || bad "cawa: some L1D reads come from critical warps ($ca)"

# an explicit L1D policy wins over cawa's default
expect_rc 0 "cawa with --l1-repl lru" "$W" run bfs --size tiny --warp-sched cawa --l1-repl lru
grep -q "^L1D_repl_policy" "$tmp/out" && bad "--l1-repl lru: no CACP statistics in the text report" || ok

# cacp without a criticality-aware scheduler: nothing critical (JSON always has the counters)
expect_rc 0 "cacp under gto" "$W" run bfs --size tiny --warp-sched gto --l1-repl cacp
grep -q "^L1D_crit_warp_accesses = 0$" "$tmp/out" && ok || bad "gto + cacp: no critical warp"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "gto + cacp: bfs verifies"
finish
