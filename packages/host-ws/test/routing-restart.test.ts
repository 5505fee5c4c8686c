// A routed question across a host restart on a real SQLite file: tier times come from the stored
// ask time, a tier that came due while no host ran is escalated once by the next host, and a third
// start writes no second `escalated`.
import type { QuestionRecord } from '@askseam/store';
import { afterEach, expect, it } from 'vitest';
import type { Route } from '../src/index.js';
import { cleanupDurable, openSqlite, tempDbFile } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost } from './fixture.js';
import { authenticatePeople, connectAs } from './routing-fixture.js';

afterEach(async () => {
  await cleanup();
  await cleanupDurable();
});

const tierOneAfterMs = 1_000;
const route: Route = () => [{ answerers: [{ principal: 'alice' }] }, { answerers: [{ group: 'leads' }], after: tierOneAfterMs }];
const auth = { token: undefined, authenticate: authenticatePeople };

it('reaches tier 1 from the stored ask time after a restart between tier 0 and tier 1, and escalates it once', async () => {
  const file = tempDbFile();
  const first = await startHost({ ...auth, route, store: openSqlite(file) });
  const { rpcId } = await first.host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
  const carolEarly = await connectAs(first, 'carol');
  expect(await carolEarly.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'forbidden' });
  await first.host.close();
  expect(first.events.some((event) => event.type === 'escalated')).toBe(false);

  // Down past tier 1's time: the next host reaches it at once, from the stored askedAt.
  const askedAt = Date.parse((await openSqlite(file).get(rpcId))!.askedAt);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, askedAt + tierOneAfterMs + 50 - Date.now())));
  const resumed: QuestionRecord[] = [];
  const second = await startHost({ ...auth, route, store: openSqlite(file), onResume: (record) => void resumed.push(record) });
  expect(await second.event('escalated')).toMatchObject({ rpcId, tier: 1, reason: 'after' });
  const carol = await connectAs(second, 'carol');
  expect((await carol.next('question/requested')).rpcId).toBe(rpcId);
  expect(await carol.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
  await second.host.close();
  expect(resumed.map((record) => record.answer)).toEqual([redAnswer]);

  const log = await openSqlite(file).readEvents('agent-a');
  expect(log.filter((event) => event.type === 'escalated').map((event) => event.data.tier)).toEqual([1]);
});

it('does not escalate a tier again when a host restarts after it was escalated', async () => {
  const file = tempDbFile();
  const first = await startHost({ ...auth, route, store: openSqlite(file) });
  const { rpcId } = await first.host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
  expect(await first.event('escalated')).toMatchObject({ rpcId, tier: 1 });
  await first.host.close();

  const second = await startHost({ ...auth, route, store: openSqlite(file) });
  // Tier 1 is reached on the new host (carol may answer), but nobody escalates it again.
  const carol = await connectAs(second, 'carol');
  expect((await carol.next('question/requested')).rpcId).toBe(rpcId);
  await second.host.close();
  expect(second.events.some((event) => event.type === 'escalated')).toBe(false);
  const log = await openSqlite(file).readEvents('agent-a');
  expect(log.filter((event) => event.type === 'escalated')).toHaveLength(1);
});
