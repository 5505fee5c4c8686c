// The seal itself: which keys it takes, that only the same key over the same text verifies, and that
// the text it covers changes with every part a receiver acts on (and cannot be read two ways).
import { randomBytes } from 'node:crypto';
import { QuestionStoreError, type BusSealFacts, type QuestionBusMessage } from '@askseam/store';
import { sampleQuestionRecord } from '@askseam/store-testing';
import { describe, expect, it } from 'vitest';
import { BusSeal, minSealKeyBytes, sealedText, sealedTextOf, splitSeal } from './seal.js';

const key = randomBytes(32);

/** The error `make` throws, or a failure when it throws none. */
function thrown(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function invalidInput(error: unknown): boolean {
  return QuestionStoreError.isInstance(error) && error.code === 'INVALID_INPUT';
}

const settlement = {
  rpcId: 'rpc-1',
  outcome: 'answered',
  settledAt: '2026-01-01T00:00:00.000Z',
  answer: JSON.stringify({ answers: [{ id: 'deploy', selected: ['Yes'] }] }),
  answeredBy: JSON.stringify({ principalId: 'alex', via: 'websocket' }),
} as const;

describe('BusSeal keys', () => {
  it('refuses a key under 32 bytes as INVALID_INPUT, as text or as bytes, and a key of another type', () => {
    expect(minSealKeyBytes).toBe(32);
    for (const short of ['x'.repeat(31), new Uint8Array(31), Buffer.alloc(0), '']) {
      const error = thrown(() => new BusSeal(short));
      expect(invalidInput(error)).toBe(true);
      expect((error as Error).message).toContain('at least 32 bytes');
    }
    // A string is counted in UTF-8 bytes: 16 two-byte characters are 32 bytes.
    expect(() => new BusSeal('é'.repeat(16))).not.toThrow();
    expect(invalidInput(thrown(() => new BusSeal('é'.repeat(15))))).toBe(true);
    expect(invalidInput(thrown(() => new BusSeal(42 as unknown as string)))).toBe(true);
  });

  it('takes a key of 32 bytes or more, as bytes or as text', () => {
    expect(() => new BusSeal(randomBytes(32))).not.toThrow();
    expect(() => new BusSeal(new Uint8Array(64))).not.toThrow();
    expect(() => new BusSeal('k'.repeat(32))).not.toThrow();
  });

  it('does not change when the caller later overwrites the bytes it was given', () => {
    const bytes = randomBytes(32);
    const seal = new BusSeal(bytes);
    const suffix = seal.suffix('text');
    bytes.fill(0);
    expect(seal.suffix('text')).toBe(suffix);
    expect(seal.verifies('text', suffix.slice(1))).toBe(true);
  });
});

describe('BusSeal seals and verifies', () => {
  it('appends a line break and a base64url MAC that the same key verifies over the same text', () => {
    const seal = new BusSeal(key);
    const suffix = seal.suffix('what was said');
    expect(suffix).toMatch(/^\n[A-Za-z0-9_-]{43}$/);
    expect(seal.verifies('what was said', suffix.slice(1))).toBe(true);
    // Another instance with the same key: every node checks every other node's seals.
    expect(new BusSeal(Buffer.from(key)).verifies('what was said', suffix.slice(1))).toBe(true);
    // The same key as text and as its UTF-8 bytes is one key.
    expect(new BusSeal('k'.repeat(32)).verifies('x', new BusSeal(Buffer.from('k'.repeat(32))).suffix('x').slice(1))).toBe(true);
  });

  it('does not verify with another key, over a changed text, or a changed, cut or empty seal', () => {
    const seal = new BusSeal(key);
    const mac = seal.suffix('what was said').slice(1);
    expect(new BusSeal(randomBytes(32)).verifies('what was said', mac)).toBe(false);
    expect(seal.verifies('what was sai', mac)).toBe(false);
    expect(seal.verifies('what was said ', mac)).toBe(false);
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    expect(seal.verifies('what was said', flipped)).toBe(false);
    expect(seal.verifies('what was said', mac.slice(0, -1))).toBe(false);
    expect(seal.verifies('what was said', `${mac}AAAA`)).toBe(false);
    expect(seal.verifies('what was said', '')).toBe(false);
    expect(seal.verifies('what was said', 'not base64 at all!')).toBe(false);
  });
});

describe('splitSeal', () => {
  it('splits off a last line shaped like a seal, and leaves any other text whole', () => {
    const mac = 'A'.repeat(42) + '_';
    expect(splitSeal(`{"a":1}\n${mac}`)).toEqual({ json: '{"a":1}', seal: mac });
    expect(splitSeal(`a\nb\n${mac}`)).toEqual({ json: 'a\nb', seal: mac });
    expect(splitSeal('{"a":1}')).toEqual({ json: '{"a":1}', seal: undefined });
    // JSON written by hand with line breaks is a hint like any other, not a broken seal.
    expect(splitSeal('{\n  "a": 1\n}')).toEqual({ json: '{\n  "a": 1\n}', seal: undefined });
    expect(splitSeal('{"a":1}\n')).toEqual({ json: '{"a":1}\n', seal: undefined });
    expect(splitSeal(`{"a":1}\n${mac.slice(1)}`)).toEqual({ json: `{"a":1}\n${mac.slice(1)}`, seal: undefined });
  });

  it('gives back the JSON of a sealed message whole: JSON.stringify never writes a raw line break', () => {
    const seal = new BusSeal(key);
    const message = { type: 'settled', from: 'n1', record: { text: 'line one\nline two\r\n' }, message: 'bye\n' };
    const json = JSON.stringify(message);
    expect(json).not.toContain('\n');
    const { json: back, seal: mac } = splitSeal(json + seal.suffix('covered'));
    expect(JSON.parse(back)).toEqual(message);
    expect(seal.verifies('covered', mac!)).toBe(true);
  });
});

describe('sealedText', () => {
  const variants: [string, BusSealFacts, string | undefined, string?][] = [
    ['the rpcId', { ...settlement, rpcId: 'rpc-2' }, undefined],
    ['the outcome', { ...settlement, outcome: 'cancelled' }, undefined],
    ['the time', { ...settlement, settledAt: '2026-01-01T00:00:00.001Z' }, undefined],
    ['the answer', { ...settlement, answer: JSON.stringify({ answers: [{ id: 'deploy', selected: ['No'] }] }) }, undefined],
    ['no answer', { ...settlement, answer: '' }, undefined],
    ['who answered', { ...settlement, answeredBy: JSON.stringify({ principalId: 'sam', via: 'websocket' }) }, undefined],
    ['nobody named', { ...settlement, answeredBy: '' }, undefined],
    ['a dismissal message', settlement, 'no longer needed'],
    ['an empty dismissal message', settlement, ''],
    ['the sender', settlement, undefined, 'n2'],
  ];

  it('covers every part of a settlement: changing any one changes the text', () => {
    const base = sealedText('settled', 'n1', settlement, undefined);
    const texts = new Set([base]);
    for (const [, facts, message, from] of variants) texts.add(sealedText('settled', from ?? 'n1', facts, message));
    expect(texts.size).toBe(variants.length + 1);
  });

  it('covers the whole record of an asked, and its sender', () => {
    const record = sampleQuestionRecord({ askedOn: 'n1' });
    const base = sealedText('asked', 'n1', { record: JSON.stringify(record) }, undefined);
    expect(sealedText('asked', 'n1', { record: JSON.stringify(record) }, undefined)).toBe(base);
    expect(sealedText('asked', 'n2', { record: JSON.stringify(record) }, undefined)).not.toBe(base);
    expect(sealedText('asked', 'n1', { record: JSON.stringify({ ...record, sessionId: 'other' }) }, undefined)).not.toBe(base);
    expect(sealedText('asked', 'n1', { record: JSON.stringify({ ...record, askedOn: 'n2' }) }, undefined)).not.toBe(base);
    expect(sealedText('asked', 'n1', { record: JSON.stringify({ ...record, questions: [] }) }, undefined)).not.toBe(base);
  });

  it('cannot be read two ways: a part moved across a boundary gives another text', () => {
    // Naively joined, each pair would be the same string.
    const joined = (answer: string, answeredBy: string) => sealedText('settled', 'n1', { ...settlement, answer, answeredBy }, undefined);
    expect(joined('ab', '')).not.toBe(joined('a', 'b'));
    expect(joined('', 'ab')).not.toBe(joined('a', 'b'));
    expect(sealedText('settled', 'n1', { ...settlement, rpcId: 'r","x' }, undefined)).not.toBe(sealedText('settled', 'n1"', { ...settlement, rpcId: 'x' }, undefined));
    // No dismissal message and the word null are told apart.
    expect(sealedText('settled', 'n1', settlement, undefined)).not.toBe(sealedText('settled', 'n1', settlement, 'null'));
    // An asked's sender and record: the sender is JSON-escaped, so a record cannot start inside it.
    expect(sealedText('asked', 'n1', { record: '{"a":1}' }, undefined)).not.toBe(sealedText('asked', 'n1"]{"a":1', { record: '}' }, undefined));
    // Both start with the version tag and the type, so a seal of one version or type never fits another.
    expect(JSON.parse(sealedText('settled', 'n1', settlement, undefined)).slice(0, 3)).toEqual(['askseam-bus-seal/1', 'settled', 'n1']);
    expect(sealedText('asked', 'n1', { record: '{}' }, undefined)).toBe('["askseam-bus-seal/1","asked","n1"]{}');
  });

  it('refuses a record for a settled and a settlement for an asked, as INVALID_INPUT', () => {
    expect(invalidInput(thrown(() => sealedText('settled', 'n1', { record: '{}' }, undefined)))).toBe(true);
    expect(invalidInput(thrown(() => sealedText('asked', 'n1', settlement, undefined)))).toBe(true);
  });
});

describe('sealedTextOf', () => {
  it('recomputes from a received message exactly the text the sender sealed', () => {
    const record = sampleQuestionRecord({ askedOn: 'n1' });
    const asked = { type: 'asked', from: 'n1', record } as const;
    const received = JSON.parse(JSON.stringify(asked)) as QuestionBusMessage;
    expect(sealedTextOf(received)).toBe(sealedText('asked', 'n1', { record: JSON.stringify(record) }, undefined));
    const answer = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
    const answeredBy = { principalId: 'alex', via: 'websocket' } as const;
    const settled = { type: 'settled', from: 'n1', record: { ...record, outcome: 'answered', settledAt: settlement.settledAt, answer, answeredBy }, message: 'thanks' } as const;
    expect(sealedTextOf(JSON.parse(JSON.stringify(settled)) as QuestionBusMessage)).toBe(
      sealedText('settled', 'n1', { rpcId: record.rpcId, outcome: 'answered', settledAt: settlement.settledAt, answer: JSON.stringify(answer), answeredBy: JSON.stringify(answeredBy) }, 'thanks'),
    );
  });

  it('gives nothing for a voted message: only asked and settled are sealed', () => {
    expect(sealedTextOf({ type: 'voted', from: 'n1', record: sampleQuestionRecord() })).toBeUndefined();
  });
});
