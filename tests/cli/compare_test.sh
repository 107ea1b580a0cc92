#!/usr/bin/env bash
# warpsim compare (docs/report.md): two tiny runs with different warp and CTA schedulers; the table of the
# statistics that differ (with the speedup), the configuration options and the policies and parameters
# that differ, a run against itself, bad input; --html when Python with pandas and matplotlib is there.
# Usage: compare_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"
cd "$tmp" || exit 1

expect_rc 0 "compare --help" "$W" compare --help
expect_rc 2 "compare one run" "$W" compare a.json
expect_rc 2 "compare an unknown option" "$W" compare --nosuch a.json b.json
expect_rc 2 "compare missing files" "$W" compare a.json b.json
expect_err "cannot read a.json" "the message names the file"

expect_rc 0 "run A (lrr)" "$W" run vecadd --size tiny -o a.json --warp-sched lrr
expect_rc 0 "run B (gto, dyncta)" "$W" run vecadd --size tiny -o b.json --warp-sched gto --cta-sched dyncta \
    --set cta_sched.dyncta.t_idle=8
expect_rc 0 "run C (lrr, 4 clusters)" "$W" run vecadd --size tiny -o c.json --set gpgpu_n_clusters=4

# no Python needed for the table
expect_rc 0 "compare A B" env WARPSIM_PYTHON=/nonexistent/python3 "$W" compare a.json b.json
out=$tmp/out
grep -q "^A = a.json" "$out" && grep -q "^B = b.json" "$out" && ok || bad "names the runs: $(head -3 "$out")"
grep -qE "^speedup of B over A: [0-9.]+x \(gpu_sim_cycle [0-9]+ -> [0-9]+\)" "$out" && ok || bad "prints the speedup"
grep -qE "^statistics that differ: [1-9][0-9]* of [0-9]+" "$out" && ok || bad "counts the statistics that differ"
grep -qE "^gpu_sim_cycle +[0-9]+ +[0-9]+ +-?[0-9]+ +[-+][0-9.]+% +[0-9.]+x$" "$out" && ok ||
    bad "gpu_sim_cycle row: absolute, relative, speedup: $(grep '^gpu_sim_cycle' "$out")"
grep -qE "seconds|simulation_rate|_per_sec" "$out" && bad "host timings are left out" || ok
grep -qE "^gpgpu_scheduler +lrr +gto$" "$out" && ok || bad "the warp scheduler differs: $(grep gpgpu_scheduler "$out")"
grep -qE "^warpsim_cta_scheduler +rr +dyncta$" "$out" && ok || bad "the CTA scheduler differs"
grep -qE "^cta_sched.dyncta.t_idle +\(unset\) +8$" "$out" && ok || bad "the policy parameter differs"
grep -q "^configuration options that differ: 0" "$out" && ok || bad "no configuration option differs"

expect_rc 0 "compare A C" "$W" compare a.json c.json
grep -qE "^gpgpu_n_clusters +15 +4$" "$tmp/out" && ok || bad "C's clusters differ: $(grep -A3 '^configuration' "$tmp/out")"
grep -q "^policies and policy parameters that differ: 0" "$tmp/out" && ok || bad "no policy differs between A and C"

expect_rc 0 "a run against itself" "$W" compare a.json a.json
grep -q "^statistics that differ: 0 of" "$tmp/out" && ok || bad "nothing differs from itself"
expect_rc 0 "--all lists equal statistics" "$W" compare a.json a.json --all
grep -qE "^gpu_sim_insn " "$tmp/out" && ok || bad "--all lists gpu_sim_insn"
expect_rc 0 "three runs" "$W" compare a.json b.json c.json
grep -q "speedup C" "$tmp/out" && ok || bad "a column per other run"

# without the effective configuration beside it: what the result file records
cp b.json lone.json
expect_rc 0 "a run without its .config" "$W" compare a.json lone.json
grep -qE "^warp_sched +\(unset\) +gto$" "$tmp/out" && ok || bad "the result's own record of the warp scheduler"

head -c 2000 a.json > cut.json
expect_rc 2 "a truncated result" "$W" compare a.json cut.json
expect_err "not a complete result file" "says the file is incomplete"

have_py=0
for py in ${WARPSIM_PYTHON:-} /usr/bin/python3 python3; do
    "$py" -c "import pandas, matplotlib" >/dev/null 2>&1 && have_py=1 && break
done
if [ "$have_py" = 1 ]; then
    expect_rc 0 "compare --html" "$W" compare a.json b.json --html cmp.html
    [ "$(grep -o '<svg' cmp.html | wc -l)" -ge 2 ] && ok || bad "the comparison page has plots"
    grep -qF "gpgpu_scheduler" cmp.html && ok || bad "the comparison page lists the policies that differ"
else
    echo "compare_test: --html skipped: no Python 3 with pandas and matplotlib"
    expect_rc 2 "compare --html without Python" "$W" compare a.json b.json --html cmp.html
fi
finish
