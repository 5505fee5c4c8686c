// Sizes and budget of the cross-node section (sections/crossnode.mjs), each overridable from the
// environment like the rest of bench/lib/config.mjs; BENCH_QUICK=1 shrinks them for a smoke run.

const quick = process.env.BENCH_QUICK === '1';

function int(name, full, smoke) {
  const raw = process.env[name];
  if (raw !== undefined && raw !== '') {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}".`);
    return value;
  }
  return quick ? smoke : full;
}

export const crossnodeConfig = {
  // Round trips per variant before measuring (JIT, Lua script cache, connection buffers).
  warmup: int('BENCH_CROSSNODE_WARMUP', 200, 30),
  // Alternating rounds; each round runs `perRound` sequential round trips of every variant.
  rounds: int('BENCH_CROSSNODE_ROUNDS', 8, 2),
  perRound: int('BENCH_CROSSNODE_PER_ROUND', 150, 40),
  budgetMs: int('BENCH_CROSSNODE_BUDGET_MS', 60_000, 30_000),
  // The redis-server binary; the section is skipped (not failed) when it is missing.
  redisServer: process.env.BENCH_REDIS_SERVER || '/usr/bin/redis-server',
};
