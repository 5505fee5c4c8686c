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

/** Read a frame a client sent. Never throws. */
export function parseClientFrame(data: FrameData): Parsed<ClientFrame> {
  return parseWith(clientFrameSchemas, data) as Parsed<ClientFrame>;
}

/** Read a frame a server sent. Never throws. */
export function parseServerFrame(data: FrameData): Parsed<ServerFrame> {
  return parseWith(serverFrameSchemas, data) as Parsed<ServerFrame>;
}

/** Read a frame travelling in `direction`. Never throws: every failure is a typed error result. */
export function parseFrame(data: FrameData, direction: 'from-client'): Parsed<ClientFrame>;
export function parseFrame(data: FrameData, direction: 'from-server'): Parsed<ServerFrame>;
export function parseFrame(data: FrameData, direction: 'from-client' | 'from-server'): Parsed<ClientFrame | ServerFrame> {
  return direction === 'from-client' ? parseClientFrame(data) : parseServerFrame(data);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseWith(schemas: Readonly<Record<string, z.ZodType>>, data: FrameData): Parsed<unknown> {
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
  const schema = typeof type === 'string' && Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (schema === undefined) {
    return fail('unknown-type', typeof type === 'string' ? `Unknown frame type "${type.slice(0, 64)}".` : 'The frame has no string "type".');
  }
  const parsed = schema.safeParse(json);
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
