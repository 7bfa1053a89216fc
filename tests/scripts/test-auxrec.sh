#!/bin/bash
# auxrec as a user runs it: info, recordings that must work here, and requests that must fail
# with a message that names the cause — exit non-zero, nothing half-done, no tracing state left.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$B/auxrec
loop=$B/tests/progs/getppid-loop
fail=0
check() {	# check DESCRIPTION CONDITION...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: auxrec tests need root (system-wide perf events, tracefs)"
	exit 77
fi
tracefs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
instances_before=$(ls -d "$tracefs"/instances/auxrec-* 2>/dev/null)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

timeout 30 "$auxrec" info >"$out/info" 2>&1
check "info exits 0" [ $? -eq 0 ]
check "info names the kernel" grep -q "^kernel: *Linux" "$out/info"
check "info lists the software PMU" grep -qE "^  software +type 1" "$out/info"
check "info says no PMU here can produce AUX data" grep -q "^AUX-capable PMUs: *none" "$out/info"
check "info reports ring-buffer mapping" grep -q "^ring-buffer mapping: *supported" "$out/info"
check "info reports perf_event_paranoid" grep -q "^perf_event_paranoid:" "$out/info"
check "info reports mlock limits" grep -q "^perf_event_mlock_kb:" "$out/info"

# Per-CPU recording of a command with a known number of tracepoint hits.
timeout 60 "$auxrec" record -o "$out/d1" -e syscalls:sys_enter_getpgid -- "$loop" 1000 -1 getpgid >"$out/rec" 2>&1
check "record of a command exits 0" [ $? -eq 0 ]
samples=$(timeout 60 perf script -i "$out/d1/perf.data" 2>/dev/null | grep -c sys_enter_getpgid)
check "perf script finds exactly the 1000 samples the command produced (got '$samples')" \
	[ "$samples" = 1000 ]
total=$(awk '$1 == "total" { print $2 }' "$out/rec")
check "the summary counts them and the side-band records (got '$total')" [ "${total:-0}" -gt 1000 ]
lost=$(awk '$1 == "total" { print $4 }' "$out/rec")
check "record lost nothing" [ "$lost" = 0 ]
ncpu=$(nproc)
rows=$(awk '$1 ~ /^[0-9]+$/' "$out/rec" | wc -l)
check "one row per online CPU ($rows of $ncpu)" [ "$rows" -eq "$ncpu" ]

# -a with a command records every task for as long as the command runs.
( sleep 0.2; "$loop" 500 -1 getpgid ) &
timeout 60 "$auxrec" record -o "$out/d2" -a -e syscalls:sys_enter_getpgid -- sleep 1 >"$out/sysw" 2>&1
check "-a with a command exits 0" [ $? -eq 0 ]
wait
sw=$(awk '$1 == "total" { print $2 }' "$out/sysw")
check "-a with a command sees another process's 500 calls (got '$sw')" [ "${sw:-0}" -ge 500 ]

timeout 60 "$auxrec" record -o "$out/d3" -a -e cpu-clock -d 0.3 >"$out/sys" 2>&1
check "system-wide recording for 0.3 s exits 0" [ $? -eq 0 ]
check "system-wide cpu-clock delivered samples" awk '$1 == "total" && $2 > 0 { ok = 1 } END { exit !ok }' "$out/sys"

# ftrace side: the same tracepoint through a tracefs instance of auxrec's own.
timeout 60 "$auxrec" record -o "$out/d4" --ftrace syscalls:sys_enter_getppid -- "$loop" 500 0 >"$out/ft" 2>&1
check "ftrace recording exits 0" [ $? -eq 0 ]
ft=$(awk '$1 == "total" { print $5 }' "$out/ft")
check "ftrace delivered at least the command's 500 events (got '$ft')" [ "${ft:-0}" -ge 500 ]
check "ftrace reads by splice unless told otherwise" grep -q "^ftrace rings read splice" "$out/ft"

# Requests that cannot work here fail clearly.
timeout 30 "$auxrec" record -o "$out/d5" -e intel_pt//u -- true >"$out/pt" 2>&1
check "intel_pt on a machine without it exits non-zero" [ $? -ne 0 ]
check "... and says there is no intel_pt PMU" grep -qi "intel_pt" "$out/pt"
check "... and which AUX-capable PMUs exist" grep -qi "AUX-capable PMUs.*none" "$out/pt"
check "... and leaves no output directory" [ ! -e "$out/d5" ]

timeout 30 "$auxrec" record -o "$out/d6" -e cpu-clock -m ,16 -- true >"$out/aux" 2>&1
check "an AUX area on cpu-clock exits non-zero" [ $? -ne 0 ]
check "... naming the PMU and that it cannot produce AUX data" \
	grep -qE "cpu-clock \(PMU software\) cannot produce AUX (area )?data" "$out/aux"

timeout 30 "$auxrec" record -o "$out/d7" -C 3-1 -e cpu-clock -d 0.1 >"$out/cpus" 2>&1
check "a reversed CPU range is refused" [ $? -ne 0 ]
timeout 30 "$auxrec" record -o "$out/d8" -e no-such-event -- true >"$out/ev" 2>&1
check "an unknown event is refused, by name" grep -q "no-such-event" "$out/ev"

# Left behind: an instance that was not there before and whose auxrec is gone (other runs
# of auxrec on this machine may hold live ones).
left=""
for inst in $(ls -d "$tracefs"/instances/auxrec-* 2>/dev/null); do
	grep -qxF "$inst" <<<"$instances_before" && continue
	pid=${inst##*/auxrec-}
	[ "$(cat /proc/"$pid"/comm 2>/dev/null)" = auxrec ] || left="$left $inst"
done
check "no auxrec tracefs instance left behind${left:+:$left}" [ -z "$left" ]
for f in "$out"/*; do echo "== $f"; cat "$f"; done | head -120
exit $fail
