// Headless Chromium tests of the SVG's script, and of flamekit view's page
// (view.mjs): node tests/browser/run.mjs BUILD SCRATCH
//
// Each test draws an SVG with BUILD/flamekit flamegraph from folded stacks in
// tests/data/browser/ (or generated here), opens it over file:// and acts as
// a user would. Prints one line per test, "ok NAME", "FAIL NAME: why" or
// "skip NAME: why", for tests/run.sh to count, and "# ..." lines of notes
// (the large graph's times). TESTS_FILTER (a regular expression) picks tests
// by "browser/NAME". Exits 0 unless this script itself breaks.
//
// What the page shows is judged by what a user would see, not by how the
// script draws it: a frame is shown when a point in its middle hits it
// (elementFromPoint), and its geometry is its rect's. Expected values come
// from the folded stacks, not from the SVG.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { speedscopeTests } from "./speedscope.mjs";
import { viewTests } from "./view.mjs";

const [build, scratch] = process.argv.slice(2);
if (!build || !scratch) {
	console.error("usage: node tests/browser/run.mjs BUILD_DIR SCRATCH_DIR");
	process.exit(2);
}
const data = join(dirname(fileURLToPath(import.meta.url)), "..", "data", "browser");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

const tests = [];
function test(name, body) {
	tests.push({ name, body });
}

// --- drawing and reading graphs ---------------------------------------------------

function draw(name, folded, options = []) {
	const input = join(scratch, name + ".folded"), output = join(scratch, name + ".svg");
	writeFileSync(input, folded);
	execFileSync(join(build, "flamekit"), ["flamegraph", ...options, input, "-o", output]);
	return pathToFileURL(output).href;
}

function dataFile(name) {
	return readFileSync(join(data, name), "utf8");
}

function parseFolded(text) {
	return text.trim().split("\n").map((line) => {
		const at = line.lastIndexOf(" ");
		return { frames: line.slice(0, at).split(";"), count: Number(line.slice(at + 1)) };
	});
}

// Samples of the stacks that go through `path` (from the root).
function samplesUnder(stacks, path) {
	let n = 0;
	for (const s of stacks)
		if (path.every((name, i) => s.frames[i] === name))
			n += s.count;
	return n;
}

// What #matched should say: the share of the samples under `path` in stacks
// with a frame matching re, each stack once. Zoomed to `path`, a matching
// frame on the path covers all of it.
function expectedMatched(stacks, re, path = []) {
	let total = 0, matched = 0;
	for (const s of stacks) {
		if (!path.every((name, i) => s.frames[i] === name))
			continue;
		total += s.count;
		if (s.frames.some((f) => re.test(f)))
			matched += s.count;
	}
	const share = (100 * matched) / total;
	return "Matched: " + (share === 100 ? "100" : share.toFixed(1)) + "%";
}

// flamegraph.pl's label rule, for checking labels after a zoom
function fitLabel(name, width, fontsize = 12, fontwidth = 0.59) {
	const chars = Math.floor(width / (fontsize * fontwidth));
	if (chars < 3) return "";
	const letters = Array.from(name);
	return letters.length <= chars ? name : letters.slice(0, chars - 2).join("") + "..";
}

// --- the page ------------------------------------------------------------------------

let browser;

async function open(url, timeout = 60000) {
	const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
	page.dialogs = [];
	page.answers = [];  // what prompts are answered, in turn; none left: dismiss
	page.errors = [];
	page.on("pageerror", (err) => page.errors.push(String(err)));
	page.on("dialog", async (d) => {
		page.dialogs.push(d.type() + ": " + d.message());
		if (d.type() === "prompt" && page.answers.length) await d.accept(page.answers.shift());
		else await d.dismiss();
	});
	await page.goto(url, { timeout });
	return page;
}

// Every frame the page shows now, in document order: [{ title, x, w, y,
// label, textX, fill, cls }], a frame being shown when the middle of its
// rect hits it.
async function shown(page) {
	return page.evaluate(() => {
		const out = [];
		for (const rect of document.querySelectorAll("rect")) {
			const g = rect.parentNode, title = g.querySelector(":scope > title");
			if (!title) continue;
			const x = Number(rect.getAttribute("x")), w = Number(rect.getAttribute("width"));
			const y = Number(rect.getAttribute("y")), h = Number(rect.getAttribute("height"));
			const hit = document.elementFromPoint(x + w / 2, y + h / 2);
			if (!hit || hit.closest("g, a") !== g) continue;
			const text = g.querySelector(":scope > text");
			out.push({
				title: title.textContent, x, w, y,
				label: text ? text.textContent : "",
				textX: text && text.textContent ? text.getAttribute("x") : null,
				fill: rect.getAttribute("fill"),
				cls: (g.getAttribute("class") || "").split(/\s+/).filter(Boolean).sort().join(" "),
			});
		}
		return out;
	});
}

function named(frames, name) {
	return frames.filter((f) => f.title.startsWith(name + " ("));
}

function one(frames, name) {
	const found = named(frames, name);
	if (found.length !== 1)
		throw new Error(`${found.length} frames named ${JSON.stringify(name)} shown, expected 1`);
	return found[0];
}

// Clicks the middle of the shown frame called `name` (the n-th such).
async function clickFrame(page, name, n = 0) {
	const f = named(await shown(page), name)[n];
	if (!f) throw new Error(`no frame ${JSON.stringify(name)} shown to click`);
	await page.mouse.click(f.x + f.w / 2, f.y + 7);
}

async function hoverFrame(page, name, n = 0) {
	const f = named(await shown(page), name)[n];
	if (!f) throw new Error(`no frame ${JSON.stringify(name)} shown to hover`);
	await page.mouse.move(f.x + f.w / 2, f.y + 7);
}

const text = (page, id) => page.locator("#" + id).textContent();
// the page's URL as the page has it now (page.url() follows it by events,
// which may come after an answered prompt's search has set the fragment)
const urlOf = (page) => page.evaluate(() => location.href);
const painted = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

function expect(condition, message) {
	if (!condition) throw new Error(message);
}

function expectNear(actual, expected, what, tolerance = 0.1) {
	expect(Math.abs(actual - expected) <= tolerance + 1e-9, `${what} is ${actual}, expected ${expected.toFixed(2)} (±${tolerance})`);
}

// the first difference between two shown() lists
function sameFrames(a, b, what) {
	for (let i = 0; i < Math.max(a.length, b.length); i++) {
		const x = JSON.stringify(a[i]), y = JSON.stringify(b[i]);
		expect(x === y, `${what}: frame ${i} is ${x}, was ${y}`);
	}
}

const width = 1200, xpad = 10, full = width - 2 * xpad, searchColor = "rgb(230,0,230)";

// --- the tests ----------------------------------------------------------------------

// nested.folded: "hash" is under "compute" and under itself (nested matches)
// and under "parse"; "memcpy" is under three parents.
const nested = dataFile("nested.folded");
const nestedStacks = parseFolded(nested);
const nestedTotal = samplesUnder(nestedStacks, []);
let nestedUrl;
const nestedGraph = () => (nestedUrl ??= draw("nested", nested));

test("hover", async () => {
	const page = await open(nestedGraph());
	await hoverFrame(page, "compute");
	const n = samplesUnder(nestedStacks, ["main", "compute"]);
	const want = `Function: compute (${n} samples, ${(100 * n / nestedTotal).toFixed(2)}%)`;
	expect(await text(page, "details") === want, `details "${await text(page, "details")}", expected "${want}"`);
	const title = one(await shown(page), "compute").title;
	expect(title === want.replace("Function: ", ""), `tooltip title "${title}"`);
	await page.mouse.move(width - 5, 5);
	expect((await text(page, "details")).trim() === "", `details "${await text(page, "details")}" after mouse out`);
	// the word after the count is --countname's
	const ms = await open(draw("countname", nested, ["--countname", "ms"]));
	await hoverFrame(ms, "main");
	const main = samplesUnder(nestedStacks, ["main"]);
	expect(await text(ms, "details") === `Function: main (${main} ms, ${(100 * main / nestedTotal).toFixed(2)}%)`,
		`--countname ms: "${await text(ms, "details")}"`);
	expect(page.errors.length + ms.errors.length === 0, `page errors: ${page.errors.concat(ms.errors)}`);
	await ms.close();
	await page.close();
});

test("zoom", async () => {
	const page = await open(nestedGraph());
	await clickFrame(page, "compute");
	let frames = await shown(page);
	const compute = one(frames, "compute");
	expectNear(compute.x, xpad, "compute's x");
	expectNear(compute.w, full, "compute's width");
	for (const name of ["all", "main"]) {
		const f = one(frames, name);
		expectNear(f.w, full, `${name}'s width (a caller)`);
		expect(/\bparent\b/.test(f.cls), `${name} not dimmed (class "${f.cls}")`);
	}
	for (const name of ["parse", "idle", "read_line", "tokenize"])
		expect(named(frames, name).length === 0, `${name} (not under compute) still shown`);
	// children scale with the zoomed frame: hash has 65 of compute's 95
	const ratio = full / samplesUnder(nestedStacks, ["main", "compute"]);
	const hash = one(frames.filter((f) => f.y === compute.y - 16), "hash");
	expectNear(hash.w, samplesUnder(nestedStacks, ["main", "compute", "hash"]) * ratio, "hash's width");
	expectNear(hash.x, xpad, "hash's x");
	const sort = one(frames, "sort");
	expectNear(sort.w, samplesUnder(nestedStacks, ["main", "compute", "sort"]) * ratio, "sort's width");
	expectNear(sort.x, hash.x + hash.w, "sort's x (next to hash)");
	expect(sort.label === fitLabel("sort", sort.w), `sort's label "${sort.label}"`);
	expect(named(frames, "memcpy").length === 3, `${named(frames, "memcpy").length} memcpy frames shown, expected 3`);
	expect(await page.locator("#unzoom").isVisible(), "no Reset Zoom");
	// a click on a dimmed caller zooms out to it
	await clickFrame(page, "main");
	frames = await shown(page);
	expectNear(one(frames, "main").w, full, "main's width after clicking it");
	expect(!/\bparent\b/.test(one(frames, "main").cls), "main still dimmed");
	expect(named(frames, "parse").length === 1, "parse not shown under main");
	expect(named(frames, "idle").length === 0, "idle shown under main");
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("zoom-restore", async () => {
	// uneven.folded: 13 samples, so x, width and label x are not round
	const page = await open(draw("uneven", dataFile("uneven.folded")));
	const original = await shown(page);
	const titles = await page.locator("title").count();
	expect(original.length === titles, `${original.length} of ${titles} frames shown at first`);
	await clickFrame(page, "b");
	expect(one(await shown(page), "d_another_long_name_for_a_label").label === "d_another_long_name_for_a_label",
		"the label of d did not grow with the zoom");
	await clickFrame(page, "c");
	await page.locator("#unzoom").click();
	sameFrames(await shown(page), original, "after Reset Zoom");
	expect(!(await page.locator("#unzoom").isVisible()), "Reset Zoom still shown");
	await clickFrame(page, "h");
	await page.keyboard.press("Escape");
	sameFrames(await shown(page), original, "after Escape");
	expect(await page.locator("title").count() === titles, "frames left over after the zoom");
	const url = await urlOf(page);
	expect(!url.includes("#zoom"), `URL ${url} after Escape`);
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("search", async () => {
	const page = await open(nestedGraph());
	const fills = await shown(page);
	page.answers.push("^hash$");
	await page.locator("#search").click();
	let want = expectedMatched(nestedStacks, /^hash$/);
	expect(await text(page, "matched") === want, `"${await text(page, "matched")}", expected "${want}"`);
	const frames = await shown(page);
	expect(named(frames, "hash").length === 3, `${named(frames, "hash").length} hash frames, expected 3`);
	for (const f of frames) {
		const match = f.title.startsWith("hash (");
		expect((f.fill === searchColor) === match, `${f.title}: fill ${f.fill}`);
	}
	expect(await text(page, "search") === "Reset Search", `button "${await text(page, "search")}"`);
	await page.locator("#search").click();
	sameFrames(await shown(page), fills, "after Reset Search");
	expect((await text(page, "matched")).trim() === "", `matched "${await text(page, "matched")}" after reset`);
	expect(await text(page, "search") === "Search", `button "${await text(page, "search")}" after reset`);
	// the name only, not the counts
	page.answers.push("samples");
	await page.locator("#search").click();
	expect(await text(page, "matched") === "Matched: 0.0%", `"samples" matched "${await text(page, "matched")}"`);
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("search-zoomed", async () => {
	const page = await open(nestedGraph());
	await clickFrame(page, "compute");
	for (const source of ["memcpy", "^hash$", "^sort$|memcpy"]) {
		page.answers.push(source);
		await page.keyboard.press("Control+f");
		const want = expectedMatched(nestedStacks, new RegExp(source), ["main", "compute"]);
		expect(await text(page, "matched") === want, `zoomed to compute, ${source}: "${await text(page, "matched")}", expected "${want}"`);
		await page.locator("#search").click();  // reset
	}
	// zoomed into the outer hash: the nested one is inside, counted once
	await clickFrame(page, "hash");
	page.answers.push("^hash$");
	await page.keyboard.press("/");
	expect(await text(page, "matched") === "Matched: 100%", `zoomed to a match: "${await text(page, "matched")}"`);
	// a caller that matches covers the whole zoomed frame
	await page.locator("#search").click();
	page.answers.push("^comp");
	await page.keyboard.press("/");
	expect(await text(page, "matched") === "Matched: 100%", `caller matching: "${await text(page, "matched")}"`);
	// leaving the zoom: the share of everything again
	await page.keyboard.press("Escape");
	const want = expectedMatched(nestedStacks, /^comp/);
	expect(await text(page, "matched") === want, `after Escape: "${await text(page, "matched")}", expected "${want}"`);
	await page.keyboard.press("Escape");
	expect((await text(page, "matched")).trim() === "", "a second Escape did not clear the search");
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

// The frames of a view as the folded stacks place them: zoomed to `path`
// ([] for none), its last frame fills the width, as do its callers and the
// root, and under it children are as wide as their samples, in name order
// after the parent's own samples (as flamegraph.pl lays out sorted stacks).
// [{ name, path, x, w, depth }], depth 0 being the root's.
function layout(stacks, path) {
	const out = [{ name: "all", path: [], x: xpad, w: full, depth: 0 }];
	const perSample = full / samplesUnder(stacks, path);
	for (let d = 0; d < path.length; d++)
		out.push({ name: path[d], path: path.slice(0, d + 1), x: xpad, w: full, depth: d + 1 });
	(function children(at, x) {
		x += stacks.filter((s) => s.frames.length === at.length &&
			at.every((name, i) => s.frames[i] === name)).reduce((n, s) => n + s.count, 0) * perSample;
		const names = [...new Set(stacks.filter((s) => s.frames.length > at.length &&
			at.every((name, i) => s.frames[i] === name)).map((s) => s.frames[at.length]))].sort();
		for (const name of names) {
			const p = at.concat(name), w = samplesUnder(stacks, p) * perSample;
			out.push({ name, path: p, x, w, depth: p.length });
			children(p, x);
			x += w;
		}
	})(path, xpad);
	return out;
}

// What a user sees at the middle of each frame of layout(): the name of the
// frame shown there and its fill as painted (computed style, not attribute).
async function seen(page, frames, rootY) {
	return page.evaluate(({ frames, rootY }) => frames.map((f) => {
		const hit = document.elementFromPoint(f.x + f.w / 2, rootY - 16 * f.depth + 7);
		const g = hit && hit.closest("g, a"), title = g && g.querySelector(":scope > title");
		const rect = g && g.querySelector(":scope > rect");
		return {
			name: f.path.join(";") || "all", shown: title ? title.textContent.split(" (")[0] : null,
			fill: rect ? getComputedStyle(rect).fill.replace(/\s/g, "") : null,
		};
	}), { frames, rootY });
}

// Every frame of the view shown where the stacks put it, in the search
// colour exactly when its name matches `re` (null: no search).
async function expectHighlighted(page, path, re, rootY, what) {
	const frames = layout(nestedStacks, path), got = await seen(page, frames, rootY);
	for (let i = 0; i < frames.length; i++) {
		const f = frames[i], g = got[i];
		expect(g.shown === f.name, `${what}: ${g.name} shows ${JSON.stringify(g.shown)}`);
		const lit = g.fill === searchColor;
		expect(lit === Boolean(re && re.test(f.name)), `${what}: ${g.name} is painted ${g.fill}`);
	}
	return got;
}

test("search-zoomed-shown", async () => {
	// highlighting judged at the frames a user sees inside a zoom
	const page = await open(nestedGraph());
	const rootY = one(await shown(page), "all").y;
	await clickFrame(page, "compute");
	const plain = await expectHighlighted(page, ["main", "compute"], null, rootY, "zoomed");
	page.answers.push("^hash$");
	await page.keyboard.press("/");
	await expectHighlighted(page, ["main", "compute"], /^hash$/, rootY, "zoomed, then ^hash$");
	await page.locator("#search").click();  // reset, still zoomed
	const reset = await expectHighlighted(page, ["main", "compute"], null, rootY, "search reset in the zoom");
	sameFrames(reset, plain, "fills after the search was reset in the zoom");
	// a search, then a zoom inside it, then back out
	page.answers.push("memcpy|^comp");
	await page.keyboard.press("/");
	await expectHighlighted(page, ["main", "compute"], /memcpy|^comp/, rootY, "zoomed, then memcpy|^comp");
	await clickFrame(page, "hash");
	await expectHighlighted(page, ["main", "compute", "hash"], /memcpy|^comp/, rootY, "zoomed into hash while searching");
	await page.keyboard.press("Escape");
	await expectHighlighted(page, [], /memcpy|^comp/, rootY, "out of the zoom");
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("search-ignorecase", async () => {
	const page = await open(nestedGraph());
	page.answers.push("HASH|Sort");
	await page.keyboard.press("/");
	expect(await text(page, "matched") === "Matched: 0.0%", `case-sensitive: "${await text(page, "matched")}"`);
	await page.locator("#ignorecase").click();
	let want = expectedMatched(nestedStacks, /HASH|Sort/i);
	expect(await text(page, "matched") === want, `ignoring case: "${await text(page, "matched")}", expected "${want}"`);
	expect(one(await shown(page), "sort").fill === searchColor, "sort not highlighted ignoring case");
	await clickFrame(page, "compute");
	want = expectedMatched(nestedStacks, /HASH|Sort/i, ["main", "compute"]);
	expect(await text(page, "matched") === want, `zoomed, ignoring case: "${await text(page, "matched")}", expected "${want}"`);
	await page.keyboard.press("Control+i");
	expect(await text(page, "matched") === "Matched: 0.0%", `after Ctrl-I: "${await text(page, "matched")}"`);
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("url-fragment", async () => {
	const page = await open(nestedGraph());
	await clickFrame(page, "compute");
	await page.locator("#ignorecase").click();
	page.answers.push("SORT|mem");
	await page.keyboard.press("/");
	const link = await urlOf(page);
	expect(link.startsWith("file://") && /#.*zoom=.*search=.*ic=1/.test(link), `URL ${link}`);
	const matched = await text(page, "matched"), frames = await shown(page);
	expect(matched === expectedMatched(nestedStacks, /SORT|mem/i, ["main", "compute"]), `matched "${matched}"`);
	await page.reload();
	expect(await text(page, "matched") === matched, `after reload: "${await text(page, "matched")}", expected "${matched}"`);
	sameFrames(await shown(page), frames, "after reload");
	expect(await page.locator("#unzoom").isVisible(), "no Reset Zoom after reload");
	const again = await open(link);
	sameFrames(await shown(again), frames, "opened from the link");
	// a fragment typed into the same page
	await again.evaluate(() => { location.hash = "#search=%5Ehash%24"; });
	await again.waitForFunction(() => document.getElementById("unzoom").classList.contains("hide"));
	const want = expectedMatched(nestedStacks, /^hash$/);
	expect(await text(again, "matched") === want, `after a new fragment: "${await text(again, "matched")}", expected "${want}"`);
	// no state, no fragment
	await again.keyboard.press("Escape");
	const url = await urlOf(again);
	expect(!url.includes("#") || url.endsWith("#"), `URL ${url} with nothing zoomed or searched`);
	expect(page.errors.length + again.errors.length === 0, `page errors: ${page.errors.concat(again.errors)}`);
	await again.close();
	await page.close();
});

test("keyboard", async () => {
	const page = await open(nestedGraph());
	const details = () => text(page, "details");
	const selected = async () => (await shown(page)).filter((f) => /\bselected\b/.test(f.cls)).map((f) => f.title.split(" (")[0]);
	await page.mouse.click(width - 5, 5);  // the page has the focus, no frame is hit
	await page.keyboard.press("ArrowUp");  // selects the root
	expect((await details()).startsWith("Function: all ("), `first arrow: "${await details()}"`);
	await page.keyboard.press("ArrowUp");  // its widest child: main (145) over idle (55)
	await page.keyboard.press("ArrowUp");  // compute (95) over parse (50)
	expect((await details()).startsWith("Function: compute ("), `up, up: "${await details()}"`);
	expect(JSON.stringify(await selected()) === '["compute"]', `outlined: ${await selected()}`);
	await page.keyboard.press("ArrowRight");  // frames are in name order: parse is right of compute
	expect((await details()).startsWith("Function: parse ("), `right: "${await details()}"`);
	await page.keyboard.press("ArrowRight");  // nothing further right at that depth
	expect((await details()).startsWith("Function: parse ("), `right at the end: "${await details()}"`);
	await page.keyboard.press("ArrowLeft");
	expect((await details()).startsWith("Function: compute ("), `left: "${await details()}"`);
	await page.keyboard.press("ArrowDown");
	expect((await details()).startsWith("Function: main ("), `down: "${await details()}"`);
	await page.keyboard.press("ArrowUp");
	await page.keyboard.press("ArrowRight");
	await page.keyboard.press("Enter");
	const parse = one(await shown(page), "parse");
	expectNear(parse.w, full, "parse's width after Enter");
	await page.keyboard.press("ArrowUp");  // parse's widest child: read_line (30) over tokenize (20)
	expect((await details()).startsWith("Function: read_line ("), `up in the zoom: "${await details()}"`);
	await page.keyboard.press("ArrowDown");
	await page.keyboard.press("ArrowDown");  // to the dimmed caller
	expect((await details()).startsWith("Function: main ("), `down in the zoom: "${await details()}"`);
	await page.keyboard.press("ArrowUp");  // only parse is shown above main now
	expect((await details()).startsWith("Function: parse ("), `up to the zoomed frame: "${await details()}"`);
	await page.keyboard.press("Escape");
	expect(await shown(page).then((f) => named(f, "idle").length) === 1, "Escape did not leave the zoom");
	// Ctrl-F and / open the search prompt (dismissed here)
	await page.keyboard.press("Control+f");
	await page.keyboard.press("/");
	expect(page.dialogs.length === 2 && page.dialogs.every((d) => d.startsWith("prompt:")), `dialogs: ${page.dialogs}`);
	expect((await text(page, "search")) === "Search", "a dismissed prompt started a search");
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("keyboard-inverted", async () => {
	// an icicle graph: the root at the top, so Down goes toward the leaves
	const page = await open(draw("inverted", nested, ["--inverted"]));
	const details = () => text(page, "details");
	await page.mouse.click(width - 5, 5);
	await page.keyboard.press("ArrowDown");
	await page.keyboard.press("ArrowDown");
	await page.keyboard.press("ArrowDown");
	expect((await details()).startsWith("Function: compute ("), `down x3: "${await details()}"`);
	await page.keyboard.press("ArrowUp");
	expect((await details()).startsWith("Function: main ("), `up: "${await details()}"`);
	await page.keyboard.press("Enter");
	const frames = await shown(page);
	expectNear(one(frames, "main").w, full, "main's width after Enter");
	expect(one(frames, "all").y < one(frames, "main").y, "the root is not above main");
	await clickFrame(page, "compute");
	const compute = one(await shown(page), "compute");
	expectNear(compute.w, full, "compute's width");
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("hostile-names", async () => {
	const hostile = dataFile("hostile.folded");
	const stacks = parseFolded(hostile), total = samplesUnder(stacks, []);
	const page = await open(draw("hostile", hostile,
		["--title", "<script>alert(5)</script>&amp;", "--subtitle", "]]><script>alert(6)</script>"]));
	await painted(page);
	expect(await text(page, "title") === "<script>alert(5)</script>&amp;", `title "${await text(page, "title")}"`);
	for (const s of stacks) {
		const name = s.frames[1];
		await hoverFrame(page, name);
		const want = `Function: ${name} (${s.count} samples, ${(100 * s.count / total).toFixed(2)}%)`;
		expect(await text(page, "details") === want, `details "${await text(page, "details")}", expected "${want}"`);
		await clickFrame(page, name);
		const f = one(await shown(page), name);
		expect(f.label === fitLabel(name, full), `zoomed label "${f.label}"`);
		await page.keyboard.press("Escape");
	}
	page.answers.push("<script>");
	await page.keyboard.press("/");
	const want = expectedMatched(stacks, /<script>/);
	expect(await text(page, "matched") === want, `matched "${await text(page, "matched")}", expected "${want}"`);
	await page.reload();  // the search comes back from the URL
	expect(await text(page, "matched") === want, `after reload: "${await text(page, "matched")}"`);
	await page.waitForTimeout(200);
	const alerts = page.dialogs.filter((d) => !d.startsWith("prompt:"));
	expect(alerts.length === 0, `dialogs: ${alerts}`);
	const counts = await page.evaluate(() => ({
		scripts: document.getElementsByTagNameNS("*", "script").length,
		imgs: document.getElementsByTagNameNS("*", "img").length,
		handlers: Array.from(document.querySelectorAll("*")).flatMap((e) => Array.from(e.attributes))
			.filter((a) => /^on/i.test(a.name)).map((a) => a.name + "=" + a.value),
	}));
	expect(counts.scripts === 1, `${counts.scripts} script elements`);
	expect(counts.imgs === 0, `${counts.imgs} img elements`);
	expect(JSON.stringify(counts.handlers) === '["onload=init(evt)"]', `event handler attributes: ${counts.handlers}`);
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("frame-order", async () => {
	// the script must not rely on the order of the frames in the file
	const file = join(scratch, "reversed.svg");
	const svg = readFileSync(fileURLToPath(nestedGraph()), "utf8");
	const head = svg.indexOf('<g id="frames">\n') + '<g id="frames">\n'.length, tail = svg.lastIndexOf("</g>\n</svg>");
	const frames = svg.slice(head, tail).split("\n").filter(Boolean);
	expect(frames.length > 10, `${frames.length} frame lines in the SVG`);
	writeFileSync(file, svg.slice(0, head) + frames.reverse().join("\n") + "\n" + svg.slice(tail));
	const page = await open(pathToFileURL(file).href);
	const original = await shown(page);
	await clickFrame(page, "compute");
	const zoomed = await shown(page);
	expectNear(one(zoomed, "compute").w, full, "compute's width");
	const ratio = full / samplesUnder(nestedStacks, ["main", "compute"]);
	expectNear(one(zoomed, "sort").w, samplesUnder(nestedStacks, ["main", "compute", "sort"]) * ratio, "sort's width");
	expect(named(zoomed, "parse").length === 0, "parse shown in compute's zoom");
	page.answers.push("^hash$");
	await page.keyboard.press("/");
	const want = expectedMatched(nestedStacks, /^hash$/, ["main", "compute"]);
	expect(await text(page, "matched") === want, `"${await text(page, "matched")}", expected "${want}"`);
	await page.keyboard.press("Escape");
	await page.keyboard.press("Escape");
	sameFrames(await shown(page), original, "after Escape, Escape");
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

test("differential-and-links", async () => {
	// a differential graph's titles end "; +D%)"; --nameattr frames are links
	const diff = "main;a;b 10 20\nmain;a;c 30 10\nmain;d 5 5\n";
	const attrs = join(scratch, "nameattr.txt");
	writeFileSync(attrs, "a\thref=https://example.invalid/a\ttarget=_top\n");
	const page = await open(draw("differential", diff, ["--nameattr", attrs]));
	await hoverFrame(page, "a");
	const details = await text(page, "details");
	expect(/^Function: a \(30 samples, 85\.71%; [-+]?\d+\.\d\d%\)$/.test(details), `details "${details}"`);
	expect(await page.locator("#frames > a").count() === 1, "no link frame");
	await page.keyboard.down("Control");  // Ctrl-click zooms a link frame
	await clickFrame(page, "a");
	await page.keyboard.up("Control");
	const f = one(await shown(page), "a");
	expectNear(f.w, full, "a's width after Ctrl-click");
	expectNear(one(await shown(page), "b").w, full * 20 / 30, "b's width");
	page.answers.push("^b$");
	await page.keyboard.press("/");
	expect(await text(page, "matched") === "Matched: 66.7%", `matched "${await text(page, "matched")}"`);
	await page.keyboard.press("Escape");
	expect(await text(page, "matched") === "Matched: 57.1%", `matched "${await text(page, "matched")}" unzoomed`);
	expect(page.errors.length === 0, `page errors: ${page.errors}`);
	await page.close();
});

// Many distinct frames open and the first click zooms. Times are printed,
// not asserted: the machine may be small and shared.
const sizes = [200000].concat(process.env.BROWSER_MILLION ? [1000000] : []);
for (const frames of sizes) {
	test(`large-${frames / 1000}k`, async () => {
		// 100 roots x (frames / 100) leaves of one sample each
		const lines = [], per = frames / 100;
		for (let r = 0; r < 100; r++)
			for (let l = 0; l < per - 1; l++)
				lines.push(`root${r};leaf${r}_${l} 1`);
		const url = draw(`large${frames}`, lines.join("\n") + "\n", ["--minwidth", "0"]);
		let started = Date.now();
		const page = await open(url, 900000);  // as long as the browser needs
		await painted(page);
		const opened = Date.now() - started;
		// where root7 is, from the file (a locator over 200,000 frames is slow)
		const root7 = await page.evaluate(() => {
			for (const t of document.querySelectorAll("#frames > * > title"))
				if (t.textContent.startsWith("root7 (")) {
					const r = t.parentNode.querySelector("rect");
					return { x: Number(r.getAttribute("x")), w: Number(r.getAttribute("width")), y: Number(r.getAttribute("y")) };
				}
			return null;
		});
		expect(root7, "no root7 frame");
		started = Date.now();
		await page.mouse.click(root7.x + root7.w / 2, root7.y + 7);
		await painted(page);
		const zoomed = Date.now() - started;
		const f = await page.evaluate(({ x, y }) => {
			const hit = document.elementFromPoint(x, y), g = hit && hit.closest("g, a");
			const r = g && g.querySelector("rect");
			return g && { title: g.querySelector("title").textContent, w: Number(r.getAttribute("width")) };
		}, { x: width / 2, y: root7.y + 7 });
		expect(f && f.title.startsWith("root7 (") && Math.abs(f.w - full) <= 0.1,
			`after the click, the middle shows ${JSON.stringify(f)}`);
		started = Date.now();
		await page.keyboard.press("Escape");
		await painted(page);
		const back = Date.now() - started;
		console.log(`# browser/large-${frames / 1000}k: opened in ${opened} ms, first zoom ${zoomed} ms, back in ${back} ms`);
		expect(page.errors.length === 0, `page errors: ${page.errors}`);
		await page.close();
	});
}

// flamekit view's page (view.mjs)
viewTests({ test, open, expect, expectNear, painted, dataFile, parseFolded, samplesUnder, expectedMatched, scratch, build });
// speedscope's importer on flamekit's .speedscope.json (speedscope.mjs)
speedscopeTests({ test, open, expect, scratch, build });

// --- running them --------------------------------------------------------------------

let filter = null;
try {
	filter = process.env.TESTS_FILTER ? new RegExp(process.env.TESTS_FILTER) : null;
} catch (err) {
	filter = null;  // a filter JavaScript cannot read: run all, tests/run.sh filters
}
const wanted = tests.filter((t) => !filter || filter.test("browser/" + t.name));
if (!wanted.length)
	process.exit(0);

let chromium;
try {
	({ chromium } = await import("playwright-core"));
} catch (err) {
	console.log("skip all: playwright-core is not installed in tests/browser (run ./setup.sh)");
	process.exit(0);
}
if (!existsSync(chromiumPath)) {
	console.log(`skip all: no Chromium at ${chromiumPath} (run ./setup.sh)`);
	process.exit(0);
}
try {
	browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
} catch (err) {
	console.log(`skip all: Chromium does not start: ${String(err.message).split("\n")[0]}`);
	process.exit(0);
}
mkdirSync(scratch, { recursive: true });
for (const t of wanted) {
	try {
		await t.body();
		console.log(`ok ${t.name}`);
	} catch (err) {
		console.log(`FAIL ${t.name}: ${String((err && err.message) || err).split("\n")[0]}`);
	}
}
await browser.close();
