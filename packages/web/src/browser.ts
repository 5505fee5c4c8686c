// Entry of the self-contained browser bundle (dist/browser/askseam-questions.js): loading it
// registers <askseam-questions>. It also exports what a plain page needs to hand the element a
// client of its own.
import { defineAskseamQuestions } from './define.js';

defineAskseamQuestions();

export { AskseamQuestionsElement } from './element.js';
export { defineAskseamQuestions } from './define.js';
export { QuestionClientError, connectQuestions, parseRecommendedLabel, planReviewOf } from '@askseam/client';
