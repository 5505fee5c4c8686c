import type { AskUserQuestionAnswer } from '../schemas.js';
import type { AskUserQuestionRequest, UserQuestionProvider } from '../types.js';

/** A provider whose reply the test writes, and which records every request it receives. */
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
