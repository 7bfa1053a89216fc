#!/bin/bash
# Nothing drained is lost when auxrec record dies by SIGKILL: 20 system-wide recordings with
# ftrace are killed at random points of a known workload (K getpgid calls, K random), then
# auxrec recover rebuilds perf.data and trace.dat, and perf script and trace-cmd report read
# them. A kill once the workload's events were drained (pushed out of the rings' open
# sub-buffers by a filler process, then drained) finds exactly K in both files, so the counts
# grow with the kill point; a kill right after the workload loses at most what the rings
# still held. Before recover, report and script say the recording is unfinished, and perf
# reads a killed perf.data of non-tracepoint events as it is (its header is kept up to date
# at rounds).
set -u
set -m	# the recorder in a process group of its own: SIGKILL it alone
cd "$(dirname "$0")/../.."
. tests/scripts/check-lib.sh
needs_tracefs "system-wide perf events, tracefs instances"
needs_tools perf trace-cmd
tmp=$(mktemp -d)
rpid=
left=	# the instance a kill left for recover to find
cleanup() {
	[ -n "$rpid" ] && kill -KILL "$rpid" 2>/dev/null && wait "$rpid" 2>/dev/null
	[ -n "$rpid" ] && [ -d "$tracefs/instances/auxrec-$rpid" ] &&
		rmdir "$tracefs/instances/auxrec-$rpid"
	[ -n "$left" ] && [ -d "$tracefs/instances/$left" ] && rmdir "$tracefs/instances/$left"
	rm -rf "$tmp"
}
trap cleanup EXIT

# start DIR OPTIONS...: a recording in the background, once it records: perf.data.features
# comes after the synthesized side-band, the spool's clock after its description
start() {
	local dir=$1; shift
	"$auxrec" record -q -o "$dir" --duration 60 "$@" >/dev/null 2>"$dir.log" &
	rpid=$!
	for _ in $(seq 1 1000); do
		[ -e "$dir/perf.data.features" ] &&
			{ [ -e "$dir/trace.dat.spool/clock" ] || [[ "$*" != *--ftrace* ]]; } && break
		sleep 0.01
	done
	sleep 0.1
}
# fill DIR: the workload's events out of the rings' open sub-buffers and drained. A filler
# on the workload's CPU makes 1000 more calls; then, however slow the machine, until auxrec
# script reads the filler's calls in the live perf.data (perf cannot: a tracepoint needs
# the feature sections, written at the end), and a sweep of every ring (once a second)
# after that for the ftrace pages they filled.
fill() {
	local n
	taskset -c 0 "$loop" 1000 0 getpgid & local fpid=$!
	wait $fpid
	for _ in $(seq 1 300); do
		n=$(timeout 60 "$auxrec" script -F pid "$1" 2>/dev/null | awk -v p=$fpid '$1 == p' | wc -l)
		[ "$n" -ge 1000 ] && break
		sleep 0.1
	done
	sleep 1.3
}
# kill_recorder: SIGKILL, and the instance it could not remove is removed here
kill_recorder() {
	kill -KILL "$rpid"
	wait "$rpid" 2>/dev/null
	[ -d "$tracefs/instances/auxrec-$rpid" ] && rmdir "$tracefs/instances/auxrec-$rpid"
	rpid=
}

# The header at rounds: a killed recording of cpu-clock reads in perf without recover.
start "$tmp/clock" -a -e cpu-clock
# a round after the once-a-second sweep of every ring, however slow the machine
for _ in $(seq 1 300); do
	timeout 60 perf script -i "$tmp/clock/perf.data" 2>/dev/null | grep -q cpu-clock && break
	sleep 0.1
done
kill_recorder
n=$(timeout 60 perf script -i "$tmp/clock/perf.data" 2>/dev/null | grep -c cpu-clock)
check "killed, not recovered: perf script reads the cpu-clock samples up to the last round ($n)" \
	[ "$n" -gt 0 ]

# Before recover: the unfinished recording is said, with the way out, and still read.
start "$tmp/un" -a -e syscalls:sys_enter_getpgid --ftrace syscalls:sys_enter_getpgid
taskset -c 0 "$loop" 300 0 getpgid &
wpid=$!
wait "$wpid"
fill "$tmp/un"
kill_recorder
check "killed: trace.dat is not there, its spool is (trace.dat.spool/head, cpu0)" \
	bash -c "[ ! -e '$tmp/un/trace.dat' ] && [ -s '$tmp/un/trace.dat.spool/head' ] &&
		 [ -e '$tmp/un/trace.dat.spool/cpu0' ] && [ -s '$tmp/un/perf.data.features' ]"
timeout 60 "$auxrec" report "$tmp/un" >"$tmp/un.report" 2>&1
check "auxrec report says the recording is unfinished and names auxrec recover" \
	grep -q "unfinished recording.*auxrec recover $tmp/un" "$tmp/un.report"
timeout 60 "$auxrec" script "$tmp/un" >"$tmp/un.script" 2>&1
check "auxrec script says so too" grep -q "unfinished recording.*auxrec recover" "$tmp/un.script"
check "... and still prints what perf.data holds (without the features: tracepoint:ID)" \
	grep -q "getppid-loop .*tracepoint:" "$tmp/un.script"
timeout 60 "$auxrec" recover "$tmp/un" >"$tmp/un.recover" 2>&1
check "auxrec recover exits 0" [ $? -eq 0 ]
check "... removes the spool and perf.data.features" \
	bash -c "[ ! -e '$tmp/un/trace.dat.spool' ] && [ ! -e '$tmp/un/perf.data.features' ]"
n=$(timeout 60 perf script -i "$tmp/un/perf.data" -F pid,event 2>/dev/null |
	awk -v p="$wpid" '$1 == p && /syscalls:sys_enter_getpgid/' | wc -l)
check "recovered: perf script names the tracepoint (the saved features) in all 300 ($n)" \
	[ "$n" -eq 300 ]
n=$(timeout 60 trace-cmd report "$tmp/un/trace.dat" 2>/dev/null | grep -c -- "-$wpid *\[")
check "recovered: trace-cmd report reads all 300 of trace.dat ($n)" [ "$n" -eq 300 ]
timeout 60 "$auxrec" recover "$tmp/un" >"$tmp/un.again" 2>&1
check "a second recover finds nothing to do" grep -q "nothing to recover" "$tmp/un.again"
timeout 60 "$auxrec" report "$tmp/un" >"$tmp/un.report2" 2>&1
check "recovered: report no longer says unfinished" not grep -q unfinished "$tmp/un.report2"

# The killed recorder's instance stays, its events enabled: what it caught after the kill
# (K2 calls of a second workload) is drained into trace.dat by recover, which removes the
# instance and says so. Recorded with -z: both files come back compressed, as a stop writes
# them (trace.dat version 7 with zstd, perf.data's COMPRESSED records), and perf and
# trace-cmd read all of it.
K1=400 K2=700
start "$tmp/z" -z -a -e syscalls:sys_enter_getpgid --ftrace syscalls:sys_enter_getpgid
check "-z: the spool names the recorder's instance, and the compression" \
	bash -c "[ \"\$(cat '$tmp/z/trace.dat.spool/instance')\" = auxrec-$rpid ] &&
		 [ -s '$tmp/z/trace.dat.spool/compression' ]"
taskset -c 0 "$loop" "$K1" 0 getpgid &
w1=$!
wait "$w1"
fill "$tmp/z"
left=auxrec-$rpid
kill -KILL "$rpid"
wait "$rpid" 2>/dev/null
rpid=
check "killed: its instance $left is left behind, tracing on" \
	bash -c "[ \"\$(cat '$tracefs/instances/$left/tracing_on' 2>/dev/null)\" = 1 ]"
"$loop" "$K2" 0 getpgid &
w2=$!
wait "$w2"
timeout 60 "$auxrec" recover "$tmp/z" >"$tmp/z.recover" 2>&1
check "recover exits 0" [ $? -eq 0 ]
check "recover says it drained the instance and removed it" \
	bash -c "grep -q 'drained .* tracefs instance $left' '$tmp/z.recover' &&
		 grep -q 'removed tracefs instance $left' '$tmp/z.recover'"
check "... and it is gone" [ ! -e "$tracefs/instances/$left" ]
check "recovered trace.dat is version 7 (-z), and recover says so" \
	bash -c "head -c 11 '$tmp/z/trace.dat' | tail -c 8 | grep -q tracing7 &&
		 grep -q 'version 7, zstd' '$tmp/z.recover'"
timeout 60 trace-cmd report "$tmp/z/trace.dat" >"$tmp/z.trace" 2>"$tmp/z.terr"
check "trace-cmd report reads the recovered version 7 file (exit $?)" [ $? -eq 0 ]
n1=$(grep -c -- "-$w1 *\[" "$tmp/z.trace") n2=$(grep -c -- "-$w2 *\[" "$tmp/z.trace")
check "trace.dat has the $K1 calls drained before the kill ($n1)" [ "$n1" -eq "$K1" ]
check "... and the $K2 the left instance caught after it ($n2)" [ "$n2" -eq "$K2" ]
n=$(timeout 60 perf script -i "$tmp/z/perf.data" -F pid,event 2>"$tmp/z.perr" |
	awk -v p="$w1" '$1 == p && /sys_enter_getpgid/' | wc -l)
check "perf script reads the recovered compressed perf.data: $K1 calls ($n)" [ "$n" -eq "$K1" ]

# An instance already gone (kill_recorder removes it): recover says nothing about one.
start "$tmp/gone" -a -e cpu-clock --ftrace syscalls:sys_enter_getpgid
kill_recorder
timeout 60 "$auxrec" recover "$tmp/gone" >"$tmp/gone.recover" 2>&1
check "instance gone: recover exits 0 and says nothing of an instance" \
	bash -c "[ $? -eq 0 ] && ! grep -qi instance '$tmp/gone.recover'"
check "... and lays out version 6 without -z" grep -q "version 6" "$tmp/gone.recover"

# A new recording into the directory of one that died keeps it as DIR.old, spool and all;
# the next one replaces that, spool and all.
start "$tmp/again" -a -e cpu-clock --ftrace sched:sched_switch
kill_recorder
for i in 1 2; do
	timeout 60 "$auxrec" record -q -o "$tmp/again" -a -e cpu-clock --duration 0.1 \
		>"$tmp/again$i.log" 2>&1
	check "record $i into a killed recording's directory exits 0" [ $? -eq 0 ]
done
check "... the first kept it as .old, the second replaced that" \
	bash -c "[ -e '$tmp/again/perf.data' ] && [ -e '$tmp/again.old/perf.data' ] &&
		 [ ! -e '$tmp/again.old/trace.dat.spool' ]"

# 20 kills at random points of the workload.
N=3000
bad_read=0 bad_count=0 bad_bound=0 settled=0 abrupt=0 pairs=""
for run in $(seq 1 20); do
	d=$tmp/k$run
	k=$((RANDOM % (N + 1)))
	start "$d" -a -e syscalls:sys_enter_getpgid --ftrace syscalls:sys_enter_getpgid
	taskset -c 0 "$loop" "$k" 0 getpgid &
	wpid=$!
	wait "$wpid"
	if [ $((run % 3)) -eq 0 ]; then
		fill "$d"
		kind=settled
	else
		kind=abrupt
	fi
	kill_recorder
	timeout 60 "$auxrec" recover "$d" >"$d.recover" 2>&1
	rc_recover=$?
	timeout 60 perf script -i "$d/perf.data" -F pid,event >"$d.perf" 2>"$d.perr"
	rc_perf=$?
	p=$(awk -v p="$wpid" '$1 == p && /sys_enter_getpgid/' "$d.perf" | wc -l)
	timeout 60 trace-cmd report "$d/trace.dat" >"$d.trace" 2>"$d.terr"
	rc_trace=$?
	t=$(grep -c -- "-$wpid *\[" "$d.trace")
	if [ "$rc_recover" -ne 0 ] || [ "$rc_perf" -ne 0 ] || [ "$rc_trace" -ne 0 ]; then
		echo "run $run ($kind, K=$k): recover $rc_recover, perf script $rc_perf, trace-cmd $rc_trace"
		tail -n 3 "$d.recover" "$d.perr" "$d.terr"
		bad_read=$((bad_read + 1))
	fi
	if [ "$kind" = settled ]; then
		settled=$((settled + 1))
		pairs="$pairs $k:$p:$t"
		if [ "$p" -ne "$k" ] || [ "$t" -ne "$k" ]; then
			echo "run $run (settled): K=$k, perf.data has $p, trace.dat $t"
			bad_count=$((bad_count + 1))
		fi
	else
		abrupt=$((abrupt + 1))
		# what the rings still held is lost, nothing more: never more than K
		if [ "$p" -gt "$k" ] || [ "$t" -gt "$k" ]; then
			echo "run $run (abrupt): K=$k, perf.data has $p, trace.dat $t"
			bad_bound=$((bad_bound + 1))
		fi
	fi
	rm -rf "$d" "$d".*
done
check "20 kills: recover, perf script and trace-cmd report all succeed ($bad_read failed)" \
	[ "$bad_read" -eq 0 ]
check "$settled kills after the workload was drained: exactly K in both files ($bad_count not)" \
	[ "$bad_count" -eq 0 ]
check "$abrupt kills right after the workload: counts <= K ($bad_bound more)" \
	[ "$bad_bound" -eq 0 ]
# monotone in the kill point: sorted by K, the counts never go down
mono=$(echo "$pairs" | tr ' ' '\n' | grep . | sort -t: -k1,1n |
	awk -F: '$2 < lp || $3 < lt { bad++ } { lp = $2; lt = $3 } END { print bad + 0 }')
check "the counts grow with the kill point ($mono inversions in:$pairs)" [ "$mono" -eq 0 ]

[ $fail -eq 0 ] || for f in "$tmp"/*.log; do echo "== $f"; tail -5 "$f"; done
exit $fail
