import { hasUserQuestionErrorCode } from '@askseam/user-questions';
import type { QuestionEvent } from '@askseam/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import { WebSocketHostError, type ChannelQuestion, type ChannelSettlement, type HostChannelOptions, type WebSocketHost } from './index.js';

afterEach(cleanup);

/** The session's stored log once `ready` holds (the host writes it in the background). */
async function logOf(host: WebSocketHost, sessionId: string, ready: (log: QuestionEvent[]) => boolean): Promise<QuestionEvent[]> {
  let log: QuestionEvent[] = [];
  await vi.waitFor(async () => {
    log = await host.store.readEvents(sessionId);
    if (!ready(log)) throw new Error(`the log of ${sessionId} is not there yet: ${log.map((event) => event.type).join(', ')}`);
  });
  return log;
}

/** A channel that records what the host hands it, and waits for it. */
function recordingChannel(host: WebSocketHost, options: Partial<HostChannelOptions> = {}) {
  const questions: ChannelQuestion[] = [];
  const settled: ChannelSettlement[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const channel = host.openChannel({
    via: 'slack',
    onQuestion: (question) => {
      questions.push(question);
      changed();
    },
    onSettled: (settlement) => {
      settled.push(settlement);
      changed();
    },
    ...options,
  });
  const until = (what: string, ready: () => boolean): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!ready()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`the channel was not handed ${what} within 5 s`));
      }, 5_000);
      waiters.add(check);
      check();
    });
  return {
    channel,
    questions,
    settled,
    question: async (index = 0) => {
      await until(`question ${index}`, () => questions.length > index);
      return questions[index]!;
    },
    settlement: async (rpcId: string) => {
      await until(`the end of ${rpcId}`, () => settled.some((each) => each.rpcId === rpcId));
      return settled.find((each) => each.rpcId === rpcId)!;
    },
  };
}

describe('host.openChannel: a channel is a client of the host', () => {
  it('is handed a new question with who asked, answers it through the host, and the record and log say who answered where', async () => {
    const { host, ask } = await startHost();
    const slack = recordingChannel(host);
    const asking = ask('agent-a');
    const question = await slack.question();
    expect(question).toEqual({ rpcId: expect.any(String), sessionId: 'agent-a', askedBy: 'agent-a', askedAt: expect.any(String), questions: [colourQuestion] });

    const receipt = await slack.channel.respond(question.rpcId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } }, { user: 'U0ALEX', destination: 'slack:C0123' });
    expect(receipt).toEqual({ type: 'receipt', rpcId: question.rpcId, accepted: true });
    expect(await asking).toEqual(redAnswer);

    const answeredBy = { principalId: 'channel:slack', via: 'slack', user: 'U0ALEX', destination: 'slack:C0123' };
    expect((await host.store.get(question.rpcId))?.answeredBy).toEqual(answeredBy);
    const log = await logOf(host, 'agent-a', (events) => events.some((event) => event.type === 'response_from_human'));
    expect(log.find((event) => event.type === 'delivered')?.data).toMatchObject({ channel: 'slack', replay: false });
    expect(log.find((event) => event.type === 'response_from_human')?.data).toEqual({ answer: redAnswer, principalId: 'channel:slack', channel: 'slack', user: 'U0ALEX', destination: 'slack:C0123' });
    // Its own answer ends the question for it too, with itself named as the answerer.
    expect(await slack.settlement(question.rpcId)).toEqual({ rpcId: question.rpcId, sessionId: 'agent-a', outcome: 'answered', answeredBy, answer: redAnswer });
  });

  it('is shown what was pending when it opened (in ask order), and pending() lists it', async () => {
    const { host, ask, connect } = await startHost();
    const page = await connect();
    ask('agent-a');
    ask('agent-b');
    const first = await page.next('question/requested');
    const second = await page.next('question/requested', (frame) => frame.rpcId !== first.rpcId);
    const slack = recordingChannel(host);
    expect(slack.questions.map((question) => question.rpcId)).toEqual([first.rpcId, second.rpcId]);
    expect(slack.channel.pending().map((question) => question.rpcId)).toEqual([first.rpcId, second.rpcId]);
    const log = await logOf(host, 'agent-a', (events) => events.some((event) => event.type === 'delivered' && event.data.channel === 'slack'));
    expect(log.filter((event) => event.type === 'delivered' && event.data.channel === 'slack')).toMatchObject([{ data: { replay: true } }]);
  });

  it('gets askseam\'s own problem text for an answer that does not fit, and the question stays pending', async () => {
    const { host, ask } = await startHost();
    const slack = recordingChannel(host);
    const asking = ask('agent-a');
    const { rpcId } = await slack.question();
    const receipt = await slack.channel.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Green'] }] } } }, { user: 'U0ALEX' });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('Green') });
    expect(host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
    const rejected = (await logOf(host, 'agent-a', (events) => events.some((event) => event.type === 'response_rejected'))).find((event) => event.type === 'response_rejected');
    expect(rejected?.data).toMatchObject({ reason: 'bad-response', channel: 'slack', user: 'U0ALEX' });
    expect((await slack.channel.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } })).accepted).toBe(true);
    expect(await asking).toEqual(redAnswer);
  });

  it('hears that the page answered first, with who answered, and its late click is not-pending and changes nothing', async () => {
    const { host, ask, connect } = await startHost();
    const slack = recordingChannel(host);
    const page = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await page.next('question/requested');
    await slack.question();
    expect((await page.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    expect(await slack.settlement(rpcId)).toEqual({ rpcId, sessionId: 'agent-a', outcome: 'answered', answeredBy: { principalId: 'token', via: 'websocket' }, answer: redAnswer });
    const late = await slack.channel.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Blue'] }] } } });
    expect(late).toMatchObject({ accepted: false, reason: 'not-pending' });
    expect(await asking).toEqual(redAnswer);
    expect((await host.store.get(rpcId))?.answer).toEqual(redAnswer);
  });

  it('is told how a question ended when nobody answered: timed out, withdrawn by its asker, dismissed', async () => {
    const { host, ask } = await startHost();
    const slack = recordingChannel(host);
    const timing = ask('agent-a', [colourQuestion], { timeoutMs: 50 });
    const timedOut = await slack.question(0);
    expect(hasUserQuestionErrorCode((await timing.settled).ok ? undefined : (await timing.settled as { error: unknown }).error, 'ASK_TIMEOUT')).toBe(true);
    expect(await slack.settlement(timedOut.rpcId)).toEqual({ rpcId: timedOut.rpcId, sessionId: 'agent-a', outcome: 'timed_out' });

    const controller = new AbortController();
    ask('agent-a', [colourQuestion], { signal: controller.signal });
    const withdrawn = await slack.question(1);
    controller.abort();
    expect(await slack.settlement(withdrawn.rpcId)).toEqual({ rpcId: withdrawn.rpcId, sessionId: 'agent-a', outcome: 'aborted' });

    const dismissing = ask('agent-a');
    const dismissed = await slack.question(2);
    expect((await slack.channel.respond(dismissed.rpcId, { ok: false, error: { code: 'cancelled' } }, { user: 'U0BOB' })).accepted).toBe(true);
    expect(hasUserQuestionErrorCode((await dismissing.settled as { error: unknown }).error, 'ASK_CANCELLED')).toBe(true);
    expect(await slack.settlement(dismissed.rpcId)).toEqual({ rpcId: dismissed.rpcId, sessionId: 'agent-a', outcome: 'cancelled', answeredBy: { principalId: 'channel:slack', via: 'slack', user: 'U0BOB' } });
  });

  it('sees and answers only what its principal may, and records the app principal a person was mapped to', async () => {
    const { host, ask } = await startHost();
    const slack = recordingChannel(host, { principal: { id: 'team-a-bot', canSee: (session) => session === 'agent-a' } });
    ask('agent-b');
    const asking = ask('agent-a');
    const question = await slack.question();
    expect(question.sessionId).toBe('agent-a');
    const other = host.pending().find((each) => each.sessionId === 'agent-b')!;
    expect(slack.questions.map((each) => each.rpcId)).not.toContain(other.rpcId);
    expect(await slack.channel.respond(other.rpcId, { ok: true, value: { sessionId: 'agent-b', answer: redAnswer } })).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect((await slack.channel.respond(question.rpcId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } }, { principalId: 'alice', user: 'U0ALICE' })).accepted).toBe(true);
    await asking;
    expect((await host.store.get(question.rpcId))?.answeredBy).toEqual({ principalId: 'alice', via: 'slack', user: 'U0ALICE' });
  });

  it('never hands a channel the typed text of a sensitive question, while the asker gets it', async () => {
    const { host, ask } = await startHost();
    const slack = recordingChannel(host);
    const secret = { id: 'code', question: 'The code from the letter', sensitive: true };
    const asking = ask('agent-a', [secret]);
    const { rpcId } = await slack.question();
    const answer = { answers: [{ id: 'code', selected: [], custom: '4711' }] };
    expect((await slack.channel.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer } })).accepted).toBe(true);
    expect(await asking).toEqual(answer);
    expect((await slack.settlement(rpcId)).answer).toEqual({ answers: [{ id: 'code', selected: [], custom: '[redacted]' }] });
  });

  it('refuses a bad via, a missing callback and bad person names with typed errors, and answers nothing', async () => {
    const { host, ask } = await startHost();
    const codeOf = (work: () => unknown): unknown => {
      try {
        work();
      } catch (error) {
        return WebSocketHostError.isInstance(error) ? error.code : error;
      }
      return 'no error';
    };
    const noop = () => {};
    expect(codeOf(() => host.openChannel({ via: 'Slack Bot', onQuestion: noop, onSettled: noop }))).toBe('INVALID_OPTIONS');
    expect(codeOf(() => host.openChannel({ via: 'slack', onQuestion: noop } as never))).toBe('INVALID_OPTIONS');
    const slack = recordingChannel(host);
    ask('agent-a');
    const { rpcId } = await slack.question();
    const answer = { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } };
    const refused = await slack.channel.respond(rpcId, answer, { user: 'x'.repeat(513) }).catch((error: unknown) => error);
    expect(WebSocketHostError.isInstance(refused) && refused.code).toBe('INVALID_REQUEST');
    expect(host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
  });

  it('stops on close: no more questions, respond rejects CLOSED; host.close() closes the channels it has', async () => {
    const { host, ask } = await startHost();
    const slack = recordingChannel(host);
    const other = recordingChannel(host, { via: 'email' });
    slack.channel.close();
    slack.channel.close();
    ask('agent-a');
    const { rpcId } = await other.question();
    expect(slack.questions).toEqual([]);
    const closed = await slack.channel.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } }).catch((error: unknown) => error);
    expect(WebSocketHostError.isInstance(closed) && closed.code).toBe('CLOSED');
    expect(host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
    await host.close();
    // The host's own store withdraws its questions on close: the open channel hears it, then nothing more.
    expect(other.settled).toEqual([{ rpcId, sessionId: 'agent-a', outcome: 'aborted' }]);
    const afterClose = await other.channel.respond(rpcId, {}).catch((error: unknown) => error);
    expect(WebSocketHostError.isInstance(afterClose) && afterClose.code).toBe('CLOSED');
    expect(() => host.openChannel({ via: 'slack', onQuestion: () => {}, onSettled: () => {} })).toThrow(/closed/);
  });

  it('carries on delivering to everyone else when a channel\'s callback throws', async () => {
    const { host, ask, connect } = await startHost();
    host.openChannel({ via: 'slack', onQuestion: () => { throw new Error('chat down'); }, onSettled: () => { throw new Error('chat down'); } });
    const page = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await page.next('question/requested');
    expect((await page.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    expect(await asking).toEqual(redAnswer);
  });
});
