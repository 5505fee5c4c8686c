// An answer given while Redis is stopped, with the real Redis store: the store knows its claim
// never left the process (the client refuses to write while the connection is down), so the
// person is told plainly that nothing was recorded, rather than "could not confirm".
import { randomUUID } from 'node:crypto';
import { QuestionStoreError } from '@askseam/store';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost } from './fixture.js';

let redis: TestRedisServer;
const stores: RedisQuestionStore[] = [];

beforeAll(async () => {
  redis = await startRedisServer({ persistent: true });
});

afterAll(async () => {
  await redis?.stop();
});

afterEach(async () => {
  await cleanup();
  for (const store of stores.splice(0)) await store.close();
  // A test that failed half-way must not leave the next one without a server.
  await redis.restart();
});

/** Until the store's client has seen the connection go (a read fails STORE_UNAVAILABLE). */
async function untilDown(store: RedisQuestionStore): Promise<void> {
  for (let tries = 0; tries < 400; tries++) {
    try {
      await store.get('probe');
    } catch (error) {
      if (QuestionStoreError.isInstance(error) && error.code === 'STORE_UNAVAILABLE') return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the store never noticed that Redis stopped');
}

describe('an answer while Redis is stopped', () => {
  it('says nothing was recorded and to send it again (HTTP 503), keeps the question pending, and takes the answer once Redis is back', async () => {
    const store = new RedisQuestionStore({ url: redis.url, keyPrefix: `down-${randomUUID()}:` });
    stores.push(store);
    const t = await startHost({ store });
    const { rpcId } = await t.host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });

    await redis.stop();
    await untilDown(store);
    const refused = await api(t.host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ type: 'receipt', rpcId, accepted: false, reason: 'bad-response', detail: expect.stringMatching(/nothing was recorded.*send the response again/) });
    expect(t.host.pending().map((question) => question.rpcId)).toEqual([rpcId]);

    await redis.restart();
    let accepted = false;
    for (let tries = 0; tries < 200 && !accepted; tries++) {
      const again = await api(t.host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
      accepted = again.status === 200;
      if (!accepted) {
        expect(again.status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    expect(accepted).toBe(true);
    expect((await store.get(rpcId))?.outcome).toBe('answered');
  });
});
