import { describe, expect, it } from 'vitest';
import { clientFrameSchemas, PROTOCOL_VERSION, respondResultSchema, serverFrameSchemas } from './frames.js';

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
  it('is protocol version 1', () => {
    expect(PROTOCOL_VERSION).toBe(1);
  });

  it('lists every frame type of each direction', () => {
    expect(Object.keys(serverFrameSchemas).sort()).toEqual(['error', 'hello', 'ping', 'pong', 'question/requested', 'question/resolved', 'receipt']);
    expect(Object.keys(clientFrameSchemas).sort()).toEqual(['ping', 'pong', 'question/respond']);
  });
});
