#!/usr/bin/env python3
"""Check the report page's task lanes in headless Chromium against the tools' own views.

    report-tasks-check.py --chromium BIN --shots DIR PAGE.html TRACE_CMD.txt REPORT.txt MS
    report-tasks-check.py --chromium BIN --paint PAGE.html    (make bench: the time alone)

PAGE.html is `auxrec report --html` of a recording of tests/progs/sched-phases MS (phase-a
on CPU 0; a sleep; phase-b on CPU 0 and phase-c on CPU 1 at once) with trace.dat's
sched_switch; TRACE_CMD.txt is `trace-cmd report -N -t` of its trace.dat, REPORT.txt the text
report. Checked through the page's data and DOM: no console error or request; the page's
exact runs show phase-a, then the sleep, then phase-b and phase-c, on those CPUs; every run
starts and ends at a sched_switch of trace-cmd's, naming the task that switch named; the
per-task times on CPU are the text report's, to the ns; zoomed to one sched_switch, hovering
it shows trace-cmd's fields; the keys zoom, pan and reset; the per-thread view has a row per
phase; first paint under a second. Screenshots of both views go to DIR.
"""
import argparse
import importlib.util
import os
import re
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('rhc', os.path.join(here, 'report-html-check.py'))
rhc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rhc)

SWITCH = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+): sched_switch:\s+(prev_comm=.* prev_pid=(\d+) .*'
                    r'==> next_comm=(.*) next_pid=(\d+) .*)$')
TASK_ROW = re.compile(r'^  (\S.{0,15}?)\s+(-|\d+)\s+(\d+)\s+(\d+)\.(\d{9})\s')


def switches_of(path):
    """trace-cmd's sched_switch lines: (cpu, ns, prev_pid, next_comm, next_pid, fields)."""
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            m = SWITCH.search(line.rstrip('\n'))
            if m:
                out.append((int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, '0')),
                            int(m.group(5)), m.group(6), int(m.group(7)), m.group(4)))
    return out


def oncpu_of(path):
    """The text report's task table: tid -> ns on CPU."""
    out, inside = {}, False
    with open(path) as f:
        for line in f:
            if line.startswith('tasks: time on CPU'):
                inside = True
            elif inside and not line.strip():
                break
            elif inside:
                m = TASK_ROW.match(line)
                if m:
                    out[int(m.group(3))] = int(m.group(4)) * 10**9 + int(m.group(5))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--chromium', required=True)
    ap.add_argument('--shots')
    ap.add_argument('--paint', action='store_true')
    ap.add_argument('page')
    ap.add_argument('trace_cmd', nargs='?')
    ap.add_argument('report', nargs='?')
    ap.add_argument('ms', type=int, nargs='?')
    a = ap.parse_args()
    c = rhc.Checker('tasks')
    b = rhc.Browser(a.chromium)
    if a.paint:
        try:
            p = rhc.Page(b, a.page)
            print('page %.2f MB: lanes drawn %.0f ms after navigation, %s' % (
                os.path.getsize(a.page) / 1e6, p.js("performance.getEntriesByName('tasks-drawn')"
                                                    "[0].startTime"),
                'no console error' if not p.problems() else p.problems()))
        finally:
            b.close()
        return 0
    try:
        check_page(c, b, a)
    except (RuntimeError, TimeoutError, OSError) as e:
        c.check('the page could be driven', False, '%s\n%s' % (e, b.log_tail()))
    finally:
        b.close()
    return 1 if c.failed else 0


def check_page(c, b, a):
    p = rhc.Page(b, a.page)
    c.check('no console error, exception or request', not p.problems(), p.problems())
    paint = p.js("(performance.getEntriesByName('tasks-drawn')[0] || {}).startTime")
    print('lanes drawn %s ms after navigation, page %d bytes' % (paint, os.path.getsize(a.page)))
    c.check('the lanes are drawn within 1 s of opening the page (%s ms)' % paint,
            paint is not None and paint < 1000)
    d = p.js('auxrecTasks.data')
    tasks = d['tasks']
    last = len(d['levels']) - 1
    c.check('the page holds every run (its finest level is exact)', d['levels'][last]['q'] == 0)
    lvl = p.js('auxrecTasks.level(%d)' % last)
    origin = d['origin']
    comm = {t[1]: i for i, t in enumerate(tasks)}
    phases = {}
    for cpu, pieces in enumerate(lvl['pieces']):
        for pc in pieces:
            name = tasks[pc['task']][1]
            if name in ('phase-a', 'phase-b', 'phase-c'):
                phases.setdefault(name, []).append((cpu, pc['s'], pc['e']))
    c.check('the lanes show the three phases', sorted(phases) == ['phase-a', 'phase-b', 'phase-c'],
            sorted(phases))
    if sorted(phases) != ['phase-a', 'phase-b', 'phase-c']:
        return
    # before pinning itself a child may run a moment where it was forked
    cpus = {n: max((0, 1), key=lambda k: sum(e - s for cpu, s, e in v if cpu == k))
            for n, v in phases.items()}
    c.check('phase-a ran on CPU 0, phase-b on CPU 0, phase-c on CPU 1',
            cpus == {'phase-a': 0, 'phase-b': 0, 'phase-c': 1}, cpus)
    span = {n: (min(s for _, s, _ in v), max(e for _, _, e in v)) for n, v in phases.items()}
    ms = a.ms * 10**6
    c.check('phase-a first, then phase-b and phase-c', span['phase-a'][1] < span['phase-b'][0] and
            span['phase-a'][1] < span['phase-c'][0], span)
    c.check('phase-b and phase-c at the same time',
            span['phase-b'][0] < span['phase-c'][1] and span['phase-c'][0] < span['phase-b'][1], span)
    for n, (s, e) in span.items():
        ran = sum(pe - ps for _, ps, pe in phases[n])
        c.check('%s ran its %d ms of CPU time (%.1f ms)' % (n, a.ms, ran / 1e6),
                0.95 * ms <= ran <= 1.5 * ms)
    # the sleep: nothing of the workload's phases on any CPU for about MS ms
    gap = (span['phase-a'][1], min(span['phase-b'][0], span['phase-c'][0]))
    c.check('the sleep: %.1f ms between the phases with none of them running'
            % ((gap[1] - gap[0]) / 1e6), gap[1] - gap[0] >= 0.9 * ms)

    # the runs are trace-cmd's switches: on each CPU, from a switch to the next one, the task
    # the next one switches out (the idle task's runs are not drawn)
    sw = switches_of(a.trace_cmd)
    c.check('trace-cmd report lists sched_switch events (%d)' % len(sw), len(sw) > 10)
    want, prev = set(), {}
    for cpu, t, prev_pid, _, _, _ in sw:
        if cpu in prev and prev_pid and t > prev[cpu]:
            want.add((cpu, prev[cpu] - origin, t - origin, prev_pid))
        prev[cpu] = t
    got = {(cpu, pc['s'], pc['e'], tasks[pc['task']][0])
           for cpu, pieces in enumerate(lvl['pieces']) for pc in pieces}
    c.check('the page\'s %d runs are the %d that trace-cmd\'s sched_switch lines give'
            % (len(got), len(want)), got == want,
            'page only: %s; trace-cmd only: %s' % (sorted(got - want)[:3], sorted(want - got)[:3]))

    text = oncpu_of(a.report)
    page = {t[0]: t[2] for t in tasks if t[2]}
    table = p.js("Object.fromEntries([...document.querySelectorAll('#tasks-totals tr[data-tid]')]"
                 ".map(r => [r.dataset.tid, +r.dataset.oncpuNs]))")
    c.check('per-task time on CPU equals the text report\'s, to the ns (%d tasks)' % len(text),
            text and all(page.get(tid, 0) == ns for tid, ns in text.items()),
            [(tid, ns, page.get(tid)) for tid, ns in text.items() if page.get(tid, 0) != ns][:5])
    c.check('the table of tasks says the same',
            all(table.get(str(tid)) == ns for tid, ns in text.items()))
    c.check('the table of tasks is folded', p.js("!document.querySelector('#tasks-section details').open"))

    check_zoom(c, p, d, lvl, sw, comm)
    p.js('auxrecTasks.setView(0, auxrecTasks.data.duration)')
    p.mouse('mouseMoved', 1, 1)
    # the phases picked out, as a person would by clicking them in the table
    tids = [t[0] for t in tasks if t[1] in ('phase-a', 'phase-b', 'phase-c')]
    for tid in tids:
        p.js("document.querySelector('#tasks-totals tr[data-tid=\"%d\"]').click()" % tid)
    picked = p.js("[...document.querySelectorAll('#tasks-totals tr.picked')].map(r => +r.dataset.tid)")
    c.check('a click on a task in the table picks it out', sorted(picked) == sorted(tids), picked)
    shot(p, os.path.join(a.shots, 'tasks-cpu.png'))
    p.js("auxrecTasks.setMode('thread')")
    labels = p.js("document.getElementById('tasks').dataset.mode")
    rows = p.js("[...new Set(auxrecTasks.level(%d).pieces.flat().map(p => p.task))].length" % last)
    c.check('the per-thread view is drawn (%d tasks ran)' % rows, labels == 'thread' and rows >= 3)
    shot(p, os.path.join(a.shots, 'tasks-thread.png'))
    c.check('no console error after zooming and hovering', not p.problems(), p.problems())
    p.close()


def shot(p, path):
    """The tasks section alone, as a person sees it."""
    r = p.js("(() => { const r = document.getElementById('tasks-section').getBoundingClientRect();"
             " return [r.x, r.y + scrollY, r.width, r.height]; })()")
    img = p.b.call('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True,
                                              'clip': {'x': r[0] - 8, 'y': r[1], 'width': r[2] + 24,
                                                       'height': r[3] + 8, 'scale': 1}}, p.s)
    with open(path, 'wb') as f:
        f.write(rhc.base64.b64decode(img['data']))


def check_zoom(c, p, d, lvl, sw, comm):
    """Keys zoom and pan; zoomed in on one switch to phase-a, its mark's tooltip has its fields."""
    p.js("document.getElementById('tasks').focus()")
    view = lambda: p.js('auxrecTasks.view')
    key = lambda k: p.b.call('Input.dispatchKeyEvent', {'type': 'keyDown', 'key': k}, p.s) and None
    whole = view()
    key('+')
    v1 = view()
    c.check('+ zooms in twice', abs((v1[1] - v1[0]) * 2 - (whole[1] - whole[0])) < 2, (whole, v1))
    key('ArrowRight')
    v2 = view()
    c.check('→ pans right', v2[0] > v1[0] and abs((v2[1] - v2[0]) - (v1[1] - v1[0])) < 2, (v1, v2))
    key('-')
    key('0')
    c.check('0 shows the whole recording again', view() == whole, view())

    marks = lvl['marks'][0]
    # phase-a, pinned to CPU 0, is switched in once and out at its end; on a quiet machine
    # nothing preempts it in between, and its first switch-in may be under its parent's comm
    target = next((m for m in marks if m['fields'] and 'comm=phase-a ' in m['fields']), None)
    c.check('a sched_switch of phase-a on CPU 0 is marked, with its fields', target is not None)
    if not target:
        return
    t = target['t']
    p.js('auxrecTasks.setView(%d, %d)' % (t - 5000, t + 5000))
    q = int(p.js("document.getElementById('tasks').dataset.q"))
    c.check('zoomed to 10 µs, the page draws exact runs and events', q == 0, q)
    box = p.js("(() => { const r = document.querySelector('#tasks canvas').getBoundingClientRect();"
               " return [r.x, r.y, r.width]; })()")
    x = box[0] + 120 + (t - p.js('auxrecTasks.view')[0]) / 10000 * (box[2] - 120)
    y = box[1] + 22 + 2
    p.mouse('mouseMoved', x, y)
    time.sleep(0.1)
    tip = p.js("document.getElementById('tasks-tip').hidden ? '' : "
               "document.getElementById('tasks-tip').textContent")
    fields = next((f for cpu, ts, _, _, _, f in sw if cpu == 0 and ts - d['origin'] == t), None)
    c.check('hovering that event shows trace-cmd\'s fields for it', fields and fields in tip,
            'tooltip %r, trace-cmd %r' % (tip, fields))
    c.check('... and its name', 'sched:sched_switch' in tip, tip)


if __name__ == '__main__':
    sys.exit(main())
