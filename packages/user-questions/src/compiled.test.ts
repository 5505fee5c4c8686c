import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { compiledSafeParse } from './compiled.js';
import { askUserQuestionAnswerSchema, askUserQuestionsSchema } from './schemas.js';

// The compiled parser must be indistinguishable from the schema: same success, same data (down to
// keys present with undefined), same issues. These values are mostly near-valid, so that both
// sides of every rule are hit, with some arbitrary junk mixed in.
// `broken` is how often a field is given something the schema refuses; 0 builds valid values only.
function arbitraries(broken: number) {
  const or = <T>(arbitrary: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) =>
    broken === 0 ? arbitrary : fc.oneof({ weight: 20, arbitrary }, { weight: broken, arbitrary: bad });
  const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: fc.constant(undefined) });
  const junk = fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant([]), fc.constant({}));
  const text = or(fc.string({ maxLength: 6 }), junk);
  const flag = or(fc.boolean(), junk);
  const bound = or(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -10, max: 10 }), fc.constant(-0)), fc.oneof(fc.double(), junk));
  // Absent, or present with an unknown key (refused by strict objects, dropped by the others).
  const extra = or(fc.constant(undefined), text);

  const input = or(
    fc.oneof(
      fc.record({ kind: fc.constantFrom('text', 'textarea'), maxLength: maybe(bound), extra }, { requiredKeys: ['kind'] }),
      fc.record({ kind: fc.constant('number'), min: maybe(bound), max: maybe(bound), step: maybe(bound), extra }, { requiredKeys: ['kind'] }),
      fc.record({ kind: fc.constant('date'), min: maybe(text), max: maybe(text), extra }, { requiredKeys: ['kind'] }),
      fc.record({ kind: or(fc.constantFrom('select', 'multi_select', 'checkbox'), fc.constant('slider')), extra }, { requiredKeys: ['kind'] }),
    ),
    junk,
  );
  const option = or(fc.record({ label: text, description: maybe(text), value: maybe(text) }, { requiredKeys: ['label'] }), junk);
  const question = or(
    fc.record(
      {
        id: text,
        question: text,
        header: maybe(text),
        detail: maybe(text),
        options: maybe(or(fc.array(option, { maxLength: 3 }), junk)),
        multiSelect: maybe(flag),
        intent: maybe(or(fc.record({ kind: or(fc.constant('plan-review'), fc.constant('other')), approve: text }), junk)),
        input: maybe(input),
        required: maybe(flag),
        placeholder: maybe(text),
        unknownKey: maybe(text),
      },
      { requiredKeys: ['id', 'question'] },
    ),
    junk,
  );
  const batch = or(fc.array(question, { maxLength: 3 }), junk);
  const answer = or(
    fc.record(
      {
        answers: or(fc.array(or(fc.record({ id: text, selected: or(fc.array(text, { maxLength: 3 }), junk), custom: maybe(text), extra }, { requiredKeys: ['id', 'selected'] }), junk), { maxLength: 3 }), junk),
        extra,
      },
      { requiredKeys: ['answers'] },
    ),
    junk,
  );
  return { batch, answer };
}

const valid = arbitraries(0);
const broken = arbitraries(1);
const batchArb = fc.oneof(valid.batch, broken.batch);
const answerArb = fc.oneof(valid.answer, broken.answer);

function expectSameAnswer(schema: z.ZodType, value: unknown): void {
  const expected = schema.safeParse(value);
  const actual = compiledSafeParse(schema)(value);
  expect(actual.success).toBe(expected.success);
  if (expected.success) expect(actual.data).toStrictEqual(expected.data);
  else expect(actual.error?.issues).toStrictEqual(expected.error.issues);
}

/** Every object and array reachable from `value`. */
function containers(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !found.has(value)) {
    found.add(value);
    for (const item of Object.values(value)) containers(item, found);
  }
  return found;
}

describe('compiledSafeParse', () => {
  it('accepts and refuses question batches exactly as the schema does, with the same data and issues', () => {
    fc.assert(fc.property(batchArb, (batch) => expectSameAnswer(askUserQuestionsSchema, batch)), { numRuns: 2000 });
  });

  it('accepts and refuses answers exactly as the strict answer schema does', () => {
    fc.assert(fc.property(answerArb, (answer) => expectSameAnswer(askUserQuestionAnswerSchema, answer)), { numRuns: 2000 });
  });

  it('returns a copy that shares no object or array with the input', () => {
    const batch = [
      { id: 'db', question: 'Which database?', options: [{ label: 'Postgres', description: 'Relational.' }], input: { kind: 'select' }, intent: { kind: 'plan-review', approve: 'Postgres' } },
    ];
    const parsed = compiledSafeParse(askUserQuestionsSchema)(batch);
    expect(parsed.success).toBe(true);
    const shared = [...containers(parsed.data)].filter((object) => containers(batch).has(object));
    expect(shared).toEqual([]);
  });

  it('parses with the schema itself where zod cannot compile it (a recursive schema)', () => {
    const parse = compiledSafeParse(z.json());
    expect(parse({ list: [1, 'two', null, { deep: true }] })).toStrictEqual({ success: true, data: { list: [1, 'two', null, { deep: true }] } });
    expect(parse({ when: new Date(0) }).success).toBe(false);
  });

  it('does not compile when zod is told to run without eval (jitless), and still answers as the schema', () => {
    const before = z.config().jitless;
    z.config({ jitless: true });
    try {
      // Made after the switch: zod reads it when a schema is built.
      const parse = compiledSafeParse(z.strictObject({ a: z.string() }));
      const evals: string[] = [];
      const original = globalThis.Function;
      globalThis.Function = new Proxy(original, {
        construct(target, args: string[]) {
          evals.push(args.join());
          return Reflect.construct(target, args);
        },
      });
      try {
        expect(parse({ a: 'x' })).toStrictEqual({ success: true, data: { a: 'x' } });
        expect(parse({ a: 1 }).success).toBe(false);
      } finally {
        globalThis.Function = original;
      }
      expect(evals).toEqual([]);
    } finally {
      z.config({ jitless: before });
    }
  });

  it('passes parse parameters on to the schema', () => {
    const parsed = compiledSafeParse(z.strictObject({ a: z.string() }))({ a: 1 }, { reportInput: true });
    expect(parsed.error?.issues[0]).toMatchObject({ input: 1 });
  });
});
