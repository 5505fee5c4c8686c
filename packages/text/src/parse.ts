import {
  answerMismatch,
  isBlankText,
  type AskUserQuestionAnswer,
  type AskUserQuestionAnswerItem,
  type AskUserQuestionItem,
  type AskUserQuestionRequest,
} from '@askseam/user-questions';
import { parseApprovalReply } from './approval.js';
import { detectLang, type TextLang } from './lang.js';
import { textMessages } from './messages.js';
import { keyAt, scanReply } from './scan.js';
import { readValue } from './values.js';

/** Something in a reply that could not become part of an answer, in words for the person who wrote it. */
export interface TextReplyProblem {
  /** The question it concerns; absent when the reply as a whole could not be placed. */
  questionId?: string;
  message: string;
}

export type TextReplyResult =
  | { ok: true; answer: AskUserQuestionAnswer }
  | {
      ok: false;
      problems: TextReplyProblem[];
      /** The questions that were understood, in question order, so a channel need only ask for the rest. */
      partial: AskUserQuestionAnswerItem[];
    };

export interface ParseTextReplyOptions {
  /** The language of the problem messages. Default: `zh` when the questions contain Chinese, else `en`. Replies are read in both. */
  lang?: TextLang;
}

/**
 * Read a person's plain-text reply as an answer to `questions`. Every answer it returns fits the
 * questions (`answerMismatch` finds nothing); otherwise it lists what is missing or wrong.
 *
 * One question: the whole reply is the answer ("2", "1, 3", "React", "2026-08-20", "yes", free
 * text, "skip"). Several: one line per question in order, or lines and `;`-separated parts keyed by
 * the question's number, id, header or text ("1: my-app", "framework: Vue; Initialise Git: yes"); a question left
 * out is skipped. Text in quotes is taken literally as the person's own words.
 */
export function parseTextReply(
  source: AskUserQuestionRequest | readonly AskUserQuestionItem[],
  text: string,
  options: ParseTextReplyOptions = {},
): TextReplyResult {
  const questions = Array.isArray(source) ? (source as readonly AskUserQuestionItem[]) : (source as AskUserQuestionRequest).questions;
  // An approval is read as approve or deny with a reason (approval.ts).
  const approval = parseApprovalReply(questions, text, options.lang);
  if (approval !== undefined) return approval;
  const messages = textMessages[options.lang ?? detectLang(questions)];
  // Line breaks of any platform read as "\n".
  const reply = text.replace(/\r\n?/g, '\n');
  const keyOf = keyFinder(questions);

  const parts = new Array<string | undefined>(questions.length);
  const problems: TextReplyProblem[] = [];
  const twice = new Set<number>();
  let placed = true;
  if (questions.length === 1) {
    const head = keyAt(reply, keyOf, { numbered: false });
    parts[0] = head ? reply.slice(head.end) : reply;
  } else {
    const pieces = scanReply(reply, keyOf, { semicolonsSplit: true });
    if (pieces.some((piece) => piece.key !== undefined)) {
      let current: number | undefined;
      for (const piece of pieces) {
        if (piece.key !== undefined) {
          current = piece.key;
          if (parts[current] !== undefined) twice.add(current);
          else parts[current] = piece.text;
        } else if (current !== undefined && (piece.boundary !== '\n' || takesLines(questions[current]!))) {
          // A line without a key goes on with the answer above it (a textarea's next line), and a
          // semicolon without a key after it was part of the text.
          if (!twice.has(current)) parts[current] += piece.boundary + piece.text;
        } else if (!isBlankText(piece.text)) {
          problems.push({ message: messages.problemUnplaced(piece.text.trim()) });
        }
      }
    } else {
      // No keys at all: one line per question, in order.
      const lines = scanReply(reply, () => undefined, { semicolonsSplit: false }).filter((piece) => !isBlankText(piece.text));
      if (lines.length === questions.length) lines.forEach((line, index) => (parts[index] = line.text));
      else {
        problems.push({ message: messages.problemLineCount(lines.length, questions.length) });
        placed = false;
      }
    }
  }

  const at = (index: number, problem: string) => (questions.length === 1 ? messages.atOnly(problem) : messages.at(index + 1, problem));
  const items = questions.map((question, index): AskUserQuestionAnswerItem | undefined => {
    if (!placed) return undefined;
    if (twice.has(index)) {
      problems.push({ questionId: question.id, message: at(index, messages.problemTwice) });
      return undefined;
    }
    // A question the reply leaves out reads as a blank answer: a skip, unless it is required.
    const reading = readValue(question, parts[index] ?? '', messages);
    if (reading.ok) return reading.item;
    problems.push({ questionId: question.id, message: at(index, reading.problem) });
    return undefined;
  });
  if (problems.length > 0) {
    // Only what the reply actually said counts as understood; a skip it merely implied does not.
    const partial = items.filter((item, index): item is AskUserQuestionAnswerItem => item !== undefined && parts[index] !== undefined);
    return { ok: false, problems, partial };
  }

  const answer = { answers: items as AskUserQuestionAnswerItem[] };
  // The readers above keep every rule; this is the seam's own word on it, so no misfit can leave here.
  const mismatch = answerMismatch(questions, answer);
  if (mismatch) return { ok: false, problems: [{ ...(mismatch.questionId === undefined ? {} : { questionId: mismatch.questionId }), message: mismatch.message }], partial: [] };
  return { ok: true, answer };
}

/** Whether an answer may run over several lines: a textarea, or a question in the person's own words. */
function takesLines(question: AskUserQuestionItem): boolean {
  return question.input?.kind === 'textarea' || (question.input === undefined && !question.options?.length);
}

/** Keys a person may start a line with: the question's number, id, header or text (any case, width). */
function keyFinder(questions: readonly AskUserQuestionItem[]): (candidate: string) => number | undefined {
  const keys = new Map<string, number>();
  const ambiguous = new Set<string>();
  const add = (key: string | undefined, index: number) => {
    if (key === undefined) return;
    const folded = fold(key);
    if (folded === '' || ambiguous.has(folded)) return;
    if (keys.has(folded) && keys.get(folded) !== index) {
      keys.delete(folded);
      ambiguous.add(folded);
    } else keys.set(folded, index);
  };
  // Numbers first: "2" always means the second question, whatever an id or header says.
  questions.forEach((_, index) => keys.set(String(index + 1), index));
  const numbers = new Set(keys.keys());
  questions.forEach((question, index) => {
    if (!numbers.has(fold(question.id))) add(question.id, index);
    if (question.header !== undefined && !numbers.has(fold(question.header))) add(question.header, index);
    // A form field's question is its label ("Project name"), which is what a person types as the key.
    const label = question.question.replace(/[\s?？:：]+$/u, '');
    if (!numbers.has(fold(label))) add(label, index);
  });
  return (candidate) => keys.get(fold(candidate));
}

function fold(key: string): string {
  return key.normalize('NFKC').trim().toLowerCase();
}
