#!/bin/bash
# make install into a scratch DESTDIR (and make uninstall from it), then build the README's embedding example with
# `pkg-config --cflags --libs auxtrace` against the installed copy, link it to the shared
# library, and run it.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# DESTDIR staging puts every file under DESTDIR, at the PREFIX paths.
make -s --no-print-directory B="$B" install DESTDIR="$tmp/stage" PREFIX=/usr/local \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
for f in lib/libauxtrace.a lib/libauxtrace.so lib/libauxtrace.so.0 lib/pkgconfig/auxtrace.pc \
	 lib/libauxtrace-tracefs.a lib/libauxtrace-tracefs.so lib/libauxtrace-tracefs.so.0 \
	 lib/pkgconfig/auxtrace-tracefs.pc include/auxtrace/core.h include/auxtrace/evlist.h \
	 include/auxtrace/tracefs/tracefs.h bin/auxrec; do
	[ -e "$tmp/stage/usr/local/$f" ] || { echo "not installed: DESTDIR/usr/local/$f"; exit 1; }
done
grep -q '^libdir=/usr/local/lib$' "$tmp/stage/usr/local/lib/pkgconfig/auxtrace.pc" ||
	{ echo "auxtrace.pc does not point at PREFIX"; exit 1; }
# Every man page, under PREFIX/share/man/man<section>; make uninstall takes them away again.
pages=()
for src in Documentation/*.adoc; do
	name=$(basename "$src" .adoc)
	pages+=("$tmp/stage/usr/local/share/man/man${name##*.}/$name")
done
for p in "${pages[@]}"; do
	[ -s "$p" ] || { echo "man page not installed: $p"; exit 1; }
done
# A function's own name opens its family's page, as `man tracefs_cpu_open` does.
alias_page=$tmp/stage/usr/local/share/man/man3/evlist__mmap.3
pages+=("$alias_page")
MANPATH=$tmp/stage/usr/local/share/man MANPAGER=cat man evlist__mmap 2>&1 |
	grep -q 'libauxtrace-evsel' || { echo "man evlist__mmap: no page (expected $alias_page)"; exit 1; }
make -s --no-print-directory B="$B" uninstall DESTDIR="$tmp/stage" PREFIX=/usr/local \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
for p in "${pages[@]}" "$tmp/stage/usr/local/bin/auxrec"; do
	[ ! -e "$p" ] || { echo "make uninstall left $p"; exit 1; }
done
# A real install into a scratch prefix: what a user's build sees through pkg-config.
prefix=$tmp/prefix
make -s --no-print-directory B="$B" install PREFIX="$prefix" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; exit 1; }
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# The example in the README, exactly as printed there.
awk '/<!-- example: embed.c -->/ { grab = 1; next } grab && /^```c/ { inside = 1; next }
     inside && /^```/ { exit } inside { print }' README.md >"$tmp/embed.c"
[ -s "$tmp/embed.c" ] || { echo "README has no embedding example"; exit 1; }
san=""
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined"
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror $san -o "$tmp/embed" "$tmp/embed.c" \
	$(pkg-config --cflags --libs auxtrace)
readelf -d "$tmp/embed" | grep -q 'NEEDED.*libauxtrace.so.0' ||
	{ echo "example is not linked to libauxtrace.so.0"; exit 1; }
# A program written for libtracefs' mapping API: only the include path and link line change.
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror $san -o "$tmp/tracefs-cpu-map" tests/progs/tracefs-cpu-map.c \
	$(pkg-config --cflags --libs auxtrace-tracefs)
readelf -d "$tmp/tracefs-cpu-map" | grep -q 'NEEDED.*libauxtrace-tracefs.so.0' ||
	{ echo "the libtracefs-style program is not linked to libauxtrace-tracefs.so.0"; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: running the example needs root (tracepoint perf events)"
	exit 77
fi
out=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/embed")
echo "$out"
# The example makes 10 getppid() calls and prints what its ring delivered.
grep -qx 'samples: 10' <<<"$out" || { echo "unexpected example output"; exit 1; }
