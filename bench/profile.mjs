// `pnpm bench:profile`: where the round trip's CPU goes. Runs N sequential asks through
// tool → seam → host → Node client → tool result on the in-memory store (the `roundtrip`
// section's stack) under the V8 CPU profiler, then prints the functions with the most self time,
// each with its share of the profile. The numbers in docs/performance.md's profile come from here.
//
//   node bench/profile.mjs [asks=20000] [top=25]
//
// The profile is taken in-process with node:inspector (no --cpu-prof flag needed), so only the
// measured asks are in it, not the start-up or the warm-up. BENCH_PROFILE_OUT=<file> also writes
// the raw .cpuprofile (open it in Chrome DevTools or speedscope).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startAskseam } from './lib/askseam.mjs';

const asks = positive(process.argv[2], 20_000, 'asks');
const top = positive(process.argv[3], 25, 'top');

function positive(raw, fallback, what) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${what} must be a positive integer, got "${raw}".`);
  return value;
}

const ours = await startAskseam();
await ours.latencies(Math.min(2_000, asks)); // warm-up: JIT, buffers

const session = new Session();
session.connect();
await session.post('Profiler.enable');
// 100 µs: fine enough for a 100 µs round trip without the sampler dominating the profile.
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const started = performance.now();
await ours.latencies(asks);
const elapsedMs = performance.now() - started;
const { profile } = await session.post('Profiler.stop');
session.disconnect();
await ours.close();

if (process.env.BENCH_PROFILE_OUT) writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));

console.log(`${asks.toLocaleString('en-US')} sequential asks in ${Math.round(elapsedMs)} ms (${((elapsedMs * 1000) / asks).toFixed(1)} µs each, profiler on)`);
console.log(formatTop(selfTime(profile), top));

/** Self time per function (name + file:line), from the sample counts of a .cpuprofile. */
export function selfTime({ nodes, samples, timeDeltas }) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const ticks = new Map();
  // Each sample's time is the delta to the next sample; attribute it to the sampled node.
  for (let i = 0; i < samples.length; i++) {
    const delta = timeDeltas[i + 1] ?? 0;
    ticks.set(samples[i], (ticks.get(samples[i]) ?? 0) + delta);
  }
  const byFunction = new Map();
  let total = 0;
  for (const [id, micros] of ticks) {
    const { callFrame } = byId.get(id);
    const key = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    total += micros;
  }
  return { total, rows: [...byFunction].map(([name, micros]) => ({ name, micros })).sort((a, b) => b.micros - a.micros) };
}

function shortUrl(url) {
  if (!url) return '';
  const packages = url.indexOf('/packages/');
  if (packages !== -1) return url.slice(packages + '/packages/'.length);
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) return url.slice(modules + '/node_modules/'.length);
  return url.replace(/^file:\/\//, '');
}

function formatTop({ total, rows }, count) {
  const lines = ['self %  self ms  function (file:line)'];
  for (const row of rows.slice(0, count)) {
    lines.push(`${((row.micros * 100) / total).toFixed(1).padStart(6)}  ${(row.micros / 1000).toFixed(0).padStart(7)}  ${row.name}`);
  }
  return lines.join('\n');
}
