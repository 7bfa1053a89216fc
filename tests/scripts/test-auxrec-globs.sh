#!/bin/bash
# auxrec record's event patterns as perf and trace-cmd users type them: globs on system and
# event for --ftrace and for tracepoint -e, a bare system for --ftrace (trace-cmd -e sched),
# a regular expression where the glob matches nothing (what --ftrace took before), and the
# closest names when nothing matches. What each pattern switched on is read from auxrec's
# own instance while it records (its set_event, printed by the workload) and from perf
# evlist, against the kernel's list of events (available_events) matched by bash itself.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
. tests/scripts/check-lib.sh
needs_root "ftrace events"
needs_tools perf
tracing=/sys/kernel/tracing
[ -r $tracing/available_events ] || { echo "SKIP: no tracefs at $tracing"; exit 77; }
in_tmpdir

# expected SYSGLOB EVENTGLOB: the events of available_events both globs match, sorted
expected() {
	local sys ev
	while IFS=: read -r sys ev; do
		# shellcheck disable=SC2053
		[[ $sys == $1 && $ev == $2 ]] && echo "$sys:$ev"
	done <$tracing/available_events | sort
}

# ftrace_enabled SPEC: what auxrec's instance has switched on while it records SPEC
ftrace_enabled() {
	timeout 60 "$auxrec" record -o ft --ftrace "$1" -- \
		sh -c 'cat /sys/kernel/tracing/instances/auxrec-$PPID/set_event' 2>ft.log | sort
}

for spec in 'syscalls:sys_enter_*' 'sched:*' 'sched' '*:*switch*' 'sched:sched_wak?ng' \
	    'irq:irq_handler_[ae]*'; do
	sys=${spec%%:*}
	ev=${spec#*:}
	[ "$sys" = "$spec" ] && ev='*'
	want=$(expected "$sys" "$ev")
	got=$(ftrace_enabled "$spec")
	check "--ftrace '$spec' switches on the $(echo "$want" | wc -l) events available_events has for it" \
		same "$want" "$got"
	[ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | head -5
done

# a regular expression, for which the glob finds nothing: as before globs
got=$(ftrace_enabled 'syscalls:sys_enter_getpp.*')
check "--ftrace 'syscalls:sys_enter_getpp.*' (a regex) still switches on sys_enter_getppid" \
	[ "$got" = "syscalls:sys_enter_getppid" ]
timeout 60 trace-cmd report ft/trace.dat >/dev/null 2>&1
check "... and trace-cmd reads the recording" [ $? -eq 0 ]

timeout 60 "$auxrec" record -o typo --ftrace 'sched:sched_swich' -- true >typo.log 2>&1
check "a misspelt --ftrace event exits 1" [ $? -eq 1 ]
check "... naming the closest events, the right one first" \
	grep -q "sched:sched_swich': no ftrace event matches; closest: sched:sched_switch, " typo.log
check "... in one line, not a library error beside it" [ "$(wc -l <typo.log)" = 1 ]
timeout 60 "$auxrec" record -o typo --ftrace 'shced' -- true >typo.log 2>&1
check "a misspelt --ftrace system names the closest systems" \
	grep -q "'shced': no ftrace event matches; closest: sched:\*" typo.log

# tracepoint -e: one perf event per match, as perf record -e 'sched:*' makes them
for spec in 'sched:*' '*:*switch*' 'syscalls:sys_enter_getp*'; do
	want=$(expected "${spec%%:*}" "${spec#*:}")
	timeout 60 "$auxrec" record -o pe -e "$spec" -- true >pe.log 2>&1
	got=$(timeout 60 perf evlist -i pe/perf.data 2>/dev/null | grep -v '^#' | sort)
	check "-e '$spec' records the $(echo "$want" | wc -l) tracepoints available_events has for it" \
		same "$want" "$got"
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got") | head -5; cat pe.log; }
done
timeout 60 "$auxrec" record -o pe -e 'sched:sched_wakeup*:u' -- true >pe.log 2>&1
check "-e with a pattern takes modifiers for each event" \
	[ "$(timeout 60 perf evlist -v -i pe/perf.data 2>/dev/null | grep -c 'exclude_kernel: 1')" = \
	  "$(expected sched 'sched_wakeup*' | wc -l)" ]
timeout 60 "$auxrec" record -o pe -e 'sched:sched_wakx*' -- true >pe.log 2>&1
check "-e with a pattern that matches nothing exits 1 naming the closest" \
	grep -q "no tracepoint matches 'sched:sched_wakx\*'; closest: sched:sched_wak" pe.log
exit $fail
