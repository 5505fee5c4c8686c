import type { ReceiptFrame } from '@askseam/protocol';
import { detectLang, parseTextReply } from '@askseam/text';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { normalAddress, type ReplySigner } from './address.js';
import { autoReplyReason } from './auto-reply.js';
import { EmailChannelError } from './errors.js';
import { inboundEnvelopeSchema, type InboundEnvelope, type ResolvedEmailChannelOptions } from './options.js';
import { NOTICE_ID_PREFIX, type Outbox } from './outbox.js';
import type { ChannelQuestion, HostChannel } from './port.js';
import { correctionMail, noticeMail, subjectOf } from './render.js';
import { mailMessages } from './messages.js';
import { replyTextOf } from './reply-text.js';

/** What became of one inbound message. */
export type InboundResult =
  /** The reply answered its question (the host accepted it). */
  | { status: 'answered'; rpcId: string }
  /** The reply did not fit: a correction was mailed under it, and the question stays pending. */
  | { status: 'corrected'; rpcId: string; problems: string[] }
  /** The question had already ended: the sender was told so (unless the thread had too many notices). */
  | { status: 'already-answered'; rpcId: string }
  /** Accepted and dropped without a word: an auto-reply, one of our own mails, a loop, or a refusal by the host. */
  | { status: 'ignored'; reason: IgnoredReason; rpcId?: string }
  /** Not for any question of ours from this sender: refuse it (SMTP 550); nothing is mailed back. */
  | { status: 'rejected'; reason: RejectedReason; message: string };

export type IgnoredReason = 'auto-reply' | 'own-mail' | 'too-many-notices' | 'forbidden';
export type RejectedReason = 'unknown-address' | 'unknown-question' | 'unauthenticated';

export interface InboundDeps {
  options: ResolvedEmailChannelOptions;
  signer: ReplySigner;
  outbox: Outbox;
  channel: () => HostChannel;
  /** Our own sender address, lower-cased: mail from it is never a person's answer. */
  ownAddress: string;
}

/**
 * One inbound message, judged in this order (the order is the contract): readable and in bounds;
 * not our own mail; not an auto-reply; addressed to a signed reply address (or threaded under a
 * question mail) whose signature matches its From; authenticated by the app's hook; its question
 * still pending; the new text read by `parseTextReply`; then one `respond` through the host.
 */
export async function receiveMail(deps: InboundDeps, raw: string | Uint8Array, envelopeInput: InboundEnvelope = {}): Promise<InboundResult> {
  const { options, signer, outbox } = deps;
  const size = typeof raw === 'string' ? Buffer.byteLength(raw) : raw instanceof Uint8Array ? raw.byteLength : -1;
  if (size <= 0) throw new EmailChannelError('INVALID_MESSAGE', 'receive needs one e-mail message as raw RFC 5322 bytes (a string or Uint8Array); got nothing.');
  if (size > options.maxMessageBytes) throw new EmailChannelError('INVALID_MESSAGE', `The message has ${size} bytes, over maxMessageBytes (${options.maxMessageBytes}); it was not read.`);
  const envelope = inboundEnvelopeSchema.safeParse(envelopeInput);
  if (!envelope.success) throw new EmailChannelError('INVALID_MESSAGE', `receive: the envelope must be { mailFrom?, rcptTo? } with addresses: ${envelope.error.issues[0]?.message ?? 'invalid'}.`);
  // Only the text and HTML parts are read: no text made from HTML (we cut its quotes first), no textAsHtml, no link rewriting.
  const mail = await simpleParser(typeof raw === 'string' ? raw : Buffer.from(raw), { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const from = normalAddress(firstAddress(mail.from) ?? '');

  // 1. Our own mail (looped back by a forward rule or a mailing list) never answers.
  if (from === deps.ownAddress || mail.headers.has('x-askseam-mail')) return { status: 'ignored', reason: 'own-mail' };
  // 2. Nobody wrote an auto-reply: it answers nothing and gets nothing.
  if (autoReplyReason((name) => mail.headers.get(name), mail.subject, envelope.data.mailFrom) !== undefined) return { status: 'ignored', reason: 'auto-reply' };
  // 3. The question: by the signed address it came to, else by the question mail it is threaded under.
  const found = findQuestion(signer, mail, envelope.data, from);
  if (found === undefined) {
    return { status: 'rejected', reason: 'unknown-address', message: 'No question is waiting for a reply from this sender at this address.' };
  }
  const { rpcId } = found;
  // 4. The app's own proof of the sender (DKIM, SPF as the receiving MTA recorded them).
  if (options.authenticated !== undefined && !(await options.authenticated(envelope.data, mail))) {
    return { status: 'rejected', reason: 'unauthenticated', message: 'The message did not pass this mailbox\'s sender authentication.' };
  }
  const thread = threadOf(mail);
  const noticesLeft = thread.filter((id) => id.startsWith(NOTICE_ID_PREFIX)).length < options.maxNotices;
  const inThread = { inReplyTo: mail.messageId, references: mail.messageId === undefined ? thread : [...thread, mail.messageId] };
  const subject = mail.subject ?? '';

  // 5. Still pending? A settled one gets "already answered"; one the store does not hold, nothing.
  const channel = deps.channel();
  const question = channel.pending().find((candidate) => candidate.rpcId === rpcId);
  if (question === undefined) {
    const record = await options.host.store.get(rpcId);
    // Known but not pending here: one this channel may not see, or its save has not landed; either way not ours to answer.
    if (record?.outcome === undefined) return { status: 'rejected', reason: 'unknown-question', message: 'That question is not known here.' };
    if (!noticesLeft) return { status: 'ignored', reason: 'too-many-notices', rpcId };
    await sendAlreadyAnswered(deps, rpcId, from, subject || subjectOf(record.questions, options.lang ?? detectLang(record.questions)), inThread, record.questions);
    return { status: 'already-answered', rpcId };
  }

  // 6. The new text, read like any text channel's reply.
  const lang = options.lang ?? detectLang(question.questions);
  const parsed = parseTextReply(question.questions, replyTextOf(mail), { lang });
  if (!parsed.ok) {
    const problems = parsed.problems.map((problem) => problem.message);
    if (!noticesLeft) return { status: 'ignored', reason: 'too-many-notices', rpcId };
    await outbox.send('correction', rpcId, from, correctionMail(question, problems, { lang, subject: subject || subjectOf(question.questions, lang), link: linkFor(deps, rpcId) }), inThread);
    return { status: 'corrected', rpcId, problems };
  }

  // 7. One respond through the host's own checks; its receipt decides what the person hears.
  // The destination as the host's route spells it ('email:Lead@Example.com'), so its `{ channel }` answerer matches.
  const destination = question.destinations?.find((named) => named.startsWith('email:') && normalAddress(named.slice('email:'.length)) === from) ?? `email:${from}`;
  const receipt: ReceiptFrame = await channel.respond(rpcId, { ok: true, value: { sessionId: question.sessionId, answer: parsed.answer } }, { user: from, destination });
  if (receipt.accepted) return { status: 'answered', rpcId };
  if (receipt.reason === 'forbidden') return { status: 'ignored', reason: 'forbidden', rpcId };
  if (!noticesLeft) return { status: 'ignored', reason: 'too-many-notices', rpcId };
  if (receipt.reason === 'not-pending') {
    await sendAlreadyAnswered(deps, rpcId, from, subject, inThread, question.questions);
    return { status: 'already-answered', rpcId };
  }
  const problems = [receipt.detail ?? 'The answer does not fit the question.'];
  await outbox.send('correction', rpcId, from, correctionMail(question, problems, { lang, subject: subject || subjectOf(question.questions, lang), link: linkFor(deps, rpcId) }), inThread);
  return { status: 'corrected', rpcId, problems };
}

/** The question a reply answers, if its sender is the person it was mailed to. */
function findQuestion(signer: ReplySigner, mail: ParsedMail, envelope: InboundEnvelope, from: string): { rpcId: string } | undefined {
  if (from === '') return undefined;
  const recipients = [...(envelope.rcptTo ?? []), ...addressesOf(mail.to), ...addressesOf(mail.cc), ...headerAddresses(mail, 'delivered-to'), ...headerAddresses(mail, 'x-original-to')];
  for (const recipient of recipients) {
    const signed = signer.addressed(recipient);
    if (signed !== undefined && signer.verify(signed.rpcId, signed.mac, from)) return { rpcId: signed.rpcId };
  }
  for (const id of threadOf(mail)) {
    const signed = signer.referenced(id);
    if (signed !== undefined && signer.verify(signed.rpcId, signed.mac, from)) return { rpcId: signed.rpcId };
  }
  return undefined;
}

async function sendAlreadyAnswered(deps: InboundDeps, rpcId: string, to: string, subject: string, thread: { inReplyTo?: string | undefined; references: string[] }, questions: ChannelQuestion['questions']): Promise<void> {
  const words = mailMessages[deps.options.lang ?? detectLang(questions)];
  await deps.outbox.send('already-answered', rpcId, to, noticeMail(subject, [words.alreadyAnswered(undefined)]), thread);
}

function linkFor(deps: InboundDeps, rpcId: string): string | undefined {
  try {
    return deps.options.host.linkFor(rpcId);
  } catch {
    // No linkBaseUrl (or settled meanwhile): the mail offers replying only.
    return undefined;
  }
}

/** In-Reply-To then References, each a Message-ID. */
function threadOf(mail: ParsedMail): string[] {
  const references = mail.references === undefined ? [] : Array.isArray(mail.references) ? mail.references : mail.references.split(/\s+/);
  const ids = [...references, ...(mail.inReplyTo === undefined ? [] : mail.inReplyTo.split(/\s+/))].map((id) => id.trim()).filter((id) => id !== '');
  return [...new Set(ids)];
}

function firstAddress(field: AddressObject | AddressObject[] | undefined): string | undefined {
  return addressesOf(field)[0];
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  if (field === undefined) return [];
  const objects = Array.isArray(field) ? field : [field];
  return objects.flatMap((object) => object.value.flatMap((entry) => [entry.address, ...(entry.group ?? []).map((member) => member.address)])).filter((address): address is string => typeof address === 'string');
}

function headerAddresses(mail: ParsedMail, name: string): string[] {
  const value = mail.headers.get(name);
  const text = typeof value === 'string' ? value : value !== undefined && typeof value === 'object' && 'text' in value ? String(value.text) : '';
  return text.split(/[\s,;<>]+/).filter((part) => part.includes('@'));
}
