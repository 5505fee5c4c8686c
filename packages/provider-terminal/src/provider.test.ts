import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { UserQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { createTerminalProvider, type TerminalProvider } from './provider.js';

// Text mode, over real streams: what a pipe or a file gives the provider when stdin is no TTY.

const framework: AskUserQuestionItem = { id: 'framework', question: 'Which framework?', options: [{ label: 'React (Recommended)' }, { label: 'Vue' }] };
const name: AskUserQuestionItem = { id: 'name', question: 'Project name?', input: { kind: 'text' }, required: true };
const git: AskUserQuestionItem = { id: 'git', question: 'Initialise Git?', input: { kind: 'checkbox' } };

let provider: TerminalProvider | undefined;
let dispose = () => {};

afterEach(() => {
  dispose();
  provider?.close();
});

function setUp() {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  provider = createTerminalProvider({ input, output });
  const seam = new UserQuestions();
  dispose = seam.registerProvider(provider);
  return { seam, input, printed: () => printed };
}

/** Resolves once the provider has printed `text` (it prints before it reads). */
async function printedSoFar(printed: () => string, text: string): Promise<void> {
  while (!printed().includes(text)) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the terminal provider without a TTY', () => {
  it('prints the questions as numbered text and reads a reply of several lines up to an empty one', async () => {
    const { seam, input, printed } = setUp();
    input.write('name: demo\nframework: vue\ngit: yes\n\n');
    await expect(seam.ask({ questions: [name, framework, git] })).resolves.toEqual({
      answers: [
        { id: 'name', selected: [], custom: 'demo' },
        { id: 'framework', selected: ['Vue'] },
        { id: 'git', selected: [], custom: 'true' },
      ],
    });
    expect(printed()).toContain('2. Which framework?\n   1) React (Recommended)\n   2) Vue');
    expect(printed()).toContain('End your reply with an empty line.');
  });

  it('reads a piped multi-select reply naming an option whose label has a comma in it', async () => {
    const { seam, input } = setUp();
    const offices: AskUserQuestionItem = { id: 'offices', question: 'Which offices?', options: [{ label: 'Washington, D.C.' }, { label: 'Boston' }], multiSelect: true };
    input.write('Washington, D.C., Boston\n');
    await expect(seam.ask({ questions: [offices] })).resolves.toEqual({ answers: [{ id: 'offices', selected: ['Washington, D.C.', 'Boston'] }] });
  });

  it('reads one line for a single question, an empty line being a skip', async () => {
    const { seam, input } = setUp();
    input.write('\n');
    await expect(seam.ask({ questions: [framework] })).resolves.toEqual({ answers: [{ id: 'framework', selected: [] }] });
  });

  it('names what is wrong and reads the reply again', async () => {
    const { seam, input, printed } = setUp();
    const answer = seam.ask({ questions: [name, git] });
    await printedSoFar(printed, '> ');
    input.write('git: maybe\n\n');
    await printedSoFar(printed, '! Question 2 needs yes or no');
    input.write('1: demo\n2: no\n\n');
    await expect(answer).resolves.toEqual({ answers: [{ id: 'name', selected: [], custom: 'demo' }, { id: 'git', selected: [], custom: 'false' }] });
    expect(printed()).toContain('! Question 1 is required; please answer it.');
  });

  it('gives up as cancelled after three unusable replies', async () => {
    const { seam, input } = setUp();
    input.write('?\n??\n???\n');
    await expect(seam.ask({ questions: [{ id: 'count', question: 'How many?', input: { kind: 'number' } }] })).rejects.toMatchObject({ code: 'ASK_CANCELLED', message: 'No usable reply after 3 attempts.' });
  });

  it('cancels on "/cancel"', async () => {
    const { seam, input } = setUp();
    input.write('/cancel\n');
    await expect(seam.ask({ questions: [name, git] })).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
  });

  it('cancels when the input ends before a reply', async () => {
    const { seam, input } = setUp();
    input.end();
    await expect(seam.ask({ questions: [name] })).rejects.toMatchObject({ code: 'ASK_CANCELLED', message: 'The input ended before a usable reply arrived.' });
  });

  it('reads the replies to two asks from one chunk of input, losing nothing between them', async () => {
    const { seam, input } = setUp();
    input.write('Vue\ndemo\n');
    await expect(seam.ask({ questions: [framework] })).resolves.toEqual({ answers: [{ id: 'framework', selected: ['Vue'] }] });
    await expect(seam.ask({ questions: [name] })).resolves.toEqual({ answers: [{ id: 'name', selected: [], custom: 'demo' }] });
  });

  it('ends a reply of several lines at a line of invisible characters, as at an empty one', async () => {
    const { seam, input } = setUp();
    input.write('name: demo\ngit: yes\n\u200b\u2060\nname: next\ngit: no\n\n');
    input.end();
    await expect(seam.ask({ questions: [name, git] })).resolves.toEqual({ answers: [{ id: 'name', selected: [], custom: 'demo' }, { id: 'git', selected: [], custom: 'true' }] });
    await expect(seam.ask({ questions: [name, git] })).resolves.toEqual({ answers: [{ id: 'name', selected: [], custom: 'next' }, { id: 'git', selected: [], custom: 'false' }] });
  });

  it('stops waiting when the ask is aborted, and the next ask reads the next line', async () => {
    const { seam, input, printed } = setUp();
    const controller = new AbortController();
    const first = seam.ask({ questions: [name], signal: controller.signal });
    await printedSoFar(printed, '> ');
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'ASK_ABORTED' });
    input.write('demo\n');
    await expect(seam.ask({ questions: [name] })).resolves.toEqual({ answers: [{ id: 'name', selected: [], custom: 'demo' }] });
  });

  it('speaks Chinese to Chinese questions', async () => {
    const { seam, input, printed } = setUp();
    input.write('名称：demo\n\n');
    const zh: AskUserQuestionItem[] = [
      { id: 'name', header: '名称', question: '项目叫什么？', required: true },
      { id: 'git', question: '要初始化 Git 吗？', input: { kind: 'checkbox' } },
    ];
    await expect(seam.ask({ questions: zh })).resolves.toEqual({ answers: [{ id: 'name', selected: [], custom: 'demo' }, { id: 'git', selected: [] }] });
    expect(printed()).toContain('回复完毕请输入一个空行');
  });
});
