'use client';
// Everything a user may import from @askseam/react, named one by one. The directive makes every
// export a client reference in a React Server Components app (Next.js App Router): a server
// component renders <AskseamQuestions> with plain props, and it still renders to HTML on a server.
export { useQuestions } from './use-questions.js';
export type { UseQuestionsResult } from './use-questions.js';
export { AskseamQuestions } from './askseam-questions.js';
export type { AskseamQuestionsProps } from './askseam-questions.js';
export { emptyQuestionsSnapshot, questionsStoreOf } from './questions-store.js';
export type { QuestionReceipt, QuestionsConnection, QuestionsSnapshot, QuestionsStore } from './questions-store.js';
