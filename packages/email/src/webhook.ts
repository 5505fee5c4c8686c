import { timingSafeEqual } from 'node:crypto';
import type { EmailChannel } from './channel.js';
import { EmailChannelError } from './errors.js';
import type { InboundEnvelope } from './options.js';

export interface EmailWebhookOptions {
  /** A shared secret the inbound service sends as `Authorization: Bearer <token>` or `?token=<token>`. Strongly advised. */
  token?: string;
  /** The largest request body read, in bytes. Default 10 MiB. */
  maxBytes?: number;
}

/** A Web-standard handler: `(request: Request) => Promise<Response>` (Node, Hono, Next.js route handlers, workers). */
export type EmailWebhookHandler = (request: Request) => Promise<Response>;

/**
 * The webhook inbound-mail services POST each message to, as raw MIME: the body itself
 * (`message/rfc822`, with the envelope in `X-Envelope-From`/`X-Envelope-To` if the service sends
 * one), or a `multipart/form-data` form whose `email` (SendGrid Inbound Parse, raw mode) or
 * `body-mime` (Mailgun, MIME routes) field holds it, with the envelope in `envelope` JSON or
 * `sender`/`recipient`. Answers 200 with `{ status }` for every message it judged (a refused one
 * too, so the service does not retry it), 400/413 for one it cannot read, 401 for a wrong token,
 * 500 when the host failed (the service retries).
 */
export function emailWebhook(channel: EmailChannel, options: EmailWebhookOptions = {}): EmailWebhookHandler {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const token = options.token === undefined ? undefined : Buffer.from(options.token, 'utf8');
  if (token !== undefined && token.length < 16) throw new EmailChannelError('INVALID_OPTIONS', 'emailWebhook: token must have at least 16 characters (a random string the inbound service sends).');

  return async (request) => {
    if (request.method !== 'POST') return json(405, { error: 'POST one message' });
    if (token !== undefined && !tokenMatches(token, request)) return json(401, { error: 'unauthorized' });
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > maxBytes) return json(413, { error: `over ${maxBytes} bytes` });
    let message: { raw: Uint8Array; envelope: InboundEnvelope };
    try {
      message = await readMessage(request, maxBytes);
    } catch (error) {
      return json(error instanceof TooLarge ? 413 : 400, { error: error instanceof Error ? error.message : 'unreadable body' });
    }
    try {
      const result = await channel.receive(message.raw, message.envelope);
      return json(200, result.status === 'rejected' || result.status === 'ignored' ? { status: result.status, reason: result.reason } : { status: result.status });
    } catch (error) {
      if (EmailChannelError.isInstance(error) && error.code === 'INVALID_MESSAGE') return json(400, { error: error.message });
      return json(500, { error: 'temporary failure; retry later' });
    }
  };
}

class TooLarge extends Error {}

async function readMessage(request: Request, maxBytes: number): Promise<{ raw: Uint8Array; envelope: InboundEnvelope }> {
  const type = request.headers.get('content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    const form = await request.formData();
    const field = form.get('email') ?? form.get('body-mime') ?? form.get('raw');
    if (field === null) throw new Error('the form has no "email", "body-mime" or "raw" field with the message');
    const raw = typeof field === 'string' ? new TextEncoder().encode(field) : new Uint8Array(await field.arrayBuffer());
    if (raw.byteLength > maxBytes) throw new TooLarge(`over ${maxBytes} bytes`);
    return { raw, envelope: formEnvelope(form) };
  }
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength > maxBytes) throw new TooLarge(`over ${maxBytes} bytes`);
  const from = request.headers.get('x-envelope-from');
  const to = request.headers.get('x-envelope-to');
  return { raw: body, envelope: { ...(from === null ? {} : { mailFrom: from }), ...(to === null ? {} : { rcptTo: to.split(',').map((part) => part.trim()).filter(Boolean) }) } };
}

function formEnvelope(form: FormData): InboundEnvelope {
  const envelope = form.get('envelope');
  if (typeof envelope === 'string') {
    try {
      const parsed = JSON.parse(envelope) as { from?: unknown; to?: unknown };
      return {
        ...(typeof parsed.from === 'string' ? { mailFrom: parsed.from } : {}),
        ...(Array.isArray(parsed.to) ? { rcptTo: parsed.to.filter((to): to is string => typeof to === 'string') } : {}),
      };
    } catch {
      return {};
    }
  }
  const sender = form.get('sender');
  const recipient = form.get('recipient');
  return { ...(typeof sender === 'string' ? { mailFrom: sender } : {}), ...(typeof recipient === 'string' ? { rcptTo: recipient.split(',').map((part) => part.trim()) } : {}) };
}

function tokenMatches(token: Buffer, request: Request): boolean {
  const header = request.headers.get('authorization');
  const presented = header?.startsWith('Bearer ') ? header.slice(7) : (new URL(request.url).searchParams.get('token') ?? '');
  const bytes = Buffer.from(presented, 'utf8');
  return bytes.length === token.length && timingSafeEqual(bytes, token);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
