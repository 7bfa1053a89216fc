#!/bin/bash
# auxrec record --switch-output and --switch-max-files, as perf record's: a known workload's
# getppid calls, recorded in pieces (on SIGUSR2, at a size, after a time), are all there
# across the pieces, none twice, in perf.data (perf script) and in trace.dat (trace-cmd
# report); each piece is a recording that perf, trace-cmd and auxrec read alone, named
# OUTPUT.<timestamp> as perf names its pieces; only the newest N are kept with
# --switch-max-files; no instance is left behind.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$(realpath $B/auxrec)
loop=$(realpath $B/tests/progs/getppid-loop)
. tests/scripts/check-lib.sh
needs_tracefs "tracepoints, tracefs instances"
needs_tools perf trace-cmd
in_tmpdir
mkdir logs
N=20000

# perf_calls PIECE [PIDS]: the getppid calls of getppid-loop (of those pids) in PIECE/perf.data
perf_calls() {
	timeout 60 perf script -i "$1/perf.data" -F comm,pid,event 2>/dev/null |
		awk -v pids=" ${2:-} " '$1 == "getppid-loop" && /sys_enter_getppid/ &&
			(pids == "  " || index(pids, " " $2 " ")) { n++ } END { print n + 0 }'
}
# ftrace_calls PIECE [PIDS]: the same in PIECE/trace.dat
ftrace_calls() {
	timeout 60 trace-cmd report -i "$1/trace.dat" 2>/dev/null |
		awk -v pids=" ${2:-} " '$1 ~ /^getppid-loop-/ && /sys_enter_getppid:/ {
			pid = $1; sub(/.*-/, "", pid)
			if (pids == "  " || index(pids, " " pid " ")) n++ } END { print n + 0 }'
}
# sum_calls FN PIECES...: FN's count over every piece
sum_calls() {
	local fn=$1 total=0 piece
	shift
	for piece in "$@"; do
		total=$((total + $($fn "$piece")))
	done
	echo $total
}
# readable PIECE: perf, trace-cmd and auxrec read the piece alone, without a complaint (perf
# script: perf report calls a piece without samples, the last one may be, an error)
readable() {
	timeout 60 perf script -i "$1/perf.data" >/dev/null 2>logs/perf.err &&
		! grep -qiE 'fail|error|corrupt|unknown|short' logs/perf.err &&
		timeout 60 trace-cmd report -i "$1/trace.dat" >/dev/null 2>logs/tc.err &&
		! grep -v '^cpus=' logs/tc.err | grep -q . &&
		timeout 60 "$auxrec" report "$1" >/dev/null 2>&1
}
# no_instance: no auxrec that has exited left its tracefs instance (auxrec-<pid>) behind. ($! is
# timeout's pid, not auxrec's, so the instance is found by its name's pid being gone.)
no_instance() {
	local d
	for d in "$tracefs"/instances/auxrec-*; do
		[ -d "$d" ] || continue
		kill -0 "${d##*-}" 2>/dev/null || return 1
	done
}

# --- SIGUSR2: the workload asks for a switch after each of its three loops, and waits for the
# piece to be named (the rings are drained into it by then): each piece has one loop's calls.
cat >work.sh <<EOF
for i in 1 2 3; do
	"$loop" $N
	[ \$i = 3 ] && break
	kill -USR2 \$PPID
	until [ \$(ls -d sig.[0-9]* 2>/dev/null | wc -l) -ge \$i ]; do sleep 0.01; done
done
EOF
timeout 60 "$auxrec" record -m 1024 --ftrace-buffer-kb 4096 --switch-output -o sig \
	-e syscalls:sys_enter_getppid --ftrace syscalls:sys_enter_getppid -- sh work.sh \
	>logs/sig.log 2>&1 &
pid=$!
wait $pid
check "--switch-output: record exits 0" [ $? -eq 0 ]
pieces=(sig.[0-9]*)
check "three pieces, named sig.<timestamp> as perf names them (${pieces[*]})" \
	eval "[ ${#pieces[@]} -eq 3 ] && ! ls -d sig.* | grep -qvxE 'sig\.[0-9]{16}'"
check "... and no sig left beside them" [ ! -e sig ]
check "... each said as a dump" [ "$(grep -c '^auxrec: dump sig\.[0-9]\{16\}: perf.data' logs/sig.log)" = 3 ]
for p in "${pieces[@]}"; do
	check "$p: perf script shows one loop's $N calls, under the command's name" \
		same "$(perf_calls "$p")" $N
	check "$p: trace-cmd report shows them too" same "$(ftrace_calls "$p")" $N
	check "$p: perf, trace-cmd and auxrec read it alone" readable "$p"
done
check "each perf.data has its own header: perf report --header-only names the event" \
	eval "timeout 60 perf report --header-only -i '${pieces[2]}/perf.data' 2>/dev/null |
		grep -q 'event : name = syscalls:sys_enter_getppid'"
check "no instance is left behind" no_instance

# --- SIZE and TIME (and TIME with -z: each piece its own compressed streams): one loop of
# 10 N calls cut wherever the size or the time falls; over all pieces every call, none twice.
for mode in size:--switch-output=1M time:--switch-output=0.05s "z:-z --switch-output=0.05s"; do
	name=${mode%%:*}
	# shellcheck disable=SC2086
	timeout 60 "$auxrec" record -m 4096 --ftrace-buffer-kb 8192 ${mode#*:} -o "$name" \
		-e syscalls:sys_enter_getppid --ftrace syscalls:sys_enter_getppid -- \
		"$loop" $((10 * N)) >"logs/$name.log" 2>&1 &
	pid=$!
	wait $pid
	check "$name: record exits 0" [ $? -eq 0 ]
	pieces=("$name".[0-9]*)
	check "$name: the recording is cut into pieces (${#pieces[@]})" [ ${#pieces[@]} -ge 2 ]
	check "$name: no perf record was lost in the rings" \
		not grep -q 'lost .* perf records' "logs/$name.log"
	check "$name: the pieces' perf.data hold the $((10 * N)) calls, each once" \
		same "$(sum_calls perf_calls "${pieces[@]}")" $((10 * N))
	check "$name: the pieces' trace.dat hold them too" \
		same "$(sum_calls ftrace_calls "${pieces[@]}")" $((10 * N))
	check "$name: the second piece is read alone" readable "${pieces[1]}"
	check "$name: no instance is left behind" no_instance
done

# --- --switch-max-files=2: three switches make four pieces; the two newest stay, each with its
# loop's calls. (Not -a: other tests' loops, system-wide, can fill the rings of a busy machine.)
cat >work.sh <<EOF
for i in 1 2 3 4; do
	"$loop" $N & echo \$! >>pids; wait
	[ \$i = 4 ] && break
	kill -USR2 \$PPID
	until [ "\$(grep -c '^auxrec: dump' logs/max.log)" -ge \$i ]; do sleep 0.01; done
done
EOF
timeout 60 "$auxrec" record -m 1024 --ftrace-buffer-kb 4096 --switch-output \
	--switch-max-files=2 -o max -e syscalls:sys_enter_getppid \
	--ftrace syscalls:sys_enter_getppid -- sh work.sh >logs/max.log 2>&1 &
pid=$!
wait $pid
check "--switch-max-files=2: record exits 0" [ $? -eq 0 ]
pieces=(max.[0-9]*)
said=($(sed -n 's/^auxrec: dump \(max\.[0-9]*\):.*/\1/p' logs/max.log))
check "four pieces were made (${said[*]})" [ ${#said[@]} -eq 4 ]
check "... and the newest two are kept (${pieces[*]})" \
	same "${pieces[*]}" "${said[2]:-} ${said[3]:-}"
mapfile -t pids <pids
check "${pieces[0]}: the third loop's $N calls in perf.data" \
	same "$(perf_calls "${pieces[0]}" "${pids[2]}")" $N
check "${pieces[0]}: ... and in trace.dat" same "$(ftrace_calls "${pieces[0]}" "${pids[2]}")" $N
check "${pieces[1]}: the fourth loop's in both" eval "[ $(perf_calls "${pieces[1]}" "${pids[3]}") = $N ] &&
	[ $(ftrace_calls "${pieces[1]}" "${pids[3]}") = $N ]"
check "${pieces[1]}: read alone" readable "${pieces[1]}"
check "no instance is left behind" no_instance

# --- -o FILE.data with perf events only: FILE.data.<timestamp> files, as perf record's
timeout 60 "$auxrec" record -m 1024 --switch-output=0.05s -o perf.data \
	-e syscalls:sys_enter_getppid -- "$loop" $((5 * N)) >logs/file.log 2>&1
check "-o perf.data: record exits 0" [ $? -eq 0 ]
files=(perf.data.[0-9]*)
check "... pieces are files perf.data.<timestamp> (${#files[@]})" \
	eval "[ ${#files[@]} -ge 2 ] && [ -f '${files[0]}' ] && [ ! -e perf.data ] &&
		! ls -d perf.data.* | grep -qvxE 'perf\.data\.[0-9]{16}'"
total=0
for f in "${files[@]}"; do
	total=$((total + $(timeout 60 perf script -i "$f" -F comm,event 2>/dev/null |
		grep -c 'getppid-loop.*sys_enter_getppid')))
done
check "... holding the $((5 * N)) calls between them" same $total $((5 * N))

# --- refused, with the reason, before anything is made
for bad in "--switch-output=10x -o bad" "--switch-output=0s -o bad" \
	"--switch-max-files=0 --switch-output -o bad" "--switch-max-files=2 -o bad" \
	"--switch-output -o -" "--switch-output -N 127.0.0.1:1 --ftrace sched:sched_switch -o bad"; do
	# shellcheck disable=SC2086
	timeout 10 "$auxrec" record $bad -e syscalls:sys_enter_getppid -- true \
		>logs/bad.log 2>&1 </dev/null
	check "'$bad' is refused with a reason" eval "[ $? -ne 0 ] &&
		grep -q 'switch' logs/bad.log && ! ls -d bad* >/dev/null 2>&1"
done
[ $fail = 0 ] || for f in logs/*.log; do echo "== $f"; head -20 "$f"; done
exit $fail
