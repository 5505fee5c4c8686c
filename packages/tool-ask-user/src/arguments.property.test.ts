import { compiledSafeParse } from '@askseam/user-questions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { askUserQuestionArgsSchema } from './schema.js';

// The tool reads every call with the compiled parser (zod's z.compile): it must accept, refuse and
// report exactly as the schema does, or a model would be told something different about its call.
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });
const junk = fc.oneof(fc.constant(null), fc.integer(), fc.constant(''), fc.boolean(), fc.constant([]), fc.constant({}));
const text = fc.oneof({ weight: 10, arbitrary: fc.string({ maxLength: 5 }) }, { weight: 1, arbitrary: junk });
const option = fc.oneof(
  { weight: 10, arbitrary: fc.record({ label: text, description: maybe(text), recommended: maybe(fc.boolean()) }, { requiredKeys: ['label'] }) },
  { weight: 1, arbitrary: junk },
);
const question = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record(
      {
        id: text,
        question: text,
        header: maybe(text),
        options: maybe(fc.oneof({ weight: 10, arbitrary: fc.array(option, { maxLength: 3 }) }, { weight: 1, arbitrary: junk })),
        multi_select: maybe(fc.oneof({ weight: 10, arbitrary: fc.boolean() }, { weight: 1, arbitrary: junk })),
        multiSelect: maybe(fc.boolean()),
      },
      { requiredKeys: ['id', 'question'] },
    ),
  },
  { weight: 1, arbitrary: junk },
);
const args = fc.oneof(
  { weight: 10, arbitrary: fc.record({ questions: fc.oneof({ weight: 10, arbitrary: fc.array(question, { maxLength: 3 }) }, { weight: 1, arbitrary: junk }), extra: maybe(text) }, { requiredKeys: ['questions'] }) },
  { weight: 1, arbitrary: junk },
);

describe('the compiled argument parser', () => {
  it('accepts and refuses arguments exactly as the schema does, with the same data and issues', () => {
    const parse = compiledSafeParse(askUserQuestionArgsSchema);
    fc.assert(
      fc.property(args, (value) => {
        const expected = askUserQuestionArgsSchema.safeParse(value, { reportInput: true });
        const actual = parse(value, { reportInput: true });
        expect(actual.success).toBe(expected.success);
        if (expected.success) expect(actual.data).toStrictEqual(expected.data);
        else expect(actual.error?.issues).toStrictEqual(expected.error.issues);
      }),
      { numRuns: 1500 },
    );
  });
});
