// speedscope's own importer judges flamekit's .speedscope.json files, run by
// run.mjs with its helpers: the npm package speedscope (pinned in
// package-lock.json beside playwright-core) opened from file:// in the
// browser tests' Chromium, a profile loaded the way its command line loads
// one (a script calling speedscope.loadFileFromBase64(), named in the URL as
// #localProfilePath). A file is imported when the page's title becomes
// "NAME - speedscope" with no "Unrecognized format!" alert; the weights of
// each profile, as speedscope sums them in its sandwich view's Self column,
// add up to what the profile holds, and all profiles to the total of the
// folded stacks flamekit collapses from the same input.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const index = join(here, "node_modules", "speedscope", "dist", "release", "index.html");

// A value as speedscope's formatters print it (value-formatters.ts): "1,234"
// for counts; "1.23s", "12.30ms", "4.00µs", "5.00ns" or "m:ss" for time.
function parseShown(text, unit) {
	if (unit === "none")
		return Number(text.replace(/,/g, ""));
	const m = /^(\d+):(\d\d)$/.exec(text);
	if (m)
		return (Number(m[1]) * 60 + Number(m[2])) * 1e9 / (unit === "microseconds" ? 1e3 : 1);
	const t = /^([\d.]+)(s|ms|µs|ns)$/.exec(text);
	if (!t)
		throw new Error(`speedscope shows a value as ${JSON.stringify(text)}`);
	const ns = Number(t[1]) * { s: 1e9, ms: 1e6, "µs": 1e3, ns: 1 }[t[2]];
	return unit === "microseconds" ? ns / 1e3 : ns;
}

export function speedscopeTests(h) {
	const { test, open, expect, scratch, build } = h;
	const data = join(here, "..", "data");
	const flamekit = (args) => execFileSync(join(build, "flamekit"), args, { stdio: ["ignore", "pipe", "pipe"] });

	// name, input (written to the scratch directory when given as text)
	const cases = [
		// two processes (bcc's report: comm and pid): two profiles
		["speedscope-processes", "report.txt",
		 "    main\n    -                app (42)\n        7\n\n    f\n    main\n    -                web (43)\n        1234\n"],
		// Go's CPU profile, in nanoseconds
		["speedscope-go-cpu", join(data, "go", "split.pprof")],
		// time slices, in time order
		["speedscope-timed", join(data, "small.timed")],
		// perf script text: a profile per process name
		["speedscope-perf", join(data, "small.perf")],
	];
	for (const [name, input, text] of cases) {
		test(name, async () => {
			if (!existsSync(index))
				throw new Error(`speedscope is not installed: no ${index} (run ./setup.sh)`);
			let file = input;
			if (text !== undefined) {
				file = join(scratch, `${name}-${input}`);
				writeFileSync(file, text);
			}
			const json = join(scratch, name + ".speedscope.json");
			flamekit(["collapse", file, "-o", json]);
			const total = String(flamekit(["collapse", file])).trim().split("\n")
				.reduce((n, line) => n + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
			const spec = JSON.parse(readFileSync(json, "utf8"));
			let sum = 0;
			for (const p of spec.profiles) {
				expect(p.type === "sampled" && p.samples.length === p.weights.length,
					`profile ${p.name}: ${p.samples.length} samples, ${p.weights.length} weights`);
				sum += p.weights.reduce((a, b) => a + b, 0);
			}
			expect(sum === total, `the weights sum to ${sum}, the folded stacks to ${total}`);

			const loader = join(scratch, name + ".js");
			writeFileSync(loader, `speedscope.loadFileFromBase64(${JSON.stringify(basename(json))}, ` +
				`${JSON.stringify(readFileSync(json).toString("base64"))})`);
			const page = await open(pathToFileURL(index).href + "#localProfilePath=" + loader, 180000);
			await page.waitForFunction(() => / - speedscope$/.test(document.title), null, { timeout: 180000 });
			const title = (spec.name || spec.profiles[0].name) + " - speedscope";
			expect(await page.title() === title, `title ${JSON.stringify(await page.title())}, expected ${JSON.stringify(title)}`);
			expect(!page.dialogs.some((d) => /Unrecognized format/.test(d)), `alerts: ${page.dialogs}`);

			// the sandwich view's Self column, profile by profile from the first
			await page.keyboard.press("3");
			for (let k = 0; k < (spec.activeProfileIndex || 0); k++)
				await page.keyboard.press("p");
			for (let k = 0; k < spec.profiles.length; k++) {
				const p = spec.profiles[k];
				if (k > 0)
					await page.keyboard.press("n");
				// the rows of "TOTAL (P%)", "SELF (P%)", name (the profile
				// picker is a table too, of names), once the profile's name
				// is shown and its table drawn (the name can come first)
				const selfColumn = () => [...document.querySelectorAll("table tr")]
					.map((tr) => tr.querySelectorAll("td"))
					.filter((tds) => tds.length >= 3 && /\([^()]*%\)/.test(tds[1].textContent))
					.map((tds) => tds[1].textContent.replace(/\s*\(.*$/, "").trim());
				await page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(p.name)}) && ` +
					`(${selfColumn})().length > 0`, null, { timeout: 60000 });
				const selves = await page.evaluate(selfColumn);
				const shown = selves.reduce((n, s) => n + parseShown(s, p.unit), 0);
				const held = p.weights.reduce((a, b) => a + b, 0);
				const near = p.unit === "none" ? shown === held : Math.abs(shown - held) <= held * 0.01;
				expect(near, `profile ${p.name}: speedscope's Self column sums to ${shown} (${selves}), its weights to ${held}`);
			}
			expect(page.errors.length === 0, `page errors: ${page.errors}`);
			await page.close();
		});
	}

	// a pprof file of several MB, as flamekit writes one (one gzip member
	// compressed in parts on threads): speedscope's own pprof importer reads
	// it whole (its gzip reader stops after a first member, were there more)
	test("speedscope-pprof", async () => {
		if (!existsSync(index))
			throw new Error(`speedscope is not installed: no ${index} (run ./setup.sh)`);
		let seed = 7, lines = [], total = 0;
		const random = (n) => { // xorshift32
			seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
			return (seed >>> 0) % n;
		};
		for (let i = 0; i < 60000; i++) {
			const frames = ["main"];
			for (let d = 0; d < 12; d++)
				frames.push(`mod${random(20)}::fn${random(300)}`);
			const count = 1 + random(9);
			lines.push(`${frames.join(";")} ${count}`);
			total += count;
		}
		const folded = join(scratch, "pprof-parts.folded");
		writeFileSync(folded, lines.join("\n") + "\n");
		const pprof = join(scratch, "parts.pb.gz");
		flamekit(["collapse", folded, "-o", pprof]);
		const message = execFileSync("gzip", ["-dc", pprof], { maxBuffer: 1 << 30 });
		expect(message.length > 2 * 512 * 1024, `the message is ${message.length} bytes: not several parts`);

		const loader = join(scratch, "parts.js");
		writeFileSync(loader, `speedscope.loadFileFromBase64("parts.pb.gz", ` +
			`${JSON.stringify(readFileSync(pprof).toString("base64"))})`);
		const page = await open(pathToFileURL(index).href + "#localProfilePath=" + loader, 180000);
		await page.waitForFunction(() => / - speedscope$/.test(document.title), null, { timeout: 180000 });
		expect(!page.dialogs.some((d) => /Unrecognized format/.test(d)), `alerts: ${page.dialogs}`);
		// the sandwich view sorted by Total: main first, with every sample
		// (its table shows only the rows in view, of 3,600 functions)
		await page.keyboard.press("3");
		await page.waitForFunction(() => /Total/.test(document.body.innerText), null, { timeout: 60000 });
		await page.evaluate(() => [...document.querySelectorAll("th")].find((th) => /Total/.test(th.textContent)).click());
		await page.waitForFunction(() => [...document.querySelectorAll("table tr")]
			.some((tr) => tr.querySelectorAll("td")[2]?.textContent.trim() === "main"), null, { timeout: 60000 });
		const shown = await page.evaluate(() => [...document.querySelectorAll("table tr")]
			.map((tr) => tr.querySelectorAll("td"))
			.find((tds) => tds.length >= 3 && tds[2].textContent.trim() === "main")[0]
			.textContent.replace(/\s*\(.*$/, "").trim());
		expect(parseShown(shown, "none") === total, `speedscope shows main's total as ${shown}, the folded stacks hold ${total}`);
		expect(page.errors.length === 0, `page errors: ${page.errors}`);
		await page.close();
	});
}
