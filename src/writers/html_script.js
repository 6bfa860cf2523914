// flamekit view: the page's script. The data is the JSON in #flamekit-data
// (src/writers/html.h describes it); everything is drawn on canvas, and
// every name reaches the page as text (textContent, fillText), never markup.
"use strict";
(function () {
	const D = JSON.parse(document.getElementById("flamekit-data").textContent);
	const ROW = 16, FONT = "12px monospace", MATCH = "rgb(230,0,230)";
	const names = D.names, F = names.length, unit = D.unit;

	// --- the prefix tree and the entries ---------------------------------------------
	const N = D.up.length + 1;
	const parent = new Int32Array(N), frame = new Int32Array(N), depth = new Int32Array(N);
	parent[0] = -1;
	frame[0] = -1;
	for (let i = 1; i < N; i++) {
		parent[i] = i - D.up[i - 1];
		frame[i] = D.fr[i - 1];
		depth[i] = depth[parent[i]] + 1;
	}
	// children, in order (the nodes are depth-first with children by name)
	const kidStart = new Int32Array(N + 1), kids = new Int32Array(Math.max(N - 1, 1));
	for (let i = 1; i < N; i++) kidStart[parent[i] + 1]++;
	for (let i = 0; i < N; i++) kidStart[i + 1] += kidStart[i];
	{
		const fill = kidStart.slice(0, N);
		for (let i = 1; i < N; i++) kids[fill[parent[i]]++] = i;
	}
	const E = D.nd.length, entryNode = new Int32Array(E);
	const sliceIds = [], sliceOff = [0];
	{
		let slice = 0, at = 0;
		for (let k = 0; k < D.sl.length; k += 2) {
			slice += D.sl[k];
			sliceIds.push(slice);
			let node = 0;
			for (let j = 0; j < D.sl[k + 1]; j++, at++) entryNode[at] = node += D.nd[at];
			sliceOff.push(at);
		}
	}
	const timed = D.slice_ms > 0 && sliceIds.length > 0;
	const colors = new Array(F);
	for (let f = 0; f < F; f++) colors[f] = "#" + D.colors.substr(6 * f, 6);
	const frameName = (node) => (node === 0 ? "all" : names[frame[node]]);

	// --- state (and the URL fragment that keeps it) ---------------------------------
	const state = {
		zoom: 0, search: "", icicle: false, view: "graph", func: -1,
		range: null, range2: null, sort: "total", desc: true, filter: "", colorblind: !!D.colorblind,
		selected: -1, step: -1,
	};
	function readHash() {
		const h = new URLSearchParams(location.hash.slice(1));
		const range = (s) => {
			const m = /^(\d+)-(\d+)$/.exec(s || "");
			return m ? [Number(m[1]), Number(m[2])] : null;
		};
		const z = Number(h.get("z"));
		state.zoom = z > 0 && z < N ? z : 0;
		state.search = h.get("q") || "";
		state.icicle = h.get("i") === "1";
		state.view = ["graph", "table", "sandwich"].includes(h.get("v")) ? h.get("v") : "graph";
		const f = Number(h.get("f"));
		state.func = h.has("f") && f >= 0 && f < F ? f : -1;
		if (state.view === "sandwich" && state.func < 0) state.view = "graph";
		state.range = range(h.get("r"));
		state.range2 = state.range && range(h.get("r2"));
		if (h.get("s")) state.sort = h.get("s");
		state.desc = h.get("a") !== "1";
		state.filter = h.get("t") || "";
		if (h.get("cb")) state.colorblind = h.get("cb") === "1";
	}
	function writeHash() {
		const h = new URLSearchParams();
		if (state.zoom) h.set("z", state.zoom);
		if (state.search) h.set("q", state.search);
		if (state.icicle) h.set("i", "1");
		if (state.view !== "graph") h.set("v", state.view);
		if (state.func >= 0) h.set("f", state.func);
		if (state.range) h.set("r", state.range.join("-"));
		if (state.range2) h.set("r2", state.range2.join("-"));
		if (state.sort !== "total") h.set("s", state.sort);
		if (!state.desc) h.set("a", "1");
		if (state.filter) h.set("t", state.filter);
		if (state.colorblind !== !!D.colorblind) h.set("cb", state.colorblind ? "1" : "0");
		const s = h.toString();
		history.replaceState(null, "", s ? "#" + s : location.pathname + location.search);
	}

	// --- values of a selection ---------------------------------------------------------
	// The entries of slices lo..hi (all when range is null) of column col, summed up
	// the tree: total[node] and self[node].
	function sliceIndex(slice) { // the first slice id >= slice
		let lo = 0, hi = sliceIds.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (sliceIds[mid] < slice) lo = mid + 1; else hi = mid;
		}
		return lo;
	}
	function valuesOf(range, col) {
		const c = col === 2 ? D.c2 : D.c;
		const self = new Float64Array(N);
		const from = range ? sliceOff[sliceIndex(range[0])] : 0;
		const to = range ? sliceOff[sliceIndex(range[1] + 1)] : E;
		for (let k = from; k < to; k++) self[entryNode[k]] += c[k];
		const total = self.slice();
		for (let i = N - 1; i > 0; i--) total[parent[i]] += total[i];
		return { self, total };
	}

	// The graph's tree: the prefix tree with widths (and, for a difference, the two sides).
	let G = null, heatDirty = true;
	function computeGraph() {
		const main = { n: N, parent, frame, depth, kidStart, kids };
		if (D.columns === 2 || state.range2) {
			const a = D.columns === 2 ? valuesOf(state.range, 1) : valuesOf(state.range, 1);
			const b = D.columns === 2 ? valuesOf(state.range, 2) : valuesOf(state.range2, 1);
			const at = a.total[0] || 1, bt = b.total[0] || 1;
			const width = new Float64Array(N), self = new Float64Array(N);
			for (let i = 0; i < N; i++) {
				width[i] = a.total[i] / at + b.total[i] / bt;
				self[i] = a.self[i] / at + b.self[i] / bt;
			}
			G = Object.assign(main, { width, self, a: a.total, b: b.total, aSelf: a.self, bSelf: b.self, at, bt, diff: true });
		} else {
			const v = valuesOf(state.range, 1);
			G = Object.assign(main, { width: v.total, self: v.self, diff: false });
		}
		if (G.width[state.zoom] <= 0) state.zoom = 0;
		stats = null;  // of the old values
		heatDirty = true;
	}

	// --- elements --------------------------------------------------------------------------
	function el(tag, props, parentEl) {
		const e = document.createElement(tag);
		if (props) Object.assign(e, props);
		if (parentEl) parentEl.appendChild(e);
		return e;
	}
	const header = el("header", null, document.body);
	el("h1", { textContent: D.title || (D.columns === 2 ? "Differential Flame Graph" : "Flame Graph") }, header);
	const info = el("span", { className: "legend" }, header);
	if (D.note) el("span", { className: "note", textContent: D.note }, header);
	const bar = el("div", { id: "bar" }, document.body);
	const button = (text, title, onclick) => el("button", { textContent: text, title, onclick }, bar);
	const graphButton = button("Flame graph", "the flame graph (g)", () => setView("graph"));
	const tableButton = button("Table", "self and total per function (t)", () => setView("table"));
	const icicleButton = button("Icicle", "root at the top (i)", () => { state.icicle = !state.icicle; update(); });
	button("Reset zoom", "back to the whole graph (Escape)", () => zoomTo(0));
	const clearButton = button("Clear range", "the whole timeline again", () => {
		state.range = state.range2 = null; state.zoom = 0; computeGraph(); update();
	});
	const cbButton = button("Colour-blind", "orange and blue for the difference (c)", () => {
		state.colorblind = !state.colorblind; update();
	});
	const searchBox = el("input", { id: "search", type: "search", placeholder: "search (regex, /)" }, bar);
	el("button", { textContent: "\u25b2", title: "previous match (N)", onclick: () => step(-1) }, bar);
	el("button", { textContent: "\u25bc", title: "next match (n)", onclick: () => step(1) }, bar);
	const matchedEl = el("span", { id: "matched" }, bar);
	const heatWrap = el("div", { id: "heat-wrap" }, document.body);
	const heat = el("canvas", { id: "heat" }, heatWrap);
	const heatInfo = el("div", { className: "legend" }, heatWrap);
	const main = el("div", { id: "main" }, document.body);
	const views = el("div", { id: "views" }, main);
	const graphView = el("div", { id: "graph-view" }, views);
	const flame = el("canvas", { id: "flame", className: "graph" }, graphView);
	const tableView = el("div", { id: "table-view" }, views);
	const filterBox = el("input", { id: "filter", type: "search", placeholder: "filter functions" }, tableView);
	const table = el("table", null, tableView);
	const sandwichView = el("div", { id: "sandwich-view" }, views);
	const sandwichTitle = el("div", { className: "sandwich-title" }, sandwichView);
	el("div", { className: "legend", textContent: "callers (root below), then callees" }, sandwichView);
	const callersCanvas = el("canvas", { id: "callers", className: "graph" }, sandwichView);
	const calleesCanvas = el("canvas", { id: "callees", className: "graph" }, sandwichView);
	const results = el("aside", { id: "results" }, main);
	const details = el("div", { id: "details" }, document.body);
	if (!timed) heatWrap.hidden = true;
	if (!timed) clearButton.hidden = true;
	if (D.columns !== 2) cbButton.hidden = true;

	// --- colours -----------------------------------------------------------------------------
	// The difference's colours, by the rule of svg_colors.h (the SVG's, and
	// `flamekit diff -n --svg`'s colour for colour): a frame's colour is the
	// change of its self time, after minus before scaled to after's total as
	// difffolded -n scales it, against the largest change (at least 1); a
	// frame with no self time is white however its total changed.
	function selfDelta(T, node) {
		const a = T.aSelf[node], scaled = T.at !== T.bt ? Math.trunc(a * T.bt / T.at) : a;
		return T.bSelf[node] - scaled;
	}
	// flamegraph.pl's differential colours (svg_colors.c svg_color__difference)
	function diffColor(delta, max) {
		let r = 255, g = 255, b = 255;
		if (state.colorblind) {
			if (delta > 0) { g = 255 - Math.trunc(100 * delta / max); b = Math.trunc(255 * (max - delta) / max); }
			else if (delta < 0) { r = Math.trunc(255 * (max + delta) / max); g = 255 - Math.trunc(135 * -delta / max); }
		} else if (delta > 0) {
			g = b = Math.trunc(210 * (max - delta) / max);
		} else if (delta < 0) {
			r = g = Math.trunc(210 * (max + delta) / max);
		}
		return `rgb(${r},${g},${b})`;
	}
	let matchedFrames = null;  // Uint8Array per frame, or null without a search
	function searchRegex() {
		if (!state.search) return null;
		try { return new RegExp(state.search); } catch (e) {
			return new RegExp(state.search.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
		}
	}
	function computeMatches() {
		const re = searchRegex();
		matchedFrames = null;
		if (!re) return;
		matchedFrames = new Uint8Array(F);
		for (let f = 0; f < F; f++) matchedFrames[f] = re.test(names[f]) ? 1 : 0;
	}

	// --- drawing a tree -------------------------------------------------------------------
	// A drawing: the rectangles on a canvas, per row, for hit-testing.
	function layout(T, zoom, width) {
		const scale = width / (T.width[zoom] || 1);
		const rects = []; // [x, w, row, node]
		const path = [];
		for (let a = zoom; a > 0; a = T.parent[a]) path.push(a);
		path.push(0);
		path.reverse();
		for (let d = 0; d < path.length - 1; d++) rects.push([0, width, d, path[d]]);
		const stack = [zoom, 0, path.length - 1];
		while (stack.length) {
			const row = stack.pop(), x = stack.pop(), node = stack.pop();
			const w = T.width[node] * scale;
			rects.push([x, w, row, node]);
			let cx = x;
			for (let k = T.kidStart[node]; k < T.kidStart[node + 1]; k++) {
				const kid = T.kids[k], kw = T.width[kid] * scale;
				if (kw >= 0.3) stack.push(kid, cx, row + 1);
				cx += kw;
			}
		}
		let rows = 0;
		for (const r of rects) rows = Math.max(rows, r[2] + 1);
		return { T, zoom, rects, rows, ancestors: path.length - 1 };
	}
	function nodeColor(T, node) {
		if (node === 0) return "rgb(250,200,100)";
		if (matchedFrames && matchedFrames[T.frame[node]]) return MATCH;
		if (T.diff) return diffColor(selfDelta(T, node), T.maxDelta);
		return colors[T.frame[node]];
	}
	// Black or white, whichever stands out more on a fill "rgb(r,g,b)" or
	// "#rrggbb" (WCAG's contrast of relative luminances): white on the
	// deepest blues of a difference, black on the rest.
	const labelColors = new Map();
	function labelColor(fill) {
		let c = labelColors.get(fill);
		if (c) return c;
		const v = fill[0] === "#" ? [1, 3, 5].map((i) => parseInt(fill.substr(i, 2), 16))
			: fill.slice(4, -1).split(",").map(Number);
		const [r, g, b] = v.map((x) => { x /= 255; return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
		const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
		c = (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) ? "#000" : "#fff";
		labelColors.set(fill, c);
		return c;
	}
	let charWidth = 7.2;
	function paint(canvas, L, inverted, selected) {
		const width = canvas.clientWidth || canvas.parentNode.clientWidth || 1200;
		const height = Math.max(L.rows, 1) * ROW + 4, dpr = window.devicePixelRatio || 1;
		canvas.width = Math.round(width * dpr);
		canvas.height = Math.round(height * dpr);
		canvas.style.height = height + "px";
		const ctx = canvas.getContext("2d");
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.font = FONT;
		charWidth = ctx.measureText("MMMMMMMMMM").width / 10;
		ctx.textBaseline = "middle";
		L.inverted = inverted;
		L.height = height;
		for (const [x, w, row, node] of L.rects) {
			const y = inverted ? 2 + row * ROW : height - 2 - (row + 1) * ROW;
			ctx.globalAlpha = row < L.ancestors ? 0.5 : 1;
			const fill = nodeColor(L.T, node);
			ctx.fillStyle = fill;
			ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
			if (L.T.diff && node && L.T.b[node] === 0) {  // vanished in AFTER: hatched
				ctx.strokeStyle = "rgba(0,0,0,0.6)";
				ctx.lineWidth = 1;
				ctx.beginPath();
				for (let hx = x - ROW; hx < x + w; hx += 6) {
					ctx.moveTo(Math.max(hx, x), y + ROW - 1 - (Math.max(hx, x) - hx));
					ctx.lineTo(Math.min(hx + ROW - 1, x + w), y + ROW - 1 - (Math.min(hx + ROW - 1, x + w) - hx));
				}
				ctx.stroke();
			}
			ctx.globalAlpha = 1;
			const chars = Math.floor((w - 6) / charWidth);
			if (chars >= 3) {
				let label = node === 0 ? "all" : names[L.T.frame[node]];
				if (L.T.diff && node && L.T.b[node] === 0) label += " (vanished)";
				else if (L.T.diff && node && L.T.a[node] === 0) label += " (new)";
				if (label.length > chars) label = label.slice(0, chars - 2) + "..";
				ctx.fillStyle = row < L.ancestors ? "#000" : labelColor(fill);  // (ancestors: half-faded)
				ctx.fillText(label, x + 3, y + ROW / 2);
			}
			if (node === selected && row >= L.ancestors) {
				ctx.strokeStyle = "#000";
				ctx.lineWidth = 2;
				ctx.strokeRect(x + 1, y + 1, Math.max(w - 2.5, 1), ROW - 3);
			}
		}
		canvas.flamekitLayout = L;
	}
	// The rectangle drawn at (x, y) of a canvas (CSS pixels), or null.
	function hitAt(canvas, x, y) {
		const L = canvas.flamekitLayout;
		if (!L) return null;
		const row = L.inverted ? Math.floor((y - 2) / ROW) : Math.floor((L.height - 2 - y) / ROW);
		let best = null;
		for (const r of L.rects)
			if (r[2] === row && x >= r[0] && x < r[0] + r[1]) best = r;
		if (!best) return null;
		const [rx, rw, rrow, node] = best;
		return { node, x: rx, w: rw, row: rrow, y: L.inverted ? 2 + rrow * ROW : L.height - 2 - (rrow + 1) * ROW, layout: L };
	}

	// --- the flame graph -----------------------------------------------------------------
	const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
	const pct = (v, t) => (t > 0 ? (100 * v / t).toFixed(2) : "0.00") + "%";
	function describe(T, node) {
		const name = node === 0 ? "all" : names[T.frame[node]];
		if (T.diff) {
			const a = T.a[node], b = T.b[node];
			const change = 100 * (b / T.bt - a / T.at);
			let text = `Function: ${name} (${D.before || "before"} ${fmt(a)} ${unit}, ${pct(a, T.a[0])}; ` +
				`${D.after || "after"} ${fmt(b)} ${unit}, ${pct(b, T.b[0])}; ${change >= 0 ? "+" : ""}${change.toFixed(2)}%)`;
			if (node && b === 0) text += " vanished in after";
			else if (node && a === 0) text += " new in after";
			return text;
		}
		return `Function: ${name} (${fmt(T.width[node])} ${unit}, ${pct(T.width[node], T.width[0])})`;
	}
	function drawGraph() {
		if (G.diff) {
			let max = 1;
			for (let i = 1; i < N; i++) max = Math.max(max, Math.abs(selfDelta(G, i)));
			G.maxDelta = max;
		}
		const L = layout(G, state.zoom, flame.clientWidth || graphView.clientWidth || 1200);
		paint(flame, L, state.icicle, state.selected);
		drawMatched();
	}
	// The share of the zoomed frame's samples in stacks with a matching frame.
	function drawMatched() {
		if (!matchedFrames) { matchedEl.textContent = ""; return; }
		const z = state.zoom, total = G.width[z];
		let matched = 0, onPath = false;
		for (let a = z; a > 0; a = parent[a]) if (matchedFrames[frame[a]]) onPath = true;
		if (onPath) matched = total;
		else {
			const stack = [z];
			while (stack.length) {
				const node = stack.pop();
				if (node && matchedFrames[frame[node]]) { matched += G.width[node]; continue; }
				for (let k = kidStart[node]; k < kidStart[node + 1]; k++) stack.push(kids[k]);
			}
		}
		const share = total > 0 ? (100 * matched) / total : 0;
		matchedEl.textContent = "Matched: " + (share === 100 ? "100" : share.toFixed(1)) + "%";
	}
	function zoomTo(node) {
		state.zoom = node;
		state.selected = -1;
		update();
	}
	function setView(view) {
		state.view = view;
		update();
	}

	// --- functions: self and total -------------------------------------------------
	// Per frame: self, and total counting each stack once however often the
	// function recurses in it.
	function functionStats() {
		const self = new Float64Array(F), total = new Float64Array(F), onPath = new Int32Array(F);
		const w = G.width, s = G.self;
		const stack = [0];
		while (stack.length) {
			const node = stack.pop();
			if (node < 0) { onPath[frame[~node]]--; continue; }
			if (node) {
				const f = frame[node];
				self[f] += s[node];
				if (onPath[f] === 0) total[f] += w[node];
				onPath[f]++;
				stack.push(~node);
			}
			for (let k = kidStart[node]; k < kidStart[node + 1]; k++) stack.push(kids[k]);
		}
		return { self, total, all: w[0] };
	}
	let stats = null;
	function drawResults() {
		results.textContent = "";
		results.hidden = !matchedFrames;
		if (!matchedFrames) return;
		const list = [];
		for (let f = 0; f < F; f++) if (matchedFrames[f] && stats.total[f] > 0) list.push(f);
		list.sort((x, y) => stats.total[y] - stats.total[x] || stats.self[y] - stats.self[x]);
		el("div", { className: "legend", textContent: `${list.length} matching functions (total, self)` }, results);
		const ol = el("ol", null, results);
		list.slice(0, 500).forEach((f, i) => {
			const li = el("li", {
				textContent: `${names[f]} \u2014 ${pct(stats.total[f], stats.all)}, ${pct(stats.self[f], stats.all)}`,
				title: names[f],
				onclick: () => openSandwich(f),
			}, ol);
			if (i === state.step) li.className = "current";
		});
		results.matches = list;
	}
	// Steps to the next (dir 1) or previous matching frame in the graph,
	// left to right, bottom up, and shows it.
	function step(dir) {
		if (!matchedFrames) return;
		const L = flame.flamekitLayout, shown = L.rects.filter((r) => r[3] && r[2] >= L.ancestors && matchedFrames[frame[r[3]]]);
		if (!shown.length) return;
		shown.sort((p, q) => p[2] - q[2] || p[0] - q[0]);
		let at = shown.findIndex((r) => r[3] === state.selected);
		at = at < 0 ? (dir > 0 ? 0 : shown.length - 1) : (at + dir + shown.length) % shown.length;
		state.selected = shown[at][3];
		drawGraph();
		details.textContent = `match ${at + 1} of ${shown.length}: ` + describe(G, state.selected);
	}

	// --- the table -------------------------------------------------------------------------
	const columns = [["name", "Function"], ["self", "Self"], ["selfp", "Self %"], ["total", "Total"], ["totalp", "Total %"]];
	function drawTable() {
		table.textContent = "";
		const head = el("tr", null, el("thead", null, table));
		for (const [key, label] of columns) {
			const th = el("th", { textContent: label + (state.sort === key ? (state.desc ? " \u25bc" : " \u25b2") : ""), className: key === "name" ? "name" : "" }, head);
			th.dataset.key = key;
			th.onclick = () => {
				if (state.sort === key) state.desc = !state.desc;
				else { state.sort = key; state.desc = key !== "name"; }
				drawTable();
				writeHash();
			};
		}
		const filter = state.filter.toLowerCase();
		let rows = [];
		for (let f = 0; f < F; f++)
			if ((stats.total[f] > 0 || stats.self[f] > 0) && (!filter || names[f].toLowerCase().includes(filter))) rows.push(f);
		const key = state.sort === "name" ? null : state.sort.startsWith("self") ? stats.self : stats.total;
		const sign = state.desc ? -1 : 1;
		if (key) {
			const idx = Int32Array.from(rows);
			idx.sort((x, y) => sign * (key[x] - key[y]) || x - y);
			rows = idx;
		} else {
			rows.sort((x, y) => sign * (names[x] < names[y] ? -1 : names[x] > names[y] ? 1 : 0));
		}
		const body = el("tbody", null, table);
		const frag = document.createDocumentFragment();
		let selfSum = 0;
		for (const f of rows) selfSum += stats.self[f];
		const shown = Math.min(rows.length, 300);
		for (let i = 0; i < shown; i++) {
			const f = rows[i], tr = el("tr", null, frag);
			el("td", { className: "name", textContent: names[f], title: names[f] }, tr);
			el("td", { textContent: fmt(stats.self[f]) }, tr);
			el("td", { textContent: pct(stats.self[f], stats.all) }, tr);
			el("td", { textContent: fmt(stats.total[f]) }, tr);
			el("td", { textContent: pct(stats.total[f], stats.all) }, tr);
			tr.onclick = () => openSandwich(f);
		}
		body.appendChild(frag);
		const foot = el("tr", null, el("tfoot", null, table));
		el("td", { className: "name", textContent: `${rows.length} functions${rows.length > shown ? `, first ${shown} shown` : ""}; self sums to` }, foot);
		el("td", { id: "self-sum", textContent: fmt(selfSum) }, foot);
		el("td", { textContent: pct(selfSum, stats.all) }, foot);
		el("td", { textContent: "of " + fmt(stats.all) + " " + unit }, foot);
		el("td", null, foot);
	}
	filterBox.addEventListener("input", () => { state.filter = filterBox.value; drawTable(); writeHash(); });

	// --- the sandwich ------------------------------------------------------------------------
	// Two trees rooted at function f: its callers (each path from the root to
	// an outermost f, reversed) and its callees (the subtrees of those f merged).
	function newTree() {
		return { parent: [-1], frame: [-1], width: [0], index: new Map() };
	}
	function child(T, node, f) {
		const key = node * F + f;
		let c = T.index.get(key);
		if (c === undefined) {
			c = T.parent.length;
			T.parent.push(node); T.frame.push(f); T.width.push(0);
			T.index.set(key, c);
		}
		return c;
	}
	function finishTree(T, f) {
		const n = T.parent.length;
		const order = Array.from({ length: n - 1 }, (_, i) => i + 1);
		order.sort((x, y) => T.parent[x] - T.parent[y] || (names[T.frame[x]] < names[T.frame[y]] ? -1 : 1));
		const kidStartT = new Int32Array(n + 1);
		for (const c of order) kidStartT[T.parent[c] + 1]++;
		for (let i = 0; i < n; i++) kidStartT[i + 1] += kidStartT[i];
		const fill = kidStartT.slice(0, n), kidsT = new Int32Array(Math.max(n - 1, 1));
		for (const c of order) kidsT[fill[T.parent[c]]++] = c;
		const frameT = Int32Array.from(T.frame);
		frameT[0] = f;
		return { n, parent: Int32Array.from(T.parent), frame: frameT, width: Float64Array.from(T.width), kidStart: kidStartT, kids: kidsT, diff: false, isRootFrame: true };
	}
	function sandwichTrees(f) {
		const callers = newTree(), callees = newTree();
		const onPath = new Int32Array(F);
		const stack = [0];
		while (stack.length) {
			const node = stack.pop();
			if (node < 0) { onPath[frame[~node]]--; continue; }
			if (node) {
				if (frame[node] === f && onPath[f] === 0 && G.width[node] > 0) {
					const w = G.width[node];
					callers.width[0] += w;
					let c = 0;
					for (let a = parent[node]; a > 0; a = parent[a]) { c = child(callers, c, frame[a]); callers.width[c] += w; }
					callees.width[0] += w;
					const pairs = [node, 0];
					while (pairs.length) {
						const to = pairs.pop(), from = pairs.pop();
						for (let k = kidStart[from]; k < kidStart[from + 1]; k++) {
							const kid = kids[k];
							if (G.width[kid] <= 0) continue;
							const c2 = child(callees, to, frame[kid]);
							callees.width[c2] += G.width[kid];
							pairs.push(kid, c2);
						}
					}
				}
				onPath[frame[node]]++;
				stack.push(~node);
			}
			for (let k = kidStart[node]; k < kidStart[node + 1]; k++) stack.push(kids[k]);
		}
		return { callers: finishTree(callers, f), callees: finishTree(callees, f) };
	}
	let sandwich = null;
	function openSandwich(f) {
		state.func = f;
		state.view = "sandwich";
		update();
	}
	function drawSandwich() {
		const f = state.func;
		sandwich = sandwichTrees(f);
		sandwichTitle.textContent = `${names[f]}: total ${fmt(sandwich.callees.width[0])} ${unit} (${pct(sandwich.callees.width[0], G.width[0])})`;
		const width = sandwichView.clientWidth || 1200;
		
		paint(callersCanvas, layout(sandwich.callers, 0, width), false, -1);
		paint(calleesCanvas, layout(sandwich.callees, 0, width), true, -1);
	}
	const treeName = (T, node) => (T.isRootFrame || node ? names[T.frame[node]] : "all");
	function describeSandwich(T, node) {
		return `Function: ${treeName(T, node)} (${fmt(T.width[node])} ${unit}, ${pct(T.width[node], G.width[0])})`;
	}

	// --- the heat map --------------------------------------------------------------------
	const perSecond = timed ? Math.max(1, Math.round(1000 / D.slice_ms)) : 1;
	const lastSlice = timed ? sliceIds[sliceIds.length - 1] : 0;
	const seconds = Math.floor(lastSlice / perSecond) + 1;
	let cellW = 1, cellH = 1, heatCounts = null, heatMax = 1;
	function computeHeat() {
		heatCounts = new Float64Array(lastSlice + 1);
		const c = D.columns === 2 ? D.c2 : D.c;
		for (let k = 0; k < sliceIds.length; k++) {
			let sum = 0;
			for (let j = sliceOff[k]; j < sliceOff[k + 1]; j++) sum += c[j];
			heatCounts[sliceIds[k]] = sum;
			heatMax = Math.max(heatMax, sum);
		}
	}
	function heatColor(v) {
		if (!v) return "rgb(245,245,245)";
		const t = Math.sqrt(v / heatMax);
		return `rgb(255,${Math.round(230 * (1 - t))},${Math.round(200 * (1 - t) * (1 - t))})`;
	}
	const inRange = (s, r) => r && s >= r[0] && s <= r[1];
	function drawHeat() {
		const avail = (document.body.clientWidth || 1200) - 60;
		cellW = Math.max(1, Math.min(20, Math.floor(avail / seconds)));
		cellH = Math.max(2, Math.min(8, Math.floor(200 / perSecond)));
		const width = 30 + seconds * cellW, height = perSecond * cellH + 14;
		const dpr = window.devicePixelRatio || 1;
		heat.width = Math.round(width * dpr);
		heat.height = Math.round(height * dpr);
		heat.style.width = width + "px";
		heat.style.height = height + "px";
		const ctx = heat.getContext("2d");
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		for (let s = 0; s <= lastSlice; s++) {
			const x = 30 + Math.floor(s / perSecond) * cellW, y = (s % perSecond) * cellH;
			ctx.fillStyle = heatColor(heatCounts[s]);
			ctx.fillRect(x, y, cellW, cellH);
			if (inRange(s, state.range) || inRange(s, state.range2)) {
				ctx.fillStyle = inRange(s, state.range) ? "rgba(0,90,255,0.45)" : "rgba(0,170,60,0.45)";
				ctx.fillRect(x, y, cellW, cellH);
			}
		}
		ctx.fillStyle = "#444";
		ctx.font = "10px sans-serif";
		ctx.textBaseline = "top";
		const every = Math.max(1, Math.ceil(40 / cellW));
		for (let sec = 0; sec < seconds; sec += every) ctx.fillText(String(sec), 30 + sec * cellW, perSecond * cellH + 2);
		ctx.fillText("ms", 2, 0);
		ctx.fillText(String(Math.round((perSecond - 1) * D.slice_ms)), 2, perSecond * cellH - 10);
		heatInfo.textContent = rangeText();
	}
	const sliceTime = (s) => (s * D.slice_ms / 1000).toFixed(3) + " s";
	function rangeText() {
		const r = (x) => `${sliceTime(x[0])} to ${sliceTime(x[1] + 1)}`;
		if (state.range2) return `difference: after ${r(state.range2)} against before ${r(state.range)}`;
		if (state.range) return `range ${r(state.range)}: ${fmt(G.width[0])} ${unit}`;
		return "drag to select a range; Shift+drag a second range for the difference";
	}
	function sliceAt(ev) {
		const rect = heat.getBoundingClientRect();
		const col = Math.floor((ev.clientX - rect.left - 30) / cellW), row = Math.floor((ev.clientY - rect.top) / cellH);
		if (col < 0 || col >= seconds || row < 0 || row >= perSecond) return -1;
		return col * perSecond + row;
	}
	let dragFrom = -1, dragShift = false;
	heat.addEventListener("mousedown", (ev) => {
		dragFrom = sliceAt(ev);
		dragShift = ev.shiftKey && !!state.range;
		ev.preventDefault();
	});
	heat.addEventListener("mousemove", (ev) => {
		const s = sliceAt(ev);
		if (s >= 0 && dragFrom < 0) details.textContent = `${sliceTime(s)}: ${fmt(heatCounts[s] || 0)} ${unit}`;
	});
	window.addEventListener("mouseup", (ev) => {
		if (dragFrom < 0) return;
		let to = sliceAt(ev);
		if (to < 0) to = dragFrom;
		const r = [Math.min(dragFrom, to), Math.max(dragFrom, to)];
		if (dragShift) state.range2 = r; else { state.range = r; state.range2 = null; }
		dragFrom = -1;
		state.zoom = 0;
		state.selected = -1;
		computeGraph();
		update();
	});

	// --- input ------------------------------------------------------------------------------
	function canvasPoint(canvas, ev) {
		const r = canvas.getBoundingClientRect();
		return hitAt(canvas, ev.clientX - r.left, ev.clientY - r.top);
	}
	flame.addEventListener("mousemove", (ev) => {
		const hit = canvasPoint(flame, ev);
		details.textContent = hit ? describe(G, hit.node) : "";
	});
	flame.addEventListener("click", (ev) => {
		const hit = canvasPoint(flame, ev);
		if (hit) zoomTo(hit.node);
	});
	for (const canvas of [callersCanvas, calleesCanvas]) {
		canvas.addEventListener("mousemove", (ev) => {
			const hit = canvasPoint(canvas, ev);
			details.textContent = hit ? describeSandwich(hit.layout.T, hit.node) : "";
		});
		canvas.addEventListener("click", (ev) => {
			const hit = canvasPoint(canvas, ev);
			if (hit && hit.node) openSandwich(hit.layout.T.frame[hit.node]);
		});
	}
	searchBox.addEventListener("input", () => {
		state.search = searchBox.value;
		state.step = -1;
		computeMatches();
		update();
	});
	// Keys: / search, Escape reset, i icicle, g graph, t table, c colour-blind,
	// n N matches, arrows move the selection (up: away from the root), Enter zooms.
	document.addEventListener("keydown", (ev) => {
		if (ev.target.tagName === "INPUT") {
			if (ev.key === "Escape") ev.target.blur();
			return;
		}
		if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
		const sel = state.selected >= 0 ? state.selected : state.zoom;
		let next = -1;
		switch (ev.key) {
		case "/": ev.preventDefault(); searchBox.focus(); return;
		case "Escape":
			if (state.view !== "graph") setView("graph"); else zoomTo(0);
			return;
		case "i": state.icicle = !state.icicle; update(); return;
		case "g": setView("graph"); return;
		case "t": setView("table"); return;
		case "c": state.colorblind = !state.colorblind; update(); return;
		case "n": step(1); return;
		case "N": step(-1); return;
		case "Enter": if (state.selected >= 0) zoomTo(state.selected); return;
		case "ArrowUp": case "ArrowDown": {
			const away = (ev.key === "ArrowUp") !== state.icicle;
			if (away) {
				let best = -1;
				for (let k = kidStart[sel]; k < kidStart[sel + 1]; k++)
					if (G.width[kids[k]] > 0 && (best < 0 || G.width[kids[k]] > G.width[best])) best = kids[k];
				next = best;
			} else next = sel > 0 ? parent[sel] : -1;
			break;
		}
		case "ArrowLeft": case "ArrowRight": {
			const L = flame.flamekitLayout, row = L.rects.find((r) => r[3] === sel);
			if (!row) return;
			const same = L.rects.filter((r) => r[2] === row[2]).sort((p, q) => p[0] - q[0]);
			const at = same.indexOf(row) + (ev.key === "ArrowRight" ? 1 : -1);
			next = at >= 0 && at < same.length ? same[at][3] : -1;
			break;
		}
		default: return;
		}
		ev.preventDefault();
		if (next < 0) return;
		state.selected = next;
		drawGraph();
		details.textContent = describe(G, next);
	});
	window.addEventListener("resize", () => { heatDirty = true; update(); });
	window.addEventListener("hashchange", () => { readHash(); computeGraph(); computeMatches(); update(); });

	// --- everything --------------------------------------------------------------------------
	function update() {
		graphView.hidden = state.view !== "graph";
		tableView.hidden = state.view !== "table";
		sandwichView.hidden = state.view !== "sandwich";
		results.hidden = !matchedFrames;  // before drawing: it takes width
		graphButton.setAttribute("aria-pressed", String(state.view === "graph"));
		tableButton.setAttribute("aria-pressed", String(state.view === "table"));
		icicleButton.setAttribute("aria-pressed", String(state.icicle));
		cbButton.setAttribute("aria-pressed", String(state.colorblind));
		if (searchBox.value !== state.search) searchBox.value = state.search;
		if (filterBox.value !== state.filter) filterBox.value = state.filter;
		// what only the values change is computed when they do: a zoom
		// redraws the graph alone
		if (!stats && (matchedFrames || state.view !== "graph")) stats = functionStats();
		if (state.view === "graph") drawGraph();
		else drawMatched();
		if (state.view === "table") drawTable();
		if (state.view === "sandwich") drawSandwich();
		drawResults();
		if (heatDirty) details.textContent = "";  // new values (a range): what it said is stale
		if (timed && heatDirty) drawHeat();
		heatDirty = false;
		info.textContent = `${fmt(G.diff ? G.b[0] : G.width[0])} ${unit}` + (G.diff ? ` after, ${fmt(G.a[0])} before; widths are the mean of the two shares; colours are the change of self time (before scaled to after's total): red grew, blue shrank, hatched vanished` : "");
		writeHash();
	}
	readHash();
	computeGraph();
	computeMatches();
	if (timed) computeHeat();
	update();
	// For tests and tools: what is drawn at a point of a canvas (CSS pixels
	// from its top left): the frame's name and rectangle, as a user sees it.
	window.flamekitHit = (id, x, y) => {
		const canvas = document.getElementById(id), hit = canvas && hitAt(canvas, x, y);
		if (!hit) return null;
		const T = hit.layout.T;
		return { name: T === G ? frameName(hit.node) : treeName(T, hit.node), x: hit.x, w: hit.w, y: hit.y, h: ROW - 1 };
	};
	document.body.dataset.ready = "1";
	performance.mark("flamekit-painted");
})();
