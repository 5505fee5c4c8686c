import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions, hasUserQuestionErrorCode, type AgentRef } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionClient } from '@askseam/client';
import { startRecommendationBot } from './recommendation-bot.js';

const TOKEN = 'example-token-0123456789';
const agent: AgentRef = { id: 'agent-1' };

let host: WebSocketHost | undefined;
let bot: QuestionClient | undefined;
afterEach(async () => {
  bot?.close();
  await host?.close();
  bot = undefined;
  host = undefined;
});

async function start(): Promise<{ userQuestions: UserQuestions; lines: string[] }> {
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  host = await createWebSocketHost({ userQuestions, token: TOKEN });
  const lines: string[] = [];
  bot = startRecommendationBot({ url: host.url, token: TOKEN, log: (line) => lines.push(line) });
  return { userQuestions, lines };
}

describe('the recommendation bot example', () => {
  it('answers each question with its recommended option and skips one without', async () => {
    const { userQuestions, lines } = await start();
    const result = await executeAskUserQuestion(
      {
        questions: [
          { id: 'db', question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres (Recommended)' }] },
          { id: 'extras', question: 'Which extras?', options: [{ label: 'Metrics' }, { label: 'Tracing' }], multi_select: true },
        ],
      },
      { userQuestions, agent },
    );
    expect(result).toEqual({
      isError: false,
      text: '{"answers":[{"id":"db","selected":["Postgres (Recommended)"]},{"id":"extras","selected":[]}]}',
    });
    expect(lines).toContain('status: open');
  });

  it('dismisses a plan review instead of approving it', async () => {
    const { userQuestions } = await start();
    const asked = userQuestions.ask({
      agent,
      questions: [
        {
          id: 'plan-review',
          question: 'Approve this plan?',
          detail: '# Plan',
          options: [{ label: 'Approve (Recommended)' }, { label: 'Keep planning' }],
          intent: { kind: 'plan-review', approve: 'Approve (Recommended)' },
        },
      ],
    });
    expect(hasUserQuestionErrorCode(await asked.catch((error: unknown) => error), 'ASK_CANCELLED')).toBe(true);
  });
});
