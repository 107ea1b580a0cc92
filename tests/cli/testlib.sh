# testlib.sh - shared by the tests/cli/*.sh end-to-end tests (sourced, not run).
# Sets W (the warpsim binary, $1) and SRC (the source tree, $2), a scratch
# directory $tmp removed on exit, pass/fail counters, and:
#   expect_rc RC DESCRIPTION CMD...   CMD's exit status is RC (its stdout/stderr in $tmp/out, $tmp/err)
#   expect_err TEXT DESCRIPTION       the last command's stderr contains TEXT (a fixed string)
#   ok / bad MESSAGE                  count a check
#   finish                            print "N passed, N failed" and exit 1 on any failure
# TEST_TIMEOUT (seconds, default 600) bounds every command run through expect_rc.
set -u
W=$1
SRC=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the instruction counts that feed the progress ETA stay in the scratch directory (src/cli/run_counts.c)
export WARPSIM_CACHE_DIR="$tmp/cache"
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_rc() {
    local want=$1 what=$2; shift 2
    timeout "${TEST_TIMEOUT:-600}" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$what: exit $rc, expected $want; stderr: $(head -3 "$tmp/err")"; fi
}
expect_err() {
    grep -qF -- "$1" "$tmp/err" && ok || bad "$2: stderr lacks '$1': $(head -3 "$tmp/err")"
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}
