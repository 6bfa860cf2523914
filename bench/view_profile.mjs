// Writes the benchmark's profile for bench/view.sh: SAMPLES samples of a
// call tree of FRAMES distinct frames, over SECONDS seconds in 20 ms slices,
// as timed folded stacks (OUT.timed) and as the same profile in
// speedscope's file format, loaded the way its CLI loads one (OUT.speedscope.js).
//
//   node bench/view_profile.mjs OUT [SAMPLES FRAMES SECONDS]
//
// The tree is random (node i's parent is a random earlier node, so stacks
// are about ln(FRAMES) deep), each node its own frame; a sample picks a node
// skewed towards the old, shallow ones, and every 30 s a 200 ms stall puts
// all samples of its slices in one deep stack; the load over time is a wave
// with quiet seconds. Seeded: the same every run.
import { createWriteStream, writeFileSync } from "node:fs";

const [out, samplesArg, framesArg, secondsArg] = process.argv.slice(2);
const SAMPLES = Number(samplesArg || 1e6), FRAMES = Number(framesArg || 1e5), SECONDS = Number(secondsArg || 600);
const SLICE_MS = 20, SLICES = SECONDS * 1000 / SLICE_MS;
let seed = 42;
const random = () => { // mulberry32
	seed = (seed + 0x6d2b79f5) | 0;
	let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
	t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const parent = new Int32Array(FRAMES);
parent[0] = -1;
for (let i = 1; i < FRAMES; i++) parent[i] = Math.floor(random() * i);
const name = (i) => `mod${i % 97}::fn${i}`;
const pathCache = new Map();
function path(i) { // frame indexes, root first
	let p = pathCache.get(i);
	if (!p) {
		p = [];
		for (let n = i; n >= 0; n = parent[n]) p.push(n);
		p.reverse();
		if (pathCache.size < 200000) pathCache.set(i, p);
	}
	return p;
}
const stall = FRAMES - 1;
const timed = createWriteStream(out + ".timed");
timed.write(`# flamekit timed folded: slice_ms=${SLICE_MS}\n`);
const ssSamples = [], ssWeights = [];
let pending = "";
// the load rises and falls (a 37 s wave, quiet seconds every 11 s), so the
// heat map has something to show; the samples per slice add up to SAMPLES
const load = Float64Array.from({ length: SLICES }, (_, s) => {
	const t = s * SLICE_MS / 1000;
	return (1 + 0.8 * Math.sin(2 * Math.PI * t / 37)) * (Math.floor(t) % 11 === 10 ? 0.1 : 1);
});
const loadSum = load.reduce((a, b) => a + b, 0);
const perSlice = Int32Array.from(load, (l) => Math.floor(SAMPLES * l / loadSum));
for (let s = 0, left = SAMPLES - perSlice.reduce((a, b) => a + b, 0); left > 0; s = (s + 1) % SLICES, left--) perSlice[s]++;
for (let s = 0; s < SLICES; s++) {
	const n = perSlice[s];
	const stalled = (s * SLICE_MS) % 30000 < 200 && s > 0;
	const counts = new Map();
	for (let k = 0; k < n; k++) {
		const node = stalled ? stall : Math.floor(FRAMES * random() ** 2);
		counts.set(node, (counts.get(node) || 0) + 1);
	}
	const at = ` @${(s * SLICE_MS / 1000).toFixed(3)}\n`;
	for (const [node, count] of counts) {
		const p = path(node);
		pending += p.map(name).join(";") + " " + count + at;
		ssSamples.push(p);
		ssWeights.push(count);
	}
	if (pending.length > 1 << 20) {
		timed.write(pending);
		pending = "";
	}
}
timed.end(pending);
// speedscope's sampled profile: frames by index, one sample per (slice,
// stack) with its count as weight (the same totals; speedscope has no time
// slices for a sampled profile)
const speedscope = {
	$schema: "https://www.speedscope.app/file-format-schema.json",
	shared: { frames: Array.from({ length: FRAMES }, (_, i) => ({ name: name(i) })) },
	profiles: [{ type: "sampled", name: "bench", unit: "none", startValue: 0, endValue: SAMPLES, samples: ssSamples, weights: ssWeights }],
	name: "bench", exporter: "flamekit bench/view_profile.mjs",
};
const base64 = Buffer.from(JSON.stringify(speedscope)).toString("base64");
writeFileSync(out + ".speedscope.js", `speedscope.loadFileFromBase64("bench.speedscope.json", ${JSON.stringify(base64)})\n`);
