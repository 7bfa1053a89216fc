#!/bin/bash
# The consumer tells the kernel how far it read through data_tail and aux_tail, and a store
# there without its ordering lets the kernel overwrite bytes we are still reading: a bug no
# functional test on x86 can see (a plain mov is what a release store compiles to there).
# So the sources say it: in the library and in auxrec, data_tail is written only through
# ring__store_tail (store-release) and aux_tail only through ring__store_tail_full (a full
# fence, then the store), every other mention of either is refused, and the two helpers in
# internal/ring.h keep their orderings.
set -u
cd "$(dirname "$0")/../.."
exec python3 - <<'PY'
import pathlib, re, sys

ROOMS = "lib cpumap ring mmap evsel auxtrace data decode tracefs internal include tools/auxrec".split()
HELPER = {"data_tail": "ring__store_tail", "aux_tail": "ring__store_tail_full"}

def code_only(text):
    """Comments and string literals blanked (newlines kept, so line numbers hold)."""
    pat = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)

bad = []
for room in ROOMS:
    for path in sorted(pathlib.Path(room).rglob("*.[ch]")):
        code = code_only(path.read_text())
        for m in re.finditer(r'\b(data_tail|aux_tail)\b', code):
            field = m.group(1)
            line = code.count("\n", 0, m.start()) + 1
            # the statement up to the field: it must be the helper's first argument
            head = code[max(code.rfind(";", 0, m.start()), code.rfind("{", 0, m.start()),
                            code.rfind("}", 0, m.start())) + 1:m.end()]
            tail = code[m.end():m.end() + 40]
            want = r'\b%s\s*\(\s*&[\w\s>.\-\[\]()]*?(->|\.)\s*%s$' % (HELPER[field], field)
            if not (re.search(want, head.strip()) and re.match(r'\s*,', tail)):
                bad.append("%s:%d: %s is written or read here other than through %s(&...->%s, pos)"
                           % (path, line, field, HELPER[field], field))

ring_h = code_only(pathlib.Path("internal/ring.h").read_text())
def body(name):
    m = re.search(r'\b%s\s*\([^)]*\)\s*\{(.*?)\n\}' % name, ring_h, re.S)
    return re.sub(r'\s+', ' ', m.group(1)).strip() if m else None
if body("ring__store_tail") != "__atomic_store_n(tail, pos, __ATOMIC_RELEASE);":
    bad.append("internal/ring.h: ring__store_tail is no longer one store-release: %r"
               % body("ring__store_tail"))
if body("ring__store_tail_full") != ("__atomic_thread_fence(__ATOMIC_SEQ_CST); "
                                     "__atomic_store_n(tail, pos, __ATOMIC_RELEASE);"):
    bad.append("internal/ring.h: ring__store_tail_full is no longer a full fence and a "
               "store-release: %r" % body("ring__store_tail_full"))

for b in bad:
    print(b)
if bad:
    sys.exit(1)
print("data_tail and aux_tail: written only through ring__store_tail and ring__store_tail_full")
PY
