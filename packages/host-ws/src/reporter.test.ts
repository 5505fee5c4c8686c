import { MemoryQuestionStore, type QuestionRecord } from '@askseam/store';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from './events.js';
import type { HostLogger } from './logger.js';
import { Reporter } from './reporter.js';

function setup() {
  const store = new MemoryQuestionStore();
  const events: HostEvent[] = [];
  const lines: string[] = [];
  const logger: HostLogger = {
    debug: (message) => lines.push(`debug ${message}`),
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
  };
  const reporter = new Reporter((event) => events.push(event), logger, store);
  return { store, events, lines, reporter };
}

const record: QuestionRecord = {
  rpcId: 'r1',
  sessionId: 's1',
  askedBy: 's1',
  askedAt: '2026-01-01T00:00:00.000Z',
  mode: 'blocking',
  questions: [{ id: 'q', question: 'Which colour?', options: [{ label: 'Red' }, { label: 'Blue' }] }],
};

describe('Reporter', () => {
  it('turns one timeout into aborted (timedOut) for onEvent and timed_out for the event log', async () => {
    const { store, events, reporter } = setup();
    const fact = { kind: 'aborted', rpcId: 'r1', sessionId: 's1', by: 'signal', timedOut: true } as const;
    reporter.report(fact, { log: true });
    await reporter.drain();
    expect(events).toEqual([{ type: 'aborted', rpcId: 'r1', sessionId: 's1', by: 'signal', timedOut: true }]);
    expect(await store.readEvents('s1')).toMatchObject([{ type: 'timed_out', rpcId: 'r1', data: {} }]);
  });

  it('names an accepted answer answered for onEvent and response_from_human in the log, with the same answer', async () => {
    const { store, events, lines, reporter } = setup();
    const answer = { answers: [{ id: 'q', selected: ['Red'] }] };
    reporter.report({ kind: 'answered', record, answer, by: { principalId: 'p', connectionId: 'c1', channel: 'websocket' } }, { log: true });
    await reporter.drain();
    expect(events).toEqual([
      { type: 'answered', rpcId: 'r1', sessionId: 's1', connectionId: 'c1', principalId: 'p', answer, channel: 'websocket', answeredBy: { principalId: 'p', via: 'websocket' } },
    ]);
    expect(lines).toEqual(['info question answered']);
    expect(await store.readEvents('s1')).toMatchObject([{ type: 'response_from_human', data: { answer, principalId: 'p', channel: 'websocket' } }]);
  });

  it('writes "[redacted]" for the typed text of a secret to onEvent and the log, and leaves the answer itself alone', async () => {
    const { store, events, reporter } = setup();
    const secretRecord: QuestionRecord = {
      ...record,
      questions: [
        { id: 'name', question: 'Your name?' },
        { id: 'key', question: 'Paste your API key', input: { kind: 'text' } },
        { id: 'code', question: 'The code from the letter', sensitive: true },
      ],
    };
    const answer = { answers: [{ id: 'name', selected: [], custom: 'Ada' }, { id: 'key', selected: [], custom: 'sk-live-abc' }, { id: 'code', selected: [], custom: '4711' }] };
    const redacted = { answers: [{ id: 'name', selected: [], custom: 'Ada' }, { id: 'key', selected: [], custom: '[redacted]' }, { id: 'code', selected: [], custom: '[redacted]' }] };
    reporter.report({ kind: 'answered', record: secretRecord, answer, by: { principalId: 'p', connectionId: 'c1', channel: 'websocket' } }, { log: true });
    await reporter.drain();
    expect(events).toMatchObject([{ type: 'answered', answer: redacted }]);
    expect(await store.readEvents('s1')).toMatchObject([{ type: 'response_from_human', data: { answer: redacted } }]);
    expect(JSON.stringify([events, await store.readEvents('s1')])).not.toMatch(/sk-live-abc|4711/);
    expect(answer.answers[1]!.custom).toBe('sk-live-abc');
  });

  it('writes a question to the log only when it is recorded (saved), not when it is reported (asked)', async () => {
    const { store, events, reporter } = setup();
    reporter.report({ kind: 'asked', record }, { log: false });
    await reporter.drain();
    expect(await store.readEvents('s1')).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(['asked']);
    reporter.record({ kind: 'saved', record });
    await reporter.drain();
    expect(await store.readEvents('s1')).toMatchObject([{ type: 'human_input_requested', data: { askedBy: 's1', mode: 'blocking' } }]);
    expect(events.map((event) => event.type)).toEqual(['asked']);
  });

  it('clips a crafted rpcId for onEvent and the logger, and writes nothing to the log for a rejection without a session', async () => {
    const { store, events, reporter } = setup();
    const rpcId = 'x'.repeat(10_000);
    reporter.report({ kind: 'rejected', rpcId, reason: 'not-pending', by: { principalId: 'p', connectionId: 'c1', channel: 'http' } }, { log: true });
    await reporter.drain();
    expect(events).toHaveLength(1);
    expect((events[0] as { rpcId: string }).rpcId).toHaveLength(201);
    expect(await store.readEvents('s1')).toEqual([]);
  });
});
