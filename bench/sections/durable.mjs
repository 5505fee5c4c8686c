// Section 5: the durable store. There is no durable store yet, so this section reports that.
//
// Hook for when one lands: measure asks/s persisted through it against the in-memory default,
// side by side in alternating blocks (as the round-trip section does), e.g.
//   const { createSqliteStore, createMemoryStore } = await import('@askseam/store');
//   figure({ name: 'asks/s persisted to SQLite', value: sqliteRate, baseline: { name: 'in-memory store', value: memoryRate } })
// Detecting it by import keeps `pnpm bench` working before and after the package exists.
import { skipped } from '../lib/figure.mjs';

const SECTION = 'durable';

async function findStore() {
  try {
    return await import('@askseam/store');
  } catch {
    return undefined;
  }
}

export async function run() {
  const store = await findStore();
  if (store === undefined) {
    console.log('  skipped: no durable store');
    return [skipped(SECTION, 'asks/s persisted, ratio to the in-memory store', 'skipped: no durable store')];
  }
  return [skipped(SECTION, 'asks/s persisted, ratio to the in-memory store', 'skipped: a store package exists but this section does not measure it yet')];
}
