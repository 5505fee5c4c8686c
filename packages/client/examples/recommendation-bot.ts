// A client on Node that answers for its user: every question gets its recommended option, a
// question without one is skipped, and a plan review is dismissed (a bot must never approve a plan).
import {
  QuestionClientError,
  connectQuestions,
  parseRecommendedLabel,
  planReviewOf,
  type AskUserQuestionAnswer,
  type PendingQuestion,
  type QuestionClient,
} from '@askseam/client';
import { WebSocket } from 'ws';

export function startRecommendationBot(options: { url: string; token: string; log?: (line: string) => void }): QuestionClient {
  const log = options.log ?? console.log;
  // #region client
  const client = connectQuestions({ url: options.url, token: options.token, WebSocket });

  client.on('status', (status) => log(`status: ${status}`));
  client.on('error', (error) => log(`error (${error.code}): ${error.message}`));
  client.on('resolved', ({ rpcId, outcome }) => log(`${rpcId}: ${outcome}`));
  client.on('requested', (question) => void respond(question));
  // #endregion client

  async function respond(question: PendingQuestion): Promise<void> {
    try {
      if (planReviewOf(question.questions) !== undefined) {
        await question.cancel();
        return;
      }
      const answer = recommendedAnswer(question);
      const mismatch = question.check(answer); // the same rule the host applies, before anything is sent
      if (mismatch !== undefined) throw new Error(mismatch.message);
      await question.answer(answer);
    } catch (error) {
      // not-pending: someone else answered first; not-connected: the question is replayed on reconnect.
      const code = QuestionClientError.isInstance(error) ? error.code : 'unexpected';
      log(`${question.rpcId}: not answered (${code})`);
    }
  }

  return client;
}

/** The recommended option of each question, as its full original label; nothing when none is recommended. */
export function recommendedAnswer(question: PendingQuestion): AskUserQuestionAnswer {
  return {
    answers: question.questions.map((item) => {
      const recommended = item.options?.find((option) => parseRecommendedLabel(option.label).recommended);
      return { id: item.id, selected: recommended === undefined ? [] : [recommended.label] };
    }),
  };
}
