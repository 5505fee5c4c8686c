import { quorumMaxApprovals, type AskUserQuestionItem, type ToolApprovalIntent } from './schemas.js';

// Gate 6: an intent only changes how a question looks, so it must agree with the question it is on.
// Checked here, once, for the seam's `ask` and for every caller that asks without it (a host's
// detached asks), so the rules and their words cannot drift apart.

/** The most JSON text (UTF-8 bytes of `JSON.stringify`) a tool-approval intent's `tool.input` may be: 64 KiB. */
export const toolApprovalInputMaxBytes = 65_536;

/** The deepest nesting of arrays and objects allowed in `tool.input` (deeper input is refused, not walked). */
export const toolApprovalInputMaxDepth = 100;

/**
 * Gate 6 for a whole batch, in question order: the first problem, or the batch with every
 * tool-approval intent's `tool.input` replaced by a plain-JSON copy of what was checked (so the
 * batch the seam then freezes holds nothing the caller can still change or that is not JSON).
 * `questions` must already have passed the batch check (gate 3); it is updated in place.
 */
export function checkQuestionIntents(questions: AskUserQuestionItem[]): { ok: true; questions: AskUserQuestionItem[] } | { ok: false; problem: string } {
  const copies: { intent: ToolApprovalIntent; input: unknown }[] = [];
  for (const question of questions) {
    const checked = checkIntent(question);
    if (!checked.ok) return checked;
    if (checked.input !== undefined) copies.push(checked.input);
  }
  // Only after every question passed: a refused batch is left exactly as it came.
  for (const { intent, input } of copies) intent.tool = { ...intent.tool, input };
  return { ok: true, questions };
}

type IntentCheck = { ok: true; input?: { intent: ToolApprovalIntent; input: unknown } } | { ok: false; problem: string };

function checkIntent(question: AskUserQuestionItem): IntentCheck {
  const intent = question.intent;
  if (intent === undefined) return { ok: true };
  const { id } = question;
  if (!question.options?.some((option) => option.label === intent.approve)) {
    return fault(`Question "${id}" has intent ${intent.kind} approving "${intent.approve}", which is not one of its option labels.`);
  }
  switch (intent.kind) {
    case 'plan-review':
      if (question.detail === undefined) return fault(`Question "${id}" has intent plan-review but no detail to review; pass the reviewed text as detail.`);
      return { ok: true };
    case 'tool-approval': {
      // No detail is required: the intent itself carries what is reviewed (the tool and its input).
      if (intent.tool.name.trim() === '') return fault(`Question "${id}" has intent tool-approval with a blank tool.name; name the tool whose call needs approval.`);
      const copied = copyJson(intent.tool.input);
      if (!copied.ok) {
        return fault(
          `Question "${id}" has intent tool-approval whose ${copied.where} is ${copied.what}; tool.input must be plain JSON ` +
            '(objects, arrays, strings, finite numbers, true, false, null), so pass the arguments as the model sent them.',
        );
      }
      const bytes = utf8Length(JSON.stringify(copied.value));
      if (bytes > toolApprovalInputMaxBytes) {
        return fault(
          `Question "${id}" has intent tool-approval whose tool.input is ${bytes} bytes of JSON, over the limit of ` +
            `${toolApprovalInputMaxBytes} bytes (64 KiB); pass a shorter input, for example with long values cut or summarised.`,
        );
      }
      const quorum = quorumProblem(id, intent);
      if (quorum !== undefined) return fault(quorum);
      return { ok: true, input: { intent, input: copied.value } };
    }
  }
}

/**
 * What is wrong with a tool-approval intent's quorum: too many approvals, an empty `from`, an
 * answerer that is not exactly one of principal / group / channel, or a quorum that can never be
 * reached (`from` names only principals, fewer of them than the approvals it needs).
 */
function quorumProblem(id: string, intent: ToolApprovalIntent): string | undefined {
  const quorum = intent.quorum;
  if (quorum === undefined) return undefined;
  if (quorum.approvals > quorumMaxApprovals) return `Question "${id}" has intent tool-approval needing ${quorum.approvals} approvals; a quorum needs at most ${quorumMaxApprovals}.`;
  const from = quorum.from;
  if (from === undefined) return undefined;
  if (from.length === 0) return `Question "${id}" has intent tool-approval whose quorum.from is empty, so nobody could approve; name who may, or leave from out.`;
  const bad = from.findIndex((answerer) => Object.values(answerer).filter((value) => typeof value === 'string' && value.trim() !== '').length !== 1 || Object.keys(answerer).length !== 1);
  if (bad !== -1) return `Question "${id}" has intent tool-approval whose quorum.from[${bad}] must be exactly one of { principal }, { group } or { channel }, not blank.`;
  if (!from.every((answerer) => answerer.principal !== undefined)) return undefined;
  const people = new Set(from.map((answerer) => answerer.principal)).size;
  if (people >= quorum.approvals) return undefined;
  return `Question "${id}" has intent tool-approval needing ${quorum.approvals} approvals from only ${people} named principal${people === 1 ? '' : 's'}; name more principals (or a group) in quorum.from, or ask for fewer approvals.`;
}

function fault(problem: string): { ok: false; problem: string } {
  return { ok: false, problem };
}

type Copied = { ok: true; value: unknown } | { ok: false; where: string; what: string };

/** A fresh plain-JSON copy of `value`, or where (`tool.input.a[0]`) and what the first non-JSON part is. */
function copyJson(value: unknown): Copied {
  const ancestors: object[] = [];
  const walk = (node: unknown, where: string): Copied => {
    switch (typeof node) {
      case 'string':
      case 'boolean':
        return { ok: true, value: node };
      case 'number':
        return Number.isFinite(node) ? { ok: true, value: node } : { ok: false, where, what: `the non-finite number ${String(node)}` };
      case 'undefined':
        return { ok: false, where, what: 'undefined' };
      case 'bigint':
        return { ok: false, where, what: 'a bigint' };
      case 'symbol':
        return { ok: false, where, what: 'a symbol' };
      case 'function':
        return { ok: false, where, what: 'a function' };
    }
    if (node === null) return { ok: true, value: null };
    const object = node as object;
    if (ancestors.includes(object)) return { ok: false, where, what: 'a cycle (a value that contains itself)' };
    if (ancestors.length >= toolApprovalInputMaxDepth) return { ok: false, where, what: `nested deeper than ${toolApprovalInputMaxDepth} levels` };
    if (Array.isArray(object)) {
      ancestors.push(object);
      const items: unknown[] = [];
      for (let index = 0; index < object.length; index += 1) {
        // A hole in a sparse array has no JSON form (JSON.stringify would invent a null).
        if (!(index in object)) return { ok: false, where: `${where}[${index}]`, what: 'a hole in a sparse array' };
        const item = walk(object[index], `${where}[${index}]`);
        if (!item.ok) return item;
        items.push(item.value);
      }
      ancestors.pop();
      return { ok: true, value: items };
    }
    if (!isPlainObject(object)) return { ok: false, where, what: `an instance of ${className(object)}, not a plain object` };
    if (Object.getOwnPropertySymbols(object).length > 0) return { ok: false, where, what: 'an object with symbol keys' };
    ancestors.push(object);
    const entries: [string, unknown][] = [];
    for (const key of Object.keys(object)) {
      const entry = walk((object as Record<string, unknown>)[key], `${where}${memberPath(key)}`);
      if (!entry.ok) return entry;
      entries.push([key, entry.value]);
    }
    ancestors.pop();
    // fromEntries defines each key as an own property: a key named "__proto__" stays data, never a prototype.
    return { ok: true, value: Object.fromEntries(entries) };
  };
  return walk(value, 'tool.input');
}

/** An object literal or `Object.create(null)`, from this realm or another (an iframe, a vm context). */
function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === null) return true;
  return Object.getPrototypeOf(prototype) === null && Object.prototype.toString.call(value) === '[object Object]' && (prototype as { constructor?: { name?: unknown } }).constructor?.name === 'Object';
}

function className(value: object): string {
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'a class';
}

function memberPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** UTF-8 length without TextEncoder's copy of the whole text (this package also runs in browsers). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}
