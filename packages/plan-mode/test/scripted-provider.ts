import type { AgentRef, AgentRegistry, AskUserQuestionAnswer, AskUserQuestionRequest, UserQuestionProvider } from '@askseam/user-questions';

/** A provider whose reply is written by the test, and which records every request it receives. */
export interface ScriptedProvider extends UserQuestionProvider {
  readonly requests: AskUserQuestionRequest[];
}

export function scriptedProvider(
  reply: (request: AskUserQuestionRequest) => AskUserQuestionAnswer | Promise<AskUserQuestionAnswer>,
): ScriptedProvider {
  const requests: AskUserQuestionRequest[] = [];
  return {
    requests,
    async ask(request) {
      requests.push(request);
      return reply(request);
    },
  };
}

/** A reply that never comes on its own: it rejects with the signal's reason once the seam aborts. */
export function waitForAbort(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
  return new Promise((_resolve, reject) => {
    const signal = request.signal;
    if (signal === undefined) return reject(new Error('the scripted provider expected a signal'));
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A registry of live agents in which only `roots` own no one above them. */
export function agentRegistry(roots: AgentRef[], delegated: AgentRef[] = []): AgentRegistry {
  const live = [...roots, ...delegated];
  return { get: (id) => live.find((agent) => agent.id === id), roots: () => roots };
}
