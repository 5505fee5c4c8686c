// Section 5: the durable stores. Asks/s persisted through the host into SQLite and into PostgreSQL,
// against the in-memory store, in alternating blocks (memory, SQLite, PostgreSQL, memory, …) on the
// same machine in the same run. PostgreSQL is a throwaway server started here (fsync on, as in
// production), on loopback; its figures are skipped when PostgreSQL is not installed. `askDetached` resolves once the question is saved, so its rate is the rate of
// persisted asks; no client is connected, so delivery costs nothing in either block.
//
// Two shapes, each against the in-memory store in the same shape: many askers at once (the
// target: many agents asking, where group commit lets one fsync carry every ask of a loop turn),
// and one asker at a time (each ask waits for its own fsync before the next starts, so this one
// is bound by the disk's flush latency whatever the store does).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebSocketHost } from '@askseam/host-ws';
import { MemoryQuestionStore } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { PostgresQuestionStore } from '@askseam/store-postgres';
import { startPostgresServer } from '@askseam/store-postgres/testing';
import { UserQuestions } from '@askseam/user-questions';
import { figure, skipped } from '../lib/figure.mjs';
import { seamQuestions } from '../lib/fixtures.mjs';
import { median, now } from '../lib/stats.mjs';

const SECTION = 'durable';

export async function run(config) {
  const { asksPerBlock, rounds, askers } = config.durable;
  const dir = mkdtempSync(join(tmpdir(), 'askseam-bench-durable-'));
  const questions = seamQuestions();
  const shapes = { concurrent: askers, sequential: 1 };
  const rates = { concurrent: { memory: [], sqlite: [], postgres: [] }, sequential: { memory: [], sqlite: [], postgres: [] } };
  const pgBinDir = config.durable.postgresBinDir;
  const postgres = existsSync(join(pgBinDir, 'initdb')) ? await startPostgresServer({ binDir: pgBinDir, fsync: true }) : undefined;
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
        if (postgres !== undefined) {
          // A fresh schema per block, like the fresh SQLite file: no block reads another's rows.
          const pgStore = await PostgresQuestionStore.open({ connectionString: postgres.url, schema: `bench_${shape}_${round}` });
          try {
            // One at a time, each ask waits for its own commit: a shorter block gives the same rate sooner.
            rate.postgres.push(await askRate(pgStore, questions, concurrency === 1 ? Math.min(asksPerBlock, 500) : asksPerBlock, concurrency));
          } finally {
            await pgStore.close();
          }
        }
        console.log(
          `  round ${round + 1}, ${concurrency} asker(s) at once: memory ${Math.round(rate.memory.at(-1)).toLocaleString('en-US')}/s, ` +
            `sqlite ${Math.round(rate.sqlite.at(-1)).toLocaleString('en-US')}/s` +
            (postgres === undefined ? '' : `, postgres ${Math.round(rate.postgres.at(-1)).toLocaleString('en-US')}/s`),
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await postgres?.destroy();
  }
  const postgresTitle = 'durable asks on PostgreSQL';
  const postgresFigures =
    postgres === undefined
      ? [skipped(SECTION, postgresTitle, `no PostgreSQL in ${pgBinDir} (Debian/Ubuntu: apt-get install -y postgresql)`)]
      : [
          figure({
            section: SECTION,
            name: `asks/s persisted to PostgreSQL, ${askers} askers at once (one transaction per ask, fsync on; ${asksPerBlock.toLocaleString('en-US')} asks per block)`,
            value: median(rates.concurrent.postgres),
            unit: 'asks/s',
            baseline: { name: `the same asks into the in-memory store, ${askers} askers at once`, value: median(rates.concurrent.memory) },
            note: 'A local PostgreSQL 15 on loopback started by the bench; each ask is committed (its own transaction, its question and event in one statement) before askDetached returns; commits of concurrent asks share WAL flushes.',
          }),
          figure({
            section: SECTION,
            name: `asks/s persisted to PostgreSQL vs SQLite, ${askers} askers at once`,
            value: median(rates.concurrent.postgres),
            unit: 'asks/s',
            baseline: { name: `the same asks into SQLite, ${askers} askers at once`, value: median(rates.concurrent.sqlite) },
            note: 'Informational: a networked server against an embedded file with group commit, same machine, same run.',
          }),
          figure({
            section: SECTION,
            name: 'asks/s persisted to PostgreSQL, one asker at a time',
            value: median(rates.sequential.postgres),
            unit: 'asks/s',
            baseline: { name: 'the same asks into the in-memory store, one at a time', value: median(rates.sequential.memory) },
            note: 'Informational: each ask waits for its own commit (a WAL flush) before the next is asked.',
          }),
        ];
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
    ...postgresFigures,
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
