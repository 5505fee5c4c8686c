import type { AskUserQuestionInput, AskUserQuestionInputKind, AskUserQuestionItem } from './schemas.js';

// How each input kind is answered. The answer shape never changes ({ id, selected, custom? }):
//   text, textarea  custom is the text (text: one line); maxLength counts Unicode code points
//   number          custom is a plain decimal: -?digits(.digits)?  (no "+", exponent, hex, spaces),
//                   at most maxNumberAnswerLength characters
//   date            custom is a real calendar day YYYY-MM-DD, years 0001-9999
//   checkbox        custom is exactly "true" (checked) or "false" (unchecked); nothing selected
//   select          one option, or custom instead (as a single-select question)
//   multi_select    any options, custom may stand beside them (as multiSelect: true)
// A skip ({ id, selected: [] }) is allowed for every kind unless the question is `required`.

/** Every input kind, in the order forms usually list them. */
export const askUserQuestionInputKinds = ['text', 'textarea', 'number', 'select', 'multi_select', 'checkbox', 'date'] as const satisfies readonly AskUserQuestionInputKind[];

/** The two `custom` values a checkbox answer may carry. Unchecked is an answer, not a skip. */
export const checkboxAnswerValues = { checked: 'true', unchecked: 'false' } as const;

/** Whether the question takes several options: `multiSelect: true`, or an input of kind `multi_select`. */
export function isMultiSelect(question: Pick<AskUserQuestionItem, 'multiSelect' | 'input'>): boolean {
  return question.multiSelect === true || question.input?.kind === 'multi_select';
}

/** Kinds answered by custom text alone; options make no sense on them. */
const valueKinds: ReadonlySet<AskUserQuestionInputKind> = new Set(['text', 'textarea', 'number', 'date', 'checkbox']);

/** True for the kinds whose answer is a typed value in `custom` rather than a choice of options. */
export function isValueInput(input: AskUserQuestionInput | undefined): boolean {
  return input !== undefined && valueKinds.has(input.kind);
}

/** A decimal as an exact integer scaled by 10^-scale: 12.50 is { units: 1250n, scale: 2 }. */
interface Decimal {
  units: bigint;
  scale: number;
}

const plainDecimal = /^(-?)(\d+)(?:\.(\d+))?$/;

/** The exact value of a plain decimal answer, or undefined when the text is not one. */
export function parseDecimalAnswer(text: string): Decimal | undefined {
  const match = plainDecimal.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  return { units: BigInt(`${sign}${whole}${fraction}`), scale: fraction.length };
}

// JavaScript prints some finite numbers with an exponent (1e+21, 1e-7); read that form too, exactly.
const numberText = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** The exact decimal a finite JS number prints as (its shortest round-trip form, as written by a person). */
function decimalOfNumber(value: number): Decimal {
  const match = numberText.exec(String(value));
  if (!match) throw new RangeError(`Not a finite number: ${value}`);
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  const digits = BigInt(`${sign}${whole}${fraction}`);
  const scale = fraction.length - exponent;
  return scale >= 0 ? { units: digits, scale } : { units: digits * 10n ** BigInt(-scale), scale: 0 };
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

function compareDecimals(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = rescale(a, scale);
  const right = rescale(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The longest number answer, in characters (sign, digits and point). Every finite JavaScript
 * number written out without an exponent fits (the longest, -5e-324, takes 327 characters), so
 * whatever a browser's number input holds can be sent; yet it keeps the exact decimal maths below
 * cheap: that maths costs more than linearly in the length, and a megabyte of digits would hold
 * the event loop for a quarter of a second.
 */
export const maxNumberAnswerLength = 400;

/** What is wrong with `text` as the answer to a number input, or undefined when it fits. */
export function numberAnswerProblem(
  input: { min?: number | undefined; max?: number | undefined; step?: number | undefined },
  text: string,
): 'too-long' | 'not-a-number' | 'out-of-range' | 'off-step' | undefined {
  // First, before any parsing: the length alone decides, whatever the text holds.
  if (text.length > maxNumberAnswerLength) return 'too-long';
  const value = parseDecimalAnswer(text);
  if (value === undefined) return 'not-a-number';
  if (input.min !== undefined && compareDecimals(value, decimalOfNumber(input.min)) < 0) return 'out-of-range';
  if (input.max !== undefined && compareDecimals(value, decimalOfNumber(input.max)) > 0) return 'out-of-range';
  // The schemas only let a positive step through; a step of 0 or less (from questions that were
  // never checked) constrains nothing, and must not reach the modulo below (0n would throw).
  if (input.step !== undefined && input.step > 0) {
    const base = decimalOfNumber(input.min ?? 0);
    const step = decimalOfNumber(input.step);
    const scale = Math.max(value.scale, base.scale, step.scale);
    // Exact: 0.3 is a multiple of 0.1 here, which floating point would deny.
    if ((rescale(value, scale) - rescale(base, scale)) % rescale(step, scale) !== 0n) return 'off-step';
  }
  return undefined;
}

const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (proleptic Gregorian, years 0001-9999). */
export function isCalendarDate(text: string): boolean {
  const match = isoDay.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** What is wrong with `text` as the answer to a date input, or undefined when it fits. */
export function dateAnswerProblem(input: { min?: string | undefined; max?: string | undefined }, text: string): 'not-a-date' | 'out-of-range' | undefined {
  if (!isCalendarDate(text)) return 'not-a-date';
  // Fixed-width YYYY-MM-DD compares correctly as plain strings.
  if (input.min !== undefined && text < input.min) return 'out-of-range';
  if (input.max !== undefined && text > input.max) return 'out-of-range';
  return undefined;
}

/** The length a person sees: code points, so an emoji counts once rather than as two UTF-16 units. */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
