#!/usr/bin/env bash
# run.sh BUILD SECONDS [TARGET...] - run the libFuzzer harnesses of a -DWARPSIM_FUZZ=ON build
# (`make fuzz`, `make fuzz-smoke`; docs/fuzzing.md), one after the other, SECONDS each.
#
# Each target fuzzes BUILD/corpus/<target> (assembled by corpus.sh from the project's files and
# kept between runs, so what one run finds seeds the next) with the dictionary BUILD/corpus/<target>.dict.
# A crashing input (crash-*, leak-*, timeout-*, oom-*) is written to BUILD/fuzz-artifacts/<target>/, the
# fuzzer's output to BUILD/fuzz-logs/<target>.log.  Prints one line per target: executions done, corpus
# size, and what it found.  Exit status 1 when any target found something (the input paths are printed).
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD SECONDS [TARGET...]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$1
secs=$2
shift 2
targets=${*:-ptx_load ptx_exec ptx_timing config graph trace pdp_dataset pdp_model pdp_bubble fatbin}

max_len() {   # inputs the mutator may grow to (the harnesses ignore anything over 64 KiB)
    case $1 in
        ptx_*) echo 32768 ;;
        config) echo 16384 ;;
        *) echo 8192 ;;
    esac
}

bash "$here/corpus.sh" "$build/corpus" || exit 1
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"
failed=0
summary=""
for t in $targets; do
    bin="$build/fuzz_$t"
    if [ ! -x "$bin" ]; then
        echo "fuzz: $bin is missing (configure with -DWARPSIM_FUZZ=ON and build target fuzz_harnesses)" >&2
        exit 1
    fi
    art="$build/fuzz-artifacts/$t"
    log="$build/fuzz-logs/$t.log"
    mkdir -p "$art"
    before=$(ls "$art" | wc -l)
    echo "fuzz: $t for ${secs}s ..."
    # -timeout: one input running for 10 s is a finding (the harnesses bound their work to milliseconds)
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
        "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
        -print_final_stats=1 -dict="$build/corpus/$t.dict" -artifact_prefix="$art/" \
        "$build/corpus/$t" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    [ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
    corpus=$(ls "$build/corpus/$t" | wc -l)
    if [ $rc -ne 0 ]; then
        failed=1
        found=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        [ -n "$found" ] || found=$(ls -t "$art" 2>/dev/null | head -n 1 | sed "s|^|$art/|")
        line="$t: FOUND a problem after ${execs:-?} executions (exit $rc): ${found:-no input saved}; log $log"
        # the sanitizer's or libFuzzer's one-line summary, and the top of the stack
        grep -m 1 -E '^SUMMARY:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log" | sed 's/^/    /'
        grep -m 8 -E '^ *#[0-9]+ ' "$log" | sed 's/^/    /'
    else
        after=$(ls "$art" | wc -l)
        line="$t: ${execs:-?} executions, corpus $corpus inputs, nothing found"
        [ "$after" -gt "$before" ] && line="$line (but new files in $art)"
    fi
    echo "  $line"
    summary="$summary  $line
"
done
echo "fuzz summary (${secs}s per target):"
printf '%s' "$summary"
if [ $failed -ne 0 ]; then
    echo "fuzz: a harness found a problem; to keep it as a regression: cp INPUT tests/fuzz/regressions/TARGET/crash-NAME" >&2
    exit 1
fi
exit 0
