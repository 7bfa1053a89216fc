#!/bin/bash
# Every C block in the README compiles against the public headers: the README stays true.
# Blocks with main() are complete programs (test-install.sh also runs the embedding example);
# the others are functions, compiled with the public headers included in front.
set -u
cd "$(dirname "$0")/../.."
. tests/scripts/c-examples.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
examples__from_markdown README.md "$tmp"
fail=0 n=0
for f in "$tmp"/snippet*.c; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	if ! example__compile "$f" "$f.o"; then
		echo "README C block $n does not compile:"
		sed 's/^/  /' "$f"
		cat "$f.o.err"
		fail=1
	fi
done
[ "$n" -gt 0 ] || { echo "no C blocks found in README.md"; exit 1; }
echo "$n README C blocks compile"
exit $fail
