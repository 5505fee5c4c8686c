import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import type { CompiledClarification } from './compiled.js';
import { valueOf, valuesOf } from './values.js';

/**
 * What the model reads once the user answered: compact JSON. A form gives
 * `{"answers":{"project_name":"my-app","init_git":true,…}}`; a single question `{"answer":…}`.
 * A skip is null; a note is added when everything was skipped or the form had to be asked as text.
 */
export function clarificationResultText(compiled: CompiledClarification, answer: AskUserQuestionAnswer): string {
  const questions = compiled.request.questions;
  const notes: string[] = [];
  if (compiled.degraded !== undefined) {
    notes.push(`The form could not be shown as fields (${compiled.degraded.message}), so the user answered in free text; take the values you need from it.`);
  }
  if (compiled.inputMode === 'form') {
    const values = valuesOf(questions, answer);
    if (Object.values(values).every((value) => value === null)) notes.push(skippedNote);
    return JSON.stringify({ answers: values, ...noteOf(notes) });
  }
  const value = valueOf(questions[0]!, answer.answers[0]);
  if (value === null) notes.push(skippedNote);
  return JSON.stringify({ answer: value, ...noteOf(notes) });
}

const skippedNote = 'The user skipped the question. Continue on a clearly stated assumption; do not ask the same thing again.';

function noteOf(notes: string[]): { note?: string } {
  return notes.length === 0 ? {} : { note: notes.join(' ') };
}
