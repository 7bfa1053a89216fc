#!/bin/bash
# auxrec record -z: a known workload recorded plain and compressed; perf 6.1 and auxrec read
# the same events from both, and the compressed file is the smaller.
set -u
cd "$(dirname "$0")/../.."
. tests/scripts/check-lib.sh
needs_root "tracepoints"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
N=20000

# What perf script shows of the workload's calls, with the fields that do not change between
# runs (cpu-clock samples do).
events() {
	timeout 60 perf script -i "$1" -F comm,event,trace 2>/dev/null | grep sys_enter_getpgid |
		sort | uniq -c
}

for z in plain -z --compression-level=3; do
	opt=$z; [ "$z" = plain ] && opt=
	# rings that hold the whole recording: the test is of the files, not of the machine's speed
	timeout 60 "$auxrec" record $opt -m 1024 -o "$out/$z" -e syscalls:sys_enter_getpgid -e cpu-clock \
		-- "$loop" $N -1 getpgid >"$out/$z.log" 2>&1
	check "record $z exits 0" [ $? -eq 0 ]
	n=$(timeout 60 perf script -i "$out/$z/perf.data" 2>/dev/null | grep -c sys_enter_getpgid)
	check "perf script of the $z file shows the $N calls (got '$n')" [ "$n" = $N ]
	a=$(timeout 60 "$auxrec" script "$out/$z/perf.data" 2>/dev/null | grep -c sys_enter_getpgid)
	check "auxrec script of the $z file shows them too (got '$a')" [ "$a" = $N ]
done
check "perf script prints the same calls of both" \
	[ "$(events "$out/plain/perf.data")" = "$(events "$out/-z/perf.data")" ]
check "perf report --header shows -z's level" eval "timeout 60 perf report --header-only \
	-i '$out/-z/perf.data' 2>/dev/null | grep -q '^# compressed : Zstd, level = 1, ratio = '"
check "... and --compression-level=3's" eval "timeout 60 perf report --header-only \
	-i '$out/--compression-level=3/perf.data' 2>/dev/null | grep -q 'level = 3, ratio = '"
plain=$(stat -c %s "$out/plain/perf.data"); small=$(stat -c %s "$out/-z/perf.data")
check "the compressed file is at least 3x smaller ($small of $plain bytes)" [ $((small * 3)) -lt "$plain" ]
timeout 60 perf report -D -i "$out/-z/perf.data" >"$out/dump.txt" 2>&1
n=$(grep -c 'PERF_RECORD_SAMPLE' "$out/dump.txt")
check "perf report -D decodes every sample of it ($n)" eval "[ $n -gt $N ] && \
	! grep -qi 'failed to process' '$out/dump.txt'"

# -z in perf's pipe format: perf script reads it from the pipe as it is written
n=$(timeout 60 "$auxrec" record -z -m 1024 -o - -e syscalls:sys_enter_getpgid -- "$loop" $N -1 getpgid \
	2>"$out/pipe.log" | timeout 60 perf script -i - 2>/dev/null | grep -c sys_enter_getpgid)
check "-z -o - | perf script -i - shows the $N calls (got '$n')" [ "$n" = $N ]

# A level too slow for the rings: what a push holds past the compressor's time budget is
# stored plain, said, and every call is still there (big rings: the budget, not the ring,
# is what is tested).
timeout 120 "$auxrec" record --compression-level=22 -m 1024 -o "$out/slow" \
	-e syscalls:sys_enter_getpgid -- "$loop" $N -1 getpgid >"$out/slow.log" 2>&1
check "-z 22 exits 0" [ $? -eq 0 ]
check "... says what it stored uncompressed" grep -q 'KiB stored uncompressed' "$out/slow.log"
n=$(timeout 60 perf script -i "$out/slow/perf.data" 2>/dev/null | grep -c sys_enter_getpgid)
check "... and perf script shows the $N calls (got '$n')" [ "$n" = $N ]
a=$(timeout 60 "$auxrec" script "$out/slow/perf.data" 2>/dev/null | grep -c sys_enter_getpgid)
check "... and auxrec script too (got '$a')" [ "$a" = $N ]

# trace.dat: version 7 with zstd sections, as trace-cmd 3.x writes it; trace-cmd report and
# auxrec report read the same events as from the plain one. The instance sees every task's
# calls (other tests may run getppid-loop too): the workload is the pid with the most.
for z in plain -z; do
	opt=$z; [ "$z" = plain ] && opt=
	timeout 60 "$auxrec" record $opt -o "$out/ft$z" --ftrace syscalls:sys_enter_getppid \
		--ftrace-buffer-kb 4096 -- "$loop" $N >"$out/ft$z.log" 2>&1
	check "ftrace record $z exits 0" [ $? -eq 0 ]
	timeout 60 trace-cmd report -i "$out/ft$z/trace.dat" >"$out/ft$z.txt" 2>"$out/ft$z.err"
	check "trace-cmd report reads the $z trace.dat without a complaint" \
		eval "[ $? -eq 0 ] && ! grep -v '^cpus=' '$out/ft$z.err' | grep -q ."
	n=$(grep -o 'getppid-loop-[0-9]* .*sys_enter_getppid:' "$out/ft$z.txt" |
		awk '{ print $1 }' | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
	check "... and shows the workload's $N calls (got '$n')" [ "$n" = $N ]
	t=$(grep -c 'sys_enter_getppid:' "$out/ft$z.txt")
	a=$(timeout 60 "$auxrec" report "$out/ft$z" 2>/dev/null |
		awk '$1 == "ftrace" && $2 == "events" { print $4 }')
	check "auxrec report reads as many events as trace-cmd ($a of $t)" [ "$a" = "$t" ]
done
check "the -z trace.dat is version 7 with zstd" eval "timeout 30 trace-cmd dump --summary \
	-i '$out/ft-z/trace.dat' 2>&1 | grep -q 'zstd.*Compression algorithm'"
plain=$(stat -c %s "$out/ftplain/trace.dat"); small=$(stat -c %s "$out/ft-z/trace.dat")
check "the compressed trace.dat is at least 3x smaller ($small of $plain bytes)" [ $((small * 3)) -lt "$plain" ]

for bad in --compression-level=0 --compression-level=23 -zx; do
	timeout 10 "$auxrec" record $bad -o "$out/bad" -- true >"$out/bad.log" 2>&1
	check "$bad is refused with the range" eval "[ $? -ne 0 ] && grep -q '1 (fastest' '$out/bad.log' \
		&& [ ! -e '$out/bad' ]"
done
[ $fail = 0 ] || for f in "$out"/*.log; do echo "== $f"; cat "$f"; done | head -60
exit $fail
