import { detectLang, type TextLang } from '@askseam/text';

/** The language of a clarification: that of its question and context. */
export function langOf(question: string, context?: string): TextLang {
  return detectLang([{ id: 'q', question, ...(context === undefined ? {} : { detail: context }) }]);
}
