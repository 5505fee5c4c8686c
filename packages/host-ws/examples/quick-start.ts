// The README example: a seam with one live agent, a host serving it, and one question asked.
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef, type AskUserQuestionAnswer } from '@askseam/user-questions';

export async function quickStart(token: string, log = console.log): Promise<{ host: WebSocketHost; answer: Promise<AskUserQuestionAnswer> }> {
  // #region agent
  // The seam only lets a live root agent ask, so tell it who is running.
  const agent: AgentRef = { id: 'agent-1' };
  const userQuestions = new UserQuestions({
    agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] },
  });

  // Serve questions on ws://127.0.0.1:<free port>/askseam to clients that present the token.
  const host = await createWebSocketHost({ userQuestions, token });
  log(`Connect a UI to ${host.url} with token ${token}`);

  // Resolves with the first answer that fits the questions; a UI that is not connected yet gets it on connect.
  const answer = userQuestions.ask({
    agent,
    questions: [
      {
        id: 'db',
        question: 'Which database should the service use?',
        options: [{ label: 'Postgres (Recommended)', description: 'Already run by ops.' }, { label: 'SQLite' }],
      },
    ],
  });
  // #endregion agent
  return { host, answer };
}
