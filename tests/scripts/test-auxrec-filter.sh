#!/bin/bash
# auxrec record --filter, perf record's rule: a filter belongs to the -e before it. A
# tracepoint filter the kernel applies (counted against what the filtered process did);
# address filters resolved against programs built here and set on a fake intel_pt PMU, whose
# events are software events, so the kernel refuses them: what it was given is read from the
# ioctl itself (strace) and from the library's debug log. Every refused request says where
# and why, exits non-zero, and leaves no recording.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
loop=$PWD/$B/tests/progs/getppid-loop
. tests/scripts/check-lib.sh
lacks() {	# lacks PATTERN FILE: no line of FILE matches
	! grep -q "$@"
}
needs_root "system-wide tracepoint events"
needs_tools perf gcc readelf
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"	# the kptr_restrict check runs auxrec as nobody
cd "$out" || exit 1

# --- where a filter belongs ---
timeout 30 "$auxrec" record -o before --filter 'common_pid == 1' -e syscalls:sys_enter_getppid \
	-- true >before.log 2>&1
check "--filter before any -e exits 1" [ $? -eq 1 ]
check "... saying it applies to the -e before it" \
	grep -q "comes before any -e: as in perf record, a filter applies to the -e event before it" \
	before.log
check "... and leaves no recording" [ ! -e before ]

timeout 30 "$auxrec" -v record -o which -e syscalls:sys_enter_getppid \
	-e syscalls:sys_enter_getpgid --filter 'common_pid == 1' --filter 'common_pid != 0' \
	-- true >which.log 2>&1
check "filters after the second of two -e exit 0" [ $? -eq 0 ]
check "... go on that -e's event, joined as perf joins them" \
	grep -qxF 'auxrec: syscalls:sys_enter_getpgid: filter "(common_pid == 1) && (common_pid != 0)"' \
	which.log
check "... and not on the first -e's" [ "$(grep -c ': filter "' which.log)" = 1 ]

# --- a tracepoint filter: only the filtered process's calls, all of them ---
# A process that makes exactly 700 getppid calls once released, while the recorded command
# makes 300 of its own; the filter keeps the 700 (the pid is known before the recording).
mkfifo go done
( read -r _ <go; exec "$loop" 700 ) &
bg=$!
timeout 60 "$auxrec" record -o tp -a -e syscalls:sys_enter_getppid --filter "common_pid == $bg" \
	-- sh -c "echo >go; $loop 300; read -r _ <done" >tp.log 2>&1 &
rec=$!
wait $bg
echo >done
wait $rec
check "a tracepoint filter on common_pid exits 0" [ $? -eq 0 ]
timeout 60 perf script -i tp/perf.data -F pid,event >tp.script 2>/dev/null
check "perf script finds exactly the filtered process's 700 calls (got $(grep -c getppid tp.script))" \
	[ "$(grep -c sys_enter_getppid tp.script)" = 700 ]
check "... and no other process's" [ "$(awk '{ print $1 }' tp.script | sort -u)" = "$bg" ]
timeout 60 "$auxrec" record -o all -a -e syscalls:sys_enter_getppid -- "$loop" 300 >all.log 2>&1
check "without the filter, the kernel delivers the command's calls too" \
	[ "$(timeout 60 perf script -i all/perf.data 2>/dev/null | grep -c sys_enter_getppid)" -ge 300 ]

timeout 30 "$auxrec" record -o badtp -e syscalls:sys_enter_getppid --filter 'common_pidd == 3' \
	-- true >badtp.log 2>&1
check "a tracepoint filter the kernel refuses exits 1" [ $? -eq 1 ]
check "... naming the filter and where to find the field names" \
	grep -q 'the kernel rejected the filter "common_pidd == 3"; check its syntax and the event.s field names' \
	badtp.log
check "... and leaves no recording" [ ! -e badtp ]

timeout 30 "$auxrec" record -o sw -e cpu-clock --filter 'filter main @ /bin/true' -- true \
	>sw.log 2>&1
check "a filter after an event that takes none exits 1" [ $? -eq 1 ]
check "... saying which events take one" \
	grep -q "cpu-clock (PMU software) takes neither a tracepoint filter nor address filters" sw.log

# --- address filters on a fake intel_pt (type 1: cpu-clock plays it), 2 address filters ---
fs=$out/sysfs
mkdir -p "$fs/devices/system/cpu" "$fs/bus/event_source/devices/intel_pt"
cat /sys/devices/system/cpu/online >"$fs/devices/system/cpu/online"
echo 1 >"$fs/bus/event_source/devices/intel_pt/type"
echo 2 >"$fs/bus/event_source/devices/intel_pt/nr_addr_filters"
chmod -R a+rX "$fs"
cat >prog.c <<'EOF'
#include <unistd.h>
__attribute__((noinline)) int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += getppid(); return s; }
int main(int argc, char **argv) { (void)argv; return work(argc) & 1; }
EOF
printf 'static __attribute__((noinline)) int dup(int x) { return x * 3; }\nint a(int x) { return dup(x); }\n' >a.c
printf 'static __attribute__((noinline)) int dup(int x) { return x + 7; }\nint b(int x) { return dup(x); }\n' >b.c
printf 'int a(int); int b(int);\nint main(int c, char **v) { (void)v; return (a(c) + b(c)) & 1; }\n' >m.c
gcc -O1 -o prog prog.c && gcc -O1 -o dup a.c b.c m.c || { echo "cannot build the programs"; exit 1; }

# "ADDR/SIZE" the kernel wants for the n-th function named sym of file (in address order):
# its file offset, through the loadable segment that holds it, and its size (readelf).
func_range() {	# func_range FILE SYM [N]
	local value size type off va pa fsz rest v
	read -r value size < <(readelf -sW "$1" | awk -v s="$2" '$8 == s && $4 == "FUNC" { print $2, $3 }' |
			      sort | sed -n "${3:-1}p")
	v=$((16#$value))
	while read -r type off va pa fsz rest; do
		[ "$type" = LOAD ] || continue
		if (( v >= va && v < va + fsz )); then
			printf '0x%x/0x%x' $((v - va + off)) "$size"
			return
		fi
	done < <(readelf -lW "$1")
}

# auxrec record on the fake PMU with --filter FILTER into NAME.rec: its output in NAME.log,
# its exit status in NAME.rc (1 for every case here; under ASan, a leak would change it).
fake_record() {	# fake_record NAME FILTER [EVENT]
	AUXTRACE_SYSFS=$fs timeout 60 "$auxrec" -vv record -o "$1.rec" -e "${3:-cpu-clock}" \
		--filter "$2" -- ./prog >"$1.log" 2>&1
	echo $? >"$1.rc"
}

# What the kernel was given: the library's debug line, and the ioctl itself as strace saw
# it in a second run (LeakSanitizer cannot work under ptrace: not in that one).
assert_given() {	# assert_given NAME FILTER STRING
	fake_record "$1" "$2"
	check "$1: the kernel string is \"$3\"" \
		grep -qF "libauxtrace debug: cpu-clock: address filters \"$3\"" "$1.log"
	if command -v strace >/dev/null; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 AUXTRACE_SYSFS=$fs \
			timeout 60 strace -f -s 4096 -e trace=ioctl -o "$1.strace" \
			"$auxrec" record -o "$1.rec" -e cpu-clock --filter "$2" -- ./prog >/dev/null 2>&1
		check "$1: PERF_EVENT_IOC_SET_FILTER was given exactly that" \
			grep -qF "PERF_EVENT_IOC_SET_FILTER, \"$3\")" "$1.strace"
	fi
	check "$1: the kernel refused it on a software event, and auxrec exits 1" \
		grep -q "the kernel rejected the address filter \"$3\"" "$1.log"
	check "$1: exits 1" [ "$(cat "$1.rc")" = 1 ]
	check "$1: no recording is left" [ ! -e "$1.rec" ]
}

main=$(func_range prog main)
assert_given range 'filter work @ ./prog, stop main @ ./prog' \
	"filter $(func_range prog work)@$out/prog,stop ${main%/*}@$out/prog"

fake_record dup 'filter dup @ ./dup'
check "an ambiguous symbol is refused" grep -q "Multiple symbols with name 'dup' in ./dup" dup.log
check "... listing both" grep -q "#2.*dup.*(b.c)" dup.log
check "... with the #n advice" grep -q "inserting #n after the name e.g. dup #2" dup.log
check "... before the kernel is asked anything" lacks "address filters \"" dup.log
assert_given dup2 'filter dup #2 @ ./dup' "filter $(func_range dup dup 2)@$out/dup"

fake_record parse 'filter work @ ./prog, flter main'
check "a bad filter string is refused with its byte offset and the cause" \
	grep -qF "Failed to parse address filter 'filter work @ ./prog, flter main': at byte 22 ('f'): 'flter' is not an action" \
	parse.log
check "... and the format" grep -q "Filter format is: filter|start|stop|tracestop" parse.log
check "... and which --filter and -e it was" \
	grep -q "auxrec: --filter 'filter work @ ./prog, flter main' after -e cpu-clock" parse.log

fake_record many 'filter work @ ./prog, filter main @ ./prog, start 0x1000'
check "more filters than nr_addr_filters are refused, with the count and the limit" \
	grep -q "3 address filters, and PMU intel_pt takes 2 (its nr_addr_filters)" many.log
fake_record missing 'filter nosuch @ ./prog'
check "a symbol missing from the file is refused, naming the file" \
	grep -q "Symbol 'nosuch' not found in ./prog" missing.log
fake_record userkernel 'filter schedule' cpu-clock:u
check "a kernel filter on an event that excludes the kernel is refused, with the fix" \
	grep -q "is a kernel filter (it has no @file), but the event excludes the kernel (:u)" \
	userkernel.log
for f in dup parse many missing userkernel; do
	check "$f: exits 1" [ "$(cat "$f.rc")" = 1 ]
	check "$f: leaves no recording" [ ! -e "$f.rec" ]
	check "$f: writes nothing" lacks "auxrec: wrote" "$f.log"
done

# Kernel symbols as a user the kernel hides them from (kptr_restrict, perf_event_paranoid).
if command -v setpriv >/dev/null &&
   [ "$(setpriv --reuid=nobody --regid=nogroup --clear-groups head -c 16 /proc/kallsyms)" = 0000000000000000 ]; then
	AUXTRACE_SYSFS=$fs timeout 30 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$auxrec" record -o "$out/hidden" -e cpu-clock --filter 'filter schedule' -- true \
		>hidden.log 2>&1
	check "kernel symbols hidden from the user are refused, naming kptr_restrict" \
		grep -q "Kernel addresses are restricted: every address in /proc/kallsyms is 0, as kernel.kptr_restrict" \
		hidden.log
else
	echo "note: nobody sees kernel addresses here; the kptr_restrict refusal is not checked"
fi

for f in *.log; do echo "== $f"; cat "$f"; done | grep -v "^libauxtrace debug" | head -150
exit $fail
