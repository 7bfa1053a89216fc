#!/bin/bash
# What auxrec record writes, read by the real readers: trace-cmd report and libtracecmd's
# reader for trace.dat, perf script and perf report -D for perf.data (file and pipe format).
# Bad input fails clearly and leaves nothing that looks valid and is not. Every reader runs
# under timeout: a hang is a failure.
set -u
cd "$(dirname "$0")/../.."
. tests/scripts/check-lib.sh
marker=$B/tests/progs/marker-getppid
needs_tracefs "tracepoint events, tracefs instances"
needs_tools perf trace-cmd
[ -e "$tracefs/options/copy_trace_marker" ] ||
	{ echo "SKIP: this kernel cannot copy trace_marker into an instance (Linux 6.16+)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
san=""
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined"
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror $san -o "$tmp/tracecmd-count" tests/coexist/tracecmd-count.c \
	$(pkg-config --cflags --libs libtracecmd) ||
	{ echo "cannot build libtracecmd's reader"; exit 1; }

# --- ftrace: N markers and M getppid calls, exactly, in order, with the workload's comm ---
N=300 M=500
timeout 60 "$auxrec" record -o "$tmp/ft" --ftrace ftrace:print --ftrace syscalls:sys_enter_getppid \
	-- "$marker" $N $M >"$tmp/ft.log" 2>&1
check "ftrace recording exits 0" [ $? -eq 0 ]
check "... and writes trace.dat with mode 0600" \
	[ "$(stat -c %a "$tmp/ft/trace.dat" 2>/dev/null)" = 600 ]
timeout 60 trace-cmd report -i "$tmp/ft/trace.dat" >"$tmp/ft.report" 2>"$tmp/ft.report.err"
check "trace-cmd report reads it" [ $? -eq 0 ]
markers=$(grep -c 'marker-getppid.*print:.*auxtrace-marker' "$tmp/ft.report")
# the calls after the first marker: the dynamic loader's start-up is not the workload's
getppid=$(awk '/marker-getppid.*auxtrace-marker/ { m = 1 } m && /marker-getppid.*sys_enter_getppid/ { n++ }
	END { print n + 0 }' "$tmp/ft.report")
check "trace-cmd report: $N markers (got $markers)" [ "$markers" -eq $N ]
check "trace-cmd report: $M getppid calls (got $getppid)" [ "$getppid" -eq $M ]
grep -o 'auxtrace-marker [0-9]*' "$tmp/ft.report" | awk '{ print $2 }' >"$tmp/seq"
check "trace-cmd report: markers in order" cmp -s "$tmp/seq" <(seq 0 $((N - 1)))
lib=$(timeout 60 "$tmp/tracecmd-count" "$tmp/ft/trace.dat" marker-getppid)
check "libtracecmd reads the same ($lib)" \
	[ "$lib" = "markers $N getppid $M disorder 0" ]
ev=$(timeout 60 "$auxrec" report "$tmp/ft" | sed -n '/^events:/,/^$/p' | awk '$2 == "ftrace" { print $1 }' | sort | tr '\n' ' ')
check "auxrec report's events table has both ftrace events, trace_marker's print among them ($ev)" \
	bash -c "grep -q 'ftrace:print ' <<<'$ev' && grep -q 'syscalls:sys_enter_getppid ' <<<'$ev'"

# --- ftrace losses: a tiny buffer under a burst; the summary agrees with trace-cmd ---
# (auxrec and the workload share CPU 0: the reader runs only when the writer is preempted, so
# the burst overruns the buffer every time; on two CPUs a quick reader may keep up with it)
timeout 60 taskset -c 0 "$auxrec" record -o "$tmp/lost" --ftrace ftrace:print --ftrace-mode read \
	--ftrace-buffer-kb 8 -- "$marker" 20000 0 200 >"$tmp/lost.log" 2>&1
check "a recording that loses events exits 0" [ $? -eq 0 ]
timeout 60 trace-cmd report -i "$tmp/lost/trace.dat" >"$tmp/lost.report" 2>/dev/null
marks=$(grep -c 'EVENTS DROPPED' "$tmp/lost.report")
dropped=$(grep -o '\[[0-9]* EVENTS DROPPED' "$tmp/lost.report" | awk '{ s += substr($1, 2) } END { print s + 0 }')
read -r lost reports < <(sed -n 's/^auxrec: ftrace lost \([0-9]*\) events.* (\([0-9]*\) reports).*/\1 \2/p' \
	"$tmp/lost.log")
check "trace-cmd reports lost events ($marks marks)" [ "$marks" -gt 0 ]
check "auxrec's summary counts as many loss reports ($reports)" [ "${reports:-x}" = "$marks" ]
check "... and as many lost events as trace-cmd's counts ($lost vs $dropped)" \
	[ "${lost:-x}" = "$dropped" ]
kept=$(grep -c 'auxtrace-marker' "$tmp/lost.report")
# (other programs' trace_marker writes are copied in and may be among the lost: at least)
check "every marker is either in the file or counted lost ($kept + $lost of 20000)" \
	[ $((kept + ${lost:-0})) -ge 20000 ]

# --- perf: samples of a workload, with its comm and its binary's symbols ---
timeout 60 "$auxrec" record -o "$tmp/pd" -e cpu-clock -- "$loop" 5000000 >"$tmp/pd.log" 2>&1
check "perf recording exits 0" [ $? -eq 0 ]
check "... and writes perf.data with mode 0600" \
	[ "$(stat -c %a "$tmp/pd/perf.data" 2>/dev/null)" = 600 ]
timeout 60 perf script -i "$tmp/pd/perf.data" -F comm,tid,ip,sym,dso >"$tmp/pd.script" 2>"$tmp/pd.err"
check "perf script reads it" [ $? -eq 0 ]
check "perf script: samples of getppid-loop" grep -q '^ *getppid-loop ' "$tmp/pd.script"
check "perf script: symbols of the workload's binary (main)" \
	grep -q 'main.*getppid-loop)' "$tmp/pd.script"
check "perf script: symbols of its libraries" grep -q 'libc.so' "$tmp/pd.script"
timeout 60 perf report -D -i "$tmp/pd/perf.data" >"$tmp/pd.dump" 2>&1
check "perf report -D walks the whole file" [ $? -eq 0 ]
check "... without an error" bash -c "! grep -qiE 'failed to process|bad event|error' '$tmp/pd.dump'"
check "... to its feature sections" grep -q 'FINISHED_ROUND' "$tmp/pd.dump"
timeout 60 perf report -i "$tmp/pd/perf.data" --header-only >"$tmp/pd.hdr" 2>&1
check "perf report --header-only: hostname, cmdline, event names" \
	bash -c "grep -q 'hostname' '$tmp/pd.hdr' && grep -q 'cmdline.*auxrec' '$tmp/pd.hdr' && grep -q 'name = cpu-clock' '$tmp/pd.hdr'"

# one busy CPU among idle ones: perf sorts by FINISHED_ROUND, so each round must have read
# every ring, not only the ready ones, or the idle CPU's records come out of order
timeout 60 "$auxrec" record -o "$tmp/busy" -a -e cpu-clock -e syscalls:sys_enter_getpgid \
	-- "$loop" 200000 0 getpgid >"$tmp/busy.log" 2>&1
check "a system-wide recording with one busy CPU exits 0" [ $? -eq 0 ]
timeout 60 perf script -i "$tmp/busy/perf.data" -F time >/dev/null 2>"$tmp/busy.err"
check "... and perf finds every record in order" bash -c "! grep -q 'out of order' '$tmp/busy.err'"

# the same through the pipe format
timeout 60 "$auxrec" record -o - -e cpu-clock -- "$loop" 5000000 2>"$tmp/pipe.log" |
	timeout 60 perf script -i - -F comm,ip,sym,dso >"$tmp/pipe.script" 2>"$tmp/pipe.err"
check "-o - | perf script -i -: both exit 0" [ "${PIPESTATUS[0]}${PIPESTATUS[1]}" = 00 ]
check "... with the workload's samples and symbols" grep -q 'getppid-loop.*main' "$tmp/pipe.script"
timeout 60 "$auxrec" record -o - -e cpu-clock -- "$loop" 1000 2>/dev/null |
	timeout 60 perf report -D -i - >"$tmp/pipe.dump" 2>&1
check "... and perf report -D -i - walks the stream" \
	bash -c "grep -q 'PERF_RECORD_SAMPLE' '$tmp/pipe.dump' && ! grep -qi 'failed to process' '$tmp/pipe.dump'"

# --- the output directory ---
timeout 60 "$auxrec" record -o "$tmp/pd" -e cpu-clock -- true >/dev/null 2>&1
check "an existing recording is kept as DIR.old" [ -s "$tmp/pd.old/perf.data" ]
mkdir "$tmp/mine" && touch "$tmp/mine/notes.txt"
timeout 60 "$auxrec" record -o "$tmp/mine" -e cpu-clock -- true >"$tmp/mine.log" 2>&1
check "a directory that is not a recording is refused" [ $? -ne 0 ]
check "... by name, and left as it was" \
	bash -c "grep -q 'not an auxrec recording' '$tmp/mine.log' && [ -e '$tmp/mine/notes.txt' ] && [ ! -e '$tmp/mine.old' ]"
echo | timeout 60 "$auxrec" record -o - --ftrace sched:sched_switch -a --duration 0.1 >"$tmp/pipeft.log" 2>&1
check "-o - with --ftrace says trace.dat needs a directory" grep -q 'trace.dat needs a directory' "$tmp/pipeft.log"

# --- bad input: a clear error, non-zero exit, nothing that looks valid and is not ---
bad() {	# bad NAME PATTERN ARGS...: fails, says PATTERN, leaves no output directory
	local name=$1 pattern=$2; shift 2
	timeout 60 "$auxrec" record -o "$tmp/bad-$name" "$@" >"$tmp/bad-$name.log" 2>&1
	check "$name: exits non-zero" [ $? -ne 0 ]
	check "$name: says '$pattern'" grep -q "$pattern" "$tmp/bad-$name.log"
	check "$name: leaves no output" [ ! -e "$tmp/bad-$name" ]
}
bad unknown-event "unknown event 'nope'" -e nope -- true
bad bad-m "Invalid argument for -m" -e cpu-clock -m abc -- true
bad bad-S "No AUX area tracing to snapshot" -e cpu-clock -S -- true
bad bad-ftrace "no ftrace event matches" --ftrace sched:no_such_event -a --duration 0.1
check "bad-ftrace: the error is printed once" [ "$(grep -c no_such_event "$tmp/bad-bad-ftrace.log")" -eq 1 ]

# an unwritable place and a full disk, on tmpfs mounts of a mount namespace of our own
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	mkdir "$tmp/ro"
	unshare -m sh -c "mount -t tmpfs -o ro,size=64k tmpfs '$tmp/ro' &&
		exec timeout 60 '$auxrec' record -o '$tmp/ro/d' -e cpu-clock -- true" >"$tmp/ro.log" 2>&1
	check "a read-only place: non-zero exit" [ $? -ne 0 ]
	check "... naming the directory and the cause" grep -q "cannot create the output directory.*Read-only" "$tmp/ro.log"
	# full64 NAME ARGS...: auxrec record ARGS of a workload that outlasts the 64 KiB (not -a:
	# the side-band of every process on a busy machine can exceed them) and no --duration:
	# the recording ends when the disk is full, however little a busy machine runs the loop.
	# perf.data is copied out to $tmp/NAME.data. The mount namespace takes the tmpfs with
	# it however the test ends.
	full64() {
		local name=$1; shift
		mkdir "$tmp/$name"
		unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$tmp/$name' &&
			timeout 60 '$auxrec' record -o '$tmp/$name/d' $* -- '$loop' 1000000000;
			rc=\$?; timeout 60 perf report -D -i '$tmp/$name/d/perf.data' >/dev/null 2>&1;
			echo \"perf report -D: \$?\"; ls -la '$tmp/$name/d';
			cp '$tmp/$name/d/perf.data' '$tmp/$name.data'; exit \$rc" >"$tmp/$name.log" 2>&1
	}
	# fullperf NAME: what auxrec said of NAME.data is what perf 6.1 finds in it: the samples
	# it says perf reads (perf report -D and perf script count them all), or that perf
	# cannot read it (and perf refuses it). Prints "read N", "unreadable" or what broke.
	fullperf() {
		local name=$1 kept dump script
		kept=$(sed -n 's/.*perf reads the \([0-9]*\) samples it keeps.*/\1/p' "$tmp/$name.log")
		if grep -q "perf cannot read $tmp/$name/d/perf.data" "$tmp/$name.log"; then
			timeout 60 perf report -D -i "$tmp/$name.data" >/dev/null 2>&1 &&
				{ echo "auxrec says unreadable, perf report -D reads it"; return; }
			echo unreadable
			return
		fi
		[ -n "$kept" ] || { echo "auxrec says neither"; return; }
		dump=$(timeout 60 perf report -D -i "$tmp/$name.data" 2>"$tmp/$name.err" |
			grep -c 'PERF_RECORD_SAMPLE') && [ "${PIPESTATUS[0]}" = 0 ] ||
			{ echo "perf report -D: $(tail -1 "$tmp/$name.err")"; return; }
		script=$(timeout 60 perf script -i "$tmp/$name.data" 2>"$tmp/$name.err" |
			grep -c 'syscalls:sys_enter_') && [ "${PIPESTATUS[0]}" = 0 ] ||
			{ echo "perf script: $(tail -1 "$tmp/$name.err")"; return; }
		[ "$kept" = "$dump" ] && [ "$kept" = "$script" ] && [ "$kept" -gt 0 ] &&
			echo "read $kept" && return
		echo "auxrec says $kept samples, perf report -D finds $dump, perf script $script"
	}
	# perf.data alone, so that it is the file the disk fills under (beside trace.dat, the
	# first sched_switch page of a workload that a busy machine keeps switching came first)
	full64 full -e cpu-clock
	check "a full disk: non-zero exit" [ $? -ne 0 ]
	check "... saying so" grep -qi "no space left" "$tmp/full.log"
	check "... perf.data says how far it goes and perf still reads it" \
		bash -c "grep -q 'is incomplete' '$tmp/full.log' && grep -q 'perf report -D: 0' '$tmp/full.log'"
	# A tracepoint, whose formats perf needs and which (with the saved cmdlines) need more
	# than the disk holds: they go in cut to the formats, records cut to make room for them
	full64 fulltp -e syscalls:sys_enter_getppid
	check "a full disk, a tracepoint: non-zero exit" [ $? -ne 0 ]
	r=$(fullperf fulltp)
	check "... perf reads the samples auxrec says it kept ($r)" [ "${r% *}" = read ]
	# formats that take more than the disk: perf cannot read the file, and auxrec says so
	full64 fullfmt -e 'syscalls:sys_enter_s*' -e 'syscalls:sys_enter_m*' \
		-e syscalls:sys_enter_getppid
	check "a full disk, more formats than it holds: non-zero exit" [ $? -ne 0 ]
	r=$(fullperf fullfmt)
	check "... auxrec says what perf finds ($r)" \
		bash -c "[ '$r' = unreadable ] || [ '${r% *}' = read ]"
	full64 fullft -e cpu-clock --ftrace sched:sched_switch
	check "a full disk with trace.dat: non-zero exit" [ $? -ne 0 ]
	check "... no trace.dat that looks whole" bash -c "! grep -q ' trace.dat$' '$tmp/fullft.log'"
	check "... perf still reads perf.data" grep -q 'perf report -D: 0' "$tmp/fullft.log"
	# Room for trace.dat's description (kallsyms) and some data, which a workload fills:
	# both files keep what fit and read in perf and trace-cmd. The workload's events only
	# (a command, not -a): other programs' getpgid calls on a busy machine (other tests run
	# this loop too) filled the disk before the workload began, leaving none of its events.
	# No --duration either: the recording ends when the disk is full or the workload exits,
	# which it does only after making four times the calls that fit.
	mkdir "$tmp/full8"
	unshare -m sh -c "mount -t tmpfs -o size=8m tmpfs '$tmp/full8' &&
		{ timeout 60 '$auxrec' record -o '$tmp/full8/d' -e cpu-clock \
			--ftrace syscalls:sys_enter_getpgid -- \
			sh -c 'echo \$\$ \$PPID >$tmp/full8.pids; exec $loop 400000 0 getpgid';
		  echo \"rc=\$?\"; }
		timeout 60 perf report -D -i '$tmp/full8/d/perf.data' >/dev/null 2>&1
		echo \"perf report -D: \$?\"
		timeout 60 trace-cmd report '$tmp/full8/d/trace.dat' >'$tmp/full8.trace' 2>&1
		echo \"trace-cmd report: \$?\"; ls -a '$tmp/full8/d'" >"$tmp/full8.log" 2>&1
	read -r w r <"$tmp/full8.pids" || w=none r=none	# the workload, and auxrec (its parent)
	n=$(grep -c -- "-$w *\[" "$tmp/full8.trace")
	check "a disk that fills: auxrec stops, non-zero exit" grep -q "^rc=[1-9]" "$tmp/full8.log"
	check "... naming the filesystem and what each file holds" \
		grep -q "filesystem mounted at $tmp/full8 (tmpfs.*is full.*perf.data holds .* KiB.*trace.dat holds" "$tmp/full8.log"
	check "... perf reads perf.data" grep -q "perf report -D: 0" "$tmp/full8.log"
	check "... trace-cmd reads trace.dat, with the workload's events that fit ($n)" \
		bash -c "grep -q 'trace-cmd report: 0' '$tmp/full8.log' && [ '$n' -gt 1000 ]"
	check "... no spool or saved features left" \
		bash -c "! grep -qx 'trace.dat.spool\\|perf.data.features' '$tmp/full8.log'"
	check "... no instance left (auxrec-$r)" [ ! -e "$tracefs/instances/auxrec-$r" ]
	check "no tmpfs of these cases is left mounted" bash -c "! grep -q ' $tmp/' /proc/self/mounts"
else
	echo "SKIP: unshare -m is not available: read-only and full-disk cases not run"
fi

[ $fail -eq 0 ] || for f in "$tmp"/*.log; do echo "== $f"; tail -5 "$f"; done
exit $fail
