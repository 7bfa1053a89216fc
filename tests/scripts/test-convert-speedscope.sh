#!/bin/bash
# speedscope (the npm registry's, installed by scripts/install-deps into .deps/) imports what
# auxrec convert --to chrome writes, in headless Chromium: its built page is loaded from disk
# with the file handed over as speedscope's own command line does (#localProfilePath= naming
# a script that calls speedscope.loadFileFromBase64), and the page's DOM must then show the
# file's name in the title and the traced thread's profile ("prog (pid N), prog (tid N)"),
# with no error on the page or the console. Files: the call slices of a PT recording the AUX
# test producer wrote (tests/progs/flame-recording), and as root a recording of CPU tracks,
# task slices and instants (auxrec record, cpu-clock and sched_switch). A truncated file must
# not pass for a loaded one (the check can fail).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
auxrec=$PWD/$B/auxrec
rec=$PWD/$B/tests/progs/flame-recording
loop=$PWD/$B/tests/progs/getppid-loop
page=$PWD/.deps/node_modules/speedscope/dist/release/index.html
. tests/scripts/check-lib.sh
chromium=${CHROMIUM:-$(command -v chromium)}
[ -n "$chromium" ] || skip "no chromium (scripts/install-deps installs Debian's)"
command -v python3 >/dev/null || skip "no python3"
[ -e "$page" ] || skip "speedscope is not installed in .deps/ (scripts/install-deps installs" \
	"it from the npm registry; it could not, offline or without npm)"
out=$(mktemp -d)
elf=
trap 'rm -rf "$out" $elf' EXIT
cd "$out" || exit 1

# speedscope FILE: the text of the page once speedscope imported FILE, console lines after
speedscope() {
	python3 - "$1" >"$1.js" <<'PY'
import base64, json, os, sys
data = base64.b64encode(open(sys.argv[1], 'rb').read()).decode()
print('speedscope.loadFileFromBase64(%s, %s)' % (json.dumps(os.path.basename(sys.argv[1])),
                                                  json.dumps(data)))
PY
	timeout -k 5 60 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$out/profile" \
		--allow-file-access-from-files --enable-logging=stderr --v=0 \
		--virtual-time-budget=8000 --dump-dom \
		"file://$page#localProfilePath=$out/$1.js" >"$1.dom" 2>"$1.log"
	python3 - "$1.dom" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r'<(style|script)\b.*?</\1>', '', t, flags=re.S)
print(' '.join(re.sub(r'<[^>]+>', ' ', t).split()))
PY
	grep -a 'CONSOLE' "$1.log" | grep -ai 'error\|fail\|warn' | grep -v 'WebGL\|GL Driver'
}

# loaded FILE THREAD: speedscope's page names the file and the thread, and says no error
loaded() {
	local text
	text=$(speedscope "$1")
	echo "$text" | cut -c1-300 | sed "s/^/  $1: /"
	case $text in
	*"$1 - speedscope"*"$2"*) ;;
	*) return 1 ;;
	esac
	case $text in
	*"Something went wrong"*|*rror*|*"Unrecognized"*) return 1 ;;
	esac
}

timeout 60 "$rec" pt pt.data >pt.rec 2>&1
rc=$?
[ $rc -eq 77 ] && skip "gcc cannot build the traced program"
check "flame-recording writes a PT recording" [ $rc -eq 0 ]
elf=$(awk '/^elf / { print $2 }' pt.rec)
timeout 60 "$auxrec" convert -q --to chrome -o calls.json pt.data
check "auxrec convert writes its call slices" [ $? -eq 0 ]
check "speedscope imports the call slices: the traced thread (prog) is its profile" \
	loaded calls.json "prog (tid "
head -c 4000 calls.json >cut.json
check "... and a truncated file does not pass for a loaded one" not loaded cut.json "prog (tid "

if [ "$(id -u)" -eq 0 ] && grep -qw tracefs /proc/mounts; then
	timeout 60 "$auxrec" record -q -a --duration 0.3 -e cpu-clock --ftrace sched:sched_switch \
		-o tasks -- "$loop" 100000 >/dev/null 2>&1
	check "auxrec record makes a recording of CPU tracks" [ $? -eq 0 ]
	timeout 60 "$auxrec" convert -q --to chrome -o tasks.json tasks
	check "auxrec convert writes it" [ $? -eq 0 ]
	check "speedscope imports task slices and instants (a CPU is a profile)" \
		loaded tasks.json "CPUs"
else
	echo "(not root: the recording of CPU tracks is left out)"
fi
exit $fail
