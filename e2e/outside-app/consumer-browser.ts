// What a page's code writes against the published browser-side packages, type-checked in the outside
// app with skipLibCheck: false and the DOM lib, under moduleResolution node16 and bundler.
import { connectQuestions, QuestionClientError } from '@askseam/client';
import * as web from '@askseam/web';
import '@askseam/web/browser';

web.defineAskseamQuestions();
// The HTMLElementTagNameMap entry types the element without a cast, and its events carry typed details.
const questions: web.AskseamQuestionsElement = document.createElement('askseam-questions');
questions.addEventListener('askseam-answered', (event) => {
  const rpcId: string = event.detail.rpcId;
  return rpcId;
});
const connection = connectQuestions({ url: 'wss://example.test/askseam', token: 't', WebSocket });
connection.on('requested', (question) => question.answer({ answers: [] }));
const failure: unknown = new QuestionClientError('closed', 'The connection is closed.');
const lang: web.AskseamLang = 'en';

export const used = { web, questions, connection, failure, lang };
