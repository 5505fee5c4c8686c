import type { QuestionClient } from '@askseam/client';
import { afterEach, expect, it } from 'vitest';
import { statusReached } from '../test/events.js';
import { startFakeSseHost, type FakeSseHost } from '../test/fake-sse-host.js';
import { connectOverSse } from './sse-node.js';

let host: FakeSseHost | undefined;
let client: QuestionClient | undefined;
afterEach(async () => {
  client?.close();
  await host?.close();
});

it('connects over SSE from Node 20 and answers a question', async () => {
  host = await startFakeSseHost({ token: 'example-token' });
  host.ask('rpc-1', [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }]);
  client = connectOverSse(host.url, 'example-token');
  await statusReached(client, 'open');
  await expect.poll(() => client?.pending.has('rpc-1')).toBe(true);
  await expect(client.answer('rpc-1', { answers: [{ id: 'go', selected: ['Yes'] }] })).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
});
