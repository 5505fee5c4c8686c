// Section 6: a question asked on node A and answered by a client connected to node B, both nodes on
// one real redis-server (RedisQuestionStore + RedisQuestionBus, same key prefix), beside a single
// node on the same Redis store without a bus (ask and answer on one node): the ratio is what the
// bus and the hop to another node add. A single node on the in-memory store is shown for context.
//
// The headline pair runs in this process, each node with its own Redis connections, so every bus
// message still goes through redis-server over TCP. A sequential round trip has nothing to run in
// parallel, so a second process buys it no speed, only scheduler wake-ups on a shared 2-core
// machine; one process lets every variant alternate block by block under the same load and clock,
// as in the other sections. The same hop with B in a child process is measured beside it, so the
// cost of that choice is in the table. Variants (all through the ask_user_question tool):
//   memory   one node, in-memory store, client on it
//   single   one node, Redis store, no bus, client on it
//   cross    node A asks, client on node B answers (A and B: Redis store + Redis bus, this process)
//   local    node A asks, client on node A answers, in that same two-node cluster (informational)
//   process  node A asks, client on node B answers, B in a child process (informational)
//   pgsingle one node, PostgreSQL store, no bus, client on it
//   pgcross  node A asks, client on node B answers (A and B: PostgreSQL store + PostgreSQL bus, this
//            process; the store sends the bus's news as a NOTIFY inside its save and claim)
// The PostgreSQL variants run when PostgreSQL is installed (a throwaway server started here, fsync
// off like the Redis server's missing persistence: the figures are the network and the protocol).
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisQuestionBus } from '@askseam/bus-redis';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer } from '@askseam/store-redis/testing';
import { PostgresQuestionBus, PostgresQuestionStore } from '@askseam/store-postgres';
import { startPostgresServer } from '@askseam/store-postgres/testing';
import { config } from '../lib/config.mjs';
import { figure, skipped } from '../lib/figure.mjs';
import { startNode } from '../lib/redis-nodes.mjs';
import { interleave, quantile } from '../lib/stats.mjs';

const SECTION = 'crossnode';
const TITLE = 'cross-node round trip on Redis';
const childScript = fileURLToPath(new URL('../lib/crossnode-child.mjs', import.meta.url));

export async function run() {
  const { warmup, rounds, perRound, redisServer } = config.crossnode;
  if (!existsSync(redisServer)) {
    const reason = `no redis-server at ${redisServer} (Debian/Ubuntu: apt-get install -y redis-server)`;
    console.log(`  skipped: ${reason}`);
    return [skipped(SECTION, TITLE, reason)];
  }
  // No persistence (appendonly no, no RDB saves): the figures are the network and Lua cost, not the disk's.
  const redis = await startRedisServer({ binary: redisServer });
  const pgBinDir = config.crossnode.postgresBinDir;
  const postgres = existsSync(join(pgBinDir, 'initdb')) ? await startPostgresServer({ binDir: pgBinDir }) : undefined;
  const runId = randomUUID().slice(0, 8);
  const stores = [];
  const nodes = [];
  let child;
  const redisStore = (keyPrefix) => {
    const store = new RedisQuestionStore({ url: redis.url, keyPrefix });
    stores.push(store);
    return store;
  };
  const node = async (options) => {
    const started = await startNode(options);
    nodes.push(started);
    return started;
  };
  try {
    const memory = await node({ sessions: ['memory'] });
    // Its own prefix: the cluster's nodes would otherwise adopt its pending questions on reconcile.
    const single = await node({ sessions: ['single'], store: redisStore(`bench-${runId}-single:`) });
    const clusterPrefix = `bench-${runId}-cluster:`;
    const bus = (nodeId) => new RedisQuestionBus({ url: redis.url, keyPrefix: clusterPrefix, nodeId });
    const a = await node({ sessions: ['cross', 'local'], store: redisStore(clusterPrefix), bus: bus('node-a') });
    const b = await node({ sessions: ['cross', 'local'], store: redisStore(clusterPrefix), bus: bus('node-b') });

    // The same two nodes on their own prefix with a sealing key they share (docs/scaling.md, "Sealed news").
    const sealedPrefix = `bench-${runId}-sealed:`;
    const sealKey = randomBytes(32);
    const sealedBus = (nodeId) => new RedisQuestionBus({ url: redis.url, keyPrefix: sealedPrefix, nodeId, sealKey });
    const sealedA = await node({ sessions: ['cross'], store: redisStore(sealedPrefix), bus: sealedBus('node-sa') });
    const sealedB = await node({ sessions: ['cross'], store: redisStore(sealedPrefix), bus: sealedBus('node-sb') });

    // A second cluster on its own prefix, whose node B is a child process.
    const processPrefix = `bench-${runId}-process:`;
    const a2 = await node({ sessions: ['cross'], store: redisStore(processPrefix), bus: new RedisQuestionBus({ url: redis.url, keyPrefix: processPrefix, nodeId: 'node-a2' }) });
    child = await forkNodeB(redis.url, processPrefix, 'node-b2');

    // PostgreSQL: one node on its own schema, and a two-node cluster on another.
    let pgSingle;
    let pgA;
    let pgCrossShownOnB;
    if (postgres !== undefined) {
      const pgStore = async (schema) => {
        const store = await PostgresQuestionStore.open({ connectionString: postgres.url, schema });
        stores.push(store);
        return store;
      };
      pgSingle = await node({ sessions: ['pgsingle'], store: await pgStore('bench_single') });
      const pgBus = (nodeId) => new PostgresQuestionBus({ connectionString: postgres.url, schema: 'bench_cluster', nodeId });
      pgA = await node({ sessions: ['pgcross'], store: await pgStore('bench_cluster'), bus: pgBus('pg-a') });
      const pgB = await node({ sessions: ['pgcross'], store: await pgStore('bench_cluster'), bus: pgBus('pg-b') });
      await pgSingle.connectAnswering('pgsingle');
      pgCrossShownOnB = await pgB.connectAnswering('pgcross');
    }

    await memory.connectAnswering('memory');
    await single.connectAnswering('single');
    // The only client of session `cross` is on B, the only client of `local` on A.
    const crossShownOnB = await b.connectAnswering('cross');
    const localShownOnA = await a.connectAnswering('local');
    const sealedShownOnB = await sealedB.connectAnswering('cross');

    const samples = await interleave(
      [
        { name: 'memory', run: (count) => memory.latencies('memory', count) },
        { name: 'single', run: (count) => single.latencies('single', count) },
        { name: 'cross', run: (count) => a.latencies('cross', count) },
        { name: 'local', run: (count) => a.latencies('local', count) },
        { name: 'sealed', run: (count) => sealedA.latencies('cross', count) },
        { name: 'process', run: (count) => a2.latencies('cross', count) },
        ...(pgA === undefined
          ? []
          : [
              { name: 'pgsingle', run: (count) => pgSingle.latencies('pgsingle', count) },
              { name: 'pgcross', run: (count) => pgA.latencies('pgcross', count) },
            ]),
      ],
      { warmup, rounds, perRound },
    );
    // Every cross ask was shown to (and so answered by) B's client, every local one by A's.
    const expected = warmup + rounds * perRound;
    const shownInChild = await closeNodeB(child);
    child = undefined;
    if (crossShownOnB.count !== expected || localShownOnA.count !== expected || shownInChild !== expected || sealedShownOnB.count !== expected) {
      throw new Error(
        `Expected ${expected} questions on each client; B's client of "cross" saw ${crossShownOnB.count}, ` +
          `A's client of "local" ${localShownOnA.count}, the child B's client ${shownInChild}, the sealed B's client ${sealedShownOnB.count}.`,
      );
    }

    if (pgCrossShownOnB !== undefined && pgCrossShownOnB.count !== expected) {
      throw new Error(`Expected ${expected} questions on PostgreSQL node B's client; it saw ${pgCrossShownOnB.count}.`);
    }
    const p = (name, q) => quantile(samples[name], q);
    const n = samples.cross.length;
    console.log(
      `  p50 memory ${p('memory', 0.5).toFixed(3)} ms, single on Redis ${p('single', 0.5).toFixed(3)} ms, ` +
        `cross-node ${p('cross', 0.5).toFixed(3)} ms, same node in the cluster ${p('local', 0.5).toFixed(3)} ms, ` +
        `cross-node with B in a child process ${p('process', 0.5).toFixed(3)} ms, cross-node sealed ${p('sealed', 0.5).toFixed(3)} ms`,
    );
    const postgresFigures =
      pgA === undefined
        ? [skipped(SECTION, 'cross-node round trip on PostgreSQL', `no PostgreSQL in ${pgBinDir} (Debian/Ubuntu: apt-get install -y postgresql)`)]
        : [
            figure({
              section: SECTION,
              name: `cross-node round trip p50 on PostgreSQL (tool on A → PostgreSQL, NOTIFY → client on B → PostgreSQL, NOTIFY → tool result on A; n=${samples.pgcross.length})`,
              value: p('pgcross', 0.5),
              unit: 'ms',
              baseline: { name: 'the same hop on Redis (store + bus), same run', value: p('cross', 0.5) },
              note: 'Each NOTIFY carries ids only; every receiving node reads the record back from PostgreSQL before acting, one more round trip than Redis, whose message carries the record.',
            }),
            figure({
              section: SECTION,
              name: 'cross-node round trip p50 on PostgreSQL vs one node on the same PostgreSQL store',
              value: p('pgcross', 0.5),
              unit: 'ms',
              baseline: { name: 'one node on a PostgreSQL store, no bus, client on it', value: p('pgsingle', 0.5) },
            }),
            figure({
              section: SECTION,
              name: `cross-node round trip p99 on PostgreSQL (n=${samples.pgcross.length})`,
              value: p('pgcross', 0.99),
              unit: 'ms',
              baseline: { name: 'the same hop on Redis, p99', value: p('cross', 0.99) },
            }),
          ];
    if (pgA !== undefined) console.log(`  p50 on PostgreSQL: single ${p('pgsingle', 0.5).toFixed(3)} ms, cross-node ${p('pgcross', 0.5).toFixed(3)} ms`);
    return [
      ...postgresFigures,
      figure({
        section: SECTION,
        name: `cross-node round trip p50 (tool on A → Redis → client on B → Redis → tool result on A; n=${n})`,
        value: p('cross', 0.5),
        unit: 'ms',
        baseline: { name: 'one node on the same Redis store, no bus, client on it', value: p('single', 0.5) },
        // Issue 19 target 4: the hop to another node costs at most 30% over one node on the same Redis.
        target: { on: 'ratio', op: '<=', value: 1.3, text: '<= 1.3× one node on Redis' },
        note: 'Both nodes in this process, each with its own Redis connections; redis-server runs beside it on loopback, without persistence.',
      }),
      figure({
        section: SECTION,
        name: `cross-node round trip p50 with sealed news (both buses with one sealKey; n=${n})`,
        value: p('sealed', 0.5),
        unit: 'ms',
        baseline: { name: 'one node on the same Redis store, no bus, client on it', value: p('single', 0.5) },
        note: 'The same hop with no store read of the news and the resume lease taken after the hand-over (docs/scaling.md, "Sealed news").',
      }),
      figure({
        section: SECTION,
        name: `cross-node round trip p99 (n=${n})`,
        value: p('cross', 0.99),
        unit: 'ms',
        baseline: { name: 'one node on the same Redis store, p99', value: p('single', 0.99) },
      }),
      figure({
        section: SECTION,
        name: 'cross-node p50 vs ask and answer on A in the same two-node cluster',
        value: p('cross', 0.5),
        unit: 'ms',
        baseline: { name: 'A asks, client on A answers; A and B on Redis store + bus', value: p('local', 0.5) },
        note: 'Informational: the hop to the other node alone (having a bus at all is in both).',
      }),
      figure({
        section: SECTION,
        name: 'cross-node p50 with node B in a child process',
        value: p('process', 0.5),
        unit: 'ms',
        baseline: { name: 'one node on the same Redis store (as above)', value: p('single', 0.5) },
        note: 'Informational: the same hop across two processes; with redis-server and B also busy, wake-ups on a shared 2-core machine are part of it.',
      }),
      figure({
        section: SECTION,
        name: `one node on the Redis store, round trip p50 (n=${samples.single.length})`,
        value: p('single', 0.5),
        unit: 'ms',
        baseline: { name: 'one node on the in-memory store', value: p('memory', 0.5) },
        note: 'Context: what the Redis store adds to one node: the save and the claim are Redis round trips on the path; event appends and markResumed share the connection, off the path.',
      }),
      figure({
        section: SECTION,
        name: 'one node on the Redis store, round trip p99',
        value: p('single', 0.99),
        unit: 'ms',
        baseline: { name: 'one node on the in-memory store, p99', value: p('memory', 0.99) },
      }),
    ];
  } finally {
    if (child) child.kill('SIGKILL');
    for (const started of nodes) await started.close().catch((error) => console.error('closing a node failed', error));
    for (const store of stores) await store.close().catch((error) => console.error('closing a store failed', error));
    await redis.stop();
    await postgres?.destroy();
  }
}

/** Fork node B of the two-process variant and wait until its client is open. */
async function forkNodeB(url, keyPrefix, nodeId) {
  const child = fork(childScript, [url, keyPrefix, nodeId], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code, signal]) => {
      throw new Error(`Node B's child process exited (${signal ?? code}) before it was ready.`);
    }),
  ]);
  if (!message?.ready) {
    child.kill('SIGKILL');
    throw new Error(`Node B's child process said ${JSON.stringify(message)} instead of ready.`);
  }
  return child;
}

/** Close node B's child; resolves with how many questions its client was shown. */
async function closeNodeB(child) {
  const reply = once(child, 'message');
  child.send('close');
  const [message] = await reply;
  await once(child, 'exit');
  return message.shown;
}
