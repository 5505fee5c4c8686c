// Compiled by tsconfig.dom-free.json (no `dom` lib, `skipLibCheck: false`, the package's built
// declarations as a user gets them; run by src/server.test.ts): everything @askseam/web/server
// offers type-checks on a Node-only server.
import {
  browserBundleUrl,
  isFormBatch,
  type AskseamAnsweredDetail,
  type AskseamLang,
  type AskseamPendingChangeDetail,
  type AskseamQuestionsAttributes,
  type AskseamQuestionsEventDetails,
} from '@askseam/web/server';

export function describeAnswer(detail: AskseamAnsweredDetail, lang: AskseamLang): string {
  return `${lang}: ${detail.rpcId} ${detail.answer.answers.length}`;
}

export const served: URL = browserBundleUrl();
export const attributes: AskseamQuestionsAttributes = { url: '/askseam', token: 't', lang: 'zh-CN' };
export const count = (detail: AskseamPendingChangeDetail | AskseamQuestionsEventDetails['askseam-pendingchange']): number => detail.count;
export const oneQuestionIsNoForm: boolean = isFormBatch([{ id: 'a', question: 'Which?', options: [] }]);
