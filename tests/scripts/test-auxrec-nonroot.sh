#!/bin/bash
# auxrec record as an unprivileged user (nobody), as perf record runs there: above
# kernel.perf_event_paranoid 1 an event that would count the kernel excludes it, said in one
# line, and the recording works; side-band the user cannot have (the kernel map kptr_restrict
# hides, the BPF programs) is skipped with one warning each ("auxrec: warning:"), none
# labelled an error; an error about tracefs is said once;
# --no-bpf-event drops the BPF side-band as in perf. Held against perf record run the same way.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
. tests/scripts/check-lib.sh
needs_root "to become nobody"
needs_tools perf setpriv
in_tmpdir
chmod 777 "$out"
as_nobody() {
	timeout 60 setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
dd_cmd="dd if=/dev/zero of=/dev/null bs=1k count=100000"

# shellcheck disable=SC2086
as_nobody "$auxrec" record -e cpu-clock -o "$out/a" -- $dd_cmd >a.log 2>&1
check "as nobody (paranoid $paranoid), auxrec record -e cpu-clock -- dd exits 0" [ $? -eq 0 ]
# shellcheck disable=SC2086
as_nobody perf record -q -e cpu-clock -o "$out/p.data" -- $dd_cmd >/dev/null 2>&1
perf_excl=$(timeout 60 perf evlist -f -v -i p.data 2>/dev/null | head -1 | grep -c 'exclude_kernel: 1')
ours_excl=$(timeout 60 perf evlist -f -v -i a/perf.data 2>/dev/null | head -1 | grep -c 'exclude_kernel: 1')
check "... excludes the kernel exactly when perf record does ($perf_excl)" [ "$ours_excl" = "$perf_excl" ]
if [ "$paranoid" -gt 1 ]; then
	check "... and says so in one line, naming cpu-clock:u" \
		[ "$(grep -c 'the kernel is excluded, recording cpu-clock:u' a.log)" = 1 ]
else
	echo "note: perf_event_paranoid is $paranoid: nobody may profile the kernel here, so" \
	     "the fallback is not taken; checked only that it is not"
	check "... and says nothing of excluding it" [ "$(grep -c 'kernel is excluded' a.log)" = 0 ]
fi
check "... with no line labelled error" [ "$(grep -ci error a.log)" = 0 ]
check "... and one warning for each side-band it cannot have (kernel map, BPF programs)" \
	[ "$(grep -c '^auxrec: warning: synthesize: kernel map skipped' a.log)" -le 1 -a "$(grep -c '^auxrec: warning: synthesize: BPF programs skipped' a.log)" = 1 ]
timeout 60 perf report -f -i a/perf.data --stdio --sort comm 2>/dev/null | grep -q ' dd *$'
check "... and perf report shows dd's samples" [ $? -eq 0 ]

# an error the library explains (tracefs closed to this user) is said once, not again by auxrec
as_nobody "$auxrec" record -o "$out/ft" --ftrace sched:sched_switch -- true >ft.log 2>&1
check "--ftrace as nobody fails, saying tracefs is closed to this user, in one line" \
	[ $? -ne 0 -a "$(grep -ci tracefs ft.log)" = 1 ]

as_nobody "$auxrec" record -e cpu-clock --no-bpf-event -o "$out/nb" -- true >nb.log 2>&1
check "--no-bpf-event: exits 0 with no BPF warning" \
	[ $? -eq 0 -a "$(grep -c 'BPF' nb.log)" = 0 ]
check "... and no bpf_event in the attr" \
	[ "$(timeout 60 perf evlist -f -v -i nb/perf.data 2>/dev/null | grep -c 'bpf_event: 1')" = 0 ]
"$auxrec" record -e cpu-clock -o "$out/root" -- true >root.log 2>&1
check "as root, the kernel stays in (no exclude_kernel, nothing said)" \
	[ "$(timeout 60 perf evlist -v -i root/perf.data 2>/dev/null | grep -c 'exclude_kernel: 1')" = 0 -a "$(grep -c 'kernel is excluded' root.log)" = 0 ]
exit $fail
