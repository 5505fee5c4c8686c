// The whole path a model's question travels: tool call → seam → host → socket → answer → the
// text the model reads. Real seam, real host on 127.0.0.1:0, real socket.
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebSocketHost } from '../src/index.js';
import { RawClient } from './raw-client.js';
import { rootAgents } from './fixture.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp() {
  const agents = rootAgents('planner');
  const userQuestions = new UserQuestions({ agents: agents.registry });
  const host = await createWebSocketHost({ userQuestions, token: 'secret' });
  closers.push(() => host.close());
  const browser = await RawClient.connect(`${host.url}?token=secret`);
  closers.push(() => browser.close());
  const modelCall = {
    questions: [
      {
        id: 'db',
        question: 'Which database should the service use?',
        header: 'Database',
        options: [{ label: 'Postgres (Recommended)', description: 'Already run by ops.' }, { label: 'SQLite' }],
      },
      { id: 'extras', question: 'Anything else to set up?', options: [{ label: 'Backups' }, { label: 'Metrics' }], multi_select: true },
    ],
  };
  const toolResult = executeAskUserQuestion(modelCall, { userQuestions, agent: agents.agent('planner') });
  return { browser, toolResult };
}

describe('model tool → seam → host → socket → tool result', () => {
  it('returns the answer given on the socket to the model as compact JSON text', async () => {
    const { browser, toolResult } = await setUp();
    const requested = await browser.next('question/requested');
    expect(requested.sessionId).toBe('planner');
    expect(requested.questions.map((question) => question.multiSelect)).toEqual([undefined, true]);

    const receipt = await browser.answer(requested.rpcId, 'planner', {
      answers: [
        { id: 'db', selected: ['Postgres (Recommended)'] },
        { id: 'extras', selected: ['Backups'], custom: 'and log shipping' },
      ],
    });
    expect(receipt.accepted).toBe(true);
    expect(await toolResult).toEqual({
      isError: false,
      text: '{"answers":[{"id":"db","selected":["Postgres (Recommended)"]},{"id":"extras","selected":["Backups"],"custom":"and log shipping"}]}',
    });
  });

  it('turns a dismissal on the socket into an ASK_CANCELLED tool error the model can read', async () => {
    const { browser, toolResult } = await setUp();
    const { rpcId } = await browser.next('question/requested');
    await browser.respond(rpcId, { ok: false, error: { code: 'cancelled' } });
    const result = await toolResult;
    expect(result).toMatchObject({ isError: true, code: 'ASK_CANCELLED' });
    expect(result.text).toMatch(/^Error: The user dismissed the questions/);
  });
});
