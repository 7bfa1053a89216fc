#!/bin/bash
# auxrec report says what ran, checked against the real tools on a recording made by auxrec
# record (cpu-clock samples system-wide, ftrace sched_switch and sys_enter_getppid, 1 s of a
# getppid loop as the workload):
#  - each task's time on CPU equals what trace-cmd report's sched_switch lines give (each
#    CPU's time from its first event to its last, cut at its switches, each piece to the
#    task that ran it), to the nanosecond; and on a perf.data alone with sched_switch
#    samples, what perf script's give;
#  - each event's count equals trace-cmd report's (ftrace) or perf script's (perf);
#  - the top symbols are perf report --sort comm,dso,sym's rows, within rounding (but
#    unresolved addresses, which perf lists one by one and the report folds per dso);
#  - the start, printed as a date, is within seconds of when the recording started (perf.data
#    has CLOCK_DATA on perf's default clock, and perf script -F+tod reads it);
#  - with 340 syscall events recorded, no line of the report is longer than 160 columns.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
AUXREC=$B/auxrec
out=$B/report-ran
. tests/scripts/check-lib.sh

needs_tracefs "tracefs, system-wide perf events"
needs_tools perf trace-cmd python3

rm -rf "$out"
mkdir -p "$out"
rec=$out/rec
started=$(date +%s)
# for 1 s of a loop that outlasts it: at the end a task is on each CPU, its last piece counts
timeout 120 "$AUXREC" record -a --duration 1 -e cpu-clock --ftrace sched:sched_switch \
	--ftrace syscalls:sys_enter_getppid -o "$rec" -- "$B/tests/progs/getppid-loop" 1000000000 \
	>"$out/record.log" 2>&1
check "auxrec record makes the recording" [ $? -eq 0 ]
"$AUXREC" report "$rec" >"$out/report.txt" 2>"$out/report.err"
check "auxrec report exits 0" [ $? -eq 0 ]
timeout 120 trace-cmd report -t -i "$rec/trace.dat" >"$out/trace-cmd.txt" 2>/dev/null
check "trace-cmd report reads trace.dat" [ $? -eq 0 ]

# ---- time on CPU against the switches trace-cmd report and perf script print ----
# oncpu.py TOOL-OUTPUT REPORT SOURCE: each task's time on CPU from the switch lines of either
# tool, the report's tasks table on that source equal to the nanosecond
cat >"$out/oncpu.py" <<'EOF'
import re, sys
tc_re = re.compile(r'^\s*.*?-\d+\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s*(.*)$')
tc_sw = re.compile(r'^(.*):(-?\d+) \[-?\d+\] \S+ ==> (.*):(-?\d+) \[-?\d+\]')
ps_re = re.compile(r'^\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s*(.*)$')
ps_sw = re.compile(r'prev_comm=(.*) prev_pid=(-?\d+) .* ==> next_comm=(.*) next_pid=(-?\d+)')
first, last, since, cur, oncpu = {}, {}, {}, {}, {}
def credit(tid, ns):
    oncpu[tid] = oncpu.get(tid, 0) + ns
for l in open(sys.argv[1]):
    m = tc_re.match(l) or ps_re.match(l)
    if not m:
        continue
    cpu, t = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3))
    if cpu not in first:
        first[cpu] = since[cpu] = t
    last[cpu] = t
    if m.group(4) not in ('sched_switch', 'sched:sched_switch'):
        continue
    s = tc_sw.match(m.group(5)) or ps_sw.search(m.group(5))
    credit(int(s.group(2)), t - since[cpu])
    since[cpu], cur[cpu] = t, int(s.group(4))
for cpu, tid in cur.items():
    credit(tid, last[cpu] - since[cpu])
rows = [l for l in open(sys.argv[2])]
start = next(i for i, l in enumerate(rows) if l.startswith('tasks: time on CPU from ' + sys.argv[3]))
bad = checked = 0
for l in rows[start + 2:]:
    f = l.split()
    if not f or f[0].startswith('('):
        break
    tid, secs = int(f[-5]), f[-4]
    ours = int(secs.replace('.', ''))
    checked += 1
    if ours != oncpu.get(tid, 0):
        bad += 1
        print('tid %d: report %d ns, the tool %d ns' % (tid, ours, oncpu.get(tid, 0)))
print('checked %d tasks, %d differ' % (checked, bad))
sys.exit(1 if bad or checked < 3 else 0)
EOF
python3 "$out/oncpu.py" "$out/trace-cmd.txt" "$out/report.txt" "trace.dat's sched:sched_switch" >"$out/oncpu.log"
rc=$?
check "time on CPU per task = trace-cmd report's sched_switch lines ($(tail -1 "$out/oncpu.log"))" [ $rc -eq 0 ]
check "the getppid loop is among the tasks shown" \
	grep -qE '^  getppid-loop ' <(sed -n '/^tasks:/,/^$/p' "$out/report.txt")
# perf.data alone, with sched:sched_switch samples: their raw fields name the next task,
# which runs to the CPU's last sample (the loop still runs when the recording ends)
timeout 120 "$AUXREC" record -a --duration 1 -e cpu-clock -e sched:sched_switch -o "$out/tp" -- \
	"$B/tests/progs/getppid-loop" 1000000000 >"$out/tp.log" 2>&1
check "auxrec record makes a recording with sched_switch samples" [ $? -eq 0 ]
"$AUXREC" report "$out/tp" >"$out/tp.txt" 2>&1
timeout 120 perf script -i "$out/tp/perf.data" -F cpu,time,event,trace --ns >"$out/tp.perf" 2>/dev/null
python3 "$out/oncpu.py" "$out/tp.perf" "$out/tp.txt" "perf.data's sched:sched_switch" >"$out/tp-oncpu.log"
rc=$?
check "... time on CPU per task = perf script's sched_switch samples ($(tail -1 "$out/tp-oncpu.log"))" [ $rc -eq 0 ]

# ---- counts per event against trace-cmd report and perf script ----
count() {	# count EVENT FILE: the events table's count
	awk -v e="$1" -v file="$2" '/^events:/ { on = 1; next } on && $1 == e && $2 == file { print $3; exit }' "$out/report.txt"
}
for ev in sys_enter_getppid sched_switch; do
	theirs=$(grep -cE "^ *.*-[0-9]+ +\[[0-9]+\] +[0-9.]+: $ev:" "$out/trace-cmd.txt")
	sys=$([ $ev = sched_switch ] && echo sched || echo syscalls)
	check "$sys:$ev: $(count $sys:$ev ftrace) in the table, trace-cmd report prints $theirs" \
		[ "$(count $sys:$ev ftrace)" = "$theirs" ]
done
theirs=$(timeout 120 perf script -i "$rec/perf.data" -F event 2>/dev/null | grep -c 'cpu-clock:')
check "cpu-clock: $(count cpu-clock perf) in the table, perf script prints $theirs" \
	[ "$(count cpu-clock perf)" = "$theirs" ]

# ---- top symbols against perf report ----
timeout 120 perf report -i "$rec/perf.data" --stdio --sort comm,dso,sym >"$out/perf-report.txt" 2>/dev/null
python3 - "$out/perf-report.txt" "$out/report.txt" >"$out/symbols.log" <<'EOF'
import re, sys
theirs = {}
for l in open(sys.argv[1]):
    m = re.match(r'^\s+([\d.]+)%\s+(.+?)\s{2,}(.+?)\s+\[(.)\]\s+(.+?)\s*$', l)
    if m:
        theirs[(m.group(2), m.group(3), m.group(4), m.group(5))] = float(m.group(1))
rows = open(sys.argv[2]).read().split('\n')
start = next(i for i, l in enumerate(rows) if l.startswith('top symbols of cpu-clock'))
bad = checked = 0
for l in rows[start + 2:]:
    m = re.match(r'^\s+([\d.]+)%\s+\d+  (.{16}) (.+?)\s+\[(.)\] (.+)$', l)
    if not m:
        break
    key = (m.group(2).strip(), m.group(3).strip(), m.group(4), m.group(5))
    ours = float(m.group(1))
    if key[3] == '[unknown]':	# perf lists each unresolved address apart; we fold them
        continue
    checked += 1
    if key not in theirs or abs(theirs[key] - ours) > 0.011:
        bad += 1
        print('%s: report %.2f%%, perf report %s' % (key, ours, theirs.get(key)))
print('checked %d rows, %d differ' % (checked, bad))
sys.exit(1 if bad or checked < 5 else 0)
EOF
rc=$?
check "top symbols = perf report --sort comm,dso,sym ($(tail -1 "$out/symbols.log"))" [ $rc -eq 0 ]
[ $rc -eq 0 ] || head -5 "$out/symbols.log"

# ---- the start as a date ----
date_s=$(sed -n 's/^  started *\([0-9-]* [0-9:]*\)\..* UTC$/\1/p' "$out/report.txt")
at=$([ -n "$date_s" ] && date -u -d "$date_s" +%s || echo 0)
check "the start, $date_s UTC, is within 5 s of when the recording began ($(date -u -d @$started '+%F %T'))" \
	[ $((at - started)) -ge -5 -a $((at - started)) -le 5 ]
tod=$(timeout 60 perf script -i "$rec/perf.data" -F+tod 2>/dev/null | head -1 | grep -oE '[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}')
check "perf script -F+tod reads the clock data ($tod)" [ -n "$tod" ]
check "... and its first sample's date is the report's start to the second" [ "$tod" = "$date_s" ]
timeout 60 "$AUXREC" record -e cpu-clock -o - -- sleep 0.1 >"$out/pipe.data" 2>/dev/null
tod=$(timeout 60 perf script -i - -F+tod <"$out/pipe.data" 2>/dev/null | head -1 | grep -oE '[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}')
check "perf's pipe format carries the clock data too ($tod)" [ -n "$tod" ]

# ---- the events table stays a table ----
timeout 120 "$AUXREC" record -a --ftrace 'syscalls:.*' -o "$out/many" -- \
	"$B/tests/progs/getppid-loop" 1000 >"$out/many.log" 2>&1
check "auxrec record records every syscall event" [ $? -eq 0 ]
"$AUXREC" report "$out/many" >"$out/many.txt"
n=$(awk '/^events:/ { on = 1; next } on && / ftrace / { n++ } END { print n + 0 }' "$out/many.txt")
check "the events table has a row per event with records ($n)" [ "$n" -ge 2 ]
check "... the ones without a record are listed too" grep -q 'recorded without a record: ' "$out/many.txt"
longest=$(grep -v '^  command ' "$out/many.txt" | wc -L)
check "no line of the report is longer than 160 columns ($longest)" [ "$longest" -le 160 ]
exit $fail
