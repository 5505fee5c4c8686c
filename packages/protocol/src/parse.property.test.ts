import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { clientFrameSchemas, frameErrorCodeSchema, serverFrameSchemas } from './frames.js';
import { parseClientFrame, parseFrame, parseServerFrame, type Parsed } from './parse.js';

const errorCodes: readonly string[] = frameErrorCodeSchema.options;

/** Every parse either succeeds with a frame of a known type or fails with a known error code. */
function expectWellFormed(parsed: Parsed<{ type: string }>, types: readonly string[]): void {
  if (parsed.ok) expect(types).toContain(parsed.value.type);
  else {
    expect(errorCodes).toContain(parsed.error.code);
    expect(typeof parsed.error.message).toBe('string');
  }
}

const serverTypes = ['hello', 'question/requested', 'question/resolved', 'receipt', 'error', 'ping', 'pong'];
const clientTypes = ['question/respond', 'ping', 'pong'];

// Objects that look like frames: a real or near-real type plus random fields.
const frameLikeText = fc
  .record({
    type: fc.oneof(fc.constantFrom(...serverTypes, ...clientTypes, '__proto__', 'constructor'), fc.string()),
    rest: fc.dictionary(fc.constantFrom('rpcId', 'sessionId', 'result', 'questions', 'accepted', 'reason', 'protocol', 'outcome'), fc.jsonValue()),
  })
  .map(({ type, rest }) => JSON.stringify({ ...rest, type }));

describe('parseFrame never throws', () => {
  it('on arbitrary strings, in both directions', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json(), frameLikeText), (text) => {
        expectWellFormed(parseFrame(text, 'from-client'), clientTypes);
        expectWellFormed(parseFrame(text, 'from-server'), serverTypes);
      }),
      { numRuns: 250 },
    );
  });

  it('on arbitrary bytes, in both directions', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 256 }),
      frameLikeText.map((text) => new TextEncoder().encode(text)),
    );
    fc.assert(
      fc.property(bytes, (data) => {
        expectWellFormed(parseClientFrame(data), clientTypes);
        expectWellFormed(parseServerFrame(data), serverTypes);
      }),
      { numRuns: 250 },
    );
  });

  it('reads the same frame from text and from its UTF-8 bytes', () => {
    fc.assert(
      fc.property(frameLikeText, (text) => {
        expect(parseServerFrame(new TextEncoder().encode(text))).toEqual(parseServerFrame(text));
      }),
      { numRuns: 200 },
    );
  });
});

// The parsers are compiled (zod's z.compile): they must read every frame exactly as its schema
// does, with the same value (keys present with undefined included) and the same message.
describe('parseFrame reads every frame as its schema does', () => {
  function viaSchema(schemas: Readonly<Record<string, z.ZodType>>, text: string): Parsed<unknown> {
    const json = JSON.parse(text) as { type: string };
    const parsed = schemas[json.type]!.safeParse(json);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, error: { code: 'invalid-frame', message: `Invalid "${json.type}" frame${where}: ${issue?.message ?? 'does not match its schema'}.` } };
  }

  const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });
  const text = fc.oneof({ weight: 8, arbitrary: fc.string({ maxLength: 5 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) });
  const questions = fc.oneof(
    fc.constant([{ id: 'db', question: 'Which?', options: [{ label: 'A', description: 'a' }, { label: 'B' }], multiSelect: true, dropped: 1 }]),
    fc.constant([{ id: 'n', question: 'How many?', input: { kind: 'number', min: 0, max: 9, step: 1 }, required: true }]),
    fc.constant([{ id: 'x', question: 'Bad?', input: { kind: 'text', min: 1 } }]),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const serverFrame = fc.oneof(
    fc.record({ type: fc.constant('question/requested'), rpcId: text, sessionId: text, questions, askedAt: text, urgency: maybe(fc.constantFrom('low', 'high', 'urgent', 3)), extra: maybe(text) }, { requiredKeys: ['type', 'rpcId', 'sessionId', 'questions', 'askedAt'] }),
    fc.record({ type: fc.constant('hello'), protocol: fc.oneof(fc.integer(), fc.double(), text), sessions: maybe(fc.array(text, { maxLength: 2 })), pending: maybe(fc.array(text, { maxLength: 2 })) }, { requiredKeys: ['type', 'protocol'] }),
    fc.record({ type: fc.constant('question/resolved'), rpcId: text, sessionId: text, outcome: fc.constantFrom('answered', 'cancelled', 'gone') }),
    fc.record({ type: fc.constant('receipt'), id: maybe(text), rpcId: text, accepted: fc.oneof(fc.boolean(), text), reason: maybe(fc.constantFrom('not-pending', 'forbidden', 'late')), detail: maybe(text) }, { requiredKeys: ['type', 'rpcId', 'accepted'] }),
    fc.record({ type: fc.constant('error'), code: fc.constantFrom('malformed-json', 'unknown-type', 'other'), message: text }),
    fc.record({ type: fc.constantFrom('ping', 'pong'), extra: maybe(text) }, { requiredKeys: ['type'] }),
  );
  const clientFrame = fc.oneof(
    fc.record({ type: fc.constant('question/respond'), id: maybe(text), rpcId: text, result: fc.jsonValue({ maxDepth: 3 }), extra: maybe(text) }, { requiredKeys: ['type', 'rpcId'] }),
    fc.record({ type: fc.constantFrom('ping', 'pong'), extra: maybe(text) }, { requiredKeys: ['type'] }),
  );

  it('from the server', () => {
    fc.assert(
      fc.property(serverFrame, (frame) => {
        const text = JSON.stringify(frame);
        expect(parseServerFrame(text)).toStrictEqual(viaSchema(serverFrameSchemas, text));
      }),
      { numRuns: 1500 },
    );
  });

  it('from a client', () => {
    fc.assert(
      fc.property(clientFrame, (frame) => {
        const text = JSON.stringify(frame);
        expect(parseClientFrame(text)).toStrictEqual(viaSchema(clientFrameSchemas, text));
      }),
      { numRuns: 500 },
    );
  });
});
