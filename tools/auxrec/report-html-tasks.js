/*
 * auxrec report: "Tasks over time", drawn from the #tasks-data JSON block (written by
 * report-html-tasks.c). Times are ns from the recording's start. The data:
 *   origin               the trace clock (ns) every time here counts from
 *   duration, source     the recording's length; where the switches came from
 *   cpus                 lanes 0 .. cpus - 1
 *   tasks                [[tid, comm, ns on CPU, hue]] by index; index 0 is the idle task
 *   names                [[event name, 1: a sample (a tick) / 0: an event (a marker)]]
 *   levels               coarse to fine: {q: the slot width runs were merged below (0: exact),
 *                        pieces: [per CPU "start,length,task,busy" ...], marks: [per CPU
 *                        "time,name,task+1,count" ...]; the exact level also words: [word],
 *                        fields: [per CPU "w.w.w,w.w,..."]: a mark's fields as its words'
 *                        numbers + 1, joined by spaces; "" none}
 *                        numbers in base 36, "" for 0 (busy: thousandths, "" all of it;
 *                        count "" for 1); starts and times from the previous one's end / time.
 * Per CPU, a lane shows which task ran when (its colour, its name where it fits; a merged
 * piece as busy as its non-idle share); samples are ticks at the lane's foot, events marks at
 * its head, losses red. Per thread, a row per task shows when it ran, on which CPU on hover.
 * The view is picked from the finest level the page has that is not finer than half a pixel.
 * Keys: + and - zoom, arrows pan, 0 the whole recording; wheel zooms, drag pans. A click on
 * a task in the legend or the table picks it out: the tasks not picked turn grey.
 * Hooks for tests: window.auxrecTasks {data, level(i) (decoded on use), view, setView,
 * setMode, highlight(tids)}, the performance mark 'tasks-drawn',
 * #tasks[data-view-start, data-view-end, data-q, data-mode], #tasks-tip.
 */
(function () {
	'use strict';

	const block = document.getElementById('tasks-data');
	const box = document.getElementById('tasks');
	if (!block || !box)
		return;
	const data = JSON.parse(block.textContent);
	const rates = document.getElementById('report-data');
	const losses = rates ? JSON.parse(rates.textContent) : null;
	const tip = document.getElementById('tasks-tip');
	const note = document.getElementById('tasks-note');
	const LABEL_W = 120, AXIS_H = 22, ROW_H = 30, ROW_GAP = 4, THREAD_ROWS = 16;
	const MIN_VIEW_NS = 200;
	const num = s => s ? parseInt(s, 36) : 0;
	const end = Math.max(data.duration, 1);
	let view = [0, end];
	let mode = 'cpu';
	const decoded = [];

	/* Level i's pieces and marks as arrays per CPU (decoded on first use). */
	function level(i) {
		if (decoded[i])
			return decoded[i];
		const L = data.levels[i];
		const pieces = L.pieces.map(text => {
			const out = [];
			const tok = text ? text.split(',') : [];
			let at = 0;
			for (let k = 0; k + 3 < tok.length; k += 4) {
				const s = at + num(tok[k]), len = num(tok[k + 1]);
				out.push({ s, e: s + len, task: num(tok[k + 2]),
					   busy: tok[k + 3] === '' ? 1 : num(tok[k + 3]) / 1000 });
				at = s + len;
			}
			return out;
		});
		const fieldsOf = cpu => (L.fields[cpu] ? L.fields[cpu].split(',') : []).map(f =>
			f ? f.split('.').map(w => L.words[num(w) - 1]).join(' ') : null);
		const marks = L.marks.map((text, cpu) => {
			const out = [];
			const tok = text ? text.split(',') : [];
			const fields = L.fields ? fieldsOf(cpu) : [];
			let at = 0, n = 0;
			for (let k = 0; k + 3 < tok.length; k += 4) {
				at += num(tok[k]);
				out.push({ t: at, name: num(tok[k + 1]), task: num(tok[k + 2]) - 1,
					   count: tok[k + 3] === '' ? 1 : num(tok[k + 3]),
					   fields: fields[n] || null, cpu });
				n++;
			}
			return out;
		});
		decoded[i] = { q: L.q, pieces, marks };
		return decoded[i];
	}

	/* The coarsest level whose slots are at most half a pixel, else the finest there is. */
	function pickLevel(nsPerPx) {
		for (let i = 0; i < data.levels.length; i++)
			if (data.levels[i].q <= nsPerPx / 2)
				return i;
		return data.levels.length - 1;
	}

	const canvas = document.createElement('canvas');
	box.appendChild(canvas);
	const ctx = canvas.getContext('2d');
	/* tasks picked in the legend or the table (by index): the others grey while any is */
	const picked = new Set();
	const taskColor = t => picked.size && !picked.has(t) ? '#d4d4d8' :
		'hsl(' + data.tasks[t][3] + ' 70% 48%)';
	const taskName = t => (data.tasks[t][1] || '?') + ' ' + data.tasks[t][0];

	function timeUnit(ns) {
		return ns >= 1e9 ? [1e9, 's'] : ns >= 1e6 ? [1e6, 'ms'] : ns >= 1e3 ? [1e3, 'µs'] : [1, 'ns'];
	}
	function fmtTime(t, scale) {
		const [div, u] = timeUnit(scale);
		return (t / div).toFixed(div === 1 ? 0 : 3) + ' ' + u;
	}

	/* The first piece or mark of arr (sorted by key) at or after t. */
	function lowerBound(arr, t, key) {
		let lo = 0, hi = arr.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (key(arr[mid]) < t)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}

	let hiddenRows = 0;	/* per thread: tasks past THREAD_ROWS, not drawn */

	/* The rows of the current mode: per CPU, or per task (the busiest, with their pieces). */
	function rows(L) {
		hiddenRows = 0;
		if (mode === 'cpu')
			return L.pieces.map((p, cpu) => ({ label: 'CPU ' + cpu, pieces: p,
							 marks: L.marks[cpu] || [], cpu }));
		const byTask = new Map();
		L.pieces.forEach((arr, cpu) => arr.forEach(p => {
			if (!byTask.has(p.task))
				byTask.set(p.task, { pieces: [], marks: [] });
			byTask.get(p.task).pieces.push(Object.assign({ cpu }, p));
		}));
		L.marks.forEach(arr => arr.forEach(m => {
			if (byTask.has(m.task))
				byTask.get(m.task).marks.push(m);
		}));
		/* the picked tasks first, then by time on CPU */
		const order = [...byTask.keys()].sort((a, b) => picked.has(b) - picked.has(a) ||
			data.tasks[b][2] - data.tasks[a][2] || a - b);
		hiddenRows = Math.max(order.length - THREAD_ROWS, 0);
		return order.slice(0, THREAD_ROWS).map(t => {
			const r = byTask.get(t);
			r.pieces.sort((a, b) => a.s - b.s);
			r.marks.sort((a, b) => a.t - b.t);
			return { label: taskName(t), pieces: r.pieces, marks: r.marks, task: t };
		});
	}

	let shown = null;	/* what was drawn: rows, level, x of a time */

	function render() {
		const w = Math.max(box.clientWidth, 300);
		const plotW = w - LABEL_W;
		const nsPerPx = (view[1] - view[0]) / plotW;
		const li = pickLevel(nsPerPx);
		const L = level(li);
		const R = rows(L);
		const h = AXIS_H + R.length * (ROW_H + ROW_GAP) + 4;
		const dpr = window.devicePixelRatio || 1;
		canvas.width = w * dpr;
		canvas.height = h * dpr;
		canvas.style.width = w + 'px';
		canvas.style.height = h + 'px';
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, w, h);
		const x = t => LABEL_W + (t - view[0]) / nsPerPx;
		drawAxis(x, plotW, h);
		ctx.font = '12px system-ui, sans-serif';
		ctx.textBaseline = 'middle';
		R.forEach((r, i) => {
			const y = AXIS_H + i * (ROW_H + ROW_GAP);
			ctx.fillStyle = '#f5f5f7';
			ctx.fillRect(LABEL_W, y, plotW, ROW_H);
			ctx.fillStyle = '#1d1d1f';
			ctx.textAlign = 'left';
			ctx.fillText(r.label.length > 17 ? r.label.slice(0, 16) + '…' : r.label, 4, y + ROW_H / 2);
			drawPieces(r, x, y, plotW);
			drawMarks(r, x, y, L.q);
			if (mode === 'cpu')
				drawLosses(r.cpu, x, y);
		});
		shown = { R, L, x, nsPerPx, plotW };
		box.dataset.viewStart = Math.round(view[0]);
		box.dataset.viewEnd = Math.round(view[1]);
		box.dataset.q = L.q;
		box.dataset.mode = mode;
		const finest = data.levels.length ? data.levels[data.levels.length - 1].q : 0;
		note.textContent = (data.source ? 'Runs from ' + data.source + '. ' :
				    'No context switch recorded: lanes show samples and events only. ') +
			(L.q ? 'Shown: runs shorter than ' + fmtTime(L.q, L.q) + ' merged (lighter: partly idle). ' :
			       'Shown: every run and event. ') +
			(finest && nsPerPx / 2 < finest ? 'This page holds no finer detail (a page of a shorter recording would). ' : '') +
			(hiddenRows ? 'The ' + THREAD_ROWS + ' tasks longest on CPU have a row (' + hiddenRows +
			 ' more ran here: see the table). ' : '') +
			'Keys: + − zoom, ← → pan, 0 all; wheel zooms, drag pans; click tasks in the legend or the table to pick them out.';
	}

	function drawAxis(x, plotW, h) {
		const span = view[1] - view[0];
		const raw = span / 8, p = Math.pow(10, Math.floor(Math.log10(raw)));
		const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw);
		ctx.font = '11px system-ui, sans-serif';
		ctx.textBaseline = 'middle';
		ctx.textAlign = 'center';
		for (let t = Math.ceil(view[0] / step) * step; t <= view[1]; t += step) {
			const px = x(t);
			ctx.fillStyle = '#dcdce0';
			ctx.fillRect(px, AXIS_H - 4, 1, h - AXIS_H + 4);
			ctx.fillStyle = '#6b6b70';
			ctx.fillText(fmtTime(t, step), Math.min(Math.max(px, LABEL_W + 20), LABEL_W + plotW - 24), AXIS_H / 2);
		}
	}

	function drawPieces(r, x, y, plotW) {
		const arr = r.pieces;
		/* pieces are in time order per CPU and per task: start from the first that ends in view */
		let i = mode === 'cpu' ? Math.max(lowerBound(arr, view[0], p => p.e), 0) : 0;
		for (; i < arr.length && arr[i].s < view[1]; i++) {
			const p = arr[i];
			if (p.e < view[0])
				continue;
			const x0 = Math.max(x(p.s), LABEL_W), x1 = Math.min(x(p.e), LABEL_W + plotW);
			ctx.globalAlpha = 0.3 + 0.7 * p.busy;
			ctx.fillStyle = taskColor(p.task);
			ctx.fillRect(x0, y + 3, Math.max(x1 - x0, 1), ROW_H - 9);
			ctx.globalAlpha = 1;
			const name = mode === 'cpu' ? data.tasks[p.task][1] : 'CPU ' + p.cpu;
			if (x1 - x0 > 30 && (!picked.size || picked.has(p.task))) {
				ctx.save();
				ctx.beginPath();
				ctx.rect(x0, y, x1 - x0, ROW_H);
				ctx.clip();
				ctx.fillStyle = '#fff';
				ctx.textAlign = 'left';
				ctx.fillText(name, x0 + 3, y + ROW_H / 2 - 1);
				ctx.restore();
			}
		}
	}

	/* The switches the lanes are drawn from are marked only where every run is shown. */
	const switchName = data.names.findIndex(n => n[0] === 'sched:sched_switch');

	function drawMarks(r, x, y, q) {
		const arr = r.marks;
		for (let i = lowerBound(arr, view[0], m => m.t); i < arr.length && arr[i].t <= view[1]; i++) {
			const m = arr[i], px = Math.round(x(m.t)) + 0.5;
			if (q && m.name === switchName && data.source)
				continue;
			if (data.names[m.name][1]) {
				ctx.fillStyle = 'rgba(29, 29, 31, 0.45)';
				ctx.fillRect(px, y + ROW_H - 5, 1, 5);
			} else {
				ctx.fillStyle = '#cc79a7';
				ctx.beginPath();
				ctx.moveTo(px - 3, y);
				ctx.lineTo(px + 3, y);
				ctx.lineTo(px, y + 5);
				ctx.fill();
			}
		}
	}

	function drawLosses(cpu, x, y) {
		if (!losses)
			return;
		losses.losses.forEach(l => {
			const lane = losses.lanes[l[0]];
			if (!lane || lane.id !== cpu || l[1] < view[0] || l[1] > view[1])
				return;
			ctx.fillStyle = '#d55e00';
			ctx.fillRect(Math.round(x(l[1])), y, 2, ROW_H);
		});
	}

	function setView(a, b) {
		const len = Math.max(b - a, MIN_VIEW_NS);
		a = Math.max(0, Math.min(a, end - len));
		view = [a, Math.min(a + len, Math.max(end, len))];
		render();
	}

	function zoom(factor, at) {
		const t = at === undefined ? (view[0] + view[1]) / 2 : at;
		setView(t - (t - view[0]) * factor, t + (view[1] - t) * factor);
	}

	function timeAt(px) {
		return view[0] + (px - LABEL_W) * shown.nsPerPx;
	}

	/* The marks within 4 px of the pointer, else the piece under it. */
	function hit(ev) {
		const rect = canvas.getBoundingClientRect();
		const px = ev.clientX - rect.left, py = ev.clientY - rect.top;
		const row = Math.floor((py - AXIS_H) / (ROW_H + ROW_GAP));
		if (!shown || px < LABEL_W || row < 0 || row >= shown.R.length)
			return null;
		const r = shown.R[row], t = timeAt(px), slop = 4 * shown.nsPerPx;
		const marks = [];
		for (let i = lowerBound(r.marks, t - slop, m => m.t); i < r.marks.length && r.marks[i].t <= t + slop; i++)
			marks.push(r.marks[i]);
		const piece = r.pieces.find(p => p.s <= t && t < p.e);
		return { r, t, marks, piece };
	}

	function escapeHtml(s) {
		return String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
	}

	function describe(h) {
		const out = [];
		h.marks.slice(0, 6).forEach(m => {
			out.push('<b>' + escapeHtml(data.names[m.name][0]) + '</b> at ' + fmtTime(m.t, 1000) +
				 ' on CPU ' + m.cpu + (m.task >= 0 ? ' by ' + escapeHtml(taskName(m.task)) : '') +
				 (m.count > 1 ? ' (and ' + (m.count - 1) + ' more in ' + fmtTime(shown.L.q, shown.L.q) + ')' : '') +
				 (m.fields ? '<br><code>' + escapeHtml(m.fields) + '</code>' : ''));
		});
		if (h.marks.length > 6)
			out.push((h.marks.length - 6) + ' more here: zoom in');
		if (h.piece) {
			const p = h.piece;
			out.push('<b>' + escapeHtml(taskName(p.task)) + '</b>' +
				 (mode === 'thread' ? ' on CPU ' + p.cpu : '') + ' from ' + fmtTime(p.s, 1000) +
				 ' for ' + fmtTime(p.e - p.s, p.e - p.s) +
				 (p.busy < 1 ? ' (merged: ran most of it; busy ' + Math.round(p.busy * 100) + '%)' : ''));
		}
		return out.join('<hr>');
	}

	let drag = null;
	canvas.addEventListener('mousedown', ev => { drag = { x: ev.clientX, view: view.slice() }; });
	window.addEventListener('mouseup', () => { drag = null; });
	canvas.addEventListener('mousemove', ev => {
		if (drag) {
			const dt = (ev.clientX - drag.x) * shown.nsPerPx;
			setView(drag.view[0] - dt, drag.view[1] - dt);
			return;
		}
		const h = hit(ev);
		const html = h ? describe(h) : '';
		tip.hidden = !html;
		if (html) {
			tip.innerHTML = html;
			tip.style.left = Math.min(ev.pageX + 12, document.body.clientWidth - 380) + 'px';
			tip.style.top = (ev.pageY + 14) + 'px';
		}
	});
	canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
	canvas.addEventListener('wheel', ev => {
		ev.preventDefault();
		const rect = canvas.getBoundingClientRect();
		zoom(ev.deltaY > 0 ? 1.25 : 0.8, timeAt(ev.clientX - rect.left));
	}, { passive: false });
	box.addEventListener('keydown', ev => {
		const span = view[1] - view[0];
		const keys = {
			'+': () => zoom(0.5), '=': () => zoom(0.5), '-': () => zoom(2), '_': () => zoom(2),
			'0': () => setView(0, end),
			ArrowLeft: () => setView(view[0] - span / 5, view[1] - span / 5),
			ArrowRight: () => setView(view[0] + span / 5, view[1] + span / 5),
		};
		if (keys[ev.key]) {
			ev.preventDefault();
			keys[ev.key]();
		}
	});
	document.getElementById('tasks-reset').addEventListener('click', () => setView(0, end));
	/* Highlight tasks (by tid; none: every task in its colour). */
	function highlight(tids) {
		picked.clear();
		data.tasks.forEach((t, i) => { if (tids.includes(t[0])) picked.add(i); });
		document.querySelectorAll('#tasks-section [data-tid]').forEach(e =>
			e.classList.toggle('picked', tids.includes(Number(e.dataset.tid))));
		render();
	}
	document.querySelectorAll('#tasks-section [data-tid]').forEach(e => e.addEventListener('click', () => {
		const tid = Number(e.dataset.tid);
		const now = data.tasks.filter((t, i) => picked.has(i)).map(t => t[0]);
		highlight(now.includes(tid) ? now.filter(x => x !== tid) : now.concat(tid));
	}));
	function setMode(m) {
		mode = m;
		document.querySelectorAll('[data-tview]').forEach(o =>
			o.setAttribute('aria-pressed', String(o.dataset.tview === m)));
		render();
	}
	document.querySelectorAll('[data-tview]').forEach(b =>
		b.addEventListener('click', () => setMode(b.dataset.tview)));
	window.addEventListener('resize', render);
	window.auxrecTasks = {
		data, level, setView, get view() { return view.slice(); },
		setMode, highlight,
	};
	render();
	/* when the lanes were first drawn, ms from the page's navigation (the paint test reads it) */
	performance.mark('tasks-drawn');
})();
