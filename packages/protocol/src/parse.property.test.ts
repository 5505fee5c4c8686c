import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameErrorCodeSchema } from './frames.js';
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
