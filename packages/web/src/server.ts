// @askseam/web/server: what a server (or any code without the `dom` lib) may import from this
// package. Nothing reachable from here refers to DOM globals, so a Node-only tsconfig
// (`lib: ["ES2023"]`, `types: ["node"]`) type-checks it with `skipLibCheck: false`.
export type {
  AskseamAnsweredDetail,
  AskseamAttentionDetail,
  AskseamCancelledDetail,
  AskseamPendingChangeDetail,
  AskseamQuestionsAttributes,
  AskseamQuestionsEventDetails,
  AskseamQuestionsTagName,
} from './element-types.js';
export type { AskseamLang } from './i18n.js';
export { browserBundleUrl, consoleBundleUrl } from './bundle-url.js';
export { askseamPageContentSecurityPolicy, type AskseamPagePolicyOptions } from './page-policy.js';
export { isFormBatch } from './form-batch.js';
