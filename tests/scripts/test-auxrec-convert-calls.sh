#!/bin/bash
# auxrec convert's call slices on Intel PT and BTS recordings that the AUX test producer wrote
# of a program built here with a known call tree (tests/progs/flame-recording: f -> run ->
# load, compute, save, ...), checked against auxrec script --call-ret-trace and perf script
# --call-ret-trace (perf 6.1's own PT decoder) on the same file:
#  - the file is JSON, every event has ph and ts, every slice a dur;
#  - a call slice per call line, and a slice ended by a return (or a return from a call before
#    the trace) per return line; the summary line says the same counts;
#  - slices of a thread nest (two slices are disjoint or one holds the other), and each
#    slice's innermost holder is the function the program's table says calls it;
#  - the whole trace: f, entered before the trace began, is one slice around all the others;
#    the cut trace (it starts inside load and stops inside compress): load ends at its return
#    and starts at the thread's first branch, compress and save are open at the end and end at
#    the last branch; nothing else is unbalanced;
#  - BTS: its branches have no time, so no call slices, and the summary says why.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
rec=$PWD/$B/tests/progs/flame-recording
. tests/scripts/check-lib.sh
needs_tools perf python3
out=$(mktemp -d)
elfs=()
cleanup() { rm -rf "$out" "${elfs[@]}"; }
trap cleanup EXIT
cd "$out" || exit 1

cat >calls.py <<'PY'
import json, re, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
mode = sys.argv[4]
def check(what, ok, detail=''):
    print(('ok: ' if ok else 'FAILED: ') + mode + ': ' + what + (' (%s)' % detail if detail else ''))
caller = {'run': 'f', 'load': 'run', 'compute': 'run', 'save': 'run',
          'read_block': 'load', 'parse_line': 'read_block', 'next_token': 'parse_line',
          'transform': 'compute', 'hash': 'transform', 'mix': 'transform', 'rotate': 'mix',
          'compress': 'save', 'write_out': 'save', 'deflate_block': 'compress'}
check('every event has ph and ts', all('ph' in e and 'ts' in e for e in ev))
check('every slice has a dur', all('dur' in e for e in ev if e['ph'] == 'X'))
calls = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'call']
kind = re.compile(r'^\s*\S+\s+\d+\s+(.*?)\s+\(')
def lines(path):
    k = [kind.match(l).group(1).strip() for l in open(path) if kind.match(l)]
    return sum(1 for x in k if x == 'call'), sum(1 for x in k if x.endswith('return'))
ends = {}
for e in calls:
    ends[e['args']['end']] = ends.get(e['args']['end'], 0) + 1
ret = ends.get('return', 0) + ends.get('return from a call before the trace', 0)
opened = len(calls) - ends.get('return from a call before the trace', 0)
for tool, path in (('auxrec script', sys.argv[2]), ('perf script', sys.argv[3])):
    c, r = lines(path)
    check('a call slice per %s --call-ret-trace call' % tool, opened == c and c > 100,
          '%d vs %d' % (opened, c))
    check('a slice ended by a return per %s return' % tool, ret == r, '%d vs %d' % (ret, r))
summary = open(sys.argv[5]).read()
m = re.search(r'(\d+) call slices \((\d+) calls, (\d+) returns', summary)
check('the summary counts the slices', m and int(m.group(1)) == len(calls), summary.strip())
bad, wrong = 0, []
by_tid = {}
for e in calls:
    by_tid.setdefault(e['tid'], []).append((round(e['ts'] * 1000), round((e['ts'] + e['dur']) * 1000), e))
for v in by_tid.values():
    for a0, a1, a in v:
        holders = [(b1 - b0, b) for b0, b1, b in v if b is not a and b0 <= a0 and a1 <= b1
                   and b['args']['depth'] < a['args']['depth'] or
                   (b is not a and b0 <= a0 and a1 <= b1 and b['args']['end'].startswith('return from'))]
        bad += sum(1 for b0, b1, b in v if b is not a and a0 < b0 < a1 < b1)
        inner = min(holders, key=lambda h: (h[0], -h[1]['args']['depth']))[1]['name'] if holders else None
        if a['name'] in caller and inner is not None and inner != caller[a['name']]:
            wrong.append((a['name'], inner))
check('slices of a thread nest', bad == 0, '%d overlap' % bad)
check('each slice sits in its caller\'s', not wrong, str(wrong[:3]))
unbal = {(e['name'], e['args']['end']) for e in calls if e['args']['end'] not in ('return',)}
if mode == 'pt':
    check('f alone entered before the trace', unbal == {('f', 'return from a call before the trace')}, str(unbal))
    f = [e for e in calls if e['name'] == 'f'][0]
    check('f holds every other slice', all(f['ts'] <= e['ts'] and e['ts'] + e['dur'] <= f['ts'] + f['dur'] + 1e-3 for e in calls))
else:
    check('load before the trace, compress and save open at the end', unbal == {
        ('load', 'return from a call before the trace'),
        ('compress', "open at the end: ended at the thread's last branch"),
        ('save', "open at the end: ended at the thread's last branch")}, str(unbal))
    first = min(e['ts'] for e in calls)
    last = max(e['ts'] + e['dur'] for e in calls)
    load = [e for e in calls if e['name'] == 'load'][0]
    check('load starts at the first branch', load['ts'] == first)
    check('the open calls end at the last branch', all(abs(e['ts'] + e['dur'] - last) < 1e-3
          for e in calls if e['args']['end'].startswith('open')))
PY

for mode in pt pt-cut; do
	timeout 60 "$rec" $mode $mode.data >$mode.rec 2>&1
	rc=$?
	[ $rc -eq 77 ] && skip "gcc cannot build the traced program"
	check "flame-recording $mode writes a recording" [ $rc -eq 0 ]
	elfs+=("$(awk '/^elf / { print $2 }' $mode.rec)")
	timeout 60 "$auxrec" convert --to chrome -o $mode.json $mode.data 2>$mode.err
	check "$mode: auxrec convert exits 0" [ $? -eq 0 ]
	cat $mode.err
	timeout 60 "$auxrec" script --call-ret-trace -i $mode.data >$mode.ours 2>/dev/null
	check "$mode: auxrec script --call-ret-trace exits 0" [ $? -eq 0 ]
	timeout 60 perf script --call-ret-trace -i $mode.data >$mode.perf 2>/dev/null
	check "$mode: perf script --call-ret-trace exits 0" [ $? -eq 0 ]
	python3 calls.py $mode.json $mode.ours $mode.perf $mode $mode.err >$mode.out 2>&1
	check "$mode: calls.py runs" [ $? -eq 0 ]
	cat $mode.out
	grep -q FAILED $mode.out && fail=1
done

timeout 60 "$rec" bts bts.data >bts.rec 2>&1
check "flame-recording bts writes a recording" [ $? -eq 0 ]
elfs+=("$(awk '/^elf / { print $2 }' bts.rec)")
timeout 60 "$auxrec" convert --to chrome -o bts.json bts.data 2>bts.err
check "bts: auxrec convert exits 0" [ $? -eq 0 ]
cat bts.err
check "bts: the JSON loads" python3 -c "import json; json.load(open('bts.json'))"
check "bts: no call slice, and the summary says why" \
	grep -q " 0 call slices.* branches without a time left out (BTS has none" bts.err
exit $fail
