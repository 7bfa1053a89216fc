#!/bin/bash
# Values that cannot be true, flagged as damage: a byte flip in a sample of a real perf.data
# (auxrec's, perf's) that leaves every field parseable but impossible given the header (a CPU
# beyond NRCPUS, a pid beyond PID_MAX_LIMIT, a time outside SAMPLE_TIME) is counted, said,
# and never becomes a row of auxrec script or auxrec report.
set -u
cd "$(dirname "$0")/../.."
. tests/scripts/check-lib.sh
needs_root "perf events of a command with cpu-clock at any paranoia"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# flip IN OUT FIELD VALUE: OUT is IN with FIELD (cpu, pid, time) of its 5th sample set to
# VALUE, found by the attr's sample_type (one attr, or all alike, without IDENTIFIER's need).
flip() {
	python3 - "$@" <<'PY'
import struct, sys
src, dst, field, value = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4], 0)
d = bytearray(open(src, 'rb').read())
attr_size = struct.unpack_from('<Q', d, 16)[0]
attrs_off, attrs_size = struct.unpack_from('<QQ', d, 24)
data_off, data_size = struct.unpack_from('<QQ', d, 40)
types = {struct.unpack_from('<Q', d, attrs_off + i * attr_size + 24)[0]
         for i in range(attrs_size // attr_size)}
assert len(types) == 1, types
st = types.pop()
IDENT, IP, TID, TIME, ADDR, ID, STREAM, CPU = 1 << 16, 1, 2, 4, 8, 64, 512, 128
off = 8 + 8 * bool(st & IDENT) + 8 * bool(st & IP)
where = {}
if st & TID: where['pid'] = off; off += 8
if st & TIME: where['time'] = off; off += 8
off += 8 * (bool(st & ADDR) + bool(st & ID) + bool(st & STREAM))
if st & CPU: where['cpu'] = off
pos, n = data_off, 0
while pos < data_off + data_size:
    typ, misc, size = struct.unpack_from('<IHH', d, pos)
    if typ == 9:
        n += 1
        if n == 5:
            struct.pack_into('<Q' if field == 'time' else '<I', d, pos + where[field], value)
            break
    pos += size
assert n == 5, "fewer than 5 samples"
open(dst, 'wb').write(d)
PY
}

# rows IN: the samples auxrec script prints
rows() { timeout 60 "$auxrec" script "$1" 2>/dev/null | grep -c 'cpu-clock:'; }

timeout 60 "$auxrec" record -o "$out/rec" -e cpu-clock -- "$loop" 300000 >"$out/rec.log" 2>&1
check "auxrec's recording exits 0" [ $? -eq 0 ]
timeout 60 perf record -q --timestamp-boundary -o "$out/perf.data" -e cpu-clock -- \
	"$loop" 300000 >"$out/perf.log" 2>&1
check "perf's recording (with the samples' time span in its header) exits 0" [ $? -eq 0 ]
whole=$(rows "$out/rec/perf.data")
whole_perf=$(rows "$out/perf.data")
check "both have samples ($whole, $whole_perf)" [ "$whole" -ge 5 ] && [ "$whole_perf" -ge 5 ]

# damaged NAME IN FIELD VALUE ROWS-BEFORE EXPECTED-MESSAGE
damaged() {
	local name=$1 in=$2 field=$3 value=$4 before=$5 says=$6 n
	mkdir -p "$out/$name"
	flip "$in" "$out/$name/perf.data" "$field" "$value"
	timeout 60 "$auxrec" script "$out/$name/perf.data" >"$out/$name.script" 2>"$out/$name.err"
	check "$name: script exits 0 (damage is no failure)" [ $? -eq 0 ]
	n=$(grep -c 'cpu-clock:' "$out/$name.script")
	check "$name: the damaged sample is no row ($n of $before)" [ "$n" -eq $((before - 1)) ]
	check "$name: script says where the damage is" \
		grep -qE "the sample at 0x[0-9a-f]+ has $says.*counted in nr_damaged_samples" "$out/$name.err"
}
damaged cpu "$out/rec/perf.data" cpu 1056964608 "$whole" "CPU 1056964608, beyond the [0-9]+ CPUs"
check "cpu: no CPU 1056964608 row in script" not grep -q "1056964608" "$out/cpu.script"
damaged pid "$out/rec/perf.data" pid 0x7fffffff "$whole" "pid/tid 2147483647/"
damaged time "$out/perf.data" time 0x7fffffffffffffff "$whole_perf" "time 9223372036854775807, outside"

timeout 60 "$auxrec" report "$out/cpu" >"$out/cpu.report" 2>&1
check "report of the CPU flip exits 0" [ $? -eq 0 ]
check "... shows no CPU 1056964608 row" not grep -qE "^ *1056964608 " "$out/cpu.report"
check "... and says damage was found" grep -q "damaged there" "$out/cpu.report"
for f in "$out"/*.err "$out"/cpu.report; do echo "== $f"; head -30 "$f"; done
exit $fail
