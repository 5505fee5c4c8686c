// The notifier hook (tell a human elsewhere that a question waits) and the per-session event log
// (seed 002's thread events: what was asked, shown, answered, refused, withdrawn).
import { MemoryQuestionStore, type QuestionEvent, type QuestionRecord } from '@askseam/store';
import { UserQuestions, type UserQuestionProvider } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent, HostLogger } from '../src/index.js';
import { api, cleanupDurable, SwitchableStore } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost } from './fixture.js';

afterEach(async () => {
  await cleanup();
  await cleanupDurable();
});

function recordingLogger(): HostLogger & { errors: string[] } {
  const errors: string[] = [];
  const noop = () => {};
  return { errors, debug: noop, info: noop, warn: noop, error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`) };
}

describe('notify', () => {
  it('is called once per question with the saved record, state included', async () => {
    const notified: QuestionRecord[] = [];
    const { host, ask } = await startHost({ notify: (record) => void notified.push(record) });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion], state: { ticket: 42 }, urgency: 'low' });
    void ask('agent-b').settled;
    await expect.poll(() => notified.length).toBe(2);
    expect(notified[0]).toMatchObject({ rpcId, sessionId: 'agent-a', mode: 'detached', state: { ticket: 42 }, urgency: 'low' });
    expect(notified[1]).toMatchObject({ sessionId: 'agent-b', mode: 'blocking', questions: [colourQuestion] });
  });

  it('never loses a question to a notifier that throws or rejects; the failure is logged', async () => {
    const logger = recordingLogger();
    let calls = 0;
    const { connect, ask } = await startHost({
      logger,
      notify: () => {
        calls++;
        if (calls === 1) throw new Error('slack is down');
        return Promise.reject(new Error('smtp refused'));
      },
    });
    const client = await connect();
    const first = ask('agent-a');
    const second = ask('agent-b');
    const one = await client.next('question/requested');
    const two = await client.next('question/requested');
    await client.answer(one.rpcId, 'agent-a', redAnswer);
    await client.answer(two.rpcId, 'agent-b', redAnswer);
    await expect(Promise.all([first, second])).resolves.toEqual([redAnswer, redAnswer]);
    await expect.poll(() => logger.errors.length).toBe(2);
    expect(logger.errors.join('\n')).toMatch(/notify failed.*slack is down[\s\S]*notify failed.*smtp refused/);
  });

  it('does not hold up a question, or close(), while it hangs', async () => {
    const { host, connect } = await startHost({ notify: () => new Promise<void>(() => {}) });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    const client = await connect();
    expect((await client.next('question/requested')).rpcId).toBe(rpcId);
    await host.close();
  });
});

describe('the event log', () => {
  const types = (events: QuestionEvent[]) => events.map((event) => event.type);

  it('records a question asked, delivered, refused once and answered, with the validated answer', async () => {
    const { host, connect, ask } = await startHost();
    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', { answers: [{ id: 'colour', selected: ['Green'] }] });
    await client.answer(rpcId, 'agent-a', redAnswer);
    await asking;
    await expect.poll(async () => (await host.store.readEvents('agent-a')).length).toBe(4);
    const events = await host.store.readEvents('agent-a');
    expect(types(events)).toEqual(['human_input_requested', 'delivered', 'response_rejected', 'response_from_human']);
    expect(events[0]).toMatchObject({ rpcId, data: { askedBy: 'agent-a', mode: 'blocking', questions: [colourQuestion] } });
    expect(events[1]).toMatchObject({ data: { channel: 'websocket', replay: false } });
    expect(events[2]).toMatchObject({ data: { reason: 'bad-response', detail: expect.stringContaining('"Green"'), principalId: 'token' } });
    expect(events[3]).toMatchObject({ data: { answer: redAnswer, channel: 'websocket', principalId: 'token' } });
  });

  it('records a replay as a delivery with replay true', async () => {
    const { host, connect } = await startHost();
    await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    const client = await connect();
    await client.next('question/requested');
    await expect.poll(async () => types(await host.store.readEvents('agent-a'))).toEqual(['human_input_requested', 'delivered']);
    expect((await host.store.readEvents('agent-a'))[1]).toMatchObject({ data: { replay: true } });
  });

  it('records a dismissal with what the person said', async () => {
    const { host } = await startHost();
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    await api(host, 'POST', `/questions/${rpcId}/cancel`, { body: { message: 'wrong project' } });
    await expect.poll(async () => (await host.store.readEvents('agent-a')).at(-1)).toMatchObject({ type: 'cancelled', data: { message: 'wrong project', channel: 'http' } });
  });

  it('tells a timeout (timed_out) apart from the asker\'s abort (aborted by signal)', async () => {
    const { host, ask } = await startHost();
    await ask('agent-a', [colourQuestion], { timeoutMs: 20 }).settled;
    const controller = new AbortController();
    const aborting = ask('agent-b', [colourQuestion], { signal: controller.signal });
    await expect.poll(async () => (await host.store.readEvents('agent-b')).length).toBe(1);
    controller.abort();
    await aborting.settled;
    await expect.poll(async () => types(await host.store.readEvents('agent-a'))).toEqual(['human_input_requested', 'timed_out']);
    await expect.poll(async () => (await host.store.readEvents('agent-b')).at(-1)).toMatchObject({ type: 'aborted', data: { by: 'signal' } });
  });

  it('tells onEvent a timeout from an abort too: the aborted event says timedOut, as the log says timed_out', async () => {
    const { events, ask, host } = await startHost();
    await ask('agent-a', [colourQuestion], { timeoutMs: 20 }).settled;
    const controller = new AbortController();
    const aborting = ask('agent-b', [colourQuestion], { signal: controller.signal });
    await expect.poll(async () => (await host.store.readEvents('agent-b')).length).toBe(1);
    controller.abort();
    await aborting.settled;
    const asking = ask('agent-a');
    await expect.poll(async () => (await host.store.readEvents('agent-a')).length).toBe(3);
    await host.close();
    await asking.settled;
    const aborted = events.filter((event) => event.type === 'aborted');
    expect(aborted).toEqual([
      expect.objectContaining({ sessionId: 'agent-a', by: 'signal', timedOut: true }),
      expect.objectContaining({ sessionId: 'agent-b', by: 'signal', timedOut: false }),
      expect.objectContaining({ sessionId: 'agent-a', by: 'host-close', timedOut: false }),
    ]);
  });

  it('records questions withdrawn by close() of a host with its own store as aborted by host-close', async () => {
    const { host, ask } = await startHost();
    const asking = ask('agent-a');
    await expect.poll(async () => (await host.store.readEvents('agent-a')).length).toBe(1);
    await host.close();
    await asking.settled;
    expect((await host.store.readEvents('agent-a')).at(-1)).toMatchObject({ type: 'aborted', data: { by: 'host-close' } });
  });

  it('never holds up a question when the log cannot be written; the failure is logged', async () => {
    const store = new SwitchableStore();
    store.fail('appendEvent');
    const logger = recordingLogger();
    const { connect, ask } = await startHost({ store, logger });
    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
    await expect.poll(() => logger.errors.some((line) => line.includes('event log'))).toBe(true);
  });
});

describe('onEvent', () => {
  it('gets copies: a hook that redacts questions and answers in place changes nothing the asker, the clients or the log see', async () => {
    const redact = (event: HostEvent) => {
      if (event.type === 'asked') {
        const question = event.questions[0]!;
        question.question = '[redacted]';
        question.options![0]!.label = '[redacted]';
        event.questions.push({ id: 'injected', question: 'Injected?' });
      }
      if (event.type === 'answered') {
        event.answer.answers[0]!.selected = ['[redacted]'];
        event.answer.answers.push({ id: 'injected', selected: [] });
      }
    };
    const { host, connect, ask, events } = await startHost({ onEvent: redact });
    const client = await connect();
    const asking = ask('agent-a');
    const live = await client.next('question/requested');
    expect(live.questions).toEqual([colourQuestion]);
    expect(host.pending().map((entry) => entry.questions)).toEqual([[colourQuestion]]);
    const late = await connect();
    expect((await late.next('question/requested')).questions).toEqual([colourQuestion]);

    // The answer is checked against the questions as asked, not as the hook left its copy.
    expect(await client.answer(live.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
    await expect.poll(async () => (await host.store.readEvents('agent-a')).map((event) => event.type)).toContain('response_from_human');
    const logged = await host.store.readEvents('agent-a');
    expect(logged.find((event) => event.type === 'human_input_requested')).toMatchObject({ data: { questions: [colourQuestion] } });
    expect(logged.find((event) => event.type === 'response_from_human')).toMatchObject({ data: { answer: redAnswer } });
    expect(await host.store.get(live.rpcId)).toMatchObject({ questions: [colourQuestion], answer: redAnswer });
    // The hook did run, on its own copies.
    expect(events.find((event) => event.type === 'asked')).toMatchObject({ questions: [{ question: '[redacted]' }, { id: 'injected' }] });
    expect(events.find((event) => event.type === 'answered')).toMatchObject({ answer: { answers: [{ selected: ['[redacted]'] }, { id: 'injected' }] } });
  });

  it('resolves the provider\'s ask with an answer of its own: changing it changes neither the answered event, the log nor the store', async () => {
    // A store that hands out the very record it keeps, as a naive one might.
    const kept = new Map<string, QuestionRecord>();
    const store = new MemoryQuestionStore();
    const claim = store.claim.bind(store);
    store.claim = async (...args) => {
      const record = await claim(...args);
      if (record !== undefined) kept.set(record.rpcId, record);
      return record;
    };
    // The provider itself, as a caller that holds it gets it (the seam would copy the answer again).
    let provider: UserQuestionProvider | undefined;
    const userQuestions = new (class extends UserQuestions {
      override registerProvider(given: UserQuestionProvider): () => void {
        provider = given;
        return super.registerProvider(given);
      }
    })();
    const { host, connect, events } = await startHost({ store, userQuestions });
    const client = await connect();
    const asking = provider!.ask({ questions: [colourQuestion], agent: { id: 'agent-a' } });
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', redAnswer);
    const answer = await asking;
    answer.answers[0]!.selected.push('Blue');
    expect(events.find((event) => event.type === 'answered')).toMatchObject({ answer: redAnswer });
    await expect.poll(async () => (await host.store.readEvents('agent-a')).find((event) => event.type === 'response_from_human')).toMatchObject({ data: { answer: redAnswer } });
    expect(kept.get(rpcId)).toMatchObject({ answer: redAnswer });
  });
});
