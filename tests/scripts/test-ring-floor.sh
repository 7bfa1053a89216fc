#!/bin/bash
# ring/ is the floor the other rooms stand on: its objects call nothing defined in the rooms
# above it (perf data rings, evlists, AUX areas, tracefs, perf.data, ...), only lib/'s
# helpers. Those rings join a ring set as sources (struct ring_source); the set never names
# them. Read off the objects (nm), so that what the compiler links is what is checked; the
# rooms are the Makefile's library directories, so a new one is covered when it is added.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
read -r -a above < <(sed -n 's/^\(LIB\|TRACEFS\)_DIRS *:= *//p' Makefile | tr ' ' '\n' |
		     grep -vx -e lib -e ring -e '' | tr '\n' ' ')

defined=$(for d in "${above[@]}"; do
	for c in "$d"/*.c; do
		nm --defined-only "$B/${c%.c}.o" 2>/dev/null | awk '$2 ~ /^[TDBRG]$/ { print $3 }'
	done
done | sort -u)
if [ -z "$defined" ]; then
	echo "no objects under $B for ${above[*]}: build the libraries first"
	exit 1
fi

bad=0
for c in ring/*.c; do
	obj="$B/${c%.c}.o"
	if [ ! -e "$obj" ]; then
		echo "missing $obj: build the libraries first"
		exit 1
	fi
	calls=$(nm --undefined-only "$obj" | awk '{ print $2 }' | sort -u | comm -12 - <(echo "$defined"))
	if [ -n "$calls" ]; then
		echo "$c calls what the rooms above ring/ define: $(echo $calls)"
		bad=1
	fi
done
[ $bad -eq 0 ] && echo "ring/: $(ls ring/*.c | wc -l) files, no call into ${above[*]}"
exit $bad
