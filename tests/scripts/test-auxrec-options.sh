#!/bin/bash
# auxrec record's sampling options as perf record has them (-F, -c, -d, --switch-events,
# --sample-cpu, -T, -q, -v), each held against the attr perf record itself makes for the same
# option (perf evlist -v of both recordings), and every short letter of auxrec record against
# perf record -h: a letter both have means the same long option (but -N, trace-cmd's).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
. tests/scripts/check-lib.sh
needs_root "cpu-clock with the kernel"
needs_tools perf
in_tmpdir

# letters: "-X, --long" of each usage
"$auxrec" record -h | grep -oE '^  -[a-zA-Z](, --[a-z-]+)?' | sed 's/^ *//' >ours.txt
timeout 30 perf record -h 2>&1 | grep -oE '^ +-[a-zA-Z](, --[a-z-]+)?' | sed 's/^ *//' >perfs.txt
while read -r letter; do
	short=${letter%%,*}
	theirs=$(grep -- "^$short\(,\|$\)" perfs.txt)
	[ "$short" = -h ] && continue	# help, which perf has without listing it
	# -N is trace-cmd record's -N HOST:PORT (issue 20: ftrace data to trace-cmd listen); perf's
	# -N, --no-buildid-cache, has nothing to turn off here (auxrec keeps no build-ID cache)
	if [ "$short" = -N ]; then
		check "auxrec record -N is trace-cmd record's -N HOST:PORT, not perf's $theirs" \
			eval "[ '$letter' = '-N, --net' ] && [ '$theirs' = '-N, --no-buildid-cache' ]"
		continue
	fi
	check "auxrec record $letter is perf record's ${theirs:-(none)}" [ "$letter" = "$theirs" ]
done <ours.txt
check "auxrec record has perf's letters -F -c -d -T -g -q -v" \
	[ "$(grep -cE '^-(F|c|d|T|g|q|v)\b' ours.txt)" = 7 ]

rec() {	# rec NAME ARGS...: auxrec records true with ARGS into NAME
	local name=$1; shift
	timeout 60 "$auxrec" record -o "$name" "$@" -- true >"$name.log" 2>&1
}
perfrec() {	# perfrec NAME ARGS...: perf record does the same into NAME.data
	local name=$1; shift
	timeout 60 perf record -q -o "$name.data" "$@" -- true >/dev/null 2>&1
}
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)

# attrs FILE FIELD...: those fields, joined by /
attrs() {
	local file=$1 field v=
	shift
	for field in "$@"; do v="$v/$(attr "$file" "$field")"; done
	echo "$v"
}
rec f -e cpu-clock -F 999
perfrec f -e cpu-clock -F 999
check "-F 999: sample_freq 999 with freq 1, as perf's" \
	same "$(attrs f.data period_or_freq freq)" "$(attrs f/perf.data period_or_freq freq)"
check "... which is 999/1" [ "$(attr f/perf.data period_or_freq)" = 999 ]
rec fmax -e cpu-clock -F max
check "-F max: kernel.perf_event_max_sample_rate ($max)" \
	[ "$(attr fmax/perf.data period_or_freq)" = "$max" ]
rec fbig -e cpu-clock -F $((max * 10))
check "-F above the maximum is lowered to it ($max)" \
	[ "$(attr fbig/perf.data period_or_freq)" = "$max" ]
check "... saying so" grep -q "above kernel.perf_event_max_sample_rate: sampling at $max Hz" fbig.log
rec c -e cpu-clock -c 123457
perfrec c -e cpu-clock -c 123457
check "-c 123457: that period and no freq, as perf's" \
	same "$(attrs c.data period_or_freq freq)" "$(attrs c/perf.data period_or_freq freq)"
check "... which is 123457" [ "$(attr c/perf.data period_or_freq)" = 123457 ]
rec tp -e syscalls:sys_enter_getppid -c 1000
check "-c leaves a tracepoint sampling every hit, as perf" \
	[ "$(attr tp/perf.data period_or_freq)" = 1 ]
rec fc -e cpu-clock -F 99 -c 5
check "-F with -c is refused" grep -q -- "-F and -c exclude each other" fc.log

rec d -e cpu-clock -d
perfrec d -e cpu-clock -d
for bit in ADDR DATA_SRC; do
	check "-d: sample_type has $bit, as perf's" \
		[ "$(attr d.data sample_type | grep -c $bit)/$(attr d/perf.data sample_type | grep -c $bit)" = 1/1 ]
done
check "-d: mmap_data, as perf's" [ "$(attr d/perf.data mmap_data)" = "$(attr d.data mmap_data)" -a "$(attr d/perf.data mmap_data)" = 1 ]
rec old -e cpu-clock -a -d 0.2
check "-d 0.2 (the old duration) is refused naming --duration" \
	grep -q "give --duration 0.2" old.log
timeout 60 "$auxrec" record -o dur -e cpu-clock -a --duration 0.2 >dur.log 2>&1
check "--duration 0.2 records 0.2 s" grep -q "ended because the duration (--duration) ran out" dur.log

rec sw -e cpu-clock --switch-events
perfrec sw -e cpu-clock --switch-events
check "--switch-events: context_switch, as perf's" \
	[ "$(attr sw/perf.data context_switch)" = 1 -a "$(attr sw.data context_switch)" = 1 ]
timeout 60 perf script -i sw/perf.data --show-switch-events 2>/dev/null | grep -c PERF_RECORD_SWITCH >sw.count
check "... and perf script shows the switches ($(cat sw.count))" [ "$(cat sw.count)" -gt 0 ]
rec cpu -e cpu-clock --per-thread --sample-cpu
check "--sample-cpu: the CPU in samples of a --per-thread recording" \
	grep -q CPU <<<"$(attr cpu/perf.data sample_type)"
rec nocpu -e cpu-clock --per-thread
check "... which has none without it" [ "$(attr nocpu/perf.data sample_type | grep -c CPU)" = 0 ]
rec t -e cpu-clock -T
check "-T: accepted, the time in every sample" grep -q TIME <<<"$(attr t/perf.data sample_type)"

timeout 60 "$auxrec" record -q -o q -- true >q.out 2>q.log
check "-q with the default events: exit 0, nothing said" [ $? -eq 0 -a ! -s q.log ]
check "... and the recording is there" [ -s q/perf.data ]
timeout 60 "$auxrec" record -v -e cpu-clock -o v -- true >v.log 2>&1
check "-v is accepted, as perf record -v" [ $? -eq 0 ]
exit $fail
