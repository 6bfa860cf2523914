// Headless Chromium tests of `flamekit view`'s page, run by run.mjs with its
// helpers. The page draws on canvas, so what it shows is read the way a
// user meets it: the frame drawn at a point (window.flamekitHit, the page's
// own hit-testing), the colour of a pixel, the text of the details line, the
// table and the list. Expected values come from the input files.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export function viewTests(h) {
	const { test, open, expect, expectNear, painted, dataFile, parseFolded, samplesUnder, expectedMatched, scratch, build } = h;
	const flamekit = (args) => execFileSync(join(build, "flamekit"), args, { stdio: ["ignore", "pipe", "pipe"] });

	// Writes the inputs and the page; returns its file:// URL.
	function view(name, inputs, options = []) {
		const files = inputs.map(([ending, text], i) => {
			const file = join(scratch, `${name}-${i}${ending}`);
			writeFileSync(file, text);
			return file;
		});
		const out = join(scratch, name + ".html");
		flamekit(["view", ...options, "-o", out, ...files]);
		return pathToFileURL(out).href;
	}
	const text = (page, id) => page.evaluate((i) => document.getElementById(i).textContent, id);

	// Every frame drawn on canvas `id`: hit-tested along each row, one
	// entry per rectangle: { name, x, w, y } in page coordinates.
	async function frames(page, id = "flame") {
		return page.evaluate((id) => {
			const canvas = document.getElementById(id), r = canvas.getBoundingClientRect();
			const seen = new Map();
			for (let y = 8; y < r.height; y += 16)
				for (let x = 0; x < r.width; x += 1) {
					const f = window.flamekitHit(id, x, y);
					if (f) seen.set(`${f.name}@${f.x},${f.y}`, { name: f.name, x: f.x + r.left, w: f.w, y: f.y + r.top + window.scrollY });
				}
			return [...seen.values()];
		}, id);
	}
	function the(list, name) {
		const found = list.filter((f) => f.name === name);
		if (found.length !== 1) throw new Error(`${found.length} frames named ${JSON.stringify(name)} drawn, expected 1`);
		return found[0];
	}
	async function hover(page, f) {
		await page.mouse.move(f.x + f.w / 2, f.y - (await page.evaluate(() => window.scrollY)) + 8);
	}
	async function click(page, f) {
		await page.mouse.click(f.x + f.w / 2, f.y - (await page.evaluate(() => window.scrollY)) + 8);
		await painted(page);
	}
	// The colour of the pixel of canvas `id` at page point (x, y).
	async function pixel(page, id, x, y) {
		return page.evaluate(({ id, x, y }) => {
			const c = document.getElementById(id), r = c.getBoundingClientRect(), d = window.devicePixelRatio || 1;
			const p = c.getContext("2d").getImageData(Math.round((x - r.left) * d), Math.round((y - r.top - window.scrollY) * d), 1, 1).data;
			return `rgb(${p[0]},${p[1]},${p[2]})`;
		}, { id, x, y });
	}
	// A pixel inside frame f away from its label: near its top right corner.
	const corner = (page, f, id = "flame") => pixel(page, id, f.x + f.w - 3, f.y + 2);
	const share = (n, total) => `${(100 * n / total).toFixed(2)}%`;

	const nested = dataFile("nested.folded");
	const nestedStacks = parseFolded(nested);
	const nestedTotal = samplesUnder(nestedStacks, []);
	let nestedUrl;
	const nestedPage = () => (nestedUrl ??= view("nested", [[".folded", nested]]));

	// A timed profile: slices of 100 ms, ten rows a second, three seconds.
	const timedLines = [
		["main;a", 3, 0], ["main;b", 1, 0], ["main;a", 2, 1], ["main;c", 4, 5],
		["main;a", 1, 12], ["main;d", 6, 12], ["main;b", 2, 25],
	];
	const timedText = "# flamekit timed folded: slice_ms=100\n" +
		timedLines.map(([s, n, slice]) => `${s} ${n} @${(slice / 10).toFixed(3)}\n`).join("");
	const inSlices = (lo, hi, frame) => timedLines.filter(([s, , slice]) => slice >= lo && slice <= hi && (!frame || s.split(";").includes(frame)))
		.reduce((sum, [, n]) => sum + n, 0);
	// Drags on the heat map from slice `from` to slice `to` (Shift: a second range).
	async function drag(page, from, to, shift = false) {
		const g = await page.evaluate(() => {
			const r = document.getElementById("heat").getBoundingClientRect();
			return { left: r.left, top: r.top, width: r.width, height: r.height };
		});
		const perSecond = 10, seconds = 3;
		const cellW = (g.width - 30) / seconds, cellH = (g.height - 14) / perSecond;
		const at = (s) => [g.left + 30 + Math.floor(s / perSecond) * cellW + cellW / 2, g.top + (s % perSecond) * cellH + cellH / 2];
		if (shift) await page.keyboard.down("Shift");
		await page.mouse.move(...at(from));
		await page.mouse.down();
		await page.mouse.move(...at(to));
		await page.mouse.up();
		if (shift) await page.keyboard.up("Shift");
		await painted(page);
	}

	test("view-hover", async () => {
		const page = await open(nestedPage());
		const drawn = await frames(page);
		const compute = the(drawn, "compute");
		await hover(page, compute);
		const n = samplesUnder(nestedStacks, ["main", "compute"]);
		const want = `Function: compute (${n} samples, ${share(n, nestedTotal)})`;
		expect(await text(page, "details") === want, `details "${await text(page, "details")}", expected "${want}"`);
		expectNear(the(drawn, "all").w, 1280, "the root's width");
		expectNear(compute.w, 1280 * n / nestedTotal, "compute's width", 0.5);
		expect(page.errors.length === 0, `page errors: ${page.errors}`);
		await page.close();
	});

	test("view-zoom", async () => {
		const page = await open(nestedPage());
		await click(page, the(await frames(page), "compute"));
		const drawn = await frames(page), compute = the(drawn, "compute");
		expectNear(compute.w, 1280, "compute's width after the click");
		const n = samplesUnder(nestedStacks, ["main", "compute"]);
		const above = drawn.filter((f) => f.y === compute.y - 16);
		for (const kid of ["hash", "sort"])
			expectNear(the(above, kid).w, 1280 * samplesUnder(nestedStacks, ["main", "compute", kid]) / n, `${kid}'s width`, 0.5);
		expect(!drawn.some((f) => f.name === "idle"), "idle drawn inside the zoom");
		await page.keyboard.press("Escape");
		await painted(page);
		expect((await frames(page)).some((f) => f.name === "idle"), "idle not back after Escape");
		await page.close();
	});

	test("view-search", async () => {
		const page = await open(nestedPage());
		await page.fill("#search", "^hash$");
		await painted(page);
		let want = expectedMatched(nestedStacks, /^hash$/);
		expect(await text(page, "matched") === want, `matched "${await text(page, "matched")}", expected "${want}"`);
		const hash = (await frames(page)).filter((f) => f.name === "hash")[0];
		expect(await corner(page, hash) === "rgb(230,0,230)", `a match is drawn ${await corner(page, hash)}`);
		// inside a zoom the share is of the zoomed frame's samples
		await click(page, the(await frames(page), "compute"));
		want = expectedMatched(nestedStacks, /^hash$/, ["main", "compute"]);
		expect(await text(page, "matched") === want, `zoomed: matched "${await text(page, "matched")}", expected "${want}"`);
		// the result list: each match with its total and self share
		const items = await page.evaluate(() => Array.from(document.querySelectorAll("#results li"), (li) => li.textContent));
		const total = nestedStacks.filter((s) => s.frames.includes("hash")).reduce((a, s) => a + s.count, 0);
		const self = nestedStacks.filter((s) => s.frames[s.frames.length - 1] === "hash").reduce((a, s) => a + s.count, 0);
		const line = `hash \u2014 ${share(total, nestedTotal)}, ${share(self, nestedTotal)}`;
		expect(items.length === 1 && items[0] === line, `results ${JSON.stringify(items)}, expected ${JSON.stringify(line)}`);
		// stepping shows each match in turn
		await page.keyboard.press("n");
		expect((await text(page, "details")).startsWith("match 1 of "), `after n: "${await text(page, "details")}"`);
		expect((await text(page, "details")).includes("Function: hash ("), `after n: "${await text(page, "details")}"`);
		await page.close();
	});

	test("view-range", async () => {
		const page = await open(view("range", [[".timed", timedText]]));
		// a range from the URL: the whole profile's hover text does not stay
		// to describe the range's graph
		await hover(page, the(await frames(page), "all"));
		await page.evaluate(() => { location.hash = "r=1-12"; });
		await painted(page);
		expect(!(await text(page, "details")).startsWith("Function:"), `after a range, the details line still says "${await text(page, "details")}"`);
		await drag(page, 1, 12);
		const drawn = await frames(page);
		const all = inSlices(1, 12);
		await hover(page, the(drawn, "all"));
		expect(await text(page, "details") === `Function: all (${all} samples, 100.00%)`, `range 1-12: "${await text(page, "details")}", expected ${all} samples`);
		for (const name of ["a", "c", "d"]) {
			await hover(page, the(drawn, name));
			const n = inSlices(1, 12, name);
			expect(await text(page, "details") === `Function: ${name} (${n} samples, ${share(n, all)})`, `range 1-12, ${name}: "${await text(page, "details")}"`);
		}
		expect(!drawn.some((f) => f.name === "b"), "b, outside the range, is drawn");
		// a click is one slice
		await drag(page, 0, 0);
		await hover(page, the(await frames(page), "all"));
		expect(await text(page, "details") === `Function: all (${inSlices(0, 0)} samples, 100.00%)`, `slice 0: "${await text(page, "details")}"`);
		expect(page.errors.length === 0, `page errors: ${page.errors}`);
		await page.close();
	});

	test("view-range-diff", async () => {
		const page = await open(view("range-diff", [[".timed", timedText]]));
		await drag(page, 0, 1);          // before: a 5, b 1
		await drag(page, 12, 25, true);  // after: a 1, d 6, b 2
		const drawn = await frames(page);
		for (const name of ["a", "b", "d"])
			expect(drawn.some((f) => f.name === name), `${name} not drawn in the difference`);
		// d is new (grew): red; a shrank from 5/6 to 1/9: blue
		const d = the(drawn, "d"), a = the(drawn, "a");
		const red = /^rgb\(255,(\d+),\1\)$/.exec(await corner(page, d));
		expect(red && Number(red[1]) < 255, `d, which grew, is ${await corner(page, d)}`);
		const blue = /^rgb\((\d+),\1,255\)$/.exec(await corner(page, a));
		expect(blue && Number(blue[1]) < 255, `a, which shrank, is ${await corner(page, a)}`);
		await hover(page, d);
		expect((await text(page, "details")).endsWith("new in after"), `d: "${await text(page, "details")}"`);
		await page.close();
	});

	test("view-diff-files", async () => {
		const before = "main;a;x 10\nmain;b 10\nmain;gone;deep 5\n", after = "main;a;x 30\nmain;b 5\n";
		const page = await open(view("diff", [[".folded", before], [".folded", after]]));
		const drawn = await frames(page);
		// the union: what vanished in AFTER is drawn, hatched, and says so
		const gone = the(drawn, "gone"), deep = the(drawn, "deep");
		expect(gone.w > 10 && deep.w > 10, `vanished path drawn ${gone.w} and ${deep.w} px wide`);
		await hover(page, gone);
		expect((await text(page, "details")).endsWith("vanished in after"), `gone: "${await text(page, "details")}"`);
		expect((await text(page, "details")).includes("(diff-0.folded 5 samples, 20.00%; diff-1.folded 0 samples"), `gone: "${await text(page, "details")}"`);
		// widths: the mean of the two shares
		const width = (s) => 1280 * (s.a / 25 + s.b / 35) / 2;  // before 25 samples, after 35
		expectNear(the(drawn, "a").w, width({ a: 10, b: 30 }), "a's width", 1);
		expectNear(gone.w, width({ a: 5, b: 0 }), "gone's width", 1);
		// x grew (10/25 -> 30/35): red; b shrank: blue; colour-blind: orange and blue
		const x = the(drawn, "x"), b = the(drawn, "b");
		expect(/^rgb\(255,(\d+),\1\)$/.test(await corner(page, x)), `x is ${await corner(page, x)}`);
		expect(/^rgb\((\d+),\1,255\)$/.test(await corner(page, b)), `b is ${await corner(page, b)}`);
		await page.keyboard.press("c");
		await painted(page);
		const orange = /^rgb\(255,(\d+),(\d+)\)$/.exec(await corner(page, x));
		expect(orange && Number(orange[1]) > Number(orange[2]), `colour-blind x is ${await corner(page, x)}`);
		const cbBlue = /^rgb\((\d+),(\d+),255\)$/.exec(await corner(page, b));
		expect(cbBlue && Number(cbBlue[1]) < Number(cbBlue[2]), `colour-blind b is ${await corner(page, b)}`);
		await page.close();
	});

	// Pixels of frame f's label band (its left part, where the label is
	// drawn) that are light (every channel >= 200) and dark (every one <= 80).
	async function labelInk(page, f, id = "flame") {
		return page.evaluate(({ id, x, y, w }) => {
			const c = document.getElementById(id), r = c.getBoundingClientRect(), d = window.devicePixelRatio || 1;
			const left = Math.round((x - r.left + 3) * d), top = Math.round((y - r.top - window.scrollY + 3) * d);
			const p = c.getContext("2d").getImageData(left, top, Math.round(Math.min(w - 8, 80) * d), Math.round(9 * d)).data;
			let light = 0, dark = 0;
			for (let i = 0; i < p.length; i += 4) {
				if (p[i] >= 200 && p[i + 1] >= 200 && p[i + 2] >= 200) light++;
				if (p[i] <= 80 && p[i + 1] <= 80 && p[i + 2] <= 80) dark++;
			}
			return { light, dark };
		}, { id, x: f.x, y: f.y, w: f.w });
	}

	test("view-diff-colour-rule", async () => {
		// One rule for both difference views: a frame is coloured by the
		// change of its self time, before scaled to after's total, as
		// `flamekit diff -n --svg` colours it, frame for frame. grow's total
		// grew 443 -> 904 with no self time: white in both.
		const before = "main;grow;leaf 443\nmain;shrink 600\nmain;same 100\nmain;mixed 50\nmain;mixed;kid 20\n";
		const after = "main;grow;leaf 904\nmain;shrink 100\nmain;same 100\nmain;mixed 80\nmain;mixed;kid 10\n";
		const page = await open(view("colour-rule", [[".folded", before], [".folded", after]]));
		const svg = flamekit(["diff", "-n", "--svg", join(scratch, "colour-rule-0.folded"), join(scratch, "colour-rule-1.folded")]).toString();
		const drawn = await frames(page);
		const fills = {};
		for (const name of ["main", "grow", "leaf", "shrink", "same", "mixed", "kid"]) {
			const m = new RegExp(`<title>${name} \\([^<]*</title><rect [^>]*fill="(rgb\\([0-9,]+\\))"`).exec(svg);
			expect(m, `no ${name} in diff --svg's SVG`);
			fills[name] = await corner(page, the(drawn, name));
			expect(fills[name] === m[1], `${name} is ${fills[name]} in the view, ${m[1]} in diff -n --svg`);
		}
		expect(fills.grow === "rgb(255,255,255)", `grow, with no self time, is ${fills.grow}`);
		expect(fills.shrink === "rgb(0,0,255)", `shrink, the largest change, is ${fills.shrink}`);
		// labels stand out: white on the deep blue, black on red and white
		const onBlue = await labelInk(page, the(drawn, "shrink")), onRed = await labelInk(page, the(drawn, "leaf"));
		const onWhite = await labelInk(page, the(drawn, "grow"));
		expect(onBlue.light > 20 && onBlue.dark === 0, `shrink's label on blue: ${JSON.stringify(onBlue)} light and dark pixels, expected white ink`);
		expect(onRed.dark > 20, `leaf's label on red: ${JSON.stringify(onRed)}, expected black ink`);
		expect(onWhite.dark > 20, `grow's label on white: ${JSON.stringify(onWhite)}, expected black ink`);
		await page.close();
	});

	test("view-colors", async () => {
		// a frame has the SVG's colour for the same name and palette
		const svg = execFileSync(join(build, "flamekit"), ["flamegraph", join(scratch, "nested-0.folded")]).toString();
		const page = await open(nestedPage());
		const drawn = await frames(page);
		for (const name of ["compute", "parse", "sort"]) {
			const m = new RegExp(`<title>${name} \\([^<]*</title><rect [^>]*fill="(rgb\\([0-9,]+\\))"`).exec(svg);
			expect(m, `no ${name} in the SVG`);
			const f = drawn.filter((d) => d.name === name)[0];
			expect(await corner(page, f) === m[1], `${name} is ${await corner(page, f)}, the SVG's is ${m[1]}`);
		}
		await page.close();
	});

	// self and total per function, from the stacks
	function functionTable(stacks) {
		const self = new Map(), total = new Map();
		for (const s of stacks) {
			const leaf = s.frames[s.frames.length - 1];
			self.set(leaf, (self.get(leaf) || 0) + s.count);
			for (const f of new Set(s.frames)) total.set(f, (total.get(f) || 0) + s.count);
		}
		return { self, total };
	}
	const rowsOf = (page) => page.$$eval("#table-view tbody tr", (trs) => trs.map((tr) => Array.from(tr.cells, (td) => td.textContent)));

	test("view-table", async () => {
		const page = await open(nestedPage());
		await page.keyboard.press("t");
		const want = functionTable(nestedStacks);
		let rows = await rowsOf(page);
		expect(rows.length === want.total.size, `${rows.length} rows, expected ${want.total.size}`);
		for (const [name, self, , total] of rows) {
			expect(Number(self) === (want.self.get(name) || 0), `${name}: self ${self}, expected ${want.self.get(name) || 0}`);
			expect(Number(total) === want.total.get(name), `${name}: total ${total}, expected ${want.total.get(name)}`);
		}
		expect(await text(page, "self-sum") === String(nestedTotal), `self sums to ${await text(page, "self-sum")}, expected ${nestedTotal}`);
		// sorted by total, largest first; a click on Self sorts by self
		expect(rows.every((r, i) => i === 0 || Number(rows[i - 1][3]) >= Number(r[3])), "not sorted by total");
		await page.click("#table-view th:nth-child(2)");
		rows = await rowsOf(page);
		expect(rows.every((r, i) => i === 0 || Number(rows[i - 1][1]) >= Number(r[1])), `not sorted by self: ${rows.map((r) => r[1])}`);
		await page.click("#table-view th:nth-child(2)");
		rows = await rowsOf(page);
		expect(rows.every((r, i) => i === 0 || Number(rows[i - 1][1]) <= Number(r[1])), "a second click does not sort ascending");
		await page.fill("#filter", "s");
		rows = await rowsOf(page);
		const names = [...want.total.keys()].filter((n) => n.includes("s")).sort();
		expect(JSON.stringify(rows.map((r) => r[0]).sort()) === JSON.stringify(names), `filtered ${rows.map((r) => r[0])}, expected ${names}`);
		await page.close();
	});

	test("view-sandwich", async () => {
		const page = await open(nestedPage());
		await page.keyboard.press("t");
		await page.click(`#table-view tbody tr:has(td.name:text-is("memcpy"))`);
		await painted(page);
		const callers = await frames(page, "callers"), callees = await frames(page, "callees");
		// callers: the frames right above memcpy's outermost calls, by samples
		const with_ = nestedStacks.filter((s) => s.frames.includes("memcpy"));
		const all = with_.reduce((a, s) => a + s.count, 0);
		const root = callers.filter((f) => f.name === "memcpy").sort((p, q) => q.y - p.y)[0];
		expectNear(root.w, 1280, "memcpy's width in callers");
		const direct = new Map();
		for (const s of with_) {
			const i = s.frames.indexOf("memcpy");
			if (i > 0) direct.set(s.frames[i - 1], (direct.get(s.frames[i - 1]) || 0) + s.count);
		}
		const row1 = callers.filter((f) => f.y === root.y - 16);
		expect(row1.length === direct.size, `callers ${row1.map((f) => f.name)}, expected ${[...direct.keys()]}`);
		for (const f of row1) expectNear(f.w, 1280 * direct.get(f.name) / all, `caller ${f.name}'s width`, 0.5);
		// callees: below memcpy, what it calls
		const below = new Map();
		for (const s of with_) {
			const i = s.frames.indexOf("memcpy");
			if (i + 1 < s.frames.length) below.set(s.frames[i + 1], (below.get(s.frames[i + 1]) || 0) + s.count);
		}
		const top = callees.filter((f) => f.name === "memcpy").sort((p, q) => p.y - q.y)[0];
		expectNear(top.w, 1280, "memcpy's width in callees");
		const crow = callees.filter((f) => f.y === top.y + 16);
		expect(crow.length === below.size, `callees ${crow.map((f) => f.name)}, expected ${[...below.keys()]}`);
		for (const f of crow) expectNear(f.w, 1280 * below.get(f.name) / all, `callee ${f.name}'s width`, 0.5);
		await page.close();
	});

	test("view-url", async () => {
		const page = await open(view("url", [[".timed", timedText]]));
		await drag(page, 0, 12);
		await click(page, the(await frames(page), "main"));
		await page.fill("#search", "^a$");
		await page.keyboard.press("Escape");  // leaves the search box
		await page.keyboard.press("i");
		await painted(page);
		const matched = await text(page, "matched");
		await page.reload();
		await painted(page);
		expect(await text(page, "matched") === matched, `after reload matched "${await text(page, "matched")}", was "${matched}"`);
		const drawn = await frames(page);
		const main = the(drawn, "main"), a = the(drawn, "a");
		const full = await page.evaluate(() => document.getElementById("flame").clientWidth);
		expect(full > 600, `the graph is ${full} px wide`);
		expectNear(main.w, full, "main's width after reload (zoomed)");
		expect(a.y > main.y, "not an icicle after reload");
		await hover(page, the(drawn, "all"));
		expect(await text(page, "details") === `Function: all (${inSlices(0, 12)} samples, 100.00%)`, `range after reload: "${await text(page, "details")}"`);
		await page.close();
	});

	test("view-keyboard", async () => {
		const page = await open(nestedPage());
		await page.keyboard.press("ArrowUp");  // from the root to its widest child
		const main = samplesUnder(nestedStacks, ["main"]);
		expect((await text(page, "details")).startsWith(`Function: main (${main} samples`), `up: "${await text(page, "details")}"`);
		await page.keyboard.press("ArrowUp");
		await page.keyboard.press("Enter");
		await painted(page);
		const zoomed = (await frames(page)).filter((f) => Math.abs(f.w - 1280) < 0.5).map((f) => f.name);
		expect(zoomed.length === 3, `full-width frames after Enter: ${zoomed}`);
		await page.keyboard.press("Escape");
		await painted(page);
		expect((await frames(page)).some((f) => f.name === "idle"), "Escape did not zoom out");
		await page.keyboard.press("/");
		expect(await page.evaluate(() => document.activeElement.id) === "search", "/ does not focus the search");
		await page.keyboard.type("sort");
		await page.keyboard.press("Escape");
		await page.keyboard.press("i");
		await painted(page);
		const drawn = await frames(page);
		expect(the(drawn, "all").y < the(drawn, "main").y, "i: the root is not at the top");
		expect(await text(page, "matched") === expectedMatched(nestedStacks, /sort/), `matched "${await text(page, "matched")}"`);
		await page.close();
	});

	test("view-hostile-names", async () => {
		const hostile = dataFile("hostile.folded");
		const stacks = parseFolded(hostile), total = samplesUnder(stacks, []);
		const page = await open(view("hostile", [[".folded", hostile]], ["--title", "<script>alert(5)</script>&amp;"]));
		await painted(page);
		expect(await page.title() === "<script>alert(5)</script>&amp;", `title "${await page.title()}"`);
		const drawn = await frames(page);
		for (const s of stacks) {
			const name = s.frames[1];
			const f = drawn.find((d) => d.name === name);
			expect(f, `${JSON.stringify(name)} not drawn`);
			await hover(page, f);
			const want = `Function: ${name} (${s.count} samples, ${share(s.count, total)})`;
			expect(await text(page, "details") === want, `details "${await text(page, "details")}", expected "${want}"`);
		}
		await page.keyboard.press("t");
		const names = (await rowsOf(page)).map((r) => r[0]);
		for (const s of stacks) expect(names.includes(s.frames[1]), `${JSON.stringify(s.frames[1])} not in the table`);
		await page.waitForTimeout(200);
		expect(page.dialogs.length === 0, `dialogs: ${page.dialogs}`);
		const counts = await page.evaluate(() => ({
			scripts: Array.from(document.scripts).filter((s) => s.type !== "application/json").length,
			imgs: document.images.length,
			handlers: Array.from(document.querySelectorAll("*")).flatMap((e) => Array.from(e.attributes)).filter((a) => /^on/i.test(a.name)).length,
		}));
		expect(counts.scripts === 1 && counts.imgs === 0 && counts.handlers === 0, `page has ${JSON.stringify(counts)}`);
		expect(page.errors.length === 0, `page errors: ${page.errors}`);
		await page.close();
	});
}
