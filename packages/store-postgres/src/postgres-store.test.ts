import { describeQuestionStoreContract, sampleQuestionRecord } from '@askseam/store-testing';
import { describe, expect, it } from 'vitest';
import { usePostgresFixture } from '../test/fixture.js';
import type { PostgresQuestionStore } from './postgres-store.js';

const fixture = usePostgresFixture();
const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

describeQuestionStoreContract('PostgresQuestionStore', () => fixture.open());

describe('records on PostgreSQL', () => {
  it('shares one store between two instances on separate pools with the same schema', async () => {
    const first = fixture.open();
    const second = fixture.open({ schema: first.schema });
    const record = sampleQuestionRecord({ askedOn: 'node-a' });
    await first.save(record);
    expect(await second.listPending('all')).toEqual([record]);
    expect(await second.claim(record.rpcId, 'cancelled')).toMatchObject({ rpcId: record.rpcId, outcome: 'cancelled' });
    expect(await first.listPending('all')).toEqual([]);
    expect((await first.listAwaitingResume()).map((found) => found.rpcId)).toEqual([record.rpcId]);
  });

  it('keeps a state of JSON null apart from no state, and JSON text the way it was given (key order, a NUL escape)', async () => {
    const store = fixture.open();
    const withNull = sampleQuestionRecord({ mode: 'detached', state: null });
    const without = sampleQuestionRecord({ mode: 'detached', state: JSON.parse('{"z":"ünïcødé \\u0000 nul","a":[1.5,1e300]}') });
    await store.save(withNull);
    await store.save(without);
    expect(await store.get(withNull.rpcId)).toEqual(withNull);
    expect(Object.keys((await store.get(without.rpcId))!.state as object)).toEqual(['z', 'a']);
    expect((await store.get(without.rpcId))!.state).toEqual(without.state);
  });

  it('hands exactly one of many claims racing from separate pools the record', async () => {
    const stores: PostgresQuestionStore[] = [fixture.open()];
    for (let i = 0; i < 3; i++) stores.push(fixture.open({ schema: stores[0]!.schema }));
    const records = Array.from({ length: 10 }, () => sampleQuestionRecord());
    for (const record of records) await stores[0]!.save(record);
    const claims = await Promise.all(records.flatMap((record) => stores.map((store) => store.claim(record.rpcId, 'answered', yes))));
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(records.length);
    for (const record of records) expect(claims.filter((claim) => claim?.rpcId === record.rpcId)).toHaveLength(1);
  });
});

describe('quorum votes on PostgreSQL', () => {
  const approve = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

  it('keeps every distinct vote racing from separate pools and settles exactly once', async () => {
    const stores: PostgresQuestionStore[] = [fixture.open()];
    for (let i = 0; i < 3; i++) stores.push(fixture.open({ schema: stores[0]!.schema }));
    const record = sampleQuestionRecord();
    await stores[0]!.save(record);
    const people = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const results = await Promise.all(people.map((person, i) => stores[i % stores.length]!.vote(record.rpcId, { voter: { principalId: person, via: 'websocket' }, approvals: 5, answer: approve })));
    expect(results.filter((result) => result.kind === 'settled')).toHaveLength(1);
    expect(results.filter((result) => result.kind === 'counted')).toHaveLength(4);
    expect(results.filter((result) => result.kind === 'not-pending')).toHaveLength(3);
    const stored = await stores[1]!.get(record.rpcId);
    expect(stored).toMatchObject({ outcome: 'answered', answer: approve });
    expect(stored?.votes).toHaveLength(5);
    expect((await stores[2]!.readEvents(record.sessionId)).filter((event) => event.type === 'vote_cast')).toHaveLength(5);
  });

  it('sends the announcement (pg_notify) with the settling vote only', async () => {
    const store = fixture.open();
    const channel = `askseam_vote_test_${store.schema}`;
    const payloads: string[] = [];
    const client = await fixture.raw().connect();
    client.on('notification', (notification) => payloads.push(notification.payload ?? ''));
    await client.query(`LISTEN "${channel}"`);
    const record = sampleQuestionRecord();
    await store.save(record);
    const announce = { channel, before: '{"q":', after: '}' };
    expect((await store.vote(record.rpcId, { voter: { principalId: 'alex', via: 'websocket' }, approvals: 2, answer: approve }, { announce })).kind).toBe('counted');
    expect((await store.vote(record.rpcId, { voter: { principalId: 'alex', via: 'websocket' }, approvals: 2, answer: approve }, { announce })).kind).toBe('repeated');
    expect((await store.vote(record.rpcId, { voter: { principalId: 'sam', via: 'websocket' }, approvals: 2, answer: approve }, { announce })).kind).toBe('settled');
    await client.query('SELECT 1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(payloads).toEqual([JSON.stringify({ q: record.rpcId })]);
    client.release();
  });
});

describe('settled history on PostgreSQL', () => {
  it('refuses a cursor it did not make (INVALID_INPUT), and reports a damaged row through onUnreadable', async () => {
    const store = fixture.open();
    for (const cursor of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      await expect(store.listSettled({ cursor })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    const good = sampleQuestionRecord();
    const bad = sampleQuestionRecord();
    for (const record of [good, bad]) {
      await store.save(record);
      await store.claim(record.rpcId, 'aborted');
    }
    await fixture.raw().query(`UPDATE ${store.schema}.questions SET trace_context = '{"traceparent":"nope"}' WHERE rpc_id = $1`, [bad.rpcId]);
    await expect(store.listSettled()).rejects.toMatchObject({ code: 'CORRUPT_STORE' });
    const unreadable: string[] = [];
    const page = await store.listSettled({ onUnreadable: (found) => unreadable.push(found.rpcId) });
    expect(page.records.map((record) => record.rpcId)).toEqual([good.rpcId]);
    expect(unreadable).toEqual([bad.rpcId]);
  });
});
