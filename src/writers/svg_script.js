// flamekit's flame graph script. The writer defines flamekit_config before
// this file. Frames are the children of #frames: g (or a) elements holding
// a title "NAME (COUNT UNIT, P%...)", a rect and a text. Names are only
// ever read and written as text (textContent), never as markup.
"use strict";

var fk = {
	cfg: flamekit_config,
	frames: null,        // the index, built on first use (see frameIndex)
	root: null,
	zoomed: null,        // the frame zoomed to, or null
	term: null,          // the search regex's source, or null
	ignoreCase: false,
	selected: null,      // the keyboard's frame
	el: {}
};

function init(evt) {
	var ids = ["details", "matched", "search", "ignorecase", "unzoom", "frames"];
	for (var i = 0; i < ids.length; i++)
		fk.el[ids[i]] = document.getElementById(ids[i]);
	fk.el.svg = document.documentElement;
	fk.el.frames.addEventListener("mouseover", function (e) {
		var f = frameOf(e.target);
		if (f) showDetails(f);
	});
	fk.el.frames.addEventListener("mouseout", function (e) {
		if (frameOf(e.target)) showDetails(fk.selected);
	});
	fk.el.svg.addEventListener("click", onClick);
	window.addEventListener("keydown", onKey);
	restoreFromUrl();
}

// --- the index of frames ---------------------------------------------------

// The g (or a) element of the frame an event target is in, or null.
function groupOf(node) {
	while (node && node.parentNode !== fk.el.frames) {
		if (node === fk.el.svg || !node.parentNode)
			return null;
		node = node.parentNode;
	}
	return node || null;
}

function frameOf(node) {
	var g = groupOf(node);
	if (!g)
		return null;
	frameIndex();
	return g.fkFrame || null;
}

function childByTag(node, tag) {
	for (var c = node.firstElementChild; c; c = c.nextElementSibling)
		if (c.localName === tag)
			return c;
	return null;
}

// Every frame, in depth-first order (parents first, children left to right),
// with its parent, the end of its subtree in that order, its name, count and
// original geometry. Built once, on the first interaction.
function frameIndex() {
	if (fk.frames)
		return fk.frames;
	var list = [], g, height = fk.cfg.frameheight;
	for (g = fk.el.frames.firstElementChild; g; g = g.nextElementSibling) {
		var rect = childByTag(g, "rect"), title = childByTag(g, "title");
		if (!rect || !title)
			continue;
		var text = childByTag(g, "text"), info = title.textContent;
		var open = info.lastIndexOf(" (");
		var f = {
			g: g, rect: rect, text: text, info: info,
			name: open >= 0 ? info.substring(0, open) : info,
			samples: open >= 0 ? parseFloat(info.substring(open + 2).replace(/,/g, "")) : 0,
			x: parseFloat(rect.getAttribute("x")),
			w: parseFloat(rect.getAttribute("width")),
			y: parseFloat(rect.getAttribute("y")),
			xText: rect.getAttribute("x"), yText: rect.getAttribute("y"),
			fill: rect.getAttribute("fill"),
			label: text ? text.textContent : "",
			depth: 0, parent: null, index: 0, end: 0, matches: false
		};
		g.fkFrame = f;
		list.push(f);
	}
	// the root is the widest frame nearest the base; depth counts from it
	var root = list[0];
	for (var i = 1; i < list.length; i++)
		if (list[i].w > root.w || (list[i].w === root.w &&
		    (fk.cfg.inverted ? list[i].y < root.y : list[i].y > root.y)))
			root = list[i];
	for (i = 0; i < list.length; i++)
		list[i].depth = Math.round(Math.abs(list[i].y - root.y) / height);
	var byPosition = function (a, b) { return a.x - b.x || a.depth - b.depth; };
	for (i = 1; i < list.length && byPosition(list[i - 1], list[i]) <= 0; i++)
		;
	if (i < list.length)  // flamekit writes them in this order; others may not
		list.sort(byPosition);
	var stack = [];
	for (i = 0; i < list.length; i++) {
		var f = list[i];
		f.index = i;
		while (stack.length) {
			var top = stack[stack.length - 1];
			if (top.depth < f.depth && f.x < top.x + top.w - 0.01)
				break;
			top.end = i;
			stack.pop();
		}
		f.parent = stack.length ? stack[stack.length - 1] : null;
		stack.push(f);
	}
	while (stack.length)
		stack.pop().end = list.length;
	fk.frames = list;
	fk.root = root;
	return list;
}

// --- drawing ---------------------------------------------------------------

// flamegraph.pl's label rule: as many characters as fit, ".." when cut.
function fitLabel(name, width) {
	var chars = Math.floor(width / (fk.cfg.fontsize * fk.cfg.fontwidth));
	if (chars < 3)
		return "";
	var letters = /^[\x00-\x7f]*$/.test(name) ? null : Array.from(name);
	var length = letters ? letters.length : name.length;
	if (length <= chars)
		return name;
	return (letters ? letters.slice(0, chars - 2).join("") : name.substring(0, chars - 2)) + "..";
}

function place(f, x, w, label) {
	f.rect.setAttribute("x", x.toFixed(1));
	f.rect.setAttribute("width", w.toFixed(1));
	if (!f.text && label) {
		// the writer leaves out labels that do not fit: make one now
		f.text = document.createElementNS("http://www.w3.org/2000/svg", "text");
		f.text.setAttribute("y", String(f.y + (fk.cfg.frameheight - 1) / 2 + 3));
		f.rect.parentNode.insertBefore(f.text, f.rect.nextSibling);
	}
	if (f.text) {
		f.text.setAttribute("x", (x + 3).toFixed(2));
		if (f.text.textContent !== label)
			f.text.textContent = label;
	}
}

function showDetails(f) {
	fk.el.details.textContent = f ? fk.cfg.nametype + " " + f.info : " ";
}

function isAncestor(a, f) {
	for (var p = f.parent; p; p = p.parent)
		if (p === a)
			return true;
	return false;
}

// Zoom to f: its subtree fills the width, its ancestors stay (dimmed), the
// rest is hidden (by one class on #frames: a zoom touches only the frames it
// shows, not every frame of a large graph). f null or the root: the
// original view.
function zoom(f) {
	var list = frameIndex();
	if (f === fk.root)
		f = null;
	var touched = fk.touched || [];
	for (var i = 0; i < touched.length; i++) {
		var g = touched[i];
		g.g.classList.remove("shown", "parent");
		place(g, g.x, g.w, g.label);
	}
	fk.touched = [];
	fk.zoomed = f;
	if (f) {
		var pad = fk.cfg.xpad, full = fk.cfg.width - 2 * pad, ratio = full / f.w;
		for (i = f.index; i < f.end; i++) {
			var w = list[i].w * ratio;
			list[i].g.classList.add("shown");
			place(list[i], pad + (list[i].x - f.x) * ratio, w, fitLabel(list[i].name, w));
			fk.touched.push(list[i]);
		}
		for (var p = f.parent; p; p = p.parent) {
			p.g.classList.add("shown", "parent");
			place(p, pad, full, fitLabel(p.name, full));
			fk.touched.push(p);
		}
	}
	fk.el.frames.classList.toggle("zoomed", Boolean(f));
	fk.el.unzoom.classList.toggle("hide", !f);
	if (fk.selected && !visible(fk.selected))
		select(f);
	updateMatched();
	saveToUrl();
}

// --- search ----------------------------------------------------------------

function search(term) {
	var list = frameIndex(), re;
	try {
		re = new RegExp(term, fk.ignoreCase ? "i" : "");
	} catch (err) {
		fk.el.matched.textContent = "Invalid regex";
		return;
	}
	fk.term = term;
	for (var i = 0; i < list.length; i++) {
		var f = list[i];
		f.matches = re.test(f.name);
		f.rect.setAttribute("fill", f.matches ? fk.cfg.searchcolor : f.fill);
	}
	fk.el.search.classList.add("show");
	fk.el.search.textContent = "Reset Search";
	updateMatched();
	saveToUrl();
}

function resetSearch() {
	var list = frameIndex();
	fk.term = null;
	for (var i = 0; i < list.length; i++) {
		list[i].matches = false;
		list[i].rect.setAttribute("fill", list[i].fill);
	}
	fk.el.search.classList.remove("show");
	fk.el.search.textContent = "Search";
	updateMatched();
	saveToUrl();
}

// The share of the view's samples under matching frames: each sample counts
// once however many matching frames are above it, and in a zoom the share
// is of the zoomed frame (all of it when it or a caller matches).
function updateMatched() {
	if (fk.term === null) {
		fk.el.matched.textContent = " ";
		return;
	}
	var list = frameIndex(), scope = fk.zoomed || fk.root, matched = 0, covered = false;
	for (var p = scope; p; p = p.parent)
		covered = covered || p.matches;
	if (covered)
		matched = scope.samples;
	for (var i = scope.index; i < scope.end && !covered;) {
		if (list[i].matches) {
			matched += list[i].samples;
			i = list[i].end;
		} else {
			i++;
		}
	}
	var share = scope.samples ? 100 * matched / scope.samples : 0;
	fk.el.matched.textContent = "Matched: " + (share === 100 ? "100" : share.toFixed(1)) + "%";
}

function promptSearch() {
	var term = window.prompt("Search for a frame name (a regular expression, e.g. ^ext4_)",
				 fk.term === null ? "" : fk.term);
	if (term)
		search(term);
}

function toggleIgnoreCase() {
	fk.ignoreCase = !fk.ignoreCase;
	fk.el.ignorecase.classList.toggle("show", fk.ignoreCase);
	if (fk.term !== null)
		search(fk.term);
	else
		saveToUrl();
}

// --- the URL fragment: #zoom=X,Y&search=TERM&ic=1 ---------------------------

function saveToUrl() {
	var parts = [];
	if (fk.zoomed)
		parts.push("zoom=" + encodeURIComponent(fk.zoomed.xText + "," + fk.zoomed.yText));
	if (fk.term !== null)
		parts.push("search=" + encodeURIComponent(fk.term));
	if (fk.ignoreCase)
		parts.push("ic=1");
	var hash = parts.length ? "#" + parts.join("&") : "";
	var url = location.href.split("#")[0] + hash;
	try {
		history.replaceState(null, "", url);
	} catch (err) {
		location.replace(hash || "#");
	}
}

function restoreFromUrl() {
	var hash = location.hash.replace(/^#/, ""), state = {};
	if (!hash)
		return;
	var parts = hash.split("&");
	for (var i = 0; i < parts.length; i++) {
		var eq = parts[i].indexOf("=");
		if (eq > 0)
			state[parts[i].substring(0, eq)] = decodeURIComponent(parts[i].substring(eq + 1));
	}
	if (state.ic === "1") {
		fk.ignoreCase = true;
		fk.el.ignorecase.classList.add("show");
	}
	if (state.zoom) {
		var list = frameIndex();
		for (i = 0; i < list.length; i++)
			if (list[i].xText + "," + list[i].yText === state.zoom) {
				zoom(list[i]);
				break;
			}
	}
	if (state.search !== undefined)
		search(state.search);
}

// --- mouse and keys ----------------------------------------------------------

function onClick(e) {
	var f = frameOf(e.target);
	if (f) {
		if (f.g.localName === "a" && !e.ctrlKey)
			return;  // a --nameattr link: follow it
		e.preventDefault();
		select(f);
		zoom(f);
		return;
	}
	var id = e.target.id || (e.target.parentNode && e.target.parentNode.id);
	if (id === "unzoom")
		zoom(null);
	else if (id === "search")
		fk.term === null ? promptSearch() : resetSearch();
	else if (id === "ignorecase")
		toggleIgnoreCase();
}

function select(f) {
	if (fk.selected)
		fk.selected.g.classList.remove("selected");
	fk.selected = f || null;
	if (f)
		f.g.classList.add("selected");
	showDetails(f);
}

function visible(f) {
	return !fk.zoomed || f.g.classList.contains("shown");
}

// The visible frame at f's depth nearest to its left (dir -1) or right (+1).
function neighbour(f, dir) {
	var list = frameIndex(), best = null;
	for (var i = 0; i < list.length; i++) {
		var g = list[i];
		if (g.depth !== f.depth || g === f || !visible(g) || (g.x - f.x) * dir <= 0)
			continue;
		if (!best || (g.x - best.x) * dir < 0)
			best = g;
	}
	return best;
}

// The widest visible child of f.
function widestChild(f) {
	var list = frameIndex(), best = null;
	for (var i = f.index + 1; i < f.end; i = list[i].end)
		if (visible(list[i]) && (!best || list[i].w > best.w))
			best = list[i];
	return best;
}

function onKey(e) {
	var key = e.key;
	if ((e.ctrlKey || e.metaKey) && (key === "f" || key === "F")) {
		e.preventDefault();
		promptSearch();
		return;
	}
	if (e.ctrlKey && (key === "i" || key === "I")) {
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
		if (fk.zoomed)
			zoom(null);
		else if (fk.term !== null)
			resetSearch();
		else
			select(null);
	} else if (key === "Enter" && fk.selected) {
		zoom(fk.selected);
	} else if (/^Arrow/.test(key)) {
		e.preventDefault();
		frameIndex();
		var f = fk.selected, next = null;
		if (!f) {
			next = fk.zoomed || fk.root;
		} else if (key === "ArrowLeft" || key === "ArrowRight") {
			next = neighbour(f, key === "ArrowLeft" ? -1 : 1);
		} else {
			var towardLeaves = (key === "ArrowUp") !== Boolean(fk.cfg.inverted);
			next = towardLeaves ? widestChild(f) : f.parent;
		}
		if (next)
			select(next);
	}
}
