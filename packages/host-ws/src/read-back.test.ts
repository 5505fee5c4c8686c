import { MemoryQuestionStore, QuestionStoreError, type QuestionStore } from '@askseam/store';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../test/durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import { unconfirmedDetail } from './respond.js';

afterEach(cleanup);

const blueAnswer = { answers: [{ id: 'colour', selected: ['Blue'] }] };

/**
 * A real in-memory store behind a flaky link, as a networked store is when its connection drops:
 * `claim` runs the real claim and then loses the reply (or, with `lose: 'request'`, loses the
 * request and runs nothing), and `get` fails while the link is down (`failGets` more calls, or
 * until `heal()`). Fault injection only: every answer the store gives comes from the real store.
 */
class LostReplyStore implements QuestionStore {
  readonly inner = new MemoryQuestionStore();
  lose: 'reply' | 'request' | undefined;
  failGets = 0;
  getsCalled = 0;

  heal(): void {
    this.failGets = 0;
  }

  save: QuestionStore['save'] = (record) => this.inner.save(record);
  claim: QuestionStore['claim'] = async (rpcId, outcome, answer) => {
    const lose = this.lose;
    this.lose = undefined;
    if (lose === 'request') throw linkDown('claim');
    const record = await this.inner.claim(rpcId, outcome, answer);
    if (lose === 'reply') throw linkDown('claim');
    return record;
  };
  get: QuestionStore['get'] = async (rpcId) => {
    this.getsCalled += 1;
    if (this.failGets > 0) {
      this.failGets -= 1;
      throw linkDown('get');
    }
    return this.inner.get(rpcId);
  };
  listPending: QuestionStore['listPending'] = (sessions) => this.inner.listPending(sessions);
  listAwaitingResume: QuestionStore['listAwaitingResume'] = () => this.inner.listAwaitingResume();
  markResumed: QuestionStore['markResumed'] = (rpcId) => this.inner.markResumed(rpcId);
  appendEvent: QuestionStore['appendEvent'] = (event) => this.inner.appendEvent(event);
  readEvents: QuestionStore['readEvents'] = (sessionId, options) => this.inner.readEvents(sessionId, options);
}

function linkDown(call: string): QuestionStoreError {
  return new QuestionStoreError('STORE_UNAVAILABLE', `${call}: the connection dropped before the store answered (the test said so).`);
}

async function pendingQuestion(store: LostReplyStore) {
  const testHost = await startHost({ store });
  const client = await testHost.connect();
  const asking = testHost.ask('agent-a', [colourQuestion]);
  const { rpcId } = await client.next('question/requested');
  return { ...testHost, client, asking, rpcId };
}

describe('a claim whose reply from the store was lost', () => {
  it('accepts the response when the store ran the claim, even if the first read-back fails too', async () => {
    const store = new LostReplyStore();
    const { client, asking, rpcId, host } = await pendingQuestion(store);
    store.lose = 'reply';
    store.failGets = 1;
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
    // Accepted: the receipt is the answering connection's news (protocol 2), no question/resolved follows.
    await client.caughtUp();
    expect(client.all('question/resolved')).toEqual([]);
    expect(host.pending()).toEqual([]);
    // A second answer is refused as the store has it: already settled.
    expect(await client.answer(rpcId, 'agent-a', blueAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
  });

  it('never says "send again" while the store cannot be read: the receipt says the outcome is unknown and the question is not offered as pending', async () => {
    const store = new LostReplyStore();
    const { client, asking, rpcId, host } = await pendingQuestion(store);
    store.lose = 'reply';
    store.failGets = Number.POSITIVE_INFINITY;
    const receipt = await client.answer(rpcId, 'agent-a', redAnswer);
    expect(receipt).toEqual({ type: 'receipt', id: expect.any(String), rpcId, accepted: false, reason: 'bad-response', detail: unconfirmedDetail });
    expect(host.pending()).toEqual([]);
    // A "corrected" answer cannot overtake the one the store may hold.
    expect(await client.answer(rpcId, 'agent-a', blueAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
    expect(await store.inner.get(rpcId)).toMatchObject({ outcome: 'answered', answer: redAnswer });

    // Once the store answers again, the host reads the truth back and acts on it.
    const reads = store.getsCalled;
    store.heal();
    expect(await client.next('question/resolved', (frame) => frame.rpcId === rpcId, 20_000)).toMatchObject({ outcome: 'answered' });
    await expect(asking).resolves.toEqual(redAnswer);
    expect(store.getsCalled).toBeGreaterThan(reads);
  });

  it('offers the question again only when the read-back proves the claim did not run, and accepts the response sent again', async () => {
    const store = new LostReplyStore();
    const { client, asking, rpcId, host } = await pendingQuestion(store);
    store.lose = 'request';
    store.failGets = 1;
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringMatching(/send the response again/) });
    expect(host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
    expect(await client.answer(rpcId, 'agent-a', blueAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(blueAnswer);
  });

  it('puts the question back as pending when the store, read at last, shows the claim never ran', async () => {
    const store = new LostReplyStore();
    const { client, asking, rpcId, host } = await pendingQuestion(store);
    store.lose = 'request';
    store.failGets = Number.POSITIVE_INFINITY;
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, detail: unconfirmedDetail });
    expect(host.pending()).toEqual([]);
    store.heal();
    for (let tries = 0; host.pending().length === 0; tries++) {
      if (tries > 400) throw new Error('the question never came back as pending');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await client.answer(rpcId, 'agent-a', blueAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(blueAnswer);
  });

  it('answers 202 over HTTP with the unconfirmed receipt, not a 503 inviting a retry', async () => {
    const store = new LostReplyStore();
    const { host, rpcId } = await pendingQuestion(store);
    store.lose = 'reply';
    store.failGets = Number.POSITIVE_INFINITY;
    const response = await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    expect(response).toMatchObject({ status: 202, body: { accepted: false, reason: 'bad-response', detail: unconfirmedDetail } });
    store.heal();
  });
});
