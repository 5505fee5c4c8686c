import { askUserQuestionsSchema, type AskUserQuestionItem } from './schemas.js';

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
  const parsed = askUserQuestionsSchema.safeParse(questions);
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

function wellFormedProblem(questions: AskUserQuestionItem[]): string | undefined {
  const seenIds = new Set<string>();
  for (const [index, question] of questions.entries()) {
    if (question.id.trim() === '') return `Question ${index + 1} has a blank id; give every question a stable, non-empty id.`;
    if (seenIds.has(question.id)) return `Question id "${question.id}" is used twice; ids must be unique within a batch.`;
    seenIds.add(question.id);
    if (question.question.trim() === '') return `Question "${question.id}" has blank question text.`;
    const labelProblem = optionLabelProblem(question);
    if (labelProblem) return labelProblem;
  }
  return undefined;
}

function optionLabelProblem(question: AskUserQuestionItem): string | undefined {
  const seenLabels = new Set<string>();
  for (const option of question.options ?? []) {
    if (option.label.trim() === '') return `Question "${question.id}" has an option with a blank label.`;
    if (seenLabels.has(option.label)) return `Question "${question.id}" offers the option "${option.label}" twice; labels must be unique.`;
    seenLabels.add(option.label);
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
