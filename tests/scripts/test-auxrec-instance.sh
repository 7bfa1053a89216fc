#!/bin/bash
# An instance that is ours alone: auxrec records only in a tracefs instance it created, and
# removes only that one. An instance that has the name auxrec would give (planted by a user,
# an event enabled in it) is neither recorded from nor removed: auxrec takes auxrec-PID.1.
set -u
cd "$(dirname "$0")/../.."
. tests/scripts/check-lib.sh
needs_tracefs "auxrec's ftrace side"
out=$(mktemp -d)
planted=""
cleanup() {
	if [ -n "$planted" ] && [ -d "$planted" ]; then
		echo 0 >"$planted/events/syscalls/sys_enter_getppid/enable"
		rmdir "$planted"
	fi
	rm -rf "$out"
}
trap cleanup EXIT

# The shell plants instances/auxrec-$$ with an event enabled, then becomes auxrec: same pid,
# so auxrec would name its instance exactly so, and the name's owner is a live auxrec.
timeout 60 sh -c 'd=$1/instances/auxrec-$$
	mkdir "$d" && echo "$d" >"$2/planted" &&
	echo 1 >"$d/events/syscalls/sys_enter_getppid/enable" &&
	exec "$3" record -o "$2/rec" --ftrace sched:sched_process_exit -- "$4" 300' \
	sh "$tracefs" "$out" "$auxrec" "$loop" >"$out/log" 2>&1
rc=$?
planted=$(cat "$out/planted" 2>/dev/null)
check "a recording beside a planted instance of its name exits 0" [ $rc -eq 0 ]
check "the planted instance is still there" test -n "$planted" -a -d "$planted"
check "... its event still enabled" grep -qx 1 "$planted/events/syscalls/sys_enter_getppid/enable"
check "... and its 300 getppid events are in its buffer, not taken" \
	[ "$(grep -c 'getppid-loop.*sys_getppid' "$planted/trace" 2>/dev/null)" -ge 300 ]
check "auxrec says it recorded in another instance, and left that one alone" \
	grep -q "^auxrec: warning: tracefs instance auxrec-[0-9]* exists and is not this recording's: recording in auxrec-[0-9]*\.1 instead" "$out/log"
check "auxrec removed the instance it made" [ ! -e "$planted.1" ]
timeout 60 trace-cmd report -i "$out/rec/trace.dat" >"$out/report" 2>&1
n=$(grep -c ' sched_process_exit: ' "$out/report")
check "trace.dat holds the asked event (sched_process_exit: $n)" [ "$n" -ge 1 ]
n=$(grep -c ' sys_enter_getppid: ' "$out/report")
check "trace.dat holds no event nobody asked for (sys_enter_getppid: $n)" [ "$n" -eq 0 ]
for f in "$out"/log "$out"/report; do echo "== $f"; head -20 "$f"; done
exit $fail
