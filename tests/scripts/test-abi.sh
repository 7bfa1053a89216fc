#!/bin/bash
# The shared library exports exactly the functions the public headers declare AUXTRACE_API:
# nothing internal leaks, and nothing declared is missing.
set -eu
cd "$(dirname "$0")/../.."
so=${B:-build}/libauxtrace.so
declared=$(cat include/auxtrace/*.h include/tracefs/*.h 2>/dev/null | grep -v "define AUXTRACE_API" | tr '\n' ' ' |
	grep -oE 'AUXTRACE_API[^;{(]*\(' | sed -E 's/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\($/\1/' |
	sort -u)
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' |
	grep -v '^LIBAUXTRACE_' | sort -u)
leaked=$(comm -13 <(echo "$declared") <(echo "$exported"))
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
[ -z "$leaked" ] || { echo "exported but not declared AUXTRACE_API:"; echo "$leaked"; }
[ -z "$missing" ] || { echo "declared AUXTRACE_API but not exported (unimplemented?):"; echo "$missing"; }
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libauxtrace.so.0 ] || { echo "SONAME is '$soname', want libauxtrace.so.0"; exit 1; }
[ -z "$leaked$missing" ] || exit 1
echo "$(echo "$exported" | wc -l) exported symbols, all declared; SONAME $soname"
