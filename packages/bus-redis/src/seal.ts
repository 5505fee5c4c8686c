import { createHmac, timingSafeEqual } from 'node:crypto';
import { QuestionStoreError, type BusSealFacts, type QuestionBusMessage } from '@askseam/store';

/**
 * Sealed bus messages (docs/scaling.md, "Sealed news"). A node with the key the nodes share appends
 * `\n` and an HMAC-SHA256 (base64url) to the JSON of its `asked` and `settled`; JSON.stringify never
 * writes a raw line break, so the seal is whatever follows the last one. The MAC covers what a
 * receiver acts on: an `asked`'s whole record, a `settled`'s rpcId and settlement (outcome, time,
 * answer, who answered) and its dismissal text, each with the sender's node id and a version tag.
 * A receiver recomputes that text from the message it parsed, so a store that composes the JSON
 * itself (the claim script) seals it without the bus seeing the final text.
 */

/** Changes whenever what the MAC covers changes: a node never accepts a seal of another version. */
const sealVersion = 'askseam-bus-seal/1';

/** The shortest key accepted: 32 bytes, the size of the MAC. */
export const minSealKeyBytes = 32;

/** The text a seal covers, for this node's message of this type. */
export function sealedText(type: 'asked' | 'settled', from: string, facts: BusSealFacts, message: string | undefined): string {
  if ('record' in facts) {
    if (type !== 'asked') throw new QuestionStoreError('INVALID_INPUT', 'seal: a record is sealed only in an `asked` message.');
    // The record last and unescaped: it is the bulk of the message, and the array before it is self-delimiting.
    return `${JSON.stringify([sealVersion, type, from])}${facts.record}`;
  }
  if (type !== 'settled') throw new QuestionStoreError('INVALID_INPUT', 'seal: a settlement is sealed only in a `settled` message.');
  return JSON.stringify([sealVersion, type, from, facts.rpcId, facts.outcome, facts.settledAt, facts.answer, facts.answeredBy, message ?? null]);
}

/** What a received message's seal covers, recomputed from its parsed JSON (undefined: a type that is never sealed). */
export function sealedTextOf(raw: QuestionBusMessage): string | undefined {
  if (raw.type === 'asked') return sealedText('asked', raw.from, { record: JSON.stringify(raw.record) }, undefined);
  if (raw.type !== 'settled') return undefined;
  const { record } = raw;
  const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));
  return sealedText(
    'settled',
    raw.from,
    { rpcId: record.rpcId, outcome: record.outcome ?? '', settledAt: record.settledAt ?? '', answer: json(record.answer), answeredBy: json(record.answeredBy) },
    raw.message,
  );
}

/** A seal as `suffix` writes it: 32 bytes in base64url, 43 characters. */
const sealShape = /^[A-Za-z0-9_-]{43}$/;

/**
 * A received text split into its JSON and its seal (undefined when it has none). Only a last line
 * shaped like a seal is one: JSON written with line breaks by hand (a hint) stays whole.
 */
export function splitSeal(text: string): { json: string; seal: string | undefined } {
  const end = text.lastIndexOf('\n');
  if (end === -1) return { json: text, seal: undefined };
  const seal = text.slice(end + 1);
  return sealShape.test(seal) ? { json: text.slice(0, end), seal } : { json: text, seal: undefined };
}

/** Seals and checks with one key. */
export class BusSeal {
  readonly #key: Buffer;

  constructor(key: string | Uint8Array) {
    const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key instanceof Uint8Array ? Buffer.from(key) : undefined;
    if (bytes === undefined || bytes.length < minSealKeyBytes) {
      throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionBus: \`sealKey\` must be a string or bytes of at least ${minSealKeyBytes} bytes (for example crypto.randomBytes(32), shared by every node), not ${bytes === undefined ? typeof key : `${bytes.length} bytes`}.`);
    }
    this.#key = bytes;
  }

  /** The suffix that seals `text`: a line break, then the MAC. */
  suffix(text: string): string {
    return `\n${this.#mac(text).toString('base64url')}`;
  }

  /** Whether `seal` is this key's MAC of `text`. */
  verifies(text: string, seal: string): boolean {
    const expected = this.#mac(text);
    const given = Buffer.from(seal, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(text: string): Buffer {
    return createHmac('sha256', this.#key).update(text, 'utf8').digest();
  }
}
