// What a page's code writes against the published browser-side packages, type-checked in the outside
// app with skipLibCheck: false and the DOM lib, under moduleResolution node16 and bundler.
import { connectQuestions, QuestionClientError } from '@askseam/client';
import * as web from '@askseam/web';
// part B: `import '@askseam/web/browser';` (the self-registering bundle) has no types yet (TS7016);
// add it back once part B ships them.

web.defineAskseamQuestions();
const element = document.createElement('askseam-questions');
// part B: `document.createElement('askseam-questions')` should be typed as `web.AskseamQuestionsElement`
// once the HTMLElementTagNameMap entry lands; until then it is cast.
const questions = element as web.AskseamQuestionsElement;
const connection = connectQuestions({ url: 'wss://example.test/askseam', token: 't', WebSocket });
connection.on('requested', (question) => question.answer({ answers: [] }));
const failure: unknown = new QuestionClientError('closed', 'The connection is closed.');
const lang: web.AskseamLang = 'en';

export const used = { web, questions, connection, failure, lang };
