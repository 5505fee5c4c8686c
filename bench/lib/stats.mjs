// Small, dependency-free measuring helpers shared by every section.
import { performance } from 'node:perf_hooks';

export const now = () => performance.now();

/** The q-quantile (0..1) of a list of numbers, by the nearest-rank method. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => quantile(values, 0.5);

/**
 * Run `variants` in alternating blocks (A, B, A, B, …) so that a noisy neighbour slows both
 * sides alike instead of whichever happened to run while it was busy. Each variant is an object
 * { name, run(count) → Promise<number[]> } returning one sample per iteration. Returns the
 * concatenated samples per variant name.
 */
export async function interleave(variants, { warmup, rounds, perRound }) {
  for (const variant of variants) await variant.run(warmup);
  const samples = Object.fromEntries(variants.map((variant) => [variant.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const got = await variant.run(perRound);
      for (const sample of got) samples[variant.name].push(sample);
    }
  }
  return samples;
}

/**
 * Calls per second of a synchronous function, measured in short bursts for about `ms`
 * milliseconds. Returns the rate of each burst; the caller takes the median.
 */
export function burstRates(fn, { ms, burst = 10_000 }) {
  const rates = [];
  const end = now() + ms;
  while (now() < end) {
    const start = now();
    for (let i = 0; i < burst; i++) fn(i);
    const took = now() - start;
    rates.push((burst * 1000) / took);
  }
  return rates;
}

/** Whether a value meets a target `{ op, value }`, where op is '<=' or '>='. */
export function meets(value, target) {
  if (!target || !Number.isFinite(value)) return undefined;
  return target.op === '<=' ? value <= target.value : value >= target.value;
}

/** Wait for the event loop to drain what is already queued (sockets closing, timers firing). */
export const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolve once `predicate()` is true, checking every `everyMs`; reject after `timeoutMs`. */
export async function waitUntil(predicate, { timeoutMs = 30_000, everyMs = 5, what = 'condition' } = {}) {
  const deadline = now() + timeoutMs;
  while (!predicate()) {
    if (now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
