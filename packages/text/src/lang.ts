import type { AskUserQuestionItem } from '@askseam/user-questions';

/** The languages the text channel speaks. Replies are read in both, whichever is chosen. */
export type TextLang = 'en' | 'zh';

// CJK Unified Ideographs (and extension A): enough to tell a Chinese question from an English one.
const han = /[\u3400-\u4dbf\u4e00-\u9fff]/;

/** `zh` when any question, header or detail contains Chinese characters, otherwise `en`. */
export function detectLang(questions: readonly AskUserQuestionItem[]): TextLang {
  return questions.some(({ question, header, detail }) => han.test(question) || han.test(header ?? '') || han.test(detail ?? '')) ? 'zh' : 'en';
}
