#!/usr/bin/env python3
"""Check auxrec report pages in headless Chromium, driven over the DevTools protocol.

    report-html-check.py --shots DIR PAGE.html TRUTH [PAGE.html TRUTH ...]

Each page is opened from disk (file://) in a fresh tab; TRUTH says what its data was: a .json
from report-html-demo, or the text of `auxrec report` for the same recording (.txt), whose
numbers the page must show: the totals, the loss totals, the lanes (a recorded CPU without
data too, with no bin drawn) with each lane's totals and losses, and a mark for each line of
its "losses over time". The timeline's mode (lanes or heat map) follows the threshold the page
itself carries (heatLanes), which the page's script uses. The checks: the page's script ran,
no console error and no JS exception, no request but the page itself, the lanes, loss marks
and snapshot markers in the DOM where the data puts them (lane, time within a bin, kind,
count, and on screen at that time), the totals, each source's scale (its typical bin drawn
tall enough to see, the scale labelled in B/s), the tooltip of a hovered bin, zoom by
dragging (and, zoomed in, the finer bins the page carries, with a hovered one's numbers) and
reset by double-click. A screenshot of each page goes to DIR/KIND.png. Standard library
only: the browser is spoken to through --remote-debugging-pipe (fd 3 in, fd 4 out,
NUL-terminated JSON).
"""
import argparse
import base64
import fcntl
import json
import math
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CALL_TIMEOUT = 30.0
VIEWPORT = {'width': 1400, 'height': 900, 'deviceScaleFactor': 1, 'mobile': False}


class Browser:
    """One headless Chromium; call() sends a command and returns its result, keeping events."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix='auxrec-chromium-')
        self.log = open(os.path.join(self.profile, 'chromium.log'), 'wb')
        cmd_r, self.cmd_w = os.pipe()
        self.out_r, out_w = os.pipe()

        def fds_3_and_4():
            # Above 10 first, so that neither dup2 overwrites the other's source.
            r = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(out_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
             '--no-first-run', '--disable-background-networking', '--disable-component-update',
             '--disable-sync', '--disable-extensions', '--disable-default-apps', '--mute-audio',
             '--no-default-browser-check', '--remote-debugging-pipe',
             # Should anything try to leave the machine, it goes nowhere.
             '--proxy-server=127.0.0.1:9', '--host-resolver-rules=MAP * ~NOTFOUND',
             '--user-data-dir=' + self.profile, 'about:blank'],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            preexec_fn=fds_3_and_4, close_fds=False, start_new_session=True)
        os.close(cmd_r)
        os.close(out_w)
        self.buf = b''
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b'\0' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.out_r], [], [], left)[0]:
                raise TimeoutError('chromium did not answer within %.0f s' % CALL_TIMEOUT)
            chunk = os.read(self.out_r, 1 << 20)
            if not chunk:
                raise RuntimeError('chromium closed the pipe (exit %s)' % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b'\0')
        deadline = time.monotonic() + CALL_TIMEOUT
        while True:
            reply = self._read_message(deadline)
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError('%s: %s' % (method, reply['error']))
                return reply.get('result', {})
            if 'method' in reply:
                self.events.append(reply)

    def wait_event(self, method, session, timeout=CALL_TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e['method'] == method and e.get('sessionId') == session:
                    return self.events.pop(i)
            msg = self._read_message(deadline)
            if 'method' in msg:
                self.events.append(msg)

    def close(self):
        try:
            self.call('Browser.close')
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        try:	# its helpers (zygote, renderers) too: the group started with it
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.out_r)
        self.log.close()

    def log_tail(self):
        with open(os.path.join(self.profile, 'chromium.log'), 'rb') as f:
            return f.read()[-2000:].decode(errors='replace')


class Page:
    """A tab showing one file, with what it logged and requested."""

    def __init__(self, browser, path):
        self.b = browser
        self.url = 'file://' + os.path.abspath(path)
        self.target = browser.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        self.s = browser.call('Target.attachToTarget',
                              {'targetId': self.target, 'flatten': True})['sessionId']
        for domain in ('Page', 'Runtime', 'Network', 'Log'):
            browser.call(domain + '.enable', session=self.s)
        browser.call('Emulation.setDeviceMetricsOverride', VIEWPORT, self.s)
        browser.call('Page.navigate', {'url': self.url}, self.s)
        browser.wait_event('Page.loadEventFired', self.s)
        deadline = time.monotonic() + 10
        while self.js('document.documentElement.dataset.ready') != '1':
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)

    def js(self, expr):
        r = self.b.call('Runtime.evaluate', {'expression': expr, 'returnByValue': True,
                                             'awaitPromise': True}, self.s)
        if 'exceptionDetails' in r:
            raise RuntimeError('evaluating %s: %s' % (expr[:60], r['exceptionDetails']))
        return r['result'].get('value')

    def mouse(self, kind, x, y, buttons=0, clicks=0):
        p = {'type': kind, 'x': x, 'y': y, 'buttons': buttons}
        if kind != 'mouseMoved':
            p.update(button='left', clickCount=clicks)
        self.b.call('Input.dispatchMouseEvent', p, self.s)

    def problems(self):
        """Console errors, exceptions and requests for anything but the page, so far."""
        out = []
        for e in self.b.events:
            if e.get('sessionId') != self.s:
                continue
            m, p = e['method'], e['params']
            if m == 'Runtime.exceptionThrown':
                out.append('JS exception: %s' % p['exceptionDetails'].get('exception', {})
                           .get('description', p['exceptionDetails'].get('text')))
            elif m == 'Runtime.consoleAPICalled' and p['type'] in ('error', 'assert', 'warning'):
                out.append('console %s: %s' % (p['type'], [a.get('value', a.get('description'))
                                                           for a in p['args']]))
            elif m == 'Log.entryAdded' and p['entry']['level'] == 'error':
                out.append('log error: %s' % p['entry']['text'])
            elif m == 'Network.requestWillBeSent' and p['request']['url'] != self.url:
                out.append('network request: %s' % p['request']['url'])
            elif m == 'Network.webSocketCreated':
                out.append('web socket: %s' % p['url'])
        return out

    def screenshot(self, path):
        shot = self.b.call('Page.captureScreenshot',
                           {'format': 'png', 'captureBeyondViewport': True}, self.s)
        with open(path, 'wb') as f:
            f.write(base64.b64decode(shot['data']))

    def close(self):
        self.b.call('Target.closeTarget', {'targetId': self.target})


class Checker:
    def __init__(self, name):
        self.name, self.failed = name, 0

    def check(self, what, ok, detail=''):
        print('%s: %s: %s%s' % ('ok' if ok else 'FAILED', self.name, what,
                                 '' if ok or not detail else ' (%s)' % detail))
        self.failed += not ok
        return ok


# What the page shows, read through the DOM in one go.
GEOMETRY_JS = r'''(() => {
  const tl = document.getElementById('timeline');
  const ov = document.querySelector('.tl-overlay');
  const box = e => { const r = e.getBoundingClientRect();
                     return {left: r.left, top: r.top, width: r.width, height: r.height}; };
  const attr = '%s';
  return {
    mode: tl.dataset.mode,
    view: [Number(tl.dataset.viewStart), Number(tl.dataset.viewEnd)],
    plot: ov ? box(ov) : null,
    lanes: [...document.querySelectorAll('.lane')].map(e => ({id: e.dataset[attr], box: box(e),
      bytes: Number(e.dataset.bytes), bins: Number(e.dataset.bins)})),
    laneRows: Object.fromEntries([...document.querySelectorAll('#totals-lanes tbody tr')].map(
      r => [r.dataset.lane, [r.dataset.totals, r.cells[r.cells.length - 1].innerHTML
        .split('<br>').filter(x => x).map(x => x.replace(': ', ' ')).join(', ')]])),
    losses: [...document.querySelectorAll('.loss')].map(e => ({
      id: e.dataset[attr], time: Number(e.dataset.time), kind: e.dataset.kind,
      count: Number(e.dataset.count), reports: Number(e.dataset.reports), box: box(e),
      shown: getComputedStyle(e).display !== 'none',
      shape: getComputedStyle(e, '::before').backgroundColor})),
    snapshots: [...document.querySelectorAll('.snapshot')].map(e => ({
      time: Number(e.dataset.time), box: box(e), shown: getComputedStyle(e).display !== 'none'})),
    sources: Object.fromEntries([...document.querySelectorAll('#totals-sources tbody tr')].map(
      r => [r.dataset.source, [Number(r.dataset.bytes), Number(r.dataset.records)]])),
    lossTotals: Object.fromEntries([...document.querySelectorAll('#totals-losses tbody tr')].map(
      r => [r.dataset.kind, [Number(r.dataset.count), Number(r.dataset.reports)]])),
  };
})()'''


BINS_JS = "(({binNs, bin0}) => ({binNs, bin0}))(JSON.parse(document.getElementById('report-data').textContent))"
HEAT_LANES_JS = "JSON.parse(document.getElementById('report-data').textContent).heatLanes"


def x_of(g, t):
    v0, v1 = g['view']
    return g['plot']['left'] + (t - v0) / (v1 - v0) * g['plot']['width']


def check_marks(c, g, truth, bins):
    """Every loss of the truth under one mark of its lane and kind, in the bin of its time."""
    def bin_of(t):
        return (t - bins['bin0']) // bins['binNs']
    marks = g['losses']
    covered = {}
    for lane, t, kind, count in truth['losses']:
        hits = [i for i, m in enumerate(marks)
                if m['id'] == str(lane) and m['kind'] == kind and bin_of(m['time']) == bin_of(t)]
        if not c.check('loss %s at %d ns on lane %s has its mark' % (kind, t, lane),
                       len(hits) == 1, '%d marks match' % len(hits)):
            continue
        covered.setdefault(hits[0], []).append(count)
    c.check('no mark without a loss (%d marks)' % len(marks), len(covered) == len(marks))
    for i, counts in covered.items():
        m = marks[i]
        c.check('mark %s at %d ns counts %d in %d reports' % (m['kind'], m['time'], m['count'],
                                                             m['reports']),
                m['count'] == sum(counts) and m['reports'] == len(counts),
                'the losses under it: %s' % counts)
    lanes = {l['id']: l['box'] for l in g['lanes']}
    left, right = g['plot']['left'], g['plot']['left'] + g['plot']['width']
    for m in marks:
        x = x_of(g, m['time'])
        if x < left - 7 or x > right + 7:	# a mark at the edge may show in part
            c.check('mark at %d ns outside the view is hidden' % m['time'], not m['shown'])
            continue
        if not m['shown'] and not left <= x <= right:
            continue
        lane = lanes.get(m['id'])
        c.check('mark %s at %d ns is shown where its time is (x %.1f, expected %.1f)'
                % (m['kind'], m['time'], m['box']['left'], x),
                m['shown'] and abs(m['box']['left'] - x) < 1.5)
        c.check('mark %s at %d ns sits on its lane' % (m['kind'], m['time']),
                lane is not None and lane['top'] - 1 <= m['box']['top'] <= lane['top'] +
                max(lane['height'], 1) + 1, 'mark %s, lane %s' % (m['box'], lane))
        c.check('mark %s is drawn in the loss colour (%s)' % (m['kind'], m['shape']),
                m['shape'] == 'rgb(213, 94, 0)')


SOURCE_KEYS = {'perf samples': 'samples', 'side-band': 'sideband', 'AUX trace': 'aux',
               'ftrace events': 'ftrace'}
LOSS_KEYS = {'PERF_RECORD_LOST': 'lost', 'AUX truncated': 'aux-truncated',
             'AUX partial': 'aux-partial', 'AUX collision': 'aux-collision',
             'ftrace missed events': 'ftrace-missed', 'PERF_RECORD_LOST_SAMPLES': 'lost-samples'}


def ns(secs):
    """'12.000345678' (9 decimals, as auxrec report prints) to integer ns."""
    neg = secs.startswith('-')
    whole, frac = secs.lstrip('-').split('.')
    v = int(whole) * 1000000000 + int(frac.ljust(9, '0')[:9])
    return -v if neg else v


def truth_from_report(path):
    """The truth a page must show, from the text `auxrec report` printed for its recording."""
    text = open(path, encoding='utf-8').read()
    lane_kind = 'thread' if re.search(r'^per thread ', text, re.M) else 'cpu'
    truth = {'kind': os.path.splitext(os.path.basename(path))[0],
             'laneAttr': 'tid' if lane_kind == 'thread' else 'cpu',
             'totals': {}, 'lossTotals': {}, 'losses': [], 'snapshots': [], 'probe': None}
    for name, key in SOURCE_KEYS.items():
        m = re.search(r'^%s +(\d+) +(\d+) ' % re.escape(name), text, re.M)
        truth['totals'][key] = [int(m.group(1)), int(m.group(2))]
    for name, key in LOSS_KEYS.items():
        m = re.search(r'^%s +(\d+) +(\d+) ' % re.escape(name), text, re.M)
        truth['lossTotals'][key] = [int(m.group(2)), int(m.group(1))]
    # the per-lane table: "  CPU 0  48000/1000  ...  31540/1085; AUX truncated 1, ..."
    truth['laneTotals'] = {}
    for m in re.finditer(r'^  (no (?:CPU|thread)|(?:CPU|thread) -?\d+) +(\d+/\d+(?: +\d+/\d+)*)'
                         r'(?:; (.*))?$', text, re.M):
        lane = '-1' if m.group(1).startswith('no ') else m.group(1).split()[1]
        truth['laneTotals'][lane] = [' '.join(m.group(2).split()), m.group(3) or '']
    truth['lanes'] = sorted(int(l) for l in truth['laneTotals'])
    # a lane without a record has no bin; the text does not say which others have timed ones
    truth['emptyLanes'] = [int(l) for l, (t, _) in truth['laneTotals'].items()
                           if all(c == '0/0' for c in t.split())]
    truth['busyLanes'] = []
    section = text.split('\nlosses over time', 1)
    if len(section) == 2:
        for line in section[1].split('\n\n')[0].splitlines()[1:]:
            m = re.match(r'^  (-?\d+\.\d+)  (?:CPU|thread) (-?\d+)  (.+?)  (\d+) ', line)
            truth['losses'].append([int(m.group(2)), ns(m.group(1)), LOSS_KEYS[m.group(3)],
                                    int(m.group(4))])
    section = text.split('\nsnapshots (s from the start)', 1)
    if len(section) == 2:
        truth['snapshots'] = [ns(l.strip()) for l in section[1].split('\n\n')[0].splitlines()
                              if l.strip()]
    truth['mode'] = 'empty' if not truth['lanes'] else None	# None: by the page's heatLanes
    return truth


def check_page(b, page_path, truth_path, shots):
    truth = (truth_from_report(truth_path) if truth_path.endswith('.txt')
             else json.load(open(truth_path)))
    c = Checker(truth['kind'])
    html = open(page_path, encoding='utf-8').read()
    for pat in (r'\b(src|href)\s*=', r'url\(', r'@import', r'<(link|img|iframe|object|embed)\b',
                r'https?:', r'//[a-z0-9.-]+\.[a-z]{2,}/'):
        m = re.search(pat, html, re.I)
        c.check('the page names no outside resource (/%s/)' % pat, m is None,
                m and html[max(0, m.start() - 40):m.end() + 40])

    p = Page(b, page_path)
    try:
        c.check('the page script ran to the end', p.js('document.documentElement.dataset.ready')
                == '1')
        g = p.js(GEOMETRY_JS % truth['laneAttr'])
        if truth['mode'] is None:
            heat_lanes = p.js(HEAT_LANES_JS)
            truth['mode'] = 'heatmap' if len(truth['lanes']) > heat_lanes else 'lanes'
        c.check('timeline mode is %s' % truth['mode'], g['mode'] == truth['mode'], g['mode'])
        c.check('lanes %s in order' % (truth['lanes'] if len(truth['lanes']) < 9 else
                                       '(%d lanes)' % len(truth['lanes'])),
                [l['id'] for l in g['lanes']] == [str(i) for i in truth['lanes']],
                [l['id'] for l in g['lanes']][:20])
        c.check('every lane has a place on screen',
                all(l['box']['height'] > 0 and l['box']['width'] > 0 for l in g['lanes']))
        check_lanes(c, g, truth)
        for key, want in truth['totals'].items():
            c.check('totals: %s %s bytes, %s records' % (key, want[0], want[1]),
                    g['sources'].get(key) == want, g['sources'].get(key))
        for key, want in truth['lossTotals'].items():
            c.check('loss totals: %s %s lost in %s reports' % (key, want[0], want[1]),
                    g['lossTotals'].get(key) == want, g['lossTotals'].get(key))
        if truth['mode'] == 'empty':
            c.check('the empty page says so', 'nothing to draw' in p.js(
                "document.getElementById('timeline').textContent"))
        else:
            check_marks(c, g, truth, p.js(BINS_JS))
            c.check('snapshots at %s' % truth['snapshots'],
                    [s['time'] for s in g['snapshots']] == truth['snapshots'])
            for s in g['snapshots']:
                c.check('snapshot at %d ns is drawn at its time' % s['time'],
                        s['shown'] and abs(s['box']['left'] - x_of(g, s['time'])) < 1.5)
        if truth['probe']:
            check_hover(c, p, g, truth, truth['probe'])
        if truth['mode'] == 'lanes':
            check_scales(c, p, truth)
            check_stacked(c, p, truth)
        if truth['mode'] != 'empty':
            check_zoom(c, p, truth)
        if truth.get('zoomProbe'):
            check_zoom_in(c, p, truth)
        if truth['probe']:	# the picture shows a tooltip too
            hover_probe(p, g, truth['probe'])
        # last: a capture beyond the viewport may leave the page laid out anew
        p.screenshot(os.path.join(shots, '%s.png' % truth['kind']))
        for problem in p.problems():
            c.check('no console error, exception or request', False, problem)
        c.check('no console error, JS exception or network request', not p.problems())
    finally:
        p.close()
    return c.failed


def check_lanes(c, g, truth):
    """Each lane's numbers as the text report (or the data) has them, silent lanes empty."""
    want = truth['laneTotals']
    c.check('the per-lane table has the lanes %s' % (sorted(want) if len(want) < 9 else
                                                     '(%d lanes)' % len(want)),
            sorted(g['laneRows']) == sorted(want), sorted(g['laneRows'])[:20])
    # the page groups digits ("1,234"), the text does not
    rows = {l: [t, re.sub(r'(?<=\d),(?=\d{3})', '', lost)]
            for l, (t, lost) in g['laneRows'].items()}
    bad = [(l, rows.get(l), w) for l, w in want.items() if rows.get(l) != w]
    c.check('the per-lane table: every lane\'s bytes/records and losses', not bad, bad[:3])
    drawn = {l['id']: l for l in g['lanes']}
    bad = [(l, drawn.get(l, {}).get('bytes'), w) for l, (w, _) in want.items()
           if drawn.get(l, {}).get('bytes') != sum(int(x.split('/')[0]) for x in w.split())]
    c.check('each lane of the timeline says its bytes in all', not bad, bad[:3])
    for which, empty in (('emptyLanes', True), ('busyLanes', False)):
        bad = [l for l in truth[which] if str(l) not in drawn or
               (drawn[str(l)]['bins'] == 0) != empty]
        c.check('%d lanes drawn with %s (%s)' % (len(truth[which]), 'no bin' if empty else
                                                 'bins', truth[which][:8]), not bad, bad[:8])


def page_data(p):
    return p.js("JSON.parse(document.getElementById('report-data').textContent)")


def page_bins(data, cell, w):
    """A lane's bins of one source, decoded from the page as its script does: {bin: bytes} of
    the full view's bins (w ns from bin0)."""
    size, text = cell
    out, i = {}, 0
    num = lambda s: int(s, 36) if s else 0
    for tok in text.split(',') if text else []:
        if tok.startswith('~'):
            i += num(tok[1:])
            continue
        if tok:
            nbytes = num(tok.split(':')[0]) if size < 0 else num(tok) * size
            k = i * w // data['binNs']
            out[k] = out.get(k, 0) + nbytes
        i += 1
    return out


def check_scales(c, p, truth):
    """Each source reads on its own: its typical bin (the 90th percentile of those with data,
    over every lane) is drawn at an eighth of its strip or more, not flattened by a burst or by
    a source a thousand times busier; each lane says its scales with their units."""
    data = page_data(p)
    tops = json.loads(p.js("document.getElementById('timeline').dataset.scale"))
    labels = p.js("[...document.querySelectorAll('.lane canvas')].map(e => e.ariaLabel)")
    for s, src in enumerate(data['sources']):
        bins = sorted(v for l in data['lanes'] if l['bins'][s]
                      for v in page_bins(data, l['bins'][s], data['srcNs'][s]).values() if v)
        if not bins:
            continue
        typical = bins[int(0.9 * (len(bins) - 1))] * 1e9 / data['binNs']
        c.check('%s: its typical bin (%.3g B/s) is an eighth of its scale (%.3g B/s) or more'
                % (src['key'], typical, tops[s]), typical >= tops[s] / 8)
        c.check('%s: every lane labels its scale in B/s' % src['key'],
                all(re.search(re.escape(src['name']) + r' · 0 – [0-9.]+ [kMGTP]?B/s', lab)
                    for lab in labels), labels[:2])


def check_stacked(c, p, truth):
    """'stacked' draws every source in one histogram per lane: bins of one width, one scale
    for every lane, labelled with its unit; the strips come back with their own scales."""
    p.js("document.querySelector('[data-layout=stacked]').click()")
    layout = p.js("document.getElementById('timeline').dataset.layout")
    widths = set(p.js("document.getElementById('timeline').dataset.binNs").split(','))
    tops = json.loads(p.js("document.getElementById('timeline').dataset.scale"))
    labels = p.js("[...document.querySelectorAll('.lane canvas')].map(e => e.ariaLabel)")
    c.check('stacked: the lanes are drawn stacked (%s), in bins of one width (%s)'
            % (layout, sorted(widths)), layout == 'stacked' and len(widths) == 1)
    c.check('stacked: one scale for every lane (%s), labelled in B/s' % tops,
            len(tops) == 1 and tops[0] > 0 and
            all(re.search(r'all sources, stacked · 0 – [0-9.]+ [kMGTP]?B/s', lab) for lab in labels),
            labels[:2])
    p.js("document.querySelector('[data-layout=strips]').click()")
    c.check('a strip per source again',
            p.js("document.getElementById('timeline').dataset.layout") == 'strips' and
            len(json.loads(p.js("document.getElementById('timeline').dataset.scale"))) ==
            len(page_data(p)['sources']))


def hover_probe(p, g, probe):
    """Point at the probed bin; False when it is narrower than a pixel."""
    lane = next(l for l in g['lanes'] if l['id'] == str(probe['lane']))
    # the pointer is at whole pixels: the first one inside the bin
    x = math.floor(x_of(g, probe['t0'])) + 1
    p.mouse('mouseMoved', x, lane['box']['top'] + lane['box']['height'] / 2)
    return x < x_of(g, probe['t0'] + probe['binNs'])


def check_hover(c, p, g, truth, probe):
    """The tooltip of the probed bin: its lane, its span, each source's bytes and records."""
    c.check('the probed bin is a pixel wide or more', hover_probe(p, g, probe))
    tip = p.js(r'''(() => { const t = document.getElementById('tooltip');
        return {hidden: t.hidden, data: {...t.dataset}, text: t.textContent,
                rows: [...t.querySelectorAll('tr[data-source]')].map(r =>
                  [r.dataset.source, ...[...r.cells].slice(2).map(c => c.textContent)])}; })()''')
    c.check('hovering lane %s at %d ns shows the tooltip' % (probe['lane'], probe['t0']),
            not tip['hidden'])
    c.check('the tooltip is about that lane and its %d ns bin' % probe['binNs'],
            tip['data'].get(truth['laneAttr']) == str(probe['lane']) and
            tip['data'].get('binStart') == str(probe['t0']) and
            tip['data'].get('binNs') == str(probe['binNs']), tip['data'])
    rows = {r[0]: r[1:] for r in tip['rows']}
    c.check('the tooltip lists the sources of that bin %s' % sorted(probe['sources']),
            sorted(rows) == sorted(probe['sources']), sorted(rows))
    for key, (nbytes, nrec) in probe['sources'].items():
        got = rows.get(key, ['', ''])
        c.check('tooltip: %s %s B, %s records' % (key, nbytes, nrec),
                got[0] == '{:,} B'.format(nbytes) and got[1].startswith('{:,} '.format(nrec)),
                got)


def drag(p, xa, xb, y):
    p.mouse('mousePressed', xa, y, buttons=1, clicks=1)
    p.mouse('mouseMoved', (xa + xb) / 2, y, buttons=1)
    p.mouse('mouseMoved', xb, y, buttons=1)
    p.mouse('mouseReleased', xb, y, clicks=1)


def reset_by_double_click(c, p, truth, g):
    x, y = g['plot']['left'] + g['plot']['width'] / 2, g['lanes'][0]['box']['top'] + 2
    p.mouse('mousePressed', x, y, buttons=1, clicks=1)
    p.mouse('mouseReleased', x, y, clicks=1)
    p.mouse('mousePressed', x, y, buttons=1, clicks=2)
    p.mouse('mouseReleased', x, y, clicks=2)
    r = p.js(GEOMETRY_JS % truth['laneAttr'])
    c.check('double-click resets the view (%s)' % r['view'], r['view'] == g['view'])


def check_zoom(c, p, truth):
    g = p.js(GEOMETRY_JS % truth['laneAttr'])
    v0, v1 = g['view']
    left, width = g['plot']['left'], g['plot']['width']
    drag(p, left + width * 0.25, left + width * 0.5, g['lanes'][0]['box']['top'] + 2)
    z = p.js(GEOMETRY_JS % truth['laneAttr'])
    want = (v0 + (v1 - v0) * 0.25, v0 + (v1 - v0) * 0.5)
    per_px = (v1 - v0) / width
    c.check('dragging over the second quarter zooms to it (%s, wanted %.0f..%.0f)'
            % (z['view'], want[0], want[1]),
            abs(z['view'][0] - want[0]) <= 2 * per_px and abs(z['view'][1] - want[1]) <= 2 * per_px)
    check_marks(c, z, truth, p.js(BINS_JS))
    reset_by_double_click(c, p, truth, g)


def check_zoom_in(c, p, truth):
    """Zoomed in to about 100 of the finest bins, the page draws them: the probe's bin's numbers."""
    probe = truth['zoomProbe']
    g = p.js(GEOMETRY_JS % truth['laneAttr'])
    t0, w = probe['t0'], probe['binNs']
    drag(p, x_of(g, t0 - 40 * w), x_of(g, t0 + 60 * w), g['lanes'][0]['box']['top'] + 2)
    z = p.js(GEOMETRY_JS % truth['laneAttr'])
    keys = p.js("JSON.parse(document.getElementById('report-data').textContent)"
                ".sources.map(s => s.key)")
    drawn = dict(zip(keys, p.js("document.getElementById('timeline').dataset.binNs").split(',')))
    c.check('zoomed in to %s, the sources %s are drawn in %d ns bins (%s)'
            % (z['view'], sorted(probe['sources']), w, drawn),
            all(drawn[k] == str(w) for k in probe['sources']))
    check_hover(c, p, z, truth, probe)
    check_marks(c, z, truth, p.js(BINS_JS))
    reset_by_double_click(c, p, truth, g)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--chromium', default=os.environ.get('CHROMIUM') or 'chromium')
    ap.add_argument('--shots', required=True, help='directory for the screenshots')
    ap.add_argument('pairs', nargs='+', help='PAGE.html TRUTH.json ...')
    args = ap.parse_args()
    if len(args.pairs) % 2:
        ap.error('pages and truths come in pairs')
    # timeout(1) stops us with SIGTERM: leave through finally, which ends the browser
    signal.signal(signal.SIGTERM, lambda *_: sys.exit('FAILED: stopped by SIGTERM'))
    b = Browser(args.chromium)
    failed = 0
    try:
        b.call('Target.setDiscoverTargets', {'discover': False})
        for i in range(0, len(args.pairs), 2):
            failed += check_page(b, args.pairs[i], args.pairs[i + 1], args.shots)
    except Exception as e:  # the browser's own trouble: say what it printed
        print('FAILED: %s: %s\n--- chromium log:\n%s' % (type(e).__name__, e, b.log_tail()))
        failed += 1
    finally:
        b.close()
        shutil.rmtree(b.profile, ignore_errors=True)
    print('%s: %d failed' % ('FAILED' if failed else 'ok', failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
