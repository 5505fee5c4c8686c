import type { AskUserQuestionUrgency } from '@askseam/user-questions';
import type { TextLang } from './lang.js';

/** Every sentence the text channel writes, in each language. One table, so both stay in step. */
export interface TextMessages {
  // Rendering
  urgency: Record<AskUserQuestionUrgency, string | undefined>;
  intro(count: number): string;
  required: string;
  multiple: string;
  /** Between the question and its marks: a space in English, nothing before full-width brackets. */
  markGap: string;
  /** The label with its Recommended mark, written the way this language writes it. */
  recommended(label: string): string;
  context: string;
  example(placeholder: string): string;
  hintText(maxLength: number | undefined): string;
  hintTextarea(maxLength: number | undefined): string;
  hintNumber(range: string, step: number | undefined): string;
  hintDate(range: string): string;
  hintCheckbox: string;
  hintSingle: string;
  hintMultiple: string;
  hintFree: string;
  range(min: number | undefined, max: number | undefined): string;
  dateRange(min: string | undefined, max: string | undefined): string;
  replyOne(skippable: boolean): string;
  replyMany(firstKey: string, secondKey: string, skippable: boolean): string;
  cut(parts: string[]): string;
  cutContext(questions: string): string;
  cutDescriptions: string;
  cutLines(lines: number): string;
  // Reading a reply
  /** A problem sentence about one question: "Question 2 is required; …". */
  at(number: number, problem: string): string;
  /** The same when the question is the only one: "This question is required; …". */
  atOnly(problem: string): string;
  problemUnplaced(line: string): string;
  problemLineCount(lines: number, questions: number): string;
  problemTwice: string;
  problemRequired: string;
  problemNoOption(value: string, count: number): string;
  problemAmbiguous(value: string, numbers: number[]): string;
  problemOnlyOne: string;
  problemNumber(value: string): string;
  problemNumberRange(value: string, range: string): string;
  problemNumberStep(value: string, step: number, from: number): string;
  problemDate(value: string): string;
  problemDateRange(value: string, range: string): string;
  problemYesNo(value: string): string;
  problemOneLine: string;
  problemTooLong(length: number, maxLength: number): string;
}

const quote = (text: string) => {
  const points = [...text];
  return points.length > 40 ? `${points.slice(0, 40).join('')}…` : text;
};

const en: TextMessages = {
  urgency: { high: '[Urgent]', medium: undefined, low: '[No rush]' },
  intro: (count) => `Please answer these ${count} questions.`,
  required: '(required)',
  multiple: '(multiple allowed)',
  markGap: ' ',
  recommended: (label) => `${label} (Recommended)`,
  context: 'Context:',
  example: (placeholder) => `For example: ${placeholder}`,
  hintText: (maxLength) => `Answer with one line of text${maxLength === undefined ? '' : `, at most ${maxLength} characters`}.`,
  hintTextarea: (maxLength) => `Answer with text; several lines are fine${maxLength === undefined ? '' : `, at most ${maxLength} characters`}.`,
  hintNumber: (range, step) => `Answer with a number${range}${step === undefined ? '' : `, in steps of ${step}`}.`,
  hintDate: (range) => `Answer with a date, YYYY-MM-DD${range}.`,
  hintCheckbox: 'Answer yes or no.',
  hintSingle: 'Pick one by number or label, or write your own answer.',
  hintMultiple: 'Pick any by number or label (like "1, 3"), and add your own words if you like.',
  hintFree: 'Answer in your own words.',
  range: (min, max) => (min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : max !== undefined ? ` of at most ${max}` : ''),
  dateRange: (min, max) => (min !== undefined && max !== undefined ? `, from ${min} to ${max}` : min !== undefined ? `, on or after ${min}` : max !== undefined ? `, on or before ${max}` : ''),
  replyOne: (skippable) => `Reply with your answer${skippable ? ', or "skip" to leave it open' : ''}.`,
  replyMany: (first, second, skippable) =>
    `Reply with one line per question, like "${first}: …" and "${second}: …" (or on one line: "${first}: …; ${second}: …").` +
    (skippable ? ' Leave out a question, or write "skip", to leave it open.' : ''),
  cut: (parts) => `(Shortened to fit: ${parts.join('; ')}.)`,
  cutContext: (questions) => `context of ${questions} left out or shortened`,
  cutDescriptions: 'option descriptions left out',
  cutLines: (lines) => `the last ${lines} line${lines === 1 ? '' : 's'} left out`,
  at: (number, problem) => `Question ${number} ${problem}`,
  atOnly: (problem) => `This question ${problem}`,
  problemUnplaced: (line) => `Could not tell which question "${quote(line)}" answers; start the line with the question's number, like "1: …".`,
  problemLineCount: (lines, questions) => `Got ${lines} line${lines === 1 ? '' : 's'} for ${questions} questions; reply with one line per question, like "1: …".`,
  problemTwice: 'is answered twice; keep one answer.',
  problemRequired: 'is required; please answer it.',
  problemNoOption: (value, count) => `has no option ${quote(value)}; pick a number from 1 to ${count}.`,
  problemAmbiguous: (value, numbers) => `has several options that read "${quote(value)}" (${numbers.join(', ')}); reply with the number.`,
  problemOnlyOne: 'takes one choice only; pick one.',
  problemNumber: (value) => `needs a number, like 42 or 3.5, not "${quote(value)}".`,
  problemNumberRange: (value, range) => `needs a number${range}; ${quote(value)} is outside.`,
  problemNumberStep: (value, step, from) => `needs a number in steps of ${step} from ${from}; ${quote(value)} is between steps.`,
  problemDate: (value) => `needs a date written YYYY-MM-DD, not "${quote(value)}".`,
  problemDateRange: (value, range) => `needs a date${range}; ${quote(value)} is outside.`,
  problemYesNo: (value) => `needs yes or no, not "${quote(value)}".`,
  problemOneLine: 'needs a single line of text.',
  problemTooLong: (length, maxLength) => `allows at most ${maxLength} characters; the answer has ${length}.`,
};

const zh: TextMessages = {
  urgency: { high: '【紧急】', medium: undefined, low: '【不急】' },
  intro: (count) => `请回答以下 ${count} 个问题。`,
  required: '（必填）',
  multiple: '（可多选）',
  markGap: '',
  recommended: (label) => `${label}（推荐）`,
  context: '背景：',
  example: (placeholder) => `例如：${placeholder}`,
  hintText: (maxLength) => `请填写一行文字${maxLength === undefined ? '' : `，不超过 ${maxLength} 个字`}。`,
  hintTextarea: (maxLength) => `请填写文字，可以多行${maxLength === undefined ? '' : `，不超过 ${maxLength} 个字`}。`,
  hintNumber: (range, step) => `请填写数字${range}${step === undefined ? '' : `，步长 ${step}`}。`,
  hintDate: (range) => `请填写日期，格式 YYYY-MM-DD${range}。`,
  hintCheckbox: '请回答“是”或“否”。',
  hintSingle: '请回复选项编号或名称，也可以写自己的答案。',
  hintMultiple: '可选多个，回复编号或名称（如“1, 3”），也可以补充自己的答案。',
  hintFree: '请用自己的话回答。',
  range: (min, max) => (min !== undefined && max !== undefined ? `，范围 ${min} 到 ${max}` : min !== undefined ? `，不小于 ${min}` : max !== undefined ? `，不大于 ${max}` : ''),
  dateRange: (min, max) => (min !== undefined && max !== undefined ? `，范围 ${min} 至 ${max}` : min !== undefined ? `，不早于 ${min}` : max !== undefined ? `，不晚于 ${max}` : ''),
  replyOne: (skippable) => `请直接回复答案${skippable ? '；回复“跳过”可暂不回答' : ''}。`,
  replyMany: (first, second, skippable) =>
    `请每行回答一个问题，如“${first}: …”和“${second}: …”（也可写在一行：“${first}: …; ${second}: …”）。` +
    (skippable ? '不想回答的问题可以不写或写“跳过”。' : ''),
  cut: (parts) => `（为适应长度已省略：${parts.join('；')}。）`,
  cutContext: (questions) => `${questions}的背景说明（删去或缩短）`,
  cutDescriptions: '选项说明',
  cutLines: (lines) => `最后 ${lines} 行`,
  at: (number, problem) => `第 ${number} 题${problem}`,
  atOnly: (problem) => `本题${problem}`,
  problemUnplaced: (line) => `看不出“${quote(line)}”回答的是哪个问题；请在行首写上题号，如“1: …”。`,
  problemLineCount: (lines, questions) => `共 ${questions} 个问题，但回复有 ${lines} 行；请每行回答一个问题，如“1: …”。`,
  problemTwice: '回答了两次，请只保留一个答案。',
  problemRequired: '是必填项，请回答。',
  problemNoOption: (value, count) => `没有选项 ${quote(value)}；请回复 1 到 ${count} 之间的编号。`,
  problemAmbiguous: (value, numbers) => `有多个选项都像“${quote(value)}”（${numbers.join('、')}），请回复编号。`,
  problemOnlyOne: '只能选一项，请选一个。',
  problemNumber: (value) => `需要一个数字（如 42 或 3.5），而不是“${quote(value)}”。`,
  problemNumberRange: (value, range) => `需要一个数字${range}；${quote(value)} 超出范围。`,
  problemNumberStep: (value, step, from) => `需要从 ${from} 起、步长为 ${step} 的数字；${quote(value)} 不在步长上。`,
  problemDate: (value) => `需要 YYYY-MM-DD 格式的日期，而不是“${quote(value)}”。`,
  problemDateRange: (value, range) => `需要日期${range}；${quote(value)} 超出范围。`,
  problemYesNo: (value) => `需要回答“是”或“否”，而不是“${quote(value)}”。`,
  problemOneLine: '只能填写一行文字。',
  problemTooLong: (length, maxLength) => `最多 ${maxLength} 个字，当前有 ${length} 个。`,
};

export const textMessages: Readonly<Record<TextLang, TextMessages>> = { en, zh };
