#!/bin/bash
# No library files call each other in a circle: when A calls what B defines, B calls nothing
# A defines, nor anything that leads back to A. Read off the objects (nm), so that what the
# compiler links is what is checked. A circle means files that are one concern, or a helper
# they should share from below. The same holds one level up, between the library's folders
# (its rooms): their graph is printed, and a circle there fails too, since a room that calls
# back into one that stands on it cannot be read, built or replaced on its own.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
python3 - "$B" <<'PY'
import collections, glob, subprocess, sys

build = sys.argv[1]
dirs = ('lib', 'cpumap', 'evsel', 'ring', 'mmap', 'auxtrace', 'data', 'decode', 'tracefs')
srcs = [c[:-2] for d in dirs for c in glob.glob(f'{d}/*.c')]
defs, undefs = {}, {}
for s in srcs:
    obj = f'{build}/{s}.o'
    try:
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        print(f'missing {obj}: build the libraries first')
        sys.exit(1)
    d, u = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDBRG':
            d.add(f[2])
        elif len(f) == 2 and f[0] == 'U':
            u.add(f[1])
    defs[s], undefs[s] = d, u
owner = {sym: s for s, d in defs.items() for sym in d}
calls = collections.defaultdict(lambda: collections.defaultdict(set))
rooms = collections.defaultdict(lambda: collections.defaultdict(set))
for s, u in undefs.items():
    for sym in u:
        if sym in owner and owner[sym] != s:
            calls[s][owner[sym]].add(sym)
            a, b = s.split('/')[0], owner[sym].split('/')[0]
            if a != b:
                rooms[a][b].add(sym)

sys.setrecursionlimit(10000)
def circles_of(nodes, edges):
    """The groups of nodes that reach each other (Tarjan's strongly connected components)."""
    index, low, stack, on, circles = {}, {}, [], set(), []
    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))
    for v in nodes:
        if v not in index:
            visit(v)
    return circles

circles = circles_of(sorted(srcs), lambda v: calls[v])
for comp in circles:
    print('a circle:')
    for a in comp:
        for b in sorted(calls[a]):
            if b in comp:
                print(f'  {a}.c calls {", ".join(sorted(calls[a][b]))} of {b}.c')
print(f'{len(srcs)} library files, {len(circles)} circles')

for a in dirs:
    if rooms[a]:
        print(f'  {a}/ calls ' + ', '.join(
            f'{b}/ ({len(rooms[a][b])})' for b in dirs if b in rooms[a]))
room_circles = circles_of(dirs, lambda a: list(rooms[a]))
for comp in room_circles:
    print('a circle of folders:')
    for a in comp:
        for b in sorted(rooms[a]):
            if b in comp:
                print(f'  {a}/ calls {", ".join(sorted(rooms[a][b]))} of {b}/')
print(f'{len(dirs)} library folders, {len(room_circles)} circles')
sys.exit(1 if circles or room_circles else 0)
PY
