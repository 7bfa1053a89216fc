#!/bin/bash
# auxrec's HTML report in a real browser. report-html-demo writes pages from synthetic models
# (10 s on 2 CPUs with every source, a loss burst and two snapshots; 256 CPUs, the heat map,
# some of them recorded and silent; the fewest lanes drawn as a heat map; one CPU; per-thread
# lanes with no span; a recording of no length; no data at all) and what their data was;
# headless Chromium loads each page from disk and report-html-check.py checks it through the
# DOM: no console error, no request, lanes, loss marks and snapshots where the data says, the
# totals, a hovered bin's numbers, zoom and reset. The pages and a screenshot of each stay in
# $B/report-html/ for a person to look at.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
demo=$B/tests/progs/report-html-demo
out=$B/report-html
chromium=${CHROMIUM:-$(command -v chromium)}
if [ -z "$chromium" ]; then
	echo "SKIP: no chromium to load the page in (scripts/install-deps installs Debian's chromium)"
	exit 77
fi
if ! command -v python3 >/dev/null; then
	echo "SKIP: no python3 to drive chromium with (scripts/install-deps installs it)"
	exit 77
fi
fail=0
check() {	# check DESCRIPTION CONDITION...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}

rm -rf "$out"
mkdir -p "$out"
pages=()
for kind in two-cpu many-cpu heat-edge one-cpu threads zero-length empty; do
	timeout 60 "$demo" "$kind" "$out/$kind.html" "$out/$kind.json"
	check "report-html-demo writes the $kind page" [ $? -eq 0 ]
	pages+=("$out/$kind.html" "$out/$kind.json")
done
echo "page sizes:"
for kind in two-cpu many-cpu heat-edge one-cpu threads zero-length empty; do
	printf '  %-12s %9d bytes\n' "$kind" "$(stat -c %s "$out/$kind.html")"
done
# well under 1 MB for 10 s, whatever the lanes: at most half of it
for kind in two-cpu many-cpu; do
	size=$(stat -c %s "$out/$kind.html")
	check "the $kind page of 10 s is well under 1 MB ($size bytes)" [ "$size" -lt 500000 ]
done

timeout -k 10 180 python3 tests/scripts/report-html-check.py --chromium "$chromium" \
	--shots "$out" "${pages[@]}"
check "chromium finds every page as its data says" [ $? -eq 0 ]
check "a screenshot of each page in $out" [ -s "$out/two-cpu.png" ] && [ -s "$out/many-cpu.png" ]
exit $fail
