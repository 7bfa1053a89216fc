# Sourced by the shell checks: check DESCRIPTION CONDITION... runs the condition and says
# ok or FAILED (setting fail=1); same WANT GOT holds when both are equal and not empty.
fail=0
check() {
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}
same() {
	[ -n "$1" ] && [ "$1" = "$2" ]
}
