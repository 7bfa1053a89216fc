#!/bin/bash
# Each shared library exports exactly what its headers declare, under the version node its
# map names: libauxtrace the AUXTRACE_API functions of include/auxtrace/ (LIBAUXTRACE_0) and
# the AUXTRACE_PRIVATE ones of internal/ (LIBAUXTRACE_PRIVATE_0, for libauxtrace-tracefs
# only); libauxtrace-tracefs the AUXTRACE_API functions of include/tracefs/
# (LIBAUXTRACE_TRACEFS_0). libauxtrace exports no tracefs_* name, so a program can link it
# beside the system's libtracefs.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
fail=0

# declared MARK FILES...: the function names the headers mark.
declared() {
	local mark=$1
	shift
	cat "$@" | grep -v "define $mark" | tr '\n' ' ' | grep -oE "$mark[^;{(]*\\(" |
		sed -E 's/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\($/\1/' | sort -u
}

# exported SO NODE: the functions SO defines under version node NODE.
exported() {
	nm -D --defined-only "$1" | awk -v node="$2" '$2 ~ /^[TDBRVW]$/ {
		split($3, v, "@+"); if (v[2] == node) print v[1] }' | sort -u
}

# check SO NODE DECLARED: one node's exports against its declarations.
check() {
	local so=$1 node=$2 want=$3 have leaked missing
	have=$(exported "$so" "$node")
	leaked=$(comm -13 <(echo "$want") <(echo "$have"))
	missing=$(comm -23 <(echo "$want") <(echo "$have"))
	if [ -n "$leaked" ]; then
		echo "$so exports under $node what no header declares there:"
		echo "$leaked" | sed 's/^/  /'
		fail=1
	fi
	if [ -n "$missing" ]; then
		echo "$so: declared but not exported under $node (unimplemented, or missing from the map?):"
		echo "$missing" | sed 's/^/  /'
		fail=1
	fi
	echo "$so $node: $(echo "$have" | grep -c .) symbols"
}

# every defined symbol must sit in one of the nodes checked
unversioned() {
	local so=$1
	shift
	nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' |
		grep -vE "@@?($(IFS='|'; echo "$*"))\$" | grep -v '^LIBAUXTRACE' || true
}

core=$B/libauxtrace.so
tracefs=$B/libauxtrace-tracefs.so
check "$core" LIBAUXTRACE_0 "$(declared AUXTRACE_API include/auxtrace/*.h)"
check "$core" LIBAUXTRACE_PRIVATE_0 "$(declared AUXTRACE_PRIVATE internal/*.h)"
check "$tracefs" LIBAUXTRACE_TRACEFS_0 "$(declared AUXTRACE_API include/tracefs/*.h)"
for so in "$core:LIBAUXTRACE_0 LIBAUXTRACE_PRIVATE_0" "$tracefs:LIBAUXTRACE_TRACEFS_0"; do
	# shellcheck disable=SC2086
	stray=$(unversioned "${so%%:*}" ${so#*:})
	[ -z "$stray" ] || { echo "${so%%:*} exports outside its version nodes:"; echo "$stray"; fail=1; }
done
if nm -D --defined-only "$core" | awk '{ print $3 }' | grep -q '^tracefs_'; then
	echo "$core exports tracefs_* names: they clash with the system's libtracefs"
	fail=1
fi
for lib in libauxtrace libauxtrace-tracefs; do
	soname=$(readelf -d "$B/$lib.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	[ "$soname" = "$lib.so.0" ] || { echo "$lib: SONAME is '$soname', want $lib.so.0"; fail=1; }
done
readelf -d "$tracefs" | grep -q 'NEEDED.*\[libauxtrace.so.0\]' ||
	{ echo "$tracefs does not link libauxtrace.so.0"; fail=1; }
exit $fail
