#!/usr/bin/env bash
# warpsim report (docs/report.md): a tiny timing run with its time series and per-warp file, a sweep
# normalised to a baseline and a study (dyncta on one workload, which writes its own report) as HTML
# pages; then headless Chromium renders each page, whose own check (a script at its end) says how many
# figures it has, which have no data and whether a script failed.  Exit 77 (skipped) without a Python
# that has pandas and matplotlib; the browser part is skipped with a message without chromium.
# REPORT_SCREENSHOTS=DIR keeps a screenshot of each page there (to look at).
# Usage: report_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"
cd "$tmp" || exit 1

expect_rc 0 "report --help" "$W" report --help
grep -q -- "--baseline" "$tmp/out" && ok || bad "report --help describes --baseline"
expect_rc 2 "report without a path" "$W" report
expect_rc 2 "report with an unknown option" "$W" report --nosuch x.json
expect_rc 2 "report with a Python that is not there" env WARPSIM_PYTHON=/nonexistent/python3 "$W" report x.json
expect_err "pandas" "the message says what to install"

have_py=0
for py in ${WARPSIM_PYTHON:-} /usr/bin/python3 python3; do
    "$py" -c "import pandas, matplotlib" >/dev/null 2>&1 && have_py=1 && break
done
if [ "$have_py" = 0 ]; then
    echo "report_test: skipped: no Python 3 with pandas and matplotlib (apt-get install python3-pandas python3-matplotlib)"
    exit 77
fi

# ---- a run: every figure its files allow ----
expect_rc 0 "tiny timing run with a time series and per-warp file" "$W" run bfs --size tiny -o r.json --warps r.warps.csv
expect_rc 0 "report on a run (default output name)" "$W" report r.json
mv r.report.html r.html
expect_rc 2 "report on something else" "$W" report r.config
[ "$(grep -o '<svg' r.html | wc -l)" -ge 8 ] && ok || bad "the run's page has 8 figures: $(grep -o '<svg' r.html | wc -l)"
for t in "IPC over time" "Resident CTAs and warps per SM" "Cache miss rates" "DRAM bandwidth" "Policies' state" \
         "Stall breakdown" "lat_rt" "Per-warp execution time" "core cycle"; do
    grep -qF "$t" r.html && ok || bad "the run's page has '$t'"
done
grep -qE '(src|href)="(https?:)?//|@import' r.html && bad "the page loads something from outside" || ok

# ---- a sweep, normalised to a baseline ----
expect_rc 0 "tiny sweep" "$W" sweep --workloads vecadd,bfs --warp-sched lrr,gto --size tiny -j 2 -q -o sw
expect_rc 0 "report on a sweep" "$W" report sw --baseline lrr -o sw.html
grep -qF "normalised to lrr" sw.html && ok || bad "the sweep's page is normalised to lrr"
expect_rc 2 "report on a sweep with an unknown baseline" "$W" report sw --baseline nosuch -o x.html
expect_err "nosuch" "the message names the baseline"

# ---- a study writes its report at the end ----
expect_rc 0 "tiny study" "$W" study dyncta --size tiny --workloads vecadd -j 2 -q -o st/study-dyncta
[ -s st/study-dyncta/report.html ] && ok || bad "the study wrote report.html: $(tail -3 "$tmp/err")"
grep -qF "001 Fig. 1" st/study-dyncta/report.html && ok || bad "the study's page mirrors 001 Fig. 1"
grep -qF "seed reports" st/study-dyncta/report.html && ok || bad "the study's page has the seed's numbers"
WARPSIM_PYTHON=/nonexistent/python3 expect_rc 0 "a study without Python (its runs are cached)" "$W" study \
    dyncta --size tiny --workloads vecadd -j 2 -q -o st/study-dyncta
[ "$(grep -c 'no HTML report' "$tmp/err")" = 1 ] && ok || bad "one stderr line says why there is no report"

# ---- headless Chromium renders every page ----
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chrome" ]; then
    echo "report_test: browser check skipped: no chromium (apt-get install chromium)"
    finish
fi
for page in r.html sw.html st/study-dyncta/report.html; do
    n=$(grep -o '<figure class="plot"' "$page" | wc -l)
    timeout 120 "$chrome" --headless --disable-gpu --no-sandbox --user-data-dir="$tmp/chrome" \
        --virtual-time-budget=10000 --dump-dom "file://$tmp/$page" >"$tmp/dom" 2>"$tmp/chrome.err"
    line=$(grep -o 'report-check figures=[^<]*' "$tmp/dom" | head -1)
    [ "$line" = "report-check figures=$n empty=0 errors=0 OK" ] && [ "$n" -gt 0 ] && ok ||
        bad "$page in Chromium: '$line' ($n figures in the file)"
    if [ -n "${REPORT_SCREENSHOTS:-}" ]; then
        mkdir -p "$REPORT_SCREENSHOTS"
        timeout 120 "$chrome" --headless --disable-gpu --no-sandbox --user-data-dir="$tmp/chrome" \
            --hide-scrollbars --window-size=1200,6000 --screenshot="$REPORT_SCREENSHOTS/$(echo "$page" | tr / _).png" \
            "file://$tmp/$page" >/dev/null 2>&1
    fi
done
finish
