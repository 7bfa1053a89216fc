#!/usr/bin/env python3
"""No files call each other in a circle, in the library and in the tool (tools/auxrec).

Graphs read off the build: what the compiler links and includes is what is checked.
- The objects: file A -> file B when A's object uses a symbol B's object defines (nm).
- The library's folders (its rooms), from the objects' edges: a room that calls back into one
  that stands on it cannot be read, built or replaced on its own. Every edge is printed, and a
  floor (FLOORS: ring/) may call only the rooms listed below it.
- The files with their headers: a header belongs to the .c of its name, in any folder (foo.h
  and foo-internal.h to foo.c), or is a node of its own when there is none. On top of the
  objects' edges, A -> B when A (or a header of A's) includes a header of B's, and when a
  static inline or a macro of a header of A's calls what B defines.
A circle means files that are one concern, a header named after the wrong file, or a helper
they should share from below. Each circle is printed with the edges that make it.
usage: no-cycles.py BUILD_DIR
"""
import collections
import glob
import os
import re
import subprocess
import sys

LIB_DIRS = ('lib', 'cpumap', 'evsel', 'ring', 'mmap', 'auxtrace', 'data', 'decode', 'tracefs')
# Rooms that are floors, with the only rooms they may call: ring/ stands on lib/ alone, and
# the rings above it join a ring set as sources (struct ring_source) that it never names.
FLOORS = {'ring': ('lib',)}


class Program:
    """A program's sources and headers; inc: its -I directories, in the compiler's order."""

    def __init__(self, name, srcs, hdrs, inc):
        self.name, self.srcs, self.hdrs, self.inc = name, sorted(srcs), sorted(hdrs), inc


def programs():
    lib_hdrs = [h for d in LIB_DIRS + ('internal', 'include/auxtrace', 'include/tracefs')
                for h in glob.glob(f'{d}/*.h')]
    return (Program('library', [c for d in LIB_DIRS for c in glob.glob(f'{d}/*.c')], lib_hdrs,
                 ['include', 'include/tracefs', '.']),
            Program('auxrec', glob.glob('tools/auxrec/*.c'), glob.glob('tools/auxrec/*.h'), []))


def nm_symbols(obj):
    """(defined, undefined) global symbols of an object."""
    out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDBRG':
            defined.add(f[2])
        elif len(f) == 2 and f[0] == 'U':
            undefined.add(f[1])
    return defined, undefined


def code_of(text):
    """C text without comments, strings and line continuations."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return text.replace('\\\n', ' ')


# A call of a function by name; not of a member (ops->read(), ops.read()).
CALL = re.compile(r'(?<!\.)(?<!->)\b(\w+)\s*\(')


def header_calls(text):
    """What a header's own code calls: its static inline bodies and macro bodies."""
    names, lines = set(), []
    for line in code_of(text).split('\n'):
        m = re.match(r'\s*#\s*define\s+\w+(\([^)]*\))?(.*)', line)
        if m:
            names |= set(CALL.findall(m.group(2)))
        lines.append('' if line.lstrip().startswith('#') else line)
    code = '\n'.join(lines)
    for m in re.finditer(r'\binline\b[^;{}]*\)\s*\{', code):
        depth, i = 1, m.end()
        while depth and i < len(code):
            depth += {'{': 1, '}': -1}.get(code[i], 0)
            i += 1
        names |= set(CALL.findall(code[m.end():i]))
    return names


def includes(path, text, inc):
    """The files path includes, found as the compiler finds them ("" first beside path)."""
    found = []
    for m in re.finditer(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', text, re.M):
        for d in ([os.path.dirname(path)] if m.group(1) == '"' else []) + inc:
            p = os.path.normpath(os.path.join(d, m.group(2)))
            if os.path.exists(p):
                found.append(p)
                break
    return found


def owner_file(prog):
    """node(path): the .c a file belongs to (itself for a .c), or the header itself."""
    by_stem = collections.defaultdict(list)
    for c in prog.srcs:
        by_stem[os.path.basename(c)[:-2]].append(c)

    def node(path):
        if path.endswith('.c'):
            return path
        stem = re.sub(r'(-internal)?\.h$', '', os.path.basename(path))
        cs = by_stem.get(stem, [])
        beside = [c for c in cs if os.path.dirname(c) == os.path.dirname(path)]
        if beside or len(cs) == 1:
            return (beside or cs)[0]
        if cs:
            sys.exit(f'{path}: a header of which of {", ".join(cs)}? Name it after one.')
        return path
    return node


def graphs(prog, objdir):
    """The objects' graph and the files-with-headers graph: {a: {b: set of reasons}}."""
    defs, undefs = {}, {}
    for c in prog.srcs:
        obj = f'{objdir}/{c[:-2]}.o'
        try:
            defs[c], undefs[c] = nm_symbols(obj)
        except (OSError, subprocess.CalledProcessError):
            sys.exit(f'missing {obj}: build the libraries and tools first')
    owner = {sym: c for c, d in defs.items() for sym in d}
    objects = collections.defaultdict(lambda: collections.defaultdict(set))
    files = collections.defaultdict(lambda: collections.defaultdict(set))
    for c, u in undefs.items():
        for sym in u:
            if sym in owner and owner[sym] != c:
                objects[c][owner[sym]].add(f'calls {sym}')
                files[c][owner[sym]].add(f'calls {sym}')
    node = owner_file(prog)
    for path in prog.srcs + prog.hdrs:
        text = open(path).read()
        who = '' if path.endswith('.c') else f'{path} '
        for h in includes(path, text, prog.inc):
            if h in prog.hdrs and node(h) != node(path):
                files[node(path)][node(h)].add(f'{who}includes {h}')
        if path.endswith('.h'):
            for sym in header_calls(text):
                if sym in owner and owner[sym] != node(path):
                    files[node(path)][owner[sym]].add(f'{who}calls {sym}')
    return objects, files, sorted({node(p) for p in prog.srcs + prog.hdrs})


def circles(edges, nodes):
    """The strongly connected components of more than one node (Tarjan's)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
                found.append(sorted(comp))
    for v in nodes:
        if v not in index:
            visit(v)
    return found


def check(what, edges, nodes, noun='files'):
    found = circles(edges, nodes)
    for comp in found:
        print(f'a circle in {what}:')
        for a in comp:
            for b in sorted(edges[a]):
                if b in comp:
                    print(f'  {a} -> {b}: {"; ".join(sorted(edges[a][b]))}')
    print(f'{what}: {len(nodes)} {noun}, {len(found)} circles')
    return len(found)


def floors(rooms):
    """The floors that call above what they may stand on (FLOORS), each call printed."""
    bad = 0
    for room, below in FLOORS.items():
        up = {b: why for b, why in rooms[room].items() if b not in below}
        for b, why in sorted(up.items()):
            print(f'{room}/ is a floor but calls {b}/: {"; ".join(sorted(why))}')
        if not up:
            print(f'{room}/ is a floor: it calls nothing but {"/, ".join(below)}/')
        bad += bool(up)
    return bad


def folders(objects):
    """The folder graph of the objects' edges, each edge printed."""
    edges = collections.defaultdict(lambda: collections.defaultdict(set))
    for a, calls in objects.items():
        for b, why in calls.items():
            fa, fb = a.split('/')[0], b.split('/')[0]
            if fa != fb:
                edges[fa][fb] |= why
    for a in LIB_DIRS:
        if edges[a]:
            print(f'  {a}/ calls ' + ', '.join(
                f'{b}/ ({len(edges[a][b])})' for b in LIB_DIRS if b in edges[a]))
    return edges


def main():
    build = sys.argv[1]
    bad = 0
    for prog in programs():
        objects, files, nodes = graphs(prog, build)
        bad += check(f'{prog.name} objects', objects, prog.srcs)
        if prog.name == 'library':
            rooms = folders(objects)
            bad += check('library folders', rooms, list(LIB_DIRS), 'folders')
            bad += floors(rooms)
        bad += check(f'{prog.name} files with their headers', files, nodes)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
