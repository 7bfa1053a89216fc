#!/bin/bash
# auxrec report --html's task lanes on a workload with known phases, in a real browser:
# tests/progs/sched-phases runs phase-a on CPU 0, sleeps, then phase-b on CPU 0 and phase-c on
# CPU 1 at once; auxrec record takes trace.dat's sched:sched_switch (and cpu-clock samples for
# the ticks). report-tasks-check.py loads the page in headless Chromium and checks its lanes
# show those phases in that order on those CPUs, every run against trace-cmd report's
# sched_switch lines, the per-task times against the text report, an event's fields when
# zoomed in on it, the keys, the per-thread view, first paint under 1 s. The page and the
# screenshots of both views stay in $B/report-tasks/ for a person to look at.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
AUXREC=$B/auxrec
out=$B/report-tasks
ms=150
. tests/scripts/check-lib.sh

needs_tracefs "tracefs, system-wide perf events"
[ "$(nproc)" -ge 2 ] || skip "the workload's second phase needs two CPUs"
needs_tools trace-cmd python3
chromium=${CHROMIUM:-$(command -v chromium)}
[ -n "$chromium" ] || skip "no chromium to load the page in (scripts/install-deps installs it)"

rm -rf "$out"
mkdir -p "$out"
rec=$out/rec
timeout 120 "$AUXREC" record -a -e cpu-clock --ftrace sched:sched_switch -o "$rec" -- \
	"$B/tests/progs/sched-phases" $ms >"$out/record.log" 2>&1
check "auxrec record records the phases" [ $? -eq 0 ]
"$AUXREC" report "$rec" >"$out/report.txt" 2>"$out/report.err"
check "auxrec report exits 0" [ $? -eq 0 ]
"$AUXREC" report --html -o "$out/page.html" "$rec" 2>"$out/html.err"
check "auxrec report --html exits 0" [ $? -eq 0 ]
# -N: no plugins, so that the fields read as the format prints them (as on the page)
timeout 120 trace-cmd report -N -t -i "$rec/trace.dat" >"$out/trace-cmd.txt" 2>/dev/null
check "trace-cmd report reads trace.dat" [ $? -eq 0 ]
size=$(stat -c %s "$out/page.html")
echo "page: $size bytes"
check "the page is under 2 MB" [ "$size" -lt 2000000 ]
timeout -k 10 180 python3 tests/scripts/report-tasks-check.py --chromium "$chromium" \
	--shots "$out" "$out/page.html" "$out/trace-cmd.txt" "$out/report.txt" $ms
check "chromium finds the phases, the switches and the totals on the page" [ $? -eq 0 ]
exit $fail
