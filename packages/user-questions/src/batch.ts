import { compiledSafeParse } from './compiled.js';
import { isCalendarDate } from './inputs.js';
import { askUserQuestionsSchema, type AskUserQuestionItem } from './schemas.js';

const parseQuestions = compiledSafeParse(askUserQuestionsSchema);

/**
 * Why a batch of questions is malformed (gate 3), or `undefined` when it is well formed.
 * The message names the offending question so the caller can fix exactly that one.
 */
export function questionBatchProblem(questions: unknown): string | undefined {
  const checked = checkQuestionBatch(questions);
  return checked.ok ? undefined : checked.problem;
}

/**
 * Gate 3 with its result: the problem, or a fresh copy of the well-formed batch (only the
 * contract's fields), which nothing outside the seam holds a reference to.
 */
export function checkQuestionBatch(questions: unknown): { ok: true; questions: AskUserQuestionItem[] } | { ok: false; problem: string } {
  const parsed = parseQuestions(questions);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `questions.${issue.path.join('.')}` : 'questions';
    const id = issue ? questionIdAt(questions, issue.path[0]) : undefined;
    const subject = id === undefined ? '' : `Question "${id}": `;
    return { ok: false, problem: `${subject}${where}: ${issue?.message ?? 'not a list of questions'}.` };
  }
  const problem = wellFormedProblem(parsed.data);
  return problem === undefined ? { ok: true, questions: parsed.data } : { ok: false, problem };
}

// Every ask is checked here: a short list is searched pairwise for a repeat, with no Set built
// per batch and per question (longer ones still use a Set, so a huge batch is not quadratic).
const pairwiseUpTo = 16;

function wellFormedProblem(questions: AskUserQuestionItem[]): string | undefined {
  const seenIds = questions.length > pairwiseUpTo ? new Set<string>() : undefined;
  for (let index = 0; index < questions.length; index++) {
    const question = questions[index]!;
    if (question.id.trim() === '') return `Question ${index + 1} has a blank id; give every question a stable, non-empty id.`;
    if (seenIds === undefined ? idUsedBefore(questions, index) : seenIds.has(question.id)) return `Question id "${question.id}" is used twice; ids must be unique within a batch.`;
    seenIds?.add(question.id);
    if (question.question.trim() === '') return `Question "${question.id}" has blank question text.`;
    const labelProblem = optionLabelProblem(question);
    if (labelProblem) return labelProblem;
    const inputProblem = inputDeclarationProblem(question);
    if (inputProblem) return inputProblem;
  }
  return undefined;
}

function optionLabelProblem(question: AskUserQuestionItem): string | undefined {
  const options = question.options;
  if (options === undefined) return undefined;
  const seenLabels = options.length > pairwiseUpTo ? new Set<string>() : undefined;
  for (let index = 0; index < options.length; index++) {
    const option = options[index]!;
    if (option.label.trim() === '') return `Question "${question.id}" has an option with a blank label.`;
    if (seenLabels === undefined ? labelUsedBefore(options, index) : seenLabels.has(option.label)) {
      return `Question "${question.id}" offers the option "${option.label}" twice; labels must be unique.`;
    }
    seenLabels?.add(option.label);
  }
  return undefined;
}

function idUsedBefore(questions: readonly AskUserQuestionItem[], index: number): boolean {
  const id = questions[index]!.id;
  for (let earlier = 0; earlier < index; earlier++) if (questions[earlier]!.id === id) return true;
  return false;
}

function labelUsedBefore(options: readonly { label: string }[], index: number): boolean {
  const label = options[index]!.label;
  for (let earlier = 0; earlier < index; earlier++) if (options[earlier]!.label === label) return true;
  return false;
}

/** A typed input that contradicts the rest of its question, which no answer could satisfy sensibly. */
function inputDeclarationProblem(question: AskUserQuestionItem): string | undefined {
  const { id, input, options = [], multiSelect } = question;
  if (input === undefined) return undefined;
  const kind = input.kind;
  switch (kind) {
    case 'select':
    case 'multi_select':
      if (options.length === 0) return `Question "${id}" has input kind ${kind} but no options; offer at least one option.`;
      if (kind === 'select' && multiSelect === true) {
        return `Question "${id}" has input kind select but multiSelect: true; use input kind multi_select for several choices.`;
      }
      if (kind === 'multi_select' && multiSelect === false) {
        return `Question "${id}" has input kind multi_select but multiSelect: false; drop multiSelect or use input kind select.`;
      }
      return undefined;
    default:
      if (options.length > 0) return `Question "${id}" has input kind ${kind}, which takes a typed value, but also offers options; drop the options or use input kind select.`;
      if (multiSelect === true) return `Question "${id}" has input kind ${kind} but multiSelect: true; only multi_select takes several choices.`;
  }
  if (input.kind === 'number') {
    if (input.min !== undefined && input.max !== undefined && input.min > input.max) {
      return `Question "${id}" has a number input with min ${input.min} above max ${input.max}.`;
    }
  }
  if (input.kind === 'date') {
    for (const [name, day] of [['min', input.min], ['max', input.max]] as const) {
      if (day !== undefined && !isCalendarDate(day)) return `Question "${id}" has a date input whose ${name} "${day}" is not a calendar day written YYYY-MM-DD.`;
    }
    if (input.min !== undefined && input.max !== undefined && input.min > input.max) {
      return `Question "${id}" has a date input with min ${input.min} after max ${input.max}.`;
    }
  }
  return undefined;
}

// A schema failure is reported by path; naming the question's own id as well lets the caller find it.
function questionIdAt(questions: unknown, index: PropertyKey | undefined): string | undefined {
  if (!Array.isArray(questions) || typeof index !== 'number') return undefined;
  const question: unknown = questions[index];
  if (typeof question !== 'object' || question === null) return undefined;
  const id = (question as { id?: unknown }).id;
  return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}
