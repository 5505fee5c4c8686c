import type { AskUserQuestionItem } from '@askseam/user-questions';
import { markdownToPlainText, Modal, Select, SelectOption, TextInput, type ModalElement } from 'chat';
import { fieldId } from './answers.js';
import { optionDisplay, shorten } from './display.js';

// The forms a card opens (Slack modals; the Chat SDK turns them into each platform's dialog where
// there is one): answer one question or a whole batch, or give the reason for a denial.

/** The callback id of every askseam form, so the bot's other modals are left to their handlers. */
export const formCallbackId = 'askseam';

const labelMax = 48;

function fieldFor(question: AskUserQuestionItem, index: number, batch: boolean, freeText: boolean) {
  const label = shorten(`${batch ? `${index + 1}. ` : ''}${question.header ?? markdownToPlainText(question.question)}`, labelMax);
  const options = question.options ?? [];
  const kind = question.input?.kind;
  const optional = question.required !== true;
  const single = options.length > 0 && options.length <= 100 && question.multiSelect !== true && kind !== 'multi_select' && kind !== 'checkbox';
  if (single && !freeText && kind !== 'text' && kind !== 'textarea' && kind !== 'number' && kind !== 'date') {
    // The select's value is the option's number: the form answer reads it like a reply of "2".
    return Select({
      id: fieldId(index),
      label,
      optional,
      options: options.map((option, i) => SelectOption({ label: optionDisplay(option.label, 75).text, value: String(i + 1) })),
    });
  }
  const placeholder =
    question.placeholder ??
    (kind === 'number' ? 'A number' : kind === 'date' ? 'YYYY-MM-DD' : freeText ? 'Your own answer' : options.length > 0 ? 'Numbers or labels, separated by commas' : undefined);
  const input: Parameters<typeof TextInput>[0] = { id: fieldId(index), label, optional, multiline: kind === 'textarea' || (kind === undefined && options.length === 0) };
  if (placeholder !== undefined) input.placeholder = shorten(placeholder, 150);
  if (question.input?.kind === 'text' || question.input?.kind === 'textarea') {
    if (question.input.maxLength !== undefined) input.maxLength = question.input.maxLength;
  }
  return TextInput(input);
}

/**
 * The form answering `indexes` of the batch; the card's key and the indexes ride in the private
 * metadata. `freeText`: the person chose "Other…", so an option question gets a text field.
 */
export function answerForm(key: string, questions: readonly AskUserQuestionItem[], indexes: readonly number[], freeText = false): ModalElement {
  return Modal({
    callbackId: formCallbackId,
    title: 'Answer',
    submitLabel: 'Send',
    privateMetadata: JSON.stringify({ key, indexes }),
    children: indexes.map((index) => fieldFor(questions[index]!, index, questions.length > 1, freeText)),
  });
}

export function denyForm(key: string): ModalElement {
  return Modal({
    callbackId: formCallbackId,
    title: 'Deny',
    submitLabel: 'Deny',
    privateMetadata: JSON.stringify({ key, deny: true }),
    children: [TextInput({ id: 'reason', label: 'Why not? (the agent reads this)', multiline: true, optional: true })],
  });
}
