import { MemoryQuestionBusHub, MemoryQuestionStore, type QuestionBus, type QuestionRecord } from '@askseam/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusCluster, NODE_SEEN_ALIVE_MS } from './cluster.js';
import { BackgroundWork, Lifecycle } from './lifecycle.js';
import { silentLogger } from './logger.js';
import { PendingQuestion, PendingTable } from './pending.js';
import { RECONCILE_CHUNK } from './reconcile-pass.js';
import { colourQuestion } from '../test/fixture.js';

const buses: QuestionBus[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const bus of buses.splice(0)) await bus.close();
});

/** A cluster node on `hub` whose bus counts the liveness questions it is asked. */
function clusterOn(hub: MemoryQuestionBusHub, nodeId: string): { cluster: BusCluster; asked: string[] } {
  const bus = hub.connect(nodeId);
  buses.push(bus);
  const asked: string[] = [];
  const isNodeAlive = bus.isNodeAlive.bind(bus);
  bus.isNodeAlive = (id) => {
    asked.push(id);
    return isNodeAlive(id);
  };
  const deps = { store: new MemoryQuestionStore(), lifecycle: new Lifecycle(), work: new BackgroundWork(), logger: silentLogger, reconcileMs: 60_000, resumeLeaseMs: 60_000 };
  return { cluster: new BusCluster(bus, deps), asked };
}

async function subscribed(hub: MemoryQuestionBusHub, nodeId: string): Promise<QuestionBus> {
  const bus = hub.connect(nodeId);
  buses.push(bus);
  await bus.subscribe({ message: () => {}, resync: () => {} });
  return bus;
}

describe('BusCluster.isNodeAlive', () => {
  it('asks the bus once for a node seen alive within the window, again after it', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const hub = new MemoryQuestionBusHub();
    const { cluster, asked } = clusterOn(hub, 'b');
    await subscribed(hub, 'a');
    expect(await cluster.isNodeAlive('a')).toBe(true);
    expect(await cluster.isNodeAlive('a')).toBe(true);
    expect(asked).toEqual(['a']);
    vi.advanceTimersByTime(NODE_SEEN_ALIVE_MS + 1);
    expect(await cluster.isNodeAlive('a')).toBe(true);
    expect(asked).toEqual(['a', 'a']);
  });

  it('asks the bus every time about a node it found gone, and then finds it back', async () => {
    const hub = new MemoryQuestionBusHub();
    const { cluster, asked } = clusterOn(hub, 'b');
    expect(await cluster.isNodeAlive('a')).toBe(false);
    expect(await cluster.isNodeAlive('a')).toBe(false);
    await subscribed(hub, 'a');
    expect(await cluster.isNodeAlive('a')).toBe(true);
    expect(asked).toEqual(['a', 'a', 'a']);
  });
});

describe('BusCluster.reconcile', () => {
  it('gives the event loop turns while it goes through many held questions, so timers (the heartbeat) run in the middle of it', async () => {
    const hub = new MemoryQuestionBusHub();
    const bus = hub.connect('a');
    buses.push(bus);
    const store = new MemoryQuestionStore();
    const pending = new PendingTable();
    const held = 5 * RECONCILE_CHUNK;
    for (let index = 0; index < held; index++) {
      const record: QuestionRecord = { rpcId: `q-${index}`, sessionId: 's', askedBy: 's', askedAt: new Date().toISOString(), questions: [colourQuestion], mode: 'detached' };
      await store.save(record);
      pending.add(new PendingQuestion(record, pending.nextSeq(), { saved: true }));
    }
    const lifecycle = new Lifecycle();
    lifecycle.enter('running');
    const cluster = new BusCluster(bus, { store, lifecycle, work: new BackgroundWork(), logger: silentLogger, reconcileMs: 60_000, resumeLeaseMs: 60_000 });
    const settled: QuestionRecord[] = [];
    await cluster.subscribe({
      pending,
      adoptPending: () => {},
      adoptSettled: (record) => settled.push(record),
      adoptVotes: () => {},
      forgetUnknown: () => {},
      resumeOrphans: async () => {},
      onUnreadable: () => {},
    });
    // The memory store answers in microtasks: without turns of its own, the whole pass would run before any timer.
    let turns = 0;
    let done = false;
    const tick = () => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await cluster.reconcile();
    done = true;
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(settled).toEqual([]);
  });
});
