#!/bin/bash
# auxrec report --html's flame chart in headless Chromium, on PT recordings the AUX test
# producer wrote of a program built here with a known call tree (tests/progs/flame-recording):
#  - the page has the chart: one thread row named by the program's comm, as many slices as
#    auxrec convert's call slices (whole trace and cut trace), as deep as the program's calls
#    (f run load read_block parse_line next_token: 6 levels; cut: 4);
#  - its level of detail: with write_out lasting 100 ms (pt-long), exactly the calls at least a
#    pixel of the whole view long (1/2000 of the calls' span) are on the page, the rest counted
#    as left out;
#  - a BTS recording (its branches have no time) has no chart; no console error on any page.
# Screenshots stay in $B/report-flame/ (docs/report-flame.png is the pt one).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
rec=$PWD/$B/tests/progs/flame-recording
shots=$PWD/$B/report-flame
. tests/scripts/check-lib.sh
chromium=${CHROMIUM:-$(command -v chromium)}
[ -n "$chromium" ] || skip "no chromium (scripts/install-deps installs Debian's)"
command -v python3 >/dev/null || skip "no python3"
out=$(mktemp -d)
elfs=()
trap 'rm -rf "$out" "${elfs[@]}"' EXIT
rm -rf "$shots"
mkdir -p "$shots"
cd "$out" || exit 1

# page MODE: the chart's DOM facts as "key=value" lines, and a screenshot
page() {
	timeout -k 5 60 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$out/p" \
		--enable-logging=stderr --v=0 --window-size=1300,1000 --virtual-time-budget=3000 \
		--dump-dom "file://$out/$1.html" >"$1.dom" 2>"$1.log"
	timeout -k 5 60 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$out/p" \
		--window-size=1300,780 --virtual-time-budget=3000 \
		--screenshot="$shots/$1.png" "file://$out/$1.html" >/dev/null 2>&1
	python3 - "$1.dom" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rows = re.findall(r'class="flame-thread" data-tid="(\d+)" data-slices="(\d+)" data-depth="(\d+)"', t)
print('rows=%d' % len(rows))
for tid, n, d in rows:
    print('slices=%s\ndepth=%s' % (n, d))
m = re.search(r'>([^<]*) \(pid \d+, tid \d+\)<', t)
print('label=%s' % (m.group(1) if m else ''))
PY
	grep -a 'CONSOLE' "$1.log" | grep -ai 'error' | grep -v 'WebGL\|GL Driver' | sed 's/^/console: /'
}

for mode in pt pt-cut pt-long; do
	timeout 60 "$rec" $mode $mode.data >$mode.rec 2>&1
	rc=$?
	[ $rc -eq 77 ] && skip "gcc cannot build the traced program"
	check "flame-recording $mode writes a recording" [ $rc -eq 0 ]
	elfs+=("$(awk '/^elf / { print $2 }' $mode.rec)")
	timeout 60 "$auxrec" report --html -o $mode.html $mode.data >/dev/null 2>&1
	check "$mode: auxrec report --html exits 0" [ $? -eq 0 ]
	timeout 60 "$auxrec" convert -q --to chrome -o $mode.json $mode.data
	check "$mode: auxrec convert exits 0" [ $? -eq 0 ]
	page $mode >$mode.facts
	sed "s/^/  $mode: /" $mode.facts
	check "$mode: no console error" not grep -q '^console:' $mode.facts
	check "$mode: one thread row, named prog" grep -qx 'rows=1' $mode.facts
	check "$mode: ... named prog" grep -qx 'label=prog' $mode.facts
	want=$(python3 -c "
import json
c = [e for e in json.load(open('$mode.json'))['traceEvents'] if e.get('cat') == 'call']
lo = min(round(e['ts'] * 1000) for e in c); hi = max(round((e['ts'] + e['dur']) * 1000) for e in c)
print(sum(1 for e in c if round(e['dur'] * 1000) >= (hi - lo) // 2000), len(c))")
	read -r kept total <<<"$want"
	check "$mode: the slices on the page are convert's at least a pixel long ($kept of $total)" \
		grep -qx "slices=$kept" $mode.facts
	grep -o '"total":[0-9]*,"dropped":[0-9]*' $mode.html | sed "s/^/  $mode: /"
	check "$mode: the page counts the ones left out" \
		grep -q "\"total\":$total,\"dropped\":$((total - kept))," $mode.html
done
check "pt: 6 levels (f run load read_block parse_line next_token)" grep -qx 'depth=6' pt.facts
check "pt-cut: 4 levels (load read_block parse_line next_token)" grep -qx 'depth=4' pt-cut.facts
check "pt-long: calls shorter than a pixel are left out" not grep -qx "slices=$total" pt-long.facts
timeout 60 "$rec" bts bts.data >bts.rec 2>&1
elfs+=("$(awk '/^elf / { print $2 }' bts.rec)")
timeout 60 "$auxrec" report --html -o bts.html bts.data >/dev/null 2>&1
check "bts (no time): the page has no flame chart" not grep -q 'id="flame"' bts.html
exit $fail
