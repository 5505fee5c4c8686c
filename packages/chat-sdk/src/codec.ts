import { randomBytes } from 'node:crypto';
import * as z from 'zod';

// What a control on a card carries back. A platform's callback data is small (Telegram: 64 bytes
// for the action id and value together), too small for an rpcId, so a control names its card by
// a short key that durable state maps to the rpcId (state.ts), and then what was pressed.

/** Every askseam action id starts with this, so the bot's other cards are left to their handlers. */
export const actionPrefix = 'askseam';

/**
 * o: choose option `option` of question `question` (answers at once)
 * s: submit the card's checkboxes (Slack)
 * m: open the form for question `question` (or every question: -1)
 * r: open the deny-reason form of a tool approval
 */
export type ControlVerb = 'o' | 's' | 'm' | 'r';

export interface ControlValue {
  key: string;
  verb: ControlVerb;
  question: number;
  option: number;
}

const keyPattern = /^[a-z0-9]{10}$/;
const valueSchema = z.string().regex(/^[a-z0-9]{10}\.[osmr]\.-?\d{1,3}\.-?\d{1,3}$/);

/** A fresh card key: 10 lowercase letters and digits (about 51 bits). */
export function newCardKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(10), (byte) => alphabet[byte % alphabet.length]).join('');
}

export function isCardKey(value: unknown): value is string {
  return typeof value === 'string' && keyPattern.test(value);
}

export function encodeControl(value: ControlValue): string {
  return `${value.key}.${value.verb}.${value.question}.${value.option}`;
}

/** Checkbox groups: ticking one sends nothing askseam acts on; Submit reads them all (Slack). */
export const checkboxActionPrefix = `${actionPrefix}.c.`;

/** A unique action id per control of a card (Slack wants them unique within a message). */
export function controlActionId(value: Omit<ControlValue, 'key'>): string {
  return `${actionPrefix}.${value.verb}.${value.question}.${value.option}`;
}

/** The control a click carried, or `undefined` for anything that is not one of ours. */
export function decodeControl(raw: unknown): ControlValue | undefined {
  const parsed = valueSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const [key, verb, question, option] = parsed.data.split('.');
  return { key: key!, verb: verb as ControlVerb, question: Number(question), option: Number(option) };
}
