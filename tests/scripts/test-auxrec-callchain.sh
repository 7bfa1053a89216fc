#!/bin/bash
# auxrec record's callchains, against perf record's. A program with a known chain
# (tests/progs/call-chain.c: main -> outer -> middle -> inner -> leaf) is recorded by both
# tools, with frame pointers (-g) and without them (--call-graph dwarf: perf unwinds the user
# stack copy with libdw); perf script and perf report must show the same chains of the hot
# leaf on auxrec's perf.data as on perf's. The attr bits are held against perf's (perf
# evlist -v), and the library's own reader (tests/progs/sample-dump) must parse every
# callchain, user register set and user stack of the dwarf recording as perf -D does.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
dump=$PWD/$B/tests/progs/sample-dump
src=$PWD/tests/progs/call-chain.c
. tests/scripts/check-lib.sh
needs_root "kernel symbols in the chains perf shows"
needs_tools perf gcc
in_tmpdir
gcc -O0 -g -fno-omit-frame-pointer -o chain-fp "$src" || exit 1
gcc -O1 -g -fomit-frame-pointer -o chain-nofp "$src" || exit 1
known='leaf <- inner <- middle <- outer <- main'

# chains FILE: each distinct callchain of the samples in leaf, innermost first
chains() {
	timeout 120 perf script -i "$1" -F ip,sym 2>/dev/null | awk '
		/^$/ { if (chain ~ /^leaf/) n[chain]++; chain = ""; next }
		{ chain = chain (chain == "" ? "" : " <- ") $2 }
		END { if (chain ~ /^leaf/) n[chain]++; for (c in n) print c }' | sort
}

for mode in fp dwarf; do
	if [ $mode = fp ]; then prog=./chain-fp; opt=-g; else prog=./chain-nofp; opt='--call-graph dwarf'; fi
	# shellcheck disable=SC2086
	timeout 120 "$auxrec" record -e cpu-clock $opt -o a-$mode -- $prog >a-$mode.log 2>&1
	check "$mode: auxrec record $opt exits 0" [ $? -eq 0 ]
	# shellcheck disable=SC2086
	timeout 120 perf record -q -e cpu-clock $opt -o p-$mode.data -- $prog >p-$mode.log 2>&1
	ours=$(chains a-$mode/perf.data)
	theirs=$(chains p-$mode.data)
	check "$mode: perf script shows the chain main -> ... -> leaf on auxrec's recording" \
		grep -q "^$known" <<<"$ours"
	check "$mode: ... the same chains of leaf as on perf record's ($(wc -l <<<"$theirs"))" \
		same "$theirs" "$ours"
	[ "$ours" = "$theirs" ] || diff <(echo "$theirs") <(echo "$ours") | head -6
	timeout 120 perf report -i a-$mode/perf.data -g --stdio --no-children 2>/dev/null |
		awk '/\[\.\] leaf/ { seen = 1 } seen && /---/ { on = 1 }
		     on && /^ *$/ { exit } on { print $NF }' |
		tr -d -- '-' | grep -v '^$' | tac | tr '\n' ' ' >report.txt
	check "$mode: perf report -g --stdio --no-children shows leaf's chain ($(cat report.txt))" \
		grep -q '^leaf inner middle outer main ' report.txt
	for field in sample_type sample_regs_user sample_stack_user exclude_callchain_user; do
		want=$(attr p-$mode.data $field)
		got=$(attr a-$mode/perf.data $field)
		# perf asks for its own extras (ADDR, DATA_SRC with dwarf; no CPU): compare ours
		if [ $field = sample_type ]; then
			for bit in CALLCHAIN REGS_USER STACK_USER ADDR; do
				check "$mode: sample_type has $bit exactly when perf's has it" \
					[ "$(grep -c "$bit" <<<"$want")" = "$(grep -c "$bit" <<<"$got")" ]
			done
		else
			check "$mode: $field '$got' as perf sets it ('$want')" [ "$want" = "$got" ]
		fi
	done
done

# the library's reader against perf's: every sample's callchain, and the user stack's size
"$dump" a-dwarf/perf.data >lib.txt
check "sample-dump reads auxrec's dwarf recording" [ $? -eq 0 ]
awk '{ s = "S " $2; for (i = 3; i <= 2 + $2; i++) s = s " " $i; print s " dyn " $NF }' lib.txt \
	>lib.view
timeout 120 perf script -D -i a-dwarf/perf.data 2>/dev/null | awk '
	/PERF_RECORD_SAMPLE/ { if (s != "") print s; s = "S"; chain = 0; next }
	/^\.\.\. FP chain: nr:/ { split($0, a, "nr:"); s = s " " a[2]; chain = 1; next }
	/^\.\.\.\.\. +[0-9]+: / { if (chain) s = s " " $3; next }
	/^\.\.\. ustack: size/ { sub(",", "", $4); s = s " dyn " $4; chain = 0 }
	END { if (s != "") print s }' >perf.view
check "the library parses the $(wc -l <perf.view) samples' callchains and user stacks as perf -D does" \
	same "$(cat perf.view)" "$(cat lib.view)"
check "... each with a user stack copy of 8192 bytes" \
	[ "$(grep -c '| stack 8192 ' lib.txt)" = "$(wc -l <lib.txt)" ]
check "... and the user registers perf asks for (mask 0xff0fff) where the sample has them" \
	[ "$(grep -c '| regs 2 0xff0fff |' lib.txt)" -gt 0 -a "$(grep -vc -e '| regs 2 0xff0fff |' -e '| regs 0 ' lib.txt)" = 0 ]

# sizes, event terms, and what cannot be had
rec() {	# rec NAME ARGS...: record true with ARGS into NAME
	local name=$1; shift
	timeout 60 "$auxrec" record -o "$name" "$@" -- true >"$name.log" 2>&1
}
rec size -e cpu-clock --call-graph dwarf,4000
check "--call-graph dwarf,4000: a 4000-byte stack copy (a multiple of 8 already)" \
	[ "$(attr size/perf.data sample_stack_user)" = 4000 ]
rec size -e cpu-clock --call-graph dwarf,4001
check "--call-graph dwarf,4001: rounded up to 4008, as perf does" \
	[ "$(attr size/perf.data sample_stack_user)" = 4008 ]
rec term -e 'cpu-clock/call-graph=dwarf,stack-size=2048/'
check "-e cpu-clock/call-graph=dwarf,stack-size=2048/: that event's own dwarf chain" \
	[ "$(attr term/perf.data sample_stack_user)" = 2048 ]
rec term -e 'cpu-clock/call-graph=fp/'
check "-e cpu-clock/call-graph=fp/: a callchain without -g" \
	grep -q CALLCHAIN <<<"$(attr term/perf.data sample_type)"
rec term -g -e 'cpu-clock/call-graph=no/'
check "-g with -e cpu-clock/call-graph=no/: the event's no wins, as in perf" \
	[ "$(grep -c CALLCHAIN <<<"$(attr term/perf.data sample_type)")" = 0 ]
rec term -e 'cpu-clock/call-graph=xyz/'
check "call-graph=xyz is refused naming the modes" grep -q "give fp, dwarf\[,SIZE\], lbr or no" term.log
rec user -e cpu-clock -g --user-callchains
check "--user-callchains sets exclude_callchain_kernel" \
	[ "$(attr user/perf.data exclude_callchain_kernel)" = 1 ]
rec kern -e cpu-clock -g --kernel-callchains
check "--kernel-callchains sets exclude_callchain_user" \
	[ "$(attr kern/perf.data exclude_callchain_user)" = 1 ]
rec bad -e cpu-clock --call-graph dwarf,70000
check "--call-graph dwarf,70000 is refused with the limit" grep -q "8 to 65528" bad.log
if [ -e /sys/bus/event_source/devices/cpu/caps/branches ]; then
	echo "skip: this machine has an LBR: the refusal cannot be seen"
else
	rec lbr -e cpu-clock --call-graph lbr
	check "--call-graph lbr on a PMU without LBR exits 1 saying so" \
		grep -q "has no last branch record" lbr.log
	check "... and leaves no recording" [ ! -e lbr ]
fi
exit $fail
