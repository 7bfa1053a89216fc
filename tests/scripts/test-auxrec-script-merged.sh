#!/bin/bash
# auxrec script on a recording of perf events and ftrace events together prints one stream,
# checked against perf script 6.1 and trace-cmd report 3.1.6 (always under timeout) on a real
# recording: cpu-clock and syscalls:sys_enter_getppid as perf events, sched_switch,
# sched_wakeup and sys_enter_getppid as ftrace events, of two getppid loops.
#  - the stream's times never go back (--ns; trace-cmd's times are rounded to the us, so an
#    ftrace line's time is taken as the half-us around it);
#  - its lines marked "ftrace: ", mark removed, are trace-cmd report's after its cpus= line,
#    in its order; the others are perf script's, in its order: so each source's count is its
#    tool's; -F leaves the ftrace lines as they are;
#  - --source perf prints perf script's lines, --source ftrace trace-cmd report's;
#  - -C, --comm, --tid, --pid and --time select both sources' lines: the perf ones as
#    perf script's same option, the ftrace ones as trace-cmd report's lines of that CPU,
#    task or span;
#  - a perf.data and a trace.dat recorded on different clocks: exit 1, a message naming the
#    clocks and how to read each alone; --any-clock prints both anyway;
#  - a damaged sub-buffer in the trace.dat: exit 1, the file and offset named, every perf
#    line and the ftrace lines before it printed.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
loop=$PWD/$B/tests/progs/getppid-loop
. tests/scripts/check-lib.sh
needs_tracefs "perf events, tracefs"
needs_tools trace-cmd
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$out" || exit 1

record() {	# record DIR [auxrec record options]
	local dir=$1; shift
	timeout 60 "$auxrec" record -o "$dir" "$@" -e cpu-clock -e syscalls:sys_enter_getppid \
		--ftrace sched:sched_switch --ftrace sched:sched_wakeup \
		--ftrace syscalls:sys_enter_getppid \
		-- sh -c "$loop 3000; sleep 0.05; $loop 2000" >"$dir.log" 2>&1
}
record rec
check "auxrec record of perf and ftrace events exits 0" [ $? -eq 0 ]
timeout 60 perf script -i rec/perf.data >perf.txt 2>/dev/null
timeout 60 trace-cmd report rec/trace.dat 2>/dev/null | tail -n +2 >tc.txt
timeout 60 "$auxrec" script rec >merged.txt 2>merged.err
check "auxrec script DIR exits 0" [ $? -eq 0 ]

marked() { grep '^ftrace: ' "$1" | cut -c9-; }
unmarked() { grep -v '^ftrace: ' "$1"; }
marked merged.txt >merged.ftrace; unmarked merged.txt >merged.perf
nf=$(wc -l <merged.ftrace); np=$(wc -l <merged.perf)
check "its ftrace lines are trace-cmd report's ($nf)" same_file ftrace tc.txt merged.ftrace
check "its other lines are perf script's ($np)" same_file perf perf.txt merged.perf
check "both sources are there" [ "$nf" -gt 5000 -a "$np" -gt 5000 ]
gp() { grep -c "$1" "$2"; }
check "getppid calls: perf $(gp sys_enter_getppid: merged.perf), ftrace $(gp sys_enter_getppid: merged.ftrace)" \
	[ "$(gp sys_enter_getppid: merged.perf)" -ge 5000 -a "$(gp sys_enter_getppid: merged.ftrace)" -ge 5000 ]

# times in ns: a perf line's exactly (--ns), an ftrace line's as the half-us around it
timeout 60 "$auxrec" script --ns rec >ns.txt 2>/dev/null
in_order() {
	awk '{
		if (!match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/)) next
		t = substr($0, RSTART, RLENGTH); sub(/.*\] +/, "", t); sub(/:$/, "", t)
		split(t, p, "."); ns = p[1] * 1e9 + p[2] * 10 ^ (9 - length(p[2]))
		lo = ns; hi = ns
		if (/^ftrace: /) { lo = ns - 500; hi = ns + 499 }
		if (hi < maxlo) { print "back in time at line " NR ": " $0; bad = 1; exit }
		if (lo > maxlo) maxlo = lo; n++
	} END { if (bad || n < 10000) { print n " timed lines"; exit 1 } }' "$1"
}
check "the merged stream's times never go back" in_order ns.txt
check "... and it has as many lines as without --ns" [ "$(wc -l <ns.txt)" -eq "$(wc -l <merged.txt)" ]

timeout 60 "$auxrec" script -F comm,tid,time rec >fields.txt 2>/dev/null
marked fields.txt >fields.ftrace
check "-F changes the perf lines only" same_file "-F's ftrace lines" tc.txt fields.ftrace

timeout 60 "$auxrec" script --source perf rec >src-perf.txt 2>/dev/null
check "--source perf prints perf script's lines" same_file "--source perf" perf.txt src-perf.txt
timeout 60 "$auxrec" script --source ftrace rec >src-ftrace.txt 2>/dev/null
check "--source ftrace prints trace-cmd report's" \
	same_file "--source ftrace" <(timeout 60 trace-cmd report rec/trace.dat 2>/dev/null) src-ftrace.txt
timeout 60 "$auxrec" script --source bogus rec >/dev/null 2>bogus.err
rc=$?
check "--source bogus: exit 2 ($(cat bogus.err))" [ $rc -eq 2 ]

# selection: auxrec script OPTS == perf script OPTS + trace-cmd's lines AWK keeps
task_is() {	# the lines of trace-cmd report whose task column (comm-pid) passes $1
	awk -v want="$1" '{ task = $1; pid = task; sub(/.*-/, "", pid); comm = task
			    sub(/-[0-9]+$/, "", comm); if (eval_want(want, comm, pid)) print }
			  function eval_want(w, comm, pid) { split(w, a, "=")
				return a[1] == "comm" ? comm == a[2] : pid == a[2] }' tc.txt
}
selects() {	# selects WHAT "AUXREC/PERF OPTIONS" EXPECTED-FTRACE-FILE
	local what=$1 opts=$2 want=$3
	# shellcheck disable=SC2086
	timeout 60 "$auxrec" script $opts rec >sel.txt 2>/dev/null &&
		timeout 60 perf script -i rec/perf.data $opts >sel.perf 2>/dev/null || return 1
	marked sel.txt >sel.ftrace; unmarked sel.txt >sel.ours
	[ -s sel.ftrace ] && [ -s sel.ours ] || { echo "   $what: a source selected nothing"; return 1; }
	same_file "$what perf lines" sel.perf sel.ours && same_file "$what ftrace lines" "$want" sel.ftrace
}
cpu=$(awk '$1 == "getppid-loop" { gsub(/[][]/, "", $3); print $3 + 0; exit }' perf.txt)
timeout 60 trace-cmd report --cpu "$cpu" rec/trace.dat 2>/dev/null | tail -n +2 >want.cpu
check "-C $cpu selects both sources" selects "-C" "-C $cpu" want.cpu
# every CPU's ftrace lines: a task is named by what trace-cmd report --cpu learns from that
# CPU's events alone (a CI run named one by a sched_switch of the other CPU)
for c in $(seq 0 $(($(nproc) - 1))); do
	check "-C $c --source ftrace: trace-cmd report --cpu $c's lines" same_file "-C $c" \
		<(timeout 60 trace-cmd report --cpu "$c" rec/trace.dat 2>/dev/null) \
		<(timeout 60 "$auxrec" script -C "$c" --source ftrace rec 2>/dev/null)
done
task_is comm=getppid-loop >want.comm
check "--comm getppid-loop selects both sources ($(wc -l <want.comm) ftrace lines)" \
	selects "--comm" "--comm getppid-loop" want.comm
tid=$(awk '$1 == "getppid-loop" { print $2; exit }' perf.txt)
task_is "pid=$tid" >want.tid
check "--tid $tid selects both sources" selects "--tid" "--tid $tid" want.tid
check "--pid $tid (the ftrace thread's process from perf's side-band) selects both" \
	selects "--pid" "--pid $tid" want.tid
# a span: the ftrace lines whose rounded times are within 1 us of its ends may go either way
read -r t0 t1 < <(awk -v n="$np" 'NR == int(n / 3) { a = $4 } NR == int(2 * n / 3) { b = $4 }
				 END { sub(/:/, "", a);
						sub(/:/, "", b); print a, b }' perf.txt)
timeout 60 "$auxrec" script --time "$t0,$t1" rec >sel.txt 2>/dev/null
timeout 60 perf script -i rec/perf.data --time "$t0,$t1" >sel.perf 2>/dev/null
span() {	# span FILE [SLACK]: trace-cmd's lines in t0,t1 (SLACK us in from each end)
	awk -v a="$t0" -v b="$t1" -v d="${2:-1}" '
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) { t = substr($0, RSTART, RLENGTH)
			sub(/.*\] +/, "", t); t = t + 0
			if (t > a + d * 1e-6 && t < b - d * 1e-6) print }' "$1"
}
marked sel.txt >sel.ftrace; unmarked sel.txt >sel.ours
check "--time $t0,$t1 selects perf lines as perf script" same_file "--time perf" sel.perf sel.ours
check "... and the ftrace lines of the span ($(wc -l <sel.ftrace))" \
	same_file "--time ftrace" <(span tc.txt) <(span sel.ftrace)
check "... and none more than 1 us outside it" same_file "--time ftrace, 1 us out" sel.ftrace <(span sel.ftrace -1)
# a span that starts after the command's first wakeup, where the sched plugins may have
# named its pid "auxrec" (before its exec): what trace-cmd goes on calling it then depends on
# the lines it printed before, so the span's lines must be made from the same ones
read -r t0 t1 < <(awk '/auxrec:[0-9]/ && !a { a = NR } a && NR == a + 3 { x = $3 } { y = $3 }
		      END { sub(/:/, "", x); sub(/:/, "", y); print x, y }' tc.txt)
timeout 60 "$auxrec" script --source ftrace --time "$t0,$t1" rec 2>/dev/null >late.txt
check "--time after the command's fork names its pid as trace-cmd does" \
	same_file "late span" <(span tc.txt) <(span late.txt)

# clocks: perf.data of rec (perf's clock), trace.dat of a recording on CLOCK_MONOTONIC
record mono -k monotonic
mkdir mixed && cp rec/perf.data mixed/ && cp mono/trace.dat mixed/
timeout 60 "$auxrec" script mixed >mixed.txt 2>mixed.err
rc=$?
check "different clocks: exit 1" [ $rc -eq 1 ]
check "... nothing printed" [ ! -s mixed.txt ]
check "... the clocks named ($(head -c 300 mixed.err))" grep -q "perf.*mono\|mono.*perf" mixed.err
check "... and how to read each alone" grep -q -- "--source perf.*--source ftrace.*--any-clock" mixed.err
timeout 60 "$auxrec" script --any-clock mixed >any.txt 2>/dev/null
check "--any-clock prints both files' lines" \
	[ "$(grep -c '^ftrace: ' any.txt)" -gt 5000 -a "$(grep -vc '^ftrace: ' any.txt)" -gt 5000 ]
timeout 60 "$auxrec" script --source ftrace mixed >mixed-ftrace.txt 2>/dev/null
check "... --source ftrace reads its trace.dat alone" \
	same_file "--source ftrace" <(timeout 60 trace-cmd report mixed/trace.dat 2>/dev/null) mixed-ftrace.txt

# a damaged sub-buffer in the middle of the CPU with the most data in the trace.dat
mkdir damaged && cp rec/perf.data rec/trace.dat damaged/
read -r data size < <(timeout 60 trace-cmd dump --flyrecord -i rec/trace.dat 2>/dev/null |
		      awk '/offset, size of cpu/ && $2 + 0 > s + 0 { o = $1; s = $2 }
			   END { print o + 0, s + 0 }')
page=$(( data + size / 2 / 4096 * 4096 ))
printf '\xff\xff\xff\x00' | dd of=damaged/trace.dat bs=1 seek=$((page + 8)) conv=notrunc status=none
timeout 60 "$auxrec" script damaged >damaged.txt 2>damaged.err
check "a damaged trace.dat: exit 1" [ $? -eq 1 ]
check "... the file and the offset ($(printf 0x%x $page)) named" \
	grep -q "trace.dat.*offset $(printf 0x%x $page)" damaged.err
unmarked damaged.txt >damaged.perf
check "... every perf line still printed" same_file "damaged perf" perf.txt damaged.perf
n=$(marked damaged.txt | wc -l)
check "... $n ftrace lines printed" [ "$n" -gt 0 -a "$n" -lt "$nf" ]
check "... trace-cmd's up to the damage" same_file "damaged ftrace" <(head -n "$n" tc.txt) <(marked damaged.txt)
exit $fail
