import { describe, expect, it } from 'vitest';
import { UserQuestionError } from './errors.js';
import { checkQuestionIntents, toolApprovalInputMaxBytes, toolApprovalInputMaxDepth } from './intent.js';
import type { AskUserQuestionItem } from './schemas.js';
import { scriptedProvider } from './testing/index.js';
import { UserQuestions } from './user-questions.js';

function approval(tool: { name: string; input: unknown; description?: string }, overrides: Partial<AskUserQuestionItem> = {}): AskUserQuestionItem {
  return {
    id: 'run-it',
    question: 'Allow the agent to run it?',
    options: [{ label: 'Approve' }, { label: 'Deny' }],
    intent: { kind: 'tool-approval', approve: 'Approve', tool },
    ...overrides,
  };
}

/** The seam with a provider that skips everything, and what it was asked. */
function seam() {
  const provider = scriptedProvider(({ questions }) => ({ answers: questions.map(({ id }) => ({ id, selected: [] })) }));
  const userQuestions = new UserQuestions();
  userQuestions.registerProvider(provider);
  return { userQuestions, provider };
}

async function badIntentOf(questions: AskUserQuestionItem[]): Promise<string> {
  const { userQuestions, provider } = seam();
  const error: unknown = await userQuestions.ask({ questions }).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(UserQuestionError.isInstance(error) && error.code).toBe('BAD_INTENT');
  expect(provider.requests).toHaveLength(0);
  return (error as UserQuestionError).message;
}

describe('gate 6 for a tool-approval intent', () => {
  it('accepts a tool approval without detail, and hands the provider its own copy of the input', async () => {
    const { userQuestions, provider } = seam();
    const input = { path: '/tmp/x', flags: ['-r'], depth: 2, dry: false, note: null };
    await userQuestions.ask({ questions: [approval({ name: 'delete_files', input, description: 'Deletes files.' })] });
    const asked = provider.requests[0]!.questions[0]!;
    expect(asked.intent).toEqual({ kind: 'tool-approval', approve: 'Approve', tool: { name: 'delete_files', input, description: 'Deletes files.' } });
    const askedInput = asked.intent?.kind === 'tool-approval' ? asked.intent.tool.input : undefined;
    expect(askedInput).not.toBe(input);
    // The seam froze its copy, never the caller's object.
    expect(Object.isFrozen(askedInput)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
  });

  it('refuses an approve label that is none of the options, naming it', async () => {
    const message = await badIntentOf([approval({ name: 'x', input: {} }, { intent: { kind: 'tool-approval', approve: 'Yes', tool: { name: 'x', input: {} } } })]);
    expect(message).toBe('Question "run-it" has intent tool-approval approving "Yes", which is not one of its option labels.');
  });

  it('refuses a blank tool name', async () => {
    expect(await badIntentOf([approval({ name: '  ', input: {} })])).toBe(
      'Question "run-it" has intent tool-approval with a blank tool.name; name the tool whose call needs approval.',
    );
  });

  it.each([
    ['no input at all', undefined, 'tool.input is undefined'],
    ['a function', { run: () => 1 }, 'tool.input.run is a function'],
    ['undefined inside an object', { a: { b: undefined } }, 'tool.input.a.b is undefined'],
    ['NaN', { n: [1, Number.NaN] }, 'tool.input.n[1] is the non-finite number NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'tool.input is the non-finite number Infinity'],
    ['a bigint', { big: 10n }, 'tool.input.big is a bigint'],
    ['a symbol', [Symbol('s')], 'tool.input[0] is a symbol'],
    ['a Date', { when: new Date(0) }, 'tool.input.when is an instance of Date, not a plain object'],
    ['a Map', new Map(), 'tool.input is an instance of Map, not a plain object'],
    ['a class instance', { user: new (class Account {})() }, 'tool.input.user is an instance of Account, not a plain object'],
    ['a sparse array', { list: [1, , 3] }, 'tool.input.list[1] is a hole in a sparse array'],
    ['a key that is no identifier', { 'a b': undefined }, 'tool.input["a b"] is undefined'],
  ])('refuses an input that is not JSON: %s', async (_name, input, fault) => {
    const message = await badIntentOf([approval({ name: 'x', input })]);
    expect(message).toBe(
      `Question "run-it" has intent tool-approval whose ${fault}; tool.input must be plain JSON (objects, arrays, strings, finite numbers, true, false, null), so pass the arguments as the model sent them.`,
    );
  });

  it('refuses an input that contains itself', async () => {
    const input: Record<string, unknown> = { name: 'loop' };
    input['self'] = { again: input };
    expect(await badIntentOf([approval({ name: 'x', input })])).toContain('whose tool.input.self.again is a cycle (a value that contains itself)');
  });

  it('accepts the same object twice side by side (shared, not a cycle)', async () => {
    const shared = { id: 1 };
    const { userQuestions } = seam();
    await expect(userQuestions.ask({ questions: [approval({ name: 'x', input: { a: shared, b: shared } })] })).resolves.toBeDefined();
  });

  it(`refuses an input nested deeper than ${toolApprovalInputMaxDepth} levels`, async () => {
    let input: unknown = 'leaf';
    for (let level = 0; level <= toolApprovalInputMaxDepth; level += 1) input = [input];
    expect(await badIntentOf([approval({ name: 'x', input })])).toContain(`is nested deeper than ${toolApprovalInputMaxDepth} levels`);
  });

  it('accepts JSON of exactly 64 KiB and refuses one byte more, counting UTF-8 bytes', async () => {
    // {"s":"…"} is 8 bytes around the string; "é" is 2 bytes of UTF-8.
    const fits = { s: 'é'.repeat((toolApprovalInputMaxBytes - 8) / 2) };
    expect(new TextEncoder().encode(JSON.stringify(fits)).length).toBe(toolApprovalInputMaxBytes);
    const { userQuestions } = seam();
    await expect(userQuestions.ask({ questions: [approval({ name: 'x', input: fits })] })).resolves.toBeDefined();

    const over = { s: `${fits.s}a` };
    expect(await badIntentOf([approval({ name: 'x', input: over })])).toBe(
      'Question "run-it" has intent tool-approval whose tool.input is 65537 bytes of JSON, over the limit of 65536 bytes (64 KiB); pass a shorter input, for example with long values cut or summarised.',
    );
  });

  it('counts a character outside the BMP as 4 bytes', async () => {
    const input = { s: '😀'.repeat((toolApprovalInputMaxBytes - 8) / 4 + 1) };
    expect(await badIntentOf([approval({ name: 'x', input })])).toContain('is 65540 bytes of JSON');
  });

  it('keeps a key named __proto__ as data in the copy', async () => {
    const { userQuestions, provider } = seam();
    const input = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as unknown;
    await userQuestions.ask({ questions: [approval({ name: 'x', input })] });
    const intent = provider.requests[0]!.questions[0]!.intent;
    const copy = intent?.kind === 'tool-approval' ? (intent.tool.input as Record<string, unknown>) : {};
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'ok']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('checks the approve label first, then the name, then the input, then its size', async () => {
    const everythingWrong = approval(
      { name: '', input: { f: () => 1 } },
      { intent: { kind: 'tool-approval', approve: 'Go', tool: { name: '', input: { f: () => 1 } } } },
    );
    expect(await badIntentOf([everythingWrong])).toContain('approving "Go"');
    expect(await badIntentOf([approval({ name: '', input: { f: () => 1 } })])).toContain('blank tool.name');
    expect(await badIntentOf([approval({ name: 'x', input: { f: () => 1, big: 'x'.repeat(toolApprovalInputMaxBytes) } })])).toContain('tool.input.f is a function');
  });

  it('reports the first question with a bad intent, in batch order', async () => {
    const plain: AskUserQuestionItem = { id: 'plain', question: 'Which?', options: [{ label: 'A' }] };
    const message = await badIntentOf([plain, approval({ name: 'x', input: {} }, { id: 'second', intent: { kind: 'tool-approval', approve: 'Approve', tool: { name: '', input: {} } } }), approval({ name: 'y', input: undefined }, { id: 'third' })]);
    expect(message).toContain('Question "second"');
  });

  it('still requires detail for a plan review', async () => {
    const plan: AskUserQuestionItem = { id: 'plan', question: 'Approve?', options: [{ label: 'Approve' }], intent: { kind: 'plan-review', approve: 'Approve' } };
    expect(await badIntentOf([plan])).toBe('Question "plan" has intent plan-review but no detail to review; pass the reviewed text as detail.');
  });

  it('leaves a refused batch exactly as it came (no copies put in)', () => {
    const input = { a: 1 };
    const good = approval({ name: 'x', input });
    const bad = approval({ name: '', input: {} }, { id: 'bad' });
    const batch = [good, bad];
    expect(checkQuestionIntents(batch).ok).toBe(false);
    expect(good.intent?.kind === 'tool-approval' && good.intent.tool.input).toBe(input);
  });

  it('runs gate 3 before gate 6: a tool name that is not a string is INVALID_QUESTIONS', async () => {
    const { userQuestions } = seam();
    const error: unknown = await userQuestions.ask({ questions: [approval({ name: 42 as unknown as string, input: {} })] }).catch((rejection: unknown) => rejection);
    expect(UserQuestionError.isInstance(error) && error.code).toBe('INVALID_QUESTIONS');
    expect((error as Error).message).toContain('questions.0.intent.tool.name');
  });
});

describe('gate 6 for a quorum approval', () => {
  const quorumApproval = (quorum: unknown): AskUserQuestionItem => {
    const question = approval({ name: 'migrate', input: { db: 'prod' } });
    return { ...question, intent: { ...(question.intent as object), quorum } as AskUserQuestionItem['intent'] };
  };

  it('hands the provider the quorum with the intent', async () => {
    const { userQuestions, provider } = seam();
    const quorum = { approvals: 2, from: [{ group: 'dba' }, { principal: 'alex' }] };
    await userQuestions.ask({ questions: [quorumApproval(quorum)] });
    expect(provider.requests[0]!.questions[0]!.intent).toMatchObject({ kind: 'tool-approval', quorum });
  });

  it('refuses a quorum that names fewer principals than the approvals it needs', async () => {
    expect(await badIntentOf([quorumApproval({ approvals: 3, from: [{ principal: 'alex' }, { principal: 'sam' }, { principal: 'alex' }] })])).toBe(
      'Question "run-it" has intent tool-approval needing 3 approvals from only 2 named principals; name more principals (or a group) in quorum.from, or ask for fewer approvals.',
    );
  });

  it.each([
    ['more than 100 approvals', { approvals: 101 }, 'needing 101 approvals; a quorum needs at most 100.'],
    ['an empty from', { approvals: 1, from: [] }, 'whose quorum.from is empty'],
    ['an answerer with two keys', { approvals: 1, from: [{ principal: 'alex', group: 'dba' }] }, 'quorum.from[0] must be exactly one of'],
    ['a blank answerer', { approvals: 1, from: [{ group: 'dba' }, { group: ' ' }] }, 'quorum.from[1] must be exactly one of'],
  ])('refuses %s with BAD_INTENT', async (_name, quorum, problem) => {
    expect(await badIntentOf([quorumApproval(quorum)])).toContain(problem);
  });

  it.each([
    ['zero approvals', { approvals: 0 }],
    ['a fractional count', { approvals: 1.5 }],
    ['an answerer of no known shape', { approvals: 1, from: [{ person: 'alex' }] }],
  ])('refuses %s as INVALID_QUESTIONS (the schema, gate 3)', async (_name, quorum) => {
    const { userQuestions, provider } = seam();
    const error: unknown = await userQuestions.ask({ questions: [quorumApproval(quorum)] }).catch((rejection: unknown) => rejection);
    expect(UserQuestionError.isInstance(error) && error.code).toBe('INVALID_QUESTIONS');
    expect((error as Error).message).toContain('questions.0.intent.quorum');
    expect(provider.requests).toHaveLength(0);
  });
});
