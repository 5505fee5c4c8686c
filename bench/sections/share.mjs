// Section 13: each node holds its own share (holds: 'share', issue 28). One real redis-server;
// every host node in a child process of its own (lib/share-node.mjs), so its heap holds only what
// the node keeps; the clients, the filler and the timing run here. Nodes, by key prefix:
//   main     A, B, C  holds 'share', Redis store + bus; sessions fill-<i> served by node i % 3
//            (a client of each here, so each node serves a third of them); A asks in `cross`
//            and the bus sessions; B's client answers `cross`
//   main     E        holds 'everything' (today's node), same store and bus: its heap at start
//            holds every pending question, and it receives every bus message of the bus phase
//   small    D        holds 'share', Redis store + bus, 1,000 pending: the replay baseline
//   single   S        one node, Redis store, no bus, its client answers `single`: the round-trip
//            baseline of section 6
//   third    F        today's single node (holds 'everything', no bus) with A's questions only: the
//            heap baseline at the same count, closed once measured
// The bus nodes share a sealing key (BENCH_SHARE_SEALED=0: none). E is closed before the second
// round-trip measurement: it hears every message and is no part of a cluster holding its share.
// Redis is filled through the store's own save (hundreds in flight), not one ask at a time.
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connectQuestions } from '@askseam/client';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer } from '@askseam/store-redis/testing';
import WebSocket from 'ws';
import { answerAtOnce } from '../lib/answer-at-once.mjs';
import { figure, skipped } from '../lib/figure.mjs';
import { seamAnswer, seamQuestions } from '../lib/fixtures.mjs';
import { interleave, median, now, quantile, settle, waitUntil } from '../lib/stats.mjs';

const SECTION = 'share';
const nodeScript = fileURLToPath(new URL('../lib/share-node.mjs', import.meta.url));
const PROBE = 'probe';

export async function run(config) {
  const { questions: total, sessions, probeOwn, smallTotal, busQuestions, replaySamples, warmup, rounds, perRound, reconcileMs, sealed } = config.share;
  // One key for every bus node of the run, as an app gives all its nodes the same one.
  const seal = sealed ? { sealKey: randomBytes(32).toString('base64') } : {};
  const redisServer = config.crossnode.redisServer;
  if (!existsSync(redisServer)) return [skipped(SECTION, 'each node holds its share', `no redis-server at ${redisServer}`)];
  if (sessions < 3 || sessions % 3 !== 0) throw new Error(`BENCH_SHARE_SESSIONS must be a multiple of 3, got ${sessions}.`);
  startChild.reconcileMs = reconcileMs;
  const redis = await startRedisServer({ binary: redisServer });
  const runId = randomUUID().slice(0, 8);
  const prefix = { main: `bench-${runId}-share:`, small: `bench-${runId}-small:`, single: `bench-${runId}-single:`, third: `bench-${runId}-third:` };
  const children = [];
  const sockets = [];
  const clients = [];
  const inFlight = { receipts: 0 };
  try {
    // 1. Fill Redis: `total` questions over the fill sessions, plus the probe's own on both prefixes.
    const fillStart = now();
    const fillSessions = Array.from({ length: sessions }, (_, i) => `fill-${i}`);
    await fill(redis.url, prefix.main, fillSessions, total - probeOwn, probeOwn);
    const smallSessions = Array.from({ length: 30 }, (_, i) => `fill-${i}`);
    await fill(redis.url, prefix.small, smallSessions, smallTotal - probeOwn, probeOwn);
    console.log(`  filled ${total.toLocaleString('en-US')} + ${smallTotal.toLocaleString('en-US')} pending questions in ${((now() - fillStart) / 1000).toFixed(1)} s`);

    // 2. The nodes. E first and alone, so its load at start is not timed against the others'.
    const busSessions = ['bus-0', 'bus-1', 'bus-2'];
    const asking = ['cross', ...busSessions];
    const everything = await startChild(children, { url: redis.url, keyPrefix: prefix.main, nodeId: 'node-e', holds: 'everything', bus: true, ...seal, agents: busSessions });
    const shareNodes = [];
    for (const [index, nodeId] of ['node-a', 'node-b', 'node-c'].entries()) {
      shareNodes.push(await startChild(children, { url: redis.url, keyPrefix: prefix.main, nodeId, holds: 'share', bus: true, ...seal, agents: index === 0 ? asking : busSessions }));
    }
    const [a, b] = shareNodes;
    const small = await startChild(children, { url: redis.url, keyPrefix: prefix.small, nodeId: 'node-d', holds: 'share', bus: true, ...seal, agents: [] });
    const single = await startChild(children, { url: redis.url, keyPrefix: prefix.single, nodeId: 'node-s', holds: 'everything', bus: false, agents: ['single'] });

    // 3. Memory: E's growth at start over all of them; each share node's growth as a third of the
    // sessions connect, minus the growth from as many connections of sessions with nothing pending.
    const everythingHeld = await everything.call('held');
    if (everythingHeld !== total) throw new Error(`Node E (holds 'everything') holds ${everythingHeld} questions, not all ${total}.`);
    const everythingPer = (everything.ready.heapAfterStart - everything.ready.heapBeforeHost) / total;
    // F: today's single node (holds 'everything', no bus) with as many questions as A holds, so the
    // per-question figures compare at the same count (a Map's table is as full as its count makes it).
    const ownOfA = fillSessions.filter((_, i) => i % 3 === 0);
    const heldByA = ownOfA.reduce((sum, session) => sum + countOf(session, fillSessions, total - probeOwn), 0);
    await fill(redis.url, prefix.third, fillSessions, total - probeOwn, 0, new Set(ownOfA));
    const sameCount = await startChild(children, { url: redis.url, keyPrefix: prefix.third, nodeId: 'node-f', holds: 'everything', bus: false, agents: [] });
    const sameCountHeld = await sameCount.call('held');
    if (sameCountHeld !== heldByA) throw new Error(`Node F holds ${sameCountHeld} questions, not A's ${heldByA}.`);
    const sameCountPer = (sameCount.ready.heapAfterStart - sameCount.ready.heapBeforeHost) / sameCountHeld;
    await sameCount.close();
    console.log(`  node f (holds 'everything', alone): ${sameCountHeld.toLocaleString('en-US')} questions, ${Math.round(sameCountPer)} B per question; node e: ${total.toLocaleString('en-US')}, ${Math.round(everythingPer)} B`);
    const perNode = [];
    for (const [index, node] of shareNodes.entries()) {
      const own = fillSessions.filter((_, i) => i % 3 === index);
      const expected = own.reduce((sum, session) => sum + countOf(session, fillSessions, total - probeOwn), 0);
      const heap0 = await node.call('heap');
      await connectRaw(sockets, node.ready.url, own.map((session) => `empty-${session}`), () => 0);
      const heapEmpty = await node.call('heap');
      await connectRaw(sockets, node.ready.url, own, (session) => countOf(session, fillSessions, total - probeOwn));
      const heapFull = await node.call('heap');
      const held = await node.call('held');
      if (held !== expected) throw new Error(`Node ${index} holds ${held} questions; its sessions have ${expected} pending.`);
      const connections = heapEmpty - heap0;
      perNode.push({ held, per: (heapFull - heapEmpty - connections) / held, connectionPer: connections / own.length, heapFull });
      console.log(`  node ${'abc'[index]}: holds ${held.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}, ${Math.round(perNode.at(-1).per)} B per question, ${Math.round(connections / own.length)} B per connection`);
    }

    // 4. Bus: every share node asks in every bus session; bus-i is answered by a client on node i.
    for (const [index, node] of shareNodes.entries()) clients.push(await connectAnswering(node.ready.url, busSessions[index], inFlight));
    const receivedBefore = await Promise.all([...shareNodes, everything].map((node) => node.call('received')));
    const perAsker = Math.max(1, Math.floor(busQuestions / 9));
    const busStart = now();
    await Promise.all(shareNodes.map(async (node) => {
      for (const session of busSessions) {
        await node.call('asks', { session, count: perAsker });
      }
    }));
    const answered = perAsker * 9;
    await settle(300); // the last settled messages still on their way
    const receivedAfter = await Promise.all([...shareNodes, everything].map((node) => node.call('received')));
    const busShown = clients.slice(0, 3).reduce((sum, { shown }) => sum + shown.count, 0);
    if (busShown !== answered) throw new Error(`The bus sessions' clients were shown ${busShown} questions; ${answered} were asked and answered.`);
    const received = receivedAfter.map((after, i) => after - receivedBefore[i]);
    const shareReceived = received.slice(0, 3);
    if (shareReceived.some((count) => count === 0)) throw new Error(`A share node received no bus message for ${answered} answered questions: ${shareReceived.join(', ')}.`);
    const perNodePerAnswer = shareReceived.reduce((sum, count) => sum + count, 0) / 3 / answered;
    const everythingPerAnswer = received[3] / answered;
    console.log(`  bus: ${answered} answered in ${((now() - busStart) / 1000).toFixed(1)} s; received per node ${shareReceived.join(', ')} (share), ${received[3]} (everything)`);

    // 5. Replay: a fresh connection of `probe` (its questions read from the store on the node) on A
    // with `total` pending in the cluster, beside D with `smallTotal`; alternating samples.
    const replay = { big: [], small: [], bigAll: [], smallAll: [] };
    for (let i = 0; i < replaySamples + 3; i++) {
      for (const [name, node] of [['big', a], ['small', small]]) {
        const { first, all } = await timeReplay(`${node.ready.url}?session=${PROBE}`, probeOwn);
        if (i >= 3) {
          replay[name].push(first);
          replay[`${name}All`].push(all);
        }
        await settle(20); // the node unfollows and forgets the probe before the next sample
      }
    }
    console.log(`  replay of ${probeOwn}: first question ${median(replay.big).toFixed(2)} ms with ${total.toLocaleString('en-US')} pending, ${median(replay.small).toFixed(2)} ms with ${smallTotal.toLocaleString('en-US')}`);

    // 6. Reconciles: nothing asked, nobody connecting; every node reconciles at least twice more
    // (each is logged with its duration). The event loop's longest delay meanwhile is what a
    // reconcile made timers and sockets wait; a client whose pong was read too late was dropped.
    const watched = [...shareNodes, everything];
    let quiet;
    if (reconcileMs <= 30_000) {
      await Promise.all(watched.map((node) => node.call('quiet')));
      const every = reconcileMs || 10_000;
      const deadline = now() + 4 * every + 30_000;
      for (;;) {
        quiet = await Promise.all(watched.map((node) => node.call('reconciles')));
        if (quiet.every((r) => r.quiet.length >= 2)) break;
        if (now() > deadline) throw new Error(`Not every node reconciled twice within ${4 * every + 30_000} ms: ${quiet.map((r) => r.quiet.length).join(', ')}.`);
        await settle(500);
      }
    }
    const stats = await Promise.all(watched.map((node) => node.call('reconciles')));
    const dropped = stats.reduce((sum, r) => sum + r.dropped, 0);
    const closedHere = sockets.filter((socket) => socket.readyState !== WebSocket.OPEN).length + clients.filter(({ client }) => client.status !== 'open').length;
    const reconcileLine = (r, name) => {
      const ms = r.all.map((each) => each.ms);
      return ms.length === 0 ? `${name}: none` : `${name}: ${ms.length} reconciles, median ${median(ms).toFixed(0)} ms, max ${Math.max(...ms)} ms (held ${r.all.at(-1).held.toLocaleString('en-US')}, listed ${r.all.at(-1).listed.toLocaleString('en-US')}, read ${Math.max(...r.all.map((each) => each.read))} at most)`;
    };
    const names = ['A', 'B', 'C', 'E'];
    console.log(`  reconciles (reconcileMs ${reconcileMs || 'default 10,000'}): ${stats.map((r, i) => reconcileLine(r, names[i])).join('; ')}`);
    console.log(`  connections dropped for missed heartbeats: ${dropped} (nodes' logs); sockets found closed here: ${closedHere}${quiet ? `; event loop's longest delay in the quiet phase: ${quiet.map((r, i) => `${names[i]} ${r.loopMaxMs.toFixed(0)} ms`).join(', ')}` : ''}`);

    // 7. Round trip: ask on A, answered by a client on B (holds 'share'), beside one node on Redis;
    // first with E on the bus too, then without it: E hears every message (it holds everything, here
    // as the baseline of the figures above) and is no part of a cluster of nodes holding their share.
    const crossShown = await connectAnswering(b.ready.url, 'cross', inFlight);
    const singleShown = await connectAnswering(single.ready.url, 'single', inFlight);
    clients.push(crossShown, singleShown);
    const roundTrips = () =>
      interleave(
        [
          { name: 'cross', run: (count) => a.call('asks', { session: 'cross', count }) },
          { name: 'single', run: (count) => single.call('asks', { session: 'single', count }) },
        ],
        { warmup, rounds, perRound },
      );
    const withEverything = await roundTrips();
    await everything.close();
    const samples = await roundTrips();
    const expectedAsks = 2 * (warmup + rounds * perRound);
    if (crossShown.shown.count !== expectedAsks || singleShown.shown.count !== expectedAsks) {
      throw new Error(`Expected ${expectedAsks} questions on each answering client; B's client of "cross" saw ${crossShown.shown.count}, the single node's ${singleShown.shown.count}.`);
    }
    const p = (name, q) => quantile(samples[name], q);
    const pE = (name, q) => quantile(withEverything[name], q);
    console.log(`  round trip p50: cross-node (share) ${p('cross', 0.5).toFixed(3)} ms, one node on Redis ${p('single', 0.5).toFixed(3)} ms; with E on the bus ${pE('cross', 0.5).toFixed(3)} ms vs ${pE('single', 0.5).toFixed(3)} ms`);

    const size = `${total.toLocaleString('en-US')} pending${total < 200_000 ? ' (scaled down from the issue\'s 200,000; BENCH_SHARE_QUESTIONS=200000 for the full size)' : ''}, ${sessions} sessions, 3 nodes`;
    const worst = perNode.reduce((max, node) => (node.per > max.per ? node : max));
    const mostHeld = Math.max(...perNode.map((node) => node.held));
    return [
      figure({
        section: SECTION,
        name: `heap per pending question of a node's own share, holds 'share' (${size}; worst node)`,
        value: worst.per,
        unit: 'B',
        baseline: { name: `today's single node (holds 'everything', no bus) holding as many questions as A (${sameCountHeld.toLocaleString('en-US')}), loaded at start`, value: sameCountPer },
        target: { on: 'ratio', op: '<=', value: 1, text: '<= today\'s single-node figure (issue 28)' },
        note: `Heap growth (after full GCs) as a third of the sessions connect, minus the growth from as many connections of sessions with nothing pending. Per node: ${perNode.map((node) => `${Math.round(node.per)} B × ${node.held.toLocaleString('en-US')}`).join(', ')}; connections ${perNode.map((node) => Math.round(node.connectionPer)).join(', ')} B each.`,
      }),
      figure({
        section: SECTION,
        name: `heap per pending question of a node's own share against a node holding all ${total.toLocaleString('en-US')} (worst node)`,
        value: worst.per,
        unit: 'B',
        baseline: { name: `a node with holds 'everything' on the same Redis, all ${total.toLocaleString('en-US')} loaded at start`, value: everythingPer },
        note: 'A Map\'s table doubles when it fills, so the bytes per entry depend on how full the count leaves it: compared at another count the figures differ by a few per cent either way (docs/performance.md, section 13).',
      }),
      figure({
        section: SECTION,
        name: `share of all pending questions a node holds, holds 'share' (${size}; most loaded node)`,
        value: (100 * mostHeld) / total,
        unit: '%',
        baseline: { name: 'a node with holds \'everything\'', value: (100 * everythingHeld) / total },
        target: { on: 'value', op: '<=', value: 40, text: '<= 40 % (issue 28; today 100 %)' },
      }),
      figure({
        section: SECTION,
        name: `bus messages received per node per answered question, holds 'share' (3 nodes, ${answered} answered, asked on every node in sessions served by each)`,
        value: perNodePerAnswer,
        unit: 'msgs',
        baseline: { name: 'a node with holds \'everything\' in the same cluster', value: everythingPerAnswer },
        target: { on: 'value', op: '<=', value: 1.5, text: '<= 1.5 with 3 nodes (issue 28)' },
        note: `Messages the bus handed each host (counted by wrapping its listener): ${shareReceived.join(', ')} on A, B, C; ${received[3]} on E.`,
      }),
      figure({
        section: SECTION,
        name: `connect → first question replayed, session with ${probeOwn} pending, ${total.toLocaleString('en-US')} pending in the cluster (holds 'share', n=${replay.big.length})`,
        value: median(replay.big),
        unit: 'ms',
        baseline: { name: `the same with ${smallTotal.toLocaleString('en-US')} pending (another node on its own prefix)`, value: median(replay.small) },
        target: { on: 'ratio', op: '<=', value: 2, text: '<= 2× (issue 28)' },
        note: `New socket → handshake → the node follows the session and reads its pending questions from Redis → hello → first question/requested; median. To the last of ${probeOwn}: ${median(replay.bigAll).toFixed(2)} ms vs ${median(replay.smallAll).toFixed(2)} ms.`,
      }),
      figure({
        section: SECTION,
        name: `cross-node round trip p50, holds 'share' (ask on A → Redis → client on B → Redis → A; n=${samples.cross.length})`,
        value: p('cross', 0.5),
        unit: 'ms',
        baseline: { name: 'one node on the same Redis store, no bus', value: p('single', 0.5) },
        target: { on: 'ratio', op: '<=', value: 1.5, text: '<= 1.5× one node (issue 28; section 6 had 2.2×)' },
        note: 'Every node in its own process (clients in the section\'s), so the hop crosses three processes: A, B and this one.',
      }),
      figure({
        section: SECTION,
        name: `cross-node round trip p50, holds 'share', with a node holding everything on the bus too (n=${withEverything.cross.length})`,
        value: pE('cross', 0.5),
        unit: 'ms',
        baseline: { name: 'one node on the same Redis store, no bus (same rounds)', value: pE('single', 0.5) },
        note: 'Measured first, while E (holds \'everything\', the baseline of the memory and bus rows) still hears every message on the same two cores; the row above is measured after E closed.',
      }),
      ...reconcileFigures({ stats, quiet, dropped, closedHere, size, reconcileMs, names }),
      figure({
        section: SECTION,
        name: `cross-node round trip p99, holds 'share' (n=${samples.cross.length})`,
        value: p('cross', 0.99),
        unit: 'ms',
        baseline: { name: 'one node on the same Redis store, no bus, p99', value: p('single', 0.99) },
      }),
    ];
  } finally {
    await waitUntil(() => inFlight.receipts === 0, { what: 'the last receipts' }).catch(() => {});
    for (const client of clients) client.client.close();
    for (const socket of sockets) socket.terminate();
    for (const child of children) await child.close().catch((error) => console.error('closing a node failed', error));
    await redis.stop();
  }
}

/**
 * A reconcile's duration on the share nodes (the worst node's longest) beside the node holding
 * everything, and the connections lost meanwhile (target: none). Without reconciles in the run
 * (BENCH_SHARE_RECONCILE_MS above a minute) only the dropped connections are reported.
 */
function reconcileFigures({ stats, quiet, dropped, closedHere, size, reconcileMs, names }) {
  const lost = figure({
    section: SECTION,
    name: `connections dropped for missed heartbeats while every node reconciles every ${reconcileMs || 10_000} ms (${size})`,
    value: dropped + closedHere,
    unit: '',
    target: { on: 'value', op: '<=', value: 0, text: 'none' },
    note: `Counted from the nodes' logs (${dropped}) and as sockets found closed in the section's process (${closedHere}), over the whole section.`,
  });
  const share = stats.slice(0, 3).filter((r) => r.all.length > 0);
  if (share.length === 0 || stats[3].all.length === 0) return [lost];
  const longest = (r) => Math.max(...r.all.map((each) => each.ms));
  const worst = share.reduce((max, r) => (longest(r) > longest(max) ? r : max));
  const per = stats.map((r, i) => `${names[i]} ${r.all.length}× median ${median(r.all.map((each) => each.ms)).toFixed(0)} ms max ${longest(r)} ms, ${r.all.at(-1).held.toLocaleString('en-US')} held, ≤ ${Math.max(...r.all.map((each) => each.read))} records read`).join('; ');
  const loop = quiet === undefined ? '' : ` Longest event-loop delay while idle but for reconciles: ${quiet.map((r, i) => `${names[i]} ${r.loopMaxMs.toFixed(0)} ms`).join(', ')}.`;
  return [
    figure({
      section: SECTION,
      name: `reconcile duration, holds 'share' (${size}; worst node's longest)`,
      value: longest(worst),
      unit: 'ms',
      baseline: { name: `the node with holds 'everything' (all ${stats[3].all.at(-1).held.toLocaleString('en-US')}), its longest`, value: longest(stats[3]) },
      note: `Host's own figure (its debug log), from the start of the read to the end of the pass. Per node: ${per}.${loop}`,
    }),
    lost,
  ];
}

/** How many of `count` filler questions go to `session`: spread round robin over `sessions`. */
function countOf(session, sessions, count) {
  const index = sessions.indexOf(session);
  return Math.floor(count / sessions.length) + (index < count % sessions.length ? 1 : 0);
}

/**
 * Save `count` detached questions round robin over `sessions`, and `probeOwn` in `probe`, with many
 * saves in flight. With `only`, just the questions of those sessions, with the same ids and texts.
 */
async function fill(url, keyPrefix, sessions, count, probeOwn, only) {
  const store = new RedisQuestionStore({ url, keyPrefix });
  const askedAt = new Date().toISOString();
  const record = (i, sessionId) => ({ rpcId: `fill-${i}`, sessionId, askedBy: sessionId, askedAt, questions: seamQuestions(` #${i}`), mode: 'detached' });
  try {
    const records = [];
    for (let i = 0; i < probeOwn; i++) records.push(record(`probe-${i}`, PROBE));
    const flush = () => Promise.all(records.splice(0).map((r) => store.save(r)));
    await flush();
    for (let i = 0; i < count; i++) {
      const sessionId = sessions[i % sessions.length];
      if (only !== undefined && !only.has(sessionId)) continue;
      records.push(record(i, sessionId));
      if (records.length === 500) await flush();
    }
    await flush();
  } finally {
    await store.close();
  }
}

/** Fork one node; resolves with its ready message and a `call(cmd, args)` over IPC. */
async function startChild(children, nodeOptions) {
  // 0: the host's default reconcileMs.
  const options = { ...nodeOptions, reconcileMs: startChild.reconcileMs || undefined };
  const child = fork(nodeScript, [JSON.stringify(options)], { execArgv: ['--expose-gc', '--max-old-space-size=4096'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map();
  let next = 0;
  const exited = once(child, 'exit');
  const [ready] = await Promise.race([
    once(child, 'message'),
    exited.then(([code, signal]) => {
      throw new Error(`Node ${options.nodeId} exited (${signal ?? code}) before it was ready.`);
    }),
  ]);
  if (!ready?.ready) throw new Error(`Node ${options.nodeId} said ${JSON.stringify(ready)} instead of ready.`);
  child.on('message', ({ id, ok, value, error }) => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (ok) waiter?.resolve(value);
    else waiter?.reject(new Error(`node ${options.nodeId}: ${error}`));
  });
  void exited.then(([code, signal]) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`Node ${options.nodeId} exited (${signal ?? code}).`));
    pending.clear();
  });
  const handle = {
    ready,
    call(cmd, args = {}) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, cmd, ...args });
      });
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await handle.call('close').catch(() => {});
      await exited;
      clearTimeout(timer);
    },
  };
  children.push(handle);
  return handle;
}

/** Raw sockets, one per session, 100 handshakes at a time; each resolves once it was shown `expected(session)` questions. */
async function connectRaw(sockets, url, sessions, expected) {
  for (let first = 0; first < sessions.length; first += 100) {
    await Promise.all(sessions.slice(first, first + 100).map((session) => new Promise((resolve, reject) => {
      const socket = new WebSocket(`${url}?session=${encodeURIComponent(session)}`, { perMessageDeflate: false });
      sockets.push(socket);
      const want = expected(session);
      let hello = false;
      let seen = 0;
      const check = () => {
        if (hello && seen === want) resolve();
      };
      socket.on('message', (data) => {
        const text = data.toString();
        if (text.includes('"type":"hello"')) hello = true;
        if (text.includes('"type":"question/requested"')) seen++;
        check();
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`a socket of ${session} closed after ${seen} of ${want} questions`)));
    })));
  }
}

/** A client of `session` that answers everything at once; `shown.count` proves which node carried the questions. */
async function connectAnswering(url, session, inFlight) {
  const client = connectQuestions({ url: `${url}?session=${encodeURIComponent(session)}`, WebSocket, reconnect: false });
  const shown = { count: 0 };
  client.on('requested', () => shown.count++);
  answerAtOnce(client, seamAnswer(), inFlight);
  await waitUntil(() => client.status === 'open', { what: `a client of ${session} to open` });
  return { client, shown };
}

/** A fresh raw connection of `session`: ms to its first and to its `expected`-th question/requested frame. */
async function timeReplay(url, expected) {
  const start = now();
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on('error', () => {});
  let seen = 0;
  let first;
  let all;
  await new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      if (!data.toString().includes('"type":"question/requested"')) return;
      seen++;
      if (seen === 1) first = now() - start;
      if (seen === expected) {
        all = now() - start;
        resolve();
      }
    });
    socket.on('close', () => reject(new Error(`closed after ${seen} of ${expected} replayed questions`)));
  });
  socket.removeAllListeners('close');
  socket.terminate();
  await once(socket, 'close');
  return { first, all };
}
