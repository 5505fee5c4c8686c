// Everything a user may import from @askseam/react, named one by one. Safe to import on a server.
export { useQuestions } from './use-questions.js';
export type { UseQuestionsResult } from './use-questions.js';
export { AskseamQuestions } from './askseam-questions.js';
export type { AskseamQuestionsProps } from './askseam-questions.js';
export { emptyQuestionsSnapshot, questionsStoreOf } from './questions-store.js';
export type { QuestionReceipt, QuestionsConnection, QuestionsSnapshot, QuestionsStore } from './questions-store.js';
