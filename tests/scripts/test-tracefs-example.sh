#!/bin/bash
# The libtracefs-style program tests/progs/tracefs-cpu-map.c, built against libauxtrace's
# <tracefs.h>, prints every trace_marker event written into a fresh instance through the
# mapping, in order and once.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
prog=$B/tests/progs/tracefs-cpu-map
[ -x "$prog" ] || { echo "missing $prog: run make check-suites"; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root (tracefs instances)"
	exit 77
fi
tracing=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
if [ -z "$tracing" ]; then
	echo "SKIP: tracefs is not mounted"
	exit 77
fi

name=auxtrace-test-example-$$
inst=$tracing/instances/$name
tmp=$(mktemp -d)
cleanup() {
	rmdir "$inst" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$inst"
# Under the sanitizers: libtraceevent 1.7 leaks a few bytes parsing some kernel formats.
echo "leak:libtraceevent.so" >"$tmp/lsan.supp"
export LSAN_OPTIONS="suppressions=$tmp/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# 300 markers from CPU 0: more than one sub-buffer, and a partial one for the flush.
n=300
taskset -c 0 bash -c "for i in \$(seq 1 $n); do echo \"example marker \$i\"; done" \
	>"$inst/trace_marker"

check_output() {
	local out=$1 got
	got=$(grep -c 'print: .*example marker [0-9]*$' "$out" || true)
	[ "$got" -eq "$n" ] || { echo "$got of $n markers printed"; head -5 "$out"; exit 1; }
	# in order, each once
	grep -o 'example marker [0-9]*$' "$out" | awk '{ print $3 }' >"$tmp/seq"
	seq 1 "$n" | cmp -s - "$tmp/seq" || { echo "markers out of order or repeated"; exit 1; }
	# libtraceevent formatted them: time, CPU, event name
	grep -qE '^ *[0-9]+\.[0-9]+ \[000\] .* print: ' "$out" ||
		{ echo "unexpected line format:"; head -3 "$out"; exit 1; }
}

"$prog" "$name" 0 >"$tmp/out" 2>"$tmp/err" || { echo "$prog failed:"; cat "$tmp/err"; exit 1; }
grep -qx mapped "$tmp/err" || { echo "not mapped:"; cat "$tmp/err"; exit 1; }
check_output "$tmp/out"
# the events were consumed: a second run finds nothing
"$prog" "$name" 0 >"$tmp/out2" 2>"$tmp/err" || { echo "$prog failed:"; cat "$tmp/err"; exit 1; }
[ ! -s "$tmp/out2" ] || { echo "events handed out twice"; exit 1; }
echo "ok: $n markers printed in order through the mapping"
