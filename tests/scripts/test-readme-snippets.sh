#!/bin/bash
# Every C block in the README compiles against the public headers: the README stays true.
# Blocks with main() are complete programs (test-install.sh also runs the embedding example);
# the others are functions, compiled with the public headers included in front.
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '/^```c$/ { n++; file = dir "/snippet" n ".c"; inside = 1; next }
	inside && /^```$/ { inside = 0; next } inside { print > file }' README.md
prelude='#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/ring-set.h>
#include <tracefs.h>'
fail=0 n=0
for f in "$tmp"/snippet*.c; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	if grep -q 'int main' "$f"; then
		src=$f
	else
		src=$f.full.c
		{ echo "$prelude"; cat "$f"; } >"$src"
	fi
	# shellcheck disable=SC2046
	if ! cc -std=gnu11 -Wall -Wextra -Werror -Wno-unused-function -D_GNU_SOURCE -Iinclude \
		-Iinclude/tracefs $(pkg-config --cflags libtraceevent) -c -o "$f.o" "$src" \
		2>"$f.err"; then
		echo "README C block $n does not compile:"
		sed 's/^/  /' "$f"
		cat "$f.err"
		fail=1
	fi
done
[ "$n" -gt 0 ] || { echo "no C blocks found in README.md"; exit 1; }
echo "$n README C blocks compile"
exit $fail
