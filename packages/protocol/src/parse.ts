import { compiledSafeParse, type SafeParse } from '@askseam/user-questions';
import type { z } from 'zod';
import {
  clientFrameSchemas,
  serverFrameSchemas,
  type ClientFrame,
  type FrameErrorCode,
  type ServerFrame,
} from './frames.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: { code: FrameErrorCode; message: string } };

/** What a WebSocket message can carry: text, or bytes that ought to be UTF-8 JSON text. */
export type FrameData = string | ArrayBuffer | ArrayBufferView;

// Every frame is read on the hot path: compiled parsers give the schemas' answers, faster.
const clientFrameParsers = compiledParsers(clientFrameSchemas);
const serverFrameParsers = compiledParsers(serverFrameSchemas);

/** Read a frame a client sent. Never throws. */
export function parseClientFrame(data: FrameData): Parsed<ClientFrame> {
  return parseWith(clientFrameParsers, data) as Parsed<ClientFrame>;
}

/** Read a frame a server sent. Never throws. */
export function parseServerFrame(data: FrameData): Parsed<ServerFrame> {
  return parseWith(serverFrameParsers, data) as Parsed<ServerFrame>;
}

/** Read a frame travelling in `direction`. Never throws: every failure is a typed error result. */
export function parseFrame(data: FrameData, direction: 'from-client'): Parsed<ClientFrame>;
export function parseFrame(data: FrameData, direction: 'from-server'): Parsed<ServerFrame>;
export function parseFrame(data: FrameData, direction: 'from-client' | 'from-server'): Parsed<ClientFrame | ServerFrame> {
  return direction === 'from-client' ? parseClientFrame(data) : parseServerFrame(data);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function compiledParsers(schemas: Readonly<Record<string, z.ZodType>>): Readonly<Record<string, SafeParse<unknown>>> {
  return Object.fromEntries(Object.entries(schemas).map(([type, schema]) => [type, compiledSafeParse(schema)]));
}

function parseWith(parsers: Readonly<Record<string, SafeParse<unknown>>>, data: FrameData): Parsed<unknown> {
  let text: string;
  try {
    text = typeof data === 'string' ? data : utf8.decode(data);
  } catch {
    return fail('malformed-json', 'The frame is not valid UTF-8 text.');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail('malformed-json', 'The frame is not valid JSON.');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail('invalid-frame', 'A frame must be a JSON object with a "type".');
  }
  const type = (json as { type?: unknown }).type;
  // Own-property lookup only: a "type" of "constructor" or "__proto__" is just unknown.
  const parse = typeof type === 'string' && Object.hasOwn(parsers, type) ? parsers[type] : undefined;
  if (parse === undefined) {
    return fail('unknown-type', typeof type === 'string' ? `Unknown frame type "${type.slice(0, 64)}".` : 'The frame has no string "type".');
  }
  const parsed = parse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return fail('invalid-frame', `Invalid "${type}" frame${where}: ${issue?.message ?? 'does not match its schema'}.`);
  }
  return { ok: true, value: parsed.data };
}

function fail(code: FrameErrorCode, message: string): Parsed<never> {
  return { ok: false, error: { code, message } };
}
