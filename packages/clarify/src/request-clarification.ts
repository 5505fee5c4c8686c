import { questionBatchProblem, type AskUserQuestionItem, type AskUserQuestionRequest } from '@askseam/user-questions';
import { detectLang, renderText, type TextLang } from '@askseam/text';
import { fieldQuestion } from './clarification-questions.js';
import { internalNameFinder } from './internal-names.js';
import { defaultPhrase, plainQuestion, type PhraseMissingFields } from './phrase.js';
import { readRequestClarificationArgs } from './request-clarification-args.js';
import type { MissingField, PendingAction } from './request-clarification-schema.js';

export interface PrepareClarificationOptions {
  /** The phrasing step (an LLM call in production). Default: `defaultPhrase`. */
  phrase?: PhraseMissingFields;
  /** The language of the wording. Default: `zh` when the goal, a label or a description contains Chinese, else `en`. */
  lang?: TextLang;
  /** The most characters the plain text may have (default 4000). */
  budget?: number;
  /** Handed to the phrasing step, so an LLM call behind it stops when the ask is withdrawn. */
  signal?: AbortSignal;
}

/** A request_clarification call made ready to ask, blocking or detached. */
export interface PreparedClarification {
  /** What to pass to `userQuestions.ask` (add `agent`, `signal`, `timeoutMs`). */
  request: AskUserQuestionRequest;
  /** The same questions as plain text, for a channel without a UI. */
  text: string;
  /** The business call waiting for the answer: keep it (a host's `state`, any store) until the answer comes. */
  pending: PendingAction;
  lang: TextLang;
  /** Why the default wording stood in for the phrasing step's, per question; empty when it was used as given. */
  phraseProblems: string[];
}

export type PrepareClarificationResult = { ok: true; value: PreparedClarification } | { ok: false; error: { code: 'INVALID_ARGUMENTS'; message: string } };

/**
 * Read a request_clarification call and word its questions: the pending action from the
 * arguments, the questions from the phrasing step (checked: no argument or tool name reaches the
 * user), and the plain-text fallback. Never throws; a phrasing step that fails leaves the default
 * wording in place.
 */
export async function prepareRequestClarification(args: unknown, options: PrepareClarificationOptions = {}): Promise<PrepareClarificationResult> {
  const read = readRequestClarificationArgs(args);
  if (!read.ok) return read;
  return preparePendingAction(read.value, options);
}

/** Word the questions of a pending action that was already read. */
export async function preparePendingAction(pending: PendingAction, options: PrepareClarificationOptions = {}): Promise<PrepareClarificationResult> {
  const lang = options.lang ?? langOfPending(pending);
  const { questions, problems } = await phrased(pending, lang, options);
  const problem = questionBatchProblem(questions);
  if (problem !== undefined) return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments for request_clarification: ${problem}` } };
  const request: AskUserQuestionRequest = { questions };
  const text = renderText(request, { lang, ...(options.budget === undefined ? {} : { budget: options.budget }) });
  return { ok: true, value: { request, text, pending, lang, phraseProblems: problems } };
}

/**
 * What to hand a host's `askDetached` (add `sessionId` or `agent`, and `urgency` if you like): the
 * questions, and the pending action as the `state` the resume handler gets back. Fresh copies.
 */
export function detachedClarificationAsk(prepared: Pick<PreparedClarification, 'request' | 'pending'>): { questions: AskUserQuestionItem[]; state: PendingAction } {
  return { questions: structuredClone(prepared.request.questions), state: structuredClone(prepared.pending) };
}

/** The language of the wording: that of the goal and the fields the user will read about. */
function langOfPending(pending: PendingAction): TextLang {
  const texts = [pending.goal, ...pending.missing.flatMap((field) => [field.label, field.description])];
  return detectLang(texts.map((question, index) => ({ id: String(index), question })));
}

/**
 * The questions in the phrasing step's words where they can be used, else in the default words,
 * else the label-only question. Each candidate's words are checked for every name the model used
 * (tool, known and missing arguments), because the phrasing step may be an LLM that saw them.
 */
async function phrased(pending: PendingAction, lang: TextLang, options: PrepareClarificationOptions): Promise<{ questions: AskUserQuestionItem[]; problems: string[] }> {
  const { tool, goal, missing } = pending;
  const context = { tool, goal, lang, ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const problems: string[] = [];
  const fallback = defaultPhrase(missing, context);
  let custom: unknown[] | undefined;
  if (options.phrase !== undefined) {
    try {
      const result: unknown = await options.phrase(missing, context);
      if (Array.isArray(result) && result.length === missing.length) custom = result;
      else problems.push(`The phrasing step returned ${Array.isArray(result) ? `${result.length} questions` : 'no list'} for ${missing.length} fields; the default wording was used.`);
    } catch (error) {
      problems.push(`The phrasing step failed (${error instanceof Error ? error.message : String(error)}); the default wording was used.`);
    }
  }
  const mentionsName = internalNameFinder([tool, ...Object.keys(pending.args), ...missing.map((field) => field.name)]);
  // The default wording leaves out a description or goal that names the tool or a missing field,
  // and writes other identifiers as words; one that names a known argument must still not be used,
  // so that is checked on what the wording was made from.
  const leftOutByDefault = internalNameFinder([tool, ...missing.map((field) => field.name)]);
  const namesKnownArgument = internalNameFinder(Object.keys(pending.args));
  const defaultSourceShows = (field: MissingField, index: number) =>
    [field.description, ...(index === 0 ? [goal] : [])].filter((text) => leftOutByDefault(text) === undefined).map(namesKnownArgument).find((name) => name !== undefined);
  const questions = missing.map((field, index) => {
    const candidates = custom === undefined ? [fallback[index]] : [custom[index], fallback[index]];
    for (const [rank, candidate] of candidates.entries()) {
      const words = wordsOf(candidate);
      const isDefault = candidate === fallback[index];
      const shown = words === undefined ? undefined : (Object.values(words).map(mentionsName).find((name) => name !== undefined) ?? (isDefault ? defaultSourceShows(field, index) : undefined));
      if (words !== undefined && shown === undefined) return { ...fieldQuestion(field, index, words.question), ...words };
      // Only the phrasing step's problems are reported: the default wording's own fallback is routine.
      if (rank === 0 && custom !== undefined) {
        problems.push(`Question ${index + 1} (${field.label}): ${shown === undefined ? 'the phrasing gave no usable question text' : `the phrasing mentioned "${shown}"`}; the default wording was used.`);
      }
    }
    return plainQuestion(field, index, lang);
  });
  return { questions, problems };
}

/** The words of one phrased question, or undefined when it has no question text. */
function wordsOf(candidate: unknown): { question: string; header?: string; detail?: string; placeholder?: string } | undefined {
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const item = candidate as Partial<Record<'question' | 'header' | 'detail' | 'placeholder', unknown>>;
  if (typeof item.question !== 'string' || item.question.trim() === '') return undefined;
  const words: { question: string; header?: string; detail?: string; placeholder?: string } = { question: item.question };
  if (typeof item.header === 'string' && item.header.trim() !== '') words.header = item.header;
  if (typeof item.detail === 'string' && item.detail.trim() !== '') words.detail = item.detail;
  if (typeof item.placeholder === 'string' && item.placeholder.trim() !== '') words.placeholder = item.placeholder;
  return words;
}
