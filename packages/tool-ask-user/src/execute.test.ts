import { UserQuestionError, UserQuestions, type AskUserQuestionAnswer } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { agentRegistry, scriptedProvider, waitForAbort } from '@askseam/user-questions/testing';
import { executeAskUserQuestion } from './execute.js';
import { askToolErrorHints } from './hints.js';

const databaseQuestion = {
  id: 'database',
  question: 'Which database should the service use?',
  header: 'Database',
  options: [
    { label: 'Postgres (Recommended)', description: 'Mature and already used by the team.' },
    { label: 'SQLite', description: 'No server to run, but one writer at a time.' },
  ],
};

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

function seamAnswering(reply: Parameters<typeof scriptedProvider>[0], agents?: ReturnType<typeof agentRegistry>) {
  const userQuestions = new UserQuestions(agents ? { agents } : {});
  const provider = scriptedProvider(reply);
  disposers.push(userQuestions.registerProvider(provider));
  return { userQuestions, provider };
}

describe('executeAskUserQuestion answers', () => {
  it('returns the answer as compact JSON text without custom when the user picked an option', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [{ id: 'database', selected: ['SQLite'] }] }));
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(result).toEqual({ isError: false, text: '{"answers":[{"id":"database","selected":["SQLite"]}]}' });
  });

  it('passes a "(Recommended)" label through unchanged, to the provider and back to the model', async () => {
    const { userQuestions, provider } = seamAnswering(() => ({ answers: [{ id: 'database', selected: ['Postgres (Recommended)'] }] }));
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(provider.requests[0]?.questions[0]?.options?.[0]?.label).toBe('Postgres (Recommended)');
    expect(result.text).toBe('{"answers":[{"id":"database","selected":["Postgres (Recommended)"]}]}');
  });

  it('returns a typed answer as custom with an empty selection', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [{ id: 'database', selected: [], custom: 'MySQL, we have a licence' }] }));
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(result.text).toBe('{"answers":[{"id":"database","selected":[],"custom":"MySQL, we have a licence"}]}');
  });

  it('returns several selected labels and custom text side by side for a multi-select question', async () => {
    const { userQuestions } = seamAnswering(() => ({
      answers: [{ id: 'targets', selected: ['Linux', 'macOS'], custom: 'FreeBSD too' }],
    }));
    const args = {
      questions: [{ id: 'targets', question: 'Which platforms must the build support?', options: [{ label: 'Linux' }, { label: 'macOS' }, { label: 'Windows' }], multi_select: true }],
    };
    const result = await executeAskUserQuestion(args, { userQuestions });
    expect(result.text).toBe('{"answers":[{"id":"targets","selected":["Linux","macOS"],"custom":"FreeBSD too"}]}');
  });

  it('returns a skipped question as an empty selection', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [{ id: 'database', selected: [] }] }));
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(result.text).toBe('{"answers":[{"id":"database","selected":[]}]}');
  });

  it('maps multi_select to multiSelect and hands the provider only seam fields', async () => {
    const { userQuestions, provider } = seamAnswering(() => ({ answers: [{ id: 'targets', selected: [] }] }));
    await executeAskUserQuestion(
      { questions: [{ id: 'targets', question: 'Which platforms?', header: 'Platforms', options: [{ label: 'Linux' }], multi_select: true }] },
      { userQuestions },
    );
    expect(provider.requests[0]?.questions).toEqual([
      { id: 'targets', question: 'Which platforms?', header: 'Platforms', options: [{ label: 'Linux' }], multiSelect: true },
    ]);
  });

  it('reads null optional fields (OpenAI strict mode) as left out', async () => {
    const { userQuestions, provider } = seamAnswering(() => ({ answers: [{ id: 'name', selected: [], custom: 'askseam' }] }));
    const result = await executeAskUserQuestion(
      { questions: [{ id: 'name', question: 'What should the package be called?', header: null, options: null, multi_select: null }] },
      { userQuestions },
    );
    expect(result.isError).toBe(false);
    expect(provider.requests[0]?.questions).toEqual([{ id: 'name', question: 'What should the package be called?' }]);
  });

  it('reads a null option description as left out', async () => {
    const { userQuestions, provider } = seamAnswering(() => ({ answers: [{ id: 'go', selected: ['Yes'] }] }));
    await executeAskUserQuestion(
      { questions: [{ id: 'go', question: 'Deploy now?', header: null, options: [{ label: 'Yes', description: null }], multi_select: null }] },
      { userQuestions },
    );
    expect(provider.requests[0]?.questions[0]?.options).toEqual([{ label: 'Yes' }]);
  });

  it('accepts the arguments as JSON text, as OpenAI-style APIs deliver them', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [{ id: 'database', selected: ['SQLite'] }] }));
    const result = await executeAskUserQuestion(JSON.stringify({ questions: [databaseQuestion] }), { userQuestions });
    expect(result.text).toBe('{"answers":[{"id":"database","selected":["SQLite"]}]}');
  });

  it('keeps answers in question order for a batch', async () => {
    const { userQuestions } = seamAnswering(() => ({
      answers: [
        { id: 'database', selected: ['SQLite'] },
        { id: 'name', selected: [], custom: 'orders' },
      ],
    }));
    const result = await executeAskUserQuestion(
      { questions: [databaseQuestion, { id: 'name', question: 'What is the service called?' }] },
      { userQuestions },
    );
    expect(result.text).toBe('{"answers":[{"id":"database","selected":["SQLite"]},{"id":"name","selected":[],"custom":"orders"}]}');
  });
});

describe('executeAskUserQuestion context', () => {
  it('passes the calling agent through to the provider', async () => {
    const root = { id: 'root-agent' };
    const { userQuestions, provider } = seamAnswering(() => ({ answers: [{ id: 'database', selected: [] }] }), agentRegistry([root]));
    await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions, agent: root });
    expect(provider.requests[0]?.agent).toBe(root);
  });

  it('passes the signal through, so aborting it reaches the waiting provider', async () => {
    const controller = new AbortController();
    let providerSawAbort = false;
    const { userQuestions } = seamAnswering((request) => {
      request.signal?.addEventListener('abort', () => (providerSawAbort = true));
      queueMicrotask(() => controller.abort(new Error('user closed the session')));
      return waitForAbort(request);
    });
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions, signal: controller.signal });
    expect(providerSawAbort).toBe(true);
    expect(result).toMatchObject({ isError: true, code: 'ASK_ABORTED' });
  });

  it('passes timeoutMs through, so a question nobody answers ends with ASK_TIMEOUT', async () => {
    const { userQuestions, provider } = seamAnswering(waitForAbort);
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions, timeoutMs: 5 });
    expect(provider.requests[0]?.timeoutMs).toBe(5);
    expect(result).toMatchObject({ isError: true, code: 'ASK_TIMEOUT' });
    expect(result.text).toContain(askToolErrorHints.ASK_TIMEOUT);
  });
});

describe('executeAskUserQuestion invalid arguments', () => {
  const invalidCalls: Array<[string, unknown, string]> = [
    ['a missing id', { questions: [{ question: 'Which database?' }] }, 'questions[0].id is missing'],
    ['a blank id', { questions: [{ id: '  ', question: 'Which database?' }] }, 'questions[0].id is blank'],
    [
      'duplicate ids',
      { questions: [{ id: 'db', question: 'Which database?' }, { id: 'db', question: 'Which version?' }] },
      'questions[1].id "db" is already used by questions[0]',
    ],
    ['an empty batch', { questions: [] }, 'questions is empty'],
    ['no arguments object', undefined, 'the arguments must be an object'],
    ['a wrong type', { questions: [{ id: 'db', question: 'Which database?', multi_select: 'yes' }] }, 'questions[0].multi_select (question "db") must be a boolean, not a string'],
    ['an unknown key', { questions: [{ id: 'db', question: 'Which database?', detail: '# Plan' }] }, 'questions[0] (question "db") has unknown field "detail"'],
    ['an intent', { questions: [{ id: 'db', question: 'Approve?', intent: { kind: 'plan-review', approve: 'Yes' } }] }, 'unknown field "intent"'],
    ['a camelCase multiSelect', { questions: [{ id: 'db', question: 'Which?', multiSelect: true }] }, '"multiSelect" (use "multi_select")'],
    ['an option value', { questions: [{ id: 'db', question: 'Which?', options: [{ label: 'A', value: 'a' }] }] }, 'questions[0].options[0] (question "db") has unknown field "value"'],
    ['a recommended flag', { questions: [{ id: 'db', question: 'Which?', options: [{ label: 'A', recommended: true }] }] }, '"recommended" (append " (Recommended)" to the label instead)'],
    ['a blank question', { questions: [{ id: 'db', question: '' }] }, 'questions[0].question (question "db") is blank'],
    ['a duplicate option label', { questions: [{ id: 'db', question: 'Which?', options: [{ label: 'A' }, { label: 'A' }] }] }, 'questions[0].options[1].label (question "db") "A" is offered twice'],
    [
      'duplicate ids in a batch of more than 16',
      { questions: [...Array.from({ length: 20 }, (_, index) => ({ id: `q${index}`, question: `Question ${index}?` })), { id: 'q3', question: 'Again?' }] },
      'questions[20].id "q3" is already used by questions[3]',
    ],
    [
      'a duplicate label among more than 16 options',
      { questions: [{ id: 'db', question: 'Which?', options: [...Array.from({ length: 20 }, (_, index) => ({ label: `L${index}` })), { label: 'L7' }] }] },
      'questions[0].options[20].label (question "db") "L7" is offered twice',
    ],
    ['JSON text that does not parse', '{"questions": [', 'not valid JSON'],
  ];

  it.each(invalidCalls)('refuses %s with INVALID_ARGUMENTS that says how to fix it, without reaching the provider', async (_case, args, fix) => {
    const { userQuestions, provider } = seamAnswering(() => ({ answers: [] }));
    const result = await executeAskUserQuestion(args, { userQuestions });
    expect(result).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' });
    expect(result.text).toContain(fix);
    expect(result.text.startsWith('Error: Invalid arguments for ask_user_question: ')).toBe(true);
    expect(result.text.endsWith(`\n${askToolErrorHints.INVALID_ARGUMENTS}`)).toBe(true);
    expect(provider.requests).toHaveLength(0);
  });

  it('refuses bad arguments before the seam, even when the signal is already aborted', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [] }));
    const result = await executeAskUserQuestion({ questions: [] }, { userQuestions, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });

  it('lists at most three problems and counts the rest', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [] }));
    const result = await executeAskUserQuestion({ questions: [{}, {}, {}] }, { userQuestions });
    expect(result.text).toContain('questions[0].id is missing');
    expect(result.text).toContain('(and 3 more problems)');
  });
});

describe('executeAskUserQuestion seam errors', () => {
  it('returns DELEGATED_CALLER with a hint to put the question into the final result', async () => {
    const root = { id: 'root' };
    const worker = { id: 'worker' };
    const { userQuestions, provider } = seamAnswering(() => ({ answers: [] }), agentRegistry([root], [worker]));
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions, agent: worker });
    expect(result).toMatchObject({ isError: true, code: 'DELEGATED_CALLER' });
    expect(result.text).toMatch(/^Error: Agent "worker" is a delegated agent/);
    expect(result.text).toContain('put the open question or decision into your final result');
    expect(provider.requests).toHaveLength(0);
  });

  it('returns CALLER_NOT_LIVE for an agent the registry does not know', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [] }), agentRegistry([{ id: 'root' }]));
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions, agent: { id: 'ghost' } });
    expect(result).toMatchObject({ isError: true, code: 'CALLER_NOT_LIVE' });
  });

  it('returns NO_PROVIDER saying that no human is reachable', async () => {
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions: new UserQuestions() });
    expect(result).toMatchObject({ isError: true, code: 'NO_PROVIDER' });
    expect(result.text).toContain('No human is reachable right now');
  });

  it('returns ASK_ABORTED for a signal aborted before the call', async () => {
    const { userQuestions } = seamAnswering(() => ({ answers: [] }));
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ isError: true, code: 'ASK_ABORTED' });
  });

  it('returns ASK_CANCELLED telling the model to stop and wait for the user', async () => {
    const { userQuestions } = seamAnswering(() => {
      throw new UserQuestionError('ASK_CANCELLED', 'The user dismissed the questions.');
    });
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(result).toEqual({
      isError: true,
      code: 'ASK_CANCELLED',
      text: 'Error: The user dismissed the questions.\nThe user dismissed the questions. Do not ask again; stop and wait for their next message.',
    });
  });

  it('returns ASK_MISSING_AGENT raised by a host', async () => {
    const { userQuestions } = seamAnswering(() => {
      throw new UserQuestionError('ASK_MISSING_AGENT', 'This host needs the asking agent.');
    });
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(result).toMatchObject({ isError: true, code: 'ASK_MISSING_AGENT' });
  });

  it('returns BAD_ANSWER when the provider answers something that does not fit', async () => {
    const lie: AskUserQuestionAnswer = { answers: [{ id: 'database', selected: ['MongoDB'] }] };
    const { userQuestions } = seamAnswering(() => lie);
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(result).toMatchObject({ isError: true, code: 'BAD_ANSWER' });
    expect(result.text).toContain('no option labelled "MongoDB"');
  });

  it('returns PROVIDER_FAILED, keeping the message, when a provider throws a plain error', async () => {
    const { userQuestions } = seamAnswering(() => {
      throw new Error('socket hang up');
    });
    const result = await executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions });
    expect(result).toEqual({
      isError: true,
      code: 'PROVIDER_FAILED',
      text: `Error: Asking the user failed: socket hang up\n${askToolErrorHints.PROVIDER_FAILED}`,
    });
  });

  it('never rejects, even when the provider rejects with a non-error value', async () => {
    const { userQuestions } = seamAnswering(() => Promise.reject('connection lost'));
    await expect(executeAskUserQuestion({ questions: [databaseQuestion] }, { userQuestions })).resolves.toMatchObject({
      isError: true,
      code: 'PROVIDER_FAILED',
      text: expect.stringContaining('Asking the user failed: connection lost'),
    });
  });
});
