# Sourced by the shell checks: check DESCRIPTION CONDITION... runs the condition and says
# ok or FAILED (setting fail=1); same WANT GOT holds when both are equal and not empty;
# same_file compares files.
# What the checks run, from the build make test names (B)
B=${B:-build}
auxrec=${auxrec:-$B/auxrec}
loop=${loop:-$B/tests/progs/getppid-loop}
fail=0
check() {
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}
# not CONDITION...: holds when the condition does not
not() { ! "$@"; }
same() {
	[ -n "$1" ] && [ "$1" = "$2" ]
}
# same_file WHAT WANT GOT: the two files are equal; if not, the first lines that differ show
# (either may be a <(...) pipe, read once: both are kept for the diff)
same_file() {
	local want got rc=0
	want=$(mktemp) got=$(mktemp)
	cat "$2" >"$want"; cat "$3" >"$got"
	cmp -s "$want" "$got" || { rc=1; echo "   $1 differs:"; diff "$want" "$got" | head -5; }
	rm -f "$want" "$got"
	return $rc
}
# attr FILE FIELD: one attr field of FILE's first event as perf evlist -v says it
# ("{ sample_period, sample_freq }" is called period_or_freq)
attr() {
	timeout 60 perf evlist -v -i "$1" 2>/dev/null | head -1 |
		sed 's/{ sample_period, sample_freq }/period_or_freq/' | tr ',' '\n' |
		sed -n "s/^ *$2: //p"
}
# skip WHY...: say why the check cannot run here, and skip it (exit 77)
skip() { echo "SKIP: $*"; exit 77; }
# needs_root WHY and needs_tools TOOL...: skip the check when they are missing
needs_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root ($1)"
}
needs_tools() {
	local tool
	for tool in "$@"; do
		command -v "$tool" >/dev/null || skip "$tool is not installed"
	done
}
# needs_tracefs WHY: root and a mounted tracefs, or skip; tracefs is where it is mounted
needs_tracefs() {
	needs_root "$1"
	tracefs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	[ -n "$tracefs" ] || skip "tracefs is not mounted"
}
# in_tmpdir: work in a directory of its own, removed at exit
in_tmpdir() {
	out=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$out'" EXIT
	cd "$out" || exit 1
}
