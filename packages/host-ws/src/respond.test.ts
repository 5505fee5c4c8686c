import { existsSync, statSync } from 'node:fs';
import { hasUserQuestionErrorCode } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupDurable, openSqlite, tempDbFile } from '../test/durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import type { RawClient } from '../test/raw-client.js';

afterEach(cleanup);

/** A host, a token client, and one pending question of session agent-a. */
async function withPendingQuestion() {
  const testHost = await startHost();
  const client = await testHost.connect();
  const asking = testHost.ask('agent-a', [
    colourQuestion,
    { id: 'extras', question: 'Which extras?', multiSelect: true, options: [{ label: 'Cache' }, { label: 'Logs' }] },
  ]);
  const { rpcId } = await client.next('question/requested');
  return { ...testHost, client, asking, rpcId };
}

const fullAnswer = { answers: [{ id: 'colour', selected: ['Blue'] }, { id: 'extras', selected: ['Cache'], custom: 'and metrics' }] };

async function expectStillPending(client: RawClient, rpcId: string, pending: () => unknown[]) {
  expect(pending()).toHaveLength(1);
  expect(client.all('question/resolved').filter((frame) => frame.rpcId === rpcId)).toEqual([]);
}

describe('receipts for question/respond', () => {
  it('answers an unknown rpcId with not-pending, echoing the frame id', async () => {
    const { client } = await withPendingQuestion();
    expect(await client.answer('no-such-rpc', 'agent-a', redAnswer)).toEqual({
      type: 'receipt',
      id: expect.any(String),
      rpcId: 'no-such-rpc',
      accepted: false,
      reason: 'not-pending',
    });
  });

  it('answers a settled rpcId with not-pending', async () => {
    const { client, rpcId, asking } = await withPendingQuestion();
    expect((await client.answer(rpcId, 'agent-a', fullAnswer)).accepted).toBe(true);
    await asking;
    expect(await client.answer(rpcId, 'agent-a', fullAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
  });

  it('sends a receipt without id when the respond frame had none', async () => {
    const { client, rpcId } = await withPendingQuestion();
    client.send({ type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: fullAnswer } } });
    expect(await client.next('receipt')).toEqual({ type: 'receipt', rpcId, accepted: true });
  });

  it('rejects a result that is not { ok, value } or { ok, error } with bad-response and a detail', async () => {
    const { client, rpcId, host } = await withPendingQuestion();
    const receipt = await client.respond(rpcId, { ok: 'yes', answer: fullAnswer });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response' });
    expect(!receipt.accepted && receipt.detail).toMatch(/The result must be/);
    await expectStillPending(client, rpcId, () => host.pending());
  });

  it('rejects an error result whose code is not "cancelled" with bad-response and keeps the question pending', async () => {
    const { client, rpcId, host } = await withPendingQuestion();
    const receipt = await client.respond(rpcId, { ok: false, error: { code: 'timeout' } });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('"timeout"') });
    await expectStillPending(client, rpcId, () => host.pending());
  });

  it('rejects an answer that names another session with bad-response', async () => {
    const { client, rpcId, host } = await withPendingQuestion();
    const receipt = await client.answer(rpcId, 'agent-b', fullAnswer);
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('"agent-b"') });
    await expectStillPending(client, rpcId, () => host.pending());
  });

  it('rejects an answer of the wrong shape with bad-response naming where it is wrong', async () => {
    const { client, rpcId, host } = await withPendingQuestion();
    const receipt = await client.answer(rpcId, 'agent-a', { answers: [{ id: 'colour', selected: 'Blue' }] });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('answers.0.selected') });
    await expectStillPending(client, rpcId, () => host.pending());
  });

  it('rejects an answer with unknown keys with bad-response', async () => {
    const { client, rpcId } = await withPendingQuestion();
    const receipt = await client.answer(rpcId, 'agent-a', { ...fullAnswer, note: 'extra' });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response' });
  });

  it('keeps the question pending after an answer that does not fit, then accepts a corrected one', async () => {
    const { client, rpcId, host, asking } = await withPendingQuestion();
    const wrong = { answers: [{ id: 'colour', selected: ['Green'] }, { id: 'extras', selected: [] }] };
    const receipt = await client.answer(rpcId, 'agent-a', wrong);
    expect(receipt).toEqual({
      type: 'receipt',
      id: receipt.id,
      rpcId,
      accepted: false,
      reason: 'bad-response',
      detail: 'Question "colour" has no option labelled "Green"; send the label exactly as offered.',
    });
    await expectStillPending(client, rpcId, () => host.pending());

    expect((await client.answer(rpcId, 'agent-a', fullAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(fullAnswer);
  });

  it('names the broken rule of an answer in the wrong order', async () => {
    const { client, rpcId } = await withPendingQuestion();
    const swapped = { answers: [fullAnswer.answers[1], fullAnswer.answers[0]] };
    const receipt = await client.answer(rpcId, 'agent-a', swapped);
    expect(!receipt.accepted && receipt.detail).toMatch(/must follow the questions' order/);
  });

  it('reports each rejected response as a response-rejected event with its reason and detail', async () => {
    const { client, rpcId, event } = await withPendingQuestion();
    await client.respond(rpcId, { ok: false, error: { code: 'oops' } });
    expect(await event('response-rejected')).toMatchObject({ rpcId, reason: 'bad-response', detail: expect.stringContaining('"oops"'), principalId: 'token' });
  });

  it('gives exactly one receipt per respond frame, in order', async () => {
    const { client, rpcId } = await withPendingQuestion();
    for (const id of ['a', 'b', 'c']) client.send({ type: 'question/respond', id, rpcId, result: { ok: false, error: { code: 'nope' } } });
    client.send({ type: 'ping' });
    await client.next('pong');
    expect(client.all('receipt').map((receipt) => receipt.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('order of the respond checks', () => {
  it('says not-pending before forbidden: an unknown rpcId is unknown to everyone', async () => {
    const testHost = await startHost({ token: undefined, authenticate: () => ({ id: 'nobody', canSee: () => false }) });
    const client = await testHost.connect({ query: '' });
    expect(await client.answer('no-such-rpc', 'agent-a', redAnswer)).toMatchObject({ reason: 'not-pending' });
  });

  it('says forbidden before judging the result: an outsider learns nothing about what a good answer is', async () => {
    const testHost = await startHost({ token: undefined, authenticate: (req) => ({ id: req.url ?? '', canSee: (s) => req.url?.includes(s) === true }) });
    const insider = await testHost.connect({ query: 'agent-a' });
    const outsider = await testHost.connect({ query: 'agent-b' });
    void testHost.ask('agent-a').settled;
    const { rpcId } = await insider.next('question/requested');
    expect(await outsider.respond(rpcId, 'garbage')).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(await outsider.respond(rpcId, { ok: false, error: { code: 'cancelled' } })).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(testHost.host.pending()).toHaveLength(1);
  });

  it('judges the error code before the session: a non-cancel error is bad-response whatever else it says', async () => {
    const { client, rpcId } = await withPendingQuestion();
    const receipt = await client.respond(rpcId, { ok: false, error: { code: 'cancel' } });
    expect(receipt).toMatchObject({ reason: 'bad-response', detail: expect.stringContaining('"cancel"') });
  });

  it('reads ok and error.code before the strict shape: a dismissal with extra fields still dismisses', async () => {
    const { client, rpcId, asking, host } = await withPendingQuestion();
    const receipt = await client.respond(rpcId, { ok: false, error: { code: 'cancelled', reason: 'x', message: 'later' } });
    expect(receipt).toMatchObject({ accepted: true });
    const settled = await asking.settled;
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_CANCELLED')).toBe(true);
    expect(!settled.ok && String(settled.error)).toContain('later');
    expect(host.pending()).toEqual([]);
  });

  it('refuses a non-cancel code for its code, whatever else is wrong with the result', async () => {
    const { client, rpcId, host } = await withPendingQuestion();
    const receipt = await client.respond(rpcId, { ok: false, error: { code: 'timeout', extra: true }, also: 'this' });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('"timeout"') });
    const codeless = await client.respond(rpcId, { ok: false, error: { message: 'no code' } });
    expect(codeless).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('error.code') });
    await expectStillPending(client, rpcId, () => host.pending());
  });

  it('refuses a result that is not an object with a boolean ok before reading anything else', async () => {
    const { client, rpcId, host } = await withPendingQuestion();
    for (const result of [null, 'cancelled', [{ ok: false, error: { code: 'cancelled' } }], { ok: 'false', error: { code: 'cancelled' } }, { error: { code: 'cancelled' } }]) {
      const receipt = await client.respond(rpcId, result);
      expect(receipt, JSON.stringify(result)).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringMatching(/^The result must be/) });
    }
    await expectStillPending(client, rpcId, () => host.pending());
  });

  it('refuses a dismissal whose message is not text', async () => {
    const { client, rpcId, host } = await withPendingQuestion();
    const receipt = await client.respond(rpcId, { ok: false, error: { code: 'cancelled', message: { text: 'later' } } });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('message') });
    await expectStillPending(client, rpcId, () => host.pending());
  });

  it('checks the session before the answer: a right answer for the wrong session is refused for the session', async () => {
    const { client, rpcId } = await withPendingQuestion();
    const receipt = await client.answer(rpcId, 'agent-b', { not: 'an answer' });
    expect(receipt).toMatchObject({ reason: 'bad-response', detail: expect.stringContaining('belongs to session "agent-a"') });
  });

  it('accepts a cancel once and then says not-pending to a late answer', async () => {
    const { client, rpcId, asking } = await withPendingQuestion();
    expect(await client.respond(rpcId, { ok: false, error: { code: 'cancelled' } })).toMatchObject({ accepted: true });
    expect(await client.answer(rpcId, 'agent-a', fullAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
    expect((await asking.settled).ok).toBe(false);
  });
});

describe('rejected responses in the event log', () => {
  it('clips the values a rejection quotes, and writes at most maxLoggedRejections of one principal per window to a SQLite log', async () => {
    const file = tempDbFile();
    try {
      const store = openSqlite(file);
      const { host, connect, ask, events } = await startHost({ store, maxBadFrames: 1000, maxLoggedRejections: 5 });
      const client = await connect();
      void ask('agent-a').settled;
      const { rpcId } = await client.next('question/requested');
      const huge = 'L'.repeat(400 * 1024);
      const wrongs = [
        { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: [huge] }] } },
        { sessionId: 'agent-a', answer: { answers: [{ id: huge, selected: ['Blue'] }] } },
        { sessionId: huge, answer: redAnswer },
      ];
      for (let sent = 0; sent < 30; sent++) {
        const receipt = await client.respond(rpcId, { ok: true, value: wrongs[sent % wrongs.length] });
        if (receipt.accepted) throw new Error('a wrong answer was accepted');
        expect(receipt.detail).toContain('LLLL');
        expect(receipt.detail!.length).toBeLessThan(600);
      }
      // Every rejection is still reported to onEvent (nothing is stored by that)…
      expect(events.filter((event) => event.type === 'response-rejected')).toHaveLength(30);
      await host.close();
      // …but only five reach the log, each with its clipped detail.
      const logged = (await store.readEvents('agent-a')).filter((event) => event.type === 'response_rejected');
      expect(logged).toHaveLength(5);
      for (const event of logged) expect(event.type === 'response_rejected' && event.data.detail!.length).toBeLessThan(600);
      const bytes = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
      expect(bytes).toBeLessThan(1024 * 1024);
    } finally {
      await cleanup();
      await cleanupDurable();
    }
  });
});

