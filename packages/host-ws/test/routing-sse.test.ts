// Routing over the HTTP + Server-Sent Events transport: people as separate authenticated streams.
// Only the tier's answerer's stream is sent the routed question; an outsider's POST is refused.
import { afterEach, expect, it } from 'vitest';
import { cleanup, redAnswer, startHost } from './fixture.js';
import { people } from './routing-fixture.js';
import { cleanupSse, mount, SseClient } from './sse-fixture.js';

afterEach(async () => {
  await cleanupSse();
  await cleanup();
});

it('sends a routed question only to its answerer\'s stream, and refuses an outsider\'s POST with forbidden', async () => {
  const test = await startHost({ route: () => [{ answerers: [{ principal: 'alice' }] }] });
  const handler = test.host.fetchHandler({
    authenticate: (request) => {
      const name = request.headers.get('x-user') ?? '';
      return people[name] === undefined ? undefined : { id: name, canSee: () => true, groups: people[name] };
    },
  });
  const base = await mount(handler, 'node');
  const as = (name: string) => ({ fetch: (url: string | URL, init?: RequestInit) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-user': name } }) });
  const alice = await SseClient.open(`${base}/events`, as('alice'));
  const bob = await SseClient.open(`${base}/events`, as('bob'));
  await Promise.all([alice, bob].map((client) => client.waitFor((frame) => frame.type === 'hello')));

  const asking = test.ask('agent-a');
  const [requested] = await alice.waitFor((frame) => frame.type === 'question/requested');
  const rpcId = (requested!.frame as { rpcId: string }).rpcId;
  const respond = (name: string) =>
    fetch(`${base}/respond`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': name },
      body: JSON.stringify({ type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } }),
    }).then(async (response) => (await response.json()) as Record<string, unknown>);

  expect(await respond('bob')).toMatchObject({ accepted: false, reason: 'forbidden' });
  expect(bob.frames().some((frame) => frame.type === 'question/requested')).toBe(false);
  expect(await respond('alice')).toMatchObject({ accepted: true });
  expect(await asking).toEqual(redAnswer);
});
