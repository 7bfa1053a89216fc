#!/bin/bash
# Every symbol the version scripts export is declared in its node's headers under a comment of
# its own, in the style include/auxtrace/core.h sets: the comment ends on the line right above
# the declaration, starts with the symbol's name and "()" (a function) or its name (a
# variable), and, unless the function returns void, says what it returns. Names every symbol
# that breaks a rule, then prints how many are documented.
set -u
cd "$(dirname "$0")/../.."
python3 - <<'PY'
import glob, re, sys

# A version node's exports and the headers that declare them: the API nodes in the installed
# headers, libauxtrace's private node (for libauxtrace-tracefs only) in internal/.
nodes = {
    'LIBAUXTRACE_0': 'include/auxtrace/*.h',
    'LIBAUXTRACE_PRIVATE_0': 'internal/*.h',
    'LIBAUXTRACE_TRACEFS_0': 'include/tracefs/*.h',
}


def map_symbols(path):
    """(node, symbol) for every name a version script's global: sections list."""
    text = re.sub(r'/\*.*?\*/', '', open(path).read(), flags=re.S)
    for node, body in re.findall(r'(\w+)\s*\{(.*?)\}', text, flags=re.S):
        section = None
        for line in body.splitlines():
            line = line.strip()
            if line.endswith(':'):
                section = line[:-1]
            elif section == 'global' and line.endswith(';'):
                yield node, line[:-1].strip()


def declarations(pattern):
    """name -> (file, line, is_function, returns_void, comment or None) per exported name."""
    out = {}
    for path in sorted(glob.glob(pattern)):
        lines = open(path).read().split('\n')
        i = 0
        while i < len(lines):
            if not re.match(r'\s*(extern\s+)?AUXTRACE_(API|PRIVATE)\b', lines[i]):
                i += 1
                continue
            # The declaration runs to its ';' (or a body's '{'); the name is the identifier
            # before the first '(' (a function) or before the ';' (a variable).
            start, decl = i, ''
            while i < len(lines):
                decl += lines[i] + '\n'
                i += 1
                if re.search(r'[;{]', lines[i - 1]):
                    break
            head = re.sub(r'^\s*(extern\s+)?AUXTRACE_\w+\s+', '', decl)
            m = re.match(r'([^(;]*?)(\w+)\s*\(', head, flags=re.S)
            if m:
                ret, name, is_func = m.group(1), m.group(2), True
            else:
                m = re.match(r'([^;]*?)(\w+)\s*(\[[^]]*\])?\s*;', head, flags=re.S)
                if not m:
                    continue
                ret, name, is_func = m.group(1), m.group(2), False
            void = re.fullmatch(r'\s*void\s*', ret) is not None
            out[name] = (path, start + 1, is_func, void, comment_above(lines, start))
    return out


def comment_above(lines, decl):
    """The text of the /* */ comment that ends on the line above line decl, or None."""
    end = decl - 1
    if end < 0 or not lines[end].rstrip().endswith('*/'):
        return None
    first = end
    while first >= 0 and '/*' not in lines[first]:
        first -= 1
    if first < 0:
        return None
    body = '\n'.join(lines[first:end + 1])
    body = body[body.index('/*') + 2:body.rindex('*/')]
    return ' '.join(l.strip().lstrip('*').strip() for l in body.split('\n')).strip()


problems, funcs, commented, documented = [], 0, 0, 0
decls = {node: declarations(pattern) for node, pattern in nodes.items()}
for mapfile in ('libauxtrace.map', 'libauxtrace-tracefs.map'):
    for node, sym in map_symbols(mapfile):
        if node not in decls:
            problems.append(f'{mapfile}: version node {node} has no headers in this test')
            continue
        d = decls[node].get(sym)
        if d is None:
            problems.append(f'{sym} ({mapfile} {node}): declared in no {nodes[node]}')
            continue
        path, line, is_func, void, comment = d
        funcs += is_func
        commented += is_func and comment is not None
        where = f'{path}:{line}: {sym}'
        lead = sym + '()' if is_func else sym
        if comment is None:
            problems.append(f'{where}: no comment of its own directly above the declaration')
        elif not re.match(re.escape(lead) + r'(?!\w)', comment):
            problems.append(f'{where}: its comment does not start with "{lead}"')
        elif is_func and not void and not re.search(r'\breturns?\b', comment, flags=re.I):
            problems.append(f'{where}: its comment does not say what it returns')
        else:
            documented += is_func

for p in problems:
    print(p)
print(f'exported functions: {funcs}; with a comment of their own: {commented}; documented '
      f'in the style of include/auxtrace/core.h: {documented}; problems: {len(problems)}')
sys.exit(1 if problems else 0)
PY
