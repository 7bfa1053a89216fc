#!/bin/bash
# libauxtrace beside the system's libtracefs (libtracefs-dev) in one program, linked three
# ways: against the installed libauxtrace.so, statically against libauxtrace.a, and against
# both static archives (libauxtrace.a and libtracefs.a). Before
# the tracefs layer became a library of its own, the static link failed on duplicate
# tracefs_* symbols and the dynamic one called libauxtrace's tracefs_* with libtracefs'
# structs.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
pkg-config --exists libtracefs || { echo "SKIP: libtracefs-dev is not installed"; exit 77; }
tmp=$(mktemp -d)
prefix=$tmp/prefix
tracing=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
name=auxtrace-test-coexist-$$
cleanup() {
	[ -z "$tracing" ] || rmdir "$tracing/instances/$name" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
make -s --no-print-directory B="$B" install PREFIX="$prefix" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; exit 1; }
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
san=""
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined"
src=tests/coexist/with-system-libtracefs.c
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror $san -o "$tmp/dynamic" "$src" \
	$(pkg-config --cflags --libs auxtrace libtracefs)
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror $san -o "$tmp/static" "$src" \
	$(pkg-config --cflags auxtrace libtracefs) "$prefix/lib/libauxtrace.a" \
	$(pkg-config --libs --static auxtrace libtracefs | sed 's/-lauxtrace//')
# and both static archives: one tracefs_* each, from libtracefs.a, and no duplicate
libdir=$(pkg-config --variable=libdir libtracefs)
if [ -f "$libdir/libtracefs.a" ] && [ -f "$libdir/libtraceevent.a" ]; then
	# shellcheck disable=SC2046
	cc -std=gnu11 -Wall -Wextra -Werror $san -o "$tmp/archives" "$src" \
		$(pkg-config --cflags auxtrace libtracefs) "$prefix/lib/libauxtrace.a" \
		"$libdir/libtracefs.a" "$libdir/libtraceevent.a" \
		$(pkg-config --libs --static auxtrace | sed 's/-lauxtrace//') -ldl
	nm "$tmp/archives" | grep -q ' T tracefs_instance_create$' ||
		{ echo "archives: no tracefs_instance_create from libtracefs.a"; exit 1; }
	if readelf -d "$tmp/archives" | grep -qE 'NEEDED.*\[lib(tracefs|auxtrace)'; then
		echo "archives: linked to a shared libtracefs or libauxtrace"; exit 1
	fi
	bins="dynamic static archives"
else
	echo "(no libtracefs.a or libtraceevent.a in $libdir: the two-archive link is not tried)"
	bins="dynamic static"
fi
for bin in dynamic static; do
	if nm "$tmp/$bin" | grep -q ' T tracefs_'; then
		echo "$bin: tracefs_* came from libauxtrace, not from the system's libtracefs"
		exit 1
	fi
done
readelf -d "$tmp/dynamic" | grep -q 'NEEDED.*\[libtracefs.so.1\]' ||
	{ echo "dynamic: not linked to the system's libtracefs.so.1"; exit 1; }
if [ "$(id -u)" -ne 0 ] || [ -z "$tracing" ]; then
	echo "SKIP: running needs root and tracefs (tracepoint events, an instance)"
	exit 77
fi
for bin in $bins; do
	out=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/$bin" "$name" 25) ||
		{ echo "$bin: $out"; exit 1; }
	[ "$out" = "perf 25 ftrace 25" ] || { echo "$bin: $out"; exit 1; }
	echo "$bin: $out"
done
