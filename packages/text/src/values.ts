import {
  checkboxAnswerValues,
  dateAnswerProblem,
  hasLineBreak,
  isBlankText,
  isMultiSelect,
  maxNumberAnswerLength,
  numberAnswerProblem,
  textLength,
  type AskUserQuestionAnswerItem,
  type AskUserQuestionItem,
} from '@askseam/user-questions';
import { findOption } from './labels.js';
import type { TextMessages } from './messages.js';
import { listParts, listSeparatorCount, unquote, type ListPart } from './scan.js';

/** One question's part of a reply, read: the answer item, or what is wrong (a sentence without the question's number). */
export type ValueReading = { ok: true; item: AskUserQuestionAnswerItem } | { ok: false; problem: string };

const skipWords = new Set(['skip', '/skip', 'skipped', '跳过', '略过', '不填']);
const yesWords = new Set(['yes', 'y', 'true', 'on', 'checked', '✓', '✔', '☑', '是', '是的', '对', '要', '好', '勾选']);
const noWords = new Set(['no', 'n', 'false', 'off', 'unchecked', '✗', '✘', '☐', '否', '不', '不要', '不是']);

/** Case, width and a trailing full stop do not change what a short word means. */
function word(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase().replace(/[.!。！]+$/u, '');
}

/**
 * Read `raw` as the answer to `question`. A blank value or "skip" is a skip; a value in quotes is
 * taken literally as custom text; otherwise the question's input kind decides how it is read.
 */
export function readValue(question: AskUserQuestionItem, raw: string, messages: TextMessages): ValueReading {
  const { id } = question;
  const value = raw.trim();
  const skip: ValueReading = question.required === true ? { ok: false, problem: messages.problemRequired } : { ok: true, item: { id, selected: [] } };
  // Blank is the seam's rule (nothing visible), so a reply of zero-width spaces is a skip here too.
  if (isBlankText(value) || skipWords.has(word(value))) return skip;
  const literal = unquote(value);
  if (literal !== undefined && isBlankText(literal)) return skip;

  const input = question.input;
  switch (input?.kind) {
    case 'number': {
      const number = decimalOf(literal ?? value);
      const problem = numberAnswerProblem(input, number);
      if (problem === 'too-long') return { ok: false, problem: messages.problemTooLong(textLength(number), maxNumberAnswerLength) };
      if (problem === 'not-a-number') return { ok: false, problem: messages.problemNumber(value) };
      if (problem === 'out-of-range') return { ok: false, problem: messages.problemNumberRange(value, messages.range(input.min, input.max)) };
      if (problem === 'off-step') return { ok: false, problem: messages.problemNumberStep(value, input.step ?? 1, input.min ?? 0) };
      return custom(id, number);
    }
    case 'date': {
      const day = dayOf(literal ?? value);
      const problem = dateAnswerProblem(input, day);
      if (problem === 'not-a-date') return { ok: false, problem: messages.problemDate(value) };
      if (problem === 'out-of-range') return { ok: false, problem: messages.problemDateRange(value, messages.dateRange(input.min, input.max)) };
      return custom(id, day);
    }
    case 'checkbox': {
      const said = word(literal ?? value);
      if (yesWords.has(said)) return custom(id, checkboxAnswerValues.checked);
      if (noWords.has(said)) return custom(id, checkboxAnswerValues.unchecked);
      return { ok: false, problem: messages.problemYesNo(value) };
    }
    case 'text':
    case 'textarea': {
      const text = literal ?? value;
      if (input.kind === 'text' && hasLineBreak(text)) return { ok: false, problem: messages.problemOneLine };
      const length = textLength(text);
      if (input.maxLength !== undefined && length > input.maxLength) return { ok: false, problem: messages.problemTooLong(length, input.maxLength) };
      return custom(id, text);
    }
    default:
      if (literal !== undefined) return custom(id, literal);
      if (!question.options?.length) return custom(id, value);
      return isMultiSelect(question) ? readChoices(question, value, messages) : readChoice(question, value, messages);
  }
}

function custom(id: string, text: string): ValueReading {
  return { ok: true, item: { id, selected: [], custom: text } };
}

/** A person's number as the seam's plain decimal: full-width digits folded, "+5" → "5", ".5" → "0.5", "5." → "5". */
function decimalOf(text: string): string {
  const folded = text.normalize('NFKC').trim().replace(/^\+/, '');
  return folded.replace(/^(-?)\./, '$10.').replace(/^(-?\d+)\.$/, '$1');
}

// 2026-08-20, 2026/8/20, 2026.8.20, 2026年8月20日 → 2026-08-20
const writtenDay = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/u;

function dayOf(text: string): string {
  const folded = text.normalize('NFKC').trim();
  const match = writtenDay.exec(folded);
  if (!match) return folded;
  return `${match[1]}-${match[2]!.padStart(2, '0')}-${match[3]!.padStart(2, '0')}`;
}

/** "1 3" as well as "1, 3": a reply of numbers alone may be separated by spaces too. */
function numberList(value: string): string[] | undefined {
  const folded = value.normalize('NFKC');
  return /^[\d\s,，、]+$/u.test(folded) ? folded.split(/[\s,，、]+/u).filter(Boolean) : undefined;
}

type Pick = { index: number } | { problem: string } | undefined;

/** A list item as an option: its number, or its label. Undefined: not an option, so it is the person's own words. */
function pickOf(question: AskUserQuestionItem, item: string, messages: TextMessages): Pick {
  const options = question.options ?? [];
  const folded = item.normalize('NFKC').trim();
  if (/^\d+$/.test(folded)) {
    const number = Number(folded);
    return number >= 1 && number <= options.length ? { index: number - 1 } : { problem: messages.problemNoOption(item, options.length) };
  }
  const found = findOption(options, item);
  if (found === undefined) return undefined;
  return 'found' in found ? { index: found.found } : { problem: messages.problemAmbiguous(item, found.ambiguous.map((i) => i + 1)) };
}

/** One option, or the whole reply as the person's own words (a single-select question). */
function readChoice(question: AskUserQuestionItem, value: string, messages: TextMessages): ValueReading {
  const { id } = question;
  const options = question.options ?? [];
  const whole = pickOf(question, value, messages);
  if (whole !== undefined) return 'index' in whole ? { ok: true, item: { id, selected: [options[whole.index]!.label] } } : { ok: false, problem: whole.problem };
  // "1, 3" or "React, Vue" on a one-choice question is a mistake; "Paris, France" is an answer.
  const items = numberList(value) ?? choiceItems(question, value, messages);
  if (items.length > 1 && items.every((item) => pickOf(question, item, messages) !== undefined)) return { ok: false, problem: messages.problemOnlyOne };
  return custom(id, value);
}

/** Any options by number or label; whatever names no option is kept, in order, as the person's own words. */
function readChoices(question: AskUserQuestionItem, value: string, messages: TextMessages): ValueReading {
  const { id } = question;
  const options = question.options ?? [];
  const items = numberList(value) ?? choiceItems(question, value, messages);
  const selected: string[] = [];
  const own: string[] = [];
  for (const item of items) {
    const literal = unquote(item);
    if (literal !== undefined) {
      if (!isBlankText(literal)) own.push(literal);
      continue;
    }
    const pick = pickOf(question, item, messages);
    if (pick === undefined) own.push(item);
    else if ('problem' in pick) return { ok: false, problem: pick.problem };
    else if (!selected.includes(options[pick.index]!.label)) selected.push(options[pick.index]!.label);
  }
  if (own.length === 0) return { ok: true, item: { id, selected } };
  return { ok: true, item: { id, selected, custom: own.join(', ') } };
}

/**
 * The items of a reply to a question with options, cut at commas, except where neighbouring items
 * together spell an option whose label has a comma in it ("Washington, D.C., Boston" is two
 * items). At each item the longest such run wins: first one that is a label exactly, then one
 * that loosely names exactly one option, but only when its items are not each an option of their
 * own ("A, B" stays two picks even beside an option "a, b"). Quoted items are never joined.
 */
function choiceItems(question: AskUserQuestionItem, value: string, messages: TextMessages): string[] {
  const parts = listParts(value);
  const options = question.options ?? [];
  // A run of k items can only spell a label with k - 1 separators, which bounds the search.
  const longestRun = Math.max(0, ...options.map((option) => listSeparatorCount(option.label))) + 1;
  if (longestRun < 2 || parts.length < 2) return parts.map((part) => part.text);

  const exact = new Set(options.map((option) => option.label));
  const quoted = (part: ListPart) => unquote(part.text) !== undefined;
  const namesAnOption = (part: ListPart) => !quoted(part) && pickOf(question, part.text, messages) !== undefined;
  const spanText = (from: number, end: number) => value.slice(parts[from]!.start, parts[end - 1]!.end);
  /** Where the run of items that spells one label and starts at `from` ends (exclusive); undefined: it spells none. */
  const runEnd = (from: number): number | undefined => {
    if (quoted(parts[from]!)) return undefined;
    // The ends of the runs of two or more unquoted items that start here, longest first.
    const ends: number[] = [];
    for (let next = from + 1; next < parts.length && next - from < longestRun && !quoted(parts[next]!); next++) ends.unshift(next + 1);
    const exactEnd = ends.find((end) => exact.has(spanText(from, end)));
    if (exactEnd !== undefined) return exactEnd;
    return ends.find((end) => {
      const found = findOption(options, spanText(from, end));
      return found !== undefined && 'found' in found && !parts.slice(from, end).every(namesAnOption);
    });
  };

  const items: string[] = [];
  for (let i = 0; i < parts.length; ) {
    const end = runEnd(i) ?? i + 1;
    items.push(spanText(i, end));
    i = end;
  }
  return items;
}
