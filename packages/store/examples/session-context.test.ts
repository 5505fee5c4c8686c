import { describe, expect, it } from 'vitest';
import { MemoryQuestionStore } from '../src/index.js';
import { sessionContext } from './session-context.js';

describe('a session\'s events as agent context (README)', () => {
  it('describes each event on one line and reads only new ones after the cursor', async () => {
    const store = new MemoryQuestionStore();
    const questions = [{ id: 'env', question: 'Deploy to production?', options: [{ label: 'Yes' }, { label: 'No' }] }];
    await store.appendEvent({ type: 'human_input_requested', sessionId: 's', rpcId: 'r', data: { askedBy: 'agent', mode: 'detached', questions } });
    await store.appendEvent({ type: 'response_rejected', sessionId: 's', rpcId: 'r', data: { reason: 'bad-response', principalId: 'p', channel: 'http' } });
    const first = await sessionContext(store, 's');
    expect(first.lines).toEqual(['asked: Deploy to production?', 'refused a response (bad-response)']);

    await store.appendEvent({ type: 'response_from_human', sessionId: 's', rpcId: 'r', data: { answer: { answers: [{ id: 'env', selected: ['Yes'] }] }, principalId: 'p', channel: 'http' } });
    const next = await sessionContext(store, 's', first.cursor);
    expect(next.lines).toEqual(['answered: env=Yes']);
    expect(next.cursor).toBeGreaterThan(first.cursor);
  });
});
