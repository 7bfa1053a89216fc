#!/bin/bash
# auxrec as a user runs it: info, recordings that must work here, and requests that must fail
# with a message that names the cause — exit non-zero, nothing half-done, no tracing state left.
set -u
cd "$(dirname "$0")/../.."
. tests/scripts/check-lib.sh
needs_tracefs "system-wide perf events, tracefs"
instances_before=$(ls --duration "$tracefs"/instances/auxrec-* 2>/dev/null)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

timeout 30 "$auxrec" info >"$out/info" 2>&1
check "info exits 0" [ $? -eq 0 ]
check "info names the kernel" grep -q "^kernel: *Linux" "$out/info"
check "info lists the software PMU" grep -qE "^  software +type 1" "$out/info"
check "info says no PMU here can produce AUX data" grep -q "^AUX-capable PMUs: *none" "$out/info"
check "info reports ring-buffer mapping" grep -q "^ring-buffer mapping: *supported" "$out/info"
check "info reports perf_event_paranoid" grep -q "^perf_event_paranoid:" "$out/info"
check "info reports mlock limits" grep -q "^perf_event_mlock_kb:" "$out/info"

# Per-CPU recording of a command with a known number of tracepoint hits.
timeout 60 "$auxrec" record -o "$out/d1" -e syscalls:sys_enter_getpgid -- "$loop" 1000 -1 getpgid >"$out/rec" 2>&1
check "record of a command exits 0" [ $? -eq 0 ]
samples=$(timeout 60 perf script -i "$out/d1/perf.data" 2>/dev/null | grep -c sys_enter_getpgid)
check "perf script finds exactly the 1000 samples the command produced (got '$samples')" \
	[ "$samples" = 1000 ]
total=$(awk '$1 == "total" { print $2 }' "$out/rec")
check "the summary counts them and the side-band records (got '$total')" [ "${total:-0}" -gt 1000 ]
lost=$(awk '$1 == "total" { print $4 }' "$out/rec")
check "record lost nothing" [ "$lost" = 0 ]
ncpu=$(nproc)
rows=$(awk '$1 ~ /^[0-9]+$/' "$out/rec" | wc -l)
check "one row per online CPU ($rows of $ncpu)" [ "$rows" -eq "$ncpu" ]

# -a with a command records every task for as long as the command runs. The other process
# runs its loop once the command has started (the events are on by then) and the command
# waits for it to end: no sleep guesses how long either takes on a busy machine.
( until [ -e "$out/go" ]; do sleep 0.01; done; "$loop" 500 -1 getpgid; touch "$out/done" ) &
timeout 60 "$auxrec" record -o "$out/d2" -a -e syscalls:sys_enter_getpgid -- \
	sh -c "touch '$out/go'; until [ -e '$out/done' ]; do sleep 0.01; done" >"$out/sysw" 2>&1
check "-a with a command exits 0" [ $? -eq 0 ]
touch "$out/go" "$out/done"	# the loop does not outlive a recording that failed to start
wait
sw=$(awk '$1 == "total" { print $2 }' "$out/sysw")
check "-a with a command sees another process's 500 calls (got '$sw')" [ "${sw:-0}" -ge 500 ]

timeout 60 "$auxrec" record -o "$out/d3" -a -e cpu-clock --duration 0.3 >"$out/sys" 2>&1
check "system-wide recording for 0.3 s exits 0" [ $? -eq 0 ]
check "system-wide cpu-clock delivered samples" awk '$1 == "total" && $2 > 0 { ok = 1 } END { exit !ok }' "$out/sys"

# ftrace side: the same tracepoint through a tracefs instance of auxrec's own.
timeout 60 "$auxrec" record -o "$out/d4" --ftrace syscalls:sys_enter_getppid -- "$loop" 500 0 >"$out/ft" 2>&1
check "ftrace recording exits 0" [ $? -eq 0 ]
ft=$(awk '$1 == "total" { print $5 }' "$out/ft")
check "ftrace delivered at least the command's 500 events (got '$ft')" [ "${ft:-0}" -ge 500 ]
check "ftrace reads by splice unless told otherwise" grep -q "^ftrace rings read splice" "$out/ft"

# Requests that cannot work here fail clearly.
timeout 30 "$auxrec" record -o "$out/d5" -e intel_pt//u -- true >"$out/pt" 2>&1
check "intel_pt on a machine without it exits non-zero" [ $? -ne 0 ]
check "... and says there is no intel_pt PMU" grep -qi "intel_pt" "$out/pt"
check "... and which AUX-capable PMUs exist" grep -qi "AUX-capable PMUs.*none" "$out/pt"
check "... and leaves no output directory" [ ! -e "$out/d5" ]

timeout 30 "$auxrec" record -o "$out/d6" -e cpu-clock -m ,16 -- true >"$out/aux" 2>&1
check "an AUX area on cpu-clock exits non-zero" [ $? -ne 0 ]
check "... naming the PMU and that it cannot produce AUX data" \
	grep -qE "cpu-clock \(PMU software\) cannot produce AUX (area )?data" "$out/aux"

timeout 30 "$auxrec" record -o "$out/d7" -C 3-1 -e cpu-clock --duration 0.1 >"$out/cpus" 2>&1
check "a reversed CPU range is refused" [ $? -ne 0 ]
timeout 30 "$auxrec" record -o "$out/d8" -e no-such-event -- true >"$out/ev" 2>&1
check "an unknown event is refused, by name" grep -q "no-such-event" "$out/ev"

# The command lines of the hostile-user review: each one fails before anything is created,
# saying what is wrong and what to give instead.
online=$(nproc)
bad() {	# bad PATTERN ARGS...: auxrec record ARGS exits non-zero, says PATTERN, makes no files
	local want=$1 rc said=false; shift
	rm -rf "$out/bad"
	timeout 30 "$auxrec" record -o "$out/bad" "$@" >"$out/bad.log" 2>&1
	rc=$?
	grep -qE -- "$want" "$out/bad.log" && said=true
	check "record $* is refused (exit $rc), saying /$want/" \
		eval "[ $rc -ne 0 ] && [ $rc -ne 124 ] && $said"
	check "... and leaves no output directory" [ ! -e "$out/bad" ]
}
bad "--duration 'nan': give a positive, finite number of seconds" -e cpu-clock -a --duration nan
bad "--duration 'inf': give a positive, finite number" -e cpu-clock -a --duration inf
bad "--duration '1e999': give a positive, finite number" -e cpu-clock -a --duration 1e999
bad "-p '4294967297': not a process id" -e cpu-clock -p 4294967297
bad "-p and -a exclude each other" -e cpu-clock -a -p 1
bad "-p and -C exclude each other" -e cpu-clock -C 0 -p 1
bad "--per-thread and -a exclude each other" -e cpu-clock --per-thread -a -- true
bad "--per-thread and -C exclude each other" -e cpu-clock --per-thread -C 0 -- true
bad "-C '': the CPU list is empty" -e cpu-clock -C '' --duration 0.1
bad "-C '$online': not every CPU in it is online \(online CPUs: " -e cpu-clock -C "$online" --duration 0.1
bad "refused: system and event are names" -a --duration 0.1 --ftrace '../../../events/syscalls:sys_enter_getppid'
bad "refused: system and event are names" -a --duration 0.1 --ftrace 'syscalls:../../../events/syscalls/sys_enter_getppid'
check "... and the top level's sys_enter_getppid stays off" \
	[ "$(cat "$tracefs/events/syscalls/sys_enter_getppid/enable")" = 0 ]
bad "-k 'sundial': not a clock perf records with" -e cpu-clock -a --duration 0.1 -k sundial
bad "-k realtime: ftrace has no such clock" -a --duration 0.1 -k realtime --ftrace sched:sched_switch
# -k: the events on that clock, said in perf.data's header, and the ftrace instance on it too
timeout 60 "$auxrec" record -o "$out/k" -k monotonic -e cpu-clock --ftrace sched:sched_switch \
	-- "$loop" 200000 >"$out/k.log" 2>&1
check "-k monotonic exits 0" [ $? -eq 0 ]
check "... perf report --header-only: clockid monotonic" \
	bash -c "timeout 60 perf report -i '$out/k/perf.data' --header-only 2>/dev/null | grep -q 'clockid: monotonic (1)'"
check "... and trace.dat's clock is mono" \
	bash -c "'$auxrec' report '$out/k' | grep -q '^  trace clock  mono\$'"
# out of file descriptors at any step of the start: the cause and the fix, never a wrong one
for n in 10 12 14 18; do
	rm -rf "$out/fd"
	(ulimit -n $n; timeout 30 "$auxrec" record -o "$out/fd" --ftrace sched:sched_switch -- true) \
		>"$out/fd.log" 2>&1
	rc=$?
	check "ulimit -n $n: refused (exit $rc), naming ulimit -n ($(tail -1 "$out/fd.log"))" \
		eval "[ $rc -ne 0 ] && grep -q 'raise ulimit -n' '$out/fd.log'"
done
# --ftrace takes libtracefs' patterns: the formats of what matched are in trace.dat
timeout 60 "$auxrec" record -o "$out/pat" --ftrace 'syscalls:sys_enter_getp.id' -- "$loop" 100 -1 \
	>"$out/pat.log" 2>&1
check "--ftrace with a pattern exits 0" [ $? -eq 0 ]
n=$(timeout 60 trace-cmd report -i "$out/pat/trace.dat" 2>/dev/null | grep -c 'getppid-loop.*sys_enter_getppid:')
check "... and trace-cmd report shows the 100 matched events by name (got $n)" [ "$n" -eq 100 ]

# Left behind: an instance that was not there before and whose auxrec is gone (other runs
# of auxrec on this machine may hold live ones).
left=""
for inst in $(ls --duration "$tracefs"/instances/auxrec-* 2>/dev/null); do
	grep -qxF "$inst" <<<"$instances_before" && continue
	pid=${inst##*/auxrec-}
	pid=${pid%%.*}	# auxrec-PID.N: the name was taken
	[ "$(cat /proc/"$pid"/comm 2>/dev/null)" = auxrec ] || left="$left $inst"
done
check "no auxrec tracefs instance left behind${left:+:$left}" [ -z "$left" ]
for f in "$out"/*; do echo "== $f"; cat "$f"; done | head -120
exit $fail
