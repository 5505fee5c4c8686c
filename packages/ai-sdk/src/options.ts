import { AiSdkError } from './errors.js';

// Wiring mistakes are found when the tool or the approval is built, not in the middle of a run:
// inside the loop everything becomes a result the model can read.

/** Throws `INVALID_OPTIONS` unless `options` is an object. */
export function requireOptions(factory: string, options: unknown): asserts options is Record<string, unknown> {
  if (typeof options !== 'object' || options === null) {
    throw new AiSdkError('INVALID_OPTIONS', `${factory} needs an options object, e.g. ${factory}({ userQuestions, agent }); it got ${describe(options)}.`);
  }
}

/** Throws `INVALID_OPTIONS` unless `userQuestions` is a seam (something with `ask`). */
export function requireSeam(factory: string, userQuestions: unknown): void {
  if (typeof (userQuestions as { ask?: unknown } | undefined)?.ask !== 'function') {
    throw new AiSdkError('INVALID_OPTIONS', `${factory}: userQuestions must be the UserQuestions seam (an object with ask()); it is ${describe(userQuestions)}.`);
  }
}

/** Throws `INVALID_OPTIONS` when `timeoutMs` is given and is not a positive, finite number of milliseconds. */
export function checkTimeout(factory: string, timeoutMs: unknown): void {
  if (timeoutMs === undefined) return;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new AiSdkError('INVALID_OPTIONS', `${factory}: timeoutMs must be a positive number of milliseconds or left out; it is ${describe(timeoutMs)}.`);
  }
}

/** Throws `INVALID_OPTIONS` when `signal` is given and is not an AbortSignal. */
export function checkSignal(factory: string, signal: unknown): void {
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new AiSdkError('INVALID_OPTIONS', `${factory}: signal must be an AbortSignal or left out; it is ${describe(signal)}.`);
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}
