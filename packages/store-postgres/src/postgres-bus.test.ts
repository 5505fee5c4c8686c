import type { QuestionBus, QuestionBusListener, QuestionBusMessage } from '@askseam/store';
import { describeQuestionBusContract, sampleQuestionRecord } from '@askseam/store-testing';
import { describe, expect, it } from 'vitest';
import { usePostgresFixture } from '../test/fixture.js';
import { PostgresQuestionBus } from './postgres-bus.js';

const fixture = usePostgresFixture();
const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

/** Nodes on one fresh schema, each with its own pool. */
function nodes(count: number, schema = fixture.schema()): PostgresQuestionBus[] {
  return Array.from({ length: count }, () => new PostgresQuestionBus({ connectionString: fixture.server.url, schema, livenessTtlMs: 1_000 }));
}

/** Cut the LISTEN connections from the server side, as an administrator (or a failover) would: every node's (the contract allows it). */
async function terminateListener(bus: QuestionBus): Promise<void> {
  const pool = fixture.raw();
  const { rows } = await pool.query("SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name LIKE 'askseam-bus %' AND query LIKE 'LISTEN%'");
  if (rows.length === 0) throw new Error(`no LISTEN connection found for ${bus.nodeId}`);
}

// Fresh nodes with their schema checked, as a host's nodes are once they serve.
describeQuestionBusContract('PostgresQuestionBus', async (count) => {
  const buses = nodes(count);
  await Promise.all(buses.map((bus) => bus.ready()));
  return buses;
}, { interrupt: terminateListener, restore: () => {} });

function recorder(): QuestionBusListener & { messages: QuestionBusMessage[]; resyncs: number } {
  const heard = { messages: [] as QuestionBusMessage[], resyncs: 0, message: (message: QuestionBusMessage) => heard.messages.push(message), resync: () => (heard.resyncs += 1) };
  return heard;
}

/** A subscribed node on a fresh schema, beside the row a node named 'ghost' left behind, expired. */
async function subscribedBesideGhost(livenessTtlMs: number) {
  const schema = fixture.schema();
  const b = fixture.own(new PostgresQuestionBus({ connectionString: fixture.server.url, schema, livenessTtlMs }));
  const heard = recorder();
  await b.subscribe(heard);
  await fixture.raw().query(`INSERT INTO "${schema}".bus_nodes (node_id, alive_until) VALUES ('ghost', clock_timestamp() - interval '1 second')`);
  return { b, heard };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('announcements sent by the store, inside its writes', () => {
  it('delivers asked and settled from a store write to the other nodes, carrying ids only, with the dismissal words', async () => {
    const schema = fixture.schema();
    const [a, b] = nodes(2, schema).map((bus) => fixture.own(bus)) as [PostgresQuestionBus, PostgresQuestionBus];
    const store = fixture.open({ schema });
    expect(store.announcesOn).toBe(a.publishesOn);
    const heard = recorder();
    await b.subscribe(heard);
    await a.subscribe(recorder());
    const payloads: string[] = [];
    const spy = fixture.raw();
    const client = await spy.connect();
    client.on('notification', (notification) => payloads.push(notification.payload ?? ''));
    await client.query(`LISTEN "askseam:${schema}"`);

    const record = sampleQuestionRecord({ askedOn: a.nodeId, questions: [{ id: 'deploy', question: 'A secret question text', options: [{ label: 'Yes' }, { label: 'No' }] }] });
    await store.save(record, { announce: a.announcement({ type: 'asked' }) });
    const settled = await store.claim(record.rpcId, 'cancelled', undefined, { announce: a.announcement({ type: 'settled', message: 'not now' }) });
    await waitFor('both messages at B', () => heard.messages.length === 2);
    expect(heard.messages).toEqual([
      { type: 'asked', from: a.nodeId, record: expect.objectContaining({ rpcId: record.rpcId }) },
      { type: 'settled', from: a.nodeId, record: settled, message: 'not now' },
    ]);
    await waitFor('both notices at the spy', () => payloads.length === 2);
    for (const payload of payloads) expect(payload).not.toContain('secret');
    expect(payloads.map((payload) => JSON.parse(payload))).toEqual([
      { f: a.nodeId, t: 'asked', q: record.rpcId },
      { f: a.nodeId, t: 'settled', q: record.rpcId, m: 'not now' },
    ]);
    client.release();
  });

  it('announces nothing when the write does not happen (a duplicate save, a lost claim)', async () => {
    const schema = fixture.schema();
    const [a, b] = nodes(2, schema).map((bus) => fixture.own(bus)) as [PostgresQuestionBus, PostgresQuestionBus];
    const store = fixture.open({ schema });
    const heard = recorder();
    await b.subscribe(heard);
    const record = sampleQuestionRecord();
    await store.save(record);
    await expect(store.save(record, { announce: a.announcement({ type: 'asked' }) })).rejects.toMatchObject({ code: 'DUPLICATE_RPC_ID' });
    await store.claim(record.rpcId, 'answered', yes);
    expect(await store.claim(record.rpcId, 'cancelled', undefined, { announce: a.announcement({ type: 'settled' }) })).toBeUndefined();
    // A marker published after both: had either been announced, it would have arrived first.
    const marker = { type: 'asked', from: a.nodeId, record: sampleQuestionRecord() } as const;
    await a.publish(marker);
    await waitFor('the marker', () => heard.messages.length > 0);
    expect(heard.messages).toEqual([marker]);
  });

  it('sends a published message of any size through the table, the NOTIFY carrying its id', async () => {
    const [a, b] = nodes(2).map((bus) => fixture.own(bus)) as [PostgresQuestionBus, PostgresQuestionBus];
    const heard = recorder();
    await b.subscribe(heard);
    const big = { type: 'asked', from: a.nodeId, record: sampleQuestionRecord({ state: { blob: 'x'.repeat(50_000) } }) } as const;
    await a.publish(big);
    await waitFor('the big message', () => heard.messages.length === 1);
    expect(heard.messages).toEqual([big]);
  });

  it('resyncs after PostgreSQL restarts, and delivers again', async () => {
    const [a, b] = nodes(2).map((bus) => fixture.own(bus)) as [PostgresQuestionBus, PostgresQuestionBus];
    const heard = recorder();
    await a.subscribe(recorder());
    await b.subscribe(heard);
    await fixture.server.restart();
    await waitFor('B to resync', () => heard.resyncs > 0);
    const marker = { type: 'asked', from: a.nodeId, record: sampleQuestionRecord() } as const;
    await waitFor('a message to get through', async () => {
      await a.publish(marker).catch(() => {});
      return heard.messages.length > 0;
    });
    expect(heard.messages[0]).toEqual(marker);
    expect(await a.isNodeAlive(b.nodeId)).toBe(true);
  });

  it('takes no node for gone while it may have been cut off with it: for its liveness ttl after an outage of a third of it or more', async () => {
    // A node that died while PostgreSQL was down: its row left behind, expired.
    const { b, heard } = await subscribedBesideGhost(1_500);
    expect(await b.isNodeAlive('ghost')).toBe(false);
    await fixture.server.stop();
    await new Promise((resolve) => setTimeout(resolve, 600));
    await fixture.server.start();
    await waitFor('B to listen again', () => heard.resyncs > 0);
    // B was cut off too, so a live node may not have refreshed its row yet: "alive" only defers a resume.
    expect(await b.isNodeAlive('ghost')).toBe(true);
    // A node that closed deleted its row: gone all the same.
    expect(await b.isNodeAlive('never-here')).toBe(false);
    // Once B is back for its own ttl, every live node has had time to refresh: ghost is gone.
    await waitFor('B to take ghost for gone', async () => !(await b.isNodeAlive('ghost')));
    expect(await b.isNodeAlive(b.nodeId)).toBe(true);
  });

  it('still takes a node for gone after a short drop of its own LISTEN connection (a proxy closing idle connections)', async () => {
    const { b, heard } = await subscribedBesideGhost(60_000);
    await terminateListener(b);
    await waitFor('B to listen again', () => heard.resyncs > 0);
    expect(await b.isNodeAlive('ghost')).toBe(false);
  });
});
