import { describe, expect, it } from 'vitest';
import { clientFrameSchemas, PROTOCOL_VERSION, questionRequestedFrameSchema, respondResultSchema, serverFrameSchemas } from './frames.js';

describe('respondResultSchema', () => {
  it('accepts an answer for a session', () => {
    const result = { ok: true, value: { sessionId: 'main', answer: { answers: [{ id: 'db', selected: ['SQLite'] }] } } };
    expect(respondResultSchema.parse(result)).toEqual(result);
  });

  it('accepts a cancel, with or without a message', () => {
    expect(respondResultSchema.safeParse({ ok: false, error: { code: 'cancelled' } }).success).toBe(true);
    expect(respondResultSchema.safeParse({ ok: false, error: { code: 'cancelled', message: 'Dismissed' } }).success).toBe(true);
  });

  it('reads other error codes too, so the host can refuse them with bad-response', () => {
    expect(respondResultSchema.safeParse({ ok: false, error: { code: 'timeout' } }).success).toBe(true);
  });

  it.each([
    ['an extra key beside ok', { ok: true, value: { sessionId: 'main', answer: {} }, extra: 1 }],
    ['an extra key in value', { ok: true, value: { sessionId: 'main', answer: {}, rpcId: 'r' } }],
    ['an extra key in error', { ok: false, error: { code: 'cancelled', stack: 'x' } }],
    ['ok: true with an error', { ok: true, error: { code: 'cancelled' } }],
    ['ok: false with a value', { ok: false, value: { sessionId: 'main', answer: {} } }],
    ['a value without sessionId', { ok: true, value: { answer: {} } }],
    ['an error without code', { ok: false, error: { message: 'no' } }],
    ['ok as a string', { ok: 'true', value: { sessionId: 'main', answer: {} } }],
  ])('refuses %s', (_name, result) => {
    expect(respondResultSchema.safeParse(result).success).toBe(false);
  });
});

describe('frame tables', () => {
  it('is protocol version 2', () => {
    expect(PROTOCOL_VERSION).toBe(2);
  });

  it('lists every frame type of each direction', () => {
    expect(Object.keys(serverFrameSchemas).sort()).toEqual(['error', 'hello', 'ping', 'pong', 'question/requested', 'question/resolved', 'receipt']);
    expect(Object.keys(clientFrameSchemas).sort()).toEqual(['ping', 'pong', 'question/respond']);
  });
});

describe('questionRequestedFrameSchema urgency', () => {
  const frame = {
    type: 'question/requested',
    rpcId: 'rpc-1',
    sessionId: 'main',
    questions: [{ id: 'go', question: 'Deploy v1.2.3 to production?', input: { kind: 'checkbox' }, required: true }],
    askedAt: '2026-01-02T03:04:05.000Z',
  };

  it.each(['low', 'medium', 'high'] as const)('carries the urgency %s as sent', (urgency) => {
    expect(questionRequestedFrameSchema.parse({ ...frame, urgency }).urgency).toBe(urgency);
  });

  it('leaves urgency out when the host sent none', () => {
    expect('urgency' in questionRequestedFrameSchema.parse(frame)).toBe(false);
  });

  it.each([['a level this version does not know', 'critical'], ['a number', 3], ['null', null]])(
    'reads %s as medium rather than refusing the whole question',
    (_name, urgency) => {
      expect(questionRequestedFrameSchema.parse({ ...frame, urgency }).urgency).toBe('medium');
    },
  );

  it('keeps the typed inputs of the questions it carries', () => {
    expect(questionRequestedFrameSchema.parse(frame).questions).toEqual(frame.questions);
  });
});
