#!/bin/bash
# Where auxrec record writes, as a perf user expects it, and the messages a newcomer meets:
# -o - with the default events streams perf.data to perf script (the ftrace half left out,
# said); -o FILE.data with perf events only is the perf.data file itself (perf report -i
# FILE.data), kept as FILE.data.old by the next run; with ftrace events it is a directory
# and a note says where perf's and trace-cmd's files are; -o under /proc says what is wrong;
# the ftrace loss hint names --ftrace-buffer-kb; -m rounding is said without -v; a bad
# --itrace says what to keep.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
loop=$PWD/$B/tests/progs/getppid-loop
. tests/scripts/check-lib.sh
needs_root "ftrace events"
needs_tools perf trace-cmd
in_tmpdir

timeout 60 "$auxrec" record -o - -- "$loop" 1000 2>pipe.log | timeout 60 perf script -i - >pipe.txt 2>&1
check "-o - with the default events: perf script reads the stream" \
	[ "$(grep -c 'cpu-clock' pipe.txt)" -gt 0 ]
check "... and auxrec says the ftrace events are left out, naming -o DIR" \
	grep -q "default ftrace events are left out with -o -.*give -o DIR" pipe.log

timeout 60 "$auxrec" record -q -e cpu-clock -o my.data -- "$loop" 1000 >my.log 2>&1
check "-o my.data with perf events only exits 0" [ $? -eq 0 ]
check "... and my.data is the perf.data file itself" [ -f my.data ]
timeout 60 perf report -i my.data --stdio >report.txt 2>&1
check "... which perf report -i my.data opens" [ $? -eq 0 -a "$(grep -c '%' report.txt)" -gt 0 ]
timeout 60 "$auxrec" record -q -e cpu-clock -o my.data -- true >my2.log 2>&1
check "... and the next run keeps it as my.data.old, as perf" [ -f my.data.old -a -f my.data ]

timeout 60 "$auxrec" record -e cpu-clock --ftrace syscalls:sys_enter_getppid -o ft.data -- \
	"$loop" 100 >ft.log 2>&1
check "-o ft.data with ftrace events: a directory" [ -d ft.data ]
check "... and a note naming perf's and trace-cmd's files" \
	grep -q "perf report -i ft.data/perf.data, trace-cmd report ft.data/trace.dat" ft.log
timeout 60 perf report -i ft.data/perf.data --stdio >/dev/null 2>&1
check "... perf report reads its perf.data" [ $? -eq 0 ]
timeout 60 trace-cmd report ft.data/trace.dat >/dev/null 2>&1
check "... and trace-cmd report its trace.dat" [ $? -eq 0 ]
timeout 60 "$auxrec" record -e cpu-clock -o dir -- true >dir.log 2>&1
check "-o dir (no .data) stays a directory, without a note" \
	[ -f dir/perf.data -a "$(grep -c 'is a directory' dir.log)" = 0 ]

timeout 60 "$auxrec" record -e cpu-clock -o /proc/auxrec-test -- true >proc.log 2>&1
check "-o /proc/auxrec-test is refused saying /proc takes no new entries" \
	grep -q "(/proc takes no new entries" proc.log
check "... not that its parent does not exist" [ "$(grep -c 'does not exist' proc.log)" = 0 ]
timeout 60 "$auxrec" record -e cpu-clock -o "$out/no/such/dir" -- true >nodir.log 2>&1
check "-o under a missing directory names it" grep -q "($out/no/such does not exist)" nodir.log

timeout 120 "$auxrec" record -o loss --ftrace syscalls:sys_enter_getppid --ftrace-buffer-kb 4 \
	-- "$loop" 300000 >loss.log 2>&1
if grep -q "ftrace lost" loss.log; then
	check "the ftrace loss hint names --ftrace-buffer-kb" \
		grep -q "ftrace lost .*give them more room (--ftrace-buffer-kb)" loss.log
else
	echo "note: 300000 events in 4 KiB buffers lost nothing here; the hint is not seen"
fi

timeout 60 "$auxrec" record -m 3 -e cpu-clock -o m3 -- true >m3.log 2>&1
check "-m 3: the rounding to 4 pages is said without -v" grep -q "rounding up to 4 pages" m3.log

timeout 60 "$auxrec" script --itrace=xyz -i dir >itrace.log 2>&1
check "--itrace=xyz names the valid part to keep" \
	grep -q "'xy', is valid on its own: keep it and fix or drop what follows" itrace.log
check "... not a reordering of it" [ "$(grep -c "reads as" itrace.log)" = 0 ]
exit $fail
