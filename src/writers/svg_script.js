// flamekit's flame graph script. The writer defines flamekit_config before
// this file (nametype, fontsize, fontwidth, xpad, frameheight, inverted,
// width, searchcolor). Frames are the children of #frames: g (or a, for
// --nameattr) elements holding a title "NAME (COUNT UNIT, P%...)", a rect
// and, where one fits, a text label.
//
// How it stays quick on a graph of a million frames:
// - nothing is read at load; the index (geometry and tree) is built on the
//   first click, search or key, from one querySelectorAll, into typed arrays;
//   hovering needs no index at all;
// - the frames in the file are never changed by a zoom: a zoom covers them
//   with a copy of the background (which also takes their mouse events) and
//   draws the zoomed view as copies in #zoomview on top. Hiding 200,000
//   elements one by one, or all at once by a style on #frames, costs the
//   browser seconds (it paints them all again); a cover costs one element,
//   and leaving the zoom restores the original view exactly because it was
//   never touched.
// Names are only ever read and written as text (textContent), never markup.
var flamekit = (function (config) {
	"use strict";

	var SVG_NS = "http://www.w3.org/2000/svg";
	// a zoom leaves out descendants narrower than this (flamegraph.pl's
	// default --minwidth): invisible, and a zoom need not copy them
	var MIN_WIDTH = 0.1;

	var el = {};          // details, matched, search, ignorecase, unzoom, frames, svg
	var ix = null;        // the index (buildIndex)
	var view = null;      // the zoomed view: { pos, cover, g, byPos: Map pos -> copy, posOfCopy }
	var term = null;      // the search's regular expression (source), or null
	var ignoreCase = false;
	var selected = -1;    // the keyboard's frame, or -1
	var restoring = false; // the view is being set from the URL: leave the URL alone

	function init() {
		var ids = ["details", "matched", "search", "ignorecase", "unzoom", "frames"];
		for (var i = 0; i < ids.length; i++)
			el[ids[i]] = document.getElementById(ids[i]);
		el.svg = document.documentElement;
		if (!el.frames)
			return;
		el.svg.addEventListener("mouseover", function (e) {
			var g = groupOf(e.target);
			if (g)
				el.details.textContent = config.nametype + " " + titleOf(g);
		});
		el.svg.addEventListener("mouseout", function (e) {
			if (groupOf(e.target))
				showDetails(selected);
		});
		el.svg.addEventListener("click", onClick);
		window.addEventListener("keydown", onKey);
		window.addEventListener("hashchange", function () {
			if (location.hash !== hashOfState())
				restoreState();
		});
		restoreState();
	}

	// --- frames in the document -------------------------------------------------

	function childByTag(node, tag) {
		for (var c = node.firstElementChild; c; c = c.nextElementSibling)
			if (c.localName === tag)
				return c;
		return null;
	}

	// The frame group (a child of #frames or of #zoomview) a node is in, or null.
	function groupOf(node) {
		for (; node && node.parentNode; node = node.parentNode) {
			var p = node.parentNode;
			if (p === el.frames || (view && p === view.g))
				return node;
		}
		return null;
	}

	function titleOf(g) {
		var title = childByTag(g, "title");
		return title ? title.textContent : "";
	}

	// "NAME (1,234 samples, 1.23%)" -> NAME; the last " (" starts the counts
	function nameOfTitle(info) {
		var open = info.lastIndexOf(" (");
		return open >= 0 ? info.substring(0, open) : info;
	}

	function samplesOfTitle(info) {
		var open = info.lastIndexOf(" (");
		var n = open >= 0 ? parseFloat(info.substring(open + 2).replace(/,/g, "")) : NaN;
		return isNaN(n) ? 0 : n;
	}

	// --- the index ----------------------------------------------------------------

	// Frames are numbered in the order of a depth-first walk, children left to
	// right ("pos"): sorted by x, then depth. A frame's subtree is then the
	// run pos .. end[pos]-1. The tree comes from the geometry alone: depth
	// from y, and a frame's parent is the last frame nearer the root before it
	// in that order (frames at one depth do not overlap, and a frame lies
	// within its parent). Frames narrower than the x attributes' 0.1 px
	// resolution (drawn only with --minwidth below 0.1) can tie on x; one may
	// then hang under a neighbour of its parent: drawn out of place in a deep
	// zoom, but no sample is counted twice.
	function buildIndex() {
		if (ix)
			return ix;
		var rects = el.frames.querySelectorAll(":scope > * > rect");
		var n = rects.length, i;
		var x0 = new Float64Array(n), y0 = new Float64Array(n), w0 = new Float64Array(n);
		for (i = 0; i < n; i++) {
			x0[i] = parseFloat(rects[i].getAttribute("x"));
			y0[i] = parseFloat(rects[i].getAttribute("y"));
			w0[i] = parseFloat(rects[i].getAttribute("width"));
		}
		// the root: the widest frame, the one nearest the base among equals
		var rootDom = 0;
		for (i = 1; i < n; i++)
			if (w0[i] > w0[rootDom] || (w0[i] === w0[rootDom] &&
			    (config.inverted ? y0[i] < y0[rootDom] : y0[i] > y0[rootDom])))
				rootDom = i;
		var rootY = n ? y0[rootDom] : 0;
		var d0 = new Int32Array(n);
		for (i = 0; i < n; i++)
			d0[i] = Math.round(Math.abs(y0[i] - rootY) / config.frameheight);
		var order = new Int32Array(n), sorted = true;
		for (i = 0; i < n; i++) {
			order[i] = i;
			if (i && (x0[i] < x0[i - 1] || (x0[i] === x0[i - 1] && d0[i] < d0[i - 1])))
				sorted = false;
		}
		if (!sorted)  // flamekit writes this order; other writers may not
			order.sort(function (a, b) { return x0[a] - x0[b] || d0[a] - d0[b] || a - b; });
		var t = {
			n: n, rects: rects, dom: order,
			x: new Float64Array(n), w: new Float64Array(n), y: new Float64Array(n),
			depth: new Int32Array(n), parent: new Int32Array(n), end: new Int32Array(n),
			root: -1,
			titles: [],                   // null until read (titleAt)
			samples: new Float64Array(n).fill(NaN),  // NaN until read
			fill: [],                     // original fills, kept when a search changes one
			matches: new Uint8Array(n)
		};
		for (i = 0; i < n; i++)
			t.titles.push(null);  // a packed array: new Array(n) would be a slow sparse one
		var stack = [];
		for (var p = 0; p < n; p++) {
			var d = order[p];
			t.x[p] = x0[d];
			t.w[p] = w0[d];
			t.y[p] = y0[d];
			t.depth[p] = d0[d];
			if (d === rootDom)
				t.root = p;
			while (stack.length && t.depth[stack[stack.length - 1]] >= t.depth[p])
				t.end[stack.pop()] = p;
			t.parent[p] = stack.length ? stack[stack.length - 1] : -1;
			stack.push(p);
		}
		while (stack.length)
			t.end[stack.pop()] = n;
		t.top = Infinity;
		t.bottom = -Infinity;
		for (i = 0; i < n; i++) {
			t.top = Math.min(t.top, y0[i]);
			t.bottom = Math.max(t.bottom, y0[i] + config.frameheight);
		}
		ix = t;
		return t;
	}

	function groupAt(p) {
		return ix.rects[ix.dom[p]].parentNode;
	}

	// A frame's title, name and samples, read from the document on first use.
	function titleAt(p) {
		var info = ix.titles[p];
		if (info === null)
			info = ix.titles[p] = titleOf(groupAt(p));
		return info;
	}

	function nameOf(p) {
		return nameOfTitle(titleAt(p));
	}

	function samplesOf(p) {
		var n = ix.samples[p];
		if (n !== n)  // NaN: not read yet
			n = ix.samples[p] = samplesOfTitle(titleAt(p));
		return n;
	}

	function depthOfY(y) {
		return Math.round(Math.abs(y - ix.y[ix.root]) / config.frameheight);
	}

	// The frame whose rect has these x and y attributes (and is `rect`, if
	// given): a binary search over the (x, depth) order.
	function find(x, y, rect) {
		var d = depthOfY(y), lo = 0, hi = ix.n;
		while (lo < hi) {
			var mid = (lo + hi) >> 1;
			if (ix.x[mid] < x || (ix.x[mid] === x && ix.depth[mid] < d))
				lo = mid + 1;
			else
				hi = mid;
		}
		for (var p = lo; p < ix.n && ix.x[p] === x && ix.depth[p] === d; p++)
			if (!rect || ix.rects[ix.dom[p]] === rect)
				return p;
		return -1;
	}

	// The frame a group shows: a copy knows it; an original is looked up.
	function posOf(g) {
		if (view && g.parentNode === view.g)
			return view.posOfCopy.get(g);
		buildIndex();
		var rect = childByTag(g, "rect");
		if (!rect)
			return -1;
		return find(parseFloat(rect.getAttribute("x")), parseFloat(rect.getAttribute("y")), rect);
	}

	// The element the frame is drawn by now, or null when hidden by a zoom.
	function shownGroup(p) {
		if (view)
			return view.byPos.get(p) || null;
		return groupAt(p);
	}

	// --- drawing ---------------------------------------------------------------

	// flamegraph.pl's label rule: as many characters as fit, ".." when cut.
	function fitLabel(name, width) {
		var chars = Math.floor(width / (config.fontsize * config.fontwidth));
		if (chars < 3)
			return "";
		var letters = /^[\x00-\x7f]*$/.test(name) ? null : Array.from(name);
		var length = letters ? letters.length : name.length;
		if (length <= chars)
			return name;
		return (letters ? letters.slice(0, chars - 2).join("") : name.substring(0, chars - 2)) + "..";
	}

	function showDetails(p) {
		el.details.textContent = p >= 0 ? config.nametype + " " + titleAt(p) : " ";
	}

	// What hides the frames in a zoom: the background rect again, clipped to
	// the band the frames are drawn in (the same gradient, so no seam), or,
	// in a file without one, a clip of #frames itself.
	function makeCover() {
		var background = el.svg.querySelector(":scope > rect");
		if (!background || !ix.n)
			return null;
		var cover = background.cloneNode(false);
		var y = parseFloat(background.getAttribute("y")) || 0;
		var height = parseFloat(background.getAttribute("height"));
		cover.removeAttribute("id");
		cover.setAttribute("class", "cover");
		cover.style.clipPath = "inset(" + Math.max(0, ix.top - y) + "px 0 " +
			Math.max(0, y + height - ix.bottom) + "px 0)";
		return cover;
	}

	// A copy of frame p at x, w wide, for the zoomed view.
	function drawCopy(p, x, w, className) {
		var g = groupAt(p).cloneNode(true), rect = childByTag(g, "rect"), text = childByTag(g, "text");
		var label = fitLabel(nameOf(p), w);
		rect.setAttribute("x", x.toFixed(1));
		rect.setAttribute("width", w.toFixed(1));
		if (!text && label) {
			// the writer leaves out labels that do not fit: make one
			text = document.createElementNS(SVG_NS, "text");
			text.setAttribute("y", String(ix.y[p] + (config.frameheight - 1) / 2 + 3));
			g.insertBefore(text, rect.nextSibling);
		}
		if (text) {
			text.setAttribute("x", (x + 3).toFixed(2));
			text.textContent = label;
		}
		if (className)
			g.classList.add(className);
		view.g.appendChild(g);
		view.byPos.set(p, g);
		view.posOfCopy.set(g, p);
	}

	// Zoom to frame p: it fills the width, its descendants scale with it, its
	// ancestors stay full width (dimmed), the rest is hidden. p = -1 or the
	// root: the original view.
	//
	// Widths come from the titles' sample counts, which are exact; the file's
	// x and width attributes are rounded to 0.1 px, which a zoom of 1000x would
	// make 100 px. A frame that starts where its previous sibling (or its
	// parent) starts, as far as that rounding tells, is put exactly there; any
	// other is placed by its attributes, never over its previous sibling and
	// never past its parent's end.
	function zoom(p) {
		buildIndex();
		if (p === ix.root)
			p = -1;
		if (view) {
			view.g.parentNode.removeChild(view.g);
			if (view.cover)
				view.cover.parentNode.removeChild(view.cover);
			view = null;
		}
		if (p >= 0) {
			var pad = config.xpad, full = config.width - 2 * pad;
			view = {
				pos: p, cover: makeCover(), g: document.createElementNS(SVG_NS, "g"),
				byPos: new Map(), posOfCopy: new Map()
			};
			view.g.id = "zoomview";
			for (var a = ix.parent[p]; a >= 0; a = ix.parent[a])
				drawCopy(a, pad, full, "parent");
			var size = ix.end[p] - p, X = new Float64Array(size), W = new Float64Array(size);
			var last = new Int32Array(size).fill(-1);  // the last child placed, per parent
			var total = samplesOf(p), perSample = full / total, ratio = full / ix.w[p];
			X[0] = pad;
			W[0] = full;
			drawCopy(p, pad, full, null);
			for (var q = p + 1; q < ix.end[p];) {
				var r = ix.parent[q] - p, prev = last[r], i = q - p, s = total > 0 ? samplesOf(q) : 0;
				last[r] = i;
				var w = s > 0 ? s * perSample : ix.w[q] * ratio, lo, fileLo;
				if (prev >= 0) {
					lo = X[prev] + W[prev];
					fileLo = ix.x[prev + p] + ix.w[prev + p];
				} else {
					lo = X[r];
					fileLo = ix.x[r + p];
				}
				var x = ix.x[q] - fileLo <= 0.1 ? lo : Math.max(lo, X[r] + (ix.x[q] - ix.x[r + p]) * ratio);
				X[i] = x = Math.min(x, X[r] + W[r] - w);
				W[i] = w;
				if (w < MIN_WIDTH) {
					q = ix.end[q];  // its descendants are narrower still
					continue;
				}
				drawCopy(q, x, w, null);
				q++;
			}
			el.frames.parentNode.insertBefore(view.g, el.frames.nextSibling);
			if (view.cover)
				el.frames.parentNode.insertBefore(view.cover, view.g);
		}
		el.frames.classList.toggle("zoomed", p >= 0 && !view.cover);
		el.unzoom.classList.toggle("hide", p < 0);
		if (selected >= 0 && !shownGroup(selected))
			select(p >= 0 ? p : ix.root);
		updateMatched();
		saveState();
	}

	// --- search ----------------------------------------------------------------

	function paintMatch(p) {
		var fill = ix.matches[p] ? config.searchcolor : ix.fill[p];
		var groups = [groupAt(p), view && view.byPos.get(p)];
		for (var i = 0; i < groups.length; i++) {
			var rect = groups[i] && childByTag(groups[i], "rect");
			if (rect && fill !== null)
				rect.setAttribute("fill", fill);
			else if (rect)
				rect.removeAttribute("fill");
		}
	}

	// Marks the frames whose names match; only frames that change are touched.
	function setMatches(re) {
		buildIndex();
		for (var p = 0; p < ix.n; p++) {
			var m = re && re.test(nameOf(p)) ? 1 : 0;
			if (m === ix.matches[p])
				continue;
			if (ix.fill[p] === undefined)
				ix.fill[p] = childByTag(groupAt(p), "rect").getAttribute("fill");
			ix.matches[p] = m;
			paintMatch(p);
		}
	}

	function search(source) {
		var re;
		try {
			re = new RegExp(source, ignoreCase ? "i" : "");
		} catch (err) {
			el.matched.textContent = "Invalid regular expression: " + source;
			return;
		}
		term = source;
		setMatches(re);
		el.search.classList.add("show");
		el.search.textContent = "Reset Search";
		updateMatched();
		saveState();
	}

	function resetSearch() {
		term = null;
		setMatches(null);
		el.search.classList.remove("show");
		el.search.textContent = "Search";
		updateMatched();
		saveState();
	}

	// The share of the view's samples under matching frames: each sample
	// counts once however many matching frames are above it, and in a zoom it
	// is a share of the zoomed frame's samples (all of them when it or one of
	// its callers matches).
	function matchedShare() {
		var scope = view ? view.pos : ix.root;
		if (scope < 0)
			return 0;
		for (var a = scope; a >= 0; a = ix.parent[a])
			if (ix.matches[a])
				return 100;
		var matched = 0, total = samplesOf(scope);
		for (var p = scope + 1; p < ix.end[scope];) {
			if (ix.matches[p]) {
				matched += samplesOf(p);
				p = ix.end[p];
			} else {
				p++;
			}
		}
		return total > 0 ? Math.min(100, 100 * matched / total) : 0;
	}

	function updateMatched() {
		if (term === null) {
			el.matched.textContent = " ";
			return;
		}
		var share = matchedShare();
		el.matched.textContent = "Matched: " + (share === 100 ? "100" : share.toFixed(1)) + "%";
	}

	function promptSearch() {
		var answer = window.prompt("Search for frames whose name matches a regular expression"
			+ (ignoreCase ? " (ignoring case)" : ""), term === null ? "" : term);
		if (answer)
			search(answer);
	}

	function toggleIgnoreCase() {
		ignoreCase = !ignoreCase;
		el.ignorecase.classList.toggle("show", ignoreCase);
		if (term !== null)
			search(term);
		else
			saveState();
	}

	// --- the view in the URL fragment: #zoom=X,Y&search=REGEX&ic=1 -----------------
	// X,Y are the zoomed frame's rect attributes as written in the file.

	function hashOfState() {
		var parts = [];
		if (view) {
			var rect = childByTag(groupAt(view.pos), "rect");
			parts.push("zoom=" + encodeURIComponent(rect.getAttribute("x") + "," + rect.getAttribute("y")));
		}
		if (term !== null)
			parts.push("search=" + encodeURIComponent(term));
		if (ignoreCase)
			parts.push("ic=1");
		return parts.length ? "#" + parts.join("&") : "";
	}

	function saveState() {
		if (restoring)
			return;
		var hash = hashOfState();
		if (hash === location.hash)
			return;
		try {
			history.replaceState(history.state, "", location.href.split("#")[0] + hash);
		} catch (err) {
			// some browsers refuse replaceState on file:// URLs
			location.replace(hash || "#");
		}
	}

	function restoreState() {
		var state = {}, parts = location.hash.replace(/^#/, "").split("&");
		for (var i = 0; i < parts.length; i++) {
			var eq = parts[i].indexOf("=");
			if (eq <= 0)
				continue;
			try {
				state[parts[i].substring(0, eq)] = decodeURIComponent(parts[i].substring(eq + 1));
			} catch (err) {
				// a malformed %-escape: ignore that part
			}
		}
		if ((state.ic === "1") !== ignoreCase) {
			ignoreCase = !ignoreCase;
			el.ignorecase.classList.toggle("show", ignoreCase);
		}
		var target = -1;
		if (state.zoom) {
			buildIndex();
			var xy = state.zoom.split(",");
			target = find(parseFloat(xy[0]), parseFloat(xy[1]), null);
		}
		restoring = true;
		try {
			if (target >= 0 || view)
				zoom(target);
			if (state.search)
				search(state.search);
			else if (term !== null)
				resetSearch();
			else
				updateMatched();
		} finally {
			restoring = false;
		}
	}

	// --- mouse and keys ----------------------------------------------------------

	function onClick(e) {
		var g = groupOf(e.target);
		if (g) {
			if (g.localName === "a" && !e.ctrlKey)
				return;  // a --nameattr link: follow it (Ctrl-click zooms)
			e.preventDefault();
			var p = posOf(g);
			if (p >= 0)
				zoom(p);
			return;
		}
		var id = e.target.id;
		if (id === "unzoom")
			zoom(-1);
		else if (id === "search")
			term === null ? promptSearch() : resetSearch();
		else if (id === "ignorecase")
			toggleIgnoreCase();
	}

	function select(p) {
		if (selected >= 0) {
			groupAt(selected).classList.remove("selected");
			var old = view && view.byPos.get(selected);
			if (old)
				old.classList.remove("selected");
		}
		selected = p;
		if (p >= 0) {
			groupAt(p).classList.add("selected");
			var shown = shownGroup(p);
			if (shown)
				shown.classList.add("selected");
		}
		showDetails(p);
	}

	// The nearest shown frame at p's depth to the left (dir -1) or right (+1).
	function neighbour(p, dir) {
		for (var q = p + dir; q >= 0 && q < ix.n; q += dir)
			if (ix.depth[q] === ix.depth[p] && shownGroup(q))
				return q;
		return -1;
	}

	function widestChild(p) {
		var best = -1;
		for (var q = p + 1; q < ix.end[p]; q = ix.end[q])
			if (shownGroup(q) && (best < 0 || ix.w[q] > ix.w[best]))
				best = q;
		return best;
	}

	function onKey(e) {
		var key = e.key;
		if ((e.ctrlKey || e.metaKey) && !e.altKey && (key === "f" || key === "F")) {
			e.preventDefault();
			promptSearch();
			return;
		}
		if (e.ctrlKey && !e.altKey && (key === "i" || key === "I")) {
			e.preventDefault();
			toggleIgnoreCase();
			return;
		}
		if (e.ctrlKey || e.metaKey || e.altKey)
			return;
		if (key === "/" || key === "F3") {
			e.preventDefault();
			promptSearch();
		} else if (key === "Escape") {
			if (view)
				zoom(-1);
			else if (term !== null)
				resetSearch();
			else if (selected >= 0)
				select(-1);
		} else if (key === "Enter") {
			if (selected >= 0)
				zoom(selected);
		} else if (/^Arrow(Left|Right|Up|Down)$/.test(key)) {
			e.preventDefault();
			buildIndex();
			var next;
			if (selected < 0 || !shownGroup(selected))
				next = view ? view.pos : ix.root;
			else if (key === "ArrowLeft" || key === "ArrowRight")
				next = neighbour(selected, key === "ArrowLeft" ? -1 : 1);
			else if ((key === "ArrowUp") !== Boolean(config.inverted))
				next = widestChild(selected);  // visually up: toward the leaves
			else
				next = ix.parent[selected];
			if (next >= 0)
				select(next);
		}
	}

	return { init: init };
})(flamekit_config);

function init(evt) {
	flamekit.init(evt);
}
