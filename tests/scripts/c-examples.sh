# shellcheck shell=bash
# Sourced by the tests that check the documentation's C examples (test-readme-snippets.sh:
# README.md; test-man.sh: Documentation/*.adoc): extract them, and compile each as a user's
# program sees the project, through the public headers only. Run from the top directory.

# Fragments (functions without main) get these in front: the headers the README's tour uses.
EXAMPLE_PRELUDE='#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/ring-set.h>
#include <tracefs.h>'

# examples__from_markdown FILE DIR: every ```c block of FILE into DIR/snippet<N>.c.
examples__from_markdown() {
	awk -v dir="$2" '/^```c$/ { n++; file = dir "/snippet" n ".c"; inside = 1; next }
		inside && /^```$/ { inside = 0; next } inside { print > file }' "$1"
}

# examples__from_adoc FILE DIR: the listing block (between ---- lines) that follows each
# "// example: NAME.c" line of FILE into DIR/NAME.c; "// example: NAME.c run" also creates
# DIR/NAME.c.run, which marks it to be run. Prints the names the markers gave.
examples__from_adoc() {
	awk -v dir="$2" '
		/^\/\/ example: / { file = dir "/" $3; print $3; want = 1
				    if ($4 == "run") { printf "" > (file ".run"); close(file ".run") }
				    next }
		want && /^----$/ { if (inside) { close(file); want = inside = 0 } else inside = 1; next }
		inside { print > file }' "$1"
}

# example__compile SRC OUT [LDFLAGS...]: a program (it has main) is compiled into the object
# OUT, or with LDFLAGS linked into the executable OUT; a fragment is compiled into an object
# with EXAMPLE_PRELUDE in front. 0 or non-zero; the compiler's messages in OUT.err.
example__compile() {
	local src=$1 out=$2
	shift 2
	if ! grep -q 'int main' "$src"; then
		{ echo "$EXAMPLE_PRELUDE"; cat "$src"; } >"$src.full.c"
		src=$src.full.c
		set --
	fi
	# shellcheck disable=SC2046
	cc -std=gnu11 -Wall -Wextra -Werror -Wno-unused-function -D_GNU_SOURCE -Iinclude \
		-Iinclude/tracefs $(pkg-config --cflags libtraceevent) $([ $# -eq 0 ] && echo -c) \
		-o "$out" "$src" "$@" 2>"$out.err"
}
