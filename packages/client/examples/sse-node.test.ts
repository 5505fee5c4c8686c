import type { QuestionClient } from '@askseam/client';
import { afterEach, expect, it } from 'vitest';
import { statusReached } from '../test/events.js';
import { startSseStage, type SseStage } from '../test/sse-stage.js';
import { connectOverSse } from './sse-node.js';

let host: SseStage | undefined;
let client: QuestionClient | undefined;
afterEach(async () => {
  client?.close();
  await host?.close();
});

it('connects over SSE from Node 20 and answers a question', async () => {
  host = await startSseStage({ token: 'example-token' });
  const rpcId = await host.ask([{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }]);
  client = connectOverSse(host.url, 'example-token');
  await statusReached(client, 'open');
  await expect.poll(() => client?.pending.has(rpcId)).toBe(true);
  await expect(client.answer(rpcId, { answers: [{ id: 'go', selected: ['Yes'] }] })).resolves.toEqual({ rpcId, accepted: true });
});
