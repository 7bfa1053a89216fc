#!/bin/bash
# auxrec report on real recordings. report-recording makes one with the library (the
# sys_enter_getppid tracepoint sampled on CPU 0, Intel PT packets from the AUX test producer
# with one stretch cut short by a full AUX area, ftrace events with one burst that overruns an
# 8 KiB buffer),
# and the same in AUX snapshot mode; perf 6.1 makes another. Checked:
#  - the text report has what the recording program did: samples, ftrace events + missed,
#    AUX bytes, the truncated AUX stretch at its time, lanes (a quiet CPU's too); a trace.dat
#    alone reads too; files on two clocks are both reported, the text saying so;
#  - report -D shows every record perf report -D shows (same offsets, sizes, types, names),
#    PT packets as many as perf decodes, on both recordings;
#  - the page (--html) in headless Chromium shows the text report's numbers, marks and
#    snapshots, with no console error and no request; screenshots stay in $B/report-recording/;
#    options go before or after DIR (--html DIR -o FILE, DIR --html);
#  - a missing or damaged input gives the same error from the text report and --html, a
#    non-zero exit and no page; a file damaged midway is named with the offset, and the text
#    still reports what was read before it (and the other file whole).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
AUXREC=$B/auxrec
out=$B/report-recording
rec=$out/rec
fail=0

skip() { echo "SKIP: $*"; exit 77; }
check() {	# check DESCRIPTION CONDITION...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}
[ "$(id -u)" -eq 0 ] || skip "needs root (tracefs, system-wide perf events)"
grep -qw tracefs /proc/mounts || skip "needs a mounted tracefs"
command -v perf >/dev/null || skip "perf is not installed (linux-perf)"
command -v python3 >/dev/null || skip "python3 is not installed"
chromium=${CHROMIUM:-$(command -v chromium)}
[ -n "$chromium" ] || skip "no chromium to load the page in (scripts/install-deps installs it)"

rm -rf "$out"
mkdir -p "$rec"
timeout 120 "$B/tests/progs/report-recording" "$rec" 2>"$out/recording.log"
check "report-recording makes a recording" [ $? -eq 0 ]
truth() { python3 -c "import json,sys; print(json.load(open('$rec/truth.json'))['$1'])"; }

# ---- the text report ----
"$AUXREC" report "$rec" >"$out/report.txt" 2>"$out/report.err"
check "auxrec report exits 0" [ $? -eq 0 ]
num() {	# num LABEL COLUMN: a number of the totals tables
	awk -v label="$1" -v col="$2" 'index($0, label) == 1 { n = split(substr($0, length(label) + 1), f, " "); print f[col]; exit }' "$out/report.txt"
}
check "perf samples: one per getppid call ($(truth calls))" [ "$(num 'perf samples' 2)" = "$(truth calls)" ]
events=$(num 'ftrace events' 2)
missed=$(num 'ftrace missed events' 2)
check "ftrace: $events events + $missed missed = the workload's $(truth calls) calls + $(truth markers) markers" \
	[ $((events + missed)) -eq $(($(truth calls) + $(truth markers))) ]
check "ftrace missed events are what the tcpus counted ($(truth ftraceLost))" [ "$missed" = "$(truth ftraceLost)" ]
check "AUX bytes: what the producer took ($(truth auxBytes))" [ "$(num 'AUX trace' 1)" = "$(truth auxBytes)" ]
check "AUX buffers: one per drain ($(truth rounds))" [ "$(num 'AUX trace' 2)" = "$(truth rounds)" ]
check "one AUX truncated record" [ "$(num 'AUX truncated' 2)" = 1 ]
# the forced loss at its time, in ns from the span's start
start=$(sed -n 's/^  span *\([0-9]*\)\.\([0-9]*\) to .*/\1\2/p' "$out/report.txt")
t_loss=$(python3 -c "import json; print(json.load(open('$rec/truth.json'))['losses'][0][1])")
at=$(python3 -c "v = $t_loss - int('$start'); print('%d.%09d' % (v // 10**9, v % 10**9))")
check "the truncated stretch is listed at +$at s on CPU 0" grep -q "^  $at  CPU 0  AUX truncated  1 " "$out/report.txt"
check "CPU 0 has every source" grep -qE '^  CPU 0 +[1-9][0-9]*/[0-9]+ +[1-9][0-9]*/[0-9]+ +[1-9][0-9]*/[0-9]+ +[1-9][0-9]*/[0-9]+;' "$out/report.txt"
# ftrace recorded every CPU (trace.dat describes each one the system has): a quiet one
# still has its row, and on the page its lane
ncpus=$(getconf _NPROCESSORS_CONF)
missing=$(for cpu in $(seq 0 $((ncpus - 1))); do
	grep -q "^  CPU $cpu " "$out/report.txt" || echo "$cpu"; done)
check "each of the $ncpus CPUs ftrace recorded has its lane, data or not (missing: ${missing:-none})" \
	[ -z "$missing" ]
check "the header names host, kernel, command, CPUs, clock" \
	grep -q "^  command      .*report-recording" "$out/report.txt"
grep -q "^  trace clock  mono" "$out/report.txt" && grep -q "^  CPUs " "$out/report.txt" ||
	{ echo "FAILED: header lines"; fail=1; }
"$AUXREC" report "$rec/trace.dat" >"$out/trace-only.txt"
check "a trace.dat alone: the same ftrace numbers" \
	grep -q "^ftrace events *[0-9]* *$events " "$out/trace-only.txt"

# ---- -D against perf report -D ----
same_records() {	# same_records FILE: every record perf shows, we show
	local f=$1 name=$2
	timeout 60 perf report -D -i "$f" >"$out/$name.perf-D" 2>/dev/null
	check "perf report -D reads $name" [ $? -eq 0 ]
	"$AUXREC" report -D "$f" >"$out/$name.auxrec-D"
	check "auxrec report -D reads $name" [ $? -eq 0 ]
	grep -E '^0x[0-9a-f]+@' "$out/$name.perf-D" | sort >"$out/$name.perf-heads"
	grep -E '^0x[0-9a-f]+@' "$out/$name.auxrec-D" | sort >"$out/$name.auxrec-heads"
	check "$name: the same $(wc -l <"$out/$name.perf-heads") records (offset, size, type)" \
		cmp -s "$out/$name.perf-heads" "$out/$name.auxrec-heads"
	for D in perf auxrec; do
		grep -oE '^[0-9 ]*0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_[A-Z0-9_]+' "$out/$name.$D-D" |
			sed 's/^[0-9 ]*//' | sort >"$out/$name.$D-names"
	done
	check "$name: the same record names at the same offsets" \
		cmp -s "$out/$name.perf-names" "$out/$name.auxrec-names"
}
same_records "$rec/perf.data" aux
psb_perf=$(grep -c ' PSB$' "$out/aux.perf-D")
psb_ours=$(grep -cE '^[0-9a-f]{16}  psb$' "$out/aux.auxrec-D")
check "PT packets through libipt: $psb_ours PSBs, perf decodes $psb_perf" [ "$psb_ours" -gt 0 ] && [ "$psb_ours" = "$psb_perf" ]
check "PERF_RECORD_AUX flags shown, the truncated one [T]" grep -q 'PERF_RECORD_AUX offset: .* \[T\]' "$out/aux.auxrec-D"
timeout 60 perf record -q -e cpu-clock -c 100000 -o "$out/perf.data" -- "$B/tests/progs/getppid-loop" 200000 >/dev/null 2>&1
check "perf 6.1 records a software event" [ $? -eq 0 ]
same_records "$out/perf.data" perf
check "perf's file: its samples with time and CPU as perf shows them" \
	cmp -s <(grep -E '^[0-9]+ [0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE' "$out/perf.perf-D" | cut -d: -f1 | sort) \
	       <(grep -E '^[0-9]+ [0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE' "$out/perf.auxrec-D" | cut -d: -f1 | sort)

# perf's file (perf's own clock) beside the recording's trace.dat (mono): both still reported
mkdir -p "$out/mixed"
ln -sf "$PWD/$out/perf.data" "$out/mixed/perf.data"
ln -sf "$PWD/$rec/trace.dat" "$out/mixed/trace.dat"
"$AUXREC" report "$out/mixed" >"$out/mixed.txt" 2>"$out/mixed.err"
check "two clocks: report exits 0" [ $? -eq 0 ]
check "two clocks: the text says they differ" \
	grep -q '^  clocks       differ: perf.data on "perf", trace.dat on "mono"' "$out/mixed.txt"
check "two clocks: perf's samples counted" [ "$(awk '/^perf samples /{print $4; exit}' "$out/mixed.txt")" -gt 0 ]
check "two clocks: trace.dat read whole ($events events)" \
	[ "$(awk '/^ftrace events /{print $4; exit}' "$out/mixed.txt")" = "$events" ]

# ---- the page ----
"$AUXREC" report --html "$rec" >/dev/null
check "auxrec report --html writes $rec/report.html" [ -s "$rec/report.html" ]
cp "$out/report.txt" "$out/real.txt"
timeout -k 10 180 python3 tests/scripts/report-html-check.py --chromium "$chromium" \
	--shots "$out" "$rec/report.html" "$out/real.txt"
check "chromium finds the text report's numbers and marks on the page" [ $? -eq 0 ]
check "a screenshot in $out/real.png" [ -s "$out/real.png" ]
"$AUXREC" report --html -o "$out/elsewhere.html" "$rec" >/dev/null
check "-o puts the page where it says" [ -s "$out/elsewhere.html" ]
# options anywhere, as perf takes them: the issue's own form, and DIR first
"$AUXREC" report --html "$rec" -o "$out/after-dir.html" >/dev/null 2>"$out/err-opts"
check "--html DIR -o FILE puts the page in FILE" [ -s "$out/after-dir.html" ]
rm -f "$rec/report.html"
"$AUXREC" report "$rec" --html >/dev/null 2>>"$out/err-opts"
check "DIR --html writes DIR/report.html" [ -s "$rec/report.html" ]
"$AUXREC" report "$rec" "$rec" >/dev/null 2>"$out/err-two"
check "two recordings are refused (exit 2)" [ $? -eq 2 ]
check "... saying report takes one" grep -q "report takes one directory or file" "$out/err-two"

# ---- snapshot mode: each snapshot at its moment, on the page too ----
snap=$out/snap
mkdir -p "$snap"
timeout 120 "$B/tests/progs/report-recording" "$snap" snapshot 2>>"$out/recording.log"
check "report-recording makes a snapshot recording" [ $? -eq 0 ]
want=$(python3 -c "import json; print(json.load(open('$snap/truth.json'))['snapshots'])")
"$AUXREC" report "$snap" >"$out/snapshot.txt"
check "the text report counts the $want snapshots" grep -q "^  snapshots    $want\$" "$out/snapshot.txt"
check "... and lists their moments" \
	[ "$(sed -n '/^snapshots (s from the start)/,/^$/p' "$out/snapshot.txt" | grep -c '^  [0-9]')" = "$want" ]
check "one AUX buffer per snapshot" grep -q "^AUX trace *[0-9]* *$want " "$out/snapshot.txt"
"$AUXREC" report --html "$snap" >/dev/null
timeout -k 10 180 python3 tests/scripts/report-html-check.py --chromium "$chromium" \
	--shots "$out" "$snap/report.html" "$out/snapshot.txt"
check "chromium finds the snapshot markers where the text report puts them" [ $? -eq 0 ]

# ---- bad input: the same error from both reports, no page ----
same_error() {	# same_error WHAT DIR PATTERN
	local what=$1 dir=$2 pattern=$3
	rm -f "$dir/report.html"
	"$AUXREC" report "$dir" >/dev/null 2>"$out/err-text"
	local rc_text=$?
	"$AUXREC" report --html "$dir" >/dev/null 2>"$out/err-html"
	local rc_html=$?
	check "$what: both exit non-zero" [ $rc_text -ne 0 ] && [ $rc_html -ne 0 ]
	check "$what: the error says /$pattern/" grep -qE "$pattern" "$out/err-text"
	check "$what: --html says the same" cmp -s "$out/err-text" "$out/err-html"
	check "$what: no page" [ ! -e "$dir/report.html" ]
	sed 's/^/    /' "$out/err-text"
}
same_error "a missing directory" "$out/none" "$out/none: No such file or directory"
mkdir -p "$out/empty"
same_error "a directory without perf.data or trace.dat" "$out/empty" "empty: no perf.data or trace.dat to read in this directory"
mkdir -p "$out/cut"
cp "$rec/trace.dat" "$out/cut/"
head -c 100000 "$rec/perf.data" >"$out/cut/perf.data"
same_error "a truncated perf.data" "$out/cut" "at file offset 0x[0-9a-f]+: .*past the end of the 100000-byte file"
mkdir -p "$out/badtrace"
cp "$rec/perf.data" "$rec/trace.dat" "$out/badtrace/"
# the first sub-buffer of CPU 0 claims more data than a sub-buffer holds
off=$(python3 - "$out/badtrace/trace.dat" <<'EOF'
import sys
b = open(sys.argv[1], 'rb').read()
at = b.index(b'flyrecord\0') + 10
print(int.from_bytes(b[at:at + 8], 'little'))
EOF
)
printf '\xff\xff\xff\x07' | dd of="$out/badtrace/trace.dat" bs=1 seek=$((off + 8)) conv=notrunc status=none
same_error "a damaged trace.dat sub-buffer" "$out/badtrace" \
	"badtrace/trace.dat: CPU 0: the sub-buffer at offset $(printf '0x%x' "$off") is damaged"
# what was read before the damage is still reported: all of perf.data, ftrace's other CPUs
"$AUXREC" report "$out/badtrace" >"$out/badtrace.txt" 2>/dev/null
check "a damaged trace.dat: the text says it is incomplete" grep -q "^  incomplete " "$out/badtrace.txt"
check "a damaged trace.dat: perf.data's samples are all still counted" \
	[ "$(awk '/^perf samples /{print $4; exit}' "$out/badtrace.txt")" = "$(truth calls)" ]
check "a damaged trace.dat: perf.data's AUX bytes are all still counted" \
	[ "$(awk '/^AUX trace /{print $3; exit}' "$out/badtrace.txt")" = "$(truth auxBytes)" ]
# a perf.data damaged midway: the 500th sample's header claims a size of 0
mkdir -p "$out/badperf"
cp "$rec/perf.data" "$rec/trace.dat" "$out/badperf/"
off=$("$AUXREC" report -D "$rec/perf.data" | awk '/PERF_RECORD_SAMPLE/ && ++n == 500 { print $3; exit }')
printf '\0\0' | dd of="$out/badperf/perf.data" bs=1 seek=$((off + 6)) conv=notrunc status=none
"$AUXREC" report "$out/badperf" >"$out/badperf.txt" 2>"$out/badperf.err"
check "a damaged perf.data: exits non-zero" [ $? -ne 0 ]
check "a damaged perf.data: the error names the file and the record's offset $off" \
	grep -qE "badperf/perf.data: .*(offset|at) $off" "$out/badperf.err"
check "a damaged perf.data: the text says it is incomplete" grep -q "^  incomplete " "$out/badperf.txt"
check "a damaged perf.data: the samples before it are counted" \
	[ "$(awk '/^perf samples /{print $4; exit}' "$out/badperf.txt")" -ge 400 ]
check "a damaged perf.data: trace.dat is still read whole ($events events)" \
	[ "$(awk '/^ftrace events /{print $4; exit}' "$out/badperf.txt")" = "$events" ]
sed 's/^/    /' "$out/badperf.err"
printf 'not a recording' >"$out/junk"
"$AUXREC" report "$out/junk" 2>"$out/err-junk" >/dev/null
check "a file of neither kind is refused, saying what was expected" \
	grep -q "junk: neither a perf.data (magic PERFILE2) nor a trace.dat" "$out/err-junk"
exit $fail
