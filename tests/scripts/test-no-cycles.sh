#!/bin/bash
# No files call each other in a circle, in the library and in auxrec: neither between their
# objects (nm), nor when each header is counted with the .c of its name (no-cycles.py says
# how the graphs are made). A circle means files that are one concern, a header named after
# the wrong file, or a helper they should share from below.
set -u
cd "$(dirname "$0")/../.."
exec python3 tests/scripts/no-cycles.py "${B:-build}"
