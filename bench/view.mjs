// Times flamekit view's page, and speedscope's, in headless Chromium
// (playwright-core from tests/browser): node bench/view.mjs PAGE.html [SPEEDSCOPE_DIR PROFILE.js]
// Prints "name milliseconds" lines for bench/view.sh; with SCREENSHOT=FILE.png
// also saves a picture of the page. Times come from the
// page's Performance API: first paint is the page's "flamekit-painted" mark
// (after its first graph and heat map are drawn) from the navigation's start;
// an interaction is the time its event takes to be handled, the drawing
// included (canvas drawing is synchronous), median of REPS.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), "..", "tests", "browser", "package.json"));
const { chromium } = require("playwright-core");
const [pagePath, speedscopeDir, speedscopeProfile] = process.argv.slice(2);
const REPS = Number(process.env.BENCH_REPS || 5);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const report = (name, ms) => console.log(`${name} ${ms.toFixed(1)}`);

async function flamekitRun() {
	const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
	await page.goto(pathToFileURL(pagePath).href, { timeout: 120000 });
	await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 120000 });
	return page;
}
// Times fn in the page (synchronous event handling and drawing), REPS times.
// setup runs first, untimed (the state to start from).
async function timeIn(page, fn, arg, setup = "() => {}") {
	const times = [];
	for (let i = 0; i < REPS; i++)
		times.push(await page.evaluate(`(() => { const arg = ${JSON.stringify(arg)}; (${setup})(arg, ${i});
			const t0 = performance.now(); (${fn})(arg, ${i}); return performance.now() - t0; })()`));
	return median(times);
}
const mouse = `(type, id, x, y, extra) => { const c = document.getElementById(id), r = c.getBoundingClientRect();
	c.dispatchEvent(new MouseEvent(type, Object.assign({ bubbles: true, clientX: r.left + x, clientY: r.top + y }, extra || {}))); }`;

{
	const paints = [];
	let page;
	for (let i = 0; i < 3; i++) {
		if (page) await page.close();
		page = await flamekitRun();
		paints.push(await page.evaluate(() => performance.getEntriesByName("flamekit-painted")[0].startTime));
	}
	report("flamekit first-paint", median(paints));
	const rowY = (depth) => `(document.getElementById("flame").getBoundingClientRect().height - 2 - (${depth} + 0.5) * 16)`;
	report("flamekit hover", await timeIn(page, `(a, i) => (${mouse})("mousemove", "flame", 200 + 37 * i, eval(a))`, rowY(2)));
	report("flamekit zoom", await timeIn(page, `(a, i) => (${mouse})("click", "flame", 300 + 11 * i, eval(a))`, rowY(3),
		`() => document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }))`));
	report("flamekit range-select", await timeIn(page, `(a, i) => { (${mouse})("mousedown", "heat", 40 + 20 * i, 20); window.dispatchEvent(new MouseEvent("mouseup", { clientX: document.getElementById("heat").getBoundingClientRect().left + 400 + 20 * i, clientY: document.getElementById("heat").getBoundingClientRect().top + 60 })); }`, 0));
	if (process.env.SCREENSHOT) {  // the README's picture: a range, zoomed, searched
		await page.evaluate(() => { location.hash = "r=1490-1520&q=fn1%24&z=3"; });
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
		await page.screenshot({ path: process.env.SCREENSHOT });
	}
	await page.keyboard.press("t");
	report("flamekit table-sort", await timeIn(page, `() => document.querySelector("#table-view th:nth-child(2)").click()`, 0));
	await page.close();
}

if (speedscopeDir && speedscopeProfile) {
	const paints = [];
	for (let i = 0; i < 3; i++) {
		const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
		const url = pathToFileURL(join(speedscopeDir, "dist", "release", "index.html")).href + "#localProfilePath=" + speedscopeProfile;
		await page.goto(url, { timeout: 120000 });
		// loaded: the title names the profile and the flame chart's canvas is up
		await page.waitForFunction(() => /bench/.test(document.title) && document.querySelector("canvas"), null, { timeout: 300000, polling: 10 });
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
		paints.push(await page.evaluate(() => performance.now()));
		await page.close();
	}
	report("speedscope first-paint", median(paints));
}
await browser.close();
