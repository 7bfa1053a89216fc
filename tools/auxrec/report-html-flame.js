/*
 * auxrec report: the flame chart of the #flame-data JSON block (written by report-flame.c):
 * per thread, its calls over time, a caller above its callees. Times are ns from the
 * recording's start. The data:
 *   minNs, total, dropped, budget   slices shorter than minNs (a pixel of the whole view)
 *                                   and past the budget's longest were left out: dropped of
 *                                   total
 *   threads                         [[pid, tid, comm]]
 *   slices                          [[thread index, start, dur, name, how]] by thread, then
 *                                   start, a caller before its callees; how: 0 its return,
 *                                   1 a return further out, 2 entered before the trace (it
 *                                   starts at the thread's first branch), 3 open at the end
 *                                   (it ends at the thread's last branch)
 * Mouse: the wheel zooms about the pointer, a drag pans, a double click resets; keyboard
 * (the chart focused): + and - zoom, the arrows pan, 0 resets. DOM hooks for tests:
 * .flame-thread[data-tid, data-slices, data-depth], #flame-chart[data-view-start,
 * data-view-end], #flame-tip.
 */
(function () {
	'use strict';

	const ROW = 17;			/* px a call level */
	const MIN_VIEW_NS = 100;
	const HOW = ['returned', 'ended by a return further out',
		'entered before the trace: starts at the thread\'s first branch',
		'still open at the end: ends at the thread\'s last branch'];
	const data = JSON.parse(document.getElementById('flame-data').textContent);
	const section = document.getElementById('flame');
	const chart = document.createElement('div');
	const tip = document.createElement('div');
	const threads = data.threads.map(([pid, tid, comm]) =>
		({ pid, tid, comm, slices: [], depth: 0 }));
	let lo = Infinity, hi = -Infinity;

	/* levels: a slice sits below the innermost slice that holds it */
	const stacks = threads.map(() => []);
	data.slices.forEach(([t, start, dur, name, how]) => {
		const s = { start, end: start + dur, name, how, level: 0 };
		const stack = stacks[t];

		while (stack.length && !(stack[stack.length - 1].start <= s.start &&
					 s.end <= stack[stack.length - 1].end))
			stack.pop();
		s.level = stack.length;
		stack.push(s);
		threads[t].slices.push(s);
		threads[t].depth = Math.max(threads[t].depth, s.level + 1);
		lo = Math.min(lo, s.start);
		hi = Math.max(hi, s.end);
	});
	if (hi <= lo)
		hi = lo + MIN_VIEW_NS;
	let v0 = lo, v1 = hi;

	function fmtNs(ns) {
		const a = Math.abs(ns);
		if (a >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
		if (a >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
		if (a >= 1e3) return (ns / 1e3).toFixed(3) + ' µs';
		return ns.toFixed(0) + ' ns';
	}

	/* a colour per function name, the same on every thread */
	function colour(name, how) {
		let h = 0;
		for (let i = 0; i < name.length; i++)
			h = (h * 31 + name.charCodeAt(i)) >>> 0;
		return 'hsl(' + (h % 360) + ',55%,' + (how >= 2 ? '80%' : '68%') + ')';
	}

	const note = document.createElement('p');
	note.textContent = data.total + ' calls of ' + threads.length + ' thread' +
		(threads.length === 1 ? '' : 's') + ' from the AUX trace' + (data.dropped ?
		'; ' + data.dropped + ' not drawn: shorter than ' + fmtNs(data.minNs) +
		' (a pixel of the whole recording) or past the ' + data.budget + ' longest' : '') +
		'. Wheel or + / - zoom, drag or arrows pan, double click or 0 resets.';
	section.appendChild(note);
	chart.id = 'flame-chart';
	chart.tabIndex = 0;
	chart.style.cssText = 'position:relative;outline:none;user-select:none';
	tip.id = 'flame-tip';
	tip.style.cssText = 'position:fixed;display:none;background:#fff;border:1px solid #888;' +
		'padding:2px 6px;font:12px sans-serif;pointer-events:none;z-index:10;white-space:pre';
	section.appendChild(chart);
	document.body.appendChild(tip);

	const axis = document.createElement('canvas');
	axis.height = 18;
	axis.style.cssText = 'display:block;width:100%;height:18px';
	chart.appendChild(axis);
	threads.forEach(t => {
		const row = document.createElement('div');
		const label = document.createElement('div');

		row.className = 'flame-thread';
		row.dataset.tid = t.tid;
		row.dataset.slices = t.slices.length;
		row.dataset.depth = t.depth;
		label.textContent = t.comm + ' (pid ' + t.pid + ', tid ' + t.tid + ')';
		label.style.cssText = 'font:bold 12px sans-serif;margin:6px 0 2px';
		t.canvas = document.createElement('canvas');
		t.canvas.style.cssText = 'display:block;width:100%;height:' + t.depth * ROW + 'px';
		t.canvas.setAttribute('aria-label', 'calls of ' + t.comm + ' over time');
		row.appendChild(label);
		row.appendChild(t.canvas);
		chart.appendChild(row);
	});

	function fit(canvas, h) {
		const dpr = window.devicePixelRatio || 1;
		const w = canvas.clientWidth;
		canvas.width = Math.max(1, Math.round(w * dpr));
		canvas.height = Math.max(1, Math.round(h * dpr));
		const ctx = canvas.getContext('2d');
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		return [ctx, w];
	}

	function drawAxis() {
		const [ctx, w] = fit(axis, 18);
		const span = v1 - v0;
		let step = Math.pow(10, Math.floor(Math.log10(span / 6)));
		if (span / step > 12) step *= 5;
		else if (span / step > 6) step *= 2;
		ctx.font = '11px sans-serif';
		ctx.fillStyle = '#444';
		ctx.strokeStyle = '#bbb';
		for (let t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
			const x = (t - v0) / span * w;
			ctx.beginPath();
			ctx.moveTo(x + 0.5, 12);
			ctx.lineTo(x + 0.5, 18);
			ctx.stroke();
			ctx.fillText(fmtNs(t), x + 2, 10);
		}
	}

	function draw() {
		chart.dataset.viewStart = Math.round(v0);
		chart.dataset.viewEnd = Math.round(v1);
		drawAxis();
		threads.forEach(t => {
			const [ctx, w] = fit(t.canvas, t.depth * ROW);
			const k = w / (v1 - v0);
			ctx.font = '11px sans-serif';
			ctx.textBaseline = 'middle';
			t.slices.forEach(s => {
				if (s.end < v0 || s.start > v1)
					return;
				const x0 = Math.max(-1, (s.start - v0) * k);
				const x1 = Math.min(w + 1, (s.end - v0) * k);
				const y = s.level * ROW;
				if (x1 - x0 < 0.3)
					return;
				ctx.fillStyle = colour(s.name, s.how);
				ctx.fillRect(x0, y, Math.max(1, x1 - x0 - 0.5), ROW - 1);
				if (s.how >= 2) {	/* an unbalanced end: a dark edge where it is cut */
					ctx.fillStyle = '#333';
					ctx.fillRect(s.how === 2 ? x0 : x1 - 3, y, 3, ROW - 1);
				}
				if (x1 - x0 > 24) {
					ctx.save();
					ctx.beginPath();
					ctx.rect(x0, y, x1 - x0 - 2, ROW);
					ctx.clip();
					ctx.fillStyle = '#000';
					ctx.fillText(s.name, Math.max(x0, 0) + 4, y + ROW / 2);
					ctx.restore();
				}
			});
		});
	}

	function setView(a, b) {
		const min = Math.min(MIN_VIEW_NS, hi - lo);
		if (b - a < min) {
			const c = (a + b) / 2;
			a = c - min / 2;
			b = c + min / 2;
		}
		const span = Math.min(b - a, hi - lo);
		a = Math.max(lo, Math.min(a, hi - span));
		v0 = a;
		v1 = a + span;
		draw();
	}

	function zoom(f, at) {		/* at: 0..1 across the view */
		const t = v0 + (v1 - v0) * at;
		setView(t - (t - v0) * f, t + (v1 - t) * f);
	}

	function slice_at(ev) {
		for (const t of threads) {
			const r = t.canvas.getBoundingClientRect();
			if (ev.clientY < r.top || ev.clientY >= r.bottom)
				continue;
			const level = Math.floor((ev.clientY - r.top) / ROW);
			const time = v0 + (ev.clientX - r.left) / r.width * (v1 - v0);
			const s = t.slices.find(s => s.level === level && s.start <= time && time <= s.end);
			return s ? [t, s] : null;
		}
		return null;
	}

	chart.addEventListener('wheel', ev => {
		const r = chart.getBoundingClientRect();
		ev.preventDefault();
		zoom(ev.deltaY > 0 ? 1.25 : 0.8, (ev.clientX - r.left) / r.width);
	}, { passive: false });
	let drag = null;
	chart.addEventListener('mousedown', ev => { drag = [ev.clientX, v0, v1]; });
	window.addEventListener('mouseup', () => { drag = null; });
	chart.addEventListener('mousemove', ev => {
		if (drag) {
			const d = (ev.clientX - drag[0]) / chart.clientWidth * (drag[2] - drag[1]);
			setView(drag[1] - d, drag[2] - d);
		}
		const hit = slice_at(ev);
		if (!hit) {
			tip.style.display = 'none';
			return;
		}
		const [t, s] = hit;
		tip.textContent = s.name + '\n' + fmtNs(s.end - s.start) + ' from ' + fmtNs(s.start) +
			'\n' + t.comm + ' tid ' + t.tid + ', ' + HOW[s.how];
		tip.style.left = ev.clientX + 12 + 'px';
		tip.style.top = ev.clientY + 12 + 'px';
		tip.style.display = 'block';
	});
	chart.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
	chart.addEventListener('dblclick', () => setView(lo, hi));
	chart.addEventListener('keydown', ev => {
		const pan = (v1 - v0) / 8;
		const keys = {
			'+': () => zoom(0.8, 0.5), '=': () => zoom(0.8, 0.5), '-': () => zoom(1.25, 0.5),
			'ArrowLeft': () => setView(v0 - pan, v1 - pan),
			'ArrowRight': () => setView(v0 + pan, v1 + pan),
			'0': () => setView(lo, hi),
		};
		if (keys[ev.key]) {
			ev.preventDefault();
			keys[ev.key]();
		}
	});
	window.addEventListener('resize', draw);
	draw();
})();
