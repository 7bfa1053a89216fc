#!/bin/bash
# Warnings are warnings, errors are said once: what does not stop a recording (kallsyms
# hidden, BPF programs not listable, as an unprivileged user meets them) is printed as
# "auxrec: warning: ..." on a run that exits 0, never as an error; and an error the library
# explains (tracefs closed to this user) is printed once, not again by auxrec.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$(realpath "$B/auxrec")
fail=0
check() {	# check DESCRIPTION CONDITION...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}
not() { ! "$@"; }
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "SKIP: needs root and setpriv, to run auxrec as nobody"
	exit 77
fi
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 2 ]; then
	echo "SKIP: perf_event_paranoid > 2: nobody may not record even its own command"
	exit 77
fi
out=$(mktemp -d)
chmod 777 "$out"
trap 'rm -rf "$out"' EXIT
as_nobody() { (cd "$out" && timeout 60 setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"); }

as_nobody "$auxrec" record -o "$out/rec" -e cpu-clock:u -- true >"$out/rec.log" 2>&1
check "an unprivileged recording of its own command exits 0" [ $? -eq 0 ]
check "... says nothing is an error" not grep -q "error" "$out/rec.log"
if [ "$(as_nobody head -c 16 /proc/kallsyms)" = 0000000000000000 ]; then
	check "... warns that kallsyms hides the kernel" \
		grep -q "^auxrec: warning: synthesize: /proc/kallsyms shows no address for _text" "$out/rec.log"
fi
check "... warns that BPF programs cannot be listed" \
	grep -q "^auxrec: warning: synthesize: listing the loaded BPF programs needs CAP_SYS_ADMIN" "$out/rec.log"

as_nobody "$auxrec" record -o "$out/ft" --ftrace sched:sched_switch -- true >"$out/ft.log" 2>&1
check "an unprivileged ftrace recording fails" [ $? -ne 0 ]
check "... saying tracefs is closed to this user, once" \
	[ "$(grep -ci "tracefs" "$out/ft.log")" -eq 1 ]
for f in "$out"/*.log; do echo "== $f"; cat "$f"; done
exit $fail
