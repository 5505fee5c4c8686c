// Section 5: the durable store. Asks/s persisted through the host into SQLite, against the
// in-memory store, in alternating blocks (memory, SQLite, memory, SQLite, …) on the same machine
// in the same run. `askDetached` resolves once the question is saved, so its rate is the rate of
// persisted asks; no client is connected, so delivery costs nothing in either block.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebSocketHost } from '@askseam/host-ws';
import { MemoryQuestionStore } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions } from '@askseam/user-questions';
import { figure } from '../lib/figure.mjs';
import { seamQuestions } from '../lib/fixtures.mjs';
import { median, now } from '../lib/stats.mjs';

const SECTION = 'durable';

export async function run(config) {
  const { asksPerBlock, rounds } = config.durable;
  const dir = mkdtempSync(join(tmpdir(), 'askseam-bench-durable-'));
  const questions = seamQuestions();
  const rates = { memory: [], sqlite: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      rates.memory.push(await askRate(new MemoryQuestionStore({ retainFinished: asksPerBlock }), questions, asksPerBlock));
      const store = new SqliteQuestionStore(join(dir, `round-${round}.sqlite`));
      try {
        rates.sqlite.push(await askRate(store, questions, asksPerBlock));
      } finally {
        store.close();
      }
      console.log(`  round ${round + 1}: memory ${Math.round(rates.memory.at(-1)).toLocaleString('en-US')}/s, sqlite ${Math.round(rates.sqlite.at(-1)).toLocaleString('en-US')}/s`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    figure({
      section: SECTION,
      name: `asks/s persisted to SQLite (WAL, synchronous=FULL; ${asksPerBlock.toLocaleString('en-US')} asks per block)`,
      value: median(rates.sqlite),
      unit: 'asks/s',
      baseline: { name: 'the same asks into the in-memory store', value: median(rates.memory) },
      note: 'Each ask is saved before askDetached returns; synchronous=FULL makes every save wait for the disk.',
    }),
  ];
}

/** Persisted asks per second through a fresh host on `store`. */
async function askRate(store, questions, count) {
  const host = await createWebSocketHost({ userQuestions: new UserQuestions(), port: 0, allowAnonymous: true, store });
  try {
    const started = now();
    for (let i = 0; i < count; i++) await host.askDetached({ questions, sessionId: `session-${i % 50}` });
    return count / ((now() - started) / 1000);
  } finally {
    await host.close();
  }
}
