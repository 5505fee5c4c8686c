import { describe, expect, it } from 'vitest';
import type { ClientFrame, ServerFrame } from './frames.js';
import { PROTOCOL_VERSION } from './frames.js';
import { parseClientFrame, parseFrame, parseServerFrame, type Parsed } from './parse.js';

const questions = [
  { id: 'db', question: 'Which database?', header: 'Database', options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }] },
];

/** A valid example of every server → client frame. */
const serverFrames: { name: string; frame: ServerFrame }[] = [
  { name: 'hello', frame: { type: 'hello', protocol: PROTOCOL_VERSION } },
  { name: 'hello with sessions and pending rpcIds', frame: { type: 'hello', protocol: 1, sessions: ['main'], pending: ['rpc-1'] } },
  {
    name: 'question/requested',
    frame: { type: 'question/requested', rpcId: 'rpc-1', sessionId: 'main', questions, askedAt: '2026-01-02T03:04:05.000Z' },
  },
  {
    name: 'question/requested with typed inputs and an urgency',
    frame: {
      type: 'question/requested',
      rpcId: 'rpc-2',
      sessionId: 'main',
      questions: [{ id: 'age', question: 'How old is the account, in days?', input: { kind: 'number', min: 0, max: 365 }, required: true, placeholder: '30' }],
      askedAt: '2026-01-02T03:04:05.000Z',
      urgency: 'high',
    },
  },
  { name: 'question/resolved answered', frame: { type: 'question/resolved', rpcId: 'rpc-1', sessionId: 'main', outcome: 'answered' } },
  { name: 'question/resolved cancelled', frame: { type: 'question/resolved', rpcId: 'rpc-1', sessionId: 'main', outcome: 'cancelled' } },
  { name: 'receipt accepted', frame: { type: 'receipt', id: 'send-1', rpcId: 'rpc-1', accepted: true } },
  { name: 'receipt not-pending', frame: { type: 'receipt', rpcId: 'rpc-1', accepted: false, reason: 'not-pending' } },
  {
    name: 'receipt bad-response with detail',
    frame: { type: 'receipt', id: 'send-2', rpcId: 'rpc-1', accepted: false, reason: 'bad-response', detail: 'Question "db" has no option labelled "Postgres".' },
  },
  { name: 'receipt forbidden', frame: { type: 'receipt', rpcId: 'rpc-1', accepted: false, reason: 'forbidden' } },
  { name: 'error', frame: { type: 'error', code: 'malformed-json', message: 'The frame is not valid JSON.' } },
  { name: 'ping', frame: { type: 'ping' } },
  { name: 'pong', frame: { type: 'pong' } },
];

/** A valid example of every client → server frame. */
const clientFrames: { name: string; frame: ClientFrame }[] = [
  {
    name: 'question/respond with an answer',
    frame: {
      type: 'question/respond',
      id: 'send-1',
      rpcId: 'rpc-1',
      result: { ok: true, value: { sessionId: 'main', answer: { answers: [{ id: 'db', selected: ['SQLite'] }] } } },
    },
  },
  {
    name: 'question/respond cancelling',
    frame: { type: 'question/respond', rpcId: 'rpc-1', result: { ok: false, error: { code: 'cancelled', message: 'Dismissed' } } },
  },
  { name: 'ping', frame: { type: 'ping' } },
  { name: 'pong', frame: { type: 'pong' } },
];

function errorOf(parsed: Parsed<unknown>): { code: string; message: string } {
  if (parsed.ok) throw new Error(`expected a parse error, got ${JSON.stringify(parsed.value)}`);
  return parsed.error;
}

describe('valid frames', () => {
  it.each(serverFrames)('reads the server frame $name', ({ frame }) => {
    expect(parseServerFrame(JSON.stringify(frame))).toEqual({ ok: true, value: frame });
    expect(parseFrame(JSON.stringify(frame), 'from-server')).toEqual({ ok: true, value: frame });
  });

  it.each(clientFrames)('reads the client frame $name', ({ frame }) => {
    expect(parseClientFrame(JSON.stringify(frame))).toEqual({ ok: true, value: frame });
    expect(parseFrame(JSON.stringify(frame), 'from-client')).toEqual({ ok: true, value: frame });
  });

  it('reads UTF-8 bytes as well as text: Uint8Array, ArrayBuffer and Buffer', () => {
    const text = JSON.stringify({ type: 'question/resolved', rpcId: 'r-ü-中', sessionId: 'main', outcome: 'answered' });
    const bytes = new TextEncoder().encode(text);
    const expected = parseServerFrame(text);

    expect(expected.ok).toBe(true);
    expect(parseServerFrame(bytes)).toEqual(expected);
    expect(parseServerFrame(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).toEqual(expected);
    expect(parseServerFrame(Buffer.from(text, 'utf8'))).toEqual(expected);
  });

  it('drops unknown keys rather than refusing the frame, so a newer peer can add fields', () => {
    expect(parseClientFrame('{"type":"ping","sentAt":123}')).toEqual({ ok: true, value: { type: 'ping' } });
  });

  it('leaves the respond result for the host to check, so a wrong shape can earn a bad-response receipt', () => {
    const parsed = parseClientFrame(JSON.stringify({ type: 'question/respond', rpcId: 'rpc-1', result: 'yes please' }));
    expect(parsed).toEqual({ ok: true, value: { type: 'question/respond', rpcId: 'rpc-1', result: 'yes please' } });
  });
});

describe('frames that cannot be read (never thrown, always a typed error)', () => {
  it.each(['', '{', '{"type":"ping"', 'ping', "{'type':'ping'}", '{"type":"ping"} trailing'])('reports malformed JSON: %j', (text) => {
    expect(errorOf(parseClientFrame(text))).toEqual({ code: 'malformed-json', message: 'The frame is not valid JSON.' });
  });

  it('reports bytes that are not valid UTF-8', () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    expect(errorOf(parseServerFrame(bytes))).toEqual({ code: 'malformed-json', message: 'The frame is not valid UTF-8 text.' });
  });

  it.each(['42', '"ping"', 'null', 'true', '[]', '[{"type":"ping"}]'])('reports JSON that is not an object: %s', (text) => {
    expect(errorOf(parseClientFrame(text)).code).toBe('invalid-frame');
  });

  it.each(['{}', '{"type":1}', '{"type":null}', '{"type":{"name":"ping"}}'])('reports a frame without a string type: %s', (text) => {
    expect(errorOf(parseServerFrame(text))).toEqual({ code: 'unknown-type', message: 'The frame has no string "type".' });
  });

  it.each(['question/ask', 'PING', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'reports the unknown type %j',
    (type) => {
      const error = errorOf(parseClientFrame(JSON.stringify({ type })));
      expect(error.code).toBe('unknown-type');
      expect(error.message).toContain(JSON.stringify(type));
    },
  );

  it('refuses a frame from the other direction as an unknown type', () => {
    expect(errorOf(parseClientFrame(JSON.stringify({ type: 'hello', protocol: 1 }))).code).toBe('unknown-type');
    expect(errorOf(parseServerFrame(JSON.stringify({ type: 'question/respond', rpcId: 'r', result: {} }))).code).toBe('unknown-type');
  });

  it('keeps the message short when the unknown type is huge', () => {
    const error = errorOf(parseServerFrame(JSON.stringify({ type: 'x'.repeat(100_000) })));
    expect(error.message.length).toBeLessThan(200);
  });

  it.each([
    ['a requested frame without rpcId', { type: 'question/requested', sessionId: 'main', questions, askedAt: 'now' }, 'rpcId'],
    ['a requested frame whose question has no id', { type: 'question/requested', rpcId: 'r', sessionId: 'main', questions: [{ question: 'Q?' }], askedAt: 'now' }, 'questions.0.id'],
    ['an unknown outcome', { type: 'question/resolved', rpcId: 'r', sessionId: 'main', outcome: 'expired' }, 'outcome'],
    ['a rejected receipt without reason', { type: 'receipt', rpcId: 'r', accepted: false }, 'reason'],
    ['a receipt with an unknown reason', { type: 'receipt', rpcId: 'r', accepted: false, reason: 'busy' }, 'reason'],
    ['a hello whose protocol is a string', { type: 'hello', protocol: '1' }, 'protocol'],
    ['an error frame with an unknown code', { type: 'error', code: 'oops', message: 'x' }, 'code'],
  ])('reports a schema failure at its path: %s', (_name, frame, path) => {
    const error = errorOf(parseServerFrame(JSON.stringify(frame)));
    expect(error.code).toBe('invalid-frame');
    expect(error.message).toContain(`"${frame.type}"`);
    expect(error.message).toContain(path);
  });

  it('reports a respond frame without rpcId as a schema failure', () => {
    expect(errorOf(parseClientFrame(JSON.stringify({ type: 'question/respond', result: {} }))).code).toBe('invalid-frame');
  });

  it('does not throw on data that is neither text nor bytes', () => {
    for (const data of [undefined, null, 42, {}, [new Uint8Array([1])]]) {
      expect(errorOf(parseClientFrame(data as unknown as string)).code).toBe('malformed-json');
    }
  });
});
