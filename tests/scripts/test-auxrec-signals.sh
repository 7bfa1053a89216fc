#!/bin/bash
# Whatever ends auxrec record short of SIGKILL, it leaves no tracing state behind: every
# catchable signal at random moments (start-up included), 100 runs; -p ends when the process
# does; a workload that ignores SIGTERM does not keep auxrec waiting; an instance an auxrec
# killed with SIGKILL left behind is removed by the next run.
set -u
# Job control: background jobs then keep SIGINT and SIGQUIT (without it they start ignoring
# them, and auxrec leaves signals ignored at its start ignored, as nohup needs, but for INT
# and TERM).
set -m
cd "$(dirname "$0")/../.."
. tests/scripts/check-lib.sh
needs_tracefs "system-wide perf events, tracefs instances"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 100 runs: a random catchable signal 0-99 ms after auxrec's exec (its start-up, handlers
# first, is the first ~30 ms here). Without a terminal, bash cannot turn job control on, and
# a background job starts with SIGQUIT and SIGINT ignored. auxrec keeps SIGQUIT ignored as it
# keeps nohup's SIGHUP (tested below), and a SIGINT that comes before it catches SIGINT is
# lost (under ASan, whose start-up is slower, one run in 100 recorded its full 5 s): so both
# are set back to their defaults for these runs, as a terminal's shell starts its jobs.
signals=(INT TERM HUP QUIT USR1 USR2 PIPE ALRM VTALRM PROF XCPU XFSZ)
left=0 survived=0
for run in $(seq 1 100); do
	sig=${signals[$((RANDOM % ${#signals[@]}))]}
	delay=$((RANDOM % 100))
	env --default-signal=QUIT,INT "$auxrec" record -a -e cpu-clock --ftrace sched:sched_switch \
		--duration 5 -o "$tmp/out" >/dev/null 2>"$tmp/err" &
	pid=$!
	# once it is auxrec (a signal to the shell's child before its exec is the shell's)
	until [ "$(readlink /proc/"$pid"/exe 2>/dev/null)" = "$(readlink -f "$auxrec")" ]; do
		kill -0 "$pid" 2>/dev/null || break
	done
	sleep "$(printf '0.%03d' "$delay")"
	kill -"$sig" "$pid" 2>/dev/null
	# a stop is not a hang: the recording must end well before its 5 s
	for _ in $(seq 1 300); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.01
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "run $run: SIG$sig after ${delay} ms did not stop auxrec within 3 s"
		survived=$((survived + 1))
		kill -KILL "$pid"
	fi
	wait "$pid" 2>/dev/null
	if [ -d "$tracefs/instances/auxrec-$pid" ]; then
		echo "run $run: SIG$sig after ${delay} ms left instances/auxrec-$pid"
		left=$((left + 1))
		rmdir "$tracefs/instances/auxrec-$pid"
	fi
done
check "100 random signals: no instance left behind ($left left)" [ "$left" -eq 0 ]
check "100 random signals: each stopped auxrec promptly ($survived did not)" [ "$survived" -eq 0 ]

# A signal ignored when auxrec starts (nohup ignores SIGHUP) stays ignored.
nohup "$auxrec" record -a -e cpu-clock --duration 0.5 -o "$tmp/n" >"$tmp/n.log" 2>&1 &
pid=$!
until [ "$(readlink /proc/"$pid"/exe 2>/dev/null)" = "$(readlink -f "$auxrec")" ]; do
	kill -0 "$pid" 2>/dev/null || break
done
sleep 0.1
kill -HUP "$pid"
wait "$pid"
check "under nohup, SIGHUP does not stop the recording (exit $?)" \
	grep -q "ended because the duration" "$tmp/n.log"

# SIGINT is caught even when auxrec starts with it ignored, as perf record does: a script's
# background job (no job control) starts so, and scripts stop such a recording with kill -INT.
set +m
"$auxrec" record -a -e cpu-clock --duration 10 -o "$tmp/bg" >"$tmp/bg.log" 2>&1 &
pid=$!
set -m
until [ "$(readlink /proc/"$pid"/exe 2>/dev/null)" = "$(readlink -f "$auxrec")" ]; do
	kill -0 "$pid" 2>/dev/null || break
done
sleep 0.3
kill -INT "$pid"
for _ in $(seq 1 300); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.01
done
kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
wait "$pid"
check "kill -INT stops a background job that started with SIGINT ignored (exit $?)" \
	grep -q "ended because.*Interrupt" "$tmp/bg.log"

# A second ^C aborts the final drain, and the files are still whole: perf and trace-cmd read them.
"$auxrec" record -a -e cpu-clock --ftrace sched:sched_switch --duration 10 -o "$tmp/ab" \
	>"$tmp/ab.log" 2>&1 &
pid=$!
# recording: trace.dat's spool has its description (written at the start, 5 MB of kallsyms)
for _ in $(seq 1 1000); do
	[ -e "$tmp/ab/trace.dat.spool/clock" ] && break
	sleep 0.01
done
sleep 0.3
kill -INT "$pid"; kill -INT "$pid"
wait "$pid"
check "two SIGINTs: auxrec dies of SIGINT (exit $?)" [ $? -eq 130 ]
check "... leaves no instance" [ ! -d "$tracefs/instances/auxrec-$pid" ]
timeout 60 perf report -D -i "$tmp/ab/perf.data" >/dev/null 2>&1
check "... and perf report -D reads its perf.data" [ $? -eq 0 ]
timeout 60 trace-cmd report -i "$tmp/ab/trace.dat" >/dev/null 2>&1
check "... and trace-cmd report its trace.dat" [ $? -eq 0 ]

# -p ends when every thread of the process has exited, as perf record does.
sleep 0.5 &
target=$!
timeout 20 "$auxrec" record -p "$target" -e cpu-clock -o "$tmp/p" >"$tmp/p.log" 2>&1
check "-p ends by itself when the process exits" [ $? -eq 0 ]
wait "$target"

# A workload that ignores SIGTERM: after ^C auxrec kills it rather than wait for ever.
"$auxrec" record -e cpu-clock -o "$tmp/w" -- bash -c 'trap "" TERM; sleep 30' \
	>"$tmp/w.log" 2>&1 &
pid=$!
sleep 0.3
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
check "a workload that ignores SIGTERM is killed, auxrec ends (${elapsed_ms} ms)" \
	[ "$elapsed_ms" -lt 10000 ]
check "... and says so" grep -q "ignored SIGTERM" "$tmp/w.log"

# An instance whose auxrec died by SIGKILL is removed, with a message, by the next run.
"$auxrec" record -a --ftrace sched:sched_switch --duration 10 -o "$tmp/k" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
	[ -d "$tracefs/instances/auxrec-$pid" ] && break
	sleep 0.01
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL leaves the instance (nothing can prevent that)" \
	[ -d "$tracefs/instances/auxrec-$pid" ]
timeout 20 "$auxrec" record -a --ftrace sched:sched_switch --duration 0.1 -o "$tmp/k2" \
	>"$tmp/k2.log" 2>&1
check "the next run removes it" [ ! -d "$tracefs/instances/auxrec-$pid" ]
check "... and says so" grep -q "removed tracefs instance auxrec-$pid" "$tmp/k2.log"
rmdir "$tracefs/instances/auxrec-$pid" 2>/dev/null

exit $fail
