import type { TextLang } from '@askseam/text';
import type { ParsedMail } from 'mailparser';
import * as z from 'zod';
import { EmailChannelError } from './errors.js';
import type { ChannelHost, ChannelQuestion } from './port.js';

/** The SMTP envelope of one inbound message: who the sending server named as sender and recipients. */
export interface InboundEnvelope {
  /** MAIL FROM; `false` or `''` for the null sender of a bounce. */
  mailFrom?: string | false | undefined;
  /** RCPT TO, one address each. */
  rcptTo?: readonly string[] | undefined;
}

export const inboundEnvelopeSchema = z.object({
  mailFrom: z.union([z.string().max(512), z.literal(false)]).optional(),
  rcptTo: z.array(z.string().max(512)).max(100).optional(),
});

/** The part of a nodemailer transport the channel uses (`nodemailer.createTransport(…)` is one). */
export interface MailTransport {
  sendMail(mail: {
    from: string | { name: string; address: string };
    to: string;
    replyTo: string;
    subject: string;
    text: string;
    html: string;
    messageId: string;
    inReplyTo?: string;
    references?: string[];
    headers: Record<string, string>;
  }): Promise<unknown>;
}

export interface EmailChannelOptions {
  /** The askseam host (`createWebSocketHost`); the channel answers through its own checks. */
  host: ChannelHost;
  /** Where mail goes out: a nodemailer transport (SMTP, SES, a service's transport). */
  transport: MailTransport;
  /** The sender of the channel's mails, e.g. `'Agent <agent@example.com>'` or `{ name, address }`. */
  from: string | { name: string; address: string };
  /** The address to ask a question at, or `undefined` to leave it to other channels. */
  to(question: ChannelQuestion): string | undefined | Promise<string | undefined>;
  /** The reply address, e.g. `reply@reply.example.com`: each question's becomes `reply+<id>.<mac>@reply.example.com`. */
  replyTo: string;
  /** At least 32 bytes, stable across restarts: signs the reply addresses. A list rotates: the first signs, all verify. */
  secret: string | Uint8Array | readonly (string | Uint8Array)[];
  /** Extra proof a reply is from its sender (e.g. `Authentication-Results: …dkim=pass`); false rejects it. Default: none. */
  authenticated?: (envelope: InboundEnvelope, mail: ParsedMail) => boolean | Promise<boolean>;
  /** Mail a short "answered by … in …" note when a mailed question settles elsewhere. Default false. */
  settledNote?: boolean;
  /** Mail the questions already pending when the channel opens (the last process mailed them). Default false. */
  mailPendingOnOpen?: boolean;
  /** The most corrective or notice mails in one thread; later replies in it answer or get nothing. Default 5. */
  maxNotices?: number;
  /** The largest inbound message read, in bytes. Default 10 MiB. */
  maxMessageBytes?: number;
  /** The language of the channel's own sentences. Default: the questions'. */
  lang?: TextLang;
  /** A mail that could not be sent, or an inbound message that failed; default `console.error`. */
  onError?: (error: unknown) => void;
}

const addressLike = z.string().trim().min(3).max(320).regex(/^[^\s@<>]+@[^\s@<>]+$/, 'one plain address like reply@reply.example.com');
const optionsSchema = z.object({
  host: z.custom<ChannelHost>((value) => typeof value === 'object' && value !== null && typeof (value as ChannelHost).openChannel === 'function', 'a host with openChannel (createWebSocketHost)'),
  transport: z.custom<MailTransport>((value) => typeof value === 'object' && value !== null && typeof (value as MailTransport).sendMail === 'function', 'a nodemailer transport (sendMail)'),
  from: z.union([z.string().min(3), z.object({ name: z.string(), address: addressLike })]),
  to: z.custom<EmailChannelOptions['to']>((value) => typeof value === 'function', 'a function question → address'),
  replyTo: addressLike,
  secret: z.unknown(),
  authenticated: z.custom<NonNullable<EmailChannelOptions['authenticated']>>((value) => typeof value === 'function', 'a function').optional(),
  settledNote: z.boolean().optional(),
  mailPendingOnOpen: z.boolean().optional(),
  maxNotices: z.number().int().min(0).max(100).optional(),
  maxMessageBytes: z.number().int().min(1024).optional(),
  lang: z.enum(['en', 'zh']).optional(),
  onError: z.custom<(error: unknown) => void>((value) => typeof value === 'function', 'a function').optional(),
});

export type ResolvedEmailChannelOptions = Required<Pick<EmailChannelOptions, 'settledNote' | 'mailPendingOnOpen' | 'maxNotices' | 'maxMessageBytes' | 'onError'>> &
  Omit<EmailChannelOptions, 'settledNote' | 'mailPendingOnOpen' | 'maxNotices' | 'maxMessageBytes' | 'onError'>;

export function resolveOptions(options: EmailChannelOptions): ResolvedEmailChannelOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EmailChannelError('INVALID_OPTIONS', `emailChannel: ${issue?.path.map(String).join('.') || 'options'}: ${issue?.message ?? 'invalid'}.`);
  }
  return {
    ...options,
    settledNote: options.settledNote ?? false,
    mailPendingOnOpen: options.mailPendingOnOpen ?? false,
    maxNotices: options.maxNotices ?? 5,
    maxMessageBytes: options.maxMessageBytes ?? 10 * 1024 * 1024,
    onError: options.onError ?? ((error) => console.error('[askseam/email]', error)),
  };
}
