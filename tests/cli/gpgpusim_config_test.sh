#!/usr/bin/env bash
# GPGPU-Sim 4.x configs, end to end (docs/config.md, "GPGPU-Sim configs"): a config in GPGPU-Sim's own
# style (tests/cli/data/gpgpusim4_syntax.config) loads and runs a tiny workload, the options warpsim does
# not model are listed in one stderr line, a misspelled option is still an error at file:line:col with
# the nearest name, `warpsim exec` takes ./gpgpusim.config, the gtx480-gpgpusim4 preset runs, and - when
# WARPSIM_GPGPUSIM_CONFIGS names GPGPU-Sim's configs/tested-cfgs directory - the real SM2_GTX480 config
# (and the other tested configs there) run unmodified.
# Usage: gpgpusim_config_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"
DATA="$SRC/tests/cli/data"
SUMMARY="GPGPU-Sim options that warpsim does not model were ignored:"

# ---- every piece of the syntax in one file ----
# -q: the stderr checks below must not see the progress line of a slow (sanitizer) build
expect_rc 0 "GPGPU-Sim-style config runs bfs" "$W" run bfs --size tiny -q --config "$DATA/gpgpusim4_syntax.config"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "bfs verifies on the GPGPU-Sim-style machine"
[ "$(grep -c -F "$SUMMARY" "$tmp/err")" -eq 1 ] && ok || bad "one summary line: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/err")" -eq 1 ] && ok || bad "nothing else on stderr: $(cat "$tmp/err")"
expect_err "warning: 15 $SUMMARY -gpgpu_ptx_sim_mode, -gpgpu_ptx_instruction_classification," "the summary's words"
expect_err "-ptx_opcode_latency_tesnor" "GPGPU-Sim's own spelling is ignored"
grep -q "power_simulation_enabled.*power_simulation_enabled" "$tmp/err" && bad "a name listed twice" || ok
# what was read: two-level with 4 active warps, 4 SMs, 2 x 2 L2 slices, an 8-byte channel
expect_rc 0 "effective config" "$W" run vecadd --size tiny --config "$DATA/gpgpusim4_syntax.config" \
    -o "$tmp/eff.json"
grep -q "^-gpgpu_scheduler  *two_level$" "$tmp/eff.config" && ok || bad "two_level_active -> two_level"
grep -q "^-warp_sched.two_level.active_size  *4$" "$tmp/eff.config" && ok \
    || bad "active group of 4: $(grep -i two_level "$tmp/eff.config")"
grep -q "^-gpgpu_n_mem_per_ctrlr  *2$" "$tmp/eff.config" && ok || bad "chips per controller written back"
grep -q '^-gpgpu_dram_timing_opt  *nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:' "$tmp/eff.config" \
    && ok || bad "the two-line timing string joined: $(grep timing_opt "$tmp/eff.config")"
# the effective config reloads (warpsim's own options only: no summary line)
expect_rc 0 "effective config reloads" "$W" run vecadd --size tiny --config "$tmp/eff.config"
grep -q -F "$SUMMARY" "$tmp/err" && bad "no ignored options in the effective config: $(cat "$tmp/err")" || ok

# ---- a misspelled option is still an error: file:line:col and the nearest name ----
{ head -20 "$DATA/gpgpusim4_syntax.config"; echo "  -gpgpu_n_clustres 4"; } > "$tmp/typo.config"
expect_rc 2 "misspelled option" "$W" run vecadd --size tiny --config "$tmp/typo.config"
expect_err "$tmp/typo.config:21:3: error: unknown option '-gpgpu_n_clustres' (did you mean '-gpgpu_n_clusters'?)" \
    "misspelled option: position and hint"
grep -q -F "$SUMMARY" "$tmp/err" && bad "no summary after an error: $(cat "$tmp/err")" || ok
printf -- '-power_simulaton_enabled 1\n' > "$tmp/typo2.config"
expect_rc 2 "misspelled ignored option" "$W" run vecadd --size tiny --config "$tmp/typo2.config"
expect_err "typo2.config:1:1: error: unknown option '-power_simulaton_enabled' (did you mean '-power_simulation_enabled'?)" \
    "misspelled ignored option: hint"
# with --warn-unknown-options: one warning for the typo, one summary line for the rest
expect_rc 0 "warn-unknown" "$W" run vecadd --size tiny --config "$tmp/typo.config" --warn-unknown-options
expect_err "warning: unknown option '-gpgpu_n_clustres' (did you mean '-gpgpu_n_clusters'?) (ignored)" "warn line"
[ "$(grep -c -F "$SUMMARY" "$tmp/err")" -eq 1 ] && ok || bad "summary once with warnings: $(cat "$tmp/err")"

# ---- the preset with GPGPU-Sim 4.2's GTX480 values ----
expect_rc 0 "--config gtx480-gpgpusim4" "$W" run vecadd --size tiny -q --config gtx480-gpgpusim4
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "vecadd verifies on gtx480-gpgpusim4"
[ ! -s "$tmp/err" ] && ok || bad "the preset sets only modelled options: $(cat "$tmp/err")"

# ---- warpsim exec takes ./gpgpusim.config ----
if [ -e "$(dirname "$W")/cudart/libcudart.so.13" ] || [ -n "${WARPSIM_CUDART_DIR:-}" ]; then
    mkdir "$tmp/wd"
    cp "$DATA/gpgpusim4_syntax.config" "$tmp/wd/gpgpusim.config"
    (cd "$tmp/wd" && "$W" exec -- true) > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 0 ] && ok || bad "exec with ./gpgpusim.config: rc $rc $(cat "$tmp/err")"
    expect_err "warpsim exec: using ./gpgpusim.config from the working directory" "exec says which config"
    [ "$(grep -c -F "$SUMMARY" "$tmp/err")" -eq 1 ] && ok || bad "exec: one summary line: $(cat "$tmp/err")"
    (cd "$tmp/wd" && "$W" exec --config gtx480 -- true) > "$tmp/out" 2> "$tmp/err"
    grep -q "gpgpusim.config" "$tmp/err" && bad "--config wins over ./gpgpusim.config: $(cat "$tmp/err")" || ok
    cp "$tmp/typo.config" "$tmp/wd/gpgpusim.config"
    (cd "$tmp/wd" && "$W" exec -- true) > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && grep -q -F "gpgpusim.config:21:3: error: unknown option '-gpgpu_n_clustres'" "$tmp/err" && ok \
        || bad "exec: a bad ./gpgpusim.config fails: rc $rc $(cat "$tmp/err")"
else
    echo "SKIP: warpsim exec part (no libcudart.so.13 beside $W; build the warpsim_cudart target)"
fi

# ---- GPGPU-Sim's own tested configs, when a copy is at hand ----
if [ -n "${WARPSIM_GPGPUSIM_CONFIGS:-}" ] && [ -f "$WARPSIM_GPGPUSIM_CONFIGS/SM2_GTX480/gpgpusim.config" ]; then
    for cfg in "$WARPSIM_GPGPUSIM_CONFIGS"/*/gpgpusim.config; do
        name=$(basename "$(dirname "$cfg")")
        case $name in
            SM3_KEPLER_TITAN) continue ;;   # writes -smem_latency, which GPGPU-Sim itself rejects
        esac
        expect_rc 0 "$name runs vecadd" "$W" run vecadd --size tiny -q --config "$cfg"
        grep -q "^verify = PASSED" "$tmp/out" && ok || bad "$name: vecadd verifies"
        [ "$(grep -c -F "$SUMMARY" "$tmp/err")" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && ok \
            || bad "$name: one summary line and nothing else: $(cat "$tmp/err")"
    done
    expect_rc 0 "SM2_GTX480 runs bfs" "$W" run bfs --size tiny \
        --config "$WARPSIM_GPGPUSIM_CONFIGS/SM2_GTX480/gpgpusim.config"
    grep -q "^verify = PASSED" "$tmp/out" && ok || bad "SM2_GTX480: bfs verifies"
else
    echo "SKIP: GPGPU-Sim's tested configs (set WARPSIM_GPGPUSIM_CONFIGS to a configs/tested-cfgs directory)"
fi

finish
