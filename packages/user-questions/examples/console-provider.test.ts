import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { UserQuestionError, UserQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { createConsoleProvider } from './console-provider.js';

const database: AskUserQuestionItem = {
  id: 'db',
  header: 'Database',
  question: 'Which database should the app use?',
  options: [
    { label: 'Postgres (Recommended)', description: 'Scales with the team.' },
    { label: 'SQLite', description: 'One file, nothing to run.' },
  ],
};
const features: AskUserQuestionItem = {
  id: 'features',
  question: 'Which features ship first?',
  options: [{ label: 'Login' }, { label: 'Search' }, { label: 'Export' }],
  multiSelect: true,
};
const projectName: AskUserQuestionItem = { id: 'name', question: 'What is the project called?' };

/**
 * A terminal with a scripted human at the keyboard: each time a prompt appears, the human types
 * the next reply. When the script runs out the human stops typing (like someone who walked away).
 */
function scriptedTerminal(replies: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let transcript = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    transcript += chunk;
    const reply = chunk.endsWith('> ') ? replies.shift() : undefined;
    if (reply !== undefined) input.write(`${reply}\n`);
  });
  return { input, output, transcript: () => transcript };
}

const terminals: PassThrough[] = [];

function seamWith(replies: string[]) {
  const terminal = scriptedTerminal(replies);
  terminals.push(terminal.input, terminal.output);
  const userQuestions = new UserQuestions();
  userQuestions.registerProvider(createConsoleProvider({ input: terminal.input, output: terminal.output }));
  return { userQuestions, terminal };
}

afterEach(() => {
  for (const stream of terminals.splice(0)) stream.destroy();
});

describe('the console provider example', () => {
  it('answers a single-select question by its number', async () => {
    const { userQuestions } = seamWith(['2']);
    await expect(userQuestions.ask({ questions: [database] })).resolves.toEqual({ answers: [{ id: 'db', selected: ['SQLite'] }] });
  });

  it('picks the "(Recommended)" option on an empty reply and returns its full label', async () => {
    const { userQuestions } = seamWith(['']);
    await expect(userQuestions.ask({ questions: [database] })).resolves.toEqual({
      answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }],
    });
  });

  it('answers several questions in order: multi-select numbers, custom text, and a skip', async () => {
    const { userQuestions } = seamWith(['3, 1', 'askseam', '']);
    await expect(userQuestions.ask({ questions: [features, projectName, { ...features, id: 'later' }] })).resolves.toEqual({
      answers: [
        { id: 'features', selected: ['Export', 'Login'] },
        { id: 'name', selected: [], custom: 'askseam' },
        { id: 'later', selected: [] },
      ],
    });
  });

  it('takes text that is not an option number as a custom answer', async () => {
    const { userQuestions } = seamWith(['MySQL, please']);
    await expect(userQuestions.ask({ questions: [database] })).resolves.toEqual({
      answers: [{ id: 'db', selected: [], custom: 'MySQL, please' }],
    });
  });

  it('prints the header, the question and the numbered options with descriptions', async () => {
    const { userQuestions, terminal } = seamWith(['1']);
    await userQuestions.ask({ questions: [database] });
    expect(terminal.transcript()).toContain('[Database] Which database should the app use?');
    expect(terminal.transcript()).toContain('  2. SQLite — One file, nothing to run.');
  });

  it('asks again after a number that is out of range or too many numbers for a single-select question', async () => {
    const { userQuestions, terminal } = seamWith(['7', '1,2', '1']);
    await expect(userQuestions.ask({ questions: [database] })).resolves.toEqual({
      answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }],
    });
    expect(terminal.transcript().match(/Type one number from 1 to 2/g)).toHaveLength(2);
  });

  it('rejects with ASK_CANCELLED when the human types /cancel', async () => {
    const { userQuestions } = seamWith(['/cancel']);
    const error = await userQuestions.ask({ questions: [database] }).catch((e: unknown) => e);
    expect(UserQuestionError.isInstance(error) && error.code).toBe('ASK_CANCELLED');
  });

  it('stops waiting for input when the caller aborts, and lets go of the input stream', async () => {
    const { userQuestions, terminal } = seamWith([]);
    const controller = new AbortController();
    const pending = userQuestions.ask({ questions: [database], signal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => terminal.transcript()).toContain('> ');
    expect(terminal.input.listenerCount('data')).toBeGreaterThan(0);

    controller.abort();
    const error = await pending;
    expect(UserQuestionError.isInstance(error) && error.code).toBe('ASK_ABORTED');
    await expect.poll(() => terminal.input.listenerCount('data')).toBe(0);
  });

  it('is the only provider until its disposer runs', () => {
    // #region one-provider
    const userQuestions = new UserQuestions();
    const dispose = userQuestions.registerProvider(createConsoleProvider());
    // A second provider is refused (DUPLICATE_PROVIDER, thrown at once) while the first is registered,
    expect(() => userQuestions.registerProvider(createConsoleProvider())).toThrow(/already registered/);
    // and accepted once the first one's disposer has run. A disposer only ever removes its own provider.
    dispose();
    const disposeSecond = userQuestions.registerProvider(createConsoleProvider());
    dispose(); // a no-op now: the second provider stays
    expect(userQuestions.hasProvider).toBe(true);
    disposeSecond();
    // #endregion one-provider
  });

  it('gives up with ASK_TIMEOUT when nobody answers in time', async () => {
    const { userQuestions, terminal } = seamWith([]);
    const error = await userQuestions.ask({ questions: [database], timeoutMs: 20 }).catch((e: unknown) => e);
    expect(UserQuestionError.isInstance(error) && error.code).toBe('ASK_TIMEOUT');
    await expect.poll(() => terminal.input.listenerCount('data')).toBe(0);
  });
});
