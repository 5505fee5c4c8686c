import fc from 'fast-check';
import type { AskUserQuestionAnswerItem, AskUserQuestionItem } from '@askseam/user-questions';

// Batches and answers for the text round trip. The pools are full of what trips a reader up:
// labels that differ only in case, labels that are numbers or keywords, text that looks like a key,
// a list, a quote, "skip", or spans lines.

const labelPool = ['React', 'react', 'Vue (Recommended)', 'Vue', '2', 'a, b', '"q"', 'skip', '是', 'Svelte（推荐）', 'Washington, D.C.', 'Yes, tonight'];
const ownWords = ['Svelte', 'react', '1', '2, 3', 'skip', '跳过', '"x"', 'say "hi"', 'a\nb', '  spaced  ', 'yes', '2: y', 'x; 3: z', '“curly”', 'name: foo'];
const oneLine = ownWords.filter((text) => !text.includes('\n'));

const optionsArb = fc.uniqueArray(fc.constantFrom(...labelPool), { minLength: 1, maxLength: 4 }).map((labels) => labels.map((label) => ({ label })));

interface Shape {
  question: Omit<AskUserQuestionItem, 'id' | 'question' | 'required'>;
  /** Answers that fit this shape, skip aside. */
  answers: fc.Arbitrary<Omit<AskUserQuestionAnswerItem, 'id'>>;
}

const own = (pool: string[]) => fc.constantFrom(...pool).map((custom) => ({ selected: [] as string[], custom }));

const shapeArb: fc.Arbitrary<Shape> = fc.oneof(
  fc.constant<Shape>({ question: {}, answers: own(ownWords) }),
  fc.record({ options: optionsArb, multi: fc.boolean(), kind: fc.boolean() }).map(({ options, multi, kind }): Shape => {
    const labels = options.map((option) => option.label);
    const question: Shape['question'] = kind ? { options, input: { kind: multi ? 'multi_select' : 'select' } } : { options, multiSelect: multi };
    if (!multi) return { question, answers: fc.oneof(fc.constantFrom(...labels).map((label) => ({ selected: [label] })), own(ownWords)) };
    return {
      question,
      answers: fc.oneof(
        fc.shuffledSubarray(labels, { minLength: 1 }).map((selected) => ({ selected })),
        fc.tuple(fc.shuffledSubarray(labels), fc.constantFrom(...ownWords)).map(([selected, custom]) => ({ selected, custom })),
      ),
    };
  }),
  fc.constant<Shape>({ question: { input: { kind: 'text', maxLength: 12 } }, answers: own(oneLine) }),
  fc.constant<Shape>({ question: { input: { kind: 'textarea' } }, answers: own(ownWords) }),
  fc.constant<Shape>({ question: { input: { kind: 'checkbox' } }, answers: own(['true', 'false']) }),
  fc.constant<Shape>({ question: { input: { kind: 'date', min: '2024-01-01' } }, answers: own(['2024-01-01', '2024-02-29', '2026-08-20', '9999-12-31']) }),
  fc.record({ min: fc.integer({ min: -20, max: 20 }), steps: fc.integer({ min: 0, max: 40 }), step: fc.constantFrom(0.25, 0.5, 1, 5) }).map(
    ({ min, steps, step }): Shape => ({
      question: { input: { kind: 'number', min, max: min + 40 * step, step } },
      answers: fc.integer({ min: 0, max: steps }).map((k) => ({ selected: [], custom: String(min + k * step) })),
    }),
  ),
  fc.constant<Shape>({ question: { input: { kind: 'number' } }, answers: own(['0', '-0', '007', '-12.25', '123456789012345678901234567890.5']) }),
);

/** A well-formed batch of one to four questions, each with answers that fit it. */
export const casesArb = fc
  .array(fc.record({ shape: shapeArb, required: fc.boolean(), header: fc.constantFrom(undefined, 'Name', 'Framework', '2') }), { minLength: 1, maxLength: 4 })
  .chain((entries) => {
    const questions: AskUserQuestionItem[] = entries.map(({ shape, required, header }, i) => ({
      id: ['name', 'framework', 'git', '1'][i]!,
      question: `Question ${i + 1}?`,
      ...(header === undefined ? {} : { header }),
      ...(required ? { required } : {}),
      ...shape.question,
    }));
    const items = entries.map(({ shape, required }, i) => {
      const id = questions[i]!.id;
      const answer = shape.answers.map((item): AskUserQuestionAnswerItem => ({ id, ...item }));
      return required ? answer : fc.oneof(answer, fc.constant<AskUserQuestionAnswerItem>({ id, selected: [] }));
    });
    return fc.tuple(fc.constant(questions), fc.tuple(...items).map((answers) => ({ answers })));
  });

const fragments = ['1', '2', '3', '1, 3', '1 3', 'React', 'react', 'VUE', 'Vue (recommended)', 'Washington, D.C.', 'washington, d.c., React', 'Yes, tonight, 2', 'yes', '否', 'skip', '跳过', '2026-02-29', '2024/2/29', '2026年8月20日', '４２', '+5', '.5', '1e3', '"quoted, text"', 'a, b', 'free text', ''];
const keys = ['', '', '1: ', '2: ', '3: ', '4: ', 'name: ', 'Framework: ', 'git：', '1. ', '5: '];

/** A reply a person might send: a few keyed or bare fragments, joined by lines or semicolons. */
export const replyArb = fc
  .array(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...fragments)), { minLength: 1, maxLength: 5 })
  .chain((parts) => fc.tuple(fc.constant(parts), fc.array(fc.constantFrom('\n', '; ', '\r\n'), { minLength: parts.length, maxLength: parts.length })))
  .map(([parts, separators]) => parts.map(([key, fragment], i) => `${i === 0 ? '' : separators[i]}${key}${fragment}`).join(''));

// Labels a person can type as they are (no number, keyword or quote), several with commas inside,
// none of them a comma-joined run of others: written by label, a pick means exactly one option.
const typedLabelPool = ['Washington, D.C.', 'Yes, tonight', 'Paris, Texas, USA', 'Paris', 'Boston', 'React', 'react', 'Lint', '北京、上海', 'Vue (Recommended)', 'a, b'];
const separators = [', ', ',', '，', '、', ' , '];

/** A multi-select question, a selection in some order with perhaps words of one's own, and that answer written by label. */
export const labelReplyArb = fc
  .record({
    labels: fc.uniqueArray(fc.constantFrom(...typedLabelPool), { minLength: 1, maxLength: 6 }),
    kind: fc.boolean(),
    own: fc.option(fc.constantFrom('Denver', 'Svelte, maybe', '2', 'skip'), { nil: undefined }),
  })
  .chain(({ labels, kind, own }) =>
    fc.tuple(fc.constant(labels), fc.constant(kind), fc.constant(own), fc.shuffledSubarray(labels, { minLength: own === undefined ? 1 : 0 }), fc.array(fc.constantFrom(...separators), { minLength: 7, maxLength: 7 })),
  )
  .map(([labels, kind, own, selected, gaps]) => {
    const question: AskUserQuestionItem = { id: 'pick', question: 'Which?', options: labels.map((label) => ({ label })), ...(kind ? { input: { kind: 'multi_select' } } : { multiSelect: true }) };
    const items = [...selected, ...(own === undefined ? [] : [`"${own}"`])];
    const reply = items.map((item, i) => `${i === 0 ? '' : gaps[i]}${item}`).join('');
    const answer: AskUserQuestionAnswerItem = own === undefined ? { id: 'pick', selected } : { id: 'pick', selected, custom: own };
    return { question, reply, answer };
  });
