#!/bin/sh
# run.sh WARPSIM CORPUS_DIR - malformed-PTX corpus check.
#
# Every NAME.ptx here starts with the line
#   // expect: NAME.ptx:LINE:COL: error: MESSAGE
# `WARPSIM ptx-check NAME.ptx` (run inside the corpus dir, so the path in the
# message is the bare file name) must exit non-zero and print exactly that
# text as the first line of stderr.
if [ $# -ne 2 ]; then
    echo "usage: $0 WARPSIM_BINARY CORPUS_DIR" >&2
    exit 2
fi
case "$1" in
    /*) bin=$1 ;;
    *) bin=$(pwd)/$1 ;;
esac
cd "$2" || exit 2
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
pass=0
fail=0
for f in *.ptx; do
    [ -e "$f" ] || continue
    want=$(head -n 1 "$f" | sed -n 's|^// expect: ||p')
    if [ -z "$want" ]; then
        echo "FAIL $f: first line has no '// expect: ' comment"
        fail=$((fail + 1))
        continue
    fi
    "$bin" ptx-check "$f" >/dev/null 2>"$tmp"
    rc=$?
    got=$(head -n 1 "$tmp")
    if [ $rc -eq 0 ]; then
        echo "FAIL $f: exit status 0, expected an error"
        fail=$((fail + 1))
    elif [ "$got" != "$want" ]; then
        echo "FAIL $f (exit $rc)"
        echo "  expected: $want"
        echo "  got:      $got"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
