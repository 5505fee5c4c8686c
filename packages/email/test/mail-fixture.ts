// Real mail for the e-mail channel's tests, all on 127.0.0.1: a "mailbox" SMTP server (smtp-server)
// where the channel's mails to people arrive, parsed with mailparser; the channel's own inbound
// listener; and people's mail clients, which are nodemailer transports sending replies quoted the
// way real clients quote. One `cleanup()` closes everything a test opened.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { createWebSocketHost, type WebSocketHostOptions } from '@askseam/host-ws';
import { emailChannel, listenSmtp, type EmailChannel, type EmailChannelOptions } from '../src/index.js';

const open: (() => Promise<void>)[] = [];

export async function cleanup(): Promise<void> {
  for (const close of open.splice(0).reverse()) await close();
}

export const SECRET = randomBytes(32).toString('base64url');
export const AGENT = 'agent@agent.example.com';
export const REPLY_TO = 'reply@reply.example.com';

/** Every mail the channel sent to people, parsed, with a wait for the next one. */
export interface Mailbox {
  port: number;
  received: ParsedMail[];
  next(where?: (mail: ParsedMail) => boolean): Promise<ParsedMail>;
}

export async function startMailbox(): Promise<Mailbox> {
  const received: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        received.push(mail);
        for (const wake of waiters) wake();
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  let taken = 0;
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    next(where = () => true) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const index = received.findIndex((mail, i) => i >= taken && where(mail));
          if (index === -1) return;
          taken = index + 1;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(received[index]!);
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no mail within 5 s; got ${received.length}: ${received.map((mail) => mail.subject).join(' | ')}`));
        }, 5_000);
        waiters.add(look);
        look();
      });
    },
  };
}

/** A live root agent registry, so that any of these sessions may ask. */
export function rootAgents(...ids: string[]) {
  const agents = new Map<string, AgentRef>(ids.map((id) => [id, { id }]));
  return { get: (id: string) => agents.get(id), roots: () => agents.values() };
}

export async function startHost(options: Partial<WebSocketHostOptions> = {}) {
  const agents = rootAgents('agent-a');
  const userQuestions = new UserQuestions({ agents });
  const host = await createWebSocketHost({ token: 'test-token-123', port: 0, userQuestions, ...options });
  open.push(() => host.close());
  // The seam checks the asking agent by identity: the registry's own object.
  return { host, userQuestions, agent: agents.get('agent-a')! };
}

/** The channel, mailing through a real SMTP transport into `mailbox`, and its inbound SMTP listener. */
export async function startChannel(
  host: EmailChannelOptions['host'],
  mailbox: Mailbox,
  extra: Partial<EmailChannelOptions> = {},
): Promise<{ channel: EmailChannel; inboundPort: number }> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: mailbox.port, secure: false, ignoreTLS: true });
  open.push(async () => transport.close());
  const channel = emailChannel({ host, transport, from: `Agent <${AGENT}>`, replyTo: REPLY_TO, secret: SECRET, to: () => 'alex@example.com', ...extra });
  open.push(() => channel.close());
  const listener = await listenSmtp(channel, { port: 0 });
  open.push(() => listener.close());
  return { channel, inboundPort: listener.port };
}

export interface ReplyOptions {
  from?: string;
  to?: string;
  text?: string;
  html?: string;
  subject?: string;
  headers?: Record<string, string>;
  /** Leave out In-Reply-To and References (a client that drops them). */
  unthreaded?: boolean;
}

/** A reply to `mail` as a person's client sends it: to its Reply-To, threaded under it. */
export function replyTo(mail: ParsedMail, options: ReplyOptions) {
  const references = [...(typeof mail.references === 'string' ? [mail.references] : (mail.references ?? [])), ...(mail.messageId === undefined ? [] : [mail.messageId])];
  return {
    from: options.from ?? 'Alex <alex@example.com>',
    to: options.to ?? mail.replyTo?.value[0]?.address ?? '',
    subject: options.subject ?? `Re: ${mail.subject ?? ''}`,
    ...(options.text === undefined ? {} : { text: options.text }),
    ...(options.html === undefined ? {} : { html: options.html }),
    ...(options.unthreaded ? {} : { inReplyTo: mail.messageId, references }),
    headers: options.headers ?? {},
  };
}

/** Send a reply through real SMTP to the channel's listener; resolves with the SMTP result or the refusal. */
export async function sendReply(port: number, message: ReturnType<typeof replyTo>): Promise<{ ok: true } | { ok: false; responseCode: number | undefined; message: string }> {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    await client.sendMail(message);
    return { ok: true };
  } catch (error) {
    const failure = error as { responseCode?: number; message: string };
    return { ok: false, responseCode: failure.responseCode, message: failure.message };
  } finally {
    client.close();
  }
}

/** The same reply as raw RFC 5322 bytes (for the webhook). */
export async function rawReply(message: ReturnType<typeof replyTo>): Promise<Buffer> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = (await composer.sendMail(message)) as { message: Buffer };
  return info.message;
}

/** Gmail's way of quoting: new text, then "On … wrote:" and the question quoted with "> ". */
export function gmailQuote(answer: string, mail: ParsedMail): string {
  return `${answer}\n\nOn Tue, Dec 1, 2026 at 10:00 AM Agent <${AGENT}> wrote:\n\n${(mail.text ?? '').split('\n').map((line) => `> ${line}`).join('\n')}\n`;
}

/** Outlook on the web's HTML-only reply: new text, then <hr> and the divRplyFwdMsg header block with the question. */
export function outlookHtml(answer: string, mail: ParsedMail): string {
  return (
    `<html><body><div style="font-family: Aptos, sans-serif">${answer}</div><div id="appendonsend"></div>` +
    '<hr style="display:inline-block;width:98%" tabindex="-1">' +
    `<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Agent &lt;${AGENT}&gt;<br><b>Sent:</b> Tuesday, December 1, 2026 10:00<br><b>Subject:</b> ${mail.subject ?? ''}</font><div>&nbsp;</div></div>` +
    `<div>${mail.html || ''}</div></body></html>`
  );
}
