#!/bin/bash
# auxrec convert --to chrome on a recording auxrec record made (cpu-clock samples system-wide,
# ftrace sched_switch and sched_wakeup, a workload of a getppid loop, a sleep, then two loops
# in parallel), checked against the real tools:
#  - the file is JSON (python's json.load), every event has ph and ts (speedscope's rule),
#    every slice a dur; a task whose comm holds a quote, a backslash and a control byte is
#    named by its comm;
#  - one task slice (cat "sched") per sched_switch line of trace-cmd report, per CPU in the
#    same order, each the switch's prev task, from the CPU's previous switch to this one; one
#    tail slice per CPU with switches, for the task its last switch put on;
#  - slices of one CPU never overlap;
#  - one ftrace instant per trace-cmd report line, per event name; one perf instant per
#    perf script line;
#  - on a perf.data alone with sched:sched_switch samples, and on one with context-switch
#    records (--switch-events): a slice per perf script switch line (a switch out of a CPU),
#    per CPU in the same order, each the switch's prev task;
#  - --time START,STOP keeps exactly trace-cmd's lines within the window;
#  - a damaged trace.dat and a file that is no recording: exit 1, an error naming the file,
#    no output file left behind; no -o: exit 2.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
loop=$PWD/$B/tests/progs/getppid-loop
. tests/scripts/check-lib.sh
needs_tracefs "tracefs, system-wide perf events"
needs_tools perf trace-cmd python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$out" || exit 1

# a comm JSON must escape: the file name the workload runs
odd=$'q"b\\\x01c'
cp "$loop" "$odd"
timeout 120 "$auxrec" record -a --duration 1 -e cpu-clock --ftrace sched:sched_switch \
	--ftrace sched:sched_wakeup -o rec -- /bin/sh -c \
	"$loop 200000; sleep 0.2; $loop 200000 & ./'$odd' 200000; wait" >record.log 2>&1
check "auxrec record makes the recording" [ $? -eq 0 ]
timeout 120 "$auxrec" convert --to chrome -o rec.json rec 2>convert.err
check "auxrec convert exits 0" [ $? -eq 0 ]
cat convert.err
timeout 120 trace-cmd report -t -i rec/trace.dat >tc.txt 2>/dev/null
check "trace-cmd report reads trace.dat" [ $? -eq 0 ]
timeout 120 perf script -i rec/perf.data >ps.txt 2>/dev/null
check "perf script reads perf.data" [ $? -eq 0 ]

# compare.py JSON TRACE-CMD PERF-SCRIPT [START STOP]: one "ok:"/"FAILED:" line per check
cat >compare.py <<'PY'
import json, re, sys
from collections import Counter, defaultdict
ev = json.load(open(sys.argv[1]))['traceEvents']
lo, hi = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0, 1 << 64)
def ns(us):
    return round(us * 1000)
def check(what, ok, detail=''):
    print(('ok: ' if ok else 'FAILED: ') + what + (' (%s)' % detail if detail else ''))
check('every event has ph and ts', all('ph' in e and 'ts' in e for e in ev))
check('every slice has a dur', all('dur' in e for e in ev if e['ph'] == 'X'))
if len(sys.argv) <= 5:
    odd = 'q"b\\\x01c'
    check('a slice named by a comm JSON escapes', any(e['name'] == odd for e in ev if e['ph'] == 'X'))
cpus = next(e['pid'] for e in ev if e['ph'] == 'M' and e['args'].get('name') == 'CPUs')
tc_re = re.compile(r'^\s*.*?-\d+\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s*(.*)$')
tc_sw = re.compile(r'^(.*):(-?\d+) \[-?\d+\] \S+ ==> (.*):(-?\d+) \[-?\d+\]')
names, switches, last = Counter(), defaultdict(list), {}
for l in open(sys.argv[2]):
    m = tc_re.match(l)
    if not m:
        continue
    cpu, t, name = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)), m.group(4)
    if not lo <= t <= hi:
        continue
    names[name] += 1
    if name == 'sched_switch':
        s = tc_sw.match(m.group(5))
        switches[cpu].append((t, int(s.group(2)), int(s.group(4))))
ours = Counter(e['name'] for e in ev if e['ph'] == 'i' and e['cat'] == 'ftrace')
check('an ftrace instant per trace-cmd report line, per event', ours == names,
      '%s vs %s' % (dict(ours), dict(names)))
nr_perf = sum(1 for l in open(sys.argv[3]) if l.strip())
mine = sum(1 for e in ev if e['ph'] == 'i' and e['cat'] == 'perf')
if len(sys.argv) <= 5:
    check('a perf instant per perf script line', mine == nr_perf, '%d vs %d' % (mine, nr_perf))
slices = defaultdict(list)
for e in ev:
    if e['ph'] == 'X':
        check('slices are on the CPUs track', e['pid'] == cpus) if e['pid'] != cpus else None
        slices[e['tid']].append(e)
nr = sum(len(v) for v in switches.values())
got = sum(1 for v in slices.values() for e in v if e['cat'] == 'sched')
check('a task slice per sched_switch', got == nr and nr > 0, '%d vs %d' % (got, nr))
tails = sum(1 for v in slices.values() for e in v if e['cat'] == 'sched,tail')
check('a tail slice per CPU with switches', tails == len(switches), '%d vs %d' % (tails, len(switches)))
order = all([(ns(e['ts'] + e['dur']), e['args']['tid']) for e in slices[c] if e['cat'] == 'sched']
            == [(t, prev) for t, prev, nxt in switches[c]] for c in switches)
check('each CPU\'s slices end at its switches, in order, with the prev task', order)
tail_ok = all([e['args']['tid'] for e in slices[c] if e['cat'] == 'sched,tail'] ==
              [switches[c][-1][2]] for c in switches)
check('each tail slice is the task the CPU\'s last switch put on', tail_ok)
overlap = 0
for c, v in slices.items():
    v.sort(key=lambda e: e['ts'])
    overlap += sum(1 for a, b in zip(v, v[1:]) if ns(a['ts'] + a['dur']) > ns(b['ts']))
check('slices of one CPU never overlap', overlap == 0, '%d overlaps' % overlap)
timed = [ns(e['ts']) for e in ev if e['ph'] != 'M']
check('every event within the window', all(lo <= t <= hi for t in timed))
PY
python3 compare.py rec.json tc.txt ps.txt >compare.out 2>&1
check "the whole recording: compare.py runs" [ $? -eq 0 ]
cat compare.out
grep -q FAILED compare.out && fail=1

# the middle third of the ftrace events, by count: the middle third of their span may hold
# none when the workload's loops run long between switches (a SANITIZE=1 CI run saw that)
read -r lo hi window < <(python3 -c "
import re
t = [int(a + b) for a, b in re.findall(r'\] (\d+)\.(\d{9}):', open('tc.txt').read())]
lo, hi = t[len(t) // 3], t[2 * len(t) // 3]
print(lo, hi, '%d.%09d,%d.%09d' % (lo // 10**9, lo % 10**9, hi // 10**9, hi % 10**9))")
timeout 120 "$auxrec" convert --to chrome --time "$window" -o win.json rec 2>win.err
check "--time $window: exits 0" [ $? -eq 0 ]
python3 compare.py win.json tc.txt ps.txt "$lo" "$hi" >win.out 2>&1
check "--time: compare.py runs" [ $? -eq 0 ]
sed 's/^/--time: /' win.out
grep -q FAILED win.out && fail=1

# perf.data alone: the switches are its sched:sched_switch samples
timeout 120 "$auxrec" record -a --duration 0.5 -e sched:sched_switch -o prec -- \
	/bin/sh -c "$loop 100000; sleep 0.1; $loop 100000" >prec.log 2>&1
check "auxrec record makes a perf.data with sched_switch samples" [ $? -eq 0 ]
timeout 120 "$auxrec" convert -q --to chrome -o prec.json prec
check "auxrec convert on it exits 0" [ $? -eq 0 ]
timeout 120 perf script --ns -i prec/perf.data >prec.txt 2>/dev/null
# perfsw.py JSON PERF-SCRIPT --ns: the slices end at perf script's switches (sched_switch
# samples, or context-switch records out of a CPU), per CPU in order, with the prev task
cat >perfsw.py <<'PY'
import json, re, sys
from collections import defaultdict
ev = json.load(open(sys.argv[1]))['traceEvents']
tp = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d{9}):\s+sched:sched_switch:.*prev_pid=(\d+)')
# a task switching out as it exits has no pid left: the kernel writes -1, perf script too
rec = re.compile(r'\s(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}): PERF_RECORD_SWITCH_CPU_WIDE OUT')
want, got = defaultdict(list), defaultdict(list)
for l in open(sys.argv[2]):
    m = tp.search(l)
    if m:
        want[int(m.group(1))].append((int(m.group(2) + m.group(3)), int(m.group(4))))
    m = rec.search(l)
    if m:
        want[int(m.group(2))].append((int(m.group(3) + m.group(4)), int(m.group(1))))
for e in ev:
    if e['ph'] == 'X' and e['cat'] == 'sched':
        got[e['tid']].append((round((e['ts'] + e['dur']) * 1000), e['args']['tid']))
n = sum(map(len, want.values()))
ok = got == want and n > 0
print(('ok: ' if ok else 'FAILED: ') +
      'a slice per perf script switch line, in order, with the prev task (%d)' % n)
for c in sorted(set(want) | set(got)):	# where they part, to tell why
    w, g = want[c], got[c]
    i = next((i for i, (a, b) in enumerate(zip(w, g)) if a != b), min(len(w), len(g)))
    if w != g:
        print('  CPU %d: %d vs %d switches; from #%d perf script has %s, the JSON %s' %
              (c, len(w), len(g), i, w[i:i + 3], g[i:i + 3]))
sys.exit(0 if ok else 1)
PY
python3 perfsw.py prec.json prec.txt
[ $? -eq 0 ] || fail=1

# perf.data alone with context-switch records (--switch-events): switches out of each CPU
timeout 120 "$auxrec" record -a --duration 0.5 --switch-events -e cpu-clock -o srec -- \
	/bin/sh -c "$loop 100000; sleep 0.1; $loop 100000" >srec.log 2>&1
check "auxrec record makes a perf.data with context-switch records" [ $? -eq 0 ]
timeout 120 "$auxrec" convert -q --to chrome -o srec.json srec
check "auxrec convert on it exits 0" [ $? -eq 0 ]
timeout 120 perf script --ns --show-switch-events -i srec/perf.data >srec.txt 2>/dev/null
python3 perfsw.py srec.json srec.txt
[ $? -eq 0 ] || fail=1

# the sub-buffer in the middle of the last CPU's data gets a commit word of 0xffffff bytes
cp -r rec damaged
read -r data size < <(timeout 60 trace-cmd dump --flyrecord -i rec/trace.dat 2>/dev/null |
		      awk '/offset, size of cpu/ { o = $1; s = $2 } END { print o, s }')
page=$(( data + size / 2 / 4096 * 4096 ))
printf '\xff\xff\xff\x00' | dd of=damaged/trace.dat bs=1 seek=$((page + 8)) conv=notrunc \
	status=none
timeout 120 "$auxrec" convert --to chrome -o damaged.json damaged 2>damaged.err
check "a damaged trace.dat: exit 1" [ $? -eq 1 ]
check "... an error naming the file" grep -q "damaged" damaged.err
check "... no output left behind" [ ! -e damaged.json ]
head -c 3000 rec/perf.data >notrec
timeout 60 "$auxrec" convert --to chrome -o notrec.json notrec 2>notrec.err
check "a truncated perf.data: exit 1" [ $? -eq 1 ]
check "... an error naming the file" grep -q "notrec" notrec.err
check "... no output left behind" [ ! -e notrec.json ]
"$auxrec" convert --to chrome rec 2>noout.err
check "no -o: exit 2 with a message" [ $? -eq 2 -a -s noout.err ]
cat damaged.err notrec.err noout.err
exit $fail
