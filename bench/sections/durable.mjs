// Section 5: the durable store. Asks/s persisted through the host into SQLite, against the
// in-memory store, in alternating blocks (memory, SQLite, memory, SQLite, …) on the same machine
// in the same run. `askDetached` resolves once the question is saved, so its rate is the rate of
// persisted asks; no client is connected, so delivery costs nothing in either block.
//
// Two shapes, each against the in-memory store in the same shape: many askers at once (the
// target: many agents asking, where group commit lets one fsync carry every ask of a loop turn),
// and one asker at a time (each ask waits for its own fsync before the next starts, so this one
// is bound by the disk's flush latency whatever the store does).
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
  const { asksPerBlock, rounds, askers } = config.durable;
  const dir = mkdtempSync(join(tmpdir(), 'askseam-bench-durable-'));
  const questions = seamQuestions();
  const shapes = { concurrent: askers, sequential: 1 };
  const rates = { concurrent: { memory: [], sqlite: [] }, sequential: { memory: [], sqlite: [] } };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [shape, concurrency] of Object.entries(shapes)) {
        const rate = rates[shape];
        rate.memory.push(await askRate(new MemoryQuestionStore({ retainFinished: asksPerBlock }), questions, asksPerBlock, concurrency));
        const store = new SqliteQuestionStore(join(dir, `${shape}-${round}.sqlite`));
        try {
          rate.sqlite.push(await askRate(store, questions, asksPerBlock, concurrency));
        } finally {
          await store.close();
        }
        console.log(
          `  round ${round + 1}, ${concurrency} asker(s) at once: memory ${Math.round(rate.memory.at(-1)).toLocaleString('en-US')}/s, ` +
            `sqlite ${Math.round(rate.sqlite.at(-1)).toLocaleString('en-US')}/s`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    figure({
      section: SECTION,
      name: `asks/s persisted to SQLite, ${askers} askers at once (WAL, synchronous=FULL, group commit; ${asksPerBlock.toLocaleString('en-US')} asks per block)`,
      value: median(rates.concurrent.sqlite),
      unit: 'asks/s',
      baseline: { name: `the same asks into the in-memory store, ${askers} askers at once`, value: median(rates.concurrent.memory) },
      target: { on: 'ratio', op: '>=', value: 0.25, text: '>= 0.25× in-memory' },
      note: 'Each ask is on disk before askDetached returns; the asks (and event appends) of one loop turn share one transaction and one fsync.',
    }),
    figure({
      section: SECTION,
      name: 'asks/s persisted to SQLite, one asker at a time',
      value: median(rates.sequential.sqlite),
      unit: 'asks/s',
      baseline: { name: 'the same asks into the in-memory store, one at a time', value: median(rates.sequential.memory) },
      note: 'Informational: each ask waits for its own fsync before the next is asked, so this is the disk\'s flush latency.',
    }),
  ];
}

/** Persisted asks per second through a fresh host on `store`, `concurrency` askers each asking, awaiting and asking again. */
async function askRate(store, questions, count, concurrency) {
  const host = await createWebSocketHost({ userQuestions: new UserQuestions(), port: 0, allowAnonymous: true, store });
  try {
    let asked = 0;
    const asker = async () => {
      while (asked < count) {
        const i = asked++;
        await host.askDetached({ questions, sessionId: `session-${i % 50}` });
      }
    };
    const started = now();
    await Promise.all(Array.from({ length: concurrency }, asker));
    return count / ((now() - started) / 1000);
  } finally {
    await host.close();
  }
}
