// Everything a user may import from @askseam/web, named one by one. Importing has no side
// effects: call defineAskseamQuestions() (or load the browser bundle) to register the element.
export { AskseamQuestionsElement } from './element.js';
export type { AskseamAnsweredDetail, AskseamCancelledDetail, AskseamPendingChangeDetail } from './element.js';
export { defineAskseamQuestions } from './define.js';
export type { AskseamLang } from './i18n.js';
export { browserBundleUrl } from './bundle-url.js';
export { isFormBatch } from './form-batch.js';
