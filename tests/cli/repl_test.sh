#!/usr/bin/env bash
# Cache replacement policies on the command line (docs/timing.md, docs/extending.md):
# --l1-repl / --l2-repl, -warpsim_{l1d,l1i,l1c,l1t,l2}_repl, dotted repl.* parameters,
# the listing, the effective config.  Usage: repl_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"

# the listing: every registered replacement policy, with its parameters
expect_rc 0 "list --policies" "$W" list --policies
grep -q "^cache replacement policies" "$tmp/out" && ok || bad "list --policies has the replacement section"
for p in lru fifo srrip brrip ship; do
    grep -q "^  $p " "$tmp/out" && ok || bad "list --policies shows $p"
done
grep -q "repl.brrip.long_prob_log2 *default 5 *\[0, 16\]" "$tmp/out" && ok || bad "list shows brrip's parameter"
grep -q "repl.srrip.rrpv_bits *default 2 *\[1, 8\]" "$tmp/out" && ok || bad "list shows srrip's parameter"
# names only, for scripts: exactly the registry's repl lines, in order
expect_rc 0 "list --policies --names repl" "$W" list --policies --names repl
want=$(sed -n 's/^X(repl, *\([A-Za-z0-9_]*\)).*/\1/p' "$SRC/src/policy/registry.def")
[ "$(cat "$tmp/out")" = "$want" ] && ok || bad "--names repl: $(tr '\n' ' ' <"$tmp/out"), registry: $want"
expect_rc 2 "list --names unknown kind" "$W" list --policies --names nosuch
expect_err "unknown policy kind 'nosuch'" "list --names unknown kind message"

# a timing run under SRRIP verifies
expect_rc 0 "run --l1-repl srrip" "$W" run vecadd --size tiny --l1-repl srrip
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "vecadd under srrip verifies"
# unknown names: exit 2, the valid names listed
expect_rc 2 "unknown --l1-repl" "$W" run vecadd --size tiny --l1-repl nosuch
expect_err "unknown replacement policy 'nosuch'; valid: lru, fifo, srrip, brrip" "--l1-repl list"
expect_rc 2 "unknown --l2-repl" "$W" run vecadd --size tiny --l2-repl nosuch
expect_err "valid: lru, fifo, srrip, brrip" "--l2-repl list"
expect_rc 2 "unknown -warpsim_l1d_repl" "$W" run vecadd --size tiny --set warpsim_l1d_repl=nosuch
expect_err "-warpsim_l1d_repl: unknown replacement policy 'nosuch' (valid: lru, fifo, srrip, brrip, ship, cacp)" "option list"
expect_rc 2 "--l1-repl with --functional" "$W" run vecadd --size tiny --functional --l1-repl srrip
# parameters: bounds, names, unused ones warn
expect_rc 2 "brrip long_prob_log2 out of bounds" "$W" run vecadd --size tiny --l2-repl brrip \
    --set repl.brrip.long_prob_log2=17
expect_err "-repl.brrip.long_prob_log2: expected an integer in [0, 16], got '17'" "bounds message"
expect_rc 2 "unknown repl parameter" "$W" run vecadd --size tiny --set repl.srrip.nope=1
expect_err "srrip has no such parameter (its parameters: rrpv_bits)" "parameter names"
expect_rc 2 "unknown repl policy parameter" "$W" run vecadd --size tiny --set repl.nosuch.x=1
expect_err "unknown policy (valid: lru, fifo, srrip, brrip, ship, cacp)" "policy names"
expect_rc 0 "parameter of an unused policy" "$W" run vecadd --size tiny --set repl.srrip.rrpv_bits=3
expect_err "which no cache uses" "unused policy warning"

# the shorthand is the option; the effective config records policy and parameters and reproduces the run
expect_rc 0 "bfs brrip -o" "$W" run bfs --size tiny --l1-repl brrip --set repl.brrip.long_prob_log2=3 -o "$tmp/b.json"
grep -q "^-warpsim_l1d_repl *brrip" "$tmp/b.config" && ok || bad "effective config names the L1D policy"
grep -q "^-repl.brrip.long_prob_log2 3" "$tmp/b.config" && ok || bad "effective config has the parameter"
expect_rc 0 "bfs from the effective config" "$W" run bfs --size tiny --config "$tmp/b.config" -o "$tmp/c.json"
sed -n '/"timing": {/,/"host"/p' "$tmp/b.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/b.stats"
sed -n '/"timing": {/,/"host"/p' "$tmp/c.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/c.stats"
cmp -s "$tmp/b.stats" "$tmp/c.stats" && [ -s "$tmp/b.stats" ] && ok || bad "effective config does not reproduce the brrip run"
expect_rc 0 "bfs --set warpsim_l1d_repl" "$W" run bfs --size tiny --set warpsim_l1d_repl=brrip \
    --set repl.brrip.long_prob_log2=3 -o "$tmp/d.json"
sed -n '/"timing": {/,/"host"/p' "$tmp/d.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/d.stats"
cmp -s "$tmp/b.stats" "$tmp/d.stats" && ok || bad "--l1-repl differs from --set warpsim_l1d_repl"
# the parameter reaches the cache: another value, other statistics (and the letter's lru differs from brrip)
expect_rc 0 "bfs lru -o" "$W" run bfs --size tiny -o "$tmp/e.json"
grep -q '"L1D_total_cache_miss_rate"' "$tmp/e.json" && ok || bad "JSON has the L1D miss rate"
a=$(grep '"gpu_sim_cycle"' "$tmp/b.json" | head -1)
e=$(grep '"gpu_sim_cycle"' "$tmp/e.json" | head -1)
[ -n "$a" ] && [ "$a" != "$e" ] && ok || bad "brrip and lru give the same bfs cycles ($a)"
# the instruction, constant and texture caches by name (sad reads __constant__ data and textures)
expect_rc 0 "sad with L1I, constant and texture policies" "$W" run sad --size tiny --set warpsim_l1i_repl=brrip \
    --set warpsim_l1c_repl=srrip --set warpsim_l1t_repl=ship
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "sad under brrip/srrip/ship verifies"
expect_rc 0 "aes --set warpsim_l1c_repl" "$W" run aes --size tiny --set warpsim_l1c_repl=srrip --set warpsim_l1t_repl=ship
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "aes under a constant-cache srrip verifies"
for c in l1i l1c l1t; do
    expect_rc 2 "unknown -warpsim_${c}_repl" "$W" run vecadd --size tiny --set warpsim_${c}_repl=nosuch
    expect_err "-warpsim_${c}_repl: unknown replacement policy 'nosuch' (valid: lru, fifo, srrip, brrip, ship, cacp)" \
        "-warpsim_${c}_repl option list"
done
# a policy only the constant cache uses: its parameters are in use (no warning)
expect_rc 0 "srrip parameter, srrip at the constant cache" "$W" run vecadd --size tiny --set warpsim_l1c_repl=srrip \
    --set repl.srrip.rrpv_bits=3
grep -q "which no cache uses" "$tmp/err" && bad "srrip at the constant cache: its parameter warned as unused" || ok
# the policy reaches the texture cache (one 3-way set: the victims differ), the effective config
# records the new options and reproduces the run
small_tex="gpgpu_tex_cache:l1=1:128:3,L:R:m:N:L,F:128:4,128"
expect_rc 0 "sad small texture cache lru" "$W" run sad --size tiny --set "$small_tex" -o "$tmp/tl.json"
expect_rc 0 "sad small texture cache srrip -o" "$W" run sad --size tiny --set "$small_tex" --set warpsim_l1t_repl=srrip \
    --set warpsim_l1c_repl=fifo --set warpsim_l1i_repl=srrip --set repl.srrip.rrpv_bits=3 -o "$tmp/ts.json"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "sad with a small srrip texture cache verifies"
grep -q "^-warpsim_l1t_repl *srrip" "$tmp/ts.config" && ok || bad "effective config names the texture policy"
grep -q "^-warpsim_l1c_repl *fifo" "$tmp/ts.config" && ok || bad "effective config names the constant policy"
grep -q "^-warpsim_l1i_repl *srrip" "$tmp/ts.config" && ok || bad "effective config names the L1I policy"
grep -q "^-repl.srrip.rrpv_bits 3" "$tmp/ts.config" && ok || bad "effective config has the texture policy's parameter"
expect_rc 0 "sad from the effective config" "$W" run sad --size tiny --config "$tmp/ts.config" -o "$tmp/tr.json"
sed -n '/"timing": {/,/"host"/p' "$tmp/ts.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/ts.stats"
sed -n '/"timing": {/,/"host"/p' "$tmp/tr.json" | grep -v -E 'simulation_(rate|time)' >"$tmp/tr.stats"
cmp -s "$tmp/ts.stats" "$tmp/tr.stats" && [ -s "$tmp/ts.stats" ] && ok || bad "effective config does not reproduce the texture run"
a=$(grep '"gpu_sim_cycle"' "$tmp/tl.json" | head -1)
e=$(grep '"gpu_sim_cycle"' "$tmp/ts.json" | head -1)
[ -n "$a" ] && [ "$a" != "$e" ] && ok || bad "texture srrip and lru give the same sad cycles ($a)"
finish
