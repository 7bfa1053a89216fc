#!/bin/bash
# auxrec record's ftrace events of the recorded process only, as trace-cmd record -P PID -F:
# with a command or -p, set_event_pid of auxrec's instance keeps the events of that process
# and of the tasks it forks; --ftrace-all-tasks keeps every task's. Counted with trace-cmd
# report: getppid calls of the recorded process and its child against those of another
# process that runs at the same time, each making a known number of calls.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
loop=$PWD/$B/tests/progs/getppid-loop
. tests/scripts/check-lib.sh
needs_root "ftrace events"
needs_tools trace-cmd
in_tmpdir

# calls FILE: "PID COUNT" of sys_enter_getppid events per pid in a trace.dat
calls() {
	timeout 60 trace-cmd report "$1" 2>/dev/null | awk '/sys_enter_getppid:/ {
		n = split($1, a, "-"); c[a[n]]++ } END { for (p in c) print p, c[p] }'
}
count_of() {	# count_of PID FILE-OF-CALLS
	awk -v p="$1" '$1 == p { print $2 }' "$2"
}
others() {	# others PID... < calls: the sum over every other pid
	awk -v skip=" $* " 'index(skip, " " $1 " ") == 0 { s += $2 } END { print s + 0 }'
}

# record ARGS...: the command makes 300 calls in a child of its shell and 200 itself (its
# shell's own getppid at start up, if any, besides), while another process makes 700 calls
# (released by the command, which waits for it to end)
record() {
	rm -f go done; mkfifo go done
	( read -r _ <go; exec "$loop" 700 ) &
	bg=$!
	timeout 60 "$auxrec" record -o rec "$@" --ftrace syscalls:sys_enter_getppid -- \
		sh -c "echo \$\$ >cmd.pid; echo >go; $loop 300 & echo \$! >child.pid;
		       wait; read -r _ <done; exec $loop 200" >rec.log 2>&1 &
	rec=$!
	wait $bg
	echo >done
	wait $rec
	status=$?
	calls rec/trace.dat >calls.txt
	cmd=$(cat cmd.pid); child=$(cat child.pid)
}

record
check "a command with --ftrace exits 0" [ $status -eq 0 ]
own=$(count_of "$cmd" calls.txt)
check "... keeps the command's own 200 calls (got $own)" [ "${own:-0}" -ge 200 ]
check "... and the 300 of the child it forked (got $(count_of "$child" calls.txt))" \
	[ "$(count_of "$child" calls.txt)" = 300 ]
check "... and none of the other process's 700 (got $(others "$cmd" "$child" <calls.txt))" \
	[ "$(others "$cmd" "$child" <calls.txt)" = 0 ]
check "... and the summary says whose events they are" \
	grep -q "events of pid $cmd and its children only (--ftrace-all-tasks" rec.log

record --ftrace-all-tasks
check "--ftrace-all-tasks: the command's calls ($own)" [ "$(count_of "$cmd" calls.txt)" = "$own" ]
check "... its child's 300" [ "$(count_of "$child" calls.txt)" = 300 ]
check "... and the other process's 700 too (got $(count_of "$bg" calls.txt))" \
	[ "$(count_of "$bg" calls.txt)" = 700 ]
check "... and the summary says every task's" grep -q "; events of every task" rec.log

# -p: a running process's events, not those of the ones around it
# a FIFO each: two readers of one FIFO may both take the first line, leaving the second
# echo waiting for a reader for ever
mkfifo go2 go3
( read -r _ <go2; exec "$loop" 400 ) &
target=$!
( read -r _ <go3; exec "$loop" 600 ) &
other=$!
timeout 60 "$auxrec" record -o p -p "$target" --ftrace syscalls:sys_enter_getppid >p.log 2>&1 &
recp=$!
# the recording is on once its instance has the pid and tracing on: then release both. The
# instance is auxrec's, named after auxrec's pid, not timeout's ($recp): the auxrec instance
# with the target's pid (waiting for auxrec-$recp, which never came, was a 10 s sleep)
for _ in $(seq 600); do
	inst=$(grep -lw "$target" /sys/kernel/tracing/instances/auxrec-*/set_event_pid 2>/dev/null)
	[ -n "$inst" ] && [ "$(cat "${inst%/set_event_pid}/tracing_on" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
echo >go2; echo >go3
wait $target $other
wait $recp
calls p/trace.dat >pcalls.txt
check "-p PID: its 400 calls (got $(count_of "$target" pcalls.txt))" \
	[ "$(count_of "$target" pcalls.txt)" = 400 ]
check "... none of the other process's 600 (got $(count_of "$other" pcalls.txt))" \
	[ -z "$(count_of "$other" pcalls.txt)" ]
exit $fail
