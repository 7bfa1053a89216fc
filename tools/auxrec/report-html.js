/*
 * auxrec report: draws a recording's timeline from the bins in the #report-data JSON block
 * (written by report-html.c). Times are ns from the recording's start. The data:
 *   heatLanes            past this many lanes, a heat map (one row per lane)
 *   binNs, bin0, nbins   bin i covers [bin0 + i * binNs, + binNs)
 *   range                [first, last] ns the timeline shows
 *   sources, lossKinds   [{key, name, unit}]
 *   lanes                [{id, label, total, bytes, recs}]: total [[bytes, records] per source]
 *                        with the untimed records; bytes and recs [per source] each a base-36
 *                        string of nbins comma-separated numbers, "" for 0; null: no timed data.
 *                        A recorded lane without data has its lane too (a CPU that went quiet)
 *   losses               [[lane index, time, kind index, count, reports]]
 *   snapshots            [time]
 * DOM hooks for tests: .lane[data-cpu|data-tid, data-bytes (all sources, untimed too),
 * data-bins (bins with data)], .loss[data-cpu, data-time, data-kind,
 * data-count], .snapshot[data-time], #timeline[data-view-start, data-view-end], #tooltip.
 */
(function () {
	'use strict';

	const MIN_VIEW_NS = 10;
	const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
	const data = JSON.parse(document.getElementById('report-data').textContent);
	const timeline = document.getElementById('timeline');
	const tooltip = document.getElementById('tooltip');
	const css = getComputedStyle(document.documentElement);
	const colors = data.sources.map(s => css.getPropertyValue('--' + s.key).trim());
	const laneAttr = data.laneKind === 'thread' ? 'tid' : 'cpu';
	const units = {
		bytes: { field: 'bytes', suffix: 'B/s' },
		events: { field: 'recs', suffix: ' events/s' },
	};
	let unit = units.bytes;

	function decode(s) {
		const out = new Float64Array(data.nbins);
		if (s)
			s.split(',').forEach((v, i) => { if (v) out[i] = parseInt(v, 36); });
		return out;
	}

	const lanes = data.lanes.map(l => {
		const lane = {
			id: l.id, label: l.label,
			bytes: l.bytes.map(s => s === null ? null : decode(s)),
			recs: l.recs.map(s => s === null ? null : decode(s)),
			totalBytes: l.total.reduce((a, [b]) => a + b, 0),
			bins: 0,
		};
		for (let i = 0; i < data.nbins; i++)
			lane.bins += lane.recs.some((a, s) => a && (a[i] || lane.bytes[s][i])) ? 1 : 0;
		return lane;
	});
	const binOf = t => Math.floor((t - data.bin0) / data.binNs);
	const lossesAt = new Map();	/* "lane:bin" -> losses in that bin */
	data.losses.forEach(([lane, t, kind, count, reports]) => {
		const key = lane + ':' + binOf(t);
		if (!lossesAt.has(key))
			lossesAt.set(key, []);
		lossesAt.get(key).push({ t, kind, count, reports });
	});

	const full = { t0: data.range[0], t1: data.range[1] };
	if (full.t1 - full.t0 < data.binNs) {	/* a recording of no length: show its one bin */
		full.t0 = data.bin0 + binOf(full.t0) * data.binNs;
		full.t1 = full.t0 + data.binNs;
	}
	const view = { t0: full.t0, t1: full.t1 };
	const heatMode = lanes.length > data.heatLanes;

	/* Numbers: exact counts with separators, rates with SI prefixes, times in s/ms/us/ns. */
	const fmtInt = n => Math.round(n).toLocaleString('en-US');
	/* "1 record lost", "2 records lost": units are written plural */
	const plural = (n, what) => fmtInt(n) + ' ' + (n === 1 ? what.replace(/s\b/, '') : what);
	function fmtRate(v, suffix) {
		const prefix = ['', 'k', 'M', 'G', 'T', 'P'];
		let p = 0;
		while (v >= 999.5 && p < prefix.length - 1) { v /= 1000; p++; }
		const digits = v >= 99.95 || v === 0 ? 0 : v >= 9.995 ? 1 : 2;
		return v.toFixed(digits) + ' ' + (prefix[p] + suffix).trim();
	}
	function timeUnit(ns) {
		ns = Math.abs(ns);
		return ns >= 1e9 ? [1e9, 's'] : ns >= 1e6 ? [1e6, 'ms'] : ns >= 1e3 ? [1e3, 'µs'] : [1, 'ns'];
	}
	function fmtTime(t, step, scale) {
		const [div, name] = timeUnit(scale);
		const e = Math.floor(Math.log10(step / div) + 1e-9);
		return (t / div).toFixed(Math.min(9, Math.max(0, -e))) + ' ' + name;
	}
	function niceStep(raw) {
		const p = Math.pow(10, Math.floor(Math.log10(raw)));
		const m = raw / p;
		return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
	}
	function el(tag, cls, parent) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (parent)
			parent.appendChild(e);
		return e;
	}
	function fit(canvas) {
		const dpr = window.devicePixelRatio || 1;
		const w = canvas.clientWidth, h = canvas.clientHeight;
		canvas.width = Math.max(1, Math.round(w * dpr));
		canvas.height = Math.max(1, Math.round(h * dpr));
		const ctx = canvas.getContext('2d');
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		return { ctx, w, h };
	}

	/* The page's skeleton: axis, lanes (or heat map), an overlay for marks. */
	timeline.textContent = '';
	if (!lanes.length || !data.nbins) {
		timeline.dataset.mode = 'empty';
		el('div', 'tl-empty', timeline).textContent = lanes.length
			? 'No timestamped data in this recording: nothing to draw over time (see the totals).'
			: 'No data in this recording: nothing to draw.';
		document.documentElement.dataset.ready = '1';
		return;
	}
	timeline.dataset.mode = heatMode ? 'heatmap' : 'lanes';
	timeline.classList.toggle('heat-mode', heatMode);
	const axisRow = el('div', 'tl-axis', timeline);
	el('div', 'tl-corner', axisRow).textContent = 'time →';
	const axisCanvas = el('canvas', '', axisRow);
	const body = el('div', 'tl-body', timeline);
	let heatPlot, heatLabels, rowH = 0;
	const laneEls = [];

	if (heatMode) {
		rowH = Math.max(2, Math.min(12, Math.floor(640 / lanes.length)));
		const heat = el('div', 'heat', body);
		heat.style.height = lanes.length * rowH + 'px';
		heatLabels = el('canvas', 'heat-labels', heat);
		heatPlot = el('canvas', 'heat-plot', heat);
		lanes.forEach((l, i) => {
			const row = el('div', 'lane heat-row', body);
			row.style.top = i * rowH + 'px';
			row.style.height = rowH + 'px';
			row.setAttribute('aria-label', l.label);
			laneEls.push(row);
		});
	} else {
		const laneH = Math.max(56, Math.min(120, Math.floor(480 / lanes.length)));
		lanes.forEach((l, li) => {
			const lane = el('div', 'lane', body);
			lane.style.height = laneH + 'px';
			const label = el('div', 'lane-label', lane);
			el('b', '', label).textContent = l.label;
			el('small', '', label).textContent = fmtRate(l.totalBytes, 'B') + ' in all';
			const reports = data.losses.reduce((a, x) => a + (x[0] === li ? x[4] : 0), 0);
			if (reports)
				el('small', 'lane-loss', label).textContent = plural(reports, 'reports of loss');
			l.canvas = el('canvas', '', lane);
			laneEls.push(lane);
		});
	}
	laneEls.forEach((e, i) => Object.assign(e.dataset, {
		[laneAttr]: lanes[i].id, bytes: lanes[i].totalBytes, bins: lanes[i].bins,
	}));
	const overlay = el('div', 'tl-overlay', body);
	const selection = el('div', 'selection', overlay);
	const snapshotEls = data.snapshots.map((t, i) => {
		const s = el('div', 'snapshot', overlay);
		s.dataset.time = t;
		s.title = 'snapshot ' + (i + 1) + ' at ' + fmtTime(t, 1e3, t);
		el('span', '', s).textContent = 'S' + (i + 1);
		return s;
	});
	const lossEls = data.losses.map(([lane, t, kind, count, reports]) => {
		const k = data.lossKinds[kind];
		const m = el('div', 'loss kind-' + k.key, overlay);
		Object.assign(m.dataset, { [laneAttr]: lanes[lane].id, time: t, kind: k.key, count, reports });
		m.setAttribute('role', 'img');
		m.setAttribute('aria-label', k.name + ' on ' + lanes[lane].label + ' at ' +
			       fmtTime(t, 1e3, t) + ': ' + plural(count, k.unit));
		return { m, lane, t };
	});

	/* Drawing. */
	const X = (t, w) => (t - view.t0) / (view.t1 - view.t0) * w;
	const T = (x, w) => view.t0 + x / w * (view.t1 - view.t0);
	/* A bin's columns, on whole pixels so that neighbours meet without a seam: [x, x + w). */
	function binColumns(i, w) {
		const t = data.bin0 + i * data.binNs;
		const x0 = Math.round(X(t, w)), x1 = Math.round(X(t + data.binNs, w));
		return [x0, Math.max(1, x1 - x0)];
	}
	function visibleBins() {
		return [Math.max(0, binOf(view.t0)), Math.min(data.nbins - 1, binOf(view.t1))];
	}
	function ticks(w) {
		const step = niceStep((view.t1 - view.t0) / Math.max(2, Math.floor(w / 110)));
		const out = [];
		for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step)
			out.push(t);
		return { step, out };
	}
	/* The stacked rate of lane l in bin i, per source (value / s). */
	function rates(l, i) {
		const sec = data.binNs / 1e9;
		return l[unit.field].map(a => a ? a[i] / sec : 0);
	}

	function drawAxis() {
		const { ctx, w, h } = fit(axisCanvas);
		const { step, out } = ticks(w);
		const scale = Math.max(Math.abs(view.t0), Math.abs(view.t1));
		ctx.fillStyle = '#1d1d1f';
		ctx.strokeStyle = '#6b6b70';
		ctx.font = '11px system-ui, sans-serif';
		ctx.textBaseline = 'middle';
		out.forEach(t => {
			const x = Math.round(X(t, w)) + 0.5;
			ctx.beginPath();
			ctx.moveTo(x, h - 6);
			ctx.lineTo(x, h);
			ctx.stroke();
			const text = fmtTime(t, step, scale);
			const tw = ctx.measureText(text).width;
			ctx.fillText(text, Math.min(Math.max(x - tw / 2, 2), w - tw - 2), h / 2 - 2);
		});
		return out;
	}
	function drawGrid(ctx, w, h, tickTimes) {
		ctx.strokeStyle = '#ececf0';
		tickTimes.forEach(t => {
			const x = Math.round(X(t, w)) + 0.5;
			ctx.beginPath();
			ctx.moveTo(x, 0);
			ctx.lineTo(x, h);
			ctx.stroke();
		});
	}
	/* The y scale of a lane: lines at the top and the middle, with their rates. */
	function drawScale(ctx, w, y0, plotH, top) {
		ctx.font = '10px system-ui, sans-serif';
		ctx.textBaseline = 'top';
		[1, 0.5].forEach(f => {
			const y = Math.round(y0 + plotH * (1 - f)) + 0.5;
			const text = fmtRate(top * f, unit.suffix);
			ctx.strokeStyle = 'rgba(0, 0, 0, .12)';
			ctx.setLineDash([3, 3]);
			ctx.beginPath();
			ctx.moveTo(0, y);
			ctx.lineTo(w, y);
			ctx.stroke();
			ctx.setLineDash([]);
			ctx.fillStyle = 'rgba(255, 255, 255, .8)';
			ctx.fillRect(2, y + 1, ctx.measureText(text).width + 4, 12);
			ctx.fillStyle = '#6b6b70';
			ctx.fillText(text, 4, y + 2);
		});
	}
	function drawLanes(tickTimes) {
		const [i0, i1] = visibleBins();
		let max = 0;
		lanes.forEach(l => {
			for (let i = i0; i <= i1; i++)
				max = Math.max(max, rates(l, i).reduce((a, b) => a + b, 0));
		});
		const top = max > 0 ? niceStep(max) * Math.ceil(max / niceStep(max)) : 1;
		lanes.forEach(l => {
			const { ctx, w, h } = fit(l.canvas);
			const plotH = h - 4;
			drawGrid(ctx, w, h, tickTimes);
			for (let i = i0; i <= i1; i++) {
				const [x, bw] = binColumns(i, w);
				let y = h;
				rates(l, i).forEach((r, s) => {
					if (!r)
						return;
					const bh = r / top * plotH;
					ctx.fillStyle = colors[s];
					ctx.fillRect(x, y - bh, bw, bh);
					y -= bh;
				});
			}
			drawScale(ctx, w, h - plotH, plotH, top);
		});
	}
	function heatColor(v, max) {
		const f = Math.max(0, Math.min(1, 1 + Math.log10(v / max) / 3));	/* 3 decades */
		const p = f * (VIRIDIS.length - 1), i = Math.min(VIRIDIS.length - 2, Math.floor(p));
		const c = VIRIDIS[i].map((a, k) => Math.round(a + (VIRIDIS[i + 1][k] - a) * (p - i)));
		return 'rgb(' + c.join(',') + ')';
	}
	function drawHeat(tickTimes) {
		const [i0, i1] = visibleBins();
		const { ctx, w, h } = fit(heatPlot);
		const totals = lanes.map(l => {
			const row = [];
			for (let i = i0; i <= i1; i++)
				row.push(rates(l, i).reduce((a, b) => a + b, 0));
			return row;
		});
		const max = Math.max(0, ...totals.map(r => Math.max(0, ...r)));
		drawGrid(ctx, w, h, tickTimes);
		totals.forEach((row, li) => row.forEach((v, k) => {
			if (!v)
				return;
			const [x, bw] = binColumns(i0 + k, w);
			ctx.fillStyle = heatColor(v, max);
			ctx.fillRect(x, li * rowH, bw, rowH);
		}));
		const lab = fit(heatLabels);
		/* a label every 1, 2, 4, 8... rows, 14 px apart at least, ticked at its row */
		const every = Math.pow(2, Math.ceil(Math.log2(Math.max(1, 14 / rowH))));
		lab.ctx.fillStyle = '#1d1d1f';
		lab.ctx.font = '10px system-ui, sans-serif';
		lab.ctx.textBaseline = 'top';
		lanes.forEach((l, i) => {
			if (i % every)
				return;
			lab.ctx.fillRect(lab.w - 5, i * rowH, 5, Math.max(1, rowH - 1));
			if ((i + every) * rowH <= lab.h + 4)
				lab.ctx.fillText(l.label, 6, i * rowH);
		});
		drawHeatLegend(max);
	}
	function drawHeatLegend(max) {
		const box = document.getElementById('heat-legend');
		box.hidden = false;
		const { ctx, w, h } = fit(box.querySelector('canvas'));
		for (let x = 0; x < w; x++) {
			ctx.fillStyle = heatColor(Math.pow(10, (x / w - 1) * 3) * max, max);
			ctx.fillRect(x, 0, 1, h);
		}
		box.querySelector('.lo').textContent = max ? '≤ ' + fmtRate(max / 1000, unit.suffix) : '0';
		box.querySelector('.hi').textContent = fmtRate(max, unit.suffix);
	}
	function placeMarks() {
		const w = overlay.clientWidth;
		const show = (e, t) => {
			const x = X(t, w);
			e.style.display = x < -6 || x > w + 6 ? 'none' : '';
			e.style.left = x + 'px';
		};
		snapshotEls.forEach((s, i) => show(s, data.snapshots[i]));
		lossEls.forEach(({ m, lane, t }) => {
			const laneEl = laneEls[lane];
			m.style.top = laneEl.offsetTop + 'px';
			m.style.height = (heatMode ? rowH : laneEl.clientHeight) + 'px';
			show(m, t);
		});
	}
	function render() {
		timeline.dataset.viewStart = Math.round(view.t0);
		timeline.dataset.viewEnd = Math.round(view.t1);
		const tickTimes = drawAxis();
		if (heatMode)
			drawHeat(tickTimes);
		else
			drawLanes(tickTimes);
		placeMarks();
		const note = document.getElementById('view-note');
		const zoomed = view.t0 > full.t0 || view.t1 < full.t1;
		note.textContent = (zoomed ? 'Showing ' + fmtTime(view.t0, view.t1 - view.t0, view.t1) +
			' – ' + fmtTime(view.t1, view.t1 - view.t0, view.t1) + '. ' : '') +
			'Drag to zoom, double-click to reset. Bins: ' + fmtTime(data.binNs, data.binNs, data.binNs) + '.';
	}

	/* Hover: the bin under the pointer with its numbers; drag: zoom; double-click: reset. */
	function laneAt(y) {
		if (heatMode)
			return Math.floor(y / rowH);
		return laneEls.findIndex(e => y >= e.offsetTop && y < e.offsetTop + e.offsetHeight);
	}
	function showTooltip(ev) {
		const r = overlay.getBoundingClientRect();
		const x = ev.clientX - r.left, y = ev.clientY - r.top;
		const li = laneAt(y), i = binOf(T(x, r.width));
		if (x < 0 || li < 0 || li >= lanes.length || i < 0 || i >= data.nbins) {
			tooltip.hidden = true;
			return;
		}
		const l = lanes[li], t = data.bin0 + i * data.binNs;
		const span = fmtTime(t, data.binNs, t + data.binNs) + ' – ' +
			     fmtTime(t + data.binNs, data.binNs, t + data.binNs);
		let html = '<div class="tt-head"></div><table>';
		let rows = 0, total = 0;
		data.sources.forEach((s, k) => {
			if (!l.bytes[k] || !l.bytes[k][i] && !l.recs[k][i])
				return;
			rows++;
			total += l.bytes[k][i];
			html += '<tr data-source="' + s.key + '"><td><span class="swatch src-' + s.key +
				'"></span></td><td>' + s.name +
				'</td><td class="num">' + fmtInt(l.bytes[k][i]) + ' B</td><td class="num">' +
				plural(l.recs[k][i], s.unit) + '</td><td class="num">' +
				fmtRate(l.bytes[k][i] / (data.binNs / 1e9), 'B/s') + '</td></tr>';
		});
		html += rows ? '' : '<tr><td colspan="5" class="muted">no data in this bin</td></tr>';
		html += '</table>';
		(lossesAt.get(li + ':' + i) || []).forEach(loss => {
			const k = data.lossKinds[loss.kind];
			html += '<div class="tt-loss"><span class="loss-shape kind-' + k.key + '"></span> ' +
				k.name + ': ' + plural(loss.count, k.unit) + ' (' +
				plural(loss.reports, 'reports') + ')</div>';
		});
		tooltip.innerHTML = html;
		tooltip.querySelector('.tt-head').textContent = l.label + ' · ' + span +
			(rows > 1 ? ' · ' + fmtInt(total) + ' B in all' : '');
		Object.assign(tooltip.dataset, { [laneAttr]: l.id, bin: i, binStart: t });
		tooltip.hidden = false;
		const tw = tooltip.offsetWidth, th = tooltip.offsetHeight;
		tooltip.style.left = Math.min(ev.clientX + 14, window.innerWidth - tw - 4) + 'px';
		tooltip.style.top = (ev.clientY + 16 + th > window.innerHeight ? ev.clientY - th - 10
									     : ev.clientY + 16) + 'px';
	}
	let dragFrom = null;
	const plotX = ev => ev.clientX - overlay.getBoundingClientRect().left;
	body.addEventListener('mousedown', ev => {
		if (ev.button === 0 && plotX(ev) >= 0)
			dragFrom = plotX(ev);
	});
	body.addEventListener('mousemove', ev => {
		showTooltip(ev);
		if (dragFrom === null)
			return;
		const x = Math.max(0, Math.min(plotX(ev), overlay.clientWidth));
		selection.style.display = 'block';
		selection.style.left = Math.min(x, dragFrom) + 'px';
		selection.style.width = Math.abs(x - dragFrom) + 'px';
	});
	body.addEventListener('mouseleave', () => { tooltip.hidden = true; });
	window.addEventListener('mouseup', ev => {
		if (dragFrom === null)
			return;
		const w = overlay.clientWidth;
		const x = Math.max(0, Math.min(plotX(ev), w));
		const a = T(Math.min(x, dragFrom), w), b = T(Math.max(x, dragFrom), w);
		dragFrom = null;
		selection.style.display = 'none';
		if (Math.abs(X(b, w) - X(a, w)) < 4)
			return;
		view.t0 = a;
		view.t1 = Math.max(b, a + MIN_VIEW_NS);
		render();
	});
	function resetView() {
		view.t0 = full.t0;
		view.t1 = full.t1;
		render();
	}
	body.addEventListener('dblclick', resetView);
	document.getElementById('reset-zoom').addEventListener('click', resetView);
	document.querySelectorAll('[data-unit]').forEach(b => b.addEventListener('click', () => {
		unit = units[b.dataset.unit];
		document.querySelectorAll('[data-unit]').forEach(o =>
			o.setAttribute('aria-pressed', String(o === b)));
		render();
	}));
	/* Drawn at the plot's size whenever it changes (a scroll bar coming, the window): first now. */
	new ResizeObserver(() => {
		render();
		document.documentElement.dataset.ready = '1';
	}).observe(overlay);
})();
