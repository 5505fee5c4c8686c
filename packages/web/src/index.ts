// Everything a user may import from @askseam/web, named one by one. Importing has no side
// effects: call defineAskseamQuestions() (or load the browser bundle) to register the element.
// Its types refer to DOM globals (the element extends HTMLElement), so a tsconfig that imports
// this entry needs the `dom` lib; a server without it imports `@askseam/web/server`.
export { AskseamQuestionsElement } from './element.js';
export type { AskseamQuestionsEventMap } from './element.js';
export type {
  AskseamAnsweredDetail,
  AskseamAttentionDetail,
  AskseamCancelledDetail,
  AskseamPendingChangeDetail,
  AskseamQuestionsAttributes,
  AskseamQuestionsEventDetails,
  AskseamQuestionsTagName,
} from './element-types.js';
export { defineAskseamQuestions } from './define.js';
export type { AskseamLang } from './i18n.js';
export { browserBundleUrl, consoleBundleUrl } from './bundle-url.js';
export { AskseamConsoleElement } from './console-element.js';
export { defineAskseamConsole } from './console-define.js';
export { askseamPageContentSecurityPolicy, type AskseamPagePolicyOptions } from './page-policy.js';
export { isFormBatch } from './form-batch.js';
