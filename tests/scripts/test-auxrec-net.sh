#!/bin/bash
# auxrec record -N HOST:PORT against trace-cmd 3.1.6's own collector, trace-cmd listen, on the
# loopback interface: a known workload's ftrace events all reach the collector's trace.dat
# (plain, -z, and with perf.data streamed on stdout); a collector killed mid-recording is named
# and every event is either sent before or kept in the local trace.dat, counted; a bad
# HOST:PORT, a refused connection and servers that are not trace-cmd listen fail clearly, and
# within the timeout.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$(realpath "$B/auxrec")
loop=$(realpath "$B/tests/progs/getppid-loop")
phases=$(realpath "$B/tests/progs/getppid-phases")
. tests/scripts/check-lib.sh
needs_root "tracepoints, tracefs instances"
needs_tools trace-cmd perf python3 ss
# every collector and fake server started here: killed (their whole process group) at exit
groups=()
cleanup() {
	for g in "${groups[@]}"; do
		kill -KILL -- "-$g" 2>/dev/null
	done
	wait 2>/dev/null
}
in_tmpdir
trap 'cleanup; rm -rf "$out"' EXIT

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# listen DIR: trace-cmd listen on a free port of 127.0.0.1 writing into DIR, in a process group
# of its own; sets port and lpid once it accepts connections.
listen() {
	mkdir -p "$1"
	port=$(free_port)
	setsid timeout 300 trace-cmd listen -p "$port" -d "$1" >"$1.log" 2>&1 &
	lpid=$!
	groups+=("$lpid")
	for _ in $(seq 100); do
		ss -Hltn "sport = :$port" | grep -q . && return 0
		sleep 0.05
	done
	echo "trace-cmd listen -p $port did not start:"; cat "$1.log"
	return 1
}

# settled: the listener's children are gone. trace-cmd listen serves each client in a child
# that hangs up before it writes the file (with -z, compressing it), so the file is whole
# only once that child has exited.
settled() {
	for _ in $(seq 600); do
		[ "$(pgrep -g "$lpid" | wc -l)" -le 2 ] && return 0	# timeout and trace-cmd listen
		sleep 0.05
	done
	echo "trace-cmd listen's child did not finish in 30 s"; return 1
}

# events FILE: the sys_enter_getppid lines trace-cmd report prints of FILE (stderr to FILE.err)
events() {
	timeout 60 trace-cmd report -i "$1" 2>"$1.err" | grep -c 'sys_enter_getppid:'
}

# A known count of getppid calls, all in the collector's file, which trace-cmd reads cleanly.
N=20000
for z in plain -z --ftrace-mode=mapped; do
	opt=$z; [ "$z" = plain ] && opt=
	listen "$out/coll$z" || exit 1
	timeout 120 "$auxrec" record $opt -N "127.0.0.1:$port" -o "$out/rec$z" \
		--ftrace syscalls:sys_enter_getppid --ftrace-buffer-kb 4096 -- "$loop" $N \
		>"$out/rec$z.log" 2>&1
	check "-N $z: record exits 0" [ $? -eq 0 ]
	settled
	dat=$(ls "$out/coll$z"/trace.*.dat 2>/dev/null)
	check "... the collector wrote a trace.dat ($dat)" [ -s "$dat" ]
	got=$(events "$dat")
	check "... trace-cmd report shows the $N calls in it ($got)" same "$got" $N
	check "... and complains of nothing" not grep -v '^cpus=' "$dat.err"
	check "... auxrec says it sent $N events to the collector" \
		grep -q "sent $N ftrace events .* to trace-cmd collector 127.0.0.1:$port" "$out/rec$z.log"
	check "... nothing was kept locally" [ ! -e "$out/rec$z/trace.dat" ]
	check "... perf.data is in -o's directory" [ -s "$out/rec$z/perf.data" ]
done
check "-z: the collector's file is version 7 with zstd" \
	eval "timeout 60 trace-cmd dump --summary -i '$(ls "$out"/coll-z/trace.*.dat)' 2>&1 | grep -q zstd"

# perf.data in perf's pipe format on stdout (any transport carries it), ftrace to the
# collector: the same calls on both sides (rings that hold the whole run: the test is of the
# streams, not of the machine's speed)
listen "$out/collpipe" || exit 1
n=$(timeout 120 "$auxrec" record -N "127.0.0.1:$port" -o - -m 1024 -e syscalls:sys_enter_getppid \
	--ftrace syscalls:sys_enter_getppid --ftrace-buffer-kb 4096 -- "$loop" $N \
	2>"$out/pipe.log" | timeout 60 perf script -i - 2>/dev/null | grep -c sys_enter_getppid)
check "-N with -o -: perf script -i - reads the $N calls from the pipe (got '$n')" [ "$n" = $N ]
settled
dat=$(ls "$out"/collpipe/trace.*.dat 2>/dev/null)
check "... and the collector's trace.dat has them too" same "$(events "$dat")" $N
check "... no fallback file was left beside us" not eval "ls auxrec-*.trace.dat 2>/dev/null | grep -q ."

# The collector killed mid-recording: auxrec names it, exits non-zero, and keeps what it still
# held in the output directory's trace.dat: every call was either sent before or is kept.
N1=3000 N2=2000
listen "$out/collkill" || exit 1
mkfifo "$out/go"
# (under SANITIZE=1 LeakSanitizer's exit check makes getppid calls of its own: not in the
# workload, which only counts its own)
timeout 120 "$auxrec" record -N "127.0.0.1:$port" -o "$out/reckill" \
	--ftrace syscalls:sys_enter_getppid -- env ASAN_OPTIONS=detect_leaks=0 \
	"$phases" $N1 "$out/go" $N2 >"$out/kill.log" 2>&1 &
apid=$!
# the first half has reached the collector's reader: its temporary CPU file is not empty
for _ in $(seq 200); do
	[ "$(cat "$out"/collkill/trace.*.cpu* 2>/dev/null | wc -c)" -gt 0 ] && break
	sleep 0.05
done
kill -KILL -- "-$lpid"
wait "$lpid" 2>/dev/null
echo go >"$out/go"
wait $apid
rc=$?
check "collector killed: record exits non-zero ($rc)" [ $rc -ne 0 ] && [ $rc -lt 124 ]
msg=$(grep "went away during the recording" "$out/kill.log")
check "... and says the collector 127.0.0.1:$port went away" \
	eval "echo '$msg' | grep -q 'trace-cmd collector 127.0.0.1:$port went away'"
sent=$(echo "$msg" | sed -n 's/.*: \([0-9]*\) ftrace events .* had been sent.*/\1/p')
kept=$(echo "$msg" | sed -n 's/.* the \([0-9]*\) recorded after .* are kept in .*/\1/p')
check "... with the events sent ($sent) and kept ($kept)" [ -n "$sent" ] && [ -n "$kept" ]
check "... which add up to the workload's $((N1 + N2)) calls" [ $((sent + kept)) -eq $((N1 + N2)) ]
check "... at least the $N2 after the kill are kept" [ "$kept" -ge $N2 ]
check "... trace-cmd report shows the $kept kept in $out/reckill/trace.dat" \
	same "$(events "$out/reckill/trace.dat")" "$kept"
check "... and complains of nothing" not grep -v '^cpus=' "$out/reckill/trace.dat.err"

# Mistakes and strangers fail before anything is recorded, each within the timeout (5 s).
# tries WHAT ARG PATTERN: record -N ARG fails fast, says PATTERN, and leaves no directory.
tries() {
	local start=$SECONDS
	timeout 60 "$auxrec" record -N "$2" -o "$out/bad" --ftrace syscalls:sys_enter_getppid \
		-- "$loop" 10 >"$out/bad.log" 2>&1
	rc=$?
	check "$1: record fails ($rc)" [ $rc -eq 1 ]
	check "... saying '$3'" grep -q "$3" "$out/bad.log"
	check "... within 10 s ($((SECONDS - start)) s)" [ $((SECONDS - start)) -le 10 ]
	check "... leaving no output directory" [ ! -e "$out/bad" ]
}
tries "no port" nohost "give HOST:PORT"
tries "port out of range" 127.0.0.1:99999 "with a port 1..65535"
tries "unknown host" no.such.host.invalid:1234 "cannot resolve host 'no.such.host.invalid'"
p=$(free_port)
tries "nothing listening" "127.0.0.1:$p" "127.0.0.1:$p: connection refused: nothing listens there"
# servers that are not trace-cmd listen: one greets as SSH does, one says nothing at all
fake() {
	port=$(free_port)
	setsid python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); c, _ = s.accept()
c.sendall(sys.argv[2].encode()); time.sleep(60)' "$port" "$1" &
	groups+=("$!")
	for _ in $(seq 100); do
		ss -Hltn "sport = :$port" | grep -q . && return 0
		sleep 0.05
	done
}
fake 'SSH-2.0-OpenSSH_9.2\r\n'
tries "an SSH server" "127.0.0.1:$port" "is not a trace-cmd listen server: for the greeting it sent 'SSH-2.0-'"
fake ''
tries "a silent server" "127.0.0.1:$port" "did not answer the greeting within 5000 ms"

exit $fail
