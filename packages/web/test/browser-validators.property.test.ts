// The browser bundle checks frames and answers without zod (scripts/browser-validators.mjs). This
// proves it accepts and refuses exactly what the host does: the same generated input goes to the
// host's functions (zod schemas, compiled) and to the same functions bundled for the browser, and
// the whole results must be equal — the parsed frame, or the error code and message (which names
// the path and zod's words), and for answers the mismatch rule, question and message.
import { parseClientFrame, parseServerFrame } from '@askseam/protocol';
import { checkReceivedAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import fc from 'fast-check';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBrowserBundle } from '../scripts/bundle.mjs';

interface BrowserValidators {
  parseClientFrame: typeof parseClientFrame;
  parseServerFrame: typeof parseServerFrame;
  checkReceivedAnswer: typeof checkReceivedAnswer;
}

let browser: BrowserValidators;
let bundledCode: string;
const bundleFile = join(tmpdir(), `askseam-browser-validators-${process.pid}.mjs`);

beforeAll(async () => {
  bundledCode = await buildBrowserBundle({ write: false, minify: false, entryPoint: fileURLToPath(new URL('./browser-validators-entry.ts', import.meta.url)) });
  await writeFile(bundleFile, bundledCode);
  browser = (await import(/* @vite-ignore */ pathToFileURL(bundleFile).href)) as BrowserValidators;
});

afterAll(() => rm(bundleFile, { force: true }));

// ── generators ─────────────────────────────────────────────────────────────────

// Text that sits on the rules' edges: blank and invisible, line breaks, numbers written oddly,
// option labels, dates, and text far over any bound.
const edgeText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', '\t', '\u00a0', '\u200b', '\u2060\u00a0', '\ufeff', '\u0085', '\u202e', 'a\u200b', '  padded  '),
  fc.constantFrom('x\ny', 'line\r', 'a\u2028b', 'tab\tok'),
  fc.constantFrom('42', '-3.5', '0', '-0', '1e3', '0x10', ' 1', '+1', '007', '1.', '.5', 'NaN', 'Infinity', '10.00', '9007199254740993'),
  fc.constantFrom('Yes', 'No', 'yes', 'Postgres (Recommended)', 'Postgres', 'true', 'false'),
  fc.constantFrom('2024-02-29', '2023-02-29', '2024-1-01', '2024-12-31', '1999-00-10'),
  fc.nat({ max: 3000 }).map((length) => 'x'.repeat(length)),
);
const labelPool = ['Yes', 'No', 'Later', 'Postgres (Recommended)', 'Postgres', 'yes', ''];
const idPool = ['a', 'b', 'c', 'q1', ''];
// Numbers around every bound zod and the input rules look at.
const edgeNumber = fc.oneof(
  fc.integer({ min: -5, max: 50 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -100, max: 100 }),
  fc.constantFrom(0, -0, 0.1, 1.5, 2 ** 53 - 1, 2 ** 53, 2 ** 60, -(2 ** 60), 1e300, -1e-9),
);
// What a mutation puts in place of a value.
const oddValue = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 2 ** 60, '', 'x', [], {}, ['x'], { id: 'a' }, 'low', 'medium', 'urgent', 'plan-review', 'text', 'number'),
  edgeText,
  fc.jsonValue({ maxDepth: 2 }),
);

const optionArb = fc.record({ label: fc.constantFrom(...labelPool), description: edgeText }, { requiredKeys: ['label'] });
const inputArb = fc.oneof(
  fc.record({ kind: fc.constantFrom('text', 'textarea'), maxLength: edgeNumber }, { requiredKeys: ['kind'] }),
  fc.record({ kind: fc.constant('number'), min: edgeNumber, max: edgeNumber, step: edgeNumber }, { requiredKeys: ['kind'] }),
  fc.record({ kind: fc.constant('date'), min: edgeText, max: edgeText }, { requiredKeys: ['kind'] }),
  fc.record({ kind: fc.constantFrom('select', 'multi_select', 'checkbox') }),
);
const intentArb = fc.oneof(
  fc.record({ kind: fc.constant('plan-review'), approve: fc.constantFrom(...labelPool) }),
  fc.record({
    kind: fc.constant('tool-approval'),
    approve: fc.constantFrom(...labelPool),
    tool: fc.record({ name: edgeText, input: fc.jsonValue({ maxDepth: 2 }), description: edgeText }, { requiredKeys: ['name', 'input'] }),
  }),
);
const questionArb = fc.record(
  {
    id: fc.constantFrom(...idPool),
    question: edgeText,
    header: edgeText,
    detail: edgeText,
    options: fc.array(optionArb, { maxLength: 4 }),
    multiSelect: fc.boolean(),
    intent: intentArb,
    input: inputArb,
    required: fc.boolean(),
    placeholder: edgeText,
  },
  { requiredKeys: ['id', 'question'] },
);
const questionsArb = fc.array(questionArb, { minLength: 1, maxLength: 3 });

const serverFrameArb = fc.oneof(
  fc.record(
    {
      type: fc.constant('hello'),
      protocol: fc.oneof(fc.constant(1), edgeNumber),
      sessions: fc.array(fc.constantFrom(...idPool)),
      pending: fc.array(fc.uuid()),
      link: fc.record({ rpcId: fc.uuid(), settled: fc.boolean() }),
    },
    { requiredKeys: ['type', 'protocol'] },
  ),
  fc.record(
    {
      type: fc.constant('question/requested'),
      rpcId: fc.uuid(),
      sessionId: fc.constantFrom(...idPool),
      questions: questionsArb,
      askedAt: fc.constant('2026-01-01T00:00:00.000Z'),
      urgency: fc.constantFrom('low', 'medium', 'high', 'urgent', 'HIGH', ''),
    },
    { requiredKeys: ['type', 'rpcId', 'sessionId', 'questions', 'askedAt'] },
  ),
  fc.record({ type: fc.constant('question/resolved'), rpcId: fc.uuid(), sessionId: fc.constantFrom(...idPool), outcome: fc.constantFrom('answered', 'cancelled') }),
  fc.record(
    {
      type: fc.constant('receipt'),
      id: fc.string({ maxLength: 4 }),
      rpcId: fc.uuid(),
      accepted: fc.boolean(),
      reason: fc.constantFrom('not-pending', 'bad-response', 'forbidden'),
      detail: edgeText,
    },
    { requiredKeys: ['type', 'rpcId', 'accepted'] },
  ),
  fc.record({ type: fc.constant('error'), code: fc.constantFrom('malformed-json', 'unknown-type', 'invalid-frame', 'binary-frame'), message: edgeText }),
  fc.record({ type: fc.constantFrom('ping', 'pong') }),
);

const clientFrameArb = fc.oneof(
  fc.record(
    {
      type: fc.constant('question/respond'),
      id: fc.string({ maxLength: 4 }),
      rpcId: fc.uuid(),
      result: fc.oneof(
        fc.record({ ok: fc.constant(true), value: fc.record({ sessionId: fc.constantFrom(...idPool), answer: fc.jsonValue({ maxDepth: 2 }) }) }),
        fc.record({ ok: fc.constant(false), error: fc.record({ code: fc.string({ maxLength: 6 }), message: edgeText }, { requiredKeys: ['code'] }) }),
        oddValue,
      ),
    },
    { requiredKeys: ['type', 'rpcId'] },
  ),
  fc.record({ type: fc.constantFrom('ping', 'pong') }),
);

// An answer built from the questions, mostly close to right so the deeper rules are reached.
const answerArb = (questions: readonly AskUserQuestionItem[]) =>
  fc
    .tuple(
      ...questions.map((question) =>
        fc.record(
          {
            id: fc.oneof({ weight: 5, arbitrary: fc.constant(question.id) }, { weight: 1, arbitrary: fc.constantFrom(...idPool) }),
            selected: fc.array(fc.constantFrom(...(question.options ?? []).map((option) => option.label), ...labelPool), { maxLength: 3 }),
            custom: edgeText,
          },
          { requiredKeys: ['id', 'selected'] },
        ),
      ),
    )
    .map((items) => ({ answers: items }));

// ── mutation: break a valid value somewhere, the way a buggy or hostile peer would ──────────

type Mutation = { at: number; op: 'replace' | 'delete' | 'add'; value: unknown; key: string };
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('replace', 'delete', 'add'),
  value: oddValue,
  key: fc.oneof(fc.constantFrom('extra', 'type', 'kind', 'id', 'custom', '__proto__', 'constructor', 'toString', '0'), fc.string({ maxLength: 5 })),
});

/** Every container in `value` with the key of each child (the root has none). */
function places(value: unknown, into: { parent: Record<string, unknown> | unknown[] | undefined; key: string | number | undefined; node: unknown }[] = [], parent?: Record<string, unknown> | unknown[], key?: string | number) {
  into.push({ parent, key, node: value });
  if (Array.isArray(value)) value.forEach((child, index) => places(child, into, value, index));
  else if (typeof value === 'object' && value !== null) for (const [childKey, child] of Object.entries(value)) places(child, into, value as Record<string, unknown>, childKey);
  return into;
}

function mutate(value: unknown, mutations: readonly Mutation[]): unknown {
  const root = { value: structuredClone(value) };
  for (const original of mutations) {
    // A copy: constants from the generators are shared between runs and must never be changed.
    const mutation = { ...original, value: structuredClone(original.value) };
    const all = places(root.value, [], undefined, undefined);
    const place = all[mutation.at % all.length]!;
    if (mutation.op === 'add' && typeof place.node === 'object' && place.node !== null && !Array.isArray(place.node)) {
      Object.defineProperty(place.node, mutation.key, { value: mutation.value, enumerable: true, configurable: true, writable: true });
    } else if (place.parent === undefined) {
      if (mutation.op === 'replace') root.value = mutation.value;
    } else if (mutation.op === 'delete' && !Array.isArray(place.parent)) {
      delete (place.parent as Record<string, unknown>)[place.key as string];
    } else {
      (place.parent as Record<string, unknown>)[place.key as string] = mutation.value;
    }
  }
  return root.value;
}

/** `valid` as it is once in `1 + mutatedWeight` draws, otherwise with one to three mutations. */
const mutatedArb = <T>(valid: fc.Arbitrary<T>, mutatedWeight = 3) =>
  fc.oneof({ weight: 1, arbitrary: valid }, { weight: mutatedWeight, arbitrary: fc.tuple(valid, fc.array(mutationArb, { minLength: 1, maxLength: 3 })).map(([value, mutations]) => mutate(value, mutations)) });

/**
 * A value written out so that `toEqual` sees every difference that matters: key order, an absent key
 * against one holding undefined, -0 against 0, an array against an object. (toStrictEqual alone
 * is fooled by a frame that has its own key named "constructor".)
 */
function exactly(value: unknown): unknown {
  if (Array.isArray(value)) return { array: value.map(exactly) };
  if (typeof value === 'object' && value !== null) {
    return { object: Object.keys(value).map((key) => [key, exactly((value as Record<string, unknown>)[key])]), prototype: Object.getPrototypeOf(value) === Object.prototype ? 'Object' : String(Object.getPrototypeOf(value)) };
  }
  if (value === undefined) return { undefined: true };
  return { primitive: value, negativeZero: Object.is(value, -0) };
}

// ── properties ─────────────────────────────────────────────────────────────────

describe('the browser bundle validates exactly as the host', () => {
  it('is really the zod-free validator (the test would prove nothing against zod itself)', () => {
    expect(bundledCode).not.toMatch(/_zod|zod\/v4/);
    expect(bundledCode).toContain('Invalid discriminator value');
  });

  it('reads every server frame the same: the same frame out, or the same error code and message', () => {
    const frameText = fc.oneof(
      { weight: 8, arbitrary: mutatedArb(serverFrameArb).map((frame) => JSON.stringify(frame) ?? 'null') },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('{', '{"type":"hello"', '[]', 'null', '{"type":"__proto__"}', '{"type":"constructor"}')) },
    );
    fc.assert(
      fc.property(frameText, (text) => {
        expect(exactly(browser.parseServerFrame(text))).toEqual(exactly(parseServerFrame(text)));
      }),
      { numRuns: 4000 },
    );
  });

  it('reads every client frame the same', () => {
    fc.assert(
      fc.property(mutatedArb(clientFrameArb), (frame) => {
        const text = JSON.stringify(frame) ?? 'null';
        expect(exactly(browser.parseClientFrame(text))).toEqual(exactly(parseClientFrame(text)));
      }),
      { numRuns: 1500 },
    );
  });

  it('judges every answer the same: accepted with the same answer, or refused with the same rule, question and message', () => {
    // Half unmutated: the answer rules after the shape (shared code) must see accepted shapes often.
    const questionsAndAnswer = questionsArb.chain((questions) => fc.tuple(fc.constant(questions), mutatedArb(answerArb(questions), 1)));
    fc.assert(
      fc.property(questionsAndAnswer, ([questions, answer]) => {
        // The questions reach the browser through its own frame parser, as on a page.
        const frame = JSON.stringify({ type: 'question/requested', rpcId: 'r', sessionId: 's', questions, askedAt: 't' });
        const parsed = parseServerFrame(frame);
        const asked = parsed.ok && parsed.value.type === 'question/requested' ? parsed.value.questions : questions;
        expect(exactly(browser.checkReceivedAnswer(asked, answer))).toEqual(exactly(checkReceivedAnswer(asked, answer)));
      }),
      { numRuns: 4000 },
    );
  });

  it('agrees on the hand-picked edges', () => {
    const frames = [
      { type: 'hello', protocol: 1.5 },
      { type: 'hello', protocol: 2 ** 60 },
      { type: 'hello', protocol: -(2 ** 60) },
      { type: 'hello', protocol: '1' },
      { type: 'question/requested', rpcId: 'r', sessionId: 's', questions: [{ id: 'a', question: 'q' }], askedAt: 't', urgency: 'urgent' },
      { type: 'question/requested', rpcId: 'r', sessionId: 's', questions: [{ id: 'a', question: 'q', input: { kind: 'number', step: 0 } }], askedAt: 't' },
      { type: 'question/requested', rpcId: 'r', sessionId: 's', questions: [{ id: 'a', question: 'q', input: { kind: 'text', maxLength: 3, min: 1 } }], askedAt: 't' },
      { type: 'question/requested', rpcId: 'r', sessionId: 's', questions: [{ id: 'a', question: 'q', intent: { kind: 'other' } }], askedAt: 't' },
      { type: 'question/requested', rpcId: 'r', sessionId: 's', questions: [{ id: 'a', question: 'q', extra: 1, options: [{ label: 'x', more: true }] }], askedAt: 't' },
      { type: 'receipt', rpcId: 'r', accepted: 'true' },
      { type: 'receipt', rpcId: 'r', accepted: false },
      { type: 'receipt', rpcId: 'r', accepted: true, reason: 'forbidden' },
    ];
    for (const frame of frames) {
      const text = JSON.stringify(frame);
      expect(exactly(browser.parseServerFrame(text))).toEqual(exactly(parseServerFrame(text)));
    }
    for (const text of ['{"type":"question/respond","rpcId":"r"}', '{"type":"question/respond","rpcId":"r","result":null,"x":1}']) {
      expect(exactly(browser.parseClientFrame(text))).toEqual(exactly(parseClientFrame(text)));
    }
    const questions: AskUserQuestionItem[] = [{ id: 'a', question: 'q', options: [{ label: 'Yes' }] }];
    for (const answer of [{ answers: [{ id: 'a', selected: ['Yes'], extra: 1 }] }, { answers: [{ id: 'a', selected: 'Yes' }] }, { answers: [], more: 1 }, null, { answers: [{ id: 'a', selected: [], custom: '\u200b' }] }]) {
      expect(exactly(browser.checkReceivedAnswer(questions, answer))).toEqual(exactly(checkReceivedAnswer(questions, answer)));
    }
  });
});
