import { randomBytes } from 'node:crypto';
import type { ReplySigner } from './address.js';
import type { MailTransport, ResolvedEmailChannelOptions } from './options.js';
import type { MailContent } from './render.js';

/** What kind of mail the channel sends: the question itself, or a notice in its thread (a correction, "already answered", a settled note). */
export type OutgoingKind = 'question' | 'correction' | 'already-answered' | 'settled-note';

export interface ThreadPosition {
  /** The Message-ID this mail answers (the person's reply, or the question mail). */
  inReplyTo?: string | undefined;
  /** The thread so far, oldest first. */
  references?: readonly string[] | undefined;
}

/** Prefix of every notice's Message-ID: a reply whose References hold many of them is a loop. */
export const NOTICE_ID_PREFIX = '<askseam.n.';

/**
 * Sends the channel's mails: each with the signed Reply-To of its question, a Message-ID the
 * thread can be followed by, and the headers that keep auto-responders from answering (RFC 3834
 * Auto-Submitted, Exchange's X-Auto-Response-Suppress) and mark it as ours (X-Askseam-Mail).
 */
export class Outbox {
  readonly #transport: MailTransport;
  readonly #from: ResolvedEmailChannelOptions['from'];
  readonly #signer: ReplySigner;

  constructor(transport: MailTransport, from: ResolvedEmailChannelOptions['from'], signer: ReplySigner) {
    this.#transport = transport;
    this.#from = from;
    this.#signer = signer;
  }

  /** Mail `content` about question `rpcId` to `to`; resolves with the Message-ID it was sent under. */
  async send(kind: OutgoingKind, rpcId: string, to: string, content: MailContent, thread: ThreadPosition = {}): Promise<string> {
    const messageId = kind === 'question' ? this.#signer.messageId(rpcId, to) : `${NOTICE_ID_PREFIX}${rpcId}.${randomBytes(8).toString('hex')}@${this.#signer.domain}>`;
    await this.#transport.sendMail({
      from: this.#from,
      to,
      replyTo: this.#signer.address(rpcId, to),
      subject: content.subject,
      text: content.text,
      html: content.html,
      messageId,
      ...(thread.inReplyTo === undefined ? {} : { inReplyTo: thread.inReplyTo }),
      ...(thread.references === undefined || thread.references.length === 0 ? {} : { references: [...thread.references] }),
      headers: {
        'Auto-Submitted': kind === 'question' || kind === 'settled-note' ? 'auto-generated' : 'auto-replied',
        'X-Auto-Response-Suppress': 'OOF, AutoReply',
        'X-Askseam-Mail': kind,
      },
    });
    return messageId;
  }
}
