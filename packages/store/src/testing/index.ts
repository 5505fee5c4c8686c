// @askseam/store/testing: for store authors' test suites only (it imports vitest).
export { describeQuestionStoreContract, sampleQuestionRecord } from './contract.js';
export type { QuestionStoreContractOptions } from './contract.js';
export { describeQuestionBusContract, type QuestionBusContractOptions } from './bus-contract.js';
export { questionStoreErrorCode } from './error-code.js';
