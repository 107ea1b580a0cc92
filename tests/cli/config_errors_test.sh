#!/usr/bin/env bash
# Load-time validation of the machine configuration and the policy parameters, end to end:
# every case is exit 2 from `warpsim run` (a configuration error, before any kernel runs), with a
# message that names the option or file:line:col and what was expected; a parameter of a policy
# that is not selected is a warning (exit 0).  Usage: config_errors_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"
# expect RC TEXT description cmd...: the exit status, and TEXT (a fixed string) in stderr
expect() {
    local want=$1 text=$2 what=$3; shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$what: exit $rc, expected $want; stderr: $(head -3 "$tmp/err")"
    elif [ -n "$text" ] && ! grep -q -F -- "$text" "$tmp/err"; then
        bad "$what: stderr lacks '$text'; stderr: $(head -3 "$tmp/err")"
    else
        ok
    fi
}
run() { "$W" run vecadd --size tiny -q "$@"; }   # -q: stderr is checked, no progress line

# ---- sizes in the machine: cache strings, the implied host memory ----
expect 2 "--set: error: -gpgpu_cache:dl1: MSHR entries: expected an integer in [1, 65536], got 4000000000 (at" \
    "huge MSHRs" run --set 'gpgpu_cache:dl1=32:128:4,L:L:m:N:H,A:4000000000:8,8'
expect 2 "--set: error: -gpgpu_cache:dl1: 1048576 sets x 64 ways = 67108864 lines, more than 16777216" \
    "huge sets x ways" run --set 'gpgpu_cache:dl1=1048576:128:64,L:L:m:N:H,A:32:8,8'
expect 2 "--set: error: -gpgpu_cache:dl2: line size 8192 is out of range: expected a power of two in [16, 4096]" \
    "line size" run --set 'gpgpu_cache:dl2=64:8192:16,L:B:m:W:L,A:256:64,16'
expect 2 "--set: error: -gpgpu_cache:dl2: the simulated machine would take about " \
    "implied memory of 512 L2 slices" run --set gpgpu_n_mem=64 --set gpgpu_n_sub_partition_per_mchannel=8 \
    --set 'gpgpu_cache:dl2=8192:128:128,L:B:m:W:L,A:256:64,16'
grep -q -F "more than -warpsim_max_model_mib 4096; the largest part is this option's: 512 L2 slices x" "$tmp/err" \
    && ok || bad "implied memory: the limit and the dominating part: $(cat "$tmp/err")"
expect 2 "more than -warpsim_max_model_mib 1; the largest part is this option's: 15 SMs x" \
    "implied memory over a lowered limit" run --set warpsim_max_model_mib=1
grep -q -F -- "--set: error: -gpgpu_n_clusters: the simulated machine would take about" "$tmp/err" \
    && ok || bad "lowered limit: names the dominating option: $(cat "$tmp/err")"
expect 2 "threads per SM must be a multiple of 32 in [32, 2048], got 4096" \
    "threads per SM" run --set gpgpu_shader_core_pipeline=4096:32
# in a config file: file:line:col
printf -- '# big L1\n  -gpgpu_cache:dl1 1048576:128:16,L:L:m:N:H,A:32:8,8\n' >"$tmp/big.config"
expect 2 "$tmp/big.config:2:3: error: -gpgpu_cache:dl1: the simulated machine would take about" \
    "implied memory, from a file" run --config "$tmp/big.config"

# a misspelled option: an error at its position, with the nearest known name
printf -- '-gpgpu_n_clusters 4\n  -gpgpu_shader_ctaa 8\n' >"$tmp/typo.config"
expect 2 "$tmp/typo.config:2:3: error: unknown option '-gpgpu_shader_ctaa' (did you mean '-gpgpu_shader_cta'?)" \
    "misspelled option in a file" run --config "$tmp/typo.config"
expect 2 "--set: error: unknown option '-smem_latency' (did you mean '-gpgpu_smem_latency'?)" \
    "misspelled option in --set" run --set smem_latency=20

# ---- policy parameters: checked when the configuration is loaded (exit 2, not 3 at the launch) ----
expect 2 "--set: error: -warp_sched.swl.limit: expected an integer in [1, 64], got '0'" \
    "swl.limit=0" run --warp-sched swl --set warp_sched.swl.limit=0
expect 2 "--set: error: -cta_sched.static.n: expected an integer in [0, 64], got '100000'" \
    "static.n=100000" run --cta-sched static --set cta_sched.static.n=100000
expect 2 "--set: error: -cta_sched.static.n: 9 exceeds the CTAs an SM may hold (-gpgpu_shader_cta 8)" \
    "static.n above the machine's CTA limit" run --cta-sched static --set cta_sched.static.n=9
expect 2 "--set: error: -cta_sched.dyncta.period: expected an integer in [1, 4000000000], got '0'" \
    "dyncta.period=0" run --cta-sched dyncta --set cta_sched.dyncta.period=0
expect 2 "--set: error: -cta_sched.dyncta.t_mem_l: 500 exceeds t_mem_h (384)" \
    "dyncta t_mem_l > t_mem_h" run --cta-sched dyncta --set cta_sched.dyncta.t_mem_l=500
printf -- '-warpsim_cta_scheduler dyncta\n\n   -cta_sched.dyncta.period 0\n' >"$tmp/dy.config"
expect 2 "$tmp/dy.config:3:4: error: -cta_sched.dyncta.period: expected an integer in [1, 4000000000], got '0'" \
    "dyncta.period=0 in a file" run --config "$tmp/dy.config"
# a parameter of a policy that is not selected: one warning line, the run goes on
warned="--set: warning: -cta_sched.dyncta.t_idle: a parameter of CTA scheduler 'dyncta', which is not selected"
warned="$warned (-warpsim_cta_scheduler is rr): ignored"
expect 0 "$warned" "unselected policy parameter" run --set cta_sched.dyncta.t_idle=5
[ "$(grep -c warning "$tmp/err")" -eq 1 ] && ok || bad "one warning line: $(cat "$tmp/err")"
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "the run with the warning verifies"
# a selected policy's parameter: no warning
expect 0 "" "selected policy parameter" run --warp-sched swl --set warp_sched.swl.limit=4
[ ! -s "$tmp/err" ] && ok || bad "no warning for a selected policy's parameter: $(cat "$tmp/err")"

# ---- config files: size limit, devices, directories ----
expect 2 "/dev/zero: error: the file is larger than 16 MiB (the limit for a config file; reading stopped there)" \
    "--config /dev/zero" run --config /dev/zero
printf -- '-gpgpu_n_clusters 4\n  -config /dev/zero\n' >"$tmp/zero.config"
expect 2 "$tmp/zero.config:2:3: error: -config: '/dev/zero' is larger than 16 MiB (the limit for a config file" \
    "include of /dev/zero" run --config "$tmp/zero.config"
mkdir "$tmp/dir.d"
expect 2 "$tmp/dir.d: error: is a directory, not a config file" "--config DIR" run --config "$tmp/dir.d"
printf -- '-gpgpu_n_clusters 4\n -config dir.d   # a directory\n' >"$tmp/incdir.config"
expect 2 "$tmp/incdir.config:2:2: error: -config: '$tmp/dir.d' is a directory, not a config file" \
    "include of a directory" run --config "$tmp/incdir.config"

finish
