import { isMultiSelect, type AskUserQuestionItem, type AskUserQuestionRequest, type AskUserQuestionUrgency } from '@askseam/user-questions';
import { renderApprovalText, type TextVote } from './approval.js';
import { detectLang, type TextLang } from './lang.js';
import { splitRecommended } from './labels.js';
import { textMessages, type TextMessages } from './messages.js';

export interface RenderTextOptions {
  /**
   * The most characters (UTF-16 code units, which never undercount) the text may have. Default
   * 4000, under the single-message limits of the common chat platforms. What does not fit is left
   * out whole (context first, then option descriptions, then trailing lines) and a last line says so.
   */
  budget?: number;
  /** The language of the text around the questions. Default: `zh` when the questions contain Chinese, else `en`. */
  lang?: TextLang;
  /** A quorum approval's approvals so far (`votes` of the question): shown as "1 of 2 approvals (by @alex)". */
  votes?: readonly TextVote[];
}

export const defaultTextBudget = 4000;

// A shortened context shorter than this says too little to be worth its line.
const minContextShare = 80;

interface Layout {
  /** Context per question: the full detail, a shortened one, or nothing. */
  detail: (index: number) => string | undefined;
  descriptions: boolean;
}

/**
 * Any batch of questions as readable, numbered plain text for a channel without a UI (a chat
 * message, an email, a terminal, a log): context, questions, numbered options with descriptions
 * and Recommended marks, required marks, input hints, and how to reply. Within `budget`, never cut
 * mid-word: parts are left out whole, and the text says what was left out.
 */
export function renderText(source: AskUserQuestionRequest | readonly AskUserQuestionItem[], options: RenderTextOptions = {}): string {
  const questions = isQuestionList(source) ? source : source.questions;
  const urgency = isQuestionList(source) ? undefined : source.urgency;
  const lang = options.lang ?? detectLang(questions);
  const budget = options.budget ?? defaultTextBudget;
  const messages = textMessages[lang];
  // An approval has its own text: the tool, what it does and its arguments (approval.ts).
  const approval = renderApprovalText(questions, urgency, { budget, lang, votes: options.votes });
  if (approval !== undefined) return approval;
  const render = (layout: Layout, cut: string[]) => compose(questions, urgency, messages, layout, cut);

  const full = render({ detail: (i) => questions[i]?.detail, descriptions: true }, []);
  if (full.length <= budget) return full;

  const withDetails = questions.flatMap((question, index) => (question.detail ? [index] : []));
  const contextNote = withDetails.length > 0 ? [messages.cutContext(questionList(withDetails, questions.length, lang))] : [];

  // 1. Shorten every context to an equal share of what is left, at a paragraph, line or sentence end.
  if (withDetails.length > 0) {
    const bare = render({ detail: () => undefined, descriptions: true }, contextNote);
    const share = Math.floor((budget - bare.length) / withDetails.length) - 8;
    if (share >= minContextShare) {
      const shortened = render({ detail: (i) => shorten(questions[i]?.detail, share), descriptions: true }, contextNote);
      if (shortened.length <= budget) return shortened;
    }
    // 2. Leave the context out.
    const noContext = render({ detail: () => undefined, descriptions: true }, contextNote);
    if (noContext.length <= budget) return noContext;
  }
  // 3. Leave the option descriptions out as well.
  const cut = [...contextNote, messages.cutDescriptions];
  const essential = render({ detail: () => undefined, descriptions: false }, cut);
  if (essential.length <= budget) return essential;
  // 4. Still too long: keep the leading lines that fit and how to reply, and say how many were left out.
  const lines = essential.split('\n').slice(0, -1);
  const reply = lines.pop() ?? '';
  return keepLeadingLines(lines, reply, budget, (dropped) => messages.cut([...cut, messages.cutLines(dropped)]));
}

function isQuestionList(source: AskUserQuestionRequest | readonly AskUserQuestionItem[]): source is readonly AskUserQuestionItem[] {
  return Array.isArray(source);
}

function compose(
  questions: readonly AskUserQuestionItem[],
  urgency: AskUserQuestionUrgency | undefined,
  messages: TextMessages,
  layout: Layout,
  cut: string[],
): string {
  const lines: string[] = [];
  const mark = urgency === undefined ? undefined : messages.urgency[urgency];
  if (mark) lines.push(mark);
  const single = questions.length === 1;
  if (!single) lines.push(messages.intro(questions.length), '');
  questions.forEach((question, index) => {
    lines.push(...questionLines(question, index, { single, messages, layout }));
    lines.push('');
  });
  const skippable = questions.some((question) => question.required !== true);
  lines.push(single ? messages.replyOne(skippable) : messages.replyMany('1', '2', skippable));
  if (cut.length > 0) lines.push(messages.cut(cut));
  return lines.join('\n');
}

function questionLines(
  question: AskUserQuestionItem,
  index: number,
  { single, messages, layout }: { single: boolean; messages: TextMessages; layout: Layout },
): string[] {
  // In a batch each question is numbered and its body indented under it; alone it stands flush.
  const indent = single ? '' : '   ';
  const number = single ? '' : `${index + 1}. `;
  const header = question.header ? `[${question.header}] ` : '';
  const marks = [question.required === true ? messages.required : '', isMultiSelect(question) ? messages.multiple : ''].filter(Boolean);
  const lines = [`${number}${header}${question.question}${marks.map((mark) => messages.markGap + mark).join('')}`];

  const detail = layout.detail(index);
  if (detail) {
    lines.push(`${indent}${messages.context}`);
    for (const line of detail.split('\n')) lines.push(line === '' ? '' : `${indent}${line}`);
  }
  (question.options ?? []).forEach((option, i) => {
    const { label, recommended } = splitRecommended(option.label);
    const shown = recommended ? messages.recommended(label.trimEnd()) : label;
    const description = layout.descriptions && option.description ? ` — ${option.description}` : '';
    lines.push(`${indent}${single ? `${i + 1}.` : `${i + 1})`} ${shown}${description}`);
  });
  const hint = hintOf(question, messages);
  const example = question.placeholder ? ` ${messages.example(question.placeholder)}` : '';
  lines.push(`${indent}${hint}${example}`);
  return lines;
}

function hintOf(question: AskUserQuestionItem, messages: TextMessages): string {
  const input = question.input;
  switch (input?.kind) {
    case 'text':
      return messages.hintText(input.maxLength);
    case 'textarea':
      return messages.hintTextarea(input.maxLength);
    case 'number':
      return messages.hintNumber(messages.range(input.min, input.max), input.step);
    case 'date':
      return messages.hintDate(messages.dateRange(input.min, input.max));
    case 'checkbox':
      return messages.hintCheckbox;
    default:
      if (!question.options?.length) return messages.hintFree;
      return isMultiSelect(question) ? messages.hintMultiple : messages.hintSingle;
  }
}

/** "questions 1 and 3" / "第 1、3 题"; for a single question, "the question" in its own words. */
function questionList(indexes: number[], total: number, lang: TextLang): string {
  const numbers = indexes.map((i) => i + 1);
  if (lang === 'zh') return total === 1 ? '问题' : `第 ${numbers.join('、')} 题`;
  if (total === 1) return 'the question';
  if (numbers.length === 1) return `question ${numbers[0]}`;
  return `questions ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/**
 * `text` cut to at most `max` characters at the last paragraph, line, sentence or word end that
 * keeps at least a third of it, with an ellipsis; never inside a word.
 */
export function shorten(text: string | undefined, max: number): string | undefined {
  if (text === undefined || text.length <= max) return text;
  const room = text.slice(0, Math.max(0, max - 2));
  const floor = Math.floor(room.length / 3);
  // The room may end exactly at a word's end; then that is the last word boundary.
  const wordEnd = /\s/.test(text[room.length] ?? '') ? room.length : room.lastIndexOf(' ');
  const ends = [room.lastIndexOf('\n\n'), room.lastIndexOf('\n'), lastSentenceEnd(room), wordEnd];
  const end = ends.find((position) => position >= floor);
  if (end === undefined) return undefined;
  return `${room.slice(0, end + 1).trimEnd()} …`;
}

function lastSentenceEnd(text: string): number {
  let last = -1;
  for (const match of text.matchAll(/[.!?](?=\s)|[。！？]/g)) last = match.index;
  return last;
}

function keepLeadingLines(lines: string[], reply: string, budget: number, note: (dropped: number) => string): string {
  for (let keep = lines.length - 1; keep > 0; keep--) {
    const kept = lines.slice(0, keep);
    while (kept.at(-1) === '') kept.pop();
    const text = [...kept, '', reply, note(lines.length - keep)].join('\n');
    if (text.length <= budget) return text;
  }
  // Not even the note fits: the first whole words that do, and nothing else.
  const first = shorten(lines[0] ?? '', budget) ?? '';
  return first.length <= budget ? first : '';
}
