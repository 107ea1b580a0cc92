#!/usr/bin/env bash
# Cache bypass policies on the command line (docs/timing.md, docs/policies.md, docs/extending.md):
# --l1-bypass / --l2-bypass, -warpsim_{l1d,l1i,l1c,l1t,l2}_bypass, dotted bypass.* parameters,
# the listing, the effective config, the statistics, and Ctrl-C against no bypassing on kmeans.
# Usage: bypass_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"

# the listing: every registered bypass policy, with its parameters
expect_rc 0 "list --policies" "$W" list --policies
grep -q "^cache bypass policies" "$tmp/out" && ok || bad "list --policies has the bypass section"
for p in none all pcbased ctrlc; do
    grep -q "^  $p " "$tmp/out" && ok || bad "list --policies shows $p"
done
grep -q "bypass.ctrlc.sample_base *default 1024" "$tmp/out" && ok || bad "list shows ctrlc's SAMPLE_PERIOD base"
grep -q "bypass.ctrlc.th_high *default 0.4" "$tmp/out" && ok || bad "list shows ctrlc's high threshold"
expect_rc 0 "list --policies --names bypass" "$W" list --policies --names bypass
want=$(sed -n 's/^X(bypass, *\([A-Za-z0-9_]*\)).*/\1/p' "$SRC/src/policy/registry.def")
[ "$(cat "$tmp/out")" = "$want" ] && ok || bad "--names bypass: $(tr '\n' ' ' <"$tmp/out"), registry: $want"

# unknown names: exit 2, the valid names listed
expect_rc 2 "unknown --l1-bypass" "$W" run kmeans --size tiny --l1-bypass nosuch
expect_err "unknown bypass policy 'nosuch'; valid: none, all, pcbased, ctrlc" "--l1-bypass list"
expect_rc 2 "unknown --l2-bypass" "$W" run kmeans --size tiny --l2-bypass nosuch
expect_err "valid: none, all, pcbased, ctrlc" "--l2-bypass list"
expect_rc 2 "unknown -warpsim_l1d_bypass" "$W" run vecadd --size tiny --set warpsim_l1d_bypass=nosuch
expect_err "-warpsim_l1d_bypass: unknown bypass policy 'nosuch' (valid: none, all, pcbased, ctrlc)" "option list"
expect_rc 2 "--l1-bypass with --functional" "$W" run vecadd --size tiny --functional --l1-bypass ctrlc
# parameters: bounds, names, unused ones warn
expect_rc 2 "ctrlc agg_bits out of bounds" "$W" run vecadd --size tiny --l1-bypass ctrlc --set bypass.ctrlc.agg_bits=9
expect_err "-bypass.ctrlc.agg_bits: expected an integer in [1, 4], got '9'" "bounds message"
expect_rc 2 "unknown bypass parameter" "$W" run vecadd --size tiny --l1-bypass ctrlc --set bypass.ctrlc.nope=1
expect_err "ctrlc has no such parameter" "parameter names"
expect_rc 2 "unknown bypass policy parameter" "$W" run vecadd --size tiny --set bypass.nosuch.x=1
expect_err "unknown policy (valid: none, all, pcbased, ctrlc)" "policy names"
expect_rc 0 "parameter of an unused bypass policy" "$W" run vecadd --size tiny --set bypass.ctrlc.th_high=0.5
expect_err "a parameter of bypass policy 'ctrlc', which no cache uses" "unused policy warning"

# the default text report has no bypass lines (the golden statistics stay as they were); a bypass policy adds them
expect_rc 0 "vecadd default" "$W" run vecadd --size tiny
grep -q "bypass" "$tmp/out" && bad "default text report mentions bypassing" || ok
expect_rc 0 "vecadd --l1-bypass all" "$W" run vecadd --size tiny --l1-bypass all
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "vecadd under all verifies"
grep -q "^L1D_bypass_policy = all" "$tmp/out" && ok || bad "text report names the L1D bypass policy"
n=$(grep "^L1D_bypassed_requests" "$tmp/out" | tail -1 | sed 's/.*= //')
[ -n "$n" ] && [ "$n" -gt 0 ] && ok || bad "all bypasses global loads ($n)"
expect_rc 0 "vecadd --l2-bypass all" "$W" run vecadd --size tiny --l2-bypass all
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "vecadd under an L2 bypass verifies"

# bypassed reads through MSHR entries of their own (L1D and L2) still verify
expect_rc 0 "vecadd all, bypass_mshr 1" "$W" run vecadd --size tiny --l1-bypass all --l2-bypass all --set warpsim_bypass_mshr=1
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "vecadd with MSHR-tracked bypassing verifies"
expect_rc 2 "bypass_mshr out of bounds" "$W" run vecadd --size tiny --set warpsim_bypass_mshr=2

# kmeans, Ctrl-C against no bypassing.  At tiny size with the default 16 KB L1D nothing is evicted, so
# this uses a 4 KB L1D and a shorter sample period (the seed's 1024 evictions per PC are not reached
# in a tiny run; docs/policies.md has the small-size numbers with the defaults)
small_l1="gpgpu_cache:dl1=8:128:4,L:L:m:N:H,A:32:8,8"
expect_rc 0 "kmeans none" "$W" run kmeans --size tiny --set "$small_l1" -o "$tmp/n.json"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "kmeans baseline verifies"
expect_rc 0 "kmeans ctrlc" "$W" run kmeans --size tiny --set "$small_l1" --l1-bypass ctrlc \
    --set bypass.ctrlc.sample_base=128 -o "$tmp/c.json"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "kmeans under ctrlc verifies"
grep -q "^L1D_bypassed_by_pc\[0\] = pc " "$tmp/out" && ok || bad "text report lists the most bypassed PCs"
val() { sed -n '/"totals"/,$p' "$1" | grep "\"$2\"" | head -1 | sed 's/.*: *\([0-9.]*\).*/\1/'; }
zn=$(val "$tmp/n.json" L1D_evicted_never_reused) zc=$(val "$tmp/c.json" L1D_evicted_never_reused)
bn=$(val "$tmp/n.json" L1_to_L2_bytes) bc=$(val "$tmp/c.json" L1_to_L2_bytes)
byp=$(val "$tmp/c.json" L1D_bypassed_requests)
[ -n "$zn" ] && [ -n "$zc" ] && [ "$zc" -lt "$zn" ] && ok || bad "ctrlc: zero-reuse evictions $zc, none $zn"
[ -n "$bn" ] && [ -n "$bc" ] && [ "$bc" -lt "$bn" ] && ok || bad "ctrlc: L1-to-L2 bytes $bc, none $bn"
[ -n "$byp" ] && [ "$byp" -gt 0 ] && ok || bad "ctrlc bypassed nothing"
grep -q '"L1D_bypass_agg_by_pc"' "$tmp/c.json" && ok || bad "JSON has AGG per PC"
grep -q '"L1D_evicted_never_reused"' "$tmp/n.json" && ok || bad "JSON always has the reuse statistics"
# the shorthand is the option; the effective config records policy and parameters and reproduces the run
grep -q "^-warpsim_l1d_bypass *ctrlc" "$tmp/c.config" && ok || bad "effective config names the L1D bypass policy"
grep -q "^-bypass.ctrlc.sample_base 128" "$tmp/c.config" && ok || bad "effective config has the parameter"
expect_rc 0 "kmeans from the effective config" "$W" run kmeans --size tiny --config "$tmp/c.config" -o "$tmp/d.json"
sed -n '/"timing": {/,/"host"/p' "$tmp/c.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/c.stats"
sed -n '/"timing": {/,/"host"/p' "$tmp/d.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/d.stats"
cmp -s "$tmp/c.stats" "$tmp/d.stats" && [ -s "$tmp/c.stats" ] && ok || bad "effective config does not reproduce the ctrlc run"
# bypassed reads take no MSHR, so nothing bounds the requests an SM has outstanding: a reply that
# waited for room in the SM's outgoing queue without needing it closed a cycle through both networks
# (a one-entry reply queue makes it show at tiny size; it deadlocked bfs at small size by default)
for w in bfs spmv pagerank; do
    expect_rc 0 "$w with every read bypassed and a one-entry reply queue" "$W" run $w --size tiny --l1-bypass all \
        --set warpsim_reply_queue=1 --set warpsim_deadlock_cycles=20000
done
# the instruction, constant and texture caches by name (aes reads __constant__ tables, sad textures)
for c in l1i l1c l1t; do
    expect_rc 2 "unknown -warpsim_${c}_bypass" "$W" run vecadd --size tiny --set warpsim_${c}_bypass=nosuch
    expect_err "-warpsim_${c}_bypass: unknown bypass policy 'nosuch' (valid: none, all, pcbased, ctrlc)" \
        "-warpsim_${c}_bypass option list"
done
expect_rc 0 "aes default" "$W" run aes --size tiny -o "$tmp/an.json"
expect_rc 0 "aes constant cache bypass all" "$W" run aes --size tiny --set warpsim_l1c_bypass=all -o "$tmp/ab.json"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "aes with every constant read bypassed verifies"
a=$(grep '"gpu_sim_cycle"' "$tmp/an.json" | head -1) b=$(grep '"gpu_sim_cycle"' "$tmp/ab.json" | head -1)
[ -n "$a" ] && [ "$a" != "$b" ] && ok || bad "a constant-cache bypass changes nothing in aes ($a)"
expect_rc 0 "sad texture cache bypass all" "$W" run sad --size tiny --set warpsim_l1t_bypass=all
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "sad with every texture read bypassed verifies"
expect_rc 0 "vecadd L1I bypass all" "$W" run vecadd --size tiny --set warpsim_l1i_bypass=all
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "vecadd with every fetch miss bypassed verifies"
# all three with MSHR-tracked bypassing; ctrlc only at the constant cache: its parameter is in use (no
# warning); the effective config records the options and reproduces the run
expect_rc 0 "sad L1I/constant/texture bypass -o" "$W" run sad --size tiny --set warpsim_l1i_bypass=all \
    --set warpsim_l1c_bypass=ctrlc --set warpsim_l1t_bypass=pcbased --set warpsim_bypass_mshr=1 \
    --set bypass.ctrlc.sample_base=128 -o "$tmp/s.json"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "sad with three L1-level bypass policies verifies"
grep -q "which no cache uses" "$tmp/err" && bad "ctrlc at the constant cache: its parameter warned as unused" || ok
grep -q "^-warpsim_l1i_bypass *all" "$tmp/s.config" && ok || bad "effective config names the L1I bypass policy"
grep -q "^-warpsim_l1c_bypass *ctrlc" "$tmp/s.config" && ok || bad "effective config names the constant bypass policy"
grep -q "^-warpsim_l1t_bypass *pcbased" "$tmp/s.config" && ok || bad "effective config names the texture bypass policy"
grep -q "^-bypass.ctrlc.sample_base 128" "$tmp/s.config" && ok || bad "effective config has ctrlc's parameter"
expect_rc 0 "sad from the effective config" "$W" run sad --size tiny --config "$tmp/s.config" -o "$tmp/t.json"
sed -n '/"timing": {/,/"host"/p' "$tmp/s.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/s.stats"
sed -n '/"timing": {/,/"host"/p' "$tmp/t.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/t.stats"
cmp -s "$tmp/s.stats" "$tmp/t.stats" && [ -s "$tmp/s.stats" ] && ok || bad "effective config does not reproduce the sad run"
finish
