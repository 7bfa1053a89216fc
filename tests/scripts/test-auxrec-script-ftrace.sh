#!/bin/bash
# auxrec script on a trace.dat against trace-cmd report 3.1.6 (always under timeout), line for
# line, with nothing normalised:
#  - a recording auxrec made system-wide of sched_switch and sched_wakeup (libtraceevent's
#    plugin prints them), sched_waking, syscalls (getppid's, openat's) and trace_marker writes
#    (their print formats take the compiled path), through an 8 KiB buffer that the marker
#    burst overruns: the drop marks are trace-cmd's too;
#  - the same file rewritten by trace-cmd convert (a trace.dat trace-cmd wrote);
#  - a directory holding only a trace.dat reads as that file;
#  - a damaged sub-buffer: exit 1, an error naming the file and the sub-buffer's offset, and
#    the lines before it printed (a prefix of the whole file's); a truncated file: an error
#    naming the file, no crash.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
workload=$PWD/$B/tests/progs/marker-getppid
. tests/scripts/check-lib.sh
needs_tracefs "ftrace events"
needs_tools trace-cmd
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$out" || exit 1

same_as_trace_cmd() {	# same_as_trace_cmd FILE: auxrec script FILE == trace-cmd report FILE
	timeout 60 trace-cmd report -i "$1" >"$1.tc" 2>/dev/null &&
		timeout 60 "$auxrec" script "$1" >"$1.ax" 2>"$1.err" &&
		cmp -s "$1.tc" "$1.ax" ||
		{ diff "$1.tc" "$1.ax" | head -5; false; }
}

timeout 60 "$auxrec" record -o rec -a -e dummy --ftrace-buffer-kb 8 --ftrace-mode read \
	--ftrace sched:sched_switch --ftrace sched:sched_wakeup --ftrace sched:sched_waking \
	--ftrace ftrace:print \
	--ftrace syscalls:sys_enter_getppid --ftrace syscalls:sys_exit_getppid \
	--ftrace syscalls:sys_enter_openat --ftrace syscalls:sys_exit_openat \
	-- sh -c "$workload 20000 2000 200; cat /dev/null" >rec.log 2>&1
check "auxrec record exits 0" [ $? -eq 0 ]
t=rec/trace.dat
check "auxrec script prints the trace.dat as trace-cmd report does" same_as_trace_cmd $t
for what in 'sched_switch:' 'sched_wakeup:' 'sched_waking:' 'sys_enter_getppid:' 'sys_exit_getppid:' \
	    'sys_enter_openat:' 'tracing_mark_write: auxtrace-marker' 'EVENTS DROPPED]'; do
	check "... with lines of $what ($(grep -c -- "$what" $t.ax))" grep -q -- "$what" $t.ax
done

mkdir alone && cp $t alone/
timeout 60 "$auxrec" script alone >alone.ax 2>&1
check "a directory holding only a trace.dat reads as that file" cmp -s alone.ax $t.ax

timeout 60 trace-cmd convert -i $t -o converted.dat --file-version 6 >/dev/null 2>&1
check "trace-cmd convert wrote a trace.dat" [ -s converted.dat ]
check "auxrec script prints the trace.dat trace-cmd wrote as trace-cmd report does" \
	same_as_trace_cmd converted.dat

# the sub-buffer in the middle of the last CPU's data gets a commit word of 0xffffff bytes
read -r data size < <(timeout 60 trace-cmd dump --flyrecord -i $t 2>/dev/null |
		      awk '/offset, size of cpu/ { o = $1; s = $2 } END { print o, s }')
page=$(( data + size / 2 / 4096 * 4096 ))
cp $t damaged.dat
printf '\xff\xff\xff\x00' | dd of=damaged.dat bs=1 seek=$((page + 8)) conv=notrunc status=none
timeout 60 "$auxrec" script damaged.dat >damaged.out 2>damaged.err
rc=$?
check "a damaged sub-buffer: exit 1" [ $rc -eq 1 ]
check "... an error naming the file and the sub-buffer's offset ($(printf 0x%x $page))" \
	grep -q "damaged.dat.*offset $(printf 0x%x $page)" damaged.err
lines=$(wc -l <damaged.out)
printed_before() { [ "$lines" -gt 1 ] && cmp -s damaged.out <(head -n "$lines" $t.ax); }
check "... the $lines lines before it printed, as the whole file has them" printed_before
head -c 5000 $t >truncated.dat
timeout 60 "$auxrec" script truncated.dat >truncated.out 2>truncated.err
rc=$?
check "a truncated file: exit 1, no crash ($rc)" [ $rc -eq 1 ]
check "... an error naming the file" grep -q "truncated.dat" truncated.err
cat damaged.err truncated.err
exit $fail
