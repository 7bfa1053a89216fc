#!/bin/bash
# scripts/run-tests counts every test once: a skipped test (check reports it as passed) is
# skipped, not also passed; a failure and a suite that dies without check's summary fail.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d /tmp/auxtrace-run-tests-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# Fake suites: what a check suite prints, and its exit code.
suite() {
	printf '#!/bin/sh\nprintf "%%b" "%s"\nexit %d\n' "$2" "$3" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
suite skips "Running suite(s): s\nSKIP: test_a: needs two online CPUs\nSKIP: test_b: no tracefs\n100%: Checks: 5, Failures: 0, Errors: 0\n" 0
suite fails "Running suite(s): f\n50%: Checks: 4, Failures: 1, Errors: 1\nt.c:9:F:core:test_count:0: count 3, want 4\n" 1
suite dies "Running suite(s): d\n" 139

closing() {
	TEST_SCRIPTS= B="$tmp" scripts/run-tests "$@" | tail -1
}
expect() {
	local got
	got=$(closing "${@:2}")
	[ "$got" = "$1" ] || { echo "run-tests ${*:2}: '$got', want '$1'"; exit 1; }
}
expect "3 passed, 0 failed, 2 skipped" "$tmp/skips"
expect "2 passed, 2 failed, 0 skipped" "$tmp/fails"
expect "0 passed, 1 failed, 0 skipped" "$tmp/dies"
expect "5 passed, 3 failed, 2 skipped" "$tmp/skips" "$tmp/fails" "$tmp/dies"
! TEST_SCRIPTS= B="$tmp" scripts/run-tests "$tmp/fails" >/dev/null || { echo "a failure exited 0"; exit 1; }

# The closing lines name the checks that failed, after any other output (CI shows the tail).
printf '#!/bin/bash\necho "FAILED: the count (got 3)"\nseq 40\nexit 1\n' >"$tmp/test-fake.sh"
tail=$(TEST_SCRIPTS="$tmp/test-fake.sh" B="$tmp" scripts/run-tests "$tmp/fails" | tail -6)
for want in "t.c:9:F:core:test_count:0: count 3, want 4" "FAILED: the count (got 3)"; do
	grep -qF -- "$want" <<<"$tail" || { echo "the closing summary lacks '$want':"; echo "$tail"; exit 1; }
done
echo "run-tests counts passes, failures and skips once each, and its summary names failed checks"
