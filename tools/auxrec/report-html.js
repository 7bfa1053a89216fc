/*
 * auxrec report: draws a recording's timeline from the bins in the #report-data JSON block
 * (written by report-html.c). Times are ns from the recording's start. The data:
 *   heatLanes            past this many lanes, a heat map (one row per lane)
 *   binNs, bin0, nbins   the full view's bins: bin i covers [bin0 + i * binNs, + binNs)
 *   modelNs              the finest bins there are (binNs is a multiple of it)
 *   srcNs                [per source] the width its bins come in: binNs, or finer (a divisor of
 *                        binNs) when the page had room, for zooming in
 *   range                [first, last] ns the timeline shows
 *   sources, lossKinds   [{key, name, unit}]
 *   lanes                [{id, label, total, bins}]: total [[bytes, records] per source] with the
 *                        untimed records; bins [per source] null (no timed data) or [size, text]:
 *                        text a token per bin of srcNs from bin0, "" empty, "~N" N empty bins,
 *                        "R" records of size bytes each (size >= 0) or "B:R", base 36, "" for 0.
 *                        A recorded lane without data has its lane too (a CPU that went quiet)
 *   losses               [[lane index, time, kind index, count, reports]]
 *   snapshots            [time]
 * Lanes draw one strip per source, each on its own linear scale (shared by the lanes), so that
 * sources a thousand times apart both read; within a source, a burst that would flatten the rest
 * is clipped (marked so) at CLIP_OVER times the typical bin. A heat map colours each lane's
 * total on a log scale.
 * Zooming in shows finer bins where the data has them (about as many bins as at full view).
 * DOM hooks for tests: .lane[data-cpu|data-tid, data-bytes (all sources, untimed too),
 * data-bins (bins with data)], .loss[data-cpu, data-time, data-kind, data-count],
 * .snapshot[data-time], #timeline[data-view-start, data-view-end, data-bin-ns (the width each
 * source is drawn at), data-scale (lanes: each source's scale top, per s)], the lane canvases'
 * aria-label (the scales, as their labels say them), #tooltip.
 */
(function () {
	'use strict';

	const MIN_VIEW_NS = 10;
	const STRIP_MIN_H = 14;		/* px: a strip's label still fits */
	/* a strip's scale tops at this many times its 90th-percentile bin: taller ones are clipped */
	const CLIP_OVER = 3;
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

	/* A source's bins on a lane: the bins with data, as bin indexes (at width w from bin0). */
	function decode(cell, w) {
		if (!cell)
			return null;
		const [size, text] = cell;
		const num = s => s ? parseInt(s, 36) : 0;
		const idx = [], bytes = [], recs = [];
		let i = 0;
		(text ? text.split(',') : []).forEach(tok => {
			if (tok[0] === '~') {
				i += num(tok.slice(1));
				return;
			}
			if (tok) {
				const c = tok.indexOf(':');
				const r = num(size < 0 ? tok.slice(c + 1) : tok);
				idx.push(i);
				recs.push(r);
				bytes.push(size < 0 ? num(tok.slice(0, c)) : r * size);
			}
			i++;
		});
		return { w, idx, bytes, recs };
	}

	const lanes = data.lanes.map(l => {
		const series = l.bins.map((cell, s) => decode(cell, data.srcNs[s]));
		/* bins of the full view with data, any source */
		const full = new Set();
		series.forEach(x => x && x.idx.forEach(i => full.add(Math.floor(i * x.w / data.binNs))));
		return {
			id: l.id, label: l.label, series,
			totalBytes: l.total.reduce((a, [b]) => a + b, 0), bins: full.size,
		};
	});
	/* the sources with timed data somewhere: a strip each */
	const shown = data.sources.map((s, k) => k).filter(k => lanes.some(l => l.series[k]));
	const lossesOf = lanes.map(() => []);	/* per lane, in time order */
	data.losses.forEach(([lane, t, kind, count, reports]) =>
		lossesOf[lane].push({ t, kind, count, reports }));
	lossesOf.forEach(a => a.sort((x, y) => x.t - y.t));

	const full = { t0: data.range[0], t1: data.range[1] };
	if (full.t1 - full.t0 < data.binNs) {	/* a recording of no length: show its one bin */
		full.t0 = data.bin0 + Math.floor((full.t0 - data.bin0) / data.binNs) * data.binNs;
		full.t1 = full.t0 + data.binNs;
	}
	const view = { t0: full.t0, t1: full.t1 };
	const heatMode = lanes.length > data.heatLanes;
	/* Lanes as one strip per source on its own scale, or every source stacked on one scale. */
	let stacked = false;

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
	const fmtSpan = (t, w) => fmtTime(t, w, t + w) + ' – ' + fmtTime(t + w, w, t + w);
	function niceStep(raw) {
		const p = Math.pow(10, Math.floor(Math.log10(raw)));
		const m = raw / p;
		return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
	}
	const niceTop = max => max > 0 ? niceStep(max) * Math.ceil(max / niceStep(max)) : 1;
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
		const laneH = Math.max(shown.length * STRIP_MIN_H + 4,
				       Math.min(120, Math.floor(480 / lanes.length)));
		lanes.forEach((l, li) => {
			const lane = el('div', 'lane', body);
			lane.style.height = laneH + 'px';
			const label = el('div', 'lane-label', lane);
			el('b', '', label).textContent = l.label;
			el('small', '', label).textContent = fmtRate(l.totalBytes, 'B') + ' in all';
			const reports = lossesOf[li].reduce((a, x) => a + x.reports, 0);
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

	/* Bin widths: 1, 2 or 5 x 10^k ns, multiples of the finest, as report-html.c picks them. */
	function coarser(w) {
		do {
			let d = w;
			while (d % 10 === 0)
				d /= 10;
			w = d === 2 ? w / 2 * 5 : w * 2;
		} while (w % data.modelNs);
		return w;
	}
	/*
	 * The width to draw bins of these widths at: as many bins over the view as over the full
	 * view (zooming in k times makes them k times finer), but never finer than the data.
	 */
	function drawWidth(bases) {
		const want = data.binNs * (view.t1 - view.t0) / (full.t1 - full.t0);
		let w = data.modelNs;
		while (w < want * (1 - 1e-9) || bases.some(b => w % b))
			w = coarser(w);
		return w;
	}
	/* The width each source is drawn at; in a heat map or a stack, one for all (they sum). */
	function widths() {
		if (heatMode || stacked) {
			const w = drawWidth(shown.map(s => data.srcNs[s]));
			return data.sources.map(() => w);
		}
		return data.sources.map((s, k) => drawWidth([data.srcNs[k]]));
	}
	/* Series x summed into bins of w over the view: { k0, bytes, recs } from bin k0 (of w). */
	function rebin(x, w) {
		const k0 = Math.floor((view.t0 - data.bin0) / w);
		const n = Math.floor((view.t1 - data.bin0) / w) - k0 + 1;
		const out = { k0, bytes: new Float64Array(n), recs: new Float64Array(n) };
		if (!x)
			return out;
		let lo = 0, hi = x.idx.length;
		while (lo < hi) {	/* the first bin of the series in the view */
			const mid = (lo + hi) >> 1;
			if ((x.idx[mid] + 1) * x.w <= k0 * w)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (let i = lo; i < x.idx.length; i++) {
			const k = Math.floor(x.idx[i] * x.w / w) - k0;
			if (k >= n)
				break;
			out.bytes[k] += x.bytes[i];
			out.recs[k] += x.recs[i];
		}
		return out;
	}

	/* Drawing. */
	const X = (t, w) => (t - view.t0) / (view.t1 - view.t0) * w;
	const T = (x, w) => view.t0 + x / w * (view.t1 - view.t0);
	/* Bin k of width bw's columns, on whole pixels so that neighbours meet: [x, x + w). */
	function binColumns(k, bw, w) {
		const t = data.bin0 + k * bw;
		const x0 = Math.round(X(t, w)), x1 = Math.round(X(t + bw, w));
		return [x0, Math.max(1, x1 - x0)];
	}
	function ticks(w) {
		const step = niceStep((view.t1 - view.t0) / Math.max(2, Math.floor(w / 110)));
		const out = [];
		for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step)
			out.push(t);
		return { step, out };
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
	/*
	 * A source's scale over its bins in view (values per bin, every lane), a rate: up to its
	 * highest bin, or to CLIP_OVER times the 90th percentile when that is lower (then clipped).
	 */
	function stripScale(values, sec) {
		const v = values.filter(x => x > 0).sort((a, b) => a - b);
		if (!v.length)
			return { top: 1, clipped: false };
		const max = v[v.length - 1] / sec;
		const top = niceTop(Math.min(max, CLIP_OVER * v[Math.floor(0.9 * (v.length - 1))] / sec));
		return { top, clipped: max > top };
	}
	const scaleText = (s, scale) => data.sources[s].name + ' · 0 – ' +
		fmtRate(scale.top, unit.suffix) + (scale.clipped ? ' · taller bins clipped ▴' : '');
	/*
	 * A strip's scale: a dashed line at its top, labelled with the source (its colour; none
	 * for s < 0, a stack of them all) and the rate there.
	 */
	function drawStripScale(ctx, w, y, s, text) {
		ctx.strokeStyle = 'rgba(0, 0, 0, .12)';
		ctx.setLineDash([3, 3]);
		ctx.beginPath();
		ctx.moveTo(0, y + 0.5);
		ctx.lineTo(w, y + 0.5);
		ctx.stroke();
		ctx.setLineDash([]);
		ctx.font = '10px system-ui, sans-serif';
		ctx.textBaseline = 'top';
		ctx.fillStyle = 'rgba(255, 255, 255, .85)';
		ctx.fillRect(2, y + 1, ctx.measureText(text).width + 6, 12);
		if (s >= 0) {
			ctx.fillStyle = colors[s];
			ctx.fillRect(3, y + 4, 6, 6);
		}
		ctx.fillStyle = '#4b4b50';
		ctx.fillText(text, 11, y + 2);
	}
	function drawLanes(tickTimes, ws) {
		const sec = s => ws[s] / 1e9;
		const binned = lanes.map(l => l.series.map((x, s) => rebin(x, ws[s])));
		const scales = data.sources.map((src, s) =>
			stripScale(binned.flatMap(b => Array.from(b[s][unit.field])), sec(s)));
		lanes.forEach((l, li) => {
			const { ctx, w, h } = fit(l.canvas);
			const stripH = (h - 2) / shown.length;
			drawGrid(ctx, w, h, tickTimes);
			shown.forEach((s, k) => {
				const b = binned[li][s], y0 = 1 + k * stripH, base = y0 + stripH;
				const plotH = stripH - 2;
				b[unit.field].forEach((v, i) => {
					if (!v)
						return;
					const [x, bw] = binColumns(b.k0 + i, ws[s], w);
					const f = v / sec(s) / scales[s].top;
					const bh = Math.max(1, Math.min(1, f) * plotH);
					ctx.fillStyle = colors[s];
					ctx.fillRect(x, base - bh, bw, bh);
					if (f > 1) {	/* clipped: a black cap on it */
						ctx.fillStyle = '#000';
						ctx.fillRect(x, base - bh, Math.max(bw, 2), 2);
					}
				});
				ctx.fillStyle = 'rgba(0, 0, 0, .08)';
				ctx.fillRect(0, Math.round(base) - 1, w, 1);
				drawStripScale(ctx, w, Math.round(y0), s, scaleText(s, scales[s]));
			});
			l.canvas.setAttribute('aria-label', l.label + ': ' +
					      shown.map(s => scaleText(s, scales[s])).join('; '));
		});
		timeline.dataset.scale = JSON.stringify(scales.map(x => x.top));
	}
	/*
	 * Every source stacked in one histogram per lane, in bins of one width, on one scale for
	 * every lane: where the data came from at a glance, while a burst may dwarf the rest.
	 */
	function drawStacked(tickTimes, ws) {
		const bw = ws[0], sec = bw / 1e9;
		const binned = lanes.map(l => shown.map(s => rebin(l.series[s], bw)));
		const sums = binned.map(b => rebin(null, bw)[unit.field].map((_, i) =>
			b.reduce((a, x) => a + x[unit.field][i], 0)));
		const scale = stripScale(sums.flatMap(r => Array.from(r)), sec);
		const text = 'all sources, stacked · 0 – ' + fmtRate(scale.top, unit.suffix) +
			(scale.clipped ? ' · taller bins clipped ▴' : '');
		lanes.forEach((l, li) => {
			const { ctx, w, h } = fit(l.canvas);
			const base = h - 1, plotH = h - 16;	/* room for the scale's label */
			const y = v => base - Math.min(1, v / sec / scale.top) * plotH;
			drawGrid(ctx, w, h, tickTimes);
			sums[li].forEach((sum, i) => {
				if (!sum)
					return;
				const [x, cw] = binColumns(binned[li][0].k0 + i, bw, w);
				let below = 0;
				shown.forEach((s, k) => {
					const v = binned[li][k][unit.field][i];

					if (!v)
						return;
					ctx.fillStyle = colors[s];
					ctx.fillRect(x, y(below + v), cw, Math.max(1, y(below) - y(below + v)));
					below += v;
				});
				if (sum / sec > scale.top) {	/* clipped: a black cap on it */
					ctx.fillStyle = '#000';
					ctx.fillRect(x, y(sum), Math.max(cw, 2), 2);
				}
			});
			drawStripScale(ctx, w, 1, -1, text);
			l.canvas.setAttribute('aria-label', l.label + ': ' + text);
		});
		timeline.dataset.scale = JSON.stringify([scale.top]);
	}
	function heatColor(v, max) {
		const f = Math.max(0, Math.min(1, 1 + Math.log10(v / max) / 3));	/* 3 decades */
		const p = f * (VIRIDIS.length - 1), i = Math.min(VIRIDIS.length - 2, Math.floor(p));
		const c = VIRIDIS[i].map((a, k) => Math.round(a + (VIRIDIS[i + 1][k] - a) * (p - i)));
		return 'rgb(' + c.join(',') + ')';
	}
	function drawHeat(tickTimes, ws) {
		const bw = ws[0];
		const { ctx, w, h } = fit(heatPlot);
		const totals = lanes.map(l => {
			const row = rebin(null, bw)[unit.field];
			l.series.forEach(x => rebin(x, bw)[unit.field].forEach((v, i) => { row[i] += v; }));
			return row.map(v => v / (bw / 1e9));
		});
		const k0 = Math.floor((view.t0 - data.bin0) / bw);
		const max = Math.max(0, ...totals.map(r => Math.max(0, ...r)));
		drawGrid(ctx, w, h, tickTimes);
		totals.forEach((row, li) => row.forEach((v, k) => {
			if (!v)
				return;
			const [x, cw] = binColumns(k0 + k, bw, w);
			ctx.fillStyle = heatColor(v, max);
			ctx.fillRect(x, li * rowH, cw, rowH);
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
		const ws = widths();
		timeline.dataset.viewStart = Math.round(view.t0);
		timeline.dataset.viewEnd = Math.round(view.t1);
		timeline.dataset.binNs = ws.join(',');
		const tickTimes = drawAxis();
		timeline.dataset.layout = heatMode ? 'heatmap' : stacked ? 'stacked' : 'strips';
		if (heatMode)
			drawHeat(tickTimes, ws);
		else if (stacked)
			drawStacked(tickTimes, ws);
		else
			drawLanes(tickTimes, ws);
		placeMarks();
		const note = document.getElementById('view-note');
		const zoomed = view.t0 > full.t0 || view.t1 < full.t1;
		const drawn = [...new Set(shown.map(s => ws[s]))].sort((a, b) => a - b);
		note.textContent = (zoomed ? 'Showing ' + fmtTime(view.t0, view.t1 - view.t0, view.t1) +
			' – ' + fmtTime(view.t1, view.t1 - view.t0, view.t1) + '. ' : '') +
			'Drag to zoom, double-click to reset. Bins: ' +
			drawn.map(w => fmtTime(w, w, w)).join(', ') + '.' +
			(heatMode ? '' : stacked ? ' Every source stacked on one scale, the same for every lane.' :
			 ' Each source on its own scale, the same for every lane.');
	}

	/* Hover: the bins under the pointer with their numbers; drag: zoom; double-click: reset. */
	function laneAt(y) {
		if (heatMode)
			return Math.floor(y / rowH);
		return laneEls.findIndex(e => y >= e.offsetTop && y < e.offsetTop + e.offsetHeight);
	}
	function showTooltip(ev) {
		const r = overlay.getBoundingClientRect();
		const x = ev.clientX - r.left, y = ev.clientY - r.top;
		const li = laneAt(y), t = T(x, r.width);
		if (x < 0 || li < 0 || li >= lanes.length || t < data.bin0 ||
		    t >= data.bin0 + data.nbins * data.binNs) {
			tooltip.hidden = true;
			return;
		}
		const l = lanes[li], ws = widths();
		/* the bin of each source drawn under the pointer, at the width it is drawn at */
		const at = shown.map(k => {
			const k0 = Math.floor((t - data.bin0) / ws[k]), t0 = data.bin0 + k0 * ws[k];
			const b = rebin(l.series[k], ws[k]), i = k0 - b.k0;
			return { k, t0, w: ws[k], bytes: b.bytes[i] || 0, recs: b.recs[i] || 0 };
		});
		const widest = at.reduce((a, b) => b.w > a.w ? b : a);
		const mixed = at.some(a => a.w !== widest.w);
		let html = '<div class="tt-head"></div><table>';
		let rows = 0, total = 0;
		at.forEach(a => {
			const s = data.sources[a.k];
			if (!a.bytes && !a.recs)
				return;
			rows++;
			total += a.bytes;
			html += '<tr data-source="' + s.key + '"><td><span class="swatch src-' + s.key +
				'"></span></td><td>' + s.name + '</td><td class="num">' + fmtInt(a.bytes) +
				' B</td><td class="num">' + plural(a.recs, s.unit) + '</td><td class="num">' +
				fmtRate(a.bytes / (a.w / 1e9), 'B/s') + '</td>' +
				(mixed ? '<td class="num muted">' + fmtSpan(a.t0, a.w) + '</td>' : '') + '</tr>';
		});
		html += rows ? '' : '<tr><td colspan="5" class="muted">no data in this bin</td></tr>';
		html += '</table>';
		lossesOf[li].filter(loss => loss.t >= widest.t0 && loss.t < widest.t0 + widest.w)
			.forEach(loss => {
				const k = data.lossKinds[loss.kind];
				html += '<div class="tt-loss"><span class="loss-shape kind-' + k.key +
					'"></span> ' + k.name + ': ' + plural(loss.count, k.unit) + ' (' +
					plural(loss.reports, 'reports') + ')</div>';
			});
		tooltip.innerHTML = html;
		tooltip.querySelector('.tt-head').textContent = l.label + ' · ' +
			fmtSpan(widest.t0, widest.w) + (rows > 1 ? ' · ' + fmtInt(total) + ' B in all' : '');
		Object.assign(tooltip.dataset, { [laneAttr]: l.id, binStart: widest.t0, binNs: widest.w });
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
	document.querySelectorAll('[data-layout]').forEach(b => b.addEventListener('click', () => {
		stacked = b.dataset.layout === 'stacked';
		document.querySelectorAll('[data-layout]').forEach(o =>
			o.setAttribute('aria-pressed', String(o === b)));
		render();
	}));
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
