import { parseTextReply } from '@askseam/text';
import type { AskUserQuestionAnswer, AskUserQuestionAnswerItem, AskUserQuestionItem } from '@askseam/user-questions';
import * as z from 'zod';
import { checkboxActionPrefix } from './codec.js';

// Turning what a person did on a card into the answer askseam judges. Nothing here decides whether
// it fits: the host does (the channel answers only through its judging). A click carries an option
// index, never a label, so the full label goes in the answer however short the button was.

/** One option clicked on a single-question card. */
export function optionAnswer(question: AskUserQuestionItem, option: number): AskUserQuestionAnswer | undefined {
  const label = question.options?.[option]?.label;
  return label === undefined ? undefined : { answers: [{ id: question.id, selected: [label] }] };
}

// Slack sends the state of every input on the message with a block_actions payload:
// state.values[blockId][actionId].selected_options for checkboxes.
const slackStateSchema = z.object({
  state: z.object({
    values: z.record(z.string(), z.record(z.string(), z.object({ type: z.string(), selected_options: z.array(z.object({ value: z.string() })).nullish() }))),
  }),
});

/** The options ticked in a Slack card's checkbox groups, read from the click's raw payload, in option order. */
export function checkboxAnswer(question: AskUserQuestionItem, raw: unknown): AskUserQuestionAnswer {
  const parsed = slackStateSchema.safeParse(raw);
  const ticked = new Set<number>();
  if (parsed.success) {
    for (const block of Object.values(parsed.data.state.values)) {
      for (const [actionId, input] of Object.entries(block)) {
        if (input.type !== 'checkboxes' || !actionId.startsWith(checkboxActionPrefix)) continue;
        for (const option of input.selected_options ?? []) ticked.add(Number(option.value));
      }
    }
  }
  const options = question.options ?? [];
  const selected = options.filter((_option, index) => ticked.has(index)).map((option) => option.label);
  return { answers: [{ id: question.id, selected }] };
}

/** The field id of question `index` in a form. */
export const fieldId = (index: number) => `q${index}`;

export type FormResult = { ok: true; answer: AskUserQuestionAnswer } | { ok: false; errors: Record<string, string> };

/**
 * A submitted form: each field is read as a plain-text reply to its own question (`parseTextReply`,
 * the same reading as a thread reply), a select's value being the option's number. A field left
 * empty skips its question; a field that does not fit gets askseam's problem text beside it.
 */
export function formAnswer(questions: readonly AskUserQuestionItem[], indexes: readonly number[], values: Record<string, string>): FormResult {
  const answers: AskUserQuestionAnswerItem[] = [];
  const errors: Record<string, string> = {};
  for (const index of indexes) {
    const question = questions[index]!;
    const text = (values[fieldId(index)] ?? '').trim();
    if (text === '') {
      answers.push({ id: question.id, selected: [] });
      continue;
    }
    const parsed = parseTextReply([question], text);
    if (parsed.ok) answers.push(...parsed.answer.answers);
    else errors[fieldId(index)] = parsed.problems.map((problem) => problem.message).join(' ');
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, answer: { answers } };
}

/** A tool approval denied with a reason from the deny form, read the way a "deny: …" reply is. */
export function denyAnswer(questions: readonly AskUserQuestionItem[], reason: string): FormResult {
  const parsed = parseTextReply(questions, reason.trim() === '' ? 'deny' : `deny: ${reason.trim()}`);
  return parsed.ok ? { ok: true, answer: parsed.answer } : { ok: false, errors: { reason: parsed.problems.map((problem) => problem.message).join(' ') } };
}
