// @askseam/store-testing: the contract suites a QuestionStore or QuestionBus author runs in their own
// vitest suite. A package of its own so that its vitest peer never reaches an app that only uses a store.
export { describeQuestionStoreContract, sampleQuestionRecord } from './contract.js';
export type { QuestionStoreContractOptions } from './contract.js';
export { describeQuestionBusContract, type QuestionBusContractOptions } from './bus-contract.js';
export { questionStoreErrorCode } from './error-code.js';
