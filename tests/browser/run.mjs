// Headless Chromium tests of the SVG's script: node tests/browser/run.mjs BUILD SCRATCH
//
// Each test draws an SVG with BUILD/flamekit flamegraph from folded text,
// opens it over file:// and acts as a user would. Prints one line per test,
// "ok NAME", "FAIL NAME: why" or "skip NAME: why", for tests/run.sh to count.
// The expected values come from the folded text itself, not from the SVG.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [build, scratch] = process.argv.slice(2);
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
let chromium;
try {
	({ chromium } = await import("playwright-core"));
} catch (err) {
	console.log("skip browser: playwright-core is not installed (run ./setup.sh)");
	process.exit(0);
}
if (!existsSync(chromiumPath)) {
	console.log(`skip browser: no Chromium at ${chromiumPath} (run ./setup.sh)`);
	process.exit(0);
}
let browser;
try {
	browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
} catch (err) {
	console.log(`skip browser: Chromium does not start: ${String(err.message).split("\n")[0]}`);
	process.exit(0);
}
mkdirSync(scratch, { recursive: true });

// --- helpers ------------------------------------------------------------------

function draw(name, folded, options = []) {
	const input = join(scratch, name + ".folded"), output = join(scratch, name + ".svg");
	writeFileSync(input, folded);
	execFileSync(join(build, "flamekit"), ["flamegraph", ...options, input, "-o", output]);
	return pathToFileURL(output).href;
}

function parseFolded(text) {
	return text.trim().split("\n").map((line) => {
		const at = line.lastIndexOf(" ");
		return { frames: line.slice(0, at).split(";"), count: Number(line.slice(at + 1)) };
	});
}

// The share of samples in stacks under `path` that have a frame matching re.
function expectedShare(stacks, re, path = []) {
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

async function open(url, timeout = 30000) {
	const page = await browser.newPage();
	page.dialogs = [];
	page.answer = null;
	page.on("dialog", async (d) => {
		page.dialogs.push(d.type() + ":" + d.message());
		if (d.type() === "prompt" && page.answer !== null) await d.accept(page.answer);
		else await d.dismiss();
	});
	await page.goto(url, { timeout });
	return page;
}

// The frame <g> whose title starts with "NAME (", the n-th such.
function frame(page, name, n = 0) {
	return page.locator("#frames > *")
		.filter({ has: page.locator("title", { hasText: new RegExp("^" + escapeRe(name) + " \\(") }) }).nth(n);
}

function escapeRe(s) {
	return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function geometry(page) {
	return page.evaluate(() => Array.from(document.querySelectorAll("#frames > *")).map((g) => {
		const r = g.querySelector("rect"), t = g.querySelector("text");
		const label = t && t.textContent ? t.getAttribute("x") + "|" + t.textContent : "|";
		return [g.querySelector("title").textContent, r.getAttribute("x"), r.getAttribute("width"),
			r.getAttribute("fill"), label,
			(g.getAttribute("class") || "").replace(/\bselected\b/, "").trim()].join("|");
	}));
}

async function rectOf(page, name, n = 0) {
	const r = frame(page, name, n).locator("rect");
	return { x: Number(await r.getAttribute("x")), w: Number(await r.getAttribute("width")) };
}

const text = (page, id) => page.locator("#" + id).textContent();
const near = (a, b) => Math.abs(a - b) <= 0.11;

let failures = 0;
async function test(name, body) {
	try {
		await body();
		console.log(`ok ${name}`);
	} catch (err) {
		failures++;
		console.log(`FAIL ${name}: ${String(err && err.message || err).split("\n")[0]}`);
	}
}

function expect(condition, message) {
	if (!condition) throw new Error(message);
}

// --- the graph under test -------------------------------------------------------

// "hash" is both a caller and a callee of itself (nested matches), "memcpy"
// sits under two parents, and counts differ so that shares are telling.
const folded = [
	"main;parse;read_line 30",
	"main;parse;tokenize;hash 20",
	"main;compute;hash 40",
	"main;compute;hash;hash;memcpy 15",
	"main;compute;hash;memcpy 10",
	"main;compute;sort 25",
	"main;compute;sort;memcpy 5",
	"idle 55",
].join("\n") + "\n";
const stacks = parseFolded(folded);
const url = draw("graph", folded);
const width = 1200, xpad = 10, full = width - 2 * xpad;

await test("hover shows the frame in the details line", async () => {
	const page = await open(url);
	await frame(page, "compute").hover();
	expect(await text(page, "details") === "Function: compute (95 samples, 47.50%)",
		`details: "${await text(page, "details")}"`);
	expect((await frame(page, "compute").locator("title").textContent()).startsWith("compute (95 samples"),
		"no tooltip title");
	await page.mouse.move(width - 5, 5);
	expect((await text(page, "details")).trim() === "", "details not cleared on mouse out");
	await page.close();
});

await test("click zooms: full width, callers kept and dimmed, others hidden", async () => {
	const page = await open(url);
	const before = await rectOf(page, "hash", 1);  // under compute
	const compute = await rectOf(page, "compute");
	await frame(page, "compute").click();
	const after = await rectOf(page, "compute");
	expect(near(after.x, xpad) && near(after.w, full), `compute at ${after.x}+${after.w}`);
	const main = await rectOf(page, "main");
	expect(near(main.w, full), `main (a caller) ${main.w} wide`);
	expect(/parent/.test(await frame(page, "main").getAttribute("class")), "main not dimmed");
	expect(!(await frame(page, "parse").isVisible()), "parse (not under compute) still shown");
	expect(!(await frame(page, "idle").isVisible()), "idle still shown");
	const hash = await rectOf(page, "hash", 1);
	expect(near(hash.w, before.w * (full / compute.w)), `hash ${hash.w} wide, expected ${before.w * full / compute.w}`);
	expect(await page.locator("#unzoom").isVisible(), "no Reset Zoom");
	await page.close();
});

await test("Reset Zoom and Escape restore every frame", async () => {
	const page = await open(url);
	const original = await geometry(page);
	await frame(page, "compute").click();
	await frame(page, "sort").click();
	await page.locator("#unzoom").click();
	expect(JSON.stringify(await geometry(page)) === JSON.stringify(original), "Reset Zoom changed the frames");
	await frame(page, "parse").click();
	await page.keyboard.press("Escape");
	expect(JSON.stringify(await geometry(page)) === JSON.stringify(original), "Escape changed the frames");
	expect(!(await page.locator("#unzoom").isVisible()), "Reset Zoom still shown");
	await page.close();
});

await test("search: matched share counts nested matches once", async () => {
	const page = await open(url);
	page.answer = "^hash$";
	await page.locator("#search").click();
	const want = expectedShare(stacks, /^hash$/);
	expect(await text(page, "matched") === want, `"${await text(page, "matched")}", expected "${want}"`);
	expect(await frame(page, "hash", 2).locator("rect").getAttribute("fill") === "rgb(230,0,230)", "no highlight");
	expect(await frame(page, "memcpy").locator("rect").getAttribute("fill") !== "rgb(230,0,230)", "memcpy highlighted");
	expect(await text(page, "search") === "Reset Search", "button not Reset Search");
	await page.close();
});

await test("search inside a zoom is a share of the zoomed frame", async () => {
	const page = await open(url);
	await frame(page, "compute").click();
	page.answer = "memcpy";
	await page.keyboard.press("Control+f");
	let want = expectedShare(stacks, /memcpy/, ["main", "compute"]);
	expect(await text(page, "matched") === want, `zoomed: "${await text(page, "matched")}", expected "${want}"`);
	// a matching caller covers the whole zoomed frame
	await page.locator("#search").click();  // reset
	page.answer = "^main$";
	await page.keyboard.press("/");
	expect(await text(page, "matched") === "Matched: 100%", `caller match: "${await text(page, "matched")}"`);
	await page.close();
});

await test("ignore case", async () => {
	const page = await open(url);
	page.answer = "HASH";
	await page.keyboard.press("/");
	expect(await text(page, "matched") === "Matched: 0.0%", `case-sensitive: "${await text(page, "matched")}"`);
	await page.locator("#ignorecase").click();
	const want = expectedShare(stacks, /hash/i);
	expect(await text(page, "matched") === want, `ignoring case: "${await text(page, "matched")}", expected "${want}"`);
	await page.close();
});

await test("the URL keeps zoom and search across a reload", async () => {
	const page = await open(url);
	await frame(page, "compute").click();
	page.answer = "sort";
	await page.keyboard.press("/");
	const link = page.url();
	expect(link.includes("#") && link.startsWith("file://"), `url ${link}`);
	const matched = await text(page, "matched");
	const geo = await geometry(page);
	const again = await open(link);
	expect(await text(again, "matched") === matched, `after reload: "${await text(again, "matched")}", expected "${matched}"`);
	expect(JSON.stringify(await geometry(again)) === JSON.stringify(geo), "zoom not restored");
	await again.close();
	await page.close();
});

await test("keyboard: arrows move, Enter zooms", async () => {
	const page = await open(url);
	await page.locator("#title").click();  // focus, no frame
	await page.keyboard.press("ArrowUp");  // selects the root
	await page.keyboard.press("ArrowUp");  // its widest child: main
	await page.keyboard.press("ArrowUp");  // compute (95) over parse (50)
	expect((await text(page, "details")).startsWith("Function: compute ("), `selected: ${await text(page, "details")}`);
	await page.keyboard.press("ArrowRight");  // parse is right of compute (sorted)
	expect((await text(page, "details")).startsWith("Function: parse ("), `after right: ${await text(page, "details")}`);
	await page.keyboard.press("ArrowLeft");
	expect((await text(page, "details")).startsWith("Function: compute ("), `after left: ${await text(page, "details")}`);
	await page.keyboard.press("ArrowRight");
	await page.keyboard.press("Enter");
	const parse = await rectOf(page, "parse");
	expect(near(parse.w, full), `parse ${parse.w} wide after Enter`);
	await page.keyboard.press("ArrowDown");
	expect((await text(page, "details")).startsWith("Function: main ("), `after down: ${await text(page, "details")}`);
	await page.close();
});

await test("hostile names stay text", async () => {
	const hostile = [
		"main;</text><script>alert(1)</script> 10",
		'main;"onload="alert(2) 10',
		"main;<img src=x onerror=alert(3)> 10",
		"main;]]><script>alert(4)</script> 10",
		"main;a&b<c>d 10",
	].join("\n") + "\n";
	const page = await open(draw("hostile", hostile, ["--title", "<script>alert(5)</script>"]));
	await page.waitForTimeout(200);
	await frame(page, "<img src=x onerror=alert(3)>").hover();
	expect(await text(page, "details") === "Function: <img src=x onerror=alert(3)> (10 samples, 20.00%)",
		`details: ${await text(page, "details")}`);
	await frame(page, "</text><script>alert(1)</script>").click();
	await page.keyboard.press("Escape");
	expect(page.dialogs.length === 0, `dialogs: ${page.dialogs.join(", ")}`);
	expect(await page.locator("script").count() === 1, `${await page.locator("script").count()} script elements`);
	expect(await frame(page, "a&b<c>d").count() === 1, "a&b<c>d not kept literally");
	await page.close();
});

// Large: many distinct frames open, and the first click zooms (times are
// printed, not asserted: the machine is small and shared).
for (const frames of [200000].concat(process.env.BROWSER_MILLION ? [1000000] : [])) {
	await test(`${frames} frames open and zoom`, async () => {
		const lines = [];
		// 100 roots x (frames / 100) leaves, each wide enough to be drawn
		const per = frames / 100;
		for (let r = 0; r < 100; r++)
			for (let l = 0; l < per - 1; l++)
				lines.push(`root${r};leaf${r}_${l} 1`);
		const large = draw("large" + frames, lines.join("\n") + "\n", ["--minwidth", "0"]);
		const started = Date.now();
		const page = await open(large, 900000);
		const opened = Date.now() - started;
		// find the frame in the page: a locator filter over every element is slow
		const root7 = await page.evaluateHandle(() => Array.from(document.querySelectorAll("#frames > *"))
			.find((g) => g.firstElementChild.textContent.startsWith("root7 (")).querySelector("rect"));
		const clickStarted = Date.now();
		await root7.click({ timeout: 120000 });
		const zoomed = Date.now() - clickStarted;
		const w = Number(await root7.getAttribute("width"));
		expect(near(w, full), `root7 ${w} wide after the click`);
		console.log(`  (${frames} frames: opened in ${opened} ms, first zoom ${zoomed} ms)`);
		await page.close();
	});
}

await browser.close();
process.exit(0);
