import { questionBatchProblem, type AskUserQuestionItem, type AskUserQuestionRequest, type AskUserQuestionUrgency } from '@askseam/user-questions';
import { renderText, type TextLang } from '@askseam/text';
import type { ClarifyDegradation } from './ask-clarification-args.js';
import type { ClarificationType } from './ask-clarification-schema.js';
import { humanInputField, type HumanInputMode, type HumanInputRequest } from './human-input.js';

/** A clarification tool call made ready for every channel: the seam, plain text, and a UI. */
export interface CompiledClarification {
  source: HumanInputRequest['source'];
  /** What to pass to `userQuestions.ask` (add `agent`, `signal`, `timeoutMs`). */
  request: AskUserQuestionRequest;
  inputMode: HumanInputMode;
  /** The plain-text fallback: the ToolMessage content of a host that ends the run here. */
  text: string;
  /** The structured payload for a UI: the artifact beside that ToolMessage. */
  humanInput: HumanInputRequest;
  /** Present when the form was dropped and one plain question asks instead. */
  degraded?: ClarifyDegradation;
}

export type CompileResult = { ok: true; value: CompiledClarification } | { ok: false; error: { code: 'INVALID_ARGUMENTS'; message: string } };

export interface CompileOptions {
  /** The language of the surrounding text. Default: `zh` when the question contains Chinese, else `en`. */
  lang?: TextLang;
  /** The most characters the plain text may have (default 4000). */
  budget?: number;
}

export interface CompileParts {
  source: HumanInputRequest['source'];
  tool: string;
  question: string;
  context: string | undefined;
  questions: AskUserQuestionItem[];
  inputMode: HumanInputMode;
  clarificationType?: ClarificationType;
  urgency?: AskUserQuestionUrgency;
  degraded?: ClarifyDegradation;
  budget: number | undefined;
  lang: TextLang;
}

/**
 * Assemble the three views of one clarification. The questions pass the seam's batch check here,
 * so a call that compiles is one the seam will not refuse as malformed.
 */
export function assemble(parts: CompileParts): CompileResult {
  const { questions, question, context } = parts;
  const problem = questionBatchProblem(questions);
  if (problem !== undefined) return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments for ${parts.tool}: ${problem}` } };

  const request: AskUserQuestionRequest = { questions };
  if (parts.urgency !== undefined) request.urgency = parts.urgency;
  const text = plainText(parts, request);
  // A form asked as plain text names what it asked for in its question's context; a UI shows that too.
  const shownContext = parts.degraded === undefined ? context : (questions[0]?.detail ?? context);
  const humanInput: HumanInputRequest = {
    version: 1,
    kind: 'human_input_request',
    source: parts.source,
    question,
    ...(shownContext === undefined ? {} : { context: shownContext }),
    ...(parts.clarificationType === undefined ? {} : { clarificationType: parts.clarificationType }),
    ...(parts.urgency === undefined ? {} : { urgency: parts.urgency }),
    inputMode: parts.inputMode,
    fields: questions.map(humanInputField),
    text,
    ...(parts.degraded === undefined ? {} : { degraded: { reason: parts.degraded.reason, message: parts.degraded.message } }),
  };
  const value: CompiledClarification = { source: parts.source, request, inputMode: parts.inputMode, text, humanInput };
  if (parts.degraded !== undefined) value.degraded = parts.degraded;
  return { ok: true, value };
}

/**
 * A form reads best with its purpose on top and the fields numbered below; a single question
 * carries its own context, so renderText alone says it all.
 */
function plainText(parts: CompileParts, request: AskUserQuestionRequest): string {
  const { budget, lang } = parts;
  if (parts.inputMode !== 'form') return renderText(request, { lang, ...(budget === undefined ? {} : { budget }) });
  const head = [parts.question, ...(parts.context === undefined ? [] : [parts.context]), ''].join('\n');
  // The purpose is said once, on top; the first field's copy of it (and the chip) is for UIs that page through fields.
  const [first, ...rest] = request.questions;
  const fields = first === undefined ? [] : [withoutPurpose(first), ...rest];
  const room = (budget ?? 4000) - head.length - 1;
  return `${head}\n${renderText({ ...request, questions: fields }, { lang, budget: Math.max(room, 200) })}`;
}

function withoutPurpose(question: AskUserQuestionItem): AskUserQuestionItem {
  const { detail: _detail, header: _header, ...rest } = question;
  return rest;
}
