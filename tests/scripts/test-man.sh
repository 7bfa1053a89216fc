#!/bin/bash
# The man pages: every Documentation/*.adoc builds (asciidoctor, no warning) and renders with
# man and groff with no warning; every C example of a page compiles against the built shared
# libraries and the ones marked "run" run; every option of auxrec record, report, script and convert
# is in its page and its usage; auxrec help shows a page, or says why not and prints the
# usage; auxrec --version is the Makefile's version; every symbol the libraries export (their
# version scripts' public nodes) is named in some page.
set -u
cd "$(dirname "$0")/../.."
. tests/scripts/c-examples.sh
B=${B:-build}
auxrec=$B/auxrec
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
failed() { echo "FAILED: $*"; fail=1; }

make -s --no-print-directory B="$B" man >"$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; echo "FAILED: make man"; exit 1; }

# page_of SRC: the built page of Documentation/NAME.SECTION.adoc
page_of() {
	local name
	name=$(basename "$1" .adoc)
	echo "$B/man/man${name##*.}/$name"
}

pages=0
for src in Documentation/*.adoc; do
	[ -e "$src" ] || continue
	pages=$((pages + 1))
	page=$(page_of "$src")
	[ -s "$page" ] || { failed "$src was not built into $page"; continue; }
	# --warnings=w: every groff warning (an undefined macro, a bad escape, ...)
	MANWIDTH=80 man --warnings=w -l "$page" >"$tmp/out" 2>"$tmp/err"
	if [ -s "$tmp/err" ] || ! grep -q '^NAME' "$tmp/out"; then
		failed "$page does not render cleanly:"
		sed 's/^/  /' "$tmp/err"
	fi
done
[ "$pages" -gt 0 ] || failed "no pages in Documentation/"
echo "$pages pages built and rendered"

# The examples, linked to the shared libraries as a user's program is (no hidden symbol).
san=()
# shellcheck disable=SC2054 # commas inside one compiler flag
[ "${SANITIZE:-}" = 1 ] && san=(-fsanitize=address,undefined)
# shellcheck disable=SC2207,SC2054
link=("${san[@]}" -L"$B" -lauxtrace-tracefs -lauxtrace
      $(pkg-config --libs libtraceevent))
examples=0
for src in Documentation/*.adoc; do
	[ -e "$src" ] || continue
	dir=$tmp/ex/$(basename "$src" .adoc)
	mkdir -p "$dir"
	for name in $(examples__from_adoc "$src" "$dir"); do
		examples=$((examples + 1))
		ex=$dir/$name
		if [ ! -s "$ex" ]; then
			failed "$src: '// example: $name' is not followed by a ---- listing block"
			continue
		fi
		if ! example__compile "$ex" "${ex%.c}" "${link[@]}"; then
			failed "$src: example $name does not compile:"
			cat "${ex%.c}.err"
			continue
		fi
		[ -e "$ex.run" ] || continue
		LD_LIBRARY_PATH="$PWD/$B" timeout 60 "${ex%.c}" >"$ex.out" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			failed "$src: example $name exits $rc when run:"
			sed 's/^/  /' "$ex.out" | tail -20
		fi
	done
done
echo "$examples examples compiled (and run where marked)"

# Every option in each command's option table is in its page (as a bold *--name* / *-x*
# entry) and in its usage. Help is self-evident in the usage.
check_options() {	# check_options COMMAND SOURCE
	local cmd=$1 src=$2 page=Documentation/auxrec-$1.1.adoc usage long short n=0
	usage=$("$auxrec" "$cmd" -h 2>&1)
	while read -r long short; do
		n=$((n + 1))
		grep -qF -- "*--$long" "$page" || failed "auxrec $cmd --$long is not in $page"
		[ "$long" = help ] || grep -qE -- "--$long([^a-z-]|$)" <<<"$usage" ||
			failed "auxrec $cmd --$long is not in its usage (auxrec $cmd -h)"
		[ -z "$short" ] || grep -qF -- "*-$short*" "$page" ||
			failed "auxrec $cmd -$short is not in $page"
	done < <(sed -nE "s/.*\\{ \"([a-z-]+)\", (no|required|optional)_argument, NULL, ('(.)'|[A-Z_]+) \\}.*/\\1 \\4/p" "$src")
	[ "$n" -gt 0 ] || failed "no option table found in $src"
	echo "auxrec $cmd: $n options checked against $page and the usage"
}
check_options record tools/auxrec/record-options.c
check_options report tools/auxrec/cmd-report.c
check_options script tools/auxrec/cmd-script.c
check_options convert tools/auxrec/cmd-convert.c

# auxrec --version: the Makefile's VERSION.
version=$(sed -nE 's/^VERSION[[:space:]]*:=[[:space:]]*//p' Makefile)
out=$("$auxrec" --version)
[ "$out" = "auxrec $version" ] || failed "auxrec --version says '$out', not 'auxrec $version'"

# auxrec help: the page through man, from MANPATH, or from beside the executable
# (build/man next to build/auxrec); the usage and why when man or the page is missing.
mkdir -p "$tmp/bin" "$tmp/empty" "$tmp/nowhere"
cp "$auxrec" "$tmp/bin/auxrec"
help() {	# help OUT AUXREC VAR=VALUE [ARG]: auxrec help [ARG] with VAR set, into OUT.*
	local out=$1 bin=$2 var=$3
	shift 3
	env MANPAGER=cat PAGER=cat MANWIDTH=80 "$var" "$bin" help "$@" >"$out.out" 2>"$out.err"
	echo $? >"$out.rc"
}
expect() {	# expect OUT WHAT STATUS [out|err PATTERN]...: that help's status and output
	local out=$1 what=$2 ok=1
	[ "$(cat "$out.rc")" = "$3" ] || ok=0
	shift 3
	while [ $# -ge 2 ]; do
		grep -q -- "$2" "$out.$1" || ok=0
		shift 2
	done
	[ $ok = 1 ] || { failed "$what (exit $(cat "$out.rc"))"; head -5 "$out.err"; }
}
help "$tmp/h1" "$tmp/bin/auxrec" MANPATH="$PWD/$B/man" record
expect "$tmp/h1" "auxrec help record with MANPATH=$B/man does not show auxrec-record(1)" 0 \
	out 'auxrec-record - record perf events' out '--ftrace-buffer-kb N'
help "$tmp/h2" "$auxrec" MANPATH="$tmp/empty" record
expect "$tmp/h2" "$auxrec help record does not find the pages beside it in $B/man" 0 \
	out 'auxrec-record - record perf events'
help "$tmp/h3" "$tmp/bin/auxrec" MANPATH="$tmp/empty" record
expect "$tmp/h3" "auxrec help record without its page does not say so and print the usage" 0 \
	out '^usage: auxrec record' err 'man has no page auxrec-record(1)'
help "$tmp/h4" "$tmp/bin/auxrec" PATH="$tmp/nowhere" record
expect "$tmp/h4" "auxrec help record without man does not say so and print the usage" 0 \
	out '^usage: auxrec record' err 'cannot run man'
help "$tmp/h5" "$auxrec" MANPATH="$tmp/empty"
expect "$tmp/h5" "auxrec help does not show auxrec(1)" 0 out '^AUXREC(1)'
help "$tmp/h6" "$auxrec" MANPATH="$tmp/empty" nosuch
expect "$tmp/h6" "auxrec help nosuch does not fail as an unknown command" 2 \
	err "unknown command 'nosuch'"

# Every exported symbol named in some page: a new export needs its page.
awk '/^[A-Z_0-9]+ \{/ { public = $1 !~ /PRIVATE/ } public && /^\t\t[a-z_0-9]+;/ {
	sub(/;/, ""); print $1 }' libauxtrace.map libauxtrace-tracefs.map | sort -u >"$tmp/exported"
grep -ohE '[A-Za-z_][A-Za-z0-9_]*' Documentation/*.adoc | sed -E 's/^_+//; s/_+$//' |
	sort -u >"$tmp/named"
comm -23 "$tmp/exported" "$tmp/named" >"$tmp/missing"
nr_missing=$(wc -l <"$tmp/missing")
echo "$(wc -l <"$tmp/exported") exported symbols, $nr_missing named in no page"
if [ "$nr_missing" -gt 0 ]; then
	sed 's/^/  not in any page: /' "$tmp/missing"
	failed "$nr_missing exported symbols are named in no page"
fi
exit $fail
