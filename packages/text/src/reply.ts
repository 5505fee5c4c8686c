import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
import { quote } from './scan.js';

/**
 * An answer written the way a person would reply in text, such that `parseTextReply` reads it back
 * as the very same answer: options by number, the person's own words in quotes, "skip" for a skip,
 * and one "N: …" line per question when there are several. Useful to echo an answer back into a
 * chat ("You answered: …") or to log it, and it is what the round-trip tests stand on.
 */
export function replyText(questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer): string {
  const values = questions.map((question, index) => valueText(question, answer.answers[index]));
  if (questions.length === 1) return values[0] ?? '';
  return values.map((value, index) => `${index + 1}: ${value}`).join('\n');
}

function valueText(question: AskUserQuestionItem, item: AskUserQuestionAnswer['answers'][number] | undefined): string {
  if (item === undefined || (item.selected.length === 0 && item.custom === undefined)) return 'skip';
  const labels = (question.options ?? []).map((option) => option.label);
  const picks = item.selected.map((label) => String(labels.indexOf(label) + 1));
  if (item.custom === undefined) return picks.join(', ');
  // Typed values are written as they are: the reader folds them back to the same text.
  const kind = question.input?.kind;
  const own = kind === 'number' || kind === 'date' || kind === 'checkbox' ? item.custom : quote(item.custom);
  return [...picks, own].join(', ');
}
